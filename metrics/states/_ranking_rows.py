"""Every per-row value the ranking state sums, each block of rows sorted once.

The top-K metrics read a descending order with ties in column order
(:func:`metrics._ranks.keyed_descending_order`); DCG with ties averaged and
the label ranking metrics read tie blocks only, which that order read
backwards gives (:func:`metrics._ranks.ascending_of_descending`). So one
sort of each block serves them all; each formula is the one the in-memory
function applies (:mod:`metrics._retrieval_rows`, :mod:`metrics._dcg_kernel`,
:mod:`metrics._label_ranking_kernel`).
"""

from __future__ import annotations

import numpy as np

from metrics._dcg_kernel import dcg_values, ndcg_block, position_discounts
from metrics._label_ranking_kernel import label_ranking_block, score_values
from metrics._ranks import apply_by_row_chunks, ascending_of_descending, keyed_descending_order
from metrics._relevance import retrieved_only
from metrics._retrieval_rows import retrieval_block, retrieval_finish

#: The state's name of each mean over queries, and the per-query value it averages.
QUERY_MEANS = {
    "precision_at_k": "precision_at_k",
    "recall_at_k": "recall_at_k",
    "hit_rate_at_k": "hit_rate_at_k",
    "mean_average_precision_at_k": "average_precision_at_k",
    "mean_reciprocal_rank": "reciprocal_rank",
    "expected_reciprocal_rank": "expected_reciprocal_rank",
}
LABEL_RANKING = ("coverage_error", "label_ranking_average_precision_score", "label_ranking_loss")


def per_row_values(yt, ys, mask, *, k, max_grade, denominator, log_base, ignore_ties) -> dict:
    """Each metric's per-row values, keyed by the state's metric names.

    Parameters
    ----------
    yt, ys : ndarray of float64, shape (n_rows, n_labels)
        Validated grades and scores.
    mask : ndarray of bool or None
        The ``retrieved`` mask (the label ranking metrics are then left out).
    k, max_grade, denominator, log_base, ignore_ties
        The state's options (``max_grade`` as ERR uses it).

    Returns
    -------
    dict of str to ndarray of shape (n_rows,)

    Examples
    --------
    >>> import numpy as np
    >>> rows = per_row_values(np.array([[1.0, 0.0, 1.0]]), np.array([[0.9, 0.5, 0.1]]), None,
    ...                       k=2, max_grade=1.0, denominator="min_m_k", log_base=2.0,
    ...                       ignore_ties=False)
    >>> rows["coverage_error"].tolist(), rows["precision_at_k"].tolist()
    ([3.0], [0.5])
    """
    m = ys.shape[1]
    labels = mask is None and bool(((yt == 0) | (yt == 1)).all())
    values = score_values(ys) if labels else None
    discount = position_discounts(m, k, 2.0)

    def block(yt_b, gt_b, st_b):
        descending = keyed_descending_order(st_b, flat=True)
        ascending = ascending_of_descending(descending, st_b)
        parts = [
            *retrieval_block(yt_b, gt_b, st_b, k=k, max_grade=max_grade, descending=descending)
        ]
        if m >= 2:
            dcg = ndcg_block(
                yt_b, gt_b, st_b, discount=discount, top=None, ignore_ties=ignore_ties,
                order=ascending,
            )  # fmt: skip
            parts += [dcg[:, 0], dcg[:, 1]]
        if labels:
            found = label_ranking_block(yt_b == 1, st_b, values=values, order=ascending)
            parts += [found[:, 0], found[:, 1], found[:, 2]]
        return np.column_stack(parts)

    grades, scores = retrieved_only(yt, ys, mask)
    width = (2 if k is None else 5) + 2 * (m >= 2) + 3 * labels
    out = apply_by_row_chunks(block, yt, grades, scores, columns=width).T
    n_query = 2 if k is None else 5
    found = retrieval_finish(tuple(out[:n_query]), k, denominator)
    rows = {name: found[part] for name, part in QUERY_MEANS.items() if part in found}
    if m >= 2:
        rows["dcg_score"] = out[n_query]
        # DCG <= ideal DCG for non-negative gains; clip the last-bit rounding above 1
        rows["ndcg_score"] = np.minimum(out[n_query + 1], 1.0)
        if log_base != 2.0:  # NDCG does not depend on the base, DCG does
            rows["dcg_score"] = dcg_values(grades, scores, k, log_base, ignore_ties)
    if labels:
        rows |= dict(zip(LABEL_RANKING, out[width - 3 :], strict=True))
        if m < 2:  # coverage and ranking loss need two labels (as in memory); LRAP does not
            del rows["coverage_error"], rows["label_ranking_loss"]
    return rows
