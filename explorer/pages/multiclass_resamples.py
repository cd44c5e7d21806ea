"""The Multiclass page's headline numbers on many bootstrap resamples at once.

:func:`explorer.pages.multiclass.headline_numbers` computes the eight numbers of one
set of rows with one ``metrics`` call each; a 95% interval needs them on 2,000
resamples, and 2,000 rounds of eleven calls took seconds even on 150 rows. Here a
block of resamples (the rows each one draws, as :func:`metrics.resample_rows` gives
them) is computed as arrays: the confusion matrices of every resample from one
``np.bincount``, the numbers read off them, the means of per-sample values (log loss,
top-k hits) from gathered rows, and each class's one-vs-rest AUC from each resample's
weight at every row, summed over runs of tied scores in that class's sorted order.
Each number follows the definition its ``metrics`` function uses (the tests compare
them with :func:`~explorer.pages.multiclass.headline_numbers`, resample by resample).
"""

from __future__ import annotations

import numpy as np

import metrics
from explorer.pages import multiclass as multiclass_model


def headline_resamples(y_true, y_score, sample_weight, *, k: int, rows: np.ndarray) -> dict:
    """The numbers of :func:`~explorer.pages.multiclass.headline_numbers` (same keys)
    for every resample of a block: resample ``r`` takes the rows ``rows[r]``.

    Each key holds one value per resample; NaN where ``headline_numbers`` gives None or
    NaN (log loss of a resample that drew a row whose scores are not probabilities, an
    AUC with no class defined, a mean of rows whose weights are all 0).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.pages.multiclass import _toy, headline_numbers
    >>> ds = _toy()
    >>> rows = np.array([[0, 1, 2, 3, 4], [0, 0, 2, 3, 1]])
    >>> got = headline_resamples(ds.y_true, ds.score(), None, k=2, rows=rows)
    >>> one = headline_numbers(ds.y_true[rows[1]], ds.score()[rows[1]], k=2)
    >>> bool(np.isclose(got["mcc"][1], one["mcc"])), float(got["accuracy"][0])
    (True, 0.6)
    """
    y = np.asarray(y_true).astype(np.int64)
    s = np.asarray(y_score, dtype=np.float64)
    t, p, K = y.argmax(axis=1), s.argmax(axis=1), y.shape[1]
    w = None if sample_weight is None else np.asarray(sample_weight, dtype=np.float64)
    cm, t_drawn, p_drawn = _confusion_matrices(t, p, K, w, rows)
    out = _from_confusion(cm, t_drawn | p_drawn)
    hits = (multiclass_model.true_rank(t, s) <= k).astype(float)
    out["top_k"] = _means(hits, w, rows)
    out["log_loss"] = _log_losses(t, s, K, w, rows)
    out["auc"] = _macro_auc(y, s, w, rows)
    return out


def _confusion_matrices(t, p, K: int, w, rows: np.ndarray):
    """Every resample's (weighted) confusion matrix, ``(resamples, K, K)``, and which
    classes each resample drew as a true class and as a predicted one (by count)."""
    b = rows.shape[0]
    first = np.arange(b)[:, None]
    cells = (first * (K * K) + t[rows] * K + p[rows]).ravel()
    weights = None if w is None else w[rows].ravel()
    cm = np.bincount(cells, weights=weights, minlength=b * K * K).astype(np.float64)
    cm = cm.reshape(b, K, K)
    if w is None:
        return cm, cm.sum(axis=2) > 0, cm.sum(axis=1) > 0
    drawn = np.bincount(cells, minlength=b * K * K).reshape(b, K, K)
    return cm, drawn.sum(axis=2) > 0, drawn.sum(axis=1) > 0


