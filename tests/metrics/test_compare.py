"""metrics.compare: DeLong, bootstrap intervals, paired tests, McNemar.

References: DeLong from its definition (the O(m n) pair table of structural
components), scipy.stats for every p-value and for the BCa interval, the
row-gathered metric for every vectorized bootstrap path, and coverage of the
intervals over seeded simulations where the truth is known.
"""

import functools
import math

import numpy as np
import pytest

import metrics
import metrics._ranks
from metrics import (
    MetricInputError,
    bootstrap_ci,
    delong_test,
    mcnemar_test,
    paired_bootstrap_diff,
    paired_test,
    roc_auc_score,
)
from metrics import compare as C
from metrics._counting import ap_from_counts

stats = pytest.importorskip("scipy.stats")


# ---------------------------------------------------------------------------
# reference: DeLong from the structural components, O(m n)
# ---------------------------------------------------------------------------
def _psi(ps, ns):
    """1 where the positive outscores the negative, 1/2 for a tie (m x n)."""
    return (ps[:, None] > ns[None, :]) + 0.5 * (ps[:, None] == ns[None, :])


def slow_delong(y, a, b, w=None):
    """DeLong et al. (1988) straight from the pair table (frequency weights ``w``)."""
    y = np.asarray(y).astype(bool)
    a, b = np.asarray(a, float), np.asarray(b, float)
    w = np.ones(y.shape[0]) if w is None else np.asarray(w, float)
    keep = w > 0
    y, a, b, w = y[keep], a[keep], b[keep], w[keep]
    wp, wn = w[y], w[~y]
    Wp, Wn = wp.sum(), wn.sum()
    v10, v01, aucs = [], [], []
    for s in (a, b):
        psi = _psi(s[y], s[~y])
        v10.append(psi @ wn / Wn)  # per positive
        v01.append(wp @ psi / Wp)  # per negative
        aucs.append(wp @ psi @ wn / (Wp * Wn))
    v10, v01, theta = np.array(v10), np.array(v01), np.array(aucs)
    d10 = v10 - theta[:, None]
    d01 = v01 - theta[:, None]
    s10 = (d10 * wp) @ d10.T / (Wp - 1)
    s01 = (d01 * wn) @ d01.T / (Wn - 1)
    S = s10 / Wp + s01 / Wn
    var = S[0, 0] + S[1, 1] - 2 * S[0, 1]
    se = math.sqrt(var)
    z = (theta[0] - theta[1]) / se
    return theta[0], theta[1], se, z, 2 * stats.norm.sf(abs(z))


def _data(seed, n, ties=False, p=0.4):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < p).astype(int)
    y[:2], y[2:4] = 1, 0
    a = y * 0.8 + rng.normal(size=n)
    b = 0.6 * a + y * 0.3 + rng.normal(size=n)
    if ties:
        a, b = np.round(a, 0), np.round(b * 2, 0)
    return y, a, b


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed, n", [(0, 12), (1, 57), (2, 300), (3, 1000)])
def test_delong_equals_structural_components(seed, n, ties):
    y, a, b = _data(seed, n, ties)
    r = delong_test(y, a, b)
    auc_a, auc_b, se, z, p = slow_delong(y, a, b)
    assert r.auc_a == pytest.approx(auc_a, abs=1e-12)
    assert r.auc_b == pytest.approx(auc_b, abs=1e-12)
    assert r.diff == pytest.approx(auc_a - auc_b, abs=1e-12)
    assert r.se == pytest.approx(se, rel=1e-9, abs=1e-12)
    assert r.z == pytest.approx(z, rel=1e-9)
    assert r.p_value == pytest.approx(p, rel=1e-9, abs=1e-15)
    assert r.auc_a == pytest.approx(roc_auc_score(y, a), abs=1e-12)


def test_delong_known_small_example():
    # hand-checkable: 4 positives, 4 negatives
    y = [0, 0, 0, 0, 1, 1, 1, 1]
    a = [0.1, 0.3, 0.2, 0.6, 0.5, 0.7, 0.9, 0.8]
    b = [0.2, 0.5, 0.1, 0.4, 0.3, 0.6, 0.7, 0.2]
    r = delong_test(y, a, b)
    assert r.auc_a == 15 / 16  # 0.5 loses once to 0.6
    assert r.auc_b == 11.5 / 16  # the tie 0.2 / 0.2 counts 1/2
    assert (r.auc_a, r.auc_b, r.se, r.z, r.p_value) == pytest.approx(
        slow_delong(y, a, b), rel=1e-12
    )


def test_delong_identical_curves_give_z_0_p_1_as_proc():
    # pROC's tests: roc.test(r.wfns, r.wfns) has statistic Z = 0 and p.value 1
    y, a, _ = _data(5, 80)
    r = delong_test(y, a, a.copy())
    assert (r.diff, r.se, r.z, r.p_value) == (0.0, 0.0, 0.0, 1.0)


def test_delong_opposite_perfect_models_have_infinite_z():
    y = np.array([0, 0, 1, 1])
    r = delong_test(y, [0.1, 0.2, 0.8, 0.9], [0.9, 0.8, 0.2, 0.1])
    assert (r.auc_a, r.auc_b, r.se, r.z, r.p_value) == (1.0, 0.0, 0.0, math.inf, 0.0)


