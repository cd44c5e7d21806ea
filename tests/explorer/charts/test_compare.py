"""The Compare scatter's dots (explorer.pages.compare_points.points) and its figure's size."""

from __future__ import annotations

import numpy as np

from explorer.charts import compare as charts
from explorer.pages.compare_points import GRID, MAX_POINTS, points


def _cells(a, b, lo, hi, grid):
    scale = grid / (hi - lo)
    cx = np.clip(((a - lo) * scale).astype(np.int64), 0, grid - 1)
    cy = np.clip(((b - lo) * scale).astype(np.int64), 0, grid - 1)
    return cx * grid + cy


def test_identical_points_are_one_dot_with_their_count():
    rng = np.random.default_rng(1)
    a = rng.choice([0.0, 0.5, 1.0], 3000)
    b = rng.choice([0.25, 0.75], 3000)
    p = points(a, b)
    assert not p.gridded
    assert sorted(zip(a[p.rows], b[p.rows], strict=True)) == sorted(
        set(zip(a.tolist(), b.tolist(), strict=True))
    )
    for row, n in zip(p.rows, p.counts, strict=True):
        assert n == np.sum((a == a[row]) & (b == b[row]))


def test_past_the_limit_every_filled_cell_has_one_real_dot_and_the_extremes_stay():
    rng = np.random.default_rng(2)
    n = 30_000
    a, b = rng.normal(size=n), rng.normal(size=n)
    a[:3] = np.nan  # not drawn
    p = points(a, b, most=500, grid=20)
    assert p.gridded and p.counts.sum() == n - 3
    ok = np.isfinite(a)
    fa, fb = a[ok], b[ok]
    lo, hi = min(fa.min(), fb.min()), max(fa.max(), fb.max())
    filled = set(_cells(fa, fb, lo, hi, 20).tolist())
    drawn = _cells(a[p.rows], b[p.rows], lo, hi, 20).tolist()
    assert set(drawn) == filled  # a dot in every cell with samples, none elsewhere
    assert len(p.rows) <= len(filled) + 6  # one a cell, plus the extremes
    d = b - a
    for values in (a, b, d):
        assert np.nanmax(values) in values[p.rows] and np.nanmin(values) in values[p.rows]


def test_a_cell_shows_its_most_changed_sample():
    a = np.array([0.10, 0.11, 0.12, 0.9, 0.0, 0.6])
    b = np.array([0.10, 0.12, 0.115, 0.6, 0.0, 1.0])
    p = points(a, b, most=2, grid=2)
    # rows 3, 4 and 5 are extremes (their own dots); the cell [0, 0.5)^2 holds rows 0,
    # 1 and 2, of which row 1 changed most (B - A = 0.01)
    assert sorted(p.rows.tolist()) == [1, 3, 4, 5]
    assert p.counts[p.rows.tolist().index(1)] == 3


def test_the_scatter_stays_small_where_every_sample_was_a_dot():
    """At 100,000 distinct samples the old scatter (a dot a sample) was 4.4 MB of JSON
    (now 0.56 MB);
    the hosted maxMessageSize is 50 MB and 2,000,000 rows made 73 MB."""
    n = 100_000
    rng = np.random.default_rng(3)
    a, b = rng.random(n), rng.random(n)
    ids = [f"sample-{i:07d}" for i in range(n)]
    fig = charts.scatter(a, b, ids, points(a, b), "LRAP", "old", "new")
    size = len(fig.to_json())
    assert len(fig.data[0].x) <= GRID * GRID + 6 and MAX_POINTS < n
    assert size < 1_000_000, size
