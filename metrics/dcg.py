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
  comes first (the 5.0 of scikit-learn's docstring example). scikit-learn
  itself uses numpy's unstable default sort there, whose order of ties
  differs between machines; on tie-free scores both agree;
* ``retrieved`` (a boolean mask shaped like ``y_score``, default all True)
  marks the items a system never retrieved (a judged document missing from
  a TREC run, a padding slot): they add no gain and take no position, and
  still count in the ideal DCG, as trec_eval's ``ndcg`` / ``ndcg_cut_k``;
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

import numpy as np

from metrics._averages import weighted_mean
from metrics._dcg_kernel import (
    check_dcg_inputs,
    check_log_base,
    dcg_values,
    ndcg_values,
)
from metrics._relevance import check_retrieved, retrieved_only
from metrics._validation import (
    MetricInputError,
    check_sample_weight,
)

__all__ = [
    "dcg_per_sample",
    "dcg_score",
    "ndcg_per_sample",
    "ndcg_score",
]


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# kernels (validated input)
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# public API
# ---------------------------------------------------------------------------
def dcg_per_sample(
    y_true, y_score, *, k=None, log_base=2, ignore_ties=False, retrieved=None
) -> np.ndarray:
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
    retrieved : array-like of bool, shape (n_samples, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it adds no gain and takes no
        position, but counts in the ideal DCG. Default: every item retrieved.

    Returns
    -------
    ndarray of float, shape (n_samples,)

    Examples
    --------
    >>> dcg_per_sample([[10, 0, 0, 1, 5], [3, 0, 1, 0, 0]],
    ...                [[0.1, 0.2, 0.3, 4, 70], [0.5, 0.5, 0.5, 0.1, 0]], k=2).round(4).tolist()
    [5.6309, 2.1746]
    """
    yt, ys, k = check_dcg_inputs(y_true, y_score, k)
    base = check_log_base(log_base)
    gt, st = retrieved_only(yt, ys, check_retrieved(retrieved, ys))
    return dcg_values(gt, st, k, base, bool(ignore_ties))


def dcg_score(
    y_true, y_score, *, k=None, log_base=2, sample_weight=None, ignore_ties=False, retrieved=None
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
    retrieved : array-like of bool, shape (n_samples, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it adds no gain and takes no
        position, but counts in the ideal DCG. Default: every item retrieved.

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
    yt, ys, k = check_dcg_inputs(y_true, y_score, k)
    base = check_log_base(log_base)
    w = check_sample_weight(sample_weight, ys.shape[0])
    gt, st = retrieved_only(yt, ys, check_retrieved(retrieved, ys))
    return weighted_mean(dcg_values(gt, st, k, base, bool(ignore_ties)), w)


def _ndcg_inputs(y_true, y_score, k):
    """:func:`check_dcg_inputs` with scikit-learn's ndcg sentences put before our message."""
    try:
        return check_dcg_inputs(y_true, y_score, k)
    except MetricInputError as exc:
        message = str(exc)
        if message.startswith("y_true must be non-negative"):
            message = f"ndcg_score should not be used on negative y_true values. {message}"
        elif message.startswith("y_true needs at least 2 columns"):
            n = np.shape(y_true)[1] if np.ndim(y_true) == 2 else 1
            message = (
                "Computing NDCG is only meaningful when there is more than 1 document. "
                f"Got {n} instead. {message}"
            )
        raise MetricInputError(message) from None


def ndcg_per_sample(y_true, y_score, *, k=None, ignore_ties=False, retrieved=None) -> np.ndarray:
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
    retrieved : array-like of bool, shape (n_samples, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it adds no gain and takes no
        position, but counts in the ideal DCG. Default: every item retrieved.

    Returns
    -------
    ndarray of float, shape (n_samples,)

    Examples
    --------
    >>> ndcg_per_sample([[10, 0, 0, 1, 5], [0, 0, 0, 0, 0]],
    ...                 [[0.1, 0.2, 0.3, 4, 70], [1, 2, 3, 4, 5]]).round(4).tolist()
    [0.6957, 0.0]
    """
    yt, ys, k = _ndcg_inputs(y_true, y_score, k)
    return ndcg_values(yt, ys, k, bool(ignore_ties), retrieved)[1]


def ndcg_score(
    y_true, y_score, *, k=None, sample_weight=None, ignore_ties=False, retrieved=None
) -> float:
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
    retrieved : array-like of bool, shape (n_samples, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it adds no gain and takes no
        position, but counts in the ideal DCG. Default: every item retrieved.

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
    yt, ys, k = _ndcg_inputs(y_true, y_score, k)
    w = check_sample_weight(sample_weight, ys.shape[0])
    return weighted_mean(ndcg_values(yt, ys, k, bool(ignore_ties), retrieved)[1], w)
