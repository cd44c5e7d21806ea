"""Every headline number of the Multiclass classification page, derived from the inputs.

Each line writes a formula with its numbers plugged in and ends in the same digits as
the headline it derives (:func:`explorer.formatting.fmt`): accuracy from the diagonal
of the confusion matrix, balanced accuracy and macro F1 as means over classes with
their terms, MCC and Cohen's kappa from the matrix's margins, log loss as the mean of
the per-sample terms, top-k accuracy from its hits, and the one-vs-rest and one-vs-one
AUCs as means of their per-class (per-pair) terms. Each is an
:class:`explorer.derivation.Derivation`. Pure functions (no streamlit).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from explorer.derivation import Derivation, mean_terms, sum_terms
from explorer.formatting import count, count_latex, fmt, in_latex, latex_text
from explorer.i18n import Phrase, joined
from explorer.pages.multiclass import ovo_averages


def _mean_line(name: str, values, weights, value: float, what: str = "classes") -> Derivation:
    v = np.asarray(values, dtype=float)
    keep = ~np.isnan(v)
    w = None if weights is None else np.asarray(weights, dtype=float)[keep]
    d = mean_terms(v[keep], w, name=name)
    latex = d.latex()
    if w is not None:  # "w × v" terms are long: the total and the value on a second line
        head, _, tail = latex.partition(" = ")
        first, _, rest = tail.partition(" = ")
        latex = rf"\begin{{aligned}}{head} &= {first} \\ &= {rest}\end{{aligned}}"
    note = d.note()
    if (~keep).any():
        undefined = Phrase(
            "${n} ${what} undefined, left out", n=int((~keep).sum()), what=Phrase(what)
        )
        note = joined([note, undefined], "; ")
    return Derivation(name, "", latex, note, value)


def accuracy_line(cm: np.ndarray, value: float) -> Derivation:
    r"""Accuracy: the diagonal of the confusion matrix over all samples.

    Examples
    --------
    >>> import numpy as np
    >>> accuracy_line(np.array([[2, 1], [0, 2]]), 0.8).latex
    '\\text{Accuracy} = \\frac{\\sum_k C_{kk}}{N} = \\frac{2 + 2}{5} = 0.8000'
    """
    diag = np.diag(cm).astype(float)
    d = sum_terms([count(x) for x in diag], diag)
    shown = in_latex(d.latex().split(" = ")[1])
    n = count_latex(cm.sum())
    total = (
        rf" = \frac{{{count_latex(diag.sum())}}}{{{n}}}" if d.omitted else ""
    )  # checkable by hand
    latex = (
        rf"\text{{Accuracy}} = \frac{{\sum_k C_{{kk}}}}{{N}} = \frac{{{shown}}}"
        rf"{{{n}}}{total} = {fmt(value)}"
    )
    return Derivation("Accuracy", "", latex, d.note(), value)


def mcc_line(cm: np.ndarray, value: float) -> Derivation:
    r"""Matthews correlation from the confusion matrix's margins (Gorodkin's R_K).

    Examples
    --------
    >>> import numpy as np
    >>> mcc_line(np.array([[2, 1], [0, 2]]), 2 / 3 ** 0.5 / 2).latex.split(" = ")[-2:]
    ['\\frac{4 \\cdot 5 - 12}{\\sqrt{(25 - 13)(25 - 13)}}', '0.5774']
    """
    c, s = float(np.trace(cm)), float(cm.sum())
    p, t = cm.sum(axis=0).astype(float), cm.sum(axis=1).astype(float)
    c_, s_, pt, ss, pp, tt = (
        count_latex(x) for x in (c, s, float(p @ t), s * s, float(p @ p), float(t @ t))
    )
    latex = (
        r"\text{MCC} = \frac{c\,s - \sum_k p_k t_k}{\sqrt{(s^2 - \sum_k p_k^2)"
        r"(s^2 - \sum_k t_k^2)}} = "
        rf"\frac{{{c_} \cdot {s_} - {pt}}}{{\sqrt{{({ss} - {pp})({ss} - {tt})}}}} = {fmt(value)}"
    )
    return Derivation("MCC", "", latex, "", value)


def kappa_lines(cm: np.ndarray, value: float) -> list[Derivation]:
    r"""Cohen's kappa: the observed agreement p_o, the chance agreement p_e, then kappa.

    Examples
    --------
    >>> import numpy as np
    >>> [line.latex.split(" = ")[-1] for line in kappa_lines(np.array([[2, 1], [0, 2]]), 0.6154)]
    ['0.8000', '0.4800', '0.6154']
    """
    s = float(cm.sum())
    p, t = cm.sum(axis=0).astype(float), cm.sum(axis=1).astype(float)
    po = float(np.trace(cm)) / s
    pe = float(p @ t) / (s * s)
    diag, n, pt, nn = (count_latex(x) for x in (np.trace(cm), s, p @ t, s * s))
    return [
        Derivation(
            "p_o",
            "",
            rf"p_o = \frac{{\sum_k C_{{kk}}}}{{N}} = \frac{{{diag}}}{{{n}}} = {fmt(po)}",
            "",
            po,
        ),
        Derivation(
            "p_e",
            "",
            rf"p_e = \frac{{\sum_k t_k\,p_k}}{{N^2}} = \frac{{{pt}}}{{{nn}}} = {fmt(pe)}",
            "",
            pe,
        ),
        Derivation(
            "Cohen's kappa",
            "",
            rf"\kappa = \frac{{p_o - p_e}}{{1 - p_e}} = \frac{{{fmt(po)} - {fmt(pe)}}}"
            rf"{{1 - {fmt(pe)}}} = {fmt(value)}",
            "",
            value,
        ),
    ]


def top_k_line(hits: float, total: float, k: int, value: float) -> Derivation:
    r"""Top-k accuracy: the samples whose true class ranks k or better, over all.

    Examples
    --------
    >>> top_k_line(4, 5, 2, 0.8).latex.split(" = ")[-2:]
    ['\\frac{4}{5}', '0.8000']
    """
    name = Phrase("Top-${k} accuracy", k=k)
    latex = (
        rf"\text{{{name}}} = \frac{{\#\{{i : \text{{rank}}_i(y_i) \le {k}\}}}}{{N}} = "
        rf"\frac{{{count_latex(hits)}}}{{{count_latex(total)}}} = {fmt(value)}"
    )
    return Derivation(name, "", latex, "", value)


def micro_auc_line(name: str, n_pos: float, n_neg: float, value: float) -> Derivation:
    r"""A micro average: one curve of all (sample, class) pairs, with their counts.

    Examples
    --------
    >>> micro_auc_line("Micro ROC AUC", 5, 10, 0.8).latex
    '\\text{Micro ROC AUC} = \\text{AUC of the } 5 + 10 \\text{ (sample, class) pairs} = 0.8000'
    """
    latex = (
        rf"\text{{{name}}} = \text{{AUC of the }} {count_latex(n_pos)} + {count_latex(n_neg)}"
        rf" \text{{ (sample, class) pairs}} = {fmt(value)}"
    )
    return Derivation(name, "", latex, "", value)


def derivations(
    res: dict, sample_terms: pd.DataFrame, weights, average: str
) -> dict[str, Derivation]:
    r"""Every headline of the page written out, in the order the page shows them.

    Parameters
    ----------
    res : dict
        :func:`explorer.pages.multiclass.summary`.
    sample_terms : pandas.DataFrame
        :func:`explorer.pages.multiclass.sample_base` (or ``sample_table``) of the same
        model, in sample order (its ``log_loss`` and ``rank`` columns give the terms).
    weights : ndarray or None
        The dataset's sample_weight.
    average : {"macro", "weighted", "micro"}
        The one-vs-rest average of the lines ``ROC AUC (average)`` and ``AP (average)``.

    Returns
    -------
    dict
        ``Accuracy``, ``Balanced accuracy``, ``Macro F1``, ``MCC``, ``p_o``, ``p_e``,
        ``Cohen's kappa``, ``Log loss`` (when defined), ``Top-k accuracy``, ``Macro ROC
        AUC (OvR)``, ``ROC AUC (average)``, ``AP (average)``, ``OvO AUC`` (when defined).

    Examples
    --------
    >>> from explorer.pages.multiclass import _toy, sample_table, summary
    >>> res = summary(_toy(), "m", 2)
    >>> terms = sample_table(_toy(), "m", 2).sort_index()
    >>> lines = derivations(res, terms, None, "macro")
    >>> lines["Macro F1"].latex
    '\\text{Macro F1} = \\frac{0.5000 + 0.5000 + 1}{3} = 0.6667'
    >>> lines["Log loss"].latex.endswith("= 0.8748")
    True
    """
    cm = np.asarray(res["cm"], dtype=float)
    table = res["classes"]
    out: dict[str, Derivation] = {"Accuracy": accuracy_line(cm, res["accuracy"])}
    in_true = table["support"].to_numpy() > 0
    out["Balanced accuracy"] = _mean_line(
        "Balanced accuracy", table["recall"].to_numpy()[in_true], None, res["balanced"]
    )
    out["Macro F1"] = _mean_line(
        "Macro F1", table["f1"].to_numpy()[res["present"]], None, res["macro_f1"]
    )
    out["MCC"] = mcc_line(cm, res["mcc"])
    for line in kappa_lines(cm, res["kappa"]):
        out[line.name] = line
    if res["log_loss"] is not None:
        out["Log loss"] = _mean_line(
            "Log loss", sample_terms["log_loss"].to_numpy(), weights, res["log_loss"], "samples"
        )
    k = res["k"]
    hits = (sample_terms["rank"].to_numpy() <= k).astype(float)
    w = np.ones(len(hits)) if weights is None else np.asarray(weights, dtype=float)
    out["Top-k accuracy"] = top_k_line(float(hits @ w), float(w.sum()), k, res["top_k"])
    auc, ap = table["roc_auc"].to_numpy(), table["ap"].to_numpy()
    out["Macro ROC AUC (OvR)"] = _mean_line("Macro ROC AUC (OvR)", auc, None, res["auc"]["macro"])
    support = table["support"].to_numpy()
    n_pos, n_neg = float(support.sum()), float(support.sum()) * (len(support) - 1)
    for key, name, values in (("auc", "ROC AUC", auc), ("ap", "AP", ap)):
        label = Phrase("${average} ${name} (OvR)", average=average.capitalize(), name=name)
        value = res[key][average]
        if average == "micro":
            line = micro_auc_line(label, n_pos, n_neg, value)
            if key == "ap":
                line = Derivation(label, "", line.latex.replace("AUC of", "AP of"), "", value)
        else:
            line = _mean_line(label, values, support if average == "weighted" else None, value)
        out[f"{name} (average)"] = line
    pairs = res["ovo"]
    if pairs is not None and not pairs.empty:
        macro = ovo_averages(pairs)["macro"]
        out["OvO AUC"] = _mean_line("Macro ROC AUC (OvO)", pairs["mean"], None, macro, "pairs")
    return out


def class_auc_line(name: str, counts: tuple[int, int, int, int], value: float) -> Derivation:
    r"""One class's one-vs-rest ROC AUC from its pairs: wins and half the ties.

    Examples
    --------
    >>> class_auc_line("bird", (1, 4, 4, 0), 1.0).latex.split(" = ")[-2:]
    ['\\frac{4 + 0/2}{1 \\cdot 4}', '1']
    """
    p, n, w, t = (count_latex(x) for x in counts)
    latex = (
        rf"\text{{AUC}}_{{\text{{{latex_text(name)}}}}} = \frac{{W + T/2}}{{P \cdot N}} = "
        rf"\frac{{{w} + {t}/2}}{{{p} \cdot {n}}} = {fmt(value)}"
    )
    return Derivation(Phrase("ROC AUC of ${name}", name=name), "", latex, "", value)
