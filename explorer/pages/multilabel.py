"""The Multilabel classification page's model: scores become label sets, and every
number and table the page shows, as pure functions of a Dataset and the settings.

The settings
    ``model`` (one of the dataset's score matrices), ``rule`` (``"threshold"``,
    ``"per_label"`` or ``"top_k"``), ``threshold`` (one global cut-off),
    ``thresholds`` (one per label), ``top_k``, ``beta`` (F-beta) and ``zd_key``
    (the zero_division choice, a key of :data:`ZD_VALUE`).

The expensive step is :func:`prediction`, the one pass over the N x L cells; every
average, the per-label table and the worst samples follow from its counts
(:func:`summary`), so moving beta or zero_division reuses it whole. The cached
versions the page (views/multilabel/) calls are declared in
:mod:`explorer.ui.cache.multilabel`.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from explorer import downloads
from explorer.datasets import Dataset
from explorer.pages._parse import finite_float
from metrics import (
    MultilabelCounts,
    multilabel_averages,
    multilabel_counts,
    multilabel_label_table_from_counts,
    multilabel_outcomes,
    multilabel_per_sample,
    multilabel_worst_samples,
    threshold_predictions,
    top_k_predictions,
)

#: zero_division choice (its URL value) -> the value given to ``metrics``.
ZD_VALUE = {"warn": "warn", "0": 0, "1": 1, "nan": np.nan}
#: The F-beta column's name in the page's tables.
FB = "F-beta"
#: Rows of a table shown on screen (the CSVs hold them all).
SHOWN_ROWS = 200
#: Worst samples kept per setting (the table shows SHOWN_ROWS, the sample picker 500);
#: up to ALL_ROWS samples, all of them are kept and offered.
HEAD_ROWS = 500
ALL_ROWS = 2000
#: Samples drawn in the outcome grid, worst first.
GRID_ROWS = 30
#: The four averages: key, the literature's name, scikit-learn's.
AVERAGES = (
    ("macro", "C-P, C-R, C-F1 (class-averaged)", 'average="macro"'),
    ("micro", "O-P, O-R, O-F1 (pooled counts)", 'average="micro"'),
    ("samples", "sample-averaged", 'average="samples"'),
    ("weighted", "support-weighted", 'average="weighted"'),
)


def _toy() -> Dataset:
    """The small dataset of the examples: 3 samples, labels a, b, c."""
    y = np.array([[1, 0, 1], [0, 1, 0], [0, 0, 0]])
    s = np.array([[0.9, 0.6, 0.3], [0.2, 0.8, 0.1], [0.4, 0.1, 0.7]])
    return Dataset("toy", "multilabel", y, {"m": s}, label_names=("a", "b", "c"))


def _toy_summary(threshold: float = 0.5, zd_key: str = "warn") -> dict:
    """The examples' :func:`summary` of :func:`_toy` with one global threshold."""
    ds = _toy()
    return summary(ds, *prediction(ds, "m", "threshold", threshold, (), None), 1.0, zd_key)


def threshold_list(raw: str | None, n_labels: int, default: float) -> tuple[float, ...]:
    """The per-label thresholds of the URL parameter ``raw`` (comma-separated).

    Parameters
    ----------
    raw : str or None
        The parameter's text; None or empty when the URL has none.
    n_labels : int
        How many thresholds the dataset needs.
    default : float
        Every label's threshold when ``raw`` is missing, malformed, not finite or
        of another length.

    Returns
    -------
    tuple of float, one per label

    Examples
    --------
    >>> from explorer.pages.multilabel import threshold_list
    >>> threshold_list("0.5,0.2,0.7", 3, 0.5)
    (0.5, 0.2, 0.7)
    >>> threshold_list("0.5,nan,0.7", 3, 0.4), threshold_list("0.1", 3, 0.4)
    ((0.4, 0.4, 0.4), (0.4, 0.4, 0.4))
    """
    try:
        values = tuple(finite_float(x) for x in raw.split(",")) if raw else ()
    except ValueError:
        values = ()
    return values if len(values) == n_labels else (default,) * n_labels


