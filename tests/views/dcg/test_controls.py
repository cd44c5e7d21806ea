"""DCG & NDCG page: each control (k, log base, ties, gain, model, the tabs) moves the
numbers, the step table and the link."""

from __future__ import annotations

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from metrics import (
    exponential_gain,
)
from tests import conftest
from tests.conftest import APP, metric, numbered_selectbox, rendered
from tests.views.dcg.helpers import PAGE, open_page, steps_table
from views.dcg.panel import TAB_KEY, TABS

# k=None first: the page opens with k empty (all items); AppTest cannot empty a number input
SETTINGS = [(None, "e", False), (3, "2", False), (1, "10", True), (5, "2", True)]


def test_controls_move_metrics_and_step_table():
    at = open_page("diabetes_ranking")
    at.selectbox(key="dcg_model").set_value("tree").run()
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score("tree")
    for k, base, ties in SETTINGS:
        if k is not None:
            at.number_input(key="dcg_k").set_value(k).run()
        assert at.number_input(key="dcg_k").value == k
        at.selectbox(key="dcg_log_base").set_value(base).run()
        if base == "other":
            at.number_input(key="dcg_log_base_other").set_value(3.5).run()
        at.toggle(key="dcg_ignore_ties").set_value(ties).run()
        numbered_selectbox(at, "dcg_sample").set_value(4).run()
        assert not at.exception
        b = {"2": 2, "10": 10, "e": math.e, "other": 3.5}[base]
        assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=k, log_base=b, ignore_ties=ties))
        assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=k, ignore_ties=ties))
        want = metrics.dcg_steps(y[4], s[4], k=k, log_base=b, ignore_ties=ties)
        t = steps_table(at)
        np.testing.assert_allclose(t["running sum"], want["running_sum"], rtol=1e-12)
        np.testing.assert_allclose(t["gain used"], want["mean_gain"], rtol=1e-12)
        row_dcg = metrics.dcg_per_sample(y, s, k=k, log_base=b, ignore_ties=ties)[4]
        assert metric(at, "DCG of this sample") == fmt(row_dcg)
        assert want["running_sum"].iloc[-1] == pytest.approx(row_dcg, rel=1e-12)
        # NDCG as the ratio of the two sums at any base equals ndcg_per_sample (base 2)
        ideal = metrics.dcg_per_sample(y, y, k=k, log_base=b)[4]
        ndcg = metrics.ndcg_per_sample(y, s, k=k, ignore_ties=ties)[4]
        assert row_dcg / ideal == pytest.approx(ndcg, rel=1e-12)
        assert metric(at, "NDCG of this sample") == fmt(ndcg)
        notes = [i.value for i in at.info]
        assert (base != "2") == any("does not depend on the log base" in n for n in notes)
        assert at.query_params["k"] in (
            ["all" if k is None else str(k)],
            "all" if k is None else str(k),
        )


def test_exponential_gain_and_url_params():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "diabetes_ranking", "k": "4", "gain": "exponential"})
    at.query_params["ignore_ties"] = "1"
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    ds = load_sample("diabetes_ranking")
    y, s = exponential_gain(ds.y_true), ds.score()
    assert at.radio(key="dcg_gain").value == "2^rel - 1"
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=4, ignore_ties=True))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=4, ignore_ties=True))
    at.radio(key="dcg_gain").set_value("as given (scikit-learn)").run()
    assert metric(at, "DCG") == fmt(metrics.dcg_score(ds.y_true, s, k=4, ignore_ties=True))
    # LightGBM's preset on the tied model: exponential gain, ties in the input order
    at.toggle(key="dcg_ignore_ties").set_value(False)
    at.selectbox(key="dcg_model").set_value("tree").run()
    s = ds.score("tree")
    at.selectbox(key="dcg_preset").set_value("LightGBM / XGBoost").run()
    assert at.radio(key="dcg_gain").value == "2^rel - 1"
    assert at.toggle(key="dcg_ignore_ties").value is True
    assert at.query_params["preset"] == "lightgbm" and at.query_params["gain"] == "exponential"
    stable = np.argsort(-s, axis=1, kind="stable")[:, :4]  # LightGBM's stable sort
    disc = 1 / np.log2(np.arange(2, 6))
    got = (np.take_along_axis(y, stable, axis=1) @ disc).mean()
    assert got != pytest.approx(metrics.dcg_score(y, s, k=4, ignore_ties=True))
    assert metric(at, "DCG") == fmt(got)
    assert any("ties in input order (LightGBM / XGBoost)" in m.value for m in at.markdown)


