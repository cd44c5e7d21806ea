"""Tests for metrics.dcg: DCG / NDCG with tie averaging (+ per-sample, + steps)."""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import metrics
import metrics._dcg_kernel as dcg_kernel
import metrics._ranks as ranks
from metrics._ranks import row_chunks
from metrics._validation import MetricInputError
from metrics.dcg import dcg_per_sample, dcg_score, ndcg_per_sample, ndcg_score
from metrics.explain.dcg import dcg_steps
from tests.conftest import graded_case, tied_scores, weights

SEEDS = range(8)
TOL = {"rtol": 1e-9, "atol": 1e-9}
KS = [None, 1, 2, 3, 5, 100]
LOG_BASES = [2, 10, math.e]


# ---------------------------------------------------------------------------
# slow, obvious references
# ---------------------------------------------------------------------------
def _discount(p, log_base):
    return 1 / math.log(p + 1, log_base)


def _ref_dcg_row(gains, scores, k=None, log_base=2, ignore_ties=False):
    """DCG of one row by an explicit loop.

    Tie averaging: every distinct score is a group; the group's mean gain
    times the discounts of the positions it occupies within the top k.
    ignore_ties: stable ascending order reversed (higher column first).
    """
    m = len(gains)
    k = m if k is None else min(k, m)
    if ignore_ties:
        order = sorted(range(m), key=lambda j: scores[j])[::-1]  # Python's sort is stable
        return sum(gains[order[p]] * _discount(p + 1, log_base) for p in range(k))
    total, position = 0.0, 0
    for value in sorted(set(scores), reverse=True):
        members = [j for j in range(m) if scores[j] == value]
        mean_gain = sum(gains[j] for j in members) / len(members)
        for _ in members:
            position += 1
            if position <= k:
                total += mean_gain * _discount(position, log_base)
    return total


def _ref_dcg(y, s, **kw):
    return np.array([_ref_dcg_row(list(g), list(r), **kw) for g, r in zip(y, s, strict=True)])


def _ref_ndcg(y, s, k=None, ignore_ties=False):
    dcg = _ref_dcg(y, s, k=k, ignore_ties=ignore_ties)
    ideal = np.array([_ref_dcg_row(list(g), list(g), k=k, ignore_ties=True) for g in y])
    return np.where(ideal > 0, dcg / np.where(ideal > 0, ideal, 1), 0.0)


