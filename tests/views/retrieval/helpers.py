"""Helpers of the Top-K retrieval page's AppTest tests: open the page, the expected
headline, the numbers and tables on screen."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from metrics import (
    retrieval_means,
    retrieval_per_query,
)
from tests import conftest
from tests.conftest import APP, graded_case

PAGE = script("retrieval")


TOL = {"rtol": 1e-9, "atol": 1e-12}


def open_page(sample, **params):
    return conftest.open_page(PAGE, sample, **params)


def expected(ds, model=None, *, empty="zero", **opts):
    t = retrieval_per_query(ds.y_true, ds.score(model), **opts)
    m = retrieval_means(t, empty=empty)
    return {
        "P@K": fmt(m["P@K"]),
        "R@K": fmt(m["R@K"]),
        "Hit rate@K": fmt(m["hit rate@K"]),
        "MAP@K": fmt(m["AP@K"]),
        "MRR": fmt(m["RR"]),
        "ERR@K": fmt(m["ERR@K"]),
        "NDCG@K": fmt(m["NDCG@K"]),
    }


def shown(at):
    return {m.label: m.value for m in at.metric}


def shown_tables(at):
    """The per-query table and the curve chart's lines as the page shows them."""
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    return at.dataframe[-1].value, {tr["name"]: tr["y"] for tr in chart["data"]}


def expected_map(ds, k, den):
    return metrics.mean_average_precision_at_k(ds.y_true, ds.score(), k=k, denominator=den)


def open_big(n=10_001, m=100):
    """A graded dataset just past the page's switchboard threshold (n x m > 10**6 cells)."""
    from explorer.datasets import Dataset

    y, s = graded_case(21, n=n, m=m, ties=True)
    ds = Dataset("big graded", "graded", y, scores={"model": s})
    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    at.switch_page(PAGE).run()
    assert not at.exception
    return at, ds


HEADLINE_COLUMNS = {
    "P@K": "P@K",
    "R@K": "R@K",
    "Hit rate@K": "hit rate@K",
    "MAP@K": "AP@K",
    "MRR": "RR",
    "ERR@K": "ERR@K",
    "NDCG@K": "NDCG@K",
}


def open_dataset(ds, **params) -> AppTest:
    from pathlib import Path

    at = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()
