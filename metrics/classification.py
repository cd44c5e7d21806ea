"""Label-based classification metrics: confusion matrix, accuracy, P/R/F, log loss.

Binary and multiclass 1-D labels of any kind (numbers, strings, booleans,
pandas categoricals: one encoding step, :func:`metrics._validation.encode_labels`)
and multilabel indicator input (a 0/1 matrix, samples x labels) as
:mod:`sklearn.metrics` takes them, with the same values (``sample_weight``,
``pos_label``, ``labels=``, degenerate labels and ``zero_division`` included)
and the same warnings (:class:`metrics.UndefinedMetricWarning` for 0/0).

Everything is counted at once: per-label counts are column sums of
``y_true * y_pred`` (weighted by ``sample_weight[:, None]``) or ``np.bincount``
over class indices; there is no Python loop over samples.

Differences from scikit-learn (all listed, with the reasons, in
docs/metrics-differences.md):

* numeric labels must be whole numbers, and multilabel indicator matrices
  0/1; the argument and the first bad element are named; scipy.sparse input
  is not taken;
* ``sample_weight`` must be non-negative with a positive sum;
* R^2 / D^2 with fewer than two samples are refused (scikit-learn: NaN).
"""

from __future__ import annotations

import warnings
from numbers import Real

import numpy as np

from metrics._averages import divide_or_warn, nanaverage
from metrics._class_counts import (
    binary_cells,
    check_integral,
    class_indices,
    classification_targets,
    encoded_targets,
    is_zero_one,
    label_counts,
)
from metrics._validation import (
    MetricInputError,
    UndefinedMetricWarning,
    as_2d,
    as_array,
    check_beta,
    check_binary,
    check_bool,
    check_k,
    check_sample_weight,
    check_zero_division,
    encode_labels,
    format_labels,
    label_code,
    location,
)

__all__ = [
    "accuracy_score",
    "balanced_accuracy_score",
    "brier_score_loss",
    "cohen_kappa_score",
    "confusion_matrix",
    "d2_brier_score",
    "d2_log_loss_score",
    "f1_score",
    "fbeta_score",
    "hamming_loss",
    "jaccard_score",
    "log_loss",
    "log_loss_per_sample",
    "matthews_corrcoef",
    "multilabel_confusion_matrix",
    "precision_recall_fscore_support",
    "precision_score",
    "recall_score",
    "threshold_predictions",
    "top_k_accuracy_score",
    "top_k_predictions",
]

_AVERAGES = ("binary", "micro", "macro", "weighted", "samples")


# ---------------------------------------------------------------------------
# validation helpers
# ---------------------------------------------------------------------------


def _integer_weights(sample_weight) -> bool:
    """True when counts stay integers (no weights, or integer/bool weights)."""
    return sample_weight is None or np.asarray(sample_weight).dtype.kind in "iub"


def _check_average(average, multilabel: bool) -> None:
    if average is not None and not (isinstance(average, str) and average in _AVERAGES):
        raise MetricInputError(
            'average must be one of "binary", "micro", "macro", "weighted", "samples" '
            f"or None; got {average!r}."
        )
    if average == "samples" and not multilabel:
        raise MetricInputError(
            "Samplewise metrics are not available outside of multilabel classification. "
            'average="samples" needs multilabel indicator input (a 0/1 matrix with more '
            "than one column); y_true is 1-D. Use another average."
        )
    if average == "binary" and multilabel:
        raise MetricInputError(
            "Target is multilabel-indicator but average='binary'. Please choose another "
            "average setting, one of [None, 'micro', 'macro', 'weighted', 'samples']. "
            'average="binary" needs 1-D binary labels; y_true is a multilabel indicator '
            'matrix. Use average="micro", "macro", "weighted", "samples" or None.'
        )


def _present(yt: np.ndarray, yp: np.ndarray) -> np.ndarray:
    """The sorted union of the labels (codes) in y_true and y_pred."""
    if is_zero_one(yt) and is_zero_one(yp):
        lo, hi = min(yt.min(), yp.min()), max(yt.max(), yp.max())
        return np.unique(np.array([lo, hi], dtype=np.float64))
    return np.unique(np.concatenate([yt, yp]))


def _shown(present: np.ndarray, classes) -> list:
    """Label codes as the user wrote the labels (for messages)."""
    return format_labels(present if classes is None else classes[present.astype(np.intp)])


def _binary_label(yt, yp, pos_label, classes, multilabel: bool) -> np.ndarray:
    """scikit-learn's ``_check_set_wise_labels`` for average="binary": the one label to score.

    At most two labels may be present; ``pos_label`` must be one of them
    when there are two. Returns the code of ``pos_label`` as a 1-element
    array (NaN when absent: every count is then 0).
    """
    if multilabel:
        raise MetricInputError(
            "Target is multilabel-indicator but average='binary'. Please choose another "
            "average setting, one of [None, 'micro', 'macro', 'weighted', 'samples']."
        )
    present = _present(yt, yp)
    if present.shape[0] > 2:
        raise MetricInputError(
            "Target is multiclass but average='binary'. Please choose another average "
            "setting, one of [None, 'micro', 'macro', 'weighted']."
        )
    code = label_code(classes, pos_label)
    if code is None or not (present == code).any():
        if present.shape[0] >= 2:
            raise MetricInputError(
                f"pos_label={pos_label} is not a valid label. It should be one of "
                f"{np.asarray(_shown(present, classes))}"
            )
        code = float("nan")
    return np.array([code])


def _label_codes(labels, classes) -> np.ndarray:
    """The codes of ``labels=`` entries (NaN for a label that is not a class)."""
    raw = np.asarray(labels)
    if raw.ndim == 1 and raw.shape[0] == 0:
        raise MetricInputError(
            "'labels' should contain at least one label. labels is empty; list at least one label."
        )
    if raw.ndim != 1:
        raise MetricInputError(f"labels must be a 1-D list of labels; got {labels!r}.")
    if classes is None and raw.dtype.kind in "fiub":
        return as_array(raw, "labels", ndim=(1,))
    codes = [label_code(classes, v) for v in raw.tolist()]
    return np.array([np.nan if c is None else c for c in codes], dtype=np.float64)


def _label_selection(yt, yp, average, pos_label, labels, classes, multilabel, stacklevel):
    """The label columns an average counts: the positive class for ``average="binary"``,
    else ``labels=`` (all by default), warning as scikit-learn does when a ``pos_label``
    other than 1 is given for another average (``stacklevel``: the user's call)."""
    if average == "binary":
        return _binary_label(yt, yp, pos_label, classes, multilabel)
    if pos_label not in (None, 1):
        warnings.warn(
            f"Note that pos_label (set to {pos_label!r}) is ignored when average != "
            f"'binary' (got {average!r}). You may use labels=[pos_label] to specify a "
            "single positive class.",
            UserWarning,
            stacklevel=stacklevel,
        )
    return _selected_labels(yt, yp, labels, classes, multilabel)


def _selected_labels(yt, yp, labels, classes, multilabel: bool) -> np.ndarray | None:
    """The codes (1-D input) or column indices (multilabel) of ``labels=``, in its order."""
    if labels is None:
        return None
    raw = np.asarray(labels)
    if raw.ndim != 1 or raw.shape[0] == 0:
        raise MetricInputError(f"labels must be a non-empty 1-D list of labels; got {labels!r}.")
    if multilabel:
        if raw.dtype.kind not in "iu" and not (
            raw.dtype.kind == "f" and np.all(raw == np.trunc(raw))
        ):
            raise MetricInputError(
                f"labels must be column indices for multilabel targets; got {labels!r}."
            )
        idx = raw.astype(np.intp)
        n_labels = yt.shape[1]
        if idx.max() >= n_labels:
            raise MetricInputError(
                "All labels must be in [0, n labels) for multilabel targets. "
                f"Got {int(idx.max())} > {n_labels - 1}"
            )
        if idx.min() < 0:
            raise MetricInputError(
                "All labels must be in [0, n labels) for multilabel targets. "
                f"Got {int(idx.min())} < 0"
            )
        return idx
    # a label that is not among the classes is scored as absent: all its counts are 0
    return _label_codes(raw, classes)


