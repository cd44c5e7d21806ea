"""Top-K retrieval page: one query step by step (its sums, its counts, opening on the
worst query, a typed query on big data)."""

from __future__ import annotations

import json

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import COLUMN_WORDS, fmt
from explorer.samples import load_sample
from metrics import (
    hit_rate_at_k_per_sample,
    precision_at_k_per_sample,
    recall_at_k_per_sample,
    retrieval_per_query,
    retrieval_query_steps,
)
from tests import conftest
from tests.conftest import graded_case, metric, svg_charts
from tests.views.retrieval.helpers import PAGE, expected, open_dataset, open_page, shown

DRILLS = [
    ("AP@K", "ap_term", "AP@K"),
    ("ERR", "err_term", "ERR@K"),
    ("DCG", "dcg_term", None),
    ("RR", "rr_term", "RR"),
]


def test_drill_down_sums_match_the_metrics():
    ds = load_sample("diabetes_ranking")
    at = open_page("diabetes_ranking")
    at.selectbox(key="ret_model").set_value("tree").run()
    at.selectbox(key="ret_tie_mode").set_value("tie-averaged").run()
    at.selectbox(key="ret_query").set_value("3").run()
    opts = {"k": 5, "ties": "tie-averaged"}
    steps = retrieval_query_steps(ds.y_true, ds.score("tree"), 3, **opts)
    per_q = retrieval_per_query(ds.y_true, ds.score("tree"), **opts)
    for drill, col, value_col in DRILLS:
        at.radio(key="ret_drill_metric").set_value(drill).run()
        assert not at.exception
        total = steps[col].sum()
        if value_col:
            assert total == pytest.approx(per_q[value_col][3], abs=1e-12)
        else:
            assert total / steps["ideal_dcg"][0] == pytest.approx(per_q["NDCG@K"][3], abs=1e-12)
        text = " ".join(m.value for m in at.markdown)
        assert f"Sum of the **{COLUMN_WORDS[col]}** column: **{fmt(total)}**" in text
        table = at.dataframe[-2].value  # the step table (the per-query table comes last)
        assert table[col].sum() == pytest.approx(total, abs=1e-12)
        assert conftest.code_style_headers(at) == []  # hits_so_far reads "hits so far"
        chart = json.loads(at.get("plotly_chart")[1].proto.spec)
        np.testing.assert_allclose(chart["data"][0]["y"], steps[col])
        assert fmt(total) in " ".join(x.value for x in at.latex)


def test_drill_down_opens_on_the_worst_query():
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    ap = retrieval_per_query(y, s, k=5)["AP@K"].to_numpy()
    ids = np.asarray(ds.sample_ids)
    worst = int(np.lexsort((ids, ap))[0])  # lowest AP@K, ties by query id
    assert worst != 0
    at = conftest.open_page(PAGE, "diabetes_ranking")
    assert at.selectbox(key="ret_query").value == ds.sample_ids[worst]
    assert at.query_params["query"] == ds.sample_ids[worst]
    table = next(d.value for d in at.dataframe if "query" in d.value.columns)
    assert table["query"].iloc[0] == ds.sample_ids[worst]  # the worst-first table's first row
    assert f"**{fmt(ap[worst])}**" in " ".join(m.value for m in at.markdown)
    # the worst-first table is one click from the headline
    assert next(h for h in at.subheader if h.proto.anchor == "ret-worst-first")
    assert any("(#ret-worst-first)" in c.value for c in at.caption)


def test_a_link_that_names_a_query_still_opens_it():
    at = conftest.open_page(PAGE, "diabetes_ranking", query="7")
    assert at.selectbox(key="ret_query").value == "7"


def test_the_query_s_counts_are_plugged_into_p_r_and_hit_rate():
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score(ds.model_names[0])
    at = conftest.open_page(PAGE, "diabetes_ranking", query="3", k="4")
    q = 3
    hits = int(precision_at_k_per_sample(y >= 1, s, k=4)[q] * 4)
    n_rel = int((y[q] >= 1).sum())
    line = next(m.value for m in at.markdown if m.value.startswith("This query: P@K"))
    p = fmt(precision_at_k_per_sample(y >= 1, s, k=4)[q])
    r = fmt(recall_at_k_per_sample(y >= 1, s, k=4)[q])
    assert f"P@K = hits@K / K = {hits} / 4 = {p}" in line
    assert f"R@K = hits@K / M = {hits} / {n_rel} = {r}" in line
    assert f"hit rate@K = {fmt(hit_rate_at_k_per_sample(y >= 1, s, k=4)[q])}" in line


