"""The Multilabel page's headline numbers on many bootstrap resamples at once.

The page's five headline numbers (Hamming loss, subset accuracy, micro and macro F1,
samples Jaccard) come from :func:`metrics.multilabel_counts` and
:func:`metrics.multilabel_averages`; a 95% interval needs them on 2,000 resamples of
the rows. Here a block of resamples (the rows each one draws, as
:func:`metrics.resample_rows` gives them) is computed as arrays: each resample's weight
at every row from one ``np.bincount``, the per-label counts as one matrix product of
those weights with the label matrices, and the per-sample numbers (wrong cells, an
exact match, Jaccard) once per row, then averaged with each resample's weights. Each
number follows ``multilabel_averages`` (the tests compare them resample by resample).
"""

from __future__ import annotations

import numpy as np

#: The keys of :func:`headline_resamples`, in the page's order.
KEYS = ("hamming_loss", "subset_accuracy", "micro_f1", "macro_f1", "samples_jaccard")


def headline_resamples(
    y_true, y_pred, sample_weight, *, zero_division: float, ragged: bool, rows: np.ndarray
) -> dict:
    """The five headline numbers (:data:`KEYS`) of every resample of a block: resample
    ``r`` takes the rows ``rows[r]`` of ``y_true`` and ``y_pred``.

    ``y_pred`` holds 1 for a predicted cell and 0 for one not predicted; with
    ``ragged`` a cell coded -1 is padding (never retrieved: a false negative when true,
    else no label at all), as the page codes rows of different lengths.
    ``zero_division`` is the value of a 0/0 score (NaN leaves it out of the averages,
    and gives Jaccard 0). A resample whose weights are all 0 has NaN everywhere.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([[1, 0], [1, 1], [0, 0]])
    >>> p = np.array([[1, 0], [0, 1], [1, 0]])
    >>> got = headline_resamples(y, p, None, zero_division=0.0, ragged=False,
    ...                          rows=np.array([[0, 1, 2], [0, 0, 1]]))
    >>> got["hamming_loss"].round(4).tolist(), got["subset_accuracy"].round(4).tolist()
    ([0.3333, 0.1667], [0.3333, 0.6667])
    """
    yt = np.asarray(y_true) != 0
    yp = np.asarray(y_pred) > 0
    real = (np.asarray(y_pred) >= 0) | yt if ragged else np.ones_like(yt)
    v = _weights(rows, sample_weight)  # (resamples, rows)
    tp, pred, true = v @ (yt & yp), v @ yp, v @ yt
    labels = v @ real > 0  # a column of padding only in a resample is no label there
    wrong = np.count_nonzero(yt != yp, axis=1)
    jaccard = _divide(np.count_nonzero(yt & yp, axis=1), np.count_nonzero(yt | yp, axis=1))
    total = v.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        hamming = v @ wrong / (v @ np.count_nonzero(real, axis=1))
        return {
            "hamming_loss": hamming,
            "subset_accuracy": v @ (wrong == 0) / total,
            "micro_f1": _f1(tp.sum(axis=1), pred.sum(axis=1), true.sum(axis=1), zero_division),
            "macro_f1": _macro(_f1(tp, pred, true, zero_division), labels),
            "samples_jaccard": v
            @ np.where(np.isnan(jaccard), _jaccard_zd(zero_division), jaccard)
            / total,
        }


def _weights(rows: np.ndarray, sample_weight) -> np.ndarray:
    """Each resample's weight at every row: how often it drew the row, times the row's
    weight, ``(resamples, rows)``."""
    b, n = rows.shape
    first = (np.arange(b)[:, None] * n + rows).ravel()
    drawn = None if sample_weight is None else np.asarray(sample_weight, np.float64)[rows].ravel()
    return np.bincount(first, weights=drawn, minlength=b * n).astype(np.float64).reshape(b, n)


def _divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """num / den as floats, NaN where den is 0."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den == 0, np.nan, num / np.where(den == 0, 1, den))


def _f1(tp, pred, true, zero_division: float) -> np.ndarray:
    """F1 from counts, ``zero_division`` where there is nothing predicted or true."""
    f1 = _divide(2 * tp, true + pred)
    return np.where(np.isnan(f1), zero_division, f1)


def _macro(f1: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """The mean F1 over each resample's labels, NaN ones left out (all NaN: NaN)."""
    kept = labels & ~np.isnan(f1)
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(kept, f1, 0.0).sum(axis=1) / kept.sum(axis=1)


def _jaccard_zd(zero_division: float) -> float:
    """Jaccard's value of 0/0: ``zero_division``, or 0 for NaN (Jaccard is never NaN)."""
    return 0.0 if np.isnan(zero_division) else zero_division
