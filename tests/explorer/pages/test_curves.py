"""The ROC & PR curves page model (explorer.pages.curves, curves_threshold, curves_samples and
curves_teach), without Streamlit: its
numbers against the metrics package and against plain numpy on small inputs and on
the bundled samples."""

from __future__ import annotations

import math
import sys

import numpy as np
import pytest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import count
from explorer.pages import curves, curves_samples, curves_teach, curves_threshold
from explorer.samples import load_sample
from metrics import confusion_matrix, log_loss
from tests.conftest import binary_case, weights

ROC6 = load_sample("seed002_roc6")  # y 1 0 1 0 0 0, scores 0.9 0.7 0.8 0.6 0.5 0.4
BINARY_SAMPLES = ["seed002_auc8", "seed002_roc6", "balanced", "imbalanced", "heavy_ties"]


def binary(seed: int, n: int = 60, *, weighted: bool = False, ties: bool = True) -> Dataset:
    y, s = binary_case(seed, n, ties=ties)
    return Dataset(f"case{seed}", "binary", y, {"m": s}, weights(seed, n) if weighted else None)


def brute_auc(y, s) -> float:
    """Every positive/negative pair: win 1, tie 1/2."""
    pos, neg = s[y == 1], s[y == 0]
    diff = pos[:, None] - neg[None, :]
    return float(((diff > 0) + 0.5 * (diff == 0)).mean())


def counts_at(y, s, t, w=None) -> dict[str, float]:
    w = np.ones_like(s) if w is None else w
    pred, act = s >= t, y == 1
    return {
        "tp": float(w[pred & act].sum()),
        "fp": float(w[pred & ~act].sum()),
        "fn": float(w[~pred & act].sum()),
        "tn": float(w[~pred & ~act].sum()),
    }


