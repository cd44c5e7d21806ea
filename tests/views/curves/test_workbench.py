"""The threshold workbench of the ROC & PR curves page: its tabs' numbers are metrics'
at the page's threshold, and the constraint solver's button moves the threshold."""

from __future__ import annotations

import numpy as np
import pytest

from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import curves
from explorer.pages import curves_workbench as wb
from explorer.samples import load_sample
from metrics.calibration import calibration_error
from metrics.operating_point import operating_point
from metrics.threshold import ks_statistic, lift_at, net_benefit
from tests.views.curves.drive import metric, open_page, open_tab, threshold


def test_workbench_tabs_and_solver_follow_the_threshold():
    ds = load_sample("balanced")
    y, s = ds.y_true, ds.score()
    at = open_page("balanced", {"t": "0.4"})
    t = threshold(at)
    assert t == 0.4
    fraction = float((s >= t).mean())
    open_tab(at, "Gain & lift")
    assert metric(at, "Lift at t") == fmt(lift_at(y, s, fraction))
    open_tab(at, "KS")
    ks, ks_t = ks_statistic(y, s)
    assert (metric(at, "KS"), metric(at, "KS threshold")) == (fmt(ks), fmt(ks_t))
    tpr = ((s >= t) & (y == 1)).sum() / (y == 1).sum()
    fpr = ((s >= t) & (y == 0)).sum() / (y == 0).sum()
    assert metric(at, "TPR - FPR at t") == fmt(tpr - fpr)
    open_tab(at, "Decision curve")
    assert metric(at, "Net benefit at t") == fmt(net_benefit(y, s, t))
    open_tab(at, "Calibration error")
    assert metric(at, "ECE") == fmt(calibration_error(y, s, n_bins=10))
    assert metric(at, "MCE") == fmt(calibration_error(y, s, n_bins=10, norm="max"))
    assert (at.query_params["ttab"], at.query_params["chart"]) == ("charts", "calibration")

    # the solver: TPR at FPR <= 0.2; its button moves the threshold and the URL holds it
    at.selectbox(key="curves_solver_goal").set_value("tpr_at_fpr").run()
    at.number_input(key="curves_solver_bound").set_value(0.2).run()
    op = operating_point(y, s, "tpr", constraint=("fpr", "<=", 0.2), n_resamples=1000)
    assert op.threshold != t
    caption = next(c.value for c in at.caption if c.value.startswith("At t = "))
    low, high = op.intervals["tpr"]
    assert f"TPR {fmt(op.rates['tpr'])} (95% interval {fmt(low)} to {fmt(high)})" in caption
    assert f"holds in {op.constraint_holds:.0%} of 1,000 resamples" in caption
    at.button(key="curves_solver_go").click().run()
    assert not at.exception
    assert threshold(at) == pytest.approx(op.threshold)
    assert float(at.query_params["t"]) == pytest.approx(op.threshold)
    assert (at.query_params["sgoal"], at.query_params["sval"]) == ("tpr_at_fpr", "0.2")


def test_a_link_from_when_each_chart_had_its_tab_opens_that_chart():
    """?ttab=ks (a KS tab once) opens the Charts tab on KS, and the URL says so."""
    y, s = load_sample("balanced").y_true, load_sample("balanced").score()
    at = open_page("balanced", {"ttab": "ks"})
    assert at.session_state["curves_t_tab"] == "Charts"
    assert at.session_state["curves_wb_chart"] == "KS"
    assert metric(at, "KS") == fmt(ks_statistic(y, s)[0])
    assert (at.query_params["ttab"], at.query_params["chart"]) == ("charts", "ks")


def _dataset(weighted: bool):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 400)
    s = np.round(np.clip(rng.normal(0.35 + 0.3 * y, 0.2), 0, 1), 2)  # ties
    w = rng.uniform(0.5, 2.0, 400) if weighted else None
    return Dataset("w", "binary", y, {"m": s}, sample_weight=w), y, s, w


@pytest.mark.parametrize("weighted", [False, True])
def test_numbers_at_t_equal_metrics_with_and_without_the_sorted_scores(weighted):
    ds, y, s, w = _dataset(weighted)
    by_class = curves.sorted_scores(ds, "m")
    for t in (0.05, 0.33, 0.5, 0.81):
        fraction = np.sum(np.where(s >= t, 1.0 if w is None else w, 0.0)) / (
            len(s) if w is None else w.sum()
        )
        lift = lift_at(y, s, fraction, sample_weight=w)
        nb = net_benefit(y, s, t, sample_weight=w)
        for given in (None, by_class):
            assert wb.gain_at(ds, "m", t, given).value == pytest.approx(lift, rel=1e-12)
            assert wb.decision_at(ds, "m", t, given).value == pytest.approx(nb, abs=1e-12)
    ks = ks_statistic(y, s, sample_weight=w)
    assert wb.ks_at(ds, "m", 0.5, None, by_class)["KS"].value == ks[0]
    assert wb.ks_at(ds, "m", 0.5)["KS threshold"].value == ks[1]
    # the bin holding t: its gap is the reliability table's at that bin
    lines = wb.calibration_at(ds, "m", 0.55)
    table = wb.reliability(ds, "m")
    assert lines["Gap of t's bin"].value == abs(
        table.fraction_positive[5] - table.mean_predicted[5]
    )
    assert lines["ECE"].value == calibration_error(y, s, n_bins=10, sample_weight=w)


def test_solver_refuses_a_weighted_bootstrap_over_the_budget():
    ds, *_ = _dataset(True)
    assert wb.solver_refusal(ds, limit=8.0) is None
    big = Dataset("big", "binary", np.tile(ds.y_true, 2500), {"m": np.tile(ds.score(), 2500)})
    assert wb.solver_refusal(big, limit=1e-9) is None  # unweighted: no work per row
    heavy = Dataset(big.name, "binary", big.y_true, big.scores, sample_weight=np.ones(10**6))
    assert wb.solver_refusal(heavy, limit=8.0) == (
        "1,000 resamples of 1,000,000 weighted rows would take about 60 s of computing; "
        "this server offers 8 s"
    )


def test_a_click_on_a_workbench_curve_records_its_threshold(monkeypatch):
    """views.curves.workbench._clicked, the charts' on_select callback, with the session
    state as a plain dict (AppTest cannot fire on_select): the point's threshold (its
    customdata, as the figures carry it) is recorded as a click; +inf moves nothing."""
    from explorer.charts import workbench as charts
    from views.curves import controls, workbench

    ds, *_ = _dataset(False)
    fig = charts.gain_figure(wb.gain_curve(ds, "m"), (0.5, 0.5))
    data = fig.data[0].customdata
    ss = {}
    monkeypatch.setattr(controls.st, "session_state", ss)
    monkeypatch.setattr(workbench.st, "session_state", ss)
    ss["curves_wb_gain"] = {"selection": {"points": [{"customdata": data[0]}]}}
    workbench._clicked("curves_wb_gain")  # the (0, 0) point: threshold +inf
    assert controls.PENDING not in ss
    ss["curves_wb_gain"] = {"selection": {"points": [{"customdata": data[5]}]}}
    workbench._clicked("curves_wb_gain")
    assert ss[controls.PENDING] == {"click": float(data[5])} and np.isfinite(data[5])
