"""The thresholds of a binary scorer: counts at every distinct score, and AUC and AP from them.

One row per distinct score, descending: the false and true positives
scoring at or above it (exact integers without weights, from value sorts
only; weighted sums from one argsort). :mod:`metrics.curves` builds its
curves on them and :mod:`metrics.states.binary` its metrics of a merged
table, so both compute the same numbers from the same counts.
"""

from __future__ import annotations

import numpy as np

from metrics._block_chunks import sum_of_products
from metrics._ranks import (
    descending_order,
    row_chunks,
)
from metrics._runs import run_start_mask, runs

#: Thresholds per ``searchsorted`` call in :func:`unweighted_blocks`.
SEARCH_BLOCK = 1 << 20


def sorted_scores(pos: np.ndarray, s: np.ndarray):
    """The positives' scores sorted, the distinct scores ascending, and where each starts.

    Value sorts only. ``first`` (the position of each distinct score's first
    occurrence in ``np.sort(s)``) is None when every score is distinct; then
    ``vals`` is ``np.sort(s)`` itself, with no copy.
    """
    ps = np.compress(pos, s)
    ps.sort()
    vals = np.sort(s)
    is_first = run_start_mask(vals)
    first = None
    if np.count_nonzero(is_first) < s.shape[0]:
        first = np.flatnonzero(is_first)
        vals = vals[first]
    return ps, vals, first


def unweighted_blocks(pos: np.ndarray, s: np.ndarray):
    """(fps, tps, thresholds) at every distinct score, thresholds descending.

    Value sorts only: the distinct scores come from ``np.sort(s)`` (no copy
    when all are distinct), the positives at or above each from a
    ``searchsorted`` into the sorted positive scores. Counts are exact
    integers (int32 below 2**31 samples, else int64), computed in place to
    keep the peak memory low.
    """
    n = s.shape[0]
    ps, vals, first = sorted_scores(pos, s)
    n_pos = ps.shape[0]
    # counts up to n: int32 (half the memory, exact) below 2**31 samples
    dtype = np.int32 if n < 2**31 else np.int64
    tps = np.empty(vals.shape[0], dtype=dtype)
    # positives at or above = n_pos - positives below each score, by blocks of
    # thresholds so that searchsorted's int64 result stays small
    for part in row_chunks(vals.shape[0], 1, max_elements=SEARCH_BLOCK):
        below = np.searchsorted(ps, vals[part], side="left")
        np.subtract(n_pos, below, out=tps[part], casting="unsafe")
    del ps
    if first is None:
        fps = np.arange(n, 0, -1, dtype=dtype)
    else:
        fps = np.subtract(n, first).astype(dtype, copy=False)
    del first
    fps -= tps  # scores at or above, minus the positives
    return fps[::-1], tps[::-1], vals[::-1]


def weighted_blocks(pos: np.ndarray, s: np.ndarray, w: np.ndarray):
    """(fps, tps, thresholds) with weights: one descending argsort, cumsums at block ends."""
    keep = w != 0
    if not keep.all():
        pos, s, w = pos[keep], s[keep], w[keep]
    order, ss = descending_order(s[None, :])
    order, ss = order[0], ss[0]
    ends = runs(ss).last
    wo = w[order]
    po = pos[order]
    tps = np.cumsum(np.where(po, wo, 0.0))[ends]
    fps = np.cumsum(np.where(po, 0.0, wo))[ends]
    return fps, tps, ss[ends]


def count_steps(counts: np.ndarray) -> np.ndarray:
    """``np.diff(counts)``; int32 for integer counts below 2**31 (half the memory, exact)."""
    if counts.dtype.kind == "i" and counts[-1] < 2**31:  # counts are non-decreasing
        return np.subtract(counts[1:], counts[:-1], dtype=np.int32, casting="unsafe")
    return np.diff(counts)


def intermediate_mask(fps: np.ndarray, tps: np.ndarray) -> np.ndarray | None:
    """Which points to keep when the collinear ones are dropped (None: keep all).

    A point inside a straight run of the (fps, tps) points has equal steps
    before and after it; the ends always stay. Any curve that is a linear
    map of these points (ROC, cumulative gain) has the same straight runs.
    """
    if fps.shape[0] <= 2:
        return None
    keep = np.ones(fps.shape[0], dtype=bool)
    step = count_steps(fps)
    np.not_equal(step[1:], step[:-1], out=keep[1:-1])
    del step  # before the next one exists
    step = count_steps(tps)
    keep[1:-1] |= step[1:] != step[:-1]
    return keep


def prepend_value(first: float, values: np.ndarray, scale=None) -> np.ndarray:
    """``concatenate(([first], values / scale))`` written straight into the result."""
    out = np.empty(values.shape[0] + 1)
    out[0] = first
    if scale is None:
        out[1:] = values
    else:
        np.divide(values, scale, out=out[1:])
    return out


def threshold_blocks(pos, s, w):
    return unweighted_blocks(pos, s) if w is None else weighted_blocks(pos, s, w)


def auc_from_blocks(fps: np.ndarray, tps: np.ndarray) -> float:
    """Trapezoid under the ROC points (tie blocks are diagonal steps)."""
    fpr = np.concatenate(([0.0], fps / fps[-1]))
    tpr = np.concatenate(([0.0], tps / tps[-1]))
    return float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1])) / 2.0)


def ap_from_blocks(fps: np.ndarray, tps: np.ndarray) -> float:
    """Step sum of precision over recall increments; 0 without positives."""
    if tps[-1] <= 0:
        return 0.0
    ps = tps + fps
    precision = np.divide(tps, ps, out=np.zeros_like(tps), where=ps != 0)
    gain = np.diff(tps, prepend=0.0)
    return max(0.0, sum_of_products(gain, precision) / float(tps[-1]))
