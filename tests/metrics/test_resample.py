"""metrics._resample: the bootstrap's draw counts are exact multinomial draws, and the ROC AUC
/ AP bootstrap built on them gives, resample by resample, the metric of the drawn rows.

References: the binomial and multinomial laws (scipy.stats), and ``roc_auc_score`` /
``average_precision_score`` on the rows each resample drew (``np.repeat`` of the rows by
their counts), with ties and with the counts as ``sample_weight``.
"""

import numpy as np
import pytest

import metrics
import metrics._ranks
from metrics import _resample as R
from metrics import bootstrap_ci, roc_auc_score
from metrics import compare as C

stats = pytest.importorskip("scipy.stats")


def _data(seed, n, ties):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = y + rng.normal(size=n)
    return y, (np.round(s, 1) if ties else s)


@pytest.fixture(params=["uniform", "poisson"])
def path(request, monkeypatch):
    """Both ways of drawing counts, on small data (the Poisson one forced below its size)."""
    if request.param == "poisson":
        monkeypatch.setattr(R, "POISSON_MIN_ROWS", 2)
    return request.param


@pytest.mark.parametrize("bits", [np.random.PCG64, np.random.MT19937])  # 64- and 32-bit words
def test_counts_sum_to_n_and_follow_the_binomial_marginal(path, bits):
    n, rows = 20, 40_000
    c = R.draw_counts(np.random.Generator(bits(1)), rows, n)
    assert c.dtype == np.uint8 and (c.sum(axis=1) == n).all()
    # every cell's count is Binomial(n, 1/n): chi-square of the pooled counts
    k = np.bincount(c.ravel().astype(np.int64), minlength=8)
    expected = stats.binom.pmf(np.arange(8), n, 1 / n) * c.size
    observed = np.append(k[:7], k[7:].sum())
    expected[7] = c.size - expected[:7].sum()
    assert stats.chisquare(observed, expected).pvalue > 1e-3
    # cells are negatively correlated (-1/(n-1)), as a multinomial's; Poisson counts are not
    r = np.corrcoef(c[:, 0].astype(float), c[:, 1].astype(float))[0, 1]
    assert r == pytest.approx(-1 / (n - 1), abs=0.015)
    # the number of distinct rows drawn: n (1 - (1 - 1/n)^n) on average
    distinct = (c > 0).sum(axis=1)
    assert distinct.mean() == pytest.approx(n * (1 - (1 - 1 / n) ** n), abs=0.03)


def test_poisson_counts_at_full_size_match_the_multinomial_moments():
    n, rows = 6000, 300  # above POISSON_MIN_ROWS: the default path
    assert n >= R.POISSON_MIN_ROWS
    c = R.draw_counts(np.random.default_rng(2), rows, n).astype(np.float64)
    assert (c.sum(axis=1) == n).all()
    assert c.mean() == 1.0
    assert c.var(axis=0, ddof=1).mean() == pytest.approx(1 - 1 / n, abs=0.01)
    distinct = (c > 0).sum(axis=1).mean()
    assert distinct == pytest.approx(n * (1 - (1 - 1 / n) ** n), rel=0.002)


def test_poisson_table_is_the_inverse_cdf():
    table, cdf = R._poisson_table(0.9)
    u = np.arange(65536)
    marked = table == R._MARK
    assert 0 < marked.sum() < 20
    k = table[~marked].astype(np.int64)
    lo, hi = u[~marked] / 65536, (u[~marked] + 1) / 65536
    below = np.where(k > 0, cdf[np.maximum(k - 1, 0)], 0.0)
    assert (below <= lo).all() and (hi <= cdf[k]).all()
    assert cdf[0] == pytest.approx(stats.poisson.pmf(0, 0.9), rel=1e-14)
    assert cdf[5] == pytest.approx(stats.poisson.cdf(5, 0.9), rel=1e-14)


def test_draw_counts_is_reproducible_and_seeded():
    a = R.draw_counts(np.random.default_rng(7), 3, 5000)
    b = R.draw_counts(np.random.default_rng(7), 3, 5000)
    c = R.draw_counts(np.random.default_rng(8), 3, 5000)
    np.testing.assert_array_equal(a, b)
    assert not np.array_equal(a, c)


@pytest.mark.parametrize("ties", [False, True])
def test_bootstrap_resamples_equal_the_metric_of_the_drawn_rows(path, ties, monkeypatch):
    """bootstrap_ci's own distribution, resample by resample, against the gathered rows."""
    y, s = _data(3, 300, ties)
    monkeypatch.setattr(C, "CELL_RATIO", 10**9)  # every row drawn, also when tied
    drawn = []

    def recording(rng, rows, n):
        counts = R.draw_counts(rng, rows, n)
        drawn.append(counts)
        return counts

    monkeypatch.setattr(C, "_draw_counts", recording)
    for metric in (roc_auc_score, metrics.average_precision_score):
        drawn.clear()
        r = bootstrap_ci(metric, y, s, n_resamples=40, random_state=11)
        assert len(drawn) == 1  # one block, no single-class redraw
        counts = drawn[0]
        rows = np.argsort(s, kind="stable")  # the layout: ascending score
        for k in range(40):
            idx = np.repeat(rows, counts[k])
            assert r.distribution[k] == pytest.approx(metric(y[idx], s[idx]), abs=1e-12)
            as_weights = metric(y[rows], s[rows], sample_weight=counts[k])
            assert r.distribution[k] == pytest.approx(as_weights, abs=1e-12)


