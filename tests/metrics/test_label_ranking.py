"""Tests for metrics.label_ranking: coverage error, LRAP, ranking loss (+ per-sample, + steps)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from sklearn import metrics as skm

import metrics
import metrics._label_ranking_kernel as lrk
import metrics._ranks as ranks
import metrics.label_ranking as lr
from metrics._ranks import row_chunks
from metrics._validation import MetricInputError
from metrics.explain.label_ranking import coverage_steps, lrap_steps, ranking_loss_steps
from metrics.label_ranking import (
    coverage_error,
    coverage_per_sample,
    label_ranking_average_precision_score,
    label_ranking_loss,
    lrap_per_sample,
    ranking_loss_per_sample,
)
from tests.conftest import multilabel_case, tied_scores, weights

SEEDS = range(8)
TOL = {"rtol": 1e-9, "atol": 1e-9}

SCORES = {
    "coverage": (coverage_error, skm.coverage_error),
    "lrap": (label_ranking_average_precision_score, skm.label_ranking_average_precision_score),
    "loss": (label_ranking_loss, skm.label_ranking_loss),
}
PER_SAMPLE = {
    "coverage": (coverage_per_sample, coverage_error),
    "lrap": (lrap_per_sample, label_ranking_average_precision_score),
    "loss": (ranking_loss_per_sample, label_ranking_loss),
}
STEPS = {"coverage": coverage_steps, "lrap": lrap_steps, "loss": ranking_loss_steps}


# ---------------------------------------------------------------------------
# slow, obvious references (straight from the formulas)
# ---------------------------------------------------------------------------
def _ref_row(y, s):
    """(coverage, lrap, loss) of one row by explicit loops, ties at the maximal rank."""
    m = len(y)
    true = [j for j in range(m) if y[j] == 1]
    false = [j for j in range(m) if y[j] == 0]
    rank = [sum(s[k] >= s[j] for k in range(m)) for j in range(m)]
    coverage = max((rank[j] for j in true), default=0)
    if not true or not false:
        return coverage, 1.0, 0.0
    fracs = [sum(s[k] >= s[j] for k in true) / rank[j] for j in true]
    wrong = sum(s[f] >= s[t] for t in true for f in false)
    return coverage, sum(fracs) / len(true), wrong / (len(true) * len(false))


def _ref(y, s):
    return np.array([_ref_row(list(yi), list(si)) for yi, si in zip(y, s, strict=True)]).T


# ---------------------------------------------------------------------------
# differential tests against scikit-learn
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("m", [2, 3, 6, 25])
@pytest.mark.parametrize("ties", [True, False])
def test_matches_sklearn(seed, m, ties):
    y, s = multilabel_case(seed, n=40, m=m, ties=ties)
    w = weights(seed, 40)
    for name, (ours, theirs) in SCORES.items():
        np.testing.assert_allclose(ours(y, s), theirs(y, s), err_msg=name, **TOL)
        np.testing.assert_allclose(
            ours(y, s, sample_weight=w), theirs(y, s, sample_weight=w), err_msg=name, **TOL
        )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(SCORES))
def test_per_sample_matches_sklearn_row_by_row(seed, name):
    per_sample, _ = PER_SAMPLE[name]
    _, theirs = SCORES[name]
    y, s = multilabel_case(seed, n=25, m=5)
    expected = [theirs(y[i : i + 1], s[i : i + 1]) for i in range(25)]
    np.testing.assert_allclose(per_sample(y, s), expected, **TOL)


@pytest.mark.parametrize("seed", SEEDS)
def test_matches_slow_reference(seed):
    y, s = multilabel_case(seed, n=30, m=7)
    cov, lrap, loss = _ref(y, s)
    np.testing.assert_allclose(coverage_per_sample(y, s), cov, **TOL)
    np.testing.assert_allclose(lrap_per_sample(y, s), lrap, **TOL)
    np.testing.assert_allclose(ranking_loss_per_sample(y, s), loss, **TOL)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("per_block", [True, False])
@pytest.mark.parametrize("n_values", [2, 5, 1000])
def test_both_kernels_match_reference(seed, per_block, n_values):
    """The per-tie-block and the per-true-label kernels give the same values.

    (The slow reference is itself checked against sklearn; the whole-matrix
    values are compared with sklearn directly too.)
    """
    rng = np.random.default_rng(seed)
    y = (rng.random((30, 9)) < 0.4).astype(int)
    s = tied_scores(rng, (30, 9), n_values)
    mask = y != 0
    _, lrap, loss = _ref(y, s)
    got_lrap = lrk.lrap_values(mask, s, per_block=per_block)
    got_loss = lrk.ranking_loss_values(mask, s, per_block=per_block)
    np.testing.assert_allclose(got_lrap, lrap, **TOL)
    np.testing.assert_allclose(got_loss, loss, **TOL)
    np.testing.assert_allclose(
        got_lrap.mean(), skm.label_ranking_average_precision_score(y, s), **TOL
    )
    np.testing.assert_allclose(got_loss.mean(), skm.label_ranking_loss(y, s), **TOL)


@pytest.mark.parametrize("seed", SEEDS[:4])
@pytest.mark.parametrize("per_block", [True, False])
def test_both_kernels_on_tie_free_scores(seed, per_block):
    """Continuous scores: no tie at all (the per-true-label kernel's shortcut)."""
    rng = np.random.default_rng(seed)
    y = (rng.random((30, 8)) < 0.4).astype(int)
    s = rng.random((30, 8))
    mask = y != 0
    _, lrap, loss = _ref(y, s)
    np.testing.assert_allclose(lrk.lrap_values(mask, s, per_block=per_block), lrap, **TOL)
    np.testing.assert_allclose(lrk.ranking_loss_values(mask, s, per_block=per_block), loss, **TOL)


@pytest.mark.parametrize("seed", SEEDS[:4])
@pytest.mark.parametrize("name", sorted(SCORES))
def test_many_row_blocks(monkeypatch, seed, name):
    """Rows processed in blocks of 7 (and a ragged last block) give the same values."""
    ours, theirs = SCORES[name]
    y, s = multilabel_case(seed, n=50, m=6)
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 7 * 6)  # 7 rows of 6 labels
    assert len(row_chunks(50, 6)) == 8
    np.testing.assert_allclose(ours(y, s), theirs(y, s), **TOL)


