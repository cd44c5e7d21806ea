"""Top-K retrieval page: the headline means, each written as the mean of its queries."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from metrics import (
    precision_at_k_per_sample,
    reciprocal_rank,
    retrieval_per_query,
)
from tests import conftest
from tests.conftest import graded_case, metric, read_derivation
from tests.views.retrieval.helpers import (
    HEADLINE_COLUMNS,
    PAGE,
    TOL,
    expected,
    open_page,
    shown,
)


def test_seed002_opens_with_the_worked_example_and_fractions():
    at = open_page("seed002_map")
    ds = load_sample("seed002_map")
    assert metric(at, "MAP@K") == "0.6278"
    assert shown(at) == expected(ds, k=5)
    assert metric(at, "P@K") == fmt(metrics.precision_at_k(ds.y_true, ds.score(), k=5))
    assert metric(at, "MRR") == fmt(metrics.mean_reciprocal_rank(ds.y_true, ds.score()))
    assert metric(at, "NDCG@K") == fmt(metrics.ndcg_score(ds.y_true, ds.score(), k=5))
    latex = " ".join(x.value for x in at.latex)
    for frac in (
        r"\tfrac{1}{1}",
        r"\tfrac{2}{3}",
        r"\tfrac{3}{5}",
        r"\tfrac{1}{2}",
        r"\tfrac{2}{4}",
    ):
        assert frac in latex
    assert "0.7556" in latex and "0.5000" in latex and "= 0.6278" in latex
    assert r"\frac{0.7556 + 0.5000}{2}" in latex


def test_every_headline_is_written_as_the_mean_of_its_queries():
    ds = load_sample("seed002_map")
    y, s = ds.y_true, ds.score()
    at = conftest.open_page(PAGE, "seed002_map")
    k = at.slider(key="ret_k").value
    per_query = retrieval_per_query(y, s, k=k)
    # independent per-query functions agree with the columns the lines are checked against
    np.testing.assert_allclose(per_query["P@K"], precision_at_k_per_sample(y, s, k=k), **TOL)
    np.testing.assert_allclose(per_query["RR"], reciprocal_rank(y, s), **TOL)
    for label, column in HEADLINE_COLUMNS.items():
        d = read_derivation(at, label)
        v = per_query[column].to_numpy()
        assert d["terms"] == [fmt(x) for x in v] and d["denominator"] == str(len(v)), label
        assert d["value"] == metric(at, label) == fmt(v.mean()), label
    assert read_derivation(at, "MAP@K")["terms"] == ["0.7556", "0.5000"]


def test_derivation_of_many_queries_leaves_out_the_dropped_ones():
    from explorer.datasets import Dataset

    y, s = graded_case(8, n=25)  # row 0 has no relevant item
    ds = Dataset("graded25", "graded", y, {"m": s})
    at = AppTest.from_file(str(conftest.ROOT / PAGE), default_timeout=30)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    at.radio(key="ret_empty_query").set_value("drop").run()
    assert not at.exception
    k = at.slider(key="ret_k").value
    per_query = retrieval_per_query(y, s, k=k, ties="column")
    kept = per_query[per_query["relevant"] > 0]
    assert len(kept) == 24
    for label, column in HEADLINE_COLUMNS.items():
        d = read_derivation(at, label)
        v = kept[column].to_numpy()
        assert d["omitted"] and d["denominator"] == "24", label
        assert d["terms"] == [fmt(x) for x in (*v[:3], *v[-2:])], label
        assert d["total"] == fmt(v.sum()), label
        assert d["value"] == metric(at, label) == fmt(v.mean()), label
