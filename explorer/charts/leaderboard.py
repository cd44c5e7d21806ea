"""The Leaderboard page's figure: every pair's difference, coloured by corrected
significance."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from explorer.formatting import plotly_names, plotly_text
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


def matrix(
    names, diff: np.ndarray, p: np.ndarray, alpha: float, higher_is_better: bool, metric: str
) -> go.Figure:
    """A heatmap of ``diff[i, j]`` (row model minus column model), each cell green where
    the row model is significantly better after the correction, vermillion where it is
    significantly worse, grey otherwise; the difference written in the cell, the
    corrected p-value in its hover. Names escaped (visitor text).

    Examples
    --------
    >>> d = np.array([[0.0, 0.1], [-0.1, 0.0]])
    >>> p = np.array([[np.nan, 0.01], [0.01, np.nan]])
    >>> fig = matrix(["a<b>", "c"], d, p, 0.05, True, "ROC AUC")
    >>> list(fig.data[0].x), fig.data[0].z.tolist()
    (['a&lt;b&gt;', 'c'], [[0, 1], [-1, 0]])
    """
    shown = plotly_names(names)
    verdict = significance(diff, p, alpha, higher_is_better)
    text = [
        [("" if i == j else f"{diff[i, j]:+.3g}") for j in range(len(shown))]
        for i in range(len(shown))
    ]
    ptext = np.where(np.isnan(p), "", np.char.mod("%.3g", np.nan_to_num(p)))
    fig = go.Figure(
        go.Heatmap(
            z=verdict,
            x=shown,
            y=shown,
            zmin=-1,
            zmax=1,
            colorscale=[[0.0, WORSE], [0.5, NEITHER], [1.0, BETTER]],
            showscale=False,
            text=text,
            texttemplate="%{text}",
            customdata=ptext,
            hovertemplate="%{y} − %{x}: %{text}<br>corrected p = %{customdata}<extra></extra>",
            xgap=2,
            ygap=2,
        )
    )
    side = 70 + 48 * len(shown)
    fig.update_layout(
        title=plotly_text(f"{metric}: row − column"),
        xaxis={"type": "category", "side": "top"},
        yaxis={"type": "category", "autorange": "reversed"},
        height=max(260, side),
        margin={"l": 10, "r": 10, "t": 80, "b": 10},
    )
    return fig
