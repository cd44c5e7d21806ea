"""Threshold curves and the areas under them: ROC, precision-recall, AUC, AP.

Binary input is a 1-D ``y_true`` of any two labels (numbers, strings,
booleans, categoricals; ``pos_label`` names the positive one as scikit-learn
does; an ``(n, 1)`` column is flattened) and a 1-D ``y_score``;
``roc_auc_score`` and ``average_precision_score`` also take a multilabel
indicator matrix (samples x labels) with a score matrix of the same shape, and
multiclass labels with one score column per class. Values equal
:mod:`sklearn.metrics` to 1e-9, ties, zero weights and ``sample_weight``
included:

* the curves have one point per *distinct* score (tied scores are one
  threshold), zero-weight samples are removed before thresholds are built,
  ``roc_curve`` prepends (0, 0) at threshold ``+inf`` and by default drops
  the collinear points of horizontal and vertical runs;
  ``precision_recall_curve`` returns increasing thresholds and ends with
  (precision 1, recall 0) without a threshold;
* ROC AUC gives a tied positive/negative pair 1/2 (Mann-Whitney U with
  mid-ranks); average precision is the step sum ``sum_n (R_n - R_{n-1}) P_n``
  with a tie block as one step.

How it is computed (no Python loop over samples):

* without ``sample_weight`` the binary scores use value sorts only: the
  positive and the negative scores are sorted separately (``np.sort``, much
  faster than an argsort), and ``np.searchsorted`` counts, for every distinct
  positive score, the negatives below it (AUC) or at or above it (precision);
* with ``sample_weight``, one descending argsort and weighted cumulative sums
  at the end of every tie block;
* the curves' counts are int32 (below 2**31 samples) and filled in place,
  so that their peak memory stays near the size of the curve itself;
* multilabel ``macro`` / ``weighted`` / ``None`` without weights: on small
  matrices one flat sort of the transposed matrix (``_auc_rows`` by
  mid-ranks, ``_samples_ap_rows``); otherwise blocks of columns are
  transposed (cache-sized, bounding the memory) and each label costs two
  value sorts and a ``searchsorted`` (``_column_scores``). With weights,
  ``_rowwise`` (one argsort, tie bounds, cumulative sums) on blocks of
  columns;
* ``average="samples"``: AP per row from one ascending sort per block of
  rows (``_samples_ap_rows``, the counts of label_ranking's LRAP), ROC AUC by
  ``_rowwise``, both through ``_ranks.apply_by_row_chunks``.

Differences from scikit-learn, all on input it takes quietly or answers
with NaN:

* label matrices must be 0/1 (``{-1, 1}`` or ``{0, 2}`` matrices are refused,
  naming the first bad element); 1-D labels are free, as in scikit-learn;
* a ROC AUC - or a ``roc_curve``, whose rates would be NaN - with a single
  class in ``y_true`` (or in one column, or one row for
  ``average="samples"``) is refused, naming the column or row; a class
  that only holds zero-weight samples counts as absent. This holds for
  ``average="weighted"`` too, where scikit-learn would quietly give a label
  without positives weight 0. Zero-weight rows are skipped under
  ``average="samples"`` (they do not enter the average, as in scikit-learn);
* ``precision_recall_curve`` without positives gives recall 1 everywhere and
  warns, as scikit-learn does;
* ``sample_weight`` must be non-negative with a positive sum.
"""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np

from metrics._averages import weighted_mean
from metrics._binary_input import (
    binary_input,
    class_labels,
    fast_pos_label,
    finite_scores,
    labels_and_scores,
    positive_mask,
    present_labels,
    refuse_single_class,
    two_class_input,
    valid_label_array,
)
from metrics._block_chunks import sum_of_products
from metrics._ranks import (
    apply_by_row_chunks,
    ascending_flat_order,
    descending_order,
    map_blocks,
    row_chunks,
    tie_bounds,
)
from metrics._runs import run_lengths, run_start_mask
from metrics._thresholds import (
    ap_from_blocks,
    auc_from_blocks,
    intermediate_mask,
    prepend_value,
    sorted_scores,
    threshold_blocks,
    weighted_blocks,
)
from metrics._true_label_ranks import precision_sums
from metrics._validation import (
    MetricInputError,
    as_1d,
    check_k,
    check_probabilities,
    check_same_shape,
    check_sample_weight,
    check_two_classes,
    encode_labels,
    format_labels,
    label_code,
    location,
)

__all__ = [
    "auc",
    "auc_histogram",
    "auc_pairwise",
    "auc_rank",
    "average_precision_score",
    "det_curve",
    "gini",
    "precision_recall_curve",
    "roc_auc_score",
    "roc_curve",
]

_AVERAGES = ("micro", "macro", "weighted", "samples", None)

#: ``auc_pairwise`` compares every pair by broadcasting up to this many pairs;
#: beyond it the same counts come from sorted scores (no pair table in memory).
_PAIRWISE_BROADCAST_LIMIT = 4_000_000


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _check_average(average) -> None:
    if not (average is None or (isinstance(average, str) and average in _AVERAGES)):
        raise MetricInputError(
            "average must be one of 'micro', 'macro', 'weighted', 'samples' or None; "
            f"got {average!r}."
        )


def _is_label_matrix(y_true) -> bool:
    """Whether ``y_true`` is 2-D with more than one column (multilabel indicator input)."""
    try:
        shape = np.shape(y_true)
    except ValueError:  # ragged: as_array names it
        return True
    return len(shape) == 2 and shape[1] > 1


