"""The Compare page's figure: each sample's value under model A against model B."""

from __future__ import annotations

import plotly.graph_objects as go


def scatter(a, b, ids, what: str, model_a: str, model_b: str) -> go.Figure:
    """Per-sample ``what`` of A (x) against B (y), with the diagonal where they agree.

    Examples
    --------
    >>> fig = scatter([0.5, 1.0], [1.0, 1.0], ["q1", "q2"], "NDCG", "old", "new")
    >>> fig.layout.xaxis.title.text, len(fig.data), fig.layout.shapes[0].x1
    ('NDCG of A (old)', 1, 1.0)
    """
    fig = go.Figure(
        go.Scattergl(
            x=a,
            y=b,
            mode="markers",
            text=list(ids),
            hovertemplate="%{text}<br>A %{x:.4f}<br>B %{y:.4f}<extra></extra>",
            marker={"size": 7, "opacity": 0.6},
        )
    )
    lo, hi = float(min(min(a), min(b))), float(max(max(a), max(b)))
    fig.add_shape(type="line", x0=lo, y0=lo, x1=hi, y1=hi, line={"dash": "dot", "color": "#555"})
    fig.update_layout(
        xaxis_title=f"{what} of A ({model_a})",
        yaxis_title=f"{what} of B ({model_b})",
        height=460,
        margin={"l": 60, "r": 20, "t": 30, "b": 60},
    )
    return fig
