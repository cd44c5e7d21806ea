"""Multilabel ranking metrics: coverage error, LRAP and ranking loss.

Rows are samples and columns labels; ``y_true`` is a 0/1 indicator matrix
(any other value is refused, where scikit-learn would quietly treat every
nonzero as true) and ``y_score`` the finite scores that rank the labels of a
sample, highest first. Values equal scikit-learn 1.9.1's:

* the rank of label j is ``rank_ij = |{k : s_ik >= s_ij}|``, so tied labels
  share the *maximal* rank (a tied competitor counts as ranked above);
* coverage is the deepest rank of a true label (0 for a sample with no true
  label, ``n_labels`` when every label is true);
* LRAP averages ``|L_ij| / rank_ij`` over the true labels j of a sample, with
  ``L_ij = {k true : s_ik >= s_ij}``; a sample with no true label or with
  every label true scores 1.0;
* ranking loss is the fraction of (true, false) label pairs ordered wrongly,
  a tie counting as a full error; 0 for a sample with no pair.

``retrieved`` (a boolean mask shaped like ``y_score``, default all True) marks
the items of ragged groups a system never retrieved (a TREC run's missing
judged documents, the padding slots of short query groups), as the DCG and
retrieval functions read it: an unretrieved true label ranks after every
retrieved item (tied with the other unretrieved true labels), an unretrieved
false label is no label at all (it takes no rank and makes no pair).

Coverage, ranking loss and their step tables refuse a single-column matrix
(as scikit-learn does); LRAP accepts it (every sample scores 1.0).

Computation (no Python loop over samples; rows are processed in cache-sized
blocks of rows, :func:`metrics._ranks.apply_by_row_chunks`): coverage needs
no sort (the lowest score of a true label, then one comparison per entry).
LRAP and ranking loss share one unstable ascending sort of the scores
(:func:`metrics._ranks.ascending_flat_order`). A true label whose tie block
starts at ascending position ``a`` has ``rank_ij = n_labels - a`` and
``|L_ij| = |Y_i| - (true labels scoring lower)``; the false labels scoring
at least as high, the mis-ordered pairs of the ranking loss, number
``rank_ij - |L_ij|``. On heavily tied scores these are computed once per tie
block, otherwise once per true label (:mod:`metrics._true_label_ranks`, the
kernel shared with the per-row average precision of :mod:`metrics.curves`).
The step tables that lay the computation out for one sample are in
:mod:`metrics.explain.label_ranking`.

Integer and boolean ``y_true`` arrays are checked without converting them to
float64 (:func:`binary_mask`); the refusal message is the shared one of
:func:`metrics._validation.check_binary`.
"""

from __future__ import annotations

import numpy as np

from metrics._averages import weighted_mean
from metrics._label_ranking_kernel import (
    check_matrices,
    coverage_values,
    kept_pair_loss,
    label_matrix,
    lrap_values,
    masked_scores,
    ranking_loss_values,
)
from metrics._relevance import check_retrieved
from metrics._validation import (
    check_sample_weight,
)

__all__ = [
    "coverage_error",
    "coverage_per_sample",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "lrap_per_sample",
    "ranking_loss_per_sample",
]


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------


def _check_lazily(y_true, y_score, *, min_columns: int):
    """Like ``check_matrices(..., as_mask=False)``, the value checks left to the kernels.

    Returns ``(yt, ys, verify)``. For a 0/1 integer ``y_true`` and a
    float64 ``y_score`` of the same shape, the two whole-matrix value checks
    (labels in {0, 1}, finite scores) are not run here: the kernels call
    ``verify(yt_rows, ys_rows)`` on each block of rows while it is in cache,
    and a block failing them re-runs the full :func:`check_matrices`, which
    raises exactly the error (and message) it raised up front. Other inputs
    are checked at once (``verify`` is None).
    """
    yt = label_matrix(y_true, min_columns)
    if not (
        yt.dtype.kind in "iu"
        and isinstance(y_score, np.ndarray)
        and y_score.dtype == np.float64
        and y_score.ndim == 2
        and y_score.size > 0
        and y_score.shape == yt.shape
    ):
        yt, ys = check_matrices(y_true, y_score, min_columns=min_columns, as_mask=False)
        return yt, ys, None
    unsigned = np.dtype(f"u{yt.dtype.itemsize}")

    def verify(yt_rows: np.ndarray, ys_rows: np.ndarray) -> None:
        with np.errstate(over="ignore", invalid="ignore"):
            total = np.add.reduce(ys_rows, axis=None)
        if yt_rows.view(unsigned).max() > 1 or not np.isfinite(total):
            # raises as the up-front check would (an overflowing sum passes)
            check_matrices(y_true, y_score, min_columns=min_columns)

    return yt, y_score, verify


