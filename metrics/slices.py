"""Metrics per group (slice) of the data: values, intervals, gaps and tests.

:func:`metric_frame` computes one metric on every group of the rows (a
hospital, a query category, a bin of document length): each group's value,
count and weight, its difference and ratio to the overall value, a seeded
bootstrap interval stratified by group, and a test of "this group differs
from the rest of the data" whose p-values are corrected (Holm and
Benjamini-Hochberg, :mod:`metrics.multitest`) for the number of groups looked
at. :func:`worst_slices` runs the same test over every value of every
attribute and every pair of values of two attributes (with at least
``min_count`` rows) and ranks the slices by how much worse they are than the
rest, with the corrected p-value beside each: looking at hundreds of slices
then does not make noise look like a finding.

How each metric is computed (one pass over the rows, never one call per row):

* metrics with an additive form (:mod:`metrics._slice_forms`: the weighted
  means - MAE, MSE, RMSE, MAPE, accuracy, Hamming loss, log loss, NDCG, DCG,
  LRAP, coverage, ranking loss, P@K, R@K, hit rate, MAP@K, MRR - R^2, and the
  rates at a threshold ``"tpr"``, ``"fpr"``, ...): the group values are
  ``finish`` of ``np.bincount`` sums; a group's bootstrap resample is
  ``finish(counts @ S_group)`` with exact multinomial draw counts
  (:func:`metrics._resample.draw_counts`, drawn within each group: the
  bootstrap is stratified), about 5 ns per row and resample; when the rows
  of a group take few distinct values (the four confusion cells of a rate,
  0/1 accuracy) one multinomial draw over those values per resample instead.
* ``roc_auc_score`` (unweighted, binary): one sort of all rows; each group's
  AUC from its own tie blocks and its rest's from the Mann-Whitney count
  with the group's pairs taken out, O(group rows) each (:func:`_auc`); the
  intervals from draw counts of the group's runs of one class in score order
  (:mod:`metrics._auc_runs`: about 2.5 times fewer counts than rows on a
  model's scores; tied scores in blocks of their own, their pairs counted
  one half), or from :func:`metrics.bootstrap_ci` when its scores tie in
  many blocks.
* any other metric (average precision, macro averages, a callable of yours):
  one call per group and per rest for the values, and
  :func:`metrics.bootstrap_ci` per group and once on all rows for the
  intervals and the test (its per-resample path when the metric has no fast
  one: slow at scale).

The test is a Wald test on the difference to the rest,
``z = (v_g - v_rest) / sqrt(se_g^2 + se_rest^2)``, two-sided normal p-value.
The standard errors are pooled, as the null hypothesis has it (every row
from one distribution): the overall value's standard error scaled by
``sqrt(N / n_part)`` (Kish's effective sizes with weights), that standard
error by the delta method for an additive metric and by a bootstrap of all
rows otherwise; for ROC AUC, DeLong's ``var10 / m + var01 / k`` with the
overall placement variances and the part's class counts ``m``, ``k``.
Unpooled, bootstrapped errors made the far tail too heavy: on null data
about 9% of data sets had a finding after Benjamini-Hochberg at 5% over 36
slices of about 67 rows; pooled, 4.3% for accuracy and 3.3% for ROC AUC
(300 seeded data sets).

When the metric is the share of 0/1 outcomes among the rows it counts,
without weights (accuracy, a rate at a threshold, a hit rate: the form's
``trials``), the p-value is Fisher's exact test of the group's 2x2 table
against the rest (:func:`metrics._fisher.fisher_exact_p`; ``z`` stays the
Wald statistic, for its sign). Near a bound the normal tail is too light
(at 97% accuracy two errors are expected in a slice of 67 rows): pooled
Wald found something in about 10% of null data sets there, the exact test
in 2.5% (``tests/metrics/test_slices.py`` checks 50%, 90% and 97%).

Any other metric of column sums (MAE, MSE, log loss, NDCG, LRAP per row, R^2,
a weighted rate) is tested by permutation (:mod:`metrics._permutation`):
``n_permutations`` shuffles of the rows, the same for every group and every
grouping of one call, each group's difference to its rest recomputed from
bincount sums; p = (1 + as far) / (1 + n_permutations). Skewed per-row values
(a lognormal's or a Pareto's tail) made the pooled Wald test find something in
up to a fifth of null data sets. Above ``PERMUTATION_CELLS`` rows times
permutations the same test runs on ``PERMUTATION_CELLS // n_permutations``
rows picked by group, every group filled equally (``"subsample"``): its level
holds at any size, its power is that of the rows it reads. For ROC AUC
(DeLong), for the metrics of no fast path and with ``n_permutations=0`` the
pooled Wald test stays; :attr:`SliceFrame.test` says which test ran.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from numbers import Real
from typing import NamedTuple

import numpy as np

from metrics import curves
from metrics._auc_runs import auc_run_bootstrap, runs_of, tied_runs
from metrics._fisher import fisher_exact_p
from metrics._permutation import PERMUTATION_CELLS, permutation_p, subsample_rows
from metrics._ranks import map_blocks
from metrics._resample import draw_counts
from metrics._slice_forms import RATES, additive_form, unwrap
from metrics._slice_forms import (
    greater_is_better as _higher_is_better,  # worst_slices has a parameter so named
)
from metrics._validation import MetricInputError, as_array, check_sample_weight, encode_groups
from metrics.compare import CELL_RATIO as AUC_CELL_RATIO
from metrics.compare import bootstrap_ci
from metrics.multitest import CORRECTIONS, multiple_test_correction

__all__ = ["PERMUTATION_CELLS", "SliceFrame", "WorstSlices", "metric_frame", "worst_slices"]

#: Draw counts per block of one group's resamples (bounds the float64 copy to 32 MiB).
BLOCK_DRAWS = 1 << 22
#: A group whose rows take at most 1/CELL_RATIO as many distinct values as it has rows is
#: resampled by a multinomial draw over the distinct rows.
CELL_RATIO = 4


@dataclass(frozen=True)
class SliceFrame:
    """One metric on every group: the result of :func:`metric_frame`.

    Every array has one entry per group, in the order of ``groups`` (sorted
    distinct values). NaN marks a value the data does not define (an ROC AUC
    on a group holding one class; ``notes`` says why).

    Attributes
    ----------
    groups : ndarray
        The distinct group values, sorted.
    count : ndarray of int64
        Rows in each group.
    weight : ndarray of float64
        Sum of the sample weights of each group (``count`` without weights).
    value, low, high : ndarray of float64
        The metric on each group and its bootstrap percentile interval.
    rest : ndarray of float64
        The metric on all rows outside the group.
    z, p_value : ndarray of float64
        The test of "the group differs from the rest": the Wald statistic and
        the two-sided p-value (Fisher's exact test's for a 0/1 metric without
        weights, the normal one's otherwise).
    p_holm, p_bh : ndarray of float64
        The p-values corrected over all groups tested (Holm; Benjamini-Hochberg).
    overall : float
        The metric on all rows.
    greater_is_better : bool
    confidence : float
    n_resamples : int
    distribution : ndarray of shape (n_groups, n_resamples)
        The metric on every resample of every group.
    notes : dict
        Group value -> why its value, interval or test is missing.
    test : str
        Which test gave ``p_value``: ``"exact"`` (Fisher's, a 0/1 metric without
        weights), ``"permutation"`` (a metric of column sums, rows x permutations
        up to ``PERMUTATION_CELLS``), ``"subsample"`` (the permutation test on
        ``PERMUTATION_CELLS // n_permutations`` rows picked by group, above that)
        or ``"wald"`` (the pooled normal test).

    Examples
    --------
    >>> from metrics import metric_frame, mean_absolute_error
    >>> f = metric_frame(mean_absolute_error, [1.0, 2, 3, 4], [1.0, 2, 5, 4], ["a", "a", "b", "b"],
    ...                  n_resamples=50, random_state=0)
    >>> f.groups.tolist(), f.value.tolist(), f.overall, f.difference()
    (['a', 'b'], [0.0, 1.0], 0.5, 1.0)
    """

    groups: np.ndarray
    count: np.ndarray
    weight: np.ndarray
    value: np.ndarray
    low: np.ndarray
    high: np.ndarray
    rest: np.ndarray
    z: np.ndarray
    p_value: np.ndarray
    p_holm: np.ndarray
    p_bh: np.ndarray
    overall: float
    greater_is_better: bool
    confidence: float
    n_resamples: int
    distribution: np.ndarray = field(repr=False)
    notes: dict = field(default_factory=dict)
    test: str = "wald"

    @property
    def diff_overall(self) -> np.ndarray:
        """Each group's value minus the overall value."""
        return self.value - self.overall

    @property
    def ratio_overall(self) -> np.ndarray:
        """Each group's value over the overall value (NaN where the overall value is 0)."""
        with np.errstate(divide="ignore", invalid="ignore"):
            return (
                self.value / self.overall if self.overall != 0 else np.full_like(self.value, np.nan)
            )

    def pairwise_difference(self) -> np.ndarray:
        """``out[i, j] = value[i] - value[j]`` for every pair of groups."""
        return self.value[:, None] - self.value[None, :]

    def difference(self, method="between_groups") -> float:
        """The largest gap: between two groups (max - min) or of a group to the overall value.

        ``method`` is ``"between_groups"`` or ``"to_overall"`` (the largest
        ``|value - overall|``), as Fairlearn's ``MetricFrame.difference``.
        """
        if method == "between_groups":
            return float(np.nanmax(self.value) - np.nanmin(self.value))
        if method == "to_overall":
            return float(np.nanmax(np.abs(self.diff_overall)))
        raise MetricInputError(f"method must be 'between_groups' or 'to_overall'; got {method!r}.")

    def ratio(self, method="between_groups") -> float:
        """The smallest ratio: min / max over groups, or of a group to the overall value.

        ``"to_overall"`` is the smallest over the groups of ``value / overall``,
        taken as ``overall / value`` where it is above 1, as Fairlearn's
        ``MetricFrame.ratio`` (a negative ratio, an R^2 below 0, stays as it is).
        """
        with np.errstate(divide="ignore", invalid="ignore"):
            if method == "between_groups":
                return float(np.nanmin(self.value) / np.nanmax(self.value))
            if method == "to_overall":
                r = self.value / self.overall
                return float(np.nanmin(np.where(r > 1.0, 1.0 / r, r)))
        raise MetricInputError(f"method must be 'between_groups' or 'to_overall'; got {method!r}.")

    def difference_interval(self) -> tuple[float, float]:
        """Bootstrap percentile interval of ``difference("between_groups")``.

        The groups are resampled independently (stratified), so resample
        ``r``'s gap is the max minus the min of the groups' values on ``r``;
        NaN without resamples.
        """
        d = self.distribution
        if d.shape[1] == 0:
            return math.nan, math.nan
        with np.errstate(invalid="ignore"):
            gaps = np.nanmax(d, axis=0) - np.nanmin(d, axis=0)
        alpha = (1.0 - self.confidence) / 2.0
        low, high = np.nanquantile(gaps, [alpha, 1.0 - alpha])
        return float(low), float(high)

    def table(self) -> dict[str, np.ndarray]:
        """The per-group columns as a dict of arrays (``pandas.DataFrame(frame.table())``)."""
        names = ("groups", "count", "weight", "value", "low", "high", "rest", "z", "p_value")
        out = {name: getattr(self, name) for name in names}
        out.update(
            diff_overall=self.diff_overall,
            ratio_overall=self.ratio_overall,
            p_holm=self.p_holm,
            p_bh=self.p_bh,
        )
        return out


# ---------------------------------------------------------------------------
# validation
# ---------------------------------------------------------------------------
def _n_rows(y_true) -> int:
    arr = np.asarray(y_true)
    if arr.ndim == 0 or arr.shape[0] == 0:
        raise MetricInputError(f"y_true must have at least one row; got shape {arr.shape}.")
    return arr.shape[0]


def _check_options(metric, n_resamples, confidence, fewest: int = 2) -> None:
    if isinstance(metric, str):
        if metric not in RATES:
            raise MetricInputError(
                f"metric must be callable or one of {', '.join(map(repr, RATES))}; got {metric!r}."
            )
    elif not callable(metric):
        raise MetricInputError(f"metric must be callable; got {metric!r}.")
    ok = isinstance(n_resamples, int) and not isinstance(n_resamples, bool)
    if not ok or n_resamples < fewest or n_resamples == 1:
        raise MetricInputError(
            f"n_resamples must be {'0 or ' if fewest == 0 else ''}an integer >= 2; "
            f"got {n_resamples!r}."
        )
    if not (isinstance(confidence, float | int) and 0.0 < confidence < 1.0):
        raise MetricInputError(f"confidence must lie strictly between 0 and 1; got {confidence!r}.")


def _check_permutations(n_permutations) -> None:
    ok = isinstance(n_permutations, int) and not isinstance(n_permutations, bool)
    if not ok or n_permutations < 0:
        raise MetricInputError(f"n_permutations must be an integer >= 0; got {n_permutations!r}.")


def _seed(rng: np.random.Generator) -> int:
    """The shuffles' seed, drawn from ``rng``'s state (its spawned children, the
    resamples' generators, come from its seed sequence and do not move)."""
    return int(rng.integers(2**63))


def _check_threshold(threshold, n: int):
    """A finite number, or one finite number per row (a threshold per group, row by row)."""
    if np.ndim(threshold) == 0:
        value = threshold
        ok = isinstance(value, Real) and not isinstance(value, bool) and math.isfinite(value)
        if not ok:
            raise MetricInputError(f"threshold must be a finite number; got {threshold!r}.")
        return float(value)
    arr = as_array(threshold, "threshold", ndim=(1,))
    if arr.shape[0] != n:
        raise MetricInputError(
            f"threshold must be one number or one per row ({n}); got {arr.shape[0]} numbers."
        )
    return arr


# ---------------------------------------------------------------------------
# the three paths: additive, ROC AUC, any metric
# ---------------------------------------------------------------------------
@dataclass
class _Groups:
    """Per-group results of one path, before the test."""

    value: np.ndarray
    rest: np.ndarray
    dist: np.ndarray
    se: np.ndarray
    se_rest: np.ndarray
    overall: float
    notes: dict = field(default_factory=dict)
    p: np.ndarray | None = None  # an exact or permutation p-value per group, else Wald's
    test: str = "wald"


def _row_keys(rows: np.ndarray) -> np.ndarray | None:
    """Each row's code among the distinct rows of ``rows``, in the order of
    ``np.unique(rows, axis=0)`` (by the first column, then the next...); None when
    their combinations could pass int64 (then no multinomial draw would pay off).

    One 1-D ``np.unique`` per column (a metric's few sums), where ``np.unique(axis=0)``
    sorts the rows as records: 50 ms for a group of 20,000 rows, 2.5 s of a frame's
    2.9 at 10^6 rows and 50 groups.

    Examples
    --------
    >>> _row_keys(np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 0.0], [0.0, 0.0]])).tolist()
    [2, 1, 2, 0]
    """
    key = np.zeros(rows.shape[0], dtype=np.int64)
    size = 1
    for column in rows.T:  # the metric's sums: a few columns, never rows
        values, code = np.unique(column, return_inverse=True)
        size *= values.shape[0]
        if size >= 2**62:
            return None
        key = key * values.shape[0] + code.reshape(-1)
    return key


def _resample_sums(
    rng: np.random.Generator, rows: np.ndarray, n_resamples: int, keys: np.ndarray | None
) -> np.ndarray:
    """Column sums of ``rows`` on ``n_resamples`` bootstrap resamples: ``counts @ rows``;
    ``keys``: the rows' :func:`_row_keys`.

    When the rows take few distinct values (confusion cells at a threshold,
    0/1 correctness, few weights), a resample is one multinomial draw over
    the distinct rows with their multiplicities (``Generator.multinomial``):
    the same law as drawing the rows, in O(distinct rows) per resample.
    """
    n = rows.shape[0]
    if keys is not None:
        _, first, count = np.unique(keys, return_index=True, return_counts=True)
        if first.shape[0] * CELL_RATIO <= n:
            share = count / n
            return rng.multinomial(n, share, size=n_resamples).astype(np.float64) @ rows[first]
    per = max(1, BLOCK_DRAWS // n)
    out = np.empty((n_resamples, rows.shape[1]))
    for start in range(0, n_resamples, per):
        counts = draw_counts(rng, min(per, n_resamples - start), n)
        out[start : start + counts.shape[0]] = counts.astype(np.float64) @ rows
    return out


def _by_group(codes: np.ndarray, n_groups: int) -> np.ndarray:
    """The rows ordered by group, each group's in row order (a stable argsort); on
    16-bit codes, which numpy sorts by radix: 0.016 s for 10^6 rows against 0.094.

    Examples
    --------
    >>> _by_group(np.array([2, 0, 2, 1, 0]), 3).tolist()
    [1, 4, 3, 0, 2]
    """
    if n_groups <= np.iinfo(np.int16).max:
        codes = codes.astype(np.int16)
    return np.argsort(codes, kind="stable")


def _nanstd(x: np.ndarray) -> np.ndarray:
    """Standard deviation (ddof=1) along the last axis, ignoring NaN; NaN when < 2 values."""
    ok = np.isfinite(x)
    k = ok.sum(axis=-1)
    x0 = np.where(ok, x, 0.0)
    mean = x0.sum(axis=-1) / np.maximum(k, 1)
    ss = (np.where(ok, x - mean[..., None], 0.0) ** 2).sum(axis=-1)
    return np.where(k >= 2, np.sqrt(ss / np.maximum(k - 1, 1)), np.nan)


def _additive(form, codes, w, n_groups, opts, rngs) -> _Groups:
    s, finish = form.stats, form.finish
    m = s.shape[1]
    flat = codes[:, None] * m + np.arange(m)
    sums = np.bincount(flat.ravel(), weights=s.ravel(), minlength=n_groups * m)
    sums = sums.reshape(n_groups, m)
    total = sums.sum(axis=0)
    order = _by_group(codes, n_groups)
    bounds = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=n_groups))))

    keys = _row_keys(s) if opts.intervals else None

    def group(g: int) -> np.ndarray:
        rows = order[bounds[g] : bounds[g + 1]]
        return _resample_sums(
            rngs[g], s[rows], opts.n_resamples, None if keys is None else keys[rows]
        )

    if opts.intervals:
        # each group has its own generator: the same numbers whatever the number of threads
        dist = finish(np.stack(_in_steps(group, range(n_groups), opts)))
    else:
        dist = np.empty((n_groups, 0))
    se, se_rest = _null_se(_delta_sd(s, total, finish), codes, w, n_groups)
    out = _Groups(finish(sums), finish(total - sums), dist, se, se_rest, float(finish(total)))
    if form.trials is not None:
        out.p, out.test = _exact_p(form.trials, codes, n_groups, out), "exact"
    elif 0 < opts.n_permutations:
        _step(opts)
        out.p, out.test = _permutation(s, finish, codes, n_groups, opts), "permutation"
        if s.shape[0] * opts.n_permutations > PERMUTATION_CELLS:
            out.test = "subsample"
        out.p = np.where(np.isfinite(out.value) & np.isfinite(out.rest), out.p, np.nan)
    return out


