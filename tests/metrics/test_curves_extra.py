"""The curves page's additions to metrics.curves, against slow, obvious references."""

from __future__ import annotations

import math

import numpy as np
import pytest
import sklearn.metrics as skm

from metrics._validation import MetricInputError
from metrics.classification import log_loss_per_sample
from metrics.curves import auc_rank, roc_curve
from metrics.explain.curves import (
    auc_rank_table,
    calibration_bins,
    counts_at,
    optimal_thresholds,
    optimal_thresholds_from_counts,
    per_sample_outcomes,
    predict_at_threshold,
    rates_at_threshold,
    reduce_curve,
    threshold_counts,
    threshold_outcomes,
    threshold_table,
    threshold_table_from_counts,
)
from tests.conftest import binary_case, weights


def _counts(y, s, t, w=None):
    w = np.ones(len(y)) if w is None else w
    tp = fp = fn = tn = 0.0
    for yi, si, wi in zip(y, s, w, strict=True):
        if si >= t:
            tp, fp = (tp + wi, fp) if yi == 1 else (tp, fp + wi)
        else:
            fn, tn = (fn + wi, tn) if yi == 1 else (fn, tn + wi)
    return tp, fp, fn, tn


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("beta", [0.5, 1.0, 2.0])
def test_rates_at_threshold_match_loops_and_sklearn(seed, weighted, beta):
    y, s = binary_case(seed)
    w = weights(seed, len(y)) if weighted else None
    for t in (0.0, 0.2, 0.4, 0.5, 0.61, 1.0, 2.0):
        r = rates_at_threshold(y, s, t, beta=beta, sample_weight=w)
        tp, fp, fn, tn = _counts(y, s, t, w)
        assert (r["tp"], r["fp"], r["fn"], r["tn"]) == pytest.approx((tp, fp, fn, tn))
        pred = (s >= t).astype(int)
        kw = dict(sample_weight=w, zero_division=0)
        assert r["precision"] == pytest.approx(skm.precision_score(y, pred, **kw))
        assert r["recall"] == pytest.approx(skm.recall_score(y, pred, **kw))
        assert r["f1"] == pytest.approx(skm.f1_score(y, pred, **kw))
        assert r["fbeta"] == pytest.approx(skm.fbeta_score(y, pred, beta=beta, **kw))
        acc = skm.accuracy_score(y, pred, sample_weight=w)
        assert r["accuracy"] == pytest.approx(acc)
        assert r["error_rate"] == pytest.approx(1 - acc)
        assert r["fpr"] == pytest.approx(fp / (fp + tn))


def test_predictions_and_outcomes():
    y, s = [1, 0, 1, 0], [0.5, 0.5, 0.2, 0.1]
    assert predict_at_threshold(s, 0.5).tolist() == [1, 1, 0, 0]
    assert threshold_outcomes(y, s, 0.5).tolist() == ["TP", "FP", "FN", "TN"]
    with pytest.raises(MetricInputError, match="threshold"):
        predict_at_threshold(s, float("nan"))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("drop", [False, True])
def test_threshold_table_matches_roc_curve_and_loops(seed, weighted, drop):
    y, s = binary_case(seed)
    w = weights(seed, len(y)) if weighted else None
    t = threshold_table(y, s, sample_weight=w, drop_intermediate=drop)
    fpr, tpr, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
    np.testing.assert_allclose(t["fpr"], fpr)
    np.testing.assert_allclose(t["tpr"], tpr)
    np.testing.assert_array_equal(t["threshold"], thr)
    for _, row in t.iloc[1:].iterrows():
        assert (row.tp, row.fp, row.fn, row.tn) == pytest.approx(_counts(y, s, row.threshold, w))


def test_threshold_table_seed002_and_ties():
    t = threshold_table([1, 0, 1, 0, 0, 0], [0.9, 0.7, 0.8, 0.6, 0.5, 0.4])
    assert t["tp"].tolist() == [0, 1, 2, 2, 2, 2, 2]
    assert t["fp"].tolist() == [0, 0, 0, 1, 2, 3, 4]
    tied = threshold_table([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.1])
    # the block of three tied scores is one row: one diagonal step (0,0) -> (0.5,1)
    assert tied[["fpr", "tpr"]].values.tolist() == [[0, 0], [0.5, 1], [1, 1]]
    assert tied["n_tied"].tolist() == [0, 3, 1]


