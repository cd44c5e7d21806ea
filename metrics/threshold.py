"""Curves for choosing where to cut a score: gain, lift, KS, CAP, decision and cost curves.

Every function here reads the same table as :func:`metrics.roc_curve`: the
positive and negative weight scoring at or above each distinct score
(:func:`metrics._thresholds.threshold_blocks`, value sorts only without
weights, one argsort with them). Nothing is binned: a tie block is one
step, and a fraction that falls inside a tie block is read on the straight
segment across it (the expected value when the tied samples are taken in a
random order). :class:`metrics.states.BinaryState` gives the same numbers
from its merged table through the ``*_from_blocks`` kernels below.

Each function refuses, naming itself, input with a single class (counting
non-zero weights only): the rates it plots would divide by zero.
"""

from __future__ import annotations

import numpy as np

from metrics._binary_input import binary_input
from metrics._block_chunks import (
    accuracy_ratio_from_chunks,
    block_chunks,
    ks_from_chunks,
    lift_from_chunks,
    net_benefit_from_chunks,
)
from metrics._thresholds import intermediate_mask, prepend_value, threshold_blocks
from metrics._validation import MetricInputError

__all__ = [
    "accuracy_ratio",
    "cap_curve",
    "cost_curve",
    "cumulative_gain_curve",
    "decision_curve",
    "ks_statistic",
    "lift_at",
    "lift_curve",
    "net_benefit",
]


# ---------------------------------------------------------------------------
# input and the shared table
# ---------------------------------------------------------------------------
def refuse_one_class(w_pos: float, w_neg: float, what: str) -> None:
    """A curve of rates needs positive and negative weight; name the missing class."""
    if w_pos <= 0 or w_neg <= 0:
        missing = "positive" if w_pos <= 0 else "negative"
        raise MetricInputError(
            f"{what} is undefined: y_true holds no {missing} sample (with non-zero weight); "
            "it needs both classes."
        )


def blocks(y_true, y_score, sample_weight, pos_label, what: str):
    """``(fps, tps, thresholds)`` descending, both classes checked.

    The counts stay as :func:`threshold_blocks` gives them (int32 without
    weights: exact, half the memory); the kernels divide them into float64.
    """
    pos, s, w = binary_input(y_true, y_score, sample_weight, pos_label)
    fps, tps, thr = threshold_blocks(pos, s, w)
    del pos, s, w
    refuse_one_class(float(tps[-1]), float(fps[-1]), what)
    return fps, tps, thr.astype(np.float64, copy=False)


def check_fraction(value, name: str, *, low_open: bool = True) -> np.ndarray:
    """A number or array in (0, 1] (``low_open``) or [0, 1), as float64."""
    a = np.asarray(value, dtype=np.float64) if not isinstance(value, bool) else None
    if a is None or a.dtype.kind != "f":
        raise MetricInputError(f"{name} must be a number or an array of numbers; got {value!r}.")
    bad = ~((a > 0) & (a <= 1)) if low_open else ~((a >= 0) & (a < 1))
    if bad.any():
        i = int(np.argmax(bad.ravel()))
        rng = "(0, 1]" if low_open else "[0, 1)"
        where = "" if a.ndim == 0 else f" at index {i}"
        raise MetricInputError(f"{name} must lie in {rng}; got {float(a.ravel()[i])!r}{where}.")
    return a


def drop_collinear(fps, tps, thr, drop_intermediate: bool):
    """The blocks without the points inside straight runs (as ``roc_curve`` drops them)."""
    keep = intermediate_mask(fps, tps) if drop_intermediate else None
    if keep is None:
        return fps, tps, thr
    return fps[keep], tps[keep], thr[keep]


