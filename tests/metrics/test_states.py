"""Mergeable states: any chunking, merged in any tree order, gives the in-memory value."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import metrics as M
from metrics import MetricInputError
from metrics.states import BinaryState, merge_states

RTOL = 1e-12
SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


# ---------------------------------------------------------------------------
# chunkings and merge orders
# ---------------------------------------------------------------------------
def cut_points(draw, n: int) -> list[slice]:
    """Random contiguous chunks covering 0..n (some may be empty)."""
    cuts = sorted(draw(st.lists(st.integers(0, n), max_size=6)))
    bounds = [0, *cuts, n]
    return [slice(a, b) for a, b in zip(bounds[:-1], bounds[1:], strict=True)]


def tree_merge(draw, states: list):
    """Merge the states in a random binary tree, each pair in a random order.

    A random adjacent pair merges each time, as ``a.merge(b)`` or
    ``b.merge(a)``: any association and any commutation.
    """
    states = list(states)
    while len(states) > 1:
        i = draw(st.integers(0, len(states) - 2))
        a, b = states[i], states[i + 1]
        states[i : i + 2] = [b.merge(a) if draw(st.booleans()) else a.merge(b)]
    return states[0]


def close(ours, theirs, rtol=RTOL):
    np.testing.assert_allclose(ours, theirs, rtol=rtol, atol=1e-15)


# ---------------------------------------------------------------------------
# binary
# ---------------------------------------------------------------------------
@st.composite
def binary_data(draw, weighted: bool):
    n = draw(st.integers(2, 60))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    y[0], y[1] = 0, 1  # both classes
    levels = draw(st.sampled_from([3, 10, 1000]))  # heavy ties to none
    s = rng.integers(0, levels, n) / levels
    w = None
    if weighted:
        w = rng.integers(0, 4, n).astype(float) * draw(st.sampled_from([1.0, 0.37]))
        w[0] = w[1] = 1.0
    return y, s, w


def _binary_state(draw, y, s, w):
    parts = cut_points(draw, y.shape[0])
    states = [
        BinaryState.from_chunk(y[p], s[p], None if w is None else w[p])
        for p in parts
        if p.stop > p.start
    ]
    return tree_merge(draw, states)


@SETTINGS
@given(st.data(), st.booleans())
def test_binary_state_equals_in_memory_for_any_chunking(data, weighted):
    y, s, w = data.draw(binary_data(weighted))
    state = _binary_state(data.draw, y, s, w)
    got = state.finalize()
    if weighted:
        close(got["roc_auc_score"], M.roc_auc_score(y, s, sample_weight=w))
        close(got["average_precision_score"], M.average_precision_score(y, s, sample_weight=w))
    else:  # integer counts: the same floats as the in-memory functions
        assert got["roc_auc_score"] == M.roc_auc_score(y, s)
        assert got["average_precision_score"] == M.average_precision_score(y, s)
    close(got["log_loss"], M.log_loss(y, s, sample_weight=w))
    for t in (0.0, 0.3, 0.5, s[0], 2.0):
        close(
            state.confusion_matrix(t),
            M.confusion_matrix(y, (s >= t).astype(int), labels=[0, 1], sample_weight=w),
        )
    for mine, theirs in zip(
        state.roc_curve(drop_intermediate=False),
        M.roc_curve(y, s, sample_weight=w, drop_intermediate=False),
        strict=True,
    ):
        close(mine, theirs)
    for mine, theirs in zip(
        state.precision_recall_curve(), M.precision_recall_curve(y, s, sample_weight=w), strict=True
    ):
        close(mine, theirs)


@SETTINGS
@given(st.data())
def test_binary_curves_drop_the_same_points_as_in_memory(data):
    y, s, _ = data.draw(binary_data(False))
    state = _binary_state(data.draw, y, s, None)
    for mine, theirs in zip(state.roc_curve(), M.roc_curve(y, s), strict=True):
        np.testing.assert_array_equal(mine, theirs)
    pr = state.precision_recall_curve(drop_intermediate=True)
    for mine, theirs in zip(
        pr, M.precision_recall_curve(y, s, drop_intermediate=True), strict=True
    ):
        np.testing.assert_array_equal(mine, theirs)


def test_binary_state_table_and_worked_values():
    a = BinaryState.from_chunk([0, 0, 1], [0.1, 0.4, 0.35])
    b = BinaryState.from_chunk([1, 0], [0.8, 0.4])
    state = a.merge(b)
    assert state.scores.tolist() == [0.1, 0.35, 0.4, 0.8]
    assert state.positive.tolist() == [0, 1, 0, 1]
    assert state.negative.tolist() == [1, 0, 2, 0]
    assert state.n_samples == 5
    # pairs: 0.35 beats 0.1 only (1 of 3), 0.8 beats all 3: 4 / 6
    assert state.roc_auc_score() == pytest.approx(4 / 6)
    assert state.confusion_matrix(0.4).tolist() == [[1, 2], [1, 1]]
    assert a.merge(b).finalize() == b.merge(a).finalize()


def test_binary_state_empty_is_the_identity_and_weights_mix_with_counts():
    a = BinaryState.from_chunk([0, 1], [0.2, 0.7])
    assert BinaryState.empty().merge(a).finalize() == a.finalize()
    assert a.merge(BinaryState.empty()).finalize() == a.finalize()
    b = BinaryState.from_chunk([0, 1], [0.2, 0.9], sample_weight=[1, 2])
    mixed = a.merge(b)  # unweighted counts are weights of 1
    assert mixed.weighted and mixed.positive.dtype == np.float64
    assert mixed.positive.tolist() == [0.0, 1.0, 2.0]
    y, s, w = [0, 1, 0, 1], [0.2, 0.7, 0.2, 0.9], [1, 1, 1, 2]
    close(mixed.log_loss(), M.log_loss(y, s, sample_weight=w))
    close(mixed.average_precision_score(), M.average_precision_score(y, s, sample_weight=w))


def test_binary_state_weighted_zero_weights_make_no_threshold():
    state = BinaryState.from_chunk([1, 0, 1], [0.9, 0.5, 0.7], sample_weight=[1, 1, 0])
    assert state.scores.tolist() == [0.5, 0.9]
    assert state.n_samples == 3
    zero = BinaryState.from_chunk([1], [0.3], sample_weight=[0])
    merged = state.merge(zero)
    fpr, tpr, thr = merged.roc_curve()
    assert thr.tolist() == [np.inf, 0.9, 0.5]
    assert merged.roc_auc_score() == 1.0
    with pytest.raises(MetricInputError, match="sums to zero"):
        zero.finalize()


def test_binary_state_refusals():
    with pytest.raises(MetricInputError, match="y_true"):
        BinaryState.from_chunk([0, 2], [0.1, 0.2])
    with pytest.raises(MetricInputError, match="y_score"):
        BinaryState.from_chunk([0, 1], [0.1, np.nan])
    with pytest.raises(MetricInputError, match="sample_weight"):
        BinaryState.from_chunk([0, 1], [0.1, 0.2], sample_weight=[1, -1])
    one_class = BinaryState.from_chunk([1, 1], [0.1, 0.2])
    with pytest.raises(MetricInputError, match="single class"):
        one_class.roc_auc_score()
    assert "roc_auc_score" not in one_class.finalize()
    wide = BinaryState.from_chunk([0, 1], [-1.0, 3.0])
    assert "log_loss" not in wide.finalize()
    with pytest.raises(MetricInputError, match=r"\[0, 1\]"):
        wide.log_loss()
    with pytest.raises(MetricInputError, match="merges only"):
        wide.merge(object())


def test_merge_states_matches_one_chunk_and_refuses_nothing():
    rng = np.random.default_rng(5)
    y, s = rng.integers(0, 2, 10_000), rng.random(10_000).round(3)
    states = (BinaryState.from_chunk(y[i : i + 700], s[i : i + 700]) for i in range(0, 10_000, 700))
    merged = merge_states(states)
    one = BinaryState.from_chunk(y, s)
    np.testing.assert_array_equal(merged.scores, one.scores)
    np.testing.assert_array_equal(merged.positive, one.positive)
    assert merged.finalize() == one.finalize()
    assert merged.roc_auc_score() == M.roc_auc_score(y, s)
    with pytest.raises(MetricInputError, match="at least one"):
        merge_states([])


# ---------------------------------------------------------------------------
# regression
# ---------------------------------------------------------------------------
REGRESSION = (
    "mean_absolute_error",
    "mean_squared_error",
    "root_mean_squared_error",
    "mean_absolute_percentage_error",
    "root_mean_squared_log_error",
    "r2_score",
)


@st.composite
def regression_data(draw, weighted: bool):
    n = draw(st.integers(2, 80))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    offset = draw(st.sampled_from([0.0, 1e3, 1e6]))  # a large mean against the spread
    yt = offset + rng.normal(size=n) * 3
    yt[0] += 1.0  # not constant
    yp = yt + rng.normal(size=n)
    if draw(st.booleans()):
        yt, yp = np.abs(yt), np.abs(yp)  # RMSLE defined
    w = rng.random(n) * (rng.random(n) > 0.2) if weighted else None
    if w is not None:
        w[0] = 1.0
    return yt, yp, w, offset


@SETTINGS
@given(st.data(), st.booleans())
def test_regression_state_equals_in_memory_for_any_chunking(data, weighted):
    from metrics.states import RegressionState

    yt, yp, w, offset = data.draw(regression_data(weighted))
    parts = cut_points(data.draw, yt.shape[0])
    states = [
        RegressionState.from_chunk(yt[p], yp[p], None if w is None else w[p])
        for p in parts
        if p.stop > p.start
    ]
    got = tree_merge(data.draw, states).finalize()
    ok_log = bool((yt > -1).all() and (yp > -1).all())
    assert ("root_mean_squared_log_error" in got) == ok_log
    for name in REGRESSION:
        if name in got:
            want = getattr(M, name)(yt, yp, sample_weight=w)
            if name != "r2_score":
                close(got[name], want)
                continue
            # R^2 = 1 - SSE/SST: the ratio carries the rounding, so it is compared (an R^2
            # near 0 would magnify it: 0.0049 at a mean of 1000 differed by 3.2e-12 relative).
            # At a mean of 1e6 against a spread of 3 the in-memory two-pass formula subtracts
            # a mean rounded at 1e6 * 2.2e-16: both agree to about eps * mean / std
            close(1.0 - got[name], 1.0 - want, rtol=RTOL + 1e-15 * offset)


@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("logs", [False, True])
def test_a_regression_chunk_summed_block_by_block_equals_in_memory(monkeypatch, weighted, logs):
    # a chunk's terms are summed a cache-sized block of rows at a time (2**15 in use): here
    # blocks of 7 rows, the last one short, and a value below -1 in the last block only
    from metrics.states import RegressionState, regression

    monkeypatch.setattr(regression, "_BLOCK", 7)
    rng = np.random.default_rng(4)
    yt = np.abs(rng.normal(3.0, 2.0, 1000))
    yp = np.abs(yt + rng.normal(0.0, 0.5, 1000))
    if not logs:
        yt[-1] = -1.5  # log1p is undefined there: no RMSLE
    w = rng.random(1000) if weighted else None
    got = RegressionState.from_chunk(yt, yp, w).finalize()
    assert ("root_mean_squared_log_error" in got) == logs
    for name in REGRESSION:
        if name in got:
            close(got[name], getattr(M, name)(yt, yp, sample_weight=w))
    assert len(got) == len(REGRESSION) - (not logs)


def test_regression_state_keeps_r2_exact_where_naive_sums_cancel():
    from metrics.states import RegressionState

    rng = np.random.default_rng(1)
    yt = 1e8 + rng.normal(size=4000)
    yp = yt + 0.1 * rng.normal(size=4000)
    state = merge_states(
        RegressionState.from_chunk(yt[i : i + 333], yp[i : i + 333]) for i in range(0, 4000, 333)
    )
    close(state.finalize()["r2_score"], M.r2_score(yt, yp), rtol=1e-9)
    naive = np.sum(yt**2) - np.sum(yt) ** 2 / yt.shape[0]  # the textbook mergeable form
    assert abs(naive - state.m2_true) / state.m2_true > 1e-3  # ... is wrong at this mean


def test_regression_state_worked_values_and_degenerate_r2():
    from metrics.states import RegressionState

    a = RegressionState.from_chunk([3, -0.5], [2.5, 0.0])
    b = RegressionState.from_chunk([2, 7], [2, 8])
    out = a.merge(b).finalize()
    assert out["mean_absolute_error"] == 0.5
    assert out["mean_squared_error"] == 0.375
    assert out["r2_score"] == pytest.approx(0.9486081370449679, rel=1e-12)
    close(
        out["root_mean_squared_log_error"],
        M.root_mean_squared_log_error([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]),
    )
    below = RegressionState.from_chunk([-1.0, 2.0], [0.0, 2.0])  # log1p(-1) is undefined
    assert "root_mean_squared_log_error" not in below.finalize()
    const = RegressionState.from_chunk([2, 2], [2, 3]).merge(RegressionState.from_chunk([2], [2]))
    assert const.m2_true == 0.0
    assert const.finalize()["r2_score"] == M.r2_score([2, 2, 2], [2, 3, 2]) == 0.0
    assert "r2_score" not in RegressionState.from_chunk([1.0], [2.0]).finalize()
    with pytest.raises(MetricInputError, match="sums to zero"):
        RegressionState.from_chunk([1.0], [2.0], sample_weight=[0.0]).finalize()
    with pytest.raises(MetricInputError, match="y_pred"):
        RegressionState.from_chunk([1.0], [np.inf])


# ---------------------------------------------------------------------------
# ranking and retrieval
# ---------------------------------------------------------------------------
@st.composite
def ranking_data(draw):
    n = draw(st.integers(1, 40))
    m = draw(st.integers(2, 7))
    rng = np.random.default_rng(draw(st.integers(0, 2**32 - 1)))
    graded = draw(st.booleans())
    yt = rng.integers(0, 4 if graded else 2, (n, m))
    ys = rng.integers(0, draw(st.sampled_from([2, 5, 100])), (n, m)) / 10.0
    w = rng.random(n) * (rng.random(n) > 0.2) if draw(st.booleans()) else None
    if w is not None:
        w[0] = 1.0
    return yt, ys, w


def _in_memory_ranking(yt, ys, w, *, k, log_base, ignore_ties, denominator, max_grade):
    out = {}
    if ((yt == 0) | (yt == 1)).all():
        out["coverage_error"] = M.coverage_error(yt, ys, sample_weight=w)
        out["label_ranking_average_precision_score"] = M.label_ranking_average_precision_score(
            yt, ys, sample_weight=w
        )
        out["label_ranking_loss"] = M.label_ranking_loss(yt, ys, sample_weight=w)
    out["dcg_score"] = M.dcg_score(
        yt, ys, k=k, log_base=log_base, sample_weight=w, ignore_ties=ignore_ties
    )
    out["ndcg_score"] = M.ndcg_score(yt, ys, k=k, sample_weight=w, ignore_ties=ignore_ties)
    if k is not None:
        out["precision_at_k"] = M.precision_at_k(yt, ys, k=k)
        out["recall_at_k"] = M.recall_at_k(yt, ys, k=k)
        out["hit_rate_at_k"] = M.hit_rate_at_k(yt, ys, k=k)
        out["mean_average_precision_at_k"] = M.mean_average_precision_at_k(
            yt, ys, k=k, denominator=denominator
        )
    out["mean_reciprocal_rank"] = M.mean_reciprocal_rank(yt, ys, k=k)
    out["expected_reciprocal_rank"] = M.expected_reciprocal_rank(yt, ys, k=k, max_grade=max_grade)
    return out


@SETTINGS
@given(st.data())
def test_ranking_state_equals_in_memory_for_any_chunking(data):
    from metrics.states import RankingState

    yt, ys, w = data.draw(ranking_data())
    options = {
        "k": data.draw(st.sampled_from([None, 1, 3, 10])),
        "log_base": data.draw(st.sampled_from([2, 10])),
        "ignore_ties": data.draw(st.booleans()),
        "denominator": data.draw(st.sampled_from(["min_m_k", "relevant", "k", "hits"])),
        "max_grade": data.draw(st.sampled_from([None, 5])),
    }
    parts = [p for p in cut_points(data.draw, yt.shape[0]) if p.stop > p.start]
    states = [
        RankingState.from_chunk(yt[p], ys[p], sample_weight=None if w is None else w[p], **options)
        for p in parts
    ]
    state = tree_merge(data.draw, states)
    got = state.finalize()
    want = _in_memory_ranking(yt, ys, w, **options)
    if options["max_grade"] is None and "expected_reciprocal_rank" not in got:
        # chunks with different non-zero top grades: ERR is refused, not guessed
        tops = {int(yt[p].max()) for p in parts} - {0}
        assert len(tops) > 1
        with pytest.raises(MetricInputError, match="max_grade"):
            state.expected_reciprocal_rank()
        del want["expected_reciprocal_rank"]
    assert set(got) == set(want)
    for name, value in want.items():
        close(got[name], value)


def test_ranking_state_worked_values_and_refusals():
    from metrics.states import RankingState

    a = RankingState.from_chunk([[1, 0, 0]], [[0.2, 0.9, 0.1]], k=2)
    b = RankingState.from_chunk([[0, 0, 1]], [[0.1, 0.2, 0.9]], k=2)
    out = a.merge(b).finalize()
    assert out["label_ranking_average_precision_score"] == 0.75  # 1/2 and 1
    assert out["coverage_error"] == 1.5  # ranks 2 and 1
    assert out["precision_at_k"] == 0.5
    assert out["mean_reciprocal_rank"] == 0.75
    graded = RankingState.from_chunk([[2, 0, 0]], [[0.2, 0.9, 0.1]], k=2)
    assert "coverage_error" not in a.merge(graded).finalize()  # graded: no label ranking
    assert "dcg_score" in a.merge(graded).finalize()
    with pytest.raises(MetricInputError, match="same k"):
        a.merge(RankingState.from_chunk([[1, 0, 0]], [[0.2, 0.9, 0.1]], k=3))
    with pytest.raises(MetricInputError, match="columns"):
        a.merge(RankingState.from_chunk([[1, 0]], [[0.2, 0.9]], k=2))
    with pytest.raises(MetricInputError, match="y_true"):
        RankingState.from_chunk([[-1, 0]], [[0.2, 0.9]])
    with pytest.raises(MetricInputError, match="max_grade"):
        RankingState.from_chunk([[3, 0]], [[0.2, 0.9]], max_grade=2)
    with pytest.raises(MetricInputError, match="k"):
        RankingState.from_chunk([[1, 0]], [[0.2, 0.9]], k=0)


# ---------------------------------------------------------------------------
# multilabel counts
# ---------------------------------------------------------------------------
@SETTINGS
@given(st.data())
def test_multilabel_state_equals_in_memory_for_any_chunking(data):
    from metrics.states import MultilabelState

    n = data.draw(st.integers(1, 40))
    m = data.draw(st.integers(2, 6))
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    yt = (rng.random((n, m)) < data.draw(st.sampled_from([0.1, 0.5]))).astype(int)
    yp = (rng.random((n, m)) < 0.4).astype(int)
    w = rng.random(n) * (rng.random(n) > 0.2) if data.draw(st.booleans()) else None
    if w is not None:
        w[0] = 1.0
    parts = [p for p in cut_points(data.draw, n) if p.stop > p.start]
    states = [MultilabelState.from_chunk(yt[p], yp[p], None if w is None else w[p]) for p in parts]
    got = tree_merge(data.draw, states).finalize()
    close(got["hamming_loss"], M.hamming_loss(yt, yp, sample_weight=w))
    close(got["accuracy_score"], M.accuracy_score(yt, yp, sample_weight=w))
    for name in ("precision_score", "recall_score", "f1_score", "jaccard_score"):
        for average in ("micro", "macro", "weighted", "samples"):
            want = getattr(M, name)(yt, yp, average=average, sample_weight=w)
            close(got[name][average], want)


def test_multilabel_state_worked_values_and_refusals():
    from metrics.states import MultilabelState

    a = MultilabelState.from_chunk([[0, 1]], [[1, 1]])
    b = MultilabelState.from_chunk([[1, 1]], [[1, 1]])
    out = a.merge(b).finalize()
    assert out["hamming_loss"] == 0.25
    assert out["accuracy_score"] == 0.5
    assert out["precision_score"] == {
        "micro": 0.75,
        "macro": 0.75,
        "weighted": 5 / 6,
        "samples": 0.75,
    }
    with pytest.raises(MetricInputError, match="y_pred"):
        MultilabelState.from_chunk([[0, 1]], [[2, 1]])
    with pytest.raises(MetricInputError, match="columns"):
        a.merge(MultilabelState.from_chunk([[0, 1, 1]], [[1, 1, 1]]))
    with pytest.raises(MetricInputError, match="y_true"):
        MultilabelState.from_chunk([[0], [1]], [[1], [1]])
