"""Top-K retrieval page: the convention functions of metrics.retrieval (against slow
references), the chart builders, and the page under AppTest."""

from __future__ import annotations

import itertools
import json
import math
import re

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.charts import retrieval as charts
from explorer.charts.retrieval import grade_color, metrics_vs_k_figure, ranked_list_figure
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from metrics import (
    CONVENTION_METRICS,
    MetricInputError,
    average_precision_at_k,
    expected_reciprocal_rank_per_sample,
    graded_gain,
    hit_rate_at_k_per_sample,
    precision_at_k_per_sample,
    recall_at_k_per_sample,
    reciprocal_rank,
    relevant_at_level,
    retrieval_curve,
    retrieval_means,
    retrieval_per_query,
    retrieval_query_steps,
    retrieval_steps,
    retrieval_summary,
    score_order,
    tie_break_order,
)
from tests import conftest
from tests.conftest import APP, graded_case, metric

PAGE = script("retrieval")
TOL = {"rtol": 1e-9, "atol": 1e-12}
DENS = ["min_m_k", "relevant", "k", "hits"]


# ---------------------------------------------------------------------------
# slow references: one ranked list at a time, plain loops
# ---------------------------------------------------------------------------
def ref_list(grades, n_rel, k, *, level=1, denominator="min_m_k", gain="linear", max_grade):
    """Every metric of one ranked list of grades (the whole row's grades, ranked)."""
    grades = [float(g) for g in grades]
    rel = [1.0 if g >= level else 0.0 for g in grades]
    hits, ap_sum, rr, err, still = 0.0, 0.0, 0.0, 0.0, 1.0
    for i, r in enumerate(rel):
        if r:
            if rr == 0.0:
                rr = 1.0 / (i + 1)
    for i in range(min(k, len(grades))):
        if rel[i]:
            hits += 1
            ap_sum += hits / (i + 1)
        stop = (2 ** grades[i] - 1) / 2**max_grade if max_grade > 0 else 0.0
        err += still * stop / (i + 1)
        still *= 1 - stop
    den = {"min_m_k": min(n_rel, k), "relevant": n_rel, "k": k, "hits": hits}[denominator]

    def g(x):
        return x if gain == "linear" else 2**x - 1

    dcg = sum(g(grades[i]) / math.log2(i + 2) for i in range(min(k, len(grades))))
    ideal_sorted = sorted(grades, reverse=True)
    idcg = sum(g(ideal_sorted[i]) / math.log2(i + 2) for i in range(min(k, len(grades))))
    return {
        "P@K": hits / k,
        "R@K": hits / n_rel if n_rel else 0.0,
        "hit rate@K": 1.0 if hits > 0 else 0.0,
        "AP@K": ap_sum / den if den else 0.0,
        "RR": rr,
        "ERR@K": err,
        "NDCG@K": dcg / idcg if idcg else 0.0,
    }


def tie_orders(scores):
    """Every ranking of one row that respects the scores (all orders inside tie groups)."""
    values = sorted(set(scores), reverse=True)
    groups = [[j for j, s in enumerate(scores) if s == v] for v in values]
    for combo in itertools.product(*(itertools.permutations(g) for g in groups)):
        yield [j for part in combo for j in part]


def ref_tie_averaged(yt, ys, k, **opts):
    """Mean over every admissible ranking of each query (exact expectation)."""
    rows = []
    for y, s in zip(yt, ys, strict=True):
        n_rel = sum(1 for g in y if g >= opts.get("level", 1))
        vals = [ref_list([y[j] for j in o], n_rel, k, **opts) for o in tie_orders(list(s))]
        rows.append({name: np.mean([v[name] for v in vals]) for name in vals[0]})
    return pd.DataFrame(rows)


def ref_ranked(yt, ys, k, ties, **opts):
    rows = []
    for y, s in zip(yt, ys, strict=True):
        sign = {"column": 0, "optimistic": -1, "pessimistic": 1}[ties]
        order = sorted(range(len(s)), key=lambda j: (-s[j], sign * y[j], j))
        n_rel = sum(1 for g in y if g >= opts.get("level", 1))
        rows.append(ref_list([y[j] for j in order], n_rel, k, **opts))
    return pd.DataFrame(rows)


