"""Many models at once: a leaderboard with corrected significance.

:func:`compare_models` scores any number of models on the same samples and
compares every pair, with the tests of :mod:`metrics.compare`:

* ``"bootstrap"`` (any metric): every model's interval and every pair's
  difference come from one set of paired resamples
  (:func:`metrics.compare.bootstrap_distributions`: ROC AUC and average
  precision sort once and share the draw counts across models; per-sample
  metrics share one index matrix). The p-value of a pair is pROC's bootstrap
  test: the difference over the standard deviation of its resamples, read
  off the standard normal (:func:`bootstrap_p_values`);
* ``"delong"`` (ROC AUC): DeLong's test from one placement vector per
  model (:func:`metrics.auc_placements`) and one covariance matrix of all
  models: ``var(a - b) = S_aa + S_bb - 2 S_ab`` for every pair, equal to
  :func:`metrics.delong_test` one pair at a time;
* ``"t"``, ``"randomization"``, ``"wilcoxon"`` (metrics that are a mean of
  per-sample or per-query values): :func:`metrics.paired_test` on each pair
  of per-sample vectors, computed once per model; the randomization test
  draws its sign patterns once for all pairs (the same patterns
  :func:`metrics.paired_test` draws with the same seed);
* ``"tukey"``: Tukey's HSD on the per-sample values taken as independent
  groups (one-way ANOVA, as ranx's ``"tukey"`` and ``scipy.stats.tukey_hsd``),
  the p-values from the studentized range distribution integrated here
  (no scipy): already a family-wise correction, so ``correction`` must be None.

The p-values are then corrected across the pairs (``"holm"``,
``"bonferroni"``, ``"bh"``: statsmodels' ``multipletests`` methods ``holm``,
``bonferroni``, ``fdr_bh``). :func:`beaten` and :func:`letters` read ranx's
compare report off the result: model ``i`` beats ``j`` when the corrected
p-value is at most ``alpha`` and ``i``'s value is the better one.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Mapping
from numbers import Real
from statistics import NormalDist
from typing import NamedTuple

import numpy as np

from metrics import classification, curves, label_ranking, regression
from metrics._studentized_range import studentized_range_sf
from metrics._validation import MetricInputError
from metrics.compare import (
    INDEX_BLOCK_DRAWS,
    auc_placements,
    bootstrap_distributions,
    paired_test,
    per_sample_values,
)

__all__ = [
    "ModelComparison",
    "beaten",
    "bootstrap_p_values",
    "compare_models",
    "correct_p_values",
    "letters",
    "model_letter",
    "tukey_p_values",
]

TESTS = ("bootstrap", "delong", "t", "randomization", "wilcoxon", "tukey")
CORRECTIONS = ("holm", "bonferroni", "bh", None)
_AUC = (curves.roc_auc_score, curves.auc_rank, curves.auc_pairwise)
# metrics where a lower value is better (the direction letters and "best" read)
_LOWER_BETTER = (
    regression.mean_absolute_error,
    regression.mean_squared_error,
    regression.root_mean_squared_error,
    regression.mean_absolute_percentage_error,
    label_ranking.coverage_error,
    label_ranking.label_ranking_loss,
    classification.log_loss,
    classification.hamming_loss,
)


class ModelComparison(NamedTuple):
    """The result of :func:`compare_models`.

    Attributes
    ----------
    names : tuple of str
        The models, in the order given.
    estimate, low, high : ndarray of shape (n_models,)
        Each model's metric and its percentile bootstrap interval (NaN without
        resamples; DeLong's normal interval for ``"delong"`` without resamples).
    pairs : ndarray of shape (n_pairs, 2)
        Every pair ``(i, j)``, ``i < j``, in row-major order.
    diff, diff_low, diff_high : ndarray of shape (n_pairs,)
        ``estimate[i] - estimate[j]`` and its paired bootstrap interval.
    p_value, p_adjusted : ndarray of shape (n_pairs,)
        Each pair's two-sided p-value and the p-value corrected across pairs.
    test, correction : str, str or None
    confidence : float
    higher_is_better : bool

    Examples
    --------
    >>> from metrics import compare_models, roc_auc_score
    >>> r = compare_models(roc_auc_score, [0, 0, 1, 1, 0, 1],
    ...     {"a": [0.1, 0.2, 0.8, 0.7, 0.3, 0.9], "b": [0.5, 0.1, 0.4, 0.9, 0.6, 0.3]},
    ...     test="delong", n_resamples=None)
    >>> r.names, r.pairs.tolist(), r.diff.tolist()
    (('a', 'b'), [[0, 1]], [0.4444444444444444])
    """

    names: tuple[str, ...]
    estimate: np.ndarray
    low: np.ndarray
    high: np.ndarray
    pairs: np.ndarray
    diff: np.ndarray
    diff_low: np.ndarray
    diff_high: np.ndarray
    p_value: np.ndarray
    p_adjusted: np.ndarray
    test: str
    correction: str | None
    confidence: float
    higher_is_better: bool


def correct_p_values(p_values, correction="holm") -> np.ndarray:
    """Adjusted p-values for multiple comparisons (statsmodels' ``multipletests``).

    * ``"bonferroni"``: ``min(1, m p)``;
    * ``"holm"``: step-down, the ``k``-th smallest ``(m - k + 1) p_(k)``, made
      non-decreasing (running maximum), at most 1;
    * ``"bh"``: Benjamini-Hochberg's false discovery rate, the ``k``-th smallest
      ``m p_(k) / k``, made non-decreasing from the top (running minimum), at most 1;
    * None: the p-values as given.

    Parameters
    ----------
    p_values : array-like of shape (m,)
        Values in [0, 1].
    correction : {"holm", "bonferroni", "bh", None}, default "holm"

    Returns
    -------
    ndarray of shape (m,)
        In the order given.

    Examples
    --------
    >>> from metrics import correct_p_values
    >>> correct_p_values([0.01, 0.04, 0.03], "holm").tolist()
    [0.03, 0.06, 0.06]
    >>> correct_p_values([0.01, 0.04, 0.03], "bh").round(6).tolist()
    [0.03, 0.04, 0.04]
    """
    correction = _choice(correction, "correction", CORRECTIONS)
    p = np.asarray(p_values, dtype=np.float64)
    if p.ndim != 1:
        raise MetricInputError(f"p_values must be 1-D; got shape {p.shape}.")
    bad = ~((p >= 0) & (p <= 1))
    if bad.any():
        i = int(np.argmax(bad))
        raise MetricInputError(f"p_values[{i}] is {p[i]!r}; a p-value lies in [0, 1].")
    m = p.shape[0]
    if correction is None or m == 0:
        return p.copy()
    if correction == "bonferroni":
        return np.minimum(p * m, 1.0)
    order = np.argsort(p, kind="stable")
    ps = p[order]
    if correction == "holm":
        adj = np.maximum.accumulate((m - np.arange(m)) * ps)
    else:
        adj = np.minimum.accumulate((m * ps / np.arange(1, m + 1))[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adj, 1.0)
    return out


def _choice(value, name, choices):
    if value not in choices or isinstance(value, bool):
        allowed = ", ".join(repr(c) for c in choices)
        raise MetricInputError(f"{name} must be one of {allowed}; got {value!r}.")
    return value


def _models(scores_by_model) -> tuple[tuple[str, ...], list]:
    if isinstance(scores_by_model, Mapping):
        names, scores = tuple(str(k) for k in scores_by_model), list(scores_by_model.values())
    elif isinstance(scores_by_model, (list, tuple)):
        scores = list(scores_by_model)
        names = tuple(f"model {k}" for k in range(len(scores)))
    else:
        raise MetricInputError(
            "scores_by_model must be a mapping of model name to scores, or a list of score "
            f"arrays; got {type(scores_by_model).__name__}."
        )
    if len(scores) < 2:
        raise MetricInputError(f"compare_models needs at least two models; got {len(scores)}.")
    if len(set(names)) < len(names):
        raise MetricInputError("scores_by_model names two models alike; each needs its own name.")
    return names, [np.asarray(s) for s in scores]


def _seed(random_state):
    """One seed for the resamples and the sign patterns (fresh entropy for None)."""
    if random_state is None:
        return int(np.random.SeedSequence().entropy)
    return random_state


def compare_models(
    metric,
    y_true,
    scores_by_model,
    *,
    test="bootstrap",
    correction="holm",
    paired=True,
    n_resamples=2000,
    n_permutations=10_000,
    confidence=0.95,
    higher_is_better=None,
    random_state=None,
    checkpoint=None,
):
    """Every model's value with its interval, and every pair compared with a correction.

    See the module docstring for the tests. Intervals are percentile bootstrap
    intervals on shared resamples (``paired=True``: the same rows for every
    model, so a difference's interval reflects the correlation; ``paired=False``
    resamples each model on its own). Equal to the pairwise functions one pair at
    a time: :func:`metrics.delong_test`, :func:`metrics.paired_test` (same
    ``random_state``), :func:`metrics.paired_bootstrap_diff` (same ``random_state``,
    pairs with the first model bit for bit; on per-sample metrics every pair).

    Parameters
    ----------
    metric : callable
        ``metric(y_true, score) -> float``, e.g. :func:`metrics.roc_auc_score` or
        ``functools.partial(metrics.ndcg_score, k=10)``.
    y_true : array-like
    scores_by_model : mapping of str to array-like, or list of array-like
        Each model's scores, rows aligned with ``y_true``; a list names them
        ``"model 0"``, ``"model 1"``...
    test : {"bootstrap", "delong", "t", "randomization", "wilcoxon", "tukey"}
    correction : {"holm", "bonferroni", "bh", None}, default "holm"
        None for ``"tukey"`` (its p-values are already family-wise).
    paired : bool, default True
        False only with ``"bootstrap"`` or ``"tukey"`` (the others are paired tests).
    n_resamples : int or None, default 2000
        Bootstrap resamples of the intervals; None: no intervals (not with
        ``"bootstrap"``), except with ``"delong"``: DeLong's normal intervals
        ``AUC +- z se`` from the same covariance matrix (pROC's
        ``ci(method="delong")``), no resampling.
    n_permutations : int, default 10000
        Sign patterns of the randomization test.
    confidence : float, default 0.95
    higher_is_better : bool or None
        None: False for the errors and losses of ``metrics`` (MAE, MSE, RMSE,
        MAPE, coverage, ranking loss, log loss, Hamming loss), else True.
    random_state : int, numpy Generator or None
        Seeds the resamples and the sign patterns.
    checkpoint : callable or None
        Called between blocks of resamples (as :func:`metrics.bootstrap_ci`).

    Returns
    -------
    ModelComparison

    Raises
    ------
    MetricInputError
        Fewer than two models, bad options, a test the metric does not allow,
        input a metric or test refuses.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import compare_models, roc_auc_score
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 2000)
    >>> models = {f"m{k}": y + rng.normal(scale=1 + k / 4, size=2000) for k in range(4)}
    >>> r = compare_models(roc_auc_score, y, models, test="delong", random_state=0)
    >>> r.estimate.round(3).tolist()
    [0.766, 0.709, 0.671, 0.661]
    >>> letters(r)  # m0 beats m1, m2, m3; m1 beats m2, m3 (Holm, alpha 0.05)
    ['bcd', 'cd', '', '']
    """
    names, scores = _models(scores_by_model)
    test, correction = _check_options(metric, test, correction, paired, n_resamples, confidence)
    if higher_is_better is None:
        func = metric.func if isinstance(metric, functools.partial) else metric
        higher_is_better = not any(func is f for f in _LOWER_BETTER)
    seed = _seed(random_state)
    estimate = np.array([float(metric(y_true, s)) for s in scores])
    m = len(scores)
    pairs = np.array([(i, j) for i in range(m) for j in range(i + 1, m)], dtype=np.intp)
    diff = estimate[pairs[:, 0]] - estimate[pairs[:, 1]]
    low = high = np.full(m, np.nan)
    diff_low = diff_high = np.full(pairs.shape[0], np.nan)
    dists = None
    if n_resamples is not None:
        dists = np.array(
            bootstrap_distributions(
                metric,
                y_true,
                scores,
                n_resamples=n_resamples,
                paired=paired,
                random_state=seed,
                checkpoint=checkpoint,
            )
        )
        _check_finite(dists, names)
        alpha = (1.0 - confidence) / 2.0
        low, high = np.quantile(dists, [alpha, 1.0 - alpha], axis=1)
        d = dists[pairs[:, 0]] - dists[pairs[:, 1]]
        diff_low, diff_high = np.quantile(d, [alpha, 1.0 - alpha], axis=1)
    if test == "delong":
        p, se, se_pairs = _delong(y_true, scores, pairs)
        if dists is None:  # DeLong's own normal intervals (pROC's ci(method="delong"))
            z = NormalDist().inv_cdf(0.5 + confidence / 2.0)
            low, high = estimate - z * se, estimate + z * se
            diff_low, diff_high = diff - z * se_pairs, diff + z * se_pairs
    else:
        p = _p_values(test, metric, y_true, scores, pairs, diff, dists, n_permutations, seed)
    return ModelComparison(
        names,
        estimate,
        low,
        high,
        pairs,
        diff,
        diff_low,
        diff_high,
        p,
        correct_p_values(p, correction),
        test,
        correction,
        float(confidence),
        bool(higher_is_better),
    )


def _check_options(metric, test, correction, paired, n_resamples, confidence):
    """The options of :func:`compare_models`, checked before any work; ``(test, correction)``."""
    test = _choice(test, "test", TESTS)
    correction = _choice(correction, "correction", CORRECTIONS)
    if not isinstance(paired, bool):
        raise MetricInputError(f"paired must be True or False; got {paired!r}.")
    if not paired and test not in ("bootstrap", "tukey"):
        raise MetricInputError(
            f"test={test!r} is a paired test; paired=False goes with 'bootstrap' or 'tukey'."
        )
    if test == "tukey" and correction is not None:
        raise MetricInputError(
            "Tukey's HSD p-values are already corrected for every pair; use correction=None."
        )
    if test == "delong" and not any(metric is f for f in _AUC):
        raise MetricInputError("test='delong' compares ROC AUCs: metric must be roc_auc_score.")
    if n_resamples is None and test == "bootstrap":
        raise MetricInputError("test='bootstrap' needs n_resamples (an integer >= 2).")
    if isinstance(confidence, bool) or not isinstance(confidence, Real) or not 0 < confidence < 1:
        raise MetricInputError(f"confidence must lie strictly between 0 and 1; got {confidence!r}.")
    return test, correction


def _check_finite(dists: np.ndarray, names) -> None:
    bad = ~np.isfinite(dists)
    if bad.any():
        k, r = np.unravel_index(int(np.argmax(bad)), bad.shape)
        raise MetricInputError(
            f"the metric returned {float(dists[k, r])!r} for model {names[k]!r} on bootstrap "
            f"resample {r}; an interval needs a finite value on every resample."
        )


def _p_values(test, metric, y_true, scores, pairs, diff, dists, n_permutations, seed):
    if test == "bootstrap":
        return bootstrap_p_values(diff, dists[pairs[:, 0]] - dists[pairs[:, 1]])
    values = np.column_stack([per_sample_values(metric, y_true, s) for s in scores])
    if test == "tukey":
        return tukey_p_values(values, pairs)
    if test == "randomization":
        return _randomization_p(values, pairs, n_permutations, seed)
    return np.array(
        [paired_test(values[:, i], values[:, j], method=test).p_value for i, j in pairs]
    )


def bootstrap_p_values(diff, diff_distributions) -> np.ndarray:
    """Two-sided p-values of paired bootstrap differences (pROC's bootstrap test).

    ``D = diff / sd(d*)``, the observed difference over the standard deviation
    (``ddof=1``) of its ``B`` resampled values, and ``p = P(|Z| >= |D|)`` under the
    standard normal, as pROC's ``roc.test(method="bootstrap")``. Unlike a count of
    resamples on either side of 0 it has no floor at ``2 / B``, which a correction over
    many pairs would multiply (45 pairs x 2 / 1,000 resamples is 0.09). A difference
    whose resamples never vary gets 1 when it is 0, else 0.

    Parameters
    ----------
    diff : array-like of shape (n_pairs,)
        The observed differences.
    diff_distributions : array-like of shape (n_pairs, B)

    Returns
    -------
    ndarray of shape (n_pairs,)

    Examples
    --------
    >>> bootstrap_p_values([0.1], [[0.1, 0.2, 0.0, 0.1]]).round(4).tolist()
    [0.2207]
    """
    diff = np.atleast_1d(np.asarray(diff, dtype=np.float64))
    se = np.atleast_2d(np.asarray(diff_distributions, dtype=np.float64)).std(axis=1, ddof=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, np.abs(diff) / se, np.where(diff == 0, 0.0, np.inf))
    return np.array([math.erfc(v / math.sqrt(2.0)) for v in z])


def _delong(y_true, scores, pairs):
    """DeLong's p-value of every pair from one covariance matrix of all models, with the
    standard errors of each model's AUC and of each pair's difference."""
    placements = np.column_stack([auc_placements(y_true, s) for s in scores])
    pos = np.asarray(y_true).ravel() != 0
    n_pos, n_neg = int(pos.sum()), int((~pos).sum())
    if n_pos < 2 or n_neg < 2:
        raise MetricInputError(
            "DeLong's test needs at least two positives and two negatives to estimate a "
            f"covariance; y_true has {n_pos} positives and {n_neg} negatives."
        )
    v10, v01 = placements[pos], placements[~pos]
    theta = v10.mean(axis=0)
    d10, d01 = v10 - theta, v01 - theta
    cov = (d10.T @ d10) / ((n_pos - 1.0) * n_pos) + (d01.T @ d01) / ((n_neg - 1.0) * n_neg)
    i, j = pairs[:, 0], pairs[:, 1]
    se = np.sqrt(np.maximum(cov[i, i] + cov[j, j] - 2.0 * cov[i, j], 0.0))
    diff = theta[i] - theta[j]
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(se > 0, diff / se, np.where(diff == 0, 0.0, np.inf))
    p = np.array([math.erfc(abs(v) / math.sqrt(2.0)) for v in z])
    return p, np.sqrt(np.maximum(np.diag(cov), 0.0)), se


def _randomization_p(values, pairs, n_permutations, seed) -> np.ndarray:
    """Fisher's randomization test of every pair on one set of sign patterns.

    The patterns are those :func:`metrics.paired_test` draws with the same seed
    (``Generator.integers`` int8 blocks of the same size), applied to every pair's
    differences at once.
    """
    if isinstance(n_permutations, bool) or not isinstance(n_permutations, int):
        raise MetricInputError(f"n_permutations must be an integer >= 1; got {n_permutations!r}.")
    if n_permutations < 1:
        raise MetricInputError(f"n_permutations must be an integer >= 1; got {n_permutations!r}.")
    n = values.shape[0]
    if n < 2:
        raise MetricInputError(f"a paired test needs at least 2 pairs; got {n}.")
    d = values[:, pairs[:, 0]] - values[:, pairs[:, 1]]
    observed = np.abs(d.mean(axis=0))
    gamma = 100 * np.finfo(np.float64).eps * observed
    rng = np.random.default_rng(seed)
    per = max(1, INDEX_BLOCK_DRAWS // n)  # paired_test's blocks
    hits = np.zeros(d.shape[1], dtype=np.int64)
    for start in range(0, n_permutations, per):
        rows = min(per, n_permutations - start)
        signs = rng.integers(0, 2, size=(rows, n), dtype=np.int8)
        means = (2.0 * (signs @ d) - d.sum(axis=0)) / n
        hits += np.count_nonzero(np.abs(means) >= observed - gamma, axis=0)
    return (hits + 1.0) / (n_permutations + 1.0)


def tukey_p_values(values, pairs=None) -> np.ndarray:
    """Tukey's HSD p-values of every pair of columns, the columns taken as independent groups.

    One-way ANOVA over the ``k`` columns (``n`` rows each): ``MSE`` is the pooled
    within-column variance with ``k (n - 1)`` degrees of freedom, and pair
    ``(i, j)`` has ``q = |mean_i - mean_j| / sqrt(MSE / n)`` and
    ``p = P(Q > q)`` under the studentized range distribution of ``k`` groups
    (``scipy.stats.tukey_hsd``'s p-values, ranx's ``"tukey"``).

    Parameters
    ----------
    values : array-like of shape (n, k)
        Per-sample values of ``k`` models.
    pairs : array-like of shape (n_pairs, 2), optional
        Default: every pair ``i < j`` in row-major order.

    Returns
    -------
    ndarray of shape (n_pairs,)

    Examples
    --------
    >>> v = [[0.5, 0.6, 0.9], [0.4, 0.7, 0.8], [0.6, 0.5, 0.9], [0.5, 0.6, 1.0]]
    >>> tukey_p_values(v).round(4).tolist()
    [0.2461, 0.0002, 0.0015]
    """
    v = np.asarray(values, dtype=np.float64)
    if v.ndim != 2 or v.shape[1] < 2 or v.shape[0] < 2:
        raise MetricInputError(
            f"values must be (n, k) with n >= 2 rows and k >= 2 columns; got shape {v.shape}."
        )
    n, k = v.shape
    if pairs is None:
        pairs = np.array([(i, j) for i in range(k) for j in range(i + 1, k)], dtype=np.intp)
    pairs = np.asarray(pairs, dtype=np.intp)
    means = v.mean(axis=0)
    df = k * (n - 1)
    mse = float(((v - means) ** 2).sum()) / df
    if mse == 0:
        raise MetricInputError(
            "Tukey's HSD is undefined: every model's values are constant (no variance)."
        )
    q = np.abs(means[pairs[:, 0]] - means[pairs[:, 1]]) / math.sqrt(mse / n)
    return studentized_range_sf(q, k, df)


def beaten(result: ModelComparison, alpha=0.05) -> list[tuple[int, ...]]:
    """For every model, the models it significantly beats after the correction.

    Model ``i`` beats ``j`` when their pair's corrected p-value is at most ``alpha``
    (ranx's ``p <= max_p``) and ``i``'s value is the better one (higher, or lower
    where lower is better).

    Parameters
    ----------
    result : ModelComparison
    alpha : float, default 0.05

    Returns
    -------
    list of tuple of int
        ``beaten(result)[i]``: the indices of the models ``i`` beats, ascending.

    Examples
    --------
    >>> from metrics import compare_models, mean_absolute_error
    >>> y = [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]
    >>> r = compare_models(mean_absolute_error, y, [[1.1, 2.0, 3.1, 4.0, 5.1, 6.0],
    ...     [2.0, 3.1, 4.0, 5.2, 6.1, 7.0]], test="t", n_resamples=None)
    >>> beaten(r)
    [(1,), ()]
    """
    if isinstance(alpha, bool) or not isinstance(alpha, Real) or not 0 < alpha < 1:
        raise MetricInputError(f"alpha must lie strictly between 0 and 1; got {alpha!r}.")
    sign = 1.0 if result.higher_is_better else -1.0
    out: list[list[int]] = [[] for _ in result.names]
    for (i, j), d, p in zip(result.pairs, result.diff, result.p_adjusted, strict=True):
        if p <= alpha and sign * d > 0:
            out[i].append(int(j))
        elif p <= alpha and sign * d < 0:
            out[j].append(int(i))
    return [tuple(sorted(b)) for b in out]


def letters(result: ModelComparison, alpha=0.05) -> list[str]:
    """ranx's compare-report letters: for each model, the letters of the models it beats.

    Models are lettered ``a``, ``b``, ``c``... in the order given (after ``z``:
    ``a1``, ``b1``...).

    Parameters
    ----------
    result, alpha
        As in :func:`beaten` (which models beat which).

    Returns
    -------
    list of str
        One string per model, in the order given: its winners' letters, alphabetical.

    Examples
    --------
    >>> from metrics import compare_models, accuracy_score
    >>> y = [1, 0, 1, 1, 0, 1, 0, 0, 1, 1, 0, 1] * 3
    >>> b = [1 - v if i % 4 == 0 else v for i, v in enumerate(y)]  # 3 in 4 right
    >>> c = [1 - v if i % 2 else v for i, v in enumerate(y)]  # half right
    >>> r = compare_models(accuracy_score, y, {"a": y, "b": b, "c": c}, test="t",
    ...     n_resamples=None)
    >>> letters(r)  # a beats b and c; b and c are not told apart after Holm's correction
    ['bc', '', '']
    """
    return ["".join(model_letter(j) for j in b) for b in beaten(result, alpha)]


def model_letter(index: int) -> str:
    """The letter of the model at ``index``: ``a``..``z``, then ``a1``..``z1``...

    Parameters
    ----------
    index : int
        The model's place in the order given (0 for the first).

    Returns
    -------
    str

    Examples
    --------
    >>> model_letter(0), model_letter(25), model_letter(26)
    ('a', 'z', 'a1')
    """
    letter = chr(ord("a") + index % 26)
    return letter if index < 26 else f"{letter}{index // 26}"
