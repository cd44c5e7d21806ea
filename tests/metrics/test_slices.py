"""metrics.slices and metrics.multitest against slow per-group references and statsmodels."""

import functools
import math
import os
from unittest import mock

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics as M

RNG = np.random.default_rng(7)
N = 240
GROUPS = np.array(["a", "b", "c", "d"])[RNG.integers(0, 4, N)]
WEIGHTS = RNG.random(N) + 0.1


def _binary(seed=1):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, N)
    return y, y + rng.normal(size=N)


def _probabilities(seed=2):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, N)
    return y, np.clip(y * 0.6 + 0.2 + rng.normal(scale=0.1, size=N), 0.01, 0.99)


def _multiclass(seed=3):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 3, N)
    return y, np.where(rng.random(N) < 0.7, y, rng.integers(0, 3, N))


def _multilabel(seed=4):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, (N, 4))
    return y, np.where(rng.random((N, 4)) < 0.8, y, 1 - y)


def _scores(grades, seed=5):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, grades, (N, 6))
    return y, y + rng.normal(size=(N, 6))


def _regression(seed=6):
    rng = np.random.default_rng(seed)
    y = rng.normal(size=N) * 3 + 10
    return y, y + rng.normal(size=N)


# (id, metric, data, takes sample_weight)
CASES = [
    ("binary-auc", M.roc_auc_score, _binary(), True),
    ("binary-ap", M.average_precision_score, _binary(), True),
    ("binary-logloss", M.log_loss, _probabilities(), True),
    ("multiclass-accuracy", M.accuracy_score, _multiclass(), True),
    ("multiclass-macro-f1", functools.partial(M.f1_score, average="macro"), _multiclass(), True),
    ("multilabel-hamming", M.hamming_loss, _multilabel(), True),
    ("label-ranking-lrap", M.label_ranking_average_precision_score, _scores(2), True),
    ("label-ranking-coverage", M.coverage_error, _scores(2), True),
    ("graded-ndcg5", functools.partial(M.ndcg_score, k=5), _scores(4), True),
    ("regression-mae", M.mean_absolute_error, _regression(), True),
    ("regression-rmse", M.root_mean_squared_error, _regression(), True),
    ("regression-r2", M.r2_score, _regression(), True),
]


def _reference(metric, y, s, groups, w):
    """The slow way: one metric call per group and per rest."""
    out, rest = [], []
    for g in np.unique(groups):
        for rows, into in ((groups == g, out), (groups != g, rest)):
            kw = {} if w is None else {"sample_weight": w[rows]}
            into.append(metric(y[rows], s[rows], **kw))
    return np.array(out), np.array(rest)


