"""The one weighted mean of per-sample values, shared by every ``*_score`` that averages rows."""

from __future__ import annotations

import numpy as np

__all__ = ["weighted_mean"]


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