def _checked(y_true, y_score, retrieved, *, min_columns: int):
    """:func:`_check_lazily`, then the ``retrieved`` mask applied to the scores.

    Returns ``(yt, ys, verify, kept)``: ``kept`` None without a mask (or with one
    that retrieves every item), else the labels each row keeps
    (:func:`metrics._label_ranking_kernel.masked_scores`).
    """
    yt, ys, verify = _check_lazily(y_true, y_score, min_columns=min_columns)
    mask = check_retrieved(retrieved, np.asarray(ys))
    if mask is None or mask.all():
        return yt, ys, verify, None
    if verify is not None:  # the masked scores are a new matrix: check the given one now
        verify(yt, ys)
    scores, kept = masked_scores(yt, ys, mask)
    return yt, scores, None, kept


# ---------------------------------------------------------------------------
# vectorized kernels (validated input: a bool mask of true labels and scores)
# ---------------------------------------------------------------------------


# ---------------------------------------------------------------------------
# coverage error
# ---------------------------------------------------------------------------
def coverage_per_sample(y_true, y_score, *, retrieved=None) -> np.ndarray:
    """Coverage of every sample: the deepest rank of one of its true labels.

    ``coverage_i = max_{j true} rank_ij`` with ``rank_ij = |{k : s_ik >= s_ij}|``
    (ties at the maximal rank): how many of the top-scored labels must be
    predicted to include every true label. 0 for a sample with no true label,
    ``n_labels`` when every label is true.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix, at least 2 labels.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores, higher ranks first.
    retrieved : array-like of bool, shape (n_samples, n_labels), optional
        False marks an item the system did not retrieve: a true one ranks after
        every retrieved item, a false one (a padding slot) is no label at all.
        Default: every item retrieved.

    Returns
    -------
    ndarray of float, shape (n_samples,)

    Examples
    --------
    >>> coverage_per_sample([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]).tolist()
    [2.0, 3.0]
    """
    yt, ys, verify, _ = _checked(y_true, y_score, retrieved, min_columns=2)
    return coverage_values(yt, ys, verify=verify)


def coverage_error(y_true, y_score, *, sample_weight=None, retrieved=None) -> float:
    """Coverage error: mean number of top labels needed to cover every true label.

    As ``sklearn.metrics.coverage_error``: the (``sample_weight``-weighted)
    mean of :func:`coverage_per_sample`. Ties take the maximal rank; a
    sample with no true label counts 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix, at least 2 labels.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum.
    retrieved : array-like of bool, shape (n_samples, n_labels), optional
        False marks an item the system did not retrieve: a true one ranks after
        every retrieved item, a false one (a padding slot) is no label at all.
        Default: every item retrieved.

    Returns
    -------
    float
        Between 0 and ``n_labels``; the best value is the mean number of true
        labels.

    Examples
    --------
    >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    2.5
    >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]],
    ...                sample_weight=[3, 1])
    2.25

    The second row's true label never retrieved: it ranks after both retrieved ones.

    >>> coverage_error([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.9]],
    ...                retrieved=[[True] * 3, [True, True, False]])
    2.5
    """
    yt, ys, verify, _ = _checked(y_true, y_score, retrieved, min_columns=2)
    values = coverage_values(yt, ys, verify=verify)  # checks y_true and y_score block by block
    return weighted_mean(values, check_sample_weight(sample_weight, yt.shape[0]))


# ---------------------------------------------------------------------------
# label ranking average precision
# ---------------------------------------------------------------------------
def lrap_per_sample(y_true, y_score, *, retrieved=None) -> np.ndarray:
    """Label ranking average precision of every sample.

    ``LRAP_i = mean over true labels j of |L_ij| / rank_ij``, where
    ``rank_ij = |{k : s_ik >= s_ij}|`` and ``L_ij = {k true : s_ik >= s_ij}``
    (ties at the maximal rank on both counts). A sample with no true label or
    with every label true scores 1.0, as in scikit-learn; a single-column
    matrix is accepted (every sample scores 1.0).

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores.
    retrieved : array-like of bool, shape (n_samples, n_labels), optional
        False marks an item the system did not retrieve: a true one ranks after
        every retrieved item, a false one (a padding slot) is no label at all.
        Default: every item retrieved.

    Returns
    -------
    ndarray of float, shape (n_samples,)
        Values in (0, 1].

    Examples
    --------
    >>> v = lrap_per_sample([[1, 0, 0], [1, 0, 1], [1, 1, 0]],
    ...                     [[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]])
    >>> v.round(4).tolist()
    [0.5, 0.8333, 1.0]
    """
    yt, ys, verify, _ = _checked(y_true, y_score, retrieved, min_columns=1)
    return lrap_values(yt, ys, verify=verify)


