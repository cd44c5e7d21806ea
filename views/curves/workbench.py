"""The threshold workbench of the ROC & PR curves page: its charts (gain and lift, KS,
the decision curve, the calibration error), one at a time in one tab ("Charts", a
segmented control bound to ``?chart=`` picks it: one tab each overflowed the tab row),
each with a marker at the page's threshold (a click on a curve's point moves the
threshold there) and the numbers at it with their derivations, and the constraint
solver beside the "Optimize for" buttons.

Layout only: the numbers come from :mod:`explorer.pages.curves_workbench` through
:mod:`explorer.ui.cache`, the figures from :mod:`explorer.charts.workbench`."""

from __future__ import annotations

import math

import streamlit as st

from explorer.charts import curves as curve_charts
from explorer.charts import workbench as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import curves_workbench as wb
from explorer.ui import bound, cache, classroom, derivations, widgets
from explorer.ui.language import t as tr
from views.curves import controls

#: The workbench's charts, in the threshold tab "Charts" (:mod:`views.curves.tabs`).
CHARTS = ("Gain & lift", "KS", "Decision curve", "Calibration error")
#: ``?chart=`` names a chart by the first word of its label in lower case (as a tab's).
CHART_IDS = {label.split()[0].lower(): label for label in CHARTS}


def _clicked(key: str) -> None:
    """A click on a workbench chart's curve moves the threshold to that point's."""
    controls.set_threshold(curve_charts.threshold_from_selection(st.session_state.get(key)))


def _chart(where, fig, key: str) -> None:
    widgets.plotly_chart(
        where,
        fig,
        key=key,
        on_select=lambda: _clicked(key),
        keyboard='the "Threshold (exact)" box',
        selection_mode="points",
        width="stretch",
    )


def _metrics(lines: dict) -> None:
    """Each derivation's value as an ``st.metric``, then its lines."""
    for col, d in zip(st.columns(len(lines)), lines.values(), strict=True):
        widgets.metric(col, tr(d.name), fmt(d.value))
    derivations.show(lines.values(), formulas=True, hidden_note=False)


def gain_lift(ds: Dataset, model: str, t: float) -> None:
    """The gain and lift curves with the marker at t's fraction, and the lift at t."""
    curve, at = cache.curves.gain_curve(ds, model), cache.curves.gain_at(ds, model, t)
    rates = cache.curves.rates(ds, model, t, 1.0)
    fraction = (rates["tp"] + rates["fp"]) / rates["n"]
    gain = rates["recall"]
    c1, c2 = st.columns(2)
    _chart(c1, charts.gain_figure(curve, (fraction, gain)), "curves_wb_gain")
    _chart(c2, charts.lift_figure(curve, (fraction, at.value)), "curves_wb_lift")
    st.caption(tr("t targets ${f} of the population (score ≥ t).", f=fmt(fraction)))
    _metrics({"lift": at})


def ks(ds: Dataset, model: str, t: float) -> None:
    """TPR and FPR against the threshold, KS and its threshold, the gap at t."""
    lines = cache.curves.ks_at(ds, model, t)
    rates = cache.curves.rates(ds, model, t, 1.0)
    fig = charts.ks_figure(
        cache.curves.ks_curves(ds, model),
        t,
        (rates["recall"], rates["fpr"]),
        (lines["KS"].value, lines["KS threshold"].value),
    )
    _chart(st, fig, "curves_wb_ks")
    _metrics(lines)


def decision(ds: Dataset, model: str, t: float) -> None:
    """The decision curve, the net benefit at t read as a threshold probability."""
    if not wb.probabilities(ds, model):
        st.info(tr("The decision curve needs probabilities: this model's scores leave [0, 1]."))
        return
    at = cache.curves.decision_at(ds, model, t)
    fig = charts.decision_figure(cache.curves.decision_curve(ds, model), t, at.value)
    _chart(st, fig, "curves_wb_decision")
    _metrics({"nb": at})


def calibration(ds: Dataset, model: str, t: float) -> None:
    """The reliability bins beside the diagonal, ECE and MCE."""
    if not wb.probabilities(ds, model):
        st.info(tr("The calibration error needs probabilities: this model's scores leave [0, 1]."))
        return
    table = cache.curves.reliability(ds, model)
    widgets.plotly_chart(st, charts.calibration_gap_figure(table, t), key="curves_wb_calibration")
    st.caption(tr("${n} equal-width bins.", n=wb.CALIBRATION_BINS))
    _metrics(cache.curves.calibration_at(ds, model, t))


DRAW = dict(zip(CHARTS, (gain_lift, ks, decision, calibration), strict=True))


def charts_tab(ds: Dataset, model: str, t: float) -> None:
    """The chart the segmented control picks, drawn alone."""
    chosen = bound.segmented(
        st,
        tr("Chart"),
        CHARTS,
        key="curves_wb_chart",
        param="chart",
        parse=CHART_IDS.__getitem__,
        to_url=lambda label: label.split()[0].lower(),
        label_visibility="collapsed",
        format_func={label: tr(label) for label in CHARTS}.__getitem__,
    )
    DRAW[chosen](ds, model, t)


def solver(ds: Dataset, model: str) -> None:
    """The constraint solver: the goal and its bound (URL-bound), the threshold it finds
    with the achieved rates' 95% intervals and how often the bound holds in the
    resamples, and a button that moves the threshold there (as the "Optimize for"
    buttons do)."""
    c_goal, c_bound, c_go = st.columns([2, 1, 1.4], vertical_alignment="bottom")
    goal = bound.selectbox(
        c_goal,
        tr("Best threshold under a constraint"),
        tuple(wb.CONSTRAINTS),
        key="curves_solver_goal",
        param="sgoal",
        format_func={k: tr(v) for k, v in wb.CONSTRAINT_LABELS.items()}.__getitem__,
    )
    limit = controls.setting_box(
        c_bound, tr("Bound"), key="curves_solver_bound", param="sval", default=0.9, hi=1.0,
        max_value=1.0, step=0.05,
    )  # fmt: skip
    refusal = wb.solver_refusal(ds)
    if refusal is not None:
        st.info(tr("${why}: the solver is left out.", why=tr(refusal)))
        return
    op = cache.curves.solve(ds, model, goal, float(limit))
    if not op.feasible:
        c_go.button(tr("Go to this threshold"), key="curves_solver_go", disabled=True)
        st.caption(tr("No threshold meets this bound."))
        return
    shown = "+inf" if math.isinf(op.threshold) else fmt(op.threshold)
    c_go.button(
        tr("Go to this threshold: ${t}", t=shown),
        key="curves_solver_go",
        on_click=controls.set_threshold,
        args=(op.threshold,),
        width="stretch",
    )
    if classroom.held_back("The solver's rates"):
        return
    objective, rate, _ = wb.CONSTRAINTS[goal]
    parts = [
        tr(
            "${rate} ${value} (95% interval ${low} to ${high})",
            rate=tr(wb.RATE_NAMES[name]),
            value=fmt(op.rates[name]),
            low=fmt(op.intervals[name][0]),
            high=fmt(op.intervals[name][1]),
        )
        for name in dict.fromkeys((objective, rate))
    ]
    st.caption(
        tr(
            "At t = ${t}: ${rates}; the bound holds in ${share:.0%} of ${n:,} resamples "
            "(the threshold held fixed).",
            t=shown,
            rates=", ".join(parts),
            share=op.constraint_holds,
            n=op.n_resamples,
        )
    )