# ---------------------------------------------------------------------------
# counting
# ---------------------------------------------------------------------------


def _prfs(
    yt,
    yp,
    w,
    multilabel,
    *,
    beta,
    average,
    pos_label,
    zero_division,
    labels=None,
    classes=None,
    warn_for=("precision", "recall", "f-score"),
):
    """precision, recall, F-beta and support on validated input."""
    zd = check_zero_division(zero_division)
    warn = isinstance(zero_division, str)
    beta = check_beta(beta)
    _check_average(average, multilabel)
    select = _label_selection(yt, yp, average, pos_label, labels, classes, multilabel, 4)
    tp, pred, true = label_counts(
        yt, yp, w, multilabel, samplewise=average == "samples", select=select
    )
    if average == "micro":
        tp, pred, true = np.array([tp.sum()]), np.array([pred.sum()]), np.array([true.sum()])

    def flag(what, modifier):
        return (what.capitalize(), modifier, average) if warn and what in warn_for else None

    precision = divide_or_warn(tp, pred, zd, flag("precision", "predicted"))
    recall = divide_or_warn(tp, true, zd, flag("recall", "true"))
    if np.isposinf(beta):
        fscore = recall
    elif beta == 0:
        fscore = precision
    else:
        beta2 = beta**2
        fscore = divide_or_warn(
            (1 + beta2) * tp, beta2 * true + pred, zd, flag("f-score", "true nor predicted")
        )
    if average is None:
        support = true.astype(np.int64) if w is None else true
        return precision, recall, fscore, support
    weights = true if average == "weighted" else (w if average == "samples" else None)
    return (
        nanaverage(precision, weights),
        nanaverage(recall, weights),
        nanaverage(fscore, weights),
        None,
    )


# ---------------------------------------------------------------------------
# public functions
# ---------------------------------------------------------------------------
def confusion_matrix(y_true, y_pred, *, labels=None, sample_weight=None, normalize=None):
    """Confusion matrix: entry ``[i, j]`` counts samples of class i predicted as j.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Class labels of any kind (binary or multiclass).
    labels : array-like of shape (n_classes,), default None
        The classes, in the order of the rows and columns (``[1, 0]`` puts
        the positive class first). Samples whose true or predicted label is
        not listed are left out. Default: the sorted labels present.
    sample_weight : array-like of shape (n_samples,), default None
        Each sample adds its weight instead of 1.
    normalize : {"true", "pred", "all"} or None, default None
        Divide by the row sums (recall per class), the column sums
        (precision per class) or the total; an all-zero row/column stays 0.

    Returns
    -------
    ndarray of shape (n_classes, n_classes)
        int64 counts (without weights or with integer weights), float64
        otherwise or when normalized.

    Examples
    --------
    >>> from metrics.classification import confusion_matrix
    >>> confusion_matrix([0, 1, 1, 0, 1], [0, 1, 0, 0, 1])
    array([[2, 0],
           [1, 2]])
    >>> confusion_matrix([0, 1, 1, 0, 1], [0, 1, 0, 0, 1], labels=[1, 0]).tolist()
    [[2, 1], [0, 2]]
    """
    yt, yp, w, multilabel, encoded = encoded_targets(y_true, y_pred, sample_weight)
    if multilabel:
        raise MetricInputError(
            f"confusion_matrix takes 1-D class labels; y_true has shape {yt.shape}. "
            "Use multilabel_confusion_matrix for multilabel indicator input."
        )
    if normalize is not None and not (
        isinstance(normalize, str) and normalize in ("true", "pred", "all")
    ):
        raise MetricInputError(
            f'normalize must be "true", "pred", "all" or None; got {normalize!r}.'
        )
    if labels is None:
        classes, it, ip = class_indices(yt, yp)
        keep = None
    else:
        classes = _label_codes(labels, encoded)
        order = np.argsort(classes, kind="stable")
        sorted_classes = classes[order]
        dup = sorted_classes[1:] == sorted_classes[:-1]
        if dup.any():
            shown = format_labels(np.asarray(labels)[order][1:][dup])[0]
            raise MetricInputError(
                f"labels lists {shown!r} more than once; each class must appear once."
            )
        last = sorted_classes.shape[0] - 1
        pos_t = np.minimum(np.searchsorted(sorted_classes, yt), last)
        pos_p = np.minimum(np.searchsorted(sorted_classes, yp), last)
        found_t = sorted_classes[pos_t] == yt
        if not found_t.any():
            raise MetricInputError(
                "At least one label specified must be in y_true: labels holds none of the "
                "classes in y_true; at least one listed label "
                "must occur in y_true."
            )
        keep = found_t & (sorted_classes[pos_p] == yp)
        it, ip = order[pos_t], order[pos_p]
    n_classes = classes.shape[0]
    integer_weights = w is not None and _integer_weights(sample_weight)
    if it.dtype == np.int8 and not integer_weights:  # two classes 0/1, no labels=
        cm = binary_cells(it, ip, w)
    else:
        cells = it.astype(np.intp, copy=False) * n_classes + ip
        weights = w
        if keep is not None:
            cells = cells[keep]
            weights = None if w is None else w[keep]
        if integer_weights:
            # integer weights are summed as integers: exact past 2**53
            cm = np.zeros(n_classes * n_classes, dtype=np.int64)
            iw = np.asarray(sample_weight).astype(np.int64, copy=False)
            np.add.at(cm, cells, iw if keep is None else iw[keep])
        else:
            cm = np.bincount(cells, weights=weights, minlength=n_classes * n_classes)
    cm = cm.reshape(n_classes, n_classes)
    cm = cm.astype(np.int64 if _integer_weights(sample_weight) else np.float64)
    if n_classes == 1:
        warnings.warn(
            "A single label was found in 'y_true' and 'y_pred'. For the confusion matrix to "
            "have the correct shape, use the 'labels' parameter to pass all known labels.",
            UserWarning,
            stacklevel=2,
        )
    if normalize is None:
        return cm
    if normalize == "true":
        total = cm.sum(axis=1, keepdims=True)
    elif normalize == "pred":
        total = cm.sum(axis=0, keepdims=True)
    else:
        total = cm.sum()
    total = np.broadcast_to(total, cm.shape)
    return np.divide(cm, total, out=np.zeros(cm.shape), where=total != 0)


def multilabel_confusion_matrix(
    y_true, y_pred, *, sample_weight=None, samplewise=False, labels=None
):
    """One 2x2 confusion matrix per label (or per sample), ``[[tn, fp], [fn, tp]]``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples, n_labels) or (n_samples,)
        A 0/1 indicator matrix, or 1-D integer class labels (one matrix per
        class present, sorted, one-vs-rest).
    sample_weight : array-like of shape (n_samples,), default None
    samplewise : bool, default False
        Multilabel only: one matrix per sample (row) instead of per label;
        with weights each row's counts are multiplied by its weight.
    labels : array-like, default None
        The labels to count, in this order (1-D input: class labels, a label
        that never occurs gets zeros; multilabel: column indices). Default:
        every label present, sorted (every column).

    Returns
    -------
    ndarray of shape (n_labels, 2, 2) or (n_samples, 2, 2)
        int64 without weights, float64 with them.

    Examples
    --------
    >>> from metrics.classification import multilabel_confusion_matrix
    >>> multilabel_confusion_matrix([[1, 0], [0, 1], [1, 1]], [[1, 0], [1, 1], [0, 1]]).tolist()
    [[[0, 1], [1, 1]], [[1, 0], [0, 2]]]
    """
    yt, yp, w, multilabel, classes = encoded_targets(y_true, y_pred, sample_weight)
    samplewise = check_bool(samplewise, "samplewise")
    if samplewise and not multilabel:
        raise MetricInputError(
            "Samplewise metrics are not available outside of multilabel classification: "
            "samplewise=True needs multilabel indicator input (a 0/1 matrix with more "
            "than one column); y_true is 1-D."
        )
    select = _selected_labels(yt, yp, labels, classes, multilabel)
    tp, pred, true = label_counts(yt, yp, w, multilabel, samplewise=samplewise, select=select)
    fp = pred - tp
    fn = true - tp
    if samplewise:
        n_cols = yt.shape[1] if select is None else select.shape[0]
        total = n_cols if w is None else w * n_cols
    else:
        total = yt.shape[0] if w is None else w.sum()
    tn = total - tp - fp - fn
    mcm = np.stack([tn, fp, fn, tp], axis=1).reshape(-1, 2, 2)
    return mcm.astype(np.int64) if w is None else mcm