@pytest.mark.parametrize("weighted", [False, True], ids=["unweighted", "weighted"])
@pytest.mark.parametrize(
    ("metric", "data", "takes_weight"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_group_values_equal_a_per_group_reference(metric, data, takes_weight, weighted):
    if weighted and not takes_weight:
        pytest.skip("the metric takes no sample_weight")
    y, s = data
    w = WEIGHTS if weighted else None
    f = M.metric_frame(metric, y, s, GROUPS, sample_weight=w, n_resamples=20, random_state=0)
    value, rest = _reference(metric, y, s, GROUPS, w)
    np.testing.assert_allclose(f.value, value, rtol=1e-12, atol=1e-12)
    np.testing.assert_allclose(f.rest, rest, rtol=1e-12, atol=1e-12)
    kw = {} if w is None else {"sample_weight": w}
    assert f.overall == pytest.approx(metric(y, s, **kw), rel=1e-12, abs=1e-12)
    assert f.count.tolist() == [int((GROUPS == g).sum()) for g in "abcd"]
    assert np.all((f.low <= f.value + 1e-12) | (f.value > f.high - 1e-12) | np.isnan(f.low))
    assert np.isfinite(f.p_value).all()


@pytest.mark.parametrize(
    ("metric", "data", "takes_weight"), [c[1:] for c in CASES], ids=[c[0] for c in CASES]
)
def test_a_frame_without_resamples_has_the_same_values_and_no_interval(metric, data, takes_weight):
    y, s = data
    full = M.metric_frame(metric, y, s, GROUPS, n_resamples=20, random_state=0)
    quick = M.metric_frame(metric, y, s, GROUPS, n_resamples=0, n_permutations=0)
    for name in ("value", "rest", "count", "weight", "diff_overall"):
        np.testing.assert_array_equal(getattr(quick, name), getattr(full, name), err_msg=name)
    assert quick.overall == full.overall
    assert np.isnan(quick.low).all() and np.isnan(quick.high).all()
    assert quick.distribution.shape == (4, 0)
    assert all(math.isnan(v) for v in quick.difference_interval())


def test_one_resample_is_refused_and_none_only_by_the_frame():
    y, s = _binary()
    with pytest.raises(M.MetricInputError, match="n_resamples must be 0 or an integer >= 2; got 1"):
        M.metric_frame(M.roc_auc_score, y, s, GROUPS, n_resamples=1)
    with pytest.raises(M.MetricInputError, match="n_resamples must be an integer >= 2; got 0"):
        M.worst_slices(M.roc_auc_score, y, s, {"g": GROUPS}, n_resamples=0)


def test_rates_at_a_threshold_equal_the_confusion_counts():
    y, s = _binary()
    for name, den in (("tpr", (1,)), ("fpr", (0,))):
        f = M.metric_frame(name, y, s, GROUPS, threshold=0.3, n_resamples=20, random_state=0)
        for i, g in enumerate("abcd"):
            rows = (GROUPS == g) & np.isin(y, den)
            expected = np.mean(s[rows] >= 0.3)
            assert f.value[i] == pytest.approx(expected, abs=1e-12)
    assert f.greater_is_better is False
    # a threshold per group, given row by row
    per_row = np.where(GROUPS == "a", 0.9, 0.1)
    both = M.metric_frame("tpr", y, s, GROUPS, threshold=per_row, n_resamples=20)
    high = M.metric_frame("tpr", y, s, GROUPS, threshold=0.9, n_resamples=20)
    low = M.metric_frame("tpr", y, s, GROUPS, threshold=0.1, n_resamples=20)
    assert both.value.tolist() == [high.value[0], *low.value[1:].tolist()]
    with pytest.raises(M.MetricInputError, match="one per row"):
        M.metric_frame("tpr", y, s, GROUPS, threshold=per_row[:-1])


def test_bootstrap_spread_matches_the_standard_error_of_a_mean():
    y, s = _regression()
    f = M.metric_frame(M.mean_absolute_error, y, s, GROUPS, n_resamples=2000, random_state=1)
    for i, g in enumerate("abcd"):
        e = np.abs(s - y)[GROUPS == g]
        se = e.std() / np.sqrt(e.size)
        # 2,000 resamples: the bootstrap's standard deviation is within about 3% of se
        assert f.distribution[i].std(ddof=1) == pytest.approx(se, rel=0.08)
        assert f.low[i] < f.value[i] < f.high[i]
    again = M.metric_frame(M.mean_absolute_error, y, s, GROUPS, n_resamples=2000, random_state=1)
    np.testing.assert_array_equal(again.distribution, f.distribution)
    # 0/1 correctness takes two distinct values: one multinomial draw over them per resample
    y, s = _binary()
    f = M.metric_frame("accuracy", y, s, GROUPS, n_resamples=2000, random_state=1)
    for i, g in enumerate("abcd"):
        right = ((s >= 0.5) == (y == 1))[GROUPS == g]
        se = right.std() / np.sqrt(right.size)
        assert f.distribution[i].std(ddof=1) == pytest.approx(se, rel=0.08)
        assert f.distribution[i].mean() == pytest.approx(right.mean(), abs=0.2 * se)


def test_gaps_ratios_and_corrections_of_a_frame():
    y, s = _binary()
    f = M.metric_frame("accuracy", y, s, GROUPS, n_resamples=50, random_state=0)
    assert f.difference() == pytest.approx(f.value.max() - f.value.min())
    assert f.difference("to_overall") == pytest.approx(np.abs(f.value - f.overall).max())
    assert f.ratio() == pytest.approx(f.value.min() / f.value.max())
    assert f.pairwise_difference()[0, 1] == pytest.approx(f.value[0] - f.value[1])
    np.testing.assert_allclose(f.p_holm, M.multiple_test_correction(f.p_value, "holm"))
    np.testing.assert_allclose(f.p_bh, M.multiple_test_correction(f.p_value, "bh"))
    low, high = f.difference_interval()
    assert low <= f.difference() <= high


def test_a_planted_gap_is_found_and_corrected():
    y, s = _binary()
    bad = GROUPS == "c"
    s = np.where(bad, np.random.default_rng(8).normal(size=N), s)  # group c: no signal
    f = M.metric_frame(M.roc_auc_score, y, s, GROUPS, n_resamples=200, random_state=0)
    assert f.p_holm[2] < 0.01 and f.value[2] < f.rest[2]
    assert f.low[2] < f.value[2] < f.high[2]


def test_errors_name_the_argument_and_row():
    y, s = _binary()
    groups = GROUPS.astype(object)
    groups[5] = None
    with pytest.raises(M.MetricInputError, match="groups has a missing value at row 5"):
        M.metric_frame(M.roc_auc_score, y, s, groups)
    with pytest.raises(M.MetricInputError, match="one entry per row"):
        M.metric_frame(M.roc_auc_score, y, s, GROUPS[:-1])
    with pytest.raises(M.MetricInputError, match="'tpr'"):
        M.metric_frame("recall", y, s, GROUPS)
    with pytest.raises(M.MetricInputError, match="at row 1"):
        M.multiple_test_correction([0.1, 1.5])


def test_a_one_class_group_gets_a_note_not_an_error():
    y, s = _binary()
    y = np.where(GROUPS == "d", 1, y)
    f = M.metric_frame(M.roc_auc_score, y, s, GROUPS, n_resamples=20, random_state=0)
    assert np.isnan(f.value[3]) and "one class" in f.notes["d"]
    assert np.isfinite(f.value[:3]).all() and np.isnan(f.p_bh[3])


@settings(max_examples=60, deadline=None)
@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=40))
def test_corrections_equal_statsmodels(p):
    multipletests = pytest.importorskip("statsmodels.stats.multitest").multipletests
    # statsmodels' Holm calls gc.collect(), a quarter second in this test process each time
    with mock.patch("gc.collect"):
        for ours, theirs in (("holm", "holm"), ("bh", "fdr_bh"), ("bonferroni", "bonferroni")):
            expected = multipletests(p, method=theirs)[1]
            np.testing.assert_allclose(M.multiple_test_correction(p, ours), expected, atol=1e-15)


