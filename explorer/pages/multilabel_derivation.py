"""Every headline number of the Multilabel classification page, derived from the inputs.

Each line ends in the same digits as the headline it derives: the macro averages as
the mean of the per-label values (written with their terms), the micro averages from
the pooled counts with the numbers plugged in, the sample averages as the mean over
samples with their terms, the weighted averages with each label's support as its
weight, Hamming loss and subset accuracy from their counts. Each is an
:class:`explorer.derivation.Derivation`. Pure functions (no streamlit);
:mod:`views.multilabel.derivation` draws them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from explorer.derivation import Derivation, mean_terms
from explorer.formatting import count, fmt, in_latex
from metrics import MultilabelCounts

#: zero_division choice -> its value (Jaccard cannot be NaN: 0 there).
_ZD = {"warn": 0.0, "0": 0.0, "1": 1.0, "nan": np.nan}


def _divide(num: np.ndarray, den: np.ndarray, zd: float) -> np.ndarray:
    out = num / np.where(den == 0, 1.0, den)
    out[den == 0] = zd
    return out


def per_sample_scores(counts: MultilabelCounts, zd_key: str) -> dict[str, np.ndarray]:
    """Each sample's precision, recall, F1 and Jaccard from its counts.

    The same values as :func:`metrics.multilabel_per_sample` (0/0 is the
    zero_division value; Jaccard's 0/0 is 0 when NaN is chosen).

    Examples
    --------
    >>> from metrics import multilabel_counts
    >>> c = multilabel_counts([[1, 0, 1], [0, 1, 0], [0, 0, 0]], [[1, 1, 0], [0, 1, 0], [0, 0, 1]])
    >>> s = per_sample_scores(c, "warn")
    >>> s["precision"].tolist(), s["recall"].tolist(), s["jaccard"].round(4).tolist()
    ([0.5, 1.0, 0.0], [0.5, 1.0, 0.0], [0.3333, 1.0, 0.0])
    """
    zd = _ZD[zd_key]
    tp = counts.sample_tp.astype(float)
    pred = counts.sample_predicted.astype(float)
    true = counts.sample_true.astype(float)
    return {
        "precision": _divide(tp, pred, zd),
        "recall": _divide(tp, true, zd),
        "f1": _divide(2 * tp, pred + true, zd),
        "jaccard": _divide(tp, pred + true - tp, 0.0 if np.isnan(zd) else zd),
    }


def _mean_line(name: str, values, weights, value: float, what: str) -> Derivation:
    """The mean of ``values`` (NaN ones left out, as the averages do) with its terms
    (every one kept in the derivation's ``terms``)."""
    v = np.asarray(values, dtype=float)
    keep = ~np.isnan(v)
    w = None if weights is None else np.asarray(weights, dtype=float)[keep]
    if w is not None and not w.sum():  # the averages fall back to the plain mean
        w = None
    d = mean_terms(v[keep], w, name=name)
    note = d.note(int((~keep).sum()), what)
    return Derivation(name, "", d.latex(), note, value, terms=v[keep])


def _ratio_line(name: str, formula: str, num: str, den: str, value: float) -> Derivation:
    latex = (
        rf"\text{{{name}}} = {formula} = \frac{{{in_latex(num)}}}{{{in_latex(den)}}} = {fmt(value)}"
    )
    return Derivation(name, "", latex, "", value)


def derivations(
    counts: MultilabelCounts, labels: pd.DataFrame, res: dict, zd_key: str
) -> dict[str, Derivation]:
    r"""Every average and headline of the page, derived from the counts.

    Parameters
    ----------
    counts : MultilabelCounts
        Of the setting shown (:func:`explorer.pages.multilabel.prediction`).
    labels : pandas.DataFrame
        The per-label rows of ``summary(...)["labels"]`` (the first n_labels).
    res : dict
        :func:`explorer.pages.multilabel.summary` of the same setting.
    zd_key : {"warn", "0", "1", "nan"}

    Returns
    -------
    dict
        Name -> :class:`~explorer.derivation.Derivation`, in the order the page shows
        them: ``Macro P``, ``Macro R``, ``Macro F1``, ``Micro P``, ``Micro R``, ``Micro F1``,
        ``Samples P``, ``Samples R``, ``Samples F1``, ``Jaccard (samples)``,
        ``Weighted F1``, ``Hamming loss``, ``Subset accuracy``.

    Examples
    --------
    >>> from explorer.pages.multilabel import _toy, prediction, summary
    >>> pred, counts = prediction(_toy(), "m", "threshold", 0.5, (), None)
    >>> res = summary(_toy(), pred, counts, 1.0, "warn")
    >>> lines = derivations(counts, res["labels"].iloc[:3], res, "warn")
    >>> lines["Macro F1"].latex
    '\\text{Macro F1} = \\frac{1 + 0.6667 + 0}{3} = 0.5556'
    >>> lines["Micro F1"].latex.split(" = ", 2)[2]
    '\\frac{2 \\cdot 2}{2 \\cdot 2 + 2 + 1} = 0.5714'
    >>> lines["Hamming loss"].latex.split(" = ")[-2:]
    ['\\frac{2 + 1}{3 \\cdot 3}', '0.3333']
    """
    avg = res["averages"]
    out: dict[str, Derivation] = {}
    for key, short in (("precision", "P"), ("recall", "R"), ("f1", "F1")):
        out[f"Macro {short}"] = _mean_line(
            f"Macro {short}", labels[key], None, avg["macro"][key], "labels"
        )
    tp = float(counts.tp.sum())
    fp = float(counts.predicted.sum()) - tp
    fn = float(counts.support.sum()) - tp
    t, p, n = count(tp), count(fp), count(fn)
    out["Micro P"] = _ratio_line(
        "Micro P", r"\frac{TP}{TP + FP}", t, f"{t} + {p}", avg["micro"]["precision"]
    )
    out["Micro R"] = _ratio_line(
        "Micro R", r"\frac{TP}{TP + FN}", t, f"{t} + {n}", avg["micro"]["recall"]
    )
    out["Micro F1"] = _ratio_line(
        "Micro F1",
        r"\frac{2\,TP}{2\,TP + FP + FN}",
        rf"2 \cdot {t}",
        rf"2 \cdot {t} + {p} + {n}",
        avg["micro"]["f1"],
    )
    w = counts.sample_weight
    scores = per_sample_scores(counts, zd_key)
    for key, name in (("precision", "Samples P"), ("recall", "Samples R"), ("f1", "Samples F1")):
        out[name] = _mean_line(name, scores[key], w, avg["samples"][key], "samples")
    out["Jaccard (samples)"] = _mean_line(
        "Jaccard (samples)", scores["jaccard"], w, avg["samples"]["jaccard"], "samples"
    )
    out["Weighted F1"] = _mean_line(
        "Weighted F1", labels["f1"], labels["support"], avg["weighted"]["f1"], "labels"
    )
    n_cells = counts.n_labels
    if w is None:
        total = f"{counts.n_samples:,}"
        exact = f"{int((counts.sample_wrong == 0).sum()):,}"
    else:
        total = count(w.sum())
        exact = count(w[counts.sample_wrong == 0].sum())
    if counts.sample_cells is None:
        formula, cells = r"\frac{FP + FN}{N \cdot L}", rf"{total} \cdot {n_cells}"
    else:  # ragged rows: the cells that are labels, not N x L (padding is none)
        real = counts.sample_cells if w is None else counts.sample_cells * w
        formula, cells = r"\frac{FP + FN}{\text{cells}}", count(float(real.sum()))
    out["Hamming loss"] = _ratio_line("Hamming loss", formula, f"{p} + {n}", cells, res["hamming"])
    out["Subset accuracy"] = _ratio_line(
        "Subset accuracy", r"\frac{\#\{i : \hat Y_i = Y_i\}}{N}", exact, total, res["subset"]
    )
    return out