def small_case(seed, n=12, m=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, size=(n, m))
    y[0] = 0
    s = rng.integers(0, 3, size=(n, m)).astype(float)
    s[1] = 1.0
    return y, s


# ---------------------------------------------------------------------------
# metrics.retrieval: convention functions
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [1, 2, 4, 7])
def test_column_mode_equals_the_existing_metrics(seed, k):
    y, s = graded_case(seed, ties=True)
    t = retrieval_per_query(y, s, k=k)
    np.testing.assert_allclose(t["P@K"], precision_at_k_per_sample(y, s, k=k), **TOL)
    np.testing.assert_allclose(t["R@K"], recall_at_k_per_sample(y, s, k=k), **TOL)
    np.testing.assert_allclose(t["hit rate@K"], hit_rate_at_k_per_sample(y, s, k=k), **TOL)
    np.testing.assert_allclose(t["RR"], reciprocal_rank(y, s), **TOL)
    np.testing.assert_allclose(t["ERR@K"], expected_reciprocal_rank_per_sample(y, s, k=k), **TOL)
    for d in DENS:
        ap = retrieval_per_query(y, s, k=k, denominator=d)["AP@K"]
        np.testing.assert_allclose(ap, average_precision_at_k(y, s, k=k, denominator=d), **TOL)


@pytest.mark.parametrize("seed", range(3))
def test_tie_free_ndcg_equals_ndcg_score_and_tie_averaged_equals_sklearn_ties(seed):
    y, s = graded_case(seed, ties=False)
    for k in (1, 3, 6):
        t = retrieval_per_query(y, s, k=k)
        np.testing.assert_allclose(t["NDCG@K"], metrics.ndcg_per_sample(y, s, k=k), **TOL)
    y, s = graded_case(seed, ties=True)
    t = retrieval_per_query(y, s, k=3, ties="tie-averaged")
    np.testing.assert_allclose(t["NDCG@K"], metrics.ndcg_per_sample(y, s, k=3), **TOL)
    g = graded_gain(y, gain="exponential")
    t = retrieval_per_query(y, s, k=3, ties="tie-averaged", gain="exponential")
    np.testing.assert_allclose(t["NDCG@K"], metrics.ndcg_per_sample(g, s, k=3), **TOL)


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("ties", ["column", "optimistic", "pessimistic"])
@pytest.mark.parametrize("level", [1, 2])
@pytest.mark.parametrize("gain", ["linear", "exponential"])
def test_deterministic_tie_modes_match_the_slow_reference(seed, ties, level, gain):
    y, s = small_case(seed)
    for k in (1, 3, 5):
        for d in DENS:
            got = retrieval_per_query(y, s, k=k, denominator=d, level=level, gain=gain, ties=ties)
            ref = ref_ranked(
                y, s, k, ties, level=level, denominator=d, gain=gain, max_grade=float(y.max())
            )
            for name in CONVENTION_METRICS:
                np.testing.assert_allclose(got[name], ref[name], **TOL, err_msg=name)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("level", [1, 2])
def test_tie_averaged_is_the_exact_expectation_over_tie_orders(seed, level):
    y, s = small_case(seed)
    for k in (1, 2, 4, 5):
        for d in ("min_m_k", "relevant", "k"):
            got = retrieval_per_query(y, s, k=k, denominator=d, level=level, ties="tie-averaged")
            ref = ref_tie_averaged(y, s, k, level=level, denominator=d, max_grade=float(y.max()))
            for name in ("P@K", "R@K", "hit rate@K", "AP@K", "RR", "NDCG@K"):
                np.testing.assert_allclose(got[name], ref[name], **TOL, err_msg=f"{name} k={k}")


def test_tie_averaged_err_is_exact_without_ties_and_between_the_bounds_with_ties():
    y, s = graded_case(3, ties=False)
    a = retrieval_per_query(y, s, k=4, ties="tie-averaged")["ERR@K"]
    np.testing.assert_allclose(a, expected_reciprocal_rank_per_sample(y, s, k=4), **TOL)
    y, s = small_case(3)
    lo = retrieval_per_query(y, s, k=5, ties="pessimistic")
    mid = retrieval_per_query(y, s, k=5, ties="tie-averaged")
    hi = retrieval_per_query(y, s, k=5, ties="optimistic")
    for name in CONVENTION_METRICS:
        assert (lo[name] <= mid[name] + 1e-12).all() and (mid[name] <= hi[name] + 1e-12).all()


