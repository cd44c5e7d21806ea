"""Regression metrics: MAE, MSE, RMSE, MAPE, RMSLE and R^2.

Each takes ``y_true`` and ``y_pred`` of shape ``(n_samples,)`` or
``(n_samples, n_outputs)``, an optional non-negative ``sample_weight`` and
``multioutput`` as scikit-learn: ``"uniform_average"`` (the mean of the
per-output scores, a Python float), ``"raw_values"`` (one score per output),
an array of output weights, and for R^2 also ``"variance_weighted"``. The
values equal :mod:`sklearn.metrics`'. MAPE is a fraction (0.25 means 25 %),
as scikit-learn returns it.

Refused beyond scikit-learn: negative weights, weights summing to zero, and
R^2 with fewer than two samples (scikit-learn returns NaN with a warning).
"""

from __future__ import annotations

import numpy as np

from metrics._validation import (
    MetricInputError,
    as_array,
    check_sample_weight,
    location,
    regression_targets,
)

_MULTIOUTPUT = ("raw_values", "uniform_average", "variance_weighted")

__all__ = [
    "MAPE_EPSILON",
    "d2_tweedie_score",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_gamma_deviance",
    "mean_poisson_deviance",
    "mean_squared_error",
    "mean_tweedie_deviance",
    "r2_score",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
]

#: The float64 machine epsilon scikit-learn's MAPE divides by where |y| is smaller.
MAPE_EPSILON = float(np.finfo(np.float64).eps)


def _outputs(y_true, y_pred, sample_weight, multioutput, *, variance_weighted=False):
    """Validate multi-output input: ``(y_true, y_pred, weights, multioutput)``.

    1-D input stays 1-D (one output); 2-D input is ``(n_samples, n_outputs)``.
    ``multioutput`` comes back as a string or a float64 array of output
    weights.
    """
    yt = as_array(y_true, "y_true", ndim=(1, 2))
    yp = as_array(y_pred, "y_pred", ndim=(1, 2))
    if yt.shape[0] != yp.shape[0]:
        raise MetricInputError(
            f"y_true and y_pred have different shapes: {yt.shape} and {yp.shape} "
            "(different numbers of samples)."
        )
    n_true = 1 if yt.ndim == 1 else yt.shape[1]
    n_pred = 1 if yp.ndim == 1 else yp.shape[1]
    if n_true != n_pred:
        raise MetricInputError(
            f"y_true and y_pred have different number of output ({n_true}!={n_pred})"
        )
    if n_true == 1:
        yt, yp = yt.reshape(-1), yp.reshape(-1)
    w = check_sample_weight(sample_weight, yt.shape[0])
    allowed = _MULTIOUTPUT if variance_weighted else _MULTIOUTPUT[:2]
    if isinstance(multioutput, str):
        if multioutput not in allowed:
            raise MetricInputError(
                f"Allowed 'multioutput' string values are {allowed}. You provided "
                f"multioutput={multioutput!r}"
            )
    else:
        weights = as_array(multioutput, "multioutput", ndim=(1,))
        if n_true == 1:
            raise MetricInputError("Custom weights are useful only in multi-output cases.")
        if weights.shape[0] != n_true:
            raise MetricInputError(
                f"There must be equally many custom weights ({weights.shape[0]}) as "
                f"outputs ({n_true})."
            )
        multioutput = weights
    return yt, yp, w, multioutput


def _per_output_mean(terms: np.ndarray, w) -> np.ndarray:
    """The (weighted) mean of per-sample terms, one per output (axis 0)."""
    return np.atleast_1d(np.average(terms, weights=w, axis=0))


def _combine(scores: np.ndarray, multioutput):
    """One float from per-output scores (``"raw_values"``: the array itself)."""
    if isinstance(multioutput, str):
        if multioutput == "raw_values":
            return scores
        return float(np.average(scores))
    return float(np.average(scores, weights=multioutput))


def _check_above_minus_one(y: np.ndarray, name: str) -> None:
    bad = y <= -1
    if bad.any():
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(bad)), bad.shape))
        raise MetricInputError(
            "Mean Squared Logarithmic Error cannot be used when targets contain values less "
            f"than or equal to -1. {name} must be greater than -1 for RMSLE (log(1 + y) is "
            "undefined otherwise); "
            f"found {float(y[where])!r} at {location(name, where)}."
        )


