"""Figures of the ROC & PR curves page's teaching tabs: the grid of positive/negative
pairs, the histogram way of AUC, the reliability diagram and the DET curve."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.i18n import Phrase


def pairs_grid_figure(pairs: pd.DataFrame) -> go.Figure:
    """The n+ x n- grid of positive/negative pairs: win 1, tie 0.5, loss 0.

    ``pairs`` is :func:`metrics.auc_pairs` output (the full table).
    """
    pos = sorted(pairs["positive"].unique())
    neg = sorted(pairs["negative"].unique())
    grid = pairs.pivot(index="positive", columns="negative", values="credit").loc[pos, neg]
    label = {1.0: "win", 0.5: "tie", 0.0: "loss"}
    text = [[label[v] for v in row] for row in grid.to_numpy()]
    fig = go.Figure(
        go.Heatmap(
            z=grid.to_numpy(),
            x=[f"neg {j}" for j in neg],
            y=[f"pos {i}" for i in pos],
            text=text,
            texttemplate="%{text}" if grid.size <= 400 else None,
            colorscale=[[0, "#D55E00"], [0.5, "#F0E442"], [1, "#009E73"]],
            zmin=0,
            zmax=1,
            colorbar=dict(title="credit", tickvals=[0, 0.5, 1]),
            hovertemplate="%{y} vs %{x}: %{text}<extra></extra>",
        )
    )
    fig.update_yaxes(autorange="reversed")
    fig.update_layout(
        height=min(120 + 22 * len(pos), 600),
        margin=dict(l=10, r=10, t=20, b=10),
        xaxis_title="negative sample (index)",
        yaxis_title="positive sample (index)",
    )
    return fig


def histogram_auc_figure(scores: np.ndarray, labels: np.ndarray, n_bins: int) -> go.Figure:
    """Positive and negative score histograms on the bins of ``auc_histogram``.

    A score ``s`` in [0, 1] falls in bin ``min(floor(s * n_bins), n_bins - 1)``, as in
    :func:`metrics.auc_histogram`. The counts are taken here, so the figure holds
    ``n_bins`` bars per class, never the scores themselves.

    Examples
    --------
    >>> fig = histogram_auc_figure(np.array([0.1, 0.6, 1.0]), np.array([1, 0, 1]), 2)
    >>> [tr.y.tolist() for tr in fig.data]
    [[1, 1], [0, 1]]
    """
    scores = np.asarray(scores, dtype=float)
    labels = np.asarray(labels).astype(bool)
    bins = np.clip(np.floor(scores * n_bins), 0, n_bins - 1).astype(np.int64)
    centers = (np.arange(n_bins) + 0.5) / n_bins
    fig = go.Figure()
    for name, mask, color in (("positives", labels, "#009E73"), ("negatives", ~labels, "#0072B2")):
        fig.add_trace(
            go.Bar(
                x=centers,
                y=np.bincount(bins[mask], minlength=n_bins),
                width=1 / n_bins,
                name=name,
                marker_color=color,
                opacity=0.6,
            )
        )
    fig.update_layout(
        barmode="overlay",
        bargap=0,
        height=260,
        margin=dict(l=50, r=10, t=20, b=40),
        xaxis_title=Phrase("score (${n} equal-width bins)", n=n_bins),
        yaxis_title="samples",
    )
    return fig


def calibration_figure(bins: pd.DataFrame) -> go.Figure:
    """Reliability diagram (fraction of positives vs mean predicted) + bin counts."""
    from plotly.subplots import make_subplots

    fig = make_subplots(
        rows=2, cols=1, shared_xaxes=True, row_heights=[0.72, 0.28], vertical_spacing=0.06
    )
    fig.add_trace(
        go.Scatter(
            x=[0, 1],
            y=[0, 1],
            mode="lines",
            name="perfectly calibrated",
            line=dict(dash="dash", color="#999"),
            hoverinfo="skip",
        ),
        row=1,
        col=1,
    )
    full = bins[bins["count"] > 0]
    fig.add_trace(
        go.Scatter(
            x=full["mean_predicted"],
            y=full["fraction_positive"],
            mode="lines+markers",
            name="model",
            marker=dict(size=9, color="#0072B2"),
            customdata=full["count"].tolist(),
            hovertemplate="mean predicted %{x:.3f}<br>fraction positive %{y:.3f}"
            "<br>%{customdata} samples<extra></extra>",
        ),
        row=1,
        col=1,
    )
    fig.add_trace(
        go.Bar(
            x=(bins["lower"] + bins["upper"]) / 2,
            y=bins["count"],
            width=(bins["upper"] - bins["lower"]) * 0.9,
            name="samples per bin",
            marker_color="#999",
            text=bins["count"],
            textposition="outside",
        ),
        row=2,
        col=1,
    )
    fig.update_xaxes(range=[0, 1], row=1, col=1)
    fig.update_xaxes(range=[0, 1], title="predicted probability", row=2, col=1)
    fig.update_yaxes(range=[-0.02, 1.05], title="fraction positive", row=1, col=1)
    fig.update_yaxes(
        title="count", range=[0, max(float(bins["count"].max()), 1) * 1.35], row=2, col=1
    )
    fig.update_layout(
        height=460,
        margin=dict(l=50, r=10, t=20, b=40),
        legend=dict(orientation="h", yanchor="bottom", y=1.0, x=0),
    )
    return fig


def det_figure(det: dict) -> go.Figure:
    """The DET curve: FNR against FPR on normal-deviate axes (probit), as
    scikit-learn's DetCurveDisplay draws it; rates of 0 or 1 sit at the axis ends.

    Examples
    --------
    >>> fig = det_figure({"fpr": np.array([0.0, 0.5, 1.0]), "fnr": np.array([1.0, 0.25, 0.0]),
    ...                   "thresholds": np.array([0.9, 0.5, 0.1])})
    >>> fig.layout.xaxis.title.text
    'False positive rate (normal deviate scale)'
    """
    from statistics import NormalDist

    probit = np.vectorize(NormalDist().inv_cdf)
    clip = 1e-6

    def scale(r):
        return probit(np.clip(np.asarray(r, dtype=float), clip, 1 - clip))

    ticks = np.array([0.001, 0.01, 0.05, 0.2, 0.5, 0.8, 0.95, 0.99, 0.999])
    fig = go.Figure(
        go.Scatter(
            x=scale(det["fpr"]),
            y=scale(det["fnr"]),
            mode="lines+markers",
            customdata=np.column_stack([det["fpr"], det["fnr"], det["thresholds"]]),
            hovertemplate="threshold %{customdata[2]:.4g}<br>FPR %{customdata[0]:.4f}"
            "<br>FNR %{customdata[1]:.4f}<extra></extra>",
            marker={"size": 6},
        )
    )
    axis = {"tickvals": scale(ticks), "ticktext": [f"{t:g}" for t in ticks]}
    fig.update_layout(
        xaxis={**axis, "title": "False positive rate (normal deviate scale)"},
        yaxis={**axis, "title": "False negative rate (normal deviate scale)"},
        height=420,
        margin={"l": 60, "r": 20, "t": 30, "b": 60},
    )
    return fig