def test_worst_slices_ranks_a_planted_pair_first():
    n = 1500
    rng = np.random.default_rng(3)
    a, b = rng.integers(0, 3, n), rng.integers(0, 2, n)
    y = rng.normal(size=n)
    pred = y + rng.normal(size=n) * np.where((a == 2) & (b == 1), 3.0, 1.0)
    w = M.worst_slices(M.mean_absolute_error, y, pred, {"a": a, "b": b}, random_state=0)
    assert w.slices[0] == (("a", 2), ("b", 1))
    assert w.tested == 3 + 2 + 6
    rows = (a == 2) & (b == 1)
    assert w.value[0] == pytest.approx(np.abs(pred - y)[rows].mean(), rel=1e-12)
    assert np.all(np.diff(w.effect) <= 0)
    # MAE is tested by permutation: no shuffle of 999 as far apart, p at its floor 1 / 1000
    assert w.test == "permutation" and w.p_value[0] == pytest.approx(1 / 1000)
    assert w.p_corrected[0] == pytest.approx(11 / 1000 / np.sum(w.p_value <= 1 / 1000))


def _fisher_reference(hits, counted):
    """scipy's Fisher's exact test of each group's 2x2 table against its rest."""
    fisher_exact = pytest.importorskip("scipy.stats").fisher_exact
    k, n = hits.sum(), counted.sum()
    tables = [[[a, c - a], [k - a, n - c - k + a]] for a, c in zip(hits, counted, strict=True)]
    return np.array([fisher_exact(table).pvalue for table in tables])


@settings(max_examples=80, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 9), st.integers(2, 500))
def test_fisher_exact_p_equals_scipy_per_group(seed, n_groups, n):
    from metrics._fisher import fisher_exact_p

    rng = np.random.default_rng(seed)
    counted = np.bincount(rng.integers(0, n_groups, n), minlength=n_groups)
    hits = rng.binomial(counted, rng.random())
    got = fisher_exact_p(hits, counted, hits.sum(), n)
    np.testing.assert_allclose(got, _fisher_reference(hits, counted), rtol=1e-9, atol=1e-300)


