"""95% bootstrap confidence intervals of every page's headline numbers (the sidebar's
"95% intervals").

Pure functions (no Streamlit); the cached forms are in :mod:`explorer.ui.cache` (section
"Intervals"). Every interval is :func:`metrics.bootstrap_ci` with the same options:
:data:`N_RESAMPLES` percentile resamples of the rows (samples, queries), seeded
:data:`SEED`, so a page shows the same interval on every run and in a link opened fresh.

Two ways, the same resamples:

* a headline that is the (weighted) mean of per-sample values the page already has
  (LRAP, DCG, P@K, ...) is the bootstrap of that mean (:func:`mean_interval`: the fast
  per-sample path of ``bootstrap_ci``);
* any other headline (AUC, micro F1, R², ...) is the bootstrap of its ``metrics``
  function (:func:`metric_interval`; weighted data resample each row with its weight);
  the Multiclass and Multilabel headlines' numbers and the curves page's rates at a
  threshold are computed on a block of those resamples at once (:func:`multiclass`,
  :func:`multilabel`, :func:`curves_headlines`), and log loss is the mean of its
  per-sample terms.

An interval that cannot be had (a resample the metric refuses) carries the reason
instead (:attr:`Interval.why`). A page's intervals are estimated before they are
computed (:mod:`explorer.budget`): above the limit of one computation, every interval
of the page says how long it would take instead. Each page function takes a
``checkpoint`` (called between blocks of resamples; it may raise to stop them).
"""

from __future__ import annotations

import functools
import math
import warnings
from collections.abc import Callable
from typing import NamedTuple

import numpy as np

import metrics
from explorer import budget, metric_refusals
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.i18n import Phrase
from explorer.pages import curves_resamples, multiclass_resamples, multilabel_resamples
from explorer.pages import home as home_model
from explorer.pages import multiclass as multiclass_model
from explorer.pages import regression as regression_model
from explorer.pages.curves import RATE_LABELS
from explorer.pages.multilabel import ZD_VALUE
from explorer.pages.retrieval import HEADLINE as RETRIEVAL_HEADLINE

#: Resamples per interval, the confidence, and the seed of every interval of the app
#: (the seed of the Compare page's bootstraps too).
N_RESAMPLES = 2000
CONFIDENCE = 0.95
SEED = 20261126


class Interval(NamedTuple):
    """A headline's 95% interval: ``low`` to ``high`` around ``estimate``, or why not."""

    estimate: float
    low: float
    high: float
    why: str | None = None

    def text(self) -> str:
        """The line shown under the headline.

        Examples
        --------
        >>> Interval(0.75, 0.7123, 0.7891).text()
        '95% CI 0.7123 – 0.7891'
        >>> Interval(math.nan, math.nan, math.nan, "one class").text()
        '95% CI: none (one class)'
        """
        confidence = f"{CONFIDENCE:.0%}"
        if self.why is not None:
            # a reason of this module is a phrase; a metric's refusal stays as it is written
            why = self.why if isinstance(self.why, Phrase) else str(self.why)
            return Phrase("${confidence} CI: none (${why})", confidence=confidence, why=why)
        low, high = fmt(self.low), fmt(self.high)
        return Phrase(
            "${confidence} CI ${low} – ${high}", confidence=confidence, low=low, high=high
        )


def _none(why: str) -> Interval:
    return Interval(math.nan, math.nan, math.nan, why)


def _bootstrap(
    metric: Callable, *arrays, checkpoint: Callable[[], None] = budget.no_checkpoint
) -> Interval:
    try:
        with warnings.catch_warnings():  # a resample's 0/0 warns: the page says it already
            warnings.simplefilter("ignore")
            r = metrics.bootstrap_ci(
                metric,
                *arrays,
                n_resamples=N_RESAMPLES,
                confidence=CONFIDENCE,
                random_state=SEED,
                checkpoint=checkpoint,
            )
    except metrics.MetricInputError as exc:
        return _none(metric_refusals.phrase(str(exc).rstrip(".")))
    return Interval(float(r.estimate), float(r.low), float(r.high))


