"""Teaching helpers of the DCG page: the computation behind DCG and NDCG laid out.

The step table of one sample (:func:`dcg_steps`, whose last running sum is
that sample's DCG), the four ways of ordering tied items
(:func:`dcg_tie_order_steps`) and the DCG bounds they give for every
sample (:func:`dcg_tie_bounds_per_sample`), the exponential gain, and one
ranking of the whole matrix from which any k, log base, gain and tie rule
is read without sorting again (:func:`dcg_ranking`,
:func:`dcg_ranking_table`). Input is validated as :mod:`metrics.dcg` does.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING

import numpy as np

from metrics._dcg_kernel import check_dcg_inputs, check_log_base, dcg_values, position_discounts
from metrics._ranks import (
    apply_by_row_chunks,
    map_blocks,
    row_chunks,
    sklearn_ignore_ties_order,
)
from metrics._relevance import check_retrieved, retrieved_only
from metrics._validation import (
    MetricInputError,
    as_array,
    check_k,
    check_nonnegative,
    check_same_shape,
)

if TYPE_CHECKING:  # the annotations' DataFrame; pandas itself is imported where used
    import pandas as pd

__all__ = [
    "DcgRanking",
    "dcg_ranking",
    "dcg_ranking_table",
    "dcg_steps",
    "dcg_tie_bounds_per_sample",
    "dcg_tie_order_steps",
    "exponential_gain",
]


def _check_rows(y_true_row, y_score_row) -> tuple[np.ndarray, np.ndarray]:
    yt = as_array(y_true_row, "y_true_row", ndim=(1,))
    ys = as_array(y_score_row, "y_score_row", ndim=(1,))
    check_same_shape(yt, ys, "y_true_row", "y_score_row")
    if yt.shape[0] < 2:
        raise MetricInputError(f"y_true_row needs at least 2 items; got {yt.shape[0]}.")
    check_nonnegative(yt, "y_true_row")
    return yt, ys


def _tie_rule(ignore_ties) -> bool | str:
    """``ignore_ties`` as a rule: False (averaged), True (higher column first) or "column".

    Examples
    --------
    >>> _tie_rule(1), _tie_rule("column")
    (True, 'column')
    """
    if isinstance(ignore_ties, str):
        if ignore_ties != "column":
            raise MetricInputError(
                f'ignore_ties must be True, False or "column"; got {ignore_ties!r}.'
            )
        return ignore_ties
    return bool(ignore_ties)


def dcg_steps(
    y_true_row, y_score_row, *, k=None, log_base=2, ignore_ties=False, retrieved=None
) -> pd.DataFrame:
    """DCG of one sample, position by position.

    One table row per ranked position. Ranking: descending score; tied items
    in column order by default (the order inside a tie group does not
    change a tie-averaged DCG), higher column first with
    ``ignore_ties=True`` (scikit-learn's order), column order with
    ``ignore_ties="column"`` (LightGBM's and XGBoost's stable sort).

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
    ignore_ties : bool or "column", default False
        Rank tied items one by one instead of averaging them: True higher
        column first (scikit-learn), ``"column"`` lower column first (the
        input order: LightGBM, XGBoost).
    retrieved : array-like of bool, shape (n_items,), optional
        False marks an item the system did not retrieve: it comes last and
        adds no gain (as :func:`metrics.dcg.dcg_per_sample` reads the mask).
        Default: every item retrieved.

    Returns
    -------
    pandas.DataFrame
        The table described above, with the columns:

        position : int
            1-based position.
        item : int
            Column index of the item at that position.
        retrieved : bool
            Whether the item was retrieved.
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
    >>> t = dcg_steps([10, 0, 5], [3, 2, 1], retrieved=[False, True, True])
    >>> t["item"].tolist(), t["mean_gain"].tolist(), t["relevance"].tolist()
    ([1, 2, 0], [0.0, 5.0, 0.0], [0.0, 5.0, 10.0])
    >>> dcg_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1], ignore_ties="column")["item"].tolist()
    [0, 4, 1, 2, 3]
    """
    import pandas as pd

    ignore_ties = _tie_rule(ignore_ties)
    k = check_k(k, allow_none=True)
    base = check_log_base(log_base)
    yt, ys = _check_rows(y_true_row, y_score_row)
    m = yt.shape[0]
    mask = check_retrieved(None if retrieved is None else np.asarray(retrieved)[None, :], ys[None])
    seen_g, seen_s = retrieved_only(yt[None], ys[None], mask)
    seen_g, seen_s = seen_g[0], seen_s[0]
    if ignore_ties is True:
        order = sklearn_ignore_ties_order(seen_s[None, :])[0]
    else:  # averaged, or "column": tied items in column order
        order = np.argsort(-seen_s, kind="stable")
    s = ys[order]
    g = seen_g[order]
    ranked_s = seen_s[order]
    change = np.empty(m, dtype=bool)
    change[0] = True
    np.not_equal(ranked_s[1:], ranked_s[:-1], out=change[1:])
    group = np.cumsum(change) - 1
    sizes = np.bincount(group)
    mean_gain = g.copy() if ignore_ties else (np.bincount(group, weights=g) / sizes)[group]
    discount = position_discounts(m, k, base)
    contribution = mean_gain * discount
    position = np.arange(1, m + 1)
    return pd.DataFrame(
        {
            "position": position,
            "item": order.astype(np.int64),
            "retrieved": np.ones(m, bool) if mask is None else mask[0, order],
            "score": s,
            "relevance": yt[order],
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
    yt, ys, k = check_dcg_inputs(y_true, y_score, k)
    base = check_log_base(log_base)
    discount = position_discounts(ys.shape[1], k, base)
    low = apply_by_row_chunks(
        partial(_tie_bound_block, discount=discount, best_first=False), yt, ys
    )
    high = apply_by_row_chunks(
        partial(_tie_bound_block, discount=discount, best_first=True), yt, ys
    )
    if normalize:
        ideal = dcg_values(yt, yt, k, base, True)
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
    import pandas as pd

    k = check_k(k, allow_none=True)
    base = check_log_base(log_base)
    yt, ys = _check_rows(y_true_row, y_score_row)
    m = yt.shape[0]
    discount = position_discounts(m, k, base)
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
    seen : ndarray or None
        With a ``retrieved`` mask, the gains the ranking sees (0 for an item
        not retrieved, which the orders above put last); None: ``y_true``.
        The ideal order reads every item of ``y_true``.

    Examples
    --------
    >>> r = dcg_ranking([[3, 0, 2]], [[0.5, 0.5, 0.1]])
    >>> r.pessimistic.tolist(), r.ignore_ties.tolist(), r.ideal.tolist()
    ([[1, 0, 2]], [[1, 0, 2]], [[0, 2, 1]])
    """

    y_true: np.ndarray
    pessimistic: np.ndarray
    block_first: np.ndarray
    block_last: np.ndarray
    ignore_ties: np.ndarray
    ideal: np.ndarray
    seen: np.ndarray | None = None


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


