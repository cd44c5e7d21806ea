"""The threshold workbench of the ROC & PR curves page: the gain and lift curves, the
KS statistic, the decision curve and the calibration error, each with the numbers at
the page's one threshold ``t`` derived with their terms, and the constraint solver
(the threshold maximizing one rate subject to another, with its bootstrap intervals).

Every number is one of :mod:`metrics`' functions (no streamlit here); the figures are
:mod:`explorer.charts.workbench`'s.
"""

from __future__ import annotations

import numpy as np

import metrics
from explorer import budget
from explorer.datasets import Dataset
from explorer.derivation import Derivation
from explorer.formatting import count_latex as _c
from explorer.formatting import fmt
from explorer.i18n import Phrase
from metrics import (
    calibration_error,
    cumulative_gain_curve,
    decision_curve,
    ks_statistic,
    operating_point,
    reliability_diagram,
)

__all__ = [
    "CALIBRATION_BINS",
    "CONSTRAINTS",
    "CONSTRAINT_LABELS",
    "RATE_NAMES",
    "SOLVER_RESAMPLES",
    "calibration_at",
    "decision_at",
    "gain_at",
    "gain_curve",
    "ks_at",
    "probabilities",
    "solve",
    "solver_refusal",
]

#: The reliability bins of the calibration error (equal width).
CALIBRATION_BINS = 10
#: Points drawn of a curve at most (every point up to this, evenly spaced beyond).
MAX_DRAWN = 2000
#: The constraint solver's goals: id (the URL's) -> (objective, constrained rate, operator).
CONSTRAINTS = {
    "recall_at_precision": ("recall", "precision", ">="),
    "precision_at_recall": ("precision", "recall", ">="),
    "tpr_at_fpr": ("tpr", "fpr", "<="),
}
#: How the solver's select box names each goal.
CONSTRAINT_LABELS = {
    "recall_at_precision": "Recall at precision ≥ p",
    "precision_at_recall": "Precision at recall ≥ r",
    "tpr_at_fpr": "TPR at FPR ≤ f",
}
#: How the solver's result names each rate.
RATE_NAMES = {"recall": "recall", "precision": "precision", "tpr": "TPR", "fpr": "FPR"}
#: Bootstrap resamples of the solver's intervals.
SOLVER_RESAMPLES = 1000


def _inputs(ds: Dataset, model: str) -> tuple:
    return ds.y_true, ds.score(model), ds.sample_weight


def _thin(n: int) -> np.ndarray:
    """Indices of at most :data:`MAX_DRAWN` points of ``n``, the first and last kept."""
    if n <= MAX_DRAWN:
        return np.arange(n)
    return np.unique(np.linspace(0, n - 1, MAX_DRAWN).round().astype(np.intp))


def probabilities(ds: Dataset, model: str) -> bool:
    """Whether the model's scores are probabilities (all in [0, 1]): the decision curve
    and the calibration error need them."""
    s = ds.score(model)
    return bool(s.min() >= 0.0 and s.max() <= 1.0)


def _targeted(ds: Dataset, model: str, t: float, by_class=None) -> tuple[float, ...]:
    """(TP, FP, P, N) at ``t``: the (weighted) counts scoring >= t, the positives, all.
    ``by_class``: :func:`explorer.pages.curves.sorted_scores`; without weights the
    counts are then two binary searches (a threshold step at 10^6 rows), not a pass."""
    if by_class is not None and ds.sample_weight is None:
        pos, neg = by_class
        tp = pos.shape[0] - int(np.searchsorted(pos, t, side="left"))
        fp = neg.shape[0] - int(np.searchsorted(neg, t, side="left"))
        return float(tp), float(fp), float(pos.shape[0]), float(pos.shape[0] + neg.shape[0])
    y, s, w = _inputs(ds, model)
    w = np.ones(s.shape[0]) if w is None else np.asarray(w, dtype=np.float64)
    pos = np.asarray(y) == 1
    at = s >= t
    return float(w[at & pos].sum()), float(w[at & ~pos].sum()), float(w[pos].sum()), float(w.sum())


def gain_curve(ds: Dataset, model: str) -> dict:
    """The cumulative gain curve (fraction targeted, fraction of positives captured,
    thresholds) and the lift along it, thinned to :data:`MAX_DRAWN` points.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> g = gain_curve(load_sample("seed002_roc6"), "model")
    >>> float(g["fraction"][0]), float(g["gain"][-1]), round(float(g["lift"][1]), 4)
    (0.0, 1.0, 3.0)
    """
    y, s, w = _inputs(ds, model)
    x, gain, thr = cumulative_gain_curve(y, s, sample_weight=w)
    keep = _thin(x.shape[0])
    x, gain, thr = x[keep], gain[keep], thr[keep]
    with np.errstate(invalid="ignore", divide="ignore"):
        lift = np.where(x > 0, gain / np.where(x > 0, x, 1.0), np.nan)
    return {"fraction": x, "gain": gain, "lift": lift, "thresholds": thr}