def test_a_zero_one_metric_is_tested_exactly_and_a_weighted_one_by_wald():
    y, s = _binary()
    right = (s >= 0.5) == (y == 1)
    codes = np.searchsorted(np.array(list("abcd")), GROUPS)
    f = M.metric_frame("accuracy", y, s, GROUPS, n_resamples=2)
    hits, counted = np.bincount(codes, right), np.bincount(codes)
    np.testing.assert_allclose(f.p_value, _fisher_reference(hits, counted), rtol=1e-9)
    # a rate counts only its denominator's rows: the positives for the TPR
    f = M.metric_frame("tpr", y, s, GROUPS, n_resamples=2)
    hits, counted = np.bincount(codes, right & (y == 1)), np.bincount(codes, y == 1)
    np.testing.assert_allclose(f.p_value, _fisher_reference(hits, counted), rtol=1e-9)
    assert f.test == "exact"
    # with weights the rows are not 0/1 trials: a permutation test, or with none the pooled
    # Wald test's normal p-value
    pred = (s >= 0.5).astype(int)
    f = M.metric_frame(M.accuracy_score, y, pred, GROUPS, sample_weight=WEIGHTS, n_permutations=0)
    wald = [math.erfc(abs(z) / math.sqrt(2.0)) for z in f.z]
    np.testing.assert_allclose(f.p_value, wald, rtol=1e-12)
    assert f.test == "wald"
    f = M.metric_frame(M.accuracy_score, y, pred, GROUPS, sample_weight=WEIGHTS, random_state=0)
    assert f.test == "permutation" and np.all((f.p_value * 1000) % 1 < 1e-9)


def _null_rejects(seed: int, accuracy: float) -> bool:
    rng = np.random.default_rng(seed)
    n = 600
    attributes = {k: rng.integers(0, 3, n) for k in "abc"}
    y = rng.integers(0, 2, n)
    s = np.where(rng.random(n) < accuracy, y, 1 - y).astype(np.float64)
    w = M.worst_slices("accuracy", y, s, attributes)
    assert w.tested == 9 + 27
    return bool((w.p_corrected <= 0.05).any())


@pytest.mark.parametrize("accuracy", [0.5, 0.9, 0.97])
def test_benjamini_hochberg_keeps_false_discoveries_at_five_percent_on_null_data(accuracy):
    # every slice is null, so the false discovery rate is the share of data sets with any
    # finding; over S seeded data sets its standard error is sqrt(0.05 * 0.95 / S) (0.0154 at
    # S = 200) and the test allows 2.5 of them above 5% (SLICES_FDR_SIMS for a longer run).
    # At 97% two errors are expected in a slice of 67 rows: the normal test's tail was too
    # light there (about 10% of data sets had a finding), Fisher's exact test has none.
    sims = int(os.environ.get("SLICES_FDR_SIMS", "200"))
    rate = np.mean([_null_rejects(seed, accuracy) for seed in range(sims)])
    assert rate <= 0.05 + 2.5 * np.sqrt(0.05 * 0.95 / sims)


def test_permutation_p_equals_a_loop_over_the_same_shuffles_and_the_exact_enumeration():
    from itertools import combinations

    from metrics._permutation import _shuffles, permutation_p

    rng = np.random.default_rng(11)
    v, w = rng.lognormal(0, 1, 10), rng.random(10) + 0.5
    stats, codes = np.stack([w * v, w], axis=1), np.array([0, 0, 0, 1, 1, 1, 1, 2, 2, 2])

    def diff(order):  # weighted mean of each group minus its rest's, rows in this order
        x, ww = v[order], w[order]
        mean = lambda m: (x[m] * ww[m]).sum() / ww[m].sum()  # noqa: E731
        return np.array([mean(codes == g) - mean(codes != g) for g in range(3)])

    finish = lambda t: t[..., 0] / t[..., 1]  # noqa: E731
    got = permutation_p(stats, finish, codes, 3, 499, 5)
    observed = np.abs(diff(np.arange(10)))
    orders = np.concatenate(_shuffles(10, 499, 5, {}))
    as_far = sum(np.abs(diff(order)) >= observed * (1 - 1e-9) for order in orders)
    np.testing.assert_allclose(got, (1 + as_far) / 500, rtol=1e-12)
    # the exact p-value of group 1 (4 rows): every choice of its rows out of 10, equally likely
    chosen = [np.array(c) for c in combinations(range(10), 4)]
    d = [abs(np.average(v[c], weights=w[c]) - np.average(np.delete(v, c), weights=np.delete(w, c)))
         for c in chosen]  # fmt: skip
    exact = np.mean(np.array(d) >= observed[1] * (1 - 1e-9))
    p = permutation_p(stats, finish, codes, 3, 9999, 1)[1]
    assert abs(p - exact) <= 4 * math.sqrt(exact * (1 - exact) / 9999) + 1e-4


def _skewed_rejects(seed: int, metric, draw, n_permutations: int, n=600, shift=1.0, test=None):
    """Whether BH at 5% finds any slice, and whether it finds the slice a = 0, whose
    per-row values are multiplied by ``shift`` (1: null data)."""
    rng = np.random.default_rng(seed)
    attributes = {k: rng.integers(0, 3, n) for k in "abc"}
    values = draw(rng, n) * np.where(attributes["a"] == 0, shift, 1.0)
    w = M.worst_slices(
        metric, np.zeros(n), values, attributes, n_permutations=n_permutations, random_state=seed
    )
    assert w.tested == 9 + 27 and w.test == (test or ("permutation" if n_permutations else "wald"))
    found = [s for s, p in zip(w.slices, w.p_corrected, strict=True) if p <= 0.05]
    return bool(found), (("a", 0),) in found


