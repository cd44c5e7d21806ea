"""The Multilabel classification page's headline, bars and per-label tables (AppTest),
on the bundled samples and on data of the wrong kind."""

from __future__ import annotations

import pytest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from metrics import (
    multilabel_label_table,
    threshold_predictions,
)
from tests.conftest import metric, svg_charts
from tests.explorer.charts.test_multilabel import svg_bars
from tests.views.multilabel.helpers import (
    assert_metrics,
    expected,
    open_page,
    open_tab,
)
from views.multilabel.panel import TAB_KEY, TABS


def test_default_view_and_headline_values():
    at = open_page()
    ds = load_sample("digit_properties")
    pred = threshold_predictions(ds.score(), 0.5)
    assert_metrics(at, expected(ds, pred))
    # the numbers a reader can check by hand
    assert metric(at, "Hamming loss") == "0.1033"
    assert at.query_params["t"] == "0.50" and at.query_params["rule"] == "threshold"
    # the first tab derives the headline: formulas only, no table is drawn on a move
    assert at.session_state[TAB_KEY] == TABS[0] and at.query_params["tab"] == "derivations"
    assert not at.dataframe
    # latex with live numbers
    assert any(metric(at, "Micro F1") in x.value for x in at.latex)
    # rows with no true label: zero_division is explained where it applies
    assert any("no true label" in i.value for i in at.info)
    # the bars (SVG): each label's F1 at this threshold; the grid of errors is in its tab
    (bars,) = svg_charts(at)
    f1 = [v for s_, v, _ in svg_bars(bars) if s_ == 2]
    want = multilabel_label_table(ds.y_true, pred, label_names=list(ds.label_names))["f1"]
    assert f1 == pytest.approx(want.iloc[: ds.n_labels].tolist())
    assert not at.get("plotly_chart")
    open_tab(at, "Per-label tables")
    assert not at.latex and not at.get("plotly_chart")
    # the per-label step table ends with the micro line whose F1 is the headline
    labels = at.dataframe[0].value
    assert labels["label"].iloc[-1] == "micro (O-P, O-R, O-F1)"
    assert fmt(labels["F1"].iloc[-1]) == metric(at, "Micro F1")
    assert fmt(labels["F1"].iloc[-2]) == metric(at, "Macro F1")
    # averages side by side, both names
    avg = at.dataframe[1].value
    assert avg["scikit-learn"].tolist() == [
        'average="macro"',
        'average="micro"',
        'average="samples"',
        'average="weighted"',
    ]
    assert avg["F1"].iloc[2] == pytest.approx(metrics.f1_score(ds.y_true, pred, average="samples"))
    # the notes' naming, read two ways
    readings = at.dataframe[2].value
    assert readings["value"].iloc[1] == pytest.approx(
        metrics.recall_score(ds.y_true, pred, average="macro")
    )
    assert readings["value"].iloc[3] == pytest.approx(
        metrics.recall_score(ds.y_true, pred, average="samples")
    )


def test_other_samples_render():
    for name in ("seed003_lrap", "digits"):
        at = open_page(name)
        ds = load_sample(name)
        assert_metrics(at, expected(ds, threshold_predictions(ds.score(), 0.5)))


def test_wrong_kind_notice():
    at = open_page("balanced")
    assert not at.metric
    assert "multilabel" in at.info[0].value
    at.button(key="open_fitting_sample").click().run()
    assert not at.exception
    ds = load_sample("digit_properties")
    assert_metrics(at, expected(ds, threshold_predictions(ds.score(), 0.5)))
