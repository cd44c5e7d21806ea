"""The label ranking kernel: checked matrices; coverage, LRAP and ranking loss of every row.

Shared by the label ranking metrics (:mod:`metrics.label_ranking`) and their
explanations (:mod:`metrics.explain.label_ranking`), so both validate and
compute alike.
"""

from __future__ import annotations

import numpy as np

from metrics._ranks import (
    apply_by_row_chunks,
)
from metrics._true_label_ranks import precision_sums, summed_precisions, true_label_ranks
from metrics._validation import (
    as_2d,
    check_binary,
    check_same_shape,
)


def check_matrices(
    y_true, y_score, *, min_columns: int, as_mask: bool = True
) -> tuple[np.ndarray, np.ndarray]:
    """0/1 ``y_true`` and finite ``y_score``, 2-D, same shape.

    ``y_true`` comes back as a bool mask, or with ``as_mask=False`` possibly
    as the checked 0/1 integer matrix itself: the kernels turn each block of
    rows into a mask (cheaper in cache than one pass over a big matrix).
    """
    yt = label_matrix(y_true, min_columns)
    ys = score_matrix(y_score)
    check_same_shape(yt, ys, "y_true", "y_score")
    if not as_mask and yt.dtype.kind in "iu":
        check_integer_labels(yt, "y_true")
        return yt, ys
    return binary_mask(yt, "y_true"), ys


def score_matrix(y_score) -> np.ndarray:
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


def label_matrix(y_true, min_columns: int) -> np.ndarray:
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


def binary_mask(y: np.ndarray, name: str) -> np.ndarray:
    """Refuse labels other than 0/1 (naming the first bad element); True where 1.

    Integer input is checked with a single ``max`` of its unsigned view (0
    and 1 are the only values whose unsigned view is <= 1); the message comes
    from :func:`metrics._validation.check_binary`.
    """
    kind = y.dtype.kind
    if kind == "b":
        return y
    if kind in "iu":
        check_integer_labels(y, name)
        return y != 0
    check_binary(y, name)
    return y != 0


def check_integer_labels(y: np.ndarray, name: str) -> None:
    """Refuse an integer matrix holding anything but 0 and 1, by one ``max``."""
    unsigned = y.view(np.dtype(f"u{y.dtype.itemsize}")) if y.dtype.kind == "i" else y
    if unsigned.max() > 1:
        check_binary(y, name)  # raises, naming the first bad element


def coverage_values(mask: np.ndarray, ys: np.ndarray, verify=None) -> np.ndarray:
    if verify is None:
        return apply_by_row_chunks(coverage_rows, mask, ys)

    def rows(mask_rows, ys_rows):
        verify(mask_rows, ys_rows)
        return coverage_rows(mask_rows, ys_rows)

    return apply_by_row_chunks(rows, mask, ys)


def coverage_rows(mask: np.ndarray, ys: np.ndarray) -> np.ndarray:
    if mask.dtype != bool:  # a checked 0/1 integer block
        mask = mask != 0
    # lowest score of a true label (+inf without one), then count the scores >= it
    lowest = np.where(mask, ys, np.inf).min(axis=1)
    at_or_above = (ys >= lowest[:, None]).view(np.uint8)
    # count_nonzero, cheaper; in the narrowest type that holds n_labels (uint8: 2x faster)
    count_type = np.min_scalar_type(ys.shape[1])
    return np.add.reduce(at_or_above, axis=1, dtype=count_type).astype(np.intp)


#: At most this many distinct scores (and at most one per label) for the counted path.
MAX_CODES = 32


#: Entries of the strided sample whose distinct values are the candidate codes.
CODE_SAMPLE = 2048


def score_values(ys: np.ndarray) -> np.ndarray | None:
    """Candidate distinct scores of ``ys``, from a small strided sample; None if too many.

    Only candidates: :func:`code_counts` verifies, block by block, that every
    score is one of them (a block holding another value is sorted instead).
    """
    n, m = ys.shape
    size = n * m
    idx = np.linspace(0, size - 1, min(size, CODE_SAMPLE)).astype(np.intp)
    values = np.unique(ys.flat[idx])
    return values if values.shape[0] <= min(MAX_CODES, m) else None