def gain_at(ds: Dataset, model: str, t: float, by_class=None) -> Derivation:
    """The lift at the fraction of the population ``t`` targets, with its terms:
    lift = (TP / P) / ((TP + FP) / N), :func:`metrics.threshold.lift_at` at that
    fraction (which ends on a block of tied scores: no interpolation), from the counts
    at ``t`` (``by_class``: see :func:`_targeted`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> d = gain_at(load_sample("seed002_roc6"), "model", 0.65)
    >>> round(d.value, 4), d.latex.endswith(fmt(d.value))
    (2.0, True)
    """
    tp, fp, p, n = _targeted(ds, model, t, by_class)
    formula = r"\mathrm{lift} = \frac{TP / P}{(TP + FP) / N}"
    if tp + fp == 0:
        return Derivation("Lift at t", formula, "", "nothing scores at or above t")
    value = (tp / p) / ((tp + fp) / n)
    latex = (
        rf"\frac{{{_c(tp)} / {_c(p)}}}{{({_c(tp)} + {_c(fp)}) / {_c(n)}}}"
        rf" = \frac{{{fmt(tp / p)}}}{{{fmt((tp + fp) / n)}}} = {fmt(value)}"
    )
    return Derivation("Lift at t", formula, latex, value=value)


def ks_curves(ds: Dataset, model: str) -> dict:
    """TPR and FPR against the threshold (the two classes' cumulative shares scoring at
    or above it), thinned to :data:`MAX_DRAWN` points; KS is their largest gap."""
    y, s, w = _inputs(ds, model)
    fpr, tpr, thr = metrics.roc_curve(y, s, sample_weight=w)
    keep = _thin(thr.shape[0])
    return {"tpr": tpr[keep], "fpr": fpr[keep], "thresholds": thr[keep]}


def ks(ds: Dataset, model: str) -> tuple[float, float]:
    """:func:`metrics.threshold.ks_statistic`: the statistic and its threshold."""
    y, s, w = _inputs(ds, model)
    return ks_statistic(y, s, sample_weight=w)


def ks_at(ds: Dataset, model: str, t: float, ks_at_max=None, by_class=None) -> dict:
    """The KS statistic with its threshold (``ks_at_max``: :func:`ks`, computed when
    None), and the gap TPR - FPR at ``t`` (``by_class``: see :func:`_targeted`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> d = ks_at(load_sample("seed002_roc6"), "model", 0.65)
    >>> d["KS"].value, d["KS threshold"].value, d["TPR - FPR at t"].value
    (1.0, 0.8, 0.75)
    """
    ks_value, at = ks(ds, model) if ks_at_max is None else ks_at_max
    tp, fp, p, n = _targeted(ds, model, t, by_class)
    gap = tp / p - fp / (n - p)
    formula = r"\mathrm{KS} = \max_t \big(\mathrm{TPR}(t) - \mathrm{FPR}(t)\big)"
    return {
        "KS": Derivation("KS", formula, rf"\mathrm{{KS}} = {fmt(ks_value)}", value=ks_value),
        "KS threshold": Derivation(
            "KS threshold", "", rf"t_{{KS}} = {fmt(at)}", "the highest threshold with that gap", at
        ),
        "TPR - FPR at t": Derivation(
            "TPR - FPR at t",
            r"\mathrm{TPR}(t) - \mathrm{FPR}(t) = \frac{TP}{P} - \frac{FP}{N - P}",
            rf"\frac{{{_c(tp)}}}{{{_c(p)}}} - \frac{{{_c(fp)}}}{{{_c(n - p)}}} = {fmt(gap)}",
            value=gap,
        ),
    }


def decision(ds: Dataset, model: str) -> dict:
    """The decision curve over threshold probabilities 0.01 to 0.99: the model's net
    benefit, treat-all's and treat-none's."""
    y, s, w = _inputs(ds, model)
    pt, nb, everyone, no_one = decision_curve(
        y, s, thresholds=np.round(np.arange(1, 100) / 100, 2), sample_weight=w
    )
    return {"pt": pt, "model": nb, "treat_all": everyone, "treat_none": no_one}


def decision_at(ds: Dataset, model: str, t: float, by_class=None) -> Derivation:
    """The net benefit at threshold probability ``t`` with its terms:
    TP / N - FP / N · t / (1 - t), :func:`metrics.threshold.net_benefit`'s formula on
    the counts at ``t`` (``by_class``: see :func:`_targeted`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> d = decision_at(load_sample("seed002_roc6"), "model", 0.65)
    >>> round(d.value, 4)
    0.0238
    """
    formula = r"\mathrm{NB}(t) = \frac{TP}{N} - \frac{FP}{N} \cdot \frac{t}{1 - t}"
    if not 0.0 <= t < 1.0:
        return Derivation("Net benefit at t", formula, "", "t is no probability below 1")
    tp, fp, _, n = _targeted(ds, model, t, by_class)
    value = (tp - fp * (t / (1.0 - t))) / n  # as metrics.threshold.net_benefit writes it
    latex = (
        rf"\frac{{{_c(tp)}}}{{{_c(n)}}} - \frac{{{_c(fp)}}}{{{_c(n)}}}"
        rf" \cdot \frac{{{fmt(t)}}}{{{fmt(1 - t)}}} = {fmt(value)}"
    )
    return Derivation("Net benefit at t", formula, latex, value=value)


