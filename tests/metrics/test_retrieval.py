"""Tests for metrics.retrieval: Top-K retrieval metrics and their step table.

Oracles: a slow reference written here with plain Python loops over queries
(independent of the vectorized code), the worked examples of seeds 002 and
004, and pytrec_eval (trec_eval) on tie-free scores.

What pytrec_eval does with degenerate queries (checked here, see
``test_pytrec_eval_query_handling``): a query judged in the qrels but with no
relevant document is *kept* and scores 0 on ``map_cut_k``, ``P_k``,
``recall_k``, ``success_k`` and ``recip_rank`` (the same 0 as our
convention); a query missing from either the qrels or the run is dropped from
the result dict.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import pytrec_eval
from hypothesis import given, settings
from hypothesis import strategies as st

from metrics._retrieval_rows import ranked_relevance
from metrics._validation import MetricInputError
from metrics.explain.retrieval import retrieval_steps
from metrics.retrieval import (
    average_precision_at_k,
    expected_reciprocal_rank,
    expected_reciprocal_rank_per_sample,
    hit_rate_at_k,
    hit_rate_at_k_per_sample,
    mean_average_precision_at_k,
    mean_reciprocal_rank,
    precision_at_k,
    precision_at_k_per_sample,
    recall_at_k,
    recall_at_k_per_sample,
    reciprocal_rank,
)
from tests.conftest import graded_case

SEEDS = list(range(8))
KS = [1, 2, 3, 5, 10, 100]
DENOMINATORS = ["min_m_k", "relevant", "k", "hits"]
TOL = {"rtol": 1e-9, "atol": 1e-9}


# ---------------------------------------------------------------------------
# slow reference implementation (plain loops, one query at a time)
# ---------------------------------------------------------------------------
def ref_ranking(scores_row):
    """Item indices by descending score, ties by lower column first."""
    return sorted(range(len(scores_row)), key=lambda j: (-scores_row[j], j))


def ref_counts(t_row, s_row, k):
    top = ref_ranking(s_row)[:k]
    hits = sum(1 for j in top if t_row[j] > 0)
    n_rel = sum(1 for g in t_row if g > 0)
    return hits, n_rel


def ref_precision(y_true, y_score, k):
    return [ref_counts(t, s, k)[0] / k for t, s in zip(y_true, y_score, strict=True)]


def ref_recall(y_true, y_score, k):
    out = []
    for t, s in zip(y_true, y_score, strict=True):
        hits, n_rel = ref_counts(t, s, k)
        out.append(hits / n_rel if n_rel else 0.0)
    return out


def ref_hit_rate(y_true, y_score, k):
    return [
        1.0 if ref_counts(t, s, k)[0] > 0 else 0.0 for t, s in zip(y_true, y_score, strict=True)
    ]


def ref_ap(y_true, y_score, k, denominator):
    out = []
    for t, s in zip(y_true, y_score, strict=True):
        ranking = ref_ranking(s)
        hits, total = 0, 0.0
        for pos, j in enumerate(ranking[:k], start=1):
            if t[j] > 0:
                hits += 1
                total += hits / pos
        n_rel = sum(1 for g in t if g > 0)
        den = {"min_m_k": min(n_rel, k), "relevant": n_rel, "k": k, "hits": hits}[denominator]
        out.append(total / den if den else 0.0)
    return out


def ref_rr(y_true, y_score, k):
    out = []
    for t, s in zip(y_true, y_score, strict=True):
        ranking = ref_ranking(s)
        limit = len(ranking) if k is None else k
        rr = 0.0
        for pos, j in enumerate(ranking[:limit], start=1):
            if t[j] > 0:
                rr = 1.0 / pos
                break
        out.append(rr)
    return out


def ref_err(y_true, y_score, k, max_grade):
    if max_grade is None:
        max_grade = max(max(row) for row in y_true)
    out = []
    for t, s in zip(y_true, y_score, strict=True):
        ranking = ref_ranking(s)
        limit = len(ranking) if k is None else k
        err, still = 0.0, 1.0
        if max_grade > 0:
            for pos, j in enumerate(ranking[:limit], start=1):
                stop = (2.0 ** t[j] - 1.0) / 2.0**max_grade
                err += still * stop / pos
                still *= 1.0 - stop
        out.append(err)
    return out


def case(seed, m=6):
    """Graded relevance 0..3 with heavy ties and degenerate rows, as Python lists.

    Row 0: no relevant item (graded_case). Row 1: every score tied. Row 2:
    every item relevant. Row 3: only the last column relevant, all tied.
    """
    y, s = graded_case(seed, n=40, m=m, ties=True)
    s[1] = 0.25
    y[2] = np.maximum(y[2], 1)
    y[3] = 0
    y[3, -1] = 2
    s[3] = 0.5
    return y.tolist(), s.tolist()


CASES = [(seed, m) for seed in SEEDS for m in (6, 12)]


# ---------------------------------------------------------------------------
# differential tests against the reference
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize(("seed", "m"), CASES)
def test_precision_recall_hit_rate_match_reference(seed, m, k):
    y, s = case(seed, m)
    for per_sample, mean, ref in [
        (precision_at_k_per_sample, precision_at_k, ref_precision),
        (recall_at_k_per_sample, recall_at_k, ref_recall),
        (hit_rate_at_k_per_sample, hit_rate_at_k, ref_hit_rate),
    ]:
        expected = ref(y, s, k)
        got = per_sample(y, s, k=k)
        assert isinstance(got, np.ndarray) and got.shape == (len(y),)
        np.testing.assert_allclose(got, expected, **TOL)
        value = mean(y, s, k=k)
        assert type(value) is float
        assert value == pytest.approx(float(np.mean(expected)), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("denominator", DENOMINATORS)
@pytest.mark.parametrize("k", KS)
@pytest.mark.parametrize(("seed", "m"), CASES)
def test_average_precision_matches_reference(seed, m, k, denominator):
    y, s = case(seed, m)
    expected = ref_ap(y, s, k, denominator)
    got = average_precision_at_k(y, s, k=k, denominator=denominator)
    assert isinstance(got, np.ndarray) and got.shape == (len(y),)
    np.testing.assert_allclose(got, expected, **TOL)
    value = mean_average_precision_at_k(y, s, k=k, denominator=denominator)
    assert type(value) is float
    assert value == pytest.approx(float(np.mean(expected)), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("k", [None, *KS])
@pytest.mark.parametrize(("seed", "m"), CASES)
def test_reciprocal_rank_matches_reference(seed, m, k):
    y, s = case(seed, m)
    expected = ref_rr(y, s, k)
    got = reciprocal_rank(y, s, k=k)
    assert isinstance(got, np.ndarray) and got.shape == (len(y),)
    np.testing.assert_allclose(got, expected, **TOL)
    value = mean_reciprocal_rank(y, s, k=k)
    assert type(value) is float
    assert value == pytest.approx(float(np.mean(expected)), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("max_grade", [None, 3, 4.5])
@pytest.mark.parametrize("k", [None, *KS])
@pytest.mark.parametrize(("seed", "m"), CASES)
def test_err_matches_reference(seed, m, k, max_grade):
    y, s = case(seed, m)
    expected = ref_err(y, s, k, max_grade)
    got = expected_reciprocal_rank_per_sample(y, s, k=k, max_grade=max_grade)
    assert isinstance(got, np.ndarray) and got.shape == (len(y),)
    np.testing.assert_allclose(got, expected, **TOL)
    value = expected_reciprocal_rank(y, s, k=k, max_grade=max_grade)
    assert type(value) is float
    assert value == pytest.approx(float(np.mean(expected)), rel=1e-9, abs=1e-9)


@pytest.mark.parametrize("seed", SEEDS)
def test_err_with_fractional_grades_matches_reference(seed):
    rng = np.random.default_rng(seed)
    y = np.round(rng.random((20, 7)) * 2.5, 2)
    y[rng.random((20, 7)) < 0.3] = 0.0
    s = rng.integers(0, 3, size=(20, 7)).astype(float)
    for k in (None, 2, 7):
        for mg in (None, 2.5, 10):
            np.testing.assert_allclose(
                expected_reciprocal_rank_per_sample(y, s, k=k, max_grade=mg),
                ref_err(y.tolist(), s.tolist(), k, mg),
                **TOL,
            )


@pytest.mark.parametrize("k", [None, 1, 3, 6, 50])
@pytest.mark.parametrize("seed", SEEDS)
def test_ranked_relevance_is_the_stable_descending_gather(seed, k):
    y, s = case(seed)
    got = ranked_relevance(np.asarray(y, float), np.asarray(s, float), k)
    width = 6 if k is None else min(k, 6)
    expected = [[t[j] for j in ref_ranking(r)[:width]] for t, r in zip(y, s, strict=True)]
    assert got.shape == (len(y), width)
    np.testing.assert_array_equal(got, expected)


# ---------------------------------------------------------------------------
# hand-checked cases: tie rule, degenerate rows, conventions
# ---------------------------------------------------------------------------
def test_ties_are_broken_by_column_order_lower_column_first():
    y = [[0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 1]]
    s = [[0.5, 0.5, 0.5, 0.5], [0.2, 0.9, 0.2, 0.2], [0.3, 0.3, 0.1, 0.3]]
    np.testing.assert_allclose(reciprocal_rank(y, s), [1 / 3, 1 / 2, 1 / 2])
    np.testing.assert_allclose(precision_at_k_per_sample(y, s, k=1), [0, 0, 0])
    np.testing.assert_allclose(hit_rate_at_k_per_sample(y, s, k=2), [0, 1, 1])
    # relevant at positions 2 and 3 of row 2: AP = (1/2 + 2/3) / 2
    assert average_precision_at_k(y, s, k=3)[2] == pytest.approx((1 / 2 + 2 / 3) / 2)


def test_query_without_relevant_item_scores_zero_everywhere():
    y = [[0, 0, 0], [0, 1, 0]]
    s = [[0.3, 0.2, 0.1], [0.1, 0.5, 0.2]]
    for k in (1, 3, 10):
        assert precision_at_k_per_sample(y, s, k=k)[0] == 0.0
        assert recall_at_k_per_sample(y, s, k=k)[0] == 0.0
        assert hit_rate_at_k_per_sample(y, s, k=k)[0] == 0.0
        for d in DENOMINATORS:
            assert average_precision_at_k(y, s, k=k, denominator=d)[0] == 0.0
        assert reciprocal_rank(y, s, k=k)[0] == 0.0
        assert expected_reciprocal_rank_per_sample(y, s, k=k)[0] == 0.0


def test_ap_hits_denominator_with_no_hits_is_zero():
    y = [[0, 0, 1]]
    s = [[0.9, 0.8, 0.1]]
    assert average_precision_at_k(y, s, k=2, denominator="hits")[0] == 0.0
    assert average_precision_at_k(y, s, k=3, denominator="hits")[0] == pytest.approx(1 / 3)


def test_all_zero_y_true_gives_zero_err_without_nan():
    y = np.zeros((3, 4))
    s = np.arange(12.0).reshape(3, 4)
    assert expected_reciprocal_rank(y, s) == 0.0
    assert expected_reciprocal_rank(y, s, max_grade=0) == 0.0
    assert expected_reciprocal_rank(y, s, max_grade=2) == 0.0


def test_precision_divides_by_k_even_past_the_number_of_items():
    y = [[1, 1, 0]]
    s = [[0.3, 0.2, 0.1]]
    assert precision_at_k(y, s, k=10) == pytest.approx(0.2)
    assert recall_at_k(y, s, k=10) == 1.0
    assert average_precision_at_k(y, s, k=10, denominator="k")[0] == pytest.approx(0.2)
    assert average_precision_at_k(y, s, k=10)[0] == 1.0


def test_err_chapelle_hand_computed():
    # grades 3, 0, 1 in ranked order on a 0..3 scale: R = 7/8, 0, 1/8
    y = [[0, 3, 1]]
    s = [[0.5, 0.9, 0.1]]
    expected = 7 / 8 + 0 + (1 / 3) * (1 / 8) * (1 / 8)
    assert expected_reciprocal_rank(y, s) == pytest.approx(expected, abs=1e-12)
    assert expected_reciprocal_rank(y, s, k=1) == pytest.approx(7 / 8, abs=1e-12)
    # max_grade comes from the whole matrix, not the row
    y2 = [[0, 1, 0], [3, 0, 0]]
    s2 = [[0.1, 0.9, 0.5], [0.9, 0.1, 0.5]]
    np.testing.assert_allclose(expected_reciprocal_rank_per_sample(y2, s2), [1 / 8, 7 / 8])


def test_err_huge_grades_do_not_overflow():
    y = [[2000.0, 0.0, 1999.0]]
    s = [[0.9, 0.1, 0.5]]
    err = expected_reciprocal_rank_per_sample(y, s)
    assert np.isfinite(err).all() and err[0] == pytest.approx(1.0)
    assert expected_reciprocal_rank(y, s, max_grade=5000) == pytest.approx(0.0, abs=1e-300)


def test_single_column_matrices_are_fine():
    y = [[1], [0], [2]]
    s = [[0.4], [0.1], [0.3]]
    assert precision_at_k(y, s, k=1) == pytest.approx(2 / 3)
    assert precision_at_k(y, s, k=3) == pytest.approx(2 / 9)
    assert recall_at_k(y, s, k=1) == pytest.approx(2 / 3)
    assert hit_rate_at_k(y, s, k=1) == pytest.approx(2 / 3)
    np.testing.assert_allclose(average_precision_at_k(y, s, k=1), [1, 0, 1])
    np.testing.assert_allclose(reciprocal_rank(y, s), [1, 0, 1])
    np.testing.assert_allclose(expected_reciprocal_rank_per_sample(y, s), [1 / 4, 0, 3 / 4])
    assert len(retrieval_steps([1], [0.4])) == 1


def test_inputs_are_not_modified_and_bool_and_int_inputs_work():
    y = np.array([[True, False, True], [False, False, True]])
    s = np.array([[3, 1, 2], [1, 1, 1]])
    y0, s0 = y.copy(), s.copy()
    np.testing.assert_allclose(reciprocal_rank(y, s), [1.0, 1 / 3])
    expected_reciprocal_rank(y, s, k=2)
    mean_average_precision_at_k(y, s, k=2)
    np.testing.assert_array_equal(y, y0)
    np.testing.assert_array_equal(s, s0)


def test_options_are_keyword_only():
    y, s = [[1, 0]], [[0.5, 0.1]]
    with pytest.raises(TypeError):
        precision_at_k(y, s, 1)  # type: ignore[misc]
    with pytest.raises(TypeError):
        average_precision_at_k(y, s, 1, "k")  # type: ignore[misc]
    with pytest.raises(TypeError):
        expected_reciprocal_rank(y, s, 1)  # type: ignore[misc]


# ---------------------------------------------------------------------------
# seed worked examples
# ---------------------------------------------------------------------------
def _seed002_matrices():
    """Query 1: relevant at positions 1, 3, 5 (M = 3); query 2: at 2, 4 (M = 2).

    The items sit in shuffled columns so the scores, not the column order,
    realise the rankings.
    """
    ranked_rel = np.array([[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]])
    perm = np.array([[3, 0, 4, 1, 2], [2, 4, 0, 3, 1]])  # column of the item at each position
    y_true = np.zeros((2, 5), dtype=int)
    y_score = np.zeros((2, 5))
    for q in range(2):
        y_true[q, perm[q]] = ranked_rel[q]
        y_score[q, perm[q]] = [0.9, 0.7, 0.5, 0.3, 0.1]
    return y_true, y_score


def test_seed002_map_example_0_76_0_5_0_63():
    y_true, y_score = _seed002_matrices()
    ap = average_precision_at_k(y_true, y_score, k=5)
    assert ap[0] == pytest.approx((1 + 2 / 3 + 3 / 5) / 3, abs=1e-12)
    assert round(float(ap[0]), 4) == 0.7556 and round(float(ap[0]), 2) == 0.76
    assert ap[1] == pytest.approx(0.5, abs=1e-12)
    map5 = mean_average_precision_at_k(y_true, y_score, k=5)
    assert round(map5, 4) == 0.6278 and round(map5, 2) == 0.63
    # the same rows through the step table
    steps = retrieval_steps(y_true[0], y_score[0], k=5)
    assert steps["relevant"].tolist() == [True, False, True, False, True]
    assert steps["ap_running"].iloc[-1] == pytest.approx(ap[0], abs=1e-12)


def _seed004_list():
    """A returned list of 10 with relevant results at positions 1, 2 and 5."""
    y_true = np.zeros((1, 10), dtype=int)
    y_true[0, [0, 1, 4]] = 1
    y_score = np.linspace(1.0, 0.1, 10)[None, :]
    return y_true, y_score


def test_seed004_avep_example_0_26_divides_by_list_length():
    y_true, y_score = _seed004_list()
    ap = average_precision_at_k(y_true, y_score, k=10, denominator="k")[0]
    assert ap == pytest.approx((1 / 1 + 2 / 2 + 3 / 5) / 10, abs=1e-12)
    assert round(float(ap), 2) == 0.26


def test_seed004_avep_under_its_own_formula_divides_by_relevant():
    y_true, y_score = _seed004_list()
    ap = average_precision_at_k(y_true, y_score, k=10, denominator="relevant")[0]
    assert ap == pytest.approx((1 + 1 + 3 / 5) / 3, abs=1e-12)
    assert round(float(ap), 4) == 0.8667


# ---------------------------------------------------------------------------
# pytrec_eval (trec_eval) cross-check on tie-free scores
# ---------------------------------------------------------------------------
def _trec_case(seed, n=30, m=15):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, size=(n, m))
    y[rng.random((n, m)) < 0.4] = 0
    y[0] = 0
    y[5] = 0
    s = rng.random((n, m))
    assert all(len(set(row)) == m for row in s.tolist())  # tie-free
    return y, s


def _trec_eval(y, s, measures):
    qrels = {
        f"q{i:03d}": {f"d{j:03d}": int(g) for j, g in enumerate(row)} for i, row in enumerate(y)
    }
    run = {
        f"q{i:03d}": {f"d{j:03d}": float(v) for j, v in enumerate(row)} for i, row in enumerate(s)
    }
    res = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    return {m: np.array([res[f"q{i:03d}"][m] for i in range(len(y))]) for m in res["q000"]}


@pytest.mark.parametrize("seed", range(5))
def test_matches_pytrec_eval_on_tie_free_scores(seed):
    y, s = _trec_case(seed)
    trec = _trec_eval(y, s, {"map_cut", "P", "recall", "success", "recip_rank"})
    has_rel = (y > 0).any(axis=1)
    assert not has_rel.all()  # queries without relevant documents are in the data
    checks = [
        ("P_{k}", precision_at_k_per_sample, precision_at_k, {}),
        ("recall_{k}", recall_at_k_per_sample, recall_at_k, {}),
        (
            "map_cut_{k}",
            average_precision_at_k,
            mean_average_precision_at_k,
            {"denominator": "relevant"},
        ),
    ]
    for k in (5, 10, 20):  # 20 > 15 items: P_20 still divides by 20
        for name, per_sample, mean, kw in checks:
            ours = per_sample(y, s, k=k, **kw)
            theirs = trec[name.format(k=k)]
            np.testing.assert_allclose(ours[has_rel], theirs[has_rel], **TOL)
            assert mean(y[has_rel], s[has_rel], k=k, **kw) == pytest.approx(
                float(theirs[has_rel].mean()), rel=1e-9, abs=1e-9
            )
            # pytrec_eval keeps judged queries with no relevant document at 0, as we do
            np.testing.assert_allclose(ours, theirs, **TOL)
    for k in (5, 10):
        np.testing.assert_allclose(hit_rate_at_k_per_sample(y, s, k=k), trec[f"success_{k}"], **TOL)
    np.testing.assert_allclose(reciprocal_rank(y, s), trec["recip_rank"], **TOL)


def test_pytrec_eval_query_handling():
    """Document what pytrec_eval does with queries lacking relevant docs or judgments."""
    qrels = {"judged_no_rel": {"d000": 0, "d001": 0}, "only_qrels": {"d000": 1}}
    run = {"judged_no_rel": {"d000": 0.2, "d001": 0.9}, "only_run": {"d000": 1.0}}
    res = pytrec_eval.RelevanceEvaluator(qrels, {"map_cut", "P", "recall"}).evaluate(run)
    assert set(res) == {"judged_no_rel"}
    assert res["judged_no_rel"]["map_cut_5"] == 0.0
    assert res["judged_no_rel"]["P_5"] == 0.0
    assert res["judged_no_rel"]["recall_5"] == 0.0


# ---------------------------------------------------------------------------
# step table
# ---------------------------------------------------------------------------
STEP_COLUMNS = [
    "position",
    "item",
    "score",
    "relevance",
    "relevant",
    "tie_group",
    "in_top_k",
    "hits_so_far",
    "precision_at_position",
    "ap_term",
    "ap_running",
    "err_stop_prob",
    "err_still_looking",
    "err_term",
    "err_running",
    "rr_running",
]


@pytest.mark.parametrize("denominator", DENOMINATORS)
@pytest.mark.parametrize("k", [None, 1, 2, 5, 100])
@pytest.mark.parametrize("seed", SEEDS[:4])
def test_steps_last_row_equals_the_metrics(seed, k, denominator):
    y, s = case(seed, m=8)
    y, s = np.asarray(y), np.asarray(s)
    max_grade = float(y.max())
    kk = 8 if k is None else k
    ap = average_precision_at_k(y, s, k=kk, denominator=denominator)
    err = expected_reciprocal_rank_per_sample(y, s, k=k)
    rr = reciprocal_rank(y, s, k=k)
    for i in range(0, len(y), 3):
        t = retrieval_steps(y[i], s[i], k=k, max_grade=max_grade, denominator=denominator)
        assert list(t.columns) == STEP_COLUMNS
        last = t.iloc[-1]
        assert last["ap_running"] == pytest.approx(ap[i], rel=1e-9, abs=1e-12)
        assert last["err_running"] == pytest.approx(err[i], rel=1e-9, abs=1e-12)
        assert last["rr_running"] == pytest.approx(rr[i], rel=1e-9, abs=1e-12)


def test_steps_columns_on_a_tied_example():
    # scores 0.5 0.9 0.5 0.2 0.9 -> order 1, 4 (tie, lower column first), 0, 2, 3
    t = retrieval_steps([2, 0, 1, 0, 1], [0.5, 0.9, 0.5, 0.2, 0.9], k=3)
    assert t["position"].tolist() == [1, 2, 3, 4, 5]
    assert t["item"].tolist() == [1, 4, 0, 2, 3]
    assert t["score"].tolist() == [0.9, 0.9, 0.5, 0.5, 0.2]
    assert t["relevance"].tolist() == [0, 1, 2, 1, 0]
    assert t["relevant"].tolist() == [False, True, True, True, False]
    assert t["tie_group"].tolist() == [0, 0, 1, 1, 2]
    assert t["in_top_k"].tolist() == [True, True, True, False, False]
    assert t["hits_so_far"].tolist() == [0, 1, 2, 3, 3]
    np.testing.assert_allclose(t["precision_at_position"], [0, 1 / 2, 2 / 3, 3 / 4, 3 / 5])
    np.testing.assert_allclose(t["ap_term"], [0, 1 / 2, 2 / 3, 0, 0])
    # min(M=3, k=3) = 3
    np.testing.assert_allclose(t["ap_running"], np.cumsum([0, 1 / 2, 2 / 3, 0, 0]) / 3)
    stop = np.array([0, 1, 3, 1, 0]) / 4  # (2^g - 1) / 2^2
    still = np.concatenate(([1.0], np.cumprod(1 - stop[:-1])))
    np.testing.assert_allclose(t["err_stop_prob"], stop)
    np.testing.assert_allclose(t["err_still_looking"], still)
    term = stop * still / np.arange(1, 6) * [1, 1, 1, 0, 0]
    np.testing.assert_allclose(t["err_term"], term)
    np.testing.assert_allclose(t["err_running"], np.cumsum(term))
    np.testing.assert_allclose(t["rr_running"], [0, 1 / 2, 1 / 2, 1 / 2, 1 / 2])
    assert t["relevant"].dtype == bool and t["in_top_k"].dtype == bool
    for col in ("position", "item", "tie_group", "hits_so_far"):
        assert np.issubdtype(t[col].dtype, np.integer)


def test_steps_max_grade_none_uses_the_row_and_accepts_a_one_row_matrix():
    y, s = [[0, 1, 2, 0]], [[0.4, 0.3, 0.2, 0.1]]
    t = retrieval_steps(y, s)
    assert t["err_running"].iloc[-1] == pytest.approx(expected_reciprocal_rank(y, s))
    t2 = retrieval_steps(y[0], s[0], max_grade=4)
    assert t2["err_running"].iloc[-1] == pytest.approx(expected_reciprocal_rank(y, s, max_grade=4))


def test_steps_rr_and_ap_are_zero_without_relevant_in_top_k():
    t = retrieval_steps([0, 0, 1], [0.9, 0.8, 0.1], k=2, denominator="hits")
    assert t["rr_running"].tolist() == [0, 0, 0]
    assert t["ap_running"].tolist() == [0, 0, 0]
    assert t["hits_so_far"].tolist() == [0, 0, 1]
    t = retrieval_steps([0, 0, 0], [0.9, 0.8, 0.1], denominator="relevant")
    assert (t[["ap_running", "err_running", "rr_running"]] == 0).all().all()


# ---------------------------------------------------------------------------
# properties (hypothesis)
# ---------------------------------------------------------------------------
@st.composite
def ranking_cases(draw):
    n = draw(st.integers(1, 6))
    m = draw(st.integers(1, 8))
    grades = st.integers(0, 3)
    y = np.array(draw(st.lists(st.lists(grades, min_size=m, max_size=m), min_size=n, max_size=n)))
    tied = draw(st.booleans())
    values = st.integers(0, 2) if tied else st.floats(-5, 5, allow_nan=False)
    s = np.array(
        draw(st.lists(st.lists(values, min_size=m, max_size=m), min_size=n, max_size=n)),
        dtype=float,
    )
    k = draw(st.integers(1, m + 3))
    return y, s, k


@settings(max_examples=80, deadline=None)
@given(ranking_cases())
def test_property_values_in_unit_interval_and_means_agree(data):
    y, s, k = data
    per = {
        "p": precision_at_k_per_sample(y, s, k=k),
        "r": recall_at_k_per_sample(y, s, k=k),
        "h": hit_rate_at_k_per_sample(y, s, k=k),
        "rr": reciprocal_rank(y, s, k=k),
        "err": expected_reciprocal_rank_per_sample(y, s, k=k),
        **{d: average_precision_at_k(y, s, k=k, denominator=d) for d in DENOMINATORS},
    }
    for v in per.values():
        assert v.shape == (len(y),)
        assert np.all((v >= 0) & (v <= 1 + 1e-12))
    assert precision_at_k(y, s, k=k) == pytest.approx(per["p"].mean(), abs=1e-12)
    assert recall_at_k(y, s, k=k) == pytest.approx(per["r"].mean(), abs=1e-12)
    assert hit_rate_at_k(y, s, k=k) == pytest.approx(per["h"].mean(), abs=1e-12)
    assert mean_reciprocal_rank(y, s, k=k) == pytest.approx(per["rr"].mean(), abs=1e-12)
    assert expected_reciprocal_rank(y, s, k=k) == pytest.approx(per["err"].mean(), abs=1e-12)
    for d in DENOMINATORS:
        assert mean_average_precision_at_k(y, s, k=k, denominator=d) == pytest.approx(
            per[d].mean(), abs=1e-12
        )


@settings(max_examples=80, deadline=None)
@given(ranking_cases())
def test_property_orderings_between_metrics(data):
    y, s, k = data
    eps = 1e-12
    p = precision_at_k_per_sample(y, s, k=k)
    r = recall_at_k_per_sample(y, s, k=k)
    h = hit_rate_at_k_per_sample(y, s, k=k)
    rr = reciprocal_rank(y, s, k=k)
    ap = {d: average_precision_at_k(y, s, k=k, denominator=d) for d in DENOMINATORS}
    n_rel = (y > 0).sum(axis=1)
    # denominators: hits <= min(M, k) <= M and min(M, k) <= k
    assert np.all(ap["hits"] >= ap["min_m_k"] - eps)
    assert np.all(ap["min_m_k"] >= ap["relevant"] - eps)
    assert np.all(ap["min_m_k"] >= ap["k"] - eps)
    # hits are counted the same way by P@K and R@K
    np.testing.assert_allclose(p * k, r * n_rel, atol=1e-9)
    assert np.all(h >= r - eps) and np.all(h >= p - eps)
    assert np.all((r > 0) == (h == 1))
    assert np.all((rr > 0) == (h == 1))
    # every precision is <= 1, so the sum of precisions is <= hits:
    # AP("k") <= P@K and AP("relevant") <= R@K
    assert np.all(ap["k"] <= p + eps)
    assert np.all(ap["relevant"] <= r + eps)
    # AP is positive exactly when a relevant item is in the top k
    for d in DENOMINATORS:
        assert np.all((ap[d] > 0) == (h == 1))
    # RR (computed without a sort) agrees with the shared ranked relevance
    ranked = ranked_relevance(y.astype(float), s, k) > 0
    first = np.argmax(ranked, axis=1)
    np.testing.assert_allclose(rr, np.where(ranked.any(axis=1), 1.0 / (first + 1), 0.0))
    # the top item relevant -> RR 1 and P@1 1
    top = ranked_relevance(y.astype(float), s, 1)[:, 0] > 0
    assert np.all(rr[top] == 1.0)
    assert np.all(precision_at_k_per_sample(y, s, k=1)[top] == 1.0)


@settings(max_examples=60, deadline=None)
@given(ranking_cases())
def test_property_monotone_in_k(data):
    y, s, k = data
    eps = 1e-12
    for f in (recall_at_k_per_sample, hit_rate_at_k_per_sample):
        assert np.all(f(y, s, k=k + 1) >= f(y, s, k=k) - eps)
    assert np.all(reciprocal_rank(y, s, k=k + 1) >= reciprocal_rank(y, s, k=k) - eps)
    assert np.all(reciprocal_rank(y, s) >= reciprocal_rank(y, s, k=k) - eps)
    e1 = expected_reciprocal_rank_per_sample(y, s, k=k)
    assert np.all(expected_reciprocal_rank_per_sample(y, s, k=k + 1) >= e1 - eps)
    assert np.all(expected_reciprocal_rank_per_sample(y, s) >= e1 - eps)
    # AP with the "relevant" denominator only gains terms as k grows
    a1 = average_precision_at_k(y, s, k=k, denominator="relevant")
    assert np.all(average_precision_at_k(y, s, k=k + 1, denominator="relevant") >= a1 - eps)


@settings(max_examples=60, deadline=None)
@given(ranking_cases(), st.randoms(use_true_random=False))
def test_property_invariant_under_a_column_permutation_without_ties(data, rnd):
    y, s, k = data
    # make the scores tie-free while keeping their stable order (minus the position)
    order = np.argsort(-s, axis=1, kind="stable")
    s = np.empty_like(s)
    np.put_along_axis(s, order, -np.arange(s.shape[1], dtype=float)[None, :], axis=1)
    perm = list(range(y.shape[1]))
    rnd.shuffle(perm)
    y2, s2 = y[:, perm], s[:, perm]
    for f in (precision_at_k_per_sample, recall_at_k_per_sample, hit_rate_at_k_per_sample):
        np.testing.assert_allclose(f(y, s, k=k), f(y2, s2, k=k), atol=1e-12)
    np.testing.assert_allclose(reciprocal_rank(y, s, k=k), reciprocal_rank(y2, s2, k=k))
    np.testing.assert_allclose(
        expected_reciprocal_rank_per_sample(y, s, k=k),
        expected_reciprocal_rank_per_sample(y2, s2, k=k),
        atol=1e-12,
    )
    for d in DENOMINATORS:
        np.testing.assert_allclose(
            average_precision_at_k(y, s, k=k, denominator=d),
            average_precision_at_k(y2, s2, k=k, denominator=d),
            atol=1e-12,
        )


@settings(max_examples=50, deadline=None)
@given(ranking_cases(), st.sampled_from(DENOMINATORS), st.booleans())
def test_property_steps_agree_with_the_metrics(data, denominator, use_k):
    y, s, k = data
    k = k if use_k else None
    mg = float(y.max())
    kk = y.shape[1] if k is None else k
    t = retrieval_steps(y[0], s[0], k=k, max_grade=mg, denominator=denominator)
    assert len(t) == y.shape[1]
    assert sorted(t["item"].tolist()) == list(range(y.shape[1]))
    assert np.all(np.diff(t["score"]) <= 0)
    last = t.iloc[-1]
    ap = average_precision_at_k(y, s, k=kk, denominator=denominator)[0]
    assert last["ap_running"] == pytest.approx(ap, abs=1e-12)
    assert last["err_running"] == pytest.approx(
        expected_reciprocal_rank_per_sample(y, s, k=k)[0], abs=1e-12
    )
    assert last["rr_running"] == pytest.approx(reciprocal_rank(y, s, k=k)[0], abs=1e-12)


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
K_REQUIRED = [
    precision_at_k,
    precision_at_k_per_sample,
    recall_at_k,
    recall_at_k_per_sample,
    hit_rate_at_k,
    hit_rate_at_k_per_sample,
    average_precision_at_k,
    mean_average_precision_at_k,
]
K_OPTIONAL = [
    expected_reciprocal_rank,
    expected_reciprocal_rank_per_sample,
    reciprocal_rank,
    mean_reciprocal_rank,
]
MATRIX_FUNCTIONS = K_REQUIRED + K_OPTIONAL
GOOD_Y = [[1, 0, 2], [0, 0, 1]]
GOOD_S = [[0.3, 0.2, 0.1], [0.5, 0.5, 0.1]]


def _call(f, y, s, **kw):
    if f in K_REQUIRED:
        kw.setdefault("k", 2)
    return f(y, s, **kw)


def _names(funcs):
    return [f.__name__ for f in funcs]


def test_metric_input_error_is_a_value_error():
    assert issubclass(MetricInputError, ValueError)
    with pytest.raises(ValueError, match="k"):
        precision_at_k(GOOD_Y, GOOD_S, k=0)


@pytest.mark.parametrize("f", MATRIX_FUNCTIONS, ids=_names(MATRIX_FUNCTIONS))
def test_bad_matrix_input_is_refused(f):
    assert np.all(np.isfinite(_call(f, GOOD_Y, GOOD_S)))  # the good input works
    bad = [
        ([1, 0, 2], GOOD_S, r"y_true must be 2-D"),
        (GOOD_Y, [0.3, 0.2, 0.1], r"y_score must be 2-D"),
        ([[[1, 0]]], [[[0.1, 0.2]]], r"y_true must be 2-D"),
        (GOOD_Y, [[0.3, 0.2], [0.5, 0.1]], r"y_true and y_score have different shapes"),
        (GOOD_Y, [[0.3, 0.2, 0.1]], r"y_true and y_score have different shapes"),
        ([[1, 0, 2], [0, -1, 1]], GOOD_S, r"y_true.*y_true\[1, 1\] \(row 1, column 1\)"),
        ([[1, 0, 2], [-0.5, -1, 1]], GOOD_S, r"non-negative.*y_true\[1, 0\]"),
        (GOOD_Y, [[0.3, np.nan, 0.1], [0.5, 0.5, 0.1]], r"y_score contains NaN at y_score\[0, 1\]"),
        (GOOD_Y, [[0.3, 0.2, 0.1], [0.5, 0.5, np.inf]], r"y_score.*infinite.*y_score\[1, 2\]"),
        ([[1, 0, np.nan], [0, 0, 1]], GOOD_S, r"y_true contains NaN at y_true\[0, 2\]"),
        (np.zeros((0, 3)), np.zeros((0, 3)), r"y_true is empty"),
        (GOOD_Y, np.zeros((2, 0)), r"y_score is empty"),
        ([["a", "b", "c"], ["d", "e", "f"]], GOOD_S, r"y_true must hold numbers"),
        (GOOD_Y, [[0.3, 0.2], [0.5, 0.5, 0.1]], r"y_score is ragged"),
    ]
    for y, s, pattern in bad:
        with pytest.raises(MetricInputError, match=pattern):
            _call(f, y, s)


@pytest.mark.parametrize("f", MATRIX_FUNCTIONS, ids=_names(MATRIX_FUNCTIONS))
@pytest.mark.parametrize("k", [0, -1, 1.5, "3", True, [2]])
def test_bad_k_is_refused(f, k):
    with pytest.raises(MetricInputError, match=r"k must be an integer >= 1"):
        f(GOOD_Y, GOOD_S, k=k)


@pytest.mark.parametrize("f", K_REQUIRED, ids=_names(K_REQUIRED))
def test_k_is_required_where_the_contract_requires_it(f):
    with pytest.raises(MetricInputError, match=r"k must be an integer"):
        f(GOOD_Y, GOOD_S, k=None)
    with pytest.raises(TypeError):
        f(GOOD_Y, GOOD_S)


def test_integral_float_k_is_accepted():
    assert precision_at_k(GOOD_Y, GOOD_S, k=2.0) == precision_at_k(GOOD_Y, GOOD_S, k=2)


@pytest.mark.parametrize(
    "f", [average_precision_at_k, mean_average_precision_at_k], ids=["ap", "map"]
)
@pytest.mark.parametrize("denominator", ["MIN_M_K", "m", "", None, 3, ["k"]])
def test_bad_denominator_is_refused(f, denominator):
    with pytest.raises(MetricInputError, match=r"denominator must be one of"):
        f(GOOD_Y, GOOD_S, k=2, denominator=denominator)


@pytest.mark.parametrize(
    "f",
    [expected_reciprocal_rank, expected_reciprocal_rank_per_sample],
    ids=["err", "err_per_sample"],
)
def test_bad_max_grade_is_refused(f):
    with pytest.raises(MetricInputError, match=r"max_grade \(1\).*grade 2 at y_true\[0, 2\]"):
        f(GOOD_Y, GOOD_S, max_grade=1)
    for mg in (-1, float("nan"), float("inf"), "2", True, [2]):
        with pytest.raises(MetricInputError, match=r"max_grade must be a non-negative number"):
            f(GOOD_Y, GOOD_S, max_grade=mg)
    assert f(GOOD_Y, GOOD_S, max_grade=2) is not None  # equal to the top grade is fine


def test_steps_bad_input_is_refused():
    y, s = [1, 0, 2], [0.3, 0.2, 0.1]
    assert len(retrieval_steps(y, s)) == 3
    bad = [
        ({"y_true_row": [[1, 0], [0, 1]]}, r"y_true_row must be one query"),
        ({"y_score_row": [[[0.3, 0.2, 0.1]]]}, r"y_score_row must be one query"),
        ({"y_score_row": 0.5}, r"y_score_row must be one query"),
        ({"y_score_row": [0.3, 0.2]}, r"y_true_row and y_score_row have different shapes"),
        ({"y_true_row": [1, -1, 2]}, r"y_true_row.*non-negative.*column 1"),
        ({"y_score_row": [0.3, np.nan, 0.1]}, r"y_score_row contains NaN.*column 1"),
        ({"y_true_row": []}, r"y_true_row is empty"),
        ({"y_true_row": ["a", "b", "c"]}, r"y_true_row must hold numbers"),
        ({"k": 0}, r"k must be an integer >= 1"),
        ({"k": 2.5}, r"k must be an integer >= 1"),
        ({"denominator": "all"}, r"denominator must be one of"),
        ({"max_grade": 1}, r"max_grade \(1\).*grade 2 at y_true_row\[2\]"),
        ({"max_grade": -0.5}, r"max_grade must be a non-negative number"),
    ]
    for change, pattern in bad:
        kw = {"y_true_row": y, "y_score_row": s, **change}
        args = (kw.pop("y_true_row"), kw.pop("y_score_row"))
        with pytest.raises(MetricInputError, match=pattern):
            retrieval_steps(*args, **kw)


def test_err_refusal_names_the_first_grade_above_max_grade():
    y = [[0, 1, 0], [0, 5, 4]]
    s = [[0.1, 0.2, 0.3]] * 2
    with pytest.raises(MetricInputError, match=r"grade 5 at y_true\[1, 1\] \(row 1, column 1\)"):
        expected_reciprocal_rank(y, s, max_grade=3.5)
    assert math.isfinite(expected_reciprocal_rank(y, s, max_grade=5))


@pytest.mark.parametrize("seed", range(5))
def test_ndcg_at_k_matches_pytrec_eval_ndcg_cut_on_tie_free_scores(seed):
    from metrics import ndcg_per_sample

    y, s = _trec_case(seed)
    trec = _trec_eval(y, s, {"ndcg_cut"})
    for k in (5, 10):
        # trec_eval's ndcg_cut uses linear gains and log2 discounts, as scikit-learn does;
        # both score a query with no relevant document 0.
        np.testing.assert_allclose(ndcg_per_sample(y, s, k=k), trec[f"ndcg_cut_{k}"], **TOL)


# ---------------------------------------------------------------------------
# speed paths: the int-key ranking, blocks of rows, integer grades
# ---------------------------------------------------------------------------
import metrics._ranks as ranks_module  # noqa: E402
import metrics._relevance as relevance_module  # noqa: E402
from metrics._ranks import keyed_descending_order  # noqa: E402
from metrics.explain.retrieval import (  # noqa: E402
    retrieval_curve,
    retrieval_per_query,
)


def _score_matrices():
    rng = np.random.default_rng(7)
    tied = np.floor(rng.random((50, 13)) * 4) / 4
    signed = tied - 0.5
    signed[3, :4] = [-0.0, 0.0, -0.0, 0.0]  # -0.0 == 0.0: column order decides
    huge = rng.choice([-1e300, -5e-324, 0.0, 5e-324, 1e300, np.finfo(float).max], (20, 9))
    one = np.nextafter(1.0, 2.0)
    # scores differing only in their lowest bits: the int key merges them -> fallback rows
    close = rng.choice([1.0, one, np.nextafter(one, 2.0), 0.5], (30, 7))
    close[::2] = rng.choice([0.1, 0.2], (15, 7))  # rows without such pairs stay on the fast path
    wide = np.floor(rng.random((4, 300)) * 3)  # 9 bits of column
    return {
        "tied": tied,
        "signed": signed,
        "continuous": rng.random((40, 11)),
        "huge": huge,
        "close": close,
        "wide": wide,
        "one column": rng.random((5, 1)),
        "float32": rng.random((10, 6)).astype(np.float32).astype(np.float64),
    }


@pytest.mark.parametrize("name", list(_score_matrices()))
def test_int_key_ranking_equals_the_stable_argsort(name):
    s = _score_matrices()[name]
    expected = np.argsort(-s, axis=1, kind="stable")
    np.testing.assert_array_equal(keyed_descending_order(s), expected)
    flat = keyed_descending_order(s, flat=True)
    np.testing.assert_array_equal(flat - np.arange(s.shape[0])[:, None] * s.shape[1], expected)


def test_int_key_ranking_fallback_rows_are_the_merged_ones(monkeypatch):
    s = _score_matrices()["close"]
    calls = []
    real = np.argsort

    def spy(a, *args, **kwargs):
        calls.append(a.shape)
        return real(a, *args, **kwargs)

    monkeypatch.setattr(ranks_module.np, "argsort", spy)
    order = keyed_descending_order(s)
    monkeypatch.undo()
    np.testing.assert_array_equal(order, np.argsort(-s, axis=1, kind="stable"))
    assert len(calls) == 1 and 0 < calls[0][0] <= 15  # only some odd rows re-ranked


def _every_value(y, s):
    """Every public matrix metric and the convention tables, as a flat list of arrays."""
    out = []
    for k in (1, 3, 7, 50):
        out += [
            precision_at_k_per_sample(y, s, k=k),
            recall_at_k_per_sample(y, s, k=k),
            hit_rate_at_k_per_sample(y, s, k=k),
            expected_reciprocal_rank_per_sample(y, s, k=k),
            reciprocal_rank(y, s, k=k),
        ]
        out += [average_precision_at_k(y, s, k=k, denominator=d) for d in DENOMINATORS]
    out += [expected_reciprocal_rank_per_sample(y, s), reciprocal_rank(y, s)]
    for ties in ("column", "tie-averaged", "optimistic", "pessimistic"):
        for den in DENOMINATORS:
            out.append(retrieval_per_query(y, s, k=3, ties=ties, denominator=den).to_numpy())
            for empty in ("zero", "drop"):
                c = retrieval_curve(y, s, k_max=9, ties=ties, denominator=den, empty=empty)
                out.append(c.to_numpy())
    return out


@pytest.mark.parametrize("block", [1, 20, 45])
def test_blocks_of_rows_do_not_change_any_value(monkeypatch, block):
    """Blocks of 1, 2 and 5 rows (of 9 items): every block boundary is crossed."""
    y, s = graded_case(3, n=23, m=9, ties=True)
    y[5] = 0  # an empty query inside a block
    whole = _every_value(y, s)
    monkeypatch.setattr(relevance_module, "BLOCK_ELEMENTS", block)
    blocked = _every_value(y, s)
    for a, b in zip(whole, blocked, strict=True):
        np.testing.assert_allclose(b, a, **TOL)


def test_blocked_metrics_match_the_reference(monkeypatch):
    monkeypatch.setattr(relevance_module, "BLOCK_ELEMENTS", 12)  # 2 rows of 6 per block
    y, s = case(5)
    for k in (1, 3, 6):
        np.testing.assert_allclose(precision_at_k_per_sample(y, s, k=k), ref_precision(y, s, k))
        np.testing.assert_allclose(
            average_precision_at_k(y, s, k=k, denominator="hits"), ref_ap(y, s, k, "hits"), **TOL
        )
        np.testing.assert_allclose(reciprocal_rank(y, s, k=k), ref_rr(y, s, k), **TOL)
        np.testing.assert_allclose(
            expected_reciprocal_rank_per_sample(y, s, k=k), ref_err(y, s, k, None), **TOL
        )


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.uint8, bool])
def test_integer_and_bool_grades_give_the_float_values(dtype):
    y, s = graded_case(11, n=30, m=8, ties=True)
    if dtype is bool:
        y = y > 1
    yi = y.astype(dtype)
    assert _every_value(yi, s)  # the conventions path converts; the simple path keeps ints
    for k in (2, 5):
        for f in K_REQUIRED:
            assert f(yi, s, k=k) == pytest.approx(f(y.astype(float), s, k=k), abs=1e-12)
        np.testing.assert_allclose(
            expected_reciprocal_rank_per_sample(yi, s, k=k, max_grade=4),
            ref_err(y.astype(float).tolist(), s.tolist(), k, 4),
            **TOL,
        )
    np.testing.assert_allclose(reciprocal_rank(yi, s), ref_rr(y.tolist(), s.tolist(), None))


def test_integer_grades_are_still_validated():
    with pytest.raises(MetricInputError, match=r"y_true\[1, 0\]"):
        precision_at_k(np.array([[1, 0], [-1, 2]]), [[0.5, 0.2], [0.1, 0.3]], k=1)
    with pytest.raises(MetricInputError, match="max_grade"):
        expected_reciprocal_rank(np.array([[1, 5]]), [[0.5, 0.2]], max_grade=2)
    with pytest.raises(MetricInputError, match="different shapes"):
        reciprocal_rank(np.array([[1, 0, 1]]), [[0.5, 0.2]])


@pytest.mark.parametrize("name", ["signed", "huge", "close", "tied"])
def test_first_relevant_position_at_extreme_scores(name):
    s = _score_matrices()[name]
    rng = np.random.default_rng(1)
    y = (rng.random(s.shape) < 0.3).astype(int)
    y[0] = 0
    np.testing.assert_allclose(reciprocal_rank(y, s), ref_rr(y.tolist(), s.tolist(), None))
    np.testing.assert_allclose(reciprocal_rank(y, s, k=2), ref_rr(y.tolist(), s.tolist(), 2), **TOL)


def test_float32_and_int_scores_rank_as_their_float64_values():
    y, s = graded_case(4, n=20, m=7, ties=True)
    s32 = (s * 8).astype(np.float32)
    si = np.round(s * 8).astype(np.int64)
    for scores in (s32, si):
        s64 = scores.astype(np.float64)
        for k in (1, 4):
            assert mean_average_precision_at_k(y, scores, k=k) == pytest.approx(
                mean_average_precision_at_k(y, s64, k=k), abs=1e-12
            )
            np.testing.assert_allclose(
                average_precision_at_k(y, scores, k=k),
                ref_ap(y.tolist(), s64.tolist(), k, "min_m_k"),
                **TOL,
            )


# ---------------------------------------------------------------------------
# RankedQueries: checked and ranked once, per-K tables from the first K positions
# ---------------------------------------------------------------------------
import pandas as pd  # noqa: E402

from metrics.explain.retrieval import (  # noqa: E402
    RankedQueries,
    rank_queries,
    retrieval_summary,
    score_order,
    tie_break_order,
)

_GRADES = {
    "int": lambda y: y,
    "float": lambda y: y.astype(np.float64),
    "halves": lambda y: y / 2.0,  # not whole: the sorted grades stay float64
    "int8": lambda y: y.astype(np.int8),
}


@pytest.mark.parametrize("ties", ["column", "tie-averaged", "optimistic", "pessimistic"])
@pytest.mark.parametrize("grades", list(_GRADES))
@pytest.mark.parametrize("block", [None, 14])
def test_ranked_queries_give_the_public_tables_exactly(ties, grades, block, monkeypatch):
    """Every K, convention and subset of metrics, twice (the second from what it kept),
    on blocks of 2 rows too: the same frames as retrieval_per_query and
    retrieval_summary."""
    if block:
        monkeypatch.setattr(relevance_module, "BLOCK_ELEMENTS", block)
    y, s = graded_case(11, n=30, m=7)
    y = _GRADES[grades](y)
    s[1] = 0.5  # a row of one tie group
    ranked = rank_queries(y, s)
    for k, den, level, gain, mg in [
        (1, "min_m_k", 1, "linear", None),
        (3, "hits", 2, "exponential", 5.0),
        (5, "relevant", 0.5, "linear", None),
        (7, "k", 1, "exponential", 3.0),
        (9, "min_m_k", 3, "linear", None),  # past the items
    ]:
        opts = {"ties": ties, "denominator": den, "level": level, "gain": gain, "max_grade": mg}
        want = retrieval_per_query(y, s, k=k, **opts)
        for _ in range(2):
            pd.testing.assert_frame_equal(ranked.per_query(k=k, **opts), want)
        for chosen in (["P@K", "RR"], ["ERR@K"], ["NDCG@K", "AP@K"]):
            pd.testing.assert_frame_equal(
                ranked.per_query(k=k, metrics=chosen, **opts),
                retrieval_per_query(y, s, k=k, metrics=chosen, **opts),
            )
        for empty in ("zero", "drop"):
            got = ranked.summary(k=k, k_max=7, empty=empty, **opts)
            ref = retrieval_summary(y, s, k=k, k_max=7, empty=empty, **opts)
            for a, b in zip(got, ref, strict=True):
                pd.testing.assert_frame_equal(a, b)


def test_ranked_queries_keep_what_does_not_depend_on_k():
    y, s = graded_case(5, n=12, m=6)
    ranked = rank_queries(y, s, order=score_order(s))
    np.testing.assert_array_equal(ranked.order, score_order(s))
    assert ranked.data_max == y.max()
    known = ranked.known(2, "pessimistic")
    assert known["sorted"].dtype == y.dtype  # integer grades are kept as they are
    np.testing.assert_array_equal(known["sorted"], -np.sort(-y, axis=1))
    np.testing.assert_array_equal(known["n_rel"], (y >= 2).sum(axis=1))
    order = tie_break_order(y, s, ties="pessimistic")
    np.testing.assert_array_equal(ranked.ranking("pessimistic"), order)
    first = np.array([np.flatnonzero(y[i, order[i]] >= 2)[:1] for i in range(12)], dtype=object)
    want = [1 / (f[0] + 1) if len(f) else 0.0 for f in first]
    np.testing.assert_allclose(known["rr"], want, **TOL)
    assert known["n_rel"] is ranked.known(2, "column")["n_rel"]  # computed once
    assert "rr" not in ranked.known(2, "tie-averaged")
    whole = rank_queries(y.astype(np.float64), s).known(1, "column")["sorted"]
    assert whole.dtype == np.uint8  # whole float grades kept in the smallest exact type
    for level in np.arange(1, 30):  # at most MEMO_ENTRIES values kept
        ranked.known(float(level), "column")
    assert len(ranked._memo) == RankedQueries.MEMO_ENTRIES


def test_ranked_queries_count_their_own_bytes_only():
    y, s = graded_case(5, n=40, m=6)
    y, s = y.astype(np.float64), s.astype(np.float64)
    ranked = rank_queries(y, s)
    assert ranked.y_true is y and ranked.y_score is s  # checked, not copied
    assert ranked.__sizeof__() < y.nbytes  # the order (uint8), not the caller's arrays
    assert rank_queries(y.tolist(), s).__sizeof__() > y.nbytes  # its own float copy
    assert repr(ranked) == "RankedQueries(40 queries x 6 items)"


def test_ranked_queries_refuse_as_the_public_functions():
    y, s = graded_case(5, n=8, m=5)
    ranked = rank_queries(y, s)
    bad = [
        {"k": 0},
        {"k": 2, "denominator": "M"},
        {"k": 2, "level": 0},
        {"k": 2, "gain": "log"},
        {"k": 2, "ties": "random"},
        {"k": 2, "max_grade": 2.0},  # below the largest grade, 3: named where it is
        {"k": 2, "max_grade": float("nan")},
        {"k": 2, "metrics": ["MAP"]},
    ]
    for kw in bad:
        with pytest.raises(MetricInputError) as want:
            retrieval_per_query(y, s, **kw)
        with pytest.raises(MetricInputError) as got:
            ranked.per_query(**kw)
        assert str(got.value) == str(want.value)
    with pytest.raises(MetricInputError, match="empty must be one of"):
        ranked.summary(k=2, k_max=3, empty="skip")
    nan = s.copy()
    nan[2, 1] = np.nan
    with pytest.raises(MetricInputError, match=r"y_score contains NaN at y_score\[2, 1\]"):
        rank_queries(y, nan)
    with pytest.raises(MetricInputError, match="order must be score_order"):
        rank_queries(y, s, order=score_order(s)[:, :3])


def test_ranked_queries_shared_by_threads_give_the_same_tables():
    """Threads asking for more kept values than it keeps at once (evictions while
    others read): every table equals retrieval_per_query's."""
    from concurrent.futures import ThreadPoolExecutor

    y, s = graded_case(8, n=50, m=9)
    ranked = rank_queries(y / 2.0, s)
    jobs = [(k, level, ties) for k in (2, 5) for level in (0.5, 1, 1.5) for ties in TIE_ALL] * 2

    def run(job):
        k, level, ties = job
        return ranked.per_query(k=k, level=level, ties=ties)

    with ThreadPoolExecutor(8) as pool:
        got = list(pool.map(run, jobs))
    for (k, level, ties), table in zip(jobs, got, strict=True):
        want = retrieval_per_query(y / 2.0, s, k=k, level=level, ties=ties)
        pd.testing.assert_frame_equal(table, want)


TIE_ALL = ("column", "tie-averaged", "optimistic", "pessimistic")