@pytest.mark.parametrize("name", sorted(SCORES))
def test_input_types_agree(name):
    ours, theirs = SCORES[name]
    y, s = multilabel_case(3, n=20, m=5)
    expected = theirs(y, s)
    for yy in (
        y,
        y.astype(bool),
        y.astype(np.int8),
        y.astype(np.uint8),
        y.astype(float),
        y.tolist(),
    ):
        np.testing.assert_allclose(ours(yy, s.tolist()), expected, **TOL)
    # a non-contiguous view
    wide = np.repeat(y, 2, axis=1)[:, ::2]
    np.testing.assert_allclose(ours(wide, s), expected, **TOL)


@pytest.mark.parametrize("name", sorted(SCORES))
def test_negative_zero_ties_with_zero(name):
    ours, theirs = SCORES[name]
    y = np.array([[1, 0, 0, 1], [0, 1, 1, 0]])
    s = np.array([[0.0, -0.0, 0.5, -1.0], [-0.0, 0.0, 0.0, 2.0]])
    np.testing.assert_allclose(ours(y, s), theirs(y, s), **TOL)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_large_random_matrix_matches_sklearn(seed):
    """A matrix bigger than one block of rows, heavy ties, compared with sklearn."""
    rng = np.random.default_rng(seed)
    n, m = 3000, 50  # 2 blocks of rows at the default block size
    y = (rng.random((n, m)) < 0.2).astype(int)
    s = rng.integers(0, 10, (n, m)) / 10
    assert len(row_chunks(n, m)) > 1
    np.testing.assert_allclose(coverage_error(y, s), skm.coverage_error(y, s), **TOL)
    np.testing.assert_allclose(label_ranking_loss(y, s), skm.label_ranking_loss(y, s), **TOL)
    small = slice(0, 400)  # sklearn's LRAP loops over rows in Python: compare part of it
    np.testing.assert_allclose(
        lrap_per_sample(y, s)[small].mean(),
        skm.label_ranking_average_precision_score(y[small], s[small]),
        **TOL,
    )


# ---------------------------------------------------------------------------
# degenerate rows and named examples
# ---------------------------------------------------------------------------
def test_degenerate_rows_follow_sklearn():
    y = np.array([[0, 0, 0, 0], [1, 1, 1, 1], [1, 0, 1, 0], [0, 1, 0, 0]])
    s = np.array(
        [[0.1, 0.4, 0.3, 0.2], [0.1, 0.4, 0.3, 0.2], [0.5, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.5]]
    )
    # no true label: coverage 0, LRAP 1, loss 0; all true: coverage L, LRAP 1, loss 0;
    # all tied: coverage L, LRAP |Y|/L, loss 1
    assert coverage_per_sample(y, s).tolist() == [0.0, 4.0, 4.0, 4.0]
    assert lrap_per_sample(y, s).tolist() == [1.0, 1.0, 0.5, 0.25]
    assert ranking_loss_per_sample(y, s).tolist() == [0.0, 0.0, 1.0, 1.0]
    for name, (ours, theirs) in SCORES.items():
        assert ours(y, s) == pytest.approx(theirs(y, s), abs=1e-12), name


def test_lrap_accepts_single_column_like_sklearn():
    y = np.array([[1], [0], [1]])
    s = np.array([[0.3], [0.2], [-1.0]])
    assert lrap_per_sample(y, s).tolist() == [1.0, 1.0, 1.0]
    assert (
        label_ranking_average_precision_score(y, s)
        == skm.label_ranking_average_precision_score(y, s)
        == 1.0
    )


def test_seed003_lrap_example_0_777():
    y_true = [[1, 0, 0], [1, 0, 1], [1, 1, 0]]
    y_score = [[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]]
    np.testing.assert_allclose(lrap_per_sample(y_true, y_score), [0.5, 5 / 6, 1.0], **TOL)
    assert label_ranking_average_precision_score(y_true, y_score) == pytest.approx(7 / 9, abs=1e-12)
    assert round(label_ranking_average_precision_score(y_true, y_score), 3) == 0.778
    # the tutorial's walk-through of sample 2: human 1/1, dog 2/3
    t = lrap_steps(y_true[1], y_score[1])
    true_rows = t[t["is_true"]]
    assert true_rows["label"].tolist() == [0, 2]
    assert true_rows["rank"].tolist() == [1, 3]
    assert true_rows["n_true_at_or_above"].tolist() == [1, 2]
    np.testing.assert_allclose(true_rows["fraction"], [1.0, 2 / 3], **TOL)


