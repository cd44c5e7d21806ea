"""Figures and styled tables of the Label ranking page.

Built from plain arrays and DataFrames (the step tables and the per-sample
contributions of :mod:`metrics.label_ranking`); nothing here imports
streamlit, so every figure is testable without a server.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import sample_colorscale

from explorer.charts.svg import Band, BarChart, Series, bar_chart
from explorer.formatting import plotly_names, plotly_text
from explorer.i18n import Phrase
from explorer.theme import wrap_titles

TRUE_COLOR = "#1f77b4"
FALSE_COLOR = "#c7c7c7"
WORSE_COLOR = "#d62728"
BETTER_COLOR = "#2ca02c"
SELECTED_COLOR = "#ff7f0e"
TRUE_MARK = "\u25cf"  # a filled circle (no emoji: the browser may lack an emoji font)
TIE_MARK = "="


#: Above this many labels the sample's ranking is drawn by position (one thin bar per
#: label, named on hover), not as one named row per label.
NAMED_ROWS_MAX = 30


def _tr(lang: str, text: str, **values) -> str:
    """A chart text in ``lang`` (the page's language; English by default)."""
    return Phrase(text, **values).translated(lang)


def sample_ranking_figure(
    steps: pd.DataFrame, label_names: Sequence[str], lang: str = "en"
) -> go.Figure:
    """The labels of one sample sorted by score, true labels colored, tie groups boxed.

    Parameters
    ----------
    steps : pandas.DataFrame
        A step table of one sample (``lrap_steps`` / ``coverage_steps``):
        columns ``label``, ``score``, ``is_true``, ``rank``, ``tie_group``,
        one row per label, highest score first.
    label_names : sequence of str
        Names of the label columns (indexed by ``steps["label"]``).
    lang : str
        The language of the chart's texts (:mod:`explorer.i18n`).

    Returns
    -------
    plotly.graph_objects.Figure
        Horizontal bars, the best-ranked label on top: one trace for the true
        labels and one for the false ones, each bar labelled with its rank; a
        shaded box with the note "tied: rank r" around every tie group of two or
        more labels. The page draws it up to
        :data:`NAMED_ROWS_MAX` labels, and :func:`sample_ranking_svg` past that.

    Examples
    --------
    >>> import metrics
    >>> steps = metrics.lrap_steps([1, 0, 1], [0.2, 0.9, 0.5])
    >>> [list(t.y) for t in sample_ranking_figure(steps, ["a", "b", "c"]).data]
    [['c (#2)', 'a (#0)'], ['b (#1)']]
    """
    names = [plotly_text(label_names[j]) for j in steps["label"]]
    # unique y categories even if two labels share a name
    ycat = [f"{name} (#{j})" for name, j in zip(names, steps["label"], strict=True)]
    fig = go.Figure()
    is_true = steps["is_true"].to_numpy(dtype=bool)
    legends = (
        (True, TRUE_COLOR, _tr(lang, "true label")),
        (False, FALSE_COLOR, _tr(lang, "false")),
    )
    for flag, color, legend in legends:
        sel = is_true == flag
        fig.add_bar(
            x=steps["score"][sel],
            y=[c for c, s in zip(ycat, sel, strict=True) if s],
            orientation="h",
            marker_color=color,
            name=legend,
            text=[_tr(lang, "rank ${r}", r=r) for r in steps["rank"][sel]],
            textposition="auto",
            hovertemplate="%{y}<br>"
            + _tr(lang, "score")
            + " %{x}<br>%{text}<extra>"
            + legend
            + "</extra>",
        )
    groups = steps.groupby("tie_group", sort=False)
    for _, g in groups:
        if len(g) < 2:
            continue
        pos = [ycat.index(f"{plotly_text(label_names[j])} (#{j})") for j in g["label"]]
        fig.add_shape(
            type="rect",
            xref="paper",
            x0=0,
            x1=1,
            yref="y",
            y0=min(pos) - 0.45,
            y1=max(pos) + 0.45,
            fillcolor="rgba(255,165,0,0.15)",
            line={"color": SELECTED_COLOR, "dash": "dot"},
            layer="below",
        )
        fig.add_annotation(
            xref="paper",
            x=1,
            xanchor="right",
            y=ycat[max(pos)],
            yshift=-8,
            text=_tr(lang, "tied: rank ${r}", r=int(g["rank"].iloc[0])),
            showarrow=False,
            font={"color": SELECTED_COLOR},
        )
    fig.update_layout(
        barmode="overlay",
        height=max(220, 60 + 32 * len(steps)),
        margin={"l": 10, "r": 10, "t": 40, "b": 40},
        title=_tr(lang, "Labels of this sample, highest score first"),
        xaxis_title=_tr(lang, "score"),
        yaxis={"categoryorder": "array", "categoryarray": ycat[::-1], "title": None},
        legend={"orientation": "h", "y": 1.02, "yanchor": "bottom", "x": 1, "xanchor": "right"},
    )
    return wrap_titles(fig)


def sample_ranking_svg(steps: pd.DataFrame, label_names: Sequence[str], lang: str = "en") -> str:
    """The labels of one sample by position, for many labels: SVG (:mod:`~explorer.charts.svg`).

    One bar per position (1 = highest score), its height the score, true labels
    colored and dotted (seen even with a score near 0); each bar names its label,
    score and rank on hover; each tie group of two or more labels is shaded. Drawn
    as SVG rather than plotly: the page redraws it on every step of the sample.

    Parameters
    ----------
    steps, label_names, lang
        As :func:`sample_ranking_figure`.

    Returns
    -------
    str
        HTML for :func:`explorer.ui.widgets.svg_chart`.

    Examples
    --------
    >>> import metrics
    >>> html = sample_ranking_svg(metrics.lrap_steps([1, 0, 0], [0.2, 0.9, 0.5]), "abc")
    >>> html.count('class="bar"'), "2 true" in html or "1 true" in html
    (3, True)
    """
    m = len(steps)
    is_true = steps["is_true"].to_numpy(dtype=bool)
    names = [str(label_names[j]) for j in steps["label"]]
    colors = np.where(is_true, TRUE_COLOR, FALSE_COLOR).tolist()
    truth = {True: _tr(lang, "true"), False: _tr(lang, "false")}
    hover = [
        _tr(
            lang,
            "position ${p}: ${name} (${truth}), score ${s}, rank ${r}",
            p=p,
            name=name,
            truth=truth[bool(t)],
            s=f"{s:.6g}",
            r=r,
        )
        for p, name, t, s, r in zip(
            range(1, m + 1), names, is_true, steps["score"], steps["rank"], strict=True
        )
    ]
    position = np.arange(m)
    bands = [
        Band(int(g.min()), int(g.max()), _tr(lang, "tied: rank ${r}", r=int(r)))
        for (_, r), g in pd.Series(position).groupby(
            [steps["tie_group"].to_numpy(), steps["rank"].to_numpy()], sort=False
        )
        if len(g) > 1
    ]
    scores = steps["score"].to_numpy(dtype=float)
    lo = min(0.0, float(scores.min()))
    return bar_chart(
        BarChart(
            [str(p) for p in range(1, m + 1)],
            [Series(_tr(lang, "score"), scores, colors, hover, marked=is_true)],
            title=_tr(
                lang,
                "The ${m} labels by score, position 1 highest "
                "(${n} true; hover a bar for its label)",
                m=m,
                n=int(is_true.sum()),
            ),
            x_title=_tr(lang, "position in the ranking"),
            y_range=(lo, max(float(scores.max()), lo + 1e-12)),
            bands=bands,
            tick_every=max(1, m // 10),
            legend=[(TRUE_COLOR, _tr(lang, "true label")), (FALSE_COLOR, _tr(lang, "false"))],
            series_legend=False,
        )
    )


def contributions_figure(
    contributions: pd.DataFrame,
    by: str,
    sample_labels: Sequence[str],
    *,
    selected: int | None = None,
    metric_name: str | None = None,
    scale: tuple[float, str] = (1.0, ""),
    lang: str = "en",
) -> go.Figure:
    """How much each sample moves the mean of one metric, worst first.

    Parameters
    ----------
    contributions : pandas.DataFrame
        Rows of ``label_ranking_contributions``, already in display order
        (worst first); columns ``sample``, ``<by>`` and ``<by>_moves_mean``.
    by : {"lrap", "coverage", "ranking_loss"}
    sample_labels : sequence of str
        One label per row of ``contributions`` (the x axis).
    selected : int, optional
        The ``sample`` shown in the drill-down, drawn in another color.
    metric_name : str, optional
        Name of the metric for titles (default ``by``).
    scale : (float, str)
        The bars are the effects times ``scale[0]``; the axis title names
        ``scale[1]`` (``"×10⁻⁴"``, see ``explorer.pages.label_ranking.effect_scale``),
        so thousands of samples read ``-3.7 ×10⁻⁴``, not ``-370µ``.
    lang : str
        The language of the chart's texts (:mod:`explorer.i18n`).

    Returns
    -------
    plotly.graph_objects.Figure
        One bar trace; red bars make the metric worse, green better, the
        selected sample orange. ``customdata`` holds the sample index.

    Examples
    --------
    >>> t = pd.DataFrame({"sample": [0, 1], "lrap": [0.5, 1.0],
    ...                   "lrap_moves_mean": [-2e-4, 1e-4]})
    >>> fig = contributions_figure(t, "lrap", ["0", "1"], scale=(1e4, "×10⁻⁴"))
    >>> fig.data[0].y.tolist(), fig.layout.yaxis.title.text
    ([-2.0, 1.0], 'mean - mean without the sample<br>(×10⁻⁴)')
    """
    name = metric_name or by
    factor, unit = scale
    moves = contributions[f"{by}_moves_mean"].to_numpy(dtype=np.float64)
    value = contributions[by].to_numpy(dtype=np.float64)
    samples = contributions["sample"].to_numpy()
    worse = moves < 0 if by == "lrap" else moves > 0
    colors = np.where(worse, WORSE_COLOR, BETTER_COLOR).astype(object)
    if selected is not None:
        colors[samples == selected] = SELECTED_COLOR
    fig = go.Figure(
        go.Bar(
            x=plotly_names(sample_labels),
            y=moves * factor,
            marker_color=colors.tolist(),
            customdata=samples.tolist(),
            text=[f"{v:.4g}" for v in value],
            hovertemplate=(
                _tr(lang, "sample")
                + " %{x}<br>"
                + name
                + " %{text}<br>"
                + _tr(lang, "moves the mean by")
                + " %{y:.4g}"
                + (f" {unit}" if unit else "")
                + "<extra></extra>"
            ),
        )
    )
    fig.add_hline(y=0, line_color="black", line_width=1)
    fig.update_layout(
        height=340,
        margin={"l": 10, "r": 10, "t": 50, "b": 40},
        title=_tr(lang, "How much each sample moves the mean ${name} (worst first)", name=name),
        xaxis={"type": "category", "title": _tr(lang, "sample")},
        yaxis={
            "title": _tr(lang, "mean - mean without the sample") + (f" ({unit})" if unit else ""),
            "exponentformat": "power",
        },
        showlegend=False,
    )
    return wrap_titles(fig)


def rank_cell_text(rank: np.ndarray, is_true: np.ndarray, tie_size: np.ndarray) -> np.ndarray:
    """Cell text of the rank table: the rank, a dot on true labels, ``=`` on tied labels.

    Examples
    --------
    >>> rank_cell_text(np.array([[2, 3, 1]]), np.array([[1, 0, 0]]), np.array([[1, 2, 1]])).tolist()
    [['2 \u25cf', '3 =', '1']]
    """
    text = rank.astype(np.int64).astype(str).astype(object)
    text = np.where(tie_size > 1, text + " " + TIE_MARK, text)
    return np.where(is_true.astype(bool), text + " " + TRUE_MARK, text)


def rank_colors(rank: np.ndarray, n_labels: int) -> np.ndarray:
    """CSS background and text color per cell: dark blue for rank 1, pale for the last rank."""
    frac = (rank - 1) / max(n_labels - 1, 1)
    # one color per distinct rank (at most n_labels of them), not per cell
    distinct, cell = np.unique(frac, return_inverse=True)
    scale = np.array(sample_colorscale("Blues", list(1.0 - 0.85 * distinct)), dtype=object)
    bg = scale[cell.reshape(rank.shape)]
    fg = np.where(frac < 0.5, "white", "black")
    return "background-color: " + bg + "; color: " + fg


def rank_table_styler(
    rank: np.ndarray,
    is_true: np.ndarray,
    tie_size: np.ndarray,
    index: Sequence[str],
    columns: Sequence[str],
):
    """A pandas Styler of the rank table (samples x labels), colored by rank.

    Cells read ``"2 \u25cf"`` for a true label at rank 2 and ``"3 ="`` for a
    label tied with another at (max) rank 3.
    """
    text = pd.DataFrame(rank_cell_text(rank, is_true, tie_size), index=index, columns=columns)
    css = pd.DataFrame(rank_colors(rank, len(columns)), index=index, columns=columns)
    return text.style.apply(lambda _: css, axis=None)


def ranked_items_styler(ids: np.ndarray, rank, is_true, tie_size, index: Sequence[str]):
    """A pandas Styler of a ragged dataset's rank table: each row's items best first,
    named (``"doc-7: 2 \u25cf"``), colored by rank; blank past a row's items.

    The arrays are those of :func:`explorer.pages.label_ranking_ranks.ranked_items`.
    """
    ids = np.asarray(ids, dtype=object)
    real = ids != ""
    text = np.where(real, ids + ": " + rank_cell_text(rank, is_true, tie_size), "")
    css = np.where(real, rank_colors(rank, ids.shape[1]), "")
    columns = [f"#{p + 1}" for p in range(ids.shape[1])]
    frame = pd.DataFrame(text, index=index, columns=columns)
    return frame.style.apply(lambda _: pd.DataFrame(css, index=index, columns=columns), axis=None)
