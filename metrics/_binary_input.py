"""Validated inputs of a binary scorer: 0/1 labels (or a positive label), finite scores.

Shared by the curves (:mod:`metrics.curves`), their explanations
(:mod:`metrics.explain.curves`) and the binary state
(:mod:`metrics.states.binary`), so all refuse the same input with the same
message.
"""

from __future__ import annotations

from numbers import Real

import numpy as np

from metrics._validation import (
    MetricInputError,
    as_1d,
    as_array,
    check_binary,
    check_same_shape,
    check_sample_weight,
    encode_labels,
    format_labels,
    label_code,
    location,
)


def positive_is_zero(pos_label) -> bool:
    """Validate ``pos_label`` for 0/1 labels; True when label 0 is the positive class."""
    if pos_label is None:
        return False
    if isinstance(pos_label, Real) and not isinstance(pos_label, bool | np.bool_):
        if pos_label == 1:
            return False
        if pos_label == 0:
            return True
    elif isinstance(pos_label, bool | np.bool_):
        return not bool(pos_label)
    raise MetricInputError(
        f"pos_label must be None, 1 or 0 (labels are 0/1; 1 is the positive class unless "
        f"pos_label=0); got {pos_label!r}."
    )


def valid_label_array(y_true) -> np.ndarray | None:
    """``y_true`` itself when it is an integer/boolean array of 0/1 (no copy), else None.

    The fast path of the label check: one ``max`` over the unsigned view
    (an integer is 0 or 1 iff its unsigned bits are <= 1), no float64 copy
    and no temporaries. Anything else (floats, lists, bad values) goes
    through :func:`as_array` and :func:`check_binary`, which name the first
    bad element.
    """
    if not isinstance(y_true, np.ndarray) or y_true.ndim not in (1, 2) or y_true.size == 0:
        return None
    kind = y_true.dtype.kind
    if kind == "b":
        return y_true
    if kind not in "iu":
        return None
    bits = y_true if kind == "u" else y_true.view(np.dtype(f"u{y_true.dtype.itemsize}"))
    return y_true if int(bits.max()) <= 1 else None


def finite_scores(y_score, ndim: tuple[int, ...]) -> np.ndarray:
    """``as_array(y_score, "y_score")``, with a cheaper check for float64 arrays.

    A finite minimum and maximum prove every entry finite (both propagate
    NaN; an infinity is the minimum or the maximum): two reductions instead
    of ``np.isfinite``'s boolean matrix. Anything else goes through
    :func:`as_array`, which names the first bad element.
    """
    if (
        isinstance(y_score, np.ndarray)
        and y_score.dtype == np.float64
        and y_score.ndim in ndim
        and y_score.size
        and np.isfinite(y_score.min())
        and np.isfinite(y_score.max())
    ):
        return y_score
    return as_array(y_score, "y_score", ndim=ndim)


def labels_and_scores(y_true, y_score, *, multilabel_ok: bool):
    """Validate ``y_true`` (0/1) and ``y_score``; flatten ``(n, 1)`` columns.

    Returns ``(y, s)``: the 0/1 labels (boolean, integer or float64; turn
    them into a mask with :func:`positive_mask`) and the float64 scores, both 1-D
    (binary) or both 2-D with more than one column (multilabel, only when
    ``multilabel_ok``).
    """
    y = valid_label_array(y_true)
    checked = y is not None
    if not checked:
        y = as_array(y_true, "y_true", ndim=(1, 2))
    if y.ndim == 2 and y.shape[1] == 1:
        y = y[:, 0]
    if y.ndim == 2 and not multilabel_ok:
        raise MetricInputError(
            f"y_true must be 1-D (binary labels, one per sample); got shape {y.shape}."
        )
    if y.ndim == 1:
        s = as_1d(finite_scores(y_score, (1, 2)), "y_score")
    else:
        s = finite_scores(y_score, (1, 2))
    check_same_shape(y, s, "y_true", "y_score")
    if not checked:
        y = check_binary(y, "y_true")
    return y, s


def positive_mask(y: np.ndarray) -> np.ndarray:
    """Boolean positive mask of validated 0/1 labels (no copy for booleans)."""
    return y if y.dtype == bool else y != 0


def fast_pos_label(pos_label) -> bool:
    """Whether ``pos_label`` is one the 0/1 fast path handles (None, 0, 1, False, True)."""
    if pos_label is None or isinstance(pos_label, bool | np.bool_):
        return True
    return isinstance(pos_label, Real) and pos_label in (0, 1)


