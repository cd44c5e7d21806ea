"""The Multilabel classification page's controls (AppTest): threshold, model, rule, k,
the per-label thresholds, beta, zero_division and the tabs, each followed by the headline
and the address."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from metrics import (
    multilabel_per_sample,
    threshold_predictions,
    top_k_predictions,
)
from tests.conftest import APP, metric
from tests.views.multilabel.helpers import (
    PAGE,
    assert_metrics,
    expected,
    open_page,
    open_tab,
)
from views.multilabel.panel import TAB_KEY, TABS


def test_threshold_model_beta_and_zero_division_controls():
    at = open_page()
    ds = load_sample("digit_properties")
    at.slider(key="ml_threshold").set_value(0.3).run()
    pred = threshold_predictions(ds.score(), 0.3)
    assert_metrics(at, expected(ds, pred))
    assert at.query_params["t"] == "0.30"

    at.selectbox(key="ml_model").set_value("from_digit").run()
    pred = threshold_predictions(ds.score("from_digit"), 0.3)
    assert_metrics(at, expected(ds, pred))
    assert at.query_params["model"] == "from_digit"

    # a high threshold empties labels and samples: zero_division decides
    at.slider(key="ml_threshold").set_value(0.95).run()
    pred = threshold_predictions(ds.score("from_digit"), 0.95)
    for zd_key, zd in (("1", 1), ("nan", np.nan), ("0", 0), ("warn", "warn")):
        at.radio(key="ml_zero_division").set_value(zd_key).run()
        assert_metrics(at, expected(ds, pred, zd=zd))
        assert at.query_params["zd"] == zd_key
    assert any("never predicted" in i.value for i in at.info)

    at.number_input(key="ml_beta").set_value(2.0).run()
    assert not at.exception
    open_tab(at, "Per-label tables")
    avg = at.dataframe[1].value
    assert avg["F-beta"].iloc[0] == pytest.approx(
        metrics.fbeta_score(ds.y_true, pred, beta=2.0, average="macro")
    )
    assert at.query_params["beta"] == "2"


def test_top_k_rule():
    at = open_page()
    ds = load_sample("digit_properties")
    at.radio(key="ml_pred_rule").set_value("top_k").run()
    assert_metrics(at, expected(ds, top_k_predictions(ds.score(), k=1)))
    at.number_input(key="ml_top_k").set_value(3).run()
    assert_metrics(at, expected(ds, top_k_predictions(ds.score(), k=3)))
    assert at.query_params["k"] == "3" and at.query_params["rule"] == "top_k"


def test_per_label_thresholds_editor():
    at = open_page()
    ds = load_sample("digit_properties")
    at.radio(key="ml_pred_rule").set_value("per_label").run()
    assert_metrics(at, expected(ds, threshold_predictions(ds.score(), 0.5)))
    at.session_state["ml_label_thresholds"] = {
        "edited_rows": {1: {"threshold": 0.2}, 4: {"threshold": 0.7}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    t = [0.5, 0.2, 0.5, 0.5, 0.7]
    assert_metrics(at, expected(ds, threshold_predictions(ds.score(), t)))
    assert at.query_params["lt"] == "0.5,0.2,0.5,0.5,0.7"
    # an emptied cell keeps that label's threshold of the address: the link shows the same
    at.session_state["ml_label_thresholds"] = {
        "edited_rows": {1: {"threshold": None}, 4: {"threshold": 0.7}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert_metrics(at, expected(ds, threshold_predictions(ds.score(), t)))
    assert at.query_params["lt"] == "0.5,0.2,0.5,0.5,0.7"
    assert any("empty threshold keeps" in c.value for c in at.caption)


def test_url_reproduces_the_view():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "digit_properties", "rule": "top_k", "k": "2", "zd": "1"})
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    ds = load_sample("digit_properties")
    assert_metrics(at, expected(ds, top_k_predictions(ds.score(), k=2), zd=1))


def test_threshold_steps_in_the_panel_give_the_headline_and_the_url():
    """The threshold and what it changes are one st.fragment: each of several moves shows
    the headline of that threshold (computed by metrics), the URL follows, and a fresh
    session given the last address shows the same numbers."""
    ds = load_sample("digit_properties")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = open_page("digit_properties")
    for t in (0.3, 0.42, 0.61, 0.77):
        at.slider(key="ml_threshold").set_value(t).run()
        assert not at.exception
        pred = threshold_predictions(s, t)
        assert metric(at, "Hamming loss") == fmt(metrics.hamming_loss(y, pred))
        assert metric(at, "Subset accuracy") == fmt(metrics.accuracy_score(y, pred))
        assert metric(at, "Micro F1") == fmt(metrics.f1_score(y, pred, average="micro"))
        assert metric(at, "Macro F1") == fmt(metrics.f1_score(y, pred, average="macro"))
        assert at.query_params["t"] == f"{t:.2f}"
    again = open_page("digit_properties", t="0.77")
    assert metric(again, "Micro F1") == metric(at, "Micro F1")
    assert metric(again, "Macro F1") == metric(at, "Macro F1")


def test_a_link_opens_a_tab_and_a_move_keeps_the_headline_and_the_tab():
    """?tab= names a tab by its first word: the link opens it (only its content is
    drawn), a threshold move keeps it open, the headline follows metrics, the address
    keeps the tab; a tab the page does not have opens the derivations."""
    ds = load_sample("digit_properties")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = open_page("digit_properties", tab="every")
    assert at.session_state[TAB_KEY] == "Every sample"
    assert len(at.dataframe) == 1 and not at.latex
    for t in (0.35, 0.62):
        at.slider(key="ml_threshold").set_value(t).run()
        assert not at.exception
        pred = threshold_predictions(s, t)
        assert_metrics(at, expected(ds, pred))
        assert at.session_state[TAB_KEY] == "Every sample"
        assert at.query_params["tab"] == "every" and at.query_params["t"] == f"{t:.2f}"
        rows = multilabel_per_sample(y, pred, label_names=ds.label_names)
        assert at.dataframe[0].value["wrong"].iloc[0] == rows["wrong"].max()
    again = open_page("digit_properties", tab="per-label")
    assert again.session_state[TAB_KEY] == "Per-label tables" and len(again.dataframe) == 3
    bad = open_page("digit_properties", tab="<b>")
    assert bad.session_state[TAB_KEY] == TABS[0] and bad.query_params["tab"] == "derivations"