def _weighted_mean(values: np.ndarray, weights: np.ndarray) -> float:
    total = weights.sum()
    return float(values @ weights / total) if total > 0 else math.nan


def _weighted_fast(v: np.ndarray, w: np.ndarray, checkpoint: Callable[[], None]) -> Interval:
    """The weighted mean's interval from two fast bootstraps on the same resamples: the
    means of ``w * v`` and of ``w``, whose ratio is each resample's weighted mean."""
    zeros = np.zeros_like(v)
    draws = []
    for values in (v * w, w):
        try:
            draws.append(
                metrics.bootstrap_ci(
                    metrics.mean_absolute_error,
                    values,
                    zeros,
                    n_resamples=N_RESAMPLES,
                    confidence=CONFIDENCE,
                    random_state=SEED,
                    checkpoint=checkpoint,
                ).distribution
            )
        except metrics.MetricInputError as exc:
            return _none(metric_refusals.phrase(str(exc).rstrip(".")))
    with np.errstate(divide="ignore", invalid="ignore"):
        ratio = draws[0] / draws[1]
    if not np.isfinite(ratio).all():
        return _none(
            Phrase("a resample drew only rows of weight 0; an interval needs a mean on every one")
        )
    alpha = (1.0 - CONFIDENCE) / 2.0
    low, high = np.quantile(ratio, [alpha, 1.0 - alpha])
    return Interval(_weighted_mean(v, w), float(low), float(high))


def mean_interval(
    values, weights=None, checkpoint: Callable[[], None] = budget.no_checkpoint
) -> Interval:
    """The interval of the (``weights``-weighted) mean of per-sample ``values``.

    Unweighted, the fast per-sample path of :func:`metrics.bootstrap_ci` (the mean of
    non-negative values is their mean absolute error against 0; ``np.mean`` on the
    same resamples otherwise). Weighted, each resample draws rows with their weights
    (a resample whose weights are all 0 has no mean: then there is no interval); for
    non-negative values and weights through two fast bootstraps on the same resamples
    (:func:`_weighted_fast`), the same numbers as the weighted mean on every resample.

    Examples
    --------
    >>> r = mean_interval([0.5, 1.0, 1.0, 0.25])
    >>> r.estimate, 0.25 <= r.low < r.high <= 1.0
    (0.6875, True)
    >>> r.low == metrics.bootstrap_ci(np.mean, np.array([0.5, 1, 1, 0.25]),
    ...                               random_state=SEED).low
    True
    >>> mean_interval([1.0, 3.0, 2.0], [1.0, 2.0, 1.0]).estimate
    2.25
    """
    v = np.asarray(values, dtype=np.float64)
    if not np.isfinite(v).all():
        return _none(Phrase("a per-sample value is not a number"))
    if weights is not None:
        w = np.asarray(weights, dtype=np.float64)
        if v.size and v.min() >= 0 and w.min() >= 0:
            return _weighted_fast(v, w, checkpoint)
        return _bootstrap(_weighted_mean, v, w, checkpoint=checkpoint)
    if v.size and v.min() >= 0:
        return _bootstrap(metrics.mean_absolute_error, v, np.zeros_like(v), checkpoint=checkpoint)
    return _bootstrap(np.mean, v, checkpoint=checkpoint)


def metric_interval(
    metric: Callable,
    *arrays,
    weights=None,
    checkpoint: Callable[[], None] = budget.no_checkpoint,
) -> Interval:
    """The interval of ``metric(*arrays)`` (with ``sample_weight=weights``): on a fast
    path of :func:`metrics.bootstrap_ci` for the metrics of :data:`_FAST` unweighted,
    else one call per resample (:func:`metric_seconds` estimates which).

    Examples
    --------
    >>> y, s = np.array([0, 0, 1, 1, 0, 1]), np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.9])
    >>> r = metric_interval(metrics.roc_auc_score, y, s)
    >>> round(r.estimate, 4), r.low <= r.estimate <= r.high
    (0.8889, True)
    """
    arrays = tuple(np.asarray(a) for a in arrays)
    if weights is None:
        return _bootstrap(metric, *arrays, checkpoint=checkpoint)

    def weighted(*rows):
        return metric(*rows[:-1], sample_weight=rows[-1])

    w = np.asarray(weights, dtype=np.float64)
    return _bootstrap(weighted, *arrays, w, checkpoint=checkpoint)


