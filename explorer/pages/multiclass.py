"""The Multiclass classification page's model: every number, table and curve the page
shows, as pure functions of a Dataset and the settings.

A multiclass Dataset holds ``y_true`` one-hot (N x K) and, per model, an N x K matrix of
probabilities (or scores), one column per class (:mod:`explorer.datasets`). The
predicted class is the column of the largest score (the first of tied columns, as
``numpy.argmax``). The settings are ``model``, ``k`` (top-k accuracy), ``norm`` (the
confusion matrix's normalization) and ``average`` (macro, weighted or micro, for the
one-vs-rest curves). The one-vs-rest curves are in
:mod:`explorer.pages.multiclass_curves`; the cached versions the page calls are
declared in :mod:`explorer.ui.cache.multiclass`.
"""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd

import metrics
from explorer import downloads
from explorer.datasets import Dataset
from explorer.i18n import Phrase

#: Confusion matrix normalization: URL value -> (metrics' ``normalize``, what it shows).
NORMALIZE = {
    "none": (None, "counts"),
    "true": ("true", "÷ row (recall)"),
    "pred": ("pred", "÷ column (precision)"),
    "all": ("all", "÷ all"),
}
#: One-vs-rest averages: key -> what it does.
AVERAGES = {
    "macro": "the plain mean over classes",
    "weighted": "the mean over classes, each weighted by its number of samples",
    "micro": "one curve of all N x K (sample, class) pairs",
}
#: How far a row's sum may be from 1 for the scores to be read as probabilities.
SUM_TOLERANCE = 1e-3
#: Rows of a table shown on screen (the CSVs hold them all).
SHOWN_ROWS = 200


def _toy() -> Dataset:
    """The dataset of the examples: 5 samples, classes cat, dog, bird."""
    t = np.array([0, 1, 2, 1, 0])
    s = np.array(
        [
            [0.7, 0.2, 0.1],
            [0.2, 0.5, 0.3],
            [0.1, 0.3, 0.6],
            [0.5, 0.2, 0.3],
            [0.3, 0.6, 0.1],
        ]
    )
    return Dataset("toy", "multiclass", np.eye(3)[t], {"m": s}, label_names=("cat", "dog", "bird"))