#: Null per-row values with heavy right tails, and the metric that reads them.
SKEWED = pytest.mark.parametrize(
    "metric, draw",
    [
        (M.mean_absolute_error, lambda rng, n: rng.pareto(1.5, n)),
        (M.mean_squared_error, lambda rng, n: rng.lognormal(0.0, 2.0, n)),
    ],
    ids=["mae-pareto1.5", "mse-lognormal2"],
)


@SKEWED
def test_skewed_per_row_values_keep_five_percent_only_with_the_permutation_test(metric, draw):
    # null data with heavy right tails (MAE of Pareto(1.5) errors, MSE of lognormal(0, 2)
    # ones): the normal tail of the Wald test is too light in slices of 67 rows. Over S data
    # sets the share with a finding has standard error sqrt(0.05 * 0.95 / S) (0.028 at
    # S = 60); the permutation test must stay within 2.5 of them of 5% and the Wald test,
    # which found something in 20.0% and 22.7% of 300 data sets (the permutation test in
    # 5.0% and 1.7%; docs/architecture.md), must not.
    sims = int(os.environ.get("SLICES_SKEW_SIMS", "60"))
    limit = 0.05 + 2.5 * np.sqrt(0.05 * 0.95 / sims)
    perm = np.mean([_skewed_rejects(seed, metric, draw, 999)[0] for seed in range(sims)])
    wald = np.mean([_skewed_rejects(seed, metric, draw, 0)[0] for seed in range(sims)])
    assert perm <= limit < wald


def test_above_the_cap_a_subsample_permutation_test_keeps_five_percent():
    # Above PERMUTATION_CELLS the permutation test runs on rows picked by group. Here the cap
    # is lowered to 300 rows of 600 (SLICES_SKEW_ROWS and SLICES_SKEW_CELLS for a run at
    # scale: 60,000 rows at the real cap read 20,020). The share of null data sets with a
    # finding must stay within 2.5 standard errors of 5%, as the full permutation test's.
    # MAE of Pareto(1.5) errors: the case whose full permutation test came nearest to 5%
    # (MSE of lognormal(0, 2) ones, measured once: docs/architecture.md).
    metric, draw = M.mean_absolute_error, lambda rng, n: rng.pareto(1.5, n)
    sims = int(os.environ.get("SLICES_SKEW_SIMS", "60"))
    n = int(os.environ.get("SLICES_SKEW_ROWS", "600"))
    cells = int(os.environ.get("SLICES_SKEW_CELLS", str(999 * 300)))
    limit = 0.05 + 2.5 * np.sqrt(0.05 * 0.95 / sims)
    with mock.patch("metrics.slices.PERMUTATION_CELLS", cells):
        runs = [_skewed_rejects(s, metric, draw, 999, n, test="subsample") for s in range(sims)]
    assert np.mean([found for found, _ in runs]) <= limit


def test_above_the_cap_the_subsample_test_still_finds_a_real_shift():
    # MAE of Pareto(1.5) errors, four times larger in the slice a = 0 (a third of 600 rows).
    # Over these 40 data sets the full permutation test found that slice in 38 (95%); on 300
    # of the 600 rows picked by group, in 32 (80%; at a shift of 3: 80% and 57.5%). Power
    # falls with the rows read, never the level; 60% is 3.2 binomial standard errors under 80%.
    draw = lambda rng, n: rng.pareto(1.5, n)  # noqa: E731
    with mock.patch("metrics.slices.PERMUTATION_CELLS", 999 * 300):
        runs = [_skewed_rejects(s, M.mean_absolute_error, draw, 999, 600, 4.0, "subsample")
                for s in range(40)]  # fmt: skip
    assert np.mean([in_a for _, in_a in runs]) >= 0.6


