"""Figures of the Top-K retrieval page: metrics against K and one query's ranked list."""

from __future__ import annotations

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import theme
from explorer.charts import svg
from explorer.formatting import plotly_text
from explorer.i18n import Phrase
from explorer.theme import label_line_ends, wrap_titles

# grade 0 grey, then light to dark green: relevance reads at a glance (colour-blind safe with text)
GRADE_COLORS = ("#d9d9d9", "#c7e9c0", "#74c476", "#31a354", "#006d2c")


def _t(text: str, lang: str, **fields) -> str:
    """``text`` (a template with ``${fields}``) in ``lang``, filled."""
    return Phrase(text, **fields).translated(lang)


def grade_color(grade: float, max_grade: float) -> str:
    """The colour of a relevance grade on a 0 .. max_grade scale (0 is grey).

    >>> grade_color(0, 3), grade_color(3, 3)
    ('#d9d9d9', '#006d2c')
    """
    if grade <= 0 or max_grade <= 0:
        return GRADE_COLORS[0]
    step = int(np.ceil(grade / max_grade * (len(GRADE_COLORS) - 1)))
    return GRADE_COLORS[min(max(step, 1), len(GRADE_COLORS) - 1)]


def metrics_vs_k_figure(curve: pd.DataFrame, k: int, lang: str = "en") -> go.Figure:
    """One line per metric against K (columns ``K`` and one per metric), a marker line at ``k``.

    The same as :func:`with_k_line` of :func:`metrics_vs_k_base`.

    Examples
    --------
    >>> c = pd.DataFrame({"K": [1, 2, 3], "P@K": [1.0, 0.5, 0.67]})
    >>> fig = metrics_vs_k_figure(c, 2)
    >>> [tr.name for tr in fig.data], fig.layout.shapes[0].x0
    (['P@K'], 2)
    """
    return with_k_line(metrics_vs_k_base(curve, lang), k)


def metrics_vs_k_base(curve: pd.DataFrame, lang: str = "en") -> go.Figure:
    """The lines of :func:`metrics_vs_k_figure` without the marker at K: what stays when K
    moves (cached per dataset and conventions; :func:`with_k_line` adds the marker).

    Examples
    --------
    >>> c = pd.DataFrame({"K": [1, 2, 3], "P@K": [1.0, 0.5, 0.67], "R@K": [0.2, 0.4, 0.6]})
    >>> fig = metrics_vs_k_base(c)
    >>> [tr.name for tr in fig.data], len(fig.layout.shapes), fig.data[0].mode
    (['P@K', 'R@K'], 0, 'lines+markers')
    >>> metrics_vs_k_base(pd.DataFrame({"K": range(1, 31), "P@K": 0.5})).data[0].mode
    'lines'
    """
    fig = go.Figure()
    # a marker per K up to 20 K (one per tick); past that the lines alone (100 K x 7
    # lines would be 700 markers, drawn again on every move of K)
    mode = "lines+markers" if len(curve) <= 20 else "lines"
    for name in curve.columns.drop("K"):
        fig.add_trace(
            go.Scatter(
                x=curve["K"].tolist(),
                y=curve[name].tolist(),
                mode=mode,
                name=_t(name, lang),
                hovertemplate=_t(
                    "${name} at K=%{x}: %{y:.4f}<extra></extra>", lang, name=_t(name, lang)
                ),
            )
        )
    fig.update_layout(
        xaxis_title=_t("K (cut-off)", lang),
        yaxis_title=_t("mean over queries", lang),
        yaxis_range=[0, 1.05],
        height=380,
        margin={"l": 10, "r": 10, "t": 30, "b": 10},
        legend={"orientation": "h", "y": -0.2},
    )
    fig.update_xaxes(dtick=1 if len(curve) <= 20 else None)
    return label_line_ends(fig)


def with_k_line(base: go.Figure, k: int) -> go.Figure:
    """A copy of ``base`` (:func:`metrics_vs_k_base`) with a dashed line at ``k`` and its
    label; ``base`` is never changed, and the copy is not validated again (``base`` was
    validated when it was built; the line is one shape and one annotation).

    Examples
    --------
    >>> base = metrics_vs_k_base(pd.DataFrame({"K": [1, 2], "P@K": [1.0, 0.5]}))
    >>> fig = with_k_line(base, 2)
    >>> fig.layout.shapes[0].x0, fig.layout.annotations[-1].text, len(base.layout.shapes)
    (2, 'K = 2', 0)
    """
    spec = base.to_dict()
    layout = spec.setdefault("layout", {})
    line = {"color": "black", "dash": "dash"}
    layout["shapes"] = [
        *layout.get("shapes", []),
        {
            "type": "line",
            "x0": k,
            "x1": k,
            "xref": "x",
            "y0": 0,
            "y1": 1,
            "yref": "y domain",
            "line": line,
        },
    ]
    layout["annotations"] = [
        *layout.get("annotations", []),
        {
            "text": f"K = {k}",
            "x": k,
            "xref": "x",
            "y": 1,
            "yref": "y domain",
            "xanchor": "left",
            "yanchor": "top",
            "showarrow": False,
        },
    ]
    return go.Figure(spec, _validate=False)