def threshold_range(scores: np.ndarray) -> tuple[float, float]:
    """The threshold slider's ends: [0, 1], widened to whole numbers around the scores.

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.pages.multilabel import threshold_range
    >>> threshold_range(np.array([[0.2, 0.9]])), threshold_range(np.array([[-1.5, 2.2]]))
    ((0.0, 1.0), (-2.0, 3.0))
    """
    lo = min(0.0, float(np.floor(scores.min())))
    hi = max(1.0, float(np.ceil(scores.max())))
    return lo, hi


def setting(model: str, rule: str, threshold, thresholds, top_k) -> tuple:
    """The arguments of :func:`prediction` after ``ds``, keeping only what ``rule`` uses.

    Going back to a rule then finds its cached prediction again.

    Examples
    --------
    >>> from explorer.pages.multilabel import setting
    >>> setting("m", "top_k", 0.5, (0.1, 0.2), 2)
    ('m', 'top_k', None, (), 2)
    >>> setting("m", "threshold", 0.5, (0.1, 0.2), 2)
    ('m', 'threshold', 0.5, (), None)
    """
    return (
        model,
        rule,
        threshold if rule == "threshold" else None,
        thresholds if rule == "per_label" else (),
        top_k if rule == "top_k" else None,
    )


def predict(ds: Dataset, model, rule, threshold, thresholds, top_k) -> np.ndarray:
    """The predicted label sets of a setting, as a boolean matrix.

    Parameters
    ----------
    ds : Dataset
        A multilabel dataset.
    model : str
        The score matrix to use.
    rule : {"threshold", "per_label", "top_k"}
        One global ``threshold``, one threshold per label (``thresholds``), or the
        ``top_k`` highest scores of each sample (ties: lower column first).

    Returns
    -------
    ndarray of bool, shape (n_samples, n_labels)

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, predict
    >>> predict(_toy(), "m", "threshold", 0.5, (), None).astype(int).tolist()
    [[1, 1, 0], [0, 1, 0], [0, 0, 1]]
    >>> predict(_toy(), "m", "per_label", None, (0.3, 0.7, 0.9), None).astype(int).tolist()
    [[1, 0, 0], [0, 1, 0], [1, 0, 0]]
    >>> predict(_toy(), "m", "top_k", None, (), 1).astype(int).tolist()
    [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    """
    s = ds.score(model)
    if ds.retrieved is not None:  # a padding slot's score is a filler: never in a top k
        s = np.where(ds.retrieved, s, s.min() - 1.0)
    if rule == "top_k":
        pred = top_k_predictions(s, k=top_k, dtype=bool)
    elif rule == "per_label":
        pred = threshold_predictions(s, list(thresholds), dtype=bool)
    else:
        pred = threshold_predictions(s, threshold, dtype=bool)
    # an item the row never retrieved (a padding slot) is never predicted
    return pred if ds.retrieved is None else pred & ds.retrieved


def prediction(
    ds: Dataset, model, rule, threshold, thresholds, top_k
) -> tuple[np.ndarray, MultilabelCounts]:
    """The one pass over the N x L cells: the predictions and every count.

    Parameters are those of :func:`predict`.

    Returns
    -------
    pred : ndarray of bool, shape (n_samples, n_labels), read-only
    counts : MultilabelCounts
        Per label and per sample, weighted by the dataset's ``sample_weight``.

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, prediction
    >>> pred, counts = prediction(_toy(), "m", "threshold", 0.5, (), None)
    >>> pred.flags.writeable, counts.tp.tolist(), counts.sample_wrong.tolist()
    (False, [1.0, 1.0, 0.0], [2, 0, 1])
    """
    pred = predict(ds, model, rule, threshold, thresholds, top_k)
    pred.setflags(write=False)
    counts = multilabel_counts(
        ds.y_true, pred, sample_weight=ds.sample_weight, retrieved=ds.retrieved
    )
    return pred, counts


