"""Bar charts as static SVG: for the charts that a page's main control redraws.

A plotly chart whose figure changes costs the browser about 0.1 s of CPU on every
move (plotly lays the whole figure out again), however few its bars; the same bars as
SVG in the page's Markdown cost about 0.01 s (bench/results.md). The charts here are
drawn with plain SVG elements: horizontal coordinates in percent of the chart's width,
so that the chart follows the column's width with no script and its text keeps its
size in px (the page's CSS sets it, larger in presentation mode); each bar names its
value on hover (an SVG ``<title>``). The title, the legend and the axis titles are
HTML above and below the drawing, so that they wrap on a phone.

Nothing here imports streamlit; :func:`explorer.ui.widgets.svg_chart` draws a chart.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from html import escape as _escape

import numpy as np

from explorer.formatting import one_line, short
from explorer.theme import CHART_TEXT

#: The class of every chart's outer ``<div>`` (explorer.theme styles its text).
CSS_CLASS = "me-svg-chart"
#: The plot area's left and right edges, in percent of the chart's width: the y tick
#: labels sit left of it.
LEFT, RIGHT = 9.0, 99.0
#: The plot area's top margin and the x tick labels' band, in px.
TOP, TICK_BAND = 16, 24
GRID = "#e6e9ef"


@dataclass(frozen=True)
class Series:
    """One series of bars: a value per category, one color (or one per bar), the
    text each bar shows on hover, and the bars marked with a dot above them (seen
    however short the bar)."""

    name: str
    values: np.ndarray
    color: str | Sequence[str]
    hover: Sequence[str] = ()
    marked: Sequence[bool] = ()
    #: "bar", or "tick": a short horizontal stroke across the category's group at its
    #: value (drawn over the bars, not beside them)
    kind: str = "bar"


@dataclass(frozen=True)
class Curve:
    """A line through one value per category, on its own axis at the right."""

    name: str
    values: np.ndarray
    color: str
    y_range: tuple[float, float]
    title: str = ""


@dataclass(frozen=True)
class Line:
    """A horizontal reference line at ``y`` (``vertical``: at category position ``x``
    instead, between bars), labelled at its end."""

    at: float
    label: str
    color: str = CHART_TEXT
    dash: str = "6 4"
    vertical: bool = False


@dataclass(frozen=True)
class Band:
    """A shaded span of categories ``first`` to ``last`` (0-based, inclusive)."""

    first: int
    last: int
    label: str = ""
    color: str = "rgba(255,165,0,0.15)"


@dataclass(frozen=True)
class BarChart:
    """What :func:`bar_chart` draws.

    ``categories`` name the x positions (one group of bars each); ``tick_labels``
    (None: every category's name) and ``tick_every`` choose which are written;
    ``legend`` adds (color, text) entries to the series' own (``series_legend``)."""

    categories: Sequence[str]
    series: Sequence[Series]
    title: str = ""
    x_title: str = ""
    y_title: str = ""
    y_range: tuple[float, float] | None = None
    lines: Sequence[Line] = ()
    bands: Sequence[Band] = ()
    height: int = 300
    tick_every: int = 1
    vertical_ticks: bool = False
    legend: Sequence[tuple[str, str]] = ()
    series_legend: bool = True
    caption: str = ""
    curve: Curve | None = None
    #: lines on the main (left) axis; their own ``y_range`` is not used
    curves: Sequence[Curve] = ()
    #: text shown on hover anywhere over each category's column (e.g. every line's value)
    column_hover: Sequence[str] = ()


def escape(text: str) -> str:
    """A text of the chart (a label name, a sample id: what a visitor's data names) as
    SVG text: HTML-escaped, and on one line, so that no blank line can end the chart's
    HTML block where Markdown draws it.

    Examples
    --------
    >>> escape('<img src=x onerror="y">\\n\\n![i](http://x/p)')
    '&lt;img src=x onerror=&quot;y&quot;&gt; ![i](http://x/p)'
    """
    return _escape(one_line(text))


def nice_ticks(lo: float, hi: float, n: int = 5) -> list[float]:
    """About ``n`` round tick values covering ``[lo, hi]``.

    Examples
    --------
    >>> nice_ticks(0, 1)
    [0.0, 0.2, 0.4, 0.6, 0.8, 1.0]
    >>> nice_ticks(0, 7.3, 4)
    [0.0, 2.0, 4.0, 6.0, 8.0]
    """
    if not (math.isfinite(lo) and math.isfinite(hi)) or hi <= lo:
        return [lo]
    raw = (hi - lo) / max(n, 1)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    count = math.ceil((hi - first) / step - 1e-9)
    return [float(round(first + i * step, 12)) for i in range(count + 1)]


def bar_chart(chart: BarChart) -> str:
    """The chart as HTML: title and legend, the SVG drawing, the x axis title.

    Examples
    --------
    >>> html = bar_chart(BarChart(["a", "b"], [Series("F1", np.array([0.5, 1.0]), "#123456")],
    ...                  title="Per label", y_range=(0, 1)))
    >>> html.count("<rect class=\\"bar\\""), "Per label" in html
    (2, True)
    """
    n = len(chart.categories)
    bars = [s for s in chart.series if s.kind == "bar"]
    k = max(len(bars), 1)
    right = RIGHT - 7 if chart.curve else RIGHT
    values = [np.asarray(s.values, dtype=float) for s in chart.series]
    finite = np.concatenate([v[np.isfinite(v)] for v in values] + [np.zeros(1)])
    lo, hi = chart.y_range or (min(0.0, float(finite.min())), float(finite.max()) or 1.0)
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])
    plot_h = chart.height - TOP - (TICK_BAND if not chart.vertical_ticks else 0)
    tick_h = _tick_height(chart) if chart.vertical_ticks else 0
    total_h = chart.height + tick_h

    def y_of(v: float) -> float:
        return TOP + plot_h * (1 - (v - lo) / (hi - lo))

    slot = (right - LEFT) / max(n, 1)  # percent per category
    alt = escape(text_alternative(chart))
    out = [
        f'<svg width="100%" height="{total_h}" role="img" aria-label="{alt}" '
        'xmlns="http://www.w3.org/2000/svg">'
    ]
    out.extend(_y_grid(ticks, y_of, right))
    out.extend(_bands(chart.bands, slot, plot_h))
    base = y_of(max(lo, 0.0))
    out.extend(_marks(chart, values, y_of, base, slot, slot * 0.8 / k))
    out.append(
        f'<line x1="{LEFT}%" x2="{right}%" y1="{base:.1f}" y2="{base:.1f}" stroke="{CHART_TEXT}"/>'
    )
    for curve in chart.curves:
        out.extend(_polyline(curve, y_of, slot, plot_h, right))
    if chart.curve is not None:
        out.extend(_curve(chart.curve, slot, plot_h, right))
    out.extend(
        f'<rect class="column" x="{LEFT + j * slot:.3f}%" y="{TOP}" width="{slot:.3f}%" '
        f'height="{plot_h}" fill="transparent"><title>{escape(text)}</title></rect>'
        for j, text in enumerate(chart.column_hover)
    )
    for line in chart.lines:
        out.extend(_line(line, y_of, slot, plot_h, right))
    out.extend(_x_ticks(chart, slot, TOP + plot_h))
    out.append("</svg>")
    return _wrap(chart, "".join(out))