def label_ranking_average_precision_score(
    y_true, y_score, *, sample_weight=None, retrieved=None
) -> float:
    """Label ranking average precision (LRAP).

    As ``sklearn.metrics.label_ranking_average_precision_score``: the
    (``sample_weight``-weighted) mean of :func:`lrap_per_sample`. For each
    true label, the fraction of the labels ranked at or above it that are
    true; ties take the maximal rank.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum.
    retrieved : array-like of bool, shape (n_samples, n_labels), optional
        False marks an item the system did not retrieve: a true one ranks after
        every retrieved item, a false one (a padding slot) is no label at all.
        Default: every item retrieved.

    Returns
    -------
    float
        In (0, 1]; 1 is best.

    Examples
    --------
    >>> y_true = [[1, 0, 0], [1, 0, 1], [1, 1, 0]]
    >>> y_score = [[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]]
    >>> round(label_ranking_average_precision_score(y_true, y_score), 4)
    0.7778
    >>> label_ranking_average_precision_score([[1, 0, 0]], [[0.5, 0.1, 0.9]],
    ...                                       retrieved=[[True, True, False]])
    1.0
    """
    yt, ys, verify, _ = _checked(y_true, y_score, retrieved, min_columns=1)
    values = lrap_values(yt, ys, verify=verify)  # checks y_true and y_score block by block
    return weighted_mean(values, check_sample_weight(sample_weight, yt.shape[0]))


# ---------------------------------------------------------------------------
# ranking loss
# ---------------------------------------------------------------------------
def ranking_loss_per_sample(y_true, y_score, *, retrieved=None) -> np.ndarray:
    """Ranking loss of every sample.

    The fraction of (true label, false label) pairs with
    ``s_false >= s_true`` (a tie counts as a full error) among the
    ``|Y_i| * (n_labels - |Y_i|)`` pairs; 0 for a sample with no such pair
    (no true label, or every label true).

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix, at least 2 labels.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores.
    retrieved : array-like of bool, shape (n_samples, n_labels), optional
        False marks an item the system did not retrieve: a true one ranks after
        every retrieved item, a false one (a padding slot) is no label at all.
        Default: every item retrieved.

    Returns
    -------
    ndarray of float, shape (n_samples,)
        Values in [0, 1].

    Examples
    --------
    >>> ranking_loss_per_sample([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]).tolist()
    [0.5, 1.0]

    A padding slot (the second row's last) makes no pair:

    >>> ranking_loss_per_sample([[1, 0, 0], [1, 0, 0]], [[0.75, 0.5, 1], [0.1, 0.2, 0.0]],
    ...                         retrieved=[[True] * 3, [True, True, False]]).tolist()
    [0.5, 1.0]
    """
    yt, ys, verify, kept = _checked(y_true, y_score, retrieved, min_columns=2)
    values = ranking_loss_values(yt, ys, verify=verify)
    return values if kept is None else kept_pair_loss(values, yt, kept)


def label_ranking_loss(y_true, y_score, *, sample_weight=None, retrieved=None) -> float:
    """Ranking loss: the mean fraction of wrongly ordered (true, false) label pairs.

    As ``sklearn.metrics.label_ranking_loss``: the (``sample_weight``-
    weighted) mean of :func:`ranking_loss_per_sample`. A false label scoring
    as high as a true one (a tie) counts as a full error.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix, at least 2 labels.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum.
    retrieved : array-like of bool, shape (n_samples, n_labels), optional
        False marks an item the system did not retrieve: a true one ranks after
        every retrieved item, a false one (a padding slot) is no label at all.
        Default: every item retrieved.

    Returns
    -------
    float
        In [0, 1]; 0 is best.

    Examples
    --------
    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.75
    """
    yt, ys, verify, kept = _checked(y_true, y_score, retrieved, min_columns=2)
    values = ranking_loss_values(yt, ys, verify=verify)  # checks y_true and y_score block by block
    if kept is not None:
        values = kept_pair_loss(values, yt, kept)
    return weighted_mean(values, check_sample_weight(sample_weight, yt.shape[0]))