def test_log_base_one_shows_error_not_traceback():
    at = open_page("seed001_dcg")
    at.selectbox(key="dcg_log_base").set_value("other").run()
    at.number_input(key="dcg_log_base_other").set_value(1.0).run()
    assert not at.exception
    assert "log_base must not be 1" in rendered(at.error[0].value)


def test_wrong_kind_notice():
    at = open_page("balanced")
    assert not at.exception
    assert "graded relevance" in at.info[0].value
    assert not at.metric
    at.button(key="open_fitting_sample").click().run()
    assert at.session_state["active_dataset"] == "seed001_dcg"


def test_k_steps_in_the_panel_give_the_headline_the_url_and_a_link_that_reproduces():
    """k and what it changes are one st.fragment: each of several moves of k shows the
    DCG and NDCG of that k (metrics), the URL follows, and the last address opens the same
    numbers in a fresh session."""
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = open_page("diabetes_ranking")
    for k in (1, 2, 3, 5, 4):
        at.number_input(key="dcg_k").set_value(k).run()
        assert not at.exception
        assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=k))
        assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=k))
        assert at.query_params["k"] == str(k)
    again = conftest.open_page(PAGE, "diabetes_ranking", k="4")
    assert metric(again, "DCG") == fmt(metrics.dcg_score(y, s, k=4))
    assert metric(again, "NDCG") == fmt(metrics.ndcg_score(y, s, k=4))


def test_a_link_opens_a_tab_and_k_moves_keep_it_with_the_headline_of_metrics():
    """?tab= names a tab by its first word: a link opens it (only its content is drawn),
    moves of k keep it open with the headline and the table's worst row of metrics,
    the address keeps the tab; a tab the page does not have opens the derivation."""
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = conftest.open_page(PAGE, "diabetes_ranking", tab="every")
    assert at.session_state[TAB_KEY] == "Every sample"
    assert not at.latex and not any(m.label == "DCG of this sample" for m in at.metric)
    for k in (2, 5):
        at.number_input(key="dcg_k").set_value(k).run()
        assert not at.exception
        assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=k))
        assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=k))
        assert at.session_state[TAB_KEY] == "Every sample"
        assert at.query_params["tab"] == "every" and at.query_params["k"] == str(k)
        table = next(d.value for d in at.dataframe if "NDCG" in d.value.columns)
        worst = metrics.ndcg_per_sample(y, s, k=k).min()
        assert table["NDCG"].iloc[0] == pytest.approx(worst, abs=1e-12)
    ties = conftest.open_page(PAGE, "diabetes_ranking", tab="ties")
    assert ties.session_state[TAB_KEY] == "Ties"
    assert any(h.value == "What tied scores do" for h in ties.subheader)
    # a link with LightGBM's preset alone, opened fresh: its gain and tie rule apply
    tree = conftest.open_page(
        PAGE, "diabetes_ranking", tab="ties", model="tree", k="4", preset="lightgbm"
    )
    assert tree.query_params["gain"] == "exponential" and tree.query_params["ignore_ties"] == "1"
    ds = load_sample("diabetes_ranking")
    y, s = exponential_gain(ds.y_true), ds.score("tree")
    disc = 1 / np.log2(np.arange(2, 6))
    stable = np.take_along_axis(y, np.argsort(-s, axis=1, kind="stable")[:, :4], axis=1) @ disc
    ideal = -np.sort(-y, axis=1)[:, :4] @ disc
    assert metric(tree, "DCG") == fmt(stable.mean())
    ndcg = np.divide(stable, ideal, out=np.ones_like(stable), where=ideal > 0)  # none: 1
    assert metric(tree, "NDCG") == fmt(ndcg.mean())
    # a sample with ties: LightGBM's input order beside the other rules
    labels = [m.label for m in tree.metric if m.label.endswith(" DCG")]
    assert labels[2:] == ["ignore_ties DCG", "input order DCG", "optimistic DCG"]
    row = int(tree.query_params["sample"])
    assert metric(tree, "input order DCG") == fmt(stable[row])
    bad = conftest.open_page(PAGE, "diabetes_ranking", tab="<b>")
    assert bad.session_state[TAB_KEY] == TABS[0] and bad.query_params["tab"] == "derivation"
