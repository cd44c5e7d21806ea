"""Tests for metrics.curves: ROC/PR curves, ROC AUC, average precision, AUC variants."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
import metrics._thresholds as thresholds_module
import metrics.curves as curves_module
from metrics._validation import MetricInputError
from metrics.classification import log_loss_per_sample
from metrics.curves import (
    auc,
    auc_histogram,
    auc_pairwise,
    auc_rank,
    average_precision_score,
    gini,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from metrics.explain.curves import (
    auc_pairs,
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
from tests.conftest import binary_case, multilabel_case, tied_scores, weights

SEEDS = range(8)
AVERAGES = ["micro", "macro", "weighted", "samples", None]
TOL = {"rtol": 1e-9, "atol": 1e-9}


def close(a, b):
    np.testing.assert_allclose(a, b, **TOL)


def sk(fn, *args, **kwargs):
    """Call scikit-learn with its warnings (undefined metric, no positive) silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def binary_inputs(seed, ties, weighted):
    y, s = binary_case(seed, n=80, ties=ties)
    w = weights(seed, y.shape[0]) if weighted else None
    return y, s, w


def multilabel_inputs(seed, ties, weighted, n=40, m=6):
    y, s = multilabel_case(seed, n=n, m=m, ties=ties)
    w = weights(seed, n) if weighted else None
    return y, s, w


# ---------------------------------------------------------------------------
# differential: binary curves and scores against scikit-learn
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("drop", [True, False])
def test_roc_curve_matches_sklearn(seed, ties, weighted, drop):
    y, s, w = binary_inputs(seed, ties, weighted)
    ours = roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
    ref = skm.roc_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for a, b in zip(ours, ref, strict=True):
        assert a.shape == b.shape
        close(a, b)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("drop", [True, False])
def test_precision_recall_curve_matches_sklearn(seed, ties, weighted, drop):
    y, s, w = binary_inputs(seed, ties, weighted)
    ours = precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
    ref = skm.precision_recall_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for a, b in zip(ours, ref, strict=True):
        assert a.shape == b.shape
        close(a, b)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("weighted", [False, True])
def test_curves_with_pos_label_zero_match_sklearn(seed, weighted):
    y, s, w = binary_inputs(seed, True, weighted)
    for a, b in zip(
        roc_curve(y, s, pos_label=0, sample_weight=w),
        skm.roc_curve(y, s, pos_label=0, sample_weight=w),
        strict=True,
    ):
        close(a, b)
    for a, b in zip(
        precision_recall_curve(y, s, pos_label=0, sample_weight=w),
        skm.precision_recall_curve(y, s, pos_label=0, sample_weight=w),
        strict=True,
    ):
        close(a, b)
    close(
        average_precision_score(y, s, pos_label=0, sample_weight=w),
        skm.average_precision_score(y, s, pos_label=0, sample_weight=w),
    )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_roc_auc_and_ap_match_sklearn(seed, ties, weighted):
    y, s, w = binary_inputs(seed, ties, weighted)
    ours_auc = roc_auc_score(y, s, sample_weight=w)
    ours_ap = average_precision_score(y, s, sample_weight=w)
    assert isinstance(ours_auc, float) and isinstance(ours_ap, float)
    close(ours_auc, skm.roc_auc_score(y, s, sample_weight=w))
    close(ours_ap, skm.average_precision_score(y, s, sample_weight=w))


@pytest.mark.parametrize("seed", SEEDS)
def test_heavy_ties_two_or_three_values(seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(300) < 0.5).astype(int)
    y[:2] = [0, 1]
    s = tied_scores(rng, 300, 2 + seed % 2)
    close(roc_auc_score(y, s), skm.roc_auc_score(y, s))
    close(average_precision_score(y, s), skm.average_precision_score(y, s))
    fpr, tpr, thr = roc_curve(y, s, drop_intermediate=False)
    assert thr.shape[0] == np.unique(s).shape[0] + 1  # tied scores are one threshold


def test_all_scores_tied_is_one_diagonal_step():
    y = [0, 1, 1, 0, 1]
    s = [0.3] * 5
    fpr, tpr, thr = roc_curve(y, s)
    assert fpr.tolist() == [0.0, 1.0] and tpr.tolist() == [0.0, 1.0]
    assert roc_auc_score(y, s) == 0.5
    close(average_precision_score(y, s), 0.6)


@pytest.mark.parametrize("weighted", [False, True])
def test_precision_recall_without_positives_matches_sklearn(weighted):
    y = np.zeros(7, dtype=int)
    s = np.array([0.1, 0.5, 0.5, 0.2, 0.9, 0.3, 0.3])
    w = weights(3, 7) if weighted else None
    ours = precision_recall_curve(y, s, sample_weight=w)
    ref = sk(skm.precision_recall_curve, y, s, sample_weight=w)
    for a, b in zip(ours, ref, strict=True):
        close(a, b)
    assert (ours[1][:-1] == 1.0).all()  # recall is 1 at every threshold
    assert average_precision_score(y, s, sample_weight=w) == 0.0
    assert sk(skm.average_precision_score, y, s, sample_weight=w) == 0.0


def test_average_precision_all_positive_is_one():
    y = np.ones(5, dtype=int)
    s = [0.1, 0.4, 0.4, 0.3, 0.9]
    assert average_precision_score(y, s) == 1.0 == sk(skm.average_precision_score, y, s)


def test_zero_weight_samples_create_no_threshold():
    y = [1, 0, 1, 0, 0]
    s = [0.9, 0.7, 0.55, 0.3, 0.1]
    w = [1.0, 1.0, 0.0, 1.0, 1.0]  # the 0.55 sample does not count
    _, _, thr = roc_curve(y, s, sample_weight=w, drop_intermediate=False)
    assert 0.55 not in thr.tolist()
    _, _, thr_pr = precision_recall_curve(y, s, sample_weight=w)
    assert 0.55 not in thr_pr.tolist()
    ref = skm.precision_recall_curve(y, s, sample_weight=w)
    close(thr_pr, ref[2])


