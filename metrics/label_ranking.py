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
float64 (:func:`_binary_mask`); the refusal message is the shared one of
:func:`metrics._validation.check_binary`.
"""

from __future__ import annotations

import numpy as np

from metrics._averages import weighted_mean
from metrics._ranks import (
    apply_by_row_chunks,
)
from metrics._true_label_ranks import precision_sums, true_label_ranks
from metrics._validation import (
    as_2d,
    check_binary,
    check_same_shape,
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
def _check_matrices(
    y_true, y_score, *, min_columns: int, as_mask: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """0/1 ``y_true`` and finite ``y_score``, 2-D, same shape.

    ``y_true`` comes back as a bool mask, or with ``as_mask=False`` possibly
    as the checked 0/1 integer matrix itself: the kernels turn each block of
    rows into a mask (cheaper in cache than one pass over a big matrix).
    """
    yt = _label_matrix(y_true, min_columns)
    ys = _score_matrix(y_score)
    check_same_shape(yt, ys, "y_true", "y_score")
    if not as_mask and yt.dtype.kind in "iu":
        _check_integer_labels(yt, "y_true")
        return yt, ys
    return _binary_mask(yt, "y_true"), ys


def _check_lazily(y_true, y_score, *, min_columns: int):
    """Like ``_check_matrices(..., as_mask=False)``, the value checks left to the kernels.

    Returns ``(yt, ys, verify)``. For a 0/1 integer ``y_true`` and a
    float64 ``y_score`` of the same shape, the two whole-matrix value checks
    (labels in {0, 1}, finite scores) are not run here: the kernels call
    ``verify(yt_rows, ys_rows)`` on each block of rows while it is in cache,
    and a block failing them re-runs the full :func:`_check_matrices`, which
    raises exactly the error (and message) it raised up front. Other inputs
    are checked at once (``verify`` is None).
    """
    yt = _label_matrix(y_true, min_columns)
    if not (
        yt.dtype.kind in "iu"
        and isinstance(y_score, np.ndarray)
        and y_score.dtype == np.float64
        and y_score.ndim == 2
        and y_score.size > 0
        and y_score.shape == yt.shape
    ):
        yt, ys = _check_matrices(y_true, y_score, min_columns=min_columns, as_mask=False)
        return yt, ys, None
    unsigned = np.dtype(f"u{yt.dtype.itemsize}")

    def verify(yt_rows: np.ndarray, ys_rows: np.ndarray) -> None:
        with np.errstate(over="ignore", invalid="ignore"):
            total = np.add.reduce(ys_rows, axis=None)
        if yt_rows.view(unsigned).max() > 1 or not np.isfinite(total):
            # raises as the up-front check would (an overflowing sum passes)
            _check_matrices(y_true, y_score, min_columns=min_columns)

    return yt, y_score, verify


def _score_matrix(y_score) -> np.ndarray:
    """``y_score`` as a finite float64 matrix (:func:`metrics._validation.as_2d`).

    A 2-D non-empty float64 ndarray is checked with one sum (NaN and inf make
    it non-finite) instead of a full ``isfinite`` mask; a non-finite sum (also
    possible by overflow) falls back to the full check and its message.
    """
    if (
        isinstance(y_score, np.ndarray)
        and y_score.dtype == np.float64
        and y_score.ndim == 2
        and y_score.size > 0
    ):
        with np.errstate(over="ignore", invalid="ignore"):
            total = np.add.reduce(y_score, axis=None)
        if np.isfinite(total):
            return y_score
    return as_2d(y_score, "y_score")


def _label_matrix(y_true, min_columns: int) -> np.ndarray:
    """``y_true`` as a 2-D array; bool/integer arrays are kept as they are.

    Converting a large integer label matrix to float64 (as ``as_2d`` does)
    costs more than the whole coverage computation, so a 2-D non-empty
    bool/integer ndarray skips it (it cannot hold NaN or inf); everything
    else goes through :func:`metrics._validation.as_2d`.
    """
    if (
        isinstance(y_true, np.ndarray)
        and y_true.dtype.kind in "biu"
        and y_true.ndim == 2
        and y_true.size > 0
        and y_true.shape[1] >= min_columns
    ):
        return y_true
    return as_2d(y_true, "y_true", min_columns=min_columns)


def _binary_mask(y: np.ndarray, name: str) -> np.ndarray:
    """Refuse labels other than 0/1 (naming the first bad element); True where 1.

    Integer input is checked with a single ``max`` of its unsigned view (0
    and 1 are the only values whose unsigned view is <= 1); the message comes
    from :func:`metrics._validation.check_binary`.
    """
    kind = y.dtype.kind
    if kind == "b":
        return y
    if kind in "iu":
        _check_integer_labels(y, name)
        return y != 0
    check_binary(y, name)
    return y != 0


def _check_integer_labels(y: np.ndarray, name: str) -> None:
    """Refuse an integer matrix holding anything but 0 and 1, by one ``max``."""
    unsigned = y.view(np.dtype(f"u{y.dtype.itemsize}")) if y.dtype.kind == "i" else y
    if unsigned.max() > 1:
        check_binary(y, name)  # raises, naming the first bad element


# ---------------------------------------------------------------------------
# vectorized kernels (validated input: a bool mask of true labels and scores)
# ---------------------------------------------------------------------------
def _coverage(mask: np.ndarray, ys: np.ndarray, verify=None) -> np.ndarray:
    if verify is None:
        return apply_by_row_chunks(_coverage_rows, mask, ys)

    def rows(mask_rows, ys_rows):
        verify(mask_rows, ys_rows)
        return _coverage_rows(mask_rows, ys_rows)

    return apply_by_row_chunks(rows, mask, ys)


def _coverage_rows(mask: np.ndarray, ys: np.ndarray) -> np.ndarray:
    if mask.dtype != bool:  # a checked 0/1 integer block
        mask = mask != 0
    # lowest score of a true label (+inf without one), then count the scores >= it
    lowest = np.where(mask, ys, np.inf).min(axis=1)
    at_or_above = (ys >= lowest[:, None]).view(np.uint8)
    # count_nonzero, cheaper; in the narrowest type that holds n_labels (uint8: 2x faster)
    count_type = np.min_scalar_type(ys.shape[1])
    return np.add.reduce(at_or_above, axis=1, dtype=count_type).astype(np.intp)


#: At most this many distinct scores (and at most one per label) for the counted path.
_MAX_CODES = 32
#: Entries of the strided sample whose distinct values are the candidate codes.
_CODE_SAMPLE = 2048


def _score_values(ys: np.ndarray) -> np.ndarray | None:
    """Candidate distinct scores of ``ys``, from a small strided sample; None if too many.

    Only candidates: :func:`_code_counts` verifies, block by block, that every
    score is one of them (a block holding another value is sorted instead).
    """
    n, m = ys.shape
    size = n * m
    idx = np.linspace(0, size - 1, min(size, _CODE_SAMPLE)).astype(np.intp)
    values = np.unique(ys.flat[idx])
    return values if values.shape[0] <= min(_MAX_CODES, m) else None


def _code_counts(mask: np.ndarray, ys: np.ndarray, values: np.ndarray):
    """Per row, the true and false labels at each distinct score, without sorting.

    ``code = |{v in values[1:] : v <= s}|`` by one comparison per candidate
    value (a handful), verified exact (``values[code] == s`` everywhere);
    then one ``np.bincount`` of ``(row, code, is_true)``.

    Returns
    -------
    (pos, neg) : ndarray of int, shape (n_rows, n_values), or None
        Counts by ascending score; None when some score is not in ``values``.
    """
    n, k = ys.shape[0], values.shape[0]
    key = _affine_codes(ys, values)
    if key is None:  # values not evenly spaced: count the values at or below each score
        code = np.zeros(ys.shape, dtype=np.uint8)
        for v in values[1:]:  # a handful of distinct values (<= _MAX_CODES)
            code += ys >= v
        key = code.astype(np.intp)
    if not (values.take(key, mode="clip") == ys).all():  # a code out of range is wrong
        return None
    key <<= 1
    key += mask
    key += np.arange(0, 2 * k * n, 2 * k)[:, None]
    hist = np.bincount(key.ravel(), minlength=2 * k * n).reshape(n, k, 2)
    return hist[:, :, 1], hist[:, :, 0]


def _affine_codes(ys: np.ndarray, values: np.ndarray) -> np.ndarray | None:
    """``rint((ys - values[0]) * scale)`` as integers, if it codes ``values`` exactly.

    Evenly spaced values (scores rounded to a grid) get their code by one
    affine map instead of a comparison per value. The map is checked on
    ``values`` themselves with the very same operations, so every score equal
    to one of them gets its exact code; the caller verifies that every score
    is one of them (other scores may get any integer, even out of range).
    None when the map does not code ``values`` as 0, 1, ...
    """
    k = values.shape[0]
    if k < 2:
        return None
    with np.errstate(all="ignore"):
        scale = (k - 1) / (values[-1] - values[0])

        def code_of(x: np.ndarray) -> np.ndarray:
            c = x - values[0]
            c *= scale
            return np.rint(c, out=c)

        if not np.isfinite(scale) or not np.array_equal(code_of(values), np.arange(k)):
            return None
        return code_of(ys).astype(np.intp)  # out of range (or NaN): any integer


def _at_or_above(counts: np.ndarray) -> np.ndarray:
    """Reverse cumulative sum along the codes: labels scoring at least each value."""
    return np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]


def _lrap_counted(pos: np.ndarray, neg: np.ndarray, m: int) -> np.ndarray:
    # a true label of value c: |L| = true labels >= c, rank = labels >= c
    true_above = _at_or_above(pos)
    rank = true_above + _at_or_above(neg)
    total = (pos * true_above / np.maximum(rank, 1)).sum(axis=1)
    n_true = true_above[:, 0]
    out = np.ones(pos.shape[0], dtype=np.float64)
    ordinary = (n_true > 0) & (n_true < m)
    out[ordinary] = total[ordinary] / n_true[ordinary]
    return out


def _ranking_loss_counted(pos: np.ndarray, neg: np.ndarray, m: int) -> np.ndarray:
    # mis-ordered pairs: each true label of value c against the false labels >= c
    pairs = (pos * _at_or_above(neg)).sum(axis=1)
    n_true = pos.sum(axis=1)
    n_pairs = n_true * (m - n_true)
    out = np.zeros(pos.shape[0], dtype=np.float64)
    ordinary = n_pairs > 0
    out[ordinary] = pairs[ordinary] / n_pairs[ordinary]
    return out


def _kernel(mask, ys, per_block, counted, counted_rows, sorted_rows, verify=None):
    """Run ``counted_rows`` (few distinct scores) or ``sorted_rows`` over row blocks.

    ``counted``: None picks the counted path when a sample of the scores
    holds few distinct values (:func:`_score_values`); True forces it with
    the sample's values (blocks holding other values are still sorted);
    False always sorts. ``verify`` (from :func:`_check_lazily`) checks each
    block first.
    """
    values = None
    if counted is not False:
        values = _score_values(ys)
        if values is None and counted:
            values = np.unique(ys.flat[:_CODE_SAMPLE])

    def rows(mask_rows, ys_rows):
        if verify is not None:
            verify(mask_rows, ys_rows)
        if values is not None:
            counts = _code_counts(mask_rows, ys_rows, values)
            if counts is not None:
                return counted_rows(*counts, ys.shape[1])
        if mask_rows.dtype != bool:  # a checked 0/1 integer block
            mask_rows = mask_rows != 0
        return sorted_rows(mask_rows, ys_rows, per_block=per_block)

    return apply_by_row_chunks(rows, mask, ys)


def _lrap(
    mask: np.ndarray,
    ys: np.ndarray,
    *,
    per_block: bool | None = None,
    counted: bool | None = None,
    verify=None,
) -> np.ndarray:
    return _kernel(mask, ys, per_block, counted, _lrap_counted, _lrap_rows, verify)


def _lrap_rows(mask: np.ndarray, ys: np.ndarray, *, per_block: bool | None) -> np.ndarray:
    total, n_true = precision_sums(mask, ys, per_block=per_block)
    out = np.ones(n_true.shape[0], dtype=np.float64)
    ordinary = (n_true > 0) & (n_true < ys.shape[1])
    out[ordinary] = total[ordinary] / n_true[ordinary]
    return out


def _ranking_loss(
    mask: np.ndarray,
    ys: np.ndarray,
    *,
    per_block: bool | None = None,
    counted: bool | None = None,
    verify=None,
) -> np.ndarray:
    return _kernel(mask, ys, per_block, counted, _ranking_loss_counted, _ranking_loss_rows, verify)


def _ranking_loss_rows(mask: np.ndarray, ys: np.ndarray, *, per_block: bool | None) -> np.ndarray:
    m = ys.shape[1]
    row, count, at_or_above, rank, n_true = true_label_ranks(mask, ys, per_block=per_block)
    # false labels scoring >= a true label: rank_ij - |L_ij|
    wrong = (rank - at_or_above).astype(np.float64)
    if count is not None:
        wrong *= count
    pairs = np.bincount(row, weights=wrong, minlength=n_true.shape[0])
    n_pairs = n_true * (m - n_true)
    out = np.zeros(n_true.shape[0], dtype=np.float64)
    ordinary = n_pairs > 0
    out[ordinary] = pairs[ordinary] / n_pairs[ordinary]
    return out


# ---------------------------------------------------------------------------
# coverage error
# ---------------------------------------------------------------------------
def coverage_per_sample(y_true, y_score) -> np.ndarray:
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

    Returns
    -------
    ndarray of float, shape (n_samples,)

    Examples
    --------
    >>> coverage_per_sample([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]).tolist()
    [2.0, 3.0]
    """
    yt, ys, verify = _check_lazily(y_true, y_score, min_columns=2)
    return _coverage(yt, ys, verify=verify)