def test_tie_break_order_and_threshold_and_gain():
    assert tie_break_order([[0, 2, 1]], [[1, 1, 1]], ties="optimistic").tolist() == [[1, 2, 0]]
    assert tie_break_order([[0, 2, 1]], [[1, 1, 1]], ties="pessimistic").tolist() == [[0, 2, 1]]
    assert tie_break_order([[0, 2, 1]], [[1, 1, 2]]).tolist() == [[2, 0, 1]]
    assert relevant_at_level([[0, 1, 2, 3]], level=3).tolist() == [[0, 0, 0, 1]]
    assert graded_gain([[0, 2]], gain="exponential").tolist() == [[0.0, 3.0]]
    for bad in (
        lambda: relevant_at_level([[1]], level=0),
        lambda: graded_gain([[1]], gain="cubic"),
        lambda: tie_break_order([[1]], [[1]], ties="random"),
        lambda: retrieval_per_query([[1, 0]], [[1, 0]], k=0),
        lambda: retrieval_per_query([[1, 0]], [[1, 0]], k=1, max_grade=0.5),
        lambda: retrieval_means(retrieval_per_query([[1, 0]], [[1, 0]], k=1), empty="nan"),
        lambda: retrieval_query_steps([[1, 0]], [[1, 0]], 3, k=1),
    ):
        with pytest.raises(MetricInputError):
            bad()


def test_means_drop_empty_queries():
    y = [[1, 0, 0], [0, 0, 0], [0, 1, 0]]
    s = [[3, 2, 1]] * 3
    t = retrieval_per_query(y, s, k=1)
    assert retrieval_means(t)["P@K"] == pytest.approx(1 / 3)
    assert retrieval_means(t, empty="drop")["P@K"] == pytest.approx(0.5)
    empty = retrieval_per_query([[0, 0]], [[1, 0]], k=1)
    assert (retrieval_means(empty, empty="drop") == 0).all()


@pytest.mark.parametrize("ties", ["column", "tie-averaged", "optimistic"])
@pytest.mark.parametrize("empty", ["zero", "drop"])
@pytest.mark.parametrize("denominator", DENS)
def test_curve_rows_equal_the_means_at_each_k(ties, empty, denominator):
    y, s = graded_case(5, n=30, m=7)
    c = retrieval_curve(y, s, k_max=7, ties=ties, empty=empty, denominator=denominator)
    assert c["K"].tolist() == list(range(1, 8))
    for k in range(1, 8):
        t = retrieval_per_query(y, s, k=k, ties=ties, denominator=denominator)
        m = retrieval_means(t, empty=empty)
        for src, dst in [
            ("P@K", "P@K"),
            ("R@K", "R@K"),
            ("hit rate@K", "hit rate@K"),
            ("AP@K", "MAP@K"),
            ("ERR@K", "ERR@K"),
            ("NDCG@K", "NDCG@K"),
        ]:
            assert c[dst].iloc[k - 1] == pytest.approx(m[src], abs=1e-12), (dst, k)
        rr_k = reciprocal_rank(y, s, k=k) if ties == "column" else None
        if rr_k is not None:
            keep = t["relevant"].to_numpy() > 0 if empty == "drop" else slice(None)
            assert c["MRR@K"].iloc[k - 1] == pytest.approx(rr_k[keep].mean(), abs=1e-12)