def mean_absolute_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean absolute error: the (weighted) mean of |y - y_hat|.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default None
    multioutput : {"uniform_average", "raw_values"} or array-like, default "uniform_average"
        How the per-output scores combine: their mean, all of them, or their
        mean weighted by the given output weights.

    Returns
    -------
    float, or ndarray of shape (n_outputs,) with ``multioutput="raw_values"``

    Examples
    --------
    >>> from metrics.regression import mean_absolute_error
    >>> mean_absolute_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.5
    """
    yt, yp, w, multioutput = _outputs(y_true, y_pred, sample_weight, multioutput)
    return _combine(_per_output_mean(np.abs(yp - yt), w), multioutput)


def mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Mean squared error: the (weighted) mean of (y - y_hat)^2.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default None
    multioutput : {"uniform_average", "raw_values"} or array-like, default "uniform_average"
        How the per-output scores combine: their mean, all of them, or their
        mean weighted by the given output weights.

    Returns
    -------
    float, or ndarray of shape (n_outputs,) with ``multioutput="raw_values"``

    Examples
    --------
    >>> from metrics.regression import mean_squared_error
    >>> mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8])
    0.375
    """
    yt, yp, w, multioutput = _outputs(y_true, y_pred, sample_weight, multioutput)
    return _combine(_per_output_mean((yt - yp) ** 2, w), multioutput)