def _ranking_block(
    yt: np.ndarray, ys: np.ndarray, dtype, mask: np.ndarray | None = None
) -> tuple[np.ndarray, ...]:
    n, m = ys.shape
    full = yt  # the ideal order reads every item; the others what was retrieved
    yt, ys = retrieved_only(yt, ys, mask)
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
    if full.dtype.kind in "biu" and full.size and int(full.max()) < 2**15 and int(full.min()) >= 0:
        ideal = np.argsort(-full.astype(np.int16), axis=1)
    else:
        ideal = np.argsort(-full, axis=1)
    return tuple(a.astype(dtype) for a in (pess, first, last, sklearn_ignore_ties_order(ys), ideal))


def dcg_ranking(y_true, y_score, *, retrieved=None, _max_elements: int | None = None) -> DcgRanking:
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
    retrieved : array-like of bool, shape (n_samples, n_items), optional
        False marks an item the system did not retrieve: it ranks last with
        no gain, and counts in the ideal DCG (as :func:`metrics.dcg.ndcg_score`).

    Returns
    -------
    DcgRanking

    Examples
    --------
    >>> r = dcg_ranking([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]])
    >>> r.pessimistic.tolist(), r.block_last.tolist(), r.ideal.tolist()[0][:2]
    ([[4, 0, 1, 2, 3]], [[1, 1, 4, 4, 4]], [0, 4])
    """
    yt, ys, _ = check_dcg_inputs(y_true, y_score, None)
    mask = check_retrieved(retrieved, ys)
    n, m = ys.shape
    dtype = _index_dtype(m)
    parts = [np.empty((n, m), dtype=dtype) for _ in range(5)]

    def run(rows: slice) -> None:
        mask_b = None if mask is None else mask[rows]
        blocks = _ranking_block(yt[rows], ys[rows], dtype, mask_b)
        for out, block in zip(parts, blocks, strict=True):
            out[rows] = block

    map_blocks(run, row_chunks(n, m, max_elements=_max_elements))
    seen = None if mask is None else retrieved_only(yt, ys, mask)[0]
    return DcgRanking(yt, *parts, seen=seen)


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
    sorting again: only gathers and matrix products per setting. Only the
    top ``k`` positions are read (their discount is the only non-zero one),
    and, where a tie group straddles ``k``, the positions up to its end
    (its mean gain needs them): a small ``k`` costs a fraction of ``k=None``.

    Parameters
    ----------
    ranking : DcgRanking
        From :func:`dcg_ranking`.
    k : int, optional
        Cut-off: only the top ``k`` positions count.
    log_base : float, default 2
        Base of the logarithm of the discount (NDCG does not depend on it).
    ignore_ties : bool or "column", default False
        The ``DCG`` and ``NDCG`` columns rank tied items one by one: True
        higher column first (scikit-learn), ``"column"`` lower column first
        (the input order: LightGBM's and XGBoost's stable sort).
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
    >>> dcg_ranking_table(r, k=1, ignore_ties="column")["DCG"].tolist()
    [10.0]
    """
    import pandas as pd

    ignore_ties = _tie_rule(ignore_ties)
    k = check_k(k, allow_none=True)
    base = check_log_base(log_base)
    yt = ranking.y_true
    if exponential:
        exponential_gain(np.max(yt, keepdims=True))  # its refusal of grades >= 1024
    n, m = yt.shape
    top = m if k is None else min(k, m)  # positions after k have discount 0: never read
    discount = position_discounts(m, k, base)[:top]
    names = ("DCG", "ideal DCG", "pessimistic DCG", "optimistic DCG")
    cols = {c: np.empty(n) for c in names}

    def gain(raw: np.ndarray) -> np.ndarray:
        """Gains of gathered grades (gathered first: fewer values to convert)."""
        out = raw.astype(np.float64)
        return np.exp2(out, out=out) - 1.0 if exponential else out

    seen = yt if ranking.seen is None else ranking.seen

    def run(rows: slice) -> None:
        raw, raw_seen = yt[rows], seen[rows]
        first = ranking.block_first[rows, :top].astype(np.intp)
        last = ranking.block_last[rows, :top].astype(np.intp)
        # a tie group straddling k: its mean gain needs the gains up to its last position
        width = int(last[:, -1].max()) + 1
        pess = gain(np.take_along_axis(raw_seen, ranking.pessimistic[rows, :width], axis=1))
        cols["pessimistic DCG"][rows] = pess[:, :top] @ discount
        # best gain first in a group: position p takes the group's item at first + last - p
        opt = np.take_along_axis(pess, first + last - np.arange(top), axis=1)
        cols["optimistic DCG"][rows] = opt @ discount
        ideal = gain(np.take_along_axis(raw, ranking.ideal[rows, :top], axis=1))
        cols["ideal DCG"][rows] = ideal @ discount
        if ignore_ties is True:
            ordered = gain(np.take_along_axis(raw_seen, ranking.ignore_ties[rows, :top], axis=1))
        elif ignore_ties == "column":
            # scikit-learn's order reversed inside each tie group: lower column first
            within = first + last - np.arange(top)
            higher = ranking.ignore_ties[rows, :width].astype(np.intp)
            column = np.take_along_axis(higher, within, axis=1)
            ordered = gain(np.take_along_axis(raw_seen, column, axis=1))
        else:
            cum = np.zeros((pess.shape[0], width + 1))
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