def coverage_error(y_true, y_score, *, sample_weight=None) -> float:
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
    """
    yt, ys, verify = _check_lazily(y_true, y_score, min_columns=2)
    values = _coverage(yt, ys, verify=verify)  # checks y_true and y_score block by block
    return weighted_mean(values, check_sample_weight(sample_weight, yt.shape[0]))


# ---------------------------------------------------------------------------
# label ranking average precision
# ---------------------------------------------------------------------------
def lrap_per_sample(y_true, y_score) -> np.ndarray:
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
    yt, ys, verify = _check_lazily(y_true, y_score, min_columns=1)
    return _lrap(yt, ys, verify=verify)


def label_ranking_average_precision_score(y_true, y_score, *, sample_weight=None) -> float:
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
    """
    yt, ys, verify = _check_lazily(y_true, y_score, min_columns=1)
    values = _lrap(yt, ys, verify=verify)  # checks y_true and y_score block by block
    return weighted_mean(values, check_sample_weight(sample_weight, yt.shape[0]))


# ---------------------------------------------------------------------------
# ranking loss
# ---------------------------------------------------------------------------
def ranking_loss_per_sample(y_true, y_score) -> np.ndarray:
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

    Returns
    -------
    ndarray of float, shape (n_samples,)
        Values in [0, 1].

    Examples
    --------
    >>> ranking_loss_per_sample([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]]).tolist()
    [0.5, 1.0]
    """
    yt, ys, verify = _check_lazily(y_true, y_score, min_columns=2)
    return _ranking_loss(yt, ys, verify=verify)


def label_ranking_loss(y_true, y_score, *, sample_weight=None) -> float:
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

    Returns
    -------
    float
        In [0, 1]; 0 is best.

    Examples
    --------
    >>> label_ranking_loss([[1, 0, 0], [0, 0, 1]], [[0.75, 0.5, 1], [1, 0.2, 0.1]])
    0.75
    """
    yt, ys, verify = _check_lazily(y_true, y_score, min_columns=2)
    values = _ranking_loss(yt, ys, verify=verify)  # checks y_true and y_score block by block
    return weighted_mean(values, check_sample_weight(sample_weight, yt.shape[0]))