def test_precision_recall_curve_shape_and_order():
    y, s = binary_case(4, n=50)
    p, r, t = precision_recall_curve(y, s)
    assert p.shape == r.shape == (t.shape[0] + 1,)
    assert (np.diff(t) > 0).all() and (np.diff(r) <= 0).all()
    assert p[-1] == 1.0 and r[-1] == 0.0


def test_roc_curve_starts_at_origin_with_infinite_threshold():
    y, s = binary_case(5, n=50)
    fpr, tpr, thr = roc_curve(y, s)
    assert (fpr[0], tpr[0], thr[0]) == (0.0, 0.0, np.inf)
    assert fpr[-1] == 1.0 and tpr[-1] == 1.0
    assert (np.diff(fpr) >= 0).all() and (np.diff(tpr) >= 0).all()


def test_column_vector_and_boolean_labels_are_accepted():
    y, s = binary_case(6, n=30)
    close(roc_auc_score(y[:, None], s[:, None]), skm.roc_auc_score(y, s))
    close(average_precision_score(y.astype(bool), s), skm.average_precision_score(y, s))
    close(roc_curve(y.astype(bool), s)[1], skm.roc_curve(y, s)[1])


# ---------------------------------------------------------------------------
# differential: multilabel averages
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", AVERAGES)
def test_multilabel_average_precision_matches_sklearn(seed, ties, weighted, average):
    y, s, w = multilabel_inputs(seed, ties, weighted)
    y[:, 3] = 0  # a label without positives: AP 0, included in the averages
    ours = average_precision_score(y, s, average=average, sample_weight=w)
    ref = sk(skm.average_precision_score, y, s, average=average, sample_weight=w)
    if average is None:
        assert isinstance(ours, np.ndarray) and ours.shape == (6,)
        assert ours[3] == 0.0
    else:
        assert isinstance(ours, float)
    close(ours, ref)


@pytest.mark.parametrize("average", AVERAGES)
def test_multilabel_average_precision_without_any_positive(average):
    y = np.zeros((5, 3), dtype=int)
    s = tied_scores(np.random.default_rng(0), (5, 3))
    ours = average_precision_score(y, s, average=average)
    close(ours, sk(skm.average_precision_score, y, s, average=average))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("average", ["micro", "macro", "weighted", None])
def test_multilabel_roc_auc_matches_sklearn(seed, ties, weighted, average):
    # multilabel_case: row 0 has no label and row 1 every label, so every
    # column holds both classes
    y, s, w = multilabel_inputs(seed, ties, weighted)
    if w is not None:
        w[:2] = 1.0
    ours = roc_auc_score(y, s, average=average, sample_weight=w)
    close(ours, skm.roc_auc_score(y, s, average=average, sample_weight=w))


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_multilabel_roc_auc_samples_matches_sklearn(seed, ties, weighted):
    y, s, w = multilabel_inputs(seed, ties, weighted, n=60, m=8)
    single = (y.sum(axis=1) == 0) | (y.sum(axis=1) == y.shape[1])
    y, s = y[~single], s[~single]
    w = None if w is None else w[~single]
    ours = roc_auc_score(y, s, average="samples", sample_weight=w)
    close(ours, skm.roc_auc_score(y, s, average="samples", sample_weight=w))


def test_samples_average_skips_single_class_rows_of_zero_weight():
    y, s, _ = multilabel_inputs(1, True, False, n=60, m=8)
    w = np.ones(60)
    single = (y.sum(axis=1) == 0) | (y.sum(axis=1) == y.shape[1])
    assert single.any()
    w[single] = 0.0  # scikit-learn forces their (nan) scores to 0 with weight 0
    ours = roc_auc_score(y, s, average="samples", sample_weight=w)
    close(ours, sk(skm.roc_auc_score, y, s, average="samples", sample_weight=w))


def test_multilabel_matches_a_loop_over_columns_with_the_binary_function():
    y, s, w = multilabel_inputs(2, True, True, n=50, m=5)
    per_col = [roc_auc_score(y[:, c], s[:, c], sample_weight=w) for c in range(5)]
    close(roc_auc_score(y, s, average=None, sample_weight=w), per_col)
    per_col_ap = [average_precision_score(y[:, c], s[:, c], sample_weight=w) for c in range(5)]
    close(average_precision_score(y, s, average=None, sample_weight=w), per_col_ap)


def test_average_is_ignored_for_binary_input():
    y, s = binary_case(1)
    for average in AVERAGES:
        assert roc_auc_score(y, s, average=average) == roc_auc_score(y, s)
        assert average_precision_score(y, s, average=average) == average_precision_score(y, s)


# ---------------------------------------------------------------------------
# auc (trapezoid)
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_auc_matches_sklearn(seed):
    rng = np.random.default_rng(seed)
    x = np.sort(rng.integers(0, 6, 12) / 5.0)  # ties in x: vertical segments
    y = rng.random(12)
    close(auc(x, y), skm.auc(x, y))
    close(auc(x[::-1], y[::-1]), skm.auc(x[::-1], y[::-1]))  # non-increasing x
    fpr, tpr, _ = roc_curve(*binary_case(seed))
    close(auc(fpr, tpr), skm.auc(fpr, tpr))


def test_auc_of_roc_curve_equals_roc_auc_score():
    y, s = binary_case(3)
    for drop in (True, False):
        fpr, tpr, _ = roc_curve(y, s, drop_intermediate=drop)
        close(auc(fpr, tpr), roc_auc_score(y, s))


# ---------------------------------------------------------------------------
# AUC three ways + Gini
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("ties", [True, False])
def test_pairwise_rank_and_sklearn_auc_agree(seed, ties):
    y, s = binary_case(seed, n=90, ties=ties)
    expected = skm.roc_auc_score(y, s)
    close(auc_pairwise(y, s), expected)
    close(auc_rank(y, s), expected)
    close(roc_auc_score(y, s), expected)
    close(gini(y, s), 2 * expected - 1)