def test_delong_integer_weights_replicate_rows():
    y, a, b = _data(7, 90, ties=True)
    w = np.random.default_rng(7).integers(0, 4, size=90)
    w[:4] = 1
    r = delong_test(y, a, b, sample_weight=w)
    rep = np.repeat(np.arange(90), w)
    expected = delong_test(y[rep], a[rep], b[rep])
    for got, want in zip(r, expected, strict=True):
        assert got == pytest.approx(want, rel=1e-9, abs=1e-12)
    assert r.auc_a == pytest.approx(roc_auc_score(y, a, sample_weight=w), abs=1e-12)


def test_delong_fractional_weights_follow_the_weighted_definition():
    y, a, b = _data(8, 70, ties=True)
    w = np.random.default_rng(8).uniform(0.2, 3.0, size=70)
    r = delong_test(y, a, b, sample_weight=w)
    auc_a, auc_b, se, z, p = slow_delong(y, a, b, w)
    assert (r.auc_a, r.auc_b, r.se, r.z, r.p_value) == pytest.approx(
        (auc_a, auc_b, se, z, p), rel=1e-9
    )


def test_delong_p_values_are_uniform_under_the_null():
    # two exchangeable models of the same AUC: about 5% of tests at 0.05 reject
    rejections = []
    for seed in range(300):
        rng = np.random.default_rng(1000 + seed)
        y = rng.integers(0, 2, 200)
        common = y * 1.0 + rng.normal(size=200)
        a = common + rng.normal(size=200)
        b = common + rng.normal(size=200)
        rejections.append(delong_test(y, a, b).p_value < 0.05)
    assert 0.02 <= np.mean(rejections) <= 0.09


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (dict(y_true=[0, 1, 1], score_a=[0.1, 0.2, 0.3], score_b=[0.1, 0.2]), "score_b has 2"),
        (dict(y_true=[0, 1, 2], score_a=[0.1, 0.2, 0.3], score_b=[1, 2, 3]), r"y_true\[2\]"),
        (dict(y_true=[0, 1, 1, 0], score_a=[0.1, np.nan, 0.3, 0], score_b=[1, 2, 3, 4]), "NaN"),
        (dict(y_true=[0, 0, 1, 1, 1], score_a=[1, 2, 3, 4, 5], score_b=[1, 2, 3, 4, 5]), None),
        (dict(y_true=[0, 1, 1, 1], score_a=[1, 2, 3, 4], score_b=[1, 2, 3, 4]), "two positives"),
        (dict(y_true=[1, 1, 1], score_a=[1, 2, 3], score_b=[1, 2, 3]), "negatives of total"),
    ],
)
def test_delong_validation(kwargs, message):
    if message is None:
        delong_test(**kwargs)  # two of each class: fine
        return
    with pytest.raises(MetricInputError, match=message):
        delong_test(**kwargs)


def test_delong_weights_refused_when_bad_and_zero_weights_drop_rows():
    y, a, b = _data(9, 40)
    with pytest.raises(MetricInputError, match="sample_weight"):
        delong_test(y, a, b, sample_weight=-np.ones(40))
    w = np.ones(40)
    w[10:15] = 0
    keep = w > 0
    assert delong_test(y, a, b, sample_weight=w) == pytest.approx(
        tuple(delong_test(y[keep], a[keep], b[keep])), rel=1e-12
    )


# ---------------------------------------------------------------------------
# distributions without scipy
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("df", [1, 2, 3, 5, 9.5, 30, 200, 10_000])
def test_t_p_value_equals_scipy(df):
    for t in (0.0, 0.01, 0.5, 1.0, 2.0, 3.5, 8.0, 40.0, -2.5):
        assert C._two_sided_t(t, df) == pytest.approx(2 * stats.t.sf(abs(t), df), rel=1e-10)


def test_normal_helpers_equal_scipy():
    for p in (1e-12, 1e-6, 0.001, 0.02, 0.025, 0.3, 0.5, 0.77, 0.975, 0.999999):
        assert C._norm_ppf(p) == pytest.approx(stats.norm.ppf(p), rel=1e-13, abs=1e-13)
    for z in (0.0, 0.3, 1.96, 5.0, 12.0):
        assert C._two_sided_normal(z) == pytest.approx(2 * stats.norm.sf(z), rel=1e-13)
    assert C._norm_ppf(0.0) == -math.inf and C._norm_ppf(1.0) == math.inf


def test_incomplete_beta_equals_scipy():
    special = pytest.importorskip("scipy.special")
    for a, b, x in [(0.5, 0.5, 0.3), (2, 3, 0.4), (50, 0.5, 0.99), (0.5, 40, 0.01), (7, 7, 0.5)]:
        assert C._betainc(a, b, x) == pytest.approx(special.betainc(a, b, x), rel=1e-12)