def joint_intervals(
    numbers: Callable[..., dict],
    *arrays,
    weights=None,
    checkpoint: Callable[[], None] = budget.no_checkpoint,
) -> dict[str, Interval]:
    """The intervals of several numbers computed together: ``numbers(*rows,
    sample_weight=...)`` returns them by label, once per resample.

    The resamples are those :func:`metric_interval` draws for any one of them (the slow
    path, in the same order), so each interval equals :func:`metrics.bootstrap_ci` of
    that number alone, at the cost of one call per resample for all of them.

    Examples
    --------
    >>> y, p = np.array([0, 1, 1, 0, 1]), np.array([0, 1, 0, 0, 1])
    >>> import functools
    >>> f1 = functools.partial(metrics.f1_score, zero_division=0)
    >>> def both(y, p, sample_weight=None):
    ...     return {"acc": metrics.accuracy_score(y, p), "f1": f1(y, p)}
    >>> ci = joint_intervals(both, y, p)
    >>> ci["f1"] == metric_interval(f1, y, p)
    True
    """
    seen: list[dict] = []

    def first(*rows, **kwargs):
        values = numbers(*rows, **kwargs)
        seen.append(values)
        return next(iter(values.values()))

    head = metric_interval(first, *arrays, weights=weights, checkpoint=checkpoint)
    if head.why is not None:
        return {label: head for label in (seen[0] if seen else {})} or {"": head}
    alpha = (1.0 - CONFIDENCE) / 2.0
    out = {}
    for label, estimate in seen[0].items():
        dist = np.array([values[label] for values in seen[1:]], dtype=np.float64)
        bad = ~np.isfinite(dist)
        if bad.any():
            r = int(np.argmax(bad))
            out[label] = _none(Phrase("no value on bootstrap resample ${r}", r=r))
            continue
        low, high = np.quantile(dist, [alpha, 1.0 - alpha])
        out[label] = Interval(float(estimate), float(low), float(high))
    return out


# ------------------------------------------------------------------ what they cost
def mean_seconds(rows: int, weighted: bool = False) -> float:
    """Estimated CPU seconds of :func:`mean_interval` on ``rows`` values (weighted: two
    bootstraps on the same resamples)."""
    return (2 if weighted else 1) * budget.bootstrap_seconds("mean", rows, N_RESAMPLES)


def metric_seconds(metric: Callable, rows: int, cells: int | None = None, weights=None) -> float:
    """Estimated CPU seconds of :func:`metric_interval` of ``metric`` on ``rows`` rows
    of ``cells`` cells in all (a fast path for :data:`_FAST` unweighted).

    Examples
    --------
    >>> metric_seconds(metrics.roc_auc_score, 10**6) < metric_seconds(metrics.log_loss, 10**6)
    True
    """
    if weights is None and metric in _FAST:
        return budget.bootstrap_seconds("count", rows, N_RESAMPLES)
    return budget.bootstrap_seconds("slow", rows, N_RESAMPLES, cells)


def refused(
    labels, seconds: float, rows: int, limit: float | None = None
) -> dict[str, Interval] | None:
    """Every interval of ``labels`` refused with the same sentence when ``seconds`` (the
    page's estimate) is over ``limit`` (that of one computation by default,
    :func:`explorer.budget.limits`), else None: compute them.

    Examples
    --------
    >>> ci = refused(["AUC", "AP"], 100.0, 10**6, limit=8.0)
    >>> ci["AUC"].why
    'intervals on 1,000,000 rows would take about 100 s of computing; this server offers 8 s'
    >>> refused(["AUC"], 1.0, 10**6, limit=8.0) is None
    True
    """
    limit = budget.limits().per_run if limit is None else limit
    why = budget.too_long(seconds, Phrase("intervals on ${rows:,} rows", rows=rows), limit)
    return None if why is None else {label: _none(why) for label in labels}


