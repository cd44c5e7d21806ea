"""Top-K retrieval metrics: P@K, R@K, hit rate, AP@K / MAP@K, RR / MRR and ERR.

Rows are queries and columns candidate items. ``y_true`` holds graded
relevance (``>= 0``; an item is *relevant* when its grade is ``> 0``) and
``y_score`` the finite scores that rank the items of a query, highest first.
Tied scores are broken by column order, lower column first (a stable sort on
descending score, :func:`metrics._ranks.top_k_order`).

Every metric ranks the score matrix once
(:func:`metrics._ranks.keyed_descending_order`: one default sort of int64
keys that carry the column, equal to the stable argsort), gathers the
relevance in ranked order (:func:`metrics._retrieval_rows.ranked_relevance`) and works with
cumulative sums over the positions, never with a Python loop over queries.
The work runs on cache-sized blocks of rows (:func:`by_row_blocks`), which
keeps temporaries in cache and the peak memory to a few blocks; MRR sorts
nothing (it counts the items ahead of the first relevant one). A query with
no relevant item scores 0 under every metric.

Ragged queries and unretrieved documents: every function takes
``retrieved``, a boolean mask shaped like ``y_score`` (default: all True).
An item marked False was never retrieved (a judged relevant document a TREC
run lacks, a padding slot of a query with fewer items): it counts among the
query's relevant items M but never sits in a top K, for any K, as in
trec_eval, where such documents are simply absent from the ranked list. P@K
still divides by K past the retrieved items (trec_eval's ``P_k``).

AP@K conventions (``denominator``) divide the sum of the precisions at the
relevant positions of the top ``k`` by:

``"min_m_k"``
    min(number of relevant items M, k), the common AP@K;
``"relevant"``
    M, as trec_eval's ``map`` / ``map_cut_k``;
``"k"``
    k itself (dividing by the list length, as some worked examples do);
``"hits"``
    the number of relevant items retrieved in the top k.
"""

from __future__ import annotations

import numpy as np

from metrics._relevance import (
    by_row_blocks,
    check_denominator,
    check_max_grade,
    check_ranking_inputs,
    check_retrieved,
    retrieved_only,
    safe_divide,
)
from metrics._retrieval_rows import (
    average_precision,
    err_cascade,
    hit_counts,
    precision_sums,
    ranked_relevance,
    relevant_counts,
)
from metrics._validation import (
    check_k,
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
]


# ---------------------------------------------------------------------------
# validation and the shared ranked relevance
# ---------------------------------------------------------------------------


def _masked_inputs(y_true, y_score, retrieved):
    """Validated ``y_true`` and ``y_score``, and the grades and scores the ranking sees.

    The last two are :func:`metrics._relevance.retrieved_only`'s: equal to
    the first two without a mask, else unretrieved items carry grade 0 and
    rank last. Counts of relevant items read the first.
    """
    yt, ys = check_ranking_inputs(y_true, y_score, int_grades=True)
    gt, st = retrieved_only(yt, ys, check_retrieved(retrieved, ys))
    return yt, ys, gt, st


def _hits_and_relevant(y_true, y_score, k, retrieved) -> tuple[np.ndarray, np.ndarray, int]:
    yt, ys, gt, st = _masked_inputs(y_true, y_score, retrieved)
    k = check_k(k)

    def kernel(yt_b, gt_b, st_b):
        return hit_counts(ranked_relevance(gt_b, st_b, k)), relevant_counts(yt_b)

    hits, n_rel = by_row_blocks(kernel, yt, gt, st)
    return hits.astype(np.float64), n_rel.astype(np.float64), k


# ---------------------------------------------------------------------------
# P@K, R@K, hit rate
# ---------------------------------------------------------------------------
def precision_at_k_per_sample(y_true, y_score, *, k, retrieved=None) -> np.ndarray:
    """Precision at k of every query: relevant items in the top k, divided by k.

    Always divides by ``k``, also when ``k`` exceeds the number of items
    (as trec_eval's ``P_k``).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    hits, _, k = _hits_and_relevant(y_true, y_score, k, retrieved)
    return hits / k


def precision_at_k(y_true, y_score, *, k, retrieved=None) -> float:
    """Mean precision at k over queries (see :func:`precision_at_k_per_sample`).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    return float(precision_at_k_per_sample(y_true, y_score, k=k, retrieved=retrieved).mean())


def recall_at_k_per_sample(y_true, y_score, *, k, retrieved=None) -> np.ndarray:
    """Recall at k of every query: relevant items in the top k over all relevant items.

    A query with no relevant item scores 0.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    hits, n_rel, _ = _hits_and_relevant(y_true, y_score, k, retrieved)
    return safe_divide(hits, n_rel)


def recall_at_k(y_true, y_score, *, k, retrieved=None) -> float:
    """Mean recall at k over queries (see :func:`recall_at_k_per_sample`).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    return float(recall_at_k_per_sample(y_true, y_score, k=k, retrieved=retrieved).mean())


def hit_rate_at_k_per_sample(y_true, y_score, *, k, retrieved=None) -> np.ndarray:
    """1.0 for every query with at least one relevant item in its top k, else 0.0.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    hits, _, _ = _hits_and_relevant(y_true, y_score, k, retrieved)
    return (hits > 0).astype(np.float64)


def hit_rate_at_k(y_true, y_score, *, k, retrieved=None) -> float:
    """Share of queries with at least one relevant item in their top k.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    return float(hit_rate_at_k_per_sample(y_true, y_score, k=k, retrieved=retrieved).mean())