# ---------------------------------------------------------------------------
# differential tests against scikit-learn
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m", [2, 3, 7])
@pytest.mark.parametrize("ties", [True, False])
def test_dcg_matches_sklearn(seed, m, ties):
    y, s = graded_case(seed, n=25, m=m, ties=ties)
    w = weights(seed, 25)
    for k in KS:
        for log_base in LOG_BASES:
            np.testing.assert_allclose(
                dcg_score(y, s, k=k, log_base=log_base),
                skm.dcg_score(y, s, k=k, log_base=log_base),
                err_msg=f"k={k} log_base={log_base}",
                **TOL,
            )
        log_base = LOG_BASES[KS.index(k) % 3]
        np.testing.assert_allclose(
            dcg_score(y, s, k=k, log_base=log_base, sample_weight=w),
            skm.dcg_score(y, s, k=k, log_base=log_base, sample_weight=w),
            err_msg=f"weighted k={k} log_base={log_base}",
            **TOL,
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m", [2, 3, 7])
@pytest.mark.parametrize("ties", [True, False])
def test_ndcg_matches_sklearn(seed, m, ties):
    y, s = graded_case(seed, n=25, m=m, ties=ties)
    w = weights(seed, 25)
    for k in KS:
        np.testing.assert_allclose(
            ndcg_score(y, s, k=k), skm.ndcg_score(y, s, k=k), err_msg=f"k={k}", **TOL
        )
        np.testing.assert_allclose(
            ndcg_score(y, s, k=k, sample_weight=w),
            skm.ndcg_score(y, s, k=k, sample_weight=w),
            err_msg=f"weighted k={k}",
            **TOL,
        )


@pytest.mark.parametrize("seed", SEEDS)
def test_ignore_ties_matches_sklearn_on_tie_free_scores(seed):
    """sklearn's ignore_ties=True uses an unstable sort: compare only without ties."""
    y, s = graded_case(seed, n=30, m=7, ties=False)
    w = weights(seed, 30)
    for k in KS:
        for log_base in LOG_BASES:
            np.testing.assert_allclose(
                dcg_score(y, s, k=k, log_base=log_base, ignore_ties=True, sample_weight=w),
                skm.dcg_score(y, s, k=k, log_base=log_base, ignore_ties=True, sample_weight=w),
                err_msg=f"k={k} log_base={log_base}",
                **TOL,
            )
        np.testing.assert_allclose(
            ndcg_score(y, s, k=k, ignore_ties=True),
            skm.ndcg_score(y, s, k=k, ignore_ties=True),
            err_msg=f"k={k}",
            **TOL,
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ignore_ties", [False, True])
def test_per_sample_matches_slow_reference_on_tied_scores(seed, ignore_ties):
    y, s = graded_case(seed, n=20, m=6, ties=True)
    for k in KS:
        for log_base in LOG_BASES:
            np.testing.assert_allclose(
                dcg_per_sample(y, s, k=k, log_base=log_base, ignore_ties=ignore_ties),
                _ref_dcg(y, s, k=k, log_base=log_base, ignore_ties=ignore_ties),
                err_msg=f"k={k} log_base={log_base}",
                **TOL,
            )
        np.testing.assert_allclose(
            ndcg_per_sample(y, s, k=k, ignore_ties=ignore_ties),
            _ref_ndcg(y, s, k=k, ignore_ties=ignore_ties),
            err_msg=f"k={k}",
            **TOL,
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", ["dcg", "ndcg"])
def test_per_sample_matches_sklearn_row_by_row(seed, name):
    y, s = graded_case(seed, n=20, m=5, ties=True)
    ours = dcg_per_sample if name == "dcg" else ndcg_per_sample
    theirs = skm.dcg_score if name == "dcg" else skm.ndcg_score
    expected = [theirs(y[i : i + 1], s[i : i + 1], k=3) for i in range(20)]
    np.testing.assert_allclose(ours(y, s, k=3), expected, **TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("per_block", [True, False])
@pytest.mark.parametrize("n_values", [2, 4, 50, 10_000])
def test_both_tie_averaging_kernels_match_reference(seed, per_block, n_values):
    """The per-tie-block and the 'plain DCG + tied-group correction' kernels give the same values.

    (The reference is itself checked against sklearn by the tests above.)
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, (25, 9)).astype(float)
    s = tied_scores(rng, (25, 9), n_values)
    for k in (None, 1, 4):
        discount = dcg_kernel.position_discounts(9, k, 2.0)
        got = dcg_kernel.tie_averaged_dcg(y, s, discount, per_block=per_block)
        np.testing.assert_allclose(got, _ref_dcg(y, s, k=k), err_msg=f"k={k}", **TOL)
    # and once against sklearn directly
    got = dcg_kernel.tie_averaged_dcg(
        y, s, dcg_kernel.position_discounts(9, 4, 2.0), per_block=per_block
    )
    np.testing.assert_allclose(got.mean(), skm.dcg_score(y, s, k=4), **TOL)


@pytest.mark.parametrize("seed", SEEDS[:4])
@pytest.mark.parametrize("ignore_ties", [False, True])
def test_many_row_blocks(monkeypatch, seed, ignore_ties):
    """Rows processed in blocks of 7 (and a ragged last block) give the same values."""
    y, s = graded_case(seed, n=50, m=6, ties=True)
    expected_dcg = _ref_dcg(y, s, k=3, ignore_ties=ignore_ties)
    expected_ndcg = _ref_ndcg(y, s, k=3, ignore_ties=ignore_ties)
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 7 * 6)  # 7 rows of 6 labels
    assert len(row_chunks(50, 6)) == 8
    np.testing.assert_allclose(
        dcg_per_sample(y, s, k=3, ignore_ties=ignore_ties), expected_dcg, **TOL
    )
    np.testing.assert_allclose(
        ndcg_per_sample(y, s, k=3, ignore_ties=ignore_ties), expected_ndcg, **TOL
    )


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_large_random_matrix_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    n, m = 3000, 50  # more than one block of rows
    y = rng.integers(0, 4, (n, m))
    s = rng.integers(0, 10, (n, m)) / 10
    assert len(row_chunks(n, m)) > 1
    small = slice(0, 500)  # sklearn's tie averaging loops over rows in Python
    np.testing.assert_allclose(
        dcg_per_sample(y, s, k=10)[small].mean(), skm.dcg_score(y[small], s[small], k=10), **TOL
    )
    np.testing.assert_allclose(
        ndcg_per_sample(y, s)[small].mean(), skm.ndcg_score(y[small], s[small]), **TOL
    )
    sc = rng.random((n, m))  # tie-free: whole matrix, both tie policies
    np.testing.assert_allclose(ndcg_score(y, sc), skm.ndcg_score(y, sc), **TOL)
    np.testing.assert_allclose(
        dcg_score(y, sc, ignore_ties=True), skm.dcg_score(y, sc, ignore_ties=True), **TOL
    )


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_input_types_agree(seed):
    y, s = graded_case(seed, n=15, m=5)
    expected = skm.ndcg_score(y, s, k=2)
    for yy in (y, y.astype(np.int8), y.astype(np.uint16), y.astype(float), y.tolist()):
        np.testing.assert_allclose(ndcg_score(yy, s.tolist(), k=2), expected, **TOL)
    yb = y > 1
    np.testing.assert_allclose(dcg_score(yb, s), skm.dcg_score(yb.astype(int), s), **TOL)
    np.testing.assert_allclose(ndcg_score(yb, s), skm.ndcg_score(yb.astype(int), s), **TOL)


def test_continuous_gains():
    rng = np.random.default_rng(5)
    y = rng.random((20, 6)) * 3
    s = tied_scores(rng, (20, 6), 3)
    np.testing.assert_allclose(dcg_score(y, s, k=4), skm.dcg_score(y, s, k=4), **TOL)
    np.testing.assert_allclose(ndcg_score(y, s, k=4), skm.ndcg_score(y, s, k=4), **TOL)


def test_negative_zero_ties_with_zero():
    y = np.array([[3, 1, 0, 2]])
    s = np.array([[0.0, -0.0, 1.0, -1.0]])
    assert dcg_score(y, s) == pytest.approx(skm.dcg_score(y, s), abs=1e-12)
    assert dcg_per_sample(y, s)[0] == pytest.approx(
        _ref_dcg_row([3, 1, 0, 2], [0.0, 0.0, 1.0, -1.0])
    )


def test_k_beyond_the_number_of_items_is_k_none():
    y, s = graded_case(2, n=10, m=4)
    assert dcg_score(y, s, k=4) == dcg_score(y, s, k=100) == dcg_score(y, s)
    assert ndcg_score(y, s, k=100) == ndcg_score(y, s)


def test_log_base_below_one_is_accepted_like_sklearn():
    y, s = graded_case(4, n=10, m=5)
    np.testing.assert_allclose(
        dcg_score(y, s, log_base=0.5), skm.dcg_score(y, s, log_base=0.5), **TOL
    )


def test_ndcg_does_not_depend_on_the_dcg_base():
    y, s = graded_case(6, n=10, m=5, ties=False)
    base2 = dcg_per_sample(y, s)
    has_gain = base2 > 0
    assert has_gain.sum() >= 5
    ratio = dcg_per_sample(y, s, log_base=10)[has_gain] / base2[has_gain]
    np.testing.assert_allclose(ratio, math.log(10) / math.log(2), **TOL)  # 1/log_b(x) = ln b / ln x


# ---------------------------------------------------------------------------
# degenerate rows and named examples
# ---------------------------------------------------------------------------
def test_row_with_no_gain_scores_zero_ndcg():
    assert ndcg_per_sample([[0, 0, 0], [1, 0, 0]], [[0.1, 0.2, 0.3], [0.9, 0.1, 0.2]]).tolist() == [
        0.0,
        1.0,
    ]
    assert ndcg_score([[0, 0, 0], [1, 0, 0]], [[0.1, 0.2, 0.3], [0.9, 0.1, 0.2]]) == 0.5
    assert dcg_per_sample([[0, 0, 0]], [[0.1, 0.2, 0.3]]).tolist() == [0.0]


def test_all_tied_scores_average_every_gain():
    y = [[3, 0, 1, 2]]
    s = [[0.5, 0.5, 0.5, 0.5]]
    expected = 1.5 * sum(_discount(p, 2) for p in range(1, 5))
    assert dcg_score(y, s) == pytest.approx(expected, abs=1e-12)
    assert dcg_score(y, s) == pytest.approx(skm.dcg_score(y, s), abs=1e-12)


def test_seed001_dcg_example_9_49():
    true_relevance = [[10, 0, 0, 1, 5]]
    scores = [[0.1, 0.2, 0.3, 4, 70]]
    value = dcg_score(true_relevance, scores)
    assert value == pytest.approx(9.4995, abs=5e-5)
    assert str(value).startswith("9.49")  # the documented "9.49..."


def test_seed001_dcg_example_k2_5_63():
    assert dcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]], k=2) == pytest.approx(
        5.6309, abs=5e-5
    )
    assert str(dcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]], k=2)).startswith("5.63")


def test_seed001_tied_scores_k1_7_5():
    assert dcg_score([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]], k=1) == 7.5


def test_seed001_ignore_ties_k1_5_0():
    assert dcg_score([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]], k=1, ignore_ties=True) == 5.0


def test_tie_group_straddling_k_counts_only_discounts_inside_top_k():
    value = dcg_score([[3, 0, 1, 0]], [[0.5, 0.5, 0.5, 0.1]], k=2)
    assert value == pytest.approx(4 / 3 * (1 + 1 / math.log2(3)), abs=1e-12)
    assert round(value, 4) == 2.1746
    assert value == pytest.approx(skm.dcg_score([[3, 0, 1, 0]], [[0.5, 0.5, 0.5, 0.1]], k=2))


def test_ndcg_docstring_value():
    assert round(ndcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 4) == 0.6957


def test_scores_are_python_floats_and_per_sample_arrays():
    y, s = graded_case(0, n=5, m=4)
    assert type(dcg_score(y, s)) is float and type(ndcg_score(y, s)) is float
    for f in (dcg_per_sample, ndcg_per_sample):
        out = f(y, s)
        assert isinstance(out, np.ndarray) and out.dtype == np.float64 and out.shape == (5,)


@pytest.mark.parametrize("ignore_ties", [False, True])
def test_zero_weights_select_samples(ignore_ties):
    y, s = graded_case(1, n=10, m=4)
    w = np.zeros(10)
    w[[2, 7]] = [1.0, 3.0]
    d = dcg_per_sample(y, s, k=2, ignore_ties=ignore_ties)
    nd = ndcg_per_sample(y, s, k=2, ignore_ties=ignore_ties)
    assert dcg_score(y, s, k=2, sample_weight=w, ignore_ties=ignore_ties) == pytest.approx(
        (d[2] + 3 * d[7]) / 4, abs=1e-12
    )
    assert ndcg_score(y, s, k=2, sample_weight=w, ignore_ties=ignore_ties) == pytest.approx(
        (nd[2] + 3 * nd[7]) / 4, abs=1e-12
    )


# ---------------------------------------------------------------------------
# step table
# ---------------------------------------------------------------------------
COLUMNS = [
    "position",
    "item",
    "retrieved",
    "score",
    "relevance",
    "tie_group",
    "tie_size",
    "mean_gain",
    "discount",
    "contribution",
    "running_sum",
    "in_top_k",
]


def test_dcg_steps_seed001_table():
    t = dcg_steps([10, 0, 0, 1, 5], [0.1, 0.2, 0.3, 4, 70])
    assert isinstance(t, pd.DataFrame)
    assert list(t.columns) == COLUMNS
    assert t["position"].tolist() == [1, 2, 3, 4, 5]
    assert t["item"].tolist() == [4, 3, 2, 1, 0]
    assert t["relevance"].tolist() == [5.0, 1.0, 0.0, 0.0, 10.0]
    assert t["tie_size"].tolist() == [1] * 5
    np.testing.assert_allclose(t["discount"], [1 / math.log2(p + 1) for p in range(1, 6)], **TOL)
    assert t["running_sum"].iloc[-1] == pytest.approx(9.4995, abs=5e-5)
    assert t["in_top_k"].all()


def test_dcg_steps_tie_straddling_k():
    t = dcg_steps([3, 0, 1, 0], [0.5, 0.5, 0.5, 0.1], k=2)
    assert t["item"].tolist() == [0, 1, 2, 3]  # ties in column order
    assert t["tie_group"].tolist() == [0, 0, 0, 1]
    assert t["tie_size"].tolist() == [3, 3, 3, 1]
    np.testing.assert_allclose(t["mean_gain"], [4 / 3, 4 / 3, 4 / 3, 0.0], **TOL)
    np.testing.assert_allclose(t["discount"], [1.0, 1 / math.log2(3), 0.0, 0.0], **TOL)
    assert t["in_top_k"].tolist() == [True, True, False, False]
    assert t["running_sum"].iloc[-1] == pytest.approx(2.1746, abs=5e-5)


def test_dcg_steps_ignore_ties_uses_higher_column_first():
    t = dcg_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1], k=1, ignore_ties=True)
    assert t["item"].tolist() == [4, 0, 3, 2, 1]
    assert t["mean_gain"].tolist() == t["relevance"].tolist()
    assert t["running_sum"].iloc[-1] == 5.0
    assert t["tie_group"].tolist() == [0, 0, 1, 1, 1]  # the ties are still shown


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ignore_ties", [False, True])
def test_dcg_steps_last_running_sum_is_the_row_dcg(seed, ignore_ties):
    y, s = graded_case(seed, n=8, m=6)
    for k, log_base in zip(KS, [2, math.e, 2, 10, 2, math.e], strict=True):
        expected = dcg_per_sample(y, s, k=k, log_base=log_base, ignore_ties=ignore_ties)
        for i in range(8):
            t = dcg_steps(y[i], s[i], k=k, log_base=log_base, ignore_ties=ignore_ties)
            assert t["running_sum"].iloc[-1] == pytest.approx(expected[i], abs=1e-12)
            np.testing.assert_allclose(t["contribution"], t["mean_gain"] * t["discount"], **TOL)


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------
@st.composite
def graded_matrices(draw):
    n = draw(st.integers(1, 5))
    m = draw(st.integers(2, 7))
    gains = draw(st.sampled_from([[0, 1], [0, 1, 2, 3], [0.0, 0.25, 7.5]]))
    flat_y = draw(st.lists(st.sampled_from(gains), min_size=n * m, max_size=n * m))
    values = draw(st.sampled_from([[0.0, 1.0], [0.0, 0.5, 1.0, 2.0], [-3.0, -0.0, 0.0, 0.1, 1e6]]))
    flat_s = draw(st.lists(st.sampled_from(values), min_size=n * m, max_size=n * m))
    w = draw(st.lists(st.floats(0, 5), min_size=n, max_size=n))
    if sum(w) == 0:
        w[0] = 1.0
    k = draw(st.sampled_from([None, 1, 2, 3, 10]))
    return np.array(flat_y).reshape(n, m), np.array(flat_s).reshape(n, m), np.array(w), k


@settings(max_examples=80, deadline=None)
@given(graded_matrices(), st.booleans())
def test_property_ndcg_in_unit_interval_and_weighted_means(case, ignore_ties):
    y, s, w, k = case
    nd = ndcg_per_sample(y, s, k=k, ignore_ties=ignore_ties)
    assert ((nd >= 0) & (nd <= 1)).all()
    d = dcg_per_sample(y, s, k=k, ignore_ties=ignore_ties)
    assert (d >= 0).all()
    assert ndcg_score(y, s, k=k, ignore_ties=ignore_ties) == pytest.approx(nd.mean(), abs=1e-12)
    assert dcg_score(y, s, k=k, ignore_ties=ignore_ties, sample_weight=w) == pytest.approx(
        float(np.sum(d * w) / np.sum(w)), rel=1e-9, abs=1e-9
    )
    assert ndcg_score(y, s, k=k, ignore_ties=ignore_ties, sample_weight=w) == pytest.approx(
        float(np.sum(nd * w) / np.sum(w)), abs=1e-9
    )


@settings(max_examples=80, deadline=None)
@given(graded_matrices(), st.booleans(), st.sampled_from(LOG_BASES))
def test_property_matches_reference_and_steps(case, ignore_ties, log_base):
    y, s, _, k = case
    d = dcg_per_sample(y, s, k=k, log_base=log_base, ignore_ties=ignore_ties)
    np.testing.assert_allclose(
        d, _ref_dcg(y, s, k=k, log_base=log_base, ignore_ties=ignore_ties), **TOL
    )
    for i in range(y.shape[0]):
        t = dcg_steps(y[i], s[i], k=k, log_base=log_base, ignore_ties=ignore_ties)
        assert t["running_sum"].iloc[-1] == pytest.approx(d[i], abs=1e-12)


@settings(max_examples=60, deadline=None)
@given(graded_matrices())
def test_property_tie_averaged_matches_sklearn(case):
    y, s, w, k = case
    np.testing.assert_allclose(dcg_score(y, s, k=k), skm.dcg_score(y, s, k=k), **TOL)
    np.testing.assert_allclose(
        ndcg_score(y, s, k=k, sample_weight=w), skm.ndcg_score(y, s, k=k, sample_weight=w), **TOL
    )


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
MATRIX_FUNCS = [dcg_score, dcg_per_sample, ndcg_score, ndcg_per_sample]
Y = [[3, 0, 1], [0, 2, 0]]
S = [[0.2, 0.5, 0.1], [0.3, 0.3, 0.9]]


def test_metric_input_error_is_value_error():
    assert issubclass(MetricInputError, ValueError)


@pytest.mark.parametrize("func", MATRIX_FUNCS)
@pytest.mark.parametrize(
    ("y", "s", "match"),
    [
        ([[3, 0, 1]], S, "y_true and y_score have different shapes"),
        (Y, [[0.2, 0.5], [0.3, 0.3]], "y_true and y_score have different shapes"),
        (Y, [[0.2, np.nan, 0.1], [0.3, 0.3, 0.9]], r"y_score contains NaN at y_score\[0, 1\]"),
        (Y, [[0.2, 0.5, -np.inf], [0.3, 0.3, 0.9]], r"infinite value at y_score\[0, 2\]"),
        ([[3, 0, 1], [0, np.inf, 0]], S, r"y_true contains an infinite value at y_true\[1, 1\]"),
        ([[3, 0, 1], [0, -2, 0]], S, r"y_true must be non-negative .* found -2 at y_true\[1, 1\]"),
        (np.array([[3, 0, -1], [0, 2, 0]]), S, r"found -1 at y_true\[0, 2\]"),
        (np.array([[3, 0, 1], [0, -0.5, 0]]), S, r"found -0.5 at y_true\[1, 1\]"),
        (np.zeros((0, 3), dtype=int), np.zeros((0, 3)), "y_true is empty"),
        ([3, 0, 1], [0.2, 0.5, 0.1], "y_true must be 2-D"),
        (Y, [0.2, 0.5, 0.1], "y_score must be 2-D"),
        ([[1], [0]], [[0.5], [0.2]], "y_true needs at least 2 columns"),
        (np.array([[1], [0]]), np.array([[0.5], [0.2]]), "y_true needs at least 2 columns"),
        ([["a", "b", "c"], ["d", "e", "f"]], S, "y_true must hold numbers"),
        (Y, [[0.2, 0.5, 0.1], [0.3]], "y_score is ragged"),
    ],
)
def test_bad_matrices_are_refused(func, y, s, match):
    with pytest.raises(MetricInputError, match=match):
        func(y, s)


@pytest.mark.parametrize("func", MATRIX_FUNCS + [dcg_steps])
@pytest.mark.parametrize("k", [0, -1, 1.5, "2", True])
def test_bad_k_is_refused(func, k):
    y, s = (Y[0], S[0]) if func is dcg_steps else (Y, S)
    with pytest.raises(MetricInputError, match="k must be an integer >= 1"):
        func(y, s, k=k)


@pytest.mark.parametrize("func", [dcg_score, dcg_per_sample, dcg_steps])
@pytest.mark.parametrize(
    ("log_base", "match"),
    [
        (0, "log_base must be a positive number"),
        (-2, "log_base must be a positive number"),
        (float("nan"), "log_base must be a positive number"),
        (float("inf"), "log_base must be a positive number"),
        ("2", "log_base must be a positive number"),
        (None, "log_base must be a positive number"),
        (1, "log_base must not be 1"),
        (1.0, "log_base must not be 1"),
    ],
)
def test_bad_log_base_is_refused(func, log_base, match):
    y, s = (Y[0], S[0]) if func is dcg_steps else (Y, S)
    with pytest.raises(MetricInputError, match=match):
        func(y, s, log_base=log_base)


@pytest.mark.parametrize("func", [dcg_score, ndcg_score])
@pytest.mark.parametrize(
    ("w", "match"),
    [
        ([1.0], "sample_weight has 1 entries but there are 2 samples"),
        ([1.0, -0.5], r"sample_weight must be non-negative; found -0.5 at sample_weight\[1\]"),
        ([0, 0], "sample_weight sums to zero"),
        ([1.0, np.inf], "sample_weight contains an infinite value"),
    ],
)
def test_bad_sample_weight_is_refused(func, w, match):
    with pytest.raises(MetricInputError, match=match):
        func(Y, S, sample_weight=w)


@pytest.mark.parametrize(
    ("y", "s", "match"),
    [
        ([[3, 0]], [[0.1, 0.2]], "y_true_row must be 1-D"),
        ([3, 0], [[0.1, 0.2]], "y_score_row must be 1-D"),
        ([3, 0, 1], [0.1, 0.2], "y_true_row and y_score_row have different shapes"),
        ([3, -1], [0.1, 0.2], r"y_true_row must be non-negative .* found -1 at y_true_row\[1\]"),
        ([3, 0], [0.1, np.nan], r"y_score_row contains NaN at y_score_row\[1\]"),
        ([3], [0.1], "y_true_row needs at least 2 items"),
        ([], [], "y_true_row is empty"),
    ],
)
def test_bad_rows_are_refused_by_dcg_steps(y, s, match):
    with pytest.raises(MetricInputError, match=match):
        dcg_steps(y, s)


# ---------------------------------------------------------------------------
# dcg_ranking / dcg_ranking_table: one sort reused for every setting
# ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    "case", ["few_ints", "many_floats", "negative_scores", "float_gains", "big_grades"]
)
@pytest.mark.parametrize("chunk", [None, 7 * 9])
def test_ranking_table_matches_every_metric(case, chunk):
    from metrics.explain.dcg import dcg_ranking, dcg_ranking_table, dcg_tie_bounds_per_sample

    rng = np.random.default_rng(hash(case) % 2**32)
    n, m = 37, 9
    y = rng.integers(0, 4, size=(n, m))
    s = rng.integers(0, 3, size=(n, m)).astype(float)
    if case == "many_floats":
        s = rng.random((n, m))
    elif case == "negative_scores":
        s = -rng.integers(0, 4, size=(n, m)).astype(np.float32)
    elif case == "float_gains":
        y = rng.random((n, m)) * (rng.random((n, m)) < 0.5)
    elif case == "big_grades":  # too large for the int16 tie key: lexsort path
        y = rng.integers(0, 5000, size=(n, m))
    y[0] = 0  # a row with no relevant item
    r = dcg_ranking(y, s, _max_elements=chunk)
    for k, base, ties, expo in [
        (None, 2, False, False),
        (3, np.e, False, False),
        (1, 10, True, False),
        (None, 3.5, True, True),
        (20, 2, False, True),
    ]:
        if expo and case == "big_grades":
            with pytest.raises(MetricInputError):
                dcg_ranking_table(r, exponential=True)
            continue
        g = metrics.exponential_gain(y) if expo else y
        t = dcg_ranking_table(
            r, k=k, log_base=base, ignore_ties=ties, exponential=expo, _max_elements=chunk
        )
        dcg = dcg_per_sample(g, s, k=k, log_base=base, ignore_ties=ties)
        np.testing.assert_allclose(t["DCG"], dcg, rtol=0, atol=1e-9)
        ideal = dcg_per_sample(g, g, k=k, log_base=base)
        np.testing.assert_allclose(t["ideal DCG"], ideal, rtol=0, atol=1e-9)
        ndcg = ndcg_per_sample(g, s, k=k, ignore_ties=ties)
        np.testing.assert_allclose(t["NDCG"], ndcg, rtol=0, atol=1e-9)
        low, high = dcg_tie_bounds_per_sample(g, s, k=k, log_base=base)
        np.testing.assert_allclose(t["pessimistic DCG"], low, rtol=0, atol=1e-9)
        np.testing.assert_allclose(t["optimistic DCG"], high, rtol=0, atol=1e-9)
        if case == "many_floats" and not ties and not expo and k is None and base == 2:
            from sklearn.metrics import dcg_score as sk_dcg

            assert t["DCG"].mean() == pytest.approx(sk_dcg(y, s), abs=1e-9)


def test_ranking_refuses_bad_input():
    from metrics.explain.dcg import dcg_ranking, dcg_ranking_table

    with pytest.raises(MetricInputError):
        dcg_ranking([[1, -1]], [[0.1, 0.2]])
    with pytest.raises(MetricInputError):
        dcg_ranking([[1]], [[0.1]])
    r = dcg_ranking([[1, 0]], [[0.1, 0.2]])
    with pytest.raises(MetricInputError):
        dcg_ranking_table(r, log_base=1)
    with pytest.raises(MetricInputError):
        dcg_ranking_table(r, k=0)


# dcg_ranking_table reads only the top k positions (and a tie group straddling k to its end)
CUT = {"rtol": 1e-12, "atol": 1e-12}


def _check_ranking_table(y, s, k, base, ties, expo, chunk=None):
    from metrics.explain.dcg import dcg_ranking, dcg_ranking_table, dcg_tie_bounds_per_sample

    t = dcg_ranking_table(
        dcg_ranking(y, s, _max_elements=chunk),
        k=k,
        log_base=base,
        ignore_ties=ties,
        exponential=expo,
        _max_elements=chunk,
    )
    g = metrics.exponential_gain(y) if expo else y
    np.testing.assert_allclose(
        t["DCG"], dcg_per_sample(g, s, k=k, log_base=base, ignore_ties=ties), **CUT
    )
    np.testing.assert_allclose(t["ideal DCG"], dcg_per_sample(g, g, k=k, log_base=base), **CUT)
    np.testing.assert_allclose(t["NDCG"], ndcg_per_sample(g, s, k=k, ignore_ties=ties), **CUT)
    low, high = dcg_tie_bounds_per_sample(g, s, k=k, log_base=base)
    np.testing.assert_allclose(t["pessimistic DCG"], low, **CUT)
    np.testing.assert_allclose(t["optimistic DCG"], high, **CUT)


def test_ranking_table_tie_group_straddling_k_reads_gains_after_k():
    from metrics.explain.dcg import dcg_ranking, dcg_ranking_table

    # positions 1-3 tie (gains 0, 0, 9 in pessimistic order); k = 1 cuts the group after
    # its first position, so the 9 at position 3 sets the averaged and optimistic DCG
    r = dcg_ranking([[0, 0, 9, 3]], [[1, 1, 1, 0]])
    assert dcg_ranking_table(r, k=1).iloc[0].tolist() == [3.0, 9.0, 1 / 3, 0.0, 9.0]
    assert dcg_ranking_table(r, k=1, ignore_ties=True)["DCG"].tolist() == [9.0]  # column 2 first
    two = dcg_ranking_table(r, k=2, exponential=True).iloc[0]
    d2 = 1 / math.log2(3)
    assert two["DCG"] == pytest.approx((1 + d2) * 511 / 3, abs=1e-12)
    assert two["ideal DCG"] == pytest.approx(511 + 7 * d2, abs=1e-12)
    assert (two["pessimistic DCG"], two["optimistic DCG"]) == (0.0, 511.0)


@pytest.mark.parametrize("seed", SEEDS[:4])
@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("expo", [False, True])
@pytest.mark.parametrize("chunk", [None, 5 * 12])
def test_ranking_table_every_k_matches_the_metrics(seed, ties, expo, chunk):
    # rows of distinct scores and rows of few tied values: some blocks of rows hold a
    # tie group straddling k and read past it, others stop at k
    rng = np.random.default_rng(seed)
    n, m = 40, 12
    y = rng.integers(0, 4, size=(n, m))
    y[0] = 0
    s = rng.random((n, m))
    tied = rng.random(n) < 0.3
    s[tied] = tied_scores(rng, (int(tied.sum()), m), 3)
    s[n - 1] = 0.5  # every item of the last row tied
    for k in [None, 1, 2, 5, m - 1, m, m + 3]:
        _check_ranking_table(y, s, k, 2, ties, expo, chunk)
    _check_ranking_table(y, s, 3, math.e, ties, expo, chunk)


@settings(max_examples=80, deadline=None)
@given(graded_matrices(), st.booleans(), st.booleans(), st.sampled_from(LOG_BASES))
def test_property_ranking_table_matches_the_metrics(case, ties, expo, log_base):
    y, s, _, k = case
    _check_ranking_table(y, s, k, log_base, ties, expo)


# ---------------------------------------------------------------------------
# ties in column (input) order: LightGBM's and XGBoost's stable sort
# ---------------------------------------------------------------------------
def _slow_column_order_dcg(y_row, s_row, k, kept):
    """DCG of one row with tied items in column order, a loop over the items."""
    items = [j for j in range(len(s_row)) if kept[j]]
    items.sort(key=lambda j: -s_row[j])  # Python's sort is stable: lower column first
    top = len(items) if k is None else min(k, len(items))
    return sum(float(y_row[j]) / math.log2(p + 2) for p, j in enumerate(items[:top]))


@pytest.mark.parametrize("seed", SEEDS[:3])
@pytest.mark.parametrize("masked", [False, True])
@pytest.mark.parametrize("chunk", [None, 5 * 8])
def test_column_tie_order_matches_a_slow_reference(seed, masked, chunk):
    from metrics.explain.dcg import dcg_ranking, dcg_ranking_table

    rng = np.random.default_rng(seed)
    n, m = 30, 8
    y = rng.integers(0, 4, size=(n, m))
    s = tied_scores(rng, (n, m), 3)
    mask = rng.random((n, m)) < 0.8 if masked else None
    kept = np.ones((n, m), bool) if mask is None else mask
    ranked = dcg_ranking(y, s, retrieved=mask, _max_elements=chunk)
    for k in (None, 1, 3, m):
        table = dcg_ranking_table(ranked, k=k, ignore_ties="column", _max_elements=chunk)
        want = [_slow_column_order_dcg(y[i], s[i], k, kept[i]) for i in range(n)]
        np.testing.assert_allclose(table["DCG"], want, rtol=0, atol=1e-12)
        steps = [
            dcg_steps(y[i], s[i], k=k, ignore_ties="column", retrieved=kept[i]) for i in range(n)
        ]
        np.testing.assert_allclose([t["running_sum"].iloc[-1] for t in steps], want, atol=1e-12)
    # the three tie rules differ on the docstring's row: 10 and 5 tie at the top
    one = dcg_ranking([[10, 0, 0, 1, 5]], [[1, 0, 0, 0, 1]])
    firsts = [dcg_ranking_table(one, k=1, ignore_ties=t)["DCG"].item() for t in (False, True)]
    assert firsts + [dcg_ranking_table(one, k=1, ignore_ties="column")["DCG"].item()] == [
        7.5,
        5.0,
        10.0,
    ]
    with pytest.raises(MetricInputError, match="ignore_ties"):
        dcg_ranking_table(one, ignore_ties="input")