def test_pairwise_sorted_path_equals_broadcast_path(monkeypatch):
    y, s = binary_case(7, n=120)
    broadcast = auc_pairwise(y, s)
    monkeypatch.setattr(curves_module, "_PAIRWISE_BROADCAST_LIMIT", 0)
    close(auc_pairwise(y, s), broadcast)


def test_fast_paths_equal_weighted_paths_with_unit_weights():
    y, s = binary_case(2, n=200)
    ones = np.ones(200)
    close(roc_auc_score(y, s), roc_auc_score(y, s, sample_weight=ones))
    close(average_precision_score(y, s), average_precision_score(y, s, sample_weight=ones))
    for a, b in zip(roc_curve(y, s), roc_curve(y, s, sample_weight=ones), strict=True):
        close(a, b)


def test_negative_and_mixed_sign_scores():
    rng = np.random.default_rng(11)
    y = (rng.random(200) < 0.4).astype(int)
    s = np.round(rng.normal(size=200), 1)
    s[:3] = [-0.0, 0.0, -0.0]
    close(roc_auc_score(y, s), skm.roc_auc_score(y, s))
    close(average_precision_score(y, s), skm.average_precision_score(y, s))
    close(roc_curve(y, s)[0], skm.roc_curve(y, s)[0])


# ---------------------------------------------------------------------------
# auc_histogram (seed 002's approximate_auc)
# ---------------------------------------------------------------------------
def approximate_auc_reference(labels, preds, n_bins=100):
    """Seed 002's approximate_auc, loop for loop, with the contract's bin.

    The seed computes ``int(preds[i] / bin_width)``; the contract's bin is
    ``min(floor(s * n_bins), n_bins - 1)`` (the same except for rounding
    slips such as 0.59 / 0.01 = 58.99..., and s = 1, which the seed's
    histogram cannot hold).
    """
    n_pos = sum(labels)
    n_neg = len(labels) - n_pos
    total_pair = n_pos * n_neg
    pos_histogram = [0 for _ in range(n_bins)]
    neg_histogram = [0 for _ in range(n_bins)]
    for i in range(len(labels)):
        nth_bin = min(math.floor(preds[i] * n_bins), n_bins - 1)
        if labels[i] == 1:
            pos_histogram[nth_bin] += 1
        else:
            neg_histogram[nth_bin] += 1
    accumulated_neg = 0
    satisfied_pair = 0
    for i in range(n_bins):
        satisfied_pair += (
            pos_histogram[i] * accumulated_neg + pos_histogram[i] * neg_histogram[i] * 0.5
        )
        accumulated_neg += neg_histogram[i]
    return satisfied_pair / float(total_pair)


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("n_bins", [1, 3, 10, 100])
def test_auc_histogram_equals_seed_algorithm(seed, n_bins):
    y, s = binary_case(seed, n=150, ties=False)
    s[:4] = [0.0, 1.0, 0.59, 0.3]  # edges and a float-rounding case
    expected = approximate_auc_reference(y.tolist(), s.tolist(), n_bins)
    close(auc_histogram(y, s, n_bins=n_bins), expected)


@pytest.mark.parametrize("seed", SEEDS)
def test_auc_histogram_is_close_to_exact_auc(seed):
    rng = np.random.default_rng(seed)
    y = (rng.random(2000) < 0.4).astype(int)
    s = np.clip(rng.normal(0.45 + 0.15 * y, 0.2), 0, 1)
    assert abs(auc_histogram(y, s, n_bins=100) - roc_auc_score(y, s)) < 1e-2


def test_auc_histogram_is_exact_when_bins_do_not_mix_scores():
    y, s = binary_case(0, n=100)  # scores k / 5: every bin of 10 holds one value
    close(auc_histogram(y, s, n_bins=10), roc_auc_score(y, s))
    close(auc_histogram(y, s, n_bins=1), 0.5)  # one bin: every pair ties


# ---------------------------------------------------------------------------
# seed 002 worked examples
# ---------------------------------------------------------------------------
SIX_Y = [1, 0, 1, 0, 0, 0]
SIX_S = [0.9, 0.7, 0.8, 0.6, 0.5, 0.4]


def test_seed002_roc_six_impressions_every_point():
    fpr, tpr, thr = roc_curve(SIX_Y, SIX_S, drop_intermediate=False)
    assert fpr.tolist() == [0, 0, 0, 0.25, 0.5, 0.75, 1]
    assert tpr.tolist() == [0, 0.5, 1, 1, 1, 1, 1]
    assert thr.tolist() == [np.inf, 0.9, 0.8, 0.7, 0.6, 0.5, 0.4]


def test_seed002_roc_six_impressions_dropped_points():
    fpr, tpr, thr = roc_curve(SIX_Y, SIX_S)
    assert fpr.tolist() == [0, 0, 0, 1]
    assert tpr.tolist() == [0, 0.5, 1, 1]
    assert thr.tolist() == [np.inf, 0.9, 0.8, 0.4]
    assert roc_auc_score(SIX_Y, SIX_S) == 1.0
    assert auc(fpr, tpr) == 1.0


