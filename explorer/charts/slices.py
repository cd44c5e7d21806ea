"""The Slices page's figure: each group's value with its interval, and the overall line."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from explorer.formatting import fill_fields, fmt, plotly_names, plotly_text
from explorer.theme import OKABE_ITO


def groups(
    labels,
    value,
    low,
    high,
    overall: float,
    metric: str,
    texts: tuple[str, str] = ("all rows: ${value}", "${metric} (95% interval)"),
) -> go.Figure:
    """One row per group (its label, escaped: a visitor's text), a dot at its value and a
    bar over its 95% interval; a dashed line at the value on all rows. ``texts``: the
    line's note and the axis title, with their fields (the view passes them translated).

    Examples
    --------
    >>> fig = groups(["a<b>", "c"], np.array([0.8, 0.6]), np.array([0.7, 0.5]),
    ...              np.array([0.9, 0.7]), 0.7, "ROC AUC")
    >>> list(fig.data[0].y), [round(float(v), 3) for v in fig.data[0].error_x.array]
    (['a&lt;b&gt;', 'c'], [0.1, 0.1])
    >>> fig.layout.shapes[0].x0
    0.7
    """
    names = plotly_names(labels)
    value, low, high = (np.asarray(a, dtype=float) for a in (value, low, high))
    fig = go.Figure(
        go.Scatter(
            x=value,
            y=names,
            mode="markers",
            marker={"size": 10, "color": OKABE_ITO["blue"]},
            error_x={
                "type": "data",
                "symmetric": False,
                "array": np.nan_to_num(high - value),
                "arrayminus": np.nan_to_num(value - low),
            },
            name=plotly_text(metric),
            hovertemplate="%{y}: %{x:.4g}<extra></extra>",
        )
    )
    if np.isfinite(overall):
        fig.add_vline(
            x=overall,
            line_dash="dash",
            line_color=OKABE_ITO["vermillion"],
            annotation_text=fill_fields(texts[0], {"value": fmt(overall)}),
        )
    fig.update_layout(
        xaxis_title=plotly_text(fill_fields(texts[1], {"metric": metric})),
        yaxis={"autorange": "reversed", "type": "category"},
        height=max(220, 60 + 28 * len(names)),
        margin={"l": 10, "r": 10, "t": 30, "b": 40},
        showlegend=False,
    )
    return fig
