"""The DCG kernel: validated gains, discounts, and the DCG of every row, tied or not.

Shared by the DCG metrics (:mod:`metrics.dcg`), their explanations
(:mod:`metrics.explain.dcg`) and the ranking state
(:mod:`metrics.states.ranking`), so all validate and compute alike.
"""

from __future__ import annotations

from functools import partial

import numpy as np

from metrics._ranks import (
    apply_by_row_chunks,
    ascending_flat_order,
    flat_tie_blocks,
    sklearn_ignore_ties_order,
)
from metrics._relevance import check_retrieved, retrieved_only
from metrics._runs import runs_from_mask
from metrics._validation import (
    MetricInputError,
    as_2d,
    check_k,
    check_nonnegative,
    check_positive_real,
    check_same_shape,
)


def check_log_base(log_base) -> float:
    """A positive real other than 1 (log_1 = 0 would make every discount 1/0)."""
    base = check_positive_real(log_base, "log_base")
    if base == 1.0:
        raise MetricInputError(
            "log_base must not be 1: the discount 1 / log_b(position + 1) divides by "
            "log(1) = 0; use a positive base other than 1 (2 is usual)."
        )
    return base


def gain_matrix(y_true) -> np.ndarray:
    """``y_true`` as a 2-D array of at least 2 columns with no negative gain.

    A 2-D bool/integer ndarray is kept as it is (it cannot hold NaN or inf;
    the kernels convert it to float64 block by block, which is much cheaper
    than converting a large matrix at once); anything else goes through
    :func:`metrics._validation.as_2d`.
    """
    if (
        isinstance(y_true, np.ndarray)
        and y_true.dtype.kind in "biu"
        and y_true.ndim == 2
        and y_true.size > 0
        and y_true.shape[1] >= 2
    ):
        yt = y_true
    else:
        yt = as_2d(y_true, "y_true", min_columns=2)
    # a min() pass is much cheaper than building the mask; the mask names the culprit
    if yt.dtype.kind in "if" and yt.min() < 0:
        check_nonnegative(yt, "y_true")
    return yt


def check_dcg_inputs(y_true, y_score, k) -> tuple[np.ndarray, np.ndarray, int | None]:
    k = check_k(k, allow_none=True)
    yt = gain_matrix(y_true)
    ys = as_2d(y_score, "y_score")
    check_same_shape(yt, ys, "y_true", "y_score")
    return yt, ys, k


def position_discounts(n_items: int, k: int | None, log_base: float) -> np.ndarray:
    """``1 / log_b(p + 1)`` for positions p = 1..n_items, 0 after ``k`` (scikit-learn's formula)."""
    discount = 1 / (np.log(np.arange(n_items) + 2) / np.log(log_base))
    if k is not None:
        discount[k:] = 0.0
    return discount


def tie_averaged_dcg(
    gains: np.ndarray,
    ys: np.ndarray,
    discount: np.ndarray,
    *,
    per_block: bool | None = None,
    order=None,
) -> np.ndarray:
    """Tie-averaged DCG of every row of one block of rows (float64 gains).

    In ascending order position q of a row has descending position
    ``m - 1 - q``, so its discount is ``discount[::-1][q]``. ``order``: the
    block's :func:`metrics._ranks.ascending_flat_order`, when the caller has it.
    """
    n, m = ys.shape
    flat, is_start = ascending_flat_order(ys) if order is None else order
    ordered = gains.ravel()[flat]
    asc_discount = discount[::-1].copy()
    if per_block is None:
        per_block = 2 * np.count_nonzero(is_start) <= is_start.shape[0]
    if per_block:
        blocks = flat_tie_blocks(is_start, m, ordered)
        cum = np.concatenate(([0.0], np.cumsum(asc_discount)))
        disc_sum = cum[blocks.first + blocks.size] - cum[blocks.first]
        return np.bincount(blocks.row, weights=blocks.sums / blocks.size * disc_sum, minlength=n)
    # mostly distinct scores: plain DCG, then replace the tied groups by their averages
    out = ordered.reshape(n, m) @ asc_discount
    in_group = ~is_start  # every position of a group of >= 2 tied items...
    in_group[:-1] |= in_group[1:]  # ...including the group's first position
    pos = np.flatnonzero(in_group)
    if pos.shape[0]:
        starts, size = runs_from_mask(is_start[pos])  # each group starts with a block start
        g = ordered[pos]
        d = asc_discount[pos % m]
        gain_sum = np.add.reduceat(g, starts)
        disc_sum = np.add.reduceat(d, starts)
        plain = np.add.reduceat(g * d, starts)
        out += np.bincount(
            pos[starts] // m, weights=gain_sum / size * disc_sum - plain, minlength=n
        )
    return out


