"""Figures for the multilabel classification page (plotly only, no streamlit)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import theme
from explorer.charts import svg
from explorer.formatting import plotly_names, plotly_text
from explorer.i18n import Phrase

OUTCOME_COLORS = {**theme.OUTCOME_COLORS, "TN": "#eceff1"}  # colour-blind safe; TN stays faint
_OUTCOME_CODES = {"TN": 0, "FP": 1, "FN": 2, "TP": 3}


#: Above this many labels the bars show the labels with the lowest F1 only.
BARS_MAX = 30


def _t(text: str, lang: str, **fields) -> str:
    """``text`` (a template with ``${fields}``) in ``lang``, filled."""
    return Phrase(text, **fields).translated(lang)


def label_scores_chart(
    table: pd.DataFrame, *, macro_f1: float, micro_f1: float, lang: str = "en"
) -> str:
    """Grouped bars of precision, recall and F1 per label, with the two F1 averages as
    lines: SVG (:mod:`explorer.charts.svg`; the threshold redraws it on every move).

    ``table`` holds one row per label with columns ``label``, ``support``,
    ``precision``, ``recall`` and ``f1`` (``metrics.multilabel_label_table``
    without its summary rows). The dashed line is Macro F1 (C-F1, the mean of
    the bars' F1), the dotted line Micro F1 (O-F1, from the pooled counts), both
    over every label; a NaN average draws no line. Past :data:`BARS_MAX` labels only
    the :data:`BARS_MAX` with the lowest F1 are drawn, lowest first (a NaN F1 counts
    as lowest), and the title says so: at 100 labels three bars each would be 4 px
    wide. Each bar names its label and value on hover.

    Examples
    --------
    >>> t = pd.DataFrame({"label": list("abc"), "support": [3, 1, 2],
    ...                   "precision": [1.0, 0.5, 0.2], "recall": [0.5, 1.0, 0.4],
    ...                   "f1": [0.6667, 0.6667, 0.2667]})
    >>> html = label_scores_chart(t, macro_f1=0.53, micro_f1=0.6)
    >>> html.count('class="bar"'), html.count('class="marker"'), "a (n=3)" in html
    (9, 2, True)
    """
    title = _t("Precision, recall and F1 of each label", lang)
    n_labels = len(table)
    if n_labels > BARS_MAX:
        key = table["f1"].fillna(-np.inf).to_numpy()
        table = table.iloc[np.argsort(key, kind="stable")[:BARS_MAX]]
        title = _t(
            "The ${shown} labels with the lowest F1, of ${n} (all: tab Per-label tables)",
            lang,
            shown=BARS_MAX,
            n=n_labels,
        )
    names = [
        f"{lab} (n={sup:g})" for lab, sup in zip(table["label"], table["support"], strict=True)
    ]
    series = [
        svg.Series(
            name,
            table[col].to_numpy(dtype=float),
            color,
            [f"{lab}: {name} {v:.4f}" for lab, v in zip(table["label"], table[col], strict=True)],
        )
        for col, name, color in zip(
            ("precision", "recall", "f1"),
            (_t("precision", lang), _t("recall", lang), "F1"),
            theme.COLORWAY[:3],
            strict=True,
        )
    ]
    lines, legend = [], []
    for value, name, dash, color in (
        (macro_f1, "Macro F1 (C-F1)", "8 5", "#37474f"),
        (micro_f1, "Micro F1 (O-F1)", "2 3", "#d81b60"),
    ):
        if np.isfinite(value):
            lines.append(svg.Line(float(value), "", color, dash))
            style = "${name} = ${value} (dashed line)" if dash == "8 5" else None
            style = style or "${name} = ${value} (dotted line)"
            legend.append((color, _t(style, lang, name=name, value=f"{value:.3f}")))
    return svg.bar_chart(
        svg.BarChart(
            names,
            series,
            title=title,
            x_title=_t("label (n = support, true samples)", lang),
            y_range=(0.0, 1.0),
            lines=lines,
            legend=legend,
            height=300,
            vertical_ticks=True,
        )
    )


def outcome_grid_figure(
    outcomes: np.ndarray, sample_ids, label_names, *, title: str = "", lang: str = "en"
) -> go.Figure:
    """A samples x labels grid colored by outcome: TP, FN (missed), FP (extra), TN.

    ``outcomes`` is a string matrix from ``metrics.multilabel_outcomes``
    (already restricted to the rows to show, worst first); a padding cell ("", ragged
    rows) is left blank.
    """
    outcomes = np.asarray(outcomes)
    code = np.vectorize(lambda o: _OUTCOME_CODES.get(o, np.nan), otypes=[float])
    z = code(outcomes) if outcomes.size else outcomes
    order = ["TN", "FP", "FN", "TP"]
    colorscale = []
    for i, name in enumerate(order):
        colorscale += [[i / 4, OUTCOME_COLORS[name]], [(i + 1) / 4, OUTCOME_COLORS[name]]]
    ids = plotly_names(sample_ids)
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=plotly_names(label_names),
            y=ids,
            text=outcomes,
            texttemplate="%{text}",
            textfont={"color": theme.CELL_TEXT},
            colorscale=colorscale,
            zmin=-0.5,
            zmax=3.5,
            xgap=2,
            ygap=2,
            showscale=False,
            hovertemplate=_t("sample %{y}, label %{x}: %{text}<extra></extra>", lang),
        )
    )
    fig.update_layout(
        title=plotly_text(title),
        yaxis={"autorange": "reversed", "type": "category", "title": _t("sample", lang)},
        xaxis={"side": "top", "title": ""},
        margin={"t": 60 if title else 30, "b": 10},
        height=max(220, 22 * len(ids) + 90),
    )
    theme.wrap_titles(fig)  # its title ran past a 390 px phone's chart
    if title:  # the title sits above the top axis, whose names a phone writes slanted
        lines = (fig.layout.title.text or "").count("<br>") + 1
        longest = max((len(str(n)) for n in label_names), default=0)
        fig.update_layout(margin_t=40 + 22 * lines + min(7 * longest, 140))
    return fig
