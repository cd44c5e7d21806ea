"""metrics.threshold (gain, lift, KS, CAP, decision and cost curves) against slow references."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats
import sklearn.metrics as skm

from metrics import (
    accuracy_ratio,
    cap_curve,
    cost_curve,
    cumulative_gain_curve,
    decision_curve,
    ks_statistic,
    lift_at,
    lift_curve,
    net_benefit,
    roc_curve,
)
from metrics._validation import MetricInputError
from metrics.states import BinaryState
from metrics.threshold import roc_hull

ALL = (cumulative_gain_curve, lift_curve, lift_at, cap_curve, accuracy_ratio, ks_statistic)


def _data(seed: int, n: int = 300, ties: bool = True, weights: bool = False):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.35).astype(int)
    s = rng.random(n) * 0.6 + 0.4 * y
    if ties:
        s = np.round(s, 1)
    w = rng.integers(0, 4, n).astype(float) if weights else None
    return y, s, w


# --- slow references: one threshold (or fraction) at a time --------------------------------
def ref_gain(y, s, w):
    w = np.ones(len(y)) if w is None else w
    keep = w > 0
    y, s, w = y[keep], s[keep], w[keep]
    xs, gs = [0.0], [0.0]
    for t in sorted(set(s.tolist()), reverse=True):
        sel = s >= t
        xs.append(w[sel].sum() / w.sum())
        gs.append(w[sel & (y == 1)].sum() / w[y == 1].sum())
    return np.array(xs), np.array(gs)


def ref_lift_at(y, s, w, f):
    """Take the top ``f`` of the weight; a tie block cut in part gives its share of positives."""
    w = np.ones(len(y)) if w is None else w
    total, pos_total, need, got = w.sum(), w[y == 1].sum(), f * w.sum(), 0.0
    for t in sorted(set(s.tolist()), reverse=True):
        block = s == t
        bw, bp = w[block].sum(), w[block & (y == 1)].sum()
        take = min(bw, need)
        if bw > 0:
            got += bp * take / bw
        need -= take
        if need <= 0:
            break
    return (got / pos_total) / (f * total / total)


def ref_net_benefit(y, p, w, pt):
    w = np.ones(len(y)) if w is None else w
    treat = p >= pt
    tp = w[treat & (y == 1)].sum()
    fp = w[treat & (y == 0)].sum()
    return tp / w.sum() - fp / w.sum() * pt / (1 - pt)


@pytest.mark.parametrize(
    "seed, ties, weights", [(0, True, False), (1, False, False), (2, True, True)]
)
def test_gain_lift_cap_against_the_slow_reference(seed, ties, weights):
    y, s, w = _data(seed, ties=ties, weights=weights)
    x, g, t = cumulative_gain_curve(y, s, sample_weight=w, drop_intermediate=False)
    rx, rg = ref_gain(y, s, w)
    np.testing.assert_allclose(x, rx, rtol=1e-12)
    np.testing.assert_allclose(g, rg, rtol=1e-12)
    assert t[0] == np.inf and np.all(np.diff(t[1:]) < 0)
    # by default the points roc_curve drops are dropped (a linear map keeps straight runs)
    kept = cumulative_gain_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(kept[2], roc_curve(y, s, sample_weight=w)[2])
    np.testing.assert_allclose(np.interp(x, kept[0], kept[1]), g, rtol=1e-12)
    lx, lift, _ = lift_curve(y, s, sample_weight=w, drop_intermediate=False)
    np.testing.assert_allclose(lift, rg[1:] / rx[1:], rtol=1e-12)
    for f in (0.05, 0.1, 0.333, 0.5, 1.0):
        assert lift_at(y, s, f, sample_weight=w) == pytest.approx(ref_lift_at(y, s, w, f), 1e-12)
    np.testing.assert_allclose(
        lift_at(y, s, [0.1, 0.5], sample_weight=w),
        [ref_lift_at(y, s, w, 0.1), ref_lift_at(y, s, w, 0.5)],
        rtol=1e-12,
    )
    cx, captured, perfect = cap_curve(y, s, sample_weight=w, drop_intermediate=False)
    ww = np.ones(len(y)) if w is None else w
    prevalence = ww[y == 1].sum() / ww.sum()
    np.testing.assert_allclose(perfect, np.minimum(rx / prevalence, 1.0), rtol=1e-12)
    # the accuracy ratio is the Gini coefficient, ties counted half
    auc = skm.roc_auc_score(y, s, sample_weight=w)
    assert accuracy_ratio(y, s, sample_weight=w) == pytest.approx(2 * auc - 1, abs=1e-12)


@pytest.mark.parametrize("seed, ties", [(3, True), (4, False)])
def test_ks_equals_scipy_two_sample_statistic_and_its_threshold_reaches_it(seed, ties):
    y, s, _ = _data(seed, ties=ties)
    stat, thr = ks_statistic(y, s)
    assert stat == pytest.approx(scipy.stats.ks_2samp(s[y == 1], s[y == 0]).statistic, abs=1e-12)
    gaps = {t: abs((s[y == 1] >= t).mean() - (s[y == 0] >= t).mean()) for t in set(s.tolist())}
    assert gaps[thr] == pytest.approx(stat, abs=1e-12)
    assert thr == max(t for t, g in gaps.items() if g == pytest.approx(stat, abs=1e-12))


@pytest.mark.parametrize("weights", [False, True])
def test_net_benefit_and_decision_curve_against_the_slow_reference(weights):
    y, s, w = _data(5, weights=weights)
    pts = np.round(np.arange(0, 100) / 100, 2)
    pt, model, everyone, no_one = decision_curve(y, s, sample_weight=w)
    np.testing.assert_array_equal(pt, pts)
    ref = [ref_net_benefit(y, s, w, p) for p in pts]
    np.testing.assert_allclose(model, ref, rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(
        everyone, [ref_net_benefit(y, np.ones_like(s), w, p) for p in pts], rtol=1e-12, atol=1e-15
    )
    assert not no_one.any()
    assert net_benefit(y, s, 0.3, sample_weight=w) == pytest.approx(ref_net_benefit(y, s, w, 0.3))


def test_decision_curve_matches_hand_computed_net_benefit():
    # 10 patients, 4 with the outcome; at pt = 0.25 the 5 scoring >= 0.25 hold 3 cases:
    # NB = 3/10 - 2/10 * (0.25 / 0.75) = 0.2333...; treat all = 0.4 - 0.6 / 3 = 0.2
    y = [1, 1, 0, 1, 0, 0, 1, 0, 0, 0]
    p = [0.9, 0.7, 0.6, 0.4, 0.25, 0.2, 0.1, 0.1, 0.05, 0.01]
    _, model, everyone, _ = decision_curve(y, p, thresholds=[0.25])
    assert model[0] == pytest.approx(0.3 - 0.2 / 3) and everyone[0] == pytest.approx(0.2)


@pytest.mark.parametrize("seed, weights", [(6, False), (7, True)])
def test_cost_curve_is_the_lower_envelope_of_every_roc_points_cost_line(seed, weights):
    y, s, w = _data(seed, n=400, weights=weights)
    pc, cost, thr = cost_curve(y, s, sample_weight=w)
    fpr, tpr, roc_thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    grid = np.linspace(0, 1, 201)
    brute = np.min((1 - tpr)[None, :] * grid[:, None] + fpr[None, :] * (1 - grid[:, None]), axis=1)
    np.testing.assert_allclose(np.interp(grid, pc, cost), brute, atol=1e-12)
    assert pc[0] == 0 and pc[-1] == 1 and np.all(np.diff(pc) >= 0)
    # each segment's threshold is a ROC threshold whose line is the envelope there
    mid = (pc[:-1] + pc[1:]) / 2
    at = {t: i for i, t in enumerate(roc_thr)}
    own = [(1 - tpr[at[t]]) * m + fpr[at[t]] * (1 - m) for t, m in zip(thr, mid, strict=True)]
    np.testing.assert_allclose(own, np.interp(mid, pc, cost), atol=1e-12)


def test_roc_hull_of_a_staircase_keeps_only_the_convex_corners():
    fpr = np.array([0.0, 0.0, 0.25, 0.25, 0.5, 0.5, 1.0, 1.0])
    tpr = np.array([0.0, 0.5, 0.5, 0.6, 0.6, 1.0, 1.0, 1.0])
    assert roc_hull(fpr, tpr).tolist() == [0, 1, 5, 7]


@pytest.mark.parametrize("fn", ALL + (cost_curve, decision_curve))
def test_a_single_class_is_refused_naming_what_is_missing(fn):
    with pytest.raises(MetricInputError, match="no negative sample"):
        fn([1, 1, 1], [0.2, 0.5, 0.9])
    with pytest.raises(MetricInputError, match="no positive sample"):
        fn([1, 0, 0], [0.2, 0.5, 0.9], sample_weight=[0, 1, 1])


def test_bad_fractions_are_refused():
    with pytest.raises(MetricInputError, match=r"fraction must lie in \(0, 1\]; got 0.0"):
        lift_at([0, 1], [0.1, 0.9], 0.0)
    with pytest.raises(
        MetricInputError, match=r"thresholds must lie in \[0, 1\); got 1.0 at index 1"
    ):
        decision_curve([0, 1], [0.1, 0.9], thresholds=[0.5, 1.0])


@pytest.mark.parametrize("weights", [False, True])
def test_the_state_gives_gain_lift_and_ks_equal_to_the_in_memory_functions(weights):
    y, s, w = _data(8, n=500, weights=weights)
    parts = [slice(0, 123), slice(123, 400), slice(400, 500)]
    state = BinaryState.empty()
    for p in parts:
        state = state.merge(BinaryState.from_chunk(y[p], s[p], None if w is None else w[p]))
    for got, want in zip(
        state.cumulative_gain_curve(), cumulative_gain_curve(y, s, sample_weight=w), strict=True
    ):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    assert state.lift_at(0.1) == pytest.approx(lift_at(y, s, 0.1, sample_weight=w), rel=1e-12)
    assert state.ks_statistic() == pytest.approx(ks_statistic(y, s, sample_weight=w), rel=1e-12)
    for got, want in zip(
        state.decision_curve(), decision_curve(y, s, sample_weight=w), strict=True
    ):
        np.testing.assert_allclose(got, want, rtol=1e-12, atol=1e-15)
    for got, want in zip(state.cost_curve(), cost_curve(y, s, sample_weight=w), strict=True):
        np.testing.assert_allclose(got, want, rtol=1e-12)
    out = state.finalize()
    assert out["ks_statistic"] == list(state.ks_statistic()) and out["lift_at"] == state.lift_at()
