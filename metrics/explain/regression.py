"""Teaching helpers of the regression page: every regression metric laid out per sample.

The per-sample error terms behind every metric (:func:`regression_errors`),
recency weights to try ``sample_weight`` with, and the step table of each
metric (:func:`regression_steps`), whose last line equals the metric of
:mod:`metrics.regression` on the same input.
"""

from __future__ import annotations

import numpy as np

from metrics._validation import MetricInputError, regression_targets
from metrics.regression import (
    MAPE_EPSILON,
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
    root_mean_squared_log_error,
)

__all__ = [
    "ERROR_COLUMNS",
    "REGRESSION_STEP_METRICS",
    "recency_weights",
    "regression_errors",
    "regression_steps",
]

#: The columns of :func:`regression_errors`.
ERROR_COLUMNS = (
    "y_true",
    "y_pred",
    "residual",
    "absolute_error",
    "squared_error",
    "percentage_error",
    "log_error",
    "squared_log_error",
    "y_true_zero",
    "log_undefined",
)


def regression_errors(y_true, y_pred):
    """The per-sample error terms behind every regression metric, one row per sample.

    Columns (see ``ERROR_COLUMNS``):

    - ``residual`` = y - y_hat (negative means over-prediction);
    - ``absolute_error`` = |y - y_hat| (MAE is their weighted mean);
    - ``squared_error`` = (y - y_hat)^2 (MSE is their weighted mean);
    - ``percentage_error`` = |y - y_hat| / max(|y|, eps), a fraction, with
      scikit-learn's eps = 2.2e-16 (MAPE is their weighted mean), so a row
      with ``y = 0`` gives a huge but finite term;
    - ``log_error`` = log(1 + y) - log(1 + y_hat) and ``squared_log_error``
      its square (MSLE is their weighted mean, RMSLE its root); NaN where
      ``y`` or ``y_hat`` is at or below -1, where log(1 + .) is undefined
      (such rows are marked in ``log_undefined``; RMSLE refuses them);
    - ``y_true_zero``: the rows where MAPE divides by eps instead of |y|.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)

    Returns
    -------
    pandas.DataFrame
        ``n_samples`` rows in input order.

    Examples
    --------
    >>> from metrics.explain.regression import regression_errors
    >>> t = regression_errors([200.0, 200.0, 0.0], [150.0, 250.0, 1.0])
    >>> t[["absolute_error", "squared_error", "percentage_error"]].to_numpy().tolist()
    [[50.0, 2500.0, 0.25], [50.0, 2500.0, 0.25], [1.0, 1.0, 4503599627370496.0]]
    >>> t["log_error"].round(4).tolist(), t["y_true_zero"].tolist()
    ([0.286, -0.2221, -0.6931], [False, False, True])
    """
    import pandas as pd

    yt, yp, _ = regression_targets(y_true, y_pred, None)
    residual = yt - yp
    absolute = np.abs(residual)
    undefined = (yt <= -1) | (yp <= -1)
    with np.errstate(invalid="ignore", divide="ignore"):
        log_error = np.where(undefined, np.nan, np.log1p(np.where(undefined, 0.0, yt))) - np.log1p(
            np.where(undefined, 0.0, yp)
        )
    return pd.DataFrame(
        {
            "y_true": yt,
            "y_pred": yp,
            "residual": residual,
            "absolute_error": absolute,
            "squared_error": residual**2,
            "percentage_error": absolute / np.maximum(np.abs(yt), MAPE_EPSILON),
            "log_error": log_error,
            "squared_log_error": log_error**2,
            "y_true_zero": yt == 0,
            "log_undefined": undefined,
        }
    )


def recency_weights(n_samples):
    """Weights growing linearly with row order, scaled to mean 1: w_i = 2 i / (n + 1).

    A weighted MAE that weighs recent samples more ("the older a sample,
    the lower its weight"): with rows in time order, row i (1-based) gets
    weight proportional to i. Because the weights average 1, the plain mean
    (1/N) sum w_i |e_i| and scikit-learn's sum w_i |e_i| / sum w_i agree.

    Parameters
    ----------
    n_samples : int
        At least 1.

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    >>> from metrics.explain.regression import recency_weights
    >>> recency_weights(4).tolist()
    [0.4, 0.8, 1.2, 1.6]
    """
    n = int(n_samples)
    if n < 1:
        raise MetricInputError(f"n_samples must be at least 1; got {n_samples!r}.")
    return 2.0 * np.arange(1, n + 1, dtype=np.float64) / (n + 1)