# ---------------------------------------------------------------------------
# paired tests
# ---------------------------------------------------------------------------
def _pair(seed, n, shift=0.1, rounding=None):
    rng = np.random.default_rng(seed)
    a = rng.random(n)
    b = a - shift + rng.normal(scale=0.2, size=n)
    if rounding is not None:
        a, b = np.round(a, rounding), np.round(b, rounding)
    return a, b


@pytest.mark.parametrize("seed, n", [(0, 2), (1, 5), (2, 40), (3, 2000)])
def test_paired_t_equals_scipy_ttest_rel(seed, n):
    a, b = _pair(seed, n)
    r = paired_test(a, b, method="t")
    ref = stats.ttest_rel(a, b)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9, abs=1e-300)
    assert r.mean_diff == pytest.approx(np.mean(a - b), rel=1e-12) and r.n == n


@pytest.mark.parametrize(
    "seed, n, rounding, regime",
    [
        (0, 20, None, "exact null distribution"),
        (1, 50, None, "exact null distribution"),
        (2, 10, 1, "ties or zeros: every sign pattern"),
        (3, 13, 1, "ties or zeros: every sign pattern"),
        (4, 30, 1, "ties: normal approximation"),
        (5, 51, None, "normal approximation"),
        (6, 400, 2, "ties and zeros: normal approximation"),
    ],
)
def test_wilcoxon_equals_scipy(seed, n, rounding, regime):
    a, b = _pair(seed, n, shift=0.05, rounding=rounding)
    if "zeros" in regime:
        b[:3] = a[:3]
    r = paired_test(a, b, method="wilcoxon")
    ref = stats.wilcoxon(a, b)
    assert r.statistic == pytest.approx(ref.statistic, rel=1e-12)
    assert r.p_value == pytest.approx(ref.pvalue, rel=1e-9), regime


def test_wilcoxon_null_counts():
    # prod (1 + x^k): n = 3 gives sums 0, 1, 2, 3, 3, 4, 5, 6
    assert C._signed_rank_null(3).tolist() == [1, 1, 1, 2, 1, 1, 1]
    assert C._signed_rank_null(50).sum() == 2**50


def test_randomization_test_approaches_the_exact_permutation_p():
    a, b = _pair(11, 12, shift=0.08)
    d = a - b
    signs = 1 - 2 * ((np.arange(2**12)[:, None] >> np.arange(12)) & 1)
    exact = np.mean(np.abs(signs @ d) >= abs(d.sum()) - 1e-12)
    r = paired_test(a, b, method="randomization", n_resamples=40_000, random_state=3)
    assert r.p_value == pytest.approx(exact, abs=4 * math.sqrt(exact * (1 - exact) / 40_000))
    again = paired_test(a, b, method="randomization", n_resamples=40_000, random_state=3)
    assert again == r and r.statistic == pytest.approx(d.mean())


def test_randomization_p_value_is_never_zero():
    a = np.arange(30.0)
    r = paired_test(a + 10, a, method="randomization", n_resamples=999, random_state=0)
    assert r.p_value == 1 / 1000


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        (([1, 2, 3], [1, 2]), {}, "per_sample_b"),
        (([1.0], [2.0]), {}, "at least 2 pairs"),
        (([1, 2, 3], [0, 1, 2]), {}, "no variance"),
        (([1, 2, 3], [1, 2, 3]), {"method": "wilcoxon"}, "every difference"),
        (([1, 2, 3], [1, 2, 4]), {"method": "sign"}, "method must be one of"),
        (([1, 2, 3], [1, 2, 4]), {"method": "randomization", "n_resamples": 0}, "n_resamples"),
        (([1, np.inf], [1, 2]), {}, "per_sample_a"),
    ],
)
def test_paired_test_validation(args, kwargs, message):
    with pytest.raises(MetricInputError, match=message):
        paired_test(*args, **kwargs)


# ---------------------------------------------------------------------------
# McNemar
# ---------------------------------------------------------------------------
def _predictions(seed, n, agree):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.where(rng.random(n) < 0.8, y, 1 - y)
    b = np.where(rng.random(n) < agree, a, 1 - a)
    return y, a, b


@pytest.mark.parametrize("seed, n, agree", [(0, 40, 0.8), (1, 60, 0.9), (2, 30, 0.95)])
def test_mcnemar_exact_equals_scipy_binomtest(seed, n, agree):
    y, a, b = _predictions(seed, n, agree)
    r = mcnemar_test(y, a, b)
    only_a = int(np.sum((a == y) & (b != y)))
    only_b = int(np.sum((b == y) & (a != y)))
    assert (r.only_a, r.only_b) == (only_a, only_b) and only_a + only_b < 25 and r.exact
    ref = stats.binomtest(only_a, only_a + only_b, 0.5).pvalue
    assert r.p_value == pytest.approx(ref, rel=1e-12)


@pytest.mark.parametrize("correction", [True, False])
def test_mcnemar_chi_square_equals_scipy(correction):
    y, a, b = _predictions(3, 600, 0.8)
    r = mcnemar_test(y, a, b, correction=correction)
    n = r.only_a + r.only_b
    assert n >= 25 and not r.exact
    stat = (abs(r.only_a - r.only_b) - correction) ** 2 / n
    assert r.statistic == pytest.approx(stat, rel=1e-12)
    assert r.p_value == pytest.approx(stats.chi2.sf(stat, 1), rel=1e-10)
    forced = mcnemar_test(y, a, b, exact=True)
    assert forced.exact and forced.p_value == pytest.approx(
        stats.binomtest(r.only_a, n, 0.5).pvalue, rel=1e-10
    )


