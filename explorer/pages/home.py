"""The Home page's model: three headline numbers of the active dataset, by its kind.

Pure functions (no Streamlit); the cached form is declared in :mod:`explorer.ui.cache`
(section "Home").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import multiclass

#: The headline of each task kind: (st.metric label, metrics function, takes weights).
HEADLINE = {
    "binary": (
        ("ROC AUC", metrics.roc_auc_score, True),
        ("Average precision", metrics.average_precision_score, True),
        ("Gini", metrics.gini, False),
    ),
    "multilabel": (
        ("Coverage error", metrics.coverage_error, True),
        ("LRAP", metrics.label_ranking_average_precision_score, True),
        ("Ranking loss", metrics.label_ranking_loss, True),
    ),
    "graded": (
        ("DCG", metrics.dcg_score, True),
        ("NDCG", metrics.ndcg_score, True),
        ("MRR", metrics.mean_reciprocal_rank, False),
    ),
    "regression": (
        ("MAE", metrics.mean_absolute_error, True),
        ("RMSE", metrics.root_mean_squared_error, True),
        ("R²", metrics.r2_score, True),
    ),
    "multiclass": (
        ("Accuracy", multiclass.accuracy_of, True),
        ("Macro ROC AUC (OvR)", multiclass.macro_auc_of, True),
        ("Log loss", multiclass.log_loss_of, True),
    ),
}


#: A graded run's headline as per-query values (each takes ``retrieved=``): with a
#: ``retrieved`` mask the Home page computes these and means them (weighted for DCG, NDCG).
MASKED_PER_SAMPLE = {
    "DCG": metrics.dcg_per_sample,
    "NDCG": metrics.ndcg_per_sample,
    "MRR": metrics.reciprocal_rank,
}


def masked_values(ds: Dataset) -> dict:
    """Each headline's per-query values of a graded dataset that carries a ``retrieved``
    mask (the items a run never retrieved count in the ideal DCG, never in a ranking).

    Examples
    --------
    >>> import numpy as np
    >>> y, s = np.array([[1, 2]]), np.array([[0.9, 0.1]])
    >>> run = Dataset("r", "graded", y, {"m": s}, retrieved=np.array([[True, False]]))
    >>> {k: round(float(v[0]), 4) for k, v in masked_values(run).items()}
    {'DCG': 1.0, 'NDCG': 0.3801, 'MRR': 1.0}
    """
    y, s = ds.y_true, ds.score()
    return {label: f(y, s, retrieved=ds.retrieved) for label, f in MASKED_PER_SAMPLE.items()}


class Number(NamedTuple):
    """One headline number: its value, or None and why the metric is undefined here."""

    label: str
    value: float | None
    why: str | None = None


def headline(ds: Dataset) -> tuple[Number, ...]:
    """The headline numbers of ``ds``'s first model, computed by ``metrics``.

    A metric that valid data leaves undefined (one class, one label column) has no
    value and says why (the message of :class:`metrics.MetricInputError`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> [(n.label, round(n.value, 4)) for n in headline(load_sample("seed002_map"))]
    [('DCG', 1.4742), ('NDCG', 0.7682), ('MRR', 0.75)]
    >>> import numpy as np
    >>> one_class = Dataset("t", "binary", np.array([1, 1]), {"m": np.array([0.2, 0.7])})
    >>> [n.value for n in headline(one_class)]
    [None, 1.0, None]
    >>> headline(one_class)[0].why.startswith("ROC AUC is undefined: y_true holds a single class")
    True
    """
    y, s, w = ds.y_true, ds.score(), ds.sample_weight
    if ds.retrieved is not None and ds.kind == "graded":
        values = masked_values(ds)
        return tuple(
            Number(label, float(np.average(values[label], weights=w if weighted else None)))
            for label, _, weighted in HEADLINE[ds.kind]
        )
    out = []
    for label, compute, weighted in HEADLINE[ds.kind]:
        try:
            value = compute(y, s, sample_weight=w) if weighted else compute(y, s)
        except metrics.MetricInputError as exc:
            out.append(Number(label, None, str(exc)))
        else:
            out.append(Number(label, float(value)))
    return tuple(out)


#: Where each kind's headline numbers are derived term by term (Home derives the
#: binary ones itself).
DERIVED_ON = {
    "multilabel": "Label ranking",
    "graded": "DCG & NDCG",
    "regression": "Regression",
    "multiclass": "Multiclass classification",
}


def gini_latex(auc: float, gini: float) -> str:
    r"""Gini derived from ROC AUC (Gini = 2 AUC - 1), ending in the headline's digits.

    Examples
    --------
    >>> gini_latex(0.75, 0.5)
    '\\text{Gini} = 2 \\cdot \\text{ROC AUC} - 1 = 2 \\cdot 0.7500 - 1 = 0.5000'
    """
    return rf"\text{{Gini}} = 2 \cdot \text{{ROC AUC}} - 1 = 2 \cdot {fmt(auc)} - 1 = {fmt(gini)}"