def code_counts(mask: np.ndarray, ys: np.ndarray, values: np.ndarray):
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
    key = affine_codes(ys, values)
    if key is None:  # values not evenly spaced: count the values at or below each score
        code = np.zeros(ys.shape, dtype=np.uint8)
        for v in values[1:]:  # a handful of distinct values (<= MAX_CODES)
            code += ys >= v
        key = code.astype(np.intp)
    if not (values.take(key, mode="clip") == ys).all():  # a code out of range is wrong
        return None
    key <<= 1
    key += mask
    key += np.arange(0, 2 * k * n, 2 * k)[:, None]
    hist = np.bincount(key.ravel(), minlength=2 * k * n).reshape(n, k, 2)
    return hist[:, :, 1], hist[:, :, 0]


def affine_codes(ys: np.ndarray, values: np.ndarray) -> np.ndarray | None:
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


def counts_at_or_above(counts: np.ndarray) -> np.ndarray:
    """Reverse cumulative sum along the codes: labels scoring at least each value."""
    return np.cumsum(counts[:, ::-1], axis=1)[:, ::-1]


def lrap_counted(pos: np.ndarray, neg: np.ndarray, m: int) -> np.ndarray:
    # a true label of value c: |L| = true labels >= c, rank = labels >= c
    true_above = counts_at_or_above(pos)
    rank = true_above + counts_at_or_above(neg)
    total = (pos * true_above / np.maximum(rank, 1)).sum(axis=1)
    n_true = true_above[:, 0]
    out = np.ones(pos.shape[0], dtype=np.float64)
    ordinary = (n_true > 0) & (n_true < m)
    out[ordinary] = total[ordinary] / n_true[ordinary]
    return out


def ranking_loss_counted(pos: np.ndarray, neg: np.ndarray, m: int) -> np.ndarray:
    # mis-ordered pairs: each true label of value c against the false labels >= c
    pairs = (pos * counts_at_or_above(neg)).sum(axis=1)
    n_true = pos.sum(axis=1)
    n_pairs = n_true * (m - n_true)
    out = np.zeros(pos.shape[0], dtype=np.float64)
    ordinary = n_pairs > 0
    out[ordinary] = pairs[ordinary] / n_pairs[ordinary]
    return out


def ranking_kernel(mask, ys, per_block, counted, counted_rows, sorted_rows, verify=None):
    """Run ``counted_rows`` (few distinct scores) or ``sorted_rows`` over row blocks.

    ``counted``: None picks the counted path when a sample of the scores
    holds few distinct values (:func:`score_values`); True forces it with
    the sample's values (blocks holding other values are still sorted);
    False always sorts. ``verify`` (from :func:`_check_lazily`) checks each
    block first.
    """
    values = None
    if counted is not False:
        values = score_values(ys)
        if values is None and counted:
            values = np.unique(ys.flat[:CODE_SAMPLE])

    def rows(mask_rows, ys_rows):
        if verify is not None:
            verify(mask_rows, ys_rows)
        if values is not None:
            counts = code_counts(mask_rows, ys_rows, values)
            if counts is not None:
                return counted_rows(*counts, ys.shape[1])
        if mask_rows.dtype != bool:  # a checked 0/1 integer block
            mask_rows = mask_rows != 0
        return sorted_rows(mask_rows, ys_rows, per_block=per_block)

    return apply_by_row_chunks(rows, mask, ys)


def lrap_values(
    mask: np.ndarray,
    ys: np.ndarray,
    *,
    per_block: bool | None = None,
    counted: bool | None = None,
    verify=None,
) -> np.ndarray:
    return ranking_kernel(mask, ys, per_block, counted, lrap_counted, lrap_rows, verify)


def lrap_rows(mask: np.ndarray, ys: np.ndarray, *, per_block: bool | None) -> np.ndarray:
    return _lrap_of(*precision_sums(mask, ys, per_block=per_block), ys.shape[1])


def _lrap_of(total: np.ndarray, n_true: np.ndarray, m: int) -> np.ndarray:
    out = np.ones(n_true.shape[0], dtype=np.float64)
    ordinary = (n_true > 0) & (n_true < m)
    out[ordinary] = total[ordinary] / n_true[ordinary]
    return out


def ranking_loss_values(
    mask: np.ndarray,
    ys: np.ndarray,
    *,
    per_block: bool | None = None,
    counted: bool | None = None,
    verify=None,
) -> np.ndarray:
    return ranking_kernel(
        mask, ys, per_block, counted, ranking_loss_counted, ranking_loss_rows, verify
    )


