"""Figures of the DCG & NDCG page, built from ``metrics.dcg`` tables (no streamlit)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from explorer.charts import svg
from explorer.formatting import plotly_text, table_number
from explorer.i18n import Phrase
from explorer.theme import wrap_titles

GAIN = "#4C78A8"
CONTRIBUTION = "#F58518"
DISCOUNT = "#54A24B"
RELEVANCE = "#222222"
TIE_FILLS = ("#B279A2", "#72B7B2")
#: Above this many positions drawn, the steps figure's tick labels stand upright.
UPRIGHT_TICKS = 12
#: Background of the rows of alternate tie groups in the step tables.
TIE_CSS = ("background-color: #ecdcf0", "background-color: #d5eeec")


def _tie_spans(steps: pd.DataFrame) -> list[tuple[int, int, int]]:
    """(group id, first position, last position) of every tie group of 2 or more items."""
    tied = steps[steps["tie_size"] > 1]
    spans = tied.groupby("tie_group")["position"].agg(["min", "max"])
    return [(int(g), int(r["min"]), int(r["max"])) for g, r in spans.iterrows()]


def _tr(lang: str, text: str, **values) -> str:
    """A chart text in ``lang`` (the page's language; English by default)."""
    return Phrase(text, **values).translated(lang)


def _cut_line(k: int | None, n_items: int, lang: str = "en") -> tuple[list[dict], list[dict]]:
    """The dashed k line and its note (shapes, annotations); none when k cuts nothing."""
    if k is None or k >= n_items:
        return [], []
    line = {
        "type": "line",
        "xref": "x",
        "yref": "y domain",
        "x0": k + 0.5,
        "x1": k + 0.5,
        "y0": 0,
        "y1": 1,
        "line": {"dash": "dash", "color": "#D62728", "width": 2},
    }
    note = {
        "x": k + 0.5,
        "y": 1.02,
        "xref": "x",
        "yref": "paper",
        "text": _tr(lang, "k = ${k} cut: positions after it count 0", k=k),
        "showarrow": False,
        "xanchor": "left",
        "yanchor": "bottom",
        "font": {"color": "#D62728", "size": 12},
    }
    return [line], [note]


def drawn_positions(n_items: int, k: int | None, max_positions: int | None) -> int:
    """How many positions :func:`steps_figure` draws: all of them, or at most
    ``max_positions`` but always one past a k that cuts the list (its line sits between
    two bars).

    Examples
    --------
    >>> drawn_positions(100, 10, 30), drawn_positions(100, None, 30), drawn_positions(100, 45, 30)
    (30, 30, 46)
    >>> drawn_positions(20, 10, 30), drawn_positions(100, 99, 30), drawn_positions(100, 3, None)
    (20, 100, 100)
    """
    if max_positions is None:
        return n_items
    past_k = k + 1 if k is not None else 0
    return min(n_items, max(max_positions, past_k))


def _drawn(steps: pd.DataFrame, k, item_names, max_positions):
    """The drawn rows of ``steps`` (:func:`drawn_positions`), their positions and item names."""
    steps = steps.iloc[: drawn_positions(len(steps), k, max_positions)]
    items = steps["item"].to_numpy()
    names = [item_names[i] for i in items] if item_names is not None else [str(i) for i in items]
    return steps, steps["position"].to_numpy(), names


def _step_traces(steps: pd.DataFrame, pos, names: list[str], gain_label: str, lang: str) -> list:
    """The bars of the gain used and the contribution, the marks of each item's own gain
    and the discount's line on the right axis (:func:`steps_figure`)."""
    return [
        go.Bar(
            x=pos,
            y=steps["mean_gain"],
            name=_tr(lang, "${gain} used (tie-group mean)", gain=gain_label),
            marker_color=GAIN,
            customdata=names,
            hovertemplate=_tr(lang, "position")
            + " %{x} (%{customdata})<br>"
            + _tr(lang, "gain used")
            + " %{y:.4g}<extra></extra>",
        ),
        go.Bar(
            x=pos,
            y=steps["contribution"],
            name=_tr(lang, "contribution = gain x discount"),
            marker_color=CONTRIBUTION,
            hovertemplate=_tr(lang, "position")
            + " %{x}<br>"
            + _tr(lang, "contribution")
            + " %{y:.4g}<extra></extra>",
        ),
        go.Scatter(
            x=pos,
            y=steps["relevance"],
            mode="markers",
            name=_tr(lang, "item's own ${gain}", gain=gain_label),
            marker={"symbol": "line-ew-open", "size": 22, "color": RELEVANCE, "line_width": 2},
            hovertemplate=_tr(lang, "position")
            + " %{x}<br>"
            + _tr(lang, "own gain")
            + " %{y:.4g}<extra></extra>",
        ),
        go.Scatter(
            x=pos,
            y=steps["discount"],
            yaxis="y2",
            mode="lines+markers",
            name=_tr(lang, "discount 1 / log_b(1 + r) (right axis)"),
            line={"color": DISCOUNT, "width": 3},
            hovertemplate=_tr(lang, "position")
            + " %{x}<br>"
            + _tr(lang, "discount")
            + " %{y:.4f}<extra></extra>",
        ),
    ]


def _tie_shades(spans: list[tuple[int, int, int]], lang: str) -> tuple[list[dict], list[dict]]:
    """A shaded rectangle over each tie group (:func:`_tie_spans`) and its label."""
    shapes = [
        {
            "type": "rect",
            "xref": "x",
            "yref": "paper",
            "x0": first - 0.5,
            "x1": last + 0.5,
            "y0": 0,
            "y1": 1,
            "fillcolor": TIE_FILLS[i % 2],
            "opacity": 0.18,
            "line_width": 0,
            "layer": "below",
        }
        for i, (_, first, last) in enumerate(spans)
    ]
    notes = [
        {
            "x": first - 0.5,
            "xref": "x",
            "y": 1,
            "yref": "paper",
            "text": _tr(lang, "tie group ${group}", group=group),
            "showarrow": False,
            "xanchor": "left",
            "yanchor": "top",
            "font": {"size": 10},
        }
        for group, first, _ in spans
    ]
    return shapes, notes


def steps_figure(
    steps: pd.DataFrame,
    *,
    k: int | None,
    item_names: Sequence[str] | None = None,
    gain_label: str = "gain",
    title: str = "",
    max_positions: int | None = None,
    lang: str = "en",
) -> go.Figure:
    """Gain and contribution per position, the discount curve over them.

    Parameters
    ----------
    steps : DataFrame
        A :func:`metrics.dcg_steps` table.
    k : int or None
        The cut-off; a dashed line marks it when it cuts the list.
    item_names : sequence of str, optional
        Names of the items (columns), indexed by the ``item`` column.
    gain_label : str
        What the gain is ("relevance" or "2^rel - 1").
    title : str
    max_positions : int, optional
        Draw only the first positions (:func:`drawn_positions`): every one of them is
        a bar and a tick label the browser lays out again on each move of k.
    lang : str
        The language of the chart's texts (:mod:`explorer.i18n`).

    Returns
    -------
    plotly Figure
        Bar traces "<gain_label> used (tie-group mean)" and "contribution",
        a marker trace "item's own <gain_label>", a line "discount" on the
        right axis; shaded rectangles over tie groups.

    Examples
    --------
    >>> import metrics
    >>> steps = metrics.dcg_steps([3, 0, 2, 1], [0.9, 0.1, 0.5, 0.5], k=1)
    >>> fig = steps_figure(steps, k=1, item_names=list("abcd"), max_positions=2)
    >>> fig.data[0].x.tolist(), fig.data[0].y.tolist(), fig.layout.shapes[-1].x0
    ([1, 2], [3.0, 1.5], 1.5)
    """
    n_items = len(steps)
    steps, pos, names = _drawn(steps, k, item_names, max_positions)
    names = [plotly_text(n) for n in names]
    # past a dozen positions the labels stand upright on one line each: side by side
    # they overlap, and plotly's automatic angle measures every label and draws again
    upright = len(pos) > UPRIGHT_TICKS
    ticks = [f"{p}. {n}" if upright else f"{p}<br>{n}" for p, n in zip(pos, names, strict=True)]
    data = _step_traces(steps, pos, names, gain_label, lang)
    shapes, notes = _tie_shades(_tie_spans(steps), lang)
    cut, cut_note = _cut_line(k, n_items, lang)
    top = max(float(steps["discount"].max()), 1e-9)
    # one Figure call (make_subplots' secondary axis, written out): each later
    # update_layout or add_vline validates the layout again
    fig = go.Figure(
        data,
        layout={
            "title": plotly_text(title),
            "barmode": "group",
            "height": 460 if upright else 420,
            "margin": {"t": 80, "b": 40, "l": 50, "r": 50},
            # below the upright tick labels, whatever their length
            "legend": {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom"},
            "shapes": shapes + cut,
            "annotations": notes + cut_note,
            "xaxis": {
                "anchor": "y",
                "domain": [0.0, 0.94],
                "tickmode": "array",
                "tickvals": pos,
                "ticktext": ticks,
                **({"tickangle": -90} if upright else {}),
                "title": _tr(lang, "position"),
            },
            "yaxis": {
                "anchor": "x",
                "domain": [0.0, 1.0],
                "title": _tr(lang, "gain / contribution"),
                "rangemode": "tozero",
            },
            "yaxis2": {
                "anchor": "x",
                "overlaying": "y",
                "side": "right",
                "title": _tr(lang, "discount"),
                "range": [0, 1.05 * top],
                "showgrid": False,
            },
        },
    )
    return wrap_titles(fig)


def steps_svg(
    steps: pd.DataFrame,
    *,
    k: int | None,
    item_names: Sequence[str] | None = None,
    gain_label: str = "gain",
    title: str = "",
    max_positions: int | None = None,
    lang: str = "en",
) -> str:
    """:func:`steps_figure`'s chart as SVG (:mod:`explorer.charts.svg`), for long lists:
    k redraws it on every move, which costs a plotly figure about 0.1 s of browser CPU.

    The same parts: per drawn position (:func:`drawn_positions`) the gain used (the tie
    group's mean) and the contribution as bars, the item's own gain as a stroke, the
    discount as a line on its own axis at the right, each tie group of two or more
    shaded, and the dashed k line when k cuts the list. Tick labels read
    "position. item", upright.

    Returns
    -------
    str
        HTML for :func:`explorer.ui.widgets.svg_chart`.

    Examples
    --------
    >>> import metrics
    >>> steps = metrics.dcg_steps([3, 0, 2, 1], [0.9, 0.1, 0.5, 0.5], k=1)
    >>> html = steps_svg(steps, k=1, item_names=list("abcd"), max_positions=2)
    >>> html.count('class="bar"'), "k = 1 cut" in html, html.count('class="curve"')
    (4, True, 2)
    """
    n_items = len(steps)
    steps, pos, names = _drawn(steps, k, item_names, max_positions)
    gain, contribution = (steps[c].to_numpy(dtype=float) for c in ("mean_gain", "contribution"))
    own, discount = (steps[c].to_numpy(dtype=float) for c in ("relevance", "discount"))
    where = [_tr(lang, "position ${p} (${n})", p=p, n=n) for p, n in zip(pos, names, strict=True)]
    used, adds, owns = (_tr(lang, w) for w in ("gain used", "contribution", "own gain"))
    series = [
        svg.Series(
            _tr(lang, "${gain} used (tie-group mean)", gain=gain_label),
            gain,
            GAIN,
            [f"{w}: {used} {g:.4g}" for w, g in zip(where, gain, strict=True)],
        ),
        svg.Series(
            _tr(lang, "contribution = gain x discount"),
            contribution,
            CONTRIBUTION,
            [f"{w}: {adds} {c:.4g}" for w, c in zip(where, contribution, strict=True)],
        ),
        svg.Series(
            _tr(lang, "item's own ${gain}", gain=gain_label),
            own,
            RELEVANCE,
            [f"{w}: {owns} {g:.4g}" for w, g in zip(where, own, strict=True)],
            kind="tick",
        ),
    ]
    first = int(pos[0])
    bands = [
        svg.Band(
            a - first, b - first, _tr(lang, "tie group ${group}", group=g), "rgba(178,121,162,0.18)"
        )
        for g, a, b in _tie_spans(steps)
    ]
    lines = []
    if k is not None and k < n_items:
        lines.append(
            svg.Line(
                k,
                _tr(lang, "k = ${k} cut: positions after it count 0", k=k),
                "#D62728",
                vertical=True,
            )
        )
    top = max(float(discount.max()), 1e-9)
    return svg.bar_chart(
        svg.BarChart(
            [f"{p}. {n}" for p, n in zip(pos, names, strict=True)],
            series,
            title=title,
            x_title=_tr(lang, "position. item"),
            y_title=_tr(lang, "gain / contribution (left); discount (right)"),
            lines=lines,
            bands=bands,
            height=320,
            vertical_ticks=True,
            curve=svg.Curve(
                _tr(lang, "discount 1 / log_b(1 + r) (right axis)"),
                discount,
                DISCOUNT,
                (0.0, 1.05 * top),
            ),
        )
    )


def tie_bounds_figure(values: dict[str, float], *, title: str = "", lang: str = "en") -> go.Figure:
    """The DCG of one sample under each order of its tied items, one row each.

    Parameters
    ----------
    values : dict of str to float
        E.g. ``{"pessimistic": 5.0, "tie-averaged": 7.5, "ignore_ties": 5.0,
        "optimistic": 10.0}``; the band between the smallest and the largest
        value is shaded (the range the tie orders span).

    Returns
    -------
    plotly Figure
        One marker trace per value, named by its key, and a shaded band.
    """
    labels = list(values)
    shown = {label: _tr(lang, label) for label in labels}  # a tie order's name, translated
    low, high = min(values.values()), max(values.values())
    span = max(high - low, 1e-9, 0.05 * abs(high))
    fig = go.Figure()
    fig.add_vrect(x0=low, x1=high, fillcolor="#BBBBBB", opacity=0.25, line_width=0, layer="below")
    colors = ("#D62728", "#4C78A8", "#F58518", "#9467BD", "#2CA02C")
    for i, label in enumerate(labels):
        fig.add_trace(
            go.Scatter(
                x=[values[label]],
                y=[shown[label]],
                mode="markers+text",
                name=shown[label],
                text=[f"{values[label]:.4g}"],
                textposition="middle right",
                marker={"size": 16, "color": colors[i % len(colors)]},
                hovertemplate=f"{shown[label]}: %{{x:.6g}}<extra></extra>",
            )
        )
    fig.update_layout(
        title=plotly_text(title),
        height=60 + 45 * len(labels),
        showlegend=False,
        margin={"t": 30 if title else 10, "b": 40, "l": 110, "r": 30},
        xaxis={
            "title": _tr(lang, "DCG of the sample"),
            "range": [low - 0.25 * span, high + 0.25 * span],
        },
        yaxis={"categoryorder": "array", "categoryarray": [shown[v] for v in labels[::-1]]},
    )
    return wrap_titles(fig)


def distribution_figure(
    per_sample: pd.DataFrame, *, title: str = "", lang: str = "en"
) -> go.Figure:
    """Histograms of the per-sample DCG and NDCG side by side.

    The counts are binned here (30 equal DCG bins; NDCG bins of 0.05 on
    [0, 1], the last one closed), so the figure sends 50 bars, not one value
    per sample.

    Parameters
    ----------
    per_sample : DataFrame
        Columns ``DCG`` and ``NDCG``, one row per sample.

    Returns
    -------
    plotly Figure
        Two bar traces named "DCG" and "NDCG" (x: bin centres, y: samples).
    """
    dcg = per_sample["DCG"].to_numpy(dtype=float)
    ndcg = per_sample["NDCG"].to_numpy(dtype=float)
    lo, hi = (float(dcg.min()), float(dcg.max())) if dcg.size else (0.0, 1.0)
    dcg_counts, dcg_edges = np.histogram(dcg, bins=30, range=(lo, hi if hi > lo else lo + 1))
    ndcg_counts, ndcg_edges = np.histogram(ndcg, bins=20, range=(0.0, 1.0))
    titles = (_tr(lang, "DCG per sample"), _tr(lang, "NDCG per sample"))
    fig = make_subplots(rows=1, cols=2, subplot_titles=titles)
    samples = _tr(lang, "samples")
    for col, name, counts, edges, color in (
        (1, "DCG", dcg_counts, dcg_edges, GAIN),
        (2, "NDCG", ndcg_counts, ndcg_edges, CONTRIBUTION),
    ):
        fig.add_trace(
            go.Bar(
                x=(edges[:-1] + edges[1:]) / 2,
                y=counts,
                width=np.diff(edges) * 0.95,
                name=name,
                marker_color=color,
                customdata=np.column_stack([edges[:-1], edges[1:]]),
                hovertemplate=_tr(
                    lang,
                    "${a} to ${b}: ${n} samples",
                    a="%{customdata[0]:.3g}",
                    b="%{customdata[1]:.3g}",
                    n="%{y}",
                ),
            ),
            row=1,
            col=col,
        )
    fig.update_xaxes(title_text="DCG", row=1, col=1)
    fig.update_xaxes(title_text="NDCG", range=[0, 1.02], row=1, col=2)
    fig.update_yaxes(title_text=samples, row=1, col=1)
    fig.update_layout(title=plotly_text(title), height=320, showlegend=False, bargap=0.05)
    return wrap_titles(fig)


def n_tie_groups(steps: pd.DataFrame) -> int:
    """Number of tie groups of 2 or more items in a steps table (for captions)."""
    return int(np.count_nonzero(steps.drop_duplicates("tie_group")["tie_size"] > 1))


def steps_styler(view: pd.DataFrame, *, ties: bool = True, columns=str):
    """A pandas Styler of a step table: tie groups shaded (alternating colours),
    positions after k greyed out, numbers rounded for reading; ``columns`` names each
    column as shown (the page's language: its English name by default)."""
    tied_groups = sorted(set(view.loc[view["tie size"] > 1, "tie group"])) if ties else []

    def css(frame: pd.DataFrame) -> pd.DataFrame:
        # one vectorized pass (a row-wise Styler.apply costs ~1 ms per row); the shading
        # reads the English columns of ``view`` (``frame``: the same rows, as shown)
        per_row = np.full(len(frame), "", dtype=object)
        if ties and tied_groups:
            tied = (view["tie size"] > 1).to_numpy()
            parity = np.searchsorted(tied_groups, view["tie group"].to_numpy()) % 2
            per_row[tied] = np.asarray(TIE_CSS, dtype=object)[parity[tied]]
        per_row[(view["in top k"] != "yes").to_numpy()] = (
            "color: #9a9a9a; background-color: #f2f2f2"
        )
        return pd.DataFrame(
            np.repeat(per_row[:, None], frame.shape[1], axis=1),
            index=frame.index,
            columns=frame.columns,
        )

    formats = {c: table_number for c in ("discount", "contribution", "running sum", "gain used")}
    formats |= {"score": "{:.4g}", "grade": "{:g}", "gain": "{:.4g}"}
    shown = view.rename(columns=columns)
    return shown.style.apply(css, axis=None).format(
        {columns(c): f for c, f in formats.items() if c in view.columns}
    )