@settings(max_examples=60, deadline=None)
@given(
    st.integers(1, 60),
    st.integers(1, 4),
    st.sampled_from([2, 3, 50]),
    st.integers(0, 2**32 - 1),
)
def test_row_keys_number_the_distinct_rows_as_numpy_unique_orders_them(n, m, values, seed):
    from metrics.slices import _row_keys

    rows = np.random.default_rng(seed).integers(0, values, (n, m)) / 4 - 1.0
    keys = _row_keys(rows)
    distinct, inverse = np.unique(rows, axis=0, return_inverse=True)
    # the same rows share a key, and the keys sort the rows as np.unique does
    assert (
        np.unique(keys, return_inverse=True)[1].reshape(-1).tolist() == inverse.reshape(-1).tolist()
    )


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(["b", "a", "Ä", "a b", "10", "9", ""]), min_size=1, max_size=40))
def test_text_groups_get_the_codes_of_numpy_unique(values):
    from metrics._validation import encode_groups

    for arr in (np.array(values, dtype=object), np.array(values)):
        labels, codes = encode_groups(arr, "groups", len(values))
        expected, inverse = np.unique(np.array(values), return_inverse=True)
        assert labels.tolist() == expected.tolist() and codes.tolist() == inverse.tolist()


@settings(max_examples=80, deadline=None)
@given(
    st.lists(st.integers(-(2**63), 2**63 - 1), min_size=1, max_size=30)
    | st.lists(st.integers(-3, 40), min_size=1, max_size=60),
    st.sampled_from([np.int64, np.int32, np.uint16]),
)
def test_integer_groups_get_the_codes_of_numpy_unique_and_rows_sort_stably(values, dtype):
    from metrics._validation import encode_groups
    from metrics.slices import _by_group

    info = np.iinfo(dtype)
    arr = np.array([min(max(v, info.min), info.max) for v in values], dtype=dtype)
    labels, codes = encode_groups(arr, "groups", arr.size)
    expected, inverse = np.unique(arr, return_inverse=True)
    assert labels.dtype == expected.dtype and labels.tolist() == expected.tolist()
    assert codes.tolist() == inverse.reshape(-1).tolist()
    stable = np.argsort(codes, kind="stable").tolist()
    assert _by_group(codes, labels.size).tolist() == stable


def test_subsample_rows_fills_every_group_equally_and_reads_no_values():
    from metrics._permutation import subsample_rows

    codes = np.repeat([0, 1, 2, 3], [5, 40, 300, 1000])
    rows = subsample_rows(codes, 4, 200, 3)
    # the share q = 65: 5 + 40 + 65 + 65 = 175 <= 200 < 5 + 40 + 66 + 66; 25 more at random
    per = np.bincount(codes[rows], minlength=4)
    assert rows.size == 200 == np.unique(rows).size and per[:2].tolist() == [5, 40]
    assert per[2] >= 65 and per[3] >= 65 and per[2] + per[3] == 155
    np.testing.assert_array_equal(subsample_rows(codes, 4, 200, 3), rows)  # seeded
    assert subsample_rows(codes, 4, 2000, 3).tolist() == list(range(codes.size))


def test_per_group_states_merged_over_chunks_equal_the_frame():
    from metrics.states import BinaryState, RankingState

    y, s = _binary()
    s = np.round(s, 1)  # tied scores: the states keep one entry per distinct score
    frame = M.metric_frame(M.roc_auc_score, y, s, GROUPS, sample_weight=None, n_resamples=2)
    merged = {}
    for start in range(0, N, 70):  # chunks of 70 rows, every group in several
        rows = slice(start, start + 70)
        part = M.group_states(BinaryState, y[rows], s[rows], GROUPS[rows])
        merged = M.merge_group_states(merged, part)
    got = [merged[g].finalize()["roc_auc_score"] for g in "abcd"]
    np.testing.assert_allclose(got, frame.value, rtol=1e-12)
    y, s = _scores(4)
    ndcg = functools.partial(M.ndcg_score, k=5)
    frame = M.metric_frame(ndcg, y, s, GROUPS, sample_weight=WEIGHTS, n_resamples=2)
    merged = {}
    for start in range(0, N, 100):
        rows = slice(start, start + 100)
        part = M.group_states(
            RankingState, y[rows], s[rows], GROUPS[rows], sample_weight=WEIGHTS[rows], k=5
        )
        merged = M.merge_group_states(merged, part)
    got = [merged[g].finalize()["ndcg_score"] for g in "abcd"]
    np.testing.assert_allclose(got, frame.value, rtol=1e-12)


