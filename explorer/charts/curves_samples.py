"""Figures of the ROC & PR curves page's samples at a threshold: the samples along the
score axis, one marker each or stacked histograms per outcome."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.charts.curves import OUTCOME_COLORS, OUTCOME_NAMES
from explorer.formatting import plotly_text
from explorer.i18n import Phrase


def strip_figure(
    scores: np.ndarray,
    labels: np.ndarray,
    outcomes: np.ndarray,
    threshold: float,
    *,
    ids=None,
    max_markers: int = 3000,
) -> go.Figure:
    """One marker per sample along the score axis, coloured by outcome.

    Positives sit on the upper row, negatives on the lower one; samples with
    the same label and score stack upwards, so ties show as columns. Beyond
    ``max_markers`` samples the strip becomes a histogram per outcome (same
    colours), so the browser never draws a million markers.
    """
    scores = np.asarray(scores, dtype=float)
    labels = np.asarray(labels).astype(int)
    outcomes = np.asarray(outcomes).astype(str)
    fig = go.Figure()
    if scores.shape[0] <= max_markers:
        df = pd.DataFrame({"score": scores, "label": labels, "outcome": outcomes})
        df["sample"] = np.arange(scores.shape[0]) if ids is None else [plotly_text(i) for i in ids]
        stack = df.groupby(["label", "score"]).cumcount().to_numpy()
        height = max(int(stack.max()) + 1, 1)
        step = 0.4 / max(height, 4)
        df["y"] = df["label"] + stack * step - 0.15
        for outcome in ("TP", "FN", "FP", "TN"):
            part = df[df["outcome"] == outcome]
            fig.add_trace(
                go.Scatter(
                    x=part["score"],
                    y=part["y"],
                    mode="markers",
                    name=OUTCOME_NAMES[outcome],
                    marker=dict(color=OUTCOME_COLORS[outcome], size=9, line=dict(width=0.5)),
                    customdata=part["sample"].tolist(),
                    hovertemplate=Phrase(
                        "${outcome}: sample %{customdata}<br>score %{x:.4g}<extra></extra>",
                        outcome=outcome,
                    ),
                )
            )
        fig.update_yaxes(
            tickvals=[0, 1],
            ticktext=["actual 0", "actual 1"],
            range=[-0.4, 1.4],
        )
    else:
        # bin here: a histogram trace would ship every score to the browser
        edges = np.linspace(scores.min(), scores.max() + 1e-12, 101)
        # one binning pass for all outcomes, as np.histogram bins uniform edges (the last
        # bin closed): scale, then correct the rounding against the edges themselves
        if edges[-1] > edges[0]:
            bins = ((scores - edges[0]) * (100 / (edges[-1] - edges[0]))).astype(np.intp)
            bins = np.clip(bins, 0, 99)
            bins[scores < edges[bins]] -= 1
            bins[(scores >= edges[bins + 1]) & (bins != 99)] += 1
        else:  # one score too large for the 1e-12 to widen the range: all in the last bin
            bins = np.full(scores.shape[0], 99, dtype=np.intp)
        names = ("TP", "FN", "FP", "TN")
        code = np.zeros(scores.shape[0], dtype=np.intp)
        for k, name in enumerate(names[1:], start=1):
            code[outcomes == name] = k
        table = np.bincount(code * 100 + bins, minlength=400).reshape(4, 100)
        _outcome_bars(fig, edges, table)
    return _strip_layout(fig, threshold)


def _outcome_bars(fig: go.Figure, edges: np.ndarray, table: np.ndarray) -> None:
    """Stacked bars of ``table`` (TP, FN, FP, TN rows) on the bins ``edges``."""
    centers = (edges[:-1] + edges[1:]) / 2
    for outcome, counts in zip(("TP", "FN", "FP", "TN"), table, strict=True):
        fig.add_trace(
            go.Bar(
                x=centers,
                y=counts,
                width=edges[1] - edges[0],
                name=OUTCOME_NAMES[outcome],
                marker_color=OUTCOME_COLORS[outcome],
            )
        )
    fig.update_layout(barmode="stack", bargap=0)
    fig.update_yaxes(title="samples")


def _strip_layout(fig: go.Figure, threshold: float) -> go.Figure:
    fig.add_vline(
        x=threshold,
        line=dict(color="black", width=2, dash="dot"),
        annotation_text=Phrase("threshold ${t:.4g}", t=threshold),
        annotation_position="top",
    )
    fig.update_layout(
        height=300,
        xaxis_title="score (predicted positive at or right of the line)",
        margin=dict(l=60, r=10, t=30, b=40),
        legend=dict(orientation="h", yanchor="top", y=-0.25, x=0),
    )
    return fig


def strip_histogram_figure(
    pos_scores: np.ndarray, neg_scores: np.ndarray, threshold: float
) -> go.Figure:
    """The strip of :func:`strip_figure` past ``max_markers``, from sorted scores.

    The same 100 bins and stacked outcome bars, counted with ``searchsorted``
    on the ascending positive and negative scores (a few hundred binary
    searches, whatever the number of samples): a sample is in bin ``j`` when
    ``edges[j] <= score < edges[j + 1]`` (the last bin closed), as in
    ``np.histogram``; a positive at or above ``threshold`` is a TP, below it
    a FN; a negative a FP or a TN.

    Parameters
    ----------
    pos_scores, neg_scores : ndarray
        The positives' and the negatives' scores, each sorted ascending.
    threshold : float

    Examples
    --------
    >>> fig = strip_histogram_figure(np.array([0.2, 0.9]), np.array([0.1, 0.6]), 0.5)
    >>> {tr.name.split(" ")[0]: int(np.sum(tr.y)) for tr in fig.data}
    {'TP': 1, 'FN': 1, 'FP': 1, 'TN': 1}
    """
    pos_scores = np.asarray(pos_scores, dtype=float)
    neg_scores = np.asarray(neg_scores, dtype=float)
    both = [a for a in (pos_scores, neg_scores) if a.shape[0]]
    low = min(float(a[0]) for a in both)
    high = max(float(a[-1]) for a in both)
    edges = np.linspace(low, high + 1e-12, 101)
    lower = edges[:-1]
    # the bins' upper ends; the last bin is closed (nothing is above it)
    upper = np.append(edges[1:-1], np.inf)
    t = float(threshold)

    def at_least(sorted_scores, x):  # how many scores are >= x, for each x
        return sorted_scores.shape[0] - np.searchsorted(sorted_scores, x, side="left")

    table = np.empty((4, 100), dtype=np.int64)
    for row, scores in ((0, pos_scores), (2, neg_scores)):  # TP/FN, FP/TN
        in_bin = at_least(scores, lower) - at_least(scores, upper)
        above = at_least(scores, np.maximum(lower, t)) - at_least(scores, np.maximum(upper, t))
        table[row], table[row + 1] = above, in_bin - above
    fig = go.Figure()
    _outcome_bars(fig, edges, table)
    return _strip_layout(fig, threshold)
