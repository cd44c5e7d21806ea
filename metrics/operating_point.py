"""The operating point: the threshold maximizing one rate subject to another, and its uncertainty.

The candidates are ``+inf`` (nothing predicted positive) and every distinct
score (positive where ``score >= threshold``), read from the one table of
counts at or above each score that :func:`metrics.roc_curve` uses; every
objective and constraint is a vectorized formula over that table, so the
optimum is exact (the tests compare it with a brute force over every
threshold). Among equally good candidates the highest threshold wins.

Once chosen, the threshold is held fixed and the rows are resampled
(nonparametric bootstrap): the achieved rates get equal-tailed percentile
intervals, and the constraint is checked in every resample, since a
threshold that meets ``precision >= 0.9`` on this sample may meet it in only
part of the resamples. The intervals hold the threshold fixed: chosen on the
same rows, it flatters them a little (in the tests' simulation, 95% intervals
at n = 400 cover the population rates 94% of the time at a threshold fixed in
advance, 87-92% at the Youden threshold chosen on the sample).

At a fixed threshold every rate depends on the four cells of the confusion
matrix only, so without weights the resampled cells are drawn from their
multinomial distribution directly (:mod:`metrics._cell_bootstrap`): the
bootstrap costs nothing per row.
"""

from __future__ import annotations

import operator
from dataclasses import dataclass, field
from numbers import Real

import numpy as np

from metrics._binary_input import binary_input
from metrics._block_chunks import block_chunks, read_chunks
from metrics._cell_bootstrap import resampled_cell_weights
from metrics._thresholds import threshold_blocks
from metrics._validation import MetricInputError
from metrics.calibration import check_bootstrap, percentile_band
from metrics.threshold import refuse_one_class, scalar_or_array

__all__ = ["CONSTRAINT_RATES", "OBJECTIVES", "OperatingPoint", "operating_point", "rates"]

#: Rates a constraint can bound (and that are reported with intervals).
CONSTRAINT_RATES = (
    "recall",
    "tpr",
    "precision",
    "fpr",
    "specificity",
    "tnr",
    "fnr",
    "accuracy",
    "predicted_positive",
)
#: What can be optimized: a rate (maximized; ``fpr`` and ``fnr`` minimized) or a criterion.
OBJECTIVES = CONSTRAINT_RATES + ("fbeta", "youden", "net_benefit", "cost")
_MINIMIZED = ("fpr", "fnr", "cost")
_OPS = {">=": operator.ge, "<=": operator.le}


def rate(name: str, tp, fp, fn, tn):
    """One rate of :data:`CONSTRAINT_RATES` from confusion counts (float64 arrays broadcast).

    Precision is 0 where nothing is predicted positive (scikit-learn's
    ``zero_division=0``); a rate whose class is absent is NaN.

    Examples
    --------
    >>> import numpy as np
    >>> rate("precision", np.array([3.0, 0.0]), np.array([1.0, 0.0]), 1.0, 5.0).tolist()
    [0.75, 0.0]
    """
    with np.errstate(invalid="ignore", divide="ignore"):
        if name in ("recall", "tpr"):
            return tp / (tp + fn)
        if name == "fnr":
            return fn / (tp + fn)
        if name == "fpr":
            return fp / (fp + tn)
        if name in ("specificity", "tnr"):
            return tn / (fp + tn)
        if name == "precision":  # two arrays of the candidates' length, not six
            predicted = np.asarray(tp + fp, dtype=np.float64)
            out = np.zeros_like(predicted)
            return np.divide(tp, predicted, out=out, where=predicted > 0)
        if name == "accuracy":
            return (tp + tn) / (tp + fp + fn + tn)
        return (tp + fp) / (tp + fp + fn + tn)  # predicted_positive


def rates(tp, fp, fn, tn) -> dict:
    """Every rate of :data:`CONSTRAINT_RATES` (see :func:`rate`); floats for scalar counts.

    Examples
    --------
    >>> r = rates(3.0, 1.0, 1.0, 5.0)
    >>> r["precision"], r["recall"], r["fpr"], r["accuracy"]
    (0.75, 0.75, 0.16666666666666666, 0.8)
    """
    tp, fp, fn, tn = (np.asarray(a, dtype=np.float64) for a in (tp, fp, fn, tn))
    return {n: scalar_or_array(np.asarray(rate(n, tp, fp, fn, tn))) for n in CONSTRAINT_RATES}


