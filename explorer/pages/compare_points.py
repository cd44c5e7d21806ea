"""The Compare page's scatter of A against B: every sample's dot, or past
:data:`MAX_POINTS` distinct points one dot a grid cell (each standing for its samples).

No streamlit here.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

#: Distinct (A, B) points the scatter draws as they are; past that, one dot a grid cell.
MAX_POINTS = 10_000
#: Cells per axis past :data:`MAX_POINTS` distinct points: at the chart's 460 px a cell
#: is 3 to 7 px, no wider than a dot (7 px).
GRID = 100


@dataclass(frozen=True)
class Points:
    """The dots of the scatter of A against B: the sample row each dot is, and how many
    samples it stands for (``gridded``: one dot a grid cell, else one a distinct point)."""

    rows: np.ndarray
    counts: np.ndarray
    gridded: bool


def points(a: np.ndarray, b: np.ndarray, most: int = MAX_POINTS, grid: int = GRID) -> Points:
    """The samples the scatter draws, reduced so that the message stays small.

    Exact, in this sense: samples with the same (A, B) are one dot with their count,
    so up to ``most`` distinct points the picture is the full one. Past that, the
    square both axes span (the diagonal's, from the lowest to the highest value) is cut
    into ``grid`` x ``grid`` cells; a cell that holds samples shows one real sample of
    it (its most changed: largest |B - A|) with the cell's count, an empty cell shows
    nothing, so no dot is drawn where no sample is and none is missing by more than a
    dot's width. The samples with the lowest and highest A, B and B - A are always
    drawn as they are: the axes and the largest win and loss are exact. Non-finite
    values are not drawn (plotly draws none either).

    Examples
    --------
    >>> p = points(np.array([0.5, 0.5, 1.0]), np.array([1.0, 1.0, 0.2]))
    >>> p.rows.tolist(), p.counts.tolist(), p.gridded
    ([0, 2], [2, 1], False)
    >>> rng = np.random.default_rng(0)
    >>> a, b = rng.random(5000), rng.random(5000)
    >>> g = points(a, b, most=100, grid=10)
    >>> g.gridded, int(g.counts.sum()), len(g.rows) <= 100 + 6
    (True, 5000, True)
    >>> bool(a[g.rows].max() == a.max() and (b - a)[g.rows].min() == (b - a).min())
    True
    """
    finite = np.flatnonzero(np.isfinite(a) & np.isfinite(b))
    if np.unique(a[finite]).size > most:  # more distinct points than that: skip their sort
        return _gridded(a[finite], b[finite], finite, np.ones(finite.size, np.int64), grid)
    order = finite[np.lexsort((b[finite], a[finite]))]
    sa, sb = a[order], b[order]
    first = np.flatnonzero(np.r_[True, (sa[1:] != sa[:-1]) | (sb[1:] != sb[:-1])])
    first = first[: sa.size]  # no sample: no dot
    counts = np.diff(np.r_[first, sa.size])
    rows = order[first]
    if rows.size <= most:
        return Points(rows, counts, False)
    return _gridded(a[rows], b[rows], rows, counts, grid)


def _gridded(ua, ub, rows, counts, grid: int) -> Points:
    """One dot a cell of ``grid`` x ``grid`` over distinct points (see :func:`points`)."""
    lo, hi = min(ua.min(), ub.min()), max(ua.max(), ub.max())
    with np.errstate(over="ignore"):  # a span beyond float64 puts every point in cell 0
        scale = grid / (hi - lo)
    cx = np.clip(((ua - lo) * scale).astype(np.int64), 0, grid - 1)
    cy = np.clip(((ub - lo) * scale).astype(np.int64), 0, grid - 1)
    cell = cx * grid + cy
    d = ub - ua
    extremes = (ua.argmin(), ua.argmax(), ub.argmin(), ub.argmax(), d.argmin(), d.argmax())
    cell[list(extremes)] = -1 - np.arange(len(extremes))  # a cell of its own: drawn as is
    order = np.argsort(cell)
    sorted_cells, change = cell[order], np.abs(d)[order]
    starts = np.flatnonzero(np.r_[True, sorted_cells[1:] != sorted_cells[:-1]])
    top = np.maximum.reduceat(change, starts)
    sizes = np.diff(np.r_[starts, order.size])
    # a cell's dot: the first point (lowest index) of its largest |B - A|
    best = np.where(change == np.repeat(top, sizes), order, order.size)
    return Points(
        rows[np.minimum.reduceat(best, starts)], np.add.reduceat(counts[order], starts), True
    )
