"""metrics.calibration against scikit-learn's calibration_curve and slow per-bin references."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.calibration import calibration_curve

from metrics import calibration_error, reliability_diagram
from metrics._cell_bootstrap import resampled_cell_weights
from metrics._resample import draw_counts
from metrics._validation import MetricInputError
from metrics.states import BinaryState


def _data(seed: int, n: int = 400, round_to=2):
    rng = np.random.default_rng(seed)
    p = np.round(rng.random(n), round_to)
    y = (rng.random(n) < p**1.5).astype(int)  # over-confident: a real gap to measure
    return y, p


def ref_error(y, p, w, n_bins, strategy, norm, debiased=False):
    """One bin at a time, the rule written out: p in (edge[b], edge[b + 1]], the first closed."""
    w = np.ones(len(y)) if w is None else np.asarray(w, float)
    keep = w > 0
    y, p, w = y[keep], p[keep], w[keep]
    if strategy == "uniform":
        edges = [b / n_bins for b in range(n_bins + 1)]
    else:
        edges = np.percentile(p, np.linspace(0, 100, n_bins + 1)).tolist()
    total, parts = w.sum(), []
    for b in range(n_bins):
        lo, hi = edges[b], edges[b + 1]
        if b == 0:
            inside = p <= hi
        elif b == n_bins - 1:
            inside = p > lo
        else:
            inside = (p > lo) & (p <= hi)
        if w[inside].sum() == 0:
            continue
        o = (w[inside] * y[inside]).sum() / w[inside].sum()
        e = (w[inside] * p[inside]).sum() / w[inside].sum()
        sq = (o - e) ** 2
        if debiased:
            k = inside.sum()
            sq = sq - o * (1 - o) / (k - 1) if k > 1 else 0.0
        parts.append((w[inside].sum() / total, abs(o - e), sq))
    share, gap, sq = (np.array(v) for v in zip(*parts, strict=True))
    if norm == "max":
        return gap.max()
    if norm == "l1":
        return share @ gap
    return np.sqrt(max(share @ sq, 0.0))


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("n_bins", [5, 10, 15])
def test_bins_equal_sklearn_calibration_curve(strategy, n_bins):
    y, p = _data(n_bins, round_to=1 if strategy == "uniform" else 2)  # values on the edges too
    d = reliability_diagram(y, p, n_bins=n_bins, strategy=strategy, n_resamples=20)
    prob_true, prob_pred = calibration_curve(y, p, n_bins=n_bins, strategy=strategy)
    full = d.count > 0
    np.testing.assert_allclose(d.fraction_positive[full], prob_true, rtol=1e-12)
    np.testing.assert_allclose(d.mean_predicted[full], prob_pred, rtol=1e-12)
    assert np.isnan(d.fraction_positive[~full]).all()


@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
@pytest.mark.parametrize("norm", ["l1", "l2", "max"])
@pytest.mark.parametrize("weighted", [False, True])
def test_error_equals_the_slow_reference(strategy, norm, weighted):
    y, p = _data(1)
    w = np.random.default_rng(2).integers(0, 3, len(y)).astype(float) if weighted else None
    got = calibration_error(y, p, n_bins=10, strategy=strategy, norm=norm, sample_weight=w)
    assert got == pytest.approx(ref_error(y, p, w, 10, strategy, norm), rel=1e-12)


def test_the_debiased_estimator_removes_the_sampling_variance_of_a_calibrated_model():
    y, p = _data(3)
    got = calibration_error(y, p, norm="l2", debiased=True)
    assert got == pytest.approx(ref_error(y, p, None, 10, "uniform", "l2", debiased=True))
    # a perfectly calibrated model: the plain estimator is biased up, the debiased one far less
    rng = np.random.default_rng(4)
    plain, debiased = [], []
    for _ in range(40):
        q = rng.random(300)
        yy = (rng.random(300) < q).astype(int)
        plain.append(calibration_error(yy, q, norm="l2") ** 2)
        debiased.append(calibration_error(yy, q, norm="l2", debiased=True) ** 2)
    assert np.mean(debiased) < np.mean(plain) / 3


def test_bad_options_and_probabilities_are_refused():
    with pytest.raises(MetricInputError, match=r"found 1.5 at y_prob\[1\] \(row 1\)"):
        calibration_error([0, 1], [0.2, 1.5])
    with pytest.raises(MetricInputError, match="debiased=True is the l2 estimator"):
        calibration_error([0, 1], [0.2, 0.5], debiased=True)
    with pytest.raises(MetricInputError, match="not defined with sample_weight"):
        calibration_error([0, 1], [0.2, 0.5], norm="l2", debiased=True, sample_weight=[1, 2])
    with pytest.raises(MetricInputError, match="strategy must be"):
        calibration_error([0, 1], [0.2, 0.5], strategy="kmeans")


def test_a_single_class_still_has_a_calibration_error():
    assert calibration_error([0, 0], [0.2, 0.4], n_bins=2) == pytest.approx(0.3)


@pytest.mark.parametrize("weights", [False, True])
@pytest.mark.parametrize("strategy", ["uniform", "quantile"])
def test_the_state_gives_the_same_error(weights, strategy):
    if weights and strategy == "quantile":
        pytest.skip("quantile edges need counts (refused for a weighted state below)")
    y, p = _data(5, n=600)
    w = np.random.default_rng(6).random(600) if weights else None
    state = BinaryState.empty()
    for lo in (0, 200, 450):
        hi = {0: 200, 200: 450, 450: 600}[lo]
        state = state.merge(
            BinaryState.from_chunk(y[lo:hi], p[lo:hi], None if w is None else w[lo:hi])
        )
    for norm in ("l1", "l2", "max"):
        want = calibration_error(y, p, strategy=strategy, norm=norm, sample_weight=w)
        assert state.calibration_error(strategy=strategy, norm=norm) == pytest.approx(
            want, rel=1e-12
        )
    if not weights:
        want = calibration_error(y, p, strategy=strategy, norm="l2", debiased=True)
        assert state.calibration_error(
            strategy=strategy, norm="l2", debiased=True
        ) == pytest.approx(want)
        assert state.finalize()["calibration_error"] == pytest.approx(calibration_error(y, p))
    else:
        with pytest.raises(MetricInputError, match="needs counts"):
            state.calibration_error(strategy="quantile")


def test_weighted_cell_bootstrap_sums_each_resamples_weights_per_cell():
    rng = np.random.default_rng(7)
    cells = rng.integers(0, 5, 300)
    cells[cells == 3] = 4  # an empty cell stays 0
    w = rng.random(300)
    got = resampled_cell_weights(cells, 5, w, 30, np.random.default_rng(8))
    counts = draw_counts(np.random.default_rng(8), 30, 300)
    want = np.array([[np.sum(c[cells == k] * w[cells == k]) for k in range(5)] for c in counts])
    np.testing.assert_allclose(got, want, rtol=1e-12)


def test_reliability_bands_hold_the_bin_fraction_and_cover_the_truth():
    # calibrated scores: each bin's true positive rate is about its mean probability
    rng = np.random.default_rng(9)
    hits = total = 0
    for _ in range(30):
        q = rng.random(2000)
        y = (rng.random(2000) < q).astype(int)
        d = reliability_diagram(y, q, n_bins=5, n_resamples=300, random_state=rng)
        assert np.all((d.band_low <= d.fraction_positive) & (d.fraction_positive <= d.band_high))
        truth = (d.lower + d.upper) / 2  # E[q | bin] for uniform q
        hits += int(np.sum((d.band_low <= truth) & (truth <= d.band_high)))
        total += 5
    assert 0.88 <= hits / total <= 1.0


def test_the_bins_of_an_ascending_table_are_those_of_a_search_row_by_row():
    # a table's bins are read as runs between its cuts at the inner edges: the same bin for
    # every row as np.searchsorted of the row, scores on an edge and repeated edges included
    from metrics.calibration import _bin_cuts

    rng = np.random.default_rng(5)
    for trial in range(200):
        n_bins = int(rng.integers(1, 12))
        pool = np.concatenate([np.linspace(0, 1, 11), rng.random(20)])
        s = np.sort(rng.choice(pool, int(rng.integers(1, 150))))
        edges = np.linspace(0, 1, n_bins + 1)
        if trial % 2:  # quantile-like edges, some equal
            edges = np.sort(np.concatenate([[0.0], rng.choice(s, n_bins - 1), [1.0]]))
        want = np.searchsorted(edges[1:-1], s)
        got = np.repeat(np.arange(n_bins), np.diff(_bin_cuts(s, edges)))
        assert got.tolist() == want.tolist(), (s, edges)