def _slow_best(y, s, w, score, feasible=lambda r: True):
    """The highest of the best thresholds, +inf (predict nothing) first."""
    best, best_t = -math.inf, None
    for t in [math.inf, *sorted(set(s), reverse=True)]:
        # +inf predicts nothing, as any threshold above the highest score does
        r = rates_at_threshold(y, s, max(s) + 1.0 if t == math.inf else t, sample_weight=w)
        if feasible(r) and score(r) > best + 1e-12:
            best, best_t = score(r), t
    return best_t


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_optimal_thresholds_match_brute_force(seed, weighted):
    y, s = binary_case(seed, ties=seed % 2 == 0)
    w = weights(seed, len(y)) if weighted else None
    beta, cfp, cfn, mr, mp = 2.0, 1.0, 5.0, 0.8, 0.6
    o = optimal_thresholds(
        y, s, beta=beta, cost_fp=cfp, cost_fn=cfn, min_recall=mr, min_precision=mp, sample_weight=w
    )

    def fb(r):
        return rates_at_threshold(y, s, r["t"], beta=beta, sample_weight=w)["fbeta"]

    cases = {
        "max_fbeta": (
            lambda r: (1 + 4) * r["tp"] / max((1 + 4) * r["tp"] + 4 * r["fn"] + r["fp"], 1e-300),
            lambda r: True,
        ),
        "youden": (lambda r: r["tpr"] - r["fpr"], lambda r: True),
        "min_cost": (lambda r: -(cfp * r["fp"] + cfn * r["fn"]), lambda r: True),
        "recall_at_least": (lambda r: r["precision"], lambda r: r["recall"] >= mr),
        "precision_at_least": (lambda r: r["recall"], lambda r: r["precision"] >= mp),
    }
    for name, (score, feasible) in cases.items():
        expected = _slow_best(y, s, w, score, feasible)
        got = o.loc[name, "threshold"]
        if expected is None:
            assert np.isnan(got), name
        else:
            assert got == expected, name


def test_predict_nothing_is_a_candidate():
    # the two highest scores are negatives: with FP dear, predicting nothing is cheapest
    y, s = [0, 0, 1, 1, 0], [0.9, 0.8, 0.7, 0.6, 0.1]
    o = optimal_thresholds(y, s, cost_fp=2.0, cost_fn=1.0)
    assert o.loc["min_cost", "threshold"] == math.inf
    assert o.loc["min_cost", ["value", "tp", "fp", "fn", "tn"]].tolist() == [2.0, 0, 0, 2, 3]
    assert o.loc["min_cost", ["tpr", "fpr", "precision"]].tolist() == [0, 0, 0]
    # with FN dear, a score wins; J never exceeds 0 here: the tie goes to +inf (highest)
    assert optimal_thresholds(y, s, cost_fn=2.0).loc["min_cost", "threshold"] == 0.6
    worst = optimal_thresholds([1, 0], [0.1, 0.9])
    assert worst.loc["youden", "threshold"] == math.inf and worst.loc["youden", "value"] == 0
    # +inf has precision 0 and recall 0: it meets no precision constraint > 0 and
    # no recall constraint > 0, and never wins F-beta
    assert worst.loc["max_fbeta", "threshold"] == 0.1
    assert math.isnan(worst.loc["precision_at_least", "threshold"])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("drop", [False, True])
def test_from_counts_equal_the_direct_functions(seed, weighted, drop):
    y, s = binary_case(seed, ties=seed % 2 == 0)
    w = weights(seed, len(y)) if weighted else None
    counts = threshold_counts(y, s, sample_weight=w)
    thr, tp, fp = counts
    assert thr[0] == math.inf and tp[0] == fp[0] == 0
    assert np.all(np.diff(thr) < 0)
    full = threshold_table(y, s, sample_weight=w, drop_intermediate=drop)
    table = threshold_table_from_counts(counts, drop_intermediate=drop)
    assert table.equals(full) and table.attrs["n_rows"] == len(full)
    head = threshold_table_from_counts(counts, drop_intermediate=drop, max_rows=3)
    assert head.equals(full.head(3)) and head.attrs["n_rows"] == len(full)
    kw = dict(beta=0.5, cost_fp=3.0, cost_fn=1.0, min_recall=0.5, min_precision=0.4)
    direct = optimal_thresholds(y, s, sample_weight=w, **kw)
    assert optimal_thresholds_from_counts(counts, **kw).equals(direct)