def accuracy_score(y_true, y_pred, *, normalize=True, sample_weight=None):
    """Fraction (or count) of correctly classified samples.

    For multilabel indicator input this is the *subset accuracy*: a sample
    counts only if every one of its labels is right.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of any kind, or 0/1 indicator matrices.
    normalize : bool, default True
        False returns the (weighted) number of correct samples.
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import accuracy_score
    >>> accuracy_score([0, 1, 2, 3], [0, 2, 1, 3])
    0.5
    >>> accuracy_score([[0, 1], [1, 1]], [[1, 1], [1, 1]])
    0.5
    """
    yt, yp, w, multilabel = classification_targets(y_true, y_pred, sample_weight)
    normalize = check_bool(normalize, "normalize")
    correct = (yt == yp).all(axis=1) if multilabel else yt == yp
    if normalize:
        return float(np.average(correct, weights=w))
    return float(correct.sum() if w is None else np.dot(correct, w))


def hamming_loss(y_true, y_pred, *, sample_weight=None):
    """Fraction of wrong labels: (weighted) mean over samples of the share of wrong cells.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of any kind, or 0/1 indicator matrices.
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import hamming_loss
    >>> hamming_loss([[0, 1], [1, 1]], [[1, 1], [1, 1]])
    0.25
    """
    yt, yp, w, multilabel = classification_targets(y_true, y_pred, sample_weight)
    if not multilabel:
        return float(np.average(yt != yp, weights=w))
    wrong = (yt != yp).sum(axis=1)
    n, n_labels = yt.shape
    if w is None:
        return float(wrong.sum() / (n * n_labels))
    return float(np.dot(wrong, w) / (n * n_labels * np.mean(w)))


def precision_recall_fscore_support(
    y_true,
    y_pred,
    *,
    beta=1.0,
    average=None,
    pos_label=1,
    sample_weight=None,
    zero_division="warn",
    labels=None,
    warn_for=("precision", "recall", "f-score"),
):
    """Precision, recall, F-beta and support, per label or averaged.

    precision = tp / (tp + fp), recall = tp / (tp + fn) and
    F-beta = (1 + beta^2) tp / ((1 + beta^2) tp + beta^2 fn + fp), computed from
    the counts (beta = 0 gives precision, beta = inf recall).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of any kind (at most two with ``average="binary"``) or
        0/1 indicator matrices (multilabel).
    beta : float, default 1.0
        Weight of recall against precision, >= 0 (``np.inf`` allowed).
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default None
        None: one value per label. "binary": the ``pos_label`` class of 1-D
        binary input. "micro": from counts summed over labels (multilabel: the
        overall O-P / O-R / O-F1). "macro": mean of the per-label values
        (C-P / C-R / C-F1). "weighted": mean weighted by support.
        "samples" (multilabel only): per-sample values averaged with
        ``sample_weight``. For 1-D input the labels are those present in
        ``y_true`` or ``y_pred``.
    pos_label : label, default 1
        The positive class for ``average="binary"`` (a string for string
        labels); it must be one of the two labels present. Ignored otherwise
        (with a UserWarning when not None or 1).
    sample_weight : array-like of shape (n_samples,), default None
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        The value of a 0/0 score ("warn": 0.0 with an
        :class:`UndefinedMetricWarning`). NaN values are left out of the
        averages (all NaN gives NaN).
    labels : array-like, default None
        The labels to score and their order (1-D input: class labels; a label
        that never occurs scores 0/0; multilabel: column indices).
    warn_for : tuple of str, default ("precision", "recall", "f-score")
        Which 0/0 scores warn (scikit-learn's argument).

    Returns
    -------
    precision, recall, fbeta : float or ndarray of shape (n_labels,)
    support : ndarray of shape (n_labels,) or None
        The (weighted) number of true samples of each label; None when
        averaged.

    Examples
    --------
    >>> from metrics.classification import precision_recall_fscore_support
    >>> p, r, f, s = precision_recall_fscore_support([0, 1, 1, 1], [0, 1, 0, 0])
    >>> p.round(3).tolist(), r.round(3).tolist(), s.tolist()
    ([0.333, 1.0], [1.0, 0.333], [1, 3])
    >>> precision_recall_fscore_support([0, 1, 1, 1], [0, 1, 0, 0], average="binary")[:3]
    (1.0, 0.3333333333333333, 0.5)
    """
    yt, yp, w, multilabel, classes = encoded_targets(y_true, y_pred, sample_weight)
    return _prfs(
        yt,
        yp,
        w,
        multilabel,
        beta=beta,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
        labels=labels,
        classes=classes,
        warn_for=tuple(warn_for),
    )


def precision_score(
    y_true,
    y_pred,
    *,
    average="binary",
    pos_label=1,
    sample_weight=None,
    zero_division="warn",
    labels=None,
):
    """Precision tp / (tp + fp): the share of predicted positives that are right.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of any kind (at most two with ``average="binary"``) or
        0/1 indicator matrices.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default "binary"
        See :func:`precision_recall_fscore_support`.
    pos_label : label, default 1
        The positive class for ``average="binary"`` (any label present).
    sample_weight : array-like of shape (n_samples,), default None
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        The value when nothing is predicted positive ("warn": 0.0).
    labels : array-like, default None
        The labels to score, in this order (see
        :func:`precision_recall_fscore_support`).

    Returns
    -------
    float, or ndarray of shape (n_labels,) with ``average=None``

    Examples
    --------
    >>> from metrics.classification import precision_score
    >>> precision_score([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    >>> precision_score([[1, 0], [1, 1]], [[1, 1], [1, 0]], average="micro")
    0.6666666666666666
    """
    yt, yp, w, multilabel, classes = encoded_targets(y_true, y_pred, sample_weight)
    return _prfs(
        yt,
        yp,
        w,
        multilabel,
        beta=1.0,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
        labels=labels,
        classes=classes,
        warn_for=("precision",),
    )[0]


def recall_score(
    y_true,
    y_pred,
    *,
    average="binary",
    pos_label=1,
    sample_weight=None,
    zero_division="warn",
    labels=None,
):
    """Recall tp / (tp + fn): the share of true positives that are found.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of any kind (at most two with ``average="binary"``) or
        0/1 indicator matrices.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default "binary"
        See :func:`precision_recall_fscore_support`.
    pos_label : label, default 1
        The positive class for ``average="binary"`` (any label present).
    sample_weight : array-like of shape (n_samples,), default None
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        The value when there is no true positive sample ("warn": 0.0).
    labels : array-like, default None
        The labels to score, in this order (see
        :func:`precision_recall_fscore_support`).

    Returns
    -------
    float, or ndarray of shape (n_labels,) with ``average=None``

    Examples
    --------
    >>> from metrics.classification import recall_score
    >>> recall_score([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    """
    yt, yp, w, multilabel, classes = encoded_targets(y_true, y_pred, sample_weight)
    return _prfs(
        yt,
        yp,
        w,
        multilabel,
        beta=1.0,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
        labels=labels,
        classes=classes,
        warn_for=("recall",),
    )[1]


