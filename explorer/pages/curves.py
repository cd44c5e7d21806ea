"""The ROC & PR curves page model: one binary Dataset and the page's settings in, the
numbers, tables and figures of the page out (no streamlit).

The view (``views/curves.py``) calls these through their cached declarations in
:mod:`explorer.ui.cache`. A parameter whose name starts with ``_`` (``_counts``,
``_at_100``, ...) takes a result the view already holds (from another cached
function of this module, on the same dataset and model): the cache does not hash it,
and without it the function computes it itself.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

import metrics
from explorer.charts import curves as charts
from explorer.charts import operating_point as op_charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from metrics import OPTIMIZERS, confusion_matrix, log_loss

MAX_POINTS = 4000  # vertices drawn per curve at most (see metrics.reduce_curve)
MAX_ROWS = 200  # rows shown of a long table; the CSV holds them all
PAIR_GRID_LIMIT = 2500  # n+ x n- pairs drawn as a full grid; beyond, a uniform sample
PAIR_SAMPLE = 2000
STRIP_MARKERS = 3000  # strip_figure's max_markers: beyond, histograms per outcome
CELLS = ("TP", "FP", "FN", "TN")

#: The "Optimize for" goals (:data:`metrics.OPTIMIZERS`): long and short names.
OPT_LABELS = {
    "max_fbeta": "max F-beta",
    "youden": "Youden's J (max TPR - FPR)",
    "min_cost": "min expected cost",
    "recall_at_least": "recall at least x",
    "precision_at_least": "precision at least x",
}
SHORT = {
    "max_fbeta": "max F-beta",
    "youden": "Youden J",
    "min_cost": "min cost",
    "recall_at_least": "recall >= x",
    "precision_at_least": "precision >= x",
}
#: The headline numbers of :func:`rates` (after ROC AUC, AP and log loss), by label.
RATE_LABELS = {
    "Precision": "precision",
    "Recall": "recall",
    "F1": "f1",
    "Accuracy": "accuracy",
    "F-beta": "fbeta",
    "Error rate": "error_rate",
    "TPR": "tpr",
    "FPR": "fpr",
}
#: The confusion matrix's normalizations, and what each divides by.
NORMALIZE = {
    "true": "over the actual class (rows)",
    "pred": "over the predicted class (columns)",
    "all": "over all samples",
}

__all__ = [
    "CELLS",
    "MAX_POINTS",
    "MAX_ROWS",
    "NORMALIZE",
    "OPTIMIZERS",
    "OPT_LABELS",
    "PAIR_GRID_LIMIT",
    "PAIR_SAMPLE",
    "RATE_LABELS",
    "SHORT",
    "STRIP_MARKERS",
    "ThresholdAxis",
    "calibration",
    "calibration_figure",
    "candidates_table",
    "cell_samples",
    "confusion",
    "count_text",
    "candidate_points",
    "curve_bases",
    "curve_figures",
    "curves",
    "four_ways",
    "histogram_figure",
    "log_loss_values",
    "optima",
    "operating_data",
    "operating_settings",
    "optimum_move",
    "pairs",
    "rank_head",
    "rank_table",
    "rates",
    "sample_rows",
    "samples",
    "sorted_scores",
    "step_vertices",
    "strip_figure",
    "threshold_axis",
    "threshold_counts",
    "threshold_head",
    "threshold_table",
]


# ------------------------------------------------------------------ the curves
def curves(ds: Dataset, model: str) -> dict:
    """The ROC and PR curves of ``model``, reduced for drawing, and their areas.

    Parameters
    ----------
    ds : Dataset
        A binary dataset.
    model : str
        One of ``ds.model_names``.

    Returns
    -------
    dict
        ``fpr``, ``tpr``, ``thresholds``: the ROC vertices drawn (at most
        :data:`MAX_POINTS`, only collinear points left out below that) of the
        ``n_roc`` vertices of the exact curve; ``recall``, ``precision``,
        ``pr_thresholds`` (+inf for the last point) and ``n_pr`` likewise for the PR
        curve; ``auc``, ``ap``, ``trapezoid`` (under the exact ROC curve) and
        ``pr_trapezoid`` (under the PR curve), computed on the exact curves.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> c = curves(load_sample("seed002_roc6"), "model")
    >>> c["fpr"].tolist(), c["tpr"].tolist()
    ([0.0, 0.0, 0.0, 0.25, 0.5, 0.75, 1.0], [0.0, 0.5, 1.0, 1.0, 1.0, 1.0, 1.0])
    >>> c["n_roc"], c["auc"], c["ap"]
    (7, 1.0, 1.0)
    """
    y, s, w = ds.y_true, ds.score(model), ds.sample_weight
    fpr, tpr, thr = metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    keep = metrics.reduce_curve(fpr, tpr, max_points=MAX_POINTS)
    p, r, pt = metrics.precision_recall_curve(y, s, sample_weight=w)
    pr_thr = np.append(pt, math.inf)
    pkeep = step_vertices(r, p)
    return {
        "model": model,
        "fpr": fpr[keep],
        "tpr": tpr[keep],
        "thresholds": thr[keep],
        "n_roc": int(fpr.shape[0]),
        "recall": r[pkeep],
        "precision": p[pkeep],
        "pr_thresholds": pr_thr[pkeep],
        "n_pr": int(p.shape[0]),
        "auc": metrics.roc_auc_score(y, s, sample_weight=w),
        "ap": metrics.average_precision_score(y, s, sample_weight=w),
        "pr_trapezoid": metrics.auc(r, p),
        "trapezoid": metrics.auc(fpr, tpr),
    }


def step_vertices(recall, precision, max_points: int = MAX_POINTS) -> np.ndarray:
    """The PR vertices to draw as steps (:func:`explorer.charts.curves.pr_base`).

    Drawn as steps (``steps-post``), a point whose precision equals the previous
    point's only continues that point's horizontal run: it is left out, and the steps
    drawn are exactly the same. (:func:`metrics.reduce_curve`'s first step, which drops
    points on a straight line between their neighbours, would change them: a straight
    line is drawn as a staircase.) Past ``max_points`` vertices,
    :func:`metrics.reduce_curve` keeps those within one pixel column of the rest.

    Examples
    --------
    >>> step_vertices([1, 0.75, 0.5, 0.25, 0], [0.5, 0.5, 0.5, 1, 1]).tolist()
    [0, 3, 4]
    """
    r, p = np.asarray(recall, dtype=float), np.asarray(precision, dtype=float)
    if r.shape[0] <= 2:
        return np.arange(r.shape[0], dtype=np.int64)
    keep = np.flatnonzero(np.r_[True, p[1:-1] != p[:-2], True])
    if keep.shape[0] > max_points:
        keep = keep[metrics.reduce_curve(r[keep], p[keep], max_points=max_points)]
    return keep.astype(np.int64)


def threshold_counts(ds: Dataset, model: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """TP and FP at +inf and at every distinct score: the one sort every optimizer and
    the threshold table are read from (:func:`metrics.threshold_counts`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> thresholds, tps, fps = threshold_counts(load_sample("seed002_roc6"), "model")
    >>> thresholds.tolist()
    [inf, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    >>> tps.tolist(), fps.tolist()
    ([0.0, 1.0, 2.0, 2.0, 2.0, 2.0, 2.0], [0.0, 0.0, 0.0, 1.0, 2.0, 3.0, 4.0])
    """
    return metrics.threshold_counts(ds.y_true, ds.score(model), sample_weight=ds.sample_weight)


def sorted_scores(ds: Dataset, model: str) -> tuple[np.ndarray, np.ndarray]:
    """The positives' and the negatives' scores of ``model``, each sorted ascending:
    :func:`rates` counts an unweighted operating point from them by two binary searches.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> pos, neg = sorted_scores(load_sample("seed002_roc6"), "model")
    >>> pos.tolist(), neg.tolist()
    ([0.8, 0.9], [0.4, 0.5, 0.6, 0.7])
    """
    s, positive = ds.score(model), ds.y_true == 1
    return np.sort(s[positive]), np.sort(s[~positive])


def rates(ds: Dataset, model: str, t: float, beta: float, *, _sorted: tuple | None = None) -> dict:
    """Every count and rate of ``model`` at threshold ``t`` (score >= t is positive):
    :func:`metrics.rates_at_threshold`, and ``n``, the (weighted) number of
    samples TP + FP + FN + TN.

    ``_sorted``: :func:`sorted_scores` of ``ds`` and ``model``. Without sample weights
    the four counts are then two binary searches instead of a pass over every sample
    (a threshold step at 10^6 rows), and the rates are
    :func:`metrics.rates_at_threshold` of one pseudo-sample per cell weighted by its
    count: the same counts (whole numbers, exact in floats) through the same formulas,
    so the same numbers to the last bit.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_roc6")
    >>> r = rates(ds, "model", 0.65, 1.0)
    >>> [r[k] for k in ("tp", "fp", "fn", "tn", "n")], round(r["precision"], 4)
    ([2.0, 1.0, 0.0, 3.0, 6.0], 0.6667)
    >>> rates(ds, "model", 0.65, 1.0, _sorted=sorted_scores(ds, "model")) == r
    True
    """
    if _sorted is not None and ds.sample_weight is None:
        pos, neg = _sorted
        tp = pos.shape[0] - int(np.searchsorted(pos, t, side="left"))
        fp = neg.shape[0] - int(np.searchsorted(neg, t, side="left"))
        cells = [tp, fp, pos.shape[0] - tp, neg.shape[0] - fp]
        at_t = metrics.rates_at_threshold(
            [1, 0, 1, 0], [1.0, 1.0, 0.0, 0.0], 0.5, beta=beta, sample_weight=cells
        )
    else:
        at_t = metrics.rates_at_threshold(
            ds.y_true, ds.score(model), t, beta=beta, sample_weight=ds.sample_weight
        )
    return {**at_t, **cell_scores(at_t), "n": at_t["tp"] + at_t["fp"] + at_t["fn"] + at_t["tn"]}


def cell_scores(counts: dict) -> dict:
    """MCC and balanced accuracy of the four cells ``tp, fp, fn, tn`` (weighted counts
    allowed), by :func:`metrics.matthews_corrcoef` and
    :func:`metrics.balanced_accuracy_score` on one pseudo-sample per cell.

    Examples
    --------
    >>> r = cell_scores({"tp": 2.0, "fp": 1.0, "fn": 0.0, "tn": 3.0})
    >>> round(r["mcc"], 4), round(r["balanced_accuracy"], 4)
    (0.7071, 0.875)
    """
    cells = [counts["tp"], counts["fp"], counts["fn"], counts["tn"]]
    keep = [i for i, c in enumerate(cells) if c > 0]
    y, pred = np.array([1, 0, 1, 0])[keep], np.array([1, 1, 0, 0])[keep]
    w = np.asarray(cells, dtype=float)[keep]
    with warnings.catch_warnings():  # one class predicted or present: sklearn's values
        warnings.simplefilter("ignore")
        mcc = float(metrics.matthews_corrcoef(y, pred, sample_weight=w))
        bal = float(metrics.balanced_accuracy_score(y, pred, sample_weight=w))
    return {"mcc": mcc, "balanced_accuracy": bal}


def brier(ds: Dataset, model: str) -> float | None:
    """The Brier score of ``model`` (mean squared gap between score and label), or None
    when the scores are not probabilities in [0, 1].

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> round(brier(load_sample("seed002_roc6"), "model"), 4)
    0.2183
    """
    s = ds.score(model)
    if not ((s >= 0) & (s <= 1)).all():
        return None
    return float(metrics.brier_score_loss(ds.y_true, s, sample_weight=ds.sample_weight))


def det(ds: Dataset, model: str) -> dict:
    """The DET curve of ``model``: false positive and false negative rates per threshold
    (:func:`metrics.det_curve`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> d = det(load_sample("seed002_roc6"), "model")
    >>> len(d["fpr"]) == len(d["fnr"]) == len(d["thresholds"])
    True
    """
    fpr, fnr, thresholds = metrics.det_curve(
        ds.y_true, ds.score(model), sample_weight=ds.sample_weight
    )
    return {"fpr": fpr, "fnr": fnr, "thresholds": thresholds}


# ------------------------------------------------------------------ the threshold controls
def _score_range(ds: Dataset) -> tuple[float, float]:
    """From min(0, lowest score) to max(1, highest score), nudged just above the highest
    score, so the right end predicts nothing positive (the +inf threshold of the curves
    and the candidates). When the highest score is the largest float, no float lies
    above it: the range ends at that score."""
    lows = [float(s.min()) for s in ds.scores.values()]
    high = max(float(s.max()) for s in ds.scores.values())
    above = math.nextafter(high, math.inf)
    return min(0.0, *lows), (1.0 if high < 1.0 else above if math.isfinite(above) else high)


def _slider_step(lo: float, hi: float) -> float | None:
    """0.01 on a range of at most 1, else the power of ten nearest below a hundredth of
    the range (1.0 for logits up to 150, 1e306 for scores up to 1e308). None when
    ``hi - lo`` overflows float64 (scores of -1e308 and 1e308): no slider spans that
    range, the page steps through the distinct scores instead."""
    span = hi - lo
    if not math.isfinite(span):
        return None
    if span <= 1:
        return 0.01
    return 10.0 ** math.floor(math.log10(span / 100))


def _box_format(ds: Dataset) -> str:
    """Four decimals for scores of ordinary size; six significant digits when every
    non-zero score is below 1e-3 (four decimals would show 0.0000) or some score
    reaches 1e9 (four decimals would show dozens of digits)."""
    sizes = np.concatenate([np.abs(s).ravel() for s in ds.scores.values()])
    nonzero = sizes[sizes > 0]
    if nonzero.size and (nonzero.max() < 1e-3 or nonzero.max() >= 1e9):
        return "%.6g"
    return "%.4f"


@dataclass(frozen=True, eq=False)
class ThresholdAxis:
    """The range the threshold controls span, and how they step through it.

    Attributes
    ----------
    lo, hi : float
        The range: from min(0, lowest score) to max(1, highest score), the right end
        just above the highest score (it predicts nothing positive) unless that score
        is the largest float.
    step : float or None
        The slider's step; None when ``hi - lo`` overflows float64: the slider then
        steps through ``stops``.
    stops : ndarray or None
        The model's distinct scores, ascending, when ``step`` is None.
    box_format : str
        The number box's format (``"%.4f"``, or ``"%.6g"`` for tiny or huge scores).
    """

    lo: float
    hi: float
    step: float | None
    stops: np.ndarray | None
    box_format: str

    @property
    def default(self) -> float:
        """The threshold before any setting: 0.5 when in range, else ``lo``."""
        return 0.5 if self.lo <= 0.5 <= self.hi else self.lo

    @property
    def slider_format(self) -> str | None:
        """``"%.4g"`` past 1e9 (not 309 digits of 1e308), else the slider's own."""
        return "%.4g" if max(-self.lo, self.hi) >= 1e9 else None

    @property
    def box_step(self) -> float:
        """The number box's step: 0.001 on ranges the slider steps by at most 1."""
        return 0.001 if self.step is not None and self.step <= 1 else (self.step or 1e306)

    @property
    def top(self) -> int:
        """The index slider's last position: ``len(stops)`` (above every score) when
        ``hi`` lies above the highest score, else the highest score's position."""
        return len(self.stops) if self.hi > self.stops[-1] else len(self.stops) - 1

    def clamp(self, t) -> float:
        """The threshold to use for ``t``: 0.5 for what is no finite number, then
        brought into [lo, hi]."""
        if not isinstance(t, int | float) or not math.isfinite(t):
            t = 0.5
        return min(max(float(t), self.lo), self.hi)

    def index_of(self, t: float) -> int:
        """The stop giving the same predictions as threshold ``t``: the lowest distinct
        score >= t, or ``len(stops)`` (above every score) when there is none."""
        return int(np.searchsorted(self.stops, t, side="left"))

    def at_index(self, i: int) -> float:
        """The threshold of index slider position ``i``: the i-th distinct score, or
        ``hi`` past them all."""
        return float(self.stops[i]) if i < len(self.stops) else self.hi


def threshold_axis(ds: Dataset, model: str) -> ThresholdAxis:
    """The threshold controls' range, steps and formats for ``model`` of ``ds``.

    The range covers every model's scores, so switching models keeps the threshold.

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.datasets import Dataset
    >>> from explorer.samples import load_sample
    >>> axis = threshold_axis(load_sample("seed002_roc6"), "model")
    >>> axis.lo, axis.hi, axis.step, axis.box_format, axis.default
    (0.0, 1.0, 0.01, '%.4f', 0.5)
    >>> axis.clamp(float("nan")), axis.clamp(7)
    (0.5, 1.0)
    >>> wide = Dataset("wide", "binary", np.array([0, 1, 1]), {"m": np.array([-1e308, 2.0, 1e308])})
    >>> axis = threshold_axis(wide, "m")
    >>> axis.step is None, axis.stops.tolist(), axis.top
    (True, [-1e+308, 2.0, 1e+308], 3)
    >>> axis.index_of(1.0), axis.at_index(1), axis.slider_format
    (1, 2.0, '%.4g')
    """
    lo, hi = _score_range(ds)
    step = _slider_step(lo, hi)
    stops = np.unique(ds.score(model)) if step is None else None
    return ThresholdAxis(lo, hi, step, stops, _box_format(ds))


# ------------------------------------------------------------------ candidate thresholds
def optima(
    ds: Dataset,
    model: str,
    beta: float,
    cost_fp: float,
    cost_fn: float,
    min_recall: float,
    min_precision: float,
    *,
    _counts=None,
) -> pd.DataFrame:
    """The best threshold of ``model`` for each goal of :data:`OPTIMIZERS`.

    ``_counts``: :func:`threshold_counts` of ``ds`` and ``model``, if already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> best = optima(load_sample("balanced"), "good", 1.0, 1.0, 1.0, 0.9, 0.9)
    >>> best.index.tolist() == list(OPTIMIZERS)
    True
    >>> best["threshold"].tolist()
    [0.485, 0.485, 0.485, 0.485, 0.515]
    >>> best.loc["min_cost", ["value", "fp", "fn"]].tolist()
    [18.0, 10.0, 8.0]
    """
    return metrics.optimal_thresholds_from_counts(
        threshold_counts(ds, model) if _counts is None else _counts,
        beta=beta,
        cost_fp=cost_fp,
        cost_fn=cost_fn,
        min_recall=min_recall,
        min_precision=min_precision,
    )


def candidates_table(best: pd.DataFrame) -> pd.DataFrame:
    """The table of candidate thresholds the page lists (and its CSV), from
    :func:`optima`: one row a goal, named by :data:`OPT_LABELS`.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> table = candidates_table(optima(load_sample("seed002_roc6"), "model", 1, 1, 1, 0.9, 0.9))
    >>> table.columns.tolist()
    ['criterion', 'threshold', 'value', 'precision', 'recall (TPR)', 'FPR', 'tp', 'fp', 'fn', 'tn']
    >>> table.loc["youden", ["criterion", "threshold", "value"]].to_dict()
    {'criterion': "Youden's J (max TPR - FPR)", 'threshold': 0.8, 'value': 1.0}
    """
    table = best.assign(
        criterion=[OPT_LABELS[k] for k in best.index],
        value=best["value"],
    )[["criterion", "threshold", "value", "precision", "tpr", "fpr", "tp", "fp", "fn", "tn"]]
    return table.rename(columns={"tpr": "recall (TPR)", "fpr": "FPR"})


def optimum_move(
    threshold: float, goal: str, hi: float, top_score: float
) -> tuple[str, float | None]:
    """The button that moves the operating point to a goal's best ``threshold``.

    Parameters
    ----------
    threshold : float
        The goal's best threshold (:func:`optima`): a score, +inf (predict nothing
        positive) or NaN (no threshold meets the constraint).
    goal : str
        One of :data:`OPTIMIZERS`.
    hi : float
        The threshold controls' right end (:attr:`ThresholdAxis.hi`).
    top_score : float
        The model's highest score.

    Returns
    -------
    label : str
        The button's label.
    target : float or None
        The threshold the button moves to; None: the button is disabled.

    Examples
    --------
    >>> optimum_move(0.8, "youden", 1.0, 0.9)
    ('Move the threshold to 0.8 (Youden J)', 0.8)
    >>> optimum_move(float("inf"), "min_cost", 1.0, 0.9)[1]
    1.0
    >>> optimum_move(float("nan"), "recall_at_least", 1.0, 0.9)
    ('No threshold meets the constraint', None)
    """
    if math.isfinite(threshold):
        return f"Move the threshold to {threshold:.4g} ({SHORT[goal]})", float(threshold)
    if threshold == math.inf and hi <= top_score:  # hi is the largest float
        return (
            f"{SHORT[goal]}: predict nothing positive, which needs a threshold above the "
            f"highest score {hi:.4g}; no float lies above it"
        ), None
    if threshold == math.inf:  # predict nothing: the slider's right end
        return (
            f"Move the threshold to {hi:.4g}, above every score ({SHORT[goal]}: +inf, "
            "predict nothing positive)"
        ), hi
    return "No threshold meets the constraint", None


def curve_bases(ds: Dataset, *, _curves: dict | None = None):
    """The ROC and PR figures of every model's (reduced) curves, without markers:
    drawn once per dataset (:func:`curve_figures` adds the markers to a copy).

    ``_curves``: :func:`curves` of every model, by name, if already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> roc, pr = curve_bases(load_sample("balanced"))
    >>> [tr.name for tr in roc.data]
    ['chance (random scores)', 'good (AUC 0.960)', 'weak (AUC 0.724)']
    >>> pr.data[0].name, pr.data[1].line.shape
    ('chance (prevalence 0.470)', 'hv')
    """
    if _curves is None:
        _curves = {m: curves(ds, m) for m in ds.model_names}
    y, w = ds.y_true, ds.sample_weight
    positive = y == 1
    prevalence = float(positive.mean()) if w is None else float(w[positive].sum() / w.sum())
    roc = charts.roc_base(
        [
            {"model": m, "fpr": c["fpr"], "tpr": c["tpr"], "thresholds": c["thresholds"]}
            | {"auc": c["auc"]}
            for m, c in _curves.items()
        ]
    )
    pr = charts.pr_base(
        [
            {"model": m, "recall": c["recall"], "precision": c["precision"]}
            | {"thresholds": c["pr_thresholds"], "ap": c["ap"]}
            for m, c in _curves.items()
        ],
        prevalence,
    )
    return roc, pr


def candidate_points(best: pd.DataFrame) -> pd.DataFrame:
    """:func:`optima` as the figures' candidate markers: ``label`` (:data:`SHORT`),
    ``threshold``, ``fpr``, ``tpr``, ``recall``, ``precision``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> points = candidate_points(optima(load_sample("seed002_roc6"), "model", 1, 1, 1, .9, .9))
    >>> points.loc["youden", "label"], points.loc["youden", ["threshold", "fpr", "recall"]].tolist()
    ('Youden J', [0.8, 0.0, 1.0])
    """
    points = best.assign(label=[SHORT[k] for k in best.index], recall=best["tpr"])
    return points[["label", "threshold", "fpr", "tpr", "recall", "precision"]]


def curve_figures(
    ds: Dataset,
    model: str,
    t: float,
    beta: float,
    cost_fp: float,
    cost_fn: float,
    min_recall: float,
    min_precision: float,
    *,
    _bases=None,
    _rates: dict | None = None,
    _optima: pd.DataFrame | None = None,
):
    """The ROC and PR figures: every model's (reduced) curves, the operating point of
    ``model`` at ``t`` and its candidate markers.

    ``_bases`` (:func:`curve_bases`), ``_rates`` (:func:`rates` at ``t``, ``beta``)
    and ``_optima`` (:func:`optima` at these settings): the same results, if already
    at hand. The bases are copied, never changed.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> roc, pr = curve_figures(load_sample("balanced"), "good", 0.5, 1.0, 1.0, 1.0, 0.9, 0.9)
    >>> [tr.name for tr in roc.data][1:3]
    ['good (AUC 0.960)', 'weak (AUC 0.724)']
    >>> roc.data[-1].name, pr.data[-1].name
    ('operating point (t = 0.5)', 'operating point (t = 0.5)')
    """
    roc_base, pr_base = curve_bases(ds) if _bases is None else _bases
    at_t = rates(ds, model, t, beta) if _rates is None else _rates
    if _optima is None:
        _optima = optima(ds, model, beta, cost_fp, cost_fn, min_recall, min_precision)
    points = candidate_points(_optima)
    operating = {k: at_t[k] for k in ("fpr", "tpr", "recall", "precision")} | {"threshold": t}
    return (
        charts.with_points(roc_base, "fpr", "tpr", operating, points),
        charts.with_points(pr_base, "recall", "precision", operating, points),
    )


# ------------------------------------------------------------------ the confusion matrix
def count_text(v: float) -> str:
    """A count as the page prints it: an integer, or a weighted count with its decimals.

    Examples
    --------
    >>> count_text(3.0), count_text(2.5)
    ('3', '2.500')
    """
    return str(int(v)) if float(v).is_integer() else fmt(v)


def confusion(at_t: dict, normalize: str) -> tuple[np.ndarray, np.ndarray, pd.DataFrame]:
    """The confusion matrix of the counts of :func:`rates`, normalized by ``normalize``.

    The matrix is built from the four (weighted) counts, one pseudo-sample per cell
    weighted by its count, so a million samples are not counted a second time.

    Parameters
    ----------
    at_t : dict
        :func:`rates` at the operating point.
    normalize : {"true", "pred", "all"}
        See :data:`NORMALIZE`.

    Returns
    -------
    counts, rates : ndarray of shape (2, 2)
        Rows actual 1, 0; columns predicted 1, 0.
    table : DataFrame
        The two as the page's table cells (``"TP 2 (100.0%)"``).

    Examples
    --------
    >>> counts, rates, table = confusion({"tp": 2.0, "fn": 0.0, "fp": 3.0, "tn": 1.0}, "true")
    >>> counts.tolist(), rates.tolist()
    ([[2.0, 0.0], [3.0, 1.0]], [[1.0, 0.0], [0.75, 0.25]])
    >>> table.iloc[1].tolist()
    ['FP 3 (75.0%)', 'TN 1 (25.0%)']
    """
    cm_args = ([1, 1, 0, 0], [1, 0, 1, 0])
    cm_w = [at_t["tp"], at_t["fn"], at_t["fp"], at_t["tn"]]
    counts = confusion_matrix(*cm_args, labels=[1, 0], sample_weight=cm_w)
    cm_rates = confusion_matrix(*cm_args, labels=[1, 0], sample_weight=cm_w, normalize=normalize)
    table = pd.DataFrame(
        {
            "predicted 1": [
                f"TP {count_text(counts[0, 0])} ({cm_rates[0, 0]:.1%})",
                f"FP {count_text(counts[1, 0])} ({cm_rates[1, 0]:.1%})",
            ],
            "predicted 0": [
                f"FN {count_text(counts[0, 1])} ({cm_rates[0, 1]:.1%})",
                f"TN {count_text(counts[1, 1])} ({cm_rates[1, 1]:.1%})",
            ],
        },
        index=["actual 1", "actual 0"],
    )
    return counts, cm_rates, table


# ------------------------------------------------------------------ the samples
def samples(ds: Dataset, model: str) -> dict:
    """The threshold-free per-sample columns and the orders the page lists samples in.

    Returns
    -------
    dict
        ``base``: :func:`metrics.per_sample_outcomes` without the threshold
        columns, in sample order; ``worst``: sample indices, worst log-loss term first;
        ``pos``/``neg``: the positives/negatives, highest score first, and
        ``pos_key``/``neg_key`` their negated scores (ascending), so the samples
        predicted positive at t are a prefix; ``pos_scores``/``neg_scores``: their
        scores ascending (the strip's histograms).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> got = samples(load_sample("seed002_roc6"), "model")
    >>> got["worst"].tolist(), got["pos"].tolist(), got["neg"].tolist()
    ([1, 3, 4, 5, 2, 0], [0, 2], [1, 3, 4, 5])
    >>> got["neg_scores"].tolist()
    [0.4, 0.5, 0.6, 0.7]
    """
    base = metrics.per_sample_outcomes(
        ds.y_true, ds.score(model), None, sample_weight=ds.sample_weight
    )
    worst = base.sort_values(
        ["log_loss_term", "score"], ascending=[False, False], na_position="last"
    ).index.to_numpy()
    key = -base["score"].to_numpy()
    by_score = np.argsort(key, kind="stable")
    positive = base["label"].to_numpy()[by_score] == 1
    pos, neg = by_score[positive], by_score[~positive]
    return {
        "base": base,
        "worst": worst,
        "pos": pos,
        "neg": neg,
        "pos_key": key[pos],
        "neg_key": key[neg],
        "pos_scores": -key[pos][::-1],
        "neg_scores": -key[neg][::-1],
    }


def sample_rows(ds: Dataset, listed: dict, idx: np.ndarray, t: float) -> pd.DataFrame:
    """The per-sample table of the samples ``idx`` (in that order) at threshold ``t``.

    ``listed``: :func:`samples` of ``ds`` and the model.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_roc6")
    >>> rows = sample_rows(ds, samples(ds, "model"), np.array([1, 0]), 0.65)
    >>> rows[["id", "score", "prediction", "outcome"]].values.tolist()
    [['2', 0.7, 1, 'FP'], ['1', 0.9, 1, 'TP']]
    """
    df = listed["base"].iloc[idx].reset_index(drop=True)
    df.insert(0, "id", [ds.sample_ids[i] for i in idx])
    if len(df):
        df.insert(4, "prediction", metrics.predict_at_threshold(df["score"], t))
        df.insert(5, "outcome", metrics.threshold_outcomes(df["label"], df["score"], t))
    else:
        df.insert(4, "prediction", np.zeros(0, dtype=np.int64))
        df.insert(5, "outcome", np.zeros(0, dtype=str))
    return df


def cell_samples(listed: dict, cell: str, t: float) -> np.ndarray:
    """The samples of one confusion-matrix ``cell`` (one of :data:`CELLS`) at ``t``,
    highest score first; ``listed``: :func:`samples`.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> listed = samples(load_sample("seed002_roc6"), "model")
    >>> cell_samples(listed, "FP", 0.55).tolist(), cell_samples(listed, "TN", 0.55).tolist()
    ([1, 3], [4, 5])
    """
    side = "pos" if cell in ("TP", "FN") else "neg"
    k = int(np.searchsorted(listed[f"{side}_key"], -t, side="right"))  # scores >= t
    return listed[side][:k] if cell in ("TP", "FP") else listed[side][k:]


def strip_figure(ds: Dataset, model: str, t: float, *, _samples: dict | None = None):
    """The samples along the score axis at threshold ``t``: one marker per sample
    (worst first, the order in which tied markers stack) up to :data:`STRIP_MARKERS`
    samples, else stacked histograms per outcome counted from the sorted scores.

    ``_samples``: :func:`samples` of ``ds`` and ``model``, if already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> fig = strip_figure(load_sample("seed002_roc6"), "model", 0.55)
    >>> sorted((tr.name.split(" ")[0], len(tr.x)) for tr in fig.data)
    [('FN', 0), ('FP', 2), ('TN', 2), ('TP', 2)]
    """
    listed = samples(ds, model) if _samples is None else _samples
    if ds.n_samples > STRIP_MARKERS:
        return charts.strip_histogram_figure(listed["pos_scores"], listed["neg_scores"], t)
    y, s = ds.y_true, ds.score(model)
    strip = listed["worst"]
    return charts.strip_figure(
        s[strip],
        y[strip],
        metrics.threshold_outcomes(y, s, t)[strip],
        t,
        ids=[ds.sample_ids[i] for i in strip],
        max_markers=STRIP_MARKERS,
    )


# ------------------------------------------------------------------ AUC four ways
def four_ways(ds: Dataset, model: str, n_bins: int = 100, *, _at_100: dict | None = None) -> dict:
    """:func:`metrics.auc_four_ways` at ``n_bins``.

    Only its histogram part depends on the bins, so the sorting ways are taken from
    ``n_bins = 100`` (``_at_100``: this function's result at 100 bins, if already at
    hand) and the histogram is recomputed as auc_four_ways does it.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> four = four_ways(load_sample("seed002_auc8"), "model", 2)
    >>> four["trapezoid"] == four["pairwise"] == four["rank"] == four["exact"]
    True
    >>> four["histogram_error"] == four["histogram"] - four["exact"]
    True
    """
    if _at_100 is None:
        _at_100 = metrics.auc_four_ways(
            ds.y_true, ds.score(model), n_bins=100, sample_weight=ds.sample_weight
        )
    out = dict(_at_100)
    if n_bins == 100 or out["histogram_message"]:  # the message is about the scores' range
        return out
    hist = metrics.auc_histogram(ds.y_true, ds.score(model), n_bins=n_bins)
    return {**out, "histogram": hist, "histogram_error": hist - out["exact"]}


def pairs(ds: Dataset, model: str) -> dict:
    """The positive/negative pairs: every one when there are at most
    :data:`PAIR_GRID_LIMIT`, else a uniform sample of :data:`PAIR_SAMPLE` (seed 0).

    Returns
    -------
    dict
        ``table`` (:func:`metrics.auc_pairs`), ``n_pairs`` (n+ x n-), ``full``
        (whether the table lists them all), ``wins`` and ``ties`` in the table.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> got = pairs(load_sample("seed002_auc8"), "model")
    >>> got["n_pairs"], got["full"], len(got["table"]) == got["n_pairs"]
    (15, True, True)
    """
    y = ds.y_true
    n_pairs = int((y == 1).sum()) * int((y == 0).sum())
    full = n_pairs <= PAIR_GRID_LIMIT
    table = metrics.auc_pairs(y, ds.score(model), max_pairs=None if full else PAIR_SAMPLE)
    outcome_counts = table["outcome"].value_counts()
    return {
        "table": table,
        "n_pairs": n_pairs,
        "full": full,
        "wins": int(outcome_counts.get("win", 0)),
        "ties": int(outcome_counts.get("tie", 0)),
    }


def rank_table(ds: Dataset, model: str) -> pd.DataFrame:
    """The mid-ranks of every sample, lowest score first (:func:`metrics.auc_rank_table`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> table = rank_table(load_sample("seed002_roc6"), "model")
    >>> table["mid_rank"].tolist(), table.attrs["rank_sum"]
    ([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], 11.0)
    """
    return metrics.auc_rank_table(ds.y_true, ds.score(model))


def rank_head(ds: Dataset, model: str) -> tuple[pd.DataFrame, int]:
    """The first :data:`MAX_ROWS` rows of :func:`rank_table` (with its ``attrs``) and
    its length.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> head, n = rank_head(load_sample("breast_cancer"), "logreg")
    >>> len(head), n, head.attrs["n_pos"] + head.attrs["n_neg"] == n
    (200, 228, True)
    """
    table = rank_table(ds, model)
    return table.head(MAX_ROWS), len(table)


def histogram_figure(ds: Dataset, model: str, n_bins: int):
    """The histogram way's figure: positives and negatives per equal-width bin.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> fig = histogram_figure(load_sample("seed002_roc6"), "model", 2)
    >>> [(tr.name, [int(v) for v in tr.y]) for tr in fig.data]
    [('positives', [0, 2]), ('negatives', [1, 3])]
    """
    return charts.histogram_auc_figure(ds.score(model), ds.y_true, n_bins)


# ------------------------------------------------------------------ the threshold table
def threshold_table(ds: Dataset, model: str, drop: bool, *, _counts=None) -> pd.DataFrame:
    """The ROC curve point by point: one row a threshold, +inf first
    (:func:`metrics.threshold_table_from_counts`); ``drop``: drop_intermediate.

    ``_counts``: :func:`threshold_counts` of ``ds`` and ``model``, if already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> table = threshold_table(load_sample("seed002_roc6"), "model", False)
    >>> table[["fpr", "tpr"]].values.tolist()[:4]
    [[0.0, 0.0], [0.0, 0.5], [0.0, 1.0], [0.25, 1.0]]
    """
    counts = threshold_counts(ds, model) if _counts is None else _counts
    return metrics.threshold_table_from_counts(counts, drop_intermediate=drop)


def threshold_head(
    ds: Dataset, model: str, drop: bool, *, _counts=None
) -> tuple[pd.DataFrame, int]:
    """The first :data:`MAX_ROWS` rows of :func:`threshold_table` and its length (the
    CSV builds the whole table on click).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> head, n = threshold_head(load_sample("breast_cancer"), "logreg", False)
    >>> len(head), n
    (200, 211)
    """
    counts = threshold_counts(ds, model) if _counts is None else _counts
    table = metrics.threshold_table_from_counts(counts, drop_intermediate=drop, max_rows=MAX_ROWS)
    return table, table.attrs["n_rows"]


# ------------------------------------------------------------------ log loss and calibration
def log_loss_values(ds: Dataset, model: str) -> tuple[float, float, str]:
    """The log loss of ``model``, its (weighted) sum of terms, and why there is none.

    Returns
    -------
    mean, total : float
        NaN when the scores are no probabilities.
    error : str
        Empty, or the reason the scores are no probabilities.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> mean, total, error = log_loss_values(load_sample("seed002_roc6"), "model")
    >>> round(mean, 4), round(total, 4), error
    (0.6088, 3.6527, '')
    """
    y, s, w = ds.y_true.astype(int), ds.score(model), ds.sample_weight
    try:
        return (
            log_loss(y, s, sample_weight=w, labels=[0, 1]),
            log_loss(y, s, sample_weight=w, labels=[0, 1], normalize=False),
            "",
        )
    except metrics.MetricInputError as exc:
        return math.nan, math.nan, str(exc)


def calibration(ds: Dataset, model: str, n_bins: int) -> pd.DataFrame:
    """The calibration table of ``model`` in ``n_bins`` equal-width bins
    (:func:`metrics.calibration_bins`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> calibration(load_sample("seed002_roc6"), "model", 2)["count"].tolist()
    [1, 5]
    """
    return metrics.calibration_bins(
        ds.y_true, ds.score(model), n_bins=n_bins, sample_weight=ds.sample_weight
    )


def calibration_figure(ds: Dataset, model: str, n_bins: int, *, _bins=None):
    """The reliability diagram of :func:`calibration` (``_bins``, if already at hand).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> fig = calibration_figure(load_sample("seed002_roc6"), "model", 2)
    >>> [int(v) for v in fig.data[2].y]
    [1, 5]
    """
    return charts.calibration_figure(calibration(ds, model, n_bins) if _bins is None else _bins)


# ------------------------------------------------------------------ the operating-point component
def operating_data(
    ds: Dataset,
    model: str,
    *,
    _curves: dict | None = None,
    _counts: tuple | None = None,
    _axis: ThresholdAxis | None = None,
) -> dict:
    """What the operating-point component (views/curves/operating_point.py) draws from, for
    ``model``, on a range a float slider spans (:attr:`ThresholdAxis.step` not None):
    the slider's positions and their texts, the (weighted) TP, FP, FN and TN of
    ``model`` at every position (:func:`metrics.counts_at`),
    every model's curves reduced for drawing, the prevalence and ``model``'s highest
    score. Plain JSON; the settings (threshold, β, the candidates) are added per run
    by :func:`operating_settings`.

    ``_curves`` (:func:`curves` of every model, by name), ``_counts``
    (:func:`threshold_counts` of ``model``: the counts are then one binary
    search in them, no sort) and ``_axis`` (:func:`threshold_axis`): the same
    results, if already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> data = operating_data(load_sample("seed002_roc6"), "model")
    >>> len(data["thresholds"]), data["labels"][65], data["tp"][65], data["fp"][65]
    (101, '0.65', 2, 1)
    >>> [line["name"] for line in data["lines"]], data["prevalence"]
    (['model'], 0.3333333333333333)
    """
    axis = threshold_axis(ds, model) if _axis is None else _axis
    if _curves is None:
        _curves = {m: curves(ds, m) for m in ds.model_names}
    ts, labels = op_charts.positions(axis.lo, axis.hi, axis.step)
    y, w = ds.y_true, ds.sample_weight
    cells = metrics.counts_at(threshold_counts(ds, model) if _counts is None else _counts, ts)
    # whole numbers without weights (the component prints counts as they come)
    counts = {
        k: (c if w is not None else c.astype(np.int64)).tolist()
        for k, c in zip(("tp", "fp", "fn", "tn"), cells, strict=True)
    }
    positive = y == 1
    prevalence = float(positive.mean()) if w is None else float(w[positive].sum() / w.sum())
    return {
        "id": f"{ds.cache_key}:{model}",
        "model": model,
        "thresholds": ts,
        "labels": labels,
        **counts,
        "lines": op_charts.curve_lines(list(_curves.values())),
        "prevalence": prevalence,
        "top": float(ds.score(model).max()),
    }


def operating_settings(t: float, beta: float, at_t: dict, best: pd.DataFrame, norm: str) -> dict:
    """The per-run part of the component's data: the threshold ``t`` (and its text),
    the counts there (``at_t``: :func:`rates`), β (its square, as
    :func:`metrics.rates_at_threshold` takes it), the candidate markers of
    :func:`optima` (``best``) and the confusion matrix's normalization ``norm``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_roc6")
    >>> best = optima(ds, "model", 2.0, 1, 1, 0.9, 0.9)
    >>> got = operating_settings(0.65, 2.0, rates(ds, "model", 0.65, 2.0), best, "true")
    >>> got["t_text"], got["b2"], got["at_t"], got["candidates"][0]["glyph"]
    ('0.65', 4.0, {'tp': 2.0, 'fp': 1.0, 'fn': 0.0, 'tn': 3.0}, '◆')
    """
    marks = op_charts.candidates(candidate_points(best))
    return {
        "t": float(t),
        "t_text": f"{t:.4g}",
        "at_t": {k: at_t[k] for k in ("tp", "fp", "fn", "tn")},
        "b2": float(beta) ** 2,
        "beta_text": f"{beta:g}",
        "candidates": marks,
        "candidates_id": repr([(m["label"], m["t"]) for m in marks]),
        "norm": norm,
        "norm_text": NORMALIZE[norm],
    }