def test_paired_diff_resamples_equal_the_metric_of_the_drawn_rows(path, monkeypatch):
    y, a = _data(4, 250, ties=True)
    b = np.round(a + np.random.default_rng(5).normal(size=250), 1)
    drawn = []

    def recording(rng, rows, n):
        drawn.append(R.draw_counts(rng, rows, n))
        return drawn[-1]

    monkeypatch.setattr(C, "_draw_counts", recording)
    d = metrics.paired_bootstrap_diff(roc_auc_score, y, a, b, n_resamples=30, random_state=2)
    rows = np.argsort(a, kind="stable")
    for k in range(30):
        idx = np.repeat(rows, drawn[0][k])
        want = roc_auc_score(y[idx], a[idx]) - roc_auc_score(y[idx], b[idx])
        assert d.distribution[k] == pytest.approx(want, abs=1e-12)


def test_poisson_path_does_not_depend_on_threads(monkeypatch):
    y, s = _data(6, 5000, ties=False)
    assert s.shape[0] >= R.POISSON_MIN_ROWS
    monkeypatch.setattr(C, "AUC_BLOCK_DRAWS", 5000 * 3)  # 34 blocks of 3 resamples
    monkeypatch.setattr(metrics._ranks, "WORKERS", 1)
    one = bootstrap_ci(roc_auc_score, y, s, n_resamples=100, random_state=5)
    monkeypatch.setattr(metrics._ranks, "WORKERS", 2)
    two = bootstrap_ci(roc_auc_score, y, s, n_resamples=100, random_state=5)
    np.testing.assert_array_equal(one.distribution, two.distribution)
    # other blocks, other resamples: the same law, not the same numbers
    monkeypatch.setattr(C, "AUC_BLOCK_DRAWS", 5000 * 10)
    other = bootstrap_ci(roc_auc_score, y, s, n_resamples=100, random_state=5)
    assert not np.array_equal(one.distribution, other.distribution)
    assert other.standard_error == pytest.approx(one.standard_error, rel=0.3)


def test_poisson_and_uniform_draws_give_the_same_interval(monkeypatch):
    y, s = _data(8, 5000, ties=False)
    poisson = bootstrap_ci(roc_auc_score, y, s, n_resamples=3000, random_state=0)
    monkeypatch.setattr(R, "POISSON_MIN_ROWS", 10**9)
    uniform = bootstrap_ci(roc_auc_score, y, s, n_resamples=3000, random_state=0)
    assert not np.array_equal(poisson.distribution, uniform.distribution)
    assert poisson.standard_error == pytest.approx(uniform.standard_error, rel=0.06)
    assert (poisson.low, poisson.high) == pytest.approx((uniform.low, uniform.high), abs=0.003)


def test_bca_on_the_poisson_path_agrees_with_scipy(monkeypatch):
    """BCa keeps its meaning on the Poisson draw: scipy.stats.bootstrap's BCa of the same
    ROC AUC (a skewed one, near 1, where BCa moves the ends) agrees within Monte Carlo."""
    monkeypatch.setattr(R, "POISSON_MIN_ROWS", 2)
    rng = np.random.default_rng(12)
    n = 800
    y = (rng.random(n) < 0.3).astype(int)
    s = rng.normal(size=n) + 2.5 * y

    def auc(yy, ss, axis=-1):
        ranks = stats.rankdata(ss, axis=axis)
        pos = yy == 1
        n_pos = pos.sum(axis=axis)
        rank_sum = np.where(pos, ranks, 0.0).sum(axis=axis)
        return (rank_sum - n_pos * (n_pos + 1) / 2.0) / (n_pos * (yy.shape[axis] - n_pos))

    ref = {}
    for method in ("percentile", "BCa"):
        ref[method] = stats.bootstrap(
            (y, s),
            auc,
            paired=True,
            vectorized=True,
            n_resamples=10_000,
            method=method,
            rng=np.random.default_rng(3),
            batch=500,
        ).confidence_interval
    ours = {
        m: bootstrap_ci(roc_auc_score, y, s, n_resamples=10_000, method=m, random_state=3)
        for m in ("percentile", "bca")
    }
    se = ours["bca"].standard_error
    assert (ours["bca"].low, ours["bca"].high) == pytest.approx(
        (ref["BCa"].low, ref["BCa"].high), abs=0.12 * se
    )
    # BCa moves both ends down here (the AUC is skewed towards 0.5); as much as scipy's
    shift = ours["bca"].low - ours["percentile"].low
    ref_shift = ref["BCa"].low - ref["percentile"].low
    assert ref_shift < -0.1 * se and shift == pytest.approx(ref_shift, abs=0.12 * se)