def test_under_drop_the_worst_query_is_one_the_means_keep():
    from explorer.datasets import Dataset

    y, s = graded_case(8, n=25)  # row 0 has no relevant item: AP@K 0, the lowest
    ds = Dataset("graded25", "graded", y, {"m": s})
    at = AppTest.from_file(str(conftest.ROOT / PAGE), default_timeout=30)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.session_state["ret_empty_query"] = "drop"  # as a link with empty_query=drop
    at.run()
    assert not at.exception
    k = at.slider(key="ret_k").value
    per_query = retrieval_per_query(y, s, k=k)
    ap = per_query["AP@K"].to_numpy()
    assert ap[0] == 0 and per_query["relevant"].iloc[0] == 0
    kept = np.flatnonzero(per_query["relevant"].to_numpy() > 0)
    ids = np.asarray(ds.sample_ids)
    worst = kept[np.lexsort((ids[kept], ap[kept]))[0]]
    assert at.selectbox(key="ret_query").value == ds.sample_ids[worst] != ds.sample_ids[0]
    table = next(d.value for d in at.dataframe if "query" in d.value.columns)
    assert table["query"].iloc[0] == ds.sample_ids[worst]
    assert table["query"].iloc[-1] == ds.sample_ids[0]  # the dropped query last


def test_k_moves_in_the_panel_and_a_typed_query_at_1500_queries():
    """K and what it changes are one st.fragment: each of several K moves shows the
    headline of that K (metrics), and the URL follows. Above 1,000 queries the query is a
    typed id (a select box would send all 1,500): a typed id opens that query, an unknown
    one falls back to the worst query without an error."""
    from explorer.datasets import Dataset

    y, s = graded_case(21, n=1500, m=8)
    ds = Dataset("graded1500", "graded", y, {"m": s})
    at = open_dataset(ds)
    assert not at.exception
    assert [w.key for w in at.text_input] == ["ret_query"]
    for k in (2, 3, 7, 4):
        at.slider(key="ret_k").set_value(k).run()
        assert not at.exception
        assert shown(at) == expected(ds, "m", k=k)
        assert metric(at, "P@K") == fmt(metrics.precision_at_k(y, s, k=k))
        assert at.query_params["k"] == str(k)
    worst = at.text_input(key="ret_query").value
    at.text_input(key="ret_query").input("1234").run()
    assert not at.exception and at.query_params["query"] == "1234"
    ap = retrieval_per_query(y, s, k=4)["AP@K"][1234]
    assert f"this query's AP@K in the per-query table: **{fmt(ap)}**" in " ".join(
        m.value for m in at.markdown
    )
    at.text_input(key="ret_query").input("no such query").run()
    assert not at.exception
    assert at.text_input(key="ret_query").value == worst == at.query_params["query"]
    again = open_dataset(ds, k="4", query="1234")
    assert shown(again) == shown(at)
    assert again.text_input(key="ret_query").value == "1234"


def test_past_30_items_the_drill_down_draws_the_top_k_and_every_term():
    """At 40 items the chart and step table draw the first 30 positions, or the top K
    when K is larger, or up to the query's first relevant item (RR's only term): their
    sums are still the query's values (metrics); a tie group cut at the end keeps its
    whole size in its label."""
    from explorer.datasets import Dataset

    y = np.zeros((3, 40))
    y[0, [0, 2]] = 2.0  # positions 1 and 3
    y[1, 34] = 1.0  # its only relevant item at position 35: the worst AP@K, opened first
    s = np.tile(np.arange(40, 0, -1.0), (3, 1))
    s[0, 28:32] = s[0, 28]  # a tie group at positions 29 to 32
    ds = Dataset("late40", "graded", y, {"m": s})
    at = open_dataset(ds)
    assert not at.exception
    assert at.selectbox(key="ret_query").value == "1"

    def drawn():  # past 30 items both charts are SVG: the ranked list is the second
        charts_ = svg_charts(at)
        assert len(charts_) == 2 and not at.get("plotly_chart")
        chart = charts_[1]
        caption = " ".join(c.value for c in at.caption)
        return len(at.dataframe[-2].value), chart.count('class="bar"'), chart, caption

    at.radio(key="ret_drill_metric").set_value("RR").run()
    rows, bars, _, caption = drawn()
    assert rows == bars == 35 and "the first 35 of 40 positions" in caption
    assert at.dataframe[-2].value["rr_term"].sum() == pytest.approx(1 / 35, abs=1e-15)
    assert metrics.reciprocal_rank(y, s)[1] == pytest.approx(1 / 35, abs=1e-15)
    at.selectbox(key="ret_query").set_value("0").run()
    at.radio(key="ret_drill_metric").set_value("AP@K").run()
    rows, bars, chart, caption = drawn()
    assert rows == bars == 30 and "the first 30 of 40 positions" in caption
    ap = retrieval_per_query(y, s, k=5)["AP@K"][0]
    assert at.dataframe[-2].value["ap_term"].sum() == pytest.approx(ap, abs=1e-15)
    assert "<title>tie: 4 items</title>" in chart
    at.slider(key="ret_k").set_value(36).run()
    rows, bars, _, caption = drawn()
    assert rows == bars == 36 and "the first 36 of 40 positions" in caption
