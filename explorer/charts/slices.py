"""The Slices page's figure: each group's value with its interval, and the overall line.

Static SVG (:mod:`explorer.charts.svg`), not plotly: "Group by" and "Metric" redraw it on
every move, and a plotly figure that changes costs the browser about 0.15 CPU s a move
where this drawing costs a few milliseconds (bench/results.md, "Browser: the Slices
page"). Each group is a row: its label above, a dot at its value and a bar over its 95%
interval below; a dashed line at the value on all rows; the value axis at the bottom.
"""

from __future__ import annotations

import numpy as np

from explorer.charts.svg import CSS_CLASS, GRID, RIGHT, escape, nice_ticks
from explorer.formatting import fill_fields, fmt, short
from explorer.i18n import Phrase
from explorer.theme import CHART_TEXT, OKABE_ITO

#: The plot's left edge in percent of the chart's width (the labels sit above the rows,
#: not beside them, so that a phone keeps the whole width for the intervals).
LEFT = 1.0
#: Height of one group's row, the band above the rows (the overall line's note) and the
#: value axis' tick labels below them, in px.
ROW, TOP, TICK_BAND = 36, 22, 24
#: The dots and the interval bars
COLOR = OKABE_ITO["blue"]


def groups(
    labels,
    value,
    low,
    high,
    overall: float,
    metric: str,
    texts: tuple[str, str] = ("all rows: ${value}", "${metric} (95% interval)"),
    lang: str = "en",
) -> str:
    """The chart as HTML: one row per group (its label, escaped: a visitor's text), a dot
    at its value and a bar over its 95% interval; a dashed line at the value on all rows.
    ``texts``: the line's note and the axis title, with their fields (the view passes
    them translated); ``lang``: the language of each group's hover text. A group with no
    value keeps its row, with no dot.

    Examples
    --------
    >>> html = groups(["a<b>", "c"], np.array([0.8, 0.6]), np.array([0.7, 0.5]),
    ...               np.array([0.9, 0.7]), 0.7, "ROC AUC")
    >>> html.count('class="value"'), "a&lt;b&gt;" in html, "<b>" in html
    (2, True, False)
    >>> 'data-value="0.8"' in html, 'data-value="0.6"' in html, "all rows: 0.7000" in html
    (True, True, True)
    """
    value, low, high = (np.asarray(a, dtype=float) for a in (value, low, high))
    lo, hi = _value_range(value, low, high, overall)
    ticks = nice_ticks(lo, hi)
    lo, hi = min(lo, ticks[0]), max(hi, ticks[-1])

    def x_of(v: float) -> float:
        return LEFT + (RIGHT - LEFT) * (v - lo) / (hi - lo)

    plot_h = ROW * len(labels)
    title = fill_fields(texts[1], {"metric": metric})
    note = fill_fields(texts[0], {"value": fmt(overall)}) if np.isfinite(overall) else ""
    said = [_said(*row, lang) for row in zip(map(str, labels), value, low, high, strict=True)]
    alt = escape(f"{title}. {'; '.join(said)}. {note}".strip())
    out = [
        f'<svg width="100%" height="{TOP + plot_h + TICK_BAND}" role="img" '
        f'aria-label="{alt}" xmlns="http://www.w3.org/2000/svg">'
    ]
    out.extend(_grid(ticks, x_of, plot_h))
    for i, label in enumerate(labels):
        out.extend(_row(i, str(label), said[i], (value[i], low[i], high[i]), x_of))
    if note:
        out.extend(_overall(x_of(overall), escape(note), plot_h))
    out.append("</svg>")
    return f'<div class="{CSS_CLASS}">{"".join(out)}<div class="axis x">{escape(title)}</div></div>'


