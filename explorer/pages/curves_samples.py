"""The samples of the ROC & PR curves page at a threshold: their orders, the per-sample
table, the samples of one confusion-matrix cell and the samples along the score axis
(no streamlit).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import metrics
from explorer.charts import curves_samples as charts
from explorer.datasets import Dataset

STRIP_MARKERS = 3000  # strip_figure's max_markers: beyond, histograms per outcome

__all__ = ["STRIP_MARKERS", "cell_samples", "sample_rows", "samples", "strip_figure"]


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


def strip_figure(ds: Dataset, model: str, t: float, listed: dict | None = None):
    """The samples along the score axis at threshold ``t``: one marker per sample
    (worst first, the order in which tied markers stack) up to :data:`STRIP_MARKERS`
    samples, else stacked histograms per outcome counted from the sorted scores.

    ``listed``: :func:`samples` of ``ds`` and ``model``, if already at hand.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> fig = strip_figure(load_sample("seed002_roc6"), "model", 0.55)
    >>> sorted((tr.name.split(" ")[0], len(tr.x)) for tr in fig.data)
    [('FN', 0), ('FP', 2), ('TN', 2), ('TP', 2)]
    """
    listed = samples(ds, model) if listed is None else listed
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