@pytest.mark.parametrize("ties", ["column", "tie-averaged", "optimistic", "pessimistic"])
@pytest.mark.parametrize("denominator", DENS)
@pytest.mark.parametrize("block", [None, 14])
def test_summary_subsets_order_and_threads_give_the_same_numbers(
    ties, denominator, block, monkeypatch
):
    """retrieval_summary (one pass, top = every position) gives exactly the tables of
    retrieval_per_query (top = k: tie groups summed over their head only) and
    retrieval_curve; a subset of metrics, a precomputed order, blocks of 2 rows and
    one thread instead of two change no number."""
    import metrics.retrieval as retrieval_module

    if block:
        monkeypatch.setattr(retrieval_module, "_BLOCK_ELEMENTS", block)
    y, s = graded_case(11, n=30, m=7)
    s[1] = 0.5  # a row of one tie group
    opts = {"ties": ties, "denominator": denominator, "level": 2, "gain": "exponential"}
    for k, empty in [(1, "zero"), (3, "drop"), (7, "zero")]:
        t, c = retrieval_summary(y, s, k=k, k_max=7, empty=empty, **opts)
        pd.testing.assert_frame_equal(t, retrieval_per_query(y, s, k=k, **opts))
        pd.testing.assert_frame_equal(c, retrieval_curve(y, s, k_max=7, empty=empty, **opts))
        order = score_order(s)
        for chosen in (["P@K", "RR"], ["ERR@K"], ["NDCG@K", "AP@K"], None):
            t2, c2 = retrieval_summary(
                y, s, k=k, k_max=7, empty=empty, order=order, metrics=chosen, **opts
            )
            cols = [c for c in CONVENTION_METRICS if chosen is None or c in chosen]
            assert list(t2.columns) == [*cols, "relevant"]
            pd.testing.assert_frame_equal(t2, t[t2.columns])
            pd.testing.assert_frame_equal(c2, c[c2.columns])
        monkeypatch.setattr(metrics._ranks, "WORKERS", 1)
        pd.testing.assert_frame_equal(retrieval_per_query(y, s, k=k, order=order, **opts), t)
        monkeypatch.undo()
        if block:
            monkeypatch.setattr(retrieval_module, "_BLOCK_ELEMENTS", block)


def test_score_order_and_bad_order_or_metrics():
    y, s = graded_case(3, n=12, m=5)
    order = score_order(s)
    assert order.dtype == np.uint8
    np.testing.assert_array_equal(order, tie_break_order(y, s))
    with pytest.raises(MetricInputError, match="order must be score_order"):
        retrieval_per_query(y, s, k=2, order=order[:, :4])
    with pytest.raises(MetricInputError, match="order must be score_order"):
        retrieval_curve(y, s, k_max=2, order=order.astype(float))
    with pytest.raises(MetricInputError, match="metrics must be a non-empty selection"):
        retrieval_per_query(y, s, k=2, metrics=["MAP"])
    with pytest.raises(MetricInputError, match="metrics must be a non-empty selection"):
        retrieval_summary(y, s, k=2, k_max=3, metrics=[])


@pytest.mark.parametrize("ties", ["column", "tie-averaged", "pessimistic"])
@pytest.mark.parametrize("denominator", DENS)
def test_query_steps_sum_to_the_per_query_values(ties, denominator):
    y, s = small_case(7)
    for k in (1, 3, 5):
        t = retrieval_per_query(y, s, k=k, ties=ties, denominator=denominator)
        for q in range(len(y)):
            st_ = retrieval_query_steps(y, s, q, k=k, ties=ties, denominator=denominator)
            assert st_["ap_term"].sum() == pytest.approx(t["AP@K"][q], abs=1e-12)
            assert st_["ap_running"].iloc[-1] == pytest.approx(t["AP@K"][q], abs=1e-12)
            assert st_["rr_term"].sum() == pytest.approx(t["RR"][q], abs=1e-12)
            assert st_["err_running"].iloc[-1] == pytest.approx(t["ERR@K"][q], abs=1e-12)
            ideal = st_["ideal_dcg"].iloc[0]
            ndcg = st_["dcg_running"].iloc[-1] / ideal if ideal else 0.0
            assert min(ndcg, 1.0) == pytest.approx(t["NDCG@K"][q], abs=1e-12)


def test_query_steps_agree_with_retrieval_steps_in_column_order():
    y, s = graded_case(2)
    mg = float(y.max())
    for q in range(5):
        a = retrieval_query_steps(y, s, q, k=3, denominator="relevant")
        b = retrieval_steps(y[q], s[q], k=3, max_grade=mg, denominator="relevant")
        assert a["item"].tolist() == b["item"].tolist()
        assert a["tie_group"].tolist() == b["tie_group"].tolist()
        np.testing.assert_allclose(a["ap_running"], b["ap_running"], **TOL)
        np.testing.assert_allclose(a["err_term"], b["err_term"], **TOL)