def _rows_retrieved(ds: Dataset, rows) -> np.ndarray | None:
    return None if ds.retrieved is None else ds.retrieved[rows]


def label_columns(ds: Dataset) -> np.ndarray:
    """The label columns that are labels: all of them, but for ragged rows (a
    ``retrieved`` mask) not a column that is padding in every row.

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.pages.multilabel import _toy, label_columns
    >>> label_columns(_toy()).tolist()
    [0, 1, 2]
    """
    if ds.retrieved is None:
        return np.arange(ds.n_labels)
    return np.flatnonzero((ds.retrieved | (ds.y_true != 0)).any(axis=0))


def sample_rows(ds: Dataset, pred: np.ndarray, rows, beta: float, zd_key: str) -> pd.DataFrame:
    """The per-sample table of the samples ``rows`` (in that order), label names included.

    Every column is row-local, so these rows are the same computed alone: only the
    shown samples are named (naming a million cells is the slow part).

    Returns
    -------
    pandas.DataFrame
        :func:`metrics.multilabel_per_sample` of those rows, indexed
        by sample index.

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.pages.multilabel import _toy, prediction, sample_rows
    >>> pred, _ = prediction(_toy(), "m", "threshold", 0.5, (), None)
    >>> t = sample_rows(_toy(), pred, np.array([2, 0]), 1.0, "warn")
    >>> t.index.tolist(), t["missed"].tolist(), t["extra"].tolist()
    ([2, 0], ['', 'c'], ['c', 'b'])
    """
    table = multilabel_per_sample(
        ds.y_true[rows],
        pred[rows],
        beta=beta,
        zero_division=ZD_VALUE[zd_key],
        # a query's own documents when the data names them (a run, a long table)
        label_names=ds.label_names if ds.item_ids is None else ds.item_ids[rows],
        retrieved=_rows_retrieved(ds, rows),
    )
    table.index = rows
    return table


def summary(
    ds: Dataset, pred: np.ndarray, counts: MultilabelCounts, beta: float, zd_key: str
) -> dict:
    """Every average, the per-label table and the worst samples, from the counts.

    No pass over the N x L matrices here: beta and zero_division only rescore the
    counts. Kept small (the cache hands a copy to every rerun): of the per-sample
    table only the worst HEAD_ROWS rows (all of them up to ALL_ROWS samples).

    Parameters
    ----------
    ds : Dataset
    pred, counts
        From :func:`prediction`.
    beta : float
    zd_key : {"warn", "0", "1", "nan"}

    Returns
    -------
    dict
        ``hamming``, ``subset``, ``n_exact``; ``averages`` (macro, micro, samples,
        weighted: each a dict of precision, recall, f1, fbeta, jaccard); ``labels``
        (the per-label table and its macro and micro lines); ``worst`` (the worst
        samples' rows, index = sample index); ``rows_no_pred`` and ``rows_no_true``
        (samples with an empty predicted or true set); ``n_labels`` (the rows of
        ``labels`` before its macro and micro lines: a column of padding only is none).

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy_summary
    >>> res = _toy_summary()
    >>> round(res["hamming"], 4), res["subset"], round(res["averages"]["micro"]["f1"], 4)
    (0.3333, 0.3333333333333333, 0.5714)
    >>> res["worst"].index.tolist(), res["rows_no_true"]
    ([0, 2, 1], 1)
    """
    zd = ZD_VALUE[zd_key]
    averages = multilabel_averages(counts, beta=beta, zero_division=zd)
    order = multilabel_worst_samples(counts, zero_division=zd)
    head = ds.n_samples if ds.n_samples <= ALL_ROWS else HEAD_ROWS
    return {
        "hamming": averages["hamming_loss"],
        "subset": averages["subset_accuracy"],
        "n_exact": averages["exact_matches"],
        "averages": {avg: averages[avg] for avg in ("macro", "micro", "samples", "weighted")},
        "labels": multilabel_label_table_from_counts(
            counts, beta=beta, zero_division=zd, label_names=ds.label_names, summary=True
        ),
        "worst": sample_rows(ds, pred, order[:head], beta, zd_key),
        "rows_no_pred": int(np.count_nonzero(counts.sample_predicted == 0)),
        "rows_no_true": int(np.count_nonzero(counts.sample_true == 0)),
        "n_labels": int(np.count_nonzero(counts.labels)),
    }