def test_sklearn_docstring_examples():
    y_true = [[1, 0, 0], [0, 0, 1]]
    y_score = [[0.75, 0.5, 1], [1, 0.2, 0.1]]
    assert coverage_error(y_true, y_score) == 2.5
    assert label_ranking_loss(y_true, y_score) == 0.75
    assert round(label_ranking_average_precision_score([[1, 0, 0], [0, 0, 1]], y_score), 3) == 0.417


def test_scores_are_python_floats():
    y, s = multilabel_case(0, n=5, m=4)
    for name, (ours, _) in SCORES.items():
        assert type(ours(y, s)) is float, name
    for name, (per_sample, _) in PER_SAMPLE.items():
        out = per_sample(y, s)
        assert isinstance(out, np.ndarray) and out.dtype == np.float64 and out.shape == (5,), name


# ---------------------------------------------------------------------------
# step tables
# ---------------------------------------------------------------------------
def test_lrap_steps_columns_and_values():
    t = lrap_steps([0, 1, 1, 0, 1], [0.2, 0.9, 0.5, 0.5, 0.1])
    assert list(t.columns) == [
        "label",
        "score",
        "is_true",
        "rank",
        "tie_group",
        "n_true_at_or_above",
        "fraction",
        "running_value",
    ]
    assert t["label"].tolist() == [1, 2, 3, 0, 4]  # descending score, ties in column order
    assert t["rank"].tolist() == [1, 3, 3, 4, 5]
    assert t["tie_group"].tolist() == [0, 1, 1, 2, 3]
    assert t["n_true_at_or_above"].isna().tolist() == [False, False, True, True, False]
    fr = [1.0, 2 / 3, np.nan, np.nan, 3 / 5]
    np.testing.assert_allclose(t["fraction"], fr, **TOL)
    running = [1.0, (1 + 2 / 3) / 2, (1 + 2 / 3) / 2, (1 + 2 / 3) / 2, (1 + 2 / 3 + 3 / 5) / 3]
    np.testing.assert_allclose(t["running_value"], running, **TOL)
    assert t["running_value"].iloc[-1] == pytest.approx(
        lrap_per_sample([[0, 1, 1, 0, 1]], [[0.2, 0.9, 0.5, 0.5, 0.1]])[0]
    )


def test_lrap_steps_nan_before_first_true_label_then_forward_filled():
    t = lrap_steps([0, 0, 1, 0], [0.9, 0.8, 0.1, 0.0])
    assert np.isnan(t["running_value"].iloc[0]) and np.isnan(t["running_value"].iloc[1])
    np.testing.assert_allclose(t["running_value"].iloc[2:], [1 / 3, 1 / 3], **TOL)
    assert "note" not in t


@pytest.mark.parametrize(
    ("y", "why"), [([0, 0, 0], "no true label"), ([1, 1, 1], "every label is true"), ([1], "every")]
)
def test_lrap_steps_degenerate_rows_have_a_note(y, why):
    t = lrap_steps(y, np.arange(len(y), dtype=float))
    assert t["running_value"].tolist() == [1.0] * len(y)
    assert why in t["note"].iloc[0]


def test_coverage_steps():
    t = coverage_steps([0, 1, 0, 0, 1], [0.9, 0.8, 0.8, 0.5, 0.1])
    assert list(t.columns) == ["label", "score", "is_true", "rank", "tie_group", "running_value"]
    assert t["rank"].tolist() == [1, 3, 3, 4, 5]
    assert t["running_value"].tolist() == [0, 3, 3, 3, 5]
    assert (
        t["running_value"].iloc[-1]
        == coverage_per_sample([[0, 1, 0, 0, 1]], [[0.9, 0.8, 0.8, 0.5, 0.1]])[0]
    )
    none = coverage_steps([0, 0, 0], [0.1, 0.2, 0.3])
    assert none["running_value"].tolist() == [0, 0, 0] and "no true label" in none["note"].iloc[0]


def test_ranking_loss_steps():
    t = ranking_loss_steps([1, 0, 1, 0], [0.5, 0.5, 0.9, 0.1])
    assert list(t.columns) == [
        "true_label",
        "false_label",
        "true_score",
        "false_score",
        "misordered",
        "tie",
        "running_value",
    ]
    assert t[["true_label", "false_label"]].to_numpy().tolist() == [[0, 1], [0, 3], [2, 1], [2, 3]]
    assert t["misordered"].tolist() == [True, False, False, False]
    assert t["tie"].tolist() == [True, False, False, False]
    np.testing.assert_allclose(t["running_value"], [0.25, 0.25, 0.25, 0.25], **TOL)