def test_auc_over_runs_equals_the_weighted_auc_of_the_drawn_rows():
    from metrics._auc_runs import _auc, run_counts, runs_of

    rng = np.random.default_rng(11)
    n = 5000
    pos = rng.random(n) < np.linspace(0.05, 0.95, n)  # rows in score order: long runs at the ends
    sizes, neg = runs_of(pos)
    assert sizes.sum() == n and sizes.max() == 8 and sizes.shape[0] < n / 2
    first = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    np.testing.assert_array_equal(~pos[first], neg.astype(bool))
    counts = run_counts(rng, 4000, sizes)
    assert (counts.sum(axis=1) == n).all()
    auc, both = _auc(counts[:5], neg, n)
    for r in range(5):  # a run's draws, all put on its first row: the same resample's AUC
        weight = np.zeros(n)
        weight[first] = counts[r]
        want = M.roc_auc_score(pos.astype(int), np.arange(n, dtype=float), sample_weight=weight)
        assert both[r] and auc[r] == pytest.approx(want, rel=1e-12)
    # Multinomial(n; sizes / n): each run's mean count and variance n p (1 - p); over 4,000
    # resamples the mean is within 5 standard errors of n p for every run, and the variances'
    # average ratio (over about 2,000 runs) within 1% of 1
    p = sizes / n
    var = n * p * (1 - p)
    z = (counts.mean(axis=0) - n * p) / np.sqrt(var / counts.shape[0])
    assert np.abs(z).max() < 5
    assert counts.var(axis=0).mean() / var.mean() == pytest.approx(1.0, abs=0.01)


@pytest.mark.parametrize("decimals", [1, 2, 3])
def test_auc_over_tied_runs_equals_the_weighted_auc_of_the_drawn_rows(decimals):
    from metrics._auc_runs import _auc, run_counts, tied_runs

    rng = np.random.default_rng(12 + decimals)
    n = 3000
    y = rng.integers(0, 2, n)
    score = np.round(y + rng.normal(size=n), decimals)  # ties within and across classes
    order = np.lexsort((y, score))  # negatives first among tied scores
    pos, s = y[order] == 1, score[order]
    block = np.cumsum(np.concatenate(([0], s[1:] != s[:-1])))
    sizes, neg, tied = tied_runs(pos, block)
    assert sizes.sum() == n and tied.shape[0] > 0
    first = np.concatenate(([0], np.cumsum(sizes)[:-1]))
    # each piece holds one class; a piece in a block of both classes holds no other block
    assert (pos[first] == ~neg.astype(bool)).all()
    same_piece = np.diff(np.repeat(np.arange(sizes.size), sizes)) == 0
    assert (np.diff(pos.astype(int))[same_piece] == 0).all()
    mixed = np.isin(block, block[first[tied[:, 0]]])
    assert (np.diff(block)[same_piece & (mixed[1:] | mixed[:-1])] == 0).all()
    counts = run_counts(rng, 6, sizes)
    auc, both = _auc(counts, neg, n, tied)
    for r in range(6):  # a piece's draws, all put on its first row: the same resample's AUC
        weight = np.zeros(n)
        weight[first] = counts[r]
        want = M.roc_auc_score(pos.astype(int), s, sample_weight=weight)
        assert both[r] and auc[r] == pytest.approx(want, rel=1e-12)