def test_seed002_and_seed004_worked_examples():
    ds = load_sample("seed002_map")
    t = retrieval_per_query(ds.y_true, ds.score(), k=5)
    assert [fmt(v) for v in t["AP@K"]] == ["0.7556", "0.5000"]
    assert fmt(retrieval_means(t)["AP@K"]) == "0.6278"
    y = [[1, 1, 0, 0, 1, 0, 0, 0, 0, 0]]
    s = [list(range(10, 0, -1))]
    assert retrieval_per_query(y, s, k=10, denominator="k")["AP@K"][0] == pytest.approx(0.26)


# ---------------------------------------------------------------------------
# charts
# ---------------------------------------------------------------------------
def test_charts():
    ds = load_sample("diabetes_ranking")
    c = retrieval_curve(ds.y_true, ds.score("tree"), k_max=10)
    fig = metrics_vs_k_figure(c, 3)
    assert [tr.name for tr in fig.data] == list(c.columns.drop("K"))
    assert any(sh.x0 == 3 for sh in fig.layout.shapes)
    steps = retrieval_query_steps(ds.y_true, ds.score("tree"), 0, k=4)
    fig = ranked_list_figure(steps, "dcg_term", k=4, max_grade=3, item_names=list(ds.label_names))
    bar = fig.data[0]
    np.testing.assert_allclose(bar.y, steps["dcg_term"])
    assert bar.marker.color[0] == grade_color(steps["grade"][0], 3)
    n_tie_groups = int((steps.groupby("tie_group").size() >= 2).sum())
    brackets = [sh for sh in fig.layout.shapes if sh.type == "path"]
    assert n_tie_groups >= 1 and len(brackets) == n_tie_groups
    assert any(sh.x0 == 4.5 for sh in fig.layout.shapes if sh.type == "line")
    assert grade_color(0, 3) != grade_color(1, 3) != grade_color(3, 3)


def test_svg_charts_of_many_items_draw_metrics_values():
    """Past SVG_ITEMS items the page draws SVG: each metric's line over every K, the K
    line; the ranked list's bars are the contributions, coloured by grade, a band per
    tie group and the top-K cut."""
    y, s = graded_case(7, n=30, m=40)
    s = np.round(s, 1)
    c = retrieval_curve(y, s, k_max=40)
    html = charts.metrics_vs_k_svg(c, 7)
    lines = re.findall(r'class="curve-line" points="([^"]+)"', html)
    assert len(lines) == len(c.columns) - 1 and all(len(p.split()) == 40 for p in lines)
    assert html.count(">K = 7<") == 1  # the line's label (and K = 7 on hover)
    for name in c.columns.drop("K"):
        assert f"</span>{name}</span>" in html  # named in the legend
    hover = re.findall(r'<rect class="column"[^>]*><title>([^<]*)</title>', html)
    assert len(hover) == 40 and hover[6].startswith("K = 7: P@K ")
    assert f"P@K {c['P@K'][6]:.4f}" in hover[6]
    steps = retrieval_query_steps(y, s, 3, k=7)
    html = charts.ranked_list_svg(steps, "dcg_term", k=7, max_grade=3)
    bars = re.findall(
        r'<rect class="bar" data-series="0" data-value="([^"]+)"[^>]*fill="([^"]+)"', html
    )
    np.testing.assert_array_equal([float(v) for v, _ in bars], steps["dcg_term"])
    assert [c_ for _, c_ in bars] == [grade_color(g, 3) for g in steps["grade"]]
    groups = int((steps.groupby("tie_group").size() >= 2).sum())
    assert groups >= 1 and html.count('class="band"') == groups
    assert "top-7 cut" in html


# ---------------------------------------------------------------------------
# the page
# ---------------------------------------------------------------------------
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