def text_alternative(chart: BarChart) -> str:
    """What the chart draws, as a sentence a screen reader reads out (the drawing's
    ``aria-label``): its title, then each series' value in every category.

    Examples
    --------
    >>> text_alternative(BarChart(["a", "b"], [Series("F1", np.array([0.5, np.nan]), "#123")],
    ...                  title="Per label"))
    'Per label. F1: a 0.5, b no value.'
    """
    parts = [f"{chart.title or 'Bar chart'}."]
    for s in chart.series:
        values = np.asarray(s.values, dtype=float)
        cells = [
            f"{cat} {short(v) if np.isfinite(v) else 'no value'}"
            for cat, v in zip(chart.categories, values, strict=True)
        ]
        parts.append(f"{s.name}: {', '.join(cells)}.")
    return " ".join(parts)


def _y_grid(ticks: list[float], y_of, right: float) -> list[str]:
    """The gridlines and the y tick labels."""
    out = []
    for t in ticks:
        y = y_of(t)
        out.append(f'<line x1="{LEFT}%" x2="{right}%" y1="{y:.1f}" y2="{y:.1f}" stroke="{GRID}"/>')
        out.append(
            f'<text class="tick" x="{LEFT - 0.8}%" y="{y + 4:.1f}" text-anchor="end">'
            f"{short(t)}</text>"
        )
    return out