#: The metrics :func:`regression_steps` lays out.
REGRESSION_STEP_METRICS = ("mae", "mse", "rmse", "mape", "rmsle", "r2")


def regression_steps(y_true, y_pred, *, metric, sample_weight=None):
    """How one regression metric is computed, as a table of named steps.

    Each step has the quantity (``step``), its formula in words
    (``formula``) and its ``value``; the last row's value equals the metric
    (``mean_absolute_error`` for ``"mae"``, and so on). Without weights every
    w_i is 1, so the weight sum is the number of samples.

    Parameters
    ----------
    y_true, y_pred : array-like of shape (n_samples,)
    metric : {"mae", "mse", "rmse", "mape", "rmsle", "r2"}
    sample_weight : array-like of shape (n_samples,), default None

    Returns
    -------
    pandas.DataFrame
        Columns ``step``, ``formula``, ``value``.

    Raises
    ------
    MetricInputError
        As the metric itself: RMSLE with a value at or below -1, R^2 with one
        sample, an unknown ``metric``.

    Examples
    --------
    >>> from metrics.explain.regression import regression_steps
    >>> regression_steps([3, -0.5, 2, 7], [2.5, 0.0, 2, 8], metric="mae")["value"].tolist()
    [4.0, 2.0, 0.5]
    """
    import pandas as pd

    if metric not in REGRESSION_STEP_METRICS:
        raise MetricInputError(f"metric must be one of {REGRESSION_STEP_METRICS}; got {metric!r}.")
    yt, yp, w = regression_targets(y_true, y_pred, sample_weight)
    weight = np.ones_like(yt) if w is None else w
    total = float(np.sum(weight))
    rows = [("W", "sum of the weights w_i (n when unweighted)", total)]
    if metric == "mae":
        s = float(np.sum(weight * np.abs(yt - yp)))
        rows += [
            ("S", "sum of w_i |y_i - y_hat_i|", s),
            ("MAE", "S / W", mean_absolute_error(yt, yp, sample_weight=w)),
        ]
    elif metric in ("mse", "rmse"):
        s = float(np.sum(weight * (yt - yp) ** 2))
        rows += [
            ("S", "sum of w_i (y_i - y_hat_i)^2", s),
            ("MSE", "S / W", mean_squared_error(yt, yp, sample_weight=w)),
        ]
        if metric == "rmse":
            rows.append(("RMSE", "sqrt(MSE)", root_mean_squared_error(yt, yp, sample_weight=w)))
    elif metric == "mape":
        terms = np.abs(yt - yp) / np.maximum(np.abs(yt), MAPE_EPSILON)
        rows += [
            ("S", "sum of w_i |y_i - y_hat_i| / max(|y_i|, eps)", float(np.sum(weight * terms))),
            (
                "MAPE",
                "S / W (a fraction; x 100 for percent)",
                mean_absolute_percentage_error(yt, yp, sample_weight=w),
            ),
        ]
    elif metric == "rmsle":
        value = root_mean_squared_log_error(yt, yp, sample_weight=w)  # validates > -1
        s = float(np.sum(weight * (np.log1p(yt) - np.log1p(yp)) ** 2))
        rows += [
            ("S", "sum of w_i (log(1 + y_i) - log(1 + y_hat_i))^2", s),
            ("MSLE", "S / W", s / total),
            ("RMSLE", "sqrt(MSLE)", value),
        ]
    else:
        value = r2_score(yt, yp, sample_weight=w)  # validates n >= 2
        mean = float(np.average(yt, weights=w))
        rows += [
            ("y_bar", "weighted mean of y_i: sum w_i y_i / W", mean),
            ("SS_res", "sum of w_i (y_i - y_hat_i)^2", float(np.sum(weight * (yt - yp) ** 2))),
            ("SS_tot", "sum of w_i (y_i - y_bar)^2", float(np.sum(weight * (yt - mean) ** 2))),
            ("R2", "1 - SS_res / SS_tot (1 if SS_res = 0, else 0 if SS_tot = 0)", value),
        ]
    return pd.DataFrame(rows, columns=["step", "formula", "value"])