def fbeta_score(
    y_true,
    y_pred,
    *,
    beta,
    average="binary",
    pos_label=1,
    sample_weight=None,
    zero_division="warn",
    labels=None,
):
    """F-beta: (1 + beta^2) tp / ((1 + beta^2) tp + beta^2 fn + fp).

    The weighted harmonic mean of precision and recall, computed from the
    counts; ``beta`` > 1 favours recall, ``beta`` = 0 is precision and
    ``beta`` = inf is recall.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of any kind (at most two with ``average="binary"``) or
        0/1 indicator matrices.
    beta : float
        >= 0, ``np.inf`` allowed.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default "binary"
        See :func:`precision_recall_fscore_support`.
    pos_label : label, default 1
        The positive class for ``average="binary"`` (any label present).
    sample_weight : array-like of shape (n_samples,), default None
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        The value when tp = fp = fn = 0 ("warn": 0.0).
    labels : array-like, default None
        The labels to score, in this order (see
        :func:`precision_recall_fscore_support`).

    Returns
    -------
    float, or ndarray of shape (n_labels,) with ``average=None``

    Examples
    --------
    >>> from metrics.classification import fbeta_score
    >>> round(fbeta_score([1, 1, 0, 0, 1], [1, 0, 1, 0, 0], beta=2), 4)
    0.3571
    """
    yt, yp, w, multilabel, classes = encoded_targets(y_true, y_pred, sample_weight)
    return _prfs(
        yt,
        yp,
        w,
        multilabel,
        beta=beta,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
        labels=labels,
        classes=classes,
        warn_for=("f-score",),
    )[2]


def f1_score(
    y_true,
    y_pred,
    *,
    average="binary",
    pos_label=1,
    sample_weight=None,
    zero_division="warn",
    labels=None,
):
    """F1 = 2 tp / (2 tp + fp + fn), the harmonic mean of precision and recall.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of any kind (at most two with ``average="binary"``) or
        0/1 indicator matrices.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default "binary"
        See :func:`precision_recall_fscore_support`.
    pos_label : label, default 1
        The positive class for ``average="binary"`` (any label present).
    sample_weight : array-like of shape (n_samples,), default None
    zero_division : {"warn", 0, 1, np.nan}, default "warn"
        The value when tp = fp = fn = 0 ("warn": 0.0).
    labels : array-like, default None
        The labels to score, in this order (see
        :func:`precision_recall_fscore_support`).

    Returns
    -------
    float, or ndarray of shape (n_labels,) with ``average=None``

    Examples
    --------
    >>> from metrics.classification import f1_score
    >>> f1_score([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.6666666666666666
    >>> f1_score([[1, 0, 1], [0, 1, 1]], [[1, 0, 0], [0, 1, 1]], average="macro")
    0.8888888888888888
    """
    yt, yp, w, multilabel, classes = encoded_targets(y_true, y_pred, sample_weight)
    return _prfs(
        yt,
        yp,
        w,
        multilabel,
        beta=1.0,
        average=average,
        pos_label=pos_label,
        zero_division=zero_division,
        labels=labels,
        classes=classes,
        warn_for=("f-score",),
    )[2]


def jaccard_score(
    y_true,
    y_pred,
    *,
    average="binary",
    pos_label=1,
    sample_weight=None,
    zero_division="warn",
    labels=None,
):
    """Jaccard index tp / (tp + fp + fn): intersection over union of the label sets.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_labels)
        Class labels of any kind (at most two with ``average="binary"``) or
        0/1 indicator matrices.
    average : {"binary", "micro", "macro", "weighted", "samples"} or None, default "binary"
        As in :func:`precision_recall_fscore_support`.
    pos_label : label, default 1
        The positive class for ``average="binary"`` (any label present).
    sample_weight : array-like of shape (n_samples,), default None
    zero_division : {"warn", 0, 1}, default "warn"
        The value when tp = fp = fn = 0 ("warn": 0.0); NaN is not accepted.
    labels : array-like, default None
        The labels to score, in this order (see
        :func:`precision_recall_fscore_support`).

    Returns
    -------
    float, or ndarray of shape (n_labels,) with ``average=None``

    Examples
    --------
    >>> from metrics.classification import jaccard_score
    >>> jaccard_score([1, 1, 0, 0, 1], [1, 0, 1, 0, 1])
    0.5
    >>> round(jaccard_score([[1, 1, 0], [0, 1, 1]], [[1, 0, 0], [0, 1, 1]], average="samples"), 4)
    0.75
    """
    yt, yp, w, multilabel, classes = encoded_targets(y_true, y_pred, sample_weight)
    zd = check_zero_division(zero_division, allow_nan=False)
    _check_average(average, multilabel)
    select = _label_selection(yt, yp, average, pos_label, labels, classes, multilabel, 3)
    tp, pred, true = label_counts(
        yt, yp, w, multilabel, samplewise=average == "samples", select=select
    )
    fp, fn = pred - tp, true - tp
    denominator = tp + fp + fn
    if average == "micro":
        tp, denominator = np.array([tp.sum()]), np.array([denominator.sum()])
    warn = ("Jaccard", "true or predicted", average) if isinstance(zero_division, str) else None
    jaccard = divide_or_warn(tp, denominator, zd, warn)
    if average is None:
        return jaccard
    weights = None
    if average == "weighted":
        support = fn + tp
        weights = support if support.any() else None
    elif average == "samples":
        weights = w
    return float(np.average(jaccard, weights=weights))


# ---------------------------------------------------------------------------
# log loss
# ---------------------------------------------------------------------------
def _proba_dtype(y_pred):
    """float32/float16 probabilities keep their precision (and eps), as in sklearn."""
    dtype = getattr(y_pred, "dtype", None)
    if dtype in (np.float32, np.float16):
        return np.dtype(dtype)
    return np.dtype(np.float64)


def _log_loss_terms(y_true, y_proba, labels, name: str = "y_proba") -> np.ndarray:
    """Validate and return -sum_c y_c log(clipped p_c) per sample.

    ``y_true``: class labels of any kind (encoded), or a 0/1 indicator matrix
    with one column per class (one-hot; a row may hold several 1s, as
    scikit-learn's LabelBinarizer passes it through).
    """
    dtype = _proba_dtype(y_proba)
    proba = as_array(y_proba, name, ndim=(1, 2))
    if proba.ndim == 2 and proba.shape[1] == 1:
        proba = proba[:, 0]
    if _is_indicator(y_true):
        onehot = check_binary(as_2d(y_true, "y_true"), "y_true")
        if onehot.shape[0] != proba.shape[0]:
            raise MetricInputError(
                f"{name} has {proba.shape[0]} rows but y_true has {onehot.shape[0]} samples."
            )
        _check_probabilities(proba, name)
        n_columns = 2 if proba.ndim == 1 else proba.shape[1]
        if n_columns != onehot.shape[1]:
            raise MetricInputError(
                f"y_true and {name} contain different number of classes: {onehot.shape[1]} "
                f"vs {n_columns}. Please provide the true labels explicitly through the "
                "labels argument."
            )
        p = proba if proba.ndim == 2 else np.column_stack([1 - proba, proba])
        p = p.astype(dtype, copy=True)
        _warn_not_normalized(p, dtype)
        eps = np.finfo(dtype).eps
        np.clip(p, eps, 1 - eps, out=p)
        terms = -(onehot * np.log(p)).sum(axis=1)
        return terms.astype(dtype, copy=False)
    # 1-D labels: the probability of each sample's own class
    if proba.ndim == 1:
        _check_probabilities(proba, name)
        codes, idx, _ = _proba_classes(y_true, proba, labels, name, n_columns=2)
    else:
        codes, idx, _ = _proba_classes(y_true, proba, labels, name)
        _warn_not_normalized(proba, dtype)
    proba = proba.astype(dtype, copy=False)
    if proba.ndim == 1:
        # p = proba for the greater class, 1 - proba for the other, built in place
        p = 1 - proba
        np.copyto(p, proba, where=idx == 1)
    else:
        p = np.take_along_axis(proba, idx[:, None], axis=1)[:, 0]
    eps = np.finfo(dtype).eps
    np.clip(p, eps, 1 - eps, out=p)
    np.log(p, out=p)
    return np.negative(p, out=p)


def _is_indicator(y_true) -> bool:
    """Whether ``y_true`` is a numeric matrix with more than one column (one-hot labels)."""
    try:
        shape = np.shape(y_true)
    except ValueError:
        return False
    if len(shape) != 2 or shape[1] < 2:
        return False
    return np.asarray(y_true).dtype.kind in "fiub"