def ranking_loss_rows(mask: np.ndarray, ys: np.ndarray, *, per_block: bool | None) -> np.ndarray:
    return _loss_of(true_label_ranks(mask, ys, per_block=per_block), ys.shape[1])


def _loss_of(ranks: tuple, m: int) -> np.ndarray:
    row, count, at_or_above, rank, n_true = ranks
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


def label_ranking_block(
    mask_rows: np.ndarray, ys_rows: np.ndarray, *, values: np.ndarray | None, order=None
) -> np.ndarray:
    """Coverage, LRAP and ranking loss of one block of rows, side by side: the values of
    :func:`coverage_values`, :func:`lrap_values` and :func:`ranking_loss_values`, each
    block ranked or counted once (the ranking state needs all three for every batch).

    ``values``: :func:`score_values` of the whole score matrix (the counted
    path when the block's scores are all among them); ``order``: the block's
    :func:`metrics._ranks.ascending_flat_order`, when the caller has it.

    Examples
    --------
    >>> import numpy as np
    >>> out = label_ranking_block(np.array([[True, False, True]]),
    ...                           np.array([[0.9, 0.5, 0.2]]), values=None)
    >>> out.round(4).tolist()
    [[3.0, 0.8333, 0.5]]
    """
    m = ys_rows.shape[1]
    coverage = coverage_rows(mask_rows, ys_rows)
    counts = None if values is None else code_counts(mask_rows, ys_rows, values)
    if counts is not None:
        return np.column_stack(
            (coverage, lrap_counted(*counts, m), ranking_loss_counted(*counts, m))
        )
    ranks = true_label_ranks(mask_rows, ys_rows, per_block=None, order=order)
    lrap = _lrap_of(*summed_precisions(ranks), m)
    return np.column_stack((coverage, lrap, _loss_of(ranks, m)))


# ---------------------------------------------------------------------------
# the retrieved mask of ragged groups (a TREC run, query groups of different sizes)
# ---------------------------------------------------------------------------
def masked_scores(yt: np.ndarray, ys: np.ndarray, mask: np.ndarray) -> tuple[np.ndarray, ...]:
    """Scores that rank as the ``retrieved`` mask says, and the items each row keeps.

    An unretrieved true label (a judged relevant document the run lacks) ranks after
    every retrieved item of the matrix, tied with the other unretrieved true labels, as
    the retrieval and DCG functions place it; an unretrieved false label (a padding
    slot) is no label at all: it scores below those, so that it never counts in a true
    label's rank, and the ranking loss leaves it out of its pairs
    (:func:`kept_pair_loss`). Checked input only (a finite ``ys``).

    Returns ``(scores, kept)``: ``kept`` marks the labels a row still has.

    Examples
    --------
    >>> s, kept = masked_scores(np.array([[1, 0, 1, 0]]), np.array([[0.2, 0.5, 0.9, 0.1]]),
    ...                         np.array([[True, True, False, False]]))
    >>> bool(s[0, 2] < 0.2), bool(s[0, 3] < s[0, 2]), kept.tolist()
    (True, True, [[True, True, True, False]])
    """
    truth = yt != 0
    lowest = float(ys[mask].min()) if mask.any() else 0.0
    below = np.nextafter(lowest, -np.inf)
    gone = np.nextafter(below, -np.inf)
    scores = np.where(mask, ys, np.where(truth, below, gone))
    return scores, mask | truth


def kept_pair_loss(loss: np.ndarray, yt: np.ndarray, kept: np.ndarray) -> np.ndarray:
    """The ranking loss over each row's kept labels, from the loss over all of them.

    The dropped labels (false, below every true one) add pairs but no mis-ordered
    pair; the count of mis-ordered pairs (a whole number, exact) is divided by the
    pairs of the kept labels instead: 0 for a row with none.

    Examples
    --------
    >>> kept_pair_loss(np.array([0.25]), np.array([[1, 0, 0, 0, 0]]),
    ...                np.array([[True, True, True, False, False]])).tolist()
    [0.5]
    """
    m = yt.shape[1]
    n_true = np.count_nonzero(yt, axis=1)
    pairs_all = n_true * (m - n_true)
    pairs_kept = n_true * (np.count_nonzero(kept, axis=1) - n_true)
    wrong = np.rint(loss * pairs_all)
    out = np.zeros_like(loss)
    np.divide(wrong, pairs_kept, out=out, where=pairs_kept > 0)
    return out
