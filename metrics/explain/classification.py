"""Teaching helpers of the multilabel page: counts once, then every average and table.

:func:`multilabel_counts` counts true positives, predicted and true labels
per label and per sample once (:class:`MultilabelCounts`); every average of
precision, recall, F-beta and Jaccard (:func:`multilabel_averages`), the
worst samples, the per-label table and its summary rows are read from those
counts without touching the matrices again. The per-sample table lists each
sample's label sets and scores, and :func:`multilabel_outcomes` names every
cell TP, FP, FN or TN. Values equal :mod:`metrics.classification`'s on the
same input.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from metrics._averages import divide_or_warn, nanaverage
from metrics._class_counts import as_labels, classification_targets, label_counts
from metrics._relevance import check_retrieved
from metrics._validation import (
    MetricInputError,
    as_array,
    check_beta,
    check_binary,
    check_bool,
    check_sample_weight,
    check_zero_division,
)

__all__ = [
    "MultilabelCounts",
    "multilabel_averages",
    "multilabel_counts",
    "multilabel_label_table",
    "multilabel_label_table_from_counts",
    "multilabel_outcomes",
    "multilabel_per_sample",
    "multilabel_worst_samples",
]


def _multilabel_pair(y_true, y_pred, sample_weight):
    yt, yp, w, multilabel = classification_targets(y_true, y_pred, sample_weight)
    if not multilabel:
        raise MetricInputError(
            "y_true and y_pred must be multilabel indicator matrices (samples x labels, "
            f"at least two labels); got shape {np.shape(y_true)}."
        )
    return yt, yp, w


def _names(label_names, n_labels: int) -> list[str]:
    if label_names is None:
        return [str(j) for j in range(n_labels)]
    names = [str(x) for x in label_names]
    if len(names) != n_labels:
        raise MetricInputError(
            f"label_names has {len(names)} entries but there are {n_labels} labels."
        )
    return names


def _fbeta_from_counts(tp, pred, true, beta: float, zd: float) -> np.ndarray:
    if np.isposinf(beta):
        return divide_or_warn(tp, true, zd)
    if beta == 0:
        return divide_or_warn(tp, pred, zd)
    b2 = beta**2
    return divide_or_warn((1 + b2) * tp, b2 * true + pred, zd)


def _indicator(y, name: str) -> np.ndarray:
    """A boolean (n, L) matrix as is (nothing to check), anything else as as_labels."""
    if isinstance(y, np.ndarray) and y.dtype == bool and y.ndim == 2 and y.shape[1] > 1:
        if y.size == 0:
            return as_array(y, name)  # raises: empty
        return y
    return as_labels(y, name)


def _indicator_pair(y_true, y_pred) -> tuple[np.ndarray, np.ndarray]:
    """Validated multilabel indicator matrices as booleans.

    Boolean matrices are taken without a copy or a check; other input is
    refused as :func:`_multilabel_pair` refuses it (same messages).
    """
    yt, yp = _indicator(y_true, "y_true"), _indicator(y_pred, "y_pred")
    if yt.ndim != 2 or yp.ndim != 2 or yt.shape != yp.shape:
        _multilabel_pair(y_true, y_pred, None)  # raises the usual message
    if yt.dtype != bool:
        yt = check_binary(yt, "y_true") != 0
    if yp.dtype != bool:
        yp = check_binary(yp, "y_pred") != 0
    return yt, yp


@dataclass(frozen=True)
class MultilabelCounts:
    """The counts behind every multilabel score of one prediction (:func:`multilabel_counts`).

    Every average (micro, macro, weighted, samples), any F-beta and any
    ``zero_division`` follow from these arrays without another pass over the
    label matrices: see :func:`multilabel_averages`,
    :func:`multilabel_label_table_from_counts` and
    :func:`multilabel_worst_samples`.

    Attributes
    ----------
    tp, predicted, support : ndarray of shape (n_labels,), float64
        Per label: true positives, predicted positives (TP + FP) and true
        positives in the data (TP + FN), each sample adding its
        ``sample_weight`` (1 without weights).
    sample_tp, sample_predicted, sample_true : ndarray of shape (n_samples,), int64
        Per sample, unweighted: |Y_i ∩ Ŷ_i|, |Ŷ_i| and |Y_i|.
    sample_weight : ndarray of shape (n_samples,) or None
    cells : ndarray of shape (n_labels,), float64, or None
        Per label, the (weighted) cells that are labels, not padding
        (``retrieved=`` of :func:`multilabel_counts`); None: every cell.
    sample_cells : ndarray of shape (n_samples,), int64, or None
        Per sample, its cells that are not padding; None: every cell.

    Examples
    --------
    >>> c = multilabel_counts([[1, 0], [1, 1]], [[1, 1], [0, 1]])
    >>> c.tp.tolist(), c.predicted.tolist(), c.support.tolist(), c.sample_tp.tolist()
    ([1.0, 1.0], [1.0, 2.0], [2.0, 1.0], [1, 1])
    """

    tp: np.ndarray
    predicted: np.ndarray
    support: np.ndarray
    sample_tp: np.ndarray
    sample_predicted: np.ndarray
    sample_true: np.ndarray
    sample_weight: np.ndarray | None = None
    cells: np.ndarray | None = None
    sample_cells: np.ndarray | None = None

    @property
    def n_samples(self) -> int:
        return int(self.sample_tp.shape[0])

    @property
    def n_labels(self) -> int:
        return int(self.tp.shape[0])

    @property
    def sample_wrong(self) -> np.ndarray:
        """Wrong cells (FP + FN) of each sample, int64."""
        return self.sample_predicted + self.sample_true - 2 * self.sample_tp

    @property
    def labels(self) -> np.ndarray:
        """Which label columns are labels: False for a column that is padding in every row."""
        return np.ones(self.n_labels, bool) if self.cells is None else self.cells > 0


def multilabel_counts(y_true, y_pred, *, sample_weight=None, retrieved=None) -> MultilabelCounts:
    """Count TP, predicted and true cells per label and per sample, in one pass.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples, n_labels)
        0/1 indicator matrices (at least two labels). Boolean numpy matrices
        are used as they are, without a copy.
    sample_weight : array-like of shape (n_samples,), default None
        Weights the per-label counts (the per-sample counts stay unweighted).
    retrieved : array-like of bool, shape (n_samples, n_labels), default None
        Ragged rows (query groups of different sizes): False marks an item the
        row never retrieved, never predicted whatever ``y_pred`` says. A padding
        cell (not retrieved, not true) is no label: it counts in no TP, FP, FN
        or TN; an unretrieved true label is a false negative. None: every cell.

    Returns
    -------
    MultilabelCounts

    Examples
    --------
    >>> from metrics.explain.classification import multilabel_counts
    >>> c = multilabel_counts([[1, 0], [1, 1], [0, 0]], [[1, 0], [0, 1], [1, 0]])
    >>> c.tp.tolist(), c.predicted.tolist(), c.support.tolist()
    ([1.0, 1.0], [2.0, 1.0], [2.0, 1.0])
    >>> c.sample_tp.tolist(), c.sample_wrong.tolist()
    ([1, 1, 0], [0, 1, 1])
    >>> r = multilabel_counts([[1, 0], [0, 0]], [[1, 1], [1, 1]], retrieved=[[1, 1], [1, 0]])
    >>> r.predicted.tolist(), r.cells.tolist(), r.sample_cells.tolist()
    ([2.0, 1.0], [2.0, 1.0], [2, 1])
    """
    yt, yp = _indicator_pair(y_true, y_pred)
    w = check_sample_weight(sample_weight, yt.shape[0])
    mask = check_retrieved(retrieved, yt)
    cells = sample_cells = None
    if mask is not None and not mask.all():
        yp = yp & mask  # an item never retrieved is never predicted
        real = mask | yt  # padding: neither retrieved nor a true label
        sample_cells = np.count_nonzero(real, axis=1).astype(np.int64, copy=False)
        cells = (
            np.count_nonzero(real, axis=0).astype(np.float64)
            if w is None
            else w @ real.astype(np.float64)
        )
    both = yt & yp
    sample_tp = np.count_nonzero(both, axis=1).astype(np.int64, copy=False)
    sample_pred = np.count_nonzero(yp, axis=1).astype(np.int64, copy=False)
    sample_true = np.count_nonzero(yt, axis=1).astype(np.int64, copy=False)
    if w is None:
        tp = np.count_nonzero(both, axis=0).astype(np.float64)
        pred = np.count_nonzero(yp, axis=0).astype(np.float64)
        true = np.count_nonzero(yt, axis=0).astype(np.float64)
    else:
        tp = w @ both.astype(np.float64)
        pred = w @ yp.astype(np.float64)
        true = w @ yt.astype(np.float64)
    return MultilabelCounts(
        tp, pred, true, sample_tp, sample_pred, sample_true, w, cells, sample_cells
    )


def _check_counts(counts) -> MultilabelCounts:
    if not isinstance(counts, MultilabelCounts):
        raise MetricInputError(
            "counts must be a MultilabelCounts (from multilabel_counts); got "
            f"{type(counts).__name__}."
        )
    return counts


def _score_dict(tp, pred, true, beta: float, zd: float, jzd: float) -> dict:
    """Per-entry precision, recall, F1, F-beta and Jaccard of count arrays."""
    fp, fn = pred - tp, true - tp
    return {
        "precision": divide_or_warn(tp, pred, zd),
        "recall": divide_or_warn(tp, true, zd),
        "f1": _fbeta_from_counts(tp, pred, true, 1.0, zd),
        "fbeta": _fbeta_from_counts(tp, pred, true, beta, zd),
        "jaccard": divide_or_warn(tp, tp + fp + fn, jzd),
    }


def multilabel_averages(counts, *, beta=1.0, zero_division="warn") -> dict:
    """Every multilabel average from the counts: no pass over the label matrices.

    The values are those of :func:`precision_recall_fscore_support`,
    :func:`f1_score`, :func:`fbeta_score` and :func:`jaccard_score` with
    ``average="micro"``, ``"macro"``, ``"weighted"`` and ``"samples"``, of
    :func:`hamming_loss` and of :func:`accuracy_score` (subset accuracy) on the
    matrices and ``sample_weight`` the counts came from.

    Parameters
    ----------
    counts : MultilabelCounts
        From :func:`multilabel_counts`.
    beta : float, default 1.0
        The F-beta weight, >= 0 (``np.inf`` allowed); F1 is always given too.
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        The value of a 0/0 score ("warn": 0.0); NaN scores are left out of
        the averages. Jaccard cannot be NaN (as in :func:`jaccard_score`): it
        uses 0 when NaN is asked for.

    Returns
    -------
    dict
        ``"micro"``, ``"macro"``, ``"weighted"``, ``"samples"``: each a dict
        of floats ``precision, recall, f1, fbeta, jaccard``; and the floats
        ``"hamming_loss"``, ``"subset_accuracy"`` and ``"exact_matches"``
        (the unweighted number of samples whose predicted set is exactly
        right).

    Examples
    --------
    >>> from metrics.explain.classification import multilabel_averages, multilabel_counts
    >>> c = multilabel_counts([[1, 0, 1], [0, 1, 0]], [[1, 0, 0], [0, 1, 1]])
    >>> a = multilabel_averages(c, beta=2.0)
    >>> a["micro"]["precision"], a["micro"]["recall"], round(a["macro"]["f1"], 4)
    (0.6666666666666666, 0.6666666666666666, 0.6667)
    >>> a["samples"]["jaccard"], a["hamming_loss"], a["subset_accuracy"]
    (0.5, 0.3333333333333333, 0.0)
    """
    c = _check_counts(counts)
    zd = check_zero_division(zero_division)
    jzd = 0.0 if np.isnan(zd) else zd
    beta = check_beta(beta)
    w = c.sample_weight
    real = c.labels  # a column of padding only is no label: out of every average
    tp, pred, true = c.tp[real], c.predicted[real], c.support[real]
    names = ("precision", "recall", "f1", "fbeta")
    per_label = _score_dict(tp, pred, true, beta, zd, jzd)
    macro = {k: nanaverage(per_label[k], None) for k in names}
    macro["jaccard"] = float(np.average(per_label["jaccard"]))
    weighted = {k: nanaverage(per_label[k], true) for k in names}
    support = (true - tp) + tp  # jaccard_score's fn + tp
    weighted["jaccard"] = float(
        np.average(per_label["jaccard"], weights=support if support.any() else None)
    )
    pooled = _score_dict(
        np.array([tp.sum()]), np.array([pred.sum()]), np.array([true.sum()]), beta, zd, jzd
    )
    micro = {k: nanaverage(pooled[k], None) for k in names}
    fp, fn = pred - tp, true - tp
    union = np.array([(tp + fp + fn).sum()])  # jaccard_score sums the per-label unions
    micro["jaccard"] = float(divide_or_warn(np.array([tp.sum()]), union, jzd)[0])
    s_tp = c.sample_tp.astype(np.float64)
    s_pred = c.sample_predicted.astype(np.float64)
    s_true = c.sample_true.astype(np.float64)
    if w is not None:
        s_tp, s_pred, s_true = s_tp * w, s_pred * w, s_true * w
    per_sample = _score_dict(s_tp, s_pred, s_true, beta, zd, jzd)
    samples = {k: nanaverage(per_sample[k], w) for k in names}
    samples["jaccard"] = float(np.average(per_sample["jaccard"], weights=w))
    wrong = c.sample_wrong
    n, n_labels = c.n_samples, c.n_labels
    exact = wrong == 0
    if c.sample_cells is not None:  # ragged rows: over the cells that are labels
        cells = c.sample_cells if w is None else c.sample_cells * w
        hamming = float(np.dot(wrong, np.ones(n) if w is None else w) / cells.sum())
    elif w is None:
        hamming = float(wrong.sum() / (n * n_labels))
    else:
        hamming = float(np.dot(wrong, w) / (n * n_labels * np.mean(w)))
    return {
        "micro": micro,
        "macro": macro,
        "weighted": weighted,
        "samples": samples,
        "hamming_loss": hamming,
        "subset_accuracy": float(np.average(exact, weights=w)),
        "exact_matches": float(exact.sum()),
    }


def multilabel_worst_samples(counts, *, zero_division="warn") -> np.ndarray:
    """Sample indices, worst first: most wrong cells, then lowest Jaccard (a stable sort).

    The order of :func:`multilabel_per_sample`'s rows sorted by ``wrong``
    (descending) then ``jaccard`` (ascending), ties kept in sample order.

    Parameters
    ----------
    counts : MultilabelCounts
        From :func:`multilabel_counts`.
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        The Jaccard of a sample with no true and no predicted label ("warn"
        and NaN: 0), which places it among the samples without a wrong cell.

    Returns
    -------
    ndarray of shape (n_samples,), int64

    Examples
    --------
    >>> from metrics.explain.classification import multilabel_counts, multilabel_worst_samples
    >>> c = multilabel_counts([[1, 0], [1, 1], [0, 0], [0, 1]], [[1, 0], [0, 0], [0, 0], [1, 1]])
    >>> multilabel_worst_samples(c).tolist()
    [1, 3, 2, 0]
    >>> multilabel_worst_samples(c, zero_division=1).tolist()
    [1, 3, 0, 2]
    """
    c = _check_counts(counts)
    zd = check_zero_division(zero_division)
    jzd = 0.0 if np.isnan(zd) else zd
    tp = c.sample_tp.astype(np.float64)
    fp = c.sample_predicted - tp
    fn = c.sample_true - tp
    jaccard = divide_or_warn(tp, tp + fp + fn, jzd)
    return np.lexsort((jaccard, -c.sample_wrong)).astype(np.int64, copy=False)


def multilabel_label_table(
    y_true,
    y_pred,
    *,
    beta=1.0,
    sample_weight=None,
    zero_division="warn",
    label_names=None,
    summary=False,
):
    """One row per label: the counts and scores behind every multilabel average.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples, n_labels)
        0/1 indicator matrices.
    beta : float, default 1.0
        The F-beta weight, >= 0 (``np.inf`` allowed).
    sample_weight : array-like of shape (n_samples,), default None
        Each sample adds its weight to the counts instead of 1.
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        The value of a 0/0 score: precision of a label never predicted,
        recall of a label with no support, F and Jaccard of a label neither
        true nor predicted anywhere ("warn": 0.0).
    label_names : sequence of str, default None
        Names for the ``label`` column (default "0", "1", ...).
    summary : bool, default False
        Append two rows: ``macro (C-P, C-R, C-F1)``, the unweighted mean of
        the per-label scores (NaN left out, as scikit-learn does), and
        ``micro (O-P, O-R, O-F1)``, the counts pooled over labels and their
        scores; these equal ``precision_recall_fscore_support`` with
        ``average="macro"`` and ``"micro"``, and the Jaccard of
        :func:`jaccard_score` with the same averages.

    Returns
    -------
    pandas.DataFrame
        Columns ``label, tp, fp, fn, tn, support, predicted, precision,
        recall, f1, fbeta, jaccard, no_prediction, no_support``; the last two
        flag the labels whose precision (recall) is a 0/0 set by
        ``zero_division``.

    Examples
    --------
    >>> from metrics.explain.classification import multilabel_label_table
    >>> t = multilabel_label_table([[1, 0], [1, 1], [0, 0]], [[1, 0], [0, 0], [1, 0]])
    >>> t[["label", "tp", "fp", "fn"]].to_dict("list")
    {'label': ['0', '1'], 'tp': [1, 0], 'fp': [1, 0], 'fn': [1, 1]}
    >>> t["precision"].tolist(), t["recall"].tolist()
    ([0.5, 0.0], [0.5, 0.0])
    >>> s = multilabel_label_table([[1, 0], [1, 1]], [[1, 0], [0, 1]], summary=True)
    >>> s["label"].tolist()[2:], s["f1"].round(3).tolist()
    (['macro (C-P, C-R, C-F1)', 'micro (O-P, O-R, O-F1)'], [0.667, 1.0, 0.833, 0.8])
    """
    counts = multilabel_counts(y_true, y_pred, sample_weight=sample_weight)
    return multilabel_label_table_from_counts(
        counts,
        beta=beta,
        zero_division=zero_division,
        label_names=label_names,
        summary=summary,
    )


def multilabel_label_table_from_counts(
    counts, *, beta=1.0, zero_division="warn", label_names=None, summary=False
):
    """:func:`multilabel_label_table` from :func:`multilabel_counts` (no pass over the data).

    Parameters
    ----------
    counts : MultilabelCounts
    beta, zero_division, label_names, summary
        As in :func:`multilabel_label_table`.

    Returns
    -------
    pandas.DataFrame
        The table :func:`multilabel_label_table` gives on the same input. With
        counts of ragged rows (``retrieved=``), a padding cell is no TN and a label
        column that is padding in every row has no row.

    Examples
    --------
    >>> from metrics import multilabel_counts, multilabel_label_table_from_counts
    >>> c = multilabel_counts([[1, 0], [1, 1], [0, 0]], [[1, 0], [0, 0], [1, 0]])
    >>> multilabel_label_table_from_counts(c)[["tp", "fp", "fn", "tn"]].to_dict("list")
    {'tp': [1, 0], 'fp': [1, 0], 'fn': [1, 1], 'tn': [0, 2]}
    """
    import pandas as pd

    c = _check_counts(counts)
    w = c.sample_weight
    zd = check_zero_division(zero_division)
    jzd = 0.0 if np.isnan(zd) else zd
    beta = check_beta(beta)
    summary = check_bool(summary, "summary")
    real = c.labels  # a column of padding only is no label: no row
    names = np.asarray(_names(label_names, c.n_labels), dtype=object)[real].tolist()
    tp, pred, true = c.tp[real], c.predicted[real], c.support[real]
    fp, fn = pred - tp, true - tp
    if c.cells is not None:  # a padding cell is no TN
        total = c.cells[real]
    else:
        total = c.n_samples if w is None else w.sum()
    tn = total - tp - fp - fn
    scores = _score_dict(tp, pred, true, beta, zd, jzd)
    table = pd.DataFrame(
        {
            "label": names,
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "tn": tn,
            "support": true,
            "predicted": pred,
            **scores,
            "no_prediction": pred == 0,
            "no_support": true == 0,
        }
    )
    if w is None:
        for col in ("tp", "fp", "fn", "tn", "support", "predicted"):
            table[col] = table[col].astype(np.int64)
    if not summary:
        return table
    averages = multilabel_averages(c, beta=beta, zero_division=zero_division)
    rows = []
    for average, name in (("macro", "macro (C-P, C-R, C-F1)"), ("micro", "micro (O-P, O-R, O-F1)")):
        pooled = average == "micro"
        rows.append(
            {
                "label": name,
                "tp": tp.sum() if pooled else np.nan,
                "fp": fp.sum() if pooled else np.nan,
                "fn": fn.sum() if pooled else np.nan,
                "tn": tn.sum() if pooled else np.nan,
                "support": true.sum() if pooled else np.nan,
                "predicted": pred.sum() if pooled else np.nan,
                **averages[average],
                "no_prediction": bool(pred.sum() == 0) if pooled else bool((pred == 0).any()),
                "no_support": bool(true.sum() == 0) if pooled else bool((true == 0).any()),
            }
        )
    return pd.concat([table, pd.DataFrame(rows)], ignore_index=True)


def _label_sets(mask: np.ndarray, names) -> np.ndarray:
    """Each row's names where ``mask`` is set, joined by ", " (one pass per label);
    ``names`` a list (every row's) or an object array shaped like ``mask`` (each row's own)."""
    out = np.full(mask.shape[0], "", dtype=object)
    for j in range(mask.shape[1]):
        col = mask[:, j]
        name = names[:, j][col] if isinstance(names, np.ndarray) else names[j]
        sep = np.where(out[col] == "", "", ", ")
        out[col] = out[col] + sep + name
    return out


def _row_names(label_names, shape: tuple[int, int]):
    """``label_names`` of :func:`multilabel_per_sample`: a list of every row's names, or
    an object array of each row's own (a query's document ids)."""
    rows = np.asarray(label_names, dtype=object)
    if rows.ndim != 2:
        return _names(label_names, shape[1])
    if rows.shape != shape:
        raise MetricInputError(f"label_names has shape {rows.shape} but y_true has shape {shape}.")
    return np.vectorize(str, otypes=[object])(rows) if rows.size else rows


def multilabel_per_sample(
    y_true, y_pred, *, beta=1.0, zero_division="warn", label_names=None, retrieved=None
):
    """One row per sample: its counts, errors and scores (unweighted).

    The ``sample_weight``-weighted mean of ``hamming`` is :func:`hamming_loss`,
    of ``exact_match`` :func:`accuracy_score` (subset accuracy), and of
    ``precision``, ``recall``, ``fbeta`` and ``jaccard`` the
    ``average="samples"`` scores (NaN rows left out, as scikit-learn does).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples, n_labels)
        0/1 indicator matrices.
    beta : float, default 1.0
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        A sample with no predicted label has precision 0/0, one with no true
        label recall 0/0, one with neither F and Jaccard 0/0: they take this
        value ("warn": 0.0; Jaccard never takes NaN and uses 0 then).
    label_names : sequence of str, or array of shape (n_samples, n_labels), default None
        When given, adds the columns ``true_labels``, ``predicted_labels``,
        ``missed`` (false negatives) and ``extra`` (false positives), each a
        comma-separated list of names; a 2-D array names each row's items
        itself (a query's document ids).
    retrieved : array-like of bool, shape (n_samples, n_labels), default None
        As in :func:`multilabel_counts`: an unretrieved item is never predicted, a
        padding cell (not retrieved, not true) is no label (``hamming`` divides by
        the row's other cells).

    Returns
    -------
    pandas.DataFrame
        Columns ``n_true, n_predicted, tp, fp, fn, wrong, hamming,
        exact_match, precision, recall, fbeta, jaccard`` (+ the name lists).

    Examples
    --------
    >>> from metrics.explain.classification import multilabel_per_sample
    >>> t = multilabel_per_sample([[1, 0, 1], [0, 0, 0]], [[1, 1, 0], [0, 0, 0]],
    ...                           label_names=["a", "b", "c"])
    >>> t[["wrong", "exact_match", "precision", "recall"]].to_dict("list")
    {'wrong': [2, 0], 'exact_match': [False, True], 'precision': [0.5, 0.0], 'recall': [0.5, 0.0]}
    >>> t[["missed", "extra"]].to_dict("list")
    {'missed': ['c', ''], 'extra': ['b', '']}
    >>> own = multilabel_per_sample([[1, 0], [0, 1]], [[1, 1], [0, 0]],
    ...                             label_names=[["d7", "d2"], ["d9", "d4"]])
    >>> own[["true_labels", "extra", "missed"]].to_dict("list")
    {'true_labels': ['d7', 'd4'], 'extra': ['d2', ''], 'missed': ['', 'd4']}
    >>> multilabel_per_sample([[1, 0, 0]], [[1, 0, 1]], retrieved=[[1, 1, 0]])["hamming"].tolist()
    [0.0]
    """
    import pandas as pd

    yt, yp, _ = _multilabel_pair(y_true, y_pred, None)
    zd = check_zero_division(zero_division)
    jzd = 0.0 if np.isnan(zd) else zd
    beta = check_beta(beta)
    mask = check_retrieved(retrieved, yt)
    n_cells = np.full(yt.shape[0], yt.shape[1])
    if mask is not None and not mask.all():
        yp = np.where(mask, yp, 0)  # an item never retrieved is never predicted
        n_cells = np.count_nonzero(mask | (yt != 0), axis=1)
    tp, pred, true = label_counts(yt, yp, None, True, samplewise=True)
    fp, fn = pred - tp, true - tp
    wrong = fp + fn
    table = pd.DataFrame(
        {
            "n_true": true.astype(np.int64),
            "n_predicted": pred.astype(np.int64),
            "tp": tp.astype(np.int64),
            "fp": fp.astype(np.int64),
            "fn": fn.astype(np.int64),
            "wrong": wrong.astype(np.int64),
            "hamming": divide_or_warn(wrong, n_cells, 0.0),
            "exact_match": wrong == 0,
            "precision": divide_or_warn(tp, pred, zd),
            "recall": divide_or_warn(tp, true, zd),
            "fbeta": _fbeta_from_counts(tp, pred, true, beta, zd),
            "jaccard": divide_or_warn(tp, tp + fp + fn, jzd),
        }
    )
    if label_names is not None:
        names = _row_names(label_names, yt.shape)
        t, p = yt.astype(bool), yp.astype(bool)
        table["true_labels"] = _label_sets(t, names)
        table["predicted_labels"] = _label_sets(p, names)
        table["missed"] = _label_sets(t & ~p, names)
        table["extra"] = _label_sets(p & ~t, names)
    return table


def multilabel_outcomes(y_true, y_pred, *, retrieved=None):
    """Name every cell of a multilabel prediction: "TP", "FP", "FN" or "TN".

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples, n_labels) or (n_samples,)
        0/1 indicator matrices, or one label's 0/1 column (1-D, or a single
        column of shape (n_samples, 1)), which gives a 1-D result.
    retrieved : array-like of bool, shape of ``y_true``, default None
        As in :func:`multilabel_counts`: an unretrieved item is never predicted
        (an unretrieved true label is "FN"); a padding cell (not retrieved, not
        true) is no label and is named "".

    Returns
    -------
    ndarray of shape (n_samples, n_labels) or (n_samples,), dtype ``<U2``

    Examples
    --------
    >>> from metrics.explain.classification import multilabel_outcomes
    >>> multilabel_outcomes([[1, 0, 1, 0]], [[1, 1, 0, 0]]).tolist()
    [['TP', 'FP', 'FN', 'TN']]
    >>> multilabel_outcomes([1, 0, 1], [1, 1, 0]).tolist()
    ['TP', 'FP', 'FN']
    >>> multilabel_outcomes([[1, 0, 1]], [[1, 1, 1]], retrieved=[[1, 0, 0]]).tolist()
    [['TP', '', 'FN']]
    """
    if np.ndim(y_true) == 2 and np.shape(y_true)[1] > 1:
        yt, yp, _ = _multilabel_pair(y_true, y_pred, None)
    else:  # one label's column
        yt, yp, _, _ = classification_targets(y_true, y_pred, None)
        check_binary(yt, "y_true")
        check_binary(yp, "y_pred")
    mask = check_retrieved(retrieved, yt)
    code = 2 * yt.astype(np.int64) + yp.astype(np.int64)
    if mask is not None:
        code = np.where(mask, code, np.where(yt != 0, 2, 4))  # 4: padding
    return np.array(["TN", "FP", "FN", "TP", ""])[code]