def gain_from_blocks(fps: np.ndarray, tps: np.ndarray):
    """Fraction targeted and fraction of the positives captured, from (0, 0)."""
    total = float(fps[-1]) + float(tps[-1])
    x = np.empty(fps.shape[0] + 1)
    x[0] = 0.0
    np.add(fps, tps, out=x[1:])
    x[1:] /= total
    y = np.empty_like(x)
    y[0] = 0.0
    np.divide(tps, tps[-1], out=y[1:])
    return x, y


def gain_curve_from_blocks(fps, tps, thr, drop_intermediate: bool):
    """:func:`cumulative_gain_curve`'s arrays from the blocks (``+inf`` leads the thresholds)."""
    fps, tps, thr = drop_collinear(fps, tps, thr, drop_intermediate)
    x, y = gain_from_blocks(fps, tps)
    return x, y, prepend_value(np.inf, thr)


def prevalence_of(fps, tps) -> float:
    """The positive share of the total weight."""
    return float(tps[-1]) / (float(tps[-1]) + float(fps[-1]))


def scalar_or_array(out: np.ndarray):
    """A float for a 0-d result (a scalar asked), else the array."""
    return float(out) if out.ndim == 0 else out


def lift_at_from_blocks(fps, tps, fraction) -> np.ndarray:
    """Gain at ``fraction`` (straight across a tie block) over ``fraction``."""
    return lift_from_chunks(block_chunks(fps, tps), fps[-1], tps[-1], fraction)


def ks_from_blocks(fps, tps, thresholds) -> tuple[float, float]:
    """``max |TPR - FPR|`` over the thresholds and the highest threshold reaching it."""
    return ks_from_chunks(block_chunks(fps, tps, thresholds), fps[-1], tps[-1])


def net_benefit_from_blocks(fps, tps, thresholds, pt: np.ndarray) -> np.ndarray:
    """``TP / n - FP / n * pt / (1 - pt)`` predicting positive where ``score >= pt``."""
    return net_benefit_from_chunks(block_chunks(fps, tps, thresholds), fps[-1], tps[-1], pt)


# ---------------------------------------------------------------------------
# gain, lift, CAP and KS
# ---------------------------------------------------------------------------
def cumulative_gain_curve(
    y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True
):
    """Cumulative gain: the fraction of positives captured by targeting the top scores.

    Targeting every sample scoring at or above a threshold captures
    ``TP / P`` of the positives with ``(TP + FP) / n`` of the population; one
    point per distinct score, starting at (0, 0) (threshold ``+inf``) and
    ending at (1, 1). Weighted sums replace counts with ``sample_weight``.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels of any kind; both classes present.
    y_score : array-like of shape (n_samples,)
        Scores, higher meaning more likely positive.
    pos_label : label, default None
        The positive label (None: 1 for labels in {0, 1} or {-1, 1}).
    sample_weight : array-like of shape (n_samples,), optional
    drop_intermediate : bool, default True
        Drop the points inside straight runs (a run of one class's scores),
        which change neither the plot nor any area: the points
        :func:`metrics.roc_curve` drops, since the gain curve is a linear
        map of the ROC points.

    Returns
    -------
    fraction, gain : ndarray of shape (n_thresholds + 1,)
        Fraction of the population targeted and of the positives captured.
    thresholds : ndarray of shape (n_thresholds + 1,)
        ``+inf`` then the distinct scores, descending.

    Raises
    ------
    MetricInputError
        Bad input or a single class.

    Examples
    --------
    >>> x, g, t = cumulative_gain_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> x.tolist(), g.tolist(), t.tolist()
    ([0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 0.5, 1.0, 1.0], [inf, 0.9, 0.8, 0.7, 0.1])
    """
    fps, tps, thr = blocks(y_true, y_score, sample_weight, pos_label, "The gain curve")
    return gain_curve_from_blocks(fps, tps, thr, drop_intermediate)