# ---------------------------------------------------------------------------
# binary cores
# ---------------------------------------------------------------------------
def _distinct(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values of an ascending array and the index where each first occurs."""
    first = np.flatnonzero(run_start_mask(sorted_values))
    return sorted_values[first], first


def _sorted_counts(pos: np.ndarray, s: np.ndarray):
    """Value sorts of the positive and negative scores.

    Returns ``(vals, cnt, first, neg_lt, neg_sorted, n_pos, n_neg)``: the
    distinct positive scores ascending, how many positives hold each (None
    when all are distinct: then ``vals`` is the sorted positives themselves,
    no copy), the number of positives scoring < each, the number of
    negatives scoring < each, and the sorted negative scores.
    """
    ps = np.compress(pos, s)  # np.compress is ~3x faster than boolean indexing
    ns = np.compress(~pos, s)
    ps.sort()
    ns.sort()
    n_pos, n_neg = ps.shape[0], ns.shape[0]
    vals, first = _distinct(ps)
    if first.shape[0] == n_pos:  # no tie among the positives
        vals, cnt = ps, None
    else:
        del ps
        cnt = run_lengths(first, n_pos)
    neg_lt = np.searchsorted(ns, vals, side="left")
    return vals, cnt, first, neg_lt, ns, n_pos, n_neg


def _weighted_sum(cnt: np.ndarray | None, values: np.ndarray):
    """``sum(cnt * values)`` (``cnt`` None: all ones), exact for integers."""
    return values.sum() if cnt is None else np.dot(cnt, values)


def _neg_ties(vals, cnt, neg_lt, ns, n_neg) -> int:
    """``sum(cnt * (negatives equal to vals))``; ``neg_lt`` is clobbered.

    A negative ties with ``v`` only if ``ns[neg_lt]`` (the first negative
    >= ``v``) equals it: search 'right' only for those values.
    """
    if n_neg == 0:
        return 0
    np.minimum(neg_lt, n_neg - 1, out=neg_lt)  # past the end: ns[-1] < v, no tie
    tied = ns[neg_lt] == vals
    if not tied.any():
        return 0
    tv = vals[tied]
    n_eq = np.searchsorted(ns, tv, side="right") - np.searchsorted(ns, tv, side="left")
    return int(_weighted_sum(None if cnt is None else cnt[tied], n_eq))


def _fast_auc(pos: np.ndarray, s: np.ndarray) -> float:
    """Exact AUC (ties 1/2) from two value sorts; both classes present.

    ``2 U = sum over positives of (2 * negatives below + negatives tied)``,
    exact in int64; the temporaries are kept to a few positive-sized arrays.
    """
    vals, cnt, _, neg_lt, ns, n_pos, n_neg = _sorted_counts(pos, s)
    u2 = 2 * int(_weighted_sum(cnt, neg_lt)) + _neg_ties(vals, cnt, neg_lt, ns, n_neg)
    return u2 / (2.0 * n_pos * n_neg)


def _fast_ap(pos: np.ndarray, s: np.ndarray) -> float:
    """Exact average precision from two value sorts (in-place arithmetic)."""
    vals, cnt, first, neg_lt, ns, n_pos, n_neg = _sorted_counts(pos, s)
    if n_pos == 0:
        return 0.0
    del vals, ns
    # precision = tp_ge / (tp_ge + fp_ge), tp_ge = n_pos - first, fp_ge = n_neg - neg_lt
    np.subtract(n_pos, first, out=first)  # tp_ge
    np.subtract(n_pos + n_neg, neg_lt, out=neg_lt)
    neg_lt -= n_pos
    neg_lt += first  # tp_ge + fp_ge
    precision = np.divide(first, neg_lt)
    total = precision.sum() if cnt is None else sum_of_products(cnt, precision)
    return max(0.0, float(total) / n_pos)


#: Thresholds per block of :func:`_unweighted_precision_recall` (2**16: its
#: temporaries are ~1 MiB beside an output of 3 x 8 bytes per threshold).
_PR_BLOCK = 1 << 16


def _unweighted_precision_recall(pos: np.ndarray, s: np.ndarray):
    """precision_recall_curve's three arrays (unweighted, every threshold) in ~their own memory.

    The same integer counts as :func:`unweighted_blocks`, so the same floats:
    the positives at or above each distinct score (``tps``) are written as
    float64 into the precision array itself, recall is ``tps / n_pos`` and
    precision ``tps`` over the scores at or above (``n - first``), both
    filled by blocks of thresholds. Besides the three returned arrays only
    the sorted positive scores (freed before recall is made) and, on tied
    scores, the first position of each distinct score are held: at 10^7
    distinct scores the peak is the output (3x the scores), not 3.5x.
    """
    n = s.shape[0]
    ps, vals, first = sorted_scores(pos, s)
    n_pos = ps.shape[0]
    k = vals.shape[0]
    blocks = row_chunks(k, 1, max_elements=_PR_BLOCK)
    precision = np.empty(k + 1)
    precision[k] = 1.0
    tps = precision[:k]
    for part in blocks:
        tps[part] = n_pos - np.searchsorted(ps, vals[part], side="left")
    del ps
    recall = np.empty(k + 1)
    recall[k] = 0.0
    for part in blocks:  # small blocks: the temporaries stay small beside the output
        if n_pos == 0:
            recall[part] = 1.0
        else:
            np.divide(tps[part], n_pos, out=recall[part])
        # scores at or above each threshold: n - first position (``first`` is consumed in place)
        at_or_above = np.arange(part.start, part.stop) if first is None else first[part]
        np.subtract(n, at_or_above, out=at_or_above)
        np.divide(tps[part], at_or_above, out=tps[part])
    return precision, recall, vals


def _binary_auc(pos, s, w) -> float:
    if w is None:
        return _fast_auc(pos, s)
    fps, tps, _ = weighted_blocks(pos, s, w)
    return auc_from_blocks(fps, tps)


def _binary_ap(pos, s, w) -> float:
    if w is None:
        return _fast_ap(pos, s)
    fps, tps, _ = weighted_blocks(pos, s, w)
    return ap_from_blocks(fps, tps)


# ---------------------------------------------------------------------------
# row-wise cores (multilabel)
# ---------------------------------------------------------------------------
def _rowwise(kind: str, y: np.ndarray, s: np.ndarray, w: np.ndarray | None = None) -> np.ndarray:
    """Per-row AUC (``kind="auc"``) or AP (``kind="ap"``) of a 0/1 matrix.

    ``w`` (length ``n_columns``) weights the elements along every row. Rows
    are sorted once (``descending_order``); with tie blocks from
    ``tie_bounds``, a positive of weight ``v`` in a block earns
    ``v * (W_neg - (fp_before_block + fp_through_block) / 2)`` AUC credit
    (mid-rank Mann-Whitney: the negatives below the block, plus half of
    those tied with it) and ``v * precision at the block end`` AP credit.

    AUC is NaN where a row lacks a class (callers refuse those rows first);
    AP is 0 for a row without (weighted) positives.
    """
    order, ss = descending_order(s)
    first, last = tie_bounds(ss)
    ys = np.take_along_axis(y, order, axis=1).astype(np.float64, copy=False)
    if w is None:
        tpw, fpw = ys, 1.0 - ys
    else:
        ws = w[order]
        tpw = ys * ws
        fpw = ws - tpw
    n, m = ys.shape
    cfp = np.zeros((n, m + 1))
    np.cumsum(fpw, axis=1, out=cfp[:, 1:])
    fp_end = np.take_along_axis(cfp, last + 1, axis=1)
    w_pos = tpw.sum(axis=1)
    if kind == "auc":
        w_neg = cfp[:, -1]
        fp_before = np.take_along_axis(cfp, first, axis=1)
        credit = np.sum(tpw * (w_neg[:, None] - (fp_end + fp_before) / 2.0), axis=1)
        with np.errstate(divide="ignore", invalid="ignore"):
            return credit / (w_pos * w_neg)
    tp_end = np.take_along_axis(np.cumsum(tpw, axis=1), last, axis=1)
    denom = tp_end + fp_end
    precision = np.divide(tp_end, denom, out=np.zeros_like(tp_end), where=denom != 0)
    ap_sum = np.sum(tpw * precision, axis=1)
    ap_rows = np.divide(ap_sum, w_pos, out=np.zeros_like(ap_sum), where=w_pos > 0)
    return np.maximum(ap_rows, 0.0)


def _refuse_single_class_columns(y: np.ndarray, w: np.ndarray | None, n_pos=None) -> None:
    n = y.shape[0]
    if n_pos is None:
        n_pos = np.count_nonzero(y, axis=0)
    bad = (n_pos == 0) | (n_pos == n)
    if bad.any():
        c = int(np.argmax(bad))
        check_two_classes(y[:, c], "y_true", column=c)
    if w is not None:
        w_pos = w @ y
        w_neg = w.sum() - w_pos
        bad = (w_pos <= 0) | (w_neg <= 0)
        if bad.any():
            c = int(np.argmax(bad))
            cls = "positive" if w_pos[c] <= 0 else "negative"
            raise MetricInputError(
                f"ROC AUC is undefined: every {cls} sample of column {c} of y_true has "
                "sample_weight 0; each label needs a positive and a negative with non-zero "
                "weight."
            )


def _refuse_single_class_rows(y: np.ndarray, w: np.ndarray | None) -> None:
    n_pos = np.count_nonzero(y, axis=1)
    bad = (n_pos == 0) | (n_pos == y.shape[1])
    if w is not None:
        bad &= w > 0
    if bad.any():
        i = int(np.argmax(bad))
        only = "1 (positive)" if n_pos[i] else "0 (negative)"
        raise MetricInputError(
            f"ROC AUC is undefined: row {i} of y_true holds a single class, only {only}; "
            "average='samples' scores every row over its labels, so each row (with "
            "non-zero sample_weight) needs a positive and a negative label."
        )


#: Entries of the score matrix transposed at a time by the column-wise
#: multilabel paths (2**20 float64 = 8 MiB, one block per thread): bounds their
#: memory; 2**20 rather than 2**21 gives two threads more blocks to share
#: (macro AUC at 100,000 x 100: 39 ms -> 35 ms with two threads, 54 ms with one).
_COLUMN_BLOCK_ELEMENTS = 1 << 20

#: Up to this many entries, unweighted per-label scores come from one flat
#: sort of the transposed matrix (``_auc_rows`` / ``_samples_ap_rows``)
#: rather than from :func:`_column_scores`' loop over labels.
_FLAT_COLUMN_ELEMENTS = 1 << 15

#: Rows per tile of :func:`_transposed` (tiles stay in cache).
_TRANSPOSE_TILE_ROWS = 512


def _column_blocks(n_rows: int, n_cols: int) -> list[slice]:
    """Consecutive column slices of about ``_COLUMN_BLOCK_ELEMENTS`` entries each."""
    return row_chunks(n_cols, n_rows, max_elements=_COLUMN_BLOCK_ELEMENTS)


def _transposed(a: np.ndarray, cols: slice, dtype=None) -> np.ndarray:
    """``a[:, cols].T`` as a C-contiguous array of ``dtype``, copied by row tiles.

    Tiles of :data:`_TRANSPOSE_TILE_ROWS` rows keep both sides in cache
    (3-5x faster than one strided copy for 1-byte types); casting to bool
    turns 0/1 labels into a mask on the way. The loop runs over row tiles.
    """
    n = a.shape[0]
    out = np.empty((cols.stop - cols.start, n), dtype=a.dtype if dtype is None else dtype)
    for rows in row_chunks(n, 1, max_elements=_TRANSPOSE_TILE_ROWS):
        out[:, rows] = a[rows, cols].T
    return out


def _sorted_column_score(kind: str, col: np.ndarray, ps: np.ndarray) -> float:
    """AUC or AP of one label from its sorted scores and its sorted positive scores.

    ``col`` holds all the label's scores ascending, ``ps`` the positives'
    scores ascending. For each distinct positive score ``v`` (first at
    ``first`` in ``ps``, ``cnt`` times), ``searchsorted(col, v)`` counts the
    scores below ``v``; subtracting the positives below ``v`` gives the
    negatives below it. The same exact integer counts as :func:`_fast_auc`
    and :func:`_fast_ap`, so the same floats. AUC needs both classes.
    """
    n, n_pos = col.shape[0], ps.shape[0]
    if kind == "ap" and n_pos == 0:
        return 0.0
    if kind == "auc" and (n_pos == 0 or n_pos == n):
        return np.nan  # refused by the caller
    vals, first = _distinct(ps)
    cnt = run_lengths(first, n_pos)
    all_lt = np.searchsorted(col, vals, side="left")
    if kind == "ap":
        # tp_ge / (tp_ge + fp_ge) with tp_ge + fp_ge = the scores >= v
        precision = (n_pos - first) / (n - all_lt)
        return max(0.0, float(np.dot(cnt, precision)) / n_pos)
    # scores <= v: all_lt + cnt unless negatives tie with v (search 'right' only there)
    all_le = all_lt + cnt
    probe = np.minimum(all_le, n - 1)
    tied = (all_le < n) & (col[probe] == vals)
    if tied.any():
        all_le[tied] = np.searchsorted(col, vals[tied], side="right")
    neg_lt_plus_le = (all_lt - first) + (all_le - first - cnt)
    u2 = int(np.dot(cnt, neg_lt_plus_le))  # 2 U, exact in int64
    return u2 / (2.0 * n_pos * (n - n_pos))


def _column_scores(kind: str, y: np.ndarray, s: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per-label AUC or AP of a multilabel matrix (no sample weights), and positives per label.

    Blocks of columns are transposed to contiguous rows (:func:`_transposed`,
    the labels straight into a boolean mask); each label then costs two
    value sorts (its scores in place, its positives' scores) and a
    ``searchsorted`` of its distinct positive scores
    (:func:`_sorted_column_score`). The loops run over column blocks and
    labels, each label vectorized over the samples; the column blocks are
    shared among threads (:func:`metrics._ranks.map_blocks`). AUC is NaN for
    a label with a single class (the caller refuses it).
    """
    n, m = s.shape
    out = np.empty(m, dtype=np.float64)
    n_pos = np.empty(m, dtype=np.int64)

    def column_block(cols: slice) -> None:
        block = _transposed(s, cols)
        pos = _transposed(y, cols, bool)
        for j in range(block.shape[0]):
            ps = np.compress(pos[j], block[j])
            ps.sort()
            n_pos[cols.start + j] = ps.shape[0]
            block[j].sort()
            out[cols.start + j] = _sorted_column_score(kind, block[j], ps)

    map_blocks(column_block, _column_blocks(n, m))
    return out, n_pos


def _weighted_column_scores(kind: str, y: np.ndarray, s: np.ndarray, w: np.ndarray):
    """Per-label AUC or AP with sample weights: :func:`_rowwise` on blocks of columns.

    Blocks are 8x smaller than :func:`_column_scores`' (``_rowwise`` makes
    about a dozen block-sized temporaries), which bounds the memory.
    """
    n, m = s.shape
    parts = [
        _rowwise(kind, _transposed(y, cols, bool), _transposed(s, cols), w)
        for cols in _column_blocks(8 * n, m)
    ]
    return np.concatenate(parts)


def _samples_ap_rows(
    mask: np.ndarray, s: np.ndarray, *, per_block: bool | None = None
) -> np.ndarray:
    """Average precision of every row of a block of rows (``average="samples"``).

    A tie block starting at ascending position ``a`` of its row has ``m - a``
    scores at or above it, of which ``n_true - (positives of the row below
    the block)`` are positives: each of its positives earns that precision,
    and a row's AP is the mean over its positives (0 without any). That mean
    is label_ranking's LRAP, from the same kernel
    (:func:`metrics._true_label_ranks.precision_sums`, one unstable
    ascending sort of the block; ``per_block`` as there).
    """
    total, n_true = precision_sums(mask, s, per_block=per_block)
    out = np.zeros(s.shape[0], dtype=np.float64)
    has = n_true > 0
    out[has] = total[has] / n_true[has]
    return out


def _auc_rows(mask: np.ndarray, s: np.ndarray) -> np.ndarray:
    """ROC AUC of every row (labels along the row), by mid-ranks from one flat sort.

    One unstable ascending sort (:func:`metrics._ranks.ascending_flat_order`);
    a positive in the tie block spanning row positions ``b .. e`` (0-based)
    has the mid-rank ``(b + e) / 2 + 1``, and ``2 U = 2 (rank sum) - P (P + 1)``
    (Mann-Whitney), exact integers. NaN for a row with a single class
    (callers refuse those first).
    """
    n, m = s.shape
    flat, is_start = ascending_flat_order(s)
    starts = np.flatnonzero(is_start)
    p = np.flatnonzero(mask.ravel()[flat])  # flat sorted positions of the positives
    block = (np.cumsum(is_start) - 1)[p]
    ends = np.append(starts[1:], is_start.shape[0])  # one past each block's end
    row = p // m
    twice_mid = starts[block] + ends[block] + 1 - 2 * m * row  # 2 (b + e) / 2 + 2
    n_pos = np.count_nonzero(mask, axis=1)
    u2 = np.bincount(row, weights=twice_mid, minlength=n) - n_pos * (n_pos + 1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return u2 / (2.0 * n_pos * (m - n_pos))


def _warn_no_positive(y: np.ndarray, average) -> None:
    """scikit-learn's "No positive class found" warning, once, for AP of a label matrix.

    scikit-learn warns from each precision-recall curve (one per label, per
    row for "samples", one for "micro") that has no positive sample.
    """
    axis = 1 if average == "samples" else 0
    if average == "micro":
        empty = not np.any(y)
    else:
        empty = not np.all(np.any(y, axis=axis))
    if empty:
        warnings.warn(
            "No positive class found in y_true, recall is set to one for all thresholds.",
            UserWarning,
            stacklevel=3,
        )


def _multilabel_score(kind: str, y, s, w, average):
    """roc_auc ('auc') or average precision ('ap') of a multilabel matrix."""
    if kind == "ap":
        _warn_no_positive(y, average)
    if average == "micro":
        pos = positive_mask(y).ravel()
        flat_w = None if w is None else np.repeat(w, y.shape[1])
        if kind == "auc":
            refuse_single_class(pos, flat_w, "y_true (all labels raveled, average='micro')")
            return _binary_auc(pos, s.ravel(), flat_w)
        return _binary_ap(pos, s.ravel(), flat_w)
    if average == "samples":
        y = positive_mask(y)
        if kind == "auc":
            _refuse_single_class_rows(y, w)
            keep = None if w is None else w > 0
            if keep is not None and not keep.all():
                y, s, w = y[keep], s[keep], w[keep]
        if kind == "ap":
            return weighted_mean(apply_by_row_chunks(_samples_ap_rows, y, s), w)
        return weighted_mean(apply_by_row_chunks(lambda yb, sb: _rowwise(kind, yb, sb), y, s), w)
    # macro / weighted / None: one score per label (column)
    if w is None and y.size <= _FLAT_COLUMN_ELEMENTS:
        # small: one flat sort of the transposed matrix beats a loop over labels
        mask_t = np.ascontiguousarray(positive_mask(y).T)
        s_t = np.ascontiguousarray(s.T)
        rows = _auc_rows if kind == "auc" else _samples_ap_rows
        scores, support = rows(mask_t, s_t), np.count_nonzero(mask_t, axis=1)
        if kind == "auc":
            _refuse_single_class_columns(y, None, n_pos=support)
    elif w is None:
        scores, support = _column_scores(kind, y, s)
        if kind == "auc":
            _refuse_single_class_columns(y, None, n_pos=support)
    else:
        if kind == "auc":
            _refuse_single_class_columns(y, w)
        scores = _weighted_column_scores(kind, y, s, w)
        support = w @ y
    if average is None:
        return scores
    if average == "macro":
        return float(np.mean(scores))
    total = float(support.sum())
    if abs(total) <= 1e-8:  # scikit-learn: isclose(total support, 0) -> 0
        return 0.0
    scores = np.where(support == 0, 0.0, scores)
    return float(np.dot(scores, support) / total)


# ---------------------------------------------------------------------------
# public: curves
# ---------------------------------------------------------------------------
def roc_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Receiver operating characteristic: false and true positive rates per threshold.

    One point per distinct score (tied scores are one threshold), thresholds
    descending, preceded by (0, 0) at threshold ``+inf``. Zero-weight samples
    are removed first, so they create no threshold. As in scikit-learn.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels of any kind; both classes must be present.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : label, default None
        The positive label. None means 1 and needs labels in {0, 1} or
        {-1, 1}; name it for other labels (``pos_label="spam"``).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum.
    drop_intermediate : bool, default True
        Drop the points inside horizontal or vertical runs (collinear points
        that change neither the plot nor the area); done before (0, 0) is
        prepended.

    Returns
    -------
    fpr, tpr : ndarray of shape (n_thresholds + 1,)
        False and true positive rates, both non-decreasing from 0 to 1.
    thresholds : ndarray of shape (n_thresholds + 1,)
        ``+inf`` then the distinct scores, descending: a sample counts as
        predicted positive at threshold t when its score is >= t.

    Raises
    ------
    MetricInputError
        Bad labels, scores, weights or ``pos_label``; a single class in
        ``y_true`` (the rates would be undefined).

    Examples
    --------
    >>> fpr, tpr, thr = roc_curve([1, 0, 1, 0, 0, 0], [0.9, 0.7, 0.8, 0.6, 0.5, 0.4])
    >>> fpr.tolist(), tpr.tolist(), thr.tolist()
    ([0.0, 0.0, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0], [inf, 0.9, 0.8, 0.4])
    """
    pos, s, w = binary_input(y_true, y_score, sample_weight, pos_label)
    refuse_single_class(pos, w)
    fps, tps, thresholds = threshold_blocks(pos, s, w)
    del pos, s, w  # the curve can be as long as the input: free what is not needed
    keep = intermediate_mask(fps, tps) if drop_intermediate else None
    # one array at a time, each full-size array freed as soon as it is used
    if keep is not None:
        thresholds = thresholds[keep]
    thresholds = prepend_value(np.inf, thresholds)
    fps = fps if keep is None else fps[keep]
    fpr = prepend_value(0.0, fps, fps[-1])
    del fps
    tps = tps if keep is None else tps[keep]
    del keep
    tpr = prepend_value(0.0, tps, tps[-1])
    del tps
    return fpr, tpr, thresholds


def precision_recall_curve(
    y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=False
):
    """Precision and recall at every distinct score, as scikit-learn returns them.

    Thresholds come out **increasing** (recall decreasing), and a last point
    (precision 1, recall 0) without a threshold closes the curve, so
    ``len(precision) == len(recall) == len(thresholds) + 1``. Precision is 0
    where nothing is predicted positive (tps + fps == 0); without any positive
    in ``y_true`` recall is 1 at every threshold (scikit-learn also warns; we
    do not).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels of any kind.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : label, default None
        The positive label. None means 1 and needs labels in {0, 1} or
        {-1, 1}; name it for other labels (``pos_label="spam"``).
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum; zero-weight samples are
        removed before the thresholds are built.
    drop_intermediate : bool, default False
        Keep only the first and last point of every run of equal true
        positive counts (vertical runs of the plot).

    Returns
    -------
    precision, recall : ndarray of shape (n_thresholds + 1,)
    thresholds : ndarray of shape (n_thresholds,)
        The distinct scores, increasing.

    Raises
    ------
    MetricInputError
        Bad labels, scores, weights or ``pos_label``.

    Examples
    --------
    >>> p, r, t = precision_recall_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> p.round(4).tolist(), r.tolist(), t.tolist()
    ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
    """
    pos, s, w = binary_input(y_true, y_score, sample_weight, pos_label)
    if w is None and not drop_intermediate:
        if not pos.any():
            warnings.warn(
                "No positive class found in y_true, recall is set to one for all thresholds.",
                UserWarning,
                stacklevel=2,
            )
        return _unweighted_precision_recall(pos, s)
    fps, tps, thresholds = threshold_blocks(pos, s, w)
    del pos, s, w
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.concatenate(([True], (np.diff(tps[:-1]) != 0) | (np.diff(tps[1:]) != 0), [True]))
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    # filled in place, in increasing-threshold order, with the closing point last
    k = tps.shape[0]
    precision = np.empty(k + 1)
    precision[k] = 1.0
    prec = precision[k - 1 :: -1]  # reversed view (k >= 1: there is a score)
    np.add(tps, fps, out=prec)
    del fps
    np.divide(tps, prec, out=prec, where=prec != 0)  # 0 where nothing is predicted positive
    recall = np.empty(k + 1)
    recall[k] = 0.0
    rec = recall[k - 1 :: -1]
    if tps[-1] == 0:
        warnings.warn(
            "No positive class found in y_true, recall is set to one for all thresholds.",
            UserWarning,
            stacklevel=2,
        )
        rec[:] = 1.0
    else:
        np.divide(tps, tps[-1], out=rec)
    return precision, recall, np.ascontiguousarray(thresholds[::-1])


# ---------------------------------------------------------------------------
# public: areas
# ---------------------------------------------------------------------------
def auc(x, y):
    """Area under a curve by the trapezoid rule (scikit-learn's ``auc``).

    Parameters
    ----------
    x : array-like of shape (n_points,)
        At least 2 finite points, monotone: non-decreasing, or
        non-increasing (the area is then negated so it stays positive for a
        curve traced backwards). Ties (vertical segments) are allowed.
    y : array-like of shape (n_points,)
        Finite values at ``x``.

    Returns
    -------
    float

    Raises
    ------
    MetricInputError
        NaN/inf, different lengths, fewer than 2 points, or ``x`` that goes
        up and down (naming the first point where the direction changes).

    Examples
    --------
    >>> auc([0, 0.5, 1], [0, 1, 1])
    0.75
    >>> auc([1, 0.5, 0], [1, 1, 0])
    0.75
    """
    xa = as_1d(x, "x")
    ya = as_1d(y, "y")
    check_same_shape(xa, ya, "x", "y")
    if xa.shape[0] < 2:
        raise MetricInputError(
            f"x needs at least 2 points to compute an area under a curve; got {xa.shape[0]}."
        )
    dx = np.diff(xa)
    direction = 1.0
    if (dx < 0).any():
        if (dx <= 0).all():
            direction = -1.0
        else:
            rising = bool(dx[int(np.argmax(dx != 0))] > 0)
            bad = dx < 0 if rising else dx > 0
            i = int(np.argmax(bad)) + 1
            raise MetricInputError(
                f"x is neither increasing nor decreasing : {np.asarray(x)}; x must be monotone "
                f"(non-decreasing or non-increasing) and changes direction at "
                f"{location('x', (i,))}."
            )
    return float(direction * np.sum(dx * (ya[1:] + ya[:-1])) / 2.0)


def _check_max_fpr(max_fpr):
    if max_fpr is None:
        return None
    if isinstance(max_fpr, bool | np.bool_) or not isinstance(max_fpr, Real):
        raise MetricInputError(f"max_fpr must be a number in (0, 1] or None; got {max_fpr!r}.")
    if not 0 < max_fpr <= 1:
        raise MetricInputError(f"Expected max_fpr in range (0, 1], got: {max_fpr!r}")
    return None if max_fpr == 1 else float(max_fpr)


def _partial_auc(pos: np.ndarray, s: np.ndarray, w, max_fpr: float) -> float:
    """McClish-standardized partial AUC up to ``max_fpr`` (scikit-learn's formula)."""
    fpr, tpr, _ = roc_curve(pos, s, sample_weight=w)
    stop = int(np.searchsorted(fpr, max_fpr, "right"))
    x_interp = [fpr[stop - 1], fpr[stop]]
    y_interp = [tpr[stop - 1], tpr[stop]]
    tpr = np.append(tpr[:stop], np.interp(max_fpr, x_interp, y_interp))
    fpr = np.append(fpr[:stop], max_fpr)
    partial = float(np.sum(np.diff(fpr) * (tpr[1:] + tpr[:-1])) / 2.0)
    min_area = 0.5 * max_fpr**2
    max_area = max_fpr
    return 0.5 * (1 + (partial - min_area) / (max_area - min_area))


def _multilabel_partial_auc(y, s, w, average, max_fpr):
    """Partial AUC per label (a loop over the labels), averaged as scikit-learn."""
    mask = positive_mask(y)
    if average == "micro":
        flat_w = None if w is None else np.repeat(w, y.shape[1])
        return _partial_auc(mask.ravel(), s.ravel(), flat_w, max_fpr)
    if average == "samples":
        raise MetricInputError(
            "max_fpr is not available with average='samples' (one partial ROC per row); "
            "use another average."
        )
    _refuse_single_class_columns(y, w)
    scores = np.array([_partial_auc(mask[:, j], s[:, j], w, max_fpr) for j in range(y.shape[1])])
    if average is None:
        return scores
    if average == "macro":
        return float(np.mean(scores))
    support = np.count_nonzero(mask, axis=0) if w is None else w @ mask
    total = float(support.sum())
    if abs(total) <= 1e-8:
        return 0.0
    return float(np.dot(np.where(support == 0, 0.0, scores), support) / total)


def _score_is_matrix(y_score) -> bool:
    try:
        shape = np.shape(y_score)
    except ValueError:
        return False
    return len(shape) == 2 and shape[1] > 1


def _multiclass_input(y_true, y_score, labels, sample_weight, *, check_sum=False):
    """1-D class labels and one score column per class: (class index, scores, weights).

    ``labels`` (sorted, unique) names the columns; it is encoded together
    with ``y_true``, so it may hold classes that ``y_true`` lacks.
    """
    if labels is None:
        y, _ = class_labels(y_true)
        codes = None
    else:
        (y, codes), _ = encode_labels(y_true, labels, names=("y_true", "labels"))
        if y.ndim == 2 and y.shape[1] == 1:
            y = y[:, 0]
        if y.ndim != 1 or codes.ndim != 1:
            raise MetricInputError("y_true and labels must be 1-D.")
    s = finite_scores(y_score, (1, 2))
    if s.ndim != 2:
        raise MetricInputError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
            f"contains multiple classes. Got `y_score.shape={s.shape}`."
        )
    if s.shape[0] != y.shape[0]:
        raise MetricInputError(
            f"y_true has {y.shape[0]} samples but y_score has {s.shape[0]} rows."
        )
    if check_sum and not np.allclose(1, s.sum(axis=1)):
        raise MetricInputError(
            "Target scores need to be probabilities for multiclass roc_auc, i.e. they "
            "should sum up to 1.0 over classes"
        )
    w = check_sample_weight(sample_weight, y.shape[0])
    return y, codes, s, w


def _column_of_class(y, codes, s):
    """Each sample's column: ``codes`` (labels=) or the sorted classes of ``y``."""
    if codes is not None:
        if np.unique(codes).shape[0] != codes.shape[0]:
            raise MetricInputError("Parameter 'labels' must be unique")
        if not np.all(np.diff(codes) > 0):
            raise MetricInputError("Parameter 'labels' must be ordered")
        if codes.shape[0] != s.shape[1]:
            raise MetricInputError(
                f"Number of given labels, {codes.shape[0]}, not equal to the number of "
                f"columns in 'y_score', {s.shape[1]}"
            )
        if np.setdiff1d(y, codes).shape[0]:
            raise MetricInputError("'y_true' contains labels not in parameter 'labels'")
    else:
        codes = np.unique(y)
        if codes.shape[0] != s.shape[1]:
            raise MetricInputError(
                "Number of classes in y_true not equal to the number of columns in 'y_score'"
            )
    return np.searchsorted(codes, y)


def _multiclass_auc(y_true, y_score, *, average, sample_weight, multi_class, labels, max_fpr):
    """scikit-learn's ``_multiclass_roc_auc_score``: one-vs-rest or one-vs-one."""
    if max_fpr is not None:
        raise MetricInputError(
            "Partial AUC computation not available in multiclass setting, 'max_fpr' must be "
            f"set to `None`, received `max_fpr={max_fpr}` instead"
        )
    if multi_class == "raise":
        raise MetricInputError(
            "multi_class must be in ('ovo', 'ovr'): y_true holds more than two classes "
            "(multiclass ROC AUC averages one-vs-rest or one-vs-one AUCs)."
        )
    if multi_class == "ovo" and sample_weight is not None:
        raise MetricInputError(
            "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
            "'sample_weight' must be None in this case."
        )
    y, codes, s, w = _multiclass_input(y_true, y_score, labels, sample_weight, check_sum=True)
    options = ("macro", "weighted", None)
    if multi_class == "ovr":
        options = ("micro", *options)
    if average not in options:
        raise MetricInputError(f"average must be one of {options} for multiclass problems")
    if multi_class not in ("ovo", "ovr"):
        raise MetricInputError(
            f"multi_class='{multi_class}' is not supported for multiclass ROC AUC, "
            "multi_class must be in ('ovo', 'ovr')"
        )
    if average is None and multi_class == "ovo":
        raise NotImplementedError("average=None is not implemented for multi_class='ovo'.")
    t = _column_of_class(y, codes, s)
    if multi_class == "ovr":
        onehot = np.zeros(s.shape, dtype=np.int8)
        onehot[np.arange(s.shape[0]), t] = 1
        return _multilabel_score("auc", onehot, s, w, average)
    if w is not None:
        raise MetricInputError(
            "sample_weight is not supported for multiclass one-vs-one ROC AUC, "
            "'sample_weight' must be None in this case."
        )
    present = np.unique(t)
    a_idx, b_idx = np.triu_indices(present.shape[0], k=1)
    scores = np.empty(a_idx.shape[0])
    prevalence = np.empty(a_idx.shape[0])
    for i, (a, b) in enumerate(zip(present[a_idx], present[b_idx], strict=True)):
        a_mask, b_mask = t == a, t == b
        ab = a_mask | b_mask
        prevalence[i] = np.average(ab)
        a_auc = _binary_auc(a_mask[ab], s[ab, a], None)
        b_auc = _binary_auc(b_mask[ab], s[ab, b], None)
        scores[i] = (a_auc + b_auc) / 2
    return float(np.average(scores, weights=prevalence if average == "weighted" else None))


def roc_auc_score(
    y_true,
    y_score,
    *,
    average="macro",
    sample_weight=None,
    max_fpr=None,
    multi_class="raise",
    labels=None,
):
    """Area under the ROC curve, binary or multilabel (scikit-learn's value).

    Binary: a tied positive/negative pair counts 1/2 (Mann-Whitney U with
    mid-ranks = the trapezoid under the ROC curve). Multilabel indicator
    input averages per-label AUCs as scikit-learn's ``_average_binary_score``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        0/1 labels (or a 0/1 label matrix).
    y_score : array-like of the same shape
        Scores.
    average : {"macro", "micro", "weighted", "samples", None}, default "macro"
        Multilabel only (ignored for binary input): "macro" the plain mean
        over labels; "micro" one AUC of the raveled matrices (weights
        repeated per label); "weighted" weights each label by its support
        ``sum_i w_i y_ij``; "samples" one AUC per row over its labels,
        averaged with ``sample_weight``; None the per-label array.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum.
    max_fpr : float in (0, 1], default None
        Partial AUC over false positive rates up to ``max_fpr``, standardized
        by McClish's correction ``(1 + (A - m) / (M - m)) / 2`` (m = max_fpr^2
        / 2 the chance area, M = max_fpr), as scikit-learn.

    Returns
    -------
    float, or ndarray of shape (n_labels,) with ``average=None``

    Raises
    ------
    MetricInputError
        Bad input; a single class in ``y_true`` (for multilabel averages in
        one column - named - or, for ``average="samples"``, in one row of
        non-zero weight - named).

    Notes
    -----
    Multiclass input (1-D ``y_true`` with more than two classes, scores one
    column per class summing to 1) needs ``multi_class``: "ovr" averages the
    one-vs-rest AUCs (as multilabel, ``average`` micro/macro/weighted/None),
    "ovo" the pairwise one-vs-one AUCs of Hand & Till (macro, or weighted by
    the pair's prevalence). ``labels`` names the columns (sorted) when
    ``y_true`` lacks a class.

    Examples
    --------
    >>> roc_auc_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.75
    >>> p = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.5, 0.2, 0.3]]
    >>> round(roc_auc_score([0, 1, 2, 1], p, multi_class="ovr"), 4)
    0.875
    >>> roc_auc_score([[1, 0], [0, 1], [1, 1]], [[0.9, 0.5], [0.3, 0.8], [0.6, 0.4]])
    0.75
    """
    _check_average(average)
    max_fpr = _check_max_fpr(max_fpr)
    if not _is_label_matrix(y_true) and _score_is_matrix(y_score):
        return _multiclass_auc(
            y_true,
            y_score,
            average=average,
            sample_weight=sample_weight,
            multi_class=multi_class,
            labels=labels,
            max_fpr=max_fpr,
        )
    if _is_label_matrix(y_true) or valid_label_array(y_true) is not None:
        y, s = labels_and_scores(y_true, y_score, multilabel_ok=True)
        w = check_sample_weight(sample_weight, y.shape[0])
        if y.ndim == 2:
            if max_fpr is not None:
                return _multilabel_partial_auc(y, s, w, average, max_fpr)
            return _multilabel_score("auc", y, s, w, average)
        pos = positive_mask(y)
    else:
        y, classes = class_labels(y_true)
        s = as_1d(finite_scores(y_score, (1, 2)), "y_score")
        check_same_shape(y, s, "y_true", "y_score")
        w = check_sample_weight(sample_weight, y.shape[0])
        present = present_labels(y, classes)
        if present.shape[0] > 2:
            raise MetricInputError(
                "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
                f"contains multiple classes. Got `y_score.shape={s.shape}`: y_true holds "
                f"{present.shape[0]} classes."
            )
        pos = y == present[-1]  # the greater label is the positive class
    refuse_single_class(pos, w)
    if max_fpr is not None:
        return _partial_auc(pos, s, w, max_fpr)
    return float(_binary_auc(pos, s, w))


def average_precision_score(y_true, y_score, *, average="macro", pos_label=1, sample_weight=None):
    """Average precision: the step sum ``sum_n (R_n - R_{n-1}) P_n`` over thresholds.

    No interpolation and no trapezoid; a tie block is one step with the
    block's precision. No positive gives 0.0 (scikit-learn's value, kept per
    column in multilabel averages); all positive gives 1.0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_labels)
        0/1 labels (or a 0/1 label matrix).
    y_score : array-like of the same shape
        Scores.
    average : {"macro", "micro", "weighted", "samples", None}, default "macro"
        Multilabel only, as in :func:`roc_auc_score`; "weighted" returns 0.0
        when no label has any (weighted) positive.
    pos_label : label, default 1
        Binary only: the positive label, one of the two present (a string
        for string labels). Must be 1 for multilabel and multiclass input.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights with a positive sum.

    Returns
    -------
    float, or ndarray of shape (n_labels,) with ``average=None``

    Raises
    ------
    MetricInputError
        Bad labels, scores, weights, ``average`` or ``pos_label``.

    Examples
    --------
    >>> round(average_precision_score([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 4)
    0.8333
    """
    _check_average(average)
    if _is_label_matrix(y_true):
        if not (fast_pos_label(pos_label) and pos_label is not None and pos_label == 1):
            raise MetricInputError(
                "Parameter pos_label is fixed to 1 for multilabel-indicator y_true. Do not "
                f"set pos_label or set pos_label to 1 (got {pos_label!r})."
            )
        y, s = labels_and_scores(y_true, y_score, multilabel_ok=True)
        w = check_sample_weight(sample_weight, y.shape[0])
        return _multilabel_score("ap", y, s, w, average)
    if _score_is_matrix(y_score):  # multiclass: one-vs-rest over the classes present
        if not (fast_pos_label(pos_label) and pos_label is not None and pos_label == 1):
            raise MetricInputError(
                "Parameter pos_label is fixed to 1 for multiclass y_true. Do not set "
                f"pos_label or set pos_label to 1 (got {pos_label!r})."
            )
        y, codes, s, w = _multiclass_input(y_true, y_score, None, sample_weight)
        t = _column_of_class(y, codes, s)
        onehot = np.zeros(s.shape, dtype=np.int8)
        onehot[np.arange(s.shape[0]), t] = 1
        return _multilabel_score("ap", onehot, s, w, average)
    y, classes = class_labels(y_true)
    s = as_1d(finite_scores(y_score, (1, 2)), "y_score")
    check_same_shape(y, s, "y_true", "y_score")
    w = check_sample_weight(sample_weight, y.shape[0])
    present = present_labels(y, classes)
    if present.shape[0] > 2:
        raise MetricInputError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` "
            f"contains multiple classes. Got `y_score.shape={s.shape}`: y_true holds "
            f"{present.shape[0]} classes."
        )
    code = label_code(classes, pos_label)
    if present.shape[0] == 2 and (code is None or not (present == code).any()):
        shown = format_labels(present if classes is None else classes[present.astype(np.intp)])
        raise MetricInputError(
            f"pos_label={pos_label} is not a valid label. It should be one of {np.asarray(shown)}"
        )
    pos = y == (np.nan if code is None else code)
    if not pos.any():
        warnings.warn(
            "No positive class found in y_true, recall is set to one for all thresholds.",
            UserWarning,
            stacklevel=2,
        )
    return float(_binary_ap(pos, s, w))


# ---------------------------------------------------------------------------
# public: AUC three ways and Gini (the pair table: metrics.explain.curves)
# ---------------------------------------------------------------------------


def auc_pairwise(y_true, y_score):
    """AUC by comparing every positive with every negative: 1 a win, 1/2 a tie.

    ``AUC = (wins + ties / 2) / (n_pos * n_neg)``, the probability that a
    random positive outscores a random negative. Up to 4 million pairs are
    compared directly (broadcasting); beyond that the same win and tie
    counts come from the sorted scores (``np.searchsorted``), so memory stays
    linear. Equals :func:`roc_auc_score` and :func:`auc_rank`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present.
    y_score : array-like of shape (n_samples,)

    Returns
    -------
    float

    Raises
    ------
    MetricInputError
        Bad input or a single class in ``y_true``.

    Examples
    --------
    >>> auc_pairwise([1, 0, 0, 1], [0.8, 0.8, 0.2, 0.6])
    0.625
    """
    pos, s = two_class_input(y_true, y_score)
    n_pos = int(np.count_nonzero(pos))
    if n_pos * (pos.shape[0] - n_pos) > _PAIRWISE_BROADCAST_LIMIT:
        return float(_fast_auc(pos, s))
    ps, ns = s[pos], s[~pos]
    wins = np.count_nonzero(ps[:, None] > ns[None, :])
    ties = np.count_nonzero(ps[:, None] == ns[None, :])
    return float((2 * wins + ties) / (2.0 * ps.shape[0] * ns.shape[0]))


def auc_rank(y_true, y_score):
    """AUC by the Mann-Whitney rank-sum formula with mid-ranks for ties.

    ``AUC = (sum of the ranks of the positives - P (P + 1) / 2) / (P N)``
    with ascending ranks (1 = lowest score) and tied scores sharing the mean
    of their positions (``_ranks.mid_rank``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present.
    y_score : array-like of shape (n_samples,)

    Returns
    -------
    float

    Raises
    ------
    MetricInputError
        Bad input or a single class in ``y_true``.

    Examples
    --------
    >>> auc_rank([1, 0, 0, 1], [0.8, 0.8, 0.2, 0.6])
    0.625
    """
    pos, s = two_class_input(y_true, y_score)
    # The mid-rank of a positive score v is (below + 1 + at_or_below) / 2 with
    # below = first + neg_lt (positives, negatives scoring < v) and
    # at_or_below = below + cnt + negatives tied with v: twice the rank sum is
    # an exact integer, from value sorts (no argsort).
    vals, cnt, first, neg_lt, ns, n_pos, n_neg = _sorted_counts(pos, s)
    twice = 2 * int(_weighted_sum(cnt, first)) + 2 * int(_weighted_sum(cnt, neg_lt))
    twice += (n_pos if cnt is None else int(np.dot(cnt, cnt))) + n_pos
    twice += _neg_ties(vals, cnt, neg_lt, ns, n_neg)
    rank_sum = twice / 2.0
    return float((rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg))


def auc_histogram(y_true, y_score, *, n_bins=100):
    """The O(n) binned AUC approximation.

    Scores in [0, 1] fall in bin ``min(floor(s * n_bins), n_bins - 1)``; a
    positive outscores every negative of a lower bin (credit 1) and ties the
    negatives of its own bin (credit 1/2). Exact when no bin mixes distinct
    positive and negative scores. (Computing the bin as
    ``int(s / (1 / n_bins))``, as hand-written versions often do, puts a few
    scores such as 0.59 with 100 bins one bin low through rounding, and fails
    for s = 1.)

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present.
    y_score : array-like of shape (n_samples,)
        Scores in [0, 1].
    n_bins : int, default 100
        Number of equal-width bins (>= 1).

    Returns
    -------
    float

    Raises
    ------
    MetricInputError
        Bad input, a score outside [0, 1] (naming the first), ``n_bins < 1``
        or a single class in ``y_true``.

    Examples
    --------
    >>> auc_histogram([1, 0, 0, 1], [0.81, 0.85, 0.2, 0.6], n_bins=10)
    0.625
    """
    n_bins = check_k(n_bins, "n_bins")
    pos, s = two_class_input(y_true, y_score)
    check_probabilities(s, "y_score", " for the histogram AUC")
    bins = np.minimum((s * n_bins).astype(np.int64), n_bins - 1)
    pos_hist = np.bincount(bins[pos], minlength=n_bins)
    neg_hist = np.bincount(bins[~pos], minlength=n_bins)
    neg_below = np.cumsum(neg_hist) - neg_hist
    twice = int(np.dot(pos_hist, 2 * neg_below + neg_hist))
    return float(twice / (2.0 * pos_hist.sum() * neg_hist.sum()))


def gini(y_true, y_score):
    """Gini coefficient ``2 * AUC - 1`` (so Gini + 1 = 2 AUC).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present.
    y_score : array-like of shape (n_samples,)

    Returns
    -------
    float
        In [-1, 1]; 0 for a random ranking, 1 for a perfect one.

    Raises
    ------
    MetricInputError
        Bad input or a single class in ``y_true``.

    Examples
    --------
    >>> gini([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    0.5
    """
    pos, s = two_class_input(y_true, y_score)
    return float(2.0 * _fast_auc(pos, s) - 1.0)


# ---------------------------------------------------------------------------
# public: DET curve
# ---------------------------------------------------------------------------
def det_curve(y_true, y_score, pos_label=None, sample_weight=None, drop_intermediate=False):
    """Detection error tradeoff: false positive and false negative rates per threshold.

    As scikit-learn 1.9: one point per distinct score plus a first point at
    threshold ``+inf`` (nothing predicted positive), trimmed to start where
    the false positives stop changing and end where the false negatives
    reach 0, returned with the false positive rate decreasing.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels of any kind; both classes present.
    y_score : array-like of shape (n_samples,)
    pos_label : label, default None
        None means 1 for labels in {0, 1} or {-1, 1}.
    sample_weight : array-like of shape (n_samples,), default None
    drop_intermediate : bool, default False
        Drop the points where the true positive count does not change.

    Returns
    -------
    fpr, fnr : ndarray of shape (n_thresholds,)
    thresholds : ndarray of shape (n_thresholds,)
        Increasing.

    Examples
    --------
    >>> fpr, fnr, thr = det_curve([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
    >>> fpr.tolist(), fnr.tolist(), thr.tolist()
    ([0.5, 0.5, 0.0], [0.0, 0.5, 0.5], [0.35, 0.4, 0.8])
    """
    pos, s, w = binary_input(y_true, y_score, sample_weight, pos_label)
    fps, tps, thresholds = threshold_blocks(pos, s, w)
    tps = np.concatenate(([0.0], tps.astype(np.float64)))
    fps = np.concatenate(([0.0], fps.astype(np.float64)))
    thresholds = np.concatenate(([np.inf], thresholds.astype(np.float64)))
    if drop_intermediate and fps.shape[0] > 2:
        keep = np.concatenate(([True], (np.diff(tps[:-1]) != 0) | (np.diff(tps[1:]) != 0), [True]))
        fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
    n_pos = int(np.count_nonzero(pos))
    if n_pos == 0 or n_pos == pos.shape[0]:
        raise MetricInputError(
            "Only one class is present in y_true. Detection error tradeoff curve is not "
            "defined in that case."
        )
    fns = tps[-1] - tps
    first = int(np.searchsorted(fps, fps[0], side="right")) - 1
    last = int(np.searchsorted(tps, tps[-1])) + 1
    sl = slice(first if first > 0 else None, last)
    return fps[sl][::-1] / fps[-1], fns[sl][::-1] / tps[-1], thresholds[sl][::-1]