# ------------------------------------------------------------------ the pages' headlines
def home(ds: Dataset, checkpoint: Callable[[], None] = budget.no_checkpoint) -> dict[str, Interval]:
    """The intervals of the Home page's headline (:mod:`explorer.pages.home`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ci = home(load_sample("balanced"))
    >>> list(ci), ci["ROC AUC"].low < ci["ROC AUC"].estimate < ci["ROC AUC"].high
    (['ROC AUC', 'Average precision', 'Gini'], True)
    """
    y, s, w = ds.y_true, ds.score(), ds.sample_weight
    heads = [
        (label, fn, w if weighted else None) for label, fn, weighted in home_model.HEADLINE[ds.kind]
    ]
    if ds.retrieved is not None and ds.kind == "graded":  # a run: means of per-query values
        out = refused([h[0] for h in heads], len(heads) * mean_seconds(len(y)), len(y))
        if out is not None:
            return out
        values = home_model.masked_values(ds)
        return {
            label: mean_interval(values[label], wt, checkpoint=checkpoint) for label, _, wt in heads
        }
    cost = sum(metric_seconds(fn, len(y), s.size, wt) for _, fn, wt in heads)
    out = refused([label for label, _, _ in heads], cost, len(y))
    if out is not None:
        return out
    return {
        label: metric_interval(fn, y, s, weights=wt, checkpoint=checkpoint)
        for label, fn, wt in heads
    }


def label_ranking(
    contrib, weights=None, mrr_values=None, checkpoint: Callable[[], None] = budget.no_checkpoint
) -> dict[str, Interval]:
    """The Label ranking page's headline: means of the per-sample table ``contrib``
    (:func:`metrics.label_ranking_contributions`), and MRR of ``mrr_values`` (the
    reciprocal ranks) when given.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> from explorer.pages.label_ranking import summary
    >>> res = summary(load_sample("seed003_lrap"), "model")
    >>> ci = label_ranking(res.contrib)
    >>> round(ci["LRAP"].estimate, 4) == round(res.lrap, 4), list(ci)
    (True, ['Coverage error', 'Best coverage', 'LRAP', 'Ranking loss'])
    """
    columns = {
        "Coverage error": "coverage",
        "Best coverage": "n_true",
        "LRAP": "lrap",
        "Ranking loss": "ranking_loss",
    }
    n = len(contrib)
    cost = len(columns) * mean_seconds(n, weights is not None)
    cost += 0 if mrr_values is None else mean_seconds(n)
    labels = [*columns, *([] if mrr_values is None else ["MRR"])]
    out = refused(labels, cost, n)
    if out is not None:
        return out
    out = {
        label: mean_interval(contrib[c].to_numpy(), weights, checkpoint)
        for label, c in columns.items()
    }
    if mrr_values is not None:
        out["MRR"] = mean_interval(mrr_values, checkpoint=checkpoint)
    return out


def dcg(
    table, weights=None, checkpoint: Callable[[], None] = budget.no_checkpoint
) -> dict[str, Interval]:
    """The DCG & NDCG page's headline: the (weighted) means of the per-sample table.

    Examples
    --------
    >>> import pandas as pd
    >>> ci = dcg(pd.DataFrame({"DCG": [9.5, 5.0], "NDCG": [0.7, 0.9]}))
    >>> ci["DCG"].estimate, (ci["NDCG"].low, ci["NDCG"].high)
    (7.25, (0.7, 0.9))
    """
    names = ("DCG", "NDCG")
    out = refused(names, 2 * mean_seconds(len(table), weights is not None), len(table))
    if out is not None:
        return out
    return {name: mean_interval(table[name].to_numpy(), weights, checkpoint) for name in names}


