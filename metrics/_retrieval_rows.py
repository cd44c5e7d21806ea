"""The Top-K formulas of one block of ranked rows, and every one of them from one ranking.

Each function of :mod:`metrics.retrieval` ranks the scores and applies one
formula below; the ranking state (:mod:`metrics.states._ranking_rows`) needs
all of them for every batch, so :func:`retrieval_block` applies every formula
to one ranking of a block and :func:`retrieval_finish` gives the per-query
values. Same formulas: the values are those of the functions, to the bit.
"""

from __future__ import annotations

import numpy as np

from metrics._ranks import keyed_descending_order
from metrics._relevance import safe_divide, stop_probability
from metrics._true_counts import row_counts


def ranked_relevance(y_true: np.ndarray, y_score: np.ndarray, k: int | None) -> np.ndarray:
    """Relevance of the top ``k`` items of every query, in ranked order.

    The contract's ranking (:func:`metrics._ranks.keyed_descending_order`)
    and one gather of ``y_true``. Used on one block of rows at a time.

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
    >>> ranked_relevance(np.array([[0.0, 2.0, 1.0]]), np.array([[0.5, 0.5, 0.9]]), 2).tolist()
    [[1.0, 0.0]]
    """
    n_items = y_score.shape[1]
    kk = n_items if k is None else min(k, n_items)
    order = keyed_descending_order(y_score, flat=True)[:, :kk]
    return np.take(y_true.ravel(), order)


def relevant_counts(y_true: np.ndarray) -> np.ndarray:
    """M of every query: its items of grade > 0, retrieved or not."""
    return row_counts(y_true > 0)


def hit_counts(ranked: np.ndarray) -> np.ndarray:
    """Relevant items among the ranked positions of every query."""
    return row_counts(ranked > 0)


def precision_sums(ranked: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """AP's numerator (the precision at each relevant position, summed) and the hits."""
    hit = ranked > 0
    hits_so_far = np.cumsum(hit, axis=1)
    positions = np.arange(1, ranked.shape[1] + 1, dtype=np.float64)
    total = np.where(hit, hits_so_far / positions, 0.0).sum(axis=1)
    # a copy: a view would keep the block's running sums alive until the end
    return total, hits_so_far[:, -1].copy()


def average_precision(total, hits_k, n_rel, k: int, denominator: str) -> np.ndarray:
    """AP@K of every query from :func:`precision_sums`, under ``denominator``."""
    if denominator == "k":
        return total / k
    if denominator == "hits":
        den = hits_k
    else:
        den = n_rel
        if denominator == "min_m_k":
            den = np.minimum(den, k)
    return safe_divide(total, den)


def err_cascade(ranked: np.ndarray, max_grade: float) -> np.ndarray:
    """Chapelle's cascade over the ranked grades of every query (``max_grade > 0``)."""
    stop = _stops(ranked, max_grade)
    still = np.ones_like(stop)
    np.cumprod(1.0 - stop[:, :-1], axis=1, out=still[:, 1:])
    still *= stop  # the same products and quotients as (stop * still / positions), in place
    still /= np.arange(1, ranked.shape[1] + 1, dtype=np.float64)
    return still.sum(axis=1)


def _stops(ranked: np.ndarray, max_grade: float) -> np.ndarray:
    """:func:`~metrics._relevance.stop_probability` of the grades; whole grades up to a
    whole top grade read from a table of each grade's (the same floats: ``exp2`` of a whole
    number is exact), not computed each (a block of 6,553 x 20 0/1 grades: 0.2 ms against
    0.7)."""
    top = int(max_grade)
    if top != max_grade or top > 64 or ranked.size == 0:
        return stop_probability(ranked, max_grade)
    whole = ranked.astype(np.intp)
    if not (np.array_equal(whole, ranked) and whole.min() >= 0 and whole.max() <= top):
        return stop_probability(ranked, max_grade)
    return stop_probability(np.arange(top + 1, dtype=np.float64), max_grade).take(whole)


def first_hit_reciprocal(ranked: np.ndarray) -> np.ndarray:
    """1 / the position of the first relevant item among the ranked ones, else 0.

    A row has a hit where its first maximum is one (``hit.any(axis=1)`` took twice
    ``np.argmax``'s time on a block of 6,553 x 20 grades, the gather none)."""
    hit = ranked > 0
    first = np.argmax(hit, axis=1)
    found = hit[np.arange(hit.shape[0]), first]
    return np.where(found, 1.0 / (first + 1.0), 0.0)


def retrieval_block(yt_b, gt_b, st_b, *, k, max_grade: float, descending=None) -> tuple:
    """One block's RR and ERR, and with ``k`` AP's sums, the hits and M.

    ``yt_b`` the grades, ``gt_b`` and ``st_b`` those the ranking sees
    (:func:`metrics._relevance.retrieved_only`); ``k`` None ranks every item;
    ``max_grade`` ERR's top grade; ``descending`` the block's
    :func:`metrics._ranks.keyed_descending_order` (``flat=True``), when the
    caller has it.

    Examples
    --------
    >>> import numpy as np
    >>> y, s = np.array([[1.0, 0.0, 2.0]]), np.array([[0.2, 0.9, 0.5]])
    >>> rows = retrieval_finish(retrieval_block(y, y, s, k=2, max_grade=2.0), 2, "min_m_k")
    >>> rows["precision_at_k"].tolist(), rows["reciprocal_rank"].tolist()
    ([0.5], [0.5])
    """
    if descending is None:
        ranked = ranked_relevance(gt_b, st_b, k)
    else:
        kk = st_b.shape[1] if k is None else min(k, st_b.shape[1])
        ranked = np.take(gt_b.ravel(), descending[:, :kk])
    if max_grade > 0:
        err = err_cascade(ranked, max_grade)
    else:  # every grade is 0: no query can satisfy the user
        err = np.zeros(ranked.shape[0])
    if k is None:
        return first_hit_reciprocal(ranked), err
    total, hits = precision_sums(ranked)
    return first_hit_reciprocal(ranked), err, total, hits, relevant_counts(yt_b)


def retrieval_finish(parts, k: int | None, denominator: str) -> dict[str, np.ndarray]:
    """The per-query values from :func:`retrieval_block`'s parts (concatenated over blocks):
    ``precision_at_k``, ``recall_at_k``, ``hit_rate_at_k``, ``average_precision_at_k``
    (with ``k``), ``reciprocal_rank`` and ``expected_reciprocal_rank``, as the functions of
    :mod:`metrics.retrieval` of those names (``*_per_sample``) give them."""
    rows = {"reciprocal_rank": parts[0], "expected_reciprocal_rank": parts[1]}
    if k is not None:
        total, hits, n_rel = parts[2:]
        rows["precision_at_k"] = hits / k
        rows["recall_at_k"] = safe_divide(hits, n_rel)
        rows["hit_rate_at_k"] = (hits > 0).astype(np.float64)
        rows["average_precision_at_k"] = average_precision(total, hits, n_rel, k, denominator)
    return rows