def _warn_not_normalized(proba: np.ndarray, dtype) -> None:
    """scikit-learn's UserWarning for rows of a probability matrix not summing to 1."""
    eps = np.finfo(dtype).eps
    sums = proba.sum(axis=1)
    if not np.all(np.isclose(sums, 1, rtol=np.sqrt(eps))):
        warnings.warn(
            "The y_prob values do not sum to one. Make sure to pass probabilities.",
            UserWarning,
            stacklevel=4,
        )


def _renamed_proba(y_proba, y_pred):
    """scikit-learn 1.9's rename of log_loss's ``y_pred`` to ``y_proba``."""
    if y_pred is not None:
        if y_proba is not None:
            raise MetricInputError(
                "Cannot use both `y_pred` and `y_proba`. `y_pred` is deprecated, use "
                "`y_proba` instead."
            )
        warnings.warn(
            "`y_pred` was renamed to `y_proba` in version 1.9 and will be removed in 1.11. "
            "Use `y_proba` instead.",
            FutureWarning,
            stacklevel=3,
        )
        return y_pred
    if y_proba is None:
        raise MetricInputError("y_proba is missing: pass the predicted probabilities.")
    return y_proba


def log_loss_per_sample(y_true, y_proba=None, *, labels=None, y_pred=None):
    """Each sample's log-loss term, -log p(true class), clipped at float eps.

    Its mean (``sample_weight``-weighted mean) is :func:`log_loss`.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Class labels of any kind (sorted to name the columns), or a 0/1
        indicator matrix with one column per class (one-hot).
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of the greater of two classes; 2-D: one column
        per class, in sorted class order. Values in [0, 1]; rows are not
        renormalised (a UserWarning when they do not sum to 1).
    labels : array-like, default None
        All the classes (needed when ``y_true`` holds only one).
    y_pred : array-like, default None
        The old name of ``y_proba`` (scikit-learn renamed it in 1.9); a
        FutureWarning.

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    >>> from metrics.classification import log_loss_per_sample
    >>> log_loss_per_sample([1, 0], [0.5, 0.2]).round(4).tolist()
    [0.6931, 0.2231]
    """
    return _log_loss_terms(y_true, _renamed_proba(y_proba, y_pred), labels)


def log_loss(y_true, y_proba=None, *, normalize=True, sample_weight=None, labels=None, y_pred=None):
    """Logistic (cross-entropy) loss: mean of -log p(true class).

    Binary: -(1/N) sum(y log p + (1 - y) log(1 - p)). Probabilities are
    clipped to [eps, 1 - eps] with eps the float epsilon (2.2e-16 for
    float64), so a certain wrong prediction costs 36.04.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Class labels of any kind (classes are sorted), or a 0/1 indicator
        matrix with one column per class (one-hot).
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        1-D: the probability of the greater of two classes; 2-D: one column
        per class. Values in [0, 1].
    normalize : bool, default True
        False returns the (weighted) sum instead of the mean.
    sample_weight : array-like of shape (n_samples,), default None
    labels : array-like, default None
        All the classes (needed when ``y_true`` holds only one).
    y_pred : array-like, default None
        The old name of ``y_proba`` (scikit-learn renamed it in 1.9); a
        FutureWarning.

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import log_loss
    >>> round(log_loss([1, 0, 0, 1], [0.9, 0.1, 0.2, 0.65]), 4)
    0.2162
    >>> round(log_loss([0, 2, 1], [[0.8, 0.1, 0.1], [0.2, 0.2, 0.6], [0.3, 0.5, 0.2]]), 4)
    0.4757
    """
    terms = _log_loss_terms(y_true, _renamed_proba(y_proba, y_pred), labels)
    normalize = check_bool(normalize, "normalize")
    w = check_sample_weight(sample_weight, terms.shape[0])
    if normalize:
        return float(np.average(terms, weights=w))
    return float(terms.sum() if w is None else np.dot(terms, w))


# ---------------------------------------------------------------------------
# multilabel: scores to predictions (the tables: metrics.explain.classification)
# ---------------------------------------------------------------------------
def threshold_predictions(y_score, threshold=0.5, *, dtype=np.int64):
    """0/1 predictions from a score matrix: label j is predicted when ``score >= threshold_j``.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, n_labels)
        Scores or probabilities, finite.
    threshold : float or array-like of shape (n_labels,), default 0.5
        One global cut-off, or one per label (column). A score equal to the
        threshold counts as predicted (the ``>=`` of :func:`roc_curve`).
    dtype : numpy dtype, default np.int64
        Of the result; ``bool`` gives a mask at 1/8 of the memory (what
        :func:`multilabel_counts` takes without a copy).

    Returns
    -------
    ndarray of shape (n_samples, n_labels), int64 (or ``dtype``)

    Examples
    --------
    >>> from metrics.classification import threshold_predictions
    >>> threshold_predictions([[0.2, 0.5, 0.9], [0.6, 0.4, 0.1]], 0.5).tolist()
    [[0, 1, 1], [1, 0, 0]]
    >>> threshold_predictions([[0.2, 0.5, 0.9], [0.6, 0.4, 0.1]], [0.1, 0.5, 0.95]).tolist()
    [[1, 1, 0], [1, 0, 0]]
    >>> threshold_predictions([[0.2, 0.5]], 0.5, dtype=bool).tolist()
    [[False, True]]
    """
    s = as_2d(y_score, "y_score")
    if isinstance(threshold, (bool, np.bool_)):
        raise MetricInputError(f"threshold must be a number or one per label; got {threshold!r}.")
    if isinstance(threshold, Real):
        t = as_array([threshold], "threshold", ndim=(1,))[0]
    else:
        t = as_array(threshold, "threshold", ndim=(1,))
    if np.ndim(t) == 1 and t.shape[0] != s.shape[1]:
        raise MetricInputError(
            f"threshold has {t.shape[0]} entries but y_score has {s.shape[1]} labels "
            "(columns); give one threshold or one per label."
        )
    return (s >= t).astype(dtype, copy=False)


def top_k_predictions(y_score, *, k, dtype=np.int64):
    """0/1 predictions that mark the ``k`` highest-scored labels of every sample.

    Ties are broken by column order, lower column first (the contract's
    Top-K rule: a stable sort on descending score), so every row gets
    exactly ``min(k, n_labels)`` predicted labels.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, n_labels)
    k : int
        >= 1; a ``k`` past the number of labels predicts every label.
    dtype : numpy dtype, default np.int64
        Of the result (``bool``: a mask at 1/8 of the memory).

    Returns
    -------
    ndarray of shape (n_samples, n_labels), int64 (or ``dtype``)

    Examples
    --------
    >>> from metrics.classification import top_k_predictions
    >>> top_k_predictions([[0.1, 0.7, 0.7, 0.2], [0.9, 0.0, 0.3, 0.4]], k=2).tolist()
    [[0, 1, 1, 0], [1, 0, 0, 1]]
    >>> top_k_predictions([[0.5, 0.5, 0.5]], k=1).tolist()
    [[1, 0, 0]]
    """
    s = as_2d(y_score, "y_score")
    k = check_k(k)
    n_labels = s.shape[1]
    if k >= n_labels:
        return np.ones(s.shape, dtype=dtype)
    # No full sort: the k-th highest score of each row (np.partition, linear time),
    # every score above it, then of the scores equal to it the first columns that
    # fill the row up to k -- what a stable sort on descending score keeps.
    kth = np.partition(s, n_labels - k, axis=1)[:, n_labels - k, None]
    above = s > kth
    tied = s == kth
    room = k - np.count_nonzero(above, axis=1)
    rank = np.cumsum(tied, axis=1, dtype=np.min_scalar_type(n_labels))
    pred = above | (tied & (rank <= room[:, None]))
    return pred.astype(dtype, copy=False)


