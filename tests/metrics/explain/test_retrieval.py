"""metrics.explain.retrieval (the convention functions, per-query tables, steps and
curves) against slow references: one ranked list at a time, plain loops."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pandas as pd
import pytest

import metrics
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
from tests.conftest import graded_case

TOL = {"rtol": 1e-9, "atol": 1e-12}


DENS = ["min_m_k", "relevant", "k", "hits"]


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
    import metrics._relevance as relevance_module

    if block:
        monkeypatch.setattr(relevance_module, "BLOCK_ELEMENTS", block)
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
            monkeypatch.setattr(relevance_module, "BLOCK_ELEMENTS", block)


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


def test_empty_one_scores_each_query_without_a_relevant_item_1():
    """LightGBM's rule: the curve at every K equals the means of the per-query table at
    that K with each empty query's values set to 1 (a slow loop over queries)."""
    rng = np.random.default_rng(31)
    y = rng.integers(0, 3, size=(12, 6)) * (rng.random((12, 1)) < 0.7)
    s = rng.integers(0, 4, size=(12, 6)).astype(float)  # ties
    curve = retrieval_curve(y, s, k_max=6, gain="exponential", empty="one")
    for k in range(1, 7):
        t = retrieval_per_query(y, s, k=k, gain="exponential")
        slow = {
            name: np.mean(
                [1.0 if rel == 0 else v for v, rel in zip(t[name], t["relevant"], strict=True)]
            )
            for name in ("P@K", "AP@K", "NDCG@K", "ERR@K")
        }
        means = retrieval_means(t, empty="one")
        for name, value in slow.items():
            assert means[name] == pytest.approx(value, abs=1e-12)
        assert curve.loc[k - 1, "NDCG@K"] == pytest.approx(slow["NDCG@K"], abs=1e-12)
        assert curve.loc[k - 1, "MAP@K"] == pytest.approx(slow["AP@K"], abs=1e-12)
    assert (y.sum(axis=1) == 0).any()  # the rule is exercised