def test_k_model_and_each_convention_move_the_metrics():
    ds = load_sample("diabetes_ranking")
    at = open_page("diabetes_ranking")
    opts = {"k": 5, "denominator": "min_m_k", "level": 1, "gain": "linear", "ties": "column"}
    assert shown(at) == expected(ds, **opts)
    at.slider(key="ret_k").set_value(3).run()
    assert not at.exception
    opts["k"] = 3
    assert shown(at) == expected(ds, **opts)
    assert at.query_params["k"] == ["3"] or at.query_params["k"] == "3"
    at.selectbox(key="ret_model").set_value("tree").run()
    assert shown(at) == expected(ds, "tree", **opts)
    for key, widget, value, opt in [
        ("ap_denominator", "selectbox", "relevant", ("denominator", "relevant")),
        ("tie_mode", "selectbox", "tie-averaged", ("ties", "tie-averaged")),
        ("gain", "radio", "exponential", ("gain", "exponential")),
        ("rel_level", "number_input", 3, ("level", 3)),
        ("max_grade", "number_input", 5.0, ("max_grade", 5.0)),
        ("tie_mode", "selectbox", "optimistic", ("ties", "optimistic")),
    ]:
        getattr(at, widget)(key=f"ret_{key}").set_value(value).run()
        assert not at.exception, key
        opts[opt[0]] = opt[1]
        assert shown(at) == expected(ds, "tree", **opts), key
        assert at.session_state["ret_preset"] == "custom"
    before = shown(at)
    at.radio(key="ret_empty_query").set_value("drop").run()
    assert not at.exception
    assert shown(at) == expected(ds, "tree", empty="drop", **opts)
    assert before["MAP@K"] != shown(at)["MAP@K"]  # grade >= 3: one query is empty


def _shown_tables(at):
    """The per-query table and the curve chart's lines as the page shows them."""
    chart = json.loads(at.get("plotly_chart")[0].proto.spec)
    return at.dataframe[-1].value, {tr["name"]: tr["y"] for tr in chart["data"]}


def test_cached_columns_follow_every_control_and_come_back():
    """The page keeps its columns by family (P/R/hit rate/AP/RR, ERR, NDCG) and its
    curves apart from K: after each change, and after going back to settings met
    before, the whole shown per-query table and curve equal a fresh computation."""
    ds = load_sample("diabetes_ranking")
    at = open_page("diabetes_ranking")
    top = float(ds.y_true.max())
    opts = {"k": 5, "denominator": "min_m_k", "level": 1, "gain": "linear", "ties": "column"}
    opts["max_grade"] = top
    state = {"empty": "zero"}

    def check(label):
        assert not at.exception, label
        table, curve = _shown_tables(at)
        ref = retrieval_per_query(ds.y_true, ds.score(), **opts)
        ref.index = list(ds.sample_ids)
        ref = ref.loc[table["query"].tolist()]
        for col in [*CONVENTION_METRICS, "relevant"]:
            np.testing.assert_allclose(table[col], ref[col], rtol=0, atol=1e-12, err_msg=label)
        no_k = {n: v for n, v in opts.items() if n != "k"}
        c_ref = retrieval_curve(
            ds.y_true, ds.score(), k_max=ds.n_labels, empty=state["empty"], **no_k
        )
        assert set(curve) == set(c_ref.columns.drop("K"))
        for name, y in curve.items():
            np.testing.assert_allclose(y, c_ref[name], rtol=0, atol=1e-12, err_msg=label)
        assert shown(at) == expected(ds, empty=state["empty"], **opts), label

    check("start")
    steps = [
        ("number_input", "rel_level", 2, "level"),  # P, R, hit rate, AP, RR only
        ("number_input", "max_grade", top + 1, "max_grade"),  # ERR only
        ("radio", "gain", "exponential", "gain"),  # NDCG only
        ("slider", "k", 3, "k"),  # every column at K = 3, the same curves
        ("selectbox", "tie_mode", "tie-averaged", "ties"),  # everything
        ("radio", "empty_query", "drop", None),  # the curves only
        (
            "number_input",
            "rel_level",
            3,
            "level",
        ),  # a query is empty: under "drop" every curve moves
        ("selectbox", "tie_mode", "column", "ties"),  # settings met before
        ("number_input", "rel_level", 2, "level"),
        ("slider", "k", 5, "k"),
        ("radio", "empty_query", "zero", None),
        ("number_input", "max_grade", top, "max_grade"),
        ("radio", "gain", "linear", "gain"),
    ]
    for widget, key, value, opt in steps:
        getattr(at, widget)(key=f"ret_{key}").set_value(value).run()
        if opt is None:
            state["empty"] = value
        else:
            opts[opt] = value
        check(f"{key} -> {value}")


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
        assert f"Sum of the `{col}` column: **{fmt(total)}**" in text
        table = at.dataframe[-2].value  # the step table (the per-query table comes last)
        assert table[col].sum() == pytest.approx(total, abs=1e-12)
        chart = json.loads(at.get("plotly_chart")[1].proto.spec)
        np.testing.assert_allclose(chart["data"][0]["y"], steps[col])
        assert fmt(total) in " ".join(x.value for x in at.latex)