# ---------------------------------------------------------------------------
# more label metrics: MCC, balanced accuracy, Cohen's kappa, Brier, top-k accuracy
# ---------------------------------------------------------------------------
def matthews_corrcoef(y_true, y_pred, *, sample_weight=None):
    """Matthews correlation coefficient (binary and multiclass, R_K of Gorodkin).

    ``(c s - t . p) / sqrt((s^2 - p . p)(s^2 - t . t))`` with c the (weighted)
    number of correct samples, s the total, t and p the per-class true and
    predicted counts; 0.0 when a denominator factor is 0, as scikit-learn.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Class labels of any kind (numbers, strings, booleans).
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float
        In [-1, 1].

    Examples
    --------
    >>> from metrics.classification import matthews_corrcoef
    >>> round(matthews_corrcoef([1, 1, 1, 0], [1, 0, 1, 1]), 4)
    -0.3333
    """
    cm = confusion_matrix(y_true, y_pred, sample_weight=sample_weight)
    t_sum = cm.sum(axis=1, dtype=np.float64)
    p_sum = cm.sum(axis=0, dtype=np.float64)
    n_correct = np.trace(cm, dtype=np.float64)
    n_samples = p_sum.sum()
    cov_ytyp = n_correct * n_samples - np.dot(t_sum, p_sum)
    cov_ypyp = n_samples**2 - np.dot(p_sum, p_sum)
    cov_ytyt = n_samples**2 - np.dot(t_sum, t_sum)
    product = cov_ypyp * cov_ytyt
    if product == 0:
        return 0.0
    return float(cov_ytyp / np.sqrt(product))


def balanced_accuracy_score(y_true, y_pred, *, sample_weight=None, adjusted=False):
    """Balanced accuracy: the mean over classes of the recall of each class.

    A class that only occurs in ``y_pred`` has no recall and is left out
    (with a UserWarning, as scikit-learn). ``adjusted=True`` rescales so that
    chance scores 0: ``(score - 1/K) / (1 - 1/K)``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Class labels of any kind.
    sample_weight : array-like of shape (n_samples,), default None
    adjusted : bool, default False

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import balanced_accuracy_score
    >>> balanced_accuracy_score([0, 1, 0, 0, 1, 0], [0, 1, 0, 0, 0, 1])
    0.625
    """
    adjusted = check_bool(adjusted, "adjusted")
    cm = confusion_matrix(y_true, y_pred, sample_weight=sample_weight)
    support = cm.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        per_class = np.diag(cm) / support
    if np.isnan(per_class).any():
        warnings.warn("y_pred contains classes not in y_true", UserWarning, stacklevel=2)
        per_class = per_class[~np.isnan(per_class)]
    score = np.mean(per_class)
    if adjusted:
        chance = 1 / per_class.shape[0]
        score -= chance
        score /= 1 - chance
    return float(score)


