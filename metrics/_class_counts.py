"""Encoded classification targets and their counts per class.

The one encoding step of every classification metric (labels of any kind
to float codes, checked integral) and the per-class true positive,
predicted and true counts the averages are made of, shared by
:mod:`metrics.classification` and :mod:`metrics.explain.classification`.
"""

from __future__ import annotations

import numpy as np

from metrics._validation import (
    MetricInputError,
    as_array,
    check_binary,
    check_same_shape,
    check_sample_weight,
    encode_labels,
    location,
)


def as_labels(y, name: str) -> np.ndarray:
    """1-D labels or a label matrix; an ``(n, 1)`` column becomes 1-D."""
    arr = as_array(y, name, ndim=(1, 2))
    if arr.ndim == 2 and arr.shape[1] == 1:
        arr = arr[:, 0]
    return arr


#: Entries checked at a time by :func:`check_integral` (bounds its temporaries).
CHECK_BLOCK = 1 << 20


def check_integral(y: np.ndarray, name: str) -> None:
    """Refuse class labels that are not whole numbers, naming the first one.

    Checked by blocks of :data:`CHECK_BLOCK` labels, so the ``np.trunc``
    temporary stays small whatever the input size.
    """
    if y.dtype.kind in "iub":
        return
    flat = y.reshape(-1)
    step = CHECK_BLOCK
    if not any(
        (flat[i : i + step] != np.trunc(flat[i : i + step])).any()
        for i in range(0, flat.shape[0], step)
    ):
        return
    bad = y != np.trunc(y)
    if bad.any():
        i = int(np.argmax(bad))
        raise MetricInputError(
            f"{name} must hold integer class labels; found {float(y[i]):g} "
            f"at {location(name, (i,))}."
        )


def classification_targets(y_true, y_pred, sample_weight):
    """Validate a pair of label arrays and the weights.

    Returns ``(y_true, y_pred, weights_or_None, multilabel)``; multilabel
    input (2-D, more than one column) must be 0/1, 1-D input integer labels
    (string, boolean and categorical labels are encoded, see
    :func:`encoded_targets`).
    """
    return encoded_targets(y_true, y_pred, sample_weight)[:4]


def encoded_targets(y_true, y_pred, sample_weight):
    """:func:`classification_targets` plus ``classes``: the sorted original labels of encoded input.

    String, object and pandas categorical labels are encoded jointly
    (:func:`metrics._validation.encode_labels`) into float codes whose order
    is the labels' order; ``classes`` is None for numeric labels.
    """
    (yt, yp), classes = encode_labels(y_true, y_pred, names=("y_true", "y_pred"))
    if yt.ndim == 2 and yt.shape[1] == 1:
        yt = yt[:, 0]
    if yp.ndim == 2 and yp.shape[1] == 1:
        yp = yp[:, 0]
    check_same_shape(yt, yp, "y_true", "y_pred")
    multilabel = yt.ndim == 2
    if multilabel:
        check_binary(yt, "y_true")
        check_binary(yp, "y_pred")
    else:
        check_integral(yt, "y_true")
        check_integral(yp, "y_pred")
    w = check_sample_weight(sample_weight, yt.shape[0])
    return yt, yp, w, multilabel, classes


def is_zero_one(y: np.ndarray) -> bool:
    """Whether every value of ``y`` is 0 or 1 (bool, integer or float)."""
    return y.dtype == bool or bool(np.all((y == 0) | (y == 1)))


def class_indices(yt: np.ndarray, yp: np.ndarray):
    """Sorted union of the labels present and each sample's index into it."""
    if is_zero_one(yt) and is_zero_one(yp):
        # The common binary case without np.unique's sort and concatenated copy.
        lo, hi = min(yt.min(), yp.min()), max(yt.max(), yp.max())
        classes = np.unique(np.array([lo, hi], dtype=np.result_type(yt, yp)))
        if classes.shape[0] == 1:
            return classes, np.zeros(yt.shape[0], np.intp), np.zeros(yp.shape[0], np.intp)
        # int8 indices (1/8 of intp); callers count them with binary_cells
        return classes, yt.astype(np.int8), yp.astype(np.int8)
    classes, inverse = np.unique(np.concatenate([yt, yp]), return_inverse=True)
    n = yt.shape[0]
    return classes, inverse[:n], inverse[n:]


def binary_cells(it: np.ndarray, ip: np.ndarray, w) -> np.ndarray:
    """The 2x2 confusion cells ``[tn, fp, fn, tp]`` of int8 0/1 class indices.

    What ``np.bincount(2 * it + ip, weights=w, minlength=4)`` gives, without
    intp copies of the indices: counts by ``np.count_nonzero`` (exact
    integers), weighted sums by ``np.sum(w, where=cell)``.
    """
    t, p = it.view(bool), ip.view(bool)
    if w is None:
        n = t.shape[0]
        n_t, n_p = np.count_nonzero(t), np.count_nonzero(p)
        n_tp = np.count_nonzero(t & p)
        return np.array([n - n_t - n_p + n_tp, n_p - n_tp, n_t - n_tp, n_tp], dtype=np.int64)
    nt, np_ = ~t, ~p
    return np.array(
        [
            np.sum(w, where=nt & np_),
            np.sum(w, where=nt & p),
            np.sum(w, where=t & np_),
            np.sum(w, where=t & p),
        ],
        dtype=np.float64,
    )


def label_counts(yt, yp, w, multilabel: bool, *, samplewise: bool = False, select=None):
    """Weighted (tp, pred, true) per label, or per row when ``samplewise``.

    With ``select`` (label codes for 1-D input, column indices for
    multilabel) the arrays hold the counts of those labels in that order
    (zeros for a label that never occurs).
    """
    if multilabel and select is not None:
        yt, yp = yt[:, select], yp[:, select]
    if multilabel:
        if w is None or samplewise:  # summed along an axis: a boolean AND (1/8 the memory)
            both = np.logical_and(yt, yp)
        else:
            both = yt * yp  # w @ both needs numbers
        if samplewise:
            tp, pred, true = both.sum(axis=1, dtype=np.float64), yp.sum(axis=1), yt.sum(axis=1)
            if w is not None:
                tp, pred, true = tp * w, pred * w, true * w
        elif w is None:
            tp, pred, true = both.sum(axis=0, dtype=np.float64), yp.sum(axis=0), yt.sum(axis=0)
        else:
            tp, pred, true = w @ both, w @ yp, w @ yt
        return tp, pred, true
    classes, it, ip = class_indices(yt, yp)
    n_classes = classes.shape[0]
    if it.dtype == np.int8:  # two classes 0/1
        tn, fp, fn, tp1 = binary_cells(it, ip, w)
        tp, pred, true = (
            np.array([tn, tp1]),
            np.array([tn + fn, fp + tp1]),
            np.array([tn + fp, fn + tp1]),
        )
    else:
        hit = it == ip
        tp = np.bincount(it[hit], weights=None if w is None else w[hit], minlength=n_classes)
        pred = np.bincount(ip, weights=w, minlength=n_classes)
        true = np.bincount(it, weights=w, minlength=n_classes)
    tp = tp.astype(np.float64, copy=False)
    pred = pred.astype(np.float64, copy=False)
    true = true.astype(np.float64, copy=False)
    if select is not None:
        classes = classes.astype(np.float64, copy=False)
        at = np.minimum(np.searchsorted(classes, select), n_classes - 1)
        found = classes[at] == select
        pick = lambda a: np.where(found, a[at], 0.0)  # noqa: E731
        return pick(tp), pick(pred), pick(true)
    return tp, pred, true