def lift_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Lift: the positive rate among the targeted over the overall positive rate.

    ``lift = gain / fraction`` at every distinct score (the (0, 0) point of
    the gain curve has no lift and is left out); 1 everywhere for a random
    ranking, ``1 / prevalence`` at most. Inside a dropped straight run of
    one class the lift is monotone, so the kept points hold its extremes.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, drop_intermediate
        As in :func:`cumulative_gain_curve`.

    Returns
    -------
    fraction, lift, thresholds : ndarray of shape (n_thresholds,)
        Thresholds descending.

    Examples
    --------
    >>> x, lift, t = lift_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> x.tolist(), lift.tolist()
    ([0.25, 0.5, 0.75, 1.0], [2.0, 1.0, 1.3333333333333333, 1.0])
    """
    fps, tps, thr = blocks(y_true, y_score, sample_weight, pos_label, "The lift curve")
    x, y, thr = gain_curve_from_blocks(fps, tps, thr, drop_intermediate)
    return x[1:], y[1:] / x[1:], thr[1:]


def lift_at(y_true, y_score, fraction=0.1, *, pos_label=None, sample_weight=None):
    """Lift when targeting the top ``fraction`` of the population.

    The gain at ``fraction`` over ``fraction``. When the cut falls inside a
    block of tied scores, the gain is read on the straight segment across
    the block: the expected gain when the tied samples are targeted in a
    random order (no arbitrary tie-break).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`cumulative_gain_curve`.
    fraction : float or array-like, default 0.1
        In (0, 1].

    Returns
    -------
    float, or ndarray of the shape of ``fraction``

    Examples
    --------
    >>> lift_at([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1], 0.25)
    2.0
    >>> lift_at([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1], 0.5)
    1.5
    """
    f = check_fraction(fraction, "fraction")
    fps, tps, _ = blocks(y_true, y_score, sample_weight, pos_label, "The lift")
    return scalar_or_array(lift_at_from_blocks(fps, tps, f))


def cap_curve(y_true, y_score, *, pos_label=None, sample_weight=None, drop_intermediate=True):
    """Cumulative accuracy profile: the gain curve beside the perfect model's.

    The model's curve is :func:`cumulative_gain_curve`'s; the perfect model
    (every positive ranked first) captures ``min(fraction / prevalence, 1)``.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight, drop_intermediate
        As in :func:`cumulative_gain_curve`.

    Returns
    -------
    fraction, captured, perfect : ndarray of shape (n_thresholds + 1,)

    Examples
    --------
    >>> x, c, p = cap_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> c.tolist(), p.tolist()
    ([0.0, 0.5, 0.5, 1.0, 1.0], [0.0, 0.5, 1.0, 1.0, 1.0])
    """
    fps, tps, thr = blocks(y_true, y_score, sample_weight, pos_label, "The CAP curve")
    x, y, _ = gain_curve_from_blocks(fps, tps, thr, drop_intermediate)
    return x, y, np.minimum(x / prevalence_of(fps, tps), 1.0)


def accuracy_ratio(y_true, y_score, *, pos_label=None, sample_weight=None):
    """Accuracy ratio: the CAP area above the diagonal over the perfect model's.

    ``AR = (A - 1/2) / (A_perfect - 1/2)`` with ``A`` the trapezoid area
    under the CAP curve and ``A_perfect = 1 - prevalence / 2``. It equals
    the Gini coefficient ``2 AUC - 1`` (ties as half), a check the tests make.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`cumulative_gain_curve`.

    Returns
    -------
    float

    Examples
    --------
    >>> accuracy_ratio([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    0.5
    """
    fps, tps, _ = blocks(y_true, y_score, sample_weight, pos_label, "The accuracy ratio")
    return accuracy_ratio_from_blocks(fps, tps)


def accuracy_ratio_from_blocks(fps, tps) -> float:
    """:func:`accuracy_ratio` from the blocks (the trapezoids of the whole gain curve)."""
    return accuracy_ratio_from_chunks(block_chunks(fps, tps), fps[-1], tps[-1])


def ks_statistic(y_true, y_score, *, pos_label=None, sample_weight=None):
    """Kolmogorov-Smirnov statistic between the two classes' scores, and its threshold.

    ``max |TPR(t) - FPR(t)|`` over every threshold ``t`` (positive where
    ``score >= t``): the largest gap between the two classes' empirical
    score distributions, equal to ``scipy.stats.ks_2samp``'s two-sided
    statistic. The threshold is the highest reaching it.

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`cumulative_gain_curve`.

    Returns
    -------
    statistic : float
    threshold : float

    Examples
    --------
    >>> ks_statistic([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    (0.5, 0.9)
    """
    fps, tps, thr = blocks(y_true, y_score, sample_weight, pos_label, "The KS statistic")
    return ks_from_blocks(fps, tps, thr)


# ---------------------------------------------------------------------------
# decision curve
# ---------------------------------------------------------------------------
def threshold_probabilities(thresholds) -> np.ndarray:
    if thresholds is None:
        return np.round(np.arange(0, 100) / 100.0, 2)
    return check_fraction(thresholds, "thresholds", low_open=False)


def net_benefit(y_true, y_prob, threshold_probability, *, pos_label=None, sample_weight=None):
    """Net benefit of treating where ``y_prob >= threshold_probability``.

    ``NB = TP / n - FP / n * pt / (1 - pt)`` (Vickers & Elkin): true
    positives as a fraction of everyone, minus false positives weighted by
    the odds at the threshold probability ``pt``, at which a patient is
    indifferent between treatment and none.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        Binary labels; both classes present.
    y_prob : array-like of shape (n_samples,)
        Predicted probabilities of the positive class.
    threshold_probability : float or array-like
        In [0, 1).
    pos_label, sample_weight
        As in :func:`cumulative_gain_curve`.

    Returns
    -------
    float, or ndarray of the shape of ``threshold_probability``

    Examples
    --------
    >>> net_benefit([1, 0, 1, 0], [0.9, 0.6, 0.3, 0.1], 0.5)
    0.0
    """
    pt = check_fraction(threshold_probability, "threshold_probability", low_open=False)
    fps, tps, thr = blocks(y_true, y_prob, sample_weight, pos_label, "The net benefit")
    return scalar_or_array(net_benefit_from_blocks(fps, tps, thr, pt))


def decision_curve(y_true, y_prob, *, thresholds=None, pos_label=None, sample_weight=None):
    """Decision curve: net benefit of the model, of treating all and of treating none.

    Over threshold probabilities ``pt`` (default 0, 0.01, ..., 0.99, as the R
    and Python ``dcurves`` packages): the model's :func:`net_benefit`, treat
    all's ``prevalence - (1 - prevalence) pt / (1 - pt)`` and treat none's 0.

    Parameters
    ----------
    y_true, y_prob, pos_label, sample_weight
        As in :func:`net_benefit`.
    thresholds : array-like, optional
        Threshold probabilities in [0, 1).

    Returns
    -------
    thresholds, model, treat_all, treat_none : ndarray of shape (n_thresholds,)

    Examples
    --------
    >>> pt, model, everyone, no_one = decision_curve(
    ...     [1, 0, 1, 0], [0.9, 0.6, 0.3, 0.1], thresholds=[0.2, 0.5])
    >>> model.tolist(), everyone.tolist(), no_one.tolist()
    ([0.4375, 0.0], [0.375, 0.0], [0.0, 0.0])
    """
    pt = threshold_probabilities(thresholds).ravel()
    fps, tps, thr = blocks(y_true, y_prob, sample_weight, pos_label, "The decision curve")
    return decision_from_blocks(fps, tps, thr, pt)


def decision_from_blocks(fps, tps, thr, pt):
    """:func:`decision_curve`'s four arrays from the blocks."""
    model = net_benefit_from_blocks(fps, tps, thr, pt)
    prevalence = prevalence_of(fps, tps)
    treat_all = prevalence - (1.0 - prevalence) * (pt / (1.0 - pt))
    return pt, model, treat_all, np.zeros_like(pt)


# ---------------------------------------------------------------------------
# cost curve
# ---------------------------------------------------------------------------
def roc_hull(fpr: np.ndarray, tpr: np.ndarray) -> np.ndarray:
    """Indices of the ROC convex hull's vertices (from (0, 0) to (1, 1)).

    Points sorted by FPR then TPR; a point on or below the chord of its two
    kept neighbours is never a vertex of the upper hull, so every such point
    is dropped at once (each is inside the hull of the points kept, so the
    hull does not change) and the test repeated on what is left: each pass
    is one vectorized comparison, and a staircase loses its inner corners in
    the first.
    """
    keep = np.arange(fpr.shape[0])
    while keep.shape[0] > 2:
        x, y = fpr[keep], tpr[keep]
        # cross product of (p[i] - p[i-1]) and (p[i+1] - p[i]) >= 0: not a right turn
        cross = (x[1:-1] - x[:-2]) * (y[2:] - y[1:-1]) - (y[1:-1] - y[:-2]) * (x[2:] - x[1:-1])
        drop = cross >= 0
        if not drop.any():
            break
        mask = np.ones(keep.shape[0], dtype=bool)
        mask[1:-1] = ~drop
        keep = keep[mask]
    return keep


def cost_curve(y_true, y_score, *, pos_label=None, sample_weight=None):
    """Drummond & Holte's cost curve: the lower envelope of the ROC points' cost lines.

    A ROC point (FPR, TPR) costs ``(1 - TPR) pc + FPR (1 - pc)`` (normalized
    expected cost) at probability cost ``pc = p(+) C(-|+) / (p(+) C(-|+) +
    p(-) C(+|-))``; the best threshold's cost at each ``pc`` is the lower
    envelope of these lines, whose pieces are the vertices of the ROC convex
    hull (exact, from the hull, no grid).

    Parameters
    ----------
    y_true, y_score, pos_label, sample_weight
        As in :func:`cumulative_gain_curve`.

    Returns
    -------
    probability_cost, normalized_cost : ndarray of shape (n_vertices + 1,)
        The envelope's breakpoints, ``probability_cost`` from 0 to 1.
    thresholds : ndarray of shape (n_vertices,)
        The threshold (``+inf`` for none positive) that is optimal between
        breakpoints ``k`` and ``k + 1``.

    Examples
    --------
    >>> pc, cost, t = cost_curve([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
    >>> pc.tolist(), cost.tolist(), t.tolist()
    ([0.0, 0.0, 0.5, 1.0, 1.0], [0.0, 0.0, 0.25, 0.0, 0.0], [inf, 0.9, 0.7, 0.1])
    """
    fps, tps, thr = blocks(y_true, y_score, sample_weight, pos_label, "The cost curve")
    return cost_from_blocks(fps, tps, thr)


def cost_from_blocks(fps, tps, thr):
    """:func:`cost_curve`'s arrays from the blocks (the ROC hull's cost lines)."""
    fps, tps, thr = drop_collinear(fps, tps, thr, True)  # never hull vertices: drop them cheaply
    fpr = prepend_value(0.0, fps, fps[-1])
    tpr = prepend_value(0.0, tps, tps[-1])
    del fps, tps
    v = roc_hull(fpr, tpr)
    fpr, tpr, thr = fpr[v], tpr[v], np.concatenate(([np.inf], thr))[v]
    dx, dy = np.diff(fpr), np.diff(tpr)
    # lines k and k + 1 cross where fpr_k + pc (1 - tpr_k - fpr_k) is equal for both
    pc = np.concatenate(([0.0], dx / (dx + dy), [1.0]))
    line = np.concatenate((np.arange(fpr.shape[0]), [fpr.shape[0] - 1]))
    cost = fpr[line] + pc * (1.0 - tpr[line] - fpr[line])
    return pc, cost, thr