def _permutation(s, finish, codes, n_groups: int, opts) -> np.ndarray:
    """The permutation p-values, on a subsample of the rows above ``PERMUTATION_CELLS``
    (picked by group only: the test keeps its level, :mod:`metrics._permutation`)."""
    seed, n_perm = opts.permutation_seed, opts.n_permutations
    size = max(PERMUTATION_CELLS // n_perm, 2)
    if s.shape[0] > size:
        rows = subsample_rows(codes, n_groups, size, (seed, 1))
        s, codes = s[rows], codes[rows]
    return permutation_p(s, finish, codes, n_groups, n_perm, seed, opts.cache)


def _exact_p(trials: np.ndarray, codes, n_groups: int, res: _Groups) -> np.ndarray:
    """Fisher's exact p-value per group (NaN where the group's or its rest's value is undefined)."""
    hits = np.bincount(codes, trials[:, 0] & trials[:, 1], n_groups).astype(np.int64)
    counted = np.bincount(codes, trials[:, 1], n_groups).astype(np.int64)
    p = fisher_exact_p(hits, counted, int(hits.sum()), int(counted.sum()))
    return np.where(np.isfinite(res.value) & np.isfinite(res.rest), p, np.nan)


def _delta_sd(s: np.ndarray, total: np.ndarray, finish) -> float:
    """Standard error of ``finish(total)`` by the delta method (no resampling noise).

    The value is linearized at the overall sums, ``psi_i = grad finish . S_i``
    (the gradient by central differences, one call of ``finish`` on ``2 m``
    points), and its variance is ``n / (n - 1)`` times the sum of the squared
    centred ``psi``: the bootstrap's variance without its Monte Carlo error,
    which would otherwise fatten the test's far tail where the corrections read it.
    """
    h = 1e-6 * (np.abs(total) + np.abs(total).mean() + 1e-300)
    step = np.diag(h)
    up, down = finish(total + step), finish(total - step)
    grad = (up - down) / (2.0 * h)
    if not np.isfinite(grad).all():
        return math.nan
    psi = s @ grad
    n = s.shape[0]
    if n < 2:
        return math.nan
    return math.sqrt(float(((psi - psi.mean()) ** 2).sum()) * n / (n - 1.0))


def _null_se(sd_all: float, codes, w, n_groups) -> tuple[np.ndarray, np.ndarray]:
    """Standard errors of a group's value and of its rest's if the group were like the rest.

    Under the null hypothesis every row comes from one distribution, so a
    value on ``k`` rows varies as the overall value on ``N`` rows times
    ``sqrt(N / k)`` (Kish's effective sizes with weights). This pooled
    estimate keeps the test's size in the far tail, where the corrections
    read it (module docstring).
    """
    if w is None:
        k = np.bincount(codes, minlength=n_groups).astype(np.float64)
        k_rest, n_eff = k.sum() - k, k.sum()
    else:
        sw, sw2 = np.bincount(codes, w, n_groups), np.bincount(codes, w * w, n_groups)
        k = _kish(sw, sw2)
        k_rest, n_eff = _kish(sw.sum() - sw, sw2.sum() - sw2), _kish(sw.sum(), sw2.sum())
    with np.errstate(divide="ignore", invalid="ignore"):
        return sd_all * np.sqrt(n_eff / k), sd_all * np.sqrt(n_eff / k_rest)


def _kish(sw, sw2):
    """Kish's effective number of rows, ``(sum w)^2 / sum w^2``."""
    with np.errstate(divide="ignore", invalid="ignore"):
        return np.where(sw2 > 0, sw * sw / np.where(sw2 > 0, sw2, 1.0), 0.0)


def _placements(pos_in: np.ndarray, neg_in: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per tie block (distinct scores, ascending): negatives below a positive there and
    positives above a negative there, a tie counting 1/2 (DeLong's placements, unscaled)."""
    below = np.cumsum(neg_in) - 0.5 * neg_in
    above = pos_in[::-1].cumsum()[::-1] - 0.5 * pos_in
    return below, above


def _delong(pos_in: np.ndarray, neg_in: np.ndarray) -> tuple[float, float, float]:
    """ROC AUC and the variances of DeLong's placements, from each tie block's counts.

    A positive's placement is the share of negatives below it (a tie counts
    1/2), the same for every positive of its block, so their mean (the AUC)
    and variance (``ddof=1``) are sums over blocks; likewise the negatives'.
    DeLong's variance of the AUC is ``var10 / m + var01 / k``.
    """
    m, k = float(pos_in.sum()), float(neg_in.sum())
    if m == 0 or k == 0:
        return math.nan, math.nan, math.nan
    below, above = _placements(pos_in, neg_in)
    v10, v01 = below / k, above / m
    auc = _dot(pos_in, v10) / m
    if m < 2 or k < 2:  # the variances need two of each class
        return auc, math.nan, math.nan
    var10 = _dot(pos_in, (v10 - auc) ** 2) / (m - 1.0)
    var01 = _dot(neg_in, (v01 - _dot(neg_in, v01) / k) ** 2) / (k - 1.0)
    return auc, var10, var01


def _dot(a: np.ndarray, b: np.ndarray) -> float:
    """``a . b`` without BLAS: a multithreaded BLAS's workers spin between the many small
    products of one frame, which cost 1.3 of its 9 CPU s (10^6 rows, 50 groups)."""
    return float(np.einsum("i,i->", a, b))


def _auc_input(metric, y_true, y_score, w):
    """``(positives, scores)`` when ``metric`` is ROC AUC on unweighted 0/1 labels, else None."""
    func, kwargs = unwrap(metric)
    if func is not curves.roc_auc_score or kwargs or w is not None:
        return None
    y, s = np.asarray(y_true), np.asarray(y_score)
    if y.ndim != 1 or s.shape != y.shape or y.dtype.kind not in "biuf" or s.dtype.kind not in "iuf":
        return None
    if not np.isin(y, (0, 1)).all() or not np.isfinite(s).all():
        return None
    return y == 1, s.astype(np.float64)


def _auc(pos, s, codes, n_groups, keep, opts, rngs) -> _Groups:
    """ROC AUC per group and of each group's rest, in O(rows of the group) each.

    One sort of all rows gives every row's tie block and, per block, the
    negatives below and positives above (:func:`_placements`). A group's AUC
    comes from its own blocks; its rest's from the Mann-Whitney count
    ``U_rest = U_all - sum_{g pos} below - sum_{g neg} above + U_group``
    (the pairs with one member in the group taken out). The test's standard
    errors are pooled: the overall placement variances over each part's
    class counts.
    """
    # any sort: tied rows share a block whatever their order (numpy's default sort of
    # 10^6 float64 takes 0.1 s, a stable one 0.22)
    order = np.argsort(s)
    ordered = s[order]
    start = np.empty(s.shape[0], dtype=bool)
    start[0] = True
    np.not_equal(ordered[1:], ordered[:-1], out=start[1:])
    block = np.empty(s.shape[0], dtype=np.intp)
    block[order] = np.cumsum(start) - 1  # every row's tie block, in row order
    pos_all, neg_all = np.bincount(block, pos), np.bincount(block, ~pos)
    below, above = _placements(pos_all, neg_all)
    overall, var10, var01 = _delong(pos_all, neg_all)
    m_all, k_all = float(pos_all.sum()), float(neg_all.sum())
    u_all = overall * m_all * k_all
    out = _Groups(*(np.full(n_groups, np.nan) for _ in range(5)), overall)
    out.dist = np.full((n_groups, opts.n_resamples if opts.intervals else 0), np.nan)
    by_group = _by_group(codes, n_groups)
    bounds = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=n_groups))))
    for g in np.flatnonzero(keep):
        rows = by_group[bounds[g] : bounds[g + 1]]
        p, b = pos[rows], block[rows]
        _, local = np.unique(b, return_inverse=True)
        auc, _, _ = _delong(np.bincount(local, p), np.bincount(local, ~p))
        m, k = float(p.sum()), float(p.shape[0] - p.sum())
        m_rest, k_rest = m_all - m, k_all - k
        u_group = auc * m * k if m and k else 0.0
        u_rest = u_all - below[b[p]].sum() - above[b[~p]].sum() + u_group
        if m_rest and k_rest:
            out.rest[g] = u_rest / (m_rest * k_rest)
            out.se_rest[g] = math.sqrt(var10 / m_rest + var01 / k_rest)
        if m and k:
            out.se[g] = math.sqrt(var10 / m + var01 / k)
        out.value[g] = auc
        if math.isnan(auc):
            out.notes[g] = "the group holds one class only: its ROC AUC is undefined"
    if opts.intervals:
        todo = np.flatnonzero(keep & np.isfinite(out.value))
        rows = [by_group[bounds[g] : bounds[g + 1]] for g in todo]
        # each group (each chunk of a large one) has its own generator: the same numbers
        # whatever the number of threads
        # each group sorted and cut into runs once, for all the chunks of its resamples
        plans = _in_steps(lambda i: _auc_plan(pos[rows[i]], s[rows[i]], opts.confidence),
                          range(todo.shape[0]), opts)  # fmt: skip
        work = [(i, *c) for i, g in enumerate(todo) for c in _chunks(rows[i].size, opts, rngs[g])]
        dists = _in_steps(lambda w: plans[w[0]](w[1].n_resamples, w[2]), work, opts)
        if dists:  # none when every group holds one class only (their NaN rows stay)
            out.dist[todo] = np.concatenate(dists).reshape(todo.shape[0], -1)
    return out


