"""Text alternatives of plotly figures: what a chart draws, as one paragraph a screen
reader reads out (``st.plotly_chart(alt=...)`` makes it the chart's ``aria-label``; the
downloaded view gives it to the chart's box too).

A short series is read point by point; a long one (a curve of hundreds of thresholds) by
its size and the span of each axis, as the full numbers are in the page's tables and
downloads. Numbers are written as the charts' ticks are (:func:`explorer.formatting.short`).
"""

from __future__ import annotations

import html
import re

import numpy as np

from explorer.formatting import short
from explorer.i18n import Phrase

#: A series of at most this many points is read point by point.
POINTS_READ = 12
#: A heatmap of at most this many cells is read cell by cell.
CELLS_READ = 36
#: The series read; the rest are counted.
SERIES_READ = 12


def plain(text) -> str:
    """A plotly text without its markup (``<br>``, ``<b>``) and runs of spaces.

    >>> plain("ROC<br><sup>model <b>A&lt;1&gt;</b></sup>")
    'ROC model A<1>'
    """
    return html.unescape(" ".join(re.sub(r"<[^>]*>", " ", str(text or "")).split()))


def _tr(lang: str, text: str, **values) -> str:
    """A text of the description in ``lang`` (English by default)."""
    return Phrase(text, **values).translated(lang)


def _value(v, lang: str = "en") -> str:
    if isinstance(v, (int, float, np.integer, np.floating)) and not isinstance(v, bool):
        return short(v) if np.isfinite(v) else _tr(lang, "no value")
    return plain(v) if v is not None else _tr(lang, "no value")


def _values(arr) -> np.ndarray:
    """A trace's values as one flat array (numbers stay numeric: a span of a million
    values is two numpy reductions, not a loop)."""
    if arr is None:
        return np.empty(0)
    out = np.asarray(arr)
    if out.dtype.kind not in "biuf":
        out = np.asarray(arr, dtype=object)
    return out.ravel()


def _span(values: np.ndarray, lang: str = "en") -> str:
    if values.dtype.kind in "biuf":
        finite = values[np.isfinite(values)]
        if finite.size:
            return _tr(lang, "from ${a} to ${b}", a=short(finite.min()), b=short(finite.max()))
    return _tr(lang, "from ${a} to ${b}", a=_value(values[0], lang), b=_value(values[-1], lang))


def _drawn_texts(trace, n: int) -> list:
    """The texts a trace writes at its points (a grid's cells), or [] when it writes none."""
    text = getattr(trace, "text", None)
    if (
        "text" not in str(getattr(trace, "mode", "") or "")
        or isinstance(text, str)
        or n > CELLS_READ
    ):
        return []
    text = _values(text)[:n].tolist()
    return text if len(text) == n and any(str(t).strip() for t in text) else []


def _series(trace, name: str, lang: str = "en") -> str:
    """One trace of points, bars or a histogram: its name, then its points or spans."""
    x, y = _values(getattr(trace, "x", None)), _values(getattr(trace, "y", None))
    if not x.size and not y.size:
        return ""
    if not x.size or not y.size:  # a histogram or box of one axis's values
        values = x if x.size else y
        return _tr(
            lang,
            "${name}: ${n:,} values ${span}.",
            name=name,
            n=values.size,
            span=_span(values, lang),
        )
    n = min(x.size, y.size)
    x, y = x[:n], y[:n]
    texts = _drawn_texts(trace, n)
    if texts:  # each point is read by where it sits and what it writes
        keys = [f"{_value(b, lang)}, {_value(a, lang)}" for a, b in zip(x, y, strict=True)]
        blank = _tr(lang, "blank")  # keys: the row first
        pairs = [f"{k}: {plain(t) or blank}" for k, t in zip(keys, texts, strict=True)]
        return f"{name}: {'; '.join(pairs)}."
    if n <= POINTS_READ:
        # a category on the vertical axis (horizontal bars, a dot per group) reads first
        across = getattr(trace, "orientation", None) == "h" or (
            x.dtype.kind in "biuf" and y.dtype.kind not in "biuf"
        )
        keys, values = (y, x) if across else (x, y)
        pairs = [f"{_value(k, lang)}: {_value(v, lang)}" for k, v in zip(keys, values, strict=True)]
        return f"{name}: {'; '.join(pairs)}."
    return _tr(
        lang,
        "${name}: ${n:,} points, horizontal ${x}, vertical ${y}.",
        name=name,
        n=n,
        x=_span(x, lang),
        y=_span(y, lang),
    )