def classes(ds: Dataset, model: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Each sample's true class, predicted class (argmax) and score matrix.

    Examples
    --------
    >>> t, p, s = classes(_toy(), "m")
    >>> t.tolist(), p.tolist()
    ([0, 1, 2, 1, 0], [0, 1, 2, 0, 1])
    """
    s = ds.score(model)
    return ds.y_true.argmax(axis=1), s.argmax(axis=1), s


def probability_problem(s: np.ndarray) -> str | None:
    """Why the scores are not probabilities (a sentence), or None when they are.

    Probabilities lie in [0, 1] and each row sums to 1 (within SUM_TOLERANCE).

    Examples
    --------
    >>> import numpy as np
    >>> probability_problem(np.array([[0.2, 0.8], [0.5, 0.5]])) is None
    True
    >>> probability_problem(np.array([[2.0, -1.0]]))
    'sample 0 has the score 2 (probabilities lie in [0, 1])'
    >>> probability_problem(np.array([[0.2, 0.7]]))
    'the scores of sample 0 sum to 0.9 (probabilities sum to 1)'
    """
    outside = (s < 0) | (s > 1)
    if outside.any():
        i, j = (int(v) for v in np.argwhere(outside)[0])
        return Phrase(
            "sample ${i} has the score ${score} (probabilities lie in [0, 1])",
            i=i,
            score=f"{s[i, j]:g}",
        )
    off = np.abs(s.sum(axis=1) - 1) > SUM_TOLERANCE
    if off.any():
        i = int(np.argmax(off))
        return Phrase(
            "the scores of sample ${i} sum to ${total} (probabilities sum to 1)",
            i=i,
            total=f"{s[i].sum():g}",
        )
    return None


def true_rank(t: np.ndarray, s: np.ndarray) -> np.ndarray:
    """The rank of each sample's true class among its scores (1 = the highest).

    Ties as scikit-learn's ``top_k_accuracy_score``: among equal scores the higher
    column ranks first.

    Examples
    --------
    >>> import numpy as np
    >>> true_rank(np.array([0, 2]), np.array([[0.5, 0.5, 0.0], [0.2, 0.3, 0.5]])).tolist()
    [2, 1]
    """
    own = s[np.arange(len(t)), t][:, None]
    cols = np.arange(s.shape[1])[None, :]
    above = (s > own) | ((s == own) & (cols > t[:, None]))
    return 1 + above.sum(axis=1)


def _quiet(func, *args, **kwargs):
    """Call a metric without its warnings (the page states undefined values itself)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return func(*args, **kwargs)


def ovr_defined(y: np.ndarray, w) -> bool:
    """Whether a class against the rest has a positive and a negative (of some weight,
    with weights ``w``): else its one-vs-rest AUC and AP are undefined.

    Examples
    --------
    >>> import numpy as np
    >>> ovr_defined(np.array([1, 0, 1]), None), ovr_defined(np.array([1, 1]), None)
    (True, False)
    >>> ovr_defined(np.array([1, 0]), np.array([1.0, 0.0]))
    False
    """
    if y.all() or not y.any():
        return False
    return w is None or bool(w[y == 1].any() and w[y == 0].any())


def _binary_or_nan(func, y: np.ndarray, s: np.ndarray, w) -> float:
    """A one-vs-rest value, NaN when the class has no positive or no negative."""
    if not ovr_defined(y, w):
        return float("nan")
    return float(_quiet(func, y, s, sample_weight=w))


def class_table(ds: Dataset, model: str) -> pd.DataFrame:
    """One row per class: its counts, precision, recall, F1 and one-vs-rest AUC and AP.

    ``support`` is the (weighted) number of samples of the class, ``predicted`` how
    many are predicted as it; ``roc_auc`` and ``ap`` are NaN for a class with no
    sample (or every sample).

    Examples
    --------
    >>> t = class_table(_toy(), "m")
    >>> t["class"].tolist(), t["tp"].tolist(), t["f1"].round(4).tolist()
    (['cat', 'dog', 'bird'], [1.0, 1.0, 1.0], [0.5, 0.5, 1.0])
    """
    t, p, s = classes(ds, model)
    K, w = ds.n_labels, ds.sample_weight
    cm = metrics.confusion_matrix(t, p, labels=np.arange(K), sample_weight=w).astype(float)
    tp, support, predicted, precision, recall, f1 = _per_class(cm)
    fp, fn = predicted - tp, support - tp
    onehot = ds.y_true.astype(np.int64)
    auc = _ovr_aucs(onehot, s, w)
    ap = [
        _binary_or_nan(metrics.average_precision_score, onehot[:, j], s[:, j], w) for j in range(K)
    ]
    return pd.DataFrame(
        {
            "class": list(ds.label_names),
            "support": support,
            "predicted": predicted,
            "tp": tp,
            "fp": fp,
            "fn": fn,
            "precision": precision,
            "recall": recall,
            "f1": f1,
            "roc_auc": auc,
            "ap": ap,
        }
    )


def _per_class(cm: np.ndarray):
    """``tp, support, predicted, precision, recall, f1`` per class of a confusion matrix
    (0 where a ratio is 0/0)."""
    tp, support, predicted = np.diag(cm), cm.sum(axis=1), cm.sum(axis=0)
    fp, fn = predicted - tp, support - tp
    with np.errstate(invalid="ignore", divide="ignore"):
        precision = np.where(predicted > 0, tp / predicted, 0.0)
        recall = np.where(support > 0, tp / support, 0.0)
        f1 = np.where(2 * tp + fp + fn > 0, 2 * tp / (2 * tp + fp + fn), 0.0)
    return tp, support, predicted, precision, recall, f1


def _ovr_aucs(onehot: np.ndarray, s: np.ndarray, w) -> list[float]:
    """Each class's one-vs-rest ROC AUC (NaN where the class has no sample or every one)."""
    return [
        _binary_or_nan(metrics.roc_auc_score, onehot[:, j], s[:, j], w)
        for j in range(onehot.shape[1])
    ]


#: The headline's numbers (:func:`headline_numbers`): key -> its label on the page
#: (``{k}``: the k of top-k accuracy).
HEADLINE = {
    "accuracy": "Accuracy",
    "balanced": "Balanced accuracy",
    "macro_f1": "Macro F1",
    "mcc": "MCC",
    "kappa": "Cohen's kappa",
    "log_loss": "Log loss",
    "top_k": "Top-{k} accuracy",
    "auc": "Macro ROC AUC (OvR)",
}


def headline_numbers(y_true, y_score, sample_weight=None, *, k: int) -> dict:
    """The eight headline numbers of :func:`summary` from the arrays alone (keys of
    :data:`HEADLINE`), so that a bootstrap resample of the rows gets them the page's way.

    ``log_loss`` is None when the scores are not probabilities; ``auc`` (the macro
    one-vs-rest ROC AUC) averages the classes whose AUC is defined (NaN if none is).

    Examples
    --------
    >>> ds = _toy()
    >>> got = headline_numbers(ds.y_true, ds.score(), k=2)
    >>> res = summary(ds, "m", 2)
    >>> got["top_k"] == res["top_k"], got["auc"] == res["auc"]["macro"]
    (True, True)
    """
    y = np.asarray(y_true).astype(np.int64)
    s = np.asarray(y_score, dtype=np.float64)
    t, p, K, w = y.argmax(axis=1), s.argmax(axis=1), y.shape[1], sample_weight
    cm = metrics.confusion_matrix(t, p, labels=np.arange(K), sample_weight=w).astype(float)
    f1 = _per_class(cm)[5]
    aucs = np.array(_ovr_aucs(y, s, w))
    defined = ~np.isnan(aucs)
    hits = (true_rank(t, s) <= k).astype(float)
    return {
        "accuracy": float(metrics.accuracy_score(t, p, sample_weight=w)),
        "balanced": float(_quiet(metrics.balanced_accuracy_score, t, p, sample_weight=w)),
        "macro_f1": float(f1[np.union1d(t, p)].mean()),
        "mcc": float(_quiet(metrics.matthews_corrcoef, t, p, sample_weight=w)),
        "kappa": float(_quiet(metrics.cohen_kappa_score, t, p, sample_weight=w)),
        "log_loss": None
        if probability_problem(s)
        else float(_quiet(metrics.log_loss, t, s, labels=np.arange(K), sample_weight=w)),
        "top_k": float(np.average(hits, weights=w)),
        "auc": float(aucs[defined].mean()) if defined.any() else float("nan"),
    }


def summary(ds: Dataset, model: str, k: int) -> dict:
    """Every headline number of the page: :func:`base_summary` and top-k accuracy.

    Examples
    --------
    >>> res = summary(_toy(), "m", 2)
    >>> round(res["accuracy"], 4), round(res["macro_f1"], 4), res["top_k"]
    (0.6, 0.6667, 0.8)
    >>> round(res["log_loss"], 4), round(res["auc"]["macro"], 4)
    (0.8748, 0.75)
    """
    t, _, s = classes(ds, model)
    return with_top_k(base_summary(ds, model), true_rank(t, s), ds.sample_weight, k)


def with_top_k(base: dict, rank: np.ndarray, weights, k: int) -> dict:
    """``base`` (:func:`base_summary`) with ``top_k`` (the weighted share of samples
    whose true class ranks k or better) and ``k``: moving k redoes only this mean.

    Examples
    --------
    >>> import numpy as np
    >>> with_top_k({}, np.array([1, 3, 2]), None, 2)
    {'top_k': 0.6666666666666666, 'k': 2}
    """
    hits = (np.asarray(rank) <= k).astype(float)
    return {**base, "top_k": float(np.average(hits, weights=weights)), "k": int(k)}


def base_summary(ds: Dataset, model: str) -> dict:
    """Every headline number of the page and what it is computed from.

    Everything but top-k accuracy (:func:`summary` adds it): k moves without
    recomputing these.

    Parameters
    ----------
    ds : Dataset
        A multiclass dataset.
    model : str

    Returns
    -------
    dict
        ``accuracy``, ``balanced``, ``macro_f1``, ``mcc``, ``kappa``,
        ``log_loss`` (None when the scores are not probabilities), ``not_proba`` (why,
        or None), ``auc`` and ``ap`` (macro, weighted, micro one-vs-rest), ``ovo``
        (macro and weighted one-vs-one AUC, None with sample weights), ``cm`` (the
        weighted counts), ``classes`` (:func:`class_table`), ``present`` (the classes
        in y_true or predicted: the ones macro F1 averages), ``auc_missing`` (classes
        whose one-vs-rest AUC is undefined).

    Examples
    --------
    >>> res = base_summary(_toy(), "m")
    >>> round(res["mcc"], 4), res["auc_missing"]
    (0.375, [])
    """
    t, p, s = classes(ds, model)
    K, w = ds.n_labels, ds.sample_weight
    table = class_table(ds, model)
    present = np.union1d(t, p)
    not_proba = probability_problem(s)
    onehot = ds.y_true.astype(np.int64)
    defined = ~table["roc_auc"].isna().to_numpy()
    auc, ap = {}, {}
    for avg in ("macro", "weighted"):
        if defined.any():
            weights = None if avg == "macro" else table["support"].to_numpy()[defined]
            auc[avg] = float(np.average(table["roc_auc"].to_numpy()[defined], weights=weights))
            ap[avg] = float(np.average(table["ap"].to_numpy()[defined], weights=weights))
        else:
            auc[avg] = ap[avg] = float("nan")
    ww = None if w is None else np.repeat(w, K)
    auc["micro"] = _binary_or_nan(metrics.roc_auc_score, onehot.ravel(), s.ravel(), ww)
    ap["micro"] = _binary_or_nan(metrics.average_precision_score, onehot.ravel(), s.ravel(), ww)
    return {
        "accuracy": float(metrics.accuracy_score(t, p, sample_weight=w)),
        "balanced": float(_quiet(metrics.balanced_accuracy_score, t, p, sample_weight=w)),
        "macro_f1": float(table["f1"].to_numpy()[present].mean()),
        "mcc": float(_quiet(metrics.matthews_corrcoef, t, p, sample_weight=w)),
        "kappa": float(_quiet(metrics.cohen_kappa_score, t, p, sample_weight=w)),
        "log_loss": None
        if not_proba
        else float(_quiet(metrics.log_loss, t, s, labels=np.arange(K), sample_weight=w)),
        "not_proba": not_proba,
        "auc": auc,
        "ap": ap,
        "ovo": None if w is not None else ovo_table(ds, model),
        "cm": metrics.confusion_matrix(t, p, labels=np.arange(K), sample_weight=w),
        "classes": table,
        "present": present,
        "auc_missing": [c for c, d in zip(ds.label_names, defined, strict=True) if not d],
    }


def ovo_table(ds: Dataset, model: str) -> pd.DataFrame:
    """One-vs-one (Hand & Till): per pair of classes a, b both in y_true, AUC(a|b) on the
    samples of a or b scored by column a, AUC(b|a) by column b, their mean, and the
    pair's prevalence (its share of the samples). Unweighted.

    The macro one-vs-one AUC is the mean of ``mean``; the weighted one weights each pair
    by ``prevalence`` (scikit-learn's ``multi_class="ovo"``).

    Examples
    --------
    >>> t = ovo_table(_toy(), "m")
    >>> t[["a", "b"]].values.tolist(), t["mean"].tolist()
    ([['cat', 'dog'], ['cat', 'bird'], ['dog', 'bird']], [0.5625, 1.0, 0.75])
    """
    t, _, s = classes(ds, model)
    names = ds.label_names
    present = np.unique(t)
    rows = []
    for i, a in enumerate(present):
        for b in present[i + 1 :]:
            ab = (t == a) | (t == b)
            a_auc = float(metrics.roc_auc_score((t[ab] == a).astype(int), s[ab, a]))
            b_auc = float(metrics.roc_auc_score((t[ab] == b).astype(int), s[ab, b]))
            rows.append((names[a], names[b], a_auc, b_auc, (a_auc + b_auc) / 2, ab.mean()))
    return pd.DataFrame(rows, columns=["a", "b", "auc_a_vs_b", "auc_b_vs_a", "mean", "prevalence"])


def ovo_averages(pairs: pd.DataFrame) -> dict:
    """The macro and the prevalence-weighted one-vs-one AUC of :func:`ovo_table`.

    Examples
    --------
    >>> {k: round(v, 4) for k, v in ovo_averages(ovo_table(_toy(), "m")).items()}
    {'macro': 0.7708, 'weighted': 0.75}
    """
    if pairs is None or pairs.empty:
        return {"macro": float("nan"), "weighted": float("nan")}
    m = pairs["mean"].to_numpy()
    return {
        "macro": float(m.mean()),
        "weighted": float(np.average(m, weights=pairs["prevalence"].to_numpy())),
    }


def confusion_table(cm: np.ndarray, names, norm: str) -> pd.DataFrame:
    """The confusion matrix as a table (rows: true class, columns: predicted), normalized.

    A row (or column) with no sample is 0 when normalized over it.

    Examples
    --------
    >>> import numpy as np
    >>> confusion_table(np.array([[2, 0], [1, 1]]), ["a", "b"], "true").values.tolist()
    [[1.0, 0.0], [0.5, 0.5]]
    """
    c = np.asarray(cm, dtype=float)
    if norm == "true":
        c = c / np.where(c.sum(axis=1, keepdims=True) == 0, 1, c.sum(axis=1, keepdims=True))
    elif norm == "pred":
        c = c / np.where(c.sum(axis=0, keepdims=True) == 0, 1, c.sum(axis=0, keepdims=True))
    elif norm == "all":
        c = c / (c.sum() or 1)
    names = [str(n) for n in names]
    return pd.DataFrame(
        c, index=pd.Index(names, name="true"), columns=pd.Index(names, name="predicted")
    )


def worst_cell(cm: np.ndarray) -> tuple[int, int]:
    """The off-diagonal cell with the most samples (the first such), or (0, 0).

    Examples
    --------
    >>> import numpy as np
    >>> worst_cell(np.array([[5, 1, 0], [3, 4, 0], [0, 0, 2]]))
    (1, 0)
    """
    off = np.asarray(cm, dtype=float).copy()
    np.fill_diagonal(off, -1)
    if off.max() <= 0:
        return 0, 0
    i, j = np.unravel_index(int(np.argmax(off)), off.shape)
    return int(i), int(j)


def sample_table(ds: Dataset, model: str, k: int) -> pd.DataFrame:
    """One row per sample, worst first: classes, p(true), the rank of the true class,
    the top-k hit and the log-loss term (NaN when the scores are not probabilities).

    Worst first: by the log-loss term (the smallest p(true)), then by rank.

    Examples
    --------
    >>> t = sample_table(_toy(), "m", 1)
    >>> t["sample"].tolist()[:2], t["true"].tolist()[:2], t["rank"].tolist()[:2]
    (['3', '4'], ['dog', 'cat'], [3, 2])
    >>> t["top_1"].tolist()[:2]
    [False, False]
    """
    return with_top_k_column(sample_base(ds, model), k)


def with_top_k_column(table: pd.DataFrame, k: int) -> pd.DataFrame:
    """Rows of :func:`sample_base` with the column ``top_<k>`` (rank <= k) after ``rank``.

    Examples
    --------
    >>> with_top_k_column(sample_base(_toy(), "m").head(2), 2).columns.tolist()[6:]
    ['rank', 'top_2', 'log_loss']
    """
    out = table.copy()
    out.insert(out.columns.get_loc("rank") + 1, f"top_{k}", out["rank"].to_numpy() <= k)
    return out


def sample_base(ds: Dataset, model: str) -> pd.DataFrame:
    """:func:`sample_table` without the top-k column (it does not depend on k)."""
    t, p, s = classes(ds, model)
    names = np.array(ds.label_names, dtype=object)
    n = len(t)
    rank = true_rank(t, s)
    p_true = s[np.arange(n), t]
    terms = (
        np.full(n, np.nan)
        if probability_problem(s)
        else np.asarray(
            _quiet(metrics.log_loss_per_sample, t, s, labels=np.arange(ds.n_labels)),
            dtype=float,
        )
    )
    table = pd.DataFrame(
        {
            "sample": list(ds.sample_ids),
            "true": names[t],
            "predicted": names[p],
            "correct": t == p,
            "p_true": p_true,
            "p_predicted": s[np.arange(n), p],
            "rank": rank,
            "log_loss": terms,
        }
    )
    if ds.sample_weight is not None:
        table["sample_weight"] = ds.sample_weight
    order = np.lexsort((np.arange(n), -rank, p_true))
    return table.iloc[order]


def cell_samples(ds: Dataset, model: str, a: int, b: int) -> tuple[int, pd.DataFrame]:
    """The samples of true class ``a`` predicted as ``b``: how many, the first SHOWN_ROWS.

    Examples
    --------
    >>> n, rows = cell_samples(_toy(), "m", 1, 0)
    >>> n, rows["sample"].tolist(), rows["p_cat"].tolist()
    (1, ['3'], [0.5])
    """
    t, p, s = classes(ds, model)
    idx = np.flatnonzero((t == a) & (p == b))
    shown = idx[:SHOWN_ROWS]
    cols = {"sample": [ds.sample_ids[i] for i in shown]}
    for j, name in enumerate(ds.label_names):
        cols[f"p_{name}"] = s[shown, j]
    return len(idx), pd.DataFrame(cols, index=shown)


def sample_steps(ds: Dataset, model: str, i: int) -> pd.DataFrame:
    """One sample, class by class, highest score first: score, rank, true, predicted.

    Examples
    --------
    >>> steps = sample_steps(_toy(), "m", 3)
    >>> steps["class"].tolist(), steps["true"].tolist()
    (['cat', 'bird', 'dog'], ['', '', 'true'])
    """
    t, p, s = classes(ds, model)
    row = s[i]
    K = len(row)
    order = np.lexsort((-np.arange(K), -row))  # score descending, higher column first
    return pd.DataFrame(
        {
            "rank": np.arange(1, K + 1),
            "class": [ds.label_names[j] for j in order],
            "score": row[order],
            "true": ["true" if j == t[i] else "" for j in order],
            "predicted": ["argmax" if j == p[i] else "" for j in order],
        }
    )


def samples_csv(ds: Dataset, model: str, k: int) -> bytes:
    """The per-sample table, every sample worst first, as CSV bytes.

    Examples
    --------
    >>> samples_csv(_toy(), "m", 2).decode().splitlines()[0]
    'sample,true,predicted,correct,p_true,p_predicted,rank,top_2,log_loss'
    """
    return downloads.csv_text(sample_table(ds, model, k)).encode()


def accuracy_of(y_true, y_score, sample_weight=None) -> float:
    """Accuracy of a one-hot ``y_true`` and a score matrix (the Home page's headline).

    Examples
    --------
    >>> ds = _toy()
    >>> accuracy_of(ds.y_true, ds.score())
    0.6
    """
    return float(
        metrics.accuracy_score(
            y_true.argmax(axis=1), y_score.argmax(axis=1), sample_weight=sample_weight
        )
    )


def macro_auc_of(y_true, y_score, sample_weight=None) -> float:
    """The macro one-vs-rest ROC AUC of a one-hot ``y_true``; MetricInputError when a
    class has no sample (or every sample).

    Examples
    --------
    >>> ds = _toy()
    >>> macro_auc_of(ds.y_true, ds.score())
    0.75
    """
    y = np.asarray(y_true).astype(np.int64)
    n_pos = y.sum(axis=0)
    if ((n_pos == 0) | (n_pos == len(y))).any():
        raise metrics.MetricInputError(
            "a class has no sample (or every sample): its one-vs-rest AUC is undefined."
        )
    return float(metrics.roc_auc_score(y, y_score, average="macro", sample_weight=sample_weight))


def log_loss_of(y_true, y_score, sample_weight=None) -> float:
    """Log loss of a one-hot ``y_true``; MetricInputError when the scores are not
    probabilities.

    Examples
    --------
    >>> ds = _toy()
    >>> round(log_loss_of(ds.y_true, ds.score()), 4)
    0.8748
    """
    why = probability_problem(np.asarray(y_score))
    if why:
        raise metrics.MetricInputError(f"log loss needs probabilities: {why}.")
    t = np.asarray(y_true).argmax(axis=1)
    k = np.arange(y_score.shape[1])
    return float(_quiet(metrics.log_loss, t, y_score, labels=k, sample_weight=sample_weight))


def ranks(ds: Dataset, model: str) -> np.ndarray:
    """:func:`true_rank` of every sample of ``model`` (read-only).

    Examples
    --------
    >>> ranks(_toy(), "m").tolist()
    [1, 1, 1, 3, 2]
    """
    t, _, s = classes(ds, model)
    out = true_rank(t, s)
    out.setflags(write=False)
    return out


def for_screen(table: pd.DataFrame, columns=("roc_auc", "ap", "log_loss")) -> pd.DataFrame:
    """A table as the page shows it: a column of ``columns`` that holds NaN (undefined:
    a class with no sample, scores that are not probabilities) is written as text, four
    decimals, a dash for NaN; a column that is all NaN is dropped.

    Examples
    --------
    >>> import numpy as np, pandas as pd
    >>> t = pd.DataFrame({"class": ["a", "b"], "roc_auc": [0.5, np.nan], "log_loss": np.nan})
    >>> for_screen(t).to_dict("list")
    {'class': ['a', 'b'], 'roc_auc': ['0.5000', '–']}
    """
    out = table.copy()
    for c in columns:
        if c in out.columns and out[c].isna().any():
            if out[c].isna().all():
                out = out.drop(columns=c)
            else:
                out[c] = ["–" if np.isnan(v) else f"{v:.4f}" for v in out[c].to_numpy(float)]
    return out
