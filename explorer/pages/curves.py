"""The ROC & PR curves page model: one binary Dataset and the page's settings in, the
curves, the numbers at the operating point, the candidate thresholds, the confusion
matrix and the operating-point component's data out (no streamlit).

The other numbers of the page are in :mod:`explorer.pages.curves_threshold` (the
threshold controls' range), :mod:`explorer.pages.curves_samples` (the samples listed at
a threshold) and :mod:`explorer.pages.curves_teach` (the teaching tabs' numbers). The
view (``views/curves/``) calls these through their cached declarations in
:mod:`explorer.ui.cache.curves`. A function that can reuse another's result (the one
sort of :func:`threshold_counts`, the curves of every model) takes it as an ordinary
argument; without it, the function computes it itself.
"""

from __future__ import annotations

import math
import warnings

import numpy as np
import pandas as pd

import metrics
from explorer.charts import curves as charts
from explorer.charts import operating_point as op_charts
from explorer.datasets import Dataset
from explorer.formatting import count
from explorer.i18n import Phrase
from explorer.pages import curves_threshold
from metrics import OPTIMIZERS, confusion_matrix, log_loss

MAX_POINTS = 4000  # vertices drawn per curve at most (see metrics.reduce_curve)
MAX_ROWS = 200  # rows shown of a long table; the CSV holds them all
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
    "RATE_LABELS",
    "SHORT",
    "candidate_points",
    "candidates_table",
    "cell_scores",
    "confusion",
    "curve_bases",
    "curve_figures",
    "curves",
    "log_loss_values",
    "operating_data",
    "operating_settings",
    "optima",
    "optimum_move",
    "rates",
    "sorted_scores",
    "step_vertices",
    "threshold_counts",
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


def rates(ds: Dataset, model: str, t: float, beta: float, by_class: tuple | None = None) -> dict:
    """Every count and rate of ``model`` at threshold ``t`` (score >= t is positive):
    :func:`metrics.rates_at_threshold`, and ``n``, the (weighted) number of
    samples TP + FP + FN + TN.

    ``by_class``: :func:`sorted_scores` of ``ds`` and ``model``. Without sample weights
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
    >>> rates(ds, "model", 0.65, 1.0, sorted_scores(ds, "model")) == r
    True
    """
    if by_class is not None and ds.sample_weight is None:
        pos, neg = by_class
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


# ------------------------------------------------------------------ the confusion matrix
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
                f"TP {count(counts[0, 0], grouped=False)} ({cm_rates[0, 0]:.1%})",
                f"FP {count(counts[1, 0], grouped=False)} ({cm_rates[1, 0]:.1%})",
            ],
            "predicted 0": [
                f"FN {count(counts[0, 1], grouped=False)} ({cm_rates[0, 1]:.1%})",
                f"TN {count(counts[1, 1], grouped=False)} ({cm_rates[1, 1]:.1%})",
            ],
        },
        index=["actual 1", "actual 0"],
    )
    return counts, cm_rates, table