def test_from_counts_refuse_other_arrays():
    with pytest.raises(MetricInputError, match="counts"):
        optimal_thresholds_from_counts(np.zeros(3))
    with pytest.raises(MetricInputError, match=r"\+inf row"):
        threshold_table_from_counts(([0.5, 0.1], [1.0, 1.0], [0.0, 1.0]))
    with pytest.raises(MetricInputError, match="one length"):
        threshold_table_from_counts(([np.inf, 0.5], [0.0, 1.0], [0.0]))
    with pytest.raises(MetricInputError, match="max_rows"):
        threshold_table_from_counts(threshold_counts([0, 1], [0.2, 0.8]), max_rows=0)


def test_optimal_thresholds_infeasible_and_bad_input():
    o = optimal_thresholds([0, 1, 0, 1], [0.9, 0.8, 0.7, 0.1], min_precision=1.0)
    assert np.isnan(o.loc["precision_at_least", "threshold"])
    with pytest.raises(MetricInputError, match="cost_fp"):
        optimal_thresholds([0, 1], [0.1, 0.9], cost_fp=-1)


def _max_dist_to_polyline(px, py, qx, qy):
    """Largest vertical gap between the exact curve and the drawn one at the exact x."""
    return float(np.max(np.abs(np.interp(px, qx, qy) - py)))


@pytest.mark.parametrize("n", [50, 20_000, 200_000])
def test_reduce_curve_keeps_vertices_and_stays_close(n):
    rng = np.random.default_rng(n)
    y = (rng.random(n) < 0.3).astype(int)
    s = np.round(rng.random(n) + 0.6 * y, 4)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    keep = reduce_curve(fpr, tpr, max_points=2000)
    assert keep[0] == 0 and keep[-1] == fpr.shape[0] - 1
    assert np.all(np.diff(keep) > 0)
    assert keep.shape[0] <= 2000 + 4
    if fpr.shape[0] <= 2000:
        assert keep.tolist() == list(range(fpr.shape[0]))
    # a short curve is drawn whole, every threshold keeps its hover
    # the drawn curve's area is the exact area to within a column width
    drawn = np.trapezoid(tpr[keep], fpr[keep])
    assert drawn == pytest.approx(np.trapezoid(tpr, fpr), abs=4 / 500)


def test_reduce_curve_drops_only_collinear_points():
    x, y = [0, 0, 0, 0.5, 1], [0, 0.5, 1, 1, 1]
    assert reduce_curve(x, y).tolist() == [0, 1, 2, 3, 4]  # short: kept whole
    assert reduce_curve(x, y, max_points=4).tolist() == [0, 2, 4]
    # a long curve with few corners: step 1 alone keeps exactly the corners
    y = np.repeat([0, 1, 0, 1, 0, 1], [1000, 1000, 1000, 1000, 1000, 1000])
    s = np.repeat(np.arange(6.0), 1000) + np.tile(np.linspace(0, 0.5, 1000), 6)
    fpr, tpr, _ = roc_curve(y, s, drop_intermediate=False)
    keep = reduce_curve(fpr, tpr, max_points=100)
    corners = [(0.0, 0.0), (0.0, 1 / 3), (1 / 3, 1 / 3), (1 / 3, 2 / 3), (2 / 3, 2 / 3)]
    corners += [(2 / 3, 1.0), (1.0, 1.0)]
    np.testing.assert_allclose(np.c_[fpr[keep], tpr[keep]], corners, atol=1e-12)
    # a decreasing x (recall of precision_recall_curve) works too
    x = np.linspace(1, 0, 10_001)
    y = np.sin(x * 40)
    keep = reduce_curve(x, y, max_points=400)
    assert keep[0] == 0 and keep[-1] == 10_000 and keep.shape[0] <= 404
    assert y[keep].max() == y.max() and y[keep].min() == y.min()


@pytest.mark.parametrize("weighted", [False, True])
def test_calibration_bins_against_loop(weighted):
    y, _ = binary_case(3)
    rng = np.random.default_rng(3)
    p = np.round(rng.random(len(y)), 2)
    p[:2] = [0.0, 1.0]
    w = weights(3, len(y)) if weighted else np.ones(len(y))
    c = calibration_bins(y, p, n_bins=5, sample_weight=w if weighted else None)
    for b in range(5):
        members = [i for i in range(len(y)) if min(int(p[i] * 5), 4) == b]
        assert c.loc[b, "count"] == len(members)
        ws = sum(w[i] for i in members)
        if ws:
            assert c.loc[b, "mean_predicted"] == pytest.approx(
                sum(w[i] * p[i] for i in members) / ws
            )
            assert c.loc[b, "fraction_positive"] == pytest.approx(
                sum(w[i] * y[i] for i in members) / ws
            )
    with pytest.raises(MetricInputError, match="y_prob"):
        calibration_bins([0, 1], [0.5, 1.5])


