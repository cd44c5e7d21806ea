"""The Compare page's figure: each sample's value under model A against model B."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from explorer.formatting import fill_fields, plotly_text
from explorer.i18n import DEFAULT, translate

#: A sample id in a dot's hover: its first characters (an id may have 256).
ID_CHARS = 40


def _hover(ids, rows: np.ndarray, counts: np.ndarray, lang: str = DEFAULT) -> list[str]:
    """A dot's sample id, and how many more samples it stands for."""
    more = translate("${name} and ${n:,} more", lang)
    text = []
    for row, n in zip(rows.tolist(), counts.tolist(), strict=True):  # one a dot, not a sample
        name = str(ids[row])
        name = name if len(name) <= ID_CHARS else name[:ID_CHARS] + "…"
        name = plotly_text(name)  # after the cut, which must not split an entity
        text.append(name if n == 1 else fill_fields(more, {"name": name, "n": n - 1}))
    return text


def scatter(
    a, b, ids, drawn, what: str, model_a: str, model_b: str, lang: str = DEFAULT
) -> go.Figure:
    """Per-sample ``what`` of A (x) against B (y), one dot per row of ``drawn``
    (:class:`explorer.pages.compare_points.Points`), with the diagonal where they agree; its
    texts in ``lang`` (:mod:`explorer.i18n`).

    Examples
    --------
    >>> from explorer.pages.compare_points import points
    >>> a, b = np.array([0.5, 1.0, 1.0]), np.array([1.0, 1.0, 1.0])
    >>> fig = scatter(a, b, ["q1", "q2", "q3"], points(a, b), "NDCG", "old", "new")
    >>> fig.layout.xaxis.title.text, list(fig.data[0].text), fig.layout.shapes[0].x1
    ('NDCG of A (old)', ['q1', 'q2 and 1 more'], 1.0)
    """
    x, y = np.asarray(a)[drawn.rows], np.asarray(b)[drawn.rows]
    fig = go.Figure(
        go.Scattergl(
            x=x,
            y=y,
            mode="markers",
            text=_hover(ids, drawn.rows, drawn.counts, lang),
            hovertemplate="%{text}<br>A %{x:.4f}<br>B %{y:.4f}<extra></extra>",
            marker={"size": 7, "opacity": 0.6},
        )
    )
    if x.size:
        # the extremes are among the dots (points() keeps them), so the line is exact
        lo, hi = float(min(x.min(), y.min())), float(max(x.max(), y.max()))
        fig.add_shape(
            type="line", x0=lo, y0=lo, x1=hi, y1=hi, line={"dash": "dot", "color": "#555"}
        )
    fig.update_layout(
        xaxis_title=fill_fields(
            translate("${what} of A (${model})", lang),
            {"what": translate(what, lang), "model": plotly_text(model_a)},
        ),
        yaxis_title=fill_fields(
            translate("${what} of B (${model})", lang),
            {"what": translate(what, lang), "model": plotly_text(model_b)},
        ),
        height=460,
        margin={"l": 60, "r": 20, "t": 30, "b": 60},
    )
    return fig