# ------------------------------------------------------------------ candidate thresholds
def optima(
    ds: Dataset,
    model: str,
    beta: float,
    cost_fp: float,
    cost_fn: float,
    min_recall: float,
    min_precision: float,
    counts: tuple | None = None,
) -> pd.DataFrame:
    """The best threshold of ``model`` for each goal of :data:`OPTIMIZERS`.

    ``counts``: :func:`threshold_counts` of ``ds`` and ``model``, if already at hand.

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
        threshold_counts(ds, model) if counts is None else counts,
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
        The threshold controls' right end
        (:attr:`~explorer.pages.curves_threshold.ThresholdAxis.hi`).
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
    name = Phrase(SHORT[goal])
    if math.isfinite(threshold):
        return Phrase("Move the threshold to ${t:.4g} (${goal})", t=threshold, goal=name), float(
            threshold
        )
    if threshold == math.inf and hi <= top_score:  # hi is the largest float
        return Phrase(
            "${goal}: predict nothing positive, which needs a threshold above the highest "
            "score ${hi:.4g}; no float lies above it",
            goal=name,
            hi=hi,
        ), None
    if threshold == math.inf:  # predict nothing: the slider's right end
        return Phrase(
            "Move the threshold to ${hi:.4g}, above every score (${goal}: +inf, predict "
            "nothing positive)",
            hi=hi,
            goal=name,
        ), hi
    return Phrase("No threshold meets the constraint"), None


def curve_bases(ds: Dataset, by_model: dict | None = None):
    """The ROC and PR figures of every model's (reduced) curves, without markers:
    drawn once per dataset (:func:`curve_figures` adds the markers to a copy).

    ``by_model``: :func:`curves` of every model, by name, if already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> roc, pr = curve_bases(load_sample("balanced"))
    >>> [tr.name for tr in roc.data]
    ['chance (random scores)', 'good (AUC 0.960)', 'weak (AUC 0.724)']
    >>> pr.data[0].name, pr.data[1].line.shape
    ('chance (prevalence 0.470)', 'hv')
    """
    if by_model is None:
        by_model = {m: curves(ds, m) for m in ds.model_names}
    y, w = ds.y_true, ds.sample_weight
    positive = y == 1
    prevalence = float(positive.mean()) if w is None else float(w[positive].sum() / w.sum())
    roc = charts.roc_base(
        [
            {"model": m, "fpr": c["fpr"], "tpr": c["tpr"], "thresholds": c["thresholds"]}
            | {"auc": c["auc"]}
            for m, c in by_model.items()
        ]
    )
    pr = charts.pr_base(
        [
            {"model": m, "recall": c["recall"], "precision": c["precision"]}
            | {"thresholds": c["pr_thresholds"], "ap": c["ap"]}
            for m, c in by_model.items()
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


def curve_figures(bases: tuple, t: float, at_t: dict, best: pd.DataFrame) -> tuple:
    """The ROC and PR figures: every model's (reduced) curves, the operating point at
    ``t`` and the candidate markers.

    ``bases``: :func:`curve_bases` (copied, never changed); ``at_t``: :func:`rates` at
    ``t``; ``best``: :func:`optima` of the model at the page's settings.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("balanced")
    >>> best = optima(ds, "good", 1.0, 1.0, 1.0, 0.9, 0.9)
    >>> roc, pr = curve_figures(curve_bases(ds), 0.5, rates(ds, "good", 0.5, 1.0), best)
    >>> [tr.name for tr in roc.data][1:3]
    ['good (AUC 0.960)', 'weak (AUC 0.724)']
    >>> roc.data[-1].name, pr.data[-1].name
    ('operating point (t = 0.5)', 'operating point (t = 0.5)')
    """
    roc_base, pr_base = bases
    points = candidate_points(best)
    operating = {k: at_t[k] for k in ("fpr", "tpr", "recall", "precision")} | {"threshold": t}
    return (
        charts.with_points(roc_base, "fpr", "tpr", operating, points),
        charts.with_points(pr_base, "recall", "precision", operating, points),
    )


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


# ------------------------------------------------------------------ the operating-point component
def operating_data(
    ds: Dataset,
    model: str,
    by_model: dict | None = None,
    counts: tuple | None = None,
    axis: curves_threshold.ThresholdAxis | None = None,
) -> dict:
    """What the operating-point component (views/curves/operating_point.py) draws from, for
    ``model``, on a range a float slider spans
    (:attr:`~explorer.pages.curves_threshold.ThresholdAxis.step` not None):
    the slider's positions and their texts, the (weighted) TP, FP, FN and TN of
    ``model`` at every position (:func:`metrics.counts_at`), the distinct scores the
    arrow keys step through with their counts (:func:`~explorer.charts.operating_point.stops`),
    the scores of each class binned for the distribution the threshold is dragged over,
    every model's curves reduced for drawing (``model``'s vertices with their counts,
    so a click on one moves the matrix in the browser), the prevalence and ``model``'s
    highest score. Plain JSON; the settings (threshold, β, the candidates) are added per run
    by :func:`operating_settings`.

    ``by_model`` (:func:`curves` of every model, by name), ``counts``
    (:func:`threshold_counts` of ``model``: the counts are then one binary
    search in them, no sort) and ``axis``
    (:func:`~explorer.pages.curves_threshold.threshold_axis`): the same results, if
    already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> data = operating_data(load_sample("seed002_roc6"), "model")
    >>> len(data["thresholds"]), data["labels"][65], data["tp"][65], data["fp"][65]
    (101, '0.65', 2, 1)
    >>> [line["name"] for line in data["lines"]], data["prevalence"]
    (['model'], 0.3333333333333333)
    >>> data["stops"]["labels"], data["stops"]["tp"][2], data["stops"]["fp"][2]
    (['0.4', '0.5', '0.6', '0.7', '0.8', '0.9', '1'], 2.0, 2.0)
    >>> data["lines"][0]["roc"]["t"][2], data["lines"][0]["roc"]["counts"]["fp"][2]
    (0.8, 0.0)
    """
    axis = curves_threshold.threshold_axis(ds, model) if axis is None else axis
    if by_model is None:
        by_model = {m: curves(ds, m) for m in ds.model_names}
    ts, labels = op_charts.positions(axis.lo, axis.hi, axis.step)
    y, w = ds.y_true, ds.sample_weight
    counts = threshold_counts(ds, model) if counts is None else counts
    cells = metrics.counts_at(counts, ts)
    # whole numbers without weights (the component prints counts as they come)
    at_positions = {
        k: (c if w is not None else c.astype(np.int64)).tolist()
        for k, c in zip(("tp", "fp", "fn", "tn"), cells, strict=True)
    }
    positive = y == 1
    prevalence = float(positive.mean()) if w is None else float(w[positive].sum() / w.sum())
    lines = op_charts.curve_lines(list(by_model.values()))
    for line in lines:  # the selected model's vertices carry their counts (a click)
        if line["name"] == model:
            for kind in ("roc", "pr"):
                line[kind]["counts"] = op_charts.vertex_counts(line[kind], counts)
    score = ds.score(model)
    return {
        "id": f"{ds.cache_key}:{model}",
        "model": model,
        "thresholds": ts,
        "labels": labels,
        **at_positions,
        "stops": op_charts.stops(counts, axis.hi),
        "dist": op_charts.distribution(y, score, w, axis.lo, axis.hi),
        "lines": lines,
        "prevalence": prevalence,
        "top": float(score.max()),
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