def ranked_list_figure(
    steps: pd.DataFrame,
    contribution: str,
    *,
    k: int,
    max_grade: float,
    item_names: list[str] | None = None,
    title: str = "",
    lang: str = "en",
) -> go.Figure:
    """One bar per ranked position: height = the selected metric's contribution,
    colour = relevance grade, a bracket over every tie group of two or more
    items, and a dashed line at the top-K cut.

    ``steps`` is a :func:`metrics.retrieval_query_steps` table, or its first rows (a
    tie group cut at the end is labelled with its whole size, ``tie_size``).
    """
    pos = steps["position"].to_numpy()
    grades = steps["grade"].to_numpy()
    items = steps["item"].to_numpy()
    names = [plotly_text(item_names[i]) if item_names else str(i) for i in items]
    values = steps[contribution].to_numpy()
    colors = [grade_color(g, max_grade) for g in grades]
    fig = go.Figure(
        go.Bar(
            x=pos.tolist(),
            y=values.tolist(),
            marker={"color": colors, "line": {"color": "#555", "width": 1}},
            text=[f"{n}<br>g={g:g}" for n, g in zip(names, grades, strict=True)],
            textposition="outside",
            customdata=np.stack([steps["score"].to_numpy(), grades], axis=1).tolist(),
            hovertemplate=_t(
                "position %{x}<br>score %{customdata[0]:.4g}<br>grade %{customdata[1]:g}"
                "<br>${contribution} %{y:.4f}<extra></extra>",
                lang,
                contribution=contribution,
            ),
            name=contribution,
        )
    )
    bracket_y = float(max(values.max(initial=0.0), 1e-9)) * 1.45
    shapes, annotations = _tie_brackets(steps, pos, bracket_y, lang)
    if k < len(pos):
        shapes.append(_cut_line(k))
        annotations.append(_cut_note(k, lang))
    fig.update_layout(shapes=shapes, annotations=annotations)
    fig.update_layout(
        title=plotly_text(title),
        xaxis_title=_t("position in the ranking", lang),
        yaxis_title=_t("contribution (${column})", lang, column=contribution),
        yaxis_range=[0, bracket_y * 1.2],
        height=380,
        margin={"l": 10, "r": 10, "t": 50, "b": 10},
        showlegend=False,
    )
    fig.update_xaxes(dtick=1 if len(pos) <= 30 else None)
    return wrap_titles(fig)


def _tie_brackets(
    steps: pd.DataFrame, pos: np.ndarray, bracket_y: float, lang: str = "en"
) -> tuple[list, list]:
    """A bracket over every tie group of two or more drawn items, labelled with the
    group's whole size (``tie_size`` when the table is cut), and the labels.

    Shapes and annotations are collected and set once: plotly re-validates the whole
    layout on every add_shape, which is slow with many tie groups."""
    shapes, annotations = [], []
    group = steps["tie_group"].to_numpy()
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    sizes = np.diff(np.r_[starts, len(group)])
    whole = steps["tie_size"].to_numpy() if "tie_size" in steps else None
    for first, size in zip(starts[sizes >= 2], sizes[sizes >= 2], strict=True):
        x0, x1 = pos[first] - 0.4, pos[first + size - 1] + 0.4
        n_tied = size if whole is None else int(whole[first])
        shapes.append(
            {
                "type": "path",
                "path": (
                    f"M {x0} {bracket_y * 0.95} L {x0} {bracket_y} "
                    f"L {x1} {bracket_y} L {x1} {bracket_y * 0.95}"
                ),
                "line": {"color": "#b15928", "width": 2},
            }
        )
        annotations.append(
            {
                "x": (x0 + x1) / 2,
                "y": bracket_y,
                "text": _t("tie: ${n} items", lang, n=n_tied),
                "showarrow": False,
                "yshift": 10,
                "font": {"color": "#b15928"},
            }
        )
    return shapes, annotations


def _cut_line(k: int) -> dict:
    """The dashed red line between position ``k`` and the next."""
    return {
        "type": "line",
        "x0": k + 0.5,
        "x1": k + 0.5,
        "xref": "x",
        "y0": 0,
        "y1": 1,
        "yref": "paper",
        "line": {"color": "red", "dash": "dash"},
    }


def _cut_note(k: int, lang: str = "en") -> dict:
    """The label of :func:`_cut_line`."""
    return {
        "x": k + 0.5,
        "xref": "x",
        "y": 0,
        "yref": "paper",
        "text": _t("top-${k} cut", lang, k=k),
        "showarrow": False,
        "xanchor": "left",
        "yanchor": "bottom",
    }