@pytest.mark.parametrize("y", [[0, 0, 0], [1, 1, 1]])
def test_ranking_loss_steps_degenerate_single_row(y):
    t = ranking_loss_steps(y, [0.3, 0.2, 0.1])
    assert len(t) == 1
    assert np.isnan(t["true_label"].iloc[0]) and np.isnan(t["false_label"].iloc[0])
    assert t["running_value"].iloc[0] == 0.0
    assert "scikit-learn" in t["note"].iloc[0]


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("name", sorted(STEPS))
def test_steps_last_running_value_is_the_per_sample_value(seed, name):
    y, s = multilabel_case(seed, n=12, m=6)
    per_sample, _ = PER_SAMPLE[name]
    expected = per_sample(y, s)
    for i in range(12):
        t = STEPS[name](y[i], s[i])
        assert t["running_value"].iloc[-1] == pytest.approx(expected[i], abs=1e-12)


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------
@st.composite
def label_matrices(draw, min_labels=1):
    n = draw(st.integers(1, 6))
    m = draw(st.integers(min_labels, 7))
    flat_y = draw(st.lists(st.integers(0, 1), min_size=n * m, max_size=n * m))
    values = draw(st.sampled_from([[0.0, 1.0], [0.0, 0.5, 1.0, 2.0], [-1.0, -0.0, 0.0, 3.5, 1e9]]))
    flat_s = draw(st.lists(st.sampled_from(values), min_size=n * m, max_size=n * m))
    # no subnormal weights: w * value underflows there (5e-324 * 0.83 == 5e-324), so a
    # weighted mean of one such sample reads 1.0 in the full computation (as in
    # scikit-learn's np.average) and 0.83 in the what-if replacement; found by
    # hypothesis in CI, a float limit both paths share, not a bug of either
    w = draw(st.lists(st.floats(0, 5, allow_subnormal=False), min_size=n, max_size=n))
    if sum(w) == 0:
        w[0] = 1.0
    return np.array(flat_y).reshape(n, m), np.array(flat_s).reshape(n, m), np.array(w)


@settings(max_examples=80, deadline=None)
@given(label_matrices(min_labels=2))
def test_property_ranges_and_weighted_means(case):
    y, s, w = case
    m = y.shape[1]
    cov = coverage_per_sample(y, s)
    lrap = lrap_per_sample(y, s)
    loss = ranking_loss_per_sample(y, s)
    assert ((cov >= 0) & (cov <= m)).all()
    assert (cov >= y.sum(axis=1)).all()  # at least the number of true labels
    assert ((lrap > 0) & (lrap <= 1 + 1e-12)).all()
    assert ((loss >= 0) & (loss <= 1 + 1e-12)).all()
    for name, (per_sample, score) in PER_SAMPLE.items():
        values = per_sample(y, s)
        assert score(y, s) == pytest.approx(values.mean(), abs=1e-12), name
        expected = float(np.sum(values * w) / np.sum(w))
        assert score(y, s, sample_weight=w) == pytest.approx(expected, abs=1e-9), name


@settings(max_examples=60, deadline=None)
@given(label_matrices(min_labels=2))
def test_property_matches_slow_reference(case):
    y, s, _ = case
    cov, lrap, loss = _ref(y, s)
    np.testing.assert_allclose(coverage_per_sample(y, s), cov, **TOL)
    np.testing.assert_allclose(lrap_per_sample(y, s), lrap, **TOL)
    np.testing.assert_allclose(ranking_loss_per_sample(y, s), loss, **TOL)


@settings(max_examples=60, deadline=None)
@given(label_matrices(min_labels=1))
def test_property_lrap_in_0_1_including_single_column(case):
    y, s, _ = case
    v = lrap_per_sample(y, s)
    assert ((v > 0) & (v <= 1 + 1e-12)).all()


@settings(max_examples=60, deadline=None)
@given(label_matrices(min_labels=2))
def test_property_steps_end_on_per_sample_value(case):
    y, s, _ = case
    values = {name: PER_SAMPLE[name][0](y, s) for name in STEPS}
    for name, steps in STEPS.items():
        for i in range(y.shape[0]):
            last = steps(y[i], s[i])["running_value"].iloc[-1]
            assert last == pytest.approx(values[name][i], abs=1e-12), name


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
ALL_MATRIX_FUNCS = [
    coverage_error,
    coverage_per_sample,
    label_ranking_average_precision_score,
    lrap_per_sample,
    label_ranking_loss,
    ranking_loss_per_sample,
]
WEIGHTED = [coverage_error, label_ranking_average_precision_score, label_ranking_loss]
NEEDS_TWO_COLUMNS = [
    coverage_error,
    coverage_per_sample,
    label_ranking_loss,
    ranking_loss_per_sample,
]

Y = [[1, 0, 1], [0, 1, 0]]
S = [[0.2, 0.5, 0.1], [0.3, 0.3, 0.9]]


def test_metric_input_error_is_value_error():
    assert issubclass(MetricInputError, ValueError)


@pytest.mark.parametrize("func", ALL_MATRIX_FUNCS)
@pytest.mark.parametrize(
    ("y", "s", "match"),
    [
        ([[1, 0, 1]], S, "y_true and y_score have different shapes"),
        (Y, [[0.2, 0.5], [0.3, 0.3]], "y_true and y_score have different shapes"),
        (Y, [[0.2, np.nan, 0.1], [0.3, 0.3, 0.9]], r"y_score contains NaN at y_score\[0, 1\]"),
        (
            Y,
            [[0.2, 0.5, 0.1], [0.3, 0.3, np.inf]],
            r"y_score contains an infinite value at y_score\[1, 2\]",
        ),
        ([[1, 0, 1], [0, np.nan, 0]], S, r"y_true contains NaN at y_true\[1, 1\]"),
        ([[1, 0, 2], [0, 1, 0]], S, r"y_true must hold only 0 and 1; found 2 at y_true\[0, 2\]"),
        (np.array([[1, 0, 1], [0, 2, 0]]), S, r"found 2 at y_true\[1, 1\]"),
        ([[1, -1, 1], [-1, 1, -1]], S, r"found -1 at y_true\[0, 1\]"),
        (np.array([[1, -1, 1], [-1, 1, -1]], dtype=np.int8), S, r"found -1 at y_true\[0, 1\]"),
        (np.array([[1.0, 0.5, 1], [0, 1, 0]]), S, r"found 0.5 at y_true\[0, 1\]"),
        ([[1, 0, 1]][:0], [[0.1]][:0], "y_true"),
        (np.zeros((0, 3), dtype=int), np.zeros((0, 3)), "y_true is empty"),
        ([1, 0, 1], [0.2, 0.5, 0.1], "y_true must be 2-D"),
        (Y, [0.2, 0.5, 0.1], "y_score must be 2-D"),
        ([["a", "b", "c"], ["d", "e", "f"]], S, "y_true must hold numbers"),
        (Y, [[0.2, 0.5, 0.1], [0.3, 0.3]], "y_score is ragged"),
    ],
)
def test_bad_matrices_are_refused(func, y, s, match):
    with pytest.raises(MetricInputError, match=match):
        func(y, s)


