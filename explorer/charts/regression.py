"""Figures of the Regression page: predicted against actual, residuals, RMSLE's asymmetry.

Built from plain arrays; nothing here imports streamlit or computes a metric.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from explorer.formatting import fill_fields, plotly_text
from explorer.i18n import DEFAULT, translate
from explorer.theme import wrap_titles

HIGHLIGHT = "#d62728"


def _say(template: str, lang: str, **fields) -> str:
    """``template`` in ``lang`` (:mod:`explorer.i18n`), its fields filled."""
    return fill_fields(translate(template, lang), fields)


BASE = "#1f77b4"


def _vlines(fig: go.Figure, lines: Sequence[tuple[float, dict, str | None, str]]) -> None:
    """Vertical lines spanning the plot, with optional labels, in one layout update.

    ``lines`` holds ``(x, line style, label or None, label position)``, the
    position ``"top right"`` or ``"bottom right"``. What ``fig.add_vline``
    draws, without its per-line subplot bookkeeping (about 10 ms a line).
    """
    shapes, notes = [], []
    for x, line, text, position in lines:  # a handful of lines
        shapes.append(
            {"type": "line", "xref": "x", "yref": "y domain", "x0": x, "x1": x, "y0": 0, "y1": 1}
            | {"line": line}
        )
        if text:
            top = position.startswith("top")
            notes.append(
                {
                    "x": x,
                    "xref": "x",
                    "y": 1 if top else 0,
                    "yref": "y domain",
                    "text": text,
                    "showarrow": False,
                    "xanchor": "left",
                    "yanchor": "top" if top else "bottom",
                    "font": {"color": line.get("color")} if line.get("color") else {},
                }
            )
    fig.update_layout(shapes=shapes, annotations=notes)


def predicted_vs_actual(
    y_true,
    y_pred,
    *,
    ids: Sequence[str] | None = None,
    highlight: int | None = None,
    original: float | None = None,
    model: str = "model",
    max_points: int = 5000,
    lang: str = DEFAULT,
) -> go.Figure:
    """Scatter of prediction (y) against truth (x) with the identity line y_hat = y.

    Points on the dashed line are perfect; above it over-predicted, below it
    under-predicted. ``highlight`` marks one sample (the outlier control's)
    in red; ``original`` is that sample's prediction before the shift, drawn
    as a hollow marker joined to the moved one. More than ``max_points``
    samples are thinned to an evenly spaced subset (the legend says so), so a
    big dataset does not ship millions of points to the browser. ``lang``: the
    language of the chart's texts.
    """
    y_true = np.asarray(y_true, dtype=float)
    y_pred = np.asarray(y_pred, dtype=float)
    n = y_true.shape[0]
    ids = ids if ids is not None else [str(i) for i in range(n)]  # indexed, never copied
    shown = np.arange(n)
    name = model = plotly_text(model)
    if n > max_points:
        shown = np.unique(np.linspace(0, n - 1, max_points).round().astype(int))
        name = _say("${model} (${k} of ${n} samples shown)", lang, model=model, k=shown.size, n=n)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=y_true[shown],
            y=y_pred[shown],
            mode="markers",
            name=name,
            marker={"color": BASE, "size": 7, "opacity": 0.7},
            customdata=np.array([plotly_text(ids[i]) for i in shown]),
            hovertemplate=translate(
                "sample %{customdata}<br>y = %{x}<br>y_hat = %{y}<extra></extra>", lang
            ),
        )
    )
    lo = float(min(y_true.min(), y_pred.min(), original if original is not None else np.inf))
    hi = float(max(y_true.max(), y_pred.max(), original if original is not None else -np.inf))
    fig.add_trace(
        go.Scatter(
            x=[lo, hi],
            y=[lo, hi],
            mode="lines",
            name=translate("identity y_hat = y", lang),
            line={"color": "gray", "dash": "dash"},
            hoverinfo="skip",
        )
    )
    if highlight is not None:
        _outlier(
            fig,
            float(y_true[highlight]),
            float(y_pred[highlight]),
            original,
            plotly_text(ids[highlight]),
            lang,
        )
    fig.update_layout(
        xaxis_title=translate("actual y", lang),
        yaxis_title=translate("predicted y_hat", lang),
        height=430,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        legend={"orientation": "h", "y": -0.18},
    )
    return wrap_titles(fig)


def _outlier(
    fig: go.Figure, x: float, y: float, original: float | None, sample: str, lang: str
) -> None:
    """The outlier control's sample at (``x``, ``y``) in red, joined by a dotted line to
    its ``original`` prediction (a hollow marker) when that differs."""
    if original is not None and original != y:
        fig.add_trace(
            go.Scatter(
                x=[x, x],
                y=[original, y],
                mode="lines+markers",
                name=translate("before the shift", lang),
                line={"color": HIGHLIGHT, "dash": "dot"},
                marker={"symbol": ["circle-open", "circle"], "size": 11, "color": HIGHLIGHT},
                hoverinfo="skip",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[x],
            y=[y],
            mode="markers",
            name=_say("sample ${sample} (outlier control)", lang, sample=sample),
            marker={"color": HIGHLIGHT, "size": 13, "symbol": "diamond"},
            hovertemplate=_say(
                "sample ${sample}<br>y = %{x}<br>y_hat = %{y}<extra></extra>", lang, sample=sample
            ),
        )
    )


def residual_histogram(
    residuals,
    *,
    highlight: float | None = None,
    nbins: int = 30,
    max_raw: int = 20000,
    lang: str = DEFAULT,
) -> go.Figure:
    """Histogram of the residuals y - y_hat, with a line at 0 and the highlighted one.

    Up to ``max_raw`` residuals are binned by plotly; more are binned here
    (``nbins`` equal bins) so the browser gets counts, not millions of values.
    """
    residuals = np.asarray(residuals, dtype=float)
    name = translate("residuals", lang)
    hover = translate("residual %{x}<br>%{y} samples<extra></extra>", lang)
    if residuals.shape[0] <= max_raw:
        trace = go.Histogram(
            x=residuals.tolist(),
            nbinsx=nbins,
            name=name,
            marker={"color": BASE},
            hovertemplate=hover,
        )
    else:
        counts, edges = np.histogram(residuals, bins=nbins)
        trace = go.Bar(
            x=((edges[:-1] + edges[1:]) / 2).tolist(),
            y=counts.tolist(),
            width=float(edges[1] - edges[0]),
            name=name,
            marker={"color": BASE},
            hovertemplate=hover,
        )
    fig = go.Figure(trace)
    lines = [(0, {"color": "gray", "dash": "dash"}, None, "")]
    if highlight is not None:
        lines.append(
            (
                float(highlight),
                {"color": HIGHLIGHT, "width": 3},
                translate("outlier sample", lang),
                "top",
            )
        )
    _vlines(fig, lines)
    fig.update_layout(
        xaxis_title=translate("residual y - y_hat (negative: over-predicted)", lang),
        yaxis_title=translate("samples", lang),
        height=430,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        showlegend=False,
        bargap=0.05,
    )
    return wrap_titles(fig)


def rmsle_asymmetry(
    predictions,
    log_errors,
    abs_errors,
    *,
    y_true: float,
    marks: Sequence[float] = (),
    lang: str = DEFAULT,
) -> go.Figure:
    """One sample's |log error| and |error| / y as the prediction moves (RMSLE's asymmetry).

    ``log_errors`` are |log(1 + y) - log(1 + y_hat)| (the RMSLE of that one
    sample) and ``abs_errors`` |y - y_hat| / y, both along ``predictions``;
    ``marks`` are predictions to pin (the demo's under- and over-prediction).
    """
    predictions = np.asarray(predictions, dtype=float)
    fig = go.Figure()
    fig.add_trace(
        go.Scatter(
            x=predictions,
            y=np.asarray(log_errors, dtype=float),
            mode="lines",
            name=translate("RMSLE of this one prediction", lang),
            line={"color": HIGHLIGHT},
        )
    )
    fig.add_trace(
        go.Scatter(
            x=predictions,
            y=np.asarray(abs_errors, dtype=float),
            mode="lines",
            name=translate("|y - y_hat| / y (symmetric)", lang),
            line={"color": BASE, "dash": "dash"},
        )
    )
    gray, black = {"color": "gray", "dash": "dot"}, {"color": "black", "width": 1}
    lines = [(float(y_true), gray, f"y = {float(y_true):g}", "bottom")]
    lines += [(float(m), black, f"y_hat = {float(m):g}", "top") for m in marks]
    _vlines(fig, lines)
    fig.update_layout(
        xaxis_title=_say("prediction y_hat (true y = ${y})", lang, y=f"{y_true:g}"),
        yaxis_title=translate("error", lang),
        height=330,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        legend={"orientation": "h", "y": -0.25},
    )
    return wrap_titles(fig)
