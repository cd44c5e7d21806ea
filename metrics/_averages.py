"""Averages shared by the metrics.

The one weighted mean of per-sample values, used by every ``*_score`` that
averages rows, and the ratios and class averages of the classification
scores (:mod:`metrics.classification`, its explanations and the multilabel
state): a division that gives ``zero_division`` (and warns) where it is 0/0,
and an average that skips the classes without a value.
"""

from __future__ import annotations

import warnings

import numpy as np

from metrics._validation import (
    UndefinedMetricWarning,
)

__all__ = ["divide_or_warn", "nanaverage", "warn_undefined", "weighted_mean"]


def weighted_mean(values: np.ndarray, weights: np.ndarray | None) -> float:
    """The mean of ``values``, weighted by ``weights`` (None: the plain mean).

    ``np.average``, as scikit-learn averages per-sample scores (``dcg_score``,
    ``coverage_error``, ``average="samples"``), so the float is the one
    scikit-learn computes from the same per-sample values. ``weights`` are
    validated (:func:`metrics._validation.check_sample_weight`): non-negative
    with a positive sum.

    Parameters
    ----------
    values : ndarray of shape (n_samples,)
    weights : ndarray of shape (n_samples,) or None

    Returns
    -------
    float

    Examples
    --------
    >>> import numpy as np
    >>> values = np.array([1.0, 0.0])
    >>> weighted_mean(values, None), weighted_mean(values, np.array([3.0, 1.0]))
    (0.5, 0.75)
    """
    if weights is None:
        return float(values.mean())
    return float(np.average(values, weights=weights))


def divide_or_warn(numerator, denominator, zero_division: float, warn=None) -> np.ndarray:
    """numerator / denominator with 0/0 (any x/0) replaced by ``zero_division``.

    ``warn``: ``(what, modifier, average)`` to emit scikit-learn's
    :class:`UndefinedMetricWarning` when a division by zero happens
    (``zero_division="warn"``), e.g. ``("Precision", "predicted", "macro")``.
    """
    mask = denominator == 0
    result = np.asarray(numerator, dtype=np.float64) / np.where(mask, 1.0, denominator)
    if mask.any():
        result[mask] = zero_division
        if warn is not None:
            warn_undefined(*warn, result.shape[0])
    return result


def warn_undefined(what: str, modifier: str, average, size: int) -> None:
    """scikit-learn's ``_warn_prf`` message, with our :class:`UndefinedMetricWarning`."""
    axis0, axis1 = ("label", "sample") if average == "samples" else ("sample", "label")
    where = "due to" if size == 1 else f"in {axis1}s with"
    warnings.warn(
        f"{what} is ill-defined and being set to 0.0 {where} no {modifier} {axis0}s. "
        "Use `zero_division` parameter to control this behavior.",
        UndefinedMetricWarning,
        stacklevel=4,
    )


def nanaverage(values: np.ndarray, weights) -> float:
    """scikit-learn's ``nanaverage``: a weighted mean that drops NaN entries.

    All NaN gives NaN; weights summing to zero after dropping fall back to the
    plain mean.
    """
    mask = np.isnan(values)
    if mask.all():
        return float("nan")
    if weights is None:
        return float(np.mean(values[~mask]))
    kept, kept_w = values[~mask], np.asarray(weights, dtype=np.float64)[~mask]
    if not kept_w.sum():
        return float(np.mean(kept))
    return float(np.average(kept, weights=kept_w))