@dataclass(frozen=True)
class OperatingPoint:
    """The chosen threshold, what it achieves and how stable that is.

    Attributes
    ----------
    threshold : float
        Predict positive where ``score >= threshold`` (``inf``: none); NaN
        when no candidate meets the constraint.
    feasible : bool
        Whether some candidate meets the constraint.
    objective : str
    value : float
        The objective at the threshold (the expected cost for ``"cost"``).
    counts : dict
        ``tp, fp, fn, tn`` (weights with ``sample_weight``).
    rates : dict
        Every rate of :data:`CONSTRAINT_RATES` and the objective.
    intervals : dict
        ``name -> (low, high)``: bootstrap percentile interval of each rate
        at the fixed threshold.
    constraint_holds : float
        Share of the resamples in which the constraint holds at the
        threshold (NaN without a constraint).
    n_resamples : int

    Examples
    --------
    >>> op = operating_point([0, 1, 0, 1], [0.2, 0.9, 0.4, 0.6], "youden", n_resamples=100)
    >>> op.threshold, op.value, op.counts["tp"], sorted(op.intervals)[:2]
    (0.6, 1.0, 2.0, ['accuracy', 'fnr'])
    """

    threshold: float
    feasible: bool
    objective: str
    value: float
    counts: dict = field(default_factory=dict)
    rates: dict = field(default_factory=dict)
    intervals: dict = field(default_factory=dict)
    constraint_holds: float = float("nan")
    n_resamples: int = 0


def _check_constraint(constraint):
    if constraint is None:
        return None
    if not (isinstance(constraint, tuple | list) and len(constraint) == 3):
        raise MetricInputError(
            "constraint must be (rate, '>=' or '<=', value), e.g. ('precision', '>=', 0.9); "
            f"got {constraint!r}."
        )
    rate, op, value = constraint
    if rate not in CONSTRAINT_RATES:
        raise MetricInputError(f"constraint rate must be one of {CONSTRAINT_RATES}; got {rate!r}.")
    if op not in _OPS:
        raise MetricInputError(f"constraint operator must be '>=' or '<='; got {op!r}.")
    if isinstance(value, bool) or not isinstance(value, Real) or not 0 <= value <= 1:
        raise MetricInputError(f"constraint value must lie in [0, 1]; got {value!r}.")
    return rate, op, float(value)


def _check_options(objective, *, beta, cost_fp, cost_fn, prevalence, pt):
    if objective not in OBJECTIVES:
        raise MetricInputError(f"objective must be one of {OBJECTIVES}; got {objective!r}.")
    for name, v in (("beta", beta), ("cost_fp", cost_fp), ("cost_fn", cost_fn)):
        if isinstance(v, bool) or not isinstance(v, Real) or not (np.isfinite(v) and v >= 0):
            raise MetricInputError(f"{name} must be a finite number >= 0; got {v!r}.")
    if prevalence is not None and (
        isinstance(prevalence, bool) or not isinstance(prevalence, Real) or not 0 < prevalence < 1
    ):
        raise MetricInputError(f"prevalence must lie in (0, 1); got {prevalence!r}.")
    if isinstance(pt, bool) or not isinstance(pt, Real) or not 0 <= pt < 1:
        raise MetricInputError(f"threshold_probability must lie in [0, 1); got {pt!r}.")


def objective_values(objective, tp, fp, fn, tn, *, beta, cost_fp, cost_fn, prevalence, pt):
    """The objective (as reported) for confusion counts (arrays broadcast)."""
    if objective in CONSTRAINT_RATES:
        return rate(objective, tp, fp, fn, tn)
    with np.errstate(invalid="ignore", divide="ignore"):
        if objective == "youden":
            return rate("tpr", tp, fp, fn, tn) - rate("fpr", tp, fp, fn, tn)
        if objective == "fbeta":
            b2 = float(beta) ** 2
            den = (1 + b2) * tp + b2 * fn + fp
            return np.where(den > 0, (1 + b2) * tp / np.where(den > 0, den, 1.0), 0.0)
        n = tp + fp + fn + tn
        if objective == "net_benefit":
            return (tp - fp * (pt / (1.0 - pt))) / n
        pi = (tp + fn) / n if prevalence is None else prevalence
        fnr, fpr = rate("fnr", tp, fp, fn, tn), rate("fpr", tp, fp, fn, tn)
        return pi * cost_fn * fnr + (1.0 - pi) * cost_fp * fpr