#: Past this many items the page draws :func:`metrics_vs_k_svg` and
#: :func:`ranked_list_svg` (K redraws both; a plotly figure costs ~0.1 s of browser CPU).
SVG_ITEMS = 30


def metrics_vs_k_svg(curve: pd.DataFrame, k: int, lang: str = "en") -> str:
    """:func:`metrics_vs_k_figure` as SVG (:mod:`explorer.charts.svg`): one line per
    metric over K, the dashed line at ``k``; each line named in the legend, and every
    metric's value at a K on hover over its column.

    Examples
    --------
    >>> c = pd.DataFrame({"K": [1, 2, 3], "P@K": [1.0, 0.5, 0.67], "R@K": [0.2, 0.4, 0.6]})
    >>> html = metrics_vs_k_svg(c, 2)
    >>> html.count('class="curve-line"'), "K = 2" in html, html.count('class="curve"')
    (2, True, 6)
    """
    curve = curve.rename(columns={c: _t(c, lang) for c in curve.columns if c != "K"})
    names = [c for c in curve.columns if c != "K"]
    colors = theme.COLORWAY
    return svg.bar_chart(
        svg.BarChart(
            [str(x) for x in curve["K"]],
            [],
            x_title=_t("K (cut-off)", lang),
            y_title=_t("mean over queries", lang),
            y_range=(0.0, 1.0),
            lines=[svg.Line(int(curve["K"].tolist().index(k)) + 0.5, f"K = {k}", vertical=True)],
            tick_every=1 if len(curve) <= 20 else 10,
            height=300,
            curves=[
                svg.Curve(name, curve[name].to_numpy(dtype=float), colors[i % len(colors)], (0, 1))
                for i, name in enumerate(names)
            ],
            column_hover=[
                f"K = {int(row['K'])}: " + ", ".join(f"{n} {row[n]:.4f}" for n in names)
                for _, row in curve.iterrows()
            ],
        )
    )


def ranked_list_svg(
    steps: pd.DataFrame,
    contribution: str,
    *,
    k: int,
    max_grade: float,
    item_names: list[str] | None = None,
    title: str = "",
    lang: str = "en",
) -> str:
    """:func:`ranked_list_figure` as SVG (:mod:`explorer.charts.svg`): a bar per ranked
    position, its height the contribution, its colour the relevance grade; each tie
    group of two or more shaded (named with its whole size on hover); the dashed top-K
    cut. Tick labels read "position. item (g=grade)".

    Examples
    --------
    >>> import metrics
    >>> steps = metrics.retrieval_query_steps([[2, 0, 1]], [[0.9, 0.5, 0.5]], 0, k=1)
    >>> html = ranked_list_svg(steps, "dcg_term", k=1, max_grade=2, item_names=list("abc"))
    >>> html.count('class="bar"'), html.count('class="band"'), "top-1 cut" in html
    (3, 1, True)
    """
    pos = steps["position"].to_numpy()
    grades = steps["grade"].to_numpy()
    names = [item_names[i] if item_names else str(i) for i in steps["item"]]
    values = steps[contribution].to_numpy(dtype=float)
    hover = [
        _t(
            "position ${p}: ${n}, score ${score}, grade ${grade}, ${column} ${value}",
            lang,
            p=p,
            n=n,
            score=f"{sc:.4g}",
            grade=f"{g:g}",
            column=contribution,
            value=f"{v:.4f}",
        )
        for p, n, sc, g, v in zip(pos, names, steps["score"], grades, values, strict=True)
    ]
    group = steps["tie_group"].to_numpy()
    starts = np.flatnonzero(np.r_[True, group[1:] != group[:-1]])
    sizes = np.diff(np.r_[starts, len(group)])
    whole = steps["tie_size"].to_numpy() if "tie_size" in steps else None
    bands = [
        svg.Band(
            int(a),
            int(a + n - 1),
            _t("tie: ${n} items", lang, n=n if whole is None else int(whole[a])),
        )
        for a, n in zip(starts[sizes >= 2], sizes[sizes >= 2], strict=True)
    ]
    cut = _t("top-${k} cut", lang, k=k)
    lines = [svg.Line(k, cut, "#D62728", vertical=True)] if k < len(pos) else []
    return svg.bar_chart(
        svg.BarChart(
            [f"{p}. {n} (g={g:g})" for p, n, g in zip(pos, names, grades, strict=True)],
            [svg.Series(contribution, values, [grade_color(g, max_grade) for g in grades], hover)],
            title=title,
            x_title=_t("position in the ranking", lang),
            y_title=_t("contribution (${column})", lang, column=contribution),
            lines=lines,
            bands=bands,
            height=300,
            vertical_ticks=True,
            series_legend=False,
            legend=[
                (GRADE_COLORS[0], _t("grade ${g}", lang, g=0)),
                (GRADE_COLORS[-1], _t("grade ${g}", lang, g=f"{max_grade:g}")),
            ],
        )
    )
