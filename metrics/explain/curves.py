"""Teaching helpers of the curves page: the computation behind ROC and AUC laid out.

The pair and rank tables behind :func:`metrics.auc_pairwise` and
:func:`metrics.auc_rank`, AUC four ways, one operating point (predictions,
outcomes, counts and rates at a threshold), the threshold table and the
optimal thresholds (from counts sorted once, so a page answers every change
of a parameter without sorting again), curve reduction for drawing and
calibration bins. Input is binary, validated as :mod:`metrics.curves` does.
"""

from __future__ import annotations

from numbers import Real

import numpy as np

from metrics._binary_input import binary_input, refuse_single_class, two_class_input
from metrics._ranks import (
    descending_order,
    mid_rank,
)
from metrics._runs import runs
from metrics._thresholds import prepend_value, threshold_blocks
from metrics._validation import (
    MetricInputError,
    as_1d,
    check_k,
    check_same_shape,
    location,
)
from metrics.curves import (
    auc,
    auc_histogram,
    auc_pairwise,
    auc_rank,
    gini,
    roc_auc_score,
    roc_curve,
)

__all__ = [
    "OPTIMIZERS",
    "auc_four_ways",
    "auc_pairs",
    "auc_rank_table",
    "calibration_bins",
    "optimal_thresholds",
    "optimal_thresholds_from_counts",
    "per_sample_outcomes",
    "predict_at_threshold",
    "rates_at_threshold",
    "rates_from_counts",
    "reduce_curve",
    "threshold_counts",
    "threshold_outcomes",
    "threshold_table",
    "threshold_table_from_counts",
]


#: Seed of the uniform pair sample drawn by ``auc_pairs(..., max_pairs=...)``.
_AUC_PAIRS_SEED = 0


