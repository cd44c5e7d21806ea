"""One group's value on the Slices page, derived term by term as every other page
derives its headline: the metric's formula with that group's own terms or counts in,
ending in the number of the group's row of the table. Pure: no Streamlit.

A mean over samples (queries) is written with its per-sample terms
(:func:`explorer.derivation.mean_terms`); ROC AUC and average precision as the
Curves page writes them, on the group's rows (:mod:`explorer.pages.curves_derivation`);
RMSE and R² as the Regression page does (:mod:`explorer.pages.regression_derivation`);
a rate at the threshold from the group's confusion counts at its own threshold.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

import metrics
from explorer import slicing
from explorer.datasets import Dataset
from explorer.derivation import Derivation, mean_terms
from explorer.formatting import count, fmt, in_latex
from explorer.i18n import Phrase
from explorer.pages import curves_derivation, regression_derivation, slices


def _log_loss(y, s):
    return metrics.log_loss_per_sample(y, s, labels=np.arange(s.shape[1]))


#: The metrics that are a (weighted) mean of one term per row: label -> the terms.
PER_ROW = {
    "Accuracy": lambda y, pred: (y == pred).astype(np.float64),
    "Log loss": _log_loss,
    "MAE": lambda y, s: np.abs(y - s),
    "LRAP": metrics.lrap_per_sample,
    "Coverage error": metrics.coverage_per_sample,
    "Ranking loss": metrics.ranking_loss_per_sample,
    "NDCG": metrics.ndcg_per_sample,
    "DCG": metrics.dcg_per_sample,
}
#: A rate at the threshold: its numerator's cells, its denominator's.
RATES = {
    "Accuracy at the threshold": (("TP", "TN"), ("TP", "FP", "FN", "TN")),
    "Recall (TPR) at the threshold": (("TP",), ("TP", "FN")),
    "False positive rate at the threshold": (("FP",), ("FP", "TN")),
}
#: Each rate's name without "at the threshold" (its derivation's name says the group).
SHORT = {
    "Accuracy at the threshold": "Accuracy",
    "Recall (TPR) at the threshold": "Recall (TPR)",
    "False positive rate at the threshold": "False positive rate",
}


def group_derivation(
    ds: Dataset, settings: slices.Settings, code: int, g: slices.Grouping | None = None
) -> Derivation:
    """The value of group ``code`` (of :func:`explorer.pages.slices.grouping`) derived;
    a rate at the threshold from :func:`explorer.pages.slices.rates`' counts (at the
    group's own threshold). ``g``: the settings' grouping, when the caller holds it.

    Examples
    --------
    >>> ds = Dataset("t", "regression", np.array([1.0, 2, 4, 8]), {"m": np.array([1.5, 2, 3, 8])},
    ...              attributes={"site": np.array(["A", "B", "A", "B"], dtype=object)})
    >>> group_derivation(ds, slices.Settings("m", "MAE", ("site",)), 0).latex
    '\\\\text{MAE} = \\\\frac{0.5000 + 1}{2} = 0.7500'
    """
    g = slices.grouping(ds, settings) if g is None else g
    label = g.labels[code]
    if settings.metric in RATES:
        return _rate(settings.metric, slices.rates(ds, settings, g)[0].iloc[code], label)
    if settings.metric in PER_ROW:
        metric = slices.metric_of(ds.kind, settings.metric)
        y, s = slices.arrays(ds, settings.model, metric)
        rows = g.codes == code
        w = None if ds.sample_weight is None else ds.sample_weight[rows]
        d = mean_terms(PER_ROW[settings.metric](y[rows], s[rows]), w, name=settings.metric)
        name = Phrase("${metric} of ${group}", metric=Phrase(settings.metric), group=label)
        return Derivation(name, "", d.latex(), d.note(), d.value)
    sub = slicing.subset(ds, g.conditions[code])
    try:
        line = _whole_page_line(sub, settings)
    except metrics.MetricInputError as exc:  # e.g. a group of one class: no ROC AUC
        line = Derivation(settings.metric, "", "", Phrase("undefined: ${err}", err=exc.args[0]))
    metric = line.name if isinstance(line.name, Phrase) else Phrase(line.name)
    return dataclasses.replace(
        line, name=Phrase("${metric} of ${group}", metric=metric, group=label)
    )


def _whole_page_line(sub: Dataset, settings: slices.Settings) -> Derivation:
    """The line another page writes for the metric, on the group's rows alone."""
    if settings.metric == "ROC AUC":
        return curves_derivation.roc_auc(sub, settings.model)
    if settings.metric == "Average precision":
        return curves_derivation.average_precision(sub, settings.model)
    lines = regression_derivation.derivations(sub, settings.model, "uniform", 0, 0.0)
    return lines[settings.metric]


def _rate(metric: str, row: pd.Series, label: str) -> Derivation:
    """A rate at the group's threshold from its confusion counts."""
    top, bottom = RATES[metric]
    num, den = float(sum(row[c] for c in top)), float(sum(row[c] for c in bottom))
    value = num / den if den else float("nan")
    name = Phrase(SHORT[metric])

    def written(cells):
        return " + ".join(in_latex(count(row[c])) for c in cells)

    lhs = rf"\text{{{name}}} = "
    formula = lhs + rf"\frac{{{' + '.join(top)}}}{{{' + '.join(bottom)}}}"
    if not den:
        undefined = Phrase("undefined: no row to divide by")
        return Derivation(_of(name, label), formula, "", undefined)
    latex = (
        lhs + rf"\frac{{{written(top)}}}{{{written(bottom)}}} = "
        rf"\frac{{{in_latex(count(num))}}}{{{in_latex(count(den))}}} = {in_latex(fmt(value))}"
    )
    note = Phrase("its counts at the threshold ${t:fmt}", t=float(row["threshold"]))
    return Derivation(_of(name, label), formula, latex, note, value)


def _of(metric: Phrase, group: str) -> Phrase:
    """A derivation's name: the metric of the group."""
    return Phrase("${metric} of ${group}", metric=metric, group=group)
