"""The threshold workbench's plotly figures (gain and lift, KS, decision curve,
calibration), each with a marker at the page's threshold ``t``; the points of the
model's curves carry their threshold as ``customdata``, so a click can set it
(:func:`explorer.charts.curves.threshold_from_selection`). The curves come from
:mod:`explorer.pages.curves_workbench`; no visitor text is drawn (the model is "model").
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from explorer.i18n import Phrase

_MARK = dict(color="#d62728", size=11, symbol="diamond", line=dict(color="white", width=1))


def _layout(fig: go.Figure, x: str, y: str) -> go.Figure:
    fig.update_layout(
        height=340,
        margin=dict(l=10, r=10, t=30, b=10),
        xaxis_title=x,
        yaxis_title=y,
        legend=dict(orientation="h", y=1.12),
    )
    return fig


def _marker(fig: go.Figure, x: float, y: float, text: str) -> None:
    if np.isfinite(x) and np.isfinite(y):
        fig.add_trace(
            go.Scatter(x=[x], y=[y], mode="markers", marker=_MARK, name=text, hoverinfo="name")
        )


def _beside_random(curve: dict, name: str, random: list, at, title: str) -> go.Figure:
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=curve["fraction"],
            y=curve[name],
            customdata=curve["thresholds"],  # a click reads the point's threshold
            name="model",
            mode="lines+markers",
            marker=dict(size=3),
        )
    )
    fig.add_trace(go.Scatter(x=[0, 1], y=random, name="random", line=dict(dash="dot")))
    _marker(fig, *at, "at t")
    return _layout(fig, "Fraction of the population targeted", title)


def gain_figure(curve: dict, at: tuple[float, float]) -> go.Figure:
    """The cumulative gain curve beside a random ranking's, the marker at ``at``
    (fraction targeted at t, gain at t)."""
    return _beside_random(curve, "gain", [0, 1], at, "Fraction of positives captured")


def lift_figure(curve: dict, at: tuple[float, float]) -> go.Figure:
    """The lift curve beside a random ranking's (1), the marker at ``at``
    (fraction targeted at t, lift at t)."""
    return _beside_random(curve, "lift", [1, 1], at, "Lift")


def ks_figure(
    curve: dict, t: float, at_t: tuple[float, float], ks: tuple[float, float]
) -> go.Figure:
    """TPR and FPR against the threshold; the KS gap as a segment at its threshold
    ``ks`` = (statistic, threshold) and the markers at ``t`` (``at_t`` = (TPR, FPR))."""
    thr = curve["thresholds"]
    finite = np.isfinite(thr)
    fig = go.Figure()
    for name in ("tpr", "fpr"):
        fig.add_trace(
            go.Scatter(
                x=thr[finite],
                y=curve[name][finite],
                customdata=thr[finite],
                name=name.upper(),
                line_shape="hv",
            )
        )
    stat, where = ks
    i = int(np.argmin(np.abs(np.where(finite, thr, np.inf) - where)))
    fig.add_trace(
        go.Scatter(
            x=[where, where],
            y=[curve["fpr"][i], curve["tpr"][i]],
            name=f"KS = {stat:.4g}",
            line=dict(color="black", dash="dash"),
        )
    )
    _marker(fig, t, at_t[0], "TPR at t")
    _marker(fig, t, at_t[1], "FPR at t")
    fig.update_xaxes(autorange="reversed")  # as the curves are drawn: from +inf down
    return _layout(fig, "Threshold (score ≥ t is positive)", "Share of the class at or above t")


def decision_figure(curve: dict, t: float, value: float) -> go.Figure:
    """Net benefit against the threshold probability: the model, treat all, treat none;
    the marker at ``t`` (net benefit ``value``)."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=curve["pt"], y=curve["model"], customdata=curve["pt"], name="model"))
    fig.add_trace(go.Scatter(x=curve["pt"], y=curve["treat_all"], name="treat all"))
    fig.add_trace(go.Scatter(x=curve["pt"], y=curve["treat_none"], name="treat none"))
    _marker(fig, t, value, "at t")
    low = float(np.nanmax(curve["model"])) if curve["model"].size else 0.0
    fig.update_yaxes(range=[-0.05 * max(low, 0.01), 1.1 * max(low, 0.01)])
    return _layout(fig, "Threshold probability t", "Net benefit")


def calibration_gap_figure(table, t: float) -> go.Figure:
    """The reliability diagram's bins (mean predicted against fraction of positives)
    beside the diagonal, and a line at ``t``."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], name="calibrated", line=dict(dash="dot")))
    fig.add_trace(
        go.Scatter(
            x=table.mean_predicted,
            y=table.fraction_positive,
            name="bins",
            mode="lines+markers",
            text=[Phrase("${n:,} samples", n=int(c)) for c in table.count],
        )
    )
    if np.isfinite(t):
        fig.add_vline(x=t, line=dict(color="#d62728", dash="dash"), annotation_text="t")
    return _layout(fig, "Mean predicted probability of the bin", "Fraction of positives")
