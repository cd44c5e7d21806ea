"""Figures of the Multiclass classification page (plotly only, no streamlit)."""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer.formatting import fill_fields, plotly_names, plotly_text
from explorer.i18n import translate
from explorer.theme import wrap_titles

SELECTED = "#D55E00"
OTHERS = "#b0bec5"
MICRO = "#0072B2"
MACRO = "#009E73"


def confusion_figure(
    table: pd.DataFrame, *, counts: bool, selected=None, lang: str = "en"
) -> go.Figure:
    """The K x K confusion matrix as a heatmap: rows true classes, columns predicted.

    ``table`` is :func:`explorer.pages.multiclass.confusion_table`; ``counts`` says
    whether it holds counts (written as whole numbers) or rates (three decimals);
    ``selected`` = (true, predicted) class names outlines that cell; ``lang`` is the
    language of its texts (:mod:`explorer.i18n`).

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame([[2, 1], [0, 3]], index=["a", "b"], columns=["a", "b"])
    >>> confusion_figure(t, counts=True).data[0].text.tolist()
    [['2', '1'], ['0', '3']]
    """
    z = table.to_numpy(dtype=float)
    text = np.array(
        [[(f"{v:,.4g}" if counts else f"{v:.3f}") for v in row] for row in z], dtype=object
    )
    # the shown names are the axes' categories: a click reads them (cell_from_selection)
    rows, cols = plotly_names(table.index), plotly_names(table.columns)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=cols,
            y=rows,
            text=text,
            texttemplate="%{text}" if len(rows) <= 20 else None,
            colorscale="Blues",
            xgap=1,
            ygap=1,
            colorbar={"title": translate("count", lang) if counts else translate("rate", lang)},
            hovertemplate=translate("true %{y}, predicted %{x}: %{text}<extra></extra>", lang),
        )
    )
    # one nearly invisible square marker per cell, so a click selects the cell (a heatmap
    # itself has no selectable points)
    ii, jj = np.meshgrid(np.arange(len(rows)), np.arange(len(cols)), indexing="ij")
    size = max(8, min(60, 420 // max(len(rows), 1)))
    fig.add_trace(
        go.Scatter(
            x=[cols[j] for j in jj.ravel()],
            y=[rows[i] for i in ii.ravel()],
            mode="markers",
            marker={"symbol": "square", "size": size, "color": "rgba(0,0,0,0.01)"},
            hovertemplate=translate(
                "true %{y}, predicted %{x}: click to list its samples<extra></extra>", lang
            ),
            showlegend=False,
        )
    )
    if selected is not None:
        i = [str(r) for r in table.index].index(str(selected[0]))
        j = [str(c) for c in table.columns].index(str(selected[1]))
        fig.add_shape(
            type="rect",
            x0=j - 0.5,
            x1=j + 0.5,
            y0=i - 0.5,
            y1=i + 0.5,
            line={"color": SELECTED, "width": 3},
        )
    fig.update_layout(
        xaxis={"title": translate("predicted class", lang), "type": "category", "side": "top"},
        yaxis={"title": translate("true class", lang), "type": "category", "autorange": "reversed"},
        margin={"t": 40, "b": 10, "l": 10, "r": 10},
        height=min(640, max(300, 34 * len(rows) + 120)),
    )
    return wrap_titles(fig)


def _curve_figure(
    curves: dict, selected: str, *, x: str, y: str, diagonal: bool, lang: str
) -> go.Figure:
    x, y = translate(x, lang), translate(y, lang)
    fig = go.Figure()
    if diagonal:
        fig.add_trace(
            go.Scatter(
                x=[0, 1],
                y=[0, 1],
                mode="lines",
                line={"dash": "dot", "color": "#90a4ae"},
                name=translate("chance", lang),
                hoverinfo="skip",
            )
        )
    for name, curve in curves.items():
        if curve is None or name in ("micro", "macro", selected):
            continue
        shown = plotly_text(name)
        fig.add_trace(
            go.Scatter(
                x=np.asarray(curve[0]),
                y=np.asarray(curve[1]),
                mode="lines",
                line={"color": OTHERS, "width": 1},
                name=shown,
                legendgroup="others",
                showlegend=False,
                hovertemplate=fill_fields(
                    translate("class ${name}<br>${x} %{x:.3f}, ${y} %{y:.3f}<extra></extra>", lang),
                    {"name": shown, "x": x, "y": y},
                ),
            )
        )
    for name, color, dash, label in (
        ("macro", MACRO, "dash", "macro average"),
        ("micro", MICRO, "dot", "micro average"),
    ):
        if curves.get(name) is not None:
            fig.add_trace(
                go.Scatter(
                    x=np.asarray(curves[name][0]),
                    y=np.asarray(curves[name][1]),
                    mode="lines",
                    line={"color": color, "width": 2, "dash": dash},
                    name=translate(label, lang),
                )
            )
    if curves.get(selected) is not None:
        fig.add_trace(
            go.Scatter(
                x=np.asarray(curves[selected][0]),
                y=np.asarray(curves[selected][1]),
                mode="lines",
                line={"color": SELECTED, "width": 3},
                name=fill_fields(
                    translate("class ${name} vs rest", lang), {"name": plotly_text(selected)}
                ),
            )
        )
    fig.update_layout(
        xaxis={"title": x, "range": [-0.02, 1.02]},
        yaxis={"title": y, "range": [-0.02, 1.02]},
        legend={"orientation": "h", "y": -0.25},
        margin={"t": 30, "b": 10, "l": 10, "r": 10},
        height=420,
    )
    return wrap_titles(fig)


def roc_figure(curves: dict, selected: str, lang: str = "en") -> go.Figure:
    """One-vs-rest ROC curves: every class (grey), the selected class, micro and macro.

    ``curves`` is :func:`explorer.pages.multiclass_curves.ovr_curves`'s ``"roc"`` plus,
    under ``"macro"``, the mean curve.

    Examples
    --------
    >>> import numpy as np
    >>> c = {"a": (np.array([0, 1]), np.array([0, 1])), "micro": (np.array([0, 1]),) * 2}
    >>> [t.name for t in roc_figure(c, "a").data]
    ['chance', 'micro average', 'class a vs rest']
    """
    return _curve_figure(
        curves,
        selected,
        x="false positive rate",
        y="true positive rate",
        diagonal=True,
        lang=lang,
    )


def pr_figure(curves: dict, selected: str, lang: str = "en") -> go.Figure:
    """One-vs-rest precision-recall curves: every class, the selected one and micro.

    Examples
    --------
    >>> import numpy as np
    >>> c = {"a": (np.array([1, 0]), np.array([0.5, 1])), "b": None}
    >>> [t.name for t in pr_figure(c, "a").data]
    ['class a vs rest']
    """
    return _curve_figure(curves, selected, x="recall", y="precision", diagonal=False, lang=lang)


def cell_from_selection(event, names) -> tuple[str, str] | None:
    """The (true, predicted) class names of the confusion-matrix cell a click selected.

    Accepts the attribute-style selection state of ``st.plotly_chart`` or a plain
    dict; None when no point of a cell of ``names`` is selected.

    Examples
    --------
    >>> cell_from_selection({"selection": {"points": [{"x": "b", "y": "a"}]}}, ["a", "b"])
    ('a', 'b')
    >>> cell_from_selection({"selection": {"points": []}}, ["a"]) is None
    True
    """
    if event is None:
        return None
    selection = event.get("selection") if isinstance(event, Mapping) else None
    if selection is None:
        selection = getattr(event, "selection", None)
    points = selection.get("points") if isinstance(selection, Mapping) else None
    if points is None:
        points = getattr(selection, "points", None)
    names = [str(n) for n in names]
    named = dict(zip(plotly_names(names), names, strict=True))  # the shown name's own
    for point in points or ():
        get = point.get if isinstance(point, Mapping) else lambda k, p=point: getattr(p, k, None)
        x, y = named.get(str(get("x"))), named.get(str(get("y")))
        if x is not None and y is not None:
            return y, x
    return None