def _from_confusion(cm: np.ndarray, drawn: np.ndarray) -> dict:
    """Accuracy, balanced accuracy, macro F1 (over the classes ``drawn`` as true or
    predicted), MCC and Cohen's kappa of each confusion matrix, as ``metrics`` has them."""
    diag = np.diagonal(cm, axis1=1, axis2=2)
    support, predicted = cm.sum(axis=2), cm.sum(axis=1)
    total, correct = support.sum(axis=1), diag.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        has = support > 0
        balanced = np.where(has, diag / support, 0.0).sum(axis=1) / has.sum(axis=1)
        split = 2 * diag + (predicted - diag) + (support - diag)
        f1 = np.where(split > 0, 2 * diag / split, 0.0)
        macro_f1 = (f1 * drawn).sum(axis=1) / drawn.sum(axis=1)
        cov_tp = correct * total - (support * predicted).sum(axis=1)
        product = (total**2 - (predicted**2).sum(axis=1)) * (total**2 - (support**2).sum(axis=1))
        mcc = np.where(product == 0, 0.0, cov_tp / np.sqrt(product))
        # kappa = 1 - sum(w O) / sum(w E), w = 1 off the diagonal, E = outer margins / total
        chance = (total**2 - (predicted * support).sum(axis=1)) / total
        kappa = 1 - (total - correct) / chance
        kappa[(total == 0) | (chance == 0)] = np.nan
        accuracy = correct / total
    return {
        "accuracy": accuracy,
        "balanced": balanced,
        "macro_f1": macro_f1,
        "mcc": mcc,
        "kappa": kappa,
    }


def _means(values: np.ndarray, w, rows: np.ndarray) -> np.ndarray:
    """The (weighted) mean of per-sample ``values`` over each resample's rows
    (``np.average``'s arithmetic; NaN where a resample's weights sum to 0)."""
    if w is None:
        return values[rows].mean(axis=1)
    drawn = w[rows]
    with np.errstate(divide="ignore", invalid="ignore"):
        return (values[rows] * drawn).sum(axis=1) / drawn.sum(axis=1)


def _log_losses(t, s, K: int, w, rows: np.ndarray) -> np.ndarray:
    """Each resample's log loss; NaN where it drew a row whose scores are not
    probabilities (``headline_numbers`` gives None for such a resample)."""
    outside = ((s < 0) | (s > 1)).any(axis=1)
    off = np.abs(s.sum(axis=1) - 1) > multiclass_model.SUM_TOLERANCE
    bad = outside | off
    good = np.flatnonzero(~bad)
    if good.size == 0:
        return np.full(rows.shape[0], np.nan)
    terms = np.zeros(len(t))
    terms[good] = metrics.log_loss_per_sample(t[good], s[good], labels=np.arange(K))
    losses = _means(terms, w, rows)
    losses[bad[rows].any(axis=1)] = np.nan
    return losses


def _macro_auc(y: np.ndarray, s: np.ndarray, w, rows: np.ndarray) -> np.ndarray:
    """The mean one-vs-rest ROC AUC over the classes defined in each resample (a
    positive and a negative of some weight); NaN where none is."""
    b, n = rows.shape
    drawn = w[rows] if w is not None else None
    first = (np.arange(b)[:, None] * n + rows).ravel()
    weight = np.bincount(first, weights=None if drawn is None else drawn.ravel(), minlength=b * n)
    weight = weight.astype(np.float64).reshape(b, n)
    sums, defined = np.zeros(b), np.zeros(b)
    for j in range(y.shape[1]):  # a few classes; each is vectorized over rows
        auc = _ovr_auc(y[:, j] == 1, s[:, j], weight)
        ok = np.isfinite(auc)
        sums += np.where(ok, auc, 0.0)
        defined += ok
    with np.errstate(divide="ignore", invalid="ignore"):
        return sums / defined


def _ovr_auc(positive: np.ndarray, score: np.ndarray, weight: np.ndarray) -> np.ndarray:
    """One class's ROC AUC in each resample, from each row's weight there: the weight
    of (positive, negative) pairs in order, ties counted half; NaN without a positive
    or a negative of some weight."""
    order = np.argsort(score, kind="stable")
    sorted_score = score[order]
    runs = np.flatnonzero(np.r_[True, sorted_score[1:] != sorted_score[:-1]])
    laid = weight[:, order]
    pos = np.add.reduceat(np.where(positive[order], laid, 0.0), runs, axis=1)
    neg = np.add.reduceat(np.where(positive[order], 0.0, laid), runs, axis=1)
    below = np.cumsum(neg, axis=1) - neg
    pairs = pos.sum(axis=1) * neg.sum(axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        auc = (pos * (below + 0.5 * neg)).sum(axis=1) / pairs
    auc[pairs <= 0] = np.nan
    return auc