def test_mcnemar_large_exact_uses_log_space():
    assert C._binom_cdf_half(4_000, 20_000) == pytest.approx(stats.binom.cdf(4_000, 20_000, 0.5))
    assert C._binom_cdf_half(10_010, 20_011) == pytest.approx(
        stats.binom.cdf(10_010, 20_011, 0.5), rel=1e-9
    )


def test_mcnemar_without_discordant_pairs_and_validation():
    r = mcnemar_test([1, 0, 1], [1, 0, 0], [1, 0, 0])
    assert (r.statistic, r.p_value, r.only_a, r.only_b) == (0.0, 1.0, 0, 0)
    with pytest.raises(MetricInputError, match="y_pred_b"):
        mcnemar_test([1, 0, 1], [1, 0, 0], [1, 0])
    with pytest.raises(MetricInputError, match="exact"):
        mcnemar_test([1, 0, 1], [1, 0, 0], [1, 0, 1], exact="yes")


# ---------------------------------------------------------------------------
# bootstrap: the ROC AUC counting kernel is exact
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("ties", [False, True])
def test_auc_counting_kernel_equals_roc_auc_on_the_drawn_rows(ties):
    y, a, b = _data(21, 150, ties)
    pos = y.astype(bool)
    rows, models = C._auc_layout(pos, [a, b])
    assert np.array_equal(models[0].neg, np.flatnonzero(~pos[rows]))  # the layout's order
    assert (models[0].upto is not None) == ties  # a tie between the classes
    aucs, counts = C._auc_block(
        np.random.default_rng(0), 25, models, lambda g, k: C._draw_counts(g, k, 150)
    )
    assert counts.dtype == np.uint8 and (counts.sum(axis=1) == 150).all()
    for k, s in enumerate((a, b)):
        got = C._auc_from_counts(counts, models[k])
        np.testing.assert_array_equal(got, aucs[k])
        for r in range(25):
            drawn = np.repeat(rows, counts[r])  # the original rows of resample r
            assert got[r] == pytest.approx(roc_auc_score(y[drawn], s[drawn]), abs=1e-12)
            weighted = roc_auc_score(y[rows], s[rows], sample_weight=counts[r])
            assert got[r] == pytest.approx(weighted, abs=1e-12)


def test_auc_kernel_takes_int64_counts_too():
    y, a, _ = _data(25, 300, ties=True)
    rows, models = C._auc_layout(y.astype(bool), [a])
    counts = C._draw_counts(np.random.default_rng(2), 5, 300)
    np.testing.assert_array_equal(
        C._auc_from_counts(counts, models[0]),
        C._auc_from_counts(counts.astype(np.int64), models[0]),
    )


def test_auc_counts_redraw_single_class_resamples():
    pos = np.zeros(6, dtype=bool)
    pos[0] = True  # one positive in six: a resample misses it with probability (5/6)^6
    s = np.arange(6.0)
    _, models = C._auc_layout(pos, [s])
    aucs, counts = C._auc_block(
        np.random.default_rng(1), 400, models, lambda g, k: C._draw_counts(g, k, 6)
    )
    assert np.isfinite(aucs[0]).all()
    drawn_pos = counts[:, 0]  # the positive has the lowest score: layout position 0
    assert (drawn_pos >= 1).all() and (drawn_pos <= 5).all()
    assert (counts.sum(axis=1) == 6).all()


def test_auc_cells_kernel_equals_roc_auc_with_the_cell_counts():
    rng = np.random.default_rng(26)
    y = rng.integers(0, 2, 2000)
    s = np.round(y + rng.normal(size=2000), 1)  # about 80 distinct scores
    sizes, model = C._auc_cells(y.astype(bool), s)
    assert sizes.sum() == 2000 and sizes.shape[0] * C.CELL_RATIO <= 2000
    order = np.lexsort((y, s))
    first = np.flatnonzero(
        np.concatenate(([True], (s[order][1:] != s[order][:-1]) | (y[order][1:] != y[order][:-1])))
    )
    rep = order[first]  # one row standing for each cell
    counts = rng.multinomial(2000, sizes / 2000, size=20)
    got = C._auc_from_counts(counts, model)
    for r in range(20):
        want = roc_auc_score(y[rep], s[rep], sample_weight=counts[r])
        assert got[r] == pytest.approx(want, abs=1e-12)
    assert C._auc_from_counts(sizes[None, :], model)[0] == pytest.approx(roc_auc_score(y, s))


