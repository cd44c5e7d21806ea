"""The ROC & PR curves page's headline numbers, derived from the inputs.

ROC AUC as the trapezoid sum over the exact ROC curve, average precision as the
step sum over the PR curve, log loss as the mean of the samples' terms (each sum or
mean written with its terms, the first and last few when there are many), and every
rate at the operating point with its counts plugged in (``TPR = TP / (TP + FN) =
3 / (3 + 1) = 0.7500``). Each line ends in the same digits as its headline.

Each is an :class:`explorer.derivation.Derivation`. Pure functions (no streamlit);
:mod:`views.curves.derivation` draws them (and :mod:`views.home.headline` the ROC AUC
and average precision lines), and :mod:`explorer.ui.cache.curves` holds their cached
versions.
"""

from __future__ import annotations

import math

import numpy as np

import metrics
from explorer.datasets import Dataset
from explorer.derivation import Derivation, mean_terms, sum_terms
from explorer.formatting import count, fmt, in_latex
from explorer.i18n import Phrase, joined


def _toy() -> Dataset:
    """The examples' dataset: 6 samples, one tie across the classes."""
    y = np.array([1, 1, 0, 1, 0, 0])
    s = np.array([0.9, 0.8, 0.7, 0.4, 0.4, 0.1])
    return Dataset("toy", "binary", y, {"m": s})


ROC_FORMULA = (
    r"\text{ROC AUC} = \sum_i (\text{FPR}_i - \text{FPR}_{i-1})"
    r"\cdot\frac{\text{TPR}_i + \text{TPR}_{i-1}}{2}"
)
AP_FORMULA = r"\text{AP} = \sum_i (R_i - R_{i-1})\cdot P_i"
LOG_LOSS_FORMULA = (
    r"\text{Log loss} = -\frac{1}{N}\sum_i \big[y_i \log p_i + (1 - y_i)\log(1 - p_i)\big]"
)


def roc_auc(ds: Dataset, model: str) -> Derivation:
    r"""ROC AUC as the sum of the trapezoids under the exact ROC curve.

    Only the segments where FPR moves have an area; the vertical ones (FPR unchanged)
    add 0 and are left out of the written sum.

    Examples
    --------
    >>> line = roc_auc(_toy(), "m")
    >>> line.latex
    '\\text{ROC AUC} = 0.3333 \\cdot 0.6667 + 0.3333 \\cdot 0.8333 + 0.3333 \\cdot 1 = 0.8333'
    >>> line.note
    '3 segments where FPR moves; 2 vertical ones add 0'
    """
    y, s, w = ds.y_true, ds.score(model), ds.sample_weight
    fpr, tpr, _ = metrics.roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    width = np.diff(fpr)
    height = (tpr[1:] + tpr[:-1]) / 2
    moves = np.flatnonzero(width > 0)
    d = sum_terms(
        lambda i: rf"{fmt(width[moves[i]])} \cdot {fmt(height[moves[i]])}",
        width[moves] * height[moves],
        name="ROC AUC",
    )
    flat = len(width) - len(moves)
    note = Phrase(
        "${n:,} segments where FPR moves; ${flat:,} vertical ones add 0", n=len(moves), flat=flat
    )
    if d.note():
        note = joined([note, d.note()], "; ")
    return Derivation("ROC AUC", ROC_FORMULA, d.aligned(), note, d.total)


def average_precision(ds: Dataset, model: str) -> Derivation:
    r"""Average precision as the step sum over the PR curve, in increasing recall.

    Only the thresholds where recall rises (a positive enters) add a term.

    Examples
    --------
    >>> line = average_precision(_toy(), "m")
    >>> print(line.latex.replace(" \\cdot ", "*"))
    \text{Average precision} = 0.3333*1 + 0.3333*1 + 0.3333*0.6000 = 0.8667
    """
    y, s, w = ds.y_true, ds.score(model), ds.sample_weight
    p, r, _ = metrics.precision_recall_curve(y, s, sample_weight=w)
    p, r = p[::-1], r[::-1]  # increasing recall
    step = np.diff(r)
    rises = np.flatnonzero(step > 0) + 1
    d = sum_terms(
        lambda i: rf"{fmt(r[rises[i]] - r[rises[i] - 1])} \cdot {fmt(p[rises[i]])}",
        step[rises - 1] * p[rises],
        name="Average precision",
    )
    note = Phrase(
        "${n:,} thresholds where recall rises, each adding (R_i - R_(i-1)) x P_i", n=len(rises)
    )
    if d.note():
        note = joined([note, d.note()], "; ")
    return Derivation("Average precision", AP_FORMULA, d.aligned(), note, d.total)


