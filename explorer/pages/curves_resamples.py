"""The ROC & PR curves page's rates at a threshold on many bootstrap resamples at once.

:func:`metrics.rates_at_threshold` gives every rate of one operating point from the
(weighted) counts of true and false positives and negatives; a 95% interval needs them
on 2,000 resamples of the rows. Here a block of resamples (the rows each one draws, as
:func:`metrics.resample_rows` gives them) is computed as arrays: the four (weighted)
counts of every resample from one ``np.bincount`` of each drawn row's cell, and the
rates from them by :func:`metrics.rates_from_counts`, as ``rates_at_threshold`` has them.
The tests compare them resample by resample.
"""

from __future__ import annotations

import numpy as np

import metrics


def rates_resamples(y_true, y_score, threshold: float, beta: float, sample_weight, *, rows):
    """The rates of :func:`metrics.rates_at_threshold` (``precision``, ``recall``,
    ``f1``, ``fbeta``, ``accuracy``, ``error_rate``, ``tpr``, ``fpr``, ``tnr``, ``fnr``)
    for every resample of a block: resample ``r`` takes the rows ``rows[r]``.

    Examples
    --------
    >>> import numpy as np
    >>> y, s = np.array([1, 0, 1, 0]), np.array([0.9, 0.6, 0.4, 0.2])
    >>> got = rates_resamples(y, s, 0.5, 1.0, None, rows=np.array([[0, 1, 2, 3], [0, 0, 1, 3]]))
    >>> got["precision"].tolist(), got["recall"].tolist(), got["fpr"].tolist()
    ([0.5, 0.6666666666666666], [0.5, 1.0], [0.5, 0.5])
    """
    pos = np.asarray(y_true) == 1
    pred = np.asarray(y_score, dtype=np.float64) >= threshold
    b = rows.shape[0]
    # each row's cell of the confusion matrix: 0 TN, 1 FP, 2 FN, 3 TP
    cell = (2 * pos + pred).astype(np.int64)
    index = (np.arange(b)[:, None] * 4 + cell[rows]).ravel()
    drawn = None if sample_weight is None else np.asarray(sample_weight, np.float64)[rows].ravel()
    counts = np.bincount(index, weights=drawn, minlength=4 * b).astype(np.float64)
    tn, fp, fn, tp = counts.reshape(b, 4).T
    return metrics.rates_from_counts(tp, fp, fn, tn, beta=beta)