def test_presets_set_the_conventions():
    ds = load_sample("seed002_map")
    at = open_page("seed002_map")
    at.selectbox(key="ret_preset").set_value("trec_eval").run()
    assert at.session_state["ret_ap_denominator"] == "relevant"
    assert shown(at) == expected(ds, k=5, denominator="relevant")
    at.selectbox(key="ret_preset").set_value("torchmetrics").run()
    assert shown(at) == expected(ds, k=5, denominator="hits")
    at.selectbox(key="ret_preset").set_value("multilabel notes AveP").run()
    assert at.session_state["ret_k"] == 5  # capped at the 5 items
    assert shown(at)["MAP@K"] == fmt(expected_map(ds, 5, "k"))
    at.selectbox(key="ret_preset").set_value("scikit-learn").run()
    assert at.session_state["ret_tie_mode"] == "tie-averaged"
    assert not at.exception


def expected_map(ds, k, den):
    return metrics.mean_average_precision_at_k(ds.y_true, ds.score(), k=k, denominator=den)


def test_switchboard_highlights_disagreements():
    at = open_page("seed002_map")
    board = at.dataframe[0].value
    assert board.loc[0, "convention"] == "-"
    row = board[(board["switch"] == "AP denominator") & (board["convention"] == "K")].iloc[0]
    ds = load_sample("seed002_map")
    assert row["MAP@K"] == pytest.approx(expected_map(ds, 5, "k"))
    assert row["MAP@K"] != board.loc[0, "MAP@K"]
    presets = board[board["switch"] == "preset"]["convention"].tolist()
    assert any(p.startswith("trec_eval") for p in presets)
    assert any(p.startswith("multilabel notes AveP") for p in presets)


def test_url_params_seed_the_view():
    at = open_page("diabetes_ranking", k="2", ap_denominator="k", tie_mode="pessimistic")
    ds = load_sample("diabetes_ranking")
    assert shown(at) == expected(ds, k=2, denominator="k", ties="pessimistic")
    at = open_page("diabetes_ranking", k="999", tie_mode="bogus")
    assert at.session_state["ret_k"] == 5 and at.session_state["ret_tie_mode"] == "column"


def test_multilabel_sample_and_wrong_kind():
    at = open_page("digits")
    ds = load_sample("digits")
    assert shown(at) == expected(ds, k=5)
    # one relevant item per row: recall@K equals the hit rate
    assert metric(at, "R@K") == metric(at, "Hit rate@K")
    at = open_page("balanced")
    assert not at.metric
    assert "graded relevance" in at.info[0].value
    at.button(key="open_fitting_sample").click().run()
    assert at.session_state["active_dataset"] == "seed002_map"


def test_trec_upload_shows_here():
    from explorer import io

    qrels = b"1 0 d1 1\n1 0 d2 0\n1 0 d9 2\n2 0 d4 1\n"
    run = b"1 Q0 d1 1 3.5 bm25\n1 Q0 d2 2 2.0 bm25\n1 Q0 d3 3 1.0 bm25\n2 Q0 d4 1 1.0 bm25\n"
    at = AppTest.from_file(APP, default_timeout=30).run()
    at.switch_page(script("data")).run()
    at.file_uploader(key="data_upload_qrels").set_value(("q.txt", qrels, "text/plain")).run()
    at.file_uploader(key="data_upload_run").set_value(("r.txt", run, "text/plain")).run()
    assert not at.exception
    at.switch_page(PAGE).run()
    assert not at.exception
    ds = io.read_trec(qrels, run, qrels_name="q.txt", run_name="r.txt")
    k = min(5, ds.n_labels)
    assert shown(at) == expected(ds, k=k)
    # query 1's unretrieved relevant d9 counts in recall: 1 of 2 found
    assert retrieval_per_query(ds.y_true, ds.score(), k=3)["R@K"][0] == 0.5
    assert any("did not retrieve" in i.value for i in at.info)


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