def auc_pairs(y_true, y_score, *, max_pairs=None):
    """The positive/negative pair table behind :func:`auc_pairwise`.

    One row per (positive, negative) pair, positives in sample order and, for
    each, the negatives in sample order. The mean ``credit`` over the full
    table is the AUC. The full table has ``n_pos * n_neg`` rows: pass
    ``max_pairs`` for anything but small inputs.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present.
    y_score : array-like of shape (n_samples,)
    max_pairs : int, optional
        When there are more pairs than this, return a uniform sample of
        ``max_pairs`` distinct pairs, drawn without replacement by
        ``np.random.default_rng(0)`` and kept in table
        order, so the same input always gives the same sample.

    Returns
    -------
    pandas.DataFrame
        Columns ``positive``, ``negative`` (0-based sample indices),
        ``positive_score``, ``negative_score``, ``outcome`` ("win", "tie" or
        "loss" for the positive) and ``credit`` (1, 0.5, 0).
        ``df.attrs["sampled"]`` tells whether rows were sampled and
        ``df.attrs["n_pairs"]`` is the number of pairs in the full table.

    Raises
    ------
    MetricInputError
        Bad input, ``max_pairs < 1`` or a single class in ``y_true``.

    Examples
    --------
    >>> df = auc_pairs([1, 0, 0, 1], [0.8, 0.8, 0.2, 0.6])
    >>> df[["positive", "negative", "outcome", "credit"]].values.tolist()
    [[0, 1, 'tie', 0.5], [0, 2, 'win', 1.0], [3, 1, 'loss', 0.0], [3, 2, 'win', 1.0]]
    >>> float(df["credit"].mean())
    0.625
    """
    import pandas as pd

    max_pairs = check_k(max_pairs, "max_pairs", allow_none=True)
    pos, s = two_class_input(y_true, y_score)
    pos_idx = np.flatnonzero(pos)
    neg_idx = np.flatnonzero(~pos)
    n_neg = neg_idx.shape[0]
    total = pos_idx.shape[0] * n_neg
    sampled = max_pairs is not None and total > max_pairs
    if sampled:
        rng = np.random.default_rng(_AUC_PAIRS_SEED)
        k = np.sort(rng.choice(total, size=max_pairs, replace=False))
    else:
        k = np.arange(total)
    pi = pos_idx[k // n_neg]
    ni = neg_idx[k % n_neg]
    p_score, n_score = s[pi], s[ni]
    code = np.where(p_score > n_score, 2, np.where(p_score == n_score, 1, 0))
    df = pd.DataFrame(
        {
            "positive": pi,
            "negative": ni,
            "positive_score": p_score,
            "negative_score": n_score,
            "outcome": np.array(["loss", "tie", "win"])[code],
            "credit": code / 2.0,
        }
    )
    df.attrs["sampled"] = bool(sampled)
    df.attrs["n_pairs"] = int(total)
    return df


# ---------------------------------------------------------------------------
# public: one operating point, the threshold table, optimal thresholds,
# curve reduction for drawing, calibration bins (the curves page)
# ---------------------------------------------------------------------------
def _check_threshold(threshold) -> float:
    if (
        isinstance(threshold, bool | np.bool_)
        or not isinstance(threshold, Real)
        or not np.isfinite(threshold)
    ):
        raise MetricInputError(f"threshold must be a finite number; got {threshold!r}.")
    return float(threshold)


def _divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den, 0.0 where den is 0 (scikit-learn's zero_division=0)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, 0.0, num / np.where(den == 0, 1.0, den))


def predict_at_threshold(y_score, threshold):
    """0/1 predictions of an operating point: 1 where ``y_score >= threshold``.

    The convention of :func:`roc_curve` (a sample at exactly the threshold
    is predicted positive).

    Parameters
    ----------
    y_score : array-like of shape (n_samples,)
    threshold : float
        Finite.

    Returns
    -------
    ndarray of shape (n_samples,), dtype int64

    Examples
    --------
    >>> predict_at_threshold([0.2, 0.5, 0.9], 0.5).tolist()
    [0, 1, 1]
    """
    s = as_1d(y_score, "y_score")
    t = _check_threshold(threshold)
    return (s >= t).astype(np.int64)


def threshold_outcomes(y_true, y_score, threshold):
    """Each sample's outcome at an operating point: "TP", "FP", "TN" or "FN".

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels.
    y_score : array-like of shape (n_samples,)
    threshold : float
        A sample is predicted positive when its score is >= threshold.

    Returns
    -------
    ndarray of str, shape (n_samples,)

    Examples
    --------
    >>> threshold_outcomes([1, 0, 1, 0], [0.9, 0.7, 0.3, 0.1], 0.5).tolist()
    ['TP', 'FP', 'FN', 'TN']
    """
    pos, s, _ = binary_input(y_true, y_score)
    pred = s >= _check_threshold(threshold)
    code = 2 * pos.astype(np.int64) + pred  # 0 TN, 1 FP, 2 FN, 3 TP
    return np.array(["TN", "FP", "FN", "TP"])[code]


def rates_at_threshold(y_true, y_score, threshold, *, beta=1.0, sample_weight=None):
    """Every count and rate of one operating point (prediction = score >= threshold).

    Counts are weighted by ``sample_weight``. A rate with a zero denominator
    is 0.0 (scikit-learn's ``zero_division=0``).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels.
    y_score : array-like of shape (n_samples,)
    threshold : float
    beta : float, default 1.0
        Weight of recall in the F-beta score, >= 0.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    dict
        ``tp, fp, fn, tn`` (float), ``precision``, ``recall`` (= ``tpr``),
        ``f1``, ``fbeta``, ``accuracy``, ``error_rate``, ``tpr``, ``fpr``,
        ``tnr``, ``fnr``, ``beta``.

    Examples
    --------
    >>> r = rates_at_threshold([1, 0, 1, 0, 0], [0.9, 0.7, 0.3, 0.1, 0.6], 0.5)
    >>> r["tp"], r["fp"], r["fn"], r["tn"], round(r["precision"], 4), r["recall"]
    (1.0, 2.0, 1.0, 1.0, 0.3333, 0.5)
    """
    if isinstance(beta, bool | np.bool_) or not isinstance(beta, Real) or not beta >= 0:
        raise MetricInputError(f"beta must be a number >= 0; got {beta!r}.")
    pos, s, w = binary_input(y_true, y_score, sample_weight)
    pred = s >= _check_threshold(threshold)
    ww = np.ones(s.shape[0]) if w is None else w
    tp = float(ww[pos & pred].sum())
    fp = float(ww[~pos & pred].sum())
    fn = float(ww[pos & ~pred].sum())
    tn = float(ww[~pos & ~pred].sum())
    r = rates_from_counts(tp, fp, fn, tn, beta=beta)
    return {
        "tp": tp,
        "fp": fp,
        "fn": fn,
        "tn": tn,
        "precision": float(r["precision"]),
        "recall": float(r["recall"]),
        "f1": float(r["f1"]),
        "fbeta": float(r["fbeta"]),
        "beta": float(beta),
        "accuracy": float(r["accuracy"]),
        "error_rate": float(r["error_rate"]),
        "tpr": float(r["tpr"]),
        "fpr": float(r["fpr"]),
        "tnr": float(r["tnr"]),
        "fnr": float(r["fnr"]),
    }


def rates_from_counts(tp, fp, fn, tn, *, beta=1.0) -> dict:
    """Every rate of an operating point from its counts, for one or many at once.

    A rate with a zero denominator is 0.0 (scikit-learn's ``zero_division=0``), as in
    :func:`rates_at_threshold`, which gives these from the rows.

    Parameters
    ----------
    tp, fp, fn, tn : float or array-like
        The (weighted) counts of true and false positives and negatives; arrays of one
        shape give one rate per entry.
    beta : float, default 1.0
        Weight of recall in the F-beta score, >= 0 (``np.inf``: recall).

    Returns
    -------
    dict
        ``precision``, ``recall`` (= ``tpr``), ``f1``, ``fbeta``, ``accuracy``,
        ``error_rate``, ``tpr``, ``fpr``, ``tnr``, ``fnr``: float64 arrays of the
        counts' shape.

    Examples
    --------
    >>> from metrics.explain.curves import rates_from_counts
    >>> r = rates_from_counts([1.0, 0.0], [2.0, 0.0], [1.0, 3.0], [1.0, 2.0])
    >>> r["precision"].tolist(), r["recall"].tolist(), r["fpr"].round(4).tolist()
    ([0.3333333333333333, 0.0], [0.5, 0.0], [0.6667, 0.0])
    """
    if isinstance(beta, bool | np.bool_) or not isinstance(beta, Real) or not beta >= 0:
        raise MetricInputError(f"beta must be a number >= 0; got {beta!r}.")
    tp, fp, fn, tn = np.asarray([tp, fp, fn, tn], dtype=np.float64)
    recall = _divide(tp, tp + fn)
    b2 = float(beta) ** 2
    if np.isinf(b2):
        fbeta = recall
    else:
        fbeta = _divide((1 + b2) * tp, (1 + b2) * tp + b2 * fn + fp)
    total = tp + fp + fn + tn
    return {
        "precision": _divide(tp, tp + fp),
        "recall": recall,
        "f1": _divide(2 * tp, 2 * tp + fn + fp),
        "fbeta": fbeta,
        "accuracy": _divide(tp + tn, total),
        "error_rate": _divide(fp + fn, total),
        "tpr": recall,
        "fpr": _divide(fp, fp + tn),
        "tnr": _divide(tn, fp + tn),
        "fnr": _divide(fn, tp + fn),
    }


def threshold_counts(y_true, y_score, *, sample_weight=None):
    """Cumulative counts at every distinct threshold: one sort, shared by every optimizer.

    Row 0 is threshold ``+inf`` (nothing predicted positive, counts 0); then
    one row per distinct score, descending, with the (weighted) positives and
    negatives scoring at least it. Zero-weight samples are left out, as in
    :func:`roc_curve`. :func:`threshold_table_from_counts` and
    :func:`optimal_thresholds_from_counts` work on these arrays only (one
    vectorized pass over the distinct thresholds, not over the samples), so a
    page can sort once per dataset and answer every change of a parameter
    from the cached counts.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present (with non-zero weight).
    y_score : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    thresholds, tp, fp : ndarray of shape (n_distinct + 1,), float64
        ``thresholds`` descending from ``+inf``; ``tp[-1]`` and ``fp[-1]``
        are the total (weight of the) positives and negatives.

    Examples
    --------
    >>> thr, tp, fp = threshold_counts([1, 0, 1, 0], [0.9, 0.7, 0.7, 0.1])
    >>> thr.tolist(), tp.tolist(), fp.tolist()
    ([inf, 0.9, 0.7, 0.1], [0.0, 1.0, 2.0, 2.0], [0.0, 0.0, 1.0, 2.0])
    """
    pos, s, w = binary_input(y_true, y_score, sample_weight)
    refuse_single_class(pos, w)
    fps, tps, thresholds = threshold_blocks(pos, s, w)
    return prepend_value(np.inf, thresholds), prepend_value(0.0, tps), prepend_value(0.0, fps)


def counts_at(counts, thresholds):
    """TP, FP, FN and TN (weighted) at each of ``thresholds``, from
    :func:`threshold_counts`' arrays: one binary search for all of them, no sort.

    A sample is predicted positive when its score is >= the threshold, as in
    :func:`rates_at_threshold`, whose counts these are (with weights, up to
    rounding in the last bits: running sums instead of masked sums).

    Parameters
    ----------
    counts : tuple (thresholds, tp, fp)
        The output of :func:`threshold_counts`.
    thresholds : array-like of shape (n_thresholds,)
        Finite thresholds, in any order.

    Returns
    -------
    tp, fp, fn, tn : ndarray of shape (n_thresholds,), float64

    Examples
    --------
    >>> counts = threshold_counts([1, 0, 1, 0], [0.9, 0.7, 0.3, 0.1])
    >>> [c.tolist() for c in counts_at(counts, [0.0, 0.5, 0.7, 1.0])]
    [[2.0, 1.0, 1.0, 0.0], [2.0, 1.0, 1.0, 0.0], [0.0, 1.0, 1.0, 2.0], [0.0, 1.0, 1.0, 2.0]]
    """
    distinct, tps, fps = _check_counts(counts)
    ts = np.asarray(thresholds, dtype=np.float64).ravel()
    bad = np.flatnonzero(~np.isfinite(ts))
    if bad.size:
        raise MetricInputError(
            f"thresholds must be finite numbers; thresholds[{bad[0]}] is {float(ts[bad[0]])!r}."
        )
    # rows 1.. hold the distinct scores descending: the row of t is the number of
    # distinct scores >= t (row 0, +inf: nothing predicted positive)
    row = distinct.shape[0] - 1 - np.searchsorted(distinct[:0:-1], ts, side="left")
    tp, fp = tps[row], fps[row]
    return tp, fp, tps[-1] - tp, fps[-1] - fp


def _check_counts(counts):
    if not isinstance(counts, tuple | list) or len(counts) != 3:
        raise MetricInputError(
            "counts must be the (thresholds, tp, fp) arrays of threshold_counts; "
            f"got {type(counts).__name__}."
        )
    thresholds = np.asarray(counts[0], dtype=np.float64)
    tp = np.asarray(counts[1], dtype=np.float64)
    fp = np.asarray(counts[2], dtype=np.float64)
    if not (thresholds.ndim == tp.ndim == fp.ndim == 1) or not (
        thresholds.shape == tp.shape == fp.shape
    ):
        raise MetricInputError(
            "thresholds, tp and fp must be 1-D arrays of one length (threshold_counts' "
            f"output); got shapes {thresholds.shape}, {tp.shape} and {fp.shape}."
        )
    if thresholds.shape[0] < 2 or thresholds[0] != np.inf or tp[0] != 0 or fp[0] != 0:
        raise MetricInputError(
            "thresholds, tp and fp must start with the +inf row (threshold_counts' output) "
            "and hold at least one distinct score."
        )
    if not tp[-1] > 0 or not fp[-1] > 0:
        raise MetricInputError("tp and fp must end with positive totals (both classes present).")
    return thresholds, tp, fp


def threshold_table(y_true, y_score, *, sample_weight=None, drop_intermediate=False):
    """The ROC curve point by point: counts and rates at every distinct score.

    Row 0 is threshold ``+inf`` (nothing predicted positive); then one row per
    distinct score, descending: lowering the threshold to that score turns
    every sample scoring at least it positive, so a block of tied scores is
    one row (one diagonal ROC step when it holds both classes). The columns
    ``fpr``/``tpr`` equal :func:`roc_curve` with the same
    ``drop_intermediate``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present (with non-zero weight).
    y_score : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional
    drop_intermediate : bool, default False
        Drop the collinear points inside horizontal and vertical runs, as
        :func:`roc_curve` does by default.

    Returns
    -------
    pandas.DataFrame
        Columns ``threshold, tp, fp, fn, tn, tpr, fpr, precision``
        (precision 0 on the first row, where nothing is predicted positive),
        and ``n_tied`` (the total weight of the samples at exactly that score;
        0 on the first row).

    Examples
    --------
    >>> t = threshold_table([1, 0, 1, 0, 0, 0], [0.9, 0.7, 0.8, 0.6, 0.5, 0.4])
    >>> t[["fpr", "tpr"]].values[1:].tolist()
    [[0.0, 0.5], [0.0, 1.0], [0.25, 1.0], [0.5, 1.0], [0.75, 1.0], [1.0, 1.0]]
    """
    counts = threshold_counts(y_true, y_score, sample_weight=sample_weight)
    return threshold_table_from_counts(counts, drop_intermediate=drop_intermediate)


def threshold_table_from_counts(counts, *, drop_intermediate=False, max_rows=None):
    """:func:`threshold_table` from :func:`threshold_counts`' arrays (no sort).

    Parameters
    ----------
    counts : tuple (thresholds, tp, fp)
        The output of :func:`threshold_counts`.
    drop_intermediate : bool, default False
        As in :func:`threshold_table`.
    max_rows : int, optional
        Build only the first ``max_rows`` rows (a page showing the head of a
        long table); ``table.attrs["n_rows"]`` holds the full length.

    Returns
    -------
    pandas.DataFrame
        As :func:`threshold_table`, with ``attrs["n_rows"]``.

    Examples
    --------
    >>> counts = threshold_counts([1, 0, 1, 0, 0, 0], [0.9, 0.7, 0.8, 0.6, 0.5, 0.4])
    >>> t = threshold_table_from_counts(counts, drop_intermediate=True, max_rows=3)
    >>> t["fpr"].tolist(), t.attrs["n_rows"]
    ([0.0, 0.0, 0.0], 4)
    """
    import pandas as pd

    thresholds, tps, fps = _check_counts(counts)
    p, n = tps[-1], fps[-1]
    if max_rows is not None:
        check_k(max_rows, "max_rows")
    tied = np.diff(fps + tps, prepend=0.0)  # row 0: 0
    if drop_intermediate and fps.shape[0] > 3:  # more than two distinct scores
        keep = np.ones(fps.shape[0], dtype=bool)
        keep[2:-1] = (np.diff(fps[1:], 2) != 0) | (np.diff(tps[1:], 2) != 0)
        keep = np.flatnonzero(keep)
        n_rows = keep.shape[0]
        if max_rows is not None:
            keep = keep[:max_rows]
        thresholds, tps, fps, tied = thresholds[keep], tps[keep], fps[keep], tied[keep]
    else:
        n_rows = fps.shape[0]
        if max_rows is not None:
            head = slice(0, max_rows)
            thresholds, tps, fps, tied = thresholds[head], tps[head], fps[head], tied[head]
    pp = tps + fps
    table = pd.DataFrame(
        {
            "threshold": thresholds,
            "tp": tps,
            "fp": fps,
            "fn": p - tps,
            "tn": n - fps,
            "tpr": tps / p,
            "fpr": fps / n,
            "precision": np.divide(tps, pp, out=np.zeros_like(tps), where=pp != 0),
            "n_tied": tied,
        }
    )
    table.attrs["n_rows"] = int(n_rows)
    return table


OPTIMIZERS = ("max_fbeta", "youden", "min_cost", "recall_at_least", "precision_at_least")


def _check_optimizer_args(beta, cost_fp, cost_fn, min_recall, min_precision) -> None:
    if isinstance(beta, bool | np.bool_) or not isinstance(beta, Real) or not beta >= 0:
        raise MetricInputError(f"beta must be a number >= 0; got {beta!r}.")
    _check_cost("cost_fp", cost_fp)
    _check_cost("cost_fn", cost_fn)
    _check_fraction("min_recall", min_recall)
    _check_fraction("min_precision", min_precision)


def _check_cost(name: str, v) -> None:
    if not isinstance(v, Real) or not np.isfinite(v) or v < 0:
        raise MetricInputError(f"{name} must be a finite number >= 0; got {v!r}.")


def _check_fraction(name: str, v) -> None:
    if not isinstance(v, Real) or not 0 <= v <= 1:
        raise MetricInputError(f"{name} must lie in [0, 1]; got {v!r}.")


def optimal_thresholds(
    y_true,
    y_score,
    *,
    beta=1.0,
    cost_fp=1.0,
    cost_fn=1.0,
    min_recall=0.9,
    min_precision=0.9,
    sample_weight=None,
):
    """Candidate operating points, one per criterion, chosen among the thresholds.

    The candidates are ``+inf`` (predict nothing positive) and every distinct
    score (prediction = score >= threshold); ties between equally good
    thresholds go to the highest threshold.

    * ``max_fbeta``: the largest F-beta;
    * ``youden``: the largest Youden's J = TPR - FPR;
    * ``min_cost``: the smallest expected cost ``cost_fp * FP + cost_fn * FN``
      (``+inf`` when predicting nothing is cheapest);
    * ``recall_at_least``: among thresholds with recall >= ``min_recall``, the
      best precision;
    * ``precision_at_least``: among thresholds with precision >=
      ``min_precision``, the best recall.

    At ``+inf`` precision is 0 (scikit-learn's ``zero_division=0``), so
    ``+inf`` meets a precision constraint only when it is 0, and it is the
    Youden candidate only when no threshold has J > 0.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present.
    y_score : array-like of shape (n_samples,)
    beta : float, default 1.0
    cost_fp, cost_fn : float, default 1.0
        Non-negative costs of a false positive and of a false negative.
    min_recall, min_precision : float, default 0.9
        Constraints in [0, 1].
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    pandas.DataFrame
        One row per criterion (index ``OPTIMIZERS``): ``threshold`` (NaN when
        no threshold meets the constraint), ``value`` (the criterion's value
        there), ``tp, fp, fn, tn, tpr, fpr, precision``.

    Examples
    --------
    >>> o = optimal_thresholds([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9])
    >>> float(o.loc["youden", "threshold"]), float(o.loc["max_fbeta", "value"])
    (0.8, 0.8)
    >>> float(optimal_thresholds([0, 1], [0.9, 0.1], cost_fn=0.5).loc["min_cost", "threshold"])
    inf
    """
    _check_optimizer_args(beta, cost_fp, cost_fn, min_recall, min_precision)
    return optimal_thresholds_from_counts(
        threshold_counts(y_true, y_score, sample_weight=sample_weight),
        beta=beta,
        cost_fp=cost_fp,
        cost_fn=cost_fn,
        min_recall=min_recall,
        min_precision=min_precision,
    )


def optimal_thresholds_from_counts(
    counts, *, beta=1.0, cost_fp=1.0, cost_fn=1.0, min_recall=0.9, min_precision=0.9
):
    """:func:`optimal_thresholds` from :func:`threshold_counts`' arrays (no sort).

    One vectorized pass over the distinct thresholds per criterion.

    Parameters
    ----------
    counts : tuple (thresholds, tp, fp)
        The output of :func:`threshold_counts`.
    beta, cost_fp, cost_fn, min_recall, min_precision
        As in :func:`optimal_thresholds`.

    Returns
    -------
    pandas.DataFrame
        As :func:`optimal_thresholds`.

    Examples
    --------
    >>> counts = threshold_counts([0, 0, 1, 1, 0, 1], [0.1, 0.4, 0.35, 0.8, 0.7, 0.9])
    >>> o = optimal_thresholds_from_counts(counts, cost_fp=10.0)
    >>> float(o.loc["min_cost", "threshold"]), float(o.loc["min_cost", "value"])
    (0.8, 1.0)
    """
    import pandas as pd

    _check_optimizer_args(beta, cost_fp, cost_fn, min_recall, min_precision)
    thresholds, tp, fp = _check_counts(counts)
    p, n = tp[-1], fp[-1]
    tpr = tp / p
    pp = tp + fp
    precision = np.divide(tp, pp, out=np.zeros_like(tp), where=pp != 0)
    b2 = float(beta) ** 2
    if np.isinf(b2):
        fbeta = tpr
    else:  # (1 + b2) TP / ((1 + b2) TP + b2 FN + FP), FN = P - TP
        den = tp + b2 * p + fp
        fbeta = np.divide((1 + b2) * tp, den, out=np.zeros_like(tp), where=den != 0)
    youden = tpr - fp / n
    neg_cost = (cost_fn * tp - cost_fn * p) - cost_fp * fp  # -(cost_fp FP + cost_fn FN)
    # larger is better, -inf where the constraint fails; the thresholds descend, so
    # argmax's first maximum is the highest threshold
    with_recall = np.where(tpr >= min_recall - 1e-12, precision, -np.inf)
    with_precision = np.where(precision >= min_precision - 1e-12, tpr, -np.inf)
    best = np.array(
        [
            np.argmax(fbeta),
            np.argmax(youden),
            np.argmax(neg_cost),
            np.argmax(with_recall),
            np.argmax(with_precision),
        ]
    )
    value = np.array(
        [
            fbeta[best[0]],
            youden[best[1]],
            cost_fp * fp[best[2]] + cost_fn * (p - tp[best[2]]),
            with_recall[best[3]],
            with_precision[best[4]],
        ]
    )
    found = np.isfinite(value)
    tp_b, fp_b = tp[best], fp[best]

    def pick(a):
        return np.where(found, a, np.nan)

    return pd.DataFrame(
        {
            "threshold": pick(thresholds[best]),
            "value": pick(value),
            "tp": pick(tp_b),
            "fp": pick(fp_b),
            "fn": pick(p - tp_b),
            "tn": pick(n - fp_b),
            "tpr": pick(tpr[best]),
            "fpr": pick(fp_b / n),
            "precision": pick(precision[best]),
        },
        index=list(OPTIMIZERS),
    )


def reduce_curve(x, y, *, max_points=4000):
    """Indices of the vertices to draw a long curve with, never a threshold grid.

    A curve of at most ``max_points`` points is kept whole (every vertex
    keeps its threshold for the hover). A longer one is reduced in two
    steps. Step 1 (exact): drop the interior points that lie on the segment
    between their neighbours (collinear runs). Step 2, only when more than
    ``max_points`` remain: split the ``x`` range into ``max_points // 4``
    equal columns and keep, in each, the first, last, lowest and highest
    vertex (the M4 rule), so the drawn polyline stays within one column
    width of the exact curve and every extreme is kept.

    Parameters
    ----------
    x : array-like of shape (n_points,)
        Monotone (non-decreasing or non-increasing), e.g. FPR or recall.
    y : array-like of shape (n_points,)
    max_points : int, default 4000
        At least 4.

    Returns
    -------
    ndarray of int64
        Sorted indices into ``x``/``y``; always holds the first and last point.

    Examples
    --------
    >>> reduce_curve([0, 0, 0, 0.5, 1], [0, 0.5, 1, 1, 1]).tolist()
    [0, 1, 2, 3, 4]
    >>> reduce_curve([0, 0, 0, 0.5, 1], [0, 0.5, 1, 1, 1], max_points=4).tolist()
    [0, 2, 4]
    """
    xa = as_1d(x, "x")
    ya = as_1d(y, "y")
    check_same_shape(xa, ya, "x", "y")
    max_points = check_k(max_points, "max_points")
    if max_points < 4:
        raise MetricInputError(f"max_points must be at least 4; got {max_points}.")
    n = xa.shape[0]
    if n <= max_points:
        return np.arange(n, dtype=np.int64)
    dx1, dy1 = xa[1:-1] - xa[:-2], ya[1:-1] - ya[:-2]
    dx2, dy2 = xa[2:] - xa[1:-1], ya[2:] - ya[1:-1]
    cross = dx1 * dy2 - dy1 * dx2
    scale = np.abs(dx1 * dy2) + np.abs(dy1 * dx2)
    same_way = dx1 * dx2 + dy1 * dy2 >= 0
    collinear = (np.abs(cross) <= 1e-12 * np.maximum(scale, 1e-300)) & same_way
    idx = np.flatnonzero(np.concatenate(([True], ~collinear, [True])))
    if idx.shape[0] <= max_points:
        return idx.astype(np.int64)
    xs, ys = xa[idx], ya[idx]
    n_cols = max_points // 4
    lo, hi = float(xs.min()), float(xs.max())
    width = (hi - lo) or 1.0
    col = np.minimum(((xs - lo) / width * n_cols).astype(np.int64), n_cols - 1)
    order = np.lexsort((ys, col))  # by column, then by y
    by_col = runs(col[order])
    lowest, highest = order[by_col.starts], order[by_col.last]
    # x is monotone: columns are contiguous runs (backwards for a non-increasing x)
    in_x = runs(col) if xs[0] > xs[-1] else runs(np.sort(col))
    firsts, lasts = in_x.starts, in_x.last
    keep = np.unique(np.concatenate((lowest, highest, firsts, lasts, [0, xs.shape[0] - 1])))
    return idx[keep].astype(np.int64)


def calibration_bins(y_true, y_prob, *, n_bins=10, sample_weight=None):
    """The reliability diagram's table: equal-width probability bins.

    A probability p falls in bin ``min(floor(p * n_bins), n_bins - 1)`` (the
    rule of :func:`auc_histogram`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of class 1, in [0, 1].
    n_bins : int, default 10
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    pandas.DataFrame
        One row per bin: ``lower, upper, count`` (samples), ``weight`` (their
        total weight), ``mean_predicted`` and ``fraction_positive`` (weighted;
        NaN for an empty bin).

    Raises
    ------
    MetricInputError
        Bad input, ``n_bins < 1`` or a probability outside [0, 1] (named).

    Examples
    --------
    >>> c = calibration_bins([0, 1, 1, 0], [0.1, 0.8, 0.9, 0.7], n_bins=2)
    >>> c["count"].tolist(), c["fraction_positive"].round(4).tolist()
    ([1, 3], [0.0, 0.6667])
    """
    import pandas as pd

    n_bins = check_k(n_bins, "n_bins")
    pos, p, w = binary_input(y_true, y_prob, sample_weight)
    bad = (p < 0) | (p > 1)
    if bad.any():
        i = int(np.argmax(bad))
        raise MetricInputError(
            f"y_prob must lie in [0, 1] for a calibration diagram; found {float(p[i])!r} "
            f"at {location('y_prob', (i,))}."
        )
    ww = np.ones(p.shape[0]) if w is None else w
    b = np.minimum((p * n_bins).astype(np.int64), n_bins - 1)
    count = np.bincount(b, minlength=n_bins)
    wsum = np.bincount(b, weights=ww, minlength=n_bins)
    psum = np.bincount(b, weights=ww * p, minlength=n_bins)
    ysum = np.bincount(b, weights=ww * pos, minlength=n_bins)
    with np.errstate(invalid="ignore", divide="ignore"):
        mean_p = np.where(wsum > 0, psum / wsum, np.nan)
        frac = np.where(wsum > 0, ysum / wsum, np.nan)
    edges = np.arange(n_bins + 1) / n_bins
    return pd.DataFrame(
        {
            "lower": edges[:-1],
            "upper": edges[1:],
            "count": count,
            "weight": wsum,
            "mean_predicted": mean_p,
            "fraction_positive": frac,
        }
    )


def auc_rank_table(y_true, y_score):
    """The rank-sum (Mann-Whitney) computation of AUC, with its mid-ranks.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present.
    y_score : array-like of shape (n_samples,)

    Returns
    -------
    pandas.DataFrame
        One row per sample, by ascending score: ``sample`` (0-based index),
        ``score``, ``label`` and ``mid_rank`` (1 = lowest; tied scores share
        the mean of their positions). ``attrs``: ``rank_sum`` (sum of the
        positives' ranks), ``n_pos``, ``n_neg`` and ``auc`` =
        ``(rank_sum - n_pos (n_pos + 1) / 2) / (n_pos n_neg)``.

    Examples
    --------
    >>> t = auc_rank_table([1, 0, 0, 1], [0.8, 0.8, 0.2, 0.6])
    >>> t["mid_rank"].tolist(), t.attrs["rank_sum"], t.attrs["auc"]
    ([1.0, 2.0, 3.5, 3.5], 5.5, 0.625)
    """
    import pandas as pd

    pos, s = two_class_input(y_true, y_score)
    ranks = mid_rank(s)
    order = np.argsort(s, kind="stable")
    n_pos = int(np.count_nonzero(pos))
    n_neg = pos.shape[0] - n_pos
    rank_sum = float(ranks[pos].sum())
    df = pd.DataFrame(
        {
            "sample": order,
            "score": s[order],
            "label": pos[order].astype(np.int64),
            "mid_rank": ranks[order],
        }
    )
    df.attrs.update(
        rank_sum=rank_sum,
        n_pos=n_pos,
        n_neg=n_neg,
        auc=float((rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * n_neg)),
    )
    return df


def per_sample_outcomes(y_true, y_score, threshold, *, sample_weight=None):
    """One row per sample at an operating point: its prediction and outcome.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels.
    y_score : array-like of shape (n_samples,)
    threshold : float or None
        Predicted positive when score >= threshold. None leaves out the two
        threshold columns (``prediction``, ``outcome``): the threshold-free
        table a page computes once and completes for the rows it shows.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    pandas.DataFrame
        Columns ``score, label, rank`` (1 = highest score; tied scores share
        the best rank), ``prediction``, ``outcome`` (TP/FP/TN/FN),
        ``log_loss_term`` (-log p(true class), clipped as :func:`log_loss`;
        NaN when a score lies outside [0, 1]) and ``weight``.

    Examples
    --------
    >>> d = per_sample_outcomes([1, 0, 1], [0.9, 0.9, 0.2], 0.5)
    >>> d["rank"].tolist(), d["outcome"].tolist()
    ([1, 1, 3], ['TP', 'FP', 'FN'])
    >>> per_sample_outcomes([1, 0, 1], [0.9, 0.9, 0.2], None).columns.tolist()
    ['score', 'label', 'rank', 'log_loss_term', 'weight']
    """
    import pandas as pd

    from metrics.classification import log_loss_per_sample

    pos, s, w = binary_input(y_true, y_score, sample_weight)
    t = None if threshold is None else _check_threshold(threshold)
    # rank = 1 + the number of higher scores: the position of each tie block's first
    # sample in one descending sort, scattered back (no search per sample)
    order, desc = descending_order(s[None, :])
    order, desc = order[0], desc[0]
    n = s.shape[0]
    first = np.zeros(n, dtype=np.int64)
    if n:
        new_block = np.empty(n, dtype=bool)
        new_block[0] = True
        np.not_equal(desc[1:], desc[:-1], out=new_block[1:])
        first[new_block] = np.flatnonzero(new_block)
        np.maximum.accumulate(first, out=first)
    rank = np.empty(n, dtype=np.int64)
    rank[order] = first + 1
    if ((s >= 0) & (s <= 1)).all():
        terms = log_loss_per_sample(pos.astype(np.int64), s, labels=[0, 1])
    else:
        terms = np.full(s.shape[0], np.nan)
    columns = {"score": s, "label": pos.astype(np.int64), "rank": rank}
    if t is not None:
        columns["prediction"] = (s >= t).astype(np.int64)
        columns["outcome"] = threshold_outcomes(pos.astype(np.int64), s, t)
    columns["log_loss_term"] = terms
    columns["weight"] = np.ones(s.shape[0]) if w is None else w
    return pd.DataFrame(columns)


def auc_four_ways(y_true, y_score, *, n_bins=100, sample_weight=None):
    """AUC computed four ways side by side, plus Gini.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both classes present.
    y_score : array-like of shape (n_samples,)
    n_bins : int, default 100
        Bins of the histogram approximation.
    sample_weight : array-like of shape (n_samples,), optional
        Used by the trapezoid way only (the weighted ROC curve); the pair,
        rank-sum and histogram ways count samples (unweighted).

    Returns
    -------
    dict
        ``trapezoid`` (area under the exact, weighted ROC curve),
        ``pairwise``, ``rank``, ``exact`` (the unweighted
        :func:`roc_auc_score`), ``histogram`` (NaN when a score lies outside
        [0, 1]; then ``histogram_message`` says why), ``histogram_error``
        (``histogram - exact``) and ``gini`` (``2 exact - 1``).

    Examples
    --------
    >>> r = auc_four_ways([1, 0, 0, 1], [0.81, 0.85, 0.2, 0.6], n_bins=10)
    >>> r["trapezoid"], r["pairwise"], r["rank"], r["histogram"], r["histogram_error"]
    (0.5, 0.5, 0.5, 0.625, 0.125)
    """
    fpr, tpr, _ = roc_curve(y_true, y_score, sample_weight=sample_weight)
    exact = roc_auc_score(y_true, y_score)
    out = {
        "trapezoid": auc(fpr, tpr),
        "pairwise": auc_pairwise(y_true, y_score),
        "rank": auc_rank(y_true, y_score),
        "exact": exact,
        "gini": gini(y_true, y_score),
        "histogram": float("nan"),
        "histogram_error": float("nan"),
        "histogram_message": "",
    }
    try:
        hist = auc_histogram(y_true, y_score, n_bins=n_bins)
    except MetricInputError as exc:
        if "[0, 1]" not in str(exc):
            raise
        out["histogram_message"] = str(exc)
    else:
        out["histogram"] = hist
        out["histogram_error"] = hist - exact
    return out
