"""The threshold workbench of the ROC & PR curves page: its tabs' numbers are metrics'
at the page's threshold, and the constraint solver's button moves the threshold."""

from __future__ import annotations

import pytest

from explorer.formatting import fmt
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
    assert at.query_params["ttab"] == "calibration"

    # the solver: TPR at FPR <= 0.2; its button moves the threshold and the URL holds it
    at.selectbox(key="curves_solver_goal").set_value("TPR at FPR ≤ f").run()
    at.number_input(key="curves_solver_bound").set_value(0.2).run()
    op = operating_point(y, s, "tpr", constraint=("fpr", "<=", 0.2), n_resamples=1000)
    assert op.threshold != t
    caption = next(c.value for c in at.caption if c.value.startswith("At t = "))
    low, high = op.intervals["tpr"]
    assert f"tpr {fmt(op.rates['tpr'])} (95% interval {fmt(low)} to {fmt(high)})" in caption
    assert f"holds in {op.constraint_holds:.0%} of 1,000 resamples" in caption
    at.button(key="curves_solver_go").click().run()
    assert not at.exception
    assert threshold(at) == pytest.approx(op.threshold)
    assert float(at.query_params["t"]) == pytest.approx(op.threshold)
    assert (at.query_params["sgoal"], at.query_params["sval"]) == ("TPR at FPR ≤ f", "0.2")