def test_seed002_eight_sample_auc_three_ways():
    y = [1, 0, 0, 0, 1, 0, 1, 0]
    pred = [0.9, 0.8, 0.3, 0.1, 0.4, 0.9, 0.66, 0.7]
    # By hand: positives 0.9, 0.4, 0.66; negatives 0.8, 0.3, 0.1, 0.9, 0.7.
    #   0.9  beats 0.8, 0.3, 0.1, 0.7 (4 wins) and ties 0.9 (1 tie)
    #   0.4  beats 0.3, 0.1           (2 wins)
    #   0.66 beats 0.3, 0.1           (2 wins)
    # AUC = (8 wins + 0.5 * 1 tie) / (3 * 5) = 8.5 / 15 = 0.5666...
    # Rank sum: ascending 0.1 0.3 0.4 0.66 0.7 0.8 0.9 0.9 -> the positives hold
    # ranks 3, 4 and 7.5 (the tied 0.9s share (7 + 8) / 2): (14.5 - 3*4/2) / 15 = 8.5 / 15.
    expected = 8.5 / 15
    close(auc_pairwise(y, pred), expected)
    close(auc_rank(y, pred), expected)
    fpr, tpr, _ = roc_curve(y, pred)
    close(auc(fpr, tpr), expected)  # trapezoid
    close(roc_auc_score(y, pred), expected)
    close(skm.roc_auc_score(y, pred), expected)
    close(gini(y, pred), 2 * expected - 1)  # Gini + 1 = 2 AUC
    df = auc_pairs(y, pred)
    assert len(df) == 15
    assert (df["outcome"] == "win").sum() == 8 and (df["outcome"] == "tie").sum() == 1
    close(df["credit"].mean(), expected)


# ---------------------------------------------------------------------------
# auc_pairs
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_auc_pairs_full_table(seed):
    y, s = binary_case(seed, n=40)
    df = auc_pairs(y, s)
    n_pos = int(y.sum())
    n_neg = 40 - n_pos
    assert list(df.columns) == [
        "positive",
        "negative",
        "positive_score",
        "negative_score",
        "outcome",
        "credit",
    ]
    assert len(df) == n_pos * n_neg
    assert df.attrs == {"sampled": False, "n_pairs": n_pos * n_neg}
    assert (y[df["positive"]] == 1).all() and (y[df["negative"]] == 0).all()
    close(df["positive_score"], s[df["positive"]])
    close(df["negative_score"], s[df["negative"]])
    expected_credit = np.where(
        df["positive_score"] > df["negative_score"],
        1.0,
        np.where(df["positive_score"] == df["negative_score"], 0.5, 0.0),
    )
    close(df["credit"], expected_credit)
    outcome = df["outcome"].map({"win": 1.0, "tie": 0.5, "loss": 0.0})
    close(outcome, df["credit"])
    assert not df.duplicated(["positive", "negative"]).any()
    close(df["credit"].mean(), auc_pairwise(y, s))


def test_auc_pairs_sample_is_deterministic_and_uniform():
    y, s = binary_case(3, n=200)
    full = auc_pairs(y, s)
    total = len(full)
    df = auc_pairs(y, s, max_pairs=500)
    again = auc_pairs(y, s, max_pairs=500)
    assert len(df) == 500
    assert df.attrs == {"sampled": True, "n_pairs": total}
    assert df.equals(again)
    assert not df.duplicated(["positive", "negative"]).any()
    keys = set(zip(full["positive"], full["negative"], strict=True))
    assert set(zip(df["positive"], df["negative"], strict=True)) <= keys
    # table order is kept; the sample mean estimates the AUC
    assert (np.diff(df["positive"].to_numpy()) >= 0).all()
    assert abs(df["credit"].mean() - auc_pairwise(y, s)) < 0.1
    # uniform: each half of the table gets about half of the sample
    first_half = full.index[: total // 2]
    in_first = df.merge(full.loc[first_half], on=["positive", "negative"]).shape[0]
    assert 200 < in_first < 300


def test_auc_pairs_max_pairs_not_reached_returns_everything():
    y, s = binary_case(3, n=20)
    full = auc_pairs(y, s)
    df = auc_pairs(y, s, max_pairs=len(full))
    assert df.equals(full) and df.attrs["sampled"] is False


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------
@st.composite
def binary_scores(draw):
    n = draw(st.integers(2, 40))
    y = draw(st.lists(st.integers(0, 1), min_size=n, max_size=n))
    y[0], y[1] = 0, 1
    ints = draw(st.lists(st.integers(-20, 20), min_size=n, max_size=n))
    return np.array(y), np.array(ints) / 4.0


@settings(max_examples=60, deadline=None)
@given(binary_scores(), st.floats(-5, 5))
def test_auc_unchanged_by_increasing_transforms(case, offset):
    y, s = case
    base = roc_auc_score(y, s)
    assert 0.0 <= base <= 1.0
    for transformed in (np.exp(s), s**3 + offset, 2 * s + 1):
        close(roc_auc_score(y, transformed), base)
        close(auc_rank(y, transformed), base)
    close(roc_auc_score(y, -s), 1 - base)


@settings(max_examples=60, deadline=None)
@given(binary_scores())
def test_auc_definitions_agree_and_ap_is_in_unit_interval(case):
    y, s = case
    a = roc_auc_score(y, s)
    close(auc_pairwise(y, s), a)
    close(auc_rank(y, s), a)
    close(gini(y, s), 2 * a - 1)
    ap = average_precision_score(y, s)
    assert 0.0 <= ap <= 1.0
    close(ap, skm.average_precision_score(y, s))


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(AVERAGES))
def test_multilabel_ap_in_unit_interval(seed, average):
    y, s, w = multilabel_inputs(seed, True, True, n=15, m=4)
    ap = np.atleast_1d(average_precision_score(y, s, average=average, sample_weight=w))
    assert ((ap >= 0) & (ap <= 1)).all()


# ---------------------------------------------------------------------------
# bad input: every function and every refusal names the argument
# ---------------------------------------------------------------------------
def test_metric_input_error_is_a_value_error():
    assert issubclass(MetricInputError, ValueError)


Y = [0, 1, 1, 0]
S = [0.1, 0.8, 0.4, 0.3]

BINARY_FUNCS = [
    roc_curve,
    precision_recall_curve,
    roc_auc_score,
    average_precision_score,
    auc_pairwise,
    auc_rank,
    auc_histogram,
    gini,
    auc_pairs,
]