def _heatmap(trace, lang: str = "en") -> str:
    z = np.asarray(trace.z, dtype=float)
    if z.ndim != 2 or not z.size:
        return ""
    name = plain(trace.name) or _tr(lang, "cells")
    rows = _values(trace.y).tolist() or list(range(z.shape[0]))
    cols = _values(trace.x).tolist() or list(range(z.shape[1]))
    head = _tr(
        lang,
        "${name}: ${rows} rows by ${cols} columns",
        name=name,
        rows=z.shape[0],
        cols=z.shape[1],
    )
    if z.size > CELLS_READ or len(rows) != z.shape[0] or len(cols) != z.shape[1]:
        return _tr(lang, "${head}, values ${span}.", head=head, span=_span(z.ravel(), lang))
    text = np.asarray(trace.text if trace.text is not None else [], dtype=object)
    shown = text if text.shape == z.shape else z  # the cell's text, as drawn
    cells = [
        _tr(
            lang,
            "${r} by ${c}: ${v}",
            r=_value(r, lang),
            c=_value(c, lang),
            v=_value(shown[i, j], lang),
        )
        for i, r in enumerate(rows)
        for j, c in enumerate(cols)
    ]
    return f"{head}; " + "; ".join(cells) + "."


def _invisible(trace) -> bool:
    """A trace drawn to be clicked, not seen (markers of alpha near 0, opacity 0)."""
    if trace.visible not in (None, True) or getattr(trace, "opacity", None) == 0:
        return True
    color = getattr(getattr(trace, "marker", None), "color", None)
    alpha = re.fullmatch(r"rgba\(.*,\s*([\d.]+)\)", color) if isinstance(color, str) else None
    return alpha is not None and float(alpha.group(1)) < 0.05


def describe(fig, lang: str = "en") -> str:
    """What ``fig`` draws: its title, its axes, then each visible trace's numbers.

    Examples
    --------
    >>> import plotly.graph_objects as go
    >>> fig = go.Figure(go.Bar(x=["a", "b"], y=[0.5, np.nan], name="F1"))
    >>> _ = fig.update_layout(title="Per label", xaxis_title="label", yaxis_title="F1")
    >>> describe(fig)
    'Per label. Horizontal axis: label; vertical axis: F1. F1: a: 0.5; b: no value.'
    >>> describe(go.Figure(go.Scatter(x=np.linspace(0, 1, 50), y=np.linspace(1, 0, 50))))
    'Chart. series 1: 50 points, horizontal from 0 to 1, vertical from 0 to 1.'
    """
    layout = fig.layout
    parts = [f"{plain(layout.title.text) or _tr(lang, 'Chart')}."]
    x_title = plain(getattr(layout.xaxis.title, "text", None))
    y_title = plain(getattr(layout.yaxis.title, "text", None))
    if x_title or y_title:
        unnamed = _tr(lang, "unnamed")
        parts.append(
            _tr(
                lang,
                "Horizontal axis: ${x}; vertical axis: ${y}.",
                x=x_title or unnamed,
                y=y_title or unnamed,
            )
        )
    shown = [t for t in fig.data if not _invisible(t)]
    for i, trace in enumerate(shown[:SERIES_READ]):
        name = plain(getattr(trace, "name", None)) or _tr(lang, "series ${i}", i=i + 1)
        if trace.type == "heatmap":
            parts.append(_heatmap(trace, lang))
        elif hasattr(trace, "x"):
            parts.append(_series(trace, name, lang))
        else:
            parts.append(_tr(lang, "A ${kind} chart.", kind=trace.type))
    if len(shown) > SERIES_READ:
        parts.append(_tr(lang, "And ${n} more series.", n=len(shown) - SERIES_READ))
    return " ".join(p for p in parts if p)