def retrieval(
    per_query, empty: str = "zero", checkpoint: Callable[[], None] = budget.no_checkpoint
) -> dict[str, Interval]:
    """The Top-K retrieval page's headline: means over the queries the means keep
    (under ``empty="drop"`` those with a relevant item).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> from explorer.pages.retrieval import Settings, tables
    >>> per_query, _ = tables(load_sample("seed002_map"), "model", Settings(k=5))
    >>> ci = retrieval(per_query)
    >>> round(ci["MAP@K"].estimate, 4), (round(ci["MAP@K"].low, 4), round(ci["MAP@K"].high, 4))
    (0.6278, (0.5, 0.7556))
    """
    kept = metrics.queries_counted(per_query, empty)
    if kept.empty:
        return {label: _none("no query has a relevant item") for label, _ in RETRIEVAL_HEADLINE}
    labels = [label for label, _ in RETRIEVAL_HEADLINE]
    out = refused(labels, len(labels) * mean_seconds(len(kept)), len(kept))
    if out is not None:
        return out
    return {
        label: mean_interval(kept[column].to_numpy(), checkpoint=checkpoint)
        for label, column in RETRIEVAL_HEADLINE
    }


#: The Multilabel page's headline: (label, average of multilabel_averages, its key).
MULTILABEL_HEADLINE = (
    ("Hamming loss", None, "hamming_loss"),
    ("Subset accuracy", None, "subset_accuracy"),
    ("Micro F1", "micro", "f1"),
    ("Macro F1", "macro", "f1"),
    ("Jaccard (samples)", "samples", "jaccard"),
)


def multilabel(
    ds: Dataset,
    pred: np.ndarray,
    zd_key: str,
    checkpoint: Callable[[], None] = budget.no_checkpoint,
) -> dict[str, Interval]:
    """The Multilabel page's headline: each number recomputed from the counts of every
    resample of the rows of ``y_true`` and the predictions ``pred`` (all five on the
    resamples of :func:`metrics.bootstrap_ci` with the app's seed, a block at a time:
    :func:`explorer.pages.multilabel_resamples.headline_resamples`).

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, prediction
    >>> pred, _ = prediction(_toy(), "m", "threshold", 0.5, (), None)
    >>> ci = multilabel(_toy(), pred, "0")
    >>> round(ci["Hamming loss"].estimate, 4), list(ci)[2:4]
    (0.3333, ['Micro F1', 'Macro F1'])
    """
    zd = ZD_VALUE[zd_key]

    def numbers(y_true, y_pred, sample_weight=None):
        # ragged rows: a padding cell comes coded -1 in y_pred, so it resamples with its row
        retrieved = None if ds.retrieved is None else y_pred >= 0
        counts = metrics.multilabel_counts(
            y_true, y_pred > 0, sample_weight=sample_weight, retrieved=retrieved
        )
        averages = metrics.multilabel_averages(counts, zero_division=zd)
        return {
            label: averages[key] if average is None else averages[average][key]
            for label, average, key in MULTILABEL_HEADLINE
        }

    labels = [label for label, _, _ in MULTILABEL_HEADLINE]
    n = ds.n_samples
    out = refused(labels, budget.bootstrap_seconds("labels", n, N_RESAMPLES, pred.size), n)
    if out is not None:
        return out
    if ds.retrieved is not None:
        pred = np.where(ds.retrieved | (ds.y_true != 0), pred, -1).astype(np.int8)
    try:
        with warnings.catch_warnings():  # a 0/0 warns: the page says it already
            warnings.simplefilter("ignore")
            estimate = numbers(ds.y_true, pred, ds.sample_weight)
    except metrics.MetricInputError as exc:
        return {label: _none(metric_refusals.phrase(str(exc).rstrip("."))) for label in labels}
    resampled = functools.partial(
        multilabel_resamples.headline_resamples,
        ds.y_true,
        pred,
        ds.sample_weight,
        zero_division=0.0 if zd == "warn" else zd,
        ragged=ds.retrieved is not None,
    )
    dists = _blocks(resampled, n, multilabel_resamples.KEYS, checkpoint)
    return {
        label: _percentile(estimate[label], dists[key])
        for label, key in zip(labels, multilabel_resamples.KEYS, strict=True)
    }


