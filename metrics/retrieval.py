"""Top-K retrieval metrics: P@K, R@K, hit rate, AP@K / MAP@K, RR / MRR and ERR.

Rows are queries and columns candidate items. ``y_true`` holds graded
relevance (``>= 0``; an item is *relevant* when its grade is ``> 0``) and
``y_score`` the finite scores that rank the items of a query, highest first.
Tied scores are broken by column order, lower column first (a stable sort on
descending score, :func:`metrics._ranks.top_k_order`).

Every metric sorts the score matrix once, gathers the relevance in ranked
order (:func:`_ranked_relevance`) and works with cumulative sums over the
positions, never with a Python loop over queries. A query with no relevant
item scores 0 under every metric.

AP@K conventions (``denominator``) divide the sum of the precisions at the
relevant positions of the top ``k`` by:

``"min_m_k"``
    min(number of relevant items M, k), the common AP@K (seed 002's);
``"relevant"``
    M, as trec_eval's ``map`` / ``map_cut_k``;
``"k"``
    k itself (seed 004's worked example divides by the list length);
``"hits"``
    the number of relevant items retrieved in the top k.
"""

from __future__ import annotations

from numbers import Real

import numpy as np
import pandas as pd

from metrics._ranks import block_sums, descending_order, tie_bounds, top_k_order
from metrics._validation import (
    MetricInputError,
    as_2d,
    as_array,
    check_k,
    check_nonnegative,
    check_same_shape,
    location,
)

__all__ = [
    "average_precision_at_k",
    "expected_reciprocal_rank",
    "expected_reciprocal_rank_per_sample",
    "hit_rate_at_k",
    "hit_rate_at_k_per_sample",
    "mean_average_precision_at_k",
    "mean_reciprocal_rank",
    "precision_at_k",
    "precision_at_k_per_sample",
    "recall_at_k",
    "recall_at_k_per_sample",
    "reciprocal_rank",
    "retrieval_steps",
]

_DENOMINATORS = ("min_m_k", "relevant", "k", "hits")


# ---------------------------------------------------------------------------
# validation and the shared ranked relevance
# ---------------------------------------------------------------------------
def _check_inputs(y_true, y_score) -> tuple[np.ndarray, np.ndarray]:
    """Two finite 2-D float matrices of the same shape, ``y_true >= 0``."""
    yt = as_2d(y_true, "y_true")
    ys = as_2d(y_score, "y_score")
    check_same_shape(yt, ys, "y_true", "y_score")
    check_nonnegative(yt, "y_true")
    return yt, ys


def _check_denominator(denominator) -> str:
    if not isinstance(denominator, str) or denominator not in _DENOMINATORS:
        allowed = ", ".join(repr(d) for d in _DENOMINATORS)
        raise MetricInputError(f"denominator must be one of {allowed}; got {denominator!r}.")
    return denominator


def _check_max_grade(max_grade, y_true: np.ndarray, name: str = "y_true") -> float:
    """The top of the grade scale: given, or the largest grade in ``y_true``."""
    if max_grade is None:
        return float(y_true.max())
    bad = f"max_grade must be a non-negative number or None; got {max_grade!r}."
    if isinstance(max_grade, bool) or not isinstance(max_grade, Real):
        raise MetricInputError(bad)
    mg = float(max_grade)
    if not np.isfinite(mg) or mg < 0:
        raise MetricInputError(bad)
    above = y_true > mg
    if above.any():
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(above)), y_true.shape))
        grade = float(y_true[where])
        if y_true.ndim == 1:
            at = f"{name}[{where[0]}] (column {where[0]})"
        else:
            at = location(name, where)
        raise MetricInputError(
            f"max_grade ({mg:g}) is smaller than the grade {grade:g} at {at}; "
            "max_grade must be at least the largest grade."
        )
    return mg


def _ranked_relevance(y_true: np.ndarray, y_score: np.ndarray, k: int | None) -> np.ndarray:
    """Relevance of the top ``k`` items of every query, in ranked order.

    One stable sort of ``y_score`` on descending score (ties: lower column
    first) and one gather of ``y_true``.

    Parameters
    ----------
    y_true, y_score : ndarray of shape (n_queries, n_items)
        Validated inputs.
    k : int or None
        Cut-off; None (or a ``k`` past ``n_items``) keeps every item.

    Returns
    -------
    ndarray of shape (n_queries, min(k, n_items))

    Examples
    --------
    >>> import numpy as np
    >>> _ranked_relevance(np.array([[0.0, 2.0, 1.0]]), np.array([[0.5, 0.5, 0.9]]), 2).tolist()
    [[1.0, 0.0]]
    """
    n_items = y_score.shape[1]
    kk = n_items if k is None else min(k, n_items)
    order = top_k_order(y_score, kk)
    return np.take_along_axis(y_true, order, axis=1)