def _bootstrap(rows, threshold, counts, n_resamples, rng):
    """``(tp, fp, fn, tn)`` per resample at the fixed threshold.

    Without weights (``rows`` None, or rows ``(pos, s, w)`` with ``w`` None)
    the integer counts alone give the resampled cells: one multinomial draw
    each, no pass over the rows. With weights the rows are resampled.
    """
    if rows is None or rows[2] is None:
        tp, fp, fn, tn = counts
        cells = np.array([tn, fn, fp, tp], dtype=np.float64)
        n = int(round(cells.sum()))
        drawn = rng.multinomial(n, cells / n, size=n_resamples).astype(np.float64)
    else:
        pos, s, w = rows
        cells = 2 * (s >= threshold).astype(np.intp) + pos  # 0 tn, 1 fn, 2 fp, 3 tp
        drawn = resampled_cell_weights(cells, 4, w, n_resamples, rng)
    return drawn[:, 3], drawn[:, 2], drawn[:, 1], drawn[:, 0]


def choose_from_blocks(fps, tps, thr, objective, bound, opts):
    """``(threshold, (tp, fp, fn, tn))`` of the best feasible candidate, or None."""
    chunks = block_chunks(fps, tps, thr)
    return choose_from_chunks(chunks, fps[-1], tps[-1], objective, bound, opts)


def choose_from_chunks(chunks, fps_last, tps_last, objective, bound, opts):
    """:func:`choose_from_blocks` over the blocks given as consecutive chunks
    (:mod:`metrics._block_chunks`): the candidates are scored a chunk at a time."""
    return read_chunks(chunks, choice_reader(fps_last, tps_last, objective, bound, opts))[0]


def choice_reader(fps_last, tps_last, objective, bound, opts):
    """Reads the chosen candidate of :func:`choose_from_chunks` (a reader of
    :func:`metrics._block_chunks.read_chunks`).

    Only the objective and the constrained rate are computed over the
    candidates (each a few array operations); the rest at the chosen one.
    The best is kept as ``np.argmax`` over every candidate would keep it:
    the first maximum, a NaN first of all.
    """
    refuse_one_class(float(tps_last), float(fps_last), "The operating point")
    p_all, n_all = np.float64(tps_last), np.float64(fps_last)
    chunk = (np.zeros(1), np.zeros(1), np.array([np.inf]))  # +inf: nothing predicted positive
    best, found = None, False
    while chunk is not None:
        fps, tps, thr = chunk
        tp, fp = tps.astype(np.float64), fps.astype(np.float64)
        fn, tn = p_all - tp, n_all - fp
        values = objective_values(objective, tp, fp, fn, tn, **opts)
        if bound is None:
            feasible = np.ones(tp.shape[0], dtype=bool)
        else:
            feasible = _OPS[bound[1]](rate(bound[0], tp, fp, fn, tn), bound[2])
        found = found or bool(feasible.any())
        score = np.where(feasible, -values if objective in _MINIMIZED else values, -np.inf)
        i = int(np.argmax(score))
        if best is None or (not np.isnan(best[0]) and (np.isnan(score[i]) or score[i] > best[0])):
            best = (score[i], float(thr[i]), (tp[i], fp[i], fn[i], tn[i]))
        chunk = yield
    if not found:
        return None
    return best[1], best[2]


def check_operating_options(objective, constraint, n_resamples, confidence, **criteria):
    """Validate every option of :func:`operating_point`: the parsed constraint and the
    criteria's parameters (``beta, cost_fp, cost_fn, prevalence, threshold_probability``)
    as :func:`objective_values` takes them."""
    pt = criteria.pop("threshold_probability")
    _check_options(objective, pt=pt, **criteria)
    bound = _check_constraint(constraint)
    check_bootstrap(n_resamples, confidence)
    return bound, dict(criteria, pt=pt)


def solve(chunks, objective, bound, opts, n_resamples, confidence, random_state, rows=None):
    """The :class:`OperatingPoint` of the blocks ``(chunks, fps[-1], tps[-1])``
    (:mod:`metrics._block_chunks`): the best candidate, then the bootstrap at it (``rows``
    ``(pos, s, w)`` when weighted)."""
    chosen = choose_from_chunks(*chunks, objective, bound, opts)
    return settle(chosen, objective, bound, opts, n_resamples, confidence, random_state, rows)