def _bands(bands: Sequence[Band], slot: float, plot_h: float) -> list[str]:
    """The shaded spans of categories, each with its label on hover."""
    out = []
    for band in bands:
        x0 = LEFT + band.first * slot
        w = (band.last - band.first + 1) * slot
        out.append(
            f'<rect class="band" x="{x0:.3f}%" y="{TOP}" width="{w:.3f}%" height="{plot_h}" '
            f'fill="{band.color}" stroke="#ff7f0e" stroke-dasharray="3 3">'
            f"<title>{escape(band.label)}</title></rect>"
        )
    return out


def _marks(chart: BarChart, values, y_of, base: float, slot: float, bar_w: float) -> list[str]:
    """Every series' bars (side by side in each category, from the ``base`` line) and
    tick marks, each with its hover text; a marked bar gets a dot above it."""
    out, bar_index, n = [], 0, len(chart.categories)
    for si, (s, v) in enumerate(zip(chart.series, values, strict=True)):
        colors = [s.color] * n if isinstance(s.color, str) else list(s.color)
        for j in range(n):
            if not np.isfinite(v[j]):
                continue
            hover = s.hover[j] if len(s.hover) else f"{chart.categories[j]}: {s.name} {short(v[j])}"
            y, value, title = y_of(v[j]), float(v[j]), f"<title>{escape(hover)}</title>"
            if s.kind == "tick":
                x0 = LEFT + j * slot + slot * 0.05
                out.append(
                    f'<line class="tick-mark" data-series="{si}" data-value="{value!r}" '
                    f'x1="{x0:.3f}%" x2="{x0 + slot * 0.9:.3f}%" y1="{y:.1f}" y2="{y:.1f}" '
                    f'stroke="{colors[j]}" stroke-width="2.5">{title}</line>'
                )
                continue
            x = LEFT + j * slot + slot * 0.1 + bar_index * bar_w
            top, h = min(y, base), abs(base - y)
            out.append(
                f'<rect class="bar" data-series="{si}" data-value="{value!r}" x="{x:.3f}%" '
                f'y="{top:.1f}" width="{bar_w:.3f}%" height="{max(h, 0.5):.1f}" '
                f'fill="{colors[j]}">{title}</rect>'
            )
            if len(s.marked) and s.marked[j]:
                out.append(
                    f'<circle class="mark" cx="{x + bar_w / 2:.3f}%" cy="{top - 7:.1f}" r="4" '
                    f'fill="{colors[j]}">{title}</circle>'
                )
        bar_index += s.kind == "bar"
    return out


def _polyline(curve: Curve, y_of, slot: float, plot_h: float, right: float) -> list[str]:
    """The curve as polylines (one per run of finite values) in a plot-area drawing that
    stretches to the chart's width (its strokes keep their width), and a dot with the
    value on hover at each of up to 30 points."""
    v = np.asarray(curve.values, dtype=float)
    n = len(v)
    width = right - LEFT
    runs, run = [], []
    for j, value in enumerate(v):
        if np.isfinite(value):
            run.append(f"{(j + 0.5) / n * 1000:.2f},{y_of(value) - TOP:.2f}")
        elif run:
            runs.append(run)
            run = []
    runs.append(run)
    out = [
        f'<svg x="{LEFT}%" y="{TOP}" width="{width}%" height="{plot_h}" '
        f'viewBox="0 0 1000 {plot_h}" preserveAspectRatio="none" overflow="visible">'
    ]
    for points in runs:
        if len(points) > 1:
            out.append(
                f'<polyline class="curve-line" points="{" ".join(points)}" fill="none" '
                f'stroke="{curve.color}" stroke-width="2.5" vector-effect="non-scaling-stroke"/>'
            )
    out.append("</svg>")
    if n <= 30:
        for j, value in enumerate(v):
            if np.isfinite(value):
                out.append(
                    f'<circle class="curve" data-value="{float(value)!r}" '
                    f'cx="{LEFT + (j + 0.5) * slot:.3f}%" cy="{y_of(value):.1f}" r="3" '
                    f'fill="{curve.color}"><title>{escape(curve.name)} {short(value)}</title>'
                    "</circle>"
                )
    return out