def test_auc_cells_by_hand():
    pos = np.array([0, 1, 1, 0, 0], dtype=bool)
    sizes, model = C._auc_cells(pos, np.array([1.0, 1.0, 2.0, 3.0, 3.0]))
    assert sizes.tolist() == [1, 1, 1, 2]  # score 1: a negative and a positive; 2: +; 3: two -
    # cells by score: (1, -), (1, +), (2, +), (3, -); the first positive ties a negative
    assert model.neg.tolist() == [0, 3] and model.pos.tolist() == [1, 2]
    assert model.below.tolist() == [0, 1] and model.upto.tolist() == [1, 1]
    assert C._auc_from_counts(sizes[None, :], model)[0] == roc_auc_score(pos, [1, 1, 2, 3, 3])


def test_auc_cells_and_draws_give_the_same_distribution(monkeypatch):
    rng = np.random.default_rng(27)
    y = rng.integers(0, 2, 3000)
    s = np.round(y + rng.normal(size=3000), 1)
    cells = bootstrap_ci(roc_auc_score, y, s, n_resamples=3000, random_state=0)
    monkeypatch.setattr(C, "CELL_RATIO", 10**9)  # every row drawn
    draws = bootstrap_ci(roc_auc_score, y, s, n_resamples=3000, random_state=0)
    assert not np.array_equal(cells.distribution, draws.distribution)
    assert cells.standard_error == pytest.approx(draws.standard_error, rel=0.08)
    assert (cells.low, cells.high) == pytest.approx((draws.low, draws.high), abs=0.004)


@pytest.mark.parametrize("ties", [False, True])
def test_ap_counting_kernel_equals_average_precision_on_the_drawn_rows(ties):
    y, a, b = _data(28, 120, ties)
    rows, models = C._auc_layout(y.astype(bool), [a, b])
    counts = C._draw_counts(np.random.default_rng(3), 30, 120)
    for k, s in enumerate((a, b)):
        got = ap_from_counts(counts, models[k])
        for r in range(30):
            drawn = np.repeat(rows, counts[r])
            want = metrics.average_precision_score(y[drawn], s[drawn])
            assert got[r] == pytest.approx(want, abs=1e-12)


def test_ap_kernel_on_cells_and_without_positives():
    rng = np.random.default_rng(29)
    y = rng.integers(0, 2, 1000)
    s = np.round(y + rng.normal(size=1000), 1)
    sizes, model = C._auc_cells(y.astype(bool), s)
    order = np.lexsort((y, s))
    ys, ss = y[order], s[order]
    rep = order[np.flatnonzero(np.concatenate(([True], (ss[1:] != ss[:-1]) | (ys[1:] != ys[:-1]))))]
    counts = rng.multinomial(1000, sizes / 1000, size=10)
    got = ap_from_counts(counts, model)
    for r in range(10):
        want = metrics.average_precision_score(y[rep], s[rep], sample_weight=counts[r])
        assert got[r] == pytest.approx(want, abs=1e-12)
    is_neg = np.isin(np.arange(sizes.shape[0]), model.neg)
    none = np.where(is_neg, sizes, 0)[None, :]  # only negatives drawn
    only = np.where(is_neg, 0, sizes)[None, :]  # only positives drawn
    assert ap_from_counts(none, model)[0] == 0.0
    assert ap_from_counts(only, model)[0] == 1.0


def test_ap_bootstrap_matches_the_generic_loop_in_distribution():
    y, a, b = _data(30, 400)
    ap = metrics.average_precision_score
    fast = bootstrap_ci(ap, y, a, n_resamples=2000, random_state=0)
    slow = bootstrap_ci(lambda t, s: ap(t, s), y, a, n_resamples=2000, random_state=0)
    assert fast.estimate == slow.estimate == ap(y, a)
    assert fast.standard_error == pytest.approx(slow.standard_error, rel=0.1)
    assert (fast.low, fast.high) == pytest.approx((slow.low, slow.high), abs=0.015)
    d = paired_bootstrap_diff(ap, y[:80], a[:80], b[:80], n_resamples=300, method="bca")
    assert d.estimate == pytest.approx(ap(y[:80], a[:80]) - ap(y[:80], b[:80]))
    assert d.low < d.high


def test_auc_jackknife_equals_leave_one_out():
    y, a, _ = _data(22, 60, ties=True)
    jack = C._auc_jackknife(y.astype(bool), a)
    keep = np.ones(60, dtype=bool)
    for i in range(60):
        keep[i] = False
        assert jack[i] == pytest.approx(roc_auc_score(y[keep], a[keep]), abs=1e-12)
        keep[i] = True


def test_auc_bootstrap_does_not_depend_on_threads(monkeypatch):
    y, a, _ = _data(23, 3000)
    monkeypatch.setattr(C, "AUC_BLOCK_DRAWS", 3000 * 7)  # several blocks
    monkeypatch.setattr(metrics._ranks, "WORKERS", 1)
    one = bootstrap_ci(roc_auc_score, y, a, n_resamples=100, random_state=5)
    monkeypatch.setattr(metrics._ranks, "WORKERS", 2)
    two = bootstrap_ci(roc_auc_score, y, a, n_resamples=100, random_state=5)
    np.testing.assert_array_equal(one.distribution, two.distribution)
    assert one.low == two.low and one.high == two.high