def multiclass(
    ds: Dataset, model: str, k: int, checkpoint: Callable[[], None] = budget.no_checkpoint
) -> dict[str, Interval]:
    """The Multiclass page's headline (:func:`explorer.pages.multiclass.headline_numbers`),
    by label: all eight recomputed on every resample of the rows (a sample's true class,
    its scores and its weight drawn together), the resamples of
    :func:`metrics.bootstrap_ci` with the app's seed, computed a block at a time
    (:func:`explorer.pages.multiclass_resamples.headline_resamples`).

    Examples
    --------
    >>> from explorer.pages.multiclass import _toy
    >>> ci = multiclass(_toy(), "m", 2)
    >>> list(ci)[:3], round(ci["Accuracy"].estimate, 4)
    (['Accuracy', 'Balanced accuracy', 'Macro F1'], 0.6)
    >>> ci["Top-2 accuracy"].low <= ci["Top-2 accuracy"].estimate <= ci["Top-2 accuracy"].high
    True
    """
    labels = {key: label.format(k=k) for key, label in multiclass_model.HEADLINE.items()}
    scores = ds.score(model)
    n = ds.n_samples
    out = refused(
        labels.values(), budget.bootstrap_seconds("heavy", n, N_RESAMPLES, scores.size), n
    )
    if out is not None:
        return out
    y, w = ds.y_true, ds.sample_weight
    try:
        with warnings.catch_warnings():  # an undefined number is the page's to say
            warnings.simplefilter("ignore")
            estimate = multiclass_model.headline_numbers(y, scores, w, k=k)
    except metrics.MetricInputError as exc:
        return {
            label: _none(metric_refusals.phrase(str(exc).rstrip("."))) for label in labels.values()
        }
    resampled = functools.partial(multiclass_resamples.headline_resamples, y, scores, w, k=k)
    dists = _blocks(resampled, n, labels, checkpoint)
    return {labels[key]: _percentile(estimate[key], dists[key]) for key in labels}


def _blocks(resampled: Callable, n: int, keys, checkpoint) -> dict[str, np.ndarray]:
    """Each key's values on the :data:`N_RESAMPLES` resamples of ``n`` rows that
    :func:`metrics.bootstrap_ci` draws (seed :data:`SEED`), ``resampled(rows=...)``
    computing a block of them at once."""
    dists = {key: np.empty(N_RESAMPLES) for key in keys}
    for start, rows in metrics.resample_rows(
        n, n_resamples=N_RESAMPLES, random_state=SEED, checkpoint=checkpoint
    ):
        block = resampled(rows=rows)
        for key, dist in dists.items():
            dist[start : start + rows.shape[0]] = block[key]
    return dists


def _percentile(estimate, dist: np.ndarray) -> Interval:
    """The percentile interval of ``dist`` around ``estimate``, or why there is none."""
    bad = ~np.isfinite(dist)
    if bad.any():
        return _none(Phrase("no value on bootstrap resample ${r}", r=int(np.argmax(bad))))
    alpha = (1.0 - CONFIDENCE) / 2.0
    low, high = np.quantile(dist, [alpha, 1.0 - alpha])
    return Interval(float(estimate), float(low), float(high))


def regression(
    ds: Dataset,
    model: str,
    weight_choice: str,
    row: int,
    by: float,
    checkpoint: Callable[[], None] = budget.no_checkpoint,
) -> dict[str, Interval]:
    """The Regression page's headline (:func:`explorer.pages.regression.headline`), with
    sample ``row``'s prediction moved ``by``.

    Examples
    --------
    >>> from explorer.pages.regression import _toy
    >>> ci = regression(_toy(), "m", "uniform", 0, 0.0)
    >>> ci["MAE"].estimate, ci["MAPE (%)"].low == 100 * ci["MAPE"].low
    (0.5, True)
    """
    y = ds.y_true
    pred = regression_model.moved_prediction(ds, model, row, by)
    weights = {
        label: regression_model.sample_weights(ds, weight_choice)
        if label == "Weighted MAE"
        else ds.sample_weight
        for label in regression_model.HEADLINE
    }
    heads = regression_model.HEADLINE.items()
    cost = sum(metric_seconds(fn, len(y), weights=weights[label]) for label, fn in heads if fn)
    out = refused(list(regression_model.HEADLINE), cost, len(y))
    if out is not None:
        return out
    out = {}
    for label, fn in heads:
        if fn is None:  # MAPE in percent: the same interval x 100
            e, lo, hi, why = out["MAPE"]
            out[label] = Interval(100 * e, 100 * lo, 100 * hi, why)
            continue
        out[label] = metric_interval(fn, y, pred, weights=weights[label], checkpoint=checkpoint)
    return out


