"""Metrics as a function of column sums: the form :mod:`metrics.slices` resamples fast.

Many metrics are ``finish(T)`` where ``T`` is the column sum, over the rows
looked at, of a small per-row statistic matrix ``S`` (sample weights folded
in): a weighted mean is ``sum(w v) / sum(w)``, a rate at a threshold is a
ratio of confusion counts, R^2 is a function of five sums. A group's value is
then ``finish`` of its rows' sums (``np.bincount``), a bootstrap resample of
a group is ``finish(counts @ S_group)`` for a matrix of draw counts, and the
rest of the data is ``finish(T_all - T_group)``: no metric call per group or
per resample. :func:`additive_form` returns that form, or None for a metric
that has none (ROC AUC, average precision, macro averages, any other
callable).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

from metrics import classification, dcg, label_ranking, regression, retrieval
from metrics._validation import MetricInputError, as_1d, check_binary

__all__ = ["RATES", "AdditiveForm", "additive_form", "greater_is_better"]

# Columns of the confusion statistics of a rate: tp, fp, fn, tn.
_TP, _FP, _FN, _TN = range(4)
#: The rates at a threshold: name -> (numerator columns, denominator columns, higher is better).
RATES: dict[str, tuple[tuple[int, ...], tuple[int, ...], bool]] = {
    "tpr": ((_TP,), (_TP, _FN), True),
    "fnr": ((_FN,), (_TP, _FN), False),
    "fpr": ((_FP,), (_FP, _TN), False),
    "tnr": ((_TN,), (_FP, _TN), True),
    "ppv": ((_TP,), (_TP, _FP), True),
    "npv": ((_TN,), (_TN, _FN), True),
    "accuracy": ((_TP, _TN), (_TP, _FP, _FN, _TN), True),
    "selection_rate": ((_TP, _FP), (_TP, _FP, _FN, _TN), True),
}


class AdditiveForm(NamedTuple):
    """``value = finish(column sums of stats over the rows looked at)``.

    Attributes
    ----------
    stats : ndarray of shape (n_rows, m)
        Per-row statistics, sample weights folded in.
    finish : callable
        Sums of shape ``(..., m)`` to values of shape ``(...)``; NaN where
        the value is undefined (0/0).
    trials : ndarray of bool, shape (n_rows, 2), or None
        When the value is (an increasing function of) the share of successes
        among the rows it counts, each row a 0/1 outcome without a weight
        (accuracy, a rate at a threshold, a hit rate): per row, whether it
        is a success and whether it is counted. The exact test of
        :mod:`metrics.slices` reads it; None otherwise.
    """

    stats: np.ndarray
    finish: Callable
    trials: np.ndarray | None = None


def _ratio(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den``, NaN where ``den`` is 0 (an undefined value, without a warning)."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(den != 0, num / np.where(den != 0, den, 1.0), np.nan)


def _mean_finish(transform, t: np.ndarray) -> np.ndarray:
    out = _ratio(t[..., 0], t[..., 1])
    return out if transform is None else transform(out)


def _terms_1d(kind: str):
    """Per-row terms of the 1-D metrics that are a plain (weighted) mean."""

    def terms(y_true, y_pred):
        yt, yp = as_1d(y_true, "y_true"), as_1d(y_pred, "y_score")
        if kind == "abs":
            return np.abs(yp - yt)
        if kind == "sq":
            return (yt - yp) ** 2
        return np.abs(yp - yt) / np.maximum(np.abs(yt), regression.MAPE_EPSILON)

    return terms


def _label_terms(kind: str):
    """Per-row terms of accuracy (subset accuracy for 2-D) and Hamming loss."""

    def terms(y_true, y_pred):
        yt, yp = np.asarray(y_true), np.asarray(y_pred)
        if yt.shape != yp.shape:
            raise MetricInputError(f"y_true {yt.shape} and y_score {yp.shape} differ in shape.")
        wrong = yt != yp
        if yt.ndim == 1:
            return (~wrong if kind == "eq" else wrong).astype(np.float64)
        return (~wrong.any(axis=1)).astype(np.float64) if kind == "eq" else wrong.mean(axis=1)

    return terms


class _Mean(NamedTuple):
    terms: Callable
    transform: Callable | None
    higher: bool
    options: bool  # keyword options are passed on to ``terms``


@functools.cache
def _means() -> dict:
    """The metrics that are ``transform(weighted mean of per-row terms)``."""
    abs_, sq, ape = (_terms_1d(k) for k in ("abs", "sq", "ape"))
    return {
        regression.mean_absolute_error: _Mean(abs_, None, False, False),
        regression.mean_squared_error: _Mean(sq, None, False, False),
        regression.root_mean_squared_error: _Mean(sq, np.sqrt, False, False),
        regression.mean_absolute_percentage_error: _Mean(ape, None, False, False),
        classification.accuracy_score: _Mean(_label_terms("eq"), None, True, False),
        classification.hamming_loss: _Mean(_label_terms("ne"), None, False, False),
        classification.log_loss: _Mean(classification.log_loss_per_sample, None, False, True),
        dcg.dcg_score: _Mean(dcg.dcg_per_sample, None, True, True),
        dcg.ndcg_score: _Mean(dcg.ndcg_per_sample, None, True, True),
        label_ranking.coverage_error: _Mean(label_ranking.coverage_per_sample, None, False, False),
        label_ranking.label_ranking_average_precision_score: _Mean(
            label_ranking.lrap_per_sample, None, True, False
        ),
        label_ranking.label_ranking_loss: _Mean(
            label_ranking.ranking_loss_per_sample, None, False, False
        ),
        retrieval.precision_at_k: _Mean(retrieval.precision_at_k_per_sample, None, True, True),
        retrieval.recall_at_k: _Mean(retrieval.recall_at_k_per_sample, None, True, True),
        retrieval.hit_rate_at_k: _Mean(retrieval.hit_rate_at_k_per_sample, None, True, True),
        retrieval.mean_average_precision_at_k: _Mean(
            retrieval.average_precision_at_k, None, True, True
        ),
        retrieval.mean_reciprocal_rank: _Mean(retrieval.reciprocal_rank, None, True, True),
    }


#: Metrics without an additive form whose direction is known (all others: higher is better).
_LOWER_IS_BETTER = (classification.brier_score_loss, regression.root_mean_squared_log_error)


def unwrap(metric) -> tuple[Callable, dict]:
    """``(function, keyword arguments)`` of a metric or of a ``functools.partial`` of one."""
    if isinstance(metric, functools.partial) and not metric.args:
        return metric.func, dict(metric.keywords)
    return metric, {}


def greater_is_better(metric) -> bool:
    """Whether a higher value of ``metric`` (a callable or a rate's name) is better.

    Examples
    --------
    >>> from metrics import mean_absolute_error, roc_auc_score
    >>> greater_is_better(mean_absolute_error), greater_is_better(roc_auc_score)
    (False, True)
    >>> greater_is_better("fpr")
    False
    """
    if isinstance(metric, str):
        return RATES[metric][2]
    func, _ = unwrap(metric)
    try:
        entry = _means().get(func)
    except TypeError:  # an unhashable callable
        return True
    if entry is not None:
        return entry.higher
    return func not in _LOWER_IS_BETTER


def _rate_form(name, y_true, y_score, w, threshold, unweighted: bool) -> AdditiveForm:
    yt = check_binary(as_1d(y_true, "y_true"), "y_true")
    s = as_1d(y_score, "y_score")
    if s.shape != yt.shape:
        raise MetricInputError(f"y_true has {yt.shape[0]} rows but y_score has {s.shape[0]}.")
    pos, pred = yt == 1, s >= threshold
    cells = np.stack([pos & pred, ~pos & pred, pos & ~pred, ~pos & ~pred], axis=1)
    num, den, _ = RATES[name]

    def finish(t):
        return _ratio(t[..., list(num)].sum(axis=-1), t[..., list(den)].sum(axis=-1))

    trials = None
    if unweighted:
        trials = np.stack([cells[:, list(num)].any(axis=1), cells[:, list(den)].any(axis=1)], 1)
    return AdditiveForm(cells * w[:, None], finish, trials)


def _r2_form(y_true, y_pred, w: np.ndarray) -> AdditiveForm:
    yt, yp = as_1d(y_true, "y_true"), as_1d(y_pred, "y_score")
    if yt.shape != yp.shape:
        raise MetricInputError(f"y_true has {yt.shape[0]} rows but y_score has {yp.shape[0]}.")
    # centred on the overall mean so that sum(w y^2) - sum(w y)^2 / sum(w) keeps its digits
    yc = yt - np.average(yt, weights=w)
    stats = np.stack([w, w * yc, w * yc * yc, w * (yt - yp) ** 2], axis=1)

    def finish(t):
        total = t[..., 2] - _ratio(t[..., 1] ** 2, t[..., 0])
        res = t[..., 3]
        with np.errstate(divide="ignore", invalid="ignore"):
            r2 = 1.0 - res / np.where(total > 0, total, 1.0)
        # scikit-learn's force_finite: a constant target scores 1 when fitted exactly, else 0
        return np.where(total > 0, r2, np.where(res == 0, 1.0, 0.0))

    return AdditiveForm(stats, finish)


def additive_form(metric, y_true, y_score, sample_weight, *, threshold=0.5):
    """The :class:`AdditiveForm` of ``metric`` on these arrays, or None if it has none.

    ``metric`` is a callable (or a ``functools.partial`` of one with keyword
    options) or the name of a rate in :data:`RATES`, read at ``threshold``
    (``y_score >= threshold`` is a positive prediction).

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import mean_absolute_error
    >>> form = additive_form(mean_absolute_error, [1.0, 2.0], [1.5, 2.0], None)
    >>> form.stats.tolist(), float(form.finish(form.stats.sum(axis=0)))
    ([[0.5, 1.0], [0.0, 1.0]], 0.25)
    """
    n = np.shape(y_true)[0] if np.ndim(y_true) else 0
    w = np.ones(n) if sample_weight is None else sample_weight
    if isinstance(metric, str):
        return _rate_form(metric, y_true, y_score, w, threshold, sample_weight is None)
    func, kwargs = unwrap(metric)
    if func is regression.r2_score and not kwargs and np.ndim(y_true) == 1:
        return _r2_form(y_true, y_score, w)
    try:
        entry = _means().get(func)
    except TypeError:
        return None
    if entry is None or (kwargs and not entry.options):
        return None
    values = np.asarray(entry.terms(y_true, y_score, **kwargs), dtype=np.float64)
    if values.shape != (n,):
        return None
    stats = np.stack([w * values, w], axis=1)
    trials = None
    # the transforms (a square root) are increasing: equal shares, equal values
    if sample_weight is None and ((values == 0) | (values == 1)).all():
        trials = np.stack([values == 1, np.ones(n, dtype=bool)], axis=1)
    return AdditiveForm(stats, functools.partial(_mean_finish, entry.transform), trials)