def test_big_data_pages_the_per_query_table_and_computes_the_switchboard_on_demand():
    at, ds = open_big()
    assert shown(at) == expected(ds, k=5)
    # the per-query table: 200 rows, worst first, from a chosen row on
    opts = {"k": 5}
    table = retrieval_per_query(ds.y_true, ds.score(), **opts)
    table.insert(0, "query", list(ds.sample_ids))
    table = table.sort_values(["AP@K", "query"], kind="stable").reset_index(drop=True)
    shown_rows = at.dataframe[-1].value
    assert len(shown_rows) == 200
    assert shown_rows["query"].tolist() == table["query"][:200].tolist()
    assert f"of {ds.n_samples:,}" in " ".join(c.value for c in at.caption)
    at.number_input(key="ret_rows_from").set_value(9_900).run()
    assert not at.exception
    shown_rows = at.dataframe[-1].value
    assert shown_rows["query"].tolist() == table["query"][9_900:].tolist()  # the last 101
    np.testing.assert_allclose(shown_rows["AP@K"], table["AP@K"][9_900:])
    # the switchboard waits for its button, then shows real values
    n_frames = len(at.dataframe)
    assert any("switchboard is computed when you ask" in i.value for i in at.info)
    at.button(key="ret_compute_board").click().run()
    assert not at.exception
    assert len(at.dataframe) == n_frames + 1
    board = at.dataframe[0].value
    row = board[(board["switch"] == "AP denominator") & (board["convention"] == "M")].iloc[0]
    assert row["MAP@K"] == pytest.approx(
        metrics.mean_average_precision_at_k(ds.y_true, ds.score(), k=5, denominator="relevant")
    )
    # a change of settings asks again; the drill-down metric does not
    at.radio(key="ret_drill_metric").set_value("ERR").run()
    assert len(at.dataframe) == n_frames + 1
    at.slider(key="ret_k").set_value(3).run()
    assert not at.exception
    assert len(at.dataframe) == n_frames
    assert shown(at) == expected(ds, k=3)


# ---------------------------------------------------------------------------
# issue 18.1: every headline derived on screen; issue 17.4: open on the worst query
# ---------------------------------------------------------------------------
HEADLINE_COLUMNS = {
    "P@K": "P@K",
    "R@K": "R@K",
    "Hit rate@K": "hit rate@K",
    "MAP@K": "AP@K",
    "MRR": "RR",
    "ERR@K": "ERR@K",
    "NDCG@K": "NDCG@K",
}


def read_derivation(at, name: str) -> dict:
    """The derivation line of headline ``name``: its terms, denominator, total and value."""
    text = next(m.value for m in at.markdown if m.value.startswith(f"{name} = ("))
    inner, after = text[len(name) + 4 :].split(") / ", 1)
    parts = after.split("  (")[0].split(" = ")
    return {
        "terms": [t for t in inner.split(" + ") if t != "…"],
        "omitted": "…" in inner.split(" + "),
        "denominator": parts[0],
        "total": parts[1].split(" / ")[0] if len(parts) == 3 else None,
        "value": parts[-1],
    }


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


def _open_dataset(ds, **params) -> AppTest:
    from pathlib import Path

    at = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    for key, value in params.items():
        at.query_params[key] = value
    return at.run()


def test_k_moves_in_the_panel_and_a_typed_query_at_1500_queries():
    """K and what it changes are one st.fragment: each of several K moves shows the
    headline of that K (metrics), and the URL follows. Above 1,000 queries the query is a
    typed id (a select box would send all 1,500): a typed id opens that query, an unknown
    one falls back to the worst query without an error."""
    from explorer.datasets import Dataset

    y, s = graded_case(21, n=1500, m=8)
    ds = Dataset("graded1500", "graded", y, {"m": s})
    at = _open_dataset(ds)
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
    again = _open_dataset(ds, k="4", query="1234")
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
    at = _open_dataset(ds)
    assert not at.exception
    assert at.selectbox(key="ret_query").value == "1"

    def drawn():  # past 30 items both charts are SVG: the ranked list is the second
        charts_ = [m.value for m in at.markdown if "me-svg-chart" in m.value]
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