def test_auc_fast_path_matches_the_generic_loop_in_distribution():
    y, a, _ = _data(24, 400)
    fast = bootstrap_ci(roc_auc_score, y, a, n_resamples=3000, random_state=0)
    slow = bootstrap_ci(lambda t, s: roc_auc_score(t, s), y, a, n_resamples=3000, random_state=0)
    assert fast.estimate == slow.estimate == roc_auc_score(y, a)
    assert fast.standard_error == pytest.approx(slow.standard_error, rel=0.08)
    assert fast.low == pytest.approx(slow.low, abs=0.012)
    assert fast.high == pytest.approx(slow.high, abs=0.012)
    # the bootstrap standard error is close to DeLong's
    v10, v01, _ = C._placements(y.astype(bool), a, None)
    se = math.sqrt(v10.var(ddof=1) / v10.size + v01.var(ddof=1) / v01.size)
    assert fast.standard_error == pytest.approx(se, rel=0.1)


# ---------------------------------------------------------------------------
# bootstrap: the per-sample mean path equals the generic loop on the same resamples
# ---------------------------------------------------------------------------
def _ranking_data(seed, n=60, m=8):
    rng = np.random.default_rng(seed)
    y = (rng.random((n, m)) < 0.3).astype(int)
    y[:, 0] = 1
    s = y * 0.5 + rng.random((n, m))
    return y, np.round(s, 1)


def _regression_data(seed, n=80):
    rng = np.random.default_rng(seed)
    y = rng.exponential(size=n) + 0.1
    return y, y + rng.normal(size=n)


MEAN_CASES = [
    (metrics.mean_absolute_error, _regression_data),
    (metrics.mean_squared_error, _regression_data),
    (metrics.root_mean_squared_error, _regression_data),
    (metrics.mean_absolute_percentage_error, _regression_data),
    (metrics.accuracy_score, lambda seed: _predictions(seed, 70, 0.8)[:2]),
    (metrics.ndcg_score, _ranking_data),
    (functools.partial(metrics.ndcg_score, k=3), _ranking_data),
    (metrics.dcg_score, _ranking_data),
    (metrics.label_ranking_average_precision_score, _ranking_data),
    (metrics.coverage_error, _ranking_data),
    (metrics.label_ranking_loss, _ranking_data),
    (functools.partial(metrics.precision_at_k, k=3), _ranking_data),
    (functools.partial(metrics.recall_at_k, k=3), _ranking_data),
    (functools.partial(metrics.hit_rate_at_k, k=2), _ranking_data),
    (functools.partial(metrics.mean_average_precision_at_k, k=5), _ranking_data),
    (metrics.mean_reciprocal_rank, _ranking_data),
]


def _name(metric):
    f, kw = C._unwrap(metric)
    return f.__name__ + "".join(f"-{k}{v}" for k, v in kw.items())


@pytest.mark.parametrize("metric, make", MEAN_CASES, ids=[_name(m) for m, _ in MEAN_CASES])
@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_mean_path_equals_the_generic_loop(metric, make, method):
    arrays = make(31)
    assert C._mean_path(metric, arrays) is not None

    def wrapped(*xs):  # not in the table: the generic path
        return metric(*xs)

    fast = bootstrap_ci(metric, *arrays, n_resamples=60, method=method, random_state=2)
    slow = bootstrap_ci(wrapped, *arrays, n_resamples=60, method=method, random_state=2)
    np.testing.assert_allclose(fast.distribution, slow.distribution, rtol=1e-12, atol=1e-12)
    assert fast.estimate == pytest.approx(slow.estimate, rel=1e-12)
    assert (fast.low, fast.high) == pytest.approx((slow.low, slow.high), rel=1e-12, abs=1e-12)


def test_mean_path_is_skipped_where_it_would_differ():
    y, p = _regression_data(1)
    assert (
        C._mean_path(functools.partial(metrics.mean_absolute_error, sample_weight=y), (y, p))
        is None
    )
    assert C._mean_path(functools.partial(metrics.accuracy_score, normalize=False), (y, y)) is None
    assert C._mean_path(metrics.r2_score, (y, p)) is None


def test_paired_diff_paths_equal_the_generic_loop():
    y, s = _ranking_data(41)
    s2 = np.round(s + np.random.default_rng(0).normal(scale=0.3, size=s.shape), 1)
    fast = paired_bootstrap_diff(metrics.ndcg_score, y, s, s2, n_resamples=50, random_state=4)
    slow = paired_bootstrap_diff(
        lambda t, x: metrics.ndcg_score(t, x), y, s, s2, n_resamples=50, random_state=4
    )
    np.testing.assert_allclose(fast.distribution, slow.distribution, rtol=1e-12, atol=1e-12)
    assert fast.estimate == pytest.approx(metrics.ndcg_score(y, s) - metrics.ndcg_score(y, s2))