def _safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` with 0 where ``den`` is 0."""
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def _hits_and_relevant(y_true, y_score, k) -> tuple[np.ndarray, np.ndarray, int]:
    yt, ys = _check_inputs(y_true, y_score)
    k = check_k(k)
    ranked = _ranked_relevance(yt, ys, k)
    hits = np.count_nonzero(ranked > 0, axis=1).astype(np.float64)
    n_rel = np.count_nonzero(yt > 0, axis=1).astype(np.float64)
    return hits, n_rel, k


# ---------------------------------------------------------------------------
# P@K, R@K, hit rate
# ---------------------------------------------------------------------------
def precision_at_k_per_sample(y_true, y_score, *, k) -> np.ndarray:
    """Precision at k of every query: relevant items in the top k, divided by k.

    Always divides by ``k``, also when ``k`` exceeds the number of items
    (as trec_eval's ``P_k``).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int
        Cut-off, ``>= 1``.

    Returns
    -------
    ndarray of shape (n_queries,)

    Examples
    --------
    >>> precision_at_k_per_sample([[1, 0, 1], [0, 0, 0]], [[0.9, 0.8, 0.1], [1, 2, 3]], k=2)
    array([0.5, 0. ])
    """
    hits, _, k = _hits_and_relevant(y_true, y_score, k)
    return hits / k


def precision_at_k(y_true, y_score, *, k) -> float:
    """Mean precision at k over queries (see :func:`precision_at_k_per_sample`).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int
        Cut-off, ``>= 1``.

    Returns
    -------
    float

    Examples
    --------
    >>> precision_at_k([[1, 0, 1], [0, 1, 0]], [[0.9, 0.8, 0.1], [1, 2, 3]], k=2)
    0.5
    """
    return float(precision_at_k_per_sample(y_true, y_score, k=k).mean())


def recall_at_k_per_sample(y_true, y_score, *, k) -> np.ndarray:
    """Recall at k of every query: relevant items in the top k over all relevant items.

    A query with no relevant item scores 0.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int
        Cut-off, ``>= 1``.

    Returns
    -------
    ndarray of shape (n_queries,)

    Examples
    --------
    >>> recall_at_k_per_sample([[1, 0, 1], [0, 0, 0]], [[0.9, 0.8, 0.1], [1, 2, 3]], k=2)
    array([0.5, 0. ])
    """
    hits, n_rel, _ = _hits_and_relevant(y_true, y_score, k)
    return _safe_divide(hits, n_rel)


def recall_at_k(y_true, y_score, *, k) -> float:
    """Mean recall at k over queries (see :func:`recall_at_k_per_sample`).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int
        Cut-off, ``>= 1``.

    Returns
    -------
    float

    Examples
    --------
    >>> recall_at_k([[1, 0, 1], [0, 1, 0]], [[0.9, 0.8, 0.1], [1, 2, 3]], k=2)
    0.75
    """
    return float(recall_at_k_per_sample(y_true, y_score, k=k).mean())


def hit_rate_at_k_per_sample(y_true, y_score, *, k) -> np.ndarray:
    """1.0 for every query with at least one relevant item in its top k, else 0.0.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int
        Cut-off, ``>= 1``.

    Returns
    -------
    ndarray of shape (n_queries,)

    Examples
    --------
    >>> hit_rate_at_k_per_sample([[1, 0, 1], [0, 1, 0]], [[0.9, 0.8, 0.1], [1, 2, 3]], k=1)
    array([1., 0.])
    """
    hits, _, _ = _hits_and_relevant(y_true, y_score, k)
    return (hits > 0).astype(np.float64)


def hit_rate_at_k(y_true, y_score, *, k) -> float:
    """Share of queries with at least one relevant item in their top k.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int
        Cut-off, ``>= 1``.

    Returns
    -------
    float

    Examples
    --------
    >>> hit_rate_at_k([[1, 0, 1], [0, 1, 0]], [[0.9, 0.8, 0.1], [1, 2, 3]], k=2)
    1.0
    """
    return float(hit_rate_at_k_per_sample(y_true, y_score, k=k).mean())


# ---------------------------------------------------------------------------
# AP@K and MAP@K
# ---------------------------------------------------------------------------
def average_precision_at_k(y_true, y_score, *, k, denominator="min_m_k") -> np.ndarray:
    """Average precision at k of every query.

    The sum, over the relevant items in the top ``k``, of the precision at
    their position, divided by the chosen ``denominator``::

        AP@k = sum_{r <= k} P(r) rel(r) / D,   P(r) = hits in the top r / r

    A query with no relevant item (or a zero denominator) scores 0.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int
        Cut-off, ``>= 1``.
    denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        ``D``: min(M, k) with M the query's relevant items (seed 002's
        AP@K); M (trec_eval's ``map_cut_k``); ``k`` as given (seed 004's
        example, which divides by the list length); or the relevant items
        retrieved in the top ``k``.

    Returns
    -------
    ndarray of shape (n_queries,)

    Examples
    --------
    Relevant items at positions 1, 3 and 5 of the ranking (seed 002):

    >>> y_true = [[1, 0, 1, 0, 1]]
    >>> y_score = [[5, 4, 3, 2, 1]]
    >>> round(float(average_precision_at_k(y_true, y_score, k=5)[0]), 4)
    0.7556
    >>> round(float(average_precision_at_k(y_true, y_score, k=5, denominator="k")[0]), 4)
    0.4533
    """
    yt, ys = _check_inputs(y_true, y_score)
    k = check_k(k)
    denominator = _check_denominator(denominator)
    ranked = _ranked_relevance(yt, ys, k) > 0
    positions = np.arange(1, ranked.shape[1] + 1, dtype=np.float64)
    hits_so_far = np.cumsum(ranked, axis=1)
    total = np.where(ranked, hits_so_far / positions, 0.0).sum(axis=1)
    if denominator == "k":
        return total / k
    if denominator == "hits":
        den = hits_so_far[:, -1]
    else:
        den = np.count_nonzero(yt > 0, axis=1)
        if denominator == "min_m_k":
            den = np.minimum(den, k)
    return _safe_divide(total, den)


def mean_average_precision_at_k(y_true, y_score, *, k, denominator="min_m_k") -> float:
    """MAP@K: the mean of :func:`average_precision_at_k` over queries.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int
        Cut-off, ``>= 1``.
    denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        See :func:`average_precision_at_k`.

    Returns
    -------
    float

    Examples
    --------
    Seed 002: relevant at positions 1, 3, 5 (AP 0.7556) and at 2, 4 (AP 0.5):

    >>> y_true = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]]
    >>> y_score = [[5, 4, 3, 2, 1], [5, 4, 3, 2, 1]]
    >>> round(mean_average_precision_at_k(y_true, y_score, k=5), 4)
    0.6278
    """
    ap = average_precision_at_k(y_true, y_score, k=k, denominator=denominator)
    return float(ap.mean())


# ---------------------------------------------------------------------------
# RR and MRR
# ---------------------------------------------------------------------------
def reciprocal_rank(y_true, y_score, *, k=None) -> np.ndarray:
    """Reciprocal rank of every query: 1 / position of its first relevant item.

    0 when no relevant item is ranked in the top ``k`` (``k=None``: anywhere).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int or None, default None
        Cut-off, ``>= 1``; None ranks every item.

    Returns
    -------
    ndarray of shape (n_queries,)

    Examples
    --------
    >>> reciprocal_rank([[0, 0, 1], [1, 0, 0], [0, 0, 0]], [[3, 2, 1], [1, 1, 1], [1, 2, 3]])
    array([0.33333333, 1.        , 0.        ])
    >>> reciprocal_rank([[0, 0, 1]], [[3, 2, 1]], k=2)
    array([0.])
    """
    yt, ys = _check_inputs(y_true, y_score)
    k = check_k(k, allow_none=True)
    position, found = _first_relevant_position(yt, ys)
    if k is not None:
        found &= position <= k
    return np.where(found, 1.0 / position, 0.0)


def _first_relevant_position(y_true: np.ndarray, y_score: np.ndarray):
    """1-based rank of each query's first relevant item, without sorting.

    Under the stable descending order the first relevant item is the one
    with the highest score among the relevant, the lowest column among
    those; it is preceded by every item scoring more and by the items of
    equal score in lower columns. Counting them is O(n_items) per query
    and gives the same position as :func:`_ranked_relevance`'s order.

    Returns the positions (meaningless where ``found`` is False) and
    ``found``, whether the query has a relevant item at all.
    """
    relevant = y_true > 0
    found = relevant.any(axis=1)
    best = np.where(relevant, y_score, -np.inf).max(axis=1)[:, None]
    first_col = np.argmax(relevant & (y_score == best), axis=1)[:, None]
    cols = np.arange(y_score.shape[1])
    ahead = np.count_nonzero(y_score > best, axis=1) + np.count_nonzero(
        (y_score == best) & (cols < first_col), axis=1
    )
    return ahead + 1.0, found


def mean_reciprocal_rank(y_true, y_score, *, k=None) -> float:
    """MRR: the mean of :func:`reciprocal_rank` over queries.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int or None, default None
        Cut-off, ``>= 1``; None ranks every item.

    Returns
    -------
    float

    Examples
    --------
    >>> mean_reciprocal_rank([[0, 1, 0], [1, 0, 0]], [[3, 2, 1], [3, 2, 1]])
    0.75
    """
    return float(reciprocal_rank(y_true, y_score, k=k).mean())


# ---------------------------------------------------------------------------
# ERR
# ---------------------------------------------------------------------------
def _stop_probability(grades: np.ndarray, max_grade: float) -> np.ndarray:
    """Chapelle's R = (2^g - 1) / 2^max_grade, written so that it cannot overflow."""
    return np.exp2(grades - max_grade) - np.exp2(-max_grade)


def expected_reciprocal_rank_per_sample(y_true, y_score, *, k=None, max_grade=None) -> np.ndarray:
    """Expected reciprocal rank (Chapelle et al., 2009) of every query.

    The user scans the ranking from the top and stops at position r with
    probability ``R_r = (2^g_r - 1) / 2^max_grade``::

        ERR = sum_{r <= k} (1 / r) R_r prod_{i < r} (1 - R_i)

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance (the grades ``g``), ``>= 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int or None, default None
        Cut-off, ``>= 1``; None sums over every position.
    max_grade : float or None, default None
        The top of the grade scale; None takes the largest value in the
        whole ``y_true`` (if that is 0, every ERR is 0). Refused when smaller
        than a grade in ``y_true``.

    Returns
    -------
    ndarray of shape (n_queries,)

    Examples
    --------
    Grades 2 then 1 at the top, scale 0..2: R = 3/4 and 1/4, so
    ERR = 3/4 + (1/2)(1/4)(1/4) = 0.78125.

    >>> expected_reciprocal_rank_per_sample([[1, 2, 0]], [[0.5, 0.9, 0.1]])
    array([0.78125])
    """
    yt, ys = _check_inputs(y_true, y_score)
    k = check_k(k, allow_none=True)
    mg = _check_max_grade(max_grade, yt)
    if mg == 0.0:  # every grade is 0: no query can satisfy the user
        return np.zeros(yt.shape[0], dtype=np.float64)
    stop = _stop_probability(_ranked_relevance(yt, ys, k), mg)
    still = np.ones_like(stop)
    np.cumprod(1.0 - stop[:, :-1], axis=1, out=still[:, 1:])
    positions = np.arange(1, stop.shape[1] + 1, dtype=np.float64)
    return (stop * still / positions).sum(axis=1)


def expected_reciprocal_rank(y_true, y_score, *, k=None, max_grade=None) -> float:
    """Mean expected reciprocal rank over queries (see the per-sample form).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance (the grades ``g``), ``>= 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    k : int or None, default None
        Cut-off, ``>= 1``; None sums over every position.
    max_grade : float or None, default None
        The top of the grade scale; None takes the largest value in ``y_true``.

    Returns
    -------
    float

    Examples
    --------
    >>> expected_reciprocal_rank([[1, 2, 0], [0, 0, 0]], [[0.5, 0.9, 0.1], [1, 2, 3]])
    0.390625
    >>> round(expected_reciprocal_rank([[1, 2, 0]], [[0.5, 0.9, 0.1]], max_grade=3), 4)
    0.4141
    """
    err = expected_reciprocal_rank_per_sample(y_true, y_score, k=k, max_grade=max_grade)
    return float(err.mean())


# ---------------------------------------------------------------------------
# step table for one query
# ---------------------------------------------------------------------------
def _as_row(x, name: str) -> np.ndarray:
    """One query: a 1-D vector, or a matrix holding a single row.

    A vector is checked as a ``(1, n)`` matrix so that messages name the
    column of a bad element (``y_true_row[0, 3] (row 0, column 3)``).
    """
    try:
        raw = np.asarray(x)
    except ValueError:  # ragged: let as_array word the refusal
        raw = x
    if isinstance(raw, np.ndarray):
        if raw.ndim not in (1, 2):
            raise MetricInputError(
                f"{name} must be one query (a 1-D row of item values); got shape {raw.shape}."
            )
        if raw.ndim == 1:
            raw = raw[None, :]
    arr = as_array(raw, name, ndim=(2,))
    if arr.shape[0] != 1:
        raise MetricInputError(
            f"{name} must be one query (a 1-D row of item values); got shape {arr.shape}."
        )
    return arr


def retrieval_steps(
    y_true_row, y_score_row, *, k=None, max_grade=None, denominator="min_m_k"
) -> pd.DataFrame:
    """The ranking of one query, position by position, with every Top-K metric's terms.

    Parameters
    ----------
    y_true_row : array-like of shape (n_items,)
        Graded relevance of the query's items, ``>= 0``.
    y_score_row : array-like of shape (n_items,)
        Finite scores; ties are broken by column order, lower column first.
    k : int or None, default None
        Cut-off, ``>= 1``; None keeps every item in the top k.
    max_grade : float or None, default None
        ERR's grade scale; None takes the largest grade of *this row*. Pass
        the whole matrix's largest grade to match
        :func:`expected_reciprocal_rank` on a multi-query matrix.
    denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        AP's denominator (see :func:`average_precision_at_k`); with
        ``k=None``, ``"k"`` is the number of items.

    Returns
    -------
    pandas.DataFrame
        One row per ranked position with columns ``position`` (1-based),
        ``item`` (column index), ``score``, ``relevance``, ``relevant``,
        ``tie_group`` (0-based id of a run of equal scores), ``in_top_k``,
        ``hits_so_far``, ``precision_at_position``, ``ap_term`` (the
        precision at a relevant position in the top k, else 0),
        ``ap_running`` (running sum of ``ap_term`` over the denominator),
        ``err_stop_prob`` (R_r), ``err_still_looking`` (prod_{i<r}(1 - R_i)),
        ``err_term`` (R_r times that over r, 0 past k), ``err_running`` and
        ``rr_running`` (the reciprocal rank so far). The last row's
        ``ap_running``, ``err_running`` and ``rr_running`` are the query's
        AP@K, ERR@K and reciprocal rank at the same ``k``.

    Examples
    --------
    >>> t = retrieval_steps([1, 0, 1, 0, 1], [5, 4, 3, 2, 1], k=5)
    >>> t["item"].tolist(), t["hits_so_far"].tolist()
    ([0, 1, 2, 3, 4], [1, 1, 2, 2, 3])
    >>> t["ap_term"].round(4).tolist()
    [1.0, 0.0, 0.6667, 0.0, 0.6]
    >>> round(float(t["ap_running"].iloc[-1]), 4)
    0.7556
    """
    yt2 = _as_row(y_true_row, "y_true_row")
    ys2 = _as_row(y_score_row, "y_score_row")
    check_same_shape(yt2[0], ys2[0], "y_true_row", "y_score_row")
    check_nonnegative(yt2, "y_true_row")
    k = check_k(k, allow_none=True)
    denominator = _check_denominator(denominator)
    mg = _check_max_grade(max_grade, yt2[0], "y_true_row")
    yt, ys = yt2[0], ys2[0]

    n_items = yt.shape[0]
    k_eff = n_items if k is None else k
    order = top_k_order(ys[None, :])[0]
    score = ys[order]
    grade = yt[order]
    relevant = grade > 0
    positions = np.arange(1, n_items + 1)
    in_top_k = positions <= k_eff
    tie_group = np.concatenate(([0], np.cumsum(score[1:] != score[:-1])))

    hits_so_far = np.cumsum(relevant)
    precision = hits_so_far / positions
    ap_term = np.where(relevant & in_top_k, precision, 0.0)
    hits_in_top = int(np.count_nonzero(relevant & in_top_k))
    n_rel = int(np.count_nonzero(relevant))
    den = {
        "min_m_k": min(n_rel, k_eff),
        "relevant": n_rel,
        "k": k_eff,
        "hits": hits_in_top,
    }[denominator]
    ap_running = np.cumsum(ap_term) / den if den else np.zeros(n_items)

    if mg == 0.0:
        stop = np.zeros(n_items)
    else:
        stop = _stop_probability(grade, mg)
    still = np.concatenate(([1.0], np.cumprod(1.0 - stop[:-1])))
    err_term = np.where(in_top_k, stop * still / positions, 0.0)

    first_hit = relevant & in_top_k
    rr_running = np.zeros(n_items)
    if first_hit.any():
        first = int(np.argmax(first_hit))
        rr_running[first:] = 1.0 / (first + 1)

    return pd.DataFrame(
        {
            "position": positions,
            "item": order.astype(np.int64),
            "score": score,
            "relevance": grade,
            "relevant": relevant,
            "tie_group": tie_group.astype(np.int64),
            "in_top_k": in_top_k,
            "hits_so_far": hits_so_far.astype(np.int64),
            "precision_at_position": precision,
            "ap_term": ap_term,
            "ap_running": ap_running,
            "err_stop_prob": stop,
            "err_still_looking": still,
            "err_term": err_term,
            "err_running": np.cumsum(err_term),
            "rr_running": rr_running,
        }
    )


# ---------------------------------------------------------------------------
# conventions: relevance threshold, gain, tie policy, empty queries
# ---------------------------------------------------------------------------
TIE_MODES = ("column", "tie-averaged", "optimistic", "pessimistic")
GAINS = ("linear", "exponential")
EMPTY_QUERY = ("zero", "drop")
CONVENTION_METRICS = ("P@K", "R@K", "hit rate@K", "AP@K", "RR", "ERR@K", "NDCG@K")

__all__ += [
    "CONVENTION_METRICS",
    "EMPTY_QUERY",
    "GAINS",
    "TIE_MODES",
    "graded_gain",
    "relevant_at_level",
    "retrieval_curve",
    "retrieval_means",
    "retrieval_per_query",
    "retrieval_query_steps",
    "tie_break_order",
]


def _check_choice(value, allowed: tuple[str, ...], name: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise MetricInputError(
            f"{name} must be one of {', '.join(repr(a) for a in allowed)}; got {value!r}."
        )
    return value


def _check_level(level) -> float:
    bad = f"level must be a number > 0 (the lowest grade that counts as relevant); got {level!r}."
    if isinstance(level, bool) or not isinstance(level, Real):
        raise MetricInputError(bad)
    lv = float(level)
    if not np.isfinite(lv) or lv <= 0:
        raise MetricInputError(bad)
    return lv


def relevant_at_level(y_true, *, level=1) -> np.ndarray:
    """0/1 relevance: 1 where the grade is at least ``level`` (trec_eval ``-l``, ranx ``rel_lvl``).

    With the default ``level=1`` and integer grades this is ``y_true > 0``,
    the contract's "relevant".

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    level : float, default 1
        The lowest grade that counts as relevant, ``> 0``.

    Returns
    -------
    ndarray of float, shape (n_queries, n_items)

    Examples
    --------
    >>> relevant_at_level([[0, 1, 2, 3]], level=2).tolist()
    [[0.0, 0.0, 1.0, 1.0]]
    """
    yt = as_2d(y_true, "y_true")
    check_nonnegative(yt, "y_true")
    return (yt >= _check_level(level)).astype(np.float64)


def graded_gain(y_true, *, gain="linear") -> np.ndarray:
    """The DCG gain of each grade: ``g`` (linear, Jarvelin & Kekalainen, trec_eval,
    scikit-learn) or ``2**g - 1`` (exponential, Burges et al.).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    gain : {"linear", "exponential"}, default "linear"

    Returns
    -------
    ndarray of float, shape (n_queries, n_items)

    Examples
    --------
    >>> graded_gain([[0, 1, 3]], gain="exponential").tolist()
    [[0.0, 1.0, 7.0]]
    """
    yt = as_2d(y_true, "y_true")
    check_nonnegative(yt, "y_true")
    if _check_choice(gain, GAINS, "gain") == "linear":
        return yt.astype(np.float64, copy=True)
    return np.exp2(yt) - 1.0


def tie_break_order(y_true, y_score, *, ties="column") -> np.ndarray:
    """The ranking of every query under a deterministic tie policy.

    ``"column"``: tied items in column order, lower column first (the
    contract's rule; trec_eval breaks ties by document id, so a matrix whose
    columns follow trec_eval's order ranks as trec_eval does).
    ``"optimistic"``: among tied items the highest grade first;
    ``"pessimistic"``: the lowest grade first (column order among equal
    grades in both). The optimistic and pessimistic values bracket every
    other tie policy.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores.
    ties : {"column", "optimistic", "pessimistic"}, default "column"

    Returns
    -------
    ndarray of int, shape (n_queries, n_items)
        Column indices, first ranked first.

    Examples
    --------
    >>> tie_break_order([[0, 1, 2]], [[0.5, 0.5, 0.5]], ties="optimistic").tolist()
    [[2, 1, 0]]
    >>> tie_break_order([[0, 1, 2]], [[0.5, 0.5, 0.5]]).tolist()
    [[0, 1, 2]]
    """
    yt, ys = _check_inputs(y_true, y_score)
    ties = _check_choice(ties, ("column", "optimistic", "pessimistic"), "ties")
    if ties == "column":
        return top_k_order(ys)
    by_grade = np.argsort(-yt if ties == "optimistic" else yt, axis=1, kind="stable")
    then = np.argsort(-np.take_along_axis(ys, by_grade, axis=1), axis=1, kind="stable")
    return np.take_along_axis(by_grade, then, axis=1)


def _discounts(m: int) -> np.ndarray:
    return 1.0 / np.log2(np.arange(2, m + 2, dtype=np.float64))


def _position_terms(yt, ys, *, level, gain, max_grade, ties) -> dict:
    """Per-position terms of every metric, in ranked order (n_queries, n_items).

    Deterministic tie policies rank once and use 0/1 relevance; under
    ``"tie-averaged"`` every term is its expectation over the orders of each
    tie group (exact for P, R, hit rate, AP's numerator, RR and DCG; ERR uses
    each position's expected stop probability, an approximation inside a
    tie group).
    """
    n, m = yt.shape
    lv = _check_level(level)
    mg = _check_max_grade(max_grade, yt)
    gains = graded_gain(yt, gain=gain)
    p = np.arange(1, m + 1, dtype=np.float64)
    rel_all = yt >= lv
    n_rel = np.count_nonzero(rel_all, axis=1).astype(np.float64)
    stop_all = np.zeros_like(yt) if mg == 0.0 else _stop_probability(yt, mg)
    ideal = -np.sort(-gains, axis=1) * _discounts(m)
    if ties != "tie-averaged":
        order = tie_break_order(yt, ys, ties=ties)
        rel = np.take_along_axis(rel_all, order, axis=1).astype(np.float64)
        hits = np.cumsum(rel, axis=1)
        ap_num = rel * hits / p
        first = rel.astype(bool) & (hits == 1)
        first_prob = first.astype(np.float64)
        stop = np.take_along_axis(stop_all, order, axis=1)
        mean_gain = np.take_along_axis(gains, order, axis=1)
    else:
        order, sorted_scores = descending_order(ys, stable=True)
        lo, hi = tie_bounds(sorted_scores)
        size = (hi - lo + 1).astype(np.float64)
        j = np.arange(m)[None, :] - lo
        rel_sorted = np.take_along_axis(rel_all, order, axis=1).astype(np.float64)
        r = block_sums(rel_sorted, lo, hi)
        excl = np.cumsum(rel_sorted, axis=1) - rel_sorted
        before = np.take_along_axis(excl, lo, axis=1)  # relevant items in earlier groups
        rel = r / size
        pair = _safe_divide(r * (r - 1), size * (size - 1))
        ap_num = (rel * (1.0 + before) + j * pair) / p
        # RR: the first group holding a relevant item; survival S_j of its first j slots
        in_first = (r > 0) & (before == 0)
        factor = np.where(in_first, (size - r - j) / (size - j), 1.0)
        alive = j <= size - r
        logs = np.log(np.where(alive & (factor > 0), factor, 1.0))
        surv = np.where(alive, np.exp(np.cumsum(logs, axis=1) - logs), 0.0)
        first_prob = np.where(in_first, surv * r / (size - j), 0.0)
        hits = np.cumsum(rel, axis=1)
        stop = block_sums(np.take_along_axis(stop_all, order, axis=1), lo, hi) / size
        mean_gain = block_sums(np.take_along_axis(gains, order, axis=1), lo, hi) / size
    still = np.ones_like(stop)
    if m > 1:
        np.cumprod(1.0 - stop[:, :-1], axis=1, out=still[:, 1:])
    return {
        "order": order,
        "rel": rel,
        "hits": hits,
        "ap_num": ap_num,
        "first_prob": first_prob,
        "stop": stop,
        "still": still,
        "err": stop * still / p,
        "gain": mean_gain,
        "dcg": mean_gain * _discounts(m),
        "ideal": ideal,
        "n_rel": n_rel,
        "positions": p,
    }


def _check_conventions(k, denominator, level, gain, ties, max_grade, yt):
    k = check_k(k)
    _check_denominator(denominator)
    _check_level(level)
    _check_choice(gain, GAINS, "gain")
    _check_choice(ties, TIE_MODES, "ties")
    _check_max_grade(max_grade, yt)
    return k


def _ap_denominator(denominator, n_rel, k, hits_k):
    if denominator == "min_m_k":
        return np.minimum(n_rel, k)
    if denominator == "relevant":
        return n_rel
    if denominator == "k":
        return np.zeros_like(n_rel) + k
    return hits_k


def _at_cutoffs(t: dict, ks: np.ndarray, denominator: str) -> dict:
    """Every metric at each cut-off in ``ks`` (shape (n_queries, len(ks)))."""
    m = t["rel"].shape[1]
    idx = np.minimum(ks, m) - 1

    def upto(name):
        return np.cumsum(t[name], axis=1)[:, idx]

    kk = ks.astype(np.float64)[None, :]
    hits = upto("rel")
    n_rel = t["n_rel"][:, None]
    first_cum = upto("first_prob")
    rr = np.cumsum(t["first_prob"] / t["positions"], axis=1)[:, -1]
    ideal = upto("ideal")
    return {
        "P@K": hits / kk,
        "R@K": _safe_divide(hits, n_rel),
        "hit rate@K": first_cum,
        "AP@K": _safe_divide(upto("ap_num"), _ap_denominator(denominator, n_rel, kk, hits)),
        "RR": np.broadcast_to(rr[:, None], hits.shape),
        "RR@K": np.cumsum(t["first_prob"] / t["positions"], axis=1)[:, idx],
        "ERR@K": upto("err"),
        "NDCG@K": np.minimum(_safe_divide(upto("dcg"), ideal), 1.0),
    }


def retrieval_per_query(
    y_true,
    y_score,
    *,
    k,
    denominator="min_m_k",
    level=1,
    gain="linear",
    max_grade=None,
    ties="column",
) -> pd.DataFrame:
    """Every Top-K metric of every query under one set of conventions.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores.
    k : int
        Cut-off, ``>= 1``.
    denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        AP@K's denominator (see :func:`average_precision_at_k`). Under
        ``ties="tie-averaged"``, ``"hits"`` divides the expected sum by the
        expected number of hits.
    level : float, default 1
        The lowest grade that counts as relevant for P, R, hit rate, AP and
        RR (:func:`relevant_at_level`); ERR and NDCG use the grades.
    gain : {"linear", "exponential"}, default "linear"
        NDCG's gain (:func:`graded_gain`); ERR always uses Chapelle's
        ``(2^g - 1) / 2^max_grade``.
    max_grade : float or None, default None
        ERR's top grade; None takes the largest grade in ``y_true``.
    ties : {"column", "tie-averaged", "optimistic", "pessimistic"}, default "column"
        ``"column"`` is the contract's rule (lower column first) and gives
        exactly :func:`precision_at_k_per_sample`, ... and NDCG with
        ``ignore_ties``-free strict order; ``"optimistic"``/``"pessimistic"``
        rank tied items best/worst grade first (:func:`tie_break_order`);
        ``"tie-averaged"`` gives each metric's expected value over the orders
        of every tie group (exact for P@K, R@K, hit rate, AP@K with a
        denominator other than ``"hits"``, RR and NDCG, which then equals
        :func:`metrics.dcg.ndcg_score`'s tie averaging; for ERR the cascade
        of each position's expected stop probability, an approximation).

    Returns
    -------
    pandas.DataFrame
        One row per query with the columns ``P@K``, ``R@K``, ``hit rate@K``,
        ``AP@K``, ``RR`` (reciprocal rank over the whole ranking, no cut),
        ``ERR@K``, ``NDCG@K`` and ``relevant`` (the query's number of
        relevant items at ``level``).

    Examples
    --------
    >>> t = retrieval_per_query([[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]], [[5, 4, 3, 2, 1]] * 2, k=5)
    >>> t["AP@K"].round(4).tolist(), t["RR"].tolist()
    ([0.7556, 0.5], [1.0, 0.5])
    >>> retrieval_per_query([[0, 1]], [[1, 1]], k=1, ties="tie-averaged")["P@K"].tolist()
    [0.5]
    """
    yt, ys = _check_inputs(y_true, y_score)
    k = _check_conventions(k, denominator, level, gain, ties, max_grade, yt)
    t = _position_terms(yt, ys, level=level, gain=gain, max_grade=max_grade, ties=ties)
    at = _at_cutoffs(t, np.array([k]), denominator)
    out = {name: at[name][:, 0] for name in CONVENTION_METRICS}
    out["relevant"] = t["n_rel"].astype(np.int64)
    return pd.DataFrame(out)


def retrieval_means(per_query: pd.DataFrame, *, empty="zero") -> pd.Series:
    """The mean of every metric over queries; ``empty`` says what a query
    with no relevant item does.

    Parameters
    ----------
    per_query : pandas.DataFrame
        The output of :func:`retrieval_per_query` (or of a curve's rows).
    empty : {"zero", "drop"}, default "zero"
        ``"zero"``: such a query scores 0 and counts in the mean (the
        contract, trec_eval for a judged query, torchmetrics' default);
        ``"drop"``: it is left out of every mean (as a query without
        judgments is left out by trec_eval and ranx). With every query
        empty, ``"drop"`` gives 0.

    Returns
    -------
    pandas.Series
        One value per metric column (``relevant`` excluded).

    Examples
    --------
    >>> t = retrieval_per_query([[1, 0], [0, 0]], [[2, 1], [2, 1]], k=1)
    >>> float(retrieval_means(t)["P@K"]), float(retrieval_means(t, empty="drop")["P@K"])
    (0.5, 1.0)
    """
    empty = _check_choice(empty, EMPTY_QUERY, "empty")
    values = per_query.drop(columns=["relevant"])
    if empty == "drop":
        values = values[per_query["relevant"].to_numpy() > 0]
        if values.empty:
            return pd.Series(0.0, index=values.columns)
    return values.mean()


def retrieval_curve(
    y_true,
    y_score,
    *,
    k_max,
    denominator="min_m_k",
    level=1,
    gain="linear",
    max_grade=None,
    ties="column",
    empty="zero",
) -> pd.DataFrame:
    """Mean P@K, R@K, hit rate@K, MAP@K, MRR@K, ERR@K and NDCG@K for K = 1 .. k_max.

    One ranking of the matrix and cumulative sums over positions (no loop
    over K or over queries). Options as :func:`retrieval_per_query` and
    :func:`retrieval_means`.

    Returns
    -------
    pandas.DataFrame
        Columns ``K``, ``P@K``, ``R@K``, ``hit rate@K``, ``MAP@K``,
        ``MRR@K`` (the first relevant item counts only inside the top K),
        ``ERR@K`` and ``NDCG@K``; row ``K`` equals the means of
        :func:`retrieval_per_query` at that ``k``.

    Examples
    --------
    >>> c = retrieval_curve([[1, 0, 1, 0, 1]], [[5, 4, 3, 2, 1]], k_max=5)
    >>> c["MAP@K"].round(4).tolist()
    [1.0, 0.5, 0.5556, 0.5556, 0.7556]
    """
    yt, ys = _check_inputs(y_true, y_score)
    k_max = _check_conventions(k_max, denominator, level, gain, ties, max_grade, yt)
    _check_choice(empty, EMPTY_QUERY, "empty")
    t = _position_terms(yt, ys, level=level, gain=gain, max_grade=max_grade, ties=ties)
    ks = np.arange(1, k_max + 1)
    at = _at_cutoffs(t, ks, denominator)
    keep = t["n_rel"] > 0 if empty == "drop" else np.ones(yt.shape[0], dtype=bool)
    names = {
        "P@K": "P@K",
        "R@K": "R@K",
        "hit rate@K": "hit rate@K",
        "AP@K": "MAP@K",
        "RR@K": "MRR@K",
        "ERR@K": "ERR@K",
        "NDCG@K": "NDCG@K",
    }
    out = {"K": ks}
    for src, dst in names.items():
        out[dst] = at[src][keep].mean(axis=0) if keep.any() else np.zeros(k_max)
    return pd.DataFrame(out)


def retrieval_query_steps(
    y_true,
    y_score,
    query,
    *,
    k,
    denominator="min_m_k",
    level=1,
    gain="linear",
    max_grade=None,
    ties="column",
) -> pd.DataFrame:
    """One query's ranking, position by position, with each metric's contribution.

    Computed on the whole matrix (so ``max_grade=None`` is the matrix's
    largest grade, as in :func:`retrieval_per_query`), then row ``query``.
    Summing a contribution column gives that query's value in
    :func:`retrieval_per_query`: ``ap_term`` (AP@K), ``rr_term`` (RR),
    ``err_term`` (ERR@K), ``dcg_term`` (DCG@K; over ``ideal_dcg`` it is
    NDCG@K); each is 0 past ``k`` (``rr_term`` is not cut).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_queries, n_items)
    query : int
        Row index of the query.
    k, denominator, level, gain, max_grade, ties
        As :func:`retrieval_per_query`.

    Returns
    -------
    pandas.DataFrame
        Columns ``position``, ``item`` (column index), ``score``, ``grade``,
        ``relevant`` (1/0, or the probability under ``"tie-averaged"``),
        ``tie_group`` (0-based run of equal scores), ``tie_size``,
        ``in_top_k``, ``hits_so_far``, ``precision`` (hits so far /
        position), ``ap_term``, ``ap_running``, ``first_prob`` (probability
        that this is the first relevant item), ``rr_term``, ``err_stop_prob``,
        ``err_still_looking``, ``err_term``, ``err_running``, ``gain`` (tie
        group mean under ``"tie-averaged"``), ``discount``, ``dcg_term``,
        ``dcg_running`` and ``ideal_dcg`` (the same in every row).

    Examples
    --------
    >>> s = retrieval_query_steps([[1, 0, 1, 0, 1]], [[5, 4, 3, 2, 1]], 0, k=5)
    >>> s["ap_term"].round(4).tolist(), round(float(s["ap_term"].sum()), 4)
    ([0.3333, 0.0, 0.2222, 0.0, 0.2], 0.7556)
    """
    yt, ys = _check_inputs(y_true, y_score)
    k = _check_conventions(k, denominator, level, gain, ties, max_grade, yt)
    if isinstance(query, bool) or not isinstance(query, (int, np.integer)):
        raise MetricInputError(f"query must be a row index; got {query!r}.")
    if not 0 <= query < yt.shape[0]:
        raise MetricInputError(f"query must be in 0 .. {yt.shape[0] - 1}; got {query}.")
    q = int(query)
    t = _position_terms(
        yt[q : q + 1],
        ys[q : q + 1],
        level=level,
        gain=gain,
        max_grade=_check_max_grade(max_grade, yt),
        ties=ties,
    )
    m = yt.shape[1]
    p = t["positions"]
    in_k = p <= k
    order = t["order"][0]
    score = ys[q, order]
    change = np.concatenate(([True], score[1:] != score[:-1]))
    group = np.cumsum(change) - 1
    hits_k = t["hits"][0, min(k, m) - 1]
    den = float(_ap_denominator(denominator, t["n_rel"], k, np.array([hits_k]))[0])
    ap_term = np.where(in_k, t["ap_num"][0], 0.0) / den if den else np.zeros(m)
    err_term = np.where(in_k, t["err"][0], 0.0)
    dcg_term = np.where(in_k, t["dcg"][0], 0.0)
    return pd.DataFrame(
        {
            "position": p.astype(np.int64),
            "item": order.astype(np.int64),
            "score": score,
            "grade": yt[q, order],
            "relevant": t["rel"][0],
            "tie_group": group.astype(np.int64),
            "tie_size": np.bincount(group)[group].astype(np.int64),
            "in_top_k": in_k,
            "hits_so_far": t["hits"][0],
            "precision": t["hits"][0] / p,
            "ap_term": ap_term,
            "ap_running": np.cumsum(ap_term),
            "first_prob": t["first_prob"][0],
            "rr_term": t["first_prob"][0] / p,
            "err_stop_prob": t["stop"][0],
            "err_still_looking": t["still"][0],
            "err_term": err_term,
            "err_running": np.cumsum(err_term),
            "gain": t["gain"][0],
            "discount": _discounts(m),
            "dcg_term": dcg_term,
            "dcg_running": np.cumsum(dcg_term),
            "ideal_dcg": np.full(m, float(t["ideal"][0, : min(k, m)].sum())),
        }
    )