@pytest.mark.parametrize("fn", BINARY_FUNCS, ids=lambda f: f.__name__)
@pytest.mark.parametrize(
    ("y_true", "y_score", "match"),
    [
        ([0, 2, 1, 0], S, r"y_true.*(3 classes|takes value in \{0, 1, 2\})"),
        ([0, 0.5, 1, 0], S, r"y_true.*continuous.*y_true\[1\]"),
        ([0, 1 + 1j, 1, 0], S, r"y_true holds complex numbers"),
        ([0, 1, 1, np.nan], S, r"y_true.*NaN"),
        (Y, [0.1, np.nan, 0.4, 0.3], r"y_score.*NaN.*y_score\[1\]"),
        (Y, [0.1, 0.2, np.inf, 0.3], r"y_score.*infinite.*y_score\[2\]"),
        (Y, [0.1, 0.2, 0.3], "y_true and y_score"),
        ([], [], "y_true.*empty"),
        (Y, ["a", "b", "c", "d"], "y_score"),
    ],
)
def test_binary_functions_refuse_bad_arrays(fn, y_true, y_score, match):
    with pytest.raises(MetricInputError, match=match):
        fn(y_true, y_score)


@pytest.mark.parametrize(
    "fn",
    [fn for fn in BINARY_FUNCS if fn not in (roc_auc_score, average_precision_score)],
    ids=lambda f: f.__name__,
)
def test_binary_only_functions_refuse_a_label_matrix(fn):
    with pytest.raises(MetricInputError, match=r"y_true must be 1-D.*\(2, 2\)"):
        fn([[0, 1], [1, 0]], [[0.1, 0.2], [0.3, 0.4]])


@pytest.mark.parametrize(
    "fn",
    [roc_curve, roc_auc_score, auc_pairwise, auc_rank, auc_histogram, gini, auc_pairs],
    ids=lambda f: f.__name__,
)
@pytest.mark.parametrize("y_true", [[0, 0, 0, 0], [1, 1, 1, 1]])
def test_single_class_is_refused(fn, y_true):
    with pytest.raises(MetricInputError, match="y_true holds a single class"):
        fn(y_true, S)


@pytest.mark.parametrize(
    "fn",
    [roc_curve, precision_recall_curve, roc_auc_score, average_precision_score],
    ids=lambda f: f.__name__,
)
@pytest.mark.parametrize(
    ("sample_weight", "match"),
    [
        ([1.0, 2.0, 3.0], "sample_weight has 3 entries"),
        ([1.0, -1.0, 1.0, 1.0], r"sample_weight.*non-negative.*sample_weight\[1\]"),
        ([0.0, 0.0, 0.0, 0.0], "sample_weight sums to zero"),
        ([1.0, np.nan, 1.0, 1.0], "sample_weight.*NaN"),
        ([[1.0, 1.0, 1.0, 1.0]], "sample_weight must be 1-D"),
    ],
)
def test_bad_sample_weight_is_refused(fn, sample_weight, match):
    with pytest.raises(MetricInputError, match=match):
        fn(Y, S, sample_weight=sample_weight)


@pytest.mark.parametrize("fn", [roc_curve, roc_auc_score], ids=lambda f: f.__name__)
def test_class_with_only_zero_weights_is_refused(fn):
    with pytest.raises(MetricInputError, match="negative sample of y_true has sample_weight 0"):
        fn(Y, S, sample_weight=[0.0, 1.0, 1.0, 0.0])
    with pytest.raises(MetricInputError, match="positive sample of y_true has sample_weight 0"):
        fn(Y, S, sample_weight=[1.0, 0.0, 0.0, 1.0])


@pytest.mark.parametrize("pos_label", [2, -1, "1", 0.5])
def test_absent_pos_label_gives_no_positive_in_curves(pos_label):
    # scikit-learn: a pos_label that does not occur makes every sample negative
    with pytest.raises(MetricInputError, match="only the negative class"):
        roc_curve(Y, S, pos_label=pos_label)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        expected = skm.precision_recall_curve(Y, S, pos_label=pos_label)
    for ours, ref in zip(precision_recall_curve(Y, S, pos_label=pos_label), expected, strict=True):
        close(ours, ref)


@pytest.mark.parametrize("pos_label", [2, None, "1"])
def test_bad_pos_label_is_refused_by_average_precision(pos_label):
    with pytest.raises(MetricInputError, match="pos_label"):
        average_precision_score(Y, S, pos_label=pos_label)


def test_pos_label_zero_is_refused_for_multilabel_average_precision():
    y, s, _ = multilabel_inputs(0, True, False)
    with pytest.raises(MetricInputError, match="pos_label is fixed to 1 for multilabel"):
        average_precision_score(y, s, pos_label=0)


@pytest.mark.parametrize("fn", [roc_auc_score, average_precision_score], ids=lambda f: f.__name__)
@pytest.mark.parametrize("average", ["binary", "mean", 1, ""])
def test_bad_average_is_refused(fn, average):
    with pytest.raises(MetricInputError, match="average"):
        fn(Y, S, average=average)


@pytest.mark.parametrize("fn", [roc_auc_score, average_precision_score], ids=lambda f: f.__name__)
def test_multilabel_bad_arrays_are_refused(fn):
    y, s, _ = multilabel_inputs(0, True, False)
    bad = y.copy()
    bad[4, 2] = 2
    with pytest.raises(MetricInputError, match=r"y_true.*y_true\[4, 2\]"):
        fn(bad, s)
    with pytest.raises(MetricInputError, match="y_true and y_score"):
        fn(y, s[:, :5])
    with pytest.raises(MetricInputError, match="y_true and y_score"):
        fn(y, s[:, 0])
    s_nan = s.copy()
    s_nan[3, 1] = np.nan
    with pytest.raises(MetricInputError, match=r"y_score.*y_score\[3, 1\]"):
        fn(y, s_nan)
    with pytest.raises(MetricInputError, match="sample_weight has 5 entries"):
        fn(y, s, sample_weight=np.ones(5))