#: Rows from which a group's resamples are cut into chunks, each with its own generator
#: spawned from the group's, so that a few large groups use every thread (two groups of
#: 500,000 rows otherwise ran one after the other: 11 s at 10^6 rows on two cores).
CHUNK_ROWS = 100_000


def _chunks(rows: int, opts, rng: np.random.Generator) -> list:
    """``(options, generator)`` of each chunk of a group's resamples: one chunk, on the
    group's generator, below :data:`CHUNK_ROWS` rows; else one per ``CHUNK_ROWS`` rows
    (the numbers depend on the rows, never on the threads).

    Examples
    --------
    >>> opts = _Options(1000, 0.95, 0.5, True)
    >>> [o.n_resamples for o, _ in _chunks(250_000, opts, np.random.default_rng(0))]
    [333, 333, 334]
    """
    k = min(-(-rows // CHUNK_ROWS), opts.n_resamples)
    if k <= 1:
        return [(opts, rng)]
    sizes = np.diff(np.linspace(0, opts.n_resamples, k + 1).astype(np.int64))
    children = rng.spawn(k)
    return [(opts._replace(n_resamples=int(n)), children[j]) for j, n in enumerate(sizes)]


#: What one column of a tied block costs a resample over runs, in runs: its draws are
#: gathered and summed for the block's half-pairs (:func:`metrics._auc_runs._auc`).
TIED_COST = 3


def _auc_plan(pos: np.ndarray, s: np.ndarray, confidence: float):
    """How one group's bootstrap ROC AUCs are drawn: ``draw(n_resamples, rng)``, over
    runs of one class (:mod:`metrics._auc_runs`, about 2.5 times fewer counts than rows;
    the sort and the runs made here, once), unless its scores take few distinct values
    or tie in so many blocks that :func:`metrics.bootstrap_ci` costs less (its cells of
    equal score, or its rows).

    Per group of 20,000 rows, 1,000 resamples, CPU s over runs / by ``bootstrap_ci``:
    scores without ties 0.09 / 0.18; of 6 decimals 0.12 / 0.19 (89 tied blocks); of 4
    decimals 0.32 / 0.19 (3,148); of 2 decimals 0.08 / 0.04 (cells). 500,000 rows of 6
    decimals (35,638 tied blocks): 4.7 / 5.8.
    """
    order = np.lexsort((pos, s))  # by score, negatives first among tied scores
    ordered, in_order = s[order], pos[order]
    opens = ordered[1:] != ordered[:-1]
    n = s.shape[0]
    runs = None
    if opens.all():
        runs = (*runs_of(in_order), None)
    else:
        block = np.cumsum(np.concatenate(([0], opens)))
        if 2 * (int(block[-1]) + 1) * AUC_CELL_RATIO > n:  # not bootstrap_ci's cells
            tied = tied_runs(in_order, block)
            if tied[0].shape[0] + TIED_COST * int((tied[2][:, 2] - tied[2][:, 0]).sum()) <= n:
                runs = tied
    if runs is not None:
        return functools.partial(auc_run_bootstrap, in_order, runs=runs)

    def by_rows(n_resamples: int, rng) -> np.ndarray:
        y = pos.astype(np.int64)
        return bootstrap_ci(curves.roc_auc_score, y, s, n_resamples=n_resamples,
                            confidence=confidence, random_state=rng).distribution  # fmt: skip

    return by_rows


def _call(metric, arrays, w):
    value = metric(*arrays) if w is None else metric(*arrays, sample_weight=w)
    return float(value)


def _bootstrap(metric, arrays, w, opts, rng) -> np.ndarray:
    if w is not None:
        arrays = (*arrays, w)

        def fn(*a):
            return metric(*a[:-1], sample_weight=a[-1])

    else:
        fn = metric
    return bootstrap_ci(
        fn,
        *arrays,
        n_resamples=opts.n_resamples,
        confidence=opts.confidence,
        random_state=rng,
        checkpoint=opts.checkpoint,
    ).distribution


def _generic(metric, arrays, w, codes, n_groups, keep, opts, rngs) -> _Groups:
    overall = _call(metric, arrays, w)
    out = _Groups(*(np.full(n_groups, np.nan) for _ in range(2)), None, None, None, overall)
    out.dist = np.full((n_groups, opts.n_resamples if opts.intervals else 0), np.nan)
    sd = math.nan  # no resamples: no standard error, no test
    if opts.n_resamples:
        sd = float(_nanstd(_bootstrap(metric, arrays, w, opts, rngs[n_groups])))
    out.se, out.se_rest = _null_se(sd, codes, w, n_groups)
    for g in np.flatnonzero(keep):
        _step(opts)
        inside = codes == g
        w_in, w_out = (None, None) if w is None else (w[inside], w[~inside])
        part = tuple(a[inside] for a in arrays)
        try:
            out.value[g] = _call(metric, part, w_in)
            out.rest[g] = _call(metric, tuple(a[~inside] for a in arrays), w_out)
            if opts.intervals:
                out.dist[g] = _bootstrap(metric, part, w_in, opts, rngs[g])
        except MetricInputError as exc:
            out.notes[g] = f"the metric is undefined on this group or its rest: {exc}"
    return out


# ---------------------------------------------------------------------------
# the test and the public functions
# ---------------------------------------------------------------------------
_erfc = np.frompyfunc(math.erfc, 1, 1)  # one call per group: numpy has no erfc


def _test(res: _Groups) -> tuple[np.ndarray, np.ndarray]:
    """Wald ``z`` of ``value - rest`` and its two-sided normal p-value (NaN where undefined);
    the exact p-value instead where the path has one."""
    value, rest, se, se_rest = res.value, res.rest, res.se, res.se_rest
    diff = value - rest
    den = np.sqrt(se**2 + se_rest**2)
    with np.errstate(divide="ignore", invalid="ignore"):
        z = np.where(den > 0, diff / den, np.where(diff == 0, 0.0, np.sign(diff) * np.inf))
    p = _erfc(np.abs(z) / math.sqrt(2.0)).astype(np.float64) if res.p is None else res.p
    return z, p


def _corrected(p: np.ndarray, method: str) -> np.ndarray:
    """The corrected p-values over the finite ones (the tests made); NaN elsewhere."""
    out = np.full(p.shape, np.nan)
    ok = np.isfinite(p)
    if ok.any():
        out[ok] = multiple_test_correction(p[ok], method)
    return out


class _Options(NamedTuple):
    n_resamples: int
    confidence: float
    threshold: float | np.ndarray
    intervals: bool  # False: values and tests only (worst_slices)
    n_permutations: int = 0  # 0: no permutation test
    permutation_seed: int = 0  # the same shuffles for every grouping of one call
    cache: dict | None = None  # the shuffles, drawn once per call
    checkpoint: Callable[[], None] | None = None  # called between groups of work


def _step(opts: _Options) -> None:
    """Call the caller's checkpoint (where its work may be stopped), if it gave one."""
    if opts.checkpoint is not None:
        opts.checkpoint()


#: Groups resampled between two checkpoints (a few per pool thread: the threads stay busy).
GROUPS_PER_STEP = 8


def _in_steps(func, items, opts: _Options) -> list:
    """``map_blocks(func, items)`` with the checkpoint before each :data:`GROUPS_PER_STEP`
    items (each group has its own generator: the same numbers however they are cut)."""
    items = list(items)
    if opts.checkpoint is None:
        return map_blocks(func, items)
    out = []
    for start in range(0, len(items), GROUPS_PER_STEP):
        _step(opts)
        out += map_blocks(func, items[start : start + GROUPS_PER_STEP])
    return out


def _groups(metric, y_true, y_score, w, codes, n_groups, keep, opts, rng) -> _Groups:
    """The per-group values, bootstrap distributions and standard errors of one grouping."""
    # without intervals only the generic path draws: spawning costs about 40 us a child
    rngs = rng.spawn(2 * n_groups) if opts.intervals else None
    form = additive_form(metric, y_true, y_score, w, threshold=opts.threshold)
    if form is not None:
        return _additive(form, codes, w, n_groups, opts, rngs)
    auc = _auc_input(metric, y_true, y_score, w)
    if auc is not None:
        return _auc(*auc, codes, n_groups, keep, opts, rngs)
    arrays = (np.asarray(y_true), np.asarray(y_score))
    if arrays[1].shape[:1] != arrays[0].shape[:1]:
        raise MetricInputError(
            f"y_true has {arrays[0].shape[0]} rows but y_score has {arrays[1].shape[0]}."
        )
    try:
        rngs = rng.spawn(2 * n_groups) if rngs is None else rngs
        return _generic(metric, arrays, w, codes, n_groups, keep, opts, rngs)
    except TypeError as exc:
        raise MetricInputError(f"the metric cannot be called this way: {exc}") from None


def metric_frame(
    metric,
    y_true,
    y_score,
    groups,
    *,
    sample_weight=None,
    n_resamples=1000,
    confidence=0.95,
    threshold=0.5,
    n_permutations=999,
    random_state=None,
    checkpoint=None,
):
    """One metric on every group of the rows, with intervals, gaps and corrected tests.

    Parameters
    ----------
    metric : callable or str
        ``metric(y_true, y_score) -> float`` (``sample_weight=`` is passed
        when given), e.g. :func:`metrics.roc_auc_score`,
        :func:`metrics.mean_absolute_error` or
        ``functools.partial(metrics.ndcg_score, k=10)``; or the name of a rate
        at ``threshold``: ``"tpr"``, ``"fnr"``, ``"fpr"``, ``"tnr"``,
        ``"ppv"``, ``"npv"``, ``"accuracy"``, ``"selection_rate"`` (binary
        0/1 ``y_true``; ``y_score >= threshold`` predicts positive).
    y_true, y_score : array-like
        Rows are samples (queries, for ranking metrics); 1-D or 2-D, whatever
        ``metric`` takes.
    groups : array-like of shape (n_rows,)
        The group of every row (any sortable values; no missing value).
    sample_weight : array-like of shape (n_rows,) or None
    n_resamples : int, default 1000
        Bootstrap resamples per group (drawn within each group: stratified);
        0: no intervals (``low``/``high`` NaN) and nothing resampled, at about
        the cost of the values: the values, gaps and rests are those of any
        other ``n_resamples``, the tests those needing no resampling (a
        metric without a fast path gets none).
    confidence : float, default 0.95
        Of the percentile intervals.
    threshold : float or array-like of shape (n_rows,), default 0.5
        Of a rate given by name; one per row gives every group its own
        threshold (``np.asarray([t[g] for g in groups])``).
    n_permutations : int, default 999
        Shuffles of the group codes behind the permutation test of a metric of
        column sums that is not a 0/1 share (MAE, MSE, log loss, NDCG, R^2, a
        weighted rate...); above ``PERMUTATION_CELLS`` rows times permutations it
        runs on a subsample of the rows picked by group; 0 tests by the pooled
        Wald test instead (``test`` says which).
    random_state : int, numpy Generator or None
        Seed of the resamples and shuffles: the same seed gives the same numbers.
    checkpoint : callable or None
        Called in the caller's thread once the arguments are checked, before
        any work, and between groups of work (every :data:`GROUPS_PER_STEP`
        groups' resamples, each group of a metric without a fast path, before
        the shuffles); an exception it raises stops the computation. The
        numbers do not depend on it.

    Returns
    -------
    SliceFrame
        Per group: ``value``, ``count``, ``weight``, ``low``/``high``,
        ``rest``, ``z``, ``p_value``, ``p_holm``, ``p_bh``; ``overall``,
        ``diff_overall``, ``ratio_overall``, ``difference()``, ``ratio()``,
        ``pairwise_difference()``.

    Raises
    ------
    MetricInputError
        Bad options; ``groups`` of another length or with a missing value
        (naming the first row); arrays the metric refuses as a whole.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import metric_frame, roc_auc_score
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 600)
    >>> g = np.repeat(["a", "b", "c"], 200)
    >>> s = y + rng.normal(size=600) * np.repeat([0.5, 1.0, 1.0], 200)
    >>> f = metric_frame(roc_auc_score, y, s, g, n_resamples=200, random_state=0)
    >>> f.value.round(3).tolist(), round(f.overall, 3)
    ([0.932, 0.848, 0.81], 0.856)
    >>> bool(f.p_holm[0] < 0.05), bool(f.low[0] < f.value[0] < f.high[0])
    (True, True)
    >>> quick = metric_frame(roc_auc_score, y, s, g, n_resamples=0)  # the values alone
    >>> bool((quick.value == f.value).all()), bool(np.isnan(quick.low).all())
    (True, True)
    >>> f = metric_frame("tpr", y, s, g, threshold=0.5, n_resamples=200, random_state=0)
    >>> f.value.round(3).tolist()
    [0.874, 0.764, 0.693]
    """
    _check_options(metric, n_resamples, confidence, fewest=0)
    _check_permutations(n_permutations)
    n = _n_rows(y_true)
    threshold = _check_threshold(threshold, n)
    labels, codes = encode_groups(groups, "groups", n)
    w = check_sample_weight(sample_weight, n)
    n_groups = labels.shape[0]
    keep = np.ones(n_groups, dtype=bool)
    rng = np.random.default_rng(random_state)
    seed = _seed(rng)
    opts = _Options(n_resamples, float(confidence), threshold, n_resamples > 0, n_permutations,
                    seed, None, checkpoint)  # fmt: skip
    _step(opts)  # first: a caller shows what it has (the values) before the work starts
    res = _groups(metric, y_true, y_score, w, codes, n_groups, keep, opts, rng)
    z, p = _test(res)
    alpha = (1.0 - confidence) / 2.0
    low, high = _quantiles(res.dist, alpha)
    count = np.bincount(codes, minlength=n_groups)
    weight = count.astype(np.float64) if w is None else np.bincount(codes, w, n_groups)
    notes = {labels[g].item(): text for g, text in res.notes.items()}
    return SliceFrame(
        labels,
        count,
        weight,
        res.value,
        low,
        high,
        res.rest,
        z,
        p,
        _corrected(p, "holm"),
        _corrected(p, "bh"),
        res.overall,
        _higher_is_better(metric),
        float(confidence),
        n_resamples,
        res.dist,
        notes,
        res.test,
    )


def _quantiles(dist: np.ndarray, alpha: float) -> tuple[np.ndarray, np.ndarray]:
    """Per-row percentile interval of ``dist`` ignoring NaN (NaN for a row without values)."""
    ok = np.isfinite(dist).any(axis=1)
    low, high = np.full(dist.shape[0], np.nan), np.full(dist.shape[0], np.nan)
    if ok.any():
        low[ok], high[ok] = np.nanquantile(dist[ok], [alpha, 1.0 - alpha], axis=1)
    return low, high


@dataclass(frozen=True)
class WorstSlices:
    """Slices ranked worst first: the result of :func:`worst_slices`.

    Attributes
    ----------
    slices : list of tuple
        Each slice as ``((attribute, value), ...)``: one pair for a value of
        one attribute, two for a pair of values of two attributes.
    count : ndarray of int64
        Rows in each slice.
    value, rest : ndarray of float64
        The metric on the slice and on all rows outside it.
    effect : ndarray of float64
        How much worse the slice is than the rest, in the metric's units
        (``rest - value`` when higher is better, ``value - rest`` otherwise):
        the ranking key, largest first.
    p_value, p_corrected : ndarray of float64
        The test of "the slice differs from the rest" and its p-value
        corrected over every slice looked at (``correction``).
    overall : float
    correction : str
    tested : int
        Slices looked at (at least ``min_count`` rows inside and outside).
    test : str
        Which test gave ``p_value`` (as :attr:`SliceFrame.test`).

    Examples
    --------
    >>> from metrics import worst_slices, accuracy_score
    >>> w = worst_slices(accuracy_score, [1, 1, 0, 0, 1, 0], [1, 1, 0, 0, 0, 1],
    ...                  {"site": ["a", "a", "a", "a", "b", "b"]}, min_count=2,
    ...                  n_resamples=50, random_state=0)
    >>> w.slices[0], float(w.effect[0])
    ((('site', 'b'),), 1.0)
    """

    slices: list
    count: np.ndarray
    value: np.ndarray
    rest: np.ndarray
    effect: np.ndarray
    p_value: np.ndarray
    p_corrected: np.ndarray
    overall: float
    correction: str
    tested: int
    test: str = "wald"


def _partitions(columns: dict, max_attributes: int):
    """``(names, per-group value tuples, codes)`` of every attribute and pair of attributes."""
    names = list(columns)
    singles = [((a,), [(v,) for v in columns[a][0].tolist()], columns[a][1]) for a in names]
    if max_attributes < 2:
        return singles
    pairs = []
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            (la, ca), (lb, cb) = columns[a], columns[b]
            cells, codes = np.unique(ca * lb.shape[0] + cb, return_inverse=True)
            left, right = la[cells // lb.shape[0]].tolist(), lb[cells % lb.shape[0]].tolist()
            values = list(zip(left, right, strict=True))
            pairs.append(((a, b), values, codes.reshape(-1)))
    return singles + pairs


def worst_slices(
    metric,
    y_true,
    y_score,
    attributes,
    *,
    sample_weight=None,
    min_count=30,
    max_attributes=2,
    n_resamples=200,
    threshold=0.5,
    correction="bh",
    greater_is_better=None,
    n_permutations=999,
    random_state=None,
    checkpoint=None,
):
    """The slices where the metric is worst, over one and two attributes, with corrected tests.

    Every value of every attribute, and (``max_attributes=2``) every pair of
    values of two attributes, with at least ``min_count`` rows inside and
    outside, is a slice; each is compared to the rest of the rows as in
    :func:`metric_frame` (each attribute and each pair of attributes is one
    grouping, resampled within its groups), and the p-values are corrected
    over *all* slices looked at, so a finding survives the search.

    Parameters
    ----------
    metric, y_true, y_score, sample_weight, threshold, n_permutations, random_state, checkpoint
        As in :func:`metric_frame`; every grouping is shuffled by the same permutations,
        and the checkpoint is called before each grouping too.
    n_resamples : int, default 200
        Resamples of all rows for the test's standard error of a metric with
        neither an additive form nor DeLong's variance (average precision, a
        macro average, a callable of yours); the others need none: no
        interval is drawn here, only values and tests.
    attributes : dict of str to array-like of shape (n_rows,)
        The columns to slice by (binned beforehand if numeric).
    min_count : int, default 30
        The fewest rows a slice (and its rest) must hold to be looked at.
    max_attributes : {1, 2}, default 2
    correction : {"bh", "holm", "bonferroni"}, default "bh"
    greater_is_better : bool or None
        The metric's direction; None reads it from the metric (losses and
        ``"fpr"``/``"fnr"`` are lower-is-better, any unknown callable higher).

    Returns
    -------
    WorstSlices
        Sorted by ``effect``, worst first.

    Raises
    ------
    MetricInputError
        As :func:`metric_frame`, naming the attribute of a bad column.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import worst_slices
    >>> rng = np.random.default_rng(0)
    >>> n = 2000
    >>> site = rng.choice(["a", "b", "c"], n)
    >>> sex = rng.choice(["f", "m"], n)
    >>> y = rng.integers(0, 2, n)
    >>> flip = rng.random(n) < np.where((site == "c") & (sex == "m"), 0.4, 0.1)
    >>> s = np.where(flip, 1 - y, y).astype(float)
    >>> w = worst_slices("accuracy", y, s, {"site": site, "sex": sex}, random_state=0)
    >>> w.slices[0], bool(w.p_corrected[0] < 0.05), w.tested
    ((('site', 'c'), ('sex', 'm')), True, 11)
    """
    _check_options(metric, n_resamples, 0.95)
    _check_permutations(n_permutations)
    if max_attributes not in (1, 2):
        raise MetricInputError(f"max_attributes must be 1 or 2; got {max_attributes!r}.")
    if isinstance(min_count, bool) or not isinstance(min_count, int) or min_count < 1:
        raise MetricInputError(f"min_count must be an integer >= 1; got {min_count!r}.")
    if not isinstance(attributes, dict) or not attributes:
        raise MetricInputError("attributes must be a non-empty dict of name -> column.")
    if correction not in CORRECTIONS:
        raise MetricInputError(
            f"correction must be one of {', '.join(map(repr, CORRECTIONS))}; got {correction!r}."
        )
    n = _n_rows(y_true)
    threshold = _check_threshold(threshold, n)
    w = check_sample_weight(sample_weight, n)
    columns = {a: encode_groups(v, f"attributes[{a!r}]", n) for a, v in attributes.items()}
    higher = greater_is_better if greater_is_better is not None else _higher_is_better(metric)
    rng = np.random.default_rng(random_state)
    opts = _Options(n_resamples, 0.95, threshold, False, n_permutations, _seed(rng), {}, checkpoint)
    found, overall, test = [], math.nan, "wald"
    for names, values, codes in _partitions(columns, max_attributes):
        count = np.bincount(codes, minlength=len(values))
        keep = (count >= min_count) & (n - count >= min_count)
        if not keep.any():
            continue
        _step(opts)
        res = _groups(metric, y_true, y_score, w, codes, len(values), keep, opts, rng)
        _, p = _test(res)
        for g in np.flatnonzero(keep & np.isfinite(p)):
            sl = tuple(zip(names, values[g], strict=True))
            found.append((sl, count[g], res.value[g], res.rest[g], p[g]))
        overall, test = res.overall, res.test
    return _ranked(found, higher, correction, overall, test)


def _ranked(found, higher: bool, correction: str, overall: float, test: str) -> WorstSlices:
    """The slices found, sorted worst first, with their corrected p-values."""
    slices = [f[0] for f in found]
    count, value, rest, p = (np.array([f[i] for f in found], dtype=float) for i in range(1, 5))
    effect = rest - value if higher else value - rest
    corrected = multiple_test_correction(p, correction) if p.size else p
    order = np.argsort(-effect, kind="stable")
    return WorstSlices(
        [slices[i] for i in order.tolist()],
        count[order].astype(np.int64),
        value[order],
        rest[order],
        effect[order],
        p[order],
        corrected[order],
        overall,
        correction,
        len(found),
        test,
    )
