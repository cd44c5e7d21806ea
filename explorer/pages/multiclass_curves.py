"""The one-vs-rest curves of the Multiclass classification page: each class's ROC and
PR curve against the rest, the micro and macro curves, and the pairs behind one
class's AUC, as pure functions of a Dataset and a model (the numbers and tables are in
:mod:`explorer.pages.multiclass`).
"""

from __future__ import annotations

import numpy as np

import metrics
from explorer.datasets import Dataset
from explorer.pages import multiclass


def _drawn(x: np.ndarray, y: np.ndarray, most: int) -> tuple[np.ndarray, np.ndarray]:
    """A curve's vertices to draw (metrics.reduce_curve: at most about ``most``)."""
    keep = metrics.reduce_curve(x, y, max_points=most)
    return x[keep], y[keep]


def ovr_curves(ds: Dataset, model: str) -> dict:
    """Every one-vs-rest ROC and PR curve, the micro curves, and the macro ROC curve.

    Returns
    -------
    dict
        ``roc`` and ``pr``: per class (None when the class has no sample or every
        sample) and ``"micro"``, each a pair of arrays (x, y): (FPR, TPR) and (recall,
        precision); ``macro_roc``: the mean TPR of the defined classes on the union of
        their FPRs (a picture: the macro AUC is the mean of the AUCs, not this curve's
        area). Long curves are reduced to the vertices worth drawing
        (:func:`metrics.reduce_curve`: 1,500 per class, 4,000 for the averages).

    Examples
    --------
    >>> from explorer.pages.multiclass import _toy
    >>> c = ovr_curves(_toy(), "m")
    >>> c["roc"]["bird"][1].tolist(), len(c["macro_roc"][0]) > 0
    ([0.0, 1.0, 1.0], True)
    """
    _, _, s = multiclass.classes(ds, model)
    onehot, w = ds.y_true.astype(np.int64), ds.sample_weight
    roc, pr = {}, {}
    for j, name in enumerate(ds.label_names):
        y = onehot[:, j]
        if not multiclass.ovr_defined(y, w):
            roc[name] = pr[name] = None
            continue
        fpr, tpr, _ = metrics.roc_curve(y, s[:, j], sample_weight=w)
        prec, rec, _ = metrics.precision_recall_curve(y, s[:, j], sample_weight=w)
        roc[name], pr[name] = _drawn(fpr, tpr, 1500), _drawn(rec, prec, 1500)
    ww = None if w is None else np.repeat(w, ds.n_labels)
    fpr, tpr, _ = metrics.roc_curve(onehot.ravel(), s.ravel(), sample_weight=ww)
    prec, rec, _ = metrics.precision_recall_curve(onehot.ravel(), s.ravel(), sample_weight=ww)
    roc["micro"], pr["micro"] = _drawn(fpr, tpr, 4000), _drawn(rec, prec, 4000)
    defined = [roc[n] for n in ds.label_names if roc[n] is not None]
    grid = np.unique(np.concatenate([c[0] for c in defined])) if defined else np.array([0.0])
    mean_tpr = np.mean([np.interp(grid, *c) for c in defined], axis=0) if defined else np.zeros(1)
    return {"roc": roc, "pr": pr, "macro_roc": _drawn(grid, mean_tpr, 4000)}


def pair_counts(ds: Dataset, model: str, j: int) -> tuple[int, int, int, int]:
    """Class ``j`` against the rest: positives P, negatives N, and over the P x N
    (positive, negative) pairs the wins W (the positive scored higher) and ties T.

    ``(W + T / 2) / (P N)`` is the one-vs-rest ROC AUC of class j (unweighted).

    Examples
    --------
    >>> from explorer.pages.multiclass import _toy
    >>> pair_counts(_toy(), "m", 2)
    (1, 4, 4, 0)
    """
    y = ds.y_true[:, j] == 1
    s = ds.score(model)[:, j]
    neg = np.sort(s[~y])
    pos = s[y]
    below = np.searchsorted(neg, pos, side="left")
    tied = np.searchsorted(neg, pos, side="right") - below
    return int(y.sum()), int((~y).sum()), int(below.sum()), int(tied.sum())