def _value_range(value, low, high, overall: float) -> tuple[float, float]:
    """The values' span, the intervals and the overall value in it (0..1 when none is
    finite), widened a little when all are equal."""
    drawn = np.concatenate([value, low, high, [overall]])
    drawn = drawn[np.isfinite(drawn)]
    if not drawn.size:
        return 0.0, 1.0
    lo, hi = float(drawn.min()), float(drawn.max())
    if hi - lo < 1e-12:
        pad = abs(lo) * 0.05 or 0.05
        return lo - pad, hi + pad
    return lo, hi


def _grid(ticks: list[float], x_of, plot_h: int) -> list[str]:
    """Vertical gridlines at the ticks and their labels under the rows."""
    out = []
    for t in ticks:
        x = x_of(t)
        anchor = "start" if x < LEFT + 3 else "end" if x > RIGHT - 3 else "middle"
        out.append(
            f'<line x1="{x:.3f}%" x2="{x:.3f}%" y1="{TOP}" y2="{TOP + plot_h}" stroke="{GRID}"/>'
        )
        out.append(
            f'<text class="tick" x="{x:.3f}%" y="{TOP + plot_h + 18}" '
            f'text-anchor="{anchor}">{short(t)}</text>'
        )
    return out


def _said(label: str, v: float, lo: float, hi: float, lang: str) -> str:
    """A group's value and interval in words (its hover text, and the chart's text
    alternative's part).

    Examples
    --------
    >>> _said("a", 0.5, 0.25, 0.75, "en"), _said("b", np.nan, np.nan, np.nan, "en")
    ('a: 0.5 (95% interval 0.25 to 0.75)', 'b: no value')
    """
    if not np.isfinite(v):
        return Phrase("${group}: no value", group=label).translated(lang)
    if not np.isfinite(lo + hi):
        return f"{label}: {short(v)}"
    words = "${group}: ${value} (95% interval ${low} to ${high})"
    return Phrase(words, group=label, value=short(v), low=short(lo), high=short(hi)).translated(
        lang
    )


def _row(i: int, label: str, said: str, drawn: tuple, x_of) -> list[str]:
    """Group ``i``: its label, its interval's bar and its value's dot (``drawn``: value,
    low, high), each naming the group's value and interval on hover (``said``)."""
    v, lo, hi = drawn
    y0 = TOP + i * ROW
    hover = f"<title>{escape(said)}</title>"
    out = [f'<text class="group" x="{LEFT}%" y="{y0 + 14}">{escape(label)}{hover}</text>']
    mid = y0 + 26
    if np.isfinite(lo) and np.isfinite(hi):
        a, b = x_of(lo), x_of(hi)
        out.append(
            f'<line class="interval" x1="{a:.3f}%" x2="{b:.3f}%" y1="{mid}" y2="{mid}" '
            f'stroke="{COLOR}" stroke-width="2">{hover}</line>'
        )
        out.extend(
            f'<line x1="{x:.3f}%" x2="{x:.3f}%" y1="{mid - 5}" y2="{mid + 5}" stroke="{COLOR}" '
            'stroke-width="2"/>'
            for x in (a, b)
        )
    if np.isfinite(v):
        out.append(
            f'<circle class="value" data-value="{float(v)!r}" cx="{x_of(v):.3f}%" cy="{mid}" '
            f'r="6" fill="{COLOR}">{hover}</circle>'
        )
    return out


def _overall(x: float, note: str, plot_h: int) -> list[str]:
    """The dashed line at the value on all rows, its note above the rows."""
    anchor = "start" if x < 60 else "end"
    shift = 0.6 if x < 60 else -0.6
    return [
        f'<line class="overall" x1="{x:.3f}%" x2="{x:.3f}%" y1="{TOP - 4}" '
        f'y2="{TOP + plot_h}" stroke="{OKABE_ITO["vermillion"]}" stroke-width="2" '
        'stroke-dasharray="6 4"/>',
        f'<text class="note" x="{x + shift:.3f}%" y="{TOP - 8}" fill="{CHART_TEXT}" '
        f'text-anchor="{anchor}">{note}</text>',
    ]