@pytest.mark.parametrize("func", NEEDS_TWO_COLUMNS)
def test_single_column_is_refused(func):
    with pytest.raises(MetricInputError, match="y_true needs at least 2 columns"):
        func([[1], [0]], [[0.5], [0.2]])
    with pytest.raises(MetricInputError, match="y_true needs at least 2 columns"):
        func(np.array([[1], [0]]), np.array([[0.5], [0.2]]))


@pytest.mark.parametrize("func", WEIGHTED)
@pytest.mark.parametrize(
    ("w", "match"),
    [
        ([1.0], "sample_weight has 1 entries but there are 2 samples"),
        ([1.0, -1.0], r"sample_weight must be non-negative; found -1 at sample_weight\[1\]"),
        ([0.0, 0.0], "sample_weight sums to zero"),
        ([1.0, np.nan], "sample_weight contains NaN"),
        ([[1.0, 1.0]], "sample_weight must be 1-D"),
    ],
)
def test_bad_sample_weight_is_refused(func, w, match):
    with pytest.raises(MetricInputError, match=match):
        func(Y, S, sample_weight=w)


@pytest.mark.parametrize("func", WEIGHTED)
def test_zero_weights_are_allowed(func):
    y, s = multilabel_case(1, n=10, m=4)
    w = np.zeros(10)
    w[3] = 2.0
    per_sample = {
        coverage_error: coverage_per_sample,
        label_ranking_average_precision_score: lrap_per_sample,
        label_ranking_loss: ranking_loss_per_sample,
    }[func]
    assert func(y, s, sample_weight=w) == pytest.approx(per_sample(y, s)[3], abs=1e-12)


@pytest.mark.parametrize("steps", [coverage_steps, lrap_steps, ranking_loss_steps])
@pytest.mark.parametrize(
    ("y", "s", "match"),
    [
        ([[1, 0]], [[0.1, 0.2]], "y_true_row must be 1-D"),
        ([1, 0], [[0.1, 0.2]], "y_score_row must be 1-D"),
        ([1, 0, 1], [0.1, 0.2], "y_true_row and y_score_row have different shapes"),
        ([1, 2], [0.1, 0.2], r"y_true_row must hold only 0 and 1; found 2 at y_true_row\[1\]"),
        ([1, 0], [0.1, np.nan], r"y_score_row contains NaN at y_score_row\[1\]"),
        ([1, np.inf], [0.1, 0.2], "y_true_row contains an infinite value"),
        ([], [], "y_true_row is empty"),
    ],
)
def test_bad_rows_are_refused_by_steps(steps, y, s, match):
    with pytest.raises(MetricInputError, match=match):
        steps(y, s)


@pytest.mark.parametrize("steps", [coverage_steps, ranking_loss_steps])
def test_steps_refuse_a_single_label_where_the_metric_does(steps):
    with pytest.raises(MetricInputError, match="y_true_row needs at least 2 labels"):
        steps([1], [0.5])


def test_lrap_steps_accepts_a_single_label():
    t = lrap_steps([1], [0.5])
    assert t["running_value"].tolist() == [1.0]


def test_steps_return_dataframes():
    for steps in (coverage_steps, lrap_steps, ranking_loss_steps):
        assert isinstance(steps([1, 0, 1], [0.3, 0.2, 0.1]), pd.DataFrame)


# ---------------------------------------------------------------------------
# the counted path (few distinct scores: per-row histograms, no sort)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS[:4])
@pytest.mark.parametrize("counted", [True, False])
@pytest.mark.parametrize("n_values", [1, 2, 5, 9])
def test_counted_and_sorted_paths_match_reference(seed, counted, n_values):
    """Counting (row, score code, label) triples equals sorting, tie for tie."""
    rng = np.random.default_rng(seed)
    y = (rng.random((40, 9)) < 0.4).astype(int)
    y[0], y[1] = 0, 1  # no true label, every label true
    s = tied_scores(rng, (40, 9), n_values) * 3 - 1  # negatives too
    s[2] = s[2, 0]  # one row all tied
    _, lrap, loss = _ref(y, s)
    for mask in (y != 0, y, y.astype(np.uint8)):  # bool mask or checked 0/1 integers
        np.testing.assert_allclose(lrk.lrap_values(mask, s, counted=counted), lrap, **TOL)
        np.testing.assert_allclose(lrk.ranking_loss_values(mask, s, counted=counted), loss, **TOL)