def reliability(ds: Dataset, model: str):
    """The :data:`CALIBRATION_BINS` equal-width bins' table
    (:func:`metrics.calibration.reliability_diagram`, no band)."""
    y, s, w = _inputs(ds, model)
    return reliability_diagram(y, s, n_bins=CALIBRATION_BINS, n_resamples=1, sample_weight=w)


def calibration_errors(ds: Dataset, model: str) -> tuple[float, float]:
    """ECE and MCE over :data:`CALIBRATION_BINS` equal-width bins
    (:func:`metrics.calibration.calibration_error`)."""
    y, s, w = _inputs(ds, model)
    ece = calibration_error(y, s, n_bins=CALIBRATION_BINS, sample_weight=w)
    return ece, calibration_error(y, s, n_bins=CALIBRATION_BINS, norm="max", sample_weight=w)


def calibration_at(ds: Dataset, model: str, t: float, errors=None, table=None) -> dict:
    """ECE and MCE (``errors``: :func:`calibration_errors`), ECE with its terms, and the
    calibration gap of the bin holding ``t`` (``table``: :func:`reliability`); each
    computed when None.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> d = calibration_at(load_sample("seed002_roc6"), "model", 0.65)
    >>> round(d["ECE"].value, 4), round(d["MCE"].value, 4)
    (0.4167, 0.7)
    """
    ece, mce = calibration_errors(ds, model) if errors is None else errors
    table = reliability(ds, model) if table is None else table
    filled = table.weight > 0
    share = table.weight[filled] / table.weight.sum()
    gap = np.abs(table.fraction_positive[filled] - table.mean_predicted[filled])
    terms = [rf"{fmt(a)} \cdot {fmt(b)}" for a, b in zip(share, gap, strict=True)]
    ece_line = " + ".join(terms[:4]) + (r" + \dots" if len(terms) > 4 else "")
    b = int(np.clip(np.searchsorted(table.upper, t, side="left"), 0, CALIBRATION_BINS - 1))
    at_t = abs(table.fraction_positive[b] - table.mean_predicted[b])
    note = Phrase("${n} non-empty bins of ${bins}", n=int(filled.sum()), bins=CALIBRATION_BINS)
    return {
        "ECE": Derivation(
            "ECE",
            r"\mathrm{ECE} = \sum_b \frac{N_b}{N} \, |\bar y_b - \bar p_b|",
            rf"{ece_line} = {fmt(ece)}",
            note,
            ece,
        ),
        "MCE": Derivation(
            "MCE",
            r"\mathrm{MCE} = \max_b |\bar y_b - \bar p_b|",
            rf"\max_b |\bar y_b - \bar p_b| = {fmt(mce)}",
            value=mce,
        ),
        "Gap of t's bin": Derivation(
            "Gap of t's bin",
            "",
            rf"|{fmt(table.fraction_positive[b])} - {fmt(table.mean_predicted[b])}| = {fmt(at_t)}"
            if filled[b]
            else "",
            Phrase(
                "bin [${lo}, ${hi}]${empty}",
                lo=fmt(table.lower[b]),
                hi=fmt(table.upper[b]),
                empty="" if filled[b] else Phrase(" is empty"),
            ),
            float(at_t) if filled[b] else float("nan"),
        ),
    }


def solver_refusal(ds: Dataset, limit: float | None = None) -> str | None:
    """The sentence refusing the solver's intervals when their bootstrap would take longer
    than the server offers (:mod:`explorer.budget`), else None. Without weights the
    resampled cells are one multinomial draw each (no work per row)."""
    if ds.sample_weight is None:
        return None
    seconds = budget.bootstrap_seconds("cells", ds.n_samples, SOLVER_RESAMPLES)
    limit = budget.limits().per_run if limit is None else limit
    what = Phrase(
        "${n:,} resamples of ${rows:,} weighted rows", n=SOLVER_RESAMPLES, rows=ds.n_samples
    )
    return budget.too_long(seconds, what, limit)


def solve(ds: Dataset, model: str, goal: str, bound: float, n_resamples: int = SOLVER_RESAMPLES):
    """:func:`metrics.operating_point` of ``goal`` (a key of :data:`CONSTRAINTS`) with
    its rate bounded by ``bound``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> op = solve(load_sample("seed002_roc6"), "model", "recall_at_precision", 0.6)
    >>> op.threshold, op.rates["recall"], op.rates["precision"]
    (0.8, 1.0, 1.0)
    """
    objective, rate, op = CONSTRAINTS[goal]
    y, s, w = _inputs(ds, model)
    return operating_point(
        y, s, objective, constraint=(rate, op, bound), n_resamples=n_resamples, sample_weight=w
    )