def settle(chosen, objective, bound, opts, n_resamples, confidence, random_state, rows=None):
    """The :class:`OperatingPoint` of a chosen candidate (:func:`choice_reader`'s, None
    when none is feasible): the bootstrap at it, then its intervals."""
    if chosen is None:
        return infeasible(objective, n_resamples)
    rng = np.random.default_rng(random_state)
    drawn = _bootstrap(rows, chosen[0], chosen[1], n_resamples, rng)
    return summarize(chosen, drawn, objective, bound, opts, confidence, n_resamples)


def summarize(chosen, drawn, objective, bound, opts, confidence, n_resamples) -> OperatingPoint:
    """The :class:`OperatingPoint` of a chosen threshold and its resampled counts."""
    threshold, counts = chosen
    achieved = rates(*counts)
    achieved[objective] = float(objective_values(objective, *counts, **opts))
    resampled = rates(*drawn)
    resampled[objective] = objective_values(objective, *drawn, **opts)
    intervals = {}
    for name, v in resampled.items():
        low, high = percentile_band(v[:, None], confidence)
        intervals[name] = (float(low[0]), float(high[0]))
    holds = float("nan")
    if bound is not None:
        holds = float(np.mean(_OPS[bound[1]](resampled[bound[0]], bound[2])))
    names = ("tp", "fp", "fn", "tn")
    return OperatingPoint(
        threshold,
        True,
        objective,
        achieved[objective],
        {k: float(v) for k, v in zip(names, counts, strict=True)},
        achieved,
        intervals,
        holds,
        n_resamples,
    )


def infeasible(objective, n_resamples) -> OperatingPoint:
    return OperatingPoint(float("nan"), False, objective, float("nan"), n_resamples=n_resamples)


def operating_point(
    y_true,
    y_score,
    objective="recall",
    *,
    constraint=None,
    beta=1.0,
    cost_fp=1.0,
    cost_fn=1.0,
    prevalence=None,
    threshold_probability=0.5,
    n_resamples=1000,
    confidence=0.95,
    random_state=0,
    pos_label=None,
    sample_weight=None,
):
    """The threshold that optimizes ``objective`` subject to ``constraint``, with intervals.

    Recall at precision >= p is ``objective="recall", constraint=("precision",
    ">=", p)``; precision at recall >= r, TPR at FPR <= f likewise. The
    criteria: ``"fbeta"`` (``beta``), ``"youden"`` (TPR - FPR),
    ``"net_benefit"`` (at ``threshold_probability``) and ``"cost"``, the
    expected cost ``prevalence * cost_fn * FNR + (1 - prevalence) * cost_fp *
    FPR`` (minimized; ``prevalence`` None: the sample's). ``fpr``, ``fnr``
    and ``cost`` are minimized, everything else maximized.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels of any kind; both classes present.
    y_score : array-like of shape (n_samples,)
    objective : str, default "recall"
        One of :data:`OBJECTIVES`.
    constraint : tuple (rate, op, value), optional
        ``rate`` in :data:`CONSTRAINT_RATES`, ``op`` ``">="`` or ``"<="``,
        ``value`` in [0, 1].
    beta, cost_fp, cost_fn, prevalence, threshold_probability
        Parameters of the criteria above.
    n_resamples : int, default 1000
    confidence : float, default 0.95
    random_state : int, numpy Generator or None, default 0
    pos_label : label, default None
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    OperatingPoint

    Raises
    ------
    MetricInputError
        Bad input or options; a single class.

    Examples
    --------
    >>> y = [1, 1, 0, 1, 0, 1, 0, 0]
    >>> s = [0.9, 0.8, 0.7, 0.6, 0.5, 0.4, 0.3, 0.2]
    >>> op = operating_point(y, s, "recall", constraint=("precision", ">=", 0.75))
    >>> op.threshold, op.rates["recall"], op.rates["precision"]
    (0.6, 0.75, 0.75)
    >>> 0 < op.constraint_holds < 1
    True
    """
    bound, opts = check_operating_options(
        objective, constraint, n_resamples, confidence, beta=beta, cost_fp=cost_fp,
        cost_fn=cost_fn, prevalence=prevalence, threshold_probability=threshold_probability,
    )  # fmt: skip
    rows = binary_input(y_true, y_score, sample_weight, pos_label)
    fps, tps, thr = threshold_blocks(*rows)
    chunks = (block_chunks(fps, tps, thr), fps[-1], tps[-1])
    return solve(chunks, objective, bound, opts, n_resamples, confidence, random_state, rows)