@pytest.mark.parametrize("average", ["macro", "weighted", None])
def test_multilabel_roc_auc_refuses_single_class_column(average):
    y, s, _ = multilabel_inputs(0, True, False)
    y[:, 3] = 0
    with pytest.raises(MetricInputError, match="column 3 of y_true"):
        roc_auc_score(y, s, average=average)
    y[:, 3] = 1
    with pytest.raises(MetricInputError, match="column 3 of y_true"):
        roc_auc_score(y, s, average=average)


def test_multilabel_roc_auc_refuses_column_whose_positives_weigh_zero():
    y, s, _ = multilabel_inputs(0, True, False)
    w = np.ones(y.shape[0])
    w[y[:, 4] == 1] = 0.0
    with pytest.raises(MetricInputError, match="column 4 of y_true.*sample_weight 0"):
        roc_auc_score(y, s, sample_weight=w)


def test_multilabel_roc_auc_samples_refuses_single_class_row():
    y, s, _ = multilabel_inputs(0, True, False)  # row 0 has no label
    with pytest.raises(MetricInputError, match="row 0 of y_true"):
        roc_auc_score(y, s, average="samples")
    y[0, 0] = 1  # row 1 holds every label
    with pytest.raises(MetricInputError, match="row 1 of y_true"):
        roc_auc_score(y, s, average="samples")


def test_multilabel_roc_auc_micro_refuses_a_single_class_overall():
    y = np.zeros((4, 3), dtype=int)
    with pytest.raises(MetricInputError, match="y_true.*raveled"):
        roc_auc_score(y, np.ones((4, 3)), average="micro")


@pytest.mark.parametrize(
    ("x", "y", "match"),
    [
        ([0.5], [1.0], "x needs at least 2 points"),
        ([0, 1, 0.5, 2], [0, 1, 1, 1], r"x must be monotone.*x\[2\]"),
        ([1, 0, 0.5], [0, 1, 1], r"x must be monotone.*x\[2\]"),
        ([0, 1, 2], [0, 1], "x and y have different shapes"),
        ([0, np.nan], [0, 1], r"x contains NaN at x\[1\]"),
        ([0, 1], [0, np.inf], r"y contains an infinite value at y\[1\]"),
        ([], [], "x is empty"),
        ([[0, 1], [1, 2]], [0, 1], "x must be 1-D"),
    ],
)
def test_auc_refuses_bad_input(x, y, match):
    with pytest.raises(MetricInputError, match=match):
        auc(x, y)


@pytest.mark.parametrize(
    ("scores", "where"),
    [([0.1, 1.5, 0.4, 0.3], r"y_score\[1\] \(row 1\)"), ([0.1, 0.2, -0.01, 2], r"y_score\[2\]")],
)
def test_auc_histogram_refuses_scores_outside_unit_interval(scores, where):
    with pytest.raises(MetricInputError, match=r"y_score must lie in \[0, 1\].*" + where):
        auc_histogram(Y, scores)


@pytest.mark.parametrize("n_bins", [0, -3, 2.5, "10", None])
def test_auc_histogram_refuses_bad_n_bins(n_bins):
    with pytest.raises(MetricInputError, match="n_bins"):
        auc_histogram(Y, S, n_bins=n_bins)


@pytest.mark.parametrize("max_pairs", [0, -1, 1.5, "3"])
def test_auc_pairs_refuses_bad_max_pairs(max_pairs):
    with pytest.raises(MetricInputError, match="max_pairs"):
        auc_pairs(Y, S, max_pairs=max_pairs)


# ---------------------------------------------------------------------------
# fast paths of the multilabel averages: column blocks, row tiles, row chunks,
# per-block / per-positive samples AP, label and score dtypes
# ---------------------------------------------------------------------------
def _column_loop(fn, y, s, w=None):
    return np.array([fn(y[:, c], s[:, c], sample_weight=w) for c in range(y.shape[1])])


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("weighted", [False, True])
def test_column_paths_cross_block_and_tile_boundaries(monkeypatch, seed, ties, weighted):
    y, s, w = multilabel_inputs(seed, ties, weighted, n=53, m=7)
    if w is not None:
        w[:2] = 1.0
    ref_auc = _column_loop(skm.roc_auc_score, y, s, w)
    ref_ap = _column_loop(skm.average_precision_score, y, s, w)
    # blocks of 1-2 columns (53 * 2 > 100 entries) and row tiles of 8 rows
    monkeypatch.setattr(curves_module, "_FLAT_COLUMN_ELEMENTS", 0)  # the loop over labels
    monkeypatch.setattr(curves_module, "_COLUMN_BLOCK_ELEMENTS", 110)
    monkeypatch.setattr(curves_module, "_TRANSPOSE_TILE_ROWS", 8)
    close(roc_auc_score(y, s, average=None, sample_weight=w), ref_auc)
    close(average_precision_score(y, s, average=None, sample_weight=w), ref_ap)
    for average in ("macro", "weighted"):
        close(
            roc_auc_score(y, s, average=average, sample_weight=w),
            skm.roc_auc_score(y, s, average=average, sample_weight=w),
        )
        close(
            average_precision_score(y, s, average=average, sample_weight=w),
            skm.average_precision_score(y, s, average=average, sample_weight=w),
        )


def test_transposed_copies_by_row_tiles(monkeypatch):
    monkeypatch.setattr(curves_module, "_TRANSPOSE_TILE_ROWS", 3)
    a = np.arange(40).reshape(10, 4)
    out = curves_module._transposed(a, slice(1, 3))
    assert out.flags.c_contiguous
    np.testing.assert_array_equal(out, a[:, 1:3].T)
    mask = curves_module._transposed(a % 2, slice(0, 4), bool)
    assert mask.dtype == bool
    np.testing.assert_array_equal(mask, (a % 2 != 0).T)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("per_block", [None, True, False])