def class_labels(y_true, name: str = "y_true"):
    """1-D class labels of any kind as float codes: ``(codes, classes or None)``.

    Strings, booleans, objects and pandas categoricals go through
    :func:`metrics._validation.encode_labels`; numeric labels must be whole
    numbers (scikit-learn calls anything else a continuous target).
    """
    (y,), classes = encode_labels(y_true, names=(name,))
    if y.ndim == 2:
        if y.shape[1] != 1:
            raise MetricInputError(
                f"{name} must be 1-D (binary labels, one per sample); got shape {y.shape}."
            )
        y = y[:, 0]
    if classes is None:
        bad = y != np.trunc(y)
        if bad.any():
            i = int(np.argmax(bad))
            raise MetricInputError(
                f"{name} must hold class labels; found the continuous value {float(y[i])!r} "
                f"at {location(name, (i,))}."
            )
    return y, classes


def present_labels(y: np.ndarray, classes) -> np.ndarray:
    """The sorted distinct labels (codes) of ``y`` (whole numbers, validated).

    Two consecutive whole numbers at most (the usual binary case) come from
    ``min`` and ``max`` alone, without ``np.unique``'s sort.
    """
    lo, hi = y.min(), y.max()
    if hi - lo <= 1:
        return np.unique(np.array([lo, hi], dtype=np.float64))
    return np.unique(y)


def pos_code(y: np.ndarray, classes, pos_label) -> float:
    """scikit-learn's ``_check_pos_label_consistency``: the code of the positive class.

    ``pos_label=None`` means 1 and needs labels in {0, 1} or {-1, 1} (or
    one of 0, -1, 1 alone); otherwise the label must be named. A
    ``pos_label`` that does not occur gives NaN (no sample is positive).
    """
    if pos_label is None:
        present = present_labels(y, classes)
        allowed = ([0.0, 1.0], [-1.0, 1.0], [0.0], [-1.0], [1.0])
        if classes is not None or present.tolist() not in allowed:
            shown = ", ".join(
                repr(v)
                for v in format_labels(
                    present if classes is None else classes[present.astype(np.intp)]
                )
            )
            raise MetricInputError(
                f"y_true takes value in {{{shown}}} and pos_label is not specified: either "
                "make y_true take value in {0, 1} or {-1, 1} or pass pos_label explicitly."
            )
        return 1.0
    code = label_code(classes, pos_label)
    return float("nan") if code is None else code


def binary_input(y_true, y_score, sample_weight=None, pos_label=None):
    """Validated binary input: (positive mask, scores, weights or None).

    0/1 labels with ``pos_label`` None/1/0 take the fast path; any other
    labels (``{-1, 1}``, ``{1, 2}``, strings, booleans, categoricals) are
    encoded and compared with ``pos_label`` as scikit-learn's curves do.
    """
    if valid_label_array(y_true) is not None and fast_pos_label(pos_label):
        flip = positive_is_zero(pos_label)
        y, s = labels_and_scores(y_true, y_score, multilabel_ok=False)
        w = check_sample_weight(sample_weight, y.shape[0])
        pos = positive_mask(y)
        return (~pos if flip else pos), s, w
    y, classes = class_labels(y_true)
    s = as_1d(finite_scores(y_score, (1, 2)), "y_score")
    check_same_shape(y, s, "y_true", "y_score")
    w = check_sample_weight(sample_weight, y.shape[0])
    present = present_labels(y, classes)
    if present.shape[0] > 2 and pos_label is None:
        raise MetricInputError(
            f"y_true holds {present.shape[0]} classes (multiclass format is not supported "
            "without pos_label); pass pos_label to score one class against the rest."
        )
    return y == pos_code(y, classes, pos_label), s, w


def refuse_single_class(pos: np.ndarray, w: np.ndarray | None, what: str = "y_true") -> None:
    """ROC rates / AUC need a positive and a negative (with non-zero weight)."""
    n_pos = int(np.count_nonzero(pos))
    if n_pos == 0 or n_pos == pos.shape[0]:
        only = "the positive class" if n_pos else "the negative class"
        raise MetricInputError(
            f"ROC AUC is undefined: {what} holds a single class, only {only}; "
            "it needs at least one positive and one negative."
        )
    if w is not None:
        w_pos = float(w[pos].sum())
        w_neg = float(w.sum()) - w_pos
        if w_pos <= 0 or w_neg <= 0:
            cls = "positive" if w_pos <= 0 else "negative"
            raise MetricInputError(
                f"ROC AUC is undefined: every {cls} sample of {what} has sample_weight 0; "
                "it needs a positive and a negative with non-zero weight."
            )


def two_class_input(y_true, y_score):
    pos, s, _ = binary_input(y_true, y_score)
    refuse_single_class(pos, None)
    return pos, s
