"""The ROC & PR curves page's teaching tabs: AUC four ways, calibration, Brier and DET,
the formulas and derivations at the threshold, and the links that open them."""

from __future__ import annotations

import base64
from statistics import NormalDist

import numpy as np
import plotly.io as pio
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from metrics import log_loss
from tests.conftest import APP
from tests.views.curves.drive import (
    TEACHING_TABS,
    THRESHOLD_TABS,
    check_component,
    check_operating_point,
    metric,
    open_page,
    open_tab,
    open_with,
)


def test_auc_four_ways_and_histogram_bins():
    at = open_page("seed002_auc8")
    ds = load_sample("seed002_auc8")
    y, s = ds.y_true.astype(int), ds.score()
    exact = fmt(metrics.roc_auc_score(y, s))
    assert not any(m.label == "Gini" for m in at.metric)  # a closed tab draws nothing
    open_tab(at, "AUC four ways")
    for label in ("AUC: trapezoids", "AUC: all pairs", "AUC: rank sum"):
        assert metric(at, label) == exact
    assert metric(at, "Gini") == fmt(metrics.gini(y, s))
    assert metric(at, "AUC: histogram") == fmt(metrics.auc_histogram(y, s, n_bins=100))
    at.number_input(key="curves_n_bins").set_value(2).run()
    assert not at.exception
    assert metric(at, "AUC: histogram") == fmt(metrics.auc_histogram(y, s, n_bins=2))
    ranks = next(d.value for d in at.dataframe if "mid_rank" in d.value.columns)
    assert ranks["mid_rank"].tolist() == sorted(ranks["mid_rank"].tolist())
    assert any("rank" in x.value and f"= {exact}" in x.value for x in at.latex)


def test_weighted_dataset_and_calibration_bins():
    rng = np.random.default_rng(4)
    n = 300
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1), 2)
    w = rng.random(n) * 2
    ds = Dataset("weighted", "binary", y, {"m": s}, sample_weight=w)
    at = AppTest.from_file(APP, default_timeout=30)
    at = open_with(ds, at)
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s, sample_weight=w))
    assert metric(at, "Log loss") == fmt(log_loss(y, s, sample_weight=w))
    check_operating_point(at, y, s, 0.5, w=w)
    check_component(at, y, s, 0.5, w=w)
    open_tab(at, "Log loss and calibration")
    at.slider(key="curves_calib_bins").set_value(5).run()
    assert not at.exception
    cal = next(d.value for d in at.dataframe if "fraction_positive" in d.value.columns)
    assert cal["count"].tolist() == metrics.calibration_bins(y, s, n_bins=5)["count"].tolist()


def test_a_link_opens_the_tabs_it_names_with_their_settings():
    """The open tabs are in the URL (tab, ttab), so a link shows the same numbers: the
    histogram AUC at the link's bins, the per-sample table at the link's threshold."""
    ds = load_sample("seed002_auc8")
    y, s = ds.y_true.astype(int), ds.score()
    at = open_page("seed002_auc8", {"tab": "auc", "bins": "2", "ttab": "every"})
    assert metric(at, "AUC: histogram") == fmt(metrics.auc_histogram(y, s, n_bins=2))
    table = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert len(table) == len(y) and set(table["outcome"]) <= {"TP", "FP", "FN", "TN"}
    assert at.query_params["tab"] in ("auc", ["auc"])
    assert at.query_params["ttab"] in ("every", ["every"])
    # a tab that does not exist opens the first one
    at = open_page("seed002_auc8", {"tab": "Nonsense", "ttab": "<b>"})
    assert at.session_state["curves_teach_tab"] == TEACHING_TABS[0]
    assert at.session_state["curves_t_tab"] == THRESHOLD_TABS[0]
    assert not any(m.label == "Gini" for m in at.metric)


def test_the_derivations_tab_ends_each_line_in_the_headline():
    """?ttab=derivations opens the tab of every headline derived (views/curves/derivation.py)."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "seed002_roc6", "ttab": "derivations"})
    at.run().switch_page(script("curves")).run()
    assert not at.exception
    ds = load_sample("seed002_roc6")
    auc = fmt(metrics.roc_auc_score(ds.y_true, ds.score()))
    ap = fmt(metrics.average_precision_score(ds.y_true, ds.score()))
    headline = {m.label: m.value for m in at.metric}
    assert headline["ROC AUC"] == auc and headline["Average precision"] == ap
    lines = [x.value.strip().strip("$").strip() for x in at.latex]
    assert any(x.endswith(f"= {auc}") for x in lines), lines
    assert any(x.endswith(f"= {ap}") for x in lines), lines


def test_mcc_and_balanced_accuracy_at_the_threshold_with_their_formulas():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "seed002_roc6", "t": "0.65"})
    at.run().switch_page(script("curves")).run()
    assert not at.exception
    ds = load_sample("seed002_roc6")
    pred = (ds.score() >= 0.65).astype(int)
    mcc = fmt(metrics.matthews_corrcoef(ds.y_true, pred))
    bal = fmt(metrics.balanced_accuracy_score(ds.y_true, pred))
    headline = {m.label: m.value for m in at.metric}
    assert headline["MCC"] == mcc and headline["Balanced accuracy"] == bal
    lines = [x.value.strip().strip("$").strip() for x in at.latex]
    assert any("MCC" in x and x.endswith(f"= {mcc} \\end{{aligned}}") for x in lines), lines
    assert any(x.startswith("\\text{Balanced accuracy}") and x.endswith(f"= {bal}") for x in lines)


def test_brier_score_and_the_det_curve_tabs():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "balanced", "tab": "log"})
    at.run().switch_page(script("curves")).run()
    assert not at.exception
    ds = load_sample("balanced")
    brier = metrics.brier_score_loss(ds.y_true, ds.score("good"))
    assert {m.label: m.value for m in at.metric}["Brier score"] == fmt(brier)
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "balanced", "tab": "det"})
    at.run().switch_page(script("curves")).run()
    assert not at.exception
    fpr, fnr, _ = metrics.det_curve(ds.y_true, ds.score("good"))
    figs = [pio.from_json(c.proto.spec) for c in at.get("plotly_chart")]
    det = next(f for f in figs if "normal deviate" in (f.layout.xaxis.title.text or ""))
    probit = NormalDist().inv_cdf
    expected = [probit(min(max(r, 1e-6), 1 - 1e-6)) for r in fnr]
    assert np.allclose(_array(det.data[0].y), expected) and len(_array(det.data[0].x)) == len(fpr)


def _array(values) -> np.ndarray:
    """A plotly JSON array: a list, or a typed array ``{"dtype", "bdata"}`` (base64)."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values, dtype=float)