def curves_headlines(
    ds: Dataset,
    model: str,
    threshold: float,
    beta: float = 1.0,
    checkpoint: Callable[[], None] = budget.no_checkpoint,
) -> dict:
    """The ROC & PR curves page's headline: ROC AUC, average precision, log loss, and
    every rate of :data:`explorer.pages.curves.RATE_LABELS` at ``threshold`` (score >=
    threshold is positive; F-beta with ``beta``), by their st.metric labels.

    For the curves page (cached: ``cache.curves.intervals(ds, model, t, beta)``), when
    ``classroom.intervals_on()``: ``classroom.headline(col, label, fmt(value),
    interval=intervals[label])``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ci = curves_headlines(load_sample("balanced"), "good", 0.5)
    >>> list(ci)[:6]
    ['ROC AUC', 'Average precision', 'Log loss', 'Precision', 'Recall', 'F1']
    >>> ci["Recall"].low <= ci["Recall"].estimate <= ci["Recall"].high
    True
    """
    y, s, w = ds.y_true, ds.score(model), ds.sample_weight
    heads = {"ROC AUC": metrics.roc_auc_score, "Average precision": metrics.average_precision_score}
    n = len(y)
    cost = sum(metric_seconds(fn, n, weights=w) for fn in heads.values())
    cost += mean_seconds(n, w is not None) + budget.bootstrap_seconds("cells", n, N_RESAMPLES)
    out = refused([*heads, "Log loss", *RATE_LABELS], cost, n)
    if out is not None:
        return out
    out = {
        label: metric_interval(fn, y, s, weights=w, checkpoint=checkpoint)
        for label, fn in heads.items()
    }
    out["Log loss"] = _log_loss_interval(y, s, w, checkpoint)
    return {**out, **_rates(y, s, threshold, beta, w, checkpoint)}


def _log_loss_interval(y, s, w, checkpoint) -> Interval:
    """Log loss is the (weighted) mean of per-sample terms: their mean's interval."""
    try:
        terms = metrics.log_loss_per_sample(y.astype(int), s, labels=[0, 1])
    except metrics.MetricInputError as exc:
        return _none(metric_refusals.phrase(str(exc).rstrip(".")))
    return mean_interval(terms, w, checkpoint)


def _rates(y, s, threshold: float, beta: float, w, checkpoint) -> dict[str, Interval]:
    """The intervals of the rates at ``threshold`` (:data:`RATE_LABELS`)."""
    try:
        at = metrics.rates_at_threshold(y, s, threshold, beta=beta, sample_weight=w)
    except metrics.MetricInputError as exc:
        why = _none(metric_refusals.phrase(str(exc).rstrip(".")))
        return dict.fromkeys(RATE_LABELS, why)
    resampled = functools.partial(curves_resamples.rates_resamples, y, s, threshold, beta, w)
    dists = _blocks(resampled, len(y), RATE_LABELS.values(), checkpoint)
    return {label: _percentile(at[key], dists[key]) for label, key in RATE_LABELS.items()}


#: Metrics on a fast path of bootstrap_ci when unweighted.
_FAST = {
    metrics.roc_auc_score,
    metrics.average_precision_score,
    metrics.mean_absolute_error,
    metrics.mean_squared_error,
    metrics.root_mean_squared_error,
    metrics.mean_absolute_percentage_error,
    metrics.dcg_score,
    metrics.ndcg_score,
    metrics.coverage_error,
    metrics.label_ranking_average_precision_score,
    metrics.label_ranking_loss,
    metrics.mean_reciprocal_rank,
}
