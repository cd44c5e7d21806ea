"""Discounted cumulative gain (DCG) and its normalised form (NDCG).

Rows are samples (queries) and columns items (labels); ``y_true`` holds the
gains (graded relevance, linear: the gain of an item is its ``y_true``
value) and ``y_score`` the scores that rank the items, highest first. Values
equal scikit-learn 1.9.1's ``dcg_score`` / ``ndcg_score``:

* the item at 1-based position ``p`` is discounted by ``1 / log_b(p + 1)``;
  positions after ``k`` get discount 0 (``k`` past the number of items is
  the same as ``k=None``);
* ``ignore_ties=False`` (default): McSherry & Najork (2008) tie averaging.
  The items of a tie group share the group's mean gain, and the group
  contributes that mean times the sum of the discounts of the positions it
  occupies, so a group straddling ``k`` counts only the discounts inside
  the top ``k``;
* ``ignore_ties=True``: tied items are ranked by scikit-learn's order, a
  stable ascending sort reversed, so among tied scores the *higher* column
  comes first (seed 001's 5.0). scikit-learn itself uses numpy's unstable
  default sort there, whose order of ties differs between machines; on
  tie-free scores both agree;
* NDCG divides by the DCG of the ideal order (``y_true`` sorted descending,
  same ``k``); a sample whose ideal DCG is 0 (no positive gain) scores 0.

Bad input is refused with :class:`metrics.MetricInputError`: a single
column (NDCG, like DCG, needs at least two items), negative gains (refused
for ``dcg_score`` too, although scikit-learn computes a DCG from them: the
contract forbids negative relevance), ``k < 1`` and a ``log_base`` that is
not a positive number or equals 1 (scikit-learn accepts 1 and returns 0,
every discount being ``1 / log_1``, a division by zero).

Computation: one unstable sort of the score matrix per block of rows
(:func:`metrics._ranks.apply_by_row_chunks`). On heavily tied scores every quantity
is per tie block (:func:`metrics._ranks.flat_tie_blocks`: the gain sum by
``np.add.reduceat``, the discount sum from the cumulative discounts); on
mostly distinct scores the DCG is a matrix product of the sorted gains with
the discounts, corrected on the few tied positions. No Python loop over
samples.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial

import numpy as np
import pandas as pd

from metrics._averages import weighted_mean
from metrics._ranks import (
    apply_by_row_chunks,
    ascending_flat_order,
    flat_tie_blocks,
    map_blocks,
    row_chunks,
    sklearn_ignore_ties_order,
)
from metrics._validation import (
    MetricInputError,
    as_2d,
    as_array,
    check_k,
    check_nonnegative,
    check_positive_real,
    check_same_shape,
    check_sample_weight,
)

__all__ = [
    "DcgRanking",
    "dcg_per_sample",
    "dcg_ranking",
    "dcg_ranking_table",
    "dcg_score",
    "dcg_steps",
    "dcg_tie_bounds_per_sample",
    "dcg_tie_order_steps",
    "exponential_gain",
    "ndcg_per_sample",
    "ndcg_score",
]


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _check_log_base(log_base) -> float:
    """A positive real other than 1 (log_1 = 0 would make every discount 1/0)."""
    base = check_positive_real(log_base, "log_base")
    if base == 1.0:
        raise MetricInputError(
            "log_base must not be 1: the discount 1 / log_b(position + 1) divides by "
            "log(1) = 0; use a positive base other than 1 (2 is usual)."
        )
    return base


def _gain_matrix(y_true) -> np.ndarray:
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


def _check_inputs(y_true, y_score, k) -> tuple[np.ndarray, np.ndarray, int | None]:
    k = check_k(k, allow_none=True)
    yt = _gain_matrix(y_true)
    ys = as_2d(y_score, "y_score")
    check_same_shape(yt, ys, "y_true", "y_score")
    return yt, ys, k


def _check_rows(y_true_row, y_score_row) -> tuple[np.ndarray, np.ndarray]:
    yt = as_array(y_true_row, "y_true_row", ndim=(1,))
    ys = as_array(y_score_row, "y_score_row", ndim=(1,))
    check_same_shape(yt, ys, "y_true_row", "y_score_row")
    if yt.shape[0] < 2:
        raise MetricInputError(f"y_true_row needs at least 2 items; got {yt.shape[0]}.")
    check_nonnegative(yt, "y_true_row")
    return yt, ys


# ---------------------------------------------------------------------------
# kernels (validated input)
# ---------------------------------------------------------------------------
def _discount(n_items: int, k: int | None, log_base: float) -> np.ndarray:
    """``1 / log_b(p + 1)`` for positions p = 1..n_items, 0 after ``k`` (scikit-learn's formula)."""
    discount = 1 / (np.log(np.arange(n_items) + 2) / np.log(log_base))
    if k is not None:
        discount[k:] = 0.0
    return discount


def _tie_averaged_dcg(
    gains: np.ndarray, ys: np.ndarray, discount: np.ndarray, *, per_block: bool | None = None
) -> np.ndarray:
    """Tie-averaged DCG of every row of one block of rows (float64 gains).

    In ascending order position q of a row has descending position
    ``m - 1 - q``, so its discount is ``discount[::-1][q]``.
    """
    n, m = ys.shape
    flat, is_start = ascending_flat_order(ys)
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
        starts = np.flatnonzero(is_start[pos])  # each group starts with a block start
        g = ordered[pos]
        d = asc_discount[pos % m]
        size = np.diff(starts, append=pos.shape[0])
        gain_sum = np.add.reduceat(g, starts)
        disc_sum = np.add.reduceat(d, starts)
        plain = np.add.reduceat(g * d, starts)
        out += np.bincount(
            pos[starts] // m, weights=gain_sum / size * disc_sum - plain, minlength=n
        )
    return out


def _dcg_rows(
    gains: np.ndarray,
    ys: np.ndarray,
    discount: np.ndarray,
    ignore_ties: bool,
    per_block: bool | None = None,
) -> np.ndarray:
    """DCG of every row of one block of rows (float64 gains)."""
    if ignore_ties:
        order = sklearn_ignore_ties_order(ys)
        return np.take_along_axis(gains, order, axis=1) @ discount
    return _tie_averaged_dcg(gains, ys, discount, per_block=per_block)


def _dcg(
    yt: np.ndarray,
    ys: np.ndarray,
    k: int | None,
    log_base: float,
    ignore_ties: bool,
    *,
    per_block: bool | None = None,
) -> np.ndarray:
    discount = _discount(ys.shape[1], k, log_base)
    return apply_by_row_chunks(
        partial(_dcg_block, discount=discount, ignore_ties=ignore_ties, per_block=per_block), yt, ys
    )


def _dcg_block(
    raw: np.ndarray,
    ys: np.ndarray,
    *,
    discount: np.ndarray,
    ignore_ties: bool,
    per_block: bool | None = None,
) -> np.ndarray:
    return _dcg_rows(raw.astype(np.float64, copy=False), ys, discount, ignore_ties, per_block)


def _ndcg(yt: np.ndarray, ys: np.ndarray, k: int | None, ignore_ties: bool) -> np.ndarray:
    """DCG / ideal DCG per row; the ideal sorts ``y_true`` itself (same ``k``).

    Integer gains below 2**15 are sorted as int16, which numpy sorts about
    twice as fast as float64; ties in the ideal order do not matter (equal
    gains). Integer 0/1 gains need no sort: the ideal DCG of a row with T
    relevant items is the sum of the first T discounts.
    """
    discount = _discount(ys.shape[1], k, 2.0)
    top = int(yt.max()) if yt.dtype.kind in "biu" else None
    block = partial(_ndcg_block, discount=discount, top=top, ignore_ties=ignore_ties)
    out = apply_by_row_chunks(block, yt, ys)
    # DCG <= ideal DCG for non-negative gains; clip the last-bit rounding above 1
    return np.minimum(out, 1.0, out=out)


def _ndcg_block(
    raw: np.ndarray, ys: np.ndarray, *, discount: np.ndarray, top: int | None, ignore_ties: bool
) -> np.ndarray:
    gains = raw.astype(np.float64, copy=False)
    gain = _dcg_rows(gains, ys, discount, ignore_ties)
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
    return ratio


# ---------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------
def dcg_per_sample(y_true, y_score, *, k=None, log_base=2, ignore_ties=False) -> np.ndarray:
    """Discounted cumulative gain of every sample.

    ``DCG_i = sum over positions p <= k of gain(p) / log_b(p + 1)``, the
    items ranked by descending ``y_score``; tied items share their group's
    mean gain (McSherry & Najork) unless ``ignore_ties=True``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_items)
        Non-negative gains (graded relevance), at least 2 items.
    y_score : array-like of shape (n_samples, n_items)
        Finite scores, highest ranked first.
    k : int, optional
        Only the top ``k`` positions count; None (or ``k`` past the number
        of items) counts all.
    log_base : float, default 2
        Base of the logarithm of the discount; positive and not 1.
    ignore_ties : bool, default False
        Rank tied items one after the other (higher column first, as
        scikit-learn's docstring example) instead of averaging them.

    Returns
    -------
    ndarray of float, shape (n_samples,)

    Examples
    --------
    >>> dcg_per_sample([[10, 0, 0, 1, 5], [3, 0, 1, 0, 0]],
    ...                [[0.1, 0.2, 0.3, 4, 70], [0.5, 0.5, 0.5, 0.1, 0]], k=2).round(4).tolist()
    [5.6309, 2.1746]
    """
    yt, ys, k = _check_inputs(y_true, y_score, k)
    base = _check_log_base(log_base)
    return _dcg(yt, ys, k, base, bool(ignore_ties))


def dcg_score(
    y_true, y_score, *, k=None, log_base=2, sample_weight=None, ignore_ties=False
) -> float:
    """Discounted cumulative gain, averaged over samples.

    As ``sklearn.metrics.dcg_score``: the (``sample_weight``-weighted) mean
    of :func:`dcg_per_sample`. Gains are linear (the ``y_true`` values), the
    discount is ``1 / log_b(position + 1)``, and tied scores are averaged
    (McSherry & Najork) unless ``ignore_ties=True``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_items)
        Non-negative gains, at least 2 items.
    y_score : array-like of shape (n_samples, n_items)
        Finite scores.
    k : int, optional
        Cut-off: only the top ``k`` positions count.
    log_base : float, default 2
        Base of the logarithm of the discount; positive and not 1.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum.
    ignore_ties : bool, default False
        Rank tied items higher column first instead of averaging them.

    Returns
    -------
    float

    Examples
    --------
    >>> true_relevance = [[10, 0, 0, 1, 5]]
    >>> round(dcg_score(true_relevance, [[0.1, 0.2, 0.3, 4, 70]]), 4)
    9.4995
    >>> round(dcg_score(true_relevance, [[0.1, 0.2, 0.3, 4, 70]], k=2), 4)
    5.6309
    >>> dcg_score(true_relevance, [[1, 0, 0, 0, 1]], k=1)
    7.5
    >>> dcg_score(true_relevance, [[1, 0, 0, 0, 1]], k=1, ignore_ties=True)
    5.0
    """
    yt, ys, k = _check_inputs(y_true, y_score, k)
    base = _check_log_base(log_base)
    w = check_sample_weight(sample_weight, ys.shape[0])
    return weighted_mean(_dcg(yt, ys, k, base, bool(ignore_ties)), w)


def ndcg_per_sample(y_true, y_score, *, k=None, ignore_ties=False) -> np.ndarray:
    """Normalised DCG of every sample: DCG / ideal DCG, in [0, 1].

    The ideal DCG ranks the items by their own gains (same ``k``); a sample
    with no positive gain (ideal DCG 0) scores 0, as in scikit-learn. There
    is no ``log_base``: changing the base scales the DCG and the ideal DCG
    alike, so NDCG does not depend on it.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_items)
        Non-negative gains, at least 2 items.
    y_score : array-like of shape (n_samples, n_items)
        Finite scores.
    k : int, optional
        Cut-off for both the DCG and the ideal DCG.
    ignore_ties : bool, default False
        Rank tied items higher column first instead of averaging them.

    Returns
    -------
    ndarray of float, shape (n_samples,)

    Examples
    --------
    >>> ndcg_per_sample([[10, 0, 0, 1, 5], [0, 0, 0, 0, 0]],
    ...                 [[0.1, 0.2, 0.3, 4, 70], [1, 2, 3, 4, 5]]).round(4).tolist()
    [0.6957, 0.0]
    """
    yt, ys, k = _check_inputs(y_true, y_score, k)
    return _ndcg(yt, ys, k, bool(ignore_ties))


def ndcg_score(y_true, y_score, *, k=None, sample_weight=None, ignore_ties=False) -> float:
    """Normalised discounted cumulative gain, averaged over samples.

    As ``sklearn.metrics.ndcg_score``: the (``sample_weight``-weighted) mean
    of :func:`ndcg_per_sample`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_items)
        Non-negative gains, at least 2 items.
    y_score : array-like of shape (n_samples, n_items)
        Finite scores.
    k : int, optional
        Cut-off for both the DCG and the ideal DCG.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum.
    ignore_ties : bool, default False
        Rank tied items higher column first instead of averaging them.

    Returns
    -------
    float
        In [0, 1]; 1 is a perfect ranking.

    Examples
    --------
    >>> round(ndcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 4)
    0.6957
    >>> ndcg_score([[0, 0, 0], [1, 0, 0]], [[0.1, 0.2, 0.3], [0.9, 0.1, 0.2]])
    0.5
    """
    yt, ys, k = _check_inputs(y_true, y_score, k)
    w = check_sample_weight(sample_weight, ys.shape[0])
    return weighted_mean(_ndcg(yt, ys, k, bool(ignore_ties)), w)


def dcg_steps(y_true_row, y_score_row, *, k=None, log_base=2, ignore_ties=False) -> pd.DataFrame:
    """DCG of one sample, position by position.

    One table row per ranked position. Ranking: descending score; tied items
    in column order by default (the order inside a tie group does not
    change a tie-averaged DCG), higher column first with
    ``ignore_ties=True`` (scikit-learn's order).

    Parameters
    ----------
    y_true_row : array-like of shape (n_items,)
        Non-negative gains of one sample, at least 2.
    y_score_row : array-like of shape (n_items,)
        Finite scores of that sample.
    k : int, optional
        Cut-off: discounts after position ``k`` are 0.
    log_base : float, default 2
        Base of the logarithm of the discount; positive and not 1.
    ignore_ties : bool, default False
        Rank tied items higher column first instead of averaging them.

    Returns
    -------
    pandas.DataFrame
        The table described above, with the columns:

        position : int
            1-based position.
        item : int
            Column index of the item at that position.
        score : float
        relevance : float
            The item's gain (its ``y_true`` value).
        tie_group : int
            0-based id of the group of equal scores, in position order (shown
            also with ``ignore_ties=True``, where it does not change the value).
        tie_size : int
            Number of items in that tie group.
        mean_gain : float
            Gain averaged over the tie group (McSherry & Najork); the item's own
            gain when ``ignore_ties=True``.
        discount : float
            ``1 / log_b(position + 1)``; 0 after position ``k``.
        contribution : float
            ``mean_gain * discount``. Summed over a tie group it is the group's
            mean gain times the sum of its discounts inside the top ``k``.
        running_sum : float
            Cumulative contribution; the last row is the sample's DCG.
        in_top_k : bool
            ``position <= k`` (all True when ``k`` is None).

    Examples
    --------
    >>> t = dcg_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1], k=1)
    >>> t[["position", "item", "tie_group", "tie_size"]].to_numpy().tolist()
    [[1, 0, 0, 2], [2, 4, 0, 2], [3, 1, 1, 3], [4, 2, 1, 3], [5, 3, 1, 3]]
    >>> t["mean_gain"].tolist()[:2], t["discount"].tolist()[:2], float(t["running_sum"].iloc[-1])
    ([7.5, 7.5], [1.0, 0.0], 7.5)
    """
    k = check_k(k, allow_none=True)
    base = _check_log_base(log_base)
    yt, ys = _check_rows(y_true_row, y_score_row)
    m = yt.shape[0]
    if ignore_ties:
        order = sklearn_ignore_ties_order(ys[None, :])[0]
    else:
        order = np.argsort(-ys, kind="stable")
    s = ys[order]
    g = yt[order]
    change = np.empty(m, dtype=bool)
    change[0] = True
    np.not_equal(s[1:], s[:-1], out=change[1:])
    group = np.cumsum(change) - 1
    sizes = np.bincount(group)
    mean_gain = g.copy() if ignore_ties else (np.bincount(group, weights=g) / sizes)[group]
    discount = _discount(m, k, base)
    contribution = mean_gain * discount
    position = np.arange(1, m + 1)
    return pd.DataFrame(
        {
            "position": position,
            "item": order.astype(np.int64),
            "score": s,
            "relevance": g,
            "tie_group": group.astype(np.int64),
            "tie_size": sizes[group].astype(np.int64),
            "mean_gain": mean_gain,
            "discount": discount,
            "contribution": contribution,
            "running_sum": np.cumsum(contribution),
            "in_top_k": position <= (m if k is None else k),
        }
    )


# ---------------------------------------------------------------------------
# teaching helpers: gain transform, tie-order bounds, tie orders side by side
# ---------------------------------------------------------------------------
def exponential_gain(y_true) -> np.ndarray:
    """The exponential gain ``2 ** rel - 1`` of graded relevance.

    scikit-learn's ``dcg_score`` / ``ndcg_score`` use the relevance as given
    (linear gain); many IR papers (Burges et al. 2005) use ``2 ** rel - 1``,
    which rewards the top grades more. Pass the result as ``y_true`` to any
    DCG function; for 0/1 labels the two gains coincide. NDCG of the
    transformed gains is well defined: the transform is increasing, so the
    ideal order is unchanged.

    Parameters
    ----------
    y_true : array-like
        Non-negative relevance grades (any shape).

    Returns
    -------
    ndarray of float
        Same shape as ``y_true``.

    Raises
    ------
    MetricInputError
        On negative, NaN or infinite grades, or grades so large that
        ``2 ** rel`` overflows.

    Examples
    --------
    >>> exponential_gain([[0, 1, 2, 3]]).tolist()
    [[0.0, 1.0, 3.0, 7.0]]
    """
    y = as_array(y_true, "y_true", ndim=(1, 2))
    check_nonnegative(y, "y_true")
    if y.size and y.max() >= 1024:
        raise MetricInputError(
            f"y_true holds a grade of {y.max():g}: 2 ** rel - 1 overflows for grades of 1024 "
            "or more; use the linear gain (the relevance as given)."
        )
    return np.exp2(y) - 1.0


def _tie_bound_block(
    raw: np.ndarray, ys: np.ndarray, *, discount: np.ndarray, best_first: bool
) -> np.ndarray:
    gains = raw.astype(np.float64, copy=False)
    secondary = -gains if best_first else gains
    order = np.lexsort((secondary, -ys), axis=1)  # last key is the primary one
    return np.take_along_axis(gains, order, axis=1) @ discount


def dcg_tie_bounds_per_sample(
    y_true, y_score, *, k=None, log_base=2, normalize=False
) -> tuple[np.ndarray, np.ndarray]:
    """The worst and best DCG any order of the tied items could give.

    Inside every tie group the items are ordered worst gain first
    (pessimistic) or best gain first (optimistic). McSherry & Najork's
    tie-averaged DCG (:func:`dcg_per_sample` with ``ignore_ties=False``) is
    the mean over all orders of the tie groups, so it always lies between
    the two (Chebyshev's sum inequality); with no ties all three agree.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_items)
        Non-negative gains, at least 2 items.
    y_score : array-like of shape (n_samples, n_items)
        Finite scores.
    k : int, optional
        Cut-off: only the top ``k`` positions count.
    log_base : float, default 2
        Base of the logarithm of the discount; positive and not 1.
    normalize : bool, default False
        Divide both bounds by the ideal DCG (NDCG bounds; 0 for a sample
        with no positive gain, as :func:`ndcg_per_sample`).

    Returns
    -------
    pessimistic, optimistic : ndarray of float, shape (n_samples,)

    Examples
    --------
    >>> low, high = dcg_tie_bounds_per_sample([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]], k=1)
    >>> low.tolist(), high.tolist()
    ([5.0], [10.0])
    """
    yt, ys, k = _check_inputs(y_true, y_score, k)
    base = _check_log_base(log_base)
    discount = _discount(ys.shape[1], k, base)
    low = apply_by_row_chunks(
        partial(_tie_bound_block, discount=discount, best_first=False), yt, ys
    )
    high = apply_by_row_chunks(
        partial(_tie_bound_block, discount=discount, best_first=True), yt, ys
    )
    if normalize:
        ideal = _dcg(yt, yt, k, base, True)
        ok = ideal > 0
        safe = np.where(ok, ideal, 1.0)
        low = np.where(ok, np.minimum(low / safe, 1.0), 0.0)
        high = np.where(ok, np.minimum(high / safe, 1.0), 0.0)
    return low, high


def dcg_tie_order_steps(y_true_row, y_score_row, *, k=None, log_base=2) -> pd.DataFrame:
    """One sample's items under the four ways of ordering tied scores.

    One table row per item, in column order. For each way of ordering the
    items of a tie group the table gives the item's position and its
    contribution to the DCG; each ``contribution_*`` column sums to that
    way's DCG:

    * ``averaged``: McSherry & Najork (the default ``dcg_score``); the item's
      position is its place in column order inside the group, and its
      contribution is the group's mean gain times that position's discount;
    * ``ignore_ties``: scikit-learn's ``ignore_ties=True`` order (higher
      column first among tied scores);
    * ``pessimistic``: worst gain first inside each tie group;
    * ``optimistic``: best gain first inside each tie group.

    Parameters
    ----------
    y_true_row : array-like of shape (n_items,)
        Non-negative gains of one sample, at least 2.
    y_score_row : array-like of shape (n_items,)
        Finite scores of that sample.
    k : int, optional
        Cut-off: discounts after position ``k`` are 0.
    log_base : float, default 2
        Base of the logarithm of the discount; positive and not 1.

    Returns
    -------
    pandas.DataFrame
        Columns ``item``, ``score``, ``relevance``, ``tie_size``, then
        ``position_<way>`` and ``contribution_<way>`` for the four ways,
        and ``moved`` (True when the item's position differs between
        ``averaged`` and ``ignore_ties``).

    Examples
    --------
    >>> t = dcg_tie_order_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1], k=1)
    >>> t[["item", "position_averaged", "position_ignore_ties"]].to_numpy()[[0, 4]].tolist()
    [[0, 1, 2], [4, 2, 1]]
    >>> [float(t[f"contribution_{w}"].sum())
    ...  for w in ("averaged", "ignore_ties", "pessimistic", "optimistic")]
    [7.5, 5.0, 5.0, 10.0]
    """
    k = check_k(k, allow_none=True)
    base = _check_log_base(log_base)
    yt, ys = _check_rows(y_true_row, y_score_row)
    m = yt.shape[0]
    discount = _discount(m, k, base)
    averaged = dcg_steps(yt, ys, k=k, log_base=base)
    items = averaged["item"].to_numpy()
    orders = {
        "averaged": items,
        "ignore_ties": sklearn_ignore_ties_order(ys[None, :])[0],
        "pessimistic": np.lexsort((yt, -ys)),
        "optimistic": np.lexsort((-yt, -ys)),
    }
    tie_size = np.empty(m, dtype=np.int64)
    tie_size[items] = averaged["tie_size"].to_numpy()
    out = {"item": np.arange(m), "score": ys, "relevance": yt, "tie_size": tie_size}
    positions = {}
    for way, order in orders.items():
        pos = np.empty(m, dtype=np.int64)
        pos[order] = np.arange(1, m + 1)
        positions[way] = pos
        out[f"position_{way}"] = pos
        if way == "averaged":
            contribution = np.empty(m)
            contribution[items] = averaged["contribution"].to_numpy()
        else:
            contribution = yt * discount[pos - 1]
        out[f"contribution_{way}"] = contribution
    out["moved"] = positions["averaged"] != positions["ignore_ties"]
    return pd.DataFrame(out)


# ---------------------------------------------------------------------------
# one ranking, every setting: sorted once, then any k, log base and gain
# ---------------------------------------------------------------------------
@dataclass(frozen=True)
class DcgRanking:
    """The orders every DCG variant needs, computed once (:func:`dcg_ranking`).

    All arrays have shape ``(n_samples, n_items)`` and hold column indices
    or positions in the smallest integer type that fits ``n_items``.

    Attributes
    ----------
    y_true : ndarray
        The gains (grades) the orders were built from.
    pessimistic : ndarray
        Columns by descending score, worst gain first inside a tie group.
    block_first, block_last : ndarray
        At each position of that order, the first and last position of its
        tie group.
    ignore_ties : ndarray
        scikit-learn's ``ignore_ties=True`` order (higher column first).
    ideal : ndarray
        Columns by descending gain.
    """

    y_true: np.ndarray
    pessimistic: np.ndarray
    block_first: np.ndarray
    block_last: np.ndarray
    ignore_ties: np.ndarray
    ideal: np.ndarray


def _index_dtype(m: int):
    return np.int8 if m <= 127 else (np.int16 if m <= 32767 else np.int64)


def _within_ties_by_gain(yt: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """Columns by descending score, ascending gain inside tie groups.

    Small integer gains: one fast sort of the scores, then one int16 sort of
    ``tie group * (top + 1) + gain`` (equal keys are equal gains of one
    group, whose order does not matter); other gains: a lexsort.
    """
    n, m = ys.shape
    top = int(yt.max()) if yt.dtype.kind in "biu" and yt.size else None
    if top is None or (m + 1) * (top + 1) >= 2**15:
        return np.lexsort((yt, -ys), axis=1)
    order = np.argsort(-ys, axis=1)
    sorted_scores = np.take_along_axis(ys, order, axis=1)
    group = np.zeros((n, m), dtype=np.int16)
    np.not_equal(sorted_scores[:, 1:], sorted_scores[:, :-1], out=group[:, 1:])
    np.cumsum(group, axis=1, out=group)
    key = group * np.int16(top + 1) + np.take_along_axis(yt, order, axis=1).astype(np.int16)
    return np.take_along_axis(order, np.argsort(key, axis=1), axis=1)


def _ranking_block(yt: np.ndarray, ys: np.ndarray, dtype) -> tuple[np.ndarray, ...]:
    n, m = ys.shape
    pess = _within_ties_by_gain(yt, ys)
    sorted_scores = np.take_along_axis(ys, pess, axis=1)
    change = sorted_scores[:, 1:] != sorted_scores[:, :-1]
    pos = np.broadcast_to(np.arange(m), (n, m))
    starts = np.zeros((n, m), dtype=bool)
    starts[:, 0] = True
    starts[:, 1:] = change
    first = np.maximum.accumulate(np.where(starts, pos, 0), axis=1)
    ends = np.zeros((n, m), dtype=bool)
    ends[:, -1] = True
    ends[:, :-1] = change
    last = np.minimum.accumulate(np.where(ends, pos, m)[:, ::-1], axis=1)[:, ::-1]
    if yt.dtype.kind in "biu" and yt.size and int(yt.max()) < 2**15 and int(yt.min()) >= 0:
        ideal = np.argsort(-yt.astype(np.int16), axis=1)
    else:
        ideal = np.argsort(-yt, axis=1)
    return tuple(a.astype(dtype) for a in (pess, first, last, sklearn_ignore_ties_order(ys), ideal))


def dcg_ranking(y_true, y_score, *, _max_elements: int | None = None) -> DcgRanking:
    """Sort once for every DCG setting: see :func:`dcg_ranking_table`.

    None of the orders depends on ``k``, the log base, or an increasing
    gain transform such as :func:`exponential_gain`, so an interactive view
    can sort a large matrix once and recompute every setting from it.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_items)
        Non-negative gains (grades), at least 2 items.
    y_score : array-like of shape (n_samples, n_items)
        Finite scores.

    Returns
    -------
    DcgRanking

    Examples
    --------
    >>> r = dcg_ranking([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]])
    >>> r.pessimistic.tolist(), r.block_last.tolist(), r.ideal.tolist()[0][:2]
    ([[4, 0, 1, 2, 3]], [[1, 1, 4, 4, 4]], [0, 4])
    """
    yt, ys, _ = _check_inputs(y_true, y_score, None)
    n, m = ys.shape
    dtype = _index_dtype(m)
    parts = [np.empty((n, m), dtype=dtype) for _ in range(5)]

    def run(rows: slice) -> None:
        for out, block in zip(parts, _ranking_block(yt[rows], ys[rows], dtype), strict=True):
            out[rows] = block

    map_blocks(run, row_chunks(n, m, max_elements=_max_elements))
    return DcgRanking(yt, *parts)


def dcg_ranking_table(
    ranking: DcgRanking,
    *,
    k=None,
    log_base=2,
    ignore_ties=False,
    exponential=False,
    _max_elements: int | None = None,
) -> pd.DataFrame:
    """Per-sample DCG, ideal DCG, NDCG and tie bounds from one :func:`dcg_ranking`.

    The same values as :func:`dcg_per_sample` (``ignore_ties`` as given),
    ``dcg_per_sample(y, y)``, :func:`ndcg_per_sample` and
    :func:`dcg_tie_bounds_per_sample`, up to rounding (1e-12), without
    sorting again: only gathers and matrix products per setting.

    Parameters
    ----------
    ranking : DcgRanking
        From :func:`dcg_ranking`.
    k : int, optional
        Cut-off: only the top ``k`` positions count.
    log_base : float, default 2
        Base of the logarithm of the discount (NDCG does not depend on it).
    ignore_ties : bool, default False
        The ``DCG`` and ``NDCG`` columns rank tied items higher column first.
    exponential : bool, default False
        Use the gain ``2 ** y_true - 1`` (:func:`exponential_gain`).

    Returns
    -------
    pandas.DataFrame
        Columns ``DCG``, ``ideal DCG``, ``NDCG``, ``pessimistic DCG`` and
        ``optimistic DCG``, one row per sample.

    Examples
    --------
    >>> r = dcg_ranking([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]])
    >>> dcg_ranking_table(r, k=1).iloc[0].tolist()
    [7.5, 10.0, 0.75, 5.0, 10.0]
    """
    k = check_k(k, allow_none=True)
    base = _check_log_base(log_base)
    yt = ranking.y_true
    if exponential:
        exponential_gain(np.max(yt, keepdims=True))  # its refusal of grades >= 1024
    n, m = yt.shape
    discount = _discount(m, k, base)
    names = ("DCG", "ideal DCG", "pessimistic DCG", "optimistic DCG")
    cols = {c: np.empty(n) for c in names}

    def run(rows: slice) -> None:
        gains = yt[rows].astype(np.float64)
        if exponential:
            gains = np.exp2(gains) - 1.0
        pess = np.take_along_axis(gains, ranking.pessimistic[rows], axis=1)
        first = ranking.block_first[rows].astype(np.intp)
        last = ranking.block_last[rows].astype(np.intp)
        opt = np.take_along_axis(pess, first + last - np.arange(m), axis=1)
        cols["pessimistic DCG"][rows] = pess @ discount
        cols["optimistic DCG"][rows] = opt @ discount
        ideal = np.take_along_axis(gains, ranking.ideal[rows], axis=1)
        cols["ideal DCG"][rows] = ideal @ discount
        if ignore_ties:
            ordered = np.take_along_axis(gains, ranking.ignore_ties[rows], axis=1)
        else:
            cum = np.zeros((pess.shape[0], m + 1))
            np.cumsum(pess, axis=1, out=cum[:, 1:])
            ordered = (
                np.take_along_axis(cum, last + 1, axis=1) - np.take_along_axis(cum, first, axis=1)
            ) / (last - first + 1)
        cols["DCG"][rows] = ordered @ discount

    map_blocks(run, row_chunks(n, m, max_elements=_max_elements))
    ideal_dcg = cols["ideal DCG"]
    ok = ideal_dcg > 0
    ndcg = np.zeros(n)
    np.divide(cols["DCG"], ideal_dcg, out=ndcg, where=ok)
    np.minimum(ndcg, 1.0, out=ndcg)
    return pd.DataFrame(
        {
            "DCG": cols["DCG"],
            "ideal DCG": ideal_dcg,
            "NDCG": ndcg,
            "pessimistic DCG": cols["pessimistic DCG"],
            "optimistic DCG": cols["optimistic DCG"],
        }
    )