def dcg_rows(
    gains: np.ndarray,
    ys: np.ndarray,
    discount: np.ndarray,
    ignore_ties: bool,
    per_block: bool | None = None,
    order=None,
) -> np.ndarray:
    """DCG of every row of one block of rows (float64 gains); ``order`` as
    :func:`tie_averaged_dcg`'s (not read with ``ignore_ties``)."""
    if ignore_ties:
        ranked = sklearn_ignore_ties_order(ys)
        return np.take_along_axis(gains, ranked, axis=1) @ discount
    return tie_averaged_dcg(gains, ys, discount, per_block=per_block, order=order)


def dcg_values(
    yt: np.ndarray,
    ys: np.ndarray,
    k: int | None,
    log_base: float,
    ignore_ties: bool,
    *,
    per_block: bool | None = None,
) -> np.ndarray:
    discount = position_discounts(ys.shape[1], k, log_base)
    return apply_by_row_chunks(
        partial(dcg_block, discount=discount, ignore_ties=ignore_ties, per_block=per_block), yt, ys
    )


def dcg_block(
    raw: np.ndarray,
    ys: np.ndarray,
    *,
    discount: np.ndarray,
    ignore_ties: bool,
    per_block: bool | None = None,
) -> np.ndarray:
    return dcg_rows(raw.astype(np.float64, copy=False), ys, discount, ignore_ties, per_block)


def ndcg_values(
    yt: np.ndarray, ys: np.ndarray, k: int | None, ignore_ties: bool, retrieved=None
) -> tuple[np.ndarray, np.ndarray]:
    """DCG (base 2) and DCG / ideal DCG of every row; the ideal sorts ``y_true`` itself.

    The DCG reads the retrieved items only (:func:`metrics._relevance.retrieved_only`),
    the ideal every item of ``y_true``. The DCG is :func:`dcg_values`' with
    ``log_base=2`` on the same blocks (the ranking state takes both from one pass).

    Integer gains below 2**15 are sorted as int16, which numpy sorts about
    twice as fast as float64; ties in the ideal order do not matter (equal
    gains). Integer 0/1 gains need no sort: the ideal DCG of a row with T
    relevant items is the sum of the first T discounts.
    """
    discount = position_discounts(ys.shape[1], k, 2.0)
    top = int(yt.max()) if yt.dtype.kind in "biu" else None
    block = partial(ndcg_block, discount=discount, top=top, ignore_ties=ignore_ties)
    gt, st = retrieved_only(yt, ys, check_retrieved(retrieved, ys))
    out = apply_by_row_chunks(block, yt, gt, st, columns=2)
    gain, ratio = out[:, 0].copy(), out[:, 1].copy()
    # DCG <= ideal DCG for non-negative gains; clip the last-bit rounding above 1
    return gain, np.minimum(ratio, 1.0, out=ratio)


def ndcg_block(
    raw: np.ndarray,
    seen: np.ndarray,
    ys: np.ndarray,
    *,
    discount: np.ndarray,
    top: int | None,
    ignore_ties: bool,
    order=None,
) -> np.ndarray:
    """DCG and NDCG of one block of rows, side by side (see :func:`ndcg_values`)."""
    gains = raw.astype(np.float64, copy=False)
    gain = dcg_rows(seen.astype(np.float64, copy=False), ys, discount, ignore_ties, order=order)
    if top is not None and top <= 1:
        first_discounts = np.concatenate(([0.0], np.cumsum(discount)))
        ideal = first_discounts[np.count_nonzero(raw, axis=1)]
    elif top is not None and top < 2**15:
        ideal = np.sort(raw.astype(np.int16), axis=1).astype(np.float64) @ discount[::-1]
    else:
        ideal = np.sort(gains, axis=1) @ discount[::-1]
    ratio = np.zeros_like(gain)
    ok = ideal > 0
    ratio[ok] = gain[ok] / ideal[ok]
    return np.column_stack((gain, ratio))
