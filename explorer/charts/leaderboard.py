"""The Leaderboard page's figure: every pair's difference, coloured by corrected
significance."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from explorer.charts.multiclass import cell_from_selection
from explorer.formatting import fill_fields, plotly_names, plotly_text
from explorer.theme import OKABE_ITO

#: The colours of a cell: the row model significantly better, worse, or neither.
BETTER, WORSE, NEITHER = OKABE_ITO["bluish green"], OKABE_ITO["vermillion"], "#e6e6e6"


def significance(diff: np.ndarray, p: np.ndarray, alpha: float, higher_is_better: bool):
    """Each cell's verdict: +1 the row model significantly better than the column's, -1
    worse, 0 neither (the diagonal, a p-value above ``alpha`` or none).

    Examples
    --------
    >>> d = np.array([[0.0, 0.1], [-0.1, 0.0]])
    >>> p = np.array([[np.nan, 0.01], [0.01, np.nan]])
    >>> significance(d, p, 0.05, True).tolist()
    [[0, 1], [-1, 0]]
    """
    sign = 1 if higher_is_better else -1
    with np.errstate(invalid="ignore"):
        shown = np.nan_to_num(p, nan=2.0) <= alpha
    return (np.sign(sign * diff) * shown).astype(int)


#: The side of a cell in px, at most (fewer px a cell with many models: the chart fits).
CELL_PX = 44


def matrix(
    names,
    diff: np.ndarray,
    p: np.ndarray,
    alpha: float,
    higher_is_better: bool,
    metric: str,
    texts: tuple[str, str] = ("${metric}: row − column", "corrected p"),
) -> go.Figure:
    """A grid of ``diff[i, j]`` (row model minus column model), each cell green where the
    row model is significantly better after the correction, vermillion where it is
    significantly worse, grey otherwise; the difference written in the cell, the
    corrected p-value in its hover. Names escaped (visitor text). ``texts``: the title
    (its field ``${metric}``) and the hover's name of the p-value, as the view words them.

    Square markers, not a plotly heatmap: a heatmap is drawn as a raster image with a
    ``data:`` address, and the page holds no image from any address but its own.

    Examples
    --------
    >>> d = np.array([[0.0, 0.1], [-0.1, 0.0]])
    >>> p = np.array([[np.nan, 0.01], [0.01, np.nan]])
    >>> fig = matrix(["a<b>", "c"], d, p, 0.05, True, "ROC AUC")
    >>> list(fig.data[0].x), list(fig.data[0].y)
    (['a&lt;b&gt;', 'c', 'a&lt;b&gt;', 'c'], ['a&lt;b&gt;', 'a&lt;b&gt;', 'c', 'c'])
    >>> list(fig.data[0].marker.color) == [NEITHER, BETTER, WORSE, NEITHER]
    True
    """
    shown = plotly_names(names)
    m = len(shown)
    verdict = significance(diff, p, alpha, higher_is_better).ravel()
    rows, cols = np.divmod(np.arange(m * m), m)
    colour = np.where(verdict > 0, BETTER, np.where(verdict < 0, WORSE, NEITHER))
    text = ["" if i == j else f"{diff[i, j]:+.3g}" for i, j in zip(rows, cols, strict=True)]
    flat = p.ravel()
    ptext = ["" if np.isnan(v) else f"{v:.3g}" for v in flat]
    side = max(14, min(CELL_PX, 640 // max(m, 1)))
    fig = go.Figure(
        go.Scatter(
            x=[shown[j] for j in cols],
            y=[shown[i] for i in rows],
            mode="markers+text",
            marker={"symbol": "square", "size": side, "color": colour.tolist()},
            text=text,
            textfont={"size": 11 if side >= 30 else 9},
            customdata=ptext,
            hovertemplate="%{y} − %{x}: %{text}<br>" + texts[1] + " = %{customdata}<extra></extra>",
        )
    )
    fig.update_layout(
        title=plotly_text(fill_fields(texts[0], {"metric": metric})),
        xaxis={"type": "category", "side": "top", "showgrid": False},
        yaxis={"type": "category", "autorange": "reversed", "showgrid": False},
        height=max(260, 110 + (side + 6) * m),
        width=max(360, 160 + (side + 6) * m),
        margin={"l": 10, "r": 10, "t": 80, "b": 10},
        showlegend=False,
    )
    return fig


def pair_from_selection(event, names) -> tuple[str, str] | None:
    """The (row, column) models of the matrix cell a click selected: the pair to open on
    Compare two models as A and B; None for no cell or a cell of the diagonal.

    Accepts the attribute-style selection state of ``st.plotly_chart`` or a plain dict.

    Examples
    --------
    >>> pair_from_selection({"selection": {"points": [{"x": "c", "y": "a&lt;b&gt;"}]}},
    ...     ["a<b>", "c"])
    ('a<b>', 'c')
    >>> pair_from_selection({"selection": {"points": [{"x": "c", "y": "c"}]}}, ["a", "c"])
    """
    cell = cell_from_selection(event, names)
    return cell if cell is not None and cell[0] != cell[1] else None