# ---------------------------------------------------------------------------
# AP@K and MAP@K
# ---------------------------------------------------------------------------
def average_precision_at_k(
    y_true, y_score, *, k, denominator="min_m_k", retrieved=None
) -> np.ndarray:
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
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
    k : int
        Cut-off, ``>= 1``.
    denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        ``D``: min(M, k) with M the query's relevant items (the common
        AP@K); M (trec_eval's ``map_cut_k``); ``k`` as given (dividing by
        the list length); or the relevant items
        retrieved in the top ``k``.

    Returns
    -------
    ndarray of shape (n_queries,)

    Examples
    --------
    Relevant items at positions 1, 3 and 5 of the ranking:

    >>> y_true = [[1, 0, 1, 0, 1]]
    >>> y_score = [[5, 4, 3, 2, 1]]
    >>> round(float(average_precision_at_k(y_true, y_score, k=5)[0]), 4)
    0.7556
    >>> round(float(average_precision_at_k(y_true, y_score, k=5, denominator="k")[0]), 4)
    0.4533
    """
    yt, ys, gt, st = _masked_inputs(y_true, y_score, retrieved)
    k = check_k(k)
    denominator = check_denominator(denominator)

    def kernel(yt_b, gt_b, st_b):
        return (*precision_sums(ranked_relevance(gt_b, st_b, k)), relevant_counts(yt_b))

    total, hits_k, n_rel = by_row_blocks(kernel, yt, gt, st)
    return average_precision(total, hits_k, n_rel, k, denominator)


def mean_average_precision_at_k(
    y_true, y_score, *, k, denominator="min_m_k", retrieved=None
) -> float:
    """MAP@K: the mean of :func:`average_precision_at_k` over queries.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
    k : int
        Cut-off, ``>= 1``.
    denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        See :func:`average_precision_at_k`.

    Returns
    -------
    float

    Examples
    --------
    Two queries, relevant at positions 1, 3, 5 (AP 0.7556) and at 2, 4 (AP 0.5):

    >>> y_true = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]]
    >>> y_score = [[5, 4, 3, 2, 1], [5, 4, 3, 2, 1]]
    >>> round(mean_average_precision_at_k(y_true, y_score, k=5), 4)
    0.6278
    """
    ap = average_precision_at_k(y_true, y_score, k=k, denominator=denominator, retrieved=retrieved)
    return float(ap.mean())


# ---------------------------------------------------------------------------
# RR and MRR
# ---------------------------------------------------------------------------
def reciprocal_rank(y_true, y_score, *, k=None, retrieved=None) -> np.ndarray:
    """Reciprocal rank of every query: 1 / position of its first relevant item.

    0 when no relevant item is ranked in the top ``k`` (``k=None``: anywhere).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    _, _, gt, st = _masked_inputs(y_true, y_score, retrieved)
    k = check_k(k, allow_none=True)
    position, found = by_row_blocks(_first_relevant_position, gt, st)
    if k is not None:
        found &= position <= k
    return np.where(found, 1.0 / position, 0.0)


def _first_relevant_position(y_true: np.ndarray, y_score: np.ndarray):
    """1-based rank of each query's first relevant item, without sorting.

    Under the stable descending order the first relevant item is the one
    with the highest score among the relevant, the lowest column among
    those; it is preceded by every item scoring more and by the items of
    equal score in lower columns. Counting them is O(n_items) per query
    and gives the same position as :func:`metrics._retrieval_rows.ranked_relevance`'s order.

    Returns the positions (meaningless where ``found`` is False) and
    ``found``, whether the query has a relevant item at all.
    Run on cache-sized blocks of rows (:func:`by_row_blocks`): the few passes
    over a block then stay in cache. Items ahead are those scoring at least
    a threshold: ``best`` in the columns before the first relevant one, the
    next float above ``best`` from it on (one ``where``, one comparison).
    """
    best_of = np.where(y_true > 0, y_score, -np.inf)
    first_col = np.argmax(best_of, axis=1)[:, None]  # argmax: the first of equal maxima
    best = np.take_along_axis(best_of, first_col, axis=1)
    found = best[:, 0] > -np.inf  # scores are finite
    with np.errstate(over="ignore"):  # above the largest float: inf, which nothing reaches
        after = np.nextafter(best, np.inf)
    threshold = np.where(np.arange(y_score.shape[1]) < first_col, best, after)
    ahead = np.count_nonzero(y_score >= threshold, axis=1)
    return ahead + 1.0, found


def mean_reciprocal_rank(y_true, y_score, *, k=None, retrieved=None) -> float:
    """MRR: the mean of :func:`reciprocal_rank` over queries.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``; relevant means ``> 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    return float(reciprocal_rank(y_true, y_score, k=k, retrieved=retrieved).mean())


# ---------------------------------------------------------------------------
# ERR
# ---------------------------------------------------------------------------


def expected_reciprocal_rank_per_sample(
    y_true, y_score, *, k=None, max_grade=None, retrieved=None
) -> np.ndarray:
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
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    yt, ys, gt, st = _masked_inputs(y_true, y_score, retrieved)
    k = check_k(k, allow_none=True)
    mg = check_max_grade(max_grade, yt)
    if mg == 0.0:  # every grade is 0: no query can satisfy the user
        return np.zeros(yt.shape[0], dtype=np.float64)

    def kernel(gt_b, st_b):
        return (err_cascade(ranked_relevance(gt_b, st_b, k), mg),)

    return by_row_blocks(kernel, gt, st)[0]


def expected_reciprocal_rank(y_true, y_score, *, k=None, max_grade=None, retrieved=None) -> float:
    """Mean expected reciprocal rank over queries (see the per-sample form).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance (the grades ``g``), ``>= 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant
        items but never sits in a top K. Default: every item retrieved.
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
    err = expected_reciprocal_rank_per_sample(
        y_true, y_score, k=k, max_grade=max_grade, retrieved=retrieved
    )
    return float(err.mean())