def test_a_groups_few_ties_resample_over_runs_with_the_rows_spread():
    """Scores of five decimals tie in a few blocks: the intervals come from runs (no
    row-by-row bootstrap), and each group's resampled AUCs spread as the rows' do."""
    from metrics.compare import bootstrap_ci

    rng = np.random.default_rng(21)
    n = 8000
    y = rng.integers(0, 2, n)
    s = np.round((y + rng.normal(size=n)) / 4 + 0.3, 5)
    groups = np.repeat([0, 1], n // 2)
    assert np.unique(s).size < n  # ties
    with mock.patch("metrics.slices.bootstrap_ci", side_effect=AssertionError("by rows")):
        f = M.metric_frame(M.roc_auc_score, y, s, groups, n_resamples=2000, random_state=4)
    for g in (0, 1):
        rows = groups == g
        ref = bootstrap_ci(M.roc_auc_score, y[rows], s[rows], n_resamples=2000, random_state=5)
        # means within 4.5 standard errors of their difference, spreads within 8%
        sd = ref.distribution.std()
        assert abs(f.distribution[g].mean() - ref.distribution.mean()) < 4.5 * sd * np.sqrt(
            2 / 2000
        )
        assert f.distribution[g].std() == pytest.approx(sd, rel=0.08)


def test_a_large_groups_resamples_in_chunks_are_the_same_whatever_the_threads(monkeypatch):
    import metrics._ranks
    import metrics.slices as slices

    rng = np.random.default_rng(22)
    n = 3000
    y = rng.integers(0, 2, n)
    s = y + rng.normal(size=n)
    groups = np.where(np.arange(n) < 2500, "big", "small")
    kw = {"n_resamples": 300, "random_state": 6}
    whole = M.metric_frame(M.roc_auc_score, y, s, groups, **kw)
    monkeypatch.setattr(slices, "CHUNK_ROWS", 1000)  # "big": 3 chunks of 100 resamples
    frames = []
    for workers in (1, 2):
        monkeypatch.setattr(metrics._ranks, "WORKERS", workers)
        frames.append(M.metric_frame(M.roc_auc_score, y, s, groups, **kw))
    np.testing.assert_array_equal(frames[0].distribution, frames[1].distribution)
    # the small group keeps its one generator; the big one's chunks draw other resamples
    np.testing.assert_array_equal(frames[0].distribution[1], whole.distribution[1])
    assert not np.array_equal(frames[0].distribution[0], whole.distribution[0])
    # of the same law: each chunk's AUCs spread as the whole group's
    for part in np.split(frames[0].distribution[0], 3):
        assert part.std() == pytest.approx(whole.distribution[0].std(), rel=0.25)
    assert frames[0].value.tolist() == whole.value.tolist()


class _Stop(Exception):
    pass


@pytest.mark.parametrize(
    ("metric", "least"),
    [
        (M.roc_auc_score, 3),  # DeLong's path: 20 groups' resamples, 8 a step
        ("tpr", 3),  # a 0/1 rate: its column sums, 8 groups a step
        (M.mean_absolute_error, 4),  # column sums, then the shuffles
        (M.average_precision_score, 20),  # no fast path: each group, each block of draws
    ],
)
def test_a_checkpoint_between_groups_changes_no_number_and_can_stop_the_work(metric, least):
    rng = np.random.default_rng(11)
    n = 2_000
    groups = rng.integers(0, 20, n)
    y = rng.integers(0, 2, n)
    s = y + rng.normal(size=n)
    kw = {"n_resamples": 50, "n_permutations": 99, "random_state": 3}
    plain = M.metric_frame(metric, y, s, groups, **kw)
    calls = []
    stepped = M.metric_frame(metric, y, s, groups, checkpoint=lambda: calls.append(1), **kw)
    assert len(calls) >= least
    for name in ("value", "low", "high", "rest", "p_value", "p_holm"):
        np.testing.assert_array_equal(getattr(stepped, name), getattr(plain, name))

    def stop_at_the_second():
        calls.append(1)
        if len(calls) == 2:
            raise _Stop

    calls.clear()
    with pytest.raises(_Stop):
        M.metric_frame(metric, y, s, groups, checkpoint=stop_at_the_second, **kw)
    assert len(calls) == 2  # nothing ran on after the stop


def test_the_frame_calls_the_checkpoint_before_any_work():
    y, s = _binary()

    def stop():
        raise _Stop

    with mock.patch("metrics.slices._groups") as work, pytest.raises(_Stop):
        M.metric_frame(M.roc_auc_score, y, s, GROUPS, checkpoint=stop)
    work.assert_not_called()  # a caller draws what it has before the first pass


def test_the_search_calls_the_checkpoint_before_each_grouping_with_the_same_slices():
    rng = np.random.default_rng(12)
    n = 1_500
    cols = {a: rng.choice(["x", "y", "z"], n) for a in ("site", "sex", "age")}
    y = rng.integers(0, 2, n)
    s = y + rng.normal(size=n)
    plain = M.worst_slices(M.roc_auc_score, y, s, cols, random_state=0)
    calls = []
    stepped = M.worst_slices(
        M.roc_auc_score, y, s, cols, random_state=0, checkpoint=lambda: calls.append(1)
    )
    assert len(calls) == 6  # three attributes, three pairs
    assert stepped.slices == plain.slices
    np.testing.assert_array_equal(stepped.p_corrected, plain.p_corrected)


def test_roc_auc_on_groups_that_each_hold_one_class_is_undefined_not_an_error():
    y = np.array([1, 1, 1, 1, 0, 0, 0, 0])
    s = np.linspace(0.1, 0.8, 8)
    groups = np.array(["a"] * 4 + ["b"] * 4)  # a: positives only, b: negatives only
    f = M.metric_frame(M.roc_auc_score, y, s, groups, n_resamples=20, random_state=0)
    assert np.isnan(f.value).all() and np.isnan(f.low).all() and np.isnan(f.high).all()
    assert f.overall == pytest.approx(0.0)  # every positive scored below every negative
    assert set(f.notes) == {"a", "b"}
    ones = np.ones(8, dtype=int)  # one class in the whole data: undefined everywhere
    g = M.metric_frame(M.roc_auc_score, ones, s, groups, n_resamples=20, random_state=0)
    assert np.isnan(g.value).all() and math.isnan(g.overall)