def empty_labels(per_label: pd.DataFrame) -> tuple[list[str], list[str]]:
    """The labels never predicted and the labels that never occur (where 0/0 arises).

    Parameters
    ----------
    per_label : pandas.DataFrame
        The first ``n_labels`` rows of ``summary(...)["labels"]``.

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy_summary, empty_labels
    >>> res = _toy_summary(0.95, "0")
    >>> empty_labels(res["labels"].iloc[:3])
    (['a', 'b', 'c'], [])
    """
    no_pred = per_label.loc[per_label["no_prediction"].astype(bool), "label"].tolist()
    no_sup = per_label.loc[per_label["no_support"].astype(bool), "label"].tolist()
    return no_pred, no_sup


def label_tables(labels: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The per-label table as downloaded, and as shown on screen.

    The screen drops the zero_division flags, tn and the number predicted (they stay
    in the CSV) and writes the counts as text, blank on the macro line (which has
    none) rather than "None".

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy_summary, label_tables
    >>> res = _toy_summary()
    >>> csv, screen = label_tables(res["labels"])
    >>> "tn" in csv.columns, "tn" in screen.columns, screen["tp"].tolist()
    (True, False, ['1', '1', '0', '', '2'])
    """
    shown = labels.rename(columns={"fbeta": FB, "f1": "F1"})
    on_screen = shown.drop(columns=["no_prediction", "no_support", "tn", "predicted"])
    counts = ["tp", "fp", "fn", "support"]
    on_screen[counts] = on_screen[counts].map(lambda x: "" if pd.isna(x) else f"{x:g}")
    return shown, on_screen


def averages_table(averages: dict) -> pd.DataFrame:
    """The four averages side by side, under both names (literature, scikit-learn).

    Parameters
    ----------
    averages : dict
        ``summary(...)["averages"]``.

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy_summary, averages_table
    >>> res = _toy_summary()
    >>> t = averages_table(res["averages"])
    >>> t["scikit-learn"].tolist()[1], float(round(t["F1"].iloc[1], 4))
    ('average="micro"', 0.5714)
    """
    return pd.DataFrame(
        [
            {
                "literature": lit,
                "scikit-learn": sk,
                "precision": averages[key]["precision"],
                "recall": averages[key]["recall"],
                "F1": averages[key]["f1"],
                FB: averages[key]["fbeta"],
                "jaccard": averages[key]["jaccard"],
            }
            for key, lit, sk in AVERAGES
        ]
    )


#: The multilabel-evaluation notes' formulas: what they write, what that computes, the
#: average it is.
NAMING_READINGS = (
    (
        "C-P section: CP = (1/C) Σ_i N_i^c / N_i^p",
        "class-averaged precision C-P",
        "macro",
        "precision",
    ),
    (
        "C-R section: OP = (1/C) Σ_i N_i^c / N_i^g",
        "class-averaged recall C-R (not an 'O'-metric)",
        "macro",
        "recall",
    ),
    (
        "O-P section: CP = (1/N) Σ_s N_s^c / N_s^p",
        "sample-averaged precision",
        "samples",
        "precision",
    ),
    ("O-R section: OP = (1/N) Σ_s N_s^c / N_s^g", "sample-averaged recall", "samples", "recall"),
    (
        "(literature) O-P = Σ_i N_i^c / Σ_i N_i^p",
        "overall precision, counts pooled",
        "micro",
        "precision",
    ),
    (
        "(literature) O-R = Σ_i N_i^c / Σ_i N_i^g",
        "overall recall, counts pooled",
        "micro",
        "recall",
    ),
)


def naming_readings(averages: dict) -> pd.DataFrame:
    """The notes' loosely named formulas, what each computes and its live value (one of
    the ``averages`` of :func:`summary`).

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy_summary, naming_readings
    >>> res = _toy_summary()
    >>> t = naming_readings(res["averages"])
    >>> t["scikit-learn"].iloc[1], float(round(t["value"].iloc[1], 4))
    ('recall_score(average="macro")', 0.6667)
    """
    return pd.DataFrame(
        [
            {
                "the notes write": writes,
                "value": averages[avg][score],
                "what it computes": computes,
                "scikit-learn": f'{score}_score(average="{avg}")',
            }
            for writes, computes, avg, score in NAMING_READINGS
        ]
    )


def rarest_label(per_label: pd.DataFrame) -> pd.Series:
    """The per-label row of the label with the smallest support (the first such label).

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy_summary, rarest_label
    >>> res = _toy_summary()
    >>> rarest_label(res["labels"].iloc[:3])["label"]
    'a'
    """
    return per_label.sort_values("support", kind="stable").iloc[0]


def outcome_grid(
    ds: Dataset, pred: np.ndarray, worst: pd.DataFrame
) -> tuple[np.ndarray, list[str]]:
    """The outcomes (TP, FN, FP, TN) of the GRID_ROWS worst samples, and their ids.

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, outcome_grid, prediction, summary
    >>> pred, counts = prediction(_toy(), "m", "threshold", 0.5, (), None)
    >>> cells, ids = outcome_grid(_toy(), pred, summary(_toy(), pred, counts, 1.0, "0")["worst"])
    >>> ids, cells[0].tolist()
    (['0', '2', '1'], ['TP', 'FP', 'FN'])
    """
    rows = worst.index[:GRID_ROWS].to_numpy()
    cells = multilabel_outcomes(ds.y_true[rows], pred[rows], retrieved=_rows_retrieved(ds, rows))
    return cells, [ds.sample_ids[i] for i in rows]


def label_errors(ds: Dataset, model: str, pred: np.ndarray, label: str) -> tuple[int, pd.DataFrame]:
    """The samples one label gets wrong: how many, and the first SHOWN_ROWS of them.

    Returns
    -------
    n_wrong : int
    rows : pandas.DataFrame
        Columns ``sample``, ``score``, ``what`` (missed or extra), in sample order.

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, label_errors, prediction
    >>> pred, _ = prediction(_toy(), "m", "threshold", 0.5, (), None)
    >>> n, rows = label_errors(_toy(), "m", pred, "c")
    >>> n, rows["sample"].tolist(), rows["what"].tolist()
    (2, ['0', '2'], ['missed (true, not predicted)', 'extra (predicted, not true)'])
    """
    j = ds.label_names.index(label)
    col_out = multilabel_outcomes(ds.y_true[:, j], pred[:, j])  # one label's column
    wrong_idx = np.flatnonzero((col_out == "FN") | (col_out == "FP"))
    shown = wrong_idx[:SHOWN_ROWS]
    rows = pd.DataFrame(
        {
            "sample": [ds.sample_ids[i] for i in shown],
            "score": ds.score(model)[shown, j],
            "what": [
                {"FN": "missed (true, not predicted)", "FP": "extra (predicted, not true)"}[o]
                for o in col_out[shown]
            ],
        },
        index=shown,
    )
    return len(wrong_idx), rows


def sample_choices(ds: Dataset, worst: pd.DataFrame) -> tuple[list[str], list[str], dict]:
    """The sample picker's options: every sample up to ALL_ROWS, else the worst HEAD_ROWS.

    Returns
    -------
    worst_ids : list of str
        The ids of ``worst``'s rows, worst first (the default is the first).
    choices : list of str
        The options offered.
    wrong_count : dict
        id -> number of wrong cells, for the ids of ``worst_ids``.

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, _toy_summary, sample_choices
    >>> res = _toy_summary(0.5, "0")
    >>> sample_choices(_toy(), res["worst"])
    (['0', '2', '1'], ['0', '1', '2'], {'0': 2, '2': 1, '1': 0})
    """
    ids = ds.sample_ids
    worst_ids = [ids[i] for i in worst.index]
    choices = list(ids) if ds.n_samples <= ALL_ROWS else worst_ids[:HEAD_ROWS]
    return worst_ids, choices, dict(zip(worst_ids, worst["wrong"], strict=True))


def sample_steps(
    ds: Dataset, model: str, pred: np.ndarray, i: int, rule: str, threshold, thresholds
) -> pd.DataFrame:
    """One sample, label by label: true, score, threshold, predicted and outcome.

    Without a ``threshold`` column for the rule "top_k".

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, prediction, sample_steps
    >>> pred, _ = prediction(_toy(), "m", "threshold", 0.5, (), None)
    >>> steps = sample_steps(_toy(), "m", pred, 0, "threshold", 0.5, ())
    >>> steps["predicted"].tolist(), steps["outcome"].tolist()
    ([1, 1, 0], ['TP', 'FP', 'FN'])
    """
    n_labels = ds.n_labels
    if rule == "per_label":
        cut = list(thresholds)
    elif rule == "threshold":
        cut = [threshold] * n_labels
    else:
        cut = [None] * n_labels
    steps = pd.DataFrame(
        {
            "label": ds.item_names(i),
            "true": ds.y_true[i].astype(int),
            "score": ds.score(model)[i],
            "threshold": cut,
            "predicted": pred[i].astype(np.int64),
            "outcome": multilabel_outcomes(
                ds.y_true[[i]], pred[[i]], retrieved=_rows_retrieved(ds, [i])
            )[0],
        }
    )
    steps = steps[steps["outcome"] != ""]  # a padding slot is no label of the row
    if rule == "top_k":
        steps = steps.drop(columns="threshold")
    return steps


def sample_table(ds: Dataset, worst: pd.DataFrame) -> pd.DataFrame:
    """The per-sample table as shown and downloaded: rows of ``worst``, in its order.

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, _toy_summary, sample_table
    >>> res = _toy_summary(0.5, "0")
    >>> t = sample_table(_toy(), res["worst"])
    >>> list(t.columns[:4]), t["sample"].tolist()
    (['sample', 'true_labels', 'predicted_labels', 'missed'], ['0', '2', '1'])
    """
    out = worst.rename(columns={"fbeta": FB})
    out.insert(0, "sample", [ds.sample_ids[i] for i in worst.index])
    if ds.sample_weight is not None:
        out["sample_weight"] = ds.sample_weight[worst.index]
    front = ["sample", "true_labels", "predicted_labels", "missed", "extra", "wrong"]
    return out[front + [c for c in out.columns if c not in front]]


def samples_csv(
    ds: Dataset, pred: np.ndarray, counts: MultilabelCounts, beta: float, zd_key: str
) -> bytes:
    """The CSV of every sample, worst first (the page builds it on the click).

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, prediction, samples_csv
    >>> csv = samples_csv(_toy(), *prediction(_toy(), "m", "threshold", 0.5, (), None), 1.0, "0")
    >>> csv.decode().splitlines()[1]
    '0,"a, c","a, b",c,b,2,2,2,1,1,1,0.6666666666666666,False,0.5,0.5,0.5,0.3333333333333333'
    """
    order = multilabel_worst_samples(counts, zero_division=ZD_VALUE[zd_key])
    table = sample_table(ds, sample_rows(ds, pred, order, beta, zd_key))
    return downloads.csv_text(table).encode()
