"""Comparing models: DeLong's test, bootstrap intervals, paired tests, McNemar.

Five public functions, all vectorized numpy, none of them importing scipy
(the p-values below are computed here, each checked against ``scipy.stats`` in
``tests/metrics/test_compare.py``):

* :func:`delong_test` - two correlated ROC AUCs on the same samples, the
  DeLong et al. (1988) variance by the O(n log n) placements of Sun & Xu
  (2014);
* :func:`bootstrap_ci` - a percentile or BCa bootstrap interval for any
  metric of ours (or any function of arrays), resamples drawn as index
  matrices in blocks; :func:`paired_bootstrap_diff` - the same for the
  difference of one metric between two models on the same resamples;
* :func:`paired_test` - a paired t, randomization (sign-flip) or Wilcoxon
  signed-rank test on per-query (per-sample) values, as ranx's ``compare``;
* :func:`mcnemar_test` - two classifiers' hard predictions on the same
  samples, exact binomial below 25 discordant pairs.

Distributions without scipy
---------------------------
* normal: ``Phi(x) = erfc(-x / sqrt 2) / 2`` (:func:`math.erfc`), so a
  two-sided p-value is ``erfc(|z| / sqrt 2)``; its inverse is Acklam's
  rational approximation polished by one Halley step (about 1e-15);
* Student t: the two-sided p-value ``I_x(df / 2, 1 / 2)`` with
  ``x = df / (df + t^2)``, the regularized incomplete beta function by its
  continued fraction (modified Lentz; Numerical Recipes, 3rd ed., 6.4);
* chi-square with one degree of freedom: ``P(X > c) = erfc(sqrt(c / 2))``;
* binomial and the Wilcoxon signed-rank null distribution: exact counts
  (integer arithmetic).

Speed of the bootstrap of ROC AUC
---------------------------------
For ``roc_auc_score`` (also ``auc_rank`` and ``auc_pairwise``) on binary
input, :func:`bootstrap_ci` sorts once and never again. The rows are laid out
by ascending score; a block of resamples is a matrix of draw counts ``c``
(how often each layout position is drawn, kept as uint8). Each model keeps,
from its one sort (:func:`metrics._counting.split_model`), its negatives'
positions and its positives' positions by ascending score, and for every
positive how many negatives score below it. Per resample: the negatives'
counts gathered in score order (``np.take``), their running sum ``N``, and
that sum read at the positives' places: ``2 U_r = sum_i c+_i (N_<i + N_<=i)``
(a tie between the classes counts 1/2) and ``AUC_r = U_r / (W+_r W-_r)``:
O(n) per resample, no sort, integer-exact until the one division. A resample
that drew a single class is drawn again. The blocks hold about
:data:`AUC_BLOCK_DRAWS` draws and are shared between threads; every model
reads the same counts (a paired difference).

Average precision (``average_precision_score``) runs on the same counts:
a running sum of the drawn positives in score order beside the negatives'
gives, at every positive, the drawn positives and negatives scoring at
least as high, and ``AP_r = sum_i c+_i TP_i / (TP_i + FP_i) / W+_r``.

The counts are drawn exactly (:mod:`metrics._resample`): from 4,096 rows
on, independent Poisson counts of rate slightly below 1 (a 16-bit table
lookup each), completed to ``n`` draws by a few thousand uniform draws, which
is exactly ``Multinomial(n; 1/n, ...)``; below, uniform uint32 indices and
``np.bincount``. The cost is about 3.3 ns of CPU per row and resample (about
2 ns the draw, 1.2 ns the running sums): 2,000 resamples of 10^6 rows take
about 6.5 s of CPU over the two threads, 3.6 s of wall time on a 2-core
machine at load average 2.4 (``bench/compare.py``; ``scipy.stats.bootstrap``
needs about 60 times more CPU). Before the Poisson draw (int64 indices and
``np.bincount``) they took about 16 s of CPU.

Reproducibility: each block of resamples has its own generator, spawned from
``random_state`` (``Generator.spawn``), and blocks are computed in any order on
any thread, so the distribution is the same, bit for bit, whatever the number
of threads (``METRICS_THREADS``). It does depend on the block size (resamples
per block = ``AUC_BLOCK_DRAWS // n``) and on the draw (Poisson from 4,096
rows on): other blocks give other resamples of the same law.

When the scores are heavily tied (at most ``n / (2 CELL_RATIO)``
distinct scores, so at most ``n / CELL_RATIO`` cells of equal score and
class), a resample is instead one multinomial draw over the cells
(``Generator.multinomial``), and the same running sums run over cells:
2,000 resamples of 10^6 rows rounded to 2 decimals take under half a
second of CPU.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable
from numbers import Integral, Real
from typing import NamedTuple

import numpy as np

from metrics import classification, curves, dcg, label_ranking, regression, retrieval
from metrics._counting import SplitModel, ap_from_counts, auc_u2, split_model
from metrics._ranks import WORKERS, map_blocks
from metrics._resample import draw_counts
from metrics._runs import run_start_mask, runs
from metrics._validation import (
    MetricInputError,
    as_1d,
    check_binary,
    check_same_shape,
    check_sample_weight,
)

__all__ = [
    "BootstrapResult",
    "DelongResult",
    "McNemarResult",
    "PairedTestResult",
    "bootstrap_ci",
    "delong_test",
    "mcnemar_test",
    "paired_bootstrap_diff",
    "paired_test",
]

#: Draws (rows x resamples) per block of the ROC AUC bootstrap.
AUC_BLOCK_DRAWS = 1 << 20
#: Entries of an index matrix per block of the generic bootstrap (32 MiB of int64).
INDEX_BLOCK_DRAWS = 1 << 22
#: Below this many discordant pairs :func:`mcnemar_test` is exact by default.
MCNEMAR_EXACT_BELOW = 25

_SQRT2 = math.sqrt(2.0)


# ---------------------------------------------------------------------------
# distributions
# ---------------------------------------------------------------------------
def _norm_cdf(x: float) -> float:
    """Standard normal CDF, ``erfc(-x / sqrt 2) / 2``."""
    return 0.5 * math.erfc(-x / _SQRT2)


def _two_sided_normal(z: float) -> float:
    """``P(|Z| >= |z|)`` for a standard normal ``Z``: ``erfc(|z| / sqrt 2)``."""
    return math.erfc(abs(z) / _SQRT2)


_A = (
    -3.969683028665376e01,
    2.209460984245205e02,
    -2.759285104469687e02,
    1.383577518672690e02,
    -3.066479806614716e01,
    2.506628277459239e00,
)
_B = (
    -5.447609879822406e01,
    1.615858368580409e02,
    -1.556989798598866e02,
    6.680131188771972e01,
    -1.328068155288572e01,
)
_C = (
    -7.784894002430293e-03,
    -3.223964580411365e-01,
    -2.400758277161838e00,
    -2.549732539343734e00,
    4.374664141464968e00,
    2.938163982698783e00,
)
_D = (7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e00, 3.754408661907416e00)


def _norm_ppf(p: float) -> float:
    """Inverse of the standard normal CDF: Acklam's approximation, one Halley step.

    Examples
    --------
    >>> round(_norm_ppf(0.975), 12)
    1.95996398454
    """
    if p <= 0.0:
        return -math.inf
    if p >= 1.0:
        return math.inf
    if p > 0.5:
        return -_norm_ppf(1.0 - p)
    if p < 0.02425:
        q = math.sqrt(-2.0 * math.log(p))
        x = (((((_C[0] * q + _C[1]) * q + _C[2]) * q + _C[3]) * q + _C[4]) * q + _C[5]) / (
            (((_D[0] * q + _D[1]) * q + _D[2]) * q + _D[3]) * q + 1.0
        )
    else:
        q = p - 0.5
        r = q * q
        x = (
            (((((_A[0] * r + _A[1]) * r + _A[2]) * r + _A[3]) * r + _A[4]) * r + _A[5])
            * q
            / (((((_B[0] * r + _B[1]) * r + _B[2]) * r + _B[3]) * r + _B[4]) * r + 1.0)
        )
    e = _norm_cdf(x) - p
    u = e * math.sqrt(2.0 * math.pi) * math.exp(x * x / 2.0)
    return x - u / (1.0 + x * u / 2.0)


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c = 1.0
    d = 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 100_000):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        delta = d * c
        h *= delta
        if abs(delta - 1.0) < 1e-16:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """Regularized incomplete beta function ``I_x(a, b)``.

    The continued fraction converges quickly for ``x < (a + 1) / (a + b + 2)``;
    above, ``I_x(a, b) = 1 - I_{1-x}(b, a)``.

    Examples
    --------
    >>> round(_betainc(2.0, 3.0, 0.4), 12)  # 1 - (0.6**4 + 4 * 0.4 * 0.6**3)
    0.5248
    """
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(
        math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x)
    )
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def _two_sided_t(t: float, df: float) -> float:
    """``P(|T| >= |t|)`` for Student's t with ``df`` degrees of freedom.

    Examples
    --------
    >>> round(_two_sided_t(2.0, 10.0), 12)
    0.073388034771
    """
    if math.isinf(t):
        return 0.0
    return _betainc(df / 2.0, 0.5, df / (df + t * t))


def _binom_cdf_half(k: int, n: int) -> float:
    """``P(X <= k)`` for ``X ~ Binomial(n, 1/2)``, exact integer counts."""
    return (
        math.fsum(math.comb(n, i) for i in range(k + 1)) / 2.0**n if n < 1000 else _binom_big(k, n)
    )


def _binom_big(k: int, n: int) -> float:
    """``P(X <= k)`` for ``X ~ Binomial(n, 1/2)`` in log space (large ``n``).

    ``log C(n, i)`` is the running sum of ``log((n - i + 1) / i)``.
    """
    i = np.arange(1, k + 1, dtype=np.float64)
    logs = np.concatenate(([0.0], np.cumsum(np.log((n - i + 1.0) / i)))) - n * math.log(2.0)
    top = float(logs.max())
    return float(min(1.0, math.exp(top) * np.exp(logs - top).sum()))


# ---------------------------------------------------------------------------
# validation helpers
# ---------------------------------------------------------------------------
def _labels(y_true, name: str = "y_true") -> np.ndarray:
    """1-D 0/1 labels as a boolean mask."""
    y = check_binary(as_1d(y_true, name), name)
    return y != 0


def _scores(x, name: str, n: int) -> np.ndarray:
    s = as_1d(x, name)
    if s.shape[0] != n:
        raise MetricInputError(f"{name} has {s.shape[0]} entries but y_true has {n}.")
    return s


def _check_confidence(confidence) -> float:
    if isinstance(confidence, bool) or not isinstance(confidence, Real):
        raise MetricInputError(f"confidence must be a number in (0, 1); got {confidence!r}.")
    confidence = float(confidence)
    if not 0.0 < confidence < 1.0:
        raise MetricInputError(f"confidence must lie strictly between 0 and 1; got {confidence!r}.")
    return confidence


def _check_count(value, name: str, minimum: int = 1) -> int:
    if isinstance(value, bool) or not isinstance(value, Integral) or value < minimum:
        raise MetricInputError(f"{name} must be an integer >= {minimum}; got {value!r}.")
    return int(value)


def _check_choice(value, name: str, choices: tuple[str, ...]) -> str:
    if not (isinstance(value, str) and value in choices):
        allowed = ", ".join(repr(c) for c in choices)
        raise MetricInputError(f"{name} must be one of {allowed}; got {value!r}.")
    return value


# ---------------------------------------------------------------------------
# DeLong
# ---------------------------------------------------------------------------
class DelongResult(NamedTuple):
    """The result of :func:`delong_test`.

    Attributes
    ----------
    auc_a, auc_b : float
        The two ROC AUCs (ties count 1/2), as :func:`metrics.roc_auc_score`.
    diff : float
        ``auc_a - auc_b``.
    se : float
        DeLong's standard error of ``diff``.
    z : float
        ``diff / se`` (0 when both are 0; +-inf when only ``se`` is).
    p_value : float
        Two-sided, ``P(|Z| >= |z|)`` under the standard normal.

    Examples
    --------
    >>> from metrics import delong_test
    >>> s = [0.1, 0.4, 0.8, 0.9, 0.3, 0.2]
    >>> r = delong_test([0, 0, 1, 1, 0, 1], s, s)  # the same model twice
    >>> r.diff, r.z, r.p_value
    (0.0, 0.0, 1.0)
    """

    auc_a: float
    auc_b: float
    diff: float
    se: float
    z: float
    p_value: float


def _both_sides(sorted_values: np.ndarray, queries: np.ndarray, cum=None) -> np.ndarray:
    """How many of ``sorted_values`` lie below each of ``queries``, counted twice with
    ties once (``left + right`` insertion points), or the running sums ``cum`` there."""
    left = np.searchsorted(sorted_values, queries, "left")
    right = np.searchsorted(sorted_values, queries, "right")
    if cum is None:
        return (left + right).astype(np.float64)
    return cum[left] + cum[right]


def _placements(pos: np.ndarray, s: np.ndarray, w: np.ndarray | None):
    """DeLong's placement values of one model: ``(v10, v01, auc)``.

    ``v10[i]`` (one per positive, in order) is the weighted share of the
    negatives scoring below positive ``i`` (ties 1/2), ``v01[j]`` (one per
    negative) the share of the positives scoring above negative ``j``. In
    Sun & Xu's midrank form, ``v10 = (T_Z - T_X) / n`` and
    ``v01 = 1 - (T_Z - T_Y) / m``; the differences of mid-ranks are exactly the
    counts below plus half the ties, which two value sorts and
    ``np.searchsorted`` give (with weights: running sums of the weights in
    score order, i.e. mid-ranks of the sample replicated ``w`` times).
    """
    ps, ns = s[pos], s[~pos]
    # sorted queries: np.searchsorted walks the sorted array once instead of jumping
    # about it (six times faster at 10^6 rows), then the counts go back in place
    on, op = np.argsort(ns), np.argsort(ps)  # ties need no order: both sides are counted
    ns_sorted, ps_sorted = ns[on], ps[op]
    if w is None:
        m, n = ps.shape[0], ns.shape[0]
        v10, v01 = np.empty(m), np.empty(n)
        v10[op] = _both_sides(ns_sorted, ps_sorted) / (2.0 * n)
        v01[on] = (2.0 * m - _both_sides(ps_sorted, ns_sorted)) / (2.0 * m)
        return v10, v01, float(v10.mean())
    wp, wn = w[pos], w[~pos]
    cn = np.concatenate(([0.0], np.cumsum(wn[on])))
    cp = np.concatenate(([0.0], np.cumsum(wp[op])))
    w_neg, w_pos = cn[-1], cp[-1]
    v10, v01 = np.empty(ps.shape[0]), np.empty(ns.shape[0])
    v10[op] = _both_sides(ns_sorted, ps_sorted, cn) / (2.0 * w_neg)
    v01[on] = (2.0 * w_pos - _both_sides(ps_sorted, ns_sorted, cp)) / (2.0 * w_pos)
    return v10, v01, float(np.dot(wp, v10) / w_pos)


def auc_placements(y_true, y_score, *, sample_weight=None) -> np.ndarray:
    """Each sample's DeLong placement value: the share of the other class it is ranked
    right against (ties count 1/2).

    A positive's value is the (weighted) share of negatives scoring below it, a
    negative's the share of positives scoring above it. ROC AUC is the (weighted)
    mean of the positives' values, and of the negatives'.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels, both present.
    y_score : array-like of shape (n_samples,)
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    ndarray of shape (n_samples,)

    Examples
    --------
    >>> from metrics import auc_placements
    >>> auc_placements([0, 1, 0, 1], [0.1, 0.8, 0.8, 0.3]).tolist()
    [1.0, 0.75, 0.25, 0.5]
    """
    pos = _labels(y_true)
    s = _scores(y_score, "y_score", pos.shape[0])
    w = None if sample_weight is None else _scores(sample_weight, "sample_weight", pos.shape[0])
    if pos.all() or not pos.any():
        raise MetricInputError("y_true holds a single class: placements need both classes.")
    v10, v01, _ = _placements(pos, s, w)
    out = np.empty(pos.shape[0])
    out[pos], out[~pos] = v10, v01
    return out


def _weighted_cov(v: np.ndarray, center: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """Covariance of the columns of ``v`` (frequency weights, divisor ``W - 1``)."""
    d = v - center
    if w is None:
        return d.T @ d / (v.shape[0] - 1.0)
    return (d * w[:, None]).T @ d / (w.sum() - 1.0)


def delong_test(y_true, score_a, score_b, *, sample_weight=None):
    """DeLong's test of two correlated ROC AUCs (Sun & Xu's fast algorithm).

    Two models score the same samples; the test asks whether their ROC AUCs
    differ. DeLong, DeLong & Clarke-Pearson (1988) estimate the covariance of
    the two AUCs from the *structural components* (placement values): for a
    positive ``i``, ``V10_i`` is the share of negatives it outscores (ties
    1/2), for a negative ``j``, ``V01_j`` the share of positives that outscore
    it; the AUC is the mean of either. With ``S10``, ``S01`` the 2 x 2
    sample covariances (divisor ``m - 1``, ``n - 1``) of those components over
    the ``m`` positives and ``n`` negatives::

        S = S10 / m + S01 / n
        se = sqrt(S_aa + S_bb - 2 S_ab),  z = (auc_a - auc_b) / se,
        p = P(|Z| >= |z|) = erfc(|z| / sqrt 2).

    Sun & Xu (2014) compute the components in O(n log n) from mid-ranks
    (``V10 = (T_Z - T_X) / n``), here from one value sort per class and model
    and ``np.searchsorted`` (the same numbers; see ``_placements``), instead
    of the O(m n) pair table. This is pROC's ``roc.test(method="delong")``
    (paired) and its ``var(roc)``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels; 1 is the positive class.
    score_a, score_b : array-like of shape (n_samples,)
        Finite scores of the two models (higher means more likely positive).
    sample_weight : array-like of shape (n_samples,), optional
        **Frequency weights**: a sample of weight ``w`` counts as ``w``
        copies of itself. Integer weights give exactly the test on the
        replicated data (mid-ranks of the replicated sample, covariance
        divisors ``W+ - 1`` and ``W- - 1``, the positives' and negatives'
        total weights); non-integer weights use the same formulas. The AUCs
        equal :func:`metrics.roc_auc_score` with the same weights. There is
        no standard DeLong for *probability* (survey) weights; these are not
        those. Zero-weight samples are left out.

    Returns
    -------
    DelongResult
        ``auc_a``, ``auc_b``, ``diff``, ``se``, ``z``, ``p_value``.

    Raises
    ------
    MetricInputError
        Bad labels, scores or weights; fewer than two positives or negatives
        (total weight at most 1), where the covariance is undefined.

    Examples
    --------
    >>> from metrics import delong_test
    >>> y = [0, 0, 0, 0, 1, 1, 1, 1]
    >>> a = [0.1, 0.3, 0.2, 0.6, 0.5, 0.7, 0.9, 0.8]
    >>> b = [0.2, 0.5, 0.1, 0.4, 0.3, 0.6, 0.7, 0.2]
    >>> r = delong_test(y, a, b)
    >>> round(r.auc_a, 4), round(r.auc_b, 4), round(r.se, 4), round(r.p_value, 4)
    (0.9375, 0.7188, 0.1822, 0.2299)
    """
    pos = _labels(y_true)
    n = pos.shape[0]
    sa = _scores(score_a, "score_a", n)
    sb = _scores(score_b, "score_b", n)
    w = check_sample_weight(sample_weight, n)
    if w is not None:
        keep = w != 0
        if not keep.all():
            pos, sa, sb, w = pos[keep], sa[keep], sb[keep], w[keep]
    w_pos = float(np.count_nonzero(pos) if w is None else w[pos].sum())
    w_neg = float(pos.shape[0] - np.count_nonzero(pos) if w is None else w[~pos].sum())
    if w_pos <= 1 or w_neg <= 1:
        which = "positives" if w_pos <= 1 else "negatives"
        raise MetricInputError(
            f"DeLong's test needs at least two positives and two negatives (a total weight "
            f"above 1 in each class) to estimate a covariance; y_true has {which} of total "
            f"weight {min(w_pos, w_neg):g}."
        )
    v10a, v01a, auc_a = _placements(pos, sa, w)
    v10b, v01b, auc_b = _placements(pos, sb, w)
    theta = np.array([auc_a, auc_b])
    wp = None if w is None else w[pos]
    wn = None if w is None else w[~pos]
    s10 = _weighted_cov(np.column_stack((v10a, v10b)), theta, wp)
    s01 = _weighted_cov(np.column_stack((v01a, v01b)), theta, wn)
    cov = s10 / w_pos + s01 / w_neg
    var = float(cov[0, 0] + cov[1, 1] - 2.0 * cov[0, 1])
    se = math.sqrt(max(var, 0.0))
    diff = auc_a - auc_b
    if se > 0:
        z = diff / se
    else:
        z = 0.0 if diff == 0 else math.copysign(math.inf, diff)
    return DelongResult(auc_a, auc_b, diff, se, z, _two_sided_normal(z))


# ---------------------------------------------------------------------------
# McNemar
# ---------------------------------------------------------------------------
class McNemarResult(NamedTuple):
    """The result of :func:`mcnemar_test`.

    Attributes
    ----------
    statistic : float
        Exact test: ``min(only_a, only_b)``; chi-square test:
        ``(|only_a - only_b| - 1)^2 / (only_a + only_b)`` (without the ``- 1``
        when ``correction=False``).
    p_value : float
        Two-sided.
    only_a : int
        Samples model a gets right and model b wrong.
    only_b : int
        Samples model b gets right and model a wrong.
    exact : bool
        Whether the exact binomial test was used.

    Examples
    --------
    >>> from metrics import mcnemar_test
    >>> mcnemar_test([1, 0, 1], [1, 0, 0], [1, 1, 1])
    McNemarResult(statistic=1.0, p_value=1.0, only_a=1, only_b=1, exact=True)
    """

    statistic: float
    p_value: float
    only_a: int
    only_b: int
    exact: bool


def mcnemar_test(y_true, y_pred_a, y_pred_b, *, exact=None, correction=True):
    """McNemar's test: do two classifiers err on the same samples equally often?

    Only the discordant samples matter: ``only_a`` (a right, b wrong) and
    ``only_b`` (b right, a wrong). Under the null hypothesis each discordant
    sample is equally likely to go either way, so ``only_a`` is
    Binomial(``only_a + only_b``, 1/2):

    * exact (by default when ``only_a + only_b < 25``): two-sided
      ``p = min(1, 2 P(X <= min(only_a, only_b)))``;
    * otherwise the chi-square statistic with one degree of freedom
      ``(|only_a - only_b| - 1)^2 / (only_a + only_b)`` (Edwards' continuity
      correction; ``correction=False`` drops the ``- 1``),
      ``p = erfc(sqrt(statistic / 2))``.

    These are statsmodels' ``mcnemar(table, exact=..., correction=...)``.
    With no discordant sample the two models cannot be told apart: statistic
    0, p-value 1. Apply the thresholds first (:func:`metrics.threshold_predictions`).

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        True labels (any numbers: binary or multiclass).
    y_pred_a, y_pred_b : array-like of shape (n_samples,)
        Each model's predicted labels; right means equal to ``y_true``.
    exact : bool or None, default None
        None: exact below :data:`MCNEMAR_EXACT_BELOW` (25) discordant pairs.
    correction : bool, default True
        Continuity correction of the chi-square statistic.

    Returns
    -------
    McNemarResult
        ``statistic``, ``p_value``, ``only_a``, ``only_b``, ``exact``.

    Examples
    --------
    >>> from metrics import mcnemar_test
    >>> y = [1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    >>> a = [1, 1, 1, 1, 1, 0, 0, 0, 0, 1]
    >>> b = [0, 0, 0, 1, 1, 0, 1, 0, 0, 1]
    >>> r = mcnemar_test(y, a, b)
    >>> r.only_a, r.only_b, r.exact, r.p_value
    (4, 0, True, 0.125)
    """
    yt = as_1d(y_true, "y_true")
    ya = as_1d(y_pred_a, "y_pred_a")
    yb = as_1d(y_pred_b, "y_pred_b")
    check_same_shape(yt, ya, "y_true", "y_pred_a")
    check_same_shape(yt, yb, "y_true", "y_pred_b")
    if not (exact is None or isinstance(exact, bool)):
        raise MetricInputError(f"exact must be True, False or None; got {exact!r}.")
    if not isinstance(correction, bool):
        raise MetricInputError(f"correction must be True or False; got {correction!r}.")
    right_a = ya == yt
    right_b = yb == yt
    only_a = int(np.count_nonzero(right_a & ~right_b))
    only_b = int(np.count_nonzero(right_b & ~right_a))
    n = only_a + only_b
    use_exact = n < MCNEMAR_EXACT_BELOW if exact is None else exact
    if n == 0:
        return McNemarResult(0.0, 1.0, only_a, only_b, use_exact)
    if use_exact:
        k = min(only_a, only_b)
        return McNemarResult(float(k), min(1.0, 2.0 * _binom_cdf_half(k, n)), only_a, only_b, True)
    gap = abs(only_a - only_b) - (1.0 if correction else 0.0)
    stat = max(gap, 0.0) ** 2 / n
    return McNemarResult(stat, math.erfc(math.sqrt(stat / 2.0)), only_a, only_b, False)


# ---------------------------------------------------------------------------
# paired tests on per-sample values
# ---------------------------------------------------------------------------
class PairedTestResult(NamedTuple):
    """The result of :func:`paired_test`.

    Attributes
    ----------
    statistic : float
        ``"t"``: Student's t; ``"randomization"``: the mean difference;
        ``"wilcoxon"``: ``min(R+, R-)``, the smaller signed-rank sum (as
        ``scipy.stats.wilcoxon``).
    p_value : float
        Two-sided.
    mean_diff : float
        ``mean(per_sample_a - per_sample_b)``.
    n : int
        Number of pairs.
    method : str

    Examples
    --------
    >>> from metrics import paired_test
    >>> r = paired_test([0.5, 0.7, 0.9], [0.4, 0.7, 0.6], method="wilcoxon")
    >>> r.statistic, r.p_value, r.n
    (0.0, 0.5, 3)
    """

    statistic: float
    p_value: float
    mean_diff: float
    n: int
    method: str


_PAIRED_METHODS = ("t", "randomization", "wilcoxon")


def _midranks(x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Mid-ranks (1-based) of ``x`` and the sizes of its tie groups."""
    order = np.argsort(x, kind="stable")
    xs = x[order]
    start, size = runs(xs)
    mid = start + (size + 1) / 2.0
    ranks = np.empty(x.shape[0])
    ranks[order] = np.repeat(mid, size)
    return ranks, size


def _signed_rank_null(n: int) -> np.ndarray:
    """Counts of each signed-rank sum 0..n(n+1)/2 over the 2**n sign patterns.

    The generating function ``prod_k (1 + x^k)``, one shift-and-add per rank
    (a loop over ``n <= 50`` ranks, not over samples); int64 is exact.
    """
    counts = np.zeros(n * (n + 1) // 2 + 1, dtype=np.int64)
    counts[0] = 1
    for k in range(1, n + 1):
        counts[k:] = counts[k:] + counts[:-k]
    return counts


def _wilcoxon(d: np.ndarray) -> tuple[float, float]:
    """``scipy.stats.wilcoxon(d)`` with its defaults: (min(R+, R-), two-sided p).

    Zeros are dropped (``zero_method="wilcox"``), ties get mid-ranks. As
    scipy's ``method="auto"``: the exact null distribution without ties or
    zeros up to 50 pairs; with ties or zeros up to 13 pairs, every one of
    the ``2**n`` sign patterns (an exact permutation test); otherwise the
    normal approximation with the tie correction and no continuity
    correction.
    """
    n_all = d.shape[0]
    nonzero = d != 0
    dn = d[nonzero]
    count = dn.shape[0]
    if count == 0:
        raise MetricInputError(
            "the Wilcoxon signed-rank test is undefined: every difference per_sample_a - "
            "per_sample_b is 0."
        )
    ranks, sizes = _midranks(np.abs(dn))
    r_plus = float(ranks[dn > 0].sum())
    r_minus = float(ranks[dn < 0].sum())
    statistic = min(r_plus, r_minus)
    has_ties = bool((sizes > 1).any())
    zeros = count < n_all
    if not (has_ties or zeros) and n_all <= 50:
        null = _signed_rank_null(count)
        total = float(null.sum())
        k = int(round(r_plus))
        cdf = null[: k + 1].sum() / total
        sf = null[k:].sum() / total
        return statistic, float(min(1.0, 2.0 * min(cdf, sf)))
    if n_all <= 13:
        # every sign pattern of the non-zero differences (zeros stay zero)
        patterns = (np.arange(2**count)[:, None] >> np.arange(count)) & 1
        null = patterns @ ranks
        gamma = abs(100 * np.finfo(np.float64).eps * r_plus)
        less = np.count_nonzero(null <= r_plus + gamma) / null.shape[0]
        greater = np.count_nonzero(null >= r_plus - gamma) / null.shape[0]
        return statistic, float(min(1.0, 2.0 * min(less, greater)))
    mean = count * (count + 1.0) / 4.0
    var = count * (count + 1.0) * (2.0 * count + 1.0)
    var = (var - float(np.sum(sizes**3.0 - sizes)) / 2.0) / 24.0
    z = (r_plus - mean) / math.sqrt(var)
    return statistic, _two_sided_normal(z)


def paired_test(
    per_sample_a,
    per_sample_b,
    *,
    method="t",
    n_resamples=10_000,
    random_state=None,
):
    """Paired significance test on per-query values of two systems (ranx's ``compare``).

    ``per_sample_a[i]`` and ``per_sample_b[i]`` are the same query (sample)
    scored under two systems, e.g. :func:`metrics.ndcg_per_sample` of two
    rankers; the test asks whether their mean difference is zero.

    * ``"t"``: the paired Student's t test, ``t = mean(d) / (sd(d) / sqrt n)``
      with ``n - 1`` degrees of freedom (``scipy.stats.ttest_rel``); the
      p-value from the regularized incomplete beta function (continued
      fraction), no scipy.
    * ``"randomization"``: Fisher's randomization test, as ranx's ``fisher``:
      each query's two values swap with probability 1/2 (the sign of ``d_i``
      flips); ``p = (1 + #{|mean(d*)| >= |mean(d)|}) / (1 + n_resamples)``
      over ``n_resamples`` sign patterns drawn as a matrix in blocks (so p is
      never 0, Phipson & Smyth 2010). Seeded by ``random_state``.
    * ``"wilcoxon"``: the Wilcoxon signed-rank test with
      ``scipy.stats.wilcoxon``'s defaults (zeros dropped, exact null
      distribution up to 50 pairs without ties, exact enumeration of the sign
      patterns up to 13 pairs with ties or zeros, otherwise the normal
      approximation with the tie correction).

    Parameters
    ----------
    per_sample_a, per_sample_b : array-like of shape (n_samples,)
        Finite per-query values, same length (at least 2).
    method : {"t", "randomization", "wilcoxon"}, default "t"
    n_resamples : int, default 10000
        Sign patterns of the randomization test.
    random_state : int, numpy Generator or None
        Seed of the randomization test.

    Returns
    -------
    PairedTestResult
        ``statistic``, ``p_value``, ``mean_diff``, ``n``, ``method``.

    Raises
    ------
    MetricInputError
        Bad arrays or options; for ``"t"`` differences that are all equal
        (no variance: t undefined), for ``"wilcoxon"`` differences that are
        all 0.

    Examples
    --------
    >>> from metrics import paired_test
    >>> a = [0.61, 0.72, 0.55, 0.80, 0.47, 0.66, 0.70, 0.59]
    >>> b = [0.58, 0.65, 0.57, 0.71, 0.40, 0.60, 0.69, 0.50]
    >>> r = paired_test(a, b)
    >>> round(r.statistic, 4), round(r.p_value, 4)
    (3.5675, 0.0091)
    >>> paired_test(a, b, method="wilcoxon").p_value
    0.0234375
    >>> round(paired_test(a, b, method="randomization", random_state=0).p_value, 2)
    0.02
    """
    a = as_1d(per_sample_a, "per_sample_a")
    b = as_1d(per_sample_b, "per_sample_b")
    check_same_shape(a, b, "per_sample_a", "per_sample_b")
    method = _check_choice(method, "method", _PAIRED_METHODS)
    n = a.shape[0]
    if n < 2:
        raise MetricInputError(f"a paired test needs at least 2 pairs; got {n}.")
    d = a - b
    mean_diff = float(d.mean())
    if method == "t":
        sd = float(d.std(ddof=1))
        if sd == 0:
            raise MetricInputError(
                "the paired t test is undefined: every difference per_sample_a - per_sample_b "
                f"equals {mean_diff!r} (no variance)."
            )
        t = mean_diff / (sd / math.sqrt(n))
        return PairedTestResult(t, _two_sided_t(t, n - 1.0), mean_diff, n, method)
    if method == "wilcoxon":
        stat, p = _wilcoxon(d)
        return PairedTestResult(stat, p, mean_diff, n, method)
    n_resamples = _check_count(n_resamples, "n_resamples")
    rng = np.random.default_rng(random_state)
    observed = abs(mean_diff)
    gamma = 100 * np.finfo(np.float64).eps * observed
    per = max(1, INDEX_BLOCK_DRAWS // n)
    hits = 0
    for start in range(0, n_resamples, per):
        rows = min(per, n_resamples - start)
        signs = rng.integers(0, 2, size=(rows, n), dtype=np.int8)
        # sum_i (+-1) d_i = 2 * sum_{sign=1} d_i - sum_i d_i
        means = (2.0 * (signs @ d) - d.sum()) / n
        hits += int(np.count_nonzero(np.abs(means) >= observed - gamma))
    return PairedTestResult(mean_diff, (hits + 1.0) / (n_resamples + 1.0), mean_diff, n, method)


# ---------------------------------------------------------------------------
# bootstrap
# ---------------------------------------------------------------------------
class BootstrapResult(NamedTuple):
    """The result of :func:`bootstrap_ci` and :func:`paired_bootstrap_diff`.

    Attributes
    ----------
    estimate : float
        The metric on the data as given (for a difference: a minus b).
    low, high : float
        The interval's ends.
    standard_error : float
        Standard deviation of the bootstrap distribution (``ddof=1``).
    confidence : float
    method : str
        ``"percentile"`` or ``"bca"``.
    n_resamples : int
    distribution : ndarray of shape (n_resamples,)
        The metric on every resample.

    Examples
    --------
    >>> from metrics import bootstrap_ci, accuracy_score
    >>> r = bootstrap_ci(accuracy_score, [1, 0, 1, 1], [1, 0, 0, 1], n_resamples=100)
    >>> r.estimate, r.distribution.shape
    (0.75, (100,))
    """

    estimate: float
    low: float
    high: float
    standard_error: float
    confidence: float
    method: str
    n_resamples: int
    distribution: np.ndarray


_BOOTSTRAP_METHODS = ("percentile", "bca")
_AUC_METRICS = (curves.roc_auc_score, curves.auc_rank, curves.auc_pairwise)


def _rng(random_state) -> np.random.Generator:
    try:
        return np.random.default_rng(random_state)
    except (TypeError, ValueError) as exc:
        raise MetricInputError(
            f"random_state must be None, an integer or a numpy Generator; got {random_state!r} "
            f"({exc})."
        ) from None


def _as_float(value, what: str) -> float:
    arr = np.asarray(value)
    if arr.ndim != 0 or arr.dtype.kind not in "fiub":
        raise MetricInputError(
            f"{what} must return one number; got {type(value).__name__} of shape "
            f"{getattr(arr, 'shape', '?')}."
        )
    return float(arr)


def _per_sample_1d(kind: str):
    """Per-sample terms of the 1-D regression and accuracy metrics (their mean is the score)."""

    def terms(y_true, y_pred):
        yt = as_1d(y_true, "y_true")
        yp = as_1d(y_pred, "y_pred")
        if kind == "abs":
            return np.abs(yp - yt)
        if kind == "sq":
            return (yt - yp) ** 2
        if kind == "ape":
            return np.abs(yp - yt) / np.maximum(np.abs(yt), regression.MAPE_EPSILON)
        return (yt == yp).astype(np.float64)

    return terms


class _MeanMetric(NamedTuple):
    """A metric that is ``transform(mean of per-sample values)``."""

    per_sample: Callable
    transform: Callable | None = None
    options: bool = True  # keyword options are passed on to ``per_sample``


def _mean_metrics() -> dict:
    """The metrics :func:`bootstrap_ci` resamples through their per-sample values."""
    abs_, sq, ape, eq = (_per_sample_1d(k) for k in ("abs", "sq", "ape", "eq"))
    return {
        regression.mean_absolute_error: _MeanMetric(abs_, options=False),
        regression.mean_squared_error: _MeanMetric(sq, options=False),
        regression.root_mean_squared_error: _MeanMetric(sq, np.sqrt, options=False),
        regression.mean_absolute_percentage_error: _MeanMetric(ape, options=False),
        # 1-D labels only; normalize=False (a count) is an option, so not here
        classification.accuracy_score: _MeanMetric(eq, options=False),
        dcg.dcg_score: _MeanMetric(dcg.dcg_per_sample),
        dcg.ndcg_score: _MeanMetric(dcg.ndcg_per_sample),
        label_ranking.coverage_error: _MeanMetric(label_ranking.coverage_per_sample),
        label_ranking.label_ranking_average_precision_score: _MeanMetric(
            label_ranking.lrap_per_sample
        ),
        label_ranking.label_ranking_loss: _MeanMetric(label_ranking.ranking_loss_per_sample),
        retrieval.precision_at_k: _MeanMetric(retrieval.precision_at_k_per_sample),
        retrieval.recall_at_k: _MeanMetric(retrieval.recall_at_k_per_sample),
        retrieval.hit_rate_at_k: _MeanMetric(retrieval.hit_rate_at_k_per_sample),
        retrieval.mean_average_precision_at_k: _MeanMetric(retrieval.average_precision_at_k),
        retrieval.mean_reciprocal_rank: _MeanMetric(retrieval.reciprocal_rank),
    }


def _unwrap(metric) -> tuple[Callable, dict]:
    """``(function, keyword arguments)`` of a metric or of a ``functools.partial`` of one."""
    if isinstance(metric, functools.partial) and not metric.args:
        return metric.func, dict(metric.keywords)
    return metric, {}


def _mean_path(metric, arrays: tuple) -> tuple[np.ndarray, Callable | None] | None:
    """Per-sample values and transform when ``metric`` is a mean of per-sample values.

    None (the generic path) for any other callable, for options the table
    does not take (``sample_weight`` among them), 2-D input to a 1-D metric,
    or input the per-sample form refuses (the generic path then calls the
    metric itself).
    """
    func, kwargs = _unwrap(metric)
    if len(arrays) != 2 or "sample_weight" in kwargs:
        return None
    try:
        entry = _mean_metrics().get(func)
    except TypeError:  # an unhashable callable
        return None
    if entry is None or (not entry.options and (kwargs or arrays[0].ndim != 1)):
        return None
    try:
        values = np.asarray(entry.per_sample(*arrays, **kwargs), dtype=np.float64)
    except (MetricInputError, TypeError):
        return None
    if values.shape != (arrays[0].shape[0],):
        return None
    return values, entry.transform


def _finish(transform, means: np.ndarray) -> np.ndarray:
    return means if transform is None else transform(means)


def _index_blocks(rng: np.random.Generator, n_resamples: int, n: int, checkpoint=None):
    """Blocks of the index matrix: ``(first resample, int64 array (rows, n))``;
    ``checkpoint`` is called before each block is drawn."""
    per = max(1, INDEX_BLOCK_DRAWS // n)
    for start in range(0, n_resamples, per):
        _check(checkpoint)
        yield start, rng.integers(0, n, size=(min(per, n_resamples - start), n))


def resample_rows(n, *, n_resamples=2000, random_state=None, checkpoint=None):
    """The rows that :func:`bootstrap_ci` draws for each resample, block by block.

    The same draws as ``bootstrap_ci(metric, ..., random_state=random_state)`` on
    ``n`` rows for a metric of its general path (one call per resample) and for a
    mean of per-sample values: resample ``start + r`` computes the metric on rows
    ``rows[r]``. For a caller that computes many resamples at once (a whole block of
    one metric, vectorized) and still wants ``bootstrap_ci``'s numbers.

    Parameters
    ----------
    n : int
        The number of rows (each resample draws ``n`` of them with replacement).
    n_resamples, random_state, checkpoint
        As in :func:`bootstrap_ci` (``checkpoint`` is called before each block).

    Returns
    -------
    iterator of (int, ndarray of shape (rows, n))
        The first resample of each block and its rows' indices (int64), at most
        2^22 indices a block (the arguments are checked before it is returned).

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0.5, 1.0, 2.0, 4.0])
    >>> means = np.concatenate([x[rows].mean(axis=1) for _, rows in
    ...                         resample_rows(4, n_resamples=50, random_state=1)])
    >>> r = bootstrap_ci(np.mean, x, n_resamples=50, random_state=1)
    >>> bool(np.array_equal(means, r.distribution))
    True
    """
    n = _check_count(n, "n")
    n_resamples = _check_count(n_resamples, "n_resamples", 2)
    return _index_blocks(_rng(random_state), n_resamples, n, checkpoint)


def _auc_layout(pos: np.ndarray, scores: list[np.ndarray]):
    """The draw layout (rows by ascending first score) and one split model per model
    (:func:`metrics._counting.split_model`, positions in that layout).

    Returns ``(rows, models)``: ``rows[t]`` is the original row drawn at
    layout position ``t``.
    """
    rows = np.argsort(scores[0], kind="stable")
    laid = pos[rows]
    return rows, [split_model(laid, s[rows]) for s in scores]


def _draw_counts(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """How often each of ``n`` layout positions is drawn, for ``rows`` resamples.

    :func:`metrics._resample.draw_counts`: exact multinomial counts (uint8), from
    uniform indices and ``np.bincount`` below ``POISSON_MIN_ROWS`` rows, from Poisson
    counts completed to ``n`` draws above.
    """
    return draw_counts(rng, rows, n)


def _auc_from_counts(counts: np.ndarray, model: SplitModel, w_pos=None) -> np.ndarray:
    """ROC AUC of every resample: ``U / (W+ W-)`` (``w_pos`` as
    :func:`metrics._counting.auc_u2`)."""
    u2, w_pos, w_neg = auc_u2(counts, model, w_pos)
    return u2 / (2.0 * w_pos * w_neg)


def _auc_cells(pos: np.ndarray, s: np.ndarray):
    """Cells of equal (score, class), by ascending score: their sizes and a split model.

    Drawing ``n`` rows with replacement is drawing how many land in each
    cell, a multinomial over the cells with probabilities ``size / n``; the
    AUC only depends on those counts. Within a tie block of scores the
    negative cell comes first; a cell's score is its tie block's number.
    """
    order = np.argsort(s, kind="stable")
    ss = s[order]
    first, size = runs(ss)
    n_pos = np.add.reduceat(pos[order].astype(np.int64), first)
    sizes = np.column_stack((size - n_pos, n_pos)).ravel()
    is_pos = np.tile(np.array([False, True]), first.shape[0])
    block = np.repeat(np.arange(first.shape[0]), 2)
    keep = sizes > 0
    return sizes[keep], split_model(is_pos[keep], block[keep])


def _distinct_count(s: np.ndarray) -> int:
    """Number of distinct values (one value sort)."""
    return int(np.count_nonzero(run_start_mask(np.sort(s))))


def _auc_block(rng: np.random.Generator, rows: int, models: list[SplitModel], draw):
    """ROC AUCs of ``rows`` resamples for every model, and their counts.

    ``draw(rng, k)`` gives the counts of ``k`` resamples in the layout of
    ``models[0]``. A resample that drew a single class has no AUC: it is
    drawn again (the bootstrap conditioned on both classes being present;
    with more than a few dozen samples of each class this never happens).
    """
    counts = draw(rng, rows)
    u2, w_pos, w_neg = auc_u2(counts, models[0])
    bad = np.flatnonzero((w_pos == 0) | (w_neg == 0))
    while bad.shape[0]:
        again = draw(rng, bad.shape[0])
        if again.dtype != counts.dtype:
            counts, again = counts.astype(np.int64), again.astype(np.int64)
        counts[bad] = again
        sub = auc_u2(again, models[0])
        u2[bad], w_pos[bad], w_neg[bad] = sub
        bad = bad[(sub[1] == 0) | (sub[2] == 0)]
    aucs = [u2 / (2.0 * w_pos * w_neg)]
    aucs += [_auc_from_counts(counts, model, w_pos) for model in models[1:]]
    return aucs, counts


#: The multinomial over cells of equal (score, class) replaces ``n`` draws per
#: resample when there are at most ``n / (2 CELL_RATIO)`` distinct scores (heavily tied).
CELL_RATIO = 8


def _auc_bootstrap(
    pos, scores, n_resamples: int, rng: np.random.Generator, kind: str = "auc", checkpoint=None
) -> list[np.ndarray]:
    """Bootstrap distributions of ROC AUC (``kind="auc"``) or average precision
    (``kind="ap"``) of each score vector, all on the same resamples.

    ``checkpoint`` is called in the caller's thread before each group of blocks (two
    per thread, at least three: :func:`map_blocks` shares three or more among its
    threads): the blocks keep their own generators, so the groups give the same numbers
    as one pass."""
    n = pos.shape[0]
    sizes = None
    if len(scores) == 1 and 2 * _distinct_count(scores[0]) * CELL_RATIO <= n:
        sizes, cell_model = _auc_cells(pos, scores[0])
    if sizes is not None:
        models, width = [cell_model], sizes.shape[0]
        p = sizes / n

        def draw(g, k):
            return g.multinomial(n, p, size=k)

    else:
        _, models = _auc_layout(pos, scores)
        width = n

        def draw(g, k):
            return _draw_counts(g, k, n)

    per = max(1, AUC_BLOCK_DRAWS // width)
    starts = list(range(0, n_resamples, per))
    children = rng.spawn(len(starts))
    out = [np.empty(n_resamples) for _ in scores]

    def block(k: int) -> None:
        start = starts[k]
        rows = min(per, n_resamples - start)
        if kind == "auc":
            aucs, _ = _auc_block(children[k], rows, models, draw)
        else:  # average precision is defined on every resample (0 without a positive)
            counts = draw(children[k], rows)
            aucs = [ap_from_counts(counts, model) for model in models]
        for dist, auc_values in zip(out, aucs, strict=True):
            dist[start : start + rows] = auc_values

    group = max(3, 2 * WORKERS)
    for first in range(0, len(starts), group):
        _check(checkpoint)
        map_blocks(block, range(first, min(first + group, len(starts))))
    return out


def _check(checkpoint) -> None:
    """Call ``checkpoint`` (between blocks of resamples), if given."""
    if checkpoint is not None:
        checkpoint()


def _auc_jackknife(pos: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Leave-one-out ROC AUCs (row order), from DeLong's placements in O(n log n)."""
    v10, v01, auc = _placements(pos, s, None)
    m, n = v10.shape[0], v01.shape[0]
    if m < 2 or n < 2:
        raise MetricInputError(
            "method='bca' needs at least two positives and two negatives (the jackknife leaves "
            "one out); use method='percentile'."
        )
    u = auc * m * n
    out = np.empty(pos.shape[0])
    out[pos] = (u - n * v10) / ((m - 1.0) * n)
    out[~pos] = (u - m * v01) / (m * (n - 1.0))
    return out


def _interval(estimate, dist, jack, confidence, method):
    """The percentile or BCa ends from the bootstrap and jackknife distributions."""
    alpha = (1.0 - confidence) / 2.0
    if method == "percentile":
        lo_q, hi_q = alpha, 1.0 - alpha
    else:
        share = (np.count_nonzero(dist < estimate) + np.count_nonzero(dist <= estimate)) / (
            2.0 * dist.shape[0]
        )
        z0 = _norm_ppf(share)
        if math.isinf(z0):
            raise MetricInputError(
                "method='bca' is undefined here: every resample's value lies on one side of the "
                "estimate (bias correction infinite); use method='percentile'."
            )
        a_hat = _acceleration(jack)
        z = _norm_ppf(alpha)
        lo_q = _norm_cdf(z0 + (z0 + z) / (1.0 - a_hat * (z0 + z)))
        hi_q = _norm_cdf(z0 + (z0 - z) / (1.0 - a_hat * (z0 - z)))
    low, high = np.quantile(dist, [lo_q, hi_q])
    return float(low), float(high)


def _acceleration(jack: list[np.ndarray]) -> float:
    """BCa's acceleration from jackknife values (one array per resampled sample), as scipy."""
    nums = dens = 0.0
    for values in jack:
        n = float(values.shape[0])
        u = (n - 1.0) * (values.mean() - values)
        nums += float(np.sum(u**3)) / n**3
        dens += float(np.sum(u**2)) / n**2
    if dens == 0:
        return 0.0  # a constant jackknife: no skewness to correct
    return nums / (6.0 * dens**1.5)


def _loop_jackknife(fn, arrays, paired: bool) -> list[np.ndarray]:
    """Leave-one-out values by calling ``fn`` n times (one Python call per left-out row)."""
    if paired:
        n = arrays[0].shape[0]
        keep = np.ones(n, dtype=bool)
        out = np.empty(n)
        for i in range(n):
            keep[i] = False
            out[i] = _as_float(fn(*[a[keep] for a in arrays]), "metric")
            keep[i] = True
        return [out]
    res = []
    for j, a in enumerate(arrays):
        n = a.shape[0]
        keep = np.ones(n, dtype=bool)
        out = np.empty(n)
        for i in range(n):
            keep[i] = False
            args = list(arrays)
            args[j] = a[keep]
            out[i] = _as_float(fn(*args), "metric")
            keep[i] = True
        res.append(out)
    return res


def _check_arrays(arrays, paired: bool) -> tuple[np.ndarray, ...]:
    if not arrays:
        raise MetricInputError("bootstrap_ci needs at least one array to resample.")
    out = []
    for j, a in enumerate(arrays):
        arr = np.asarray(a)
        if arr.ndim == 0 or arr.shape[0] == 0:
            raise MetricInputError(
                f"arrays[{j}] must have at least one row to resample; got shape {arr.shape}."
            )
        out.append(arr)
    if paired:
        n = out[0].shape[0]
        for j, arr in enumerate(out[1:], start=1):
            if arr.shape[0] != n:
                raise MetricInputError(
                    f"paired resampling draws the same rows from every array: arrays[{j}] has "
                    f"{arr.shape[0]} rows but arrays[0] has {n}."
                )
    return tuple(out)


def _check_bootstrap_options(metric, n_resamples, confidence, method):
    if not callable(metric):
        raise MetricInputError(f"metric must be callable; got {metric!r}.")
    n_resamples = _check_count(n_resamples, "n_resamples", 2)
    confidence = _check_confidence(confidence)
    method = _check_choice(method, "method", _BOOTSTRAP_METHODS)
    return n_resamples, confidence, method


def _counting_input(metric, arrays) -> tuple[str, np.ndarray, np.ndarray] | None:
    """``(kind, positives, scores)`` when the counting path computes ``metric``.

    ``"auc"`` for :data:`_AUC_METRICS`, ``"ap"`` for
    ``average_precision_score``, both without options on 1-D binary input.
    """
    func, kwargs = _unwrap(metric)
    if kwargs or len(arrays) != 2 or arrays[0].ndim != 1 or arrays[1].ndim != 1:
        return None
    if func in _AUC_METRICS:
        kind = "auc"
    elif func is curves.average_precision_score:
        kind = "ap"
    else:
        return None
    return kind, _labels(arrays[0]), as_1d(arrays[1], "y_score")


def bootstrap_ci(
    metric,
    *arrays,
    n_resamples=2000,
    confidence=0.95,
    method="percentile",
    paired=True,
    random_state=None,
    checkpoint=None,
):
    """Bootstrap confidence interval of any metric (vectorized for the row-wise ones).

    Each resample draws ``n`` rows with replacement from the ``n`` rows of
    the data (with ``paired=True`` the same rows of every array: the
    ``(y_true, y_score)`` pairs stay together) and computes ``metric`` on
    them; the interval is read off the ``n_resamples`` values:

    * ``"percentile"``: their ``(1 - confidence) / 2`` and
      ``(1 + confidence) / 2`` quantiles (``np.quantile``, linear);
    * ``"bca"``: bias-corrected and accelerated (Efron & Tibshirani 1993,
      14.3), as ``scipy.stats.bootstrap``: ``z0`` from the share of resamples
      below the estimate, the acceleration from jackknife (leave-one-out)
      values.

    How the resamples are computed:

    * ``roc_auc_score`` / ``auc_rank`` / ``auc_pairwise`` and
      ``average_precision_score`` (without options) on binary input: one
      sort in all, then each block of resamples is a matrix of draw counts
      and the AUCs (APs) come from running sums (module docstring): no sort
      per resample. For ROC AUC, resamples that drew a single class are
      drawn again and the jackknife comes from DeLong's placements; AP is
      defined on every resample (0 without a positive) and its jackknife
      for ``"bca"`` calls the metric once per left-out row. The counts are
      exact multinomial draws (:mod:`metrics._resample`); about 3.3 ns of CPU
      per row and resample (10^6 rows x 2,000 resamples: about 6.5 s of CPU
      over two threads); heavily tied scores draw over cells of equal (score,
      class) instead, far faster (module docstring, ``bench/compare.py``).
    * metrics that are a mean of per-sample values (MAE, MSE, RMSE, MAPE,
      accuracy, DCG, NDCG, LRAP, coverage, ranking loss, P@K, R@K, hit rate,
      MAP@K, MRR; also as a ``functools.partial`` with keyword options): the
      per-sample values are computed once and each resample is a row of
      ``values[index_matrix]``, averaged (the same numbers as the metric on
      the resampled rows); the jackknife is the closed form
      ``(sum - v_i) / (n - 1)``.
    * any other callable: one call per resample on the index-gathered rows
      (a Python loop over resamples, documented as the slow path), and for
      ``"bca"`` one call per left-out row.

    The index matrices are drawn in blocks of about
    :data:`INDEX_BLOCK_DRAWS` entries; the same ``random_state`` gives the
    same resamples on the mean and the generic paths. The ROC AUC path draws
    its own counts (independent child generators per block, so the result
    does not depend on the thread count, but does on the block size
    :data:`AUC_BLOCK_DRAWS`); it follows the same distribution but not the
    same resamples as the generic path.

    Parameters
    ----------
    metric : callable
        ``metric(*arrays) -> float``, e.g. :func:`metrics.roc_auc_score` or
        ``functools.partial(metrics.ndcg_score, k=10)``.
    *arrays : array-like
        Rows are the resampled units (samples, queries).
    n_resamples : int, default 2000
    confidence : float, default 0.95
    method : {"percentile", "bca"}, default "percentile"
    paired : bool, default True
        False resamples every array independently (arrays may then have
        different lengths; the generic path).
    random_state : int, numpy Generator or None
        Seed of the resamples.
    checkpoint : callable or None
        Called with no argument before each block of resamples, in the caller's
        thread: it may raise to stop the bootstrap (an app whose visitor moved on),
        and then nothing is returned. The numbers do not depend on it.

    Returns
    -------
    BootstrapResult
        ``estimate``, ``low``, ``high``, ``standard_error``, ``confidence``,
        ``method``, ``n_resamples``, ``distribution``.

    Raises
    ------
    MetricInputError
        Bad options or arrays (rows that differ with ``paired=True``), a
        metric that refuses the data or a resample, or that does not return
        one number; ``"bca"`` where it is undefined.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import bootstrap_ci, roc_auc_score, mean_absolute_error
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 500)
    >>> s = y + rng.normal(size=500)
    >>> r = bootstrap_ci(roc_auc_score, y, s, random_state=1)
    >>> round(r.estimate, 3), round(r.low, 2), round(r.high, 2)
    (0.727, 0.68, 0.77)
    >>> r = bootstrap_ci(mean_absolute_error, y, s, method="bca", random_state=1)
    >>> round(r.estimate, 3), round(r.low, 2), round(r.high, 2)
    (0.787, 0.74, 0.84)
    """
    n_resamples, confidence, method = _check_bootstrap_options(
        metric, n_resamples, confidence, method
    )
    if not isinstance(paired, bool):
        raise MetricInputError(f"paired must be True or False; got {paired!r}.")
    arrays = _check_arrays(arrays, paired)
    rng = _rng(random_state)
    estimate = _as_float(metric(*arrays), "metric")
    jack = None
    counting = _counting_input(metric, arrays) if paired else None
    mean_input = _mean_path(metric, arrays) if paired and counting is None else None
    if counting is not None:
        kind, pos, s = counting
        (dist,) = _auc_bootstrap(pos, [s], n_resamples, rng, kind, checkpoint)
        if method == "bca":
            if kind == "auc":
                jack = [_auc_jackknife(pos, s)]
            else:
                jack = _loop_jackknife(metric, arrays, True)
    elif mean_input is not None:
        values, transform = mean_input
        dist = np.empty(n_resamples)
        for start, idx in _index_blocks(rng, n_resamples, values.shape[0], checkpoint):
            dist[start : start + idx.shape[0]] = _finish(transform, values[idx].mean(axis=1))
        if method == "bca":
            n = values.shape[0]
            if n < 2:
                raise MetricInputError("method='bca' needs at least two rows (the jackknife).")
            jack = [_finish(transform, (values.sum() - values) / (n - 1.0))]
    else:
        dist = _generic_bootstrap(metric, arrays, n_resamples, rng, paired, checkpoint)
        if method == "bca":
            jack = _loop_jackknife(metric, arrays, paired)
    return _result(estimate, dist, jack, confidence, method, n_resamples)


def _result(estimate, dist, jack, confidence, method, n_resamples) -> BootstrapResult:
    bad = ~np.isfinite(dist)
    if bad.any():
        r = int(np.argmax(bad))
        raise MetricInputError(
            f"the metric returned {float(dist[r])!r} on bootstrap resample {r}; an interval "
            "needs a finite value on every resample."
        )
    low, high = _interval(estimate, dist, jack, confidence, method)
    return BootstrapResult(
        estimate, low, high, float(dist.std(ddof=1)), confidence, method, n_resamples, dist
    )


def _generic_bootstrap(fn, arrays, n_resamples, rng, paired, checkpoint=None) -> np.ndarray:
    """One call of ``fn`` per resample on the index-gathered rows (the slow, general path)."""
    dist = np.empty(n_resamples)
    if paired:
        for start, idx in _index_blocks(rng, n_resamples, arrays[0].shape[0], checkpoint):
            for r in range(idx.shape[0]):
                rows = idx[r]
                dist[start + r] = _on_resample(fn, [a[rows] for a in arrays], start + r)
        return dist
    gens = rng.spawn(len(arrays))
    blocks = [
        _index_blocks(g, n_resamples, a.shape[0], checkpoint if j == 0 else None)
        for j, (g, a) in enumerate(zip(gens, arrays, strict=True))
    ]
    for parts in zip(*blocks, strict=True):
        start = parts[0][0]
        for r in range(parts[0][1].shape[0]):
            args = [a[p[1][r]] for a, p in zip(arrays, parts, strict=True)]
            dist[start + r] = _on_resample(fn, args, start + r)
    return dist


def _on_resample(fn, args, r: int) -> float:
    """``fn(*args)`` as a float; a refusal names the resample."""
    try:
        return _as_float(fn(*args), "metric")
    except MetricInputError as exc:
        raise MetricInputError(
            f"the metric refused bootstrap resample {r} (rows drawn with replacement): {exc}"
        ) from exc


def paired_bootstrap_diff(
    metric,
    y_true,
    score_a,
    score_b,
    *,
    n_resamples=2000,
    confidence=0.95,
    method="percentile",
    random_state=None,
    checkpoint=None,
):
    """Bootstrap interval of ``metric(y_true, score_a) - metric(y_true, score_b)``.

    Both models are scored on the *same* resamples of the rows (paired), so
    the interval reflects the correlation between them; an interval that
    excludes 0 says the difference is unlikely to be resampling noise. The
    paths are those of :func:`bootstrap_ci` (ROC AUC: one count matrix per
    block shared by both models, each with its own score order; per-sample
    means: one gather of each model's values; otherwise two calls per
    resample).

    Parameters
    ----------
    metric : callable
        ``metric(y_true, score) -> float``.
    y_true : array-like
    score_a, score_b : array-like
        The two models' scores (or predictions), rows aligned with ``y_true``.
    n_resamples, confidence, method, random_state, checkpoint
        As in :func:`bootstrap_ci`.

    Returns
    -------
    BootstrapResult
        Of the difference a - b.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import paired_bootstrap_diff, roc_auc_score
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 400)
    >>> a = y + rng.normal(size=400)
    >>> b = y + rng.normal(scale=2.0, size=400)
    >>> r = paired_bootstrap_diff(roc_auc_score, y, a, b, random_state=0)
    >>> round(r.estimate, 3), r.low > 0
    (0.19, True)
    """
    n_resamples, confidence, method = _check_bootstrap_options(
        metric, n_resamples, confidence, method
    )
    arrays = _check_arrays((y_true, score_a, score_b), True)
    y, a, b = arrays
    rng = _rng(random_state)
    estimate = _as_float(metric(y, a), "metric") - _as_float(metric(y, b), "metric")
    jack = None
    count_a = _counting_input(metric, (y, a))
    count_b = _counting_input(metric, (y, b))
    mean_a = _mean_path(metric, (y, a)) if count_a is None else None
    mean_b = _mean_path(metric, (y, b)) if count_a is None else None
    if count_a is not None and count_b is not None:
        kind, pos, sa = count_a
        sb = count_b[2]
        da, db = _auc_bootstrap(pos, [sa, sb], n_resamples, rng, kind, checkpoint)
        dist = da - db
        if method == "bca" and kind == "auc":
            jack = [_auc_jackknife(pos, sa) - _auc_jackknife(pos, sb)]
        elif method == "bca":
            jack = _loop_jackknife(lambda yy, xa, xb: metric(yy, xa) - metric(yy, xb), arrays, True)
    elif mean_a is not None and mean_b is not None:
        (va, ta), (vb, tb) = mean_a, mean_b
        dist = np.empty(n_resamples)
        for start, idx in _index_blocks(rng, n_resamples, va.shape[0], checkpoint):
            stop = start + idx.shape[0]
            dist[start:stop] = _finish(ta, va[idx].mean(axis=1)) - _finish(tb, vb[idx].mean(axis=1))
        if method == "bca":
            n = va.shape[0]
            if n < 2:
                raise MetricInputError("method='bca' needs at least two rows (the jackknife).")
            jack = [
                _finish(ta, (va.sum() - va) / (n - 1.0)) - _finish(tb, (vb.sum() - vb) / (n - 1.0))
            ]
    else:

        def diff(yy, sa_, sb_):
            return _as_float(metric(yy, sa_), "metric") - _as_float(metric(yy, sb_), "metric")

        dist = _generic_bootstrap(diff, arrays, n_resamples, rng, True, checkpoint)
        if method == "bca":
            jack = _loop_jackknife(diff, arrays, True)
    return _result(estimate, dist, jack, confidence, method, n_resamples)


# ---------------------------------------------------------------------------
# several models on the same resamples (the engine of metrics.leaderboard)
# ---------------------------------------------------------------------------
def per_sample_values(metric, y_true, y_score) -> np.ndarray:
    """The per-sample (per-query) values whose mean is ``metric``, or the values a paired
    test compares.

    For the metrics :func:`bootstrap_ci` resamples through their per-sample values
    (MAE, MSE, RMSE, MAPE, accuracy, DCG, NDCG, LRAP, coverage, ranking loss, P@K,
    R@K, hit rate, MAP@K, MRR, also as a ``functools.partial`` with keyword
    options). RMSE gives the squared errors (the metric is the square root of their
    mean).

    Parameters
    ----------
    metric : callable
    y_true, y_score : array-like
        Rows are samples (queries).

    Returns
    -------
    ndarray of shape (n_samples,)

    Raises
    ------
    MetricInputError
        A metric that is not a mean of per-sample values, or input it refuses.

    Examples
    --------
    >>> from metrics import mean_absolute_error
    >>> per_sample_values(mean_absolute_error, [1.0, 2.0, 3.0], [1.5, 2.0, 1.0]).tolist()
    [0.5, 0.0, 2.0]
    """
    arrays = _check_arrays((y_true, y_score), True)
    found = _mean_path(metric, arrays)
    if found is None:
        metric(*arrays)  # input the metric itself refuses raises its own message
        raise MetricInputError(
            f"{getattr(metric, '__name__', metric)!s} is not a mean of per-sample values "
            "(with these options and input): a paired test per sample needs one."
        )
    return found[0]


def bootstrap_distributions(
    metric, y_true, scores, *, n_resamples=2000, paired=True, random_state=None, checkpoint=None
) -> list[np.ndarray]:
    """Bootstrap distributions of one metric for several models, on the same resamples.

    With ``paired=True`` one draw of the rows serves every model: the counting path
    of ROC AUC and average precision sorts the rows once by the first model's scores
    and permutes the shared draw counts into each model's order; the per-sample
    mean path gathers each model's values with one shared index matrix; any other
    metric is called once per model and resample. Model ``k``'s distribution is
    then the one :func:`paired_bootstrap_diff` resamples for it beside model 0
    with the same ``random_state`` (its difference ``dist[0] - dist[k]`` bit for bit),
    and on the mean path beside any model. ``paired=False`` resamples each model
    on its own (``random_state`` spawns one generator per model, each giving
    :func:`bootstrap_ci`'s distribution).

    Parameters
    ----------
    metric : callable
        ``metric(y_true, score) -> float``.
    y_true : array-like
    scores : sequence of array-like
        One score array per model, rows aligned with ``y_true``.
    n_resamples, random_state, checkpoint
        As in :func:`bootstrap_ci`.
    paired : bool, default True

    Returns
    -------
    list of ndarray of shape (n_resamples,)
        One per model, in order.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import roc_auc_score
    >>> rng = np.random.default_rng(0)
    >>> y = rng.integers(0, 2, 300)
    >>> a, b = y + rng.normal(size=300), y + rng.normal(scale=2.0, size=300)
    >>> da, db = bootstrap_distributions(roc_auc_score, y, [a, b], random_state=0)
    >>> d = paired_bootstrap_diff(roc_auc_score, y, a, b, random_state=0).distribution
    >>> bool(np.array_equal(da - db, d))
    True
    """
    if not callable(metric):
        raise MetricInputError(f"metric must be callable; got {metric!r}.")
    n_resamples = _check_count(n_resamples, "n_resamples", 2)
    if not isinstance(paired, bool):
        raise MetricInputError(f"paired must be True or False; got {paired!r}.")
    if len(scores) == 0:
        raise MetricInputError("scores must hold at least one model's scores.")
    rng = _rng(random_state)
    if not paired:
        return [
            bootstrap_distributions(
                metric, y_true, [s], n_resamples=n_resamples, random_state=g, checkpoint=checkpoint
            )[0]
            for s, g in zip(scores, rng.spawn(len(scores)), strict=True)
        ]
    arrays = _check_arrays((y_true, *scores), True)
    y, models = arrays[0], arrays[1:]
    counting = [_counting_input(metric, (y, s)) for s in models]
    if all(c is not None for c in counting):
        kind, pos, _ = counting[0]
        return _auc_bootstrap(pos, [c[2] for c in counting], n_resamples, rng, kind, checkpoint)
    means = [_mean_path(metric, (y, s)) for s in models]
    dists = np.empty((len(models), n_resamples))
    for start, idx in _index_blocks(rng, n_resamples, y.shape[0], checkpoint):
        stop = start + idx.shape[0]
        if all(m is not None for m in means):
            for k, (values, transform) in enumerate(means):
                dists[k, start:stop] = _finish(transform, values[idx].mean(axis=1))
            continue
        for r in range(idx.shape[0]):  # the generic path: one call per model and resample
            rows = idx[r]
            for k, s in enumerate(models):
                dists[k, start + r] = _on_resample(metric, [y[rows], s[rows]], start + r)
    return list(dists)