def test_paired_auc_diff_shares_the_resamples():
    y, a, b = _data(42, 500, ties=True)
    r = paired_bootstrap_diff(roc_auc_score, y, a, b, n_resamples=500, random_state=0)
    assert r.estimate == pytest.approx(roc_auc_score(y, a) - roc_auc_score(y, b), abs=1e-12)
    same = paired_bootstrap_diff(roc_auc_score, y, a, a.copy(), n_resamples=200, random_state=0)
    assert (same.distribution == 0).all() and same.low == same.high == 0
    # the bootstrap standard error of the difference is close to DeLong's
    assert r.standard_error == pytest.approx(delong_test(y, a, b).se, rel=0.12)
    bca = paired_bootstrap_diff(roc_auc_score, y, a, b, n_resamples=500, method="bca")
    assert bca.low < r.estimate < bca.high


# ---------------------------------------------------------------------------
# bootstrap: intervals, against scipy and by coverage
# ---------------------------------------------------------------------------
def test_percentile_interval_is_the_quantiles_of_the_distribution():
    y, p = _regression_data(3)
    r = bootstrap_ci(metrics.mean_absolute_error, y, p, n_resamples=500, confidence=0.9)
    assert (r.low, r.high) == pytest.approx(tuple(np.quantile(r.distribution, [0.05, 0.95])))
    assert r.standard_error == pytest.approx(r.distribution.std(ddof=1))
    assert (r.confidence, r.method, r.n_resamples) == (0.9, "percentile", 500)


@pytest.mark.parametrize("method", ["percentile", "bca"])
def test_intervals_agree_with_scipy_bootstrap(method):
    x = np.random.default_rng(9).exponential(size=60)
    ours = bootstrap_ci(
        metrics.mean_absolute_error,
        x,
        np.zeros(60),
        n_resamples=40_000,
        method=method,
        random_state=1,
    )
    ref = stats.bootstrap(
        (x,),
        np.mean,
        n_resamples=40_000,
        method="BCa" if method == "bca" else "percentile",
        rng=np.random.default_rng(1),
    )
    sd = ref.standard_error
    assert ours.standard_error == pytest.approx(sd, rel=0.03)
    assert ours.low == pytest.approx(ref.confidence_interval.low, abs=0.08 * sd)
    assert ours.high == pytest.approx(ref.confidence_interval.high, abs=0.08 * sd)


def test_bca_acceleration_equals_scipy_formula():
    x = np.random.default_rng(2).exponential(size=40)
    jack = (x.sum() - x) / 39
    u = 39 * (jack.mean() - jack)
    assert C._acceleration([jack]) == pytest.approx(np.sum(u**3) / 6 / np.sum(u**2) ** 1.5)
    assert C._acceleration([np.ones(5)]) == 0.0


def test_auc_intervals_cover_the_truth():
    # binormal model: positives N(mu, 1), negatives N(0, 1): AUC = Phi(mu / sqrt 2)
    mu, n, sims = 1.0, 300, 200
    truth = stats.norm.cdf(mu / math.sqrt(2))
    covered = {"percentile": 0, "bca": 0}
    for seed in range(sims):
        rng = np.random.default_rng(5000 + seed)
        y = rng.integers(0, 2, n)
        s = rng.normal(size=n) + mu * y
        for method in covered:
            r = bootstrap_ci(roc_auc_score, y, s, n_resamples=400, method=method, random_state=seed)
            covered[method] += r.low <= truth <= r.high
    for method, hits in covered.items():
        assert 0.90 <= hits / sims <= 0.985, (method, hits / sims)


def test_mean_intervals_cover_the_truth():
    # exponential data, mean 1: the mean absolute value of y against 0
    n, sims = 80, 300
    covered = {"percentile": 0, "bca": 0}
    for seed in range(sims):
        x = np.random.default_rng(9000 + seed).exponential(size=n)
        for method in covered:
            r = bootstrap_ci(
                metrics.mean_absolute_error,
                x,
                np.zeros(n),
                n_resamples=500,
                method=method,
                random_state=seed,
            )
            covered[method] += r.low <= 1.0 <= r.high
    for method, hits in covered.items():
        assert 0.90 <= hits / sims <= 0.985, (method, hits / sims)


def test_unpaired_resampling_draws_each_array_on_its_own():
    rng = np.random.default_rng(12)
    a, b = rng.normal(1.0, 1.0, 40), rng.normal(0.0, 1.0, 70)

    def mean_gap(x, z):
        return float(x.mean() - z.mean())

    r = bootstrap_ci(mean_gap, a, b, paired=False, n_resamples=2000, random_state=0)
    se = math.sqrt(a.var(ddof=1) / 40 + b.var(ddof=1) / 70)
    assert r.estimate == pytest.approx(a.mean() - b.mean())
    assert r.standard_error == pytest.approx(se, rel=0.1)
    ref = stats.bootstrap(
        (a, b),
        lambda x, z, axis=-1: x.mean(axis=axis) - z.mean(axis=axis),
        paired=False,
        n_resamples=20_000,
        method="BCa",
        rng=np.random.default_rng(0),
    )
    bca = bootstrap_ci(
        mean_gap, a, b, paired=False, n_resamples=20_000, method="bca", random_state=0
    )
    assert bca.low == pytest.approx(ref.confidence_interval.low, abs=0.1 * se)
    assert bca.high == pytest.approx(ref.confidence_interval.high, abs=0.1 * se)