def test_counted_path_is_taken_on_few_values_and_not_on_many():
    rng = np.random.default_rng(0)
    few = tied_scores(rng, (50, 20), 10)
    assert lrk.score_values(few) is not None
    assert lrk.score_values(rng.random((50, 20))) is None  # continuous: sort
    assert lrk.score_values(tied_scores(rng, (50, 4), 10)) is None  # more values than labels
    codes = lrk.code_counts(np.ones((50, 20), bool), few, lrk.score_values(few))
    assert codes is not None and int(codes[0].sum()) == 1000


def test_counted_path_falls_back_when_a_score_is_not_a_candidate(monkeypatch):
    """A block holding a value the sample missed is sorted; the others are counted."""
    rng = np.random.default_rng(1)
    n, m = 600, 8
    y = (rng.random((n, m)) < 0.3).astype(int)
    s = tied_scores(rng, (n, m), 4)
    sampled = np.linspace(0, n * m - 1, lrk.CODE_SAMPLE).astype(np.intp)
    hidden = int(np.setdiff1d(np.arange(300 * m, 301 * m), sampled)[0])  # in row 300
    s.flat[hidden] = 0.123456
    values = lrk.score_values(s)
    assert values is not None and 0.123456 not in values
    assert lrk.code_counts(y[290:310] != 0, s[290:310], values) is None
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 45 * m)  # blocks of 45 rows
    _, lrap, loss = _ref(y, s)
    np.testing.assert_allclose(lrk.lrap_values(y, s), lrap, **TOL)
    np.testing.assert_allclose(lrk.ranking_loss_values(y, s), loss, **TOL)
    np.testing.assert_allclose(label_ranking_loss(y, s), skm.label_ranking_loss(y, s), **TOL)


@pytest.mark.parametrize("dtype", [np.int64, np.int32, np.float32, np.float64])
def test_counted_path_on_integer_and_float32_scores(dtype):
    rng = np.random.default_rng(2)
    y = (rng.random((300, 12)) < 0.3).astype(int)
    s = rng.integers(-3, 4, (300, 12)).astype(dtype)
    w = weights(2, 300)
    for name, (ours, theirs) in SCORES.items():
        expected = theirs(y, s.astype(np.float64), sample_weight=w)
        np.testing.assert_allclose(ours(y, s, sample_weight=w), expected, err_msg=name, **TOL)


@pytest.mark.parametrize("seed", SEEDS[:3])
def test_counted_path_across_row_blocks_matches_sklearn(monkeypatch, seed):
    rng = np.random.default_rng(seed)
    y = (rng.random((500, 30)) < 0.2).astype(int)
    s = np.floor(rng.random((500, 30)) * 10) / 10  # as the bench's tied scores
    w = weights(seed, 500)
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 37 * 30)  # ragged last block
    for yy in (y, y.astype(bool)):
        np.testing.assert_allclose(
            label_ranking_loss(yy, s, sample_weight=w),
            skm.label_ranking_loss(y, s, sample_weight=w),
            **TOL,
        )
        np.testing.assert_allclose(
            label_ranking_average_precision_score(yy, s, sample_weight=w),
            skm.label_ranking_average_precision_score(y, s, sample_weight=w),
            **TOL,
        )
        np.testing.assert_allclose(coverage_error(yy, s), skm.coverage_error(y, s), **TOL)


def test_score_check_falls_back_to_the_full_message():
    """A sum that overflows is not an error; NaN and inf are named as before."""
    y = np.array([[1, 0, 1], [0, 1, 0]])
    big = np.array([[1e308, 1e308, -1e308], [1.0, 2.0, 3.0]])
    np.testing.assert_allclose(label_ranking_loss(y, big), skm.label_ranking_loss(y, big), **TOL)
    for bad, what in ((np.nan, "NaN"), (np.inf, "an infinite value")):
        s = big.copy()
        s[1, 2] = bad
        with pytest.raises(MetricInputError, match=rf"{what} at y_score\[1, 2\]"):
            coverage_error(y, s)


def test_bad_integer_labels_are_refused_by_every_metric():
    s = np.array([[0.1, 0.2], [0.3, 0.4]])
    for y in (np.array([[0, 2], [1, 0]]), np.array([[0, -1], [1, 0]], dtype=np.int8)):
        for ours, _ in SCORES.values():
            with pytest.raises(MetricInputError, match="y_true"):
                ours(y, s)


def test_affine_codes_on_a_grid_and_none_off_it():
    """Evenly spaced scores are coded by one affine map; uneven ones use the comparisons."""
    grid = np.round(np.arange(11) / 10, 1)  # 0.0 ... 1.0, not exactly evenly spaced floats
    s = np.random.default_rng(0).choice(grid, (40, 9))
    np.testing.assert_array_equal(lrk.affine_codes(s, grid), np.searchsorted(grid, s))
    assert lrk.affine_codes(s, np.array([0.0, 0.1, 0.5])) is None  # uneven
    assert lrk.affine_codes(s, np.array([0.5])) is None  # one value
    # scores off the grid or far out of its range get wrong codes, caught by the verification
    y = (np.random.default_rng(1).random(s.shape) < 0.3).astype(int)
    for odd in (0.05, 7.0, -1e300, 1e300):
        t = s.copy()
        t[17, 4] = odd
        assert lrk.code_counts(y, t, grid) is None
        assert lr.label_ranking_loss(y, t) == pytest.approx(skm.label_ranking_loss(y, t), abs=1e-9)
        assert lr.coverage_error(y, t) == skm.coverage_error(y, t)


