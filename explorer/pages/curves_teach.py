"""The numbers of the ROC & PR curves page's teaching tabs: AUC four ways (the pairs,
the ranks, the histogram), the ROC curve point by point, calibration, the Brier score
and the DET curve (no streamlit).
"""

from __future__ import annotations

import pandas as pd

import metrics
from explorer.charts import curves_teach as charts
from explorer.datasets import Dataset
from explorer.pages import curves
from explorer.pages.curves import MAX_ROWS

PAIR_GRID_LIMIT = 2500  # n+ x n- pairs drawn as a full grid; beyond, a uniform sample
PAIR_SAMPLE = 2000

__all__ = [
    "PAIR_GRID_LIMIT",
    "PAIR_SAMPLE",
    "brier",
    "calibration",
    "calibration_figure",
    "det",
    "four_ways",
    "histogram_figure",
    "pairs",
    "rank_head",
    "rank_table",
    "threshold_head",
    "threshold_table",
]


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


# ------------------------------------------------------------------ AUC four ways
def four_ways(ds: Dataset, model: str, n_bins: int = 100, at_100: dict | None = None) -> dict:
    """:func:`metrics.auc_four_ways` at ``n_bins``.

    Only its histogram part depends on the bins, so the sorting ways are taken from
    ``n_bins = 100`` (``at_100``: this function's result at 100 bins, if already at
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
    if at_100 is None:
        at_100 = metrics.auc_four_ways(
            ds.y_true, ds.score(model), n_bins=100, sample_weight=ds.sample_weight
        )
    out = dict(at_100)
    if n_bins == 100 or out["histogram_message"]:  # the message is about the scores' range
        return out
    hist = metrics.auc_histogram(ds.y_true, ds.score(model), n_bins=n_bins)
    return {**out, "histogram": hist, "histogram_error": hist - out["exact"]}


def pairs(ds: Dataset, model: str) -> dict:
    """The positive/negative pairs: every one when there are at most
    :data:`PAIR_GRID_LIMIT`, else a uniform sample of :data:`PAIR_SAMPLE` (random seed 0).

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
def threshold_table(
    ds: Dataset, model: str, drop: bool, counts: tuple | None = None
) -> pd.DataFrame:
    """The ROC curve point by point: one row a threshold, +inf first
    (:func:`metrics.threshold_table_from_counts`); ``drop``: drop_intermediate.

    ``counts``: :func:`~explorer.pages.curves.threshold_counts` of ``ds`` and
    ``model``, if already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> table = threshold_table(load_sample("seed002_roc6"), "model", False)
    >>> table[["fpr", "tpr"]].values.tolist()[:4]
    [[0.0, 0.0], [0.0, 0.5], [0.0, 1.0], [0.25, 1.0]]
    """
    counts = curves.threshold_counts(ds, model) if counts is None else counts
    return metrics.threshold_table_from_counts(counts, drop_intermediate=drop)


def threshold_head(
    ds: Dataset, model: str, drop: bool, counts: tuple | None = None
) -> tuple[pd.DataFrame, int]:
    """The first :data:`MAX_ROWS` rows of :func:`threshold_table` and its length (the
    CSV builds the whole table on click); ``counts`` as for :func:`threshold_table`.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> head, n = threshold_head(load_sample("breast_cancer"), "logreg", False)
    >>> len(head), n
    (200, 211)
    """
    counts = curves.threshold_counts(ds, model) if counts is None else counts
    table = metrics.threshold_table_from_counts(counts, drop_intermediate=drop, max_rows=MAX_ROWS)
    return table, table.attrs["n_rows"]


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


def calibration_figure(ds: Dataset, model: str, n_bins: int, bins: pd.DataFrame | None = None):
    """The reliability diagram of :func:`calibration` (``bins``, if already at hand).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> fig = calibration_figure(load_sample("seed002_roc6"), "model", 2)
    >>> [int(v) for v in fig.data[2].y]
    [1, 5]
    """
    return charts.calibration_figure(calibration(ds, model, n_bins) if bins is None else bins)