def test_samples_ap_per_block_and_per_positive_paths(seed, ties, per_block):
    y, s, _ = multilabel_inputs(seed, ties, False, n=45, m=6)
    y[5] = 0  # a row without positives: AP 0
    y[6] = 1  # a row of positives only: AP 1
    ours = curves_module._samples_ap_rows(y != 0, s, per_block=per_block)
    ref = [sk(skm.average_precision_score, y[i], s[i]) for i in range(45)]
    close(ours, ref)
    assert ours[5] == 0.0 and ours[6] == 1.0
    # one kernel with label_ranking's sorted LRAP: the same value, to the bit, on rows
    # with a positive (LRAP's counted path for few distinct scores may differ in the last bit)
    from metrics._label_ranking_kernel import lrap_values

    lrap = lrap_values(y != 0, s, per_block=per_block, counted=False)
    has = (y != 0).any(axis=1)
    np.testing.assert_array_equal(ours[has], lrap[has])


@pytest.mark.parametrize("ties", [True, False])
def test_samples_ap_crosses_row_chunks(monkeypatch, ties):
    import metrics._ranks as ranks

    y, s, w = multilabel_inputs(3, ties, True, n=70, m=5)
    ref = sk(skm.average_precision_score, y, s, average="samples", sample_weight=w)
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 12)  # chunks of 2 rows
    close(average_precision_score(y, s, average="samples", sample_weight=w), ref)
    mixed = (y.sum(axis=1) > 0) & (y.sum(axis=1) < y.shape[1])
    close(
        roc_auc_score(y[mixed], s[mixed], average="samples"),
        skm.roc_auc_score(y[mixed], s[mixed], average="samples"),
    )


@pytest.mark.parametrize("label_dtype", [bool, np.int8, np.uint8, np.int32, np.int64, np.float64])
@pytest.mark.parametrize("score_dtype", [np.float32, np.float64, np.int64])
@pytest.mark.parametrize("average", AVERAGES)
def test_multilabel_label_and_score_dtypes(label_dtype, score_dtype, average):
    y, s, _ = multilabel_inputs(5, True, False, n=30, m=4)
    s = (s * 10).astype(score_dtype)
    yt = y.astype(label_dtype)
    close(
        average_precision_score(yt, s, average=average),
        sk(skm.average_precision_score, y, s.astype(np.float64), average=average),
    )
    if average != "samples":
        close(roc_auc_score(yt, s, average=average), skm.roc_auc_score(y, s, average=average))


@pytest.mark.parametrize("label_dtype", [bool, np.int8, np.uint16, np.int64, np.float32])
def test_binary_label_dtypes(label_dtype):
    y, s = binary_case(4, n=50, ties=True)
    yt = np.asarray(y).astype(label_dtype)
    close(roc_auc_score(yt, s), skm.roc_auc_score(y, s))
    close(
        average_precision_score(yt, s, pos_label=0), skm.average_precision_score(y, s, pos_label=0)
    )
    for ours, ref in zip(roc_curve(yt, s), skm.roc_curve(y, s), strict=True):
        close(ours, ref)


@pytest.mark.parametrize(
    ("y_true", "where"),
    [
        (np.array([0, 1, 2, 1], dtype=np.int64), "y_true holds 3 classes"),
        (np.array([0, -1, 1, 1], dtype=np.int8), "y_true holds 3 classes"),
        (np.array([[0, 1], [1, 3]], dtype=np.uint8), r"y_true\[1, 1\]"),
        (np.array([[0, 1], [1, 256]], dtype=np.int16), r"y_true\[1, 1\]"),
    ],
)
def test_integer_labels_outside_zero_one_are_refused_by_name(y_true, where):
    s = np.linspace(0.1, 0.9, y_true.size).reshape(y_true.shape)
    for fn in (roc_auc_score, average_precision_score):
        with pytest.raises(MetricInputError, match=where):
            fn(y_true, s)


@pytest.mark.parametrize("bad", [np.nan, np.inf, -np.inf])
@pytest.mark.parametrize("shape", [(6,), (3, 2)])
def test_non_finite_float64_scores_are_refused_by_name(bad, shape):
    y = np.array([0, 1, 1, 0, 1, 0]).reshape(shape)
    s = np.linspace(0.1, 0.9, 6).reshape(shape)
    s.flat[4] = bad
    where = r"y_score\[4\]" if len(shape) == 1 else r"y_score\[2, 0\]"
    for fn in (roc_auc_score, average_precision_score):
        with pytest.raises(MetricInputError, match=where):
            fn(y, s)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("flat_limit", [0, 1 << 30])
@pytest.mark.parametrize("average", ["macro", "weighted", None])
def test_flat_and_looped_label_scores_agree_with_sklearn(
    monkeypatch, seed, ties, flat_limit, average
):
    # flat_limit 0: the loop over labels (_column_scores); huge: one flat sort
    monkeypatch.setattr(curves_module, "_FLAT_COLUMN_ELEMENTS", flat_limit)
    y, s, _ = multilabel_inputs(seed, ties, False, n=47, m=5)
    y[:, 2] = 0  # AP of a label without positives: 0
    close(
        average_precision_score(y, s, average=average),
        sk(skm.average_precision_score, y, s, average=average),
    )
    y[0, 2] = 1
    close(roc_auc_score(y, s, average=average), skm.roc_auc_score(y, s, average=average))


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [True, False])
def test_auc_rows_by_mid_ranks_match_sklearn_per_row(seed, ties):
    y, s, _ = multilabel_inputs(seed, ties, False, n=30, m=7)
    mixed = (y.sum(axis=1) > 0) & (y.sum(axis=1) < 7)
    y, s = y[mixed], s[mixed]
    ours = curves_module._auc_rows(y != 0, s)
    close(ours, [skm.roc_auc_score(y[i], s[i]) for i in range(y.shape[0])])