@pytest.mark.parametrize("seed", range(4))
def test_auc_rank_table(seed):
    y, s = binary_case(seed)
    t = auc_rank_table(y, s)
    assert t.attrs["auc"] == pytest.approx(auc_rank(y, s))
    assert t.attrs["auc"] == pytest.approx(skm.roc_auc_score(y, s))
    assert t.attrs["rank_sum"] == pytest.approx(t.loc[t["label"] == 1, "mid_rank"].sum())
    assert list(t["score"]) == sorted(s)


def test_per_sample_outcomes():
    y = np.array([1, 0, 1, 0, 1])
    s = np.array([0.9, 0.9, 0.2, 0.05, 0.6])
    d = per_sample_outcomes(y, s, 0.5)
    assert d["rank"].tolist() == [1, 1, 4, 5, 3]
    assert d["outcome"].tolist() == ["TP", "FP", "FN", "TN", "TP"]
    np.testing.assert_allclose(d["log_loss_term"], log_loss_per_sample(y, s))
    assert np.isnan(per_sample_outcomes(y, s * 3, 0.5)["log_loss_term"]).all()
    free = per_sample_outcomes(y, s, None)
    assert free.equals(d.drop(columns=["prediction", "outcome"]))


@pytest.mark.parametrize("seed", range(4))
def test_per_sample_rank_is_one_plus_the_higher_scores(seed):
    y, s = binary_case(seed, ties=True)
    want = [1 + int(np.sum(s > v)) for v in s]
    assert per_sample_outcomes(y, s, None)["rank"].tolist() == want


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_auc_four_ways(seed, weighted):
    from metrics.curves import auc_histogram
    from metrics.explain.curves import auc_four_ways

    y, s = binary_case(seed)
    w = weights(seed, len(y)) if weighted else None
    r = auc_four_ways(y, s, n_bins=7, sample_weight=w)
    exact = skm.roc_auc_score(y, s)
    assert r["trapezoid"] == pytest.approx(skm.roc_auc_score(y, s, sample_weight=w))
    assert r["pairwise"] == pytest.approx(exact) and r["rank"] == pytest.approx(exact)
    assert r["histogram"] == pytest.approx(auc_histogram(y, s, n_bins=7))
    assert r["histogram_error"] == pytest.approx(r["histogram"] - exact)
    assert r["gini"] == pytest.approx(2 * exact - 1)
    off = auc_four_ways(y, s * 2, n_bins=7)
    assert np.isnan(off["histogram"]) and "[0, 1]" in off["histogram_message"]


@pytest.mark.parametrize("seed", range(6))
@pytest.mark.parametrize("weighted", [False, True])
def test_counts_at_are_the_counts_of_rates_at_threshold(seed, weighted):
    y, s = binary_case(seed, ties=seed % 2 == 0)
    w = weights(seed, len(y)) if weighted else None
    ts = np.concatenate([np.unique(s), [s.min() - 1.0, s.max() + 1.0, 0.33, 0.5]])
    got = counts_at(threshold_counts(y, s, sample_weight=w), ts[::-1])
    for i, t in enumerate(ts[::-1]):
        want = rates_at_threshold(y, s, t, sample_weight=w)
        for name, cells in zip(("tp", "fp", "fn", "tn"), got, strict=True):
            if weighted:  # running sums against masked sums: the last bits may differ
                assert cells[i] == pytest.approx(want[name], rel=1e-12, abs=1e-12)
            else:
                assert cells[i] == want[name]


def test_counts_at_refuses_a_threshold_that_is_no_finite_number():
    counts = threshold_counts([1, 0, 1], [0.9, 0.2, 0.4])
    with pytest.raises(MetricInputError, match=r"thresholds\[1\] is nan"):
        counts_at(counts, [0.5, np.nan])
    with pytest.raises(MetricInputError, match="threshold_counts"):
        counts_at([0.5], [0.5])