def log_loss(ds: Dataset, model: str) -> Derivation:
    r"""Log loss as the mean of the samples' terms -log p(true class), the first written out.

    Examples
    --------
    >>> line = log_loss(_toy(), "m")
    >>> print(line.latex.replace(" + ", "+"))
    \text{Log loss} = \frac{0.1054+0.2231+1.204+\dots+0.5108+0.1054}{6} = \frac{3.065}{6} = 0.5108
    >>> line.note
    'sample 0 (y = 1, p = 0.9000): -log(0.9000) = 0.1054; the first 3 and last 2 of 6 terms'
    """
    y, s, w = ds.y_true.astype(int), ds.score(model), ds.sample_weight
    try:
        terms = metrics.log_loss_per_sample(y, s, labels=[0, 1])
        metrics.log_loss(y, s, sample_weight=w, labels=[0, 1])
    except metrics.MetricInputError as exc:
        return Derivation(
            "Log loss", LOG_LOSS_FORMULA, "", Phrase("no log loss: ${why}", why=str(exc))
        )
    d = mean_terms(terms, w, name="Log loss")
    first = f"log({fmt(s[0])})" if y[0] == 1 else f"log(1 - {fmt(s[0])})"
    note = Phrase(
        "sample ${id} (y = ${y}, p = ${p}): -${first} = ${term}",
        id=ds.sample_ids[0],
        y=y[0],
        p=fmt(s[0]),
        first=first,
        term=fmt(terms[0]),
    )
    rest = d.note()
    note = joined([note, rest], "; ") if rest else note
    return Derivation("Log loss", LOG_LOSS_FORMULA, d.latex(), note, d.value)


#: Headline label -> (rate key of metrics.rates_at_threshold, formula, numerator,
#: denominator), with the counts' names written as {tp}, {fp}, {fn}, {tn}, {n}.
RATES = {
    "Precision": ("precision", r"\frac{TP}{TP + FP}", "{tp}", "{tp} + {fp}"),
    "Recall": ("recall", r"\frac{TP}{TP + FN}", "{tp}", "{tp} + {fn}"),
    "F1": ("f1", r"\frac{2\,TP}{2\,TP + FP + FN}", r"2 \cdot {tp}", r"2 \cdot {tp} + {fp} + {fn}"),
    "Accuracy": ("accuracy", r"\frac{TP + TN}{N}", "{tp} + {tn}", "{n}"),
    "F-beta": (
        "fbeta",
        r"\frac{(1+\beta^2)\,TP}{(1+\beta^2)\,TP + \beta^2 FN + FP}",
        r"{b} \cdot {tp}",
        r"{b} \cdot {tp} + {b2} \cdot {fn} + {fp}",
    ),
    "Error rate": ("error_rate", r"\frac{FP + FN}{N}", "{fp} + {fn}", "{n}"),
    "TPR": ("tpr", r"\frac{TP}{TP + FN}", "{tp}", "{tp} + {fn}"),
    "FPR": ("fpr", r"\frac{FP}{FP + TN}", "{fp}", "{fp} + {tn}"),
}


def rates(
    ds: Dataset, model: str, t: float, beta: float
) -> tuple[dict[str, str], dict[str, Derivation]]:
    r"""Every rate at threshold ``t`` (score >= t is positive) with its counts plugged in.

    Returns
    -------
    counts : dict
        ``tp``, ``fp``, ``fn``, ``tn`` and ``n`` as written (weighted when the data
        has ``sample_weight``; whole numbers without decimals).
    lines : dict
        Headline label (a key of :data:`RATES`) -> its :class:`~explorer.derivation.Derivation`.

    Examples
    --------
    >>> counts, lines = rates(_toy(), "m", 0.5, 1.0)
    >>> counts
    {'tp': '2', 'fp': '1', 'fn': '1', 'tn': '2', 'n': '6'}
    >>> lines["TPR"].latex
    '\\text{TPR} = \\frac{TP}{TP + FN} = \\frac{2}{2 + 1} = 0.6667'
    >>> lines["F-beta"].latex.split(" = ")[-2:]
    ['\\frac{2 \\cdot 2}{2 \\cdot 2 + 1 \\cdot 1 + 1}', '0.6667']
    """
    r = metrics.rates_at_threshold(
        ds.y_true, ds.score(model), t, beta=beta, sample_weight=ds.sample_weight
    )
    b2 = float(beta) ** 2
    names = {
        "tp": count(r["tp"]),
        "fp": count(r["fp"]),
        "fn": count(r["fn"]),
        "tn": count(r["tn"]),
        "n": count(r["tp"] + r["fp"] + r["fn"] + r["tn"]),
        "b": count(1 + b2) if math.isfinite(b2) else r"\infty",
        "b2": count(b2) if math.isfinite(b2) else r"\infty",
    }
    written = {k: names[k] for k in ("tp", "fp", "fn", "tn", "n")}
    names = {k: in_latex(v) for k, v in names.items()}
    out = {}
    for label, (key, formula, num, den) in RATES.items():
        plugged = rf"\frac{{{num.format(**names)}}}{{{den.format(**names)}}}"
        if key == "fbeta" and not math.isfinite(b2):
            plugged = r"\text{Recall (}\beta = \infty\text{)}"
        latex = rf"\text{{{label}}} = {formula} = {plugged} = {fmt(r[key])}"
        out[label] = Derivation(label, formula, latex, value=r[key])
    return written, out


def curve_lines(ds: Dataset, model: str) -> dict[str, Derivation]:
    """ROC AUC, average precision and log loss of ``model``: the threshold-free lines.

    Examples
    --------
    >>> list(curve_lines(_toy(), "m"))
    ['ROC AUC', 'Average precision', 'Log loss']
    """
    return {
        "ROC AUC": roc_auc(ds, model),
        "Average precision": average_precision(ds, model),
        "Log loss": log_loss(ds, model),
    }