@pytest.mark.parametrize(
    "values",
    [np.round(np.arange(-5, 6) / 10, 1), np.array([-3.0, -1.0, 0.0, 0.25, 7.0]), np.arange(-4, 5)],
    ids=["grid", "uneven", "ints"],
)
def test_counted_path_with_grid_and_uneven_values_matches_sklearn(monkeypatch, values):
    rng = np.random.default_rng(5)
    y = (rng.random((400, 15)) < 0.25).astype(int)
    y[:3] = 0  # degenerate rows: no true label ...
    y[3:5] = 1  # ... and every label true
    s = rng.choice(values, (400, 15)).astype(np.float64)
    w = weights(5, 400)
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 33 * 15)  # ragged blocks
    assert lrk.score_values(s) is not None  # the counted path is taken
    for name, (ours, theirs) in SCORES.items():
        expected = theirs(y, s, sample_weight=w)
        np.testing.assert_allclose(ours(y, s, sample_weight=w), expected, err_msg=name, **TOL)


def test_block_by_block_checks_raise_the_up_front_errors(monkeypatch):
    """Labels and scores checked per block give the same error as the full check, in order."""
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 10 * 6)  # blocks of 10 rows
    rng = np.random.default_rng(1)
    y = (rng.random((45, 6)) < 0.4).astype(np.int64)
    s = np.round(rng.random((45, 6)), 1)
    bad_label, bad_score = y.copy(), s.copy()
    bad_label[42, 3] = 2  # in the last block
    bad_score[12, 1] = np.nan  # in the second block
    fns = (
        lr.coverage_error,
        lr.coverage_per_sample,
        lr.label_ranking_average_precision_score,
        lr.lrap_per_sample,
        lr.label_ranking_loss,
        lr.ranking_loss_per_sample,
    )
    for fn in fns:
        for yt, ys in ((bad_label, s), (y, bad_score), (bad_label, bad_score)):
            with pytest.raises(MetricInputError) as full:
                lrk.check_matrices(yt, ys, min_columns=2)
            with pytest.raises(MetricInputError) as ours:
                fn(yt, ys)
            assert str(ours.value) == str(full.value), fn.__name__
    huge = np.full((45, 6), 1e308)  # the sum overflows, the scores are finite
    assert lr.coverage_error(y, huge) == skm.coverage_error(y, huge)
    for fn in (lr.coverage_error, lr.label_ranking_loss):
        with pytest.raises(MetricInputError, match="sample_weight"):
            fn(y, s, sample_weight=np.ones(3))


# ---------------------------------------------------------------------------
# replace_sample_scores: the what-if update of one row
# ---------------------------------------------------------------------------
EXACT = {"rtol": 1e-12, "atol": 1e-12}


def _assert_replacement_matches_full(y, s, w, i, new_row):
    """One-row update == full recomputation (1e-12), headline == scikit-learn (1e-9)."""
    before = metrics.label_ranking_contributions(y, s, sample_weight=w)
    ties_before = metrics.tie_broken_summary(y, s, sample_weight=w)
    kept = before.copy()
    got = metrics.replace_sample_scores(
        y[i],
        new_row,
        contributions=before,
        sample=i,
        ties=ties_before,
        previous_score_row=s[i],
    )
    pd.testing.assert_frame_equal(before, kept)  # the input table is left alone
    edited = s.astype(np.float64).copy()
    edited[i] = new_row
    full = metrics.label_ranking_contributions(y, edited, sample_weight=w)
    pd.testing.assert_frame_equal(got.contributions, full, check_dtype=False, **EXACT)
    pd.testing.assert_frame_equal(
        got.ties, metrics.tie_broken_summary(y, edited, sample_weight=w), **EXACT
    )
    expected = {
        "coverage": lr.coverage_error(y, edited, sample_weight=w),
        "lrap": lr.label_ranking_average_precision_score(y, edited, sample_weight=w),
        "ranking_loss": lr.label_ranking_loss(y, edited, sample_weight=w),
    }
    sklearn = {
        "coverage": skm.coverage_error(y, edited, sample_weight=w),
        "lrap": skm.label_ranking_average_precision_score(y, edited, sample_weight=w),
        "ranking_loss": skm.label_ranking_loss(y, edited, sample_weight=w),
    }
    for name in expected:
        np.testing.assert_allclose(getattr(got, name), expected[name], **EXACT, err_msg=name)
        np.testing.assert_allclose(getattr(got, name), sklearn[name], **TOL, err_msg=name)
    return got


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("ties", [True, False])
def test_replace_sample_scores_equals_full_recomputation(seed, weighted, ties):
    y, s = multilabel_case(seed, ties=ties)
    w = weights(seed, y.shape[0]) if weighted else None
    rng = np.random.default_rng(seed + 50)
    m = y.shape[1]
    # rows 0 / 1 / 2: no true label, every label true, all scores tied; then ordinary rows
    for i in (0, 1, 2, 3, y.shape[0] - 1):
        _assert_replacement_matches_full(y, s, w, i, rng.random(m))  # distinct scores
        _assert_replacement_matches_full(y, s, w, i, tied_scores(rng, m))  # a tied row
        _assert_replacement_matches_full(y, s, w, i, np.full(m, -2.5))  # all tied
        _assert_replacement_matches_full(y, s, w, i, s[i])  # no change
    # a true label tied with a false one, the rest distinct
    i = int(np.flatnonzero((y.sum(axis=1) > 0) & (y.sum(axis=1) < m))[0])
    row = np.arange(m, dtype=np.float64)
    row[np.flatnonzero(y[i])[0]] = row[np.flatnonzero(y[i] == 0)[0]]
    _assert_replacement_matches_full(y, s, w, i, row)