def _curve(curve: Curve, slot: float, plot_h: float, right: float) -> list[str]:
    """A line on its own axis at the right (:func:`_polyline`), with that axis's tick
    labels."""
    lo, hi = curve.y_range

    def y_of(value: float) -> float:
        return TOP + plot_h * (1 - (value - lo) / (hi - lo))

    out = _polyline(curve, y_of, slot, plot_h, right)
    for t in nice_ticks(lo, hi, 4):
        if lo <= t <= hi:
            out.append(
                f'<text class="tick" x="{right + 0.8:.3f}%" y="{y_of(t) + 4:.1f}">{short(t)}</text>'
            )
    return out


def _line(line: Line, y_of, slot: float, plot_h: float, right: float = RIGHT) -> list[str]:
    label = escape(line.label)
    if line.vertical:
        x = LEFT + line.at * slot
        return [
            f'<line class="marker" x1="{x:.3f}%" x2="{x:.3f}%" y1="{TOP}" y2="{TOP + plot_h}" '
            f'stroke="{line.color}" stroke-width="2" stroke-dasharray="{line.dash}"/>',
            f'<text class="note" x="{x + 0.5 if x < 60 else x - 0.5:.3f}%" y="{TOP + 14}" '
            f'fill="{line.color}" text-anchor="{"start" if x < 60 else "end"}">{label}</text>',
        ]
    y = y_of(line.at)
    return [
        f'<line class="marker" x1="{LEFT}%" x2="{right}%" y1="{y:.1f}" y2="{y:.1f}" '
        f'stroke="{line.color}" stroke-width="2" stroke-dasharray="{line.dash}"/>',
        f'<text class="note" x="{right}%" y="{y - 5:.1f}" fill="{line.color}" '
        f'text-anchor="end">{label}</text>',
    ]


def _tick_height(chart: BarChart) -> int:
    longest = max((len(c) for c in chart.categories), default=0)
    return min(int(7 * longest) + 10, 160)


def _x_ticks(chart: BarChart, slot: float, y0: float) -> list[str]:
    out = []
    # upright labels past 40 categories: every other one (they would touch)
    every = max(chart.tick_every, 2 if chart.vertical_ticks and len(chart.categories) > 40 else 1)
    for j, name in enumerate(chart.categories):
        if j % every and j != len(chart.categories) - 1:
            continue
        x = LEFT + (j + 0.5) * slot
        if chart.vertical_ticks:  # every other one is hidden on a phone (explorer.theme)
            odd = " odd" if j % 2 and len(chart.categories) > 15 else ""
            out.append(
                f'<text class="tick{odd}" x="{x:.3f}%" y="{y0 + 6:.1f}" writing-mode="vertical-rl" '
                f'text-anchor="start">{escape(name)}</text>'
            )
        else:  # the last label ends at the edge rather than past it
            anchor = "end" if x > RIGHT - 2 else "middle"
            x = min(x, RIGHT)
            out.append(
                f'<text class="tick" x="{x:.3f}%" y="{y0 + 18:.1f}" text-anchor="{anchor}">'
                f"{escape(name)}</text>"
            )
    return out


def _wrap(chart: BarChart, svg: str) -> str:
    entries = [(s.color, s.name) for s in chart.series if isinstance(s.color, str)]
    entries += [(c.color, c.name) for c in chart.curves]
    if chart.curve is not None:
        entries.append((chart.curve.color, chart.curve.name))
    entries = (entries if chart.series_legend else []) + list(chart.legend)
    legend = " ".join(
        f'<span class="key"><span class="swatch" style="background:{c}"></span>{escape(t)}</span>'
        for c, t in entries
    )
    head = f'<div class="title">{escape(chart.title)}</div>' if chart.title else ""
    y_title = f'<div class="axis">{escape(chart.y_title)}</div>' if chart.y_title else ""
    x_title = f'<div class="axis x">{escape(chart.x_title)}</div>' if chart.x_title else ""
    caption = f'<div class="axis">{escape(chart.caption)}</div>' if chart.caption else ""
    legend_div = f'<div class="legend">{legend}</div>' if legend else ""
    return f'<div class="{CSS_CLASS}">{head}{legend_div}{y_title}{svg}{x_title}{caption}</div>'