def cohen_kappa_score(
    y1, y2, *, labels=None, weights=None, sample_weight=None, replace_undefined_by=np.nan
):
    """Cohen's kappa: agreement of two annotators beyond chance, 1 - sum(w O) / sum(w E).

    O is the confusion matrix of ``y1`` against ``y2`` and E the one
    expected by chance (outer product of its margins over the total); w is
    0 on the diagonal and 1 elsewhere, or ``|i - j|`` ("linear") or
    ``(i - j)^2`` ("quadratic") for ordinal labels.

    Parameters
    ----------
    y1, y2 : array-like of shape (n_samples,)
        The two annotators' labels, of any kind.
    labels : array-like, default None
        The classes to count (and their order, which matters for
        ``weights``); default the sorted labels present.
    weights : {None, "linear", "quadratic"}, default None
    sample_weight : array-like of shape (n_samples,), default None
    replace_undefined_by : float, default np.nan
        The value when kappa is 0/0 (with an :class:`UndefinedMetricWarning`).

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import cohen_kappa_score
    >>> round(cohen_kappa_score([0, 1, 1, 2], [0, 1, 2, 2]), 4)
    0.6364
    """
    if weights not in (None, "linear", "quadratic"):
        raise MetricInputError(f'weights must be None, "linear" or "quadratic"; got {weights!r}.')
    try:
        cm = confusion_matrix(y1, y2, labels=labels, sample_weight=sample_weight)
    except MetricInputError as exc:
        message = str(exc).replace("y_true", "y1").replace("y_pred", "y2")
        if "At least one label specified" in message:
            message = (
                "At least one label in `labels` must be present in `y1` (even though "
                "`cohen_kappa_score` is otherwise agnostic to the order of `y1` and `y2`)."
            )
        raise MetricInputError(message) from None
    cm = cm.astype(np.float64)
    n_classes = cm.shape[0]
    sum0, sum1 = cm.sum(axis=0), cm.sum(axis=1)
    total = sum0.sum()
    if total == 0:
        warnings.warn(
            "`y2` contains no labels that are present in both `y1` and `labels`. "
            "`cohen_kappa_score` is undefined and set to the value defined by the "
            f"`replace_undefined_by` param, which is set to {replace_undefined_by}.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return replace_undefined_by
    expected = np.outer(sum0, sum1) / total
    index = np.arange(n_classes)
    if weights is None:
        w_mat = 1.0 - np.eye(n_classes)
    elif weights == "linear":
        w_mat = np.abs(index[None, :] - index[:, None]).astype(np.float64)
    else:
        w_mat = ((index[None, :] - index[:, None]) ** 2).astype(np.float64)
    denominator = np.sum(w_mat * expected)
    if denominator == 0:
        warnings.warn(
            "`y1`, `y2` and `labels` have only one label in common. `cohen_kappa_score` "
            "is undefined and set to the value defined by the `replace_undefined_by` "
            f"param, which is set to {replace_undefined_by}.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
        return replace_undefined_by
    return float(1 - np.sum(w_mat * cm) / denominator)


def _check_probabilities(proba: np.ndarray, name: str) -> None:
    bad = (proba < 0) | (proba > 1)
    if bad.any():
        where = np.unravel_index(int(np.argmax(bad)), bad.shape)
        value = float(proba[where])
        side = f"greater than 1: {proba.max()}" if value > 1 else f"less than 0: {proba.min()}"
        raise MetricInputError(
            f"{name} must hold probabilities in [0, 1]; found {value!r} "
            f"at {location(name, where)} (y_prob contains values {side})."
        )


def brier_score_loss(
    y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None, scale_by_half="auto"
):
    """Brier score: the (weighted) mean squared distance of probabilities to the outcome.

    Binary (1-D ``y_proba``, the probability of ``pos_label``):
    mean of (p - [y == pos_label])^2. Multiclass (one column per class,
    sorted): mean over samples of sum_c (p_c - [y == c])^2, halved when
    there are at most two columns (``scale_by_half="auto"``), as
    scikit-learn 1.9.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Class labels of any kind.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        Probabilities in [0, 1].
    sample_weight : array-like of shape (n_samples,), default None
    pos_label : label, default None
        Binary: the positive class; None means 1 for labels in {0, 1} or
        {-1, 1}, otherwise the greater label (strings must name it).
    labels : array-like, default None
        Multiclass: all the classes, in column order (sorted).
    scale_by_half : bool or "auto", default "auto"

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import brier_score_loss
    >>> round(brier_score_loss([0, 1, 1, 0], [0.1, 0.9, 0.8, 0.3]), 4)
    0.0375
    """
    proba = as_array(y_proba, "y_proba", ndim=(1, 2))
    if proba.ndim == 2 and proba.shape[1] == 1:
        proba = proba[:, 0]
    if not (isinstance(scale_by_half, (bool, np.bool_)) or scale_by_half == "auto"):
        raise MetricInputError(
            f'scale_by_half must be True, False or "auto"; got {scale_by_half!r}.'
        )
    if proba.ndim == 1:
        (y,), classes = encode_labels(y_true, names=("y_true",), ndim=(1, 2))
        if y.ndim == 2:
            if y.shape[1] != 1:
                raise MetricInputError(f"y_true must be 1-D for a 1-D y_proba; got {y.shape}.")
            y = y[:, 0]
        if y.shape[0] != proba.shape[0]:
            raise MetricInputError(
                f"y_proba has {proba.shape[0]} rows but y_true has {y.shape[0]} samples."
            )
        present = np.unique(y)
        if present.shape[0] > 2:
            raise MetricInputError(
                "The type of the target inferred from y_true is multiclass but should be "
                "binary according to the shape of y_prob."
            )
        _check_probabilities(proba, "y_proba")
        if pos_label is None:
            if classes is not None:
                raise MetricInputError(
                    f"y_true takes value in {set(format_labels(classes))} and pos_label is not "
                    "specified: either make y_true take value in {0, 1} or {-1, 1} or pass "
                    "pos_label explicitly."
                )
            allowed = ([0.0, 1.0], [-1.0, 1.0], [0.0], [-1.0], [1.0])
            code = 1.0 if present.tolist() in allowed else float(present[-1])
        else:
            code = label_code(classes, pos_label)
        target = (y == code) if code is not None else np.zeros(y.shape, dtype=bool)
        terms = 2 * (target - proba) ** 2  # both columns [1 - p, p] count
        n_columns = 2
    elif _is_indicator(y_true):  # one-hot y_true, one column per class
        onehot = check_binary(as_2d(y_true, "y_true"), "y_true")
        _check_probabilities(proba, "y_proba")
        if onehot.shape != proba.shape:
            raise MetricInputError(
                f"y_true and y_proba have different shapes: {onehot.shape} and {proba.shape}."
            )
    else:
        classes_, idx, _ = _proba_classes(y_true, proba, labels, "y_proba")
        onehot = np.zeros(proba.shape)
        onehot[np.arange(proba.shape[0]), idx] = 1.0
    if proba.ndim == 2:
        terms = ((onehot - proba) ** 2).sum(axis=1)
        n_columns = proba.shape[1]
    w = check_sample_weight(sample_weight, terms.shape[0])
    score = float(np.average(terms, weights=w))
    if scale_by_half == "auto":
        scale_by_half = n_columns < 3
    return score * 0.5 if scale_by_half else score


def _proba_classes(y_true, proba: np.ndarray, labels, proba_name: str, *, n_columns=None):
    """Classes of a probability matrix: ``(classes, column index of each sample, codes)``.

    ``labels`` (sorted) or the sorted labels of ``y_true`` name the columns;
    their number must equal the number of columns.
    """
    if labels is None:
        (y,), classes = encode_labels(y_true, names=("y_true",), ndim=(1, 2))
    else:  # encoded together, so labels may name classes y_true lacks
        (y, label_codes), classes = encode_labels(y_true, labels, names=("y_true", "labels"))
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim != 1:
        raise MetricInputError(f"y_true must be 1-D class labels; got shape {y.shape}.")
    if classes is None:
        check_integral(y, "y_true")
    if y.shape[0] != proba.shape[0]:
        raise MetricInputError(
            f"{proba_name} has {proba.shape[0]} rows but y_true has {y.shape[0]} samples. Found "
            f"input variables with inconsistent numbers of samples: [{proba.shape[0]}, "
            f"{y.shape[0]}]"
        )
    if n_columns is None:
        _check_probabilities(proba, proba_name)
        n_columns = proba.shape[1]
    if labels is None:
        present = np.unique(y)
        if present.shape[0] < 2:
            raise MetricInputError(
                f"y_true contains only one label ({_shown(present, classes)[0]}). Please "
                "provide the list of all expected class labels explicitly through the "
                "labels argument."
            )
        codes = present
    else:
        given = label_codes
        codes = np.unique(given)
        if given.shape[0] == codes.shape[0] and not np.array_equal(given, codes):
            warnings.warn(
                f"Labels passed were {labels}. But this function assumes labels are ordered "
                f"lexicographically. Pass the ordered labels={sorted(labels)} and ensure that "
                "the columns of y_prob correspond to this ordering.",
                UserWarning,
                stacklevel=4,
            )
        if codes.shape[0] < 2:
            raise MetricInputError(
                f"The labels array needs to contain at least two labels, got {labels!r}."
            )
    at = np.minimum(np.searchsorted(codes, y), codes.shape[0] - 1)
    missing = codes[at] != y
    if missing.any():
        i = int(np.argmax(missing))
        undeclared = set(_shown(np.unique(y[missing]), classes))
        raise MetricInputError(
            f"y_true contains values {undeclared} not belonging to the passed labels "
            f"{labels}. The first is at {location('y_true', (i,))}."
        )
    if codes.shape[0] != n_columns and labels is not None:
        raise MetricInputError(
            "The number of classes in labels is different from that in y_prob. Classes "
            f"found in labels: {np.asarray(_shown(codes, classes))} ({codes.shape[0]} labels, "
            f"{n_columns} columns in {proba_name})."
        )
    if codes.shape[0] != n_columns:
        raise MetricInputError(
            f"y_true and y_prob contain different number of classes: "
            f"{codes.shape[0]} vs {n_columns}. Please provide the true labels "
            "explicitly through the labels argument. Classes found in y_true: "
            f"{np.asarray(_shown(codes, classes))}"
        )
    return codes, at, y


def top_k_accuracy_score(y_true, y_score, *, k=2, normalize=True, sample_weight=None, labels=None):
    """Top-k accuracy: the share of samples whose true class is among the k best-scored.

    Ties follow scikit-learn: classes are ordered by a stable ascending sort
    of the scores, reversed, so among equal scores the higher column comes
    first. Binary input (1-D ``y_score``, the score of the greater class):
    with k = 1 the prediction is ``score > 0.5`` for probabilities (else
    ``> 0``); k >= 2 is always right.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Class labels of any kind.
    y_score : array-like of shape (n_samples,) or (n_samples, n_classes)
        One column per class, in sorted class order (or ``labels`` order).
    k : int, default 2
    normalize : bool, default True
        False returns the (weighted) number of hits.
    sample_weight : array-like of shape (n_samples,), default None
    labels : array-like, default None
        All the classes, sorted; needed when ``y_true`` lacks some.

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import top_k_accuracy_score
    >>> y_score = [[0.5, 0.2, 0.2], [0.3, 0.4, 0.2], [0.2, 0.4, 0.3], [0.7, 0.2, 0.1]]
    >>> top_k_accuracy_score([0, 1, 2, 2], y_score, k=2)
    0.75
    """
    k = check_k(k)
    normalize = check_bool(normalize, "normalize")
    if labels is None:
        (y,), classes = encode_labels(y_true, names=("y_true",), ndim=(1, 2))
        given = None
    else:
        (y, given), classes = encode_labels(y_true, labels, names=("y_true", "labels"))
    if y.ndim == 2:
        if y.shape[1] != 1:
            raise MetricInputError(f"y_true must be 1-D class labels; got shape {y.shape}.")
        y = y[:, 0]
    if classes is None and (y != np.trunc(y)).any():
        raise MetricInputError("y type must be 'binary' or 'multiclass', got 'continuous'")
    s = as_array(y_score, "y_score", ndim=(1, 2))
    if s.ndim == 2 and s.shape[1] == 1:
        s = s[:, 0]
    if s.shape[0] != y.shape[0]:
        raise MetricInputError(
            f"y_score has {s.shape[0]} rows but y_true has {y.shape[0]} samples."
        )
    present = np.unique(y)
    binary = present.shape[0] <= 2 and (labels is None or len(labels) <= 2)
    if binary and s.ndim == 2:
        raise MetricInputError(
            f"`y_true` is binary while y_score is 2d with {s.shape[1]} classes. If "
            "`y_true` does not contain all the labels, `labels` must be provided."
        )
    if not binary and s.ndim != 2:
        raise MetricInputError(
            "`y_score` needs to be of shape `(n_samples, n_classes)`, since `y_true` contains "
            f"multiple classes. Got `y_score.shape={s.shape}`."
        )
    n_score_classes = s.shape[1] if s.ndim == 2 else 2
    if given is None:
        codes = present
        if codes.shape[0] != n_score_classes:
            raise MetricInputError(
                f"Number of classes in 'y_true' ({codes.shape[0]}) not equal to the number of "
                f"classes in 'y_score' ({n_score_classes}). You can provide a list of all "
                "known classes by assigning it to the `labels` parameter."
            )
    else:
        codes = given
        if np.unique(codes).shape[0] != codes.shape[0]:
            raise MetricInputError("Parameter 'labels' must be unique.")
        if not np.all(np.diff(codes) > 0):
            raise MetricInputError("Parameter 'labels' must be ordered.")
        if codes.shape[0] != n_score_classes:
            raise MetricInputError(
                f"Number of given labels ({codes.shape[0]}) not equal to the number of "
                f"classes in 'y_score' ({n_score_classes})."
            )
        if np.setdiff1d(present, codes).shape[0]:
            raise MetricInputError("'y_true' contains labels not in parameter 'labels'.")
    if k >= codes.shape[0]:
        warnings.warn(
            f"'k' ({k}) greater than or equal to 'n_classes' ({codes.shape[0]}) will result "
            "in a perfect score and is therefore meaningless.",
            UndefinedMetricWarning,
            stacklevel=2,
        )
    t = np.searchsorted(codes, y)
    if s.ndim == 1:
        if k == 1:
            threshold = 0.5 if s.min() >= 0 and s.max() <= 1 else 0
            hits = (s > threshold).astype(np.int64) == t
        else:
            hits = np.ones(s.shape[0], dtype=bool)
    else:
        true_score = s[np.arange(s.shape[0]), t][:, None]
        cols = np.arange(s.shape[1])
        ahead = (s > true_score) | ((s == true_score) & (cols[None, :] > t[:, None]))
        hits = np.count_nonzero(ahead, axis=1) < k
    w = check_sample_weight(sample_weight, y.shape[0])
    if normalize:
        return float(np.average(hits, weights=w))
    return float(hits.sum() if w is None else np.dot(hits, w))


# ---------------------------------------------------------------------------
# D^2 of probabilistic classification: the fraction of a loss explained
# ---------------------------------------------------------------------------
def _onehot_and_proba(y_true, y_proba, *, labels, pos_label=None, binary_pos=False):
    """``(onehot, proba)``, both (n_samples, n_classes), as scikit-learn transforms them.

    ``binary_pos``: a 1-D ``y_proba`` is the probability of ``pos_label``
    (Brier's rule); otherwise of the greater class (log loss's rule).
    """
    proba = as_array(y_proba, "y_proba", ndim=(1, 2))
    if proba.ndim == 2 and proba.shape[1] == 1:
        proba = proba[:, 0]
    if proba.shape[0] < 2:
        raise MetricInputError(
            f"y_proba has {proba.shape[0]} sample; D^2 score is not well-defined with less "
            "than two samples."
        )
    n_true = np.shape(y_true)[0] if np.ndim(y_true) else 0
    if n_true != proba.shape[0]:
        raise MetricInputError(
            f"y_true has {n_true} samples but y_proba has {proba.shape[0]} rows. Found input "
            f"variables with inconsistent numbers of samples: [{proba.shape[0]}, {n_true}]"
        )
    if _is_indicator(y_true) and proba.ndim == 1:
        raise MetricInputError(
            f"y_true is 2-D {np.shape(y_true)} but y_proba is 1-D. Multioutput target data is "
            "not supported with a 1-D y_proba."
        )
    if _is_indicator(y_true):
        onehot = check_binary(as_2d(y_true, "y_true"), "y_true").astype(np.float64)
    elif proba.ndim == 1 and binary_pos:
        (y,), classes = encode_labels(y_true, names=("y_true",), ndim=(1, 2))
        y = y.reshape(-1) if y.ndim == 2 and y.shape[1] == 1 else y
        present = np.unique(y)
        if present.shape[0] > 2:
            raise MetricInputError(
                "The type of the target inferred from y_true is multiclass but should be "
                "binary according to the shape of y_prob."
            )
        if pos_label is None:
            allowed = ([0.0, 1.0], [-1.0, 1.0], [0.0], [-1.0], [1.0])
            if classes is not None:
                raise MetricInputError(
                    f"y_true takes value in {set(format_labels(classes))} and pos_label is "
                    "not specified: either make y_true take value in {0, 1} or {-1, 1} or "
                    "pass pos_label explicitly."
                )
            code = 1.0 if present.tolist() in allowed else float(present[-1])
        else:
            code = label_code(classes, pos_label)
        target = (y == code) if code is not None else np.zeros(y.shape, dtype=bool)
        onehot = np.column_stack([~target, target]).astype(np.float64)
    else:
        n_columns = 2 if proba.ndim == 1 else proba.shape[1]
        if proba.ndim == 1:
            _check_probabilities(proba, "y_proba")
        _, idx, _ = _proba_classes(
            y_true, proba, labels, "y_proba", n_columns=n_columns if proba.ndim == 1 else None
        )
        onehot = np.zeros((idx.shape[0], n_columns))
        onehot[np.arange(idx.shape[0]), idx] = 1.0
    if proba.ndim == 1:
        _check_probabilities(proba, "y_proba")
        proba = np.column_stack([1 - proba, proba])
    if onehot.shape != proba.shape:
        raise MetricInputError(
            f"y_true and y_proba contain different number of classes: {onehot.shape[1]} vs "
            f"{proba.shape[1]}."
        )
    _check_probabilities(proba, "y_proba")
    return onehot, proba


def d2_log_loss_score(y_true, y_proba=None, *, sample_weight=None, labels=None, y_pred=None):
    """D^2 of the log loss: 1 - log_loss(model) / log_loss(class frequencies).

    The reference model predicts, for every sample, the (weighted) share of
    each class in ``y_true``; it scores 0, a perfect model 1.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Class labels of any kind, or one-hot labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        As :func:`log_loss`.
    sample_weight : array-like of shape (n_samples,), default None
    labels : array-like, default None
        All the classes, sorted.
    y_pred : array-like, default None
        The old name of ``y_proba`` (a FutureWarning).

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import d2_log_loss_score
    >>> round(d2_log_loss_score([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4]), 4)
    0.5686
    """
    y_proba = _renamed_proba(y_proba, y_pred)
    onehot, proba = _onehot_and_proba(y_true, y_proba, labels=labels)
    w = check_sample_weight(sample_weight, onehot.shape[0])
    null = np.average(onehot, axis=0, weights=w)
    eps = np.finfo(np.float64).eps
    terms = -(onehot * np.log(np.clip(proba, eps, 1 - eps))).sum(axis=1)
    null_terms = -(onehot * np.log(np.clip(null, eps, 1 - eps))).sum(axis=1)
    numerator = terms.sum() if w is None else np.dot(terms, w)
    denominator = null_terms.sum() if w is None else np.dot(null_terms, w)
    return float(1 - numerator / denominator)


def d2_brier_score(y_true, y_proba, *, sample_weight=None, pos_label=None, labels=None):
    """D^2 of the Brier score (Brier skill score): 1 - Brier(model) / Brier(class frequencies).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,) or (n_samples, n_classes)
        Class labels of any kind, or one-hot labels.
    y_proba : array-like of shape (n_samples,) or (n_samples, n_classes)
        As :func:`brier_score_loss`.
    sample_weight : array-like of shape (n_samples,), default None
    pos_label : label, default None
        Binary: the class whose probability a 1-D ``y_proba`` holds.
    labels : array-like, default None
        Multiclass: all the classes, sorted.

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.classification import d2_brier_score
    >>> round(d2_brier_score([0, 1, 1, 0], [0.2, 0.7, 0.9, 0.4]), 4)
    0.7
    """
    onehot, proba = _onehot_and_proba(
        y_true, y_proba, labels=labels, pos_label=pos_label, binary_pos=True
    )
    w = check_sample_weight(sample_weight, onehot.shape[0])
    null = np.average(onehot, axis=0, weights=w)
    score = np.average(((onehot - proba) ** 2).sum(axis=1), weights=w)
    null_score = np.average(((onehot - null) ** 2).sum(axis=1), weights=w)
    return float(1 - score / null_score)