# ------------------------------------------------------------------ curves and rates
def test_curves_of_seed002_roc6_by_hand():
    c = curves.curves(ROC6, "model")
    assert c["fpr"].tolist() == [0, 0, 0, 0.25, 0.5, 0.75, 1]
    assert c["tpr"].tolist() == [0, 0.5, 1, 1, 1, 1, 1]
    assert c["thresholds"][1:].tolist() == [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    assert c["n_roc"] == 7 and c["auc"] == c["trapezoid"] == 1.0 and c["ap"] == 1.0
    assert c["pr_thresholds"][-1] == math.inf


@pytest.mark.parametrize("name", BINARY_SAMPLES)
def test_curves_areas_equal_pairs_and_step_sum(name):
    ds = load_sample(name)
    for model in ds.model_names:
        y, s = ds.y_true, ds.score(model)
        c = curves.curves(ds, model)
        assert c["auc"] == pytest.approx(brute_auc(y, s), abs=1e-12)
        assert c["trapezoid"] == pytest.approx(c["auc"], abs=1e-12)
        # AP: the precision at each positive's own distinct score, averaged over positives
        order = np.argsort(-s, kind="stable")
        distinct = np.unique(s)
        prec = {v: (y[s >= v] == 1).mean() for v in distinct}
        ap = np.mean([prec[v] for v in s[order][y[order] == 1]])
        assert c["ap"] == pytest.approx(ap, abs=1e-12)
        assert c["n_roc"] == len(distinct) + 1 == len(c["fpr"])  # nothing to reduce here


def test_curves_reduce_big_curves_to_max_points_keeping_the_ends():
    rng = np.random.default_rng(0)
    y = (rng.random(50_000) < 0.3).astype(int)
    s = rng.random(50_000)
    c = curves.curves(Dataset("big", "binary", y, {"m": s}), "m")
    fpr, tpr, _ = metrics.roc_curve(y, s, drop_intermediate=False)
    assert c["n_roc"] == len(fpr) > curves.MAX_POINTS >= len(c["fpr"]) - 4
    assert (c["fpr"][0], c["tpr"][0], c["fpr"][-1], c["tpr"][-1]) == (0, 0, 1, 1)
    # every drawn vertex is a vertex of the exact curve
    exact = set(zip(fpr.tolist(), tpr.tolist(), strict=True))
    assert set(zip(c["fpr"].tolist(), c["tpr"].tolist(), strict=True)) <= exact
    assert c["auc"] == pytest.approx(metrics.roc_auc_score(y, s), abs=1e-12)


@pytest.mark.parametrize("weighted", [False, True])
def test_rates_equal_counts_by_numpy(weighted):
    ds = binary(3, weighted=weighted)
    y, s, w = ds.y_true, ds.score("m"), ds.sample_weight
    for t in (0.0, 0.25, 0.5, 0.75, 1.0, 1.5):
        r = curves.rates(ds, "m", t, 2.0)
        want = counts_at(y, s, t, w)
        for k, v in want.items():
            assert r[k] == pytest.approx(v, abs=1e-9), (t, k)
        assert r["n"] == pytest.approx(sum(want.values()), abs=1e-9)
        pred = (s >= t).astype(int)
        fbeta = metrics.fbeta_score(y, pred, beta=2.0, sample_weight=w, zero_division=0.0)
        assert r["fbeta"] == pytest.approx(fbeta, abs=1e-12)


@pytest.mark.parametrize("seed", [3, 4])
@pytest.mark.parametrize("beta", [0.0, 0.5, 2.0])
def test_rates_from_sorted_scores_equal_rates_over_every_sample_to_the_last_bit(seed, beta):
    """Without weights, the two binary searches give the very numbers of the pass over
    every sample: at every distinct score (ties on the threshold), between, and beyond."""
    ds = binary(seed, n=400)
    s = ds.score("m")
    sorted_ = curves.sorted_scores(ds, "m")
    assert [a.tolist() for a in sorted_] == [sorted(s[ds.y_true == 1]), sorted(s[ds.y_true == 0])]
    for t in [*np.unique(s), *(np.unique(s) + 0.01), -1.0, 2.0, math.nextafter(s.max(), 9)]:
        fast = curves.rates(ds, "m", float(t), beta, sorted_)
        slow = metrics.rates_at_threshold(ds.y_true, s, float(t), beta=beta)
        assert {k: fast[k] for k in slow} == slow, t
    # with weights, the sorted scores are not used: the weighted pass gives the counts
    weighted = binary(seed, n=400, weighted=True)
    got = curves.rates(weighted, "m", 0.5, beta, sorted_)
    assert got["tp"] == counts_at(weighted.y_true, s, 0.5, weighted.sample_weight)["tp"]


def test_threshold_counts_are_the_counts_above_every_distinct_score():
    ds = binary(5, weighted=True)
    y, s, w = ds.y_true, ds.score("m"), ds.sample_weight
    thresholds, tps, fps = curves.threshold_counts(ds, "m")
    assert thresholds[0] == math.inf and thresholds[1:].tolist() == np.unique(s)[::-1].tolist()
    for t, tp, fp in zip(thresholds, tps, fps, strict=True):
        want = counts_at(y, s, t, w)
        assert (tp, fp) == pytest.approx((want["tp"], want["fp"]), abs=1e-9)


# ------------------------------------------------------------------ the threshold axis
def axis_of(*scores) -> curves_threshold.ThresholdAxis:
    s = np.array(scores, dtype=float)
    y = (np.arange(s.size) % 2).astype(int)
    return curves_threshold.threshold_axis(Dataset("a", "binary", y, {"m": s}), "m")


def test_threshold_axis_of_probabilities():
    axis = axis_of(0.1, 0.4, 0.9)
    assert (axis.lo, axis.hi, axis.step, axis.stops) == (0.0, 1.0, 0.01, None)
    assert (axis.box_format, axis.slider_format, axis.box_step, axis.default) == (
        "%.4f",
        None,
        0.001,
        0.5,
    )
    # a score of exactly 1.0: the right end lies just above it (predict nothing)
    top = axis_of(0.2, 1.0)
    assert top.hi == math.nextafter(1.0, 2.0) > 1.0


def test_threshold_axis_covers_every_model():
    y = np.array([0, 1, 0, 1])
    ds = Dataset("two", "binary", y, {"a": np.array([0.1, 0.2, 0.3, 0.4]), "b": y * 3.0 - 1})
    axis = curves_threshold.threshold_axis(ds, "a")
    assert (axis.lo, axis.hi) == (-1.0, math.nextafter(2.0, 3.0))
    assert axis.step == 10.0 ** math.floor(math.log10(axis.hi - axis.lo) - 2)  # 0.01


def test_threshold_axis_steps_and_formats_beyond_probabilities():
    logits = axis_of(-20.0, 3.0, 130.0)
    assert logits.step == 1.0 and logits.box_step == 0.001 and logits.box_format == "%.4f"
    tiny = axis_of(0.0, 1e-5, 2e-4)
    assert tiny.box_format == "%.6g" and tiny.step == 0.01
    huge = axis_of(-5.0, 2e9)
    assert huge.box_format == "%.6g" and huge.slider_format == "%.4g"
    assert huge.step == huge.box_step == 1e7  # the power of ten below a hundredth of the range
    largest = axis_of(0.5, sys.float_info.max)
    assert largest.hi == sys.float_info.max and largest.step == 1e306


def test_threshold_axis_steps_through_the_distinct_scores_when_the_range_overflows():
    axis = axis_of(-1e308, 5.0, 1e308, 5.0, -3.0)
    assert axis.step is None and axis.box_step == 1e306
    assert axis.stops.tolist() == [-1e308, -3.0, 5.0, 1e308]
    assert axis.top == 4 and axis.hi > 1e308  # one position above every score
    assert [axis.index_of(t) for t in (-1e308, -4.0, 5.0, 6.0, math.inf)] == [0, 1, 2, 3, 4]
    assert [axis.at_index(i) for i in (0, 2, 4)] == [-1e308, 5.0, axis.hi]
    capped = axis_of(-1e308, sys.float_info.max)
    assert capped.top == 1 and capped.at_index(1) == sys.float_info.max


@pytest.mark.parametrize(
    ("t", "want"),
    [(0.3, 0.3), (-2, 0.0), (7, 1.0), (math.nan, 0.5), (math.inf, 0.5), ("0.3", 0.5), (None, 0.5)],
)
def test_threshold_axis_clamp(t, want):
    assert axis_of(0.1, 0.9).clamp(t) == want


# ------------------------------------------------------------------ candidates
@pytest.mark.parametrize("weighted", [False, True])
def test_optima_are_the_best_thresholds_by_brute_force(weighted):
    ds = binary(7, n=80, weighted=weighted)
    y, s, w = ds.y_true, ds.score("m"), ds.sample_weight
    best = curves.optima(ds, "m", 2.0, 1.0, 3.0, 0.8, 0.6)
    kw = dict(beta=2.0, cost_fp=1.0, cost_fn=3.0, min_recall=0.8, min_precision=0.6)
    assert best.equals(metrics.optimal_thresholds(y, s, sample_weight=w, **kw))
    assert best.equals(
        curves.optima(ds, "m", 2.0, 1.0, 3.0, 0.8, 0.6, curves.threshold_counts(ds, "m"))
    )
    candidates = [math.inf, *np.unique(s)[::-1]]
    rows = [counts_at(y, s, t, w) for t in candidates]
    cost = [r["fp"] + 3.0 * r["fn"] for r in rows]
    b2 = 4.0
    fb = [(1 + b2) * r["tp"] / ((1 + b2) * r["tp"] + b2 * r["fn"] + r["fp"]) for r in rows]
    # ties go to the highest threshold: the first in this descending list
    assert best.loc["min_cost", "threshold"] == candidates[int(np.argmin(cost))]
    assert best.loc["max_fbeta", "threshold"] == candidates[int(np.nanargmax(fb))]
    assert best.loc["min_cost", "value"] == pytest.approx(min(cost))


def test_candidates_table_lists_the_goals_by_name():
    best = curves.optima(load_sample("balanced"), "good", 1.0, 1.0, 4.0, 0.95, 0.95)
    table = curves.candidates_table(best)
    assert table["criterion"].tolist() == [curves.OPT_LABELS[k] for k in curves.OPTIMIZERS]
    assert table["recall (TPR)"].tolist() == best["tpr"].tolist()
    assert table["FPR"].tolist() == best["fpr"].tolist()
    assert table["threshold"].tolist() == best["threshold"].tolist()
    assert len(set(table["threshold"])) >= 3  # the goals disagree on this sample


def test_optimum_move_for_each_kind_of_threshold():
    assert curves.optimum_move(0.123456, "max_fbeta", 1.0, 0.9) == (
        "Move the threshold to 0.1235 (max F-beta)",
        0.123456,
    )
    label, target = curves.optimum_move(math.inf, "min_cost", 1.0, 0.95)
    assert target == 1.0 and "+inf" in label and "above every score" in label
    big = sys.float_info.max
    label, target = curves.optimum_move(math.inf, "youden", big, big)
    assert target is None and "no float lies above it" in label
    assert curves.optimum_move(math.nan, "precision_at_least", 1.0, 0.9) == (
        "No threshold meets the constraint",
        None,
    )


def test_curve_figures_show_every_model_the_operating_point_and_the_candidates():
    ds = load_sample("breast_cancer")
    r = curves.rates(ds, "tree", 0.3, 2.0)
    best = curves.optima(ds, "tree", 2.0, 1.0, 1.0, 0.9, 0.9)
    roc, pr = curves.curve_figures(curves.curve_bases(ds), 0.3, r, best)
    names = [tr.name for tr in roc.data]
    assert any(n.startswith("logreg (AUC") for n in names)
    assert any(n.startswith("tree (AUC") for n in names)
    point = roc.data[-1]
    assert point.name == "operating point (t = 0.3)"
    assert (point.x[0], point.y[0]) == (r["fpr"], r["tpr"])
    assert (pr.data[-1].x[0], pr.data[-1].y[0]) == (r["recall"], r["precision"])
    prevalence = float((ds.y_true == 1).mean())
    assert list(pr.data[0].y) == [prevalence, prevalence]
    # the curves handed in give the same figures
    by_model = {m: curves.curves(ds, m) for m in ds.model_names}
    pre = curves.curve_figures(curves.curve_bases(ds, by_model), 0.3, r, best)
    assert pre[0].to_json() == roc.to_json() and pre[1].to_json() == pr.to_json()


# ------------------------------------------------------------------ confusion matrix
@pytest.mark.parametrize("normalize", ["true", "pred", "all"])
def test_confusion_equals_the_matrix_of_the_predictions(normalize):
    ds = binary(11, weighted=True)
    y, s, w = ds.y_true.astype(int), ds.score("m"), ds.sample_weight
    pred = (s >= 0.5).astype(int)
    counts, rates, table = curves.confusion(curves.rates(ds, "m", 0.5, 1.0), normalize)
    want = confusion_matrix(y, pred, labels=[1, 0], sample_weight=w)
    np.testing.assert_allclose(counts, want)
    want_rates = confusion_matrix(y, pred, labels=[1, 0], sample_weight=w, normalize=normalize)
    np.testing.assert_allclose(rates, want_rates)
    assert table.iloc[0, 1] == f"FN {count(want[0, 1], grouped=False)} ({want_rates[0, 1]:.1%})"


def test_confusion_table_of_seed002_roc6():
    _, _, table = curves.confusion(curves.rates(ROC6, "model", 0.5, 1.0), "true")
    assert table.values.tolist() == [
        ["TP 2 (100.0%)", "FN 0 (0.0%)"],
        ["FP 3 (75.0%)", "TN 1 (25.0%)"],
    ]
    assert table.index.tolist() == ["actual 1", "actual 0"]
    assert table.columns.tolist() == ["predicted 1", "predicted 0"]


def test_confusion_counts_are_written_whole_or_with_fmt():
    assert [count(v, grouped=False) for v in (0.0, 3.0, 2.5, 1234.0, 0.125)] == [
        "0",
        "3",
        "2.500",
        "1234",
        "0.1250",
    ]


# ------------------------------------------------------------------ samples
def test_samples_orders():
    ds = binary(13, n=90)
    y, s = ds.y_true, ds.score("m")
    got = curves_samples.samples(ds, "m")
    base = metrics.per_sample_outcomes(y, s, None)
    assert got["base"].equals(base)
    terms = base["log_loss_term"].to_numpy()
    assert np.all(np.diff(terms[got["worst"]]) <= 0)  # worst log-loss term first
    assert sorted(got["worst"].tolist()) == list(range(90))
    assert sorted([*got["pos"], *got["neg"]]) == list(range(90))
    assert set(y[got["pos"]]) == {1} and set(y[got["neg"]]) == {0}
    assert np.all(np.diff(s[got["pos"]]) <= 0) and np.all(np.diff(got["pos_key"]) >= 0)
    np.testing.assert_array_equal(got["neg_scores"], np.sort(s[y == 0]))


@pytest.mark.parametrize("t", [-1.0, 0.0, 0.25, 0.5, 0.6, 1.0, 2.0])
def test_cell_samples_are_the_cells_highest_score_first(t):
    ds = binary(17, n=70)  # scores on a grid of 5 values: thresholds hit ties
    y, s = ds.y_true, ds.score("m")
    listed = curves_samples.samples(ds, "m")
    outcome = metrics.threshold_outcomes(y, s, t)
    for cell in curves.CELLS:
        got = curves_samples.cell_samples(listed, cell, t)
        want = np.flatnonzero(outcome == cell)
        want = want[np.argsort(-s[want], kind="stable")]
        assert got.tolist() == want.tolist(), cell


def test_sample_rows_are_per_sample_outcomes_at_t():
    ds = load_sample("balanced")
    y, s = ds.y_true, ds.score("weak")
    listed = curves_samples.samples(ds, "weak")
    idx = listed["worst"][:25]
    rows = curves_samples.sample_rows(ds, listed, idx, 0.4)
    full = metrics.per_sample_outcomes(y, s, 0.4)
    assert rows.columns.tolist() == ["id", *full.columns]
    assert rows["id"].tolist() == [ds.sample_ids[i] for i in idx]
    assert rows.drop(columns="id").equals(full.iloc[idx].reset_index(drop=True))
    empty = curves_samples.sample_rows(ds, listed, idx[:0], 0.4)
    assert len(empty) == 0 and empty.columns.tolist() == rows.columns.tolist()


def test_strip_figure_draws_every_sample_or_counts_them():
    small = binary(19, n=100)
    fig = curves_samples.strip_figure(small, "m", 0.5)
    outcome = metrics.threshold_outcomes(small.y_true, small.score("m"), 0.5)
    per_trace = {tr.name.split(" ")[0]: len(tr.x) for tr in fig.data}
    assert per_trace == {c: int((outcome == c).sum()) for c in curves.CELLS}
    big = binary(19, n=curves_samples.STRIP_MARKERS + 1)
    fig = curves_samples.strip_figure(big, "m", 0.5)
    outcome = metrics.threshold_outcomes(big.y_true, big.score("m"), 0.5)
    bars = {tr.name.split(" ")[0]: int(np.sum(tr.y)) for tr in fig.data if tr.type == "bar"}
    assert bars == {c: int((outcome == c).sum()) for c in curves.CELLS}


# ------------------------------------------------------------------ AUC four ways
@pytest.mark.parametrize("name", ["seed002_auc8", "heavy_ties", "balanced"])
def test_four_ways(name):
    ds = load_sample(name)
    y, s = ds.y_true, ds.score()
    model = ds.model_names[0]
    at_100 = curves_teach.four_ways(ds, model)
    assert at_100 == metrics.auc_four_ways(y, s, n_bins=100)
    assert at_100["pairwise"] == pytest.approx(brute_auc(y, s), abs=1e-12)
    for n_bins in (1, 7, 100):
        four = curves_teach.four_ways(ds, model, n_bins, at_100)
        assert four == curves_teach.four_ways(ds, model, n_bins)
        hist = metrics.auc_histogram(y, s, n_bins=n_bins)
        assert four["histogram"] == hist and four["histogram_error"] == hist - four["exact"]
        for way in ("trapezoid", "pairwise", "rank", "exact", "gini"):
            assert four[way] == at_100[way]


def test_four_ways_without_the_histogram_for_scores_beyond_one():
    y = np.array([0, 1, 0, 1])
    ds = Dataset("logits", "binary", y, {"m": np.array([-2.0, 3.0, 0.5, 1.5])})
    four = curves_teach.four_ways(ds, "m", 7)
    assert "[0, 1]" in four["histogram_message"] and math.isnan(four["histogram"])
    assert four["rank"] == 1.0


def test_pairs_all_or_a_sample():
    ds = load_sample("seed002_auc8")
    y, s = ds.y_true, ds.score()
    got = curves_teach.pairs(ds, "model")
    pos, neg = s[y == 1], s[y == 0]
    assert got["full"] and got["n_pairs"] == len(got["table"]) == pos.size * neg.size
    assert got["wins"] == int((pos[:, None] > neg[None, :]).sum())
    assert got["ties"] == int((pos[:, None] == neg[None, :]).sum())
    big = load_sample("balanced")
    got = curves_teach.pairs(big, "good")
    n_pos = int((big.y_true == 1).sum())
    assert got["n_pairs"] == n_pos * (big.n_samples - n_pos) > curves_teach.PAIR_GRID_LIMIT
    assert not got["full"] and len(got["table"]) == curves_teach.PAIR_SAMPLE
    outcomes = got["table"]["outcome"]
    assert (got["wins"], got["ties"]) == ((outcomes == "win").sum(), (outcomes == "tie").sum())


@pytest.mark.parametrize(("n_pos", "n_neg", "full"), [(50, 50, True), (41, 61, False)])
def test_pairs_are_all_listed_up_to_the_grid_limit(n_pos, n_neg, full):
    y = np.r_[np.ones(n_pos), np.zeros(n_neg)]
    s = np.linspace(0, 1, n_pos + n_neg)
    got = curves_teach.pairs(Dataset("grid", "binary", y, {"m": s}), "m")
    assert got["n_pairs"] == n_pos * n_neg and got["full"] is full
    assert len(got["table"]) == (n_pos * n_neg if full else curves_teach.PAIR_SAMPLE)


def test_rank_table_and_head():
    ds = load_sample("breast_cancer")
    y, s = ds.y_true, ds.score("tree")  # a shallow tree: few distinct scores, many ties
    table = curves_teach.rank_table(ds, "tree")
    mid = {v: np.mean(np.flatnonzero(np.sort(s) == v) + 1) for v in np.unique(s)}
    assert table["mid_rank"].tolist() == [mid[v] for v in table["score"]]
    assert table.attrs["rank_sum"] == pytest.approx(sum(mid[v] for v in s[y == 1]))
    head, n = curves_teach.rank_head(ds, "tree")
    assert n == ds.n_samples and head.equals(table.head(curves.MAX_ROWS))
    assert head.attrs["auc"] == pytest.approx(brute_auc(y, s), abs=1e-12)


@pytest.mark.parametrize("drop", [False, True])
def test_threshold_table_and_head(drop):
    ds = load_sample("breast_cancer")
    y, s = ds.y_true, ds.score("logreg")
    table = curves_teach.threshold_table(ds, "logreg", drop)
    fpr, tpr, _ = metrics.roc_curve(y, s, drop_intermediate=drop)
    np.testing.assert_allclose(table["fpr"], fpr)
    np.testing.assert_allclose(table["tpr"], tpr)
    if not drop:
        assert len(table) == len(np.unique(s)) + 1
    head, n = curves_teach.threshold_head(ds, "logreg", drop, curves.threshold_counts(ds, "logreg"))
    assert n == len(table) and len(head) == min(n, curves.MAX_ROWS)
    assert head.reset_index(drop=True).equals(table.head(curves.MAX_ROWS).reset_index(drop=True))


# ------------------------------------------------------------------ log loss, calibration
def test_log_loss_values_by_hand_and_weighted():
    mean, total, error = curves.log_loss_values(ROC6, "model")
    y, p = ROC6.y_true, ROC6.score()
    terms = -np.log(np.where(y == 1, p, 1 - p))
    assert (
        error == "" and mean == pytest.approx(terms.mean()) and total == pytest.approx(terms.sum())
    )
    ds = binary(23, weighted=True, ties=False)
    mean, total, _ = curves.log_loss_values(ds, "m")
    y, p, w = ds.y_true.astype(int), ds.score("m"), ds.sample_weight
    assert mean == log_loss(y, p, sample_weight=w, labels=[0, 1])
    assert total == pytest.approx(mean * w.sum())


def test_log_loss_values_say_why_for_scores_that_are_no_probabilities():
    ds = Dataset("logits", "binary", np.array([0, 1]), {"m": np.array([-2.0, 3.0])})
    mean, total, error = curves.log_loss_values(ds, "m")
    assert math.isnan(mean) and math.isnan(total) and error


def test_calibration_and_its_figure_count_the_samples_per_bin():
    ds = load_sample("balanced")
    s = ds.score("weak")
    bins = curves_teach.calibration(ds, "weak", 5)
    want = np.bincount(np.minimum((s * 5).astype(int), 4), minlength=5)
    assert bins["count"].tolist() == want.tolist()
    fig = curves_teach.calibration_figure(ds, "weak", 5, bins)
    assert [int(v) for v in fig.data[2].y] == want.tolist()


def test_histogram_figure_counts_each_class_per_bin():
    ds = load_sample("heavy_ties")
    y, s = ds.y_true, ds.score()
    fig = curves_teach.histogram_figure(ds, ds.model_names[0], 4)
    b = np.minimum(np.floor(s * 4), 3).astype(int)
    pos, neg = ([int(v) for v in tr.y] for tr in fig.data)
    assert pos == np.bincount(b[y == 1], minlength=4).tolist()
    assert neg == np.bincount(b[y == 0], minlength=4).tolist()