def root_mean_squared_error(y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"):
    """Root mean squared error: sqrt of the (weighted) mean of (y - y_hat)^2.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default None
    multioutput : {"uniform_average", "raw_values"} or array-like, default "uniform_average"
        How the per-output scores combine: their mean, all of them, or their
        mean weighted by the given output weights.

    Returns
    -------
    float, or ndarray of shape (n_outputs,) with ``multioutput="raw_values"``

    Examples
    --------
    >>> from metrics.regression import root_mean_squared_error
    >>> round(root_mean_squared_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 4)
    0.6124
    """
    yt, yp, w, multioutput = _outputs(y_true, y_pred, sample_weight, multioutput)
    return _combine(np.sqrt(_per_output_mean((yt - yp) ** 2, w)), multioutput)


def mean_absolute_percentage_error(
    y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"
):
    """Mean absolute percentage error, as a fraction: mean of |y - y_hat| / max(|y|, eps).

    eps is the float64 epsilon (2.2e-16), so ``y = 0`` gives a huge but
    finite term, as in scikit-learn. Multiply by 100 for percent.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default None
    multioutput : {"uniform_average", "raw_values"} or array-like, default "uniform_average"
        How the per-output scores combine: their mean, all of them, or their
        mean weighted by the given output weights.

    Returns
    -------
    float, or ndarray of shape (n_outputs,) with ``multioutput="raw_values"``

    Examples
    --------
    >>> from metrics.regression import mean_absolute_percentage_error
    >>> mean_absolute_percentage_error([4], [5])
    0.25
    """
    yt, yp, w, multioutput = _outputs(y_true, y_pred, sample_weight, multioutput)
    # the same operations as |yp - yt| / max(|yt|, eps), in place: two temporaries, not three
    terms = np.subtract(yp, yt)
    np.abs(terms, out=terms)
    denominator = np.abs(yt)
    np.maximum(denominator, MAPE_EPSILON, out=denominator)
    terms /= denominator
    del denominator
    return _combine(_per_output_mean(terms, w), multioutput)


def root_mean_squared_log_error(
    y_true, y_pred, *, sample_weight=None, multioutput="uniform_average"
):
    """Root mean squared logarithmic error: RMSE of log(1 + y) against log(1 + y_hat).

    It punishes under-prediction more than over-prediction by the same
    amount. Values must be greater than -1.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
    sample_weight : array-like of shape (n_samples,), default None
    multioutput : {"uniform_average", "raw_values"} or array-like, default "uniform_average"
        How the per-output scores combine: their mean, all of them, or their
        mean weighted by the given output weights.

    Returns
    -------
    float, or ndarray of shape (n_outputs,) with ``multioutput="raw_values"``

    Examples
    --------
    >>> from metrics.regression import root_mean_squared_log_error
    >>> round(root_mean_squared_log_error([200], [150]), 4)
    0.286
    >>> round(root_mean_squared_log_error([200], [250]), 4)
    0.2221
    """
    yt, yp, w, multioutput = _outputs(y_true, y_pred, sample_weight, multioutput)
    _check_above_minus_one(yt, "y_true")
    _check_above_minus_one(yp, "y_pred")
    terms = (np.log1p(yt) - np.log1p(yp)) ** 2
    return _combine(np.sqrt(_per_output_mean(terms, w)), multioutput)


def r2_score(
    y_true, y_pred, *, sample_weight=None, multioutput="uniform_average", force_finite=True
):
    """Coefficient of determination R^2 = 1 - SS_res / SS_tot.

    SS_res = sum w (y - y_hat)^2 and SS_tot = sum w (y - mean_w(y))^2. When
    ``y_true`` is constant (SS_tot = 0) the score is 1.0 for a perfect
    prediction and 0.0 otherwise, as scikit-learn's ``force_finite=True``
    (``force_finite=False``: NaN or -inf, the plain formula).

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,) or (n_samples, n_outputs)
        At least two samples.
    sample_weight : array-like of shape (n_samples,), default None
    multioutput : {"uniform_average", "raw_values", "variance_weighted"} or array-like
        Default "uniform_average". "variance_weighted" weights each output's
        score by its SS_tot.
    force_finite : bool, default True

    Returns
    -------
    float, or ndarray of shape (n_outputs,) with ``multioutput="raw_values"``

    Examples
    --------
    >>> from metrics.regression import r2_score
    >>> round(r2_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 4)
    0.9486
    """
    yt, yp, w, multioutput = _outputs(
        y_true, y_pred, sample_weight, multioutput, variance_weighted=True
    )
    force_finite = _check_bool(force_finite, "force_finite")
    if yt.shape[0] < 2:
        raise MetricInputError(f"y_true has {yt.shape[0]} sample; R^2 needs at least two samples.")
    if yt.ndim == 1:
        yt, yp = yt[:, None], yp[:, None]
    weight = 1.0 if w is None else w[:, None]
    numerator = np.sum(weight * (yt - yp) ** 2, axis=0)
    denominator = np.sum(weight * (yt - np.average(yt, axis=0, weights=w)) ** 2, axis=0)
    nonzero_denominator = denominator != 0
    if not force_finite:
        with np.errstate(divide="ignore", invalid="ignore"):
            scores = 1 - numerator / denominator
    else:
        nonzero_numerator = numerator != 0
        scores = np.ones(numerator.shape[0])
        valid = nonzero_denominator & nonzero_numerator
        scores[valid] = 1 - numerator[valid] / denominator[valid]
        scores[nonzero_numerator & ~nonzero_denominator] = 0.0
    if isinstance(multioutput, str) and multioutput == "variance_weighted":
        if not nonzero_denominator.any():
            return float(np.average(scores))
        return float(np.average(scores, weights=denominator))
    return _combine(scores, multioutput)


def _check_bool(value, name: str) -> bool:
    if not isinstance(value, (bool, np.bool_)):
        raise MetricInputError(f"{name} must be True or False; got {value!r}.")
    return bool(value)


# ---------------------------------------------------------------------------
# Tweedie deviances and their D^2
# ---------------------------------------------------------------------------
def _check_power(power) -> float:
    if isinstance(power, bool | np.bool_) or not isinstance(power, int | float | np.number):
        raise MetricInputError(f"power must be a number <= 0 or >= 1; got {power!r}.")
    power = float(power)
    if not np.isfinite(power) or 0 < power < 1:
        raise MetricInputError(
            f"power must be <= 0 or >= 1 (no Tweedie distribution exists in (0, 1)); got {power!r}."
        )
    return power


def _tweedie_terms(yt: np.ndarray, yp, power: float) -> np.ndarray:
    """Unit Tweedie deviances (scikit-learn's formulas); ``yp`` may be a scalar."""
    p = power
    with np.errstate(divide="ignore", invalid="ignore"):
        if p < 0:
            return 2 * (
                np.power(np.where(yt > 0, yt, 0.0), 2 - p) / ((1 - p) * (2 - p))
                - yt * np.power(yp, 1 - p) / (1 - p)
                + np.power(yp, 2 - p) / (2 - p)
            )
        if p == 0:
            return (yt - yp) ** 2
        if p == 1:
            xlogy = np.where(yt == 0, 0.0, yt * np.log(yt / yp))
            return 2 * (xlogy - yt + yp)
        if p == 2:
            return 2 * (np.log(yp / yt) + yt / yp - 1)
        return 2 * (
            np.power(yt, 2 - p) / ((1 - p) * (2 - p))
            - yt * np.power(yp, 1 - p) / (1 - p)
            + np.power(yp, 2 - p) / (2 - p)
        )


def _check_tweedie_domain(yt: np.ndarray, yp: np.ndarray, power: float) -> None:
    message = f"Mean Tweedie deviance error with power={power:g} can only be used on "
    if power < 0:
        bad, name, what = yp <= 0, "y_pred", "strictly positive y_pred."
        if bad.any():
            i = int(np.argmax(bad))
            raise MetricInputError(message + what + f" Found {yp[i]!r} at {location(name, (i,))}.")
    elif 1 <= power < 2:
        for y, name, bad in ((yt, "y_true", yt < 0), (yp, "y_pred", yp <= 0)):
            if bad.any():
                i = int(np.argmax(bad))
                raise MetricInputError(
                    message + "non-negative y and strictly positive y_pred. "
                    f"Found {y[i]!r} at {location(name, (i,))}."
                )
    elif power >= 2:
        for y, name in ((yt, "y_true"), (yp, "y_pred")):
            bad = y <= 0
            if bad.any():
                i = int(np.argmax(bad))
                raise MetricInputError(
                    message + "strictly positive y and y_pred. "
                    f"Found {y[i]!r} at {location(name, (i,))}."
                )


def mean_tweedie_deviance(y_true, y_pred, *, sample_weight=None, power=0):
    """Mean Tweedie deviance: power 0 is the squared error, 1 Poisson, 2 Gamma.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), default None
    power : float, default 0
        <= 0 or >= 1. Poisson (1 <= power < 2) needs y >= 0 and y_pred > 0;
        power >= 2 needs both > 0; power < 0 needs y_pred > 0.

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import mean_tweedie_deviance
    >>> round(mean_tweedie_deviance([2, 0, 1, 4], [0.5, 0.5, 2.0, 2.0], power=1), 4)
    1.426
    """
    yt, yp, w = regression_targets(y_true, y_pred, sample_weight)
    power = _check_power(power)
    _check_tweedie_domain(yt, yp, power)
    return float(np.average(_tweedie_terms(yt, yp, power), weights=w))


def mean_poisson_deviance(y_true, y_pred, *, sample_weight=None):
    """Mean Poisson deviance: :func:`mean_tweedie_deviance` with power 1.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        y >= 0, y_pred > 0.
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import mean_poisson_deviance
    >>> round(mean_poisson_deviance([2, 0, 1, 4], [0.5, 0.5, 2.0, 2.0]), 4)
    1.426
    """
    return mean_tweedie_deviance(y_true, y_pred, sample_weight=sample_weight, power=1)


def mean_gamma_deviance(y_true, y_pred, *, sample_weight=None):
    """Mean Gamma deviance: :func:`mean_tweedie_deviance` with power 2.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        Both > 0.
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import mean_gamma_deviance
    >>> round(mean_gamma_deviance([2, 0.5, 1, 4], [0.5, 0.5, 2, 2.0]), 4)
    1.0569
    """
    return mean_tweedie_deviance(y_true, y_pred, sample_weight=sample_weight, power=2)


def d2_tweedie_score(y_true, y_pred, *, sample_weight=None, power=0):
    """D^2 of the Tweedie deviance: 1 - deviance(model) / deviance(the weighted mean of y).

    With power 0 it is R^2.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
        At least two samples.
    sample_weight : array-like of shape (n_samples,), default None
    power : float, default 0
        As :func:`mean_tweedie_deviance`.

    Returns
    -------
    float

    Examples
    --------
    >>> from metrics.regression import d2_tweedie_score
    >>> round(d2_tweedie_score([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]), 4)
    0.9486
    """
    yt, yp, w = regression_targets(y_true, y_pred, sample_weight)
    power = _check_power(power)
    if yt.shape[0] < 2:
        raise MetricInputError(
            f"y_true has {yt.shape[0]} sample; D^2 score is not well-defined with less than "
            "two samples."
        )
    _check_tweedie_domain(yt, yp, power)
    numerator = np.average(_tweedie_terms(yt, yp, power), weights=w)
    y_avg = np.average(yt, weights=w)
    denominator = np.average(_tweedie_terms(yt, y_avg, power), weights=w)
    return float(1 - numerator / denominator)