def test_replace_sample_scores_over_row_blocks_and_counted_scores(monkeypatch):
    """The full matrix goes through several row blocks and the counted path; the row does not."""
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 40 * 12)  # blocks of 40 rows
    rng = np.random.default_rng(7)
    y = (rng.random((300, 12)) < 0.3).astype(np.int64)
    s = tied_scores(rng, y.shape, n_values=5)
    assert lrk.score_values(s) is not None  # the counted path
    w = rng.random(300)
    for i, row in ((0, rng.random(12)), (299, np.full(12, 0.4)), (150, s[150] + 0.1)):
        for weight in (None, w):
            _assert_replacement_matches_full(y, s, weight, i, row)


def test_replace_sample_scores_unit_weights_and_one_sample():
    y, s = multilabel_case(3)
    got = _assert_replacement_matches_full(y, s, np.ones(y.shape[0]), 5, np.linspace(0, 1, 6))
    assert got.contributions["weight"].eq(1.0).all()
    lone = _assert_replacement_matches_full(
        np.array([[1, 0, 1]]), np.array([[0.2, 0.5, 0.1]]), None, 0, np.array([0.9, 0.5, 0.9])
    )
    assert lone.lrap == 1.0 and lone.coverage == 2.0
    assert lone.contributions["lrap_moves_mean"].isna().all()  # nothing left without it


def test_replace_sample_scores_without_ties_summary():
    y, s = multilabel_case(4)
    t = metrics.label_ranking_contributions(y, s)
    got = metrics.replace_sample_scores(y[6], np.arange(6.0), contributions=t, sample=6)
    assert got.ties is None
    edited = s.copy()
    edited[6] = np.arange(6.0)
    np.testing.assert_allclose(
        got.lrap, skm.label_ranking_average_precision_score(y, edited), **TOL
    )


@settings(max_examples=80, deadline=None)
@given(label_matrices(min_labels=2), st.data())
def test_property_replace_sample_scores(case, data):
    y, s, w = case
    n, m = y.shape
    i = data.draw(st.integers(0, n - 1))
    new_row = np.array(
        data.draw(
            st.lists(st.sampled_from([-1.0, 0.0, 0.5, 1.0, 2.0, 1e9]), min_size=m, max_size=m)
        )
    )
    weighted = data.draw(st.booleans())
    _assert_replacement_matches_full(y, s, w if weighted else None, i, new_row)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"y_score_row": [0.1, np.nan, 0.3, 0.4]}, r"y_score_row contains NaN at column 1"),
        ({"y_score_row": [0.1, 0.2, np.inf, 0.4]}, r"infinite value at column 2"),
        ({"y_score_row": [0.1, 0.2, 0.3]}, r"y_true_row.*y_score_row|shape"),
        ({"y_score_row": ["a", "b", "c", "d"]}, r"y_score_row must hold numbers"),
        ({"y_score_row": [[0.1, 0.2, 0.3, 0.4]]}, r"y_score_row must be 1-D"),
        ({"y_true_row": [1, 0, 2, 0]}, r"y_true_row must hold only 0 and 1.*\[2\]"),
        ({"y_true_row": [1, 1, 1, 0]}, r"y_true_row has 3 true labels but row 1"),
        ({"sample": 3}, r"sample must be in \[0, 2\]"),
        ({"sample": 1.0}, r"sample must be an integer"),
        ({"contributions": "table"}, r"contributions must be the DataFrame"),
        ({"previous_score_row": None}, r"previous_score_row is needed"),
        ({"previous_score_row": [0, 0, np.nan, 0]}, r"previous_score_row contains NaN at column 2"),
        ({"ties": pd.DataFrame({"lrap": [1.0]})}, r"ties must be the DataFrame"),
    ],
)
def test_replace_sample_scores_refuses_bad_input(kwargs, match):
    y = np.array([[1, 0, 0, 0], [0, 1, 0, 1], [1, 1, 0, 0]])
    s = np.array([[0.4, 0.3, 0.2, 0.1], [0.1, 0.2, 0.3, 0.4], [0.5, 0.5, 0.5, 0.5]])
    args = {
        "y_true_row": y[1],
        "y_score_row": [0.4, 0.3, 0.2, 0.1],
        "contributions": metrics.label_ranking_contributions(y, s),
        "sample": 1,
        "ties": metrics.tie_broken_summary(y, s),
        "previous_score_row": s[1],
    }
    args.update(kwargs)
    with pytest.raises(MetricInputError, match=match):
        metrics.replace_sample_scores(args.pop("y_true_row"), args.pop("y_score_row"), **args)


def test_replace_sample_scores_refuses_a_table_without_its_columns():
    y, s = multilabel_case(0)
    t = metrics.label_ranking_contributions(y, s).drop(columns=["lrap", "note"])
    with pytest.raises(MetricInputError, match=r"lacks the column\(s\) \['lrap', 'note'\]"):
        metrics.replace_sample_scores(y[3], s[3], contributions=t, sample=3)
