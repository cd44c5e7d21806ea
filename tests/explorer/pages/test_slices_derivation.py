"""Each group's value derived on the Slices page: for every kind and metric, the line
ends in the metric computed on that group's rows alone (weighted too), and a rate at
the threshold is its counts at the group's own threshold."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import slices
from explorer.pages.slices_derivation import group_derivation
from explorer.samples import load_sample
from tests.conftest import graded_case


def _with_topic(ds: Dataset, weighted: bool = False) -> Dataset:
    n = ds.n_samples
    topic = np.where(np.arange(n) % 3 == 0, "a", "b<*>").astype(object)
    w = np.random.default_rng(0).uniform(0.5, 2.0, n) if weighted else ds.sample_weight
    return dataclasses.replace(ds, attributes={"topic": topic}, sample_weight=w)


def _graded() -> Dataset:
    y, s = graded_case(4, n=40)
    return _with_topic(Dataset("g", "graded", y, {"m": s + np.arange(s.shape[1]) * 1e-3}))


CASES = {
    "binary": _with_topic(load_sample("breast_cancer")),
    "binary, weighted": _with_topic(load_sample("breast_cancer"), weighted=True),
    "regression": _with_topic(load_sample("diabetes")),
    "regression, weighted": _with_topic(load_sample("diabetes"), weighted=True),
    "multiclass": _with_topic(load_sample("iris")),
    "multilabel": _with_topic(load_sample("digit_properties")),
    "graded": _graded(),
}
#: Rates at a threshold by hand: numerator and denominator cells of (y, predicted).
RATES = {
    "accuracy": (((1, 1), (0, 0)), ((1, 1), (0, 0), (1, 0), (0, 1))),
    "tpr": (((1, 1),), ((1, 1), (1, 0))),
    "fpr": (((0, 1),), ((0, 1), (0, 0))),
}


def _reference(ds, metric, y, s, rows, t):
    w = np.ones(ds.n_samples) if ds.sample_weight is None else ds.sample_weight
    if isinstance(metric.metric, str):
        pred = (s >= t).astype(int)
        top, bottom = RATES[metric.metric]
        cells = {c: np.sum(w[rows] * ((y[rows] == c[0]) & (pred[rows] == c[1]))) for c in bottom}
        return sum(cells[c] for c in top) / sum(cells.values())
    kw = {} if ds.sample_weight is None else {"sample_weight": ds.sample_weight[rows]}
    return metric.metric(y[rows], s[rows], **kw)


@pytest.mark.parametrize("case", list(CASES))
def test_each_groups_line_ends_in_the_metric_on_its_rows(case):
    ds = CASES[case]
    for label in slices.metric_labels(ds.kind):
        metric = slices.metric_of(ds.kind, label)
        settings = slices.Settings(ds.model_names[0], label, ("topic",), threshold=0.4)
        if ds.kind == "binary":
            settings = dataclasses.replace(settings, group_thresholds=(("a", 0.7),))
        g = slices.grouping(ds, settings)
        y, s = slices.arrays(ds, settings.model, metric)
        for code, group in enumerate(g.labels):
            rows = g.codes == code
            want = _reference(ds, metric, y, s, rows, 0.7 if group == "a" else 0.4)
            line = group_derivation(ds, settings, code)
            assert line.value == pytest.approx(want, rel=1e-12, abs=1e-12), (label, group)
            ending = line.latex.removesuffix(r"\end{aligned}")
            assert ending.endswith(fmt(line.value)), (label, line.latex)
            assert group in line.name


def test_a_group_of_one_class_is_derived_as_undefined_with_the_reason():
    y = np.array([1, 1, 1, 0, 1, 0])
    site = np.array(["A", "A", "A", "B", "B", "B"], dtype=object)  # A: positives only
    ds = Dataset("t", "binary", y, {"m": np.linspace(0.1, 0.9, 6)}, attributes={"site": site})
    settings = slices.Settings("m", "ROC AUC", ("site",))
    a = group_derivation(ds, settings, 0)
    assert a.lines == () and a.latex == "" and np.isnan(a.value)
    assert "single class" in str(a.note)
    b = group_derivation(ds, settings, 1)  # B: 1 positive above 1 of 2 negatives
    assert b.value == pytest.approx(0.5)
