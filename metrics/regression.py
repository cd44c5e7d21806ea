"""Regression metrics: MAE, MSE, RMSE, MAPE, RMSLE and R^2.

Each takes 1-D ``y_true`` and ``y_pred`` (an ``(n, 1)`` column is fine) and an
optional non-negative ``sample_weight``, and returns a Python float equal to
:mod:`sklearn.metrics`' value. MAPE is a fraction (0.25 means 25 %), as
scikit-learn returns it.

Refused beyond scikit-learn: negative weights, weights summing to zero, and
R^2 with fewer than two samples (scikit-learn returns NaN with a warning).
"""

from __future__ import annotations

import numpy as np

from metrics._validation import (
    MetricInputError,
    as_1d,
    check_same_shape,
    check_sample_weight,
    location,
)

__all__ = [
    "MAPE_EPSILON",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_squared_error",
    "r2_score",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
]

#: The float64 machine epsilon scikit-learn's MAPE divides by where |y| is smaller.
MAPE_EPSILON = float(np.finfo(np.float64).eps)


def _targets(y_true, y_pred, sample_weight):
    """Validate and return ``(y_true, y_pred, weights_or_None)`` as float64 vectors."""
    yt = as_1d(y_true, "y_true")
    yp = as_1d(y_pred, "y_pred")
    check_same_shape(yt, yp, "y_true", "y_pred")
    return yt, yp, check_sample_weight(sample_weight, yt.shape[0])


def _check_above_minus_one(y: np.ndarray, name: str) -> None:
    bad = y <= -1
    if bad.any():
        i = int(np.argmax(bad))
        raise MetricInputError(
            f"{name} must be greater than -1 for RMSLE (log(1 + y) is undefined otherwise); "
            f"found {float(y[i])!r} at {location(name, (i,))}."
        )


def mean_absolute_error(y_true, y_pred, *, sample_weight=None):
    """Mean absolute error: the (weighted) mean of |y - y_hat|.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import mean_absolute_error
    >>> mean_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.5
    """
    yt, yp, w = _targets(y_true, y_pred, sample_weight)
    return float(np.average(np.abs(yp - yt), weights=w))


def mean_squared_error(y_true, y_pred, *, sample_weight=None):
    """Mean squared error: the (weighted) mean of (y - y_hat)^2.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import mean_squared_error
    >>> mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.375
    """
    yt, yp, w = _targets(y_true, y_pred, sample_weight)
    return float(np.average((yt - yp) ** 2, weights=w))


def root_mean_squared_error(y_true, y_pred, *, sample_weight=None):
    """Root mean squared error: sqrt of the (weighted) mean of (y - y_hat)^2.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import root_mean_squared_error
    >>> round(root_mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 4)
    0.6124
    """
    yt, yp, w = _targets(y_true, y_pred, sample_weight)
    return float(np.sqrt(np.average((yt - yp) ** 2, weights=w)))


def mean_absolute_percentage_error(y_true, y_pred, *, sample_weight=None):
    """Mean absolute percentage error, as a fraction: mean of |y - y_hat| / max(|y|, eps).

    eps is the float64 epsilon (2.2e-16), so ``y = 0`` gives a huge but
    finite term, as in scikit-learn. Multiply by 100 for percent.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import mean_absolute_percentage_error
    >>> mean_absolute_percentage_error([4], [5])
    0.25
    """
    yt, yp, w = _targets(y_true, y_pred, sample_weight)
    # the same operations as |yp - yt| / max(|yt|, eps), in place: two temporaries, not three
    terms = np.subtract(yp, yt)
    np.abs(terms, out=terms)
    denominator = np.abs(yt)
    np.maximum(denominator, MAPE_EPSILON, out=denominator)
    terms /= denominator
    del denominator
    return float(np.average(terms, weights=w))


def root_mean_squared_log_error(y_true, y_pred, *, sample_weight=None):
    """Root mean squared logarithmic error: RMSE of log(1 + y) against log(1 + y_hat).

    It punishes under-prediction more than over-prediction by the same
    amount. Values must be greater than -1.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import root_mean_squared_log_error
    >>> round(root_mean_squared_log_error([200], [150]), 4)
    0.286
    >>> round(root_mean_squared_log_error([200], [250]), 4)
    0.2221
    """
    yt, yp, w = _targets(y_true, y_pred, sample_weight)
    _check_above_minus_one(yt, "y_true")
    _check_above_minus_one(yp, "y_pred")
    return float(np.sqrt(np.average((np.log1p(yt) - np.log1p(yp)) ** 2, weights=w)))


def r2_score(y_true, y_pred, *, sample_weight=None):
    """Coefficient of determination R^2 = 1 - SS_res / SS_tot.

    SS_res = sum w (y - y_hat)^2 and SS_tot = sum w (y - mean_w(y))^2. When
    ``y_true`` is constant (SS_tot = 0) the score is 1.0 for a perfect
    prediction and 0.0 otherwise, as scikit-learn's ``force_finite=True``.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        At least two samples.
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import r2_score
    >>> round(r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 4)
    0.9486
    """
    yt, yp, w = _targets(y_true, y_pred, sample_weight)
    if yt.shape[0] < 2:
        raise MetricInputError(f"y_true has {yt.shape[0]} sample; R^2 needs at least two samples.")
    weight = 1.0 if w is None else w
    numerator = np.sum(weight * (yt - yp) ** 2)
    denominator = np.sum(weight * (yt - np.average(yt, weights=w)) ** 2)
    if numerator == 0:
        return 1.0
    if denominator == 0:
        return 0.0
    return float(1 - numerator / denominator)