def test_bootstrap_is_reproducible_and_seeded():
    y, a, _ = _data(13, 200)
    r1 = bootstrap_ci(roc_auc_score, y, a, n_resamples=300, random_state=7)
    r2 = bootstrap_ci(roc_auc_score, y, a, n_resamples=300, random_state=7)
    r3 = bootstrap_ci(roc_auc_score, y, a, n_resamples=300, random_state=8)
    np.testing.assert_array_equal(r1.distribution, r2.distribution)
    assert not np.array_equal(r1.distribution, r3.distribution)


@pytest.mark.parametrize(
    "args, kwargs, message",
    [
        ((roc_auc_score, [0, 1, 1], [0.1, 0.2]), {}, r"arrays\[1\] has 2 rows"),
        ((roc_auc_score,), {}, "at least one array"),
        ((roc_auc_score, [0, 1], [0.2, 0.4]), {"n_resamples": 1}, "n_resamples"),
        ((roc_auc_score, [0, 1], [0.2, 0.4]), {"confidence": 95}, "confidence"),
        ((roc_auc_score, [0, 1], [0.2, 0.4]), {"method": "BCa"}, "method must be one of"),
        ((roc_auc_score, [0, 1], [0.2, 0.4]), {"paired": "yes"}, "paired"),
        (("auc", [0, 1], [0.2, 0.4]), {}, "callable"),
        ((roc_auc_score, [0, 0], [0.2, 0.4]), {}, "single class"),
        ((lambda y, s: np.array([1.0, 2.0]), [0, 1], [0.2, 0.4]), {}, "one number"),
        ((roc_auc_score, [0, 1], [0.2, 0.4]), {"random_state": "x"}, "random_state"),
        ((roc_auc_score, [0, 1, 1], [0.2, 0.4, 0.5]), {"method": "bca"}, "two positives"),
    ],
)
def test_bootstrap_validation(args, kwargs, message):
    with pytest.raises(MetricInputError, match=message):
        bootstrap_ci(*args, **kwargs)


def test_a_refused_resample_is_named():
    y = [0, 0, 0, 0, 1, 0, 0, 0]

    def auc(t, s):  # the generic path: a resample without the positive is refused
        return roc_auc_score(t, s)

    with pytest.raises(MetricInputError, match=r"bootstrap resample \d+ .*single class"):
        bootstrap_ci(auc, y, np.arange(8.0), n_resamples=200, random_state=0)
    # the counting path draws such resamples again instead
    r = bootstrap_ci(roc_auc_score, y, np.arange(8.0), n_resamples=200, random_state=0)
    assert np.isfinite(r.distribution).all()


def test_a_nan_on_a_resample_is_refused():
    def mean_or_nan(x):
        return float(x.mean()) if x.min() > 0 else float("nan")

    with pytest.raises(MetricInputError, match=r"nan on bootstrap resample \d+"):
        bootstrap_ci(mean_or_nan, np.arange(6.0), n_resamples=50, random_state=0)


def test_auc_placements_average_to_the_auc_over_either_class():
    import metrics as _m

    rng = np.random.default_rng(11)
    y = rng.integers(0, 2, 200)
    s = np.round(rng.random(200), 1)  # ties
    w = rng.random(200) + 0.1
    for weight in (None, w):
        p = _m.auc_placements(y, s, sample_weight=weight)
        ww = np.ones(200) if weight is None else weight
        auc = _m.roc_auc_score(y, s, sample_weight=weight)
        pos = y == 1
        assert np.dot(ww[pos], p[pos]) / ww[pos].sum() == pytest.approx(auc, abs=1e-12)
        assert np.dot(ww[~pos], p[~pos]) / ww[~pos].sum() == pytest.approx(auc, abs=1e-12)
    with pytest.raises(_m.MetricInputError, match="single class"):
        _m.auc_placements([1, 1], [0.2, 0.3])


@pytest.mark.parametrize("n", [1, 7, 30_000])  # 30,000 rows: blocks of 139 resamples
def test_resample_rows_are_the_rows_bootstrap_ci_calls_the_metric_on(n):
    x = np.random.default_rng(n).random(n)
    # the slow reference: a metric of the general path, called once per resample
    slow = bootstrap_ci(lambda v: float(v[0] + v.sum()), x, n_resamples=300, random_state=4)
    blocks = list(metrics.resample_rows(n, n_resamples=300, random_state=4))
    assert [start for start, _ in blocks] == list(range(0, 300, blocks[0][1].shape[0]))
    rows = np.concatenate([r for _, r in blocks])
    assert rows.shape == (300, n) and rows.dtype == np.int64
    got = x[rows[:, 0]] + x[rows].sum(axis=1)
    np.testing.assert_array_equal(got, slow.distribution)


@pytest.mark.parametrize(
    ("args", "message"),
    [((0,), "n must be an integer >= 1; got 0"), ((5,), "n_resamples must be an integer >= 2")],
)
def test_resample_rows_checks_its_arguments_before_drawing(args, message):
    kwargs = {"n_resamples": 1} if args == (5,) else {}
    with pytest.raises(MetricInputError, match=message):
        metrics.resample_rows(*args, **kwargs)  # no iteration: refused at the call