def test_auc_rows_single_class_row_is_nan():
    out = curves_module._auc_rows(np.array([[True, True], [True, False]]), np.ones((2, 2)))
    assert np.isnan(out[0]) and out[1] == 0.5


def test_single_class_column_is_refused_on_both_label_paths(monkeypatch):
    y = np.array([[1, 0], [0, 0], [1, 0]])
    s = np.array([[0.2, 0.3], [0.4, 0.1], [0.9, 0.5]])
    for limit in (0, 1 << 30):
        monkeypatch.setattr(curves_module, "_FLAT_COLUMN_ELEMENTS", limit)
        with pytest.raises(MetricInputError, match="column 1"):
            roc_auc_score(y, s)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", [True, False])
@pytest.mark.parametrize("drop", [False, True])
def test_unweighted_curves_cross_search_blocks(monkeypatch, seed, ties, drop):
    monkeypatch.setattr(thresholds_module, "SEARCH_BLOCK", 3)
    y, s, _ = binary_inputs(seed, ties, False)
    for ours, ref in zip(
        roc_curve(y, s, drop_intermediate=drop),
        skm.roc_curve(y, s, drop_intermediate=drop),
        strict=True,
    ):
        close(ours, ref)
    for ours, ref in zip(
        precision_recall_curve(y, s, drop_intermediate=drop),
        skm.precision_recall_curve(y, s, drop_intermediate=drop),
        strict=True,
    ):
        close(ours, ref)


def test_curve_counts_are_int32_and_exact():
    y, s, _ = binary_inputs(1, False, False)
    fps, tps, _ = thresholds_module.unweighted_blocks(np.asarray(y) == 1, s)
    assert fps.dtype == np.int32 and tps.dtype == np.int32
    assert tps[-1] == np.count_nonzero(y) and fps[-1] + tps[-1] == len(y)
    assert thresholds_module.count_steps(tps).dtype == np.int32


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("pos_frac", [0.0, 0.3, 1.0])
def test_low_memory_precision_recall_equals_the_counting_path_exactly(ties, pos_frac, monkeypatch):
    """The unweighted, every-threshold path (tps written into the precision array) gives
    the very floats of the weighted path with unit weights, over several search blocks."""
    monkeypatch.setattr(curves_module, "_PR_BLOCK", 7)
    rng = np.random.default_rng(3)
    n = 200
    s = np.round(rng.random(n), 1) if ties else rng.random(n)
    y = (rng.random(n) < pos_frac).astype(int)
    ours = precision_recall_curve(y, s)
    unit = precision_recall_curve(y, s, sample_weight=np.ones(n))
    for a, b in zip(ours, unit, strict=True):
        np.testing.assert_array_equal(a, b)
    assert ours[2].flags.c_contiguous and ours[0][-1] == 1.0 and ours[1][-1] == 0.0
    if 0 < pos_frac < 1:
        for a, b in zip(ours, skm.precision_recall_curve(y, s), strict=True):
            np.testing.assert_allclose(a, b, rtol=0, atol=1e-15)


# ---------------------------------------------------------------------------
# metrics.explain.curves: thresholds, operating points, calibration and reduced
# curves against slow, obvious references
# ---------------------------------------------------------------------------
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


# ---------------------------------------------------------------------------
# det_curve against scikit-learn
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("drop", [False, True])
def test_det_curve_matches_sklearn(seed, weighted, drop):
    rng = np.random.default_rng(seed)
    n = 60
    y = rng.integers(0, 2, n)
    s = np.round(rng.random(n), 1)
    w = rng.random(n) if weighted else None
    ours = metrics.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
    theirs = skm.det_curve(y, s, sample_weight=w, drop_intermediate=drop)
    for a, b in zip(ours, theirs, strict=True):
        close(a, b)
    ours = metrics.det_curve(np.array(["x", "y"])[y], s, pos_label="x")
    theirs = skm.det_curve(np.array(["x", "y"])[y], s, pos_label="x")
    for a, b in zip(ours, theirs, strict=True):
        close(a, b)


def test_det_curve_single_class_refused():
    with pytest.raises(MetricInputError, match="Only one class is present"):
        metrics.det_curve([1, 1, 1], [0.1, 0.2, 0.3])


@pytest.mark.parametrize("beta", [0.0, 0.5, 1.0, 2.0, math.inf])
def test_rates_from_counts_are_the_rates_of_rows_with_those_counts(beta):
    # the slow reference: rows with each entry's counts, scored by scikit-learn
    rng = np.random.default_rng(int(beta * 10) if beta != math.inf else 99)
    counts = rng.integers(0, 4, size=(40, 4)).astype(float)
    counts[0] = 0.0  # nothing at all: every rate 0
    got = metrics.rates_from_counts(*counts.T, beta=beta)
    for i, (tp, fp, fn, tn) in enumerate(counts.astype(int)):
        y = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
        p = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
        if y.size == 0:
            assert all(v[i] == 0.0 for v in got.values())
            continue
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            want = {
                "precision": skm.precision_score(y, p, zero_division=0),
                "recall": skm.recall_score(y, p, zero_division=0),
                "f1": skm.f1_score(y, p, zero_division=0),
                "fbeta": skm.fbeta_score(y, p, beta=beta, zero_division=0),
                "accuracy": skm.accuracy_score(y, p),
            }
        for key, value in want.items():
            assert got[key][i] == pytest.approx(value, abs=1e-12), (key, i)
        assert got["fpr"][i] == pytest.approx(fp / (fp + tn) if fp + tn else 0.0)
        assert got["tnr"][i] == pytest.approx(tn / (fp + tn) if fp + tn else 0.0)
        assert got["error_rate"][i] == pytest.approx(1 - got["accuracy"][i])


def test_rates_from_counts_refuses_a_bad_beta():
    with pytest.raises(MetricInputError, match="beta must be a number >= 0"):
        metrics.rates_from_counts(1, 1, 1, 1, beta=-1)
