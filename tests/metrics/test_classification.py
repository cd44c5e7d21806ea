"""Tests for metrics.classification: differential vs scikit-learn, properties, seeds, bad input."""

from __future__ import annotations

import math
import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import metrics
import metrics._class_counts as class_counts_module
from metrics._validation import MetricInputError
from metrics.classification import (
    accuracy_score,
    confusion_matrix,
    f1_score,
    fbeta_score,
    hamming_loss,
    jaccard_score,
    log_loss,
    log_loss_per_sample,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from tests.conftest import multilabel_case, weights

SEEDS = range(3)  # scikit-learn costs ~2 ms a call: the grids below are budgeted
BETAS = [0.5, 1.0, 2.0, 0.0, math.inf]
# "warn" and 0 give the same value; 1 and 1.0 too: both spellings are covered below
ZERO_DIVISIONS = ["warn", 0, 1.0, np.nan]
JACCARD_ZERO_DIVISIONS = ["warn", 0.0, 1]
MULTILABEL_AVERAGES = [None, "micro", "macro", "weighted", "samples"]
# pos_label only matters with average="binary"
ONE_D_SETTINGS = [
    ("binary", 1),
    ("binary", 0),
    (None, 1),
    ("micro", 1),
    ("macro", 1),
    ("weighted", 1),
]

pytestmark = pytest.mark.filterwarnings("ignore::UserWarning")


def close(ours, theirs):
    """Compare floats/arrays/None to 1e-9, NaN equal to NaN."""
    if theirs is None:
        assert ours is None
        return
    if isinstance(theirs, float):
        assert type(ours) is float
    np.testing.assert_allclose(
        np.asarray(ours, dtype=float),
        np.asarray(theirs, dtype=float),
        rtol=1e-9,
        atol=1e-9,
        equal_nan=True,
    )


def sk(fn, *args, **kwargs):
    """Call scikit-learn with its warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def close_prfs(ours, theirs):
    assert len(ours) == 4
    for a, b in zip(ours, theirs, strict=True):
        close(a, b)


# ---------------------------------------------------------------------------
# input generators
# ---------------------------------------------------------------------------
def multilabel_pair(seed: int):
    """0/1 label matrices with every degenerate case at once.

    Column 0 is never predicted, column 1 has no support, column 2 is empty in
    both (tp = fp = fn = 0); row 0 is all zero in both, row 1 has every label
    true, row 2 predicts nothing and row 3 predicts every label.
    """
    y, s = multilabel_case(seed, n=30, m=6)
    rng = np.random.default_rng(seed + 77)
    yp = (s + 0.3 * rng.random(s.shape) >= 0.6).astype(int)
    yp[:, 0] = 0
    y[:, 1] = 0
    y[:, 2] = 0
    yp[:, 2] = 0
    y[0] = 0
    yp[0] = 0
    y[1, 3:] = 1
    yp[2] = 0
    yp[3] = 1
    return y, yp


def random_binary_pair(seed: int, n: int = 40):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    yp = np.where(rng.random(n) < 0.7, y, 1 - y)
    return y, yp


def binary_pairs():
    """Random 0/1 vectors for every seed plus the degenerate variants."""
    y, yp = random_binary_pair(100)
    n = y.shape[0]
    cases = {f"random{seed}": random_binary_pair(seed) for seed in SEEDS}
    cases.update(
        {
            "never_predicted": (y, np.zeros(n, dtype=int)),
            "no_support": (np.zeros(n, dtype=int), yp),
            "all_zero": (np.zeros(n, dtype=int), np.zeros(n, dtype=int)),
            "all_one": (np.ones(n, dtype=int), np.ones(n, dtype=int)),
        }
    )
    return cases


BINARY_CASES = list(binary_pairs())


def multiclass_pair(seed: int, labels=(-1, 2, 5, 7)):
    rng = np.random.default_rng(seed)
    labels = np.asarray(labels)
    n = 50
    y = labels[rng.integers(0, len(labels), n)]
    yp = np.where(rng.random(n) < 0.5, y, labels[rng.integers(0, len(labels), n)])
    return y, yp


def weight_options(seed: int, n: int):
    """No weights, and positive weights with some exact zeros."""
    return [None, weights(seed, n)]


# ---------------------------------------------------------------------------
# precision / recall / F / PRFS
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("average", MULTILABEL_AVERAGES)
def test_prfs_multilabel_matches_sklearn(seed, average):
    y, yp = multilabel_pair(seed)
    for w in weight_options(seed, y.shape[0]):
        for zd in ZERO_DIVISIONS:
            for beta in BETAS:
                kw = dict(beta=beta, average=average, sample_weight=w, zero_division=zd)
                close_prfs(
                    precision_recall_fscore_support(y, yp, **kw),
                    sk(skm.precision_recall_fscore_support, y, yp, **kw),
                )


@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("average", MULTILABEL_AVERAGES)
def test_prf_wrappers_multilabel_match_sklearn(seed, average):
    y, yp = multilabel_pair(seed)
    for w, zd in zip(weight_options(seed, y.shape[0]), ["warn", np.nan], strict=True):
        kw = dict(average=average, sample_weight=w, zero_division=zd)
        close(precision_score(y, yp, **kw), sk(skm.precision_score, y, yp, **kw))
        close(recall_score(y, yp, **kw), sk(skm.recall_score, y, yp, **kw))
        close(f1_score(y, yp, **kw), sk(skm.f1_score, y, yp, **kw))
        close(fbeta_score(y, yp, beta=2, **kw), sk(skm.fbeta_score, y, yp, beta=2, **kw))


@pytest.mark.parametrize("case", BINARY_CASES)
def test_prfs_binary_matches_sklearn(case):
    y, yp = binary_pairs()[case]
    for w in weight_options(3, y.shape[0]):
        for average, pos_label in ONE_D_SETTINGS:
            for zd in ZERO_DIVISIONS:
                kw = dict(average=average, pos_label=pos_label, sample_weight=w, zero_division=zd)
                close_prfs(
                    precision_recall_fscore_support(y, yp, **kw),
                    sk(skm.precision_recall_fscore_support, y, yp, **kw),
                )
        for average in ("binary", "macro"):
            for zd in ("warn", np.nan):
                for beta in BETAS:
                    kw = dict(beta=beta, average=average, sample_weight=w, zero_division=zd)
                    close_prfs(
                        precision_recall_fscore_support(y, yp, **kw),
                        sk(skm.precision_recall_fscore_support, y, yp, **kw),
                    )


@pytest.mark.parametrize("case", BINARY_CASES)
def test_prf_wrappers_binary_match_sklearn(case):
    y, yp = binary_pairs()[case]
    for pos_label, zd in ((1, "warn"), (0, 1), (1, np.nan)):
        kw = dict(pos_label=pos_label, zero_division=zd)
        close(precision_score(y, yp, **kw), sk(skm.precision_score, y, yp, **kw))
        close(recall_score(y, yp, **kw), sk(skm.recall_score, y, yp, **kw))
        close(f1_score(y, yp, **kw), sk(skm.f1_score, y, yp, **kw))
        close(fbeta_score(y, yp, beta=0.5, **kw), sk(skm.fbeta_score, y, yp, beta=0.5, **kw))


@pytest.mark.parametrize("seed", SEEDS)
def test_prfs_multiclass_matches_sklearn(seed):
    y, yp = multiclass_pair(seed)
    yp[yp == 7] = 2  # label 7 never predicted
    for w in weight_options(seed, y.shape[0]):
        for average in (None, "micro", "macro", "weighted"):
            for zd, beta in zip(ZERO_DIVISIONS, BETAS, strict=False):
                kw = dict(beta=beta, average=average, sample_weight=w, zero_division=zd)
                close_prfs(
                    precision_recall_fscore_support(y, yp, **kw),
                    sk(skm.precision_recall_fscore_support, y, yp, **kw),
                )


def test_prfs_return_types():
    y, yp = multilabel_pair(0)
    p, r, f, s = precision_recall_fscore_support(y, yp, average="macro")
    assert all(type(v) is float for v in (p, r, f)) and s is None
    p, r, f, s = precision_recall_fscore_support(y, yp)
    assert p.shape == r.shape == f.shape == s.shape == (6,)
    assert s.dtype == np.int64
    assert type(precision_score([0, 1], [1, 1])) is float


def test_zero_division_nan_dropped_from_macro():
    # label 0: precision 0/0 -> nan, label 1: 1.0 -> macro 1.0 (nan dropped)
    y = np.array([[0, 1], [0, 1]])
    yp = np.array([[0, 1], [0, 1]])
    assert precision_score(y, yp, average="macro", zero_division=np.nan) == 1.0
    assert math.isnan(precision_score([0, 0], [0, 0], zero_division=np.nan))


def test_column_vectors_are_1d():
    y = np.array([[0], [1], [1], [0]])
    yp = np.array([0, 1, 0, 0])
    assert precision_score(y, yp) == 1.0
    assert recall_score(y, yp[:, None]) == 0.5


# ---------------------------------------------------------------------------
# jaccard
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_jaccard_multilabel_and_multiclass_match_sklearn(seed):
    y, yp = multilabel_pair(seed)
    m, mp = multiclass_pair(seed)
    for w in weight_options(seed, y.shape[0]):
        for zd in JACCARD_ZERO_DIVISIONS:
            for average in MULTILABEL_AVERAGES:
                kw = dict(average=average, sample_weight=w, zero_division=zd)
                close(jaccard_score(y, yp, **kw), sk(skm.jaccard_score, y, yp, **kw))
    for w in weight_options(seed, m.shape[0]):
        settings_ = zip(("micro", "macro", "weighted", None), ["warn", 0.0, 1, 0], strict=True)
        for average, zd in settings_:
            kw = dict(average=average, sample_weight=w, zero_division=zd)
            close(jaccard_score(m, mp, **kw), sk(skm.jaccard_score, m, mp, **kw))


@pytest.mark.parametrize("case", BINARY_CASES)
def test_jaccard_binary_matches_sklearn(case):
    y, yp = binary_pairs()[case]
    for w in weight_options(5, y.shape[0]):
        for average, pos_label in ONE_D_SETTINGS:
            for zd in ("warn", 1):
                kw = dict(average=average, pos_label=pos_label, sample_weight=w, zero_division=zd)
                close(jaccard_score(y, yp, **kw), sk(skm.jaccard_score, y, yp, **kw))


def test_jaccard_weighted_without_support_falls_back_to_mean():
    y = np.zeros((3, 2), dtype=int)
    yp = np.array([[1, 0], [0, 0], [1, 0]])
    close(
        jaccard_score(y, yp, average="weighted", zero_division=1),
        sk(skm.jaccard_score, y, yp, average="weighted", zero_division=1),
    )


# ---------------------------------------------------------------------------
# multilabel_confusion_matrix
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_multilabel_confusion_matrix_matches_sklearn(seed):
    y, yp = multilabel_pair(seed)
    m, mp = multiclass_pair(seed)
    b, bp = random_binary_pair(seed)
    for w in weight_options(seed, y.shape[0]):
        for samplewise in (False, True):
            ours = multilabel_confusion_matrix(y, yp, sample_weight=w, samplewise=samplewise)
            theirs = sk(
                skm.multilabel_confusion_matrix, y, yp, sample_weight=w, samplewise=samplewise
            )
            assert ours.shape == theirs.shape
            close(ours, theirs)
    for a, ap in ((m, mp), (b, bp), (np.zeros(5, int), np.zeros(5, int))):
        for w in weight_options(seed, a.shape[0]):
            ours = multilabel_confusion_matrix(a, ap, sample_weight=w)
            theirs = sk(skm.multilabel_confusion_matrix, a, ap, sample_weight=w)
            assert ours.shape == theirs.shape
            close(ours, theirs)
    assert multilabel_confusion_matrix(y, yp).dtype == np.int64


# ---------------------------------------------------------------------------
# confusion_matrix
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
@pytest.mark.parametrize("normalize", [None, "true", "pred", "all"])
def test_confusion_matrix_matches_sklearn(seed, normalize):
    b, bp = random_binary_pair(seed)
    m, mp = multiclass_pair(seed)
    degenerate = binary_pairs()
    cases = [
        (b, bp, None),
        (b, bp, [1, 0]),
        (*degenerate["no_support"], [0, 1]),
        (*degenerate["all_zero"], [1, 0]),
        (*degenerate["all_zero"], None),  # a single label: a 1x1 matrix
        (m, mp, None),
        (m, mp, [7, -1, 2, 5]),
        (m, mp, [5, 2]),  # samples with other labels are dropped
        (m, mp, [2, 5, 9]),  # 9 occurs nowhere: an all-zero row and column
    ]
    for y, yp, labels in cases:
        for w in [None, weights(seed, y.shape[0]), np.arange(y.shape[0]) % 3]:
            kw = dict(labels=labels, sample_weight=w, normalize=normalize)
            ours = confusion_matrix(y, yp, **kw)
            theirs = sk(skm.confusion_matrix, y, yp, **kw)
            assert ours.shape == theirs.shape
            assert ours.dtype == theirs.dtype
            close(ours, theirs)


# ---------------------------------------------------------------------------
# accuracy / hamming
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", SEEDS)
def test_accuracy_and_hamming_match_sklearn(seed):
    degenerate = binary_pairs()
    inputs = [
        multilabel_pair(seed),
        multiclass_pair(seed),
        random_binary_pair(seed),
        degenerate["never_predicted"],
        degenerate["all_one"],
    ]
    for y, yp in inputs:
        for w in weight_options(seed, y.shape[0]):
            for normalize in (True, False):
                ours = accuracy_score(y, yp, normalize=normalize, sample_weight=w)
                theirs = sk(skm.accuracy_score, y, yp, normalize=normalize, sample_weight=w)
                close(ours, theirs)
            ours = hamming_loss(y, yp, sample_weight=w)
            close(ours, sk(skm.hamming_loss, y, yp, sample_weight=w))


# ---------------------------------------------------------------------------
# log loss
# ---------------------------------------------------------------------------
def binary_proba(seed: int, n: int = 40):
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.5).astype(int)
    y[:2] = [0, 1]
    p = rng.random(n)
    p[2:6] = [0.0, 1.0, 0.0, 1.0]  # certain predictions: clipped at eps
    return y, p


def multiclass_proba(seed: int, n: int = 40, k: int = 4, *, normalized: bool = True):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, k, n)
    y[:k] = np.arange(k)
    p = rng.random((n, k))
    p[3] = [1.0] + [0.0] * (k - 1)
    if normalized:
        p = p / p.sum(axis=1, keepdims=True)
    return y, p


@pytest.mark.parametrize("seed", SEEDS)
def test_log_loss_matches_sklearn(seed):
    yb, pb = binary_proba(seed)
    ym, pm = multiclass_proba(seed)
    yu, pu = multiclass_proba(seed, normalized=False)  # rows not summing to 1: no renormalising
    cases = [
        (yb, pb, None),
        (yb * 3 + 2, pb, None),  # classes {2, 5}: p is for the greater one
        (yb, np.column_stack([1 - pb, pb]), None),
        (yb[:, None], pb[:, None], None),
        (ym, pm, None),
        (yu, pu, None),
        (np.ones(5, dtype=int), np.full(5, 0.7), [0, 1]),  # one class in y_true + labels=
        (ym[ym != 3], pm[ym != 3], [0, 1, 2, 3]),
    ]
    for y, p, labels in cases:
        n = y.shape[0]
        for w in weight_options(seed, n):
            for normalize in (True, False):
                ours = log_loss(y, p, normalize=normalize, sample_weight=w, labels=labels)
                theirs = sk(skm.log_loss, y, p, normalize=normalize, sample_weight=w, labels=labels)
                close(ours, theirs)
        per = log_loss_per_sample(y, p, labels=labels)
        assert per.shape == (n,)
        close(float(per.mean()), sk(skm.log_loss, y, p, labels=labels))


def test_log_loss_clips_at_float64_eps():
    eps = np.finfo(np.float64).eps
    close(log_loss([1, 0], [0.0, 0.0]), -math.log(eps) / 2)
    close(log_loss_per_sample([1], [0.0], labels=[0, 1]), [-math.log(eps)])


@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_log_loss_low_precision_probabilities_match_sklearn(dtype):
    yb, pb = binary_proba(3)
    ym, pm = multiclass_proba(3)
    for y, p in ((yb, pb.astype(dtype)), (ym, pm.astype(dtype))):
        w = weights(3, y.shape[0])
        close(log_loss(y, p), sk(skm.log_loss, y, p))
        close(log_loss(y, p, sample_weight=w), sk(skm.log_loss, y, p, sample_weight=w))


# ---------------------------------------------------------------------------
# properties
# ---------------------------------------------------------------------------
@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    n=st.integers(1, 30),
    k=st.integers(2, 4),
    use_weights=st.booleans(),
)
def test_property_weighted_mean_of_per_sample_is_log_loss(data, n, k, use_weights):
    y = data.draw(hnp.arrays(np.int64, n, elements=st.integers(0, k - 1)))
    proba = st.floats(0, 1, allow_nan=False)
    p = data.draw(hnp.arrays(np.float64, (n, k) if k > 2 else n, elements=proba))
    w = None
    if use_weights:
        w = data.draw(hnp.arrays(np.float64, n, elements=st.floats(0, 10)))
        if not w.any():
            w[0] = 1.0
    labels = list(range(k))
    per = log_loss_per_sample(y, p, labels=labels)
    assert np.all(per >= 0)
    np.testing.assert_allclose(
        log_loss(y, p, sample_weight=w, labels=labels),
        np.average(per, weights=w),
        rtol=1e-12,
        atol=1e-12,
    )


@settings(max_examples=60, deadline=None)
@given(
    data=st.data(),
    n=st.integers(1, 12),
    m=st.integers(2, 5),
    zd=st.sampled_from(["warn", 0, 1]),
    average=st.sampled_from(["micro", "macro", "weighted", "samples"]),
    beta=st.sampled_from(BETAS),
)
def test_property_scores_in_unit_interval(data, n, m, zd, average, beta):
    y = data.draw(hnp.arrays(np.int64, (n, m), elements=st.integers(0, 1)))
    yp = data.draw(hnp.arrays(np.int64, (n, m), elements=st.integers(0, 1)))
    p, r, f, _ = precision_recall_fscore_support(
        y, yp, beta=beta, average=average, zero_division=zd
    )
    j = jaccard_score(y, yp, average=average, zero_division=zd)
    for value in (p, r, f, j):
        assert 0.0 <= value <= 1.0
    b, bp = y[:, 0], yp[:, 0]
    for value in (
        precision_score(b, bp, zero_division=zd),
        recall_score(b, bp, zero_division=zd),
        fbeta_score(b, bp, beta=beta, zero_division=zd),
        jaccard_score(b, bp, zero_division=zd),
    ):
        assert 0.0 <= value <= 1.0


# ---------------------------------------------------------------------------
# worked examples of the seed documents
# ---------------------------------------------------------------------------
def test_seed002_precision_is_tp_over_tp_plus_fp():
    # 7 true positives, 2 false positives, 3 false negatives, 8 true negatives
    y_true = [1] * 7 + [0] * 2 + [1] * 3 + [0] * 8
    y_pred = [1] * 7 + [1] * 2 + [0] * 3 + [0] * 8
    assert precision_score(y_true, y_pred) == pytest.approx(7 / 9, abs=1e-15)
    assert precision_score(y_true, y_pred) == pytest.approx(0.7777777777777778)
    assert recall_score(y_true, y_pred) == pytest.approx(7 / 10)
    cm = confusion_matrix(y_true, y_pred, labels=[1, 0])
    assert cm.tolist() == [[7, 3], [2, 8]]  # [[TP, FN], [FP, TN]]


def test_seed002_accuracy_and_error_rate():
    y_true = [1] * 7 + [0] * 2 + [1] * 3 + [0] * 8
    y_pred = [1] * 7 + [1] * 2 + [0] * 3 + [0] * 8
    assert accuracy_score(y_true, y_pred) == pytest.approx((7 + 8) / 20)  # (TP+TN)/N
    assert hamming_loss(y_true, y_pred) == pytest.approx((2 + 3) / 20)  # (FP+FN)/N


def test_seed002_f_alpha_equals_weighted_harmonic_mean():
    y_true = [1] * 7 + [0] * 2 + [1] * 3 + [0] * 8
    y_pred = [1] * 7 + [1] * 2 + [0] * 3 + [0] * 8
    p, r = 7 / 9, 7 / 10
    assert f1_score(y_true, y_pred) == pytest.approx(2 / (1 / p + 1 / r), abs=1e-12)
    for alpha in (0.5, 2.0):
        formula = (1 + alpha**2) * p * r / (alpha**2 * p + r)
        assert fbeta_score(y_true, y_pred, beta=alpha) == pytest.approx(formula, abs=1e-12)


def test_seed002_binary_log_loss_formula():
    y = [1, 0, 1, 0]
    p = [0.8, 0.3, 0.6, 0.1]
    by_hand = -(math.log(0.8) + math.log(0.7) + math.log(0.6) + math.log(0.9)) / 4
    assert log_loss(y, p) == pytest.approx(by_hand, abs=1e-15)
    assert log_loss(y, p) == pytest.approx(0.2990011586691898, abs=1e-12)
    np.testing.assert_allclose(
        log_loss_per_sample(y, p),
        [-math.log(0.8), -math.log(0.7), -math.log(0.6), -math.log(0.9)],
        rtol=0,
        atol=1e-15,
    )


def test_seed004_class_averaged_and_overall_precision_recall():
    y = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    yp = np.array([[1, 1, 0], [0, 1, 1], [1, 0, 0], [1, 0, 1]])
    # C-P / C-R: per class N_c / N_p and N_c / N_g, averaged over classes (macro)
    n_c, n_p, n_g = (y * yp).sum(0), yp.sum(0), y.sum(0)
    assert precision_score(y, yp, average="macro") == pytest.approx(np.mean(n_c / n_p))
    assert recall_score(y, yp, average="macro") == pytest.approx(np.mean(n_c / n_g))
    # O-P / O-R pooled over classes (micro)
    assert precision_score(y, yp, average="micro") == pytest.approx(n_c.sum() / n_p.sum())
    assert recall_score(y, yp, average="micro") == pytest.approx(n_c.sum() / n_g.sum())
    # the per-sample reading of 004's O-P / O-R formulas (average="samples")
    s_c, s_p, s_g = (y * yp).sum(1), yp.sum(1), y.sum(1)
    assert precision_score(y, yp, average="samples") == pytest.approx(np.mean(s_c / s_p))
    assert recall_score(y, yp, average="samples") == pytest.approx(np.mean(s_c / s_g))


# ---------------------------------------------------------------------------
# bad input
# ---------------------------------------------------------------------------
def test_metric_input_error_is_value_error():
    assert issubclass(MetricInputError, ValueError)
    with pytest.raises(ValueError):
        precision_score([0, 1], [0, 1, 1])


ML_T = np.array([[1, 0, 1], [0, 1, 0]])
ML_P = np.array([[1, 1, 0], [0, 1, 0]])

LABEL_FUNCTIONS = {
    "confusion_matrix": lambda t, p, **kw: confusion_matrix(t, p, **kw),
    "accuracy_score": lambda t, p, **kw: accuracy_score(t, p, **kw),
    "hamming_loss": lambda t, p, **kw: hamming_loss(t, p, **kw),
    "precision_score": lambda t, p, **kw: precision_score(t, p, **kw),
    "recall_score": lambda t, p, **kw: recall_score(t, p, **kw),
    "f1_score": lambda t, p, **kw: f1_score(t, p, **kw),
    "fbeta_score": lambda t, p, **kw: fbeta_score(t, p, beta=2.0, **kw),
    "jaccard_score": lambda t, p, **kw: jaccard_score(t, p, **kw),
    "precision_recall_fscore_support": lambda t, p, **kw: precision_recall_fscore_support(
        t, p, **kw
    ),
    "multilabel_confusion_matrix": lambda t, p, **kw: multilabel_confusion_matrix(t, p, **kw),
}
SET_FUNCTIONS = [
    "precision_score",
    "recall_score",
    "f1_score",
    "fbeta_score",
    "jaccard_score",
    "precision_recall_fscore_support",
]
MULTILABEL_OK = [k for k in LABEL_FUNCTIONS if k != "confusion_matrix"]


@pytest.mark.parametrize("name", LABEL_FUNCTIONS)
@pytest.mark.parametrize(
    ("y_true", "y_pred", "match"),
    [
        ([0, 1, 1], [0, 1], "y_true and y_pred have different shapes"),
        ([0, 1], [[0, 1], [1, 0]], "y_pred"),
        ([0, np.nan, 1], [0, 1, 1], r"y_true contains NaN at y_true\[1\]"),
        ([0, 1, 1], [0, np.inf, 1], r"y_pred contains an infinite value at y_pred\[1\]"),
        ([], [], "y_true is empty"),
        ([0, 1.5, 1], [0, 1, 1], r"y_true must hold integer class labels.*y_true\[1\]"),
        ([0, 1, 1], [0, 1, 0.25], r"y_pred must hold integer class labels.*y_pred\[2\]"),
        (["a", "b"], [0, 1], "Mix of label input types"),
        ([1 + 1j, 0], [0, 1], "y_true holds complex numbers"),
        (np.zeros((2, 2, 2)), np.zeros((2, 2, 2)), "y_true must be 1-D or 2-D"),
    ],
)
def test_bad_labels_refused(name, y_true, y_pred, match):
    with pytest.raises(MetricInputError, match=match):
        LABEL_FUNCTIONS[name](y_true, y_pred)


@pytest.mark.parametrize("name", MULTILABEL_OK)
def test_multilabel_not_binary_refused(name):
    kw = {"average": "macro"} if name in SET_FUNCTIONS else {}
    bad_true = np.array([[1, 0, 2], [0, 1, 0]])
    with pytest.raises(MetricInputError, match=r"y_true must hold only 0 and 1.*y_true\[0, 2\]"):
        LABEL_FUNCTIONS[name](bad_true, ML_P, **kw)
    bad_pred = np.array([[1, 0, 1], [0, -1, 0]])
    with pytest.raises(MetricInputError, match=r"y_pred must hold only 0 and 1.*y_pred\[1, 1\]"):
        LABEL_FUNCTIONS[name](ML_T, bad_pred, **kw)


@pytest.mark.parametrize("name", LABEL_FUNCTIONS)
@pytest.mark.parametrize(
    ("w", "match"),
    [
        ([1.0, 2.0], "sample_weight has 2 entries but there are 3 samples"),
        ([1.0, -1.0, 1.0], r"sample_weight must be non-negative.*sample_weight\[1\]"),
        ([0.0, 0.0, 0.0], "sample_weight sums to zero"),
        ([1.0, np.nan, 1.0], r"sample_weight contains NaN at sample_weight\[1\]"),
    ],
)
def test_bad_sample_weight_refused(name, w, match):
    with pytest.raises(MetricInputError, match=match):
        LABEL_FUNCTIONS[name]([0, 1, 1], [0, 1, 0], sample_weight=w)


@pytest.mark.parametrize("name", SET_FUNCTIONS)
def test_set_metric_parameters_refused(name):
    fn = LABEL_FUNCTIONS[name]
    with pytest.raises(MetricInputError, match="average must be one of"):
        fn([0, 1], [0, 1], average="mean")
    with pytest.raises(MetricInputError, match='average="samples" needs multilabel'):
        fn([0, 1], [0, 1], average="samples")
    with pytest.raises(MetricInputError, match='average="binary" needs 1-D binary'):
        fn(ML_T, ML_P, average="binary")
    with pytest.raises(MetricInputError, match="zero_division must be"):
        fn([0, 1], [0, 1], zero_division=0.5)
    with pytest.raises(MetricInputError, match="zero_division must be"):
        fn([0, 1], [0, 1], zero_division="nan")
    with pytest.raises(MetricInputError, match="zero_division must be"):
        fn([0, 1], [0, 1], zero_division=True)
    with pytest.raises(MetricInputError, match="Target is multiclass but average='binary'"):
        fn([0, 2, 1], [0, 1, 1], average="binary")
    with pytest.raises(MetricInputError, match="Target is multiclass but average='binary'"):
        fn([0, 1, 1], [-1, 1, 1], average="binary")
    for bad in (2, -1, "1", None, 0.5):
        with pytest.raises(
            MetricInputError, match=r"is not a valid label. It should be one of \[0 1\]"
        ):
            fn([0, 1, 1], [0, 1, 0], average="binary", pos_label=bad)


def test_jaccard_refuses_nan_zero_division():
    with pytest.raises(MetricInputError, match="zero_division"):
        jaccard_score([0, 1], [0, 1], zero_division=np.nan)


@pytest.mark.parametrize("name", ["fbeta_score", "precision_recall_fscore_support"])
@pytest.mark.parametrize("beta", [-1.0, -math.inf, np.nan, "2", True, None])
def test_bad_beta_refused(name, beta):
    fn = fbeta_score if name == "fbeta_score" else precision_recall_fscore_support
    with pytest.raises(MetricInputError, match="beta must be a number >= 0"):
        fn([0, 1, 1], [0, 1, 0], beta=beta)


def test_confusion_matrix_refusals():
    with pytest.raises(MetricInputError, match="confusion_matrix takes 1-D class labels; y_true"):
        confusion_matrix(ML_T, ML_P)
    with pytest.raises(MetricInputError, match="normalize must be"):
        confusion_matrix([0, 1], [0, 1], normalize="rows")
    with pytest.raises(MetricInputError, match="normalize must be"):
        confusion_matrix([0, 1], [0, 1], normalize=True)
    with pytest.raises(MetricInputError, match="labels lists 1 more than once"):
        confusion_matrix([0, 1], [0, 1], labels=[1, 0, 1])
    with pytest.raises(MetricInputError, match="labels holds none of the classes in y_true"):
        confusion_matrix([0, 1], [0, 1], labels=[5, 6])
    with pytest.raises(MetricInputError, match="labels is empty"):
        confusion_matrix([0, 1], [0, 1], labels=[])
    with pytest.raises(MetricInputError, match="labels contains NaN"):
        confusion_matrix([0, 1], [0, 1], labels=[0, np.nan])


def test_accuracy_normalize_refused():
    with pytest.raises(MetricInputError, match="normalize must be True or False"):
        accuracy_score([0, 1], [0, 1], normalize="yes")
    with pytest.raises(MetricInputError, match="normalize must be True or False"):
        accuracy_score([0, 1], [0, 1], normalize=1)


def test_multilabel_confusion_matrix_samplewise_refusals():
    with pytest.raises(MetricInputError, match="samplewise=True needs multilabel"):
        multilabel_confusion_matrix([0, 1], [0, 1], samplewise=True)
    with pytest.raises(MetricInputError, match="samplewise must be True or False"):
        multilabel_confusion_matrix(ML_T, ML_P, samplewise="rows")


LOG_LOSS_FUNCTIONS = {
    "log_loss": log_loss,
    "log_loss_per_sample": log_loss_per_sample,
}


@pytest.mark.parametrize("name", LOG_LOSS_FUNCTIONS)
@pytest.mark.parametrize(
    ("y_true", "y_pred", "kwargs", "match"),
    [
        (
            [0, 1, 1],
            [0.2, 1.5, 0.3],
            {},
            r"y_proba must hold probabilities in \[0, 1\].*y_proba\[1\]",
        ),
        ([0, 1, 2], [[0.2, 0.8, 0], [0.1, 0.4, 0.5], [-0.1, 0.6, 0.5]], {}, r"y_proba\[2, 0\]"),
        ([1, 1, 1], [0.2, 0.7, 0.3], {}, r"y_true contains only one label \(1\).*labels"),
        ([0, 1], [0.2, 0.7], {"labels": [1]}, "labels array needs to contain at least two"),
        ([0, 1], [0.2, 0.7], {"labels": [1, 1]}, "labels array needs to contain at least two"),
        ([0, 3, 1], [0.2, 0.7, 0.5], {"labels": [0, 1]}, r"values \{3\} not belonging.*\[1\]"),
        ([0, 1, 2], [0.2, 0.7, 0.5], {}, "different number of classes: 3 vs 2"),
        ([0, 1, 1], [[0.2, 0.3, 0.5]] * 3, {}, "different number of classes: 2 vs 3"),
        ([0, 1, 1], [0.2, 0.7], {}, "y_proba has 2 rows but y_true has 3 samples"),
        ([0, 1, 1], [0.2, np.nan, 0.3], {}, r"y_proba contains NaN at y_proba\[1\]"),
        ([0, np.inf, 1], [0.2, 0.4, 0.3], {}, r"y_true contains an infinite value"),
        ([0, 0.5, 1], [0.2, 0.4, 0.3], {}, r"y_true must hold integer class labels.*y_true\[1\]"),
        ([[0, 2], [1, 0]], [0.2, 0.4], {}, r"y_true must hold only 0 and 1"),
        ([], [], {}, "y_proba is empty"),
        ([0, 1], [], {}, "y_proba is empty"),
        ([], [0.5], {}, "y_true is empty"),
        ([0, 1], [0.2, 0.4], {"labels": [0, np.nan]}, "labels contains NaN"),
    ],
)
def test_log_loss_bad_input_refused(name, y_true, y_pred, kwargs, match):
    with pytest.raises(MetricInputError, match=match):
        LOG_LOSS_FUNCTIONS[name](y_true, y_pred, **kwargs)


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"sample_weight": [1.0]}, "sample_weight has 1 entries but there are 2 samples"),
        ({"sample_weight": [1.0, -2.0]}, r"sample_weight must be non-negative.*sample_weight\[1\]"),
        ({"sample_weight": [0.0, 0.0]}, "sample_weight sums to zero"),
        ({"normalize": "no"}, "normalize must be True or False"),
    ],
)
def test_log_loss_bad_options_refused(kwargs, match):
    with pytest.raises(MetricInputError, match=match):
        log_loss([0, 1], [0.3, 0.6], **kwargs)


# ---------------------------------------------------------------------------
# low-memory paths: 0/1 cells without intp indices, blocked integrality
# check, in-place log-loss terms
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("weighted", [False, True])
def test_binary_cells_equal_bincount(seed, weighted):
    rng = np.random.default_rng(seed)
    t = rng.integers(0, 2, 200).astype(np.int8)
    p = rng.integers(0, 2, 200).astype(np.int8)
    w = rng.random(200) if weighted else None
    ours = class_counts_module.binary_cells(t, p, w)
    ref = np.bincount(2 * t.astype(np.intp) + p, weights=w, minlength=4)
    np.testing.assert_allclose(ours, ref, rtol=1e-12, atol=1e-12)
    assert ours.dtype == (np.float64 if weighted else np.int64)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
@pytest.mark.parametrize("dtype", [np.int64, np.float64, bool])
def test_binary_zero_one_counts_match_sklearn(seed, weighted, dtype):
    rng = np.random.default_rng(seed)
    yt = rng.integers(0, 2, 300).astype(dtype)
    yp = rng.integers(0, 2, 300).astype(dtype)
    w = rng.random(300) if weighted else None
    np.testing.assert_allclose(
        confusion_matrix(yt, yp, sample_weight=w),
        skm.confusion_matrix(yt, yp, sample_weight=w),
        rtol=1e-9,
    )
    for average in ("binary", "macro", "weighted", "micro", None):
        np.testing.assert_allclose(
            f1_score(yt, yp, average=average, sample_weight=w),
            skm.f1_score(yt, yp, average=average, sample_weight=w),
            rtol=1e-9,
            atol=1e-12,
        )


def test_integrality_check_crosses_blocks(monkeypatch):
    monkeypatch.setattr(class_counts_module, "CHECK_BLOCK", 4)
    y = np.zeros(11)
    y[9] = 0.5
    with pytest.raises(MetricInputError, match=r"y_true\[9\]"):
        accuracy_score(y, np.zeros(11))
    assert accuracy_score(np.arange(11.0), np.arange(11.0)) == 1.0


@pytest.mark.parametrize("labels", [None, [0, 1]])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("classes", [(0, 1), (2, 5)])
def test_binary_log_loss_terms_match_sklearn(labels, dtype, classes):
    rng = np.random.default_rng(3)
    y = np.where(rng.random(100) < 0.4, classes[1], classes[0])
    p = rng.random(100).astype(dtype)
    p[:3] = (0.0, 1.0, 0.5)
    if labels is not None:
        labels = list(classes)
    ours = log_loss(y, p, labels=labels)
    ref = skm.log_loss(y, p, labels=labels)
    assert ours == pytest.approx(ref, rel=1e-6 if dtype == np.float32 else 1e-9)
    terms = log_loss_per_sample(y, p, labels=labels)
    assert terms.dtype == dtype and terms.shape == (100,)


# ---------------------------------------------------------------------------
# multilabel: one pass of counts, every average from them
# ---------------------------------------------------------------------------
def _degenerate_multilabel(seed: int):
    """multilabel_case thresholded, with every 0/0 the averages meet.

    Row 0 has no true label and no predicted label, row 1 every label true,
    row 3 no predicted label; label 0 is never predicted, label 1 never occurs.
    """
    y, s = multilabel_case(seed)
    pred = (s >= 0.5).astype(int)
    pred[0] = 0
    pred[3] = 0
    pred[:, 0] = 0
    y[:, 1] = 0
    y[1, 1] = 0
    return y, pred


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("zd", ZERO_DIVISIONS)
@pytest.mark.parametrize("weighted", [False, True])
def test_multilabel_averages_match_sklearn(seed, zd, weighted):
    from metrics.explain.classification import multilabel_averages, multilabel_counts

    y, pred = _degenerate_multilabel(seed)
    w = weights(seed, len(y)) if weighted else None
    counts = multilabel_counts(y, pred, sample_weight=w)
    jzd = 0.0 if zd == "warn" or (isinstance(zd, float) and np.isnan(zd)) else zd
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for beta in (1.0, 0.5, 2.0, 0.0, math.inf):
            got = multilabel_averages(counts, beta=beta, zero_division=zd)
            for avg in ("micro", "macro", "weighted", "samples"):
                p, r, f1, _ = skm.precision_recall_fscore_support(
                    y, pred, average=avg, sample_weight=w, zero_division=zd
                )
                want = {"precision": p, "recall": r, "f1": f1}
                if beta in (1.0, 2.0, math.inf):  # sklearn's fbeta costs a call each
                    want["fbeta"] = skm.fbeta_score(
                        y, pred, beta=beta, average=avg, sample_weight=w, zero_division=zd
                    )
                if beta == 1.0:
                    want["jaccard"] = skm.jaccard_score(
                        y, pred, average=avg, sample_weight=w, zero_division=jzd
                    )
                for name, value in want.items():
                    assert got[avg][name] == pytest.approx(value, abs=1e-9, nan_ok=True), (
                        avg,
                        name,
                        beta,
                    )
                # and the same as this package's own per-call functions
                assert got[avg]["fbeta"] == pytest.approx(
                    fbeta_score(y, pred, beta=beta, average=avg, sample_weight=w, zero_division=zd),
                    abs=1e-12,
                    nan_ok=True,
                )
        assert got["hamming_loss"] == pytest.approx(
            skm.hamming_loss(y, pred, sample_weight=w), abs=1e-12
        )
        assert got["subset_accuracy"] == pytest.approx(
            skm.accuracy_score(y, pred, sample_weight=w), abs=1e-12
        )
        assert got["exact_matches"] == skm.accuracy_score(y, pred, normalize=False)


@pytest.mark.parametrize("zd", ZERO_DIVISIONS)
def test_multilabel_averages_nothing_predicted_nothing_true(zd):
    """All 0/0: micro meets it too; NaN everywhere gives NaN averages."""
    from metrics.explain.classification import multilabel_averages, multilabel_counts

    y = np.zeros((4, 3), dtype=int)
    y[0, 0] = 1
    for yt, yp in ((y, np.zeros_like(y)), (np.zeros_like(y), np.zeros_like(y))):
        got = multilabel_averages(multilabel_counts(yt, yp), zero_division=zd)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            for avg in ("micro", "macro", "weighted", "samples"):
                p, r, f1, _ = skm.precision_recall_fscore_support(
                    yt, yp, average=avg, zero_division=zd
                )
                for name, value in (("precision", p), ("recall", r), ("f1", f1)):
                    assert got[avg][name] == pytest.approx(value, abs=1e-9, nan_ok=True), (
                        avg,
                        name,
                    )


@pytest.mark.parametrize("seed", range(2))
@pytest.mark.parametrize("weighted", [False, True])
def test_label_table_from_counts_is_label_table(seed, weighted):
    import pandas as pd

    from metrics.explain.classification import (
        multilabel_counts,
        multilabel_label_table,
        multilabel_label_table_from_counts,
    )

    y, pred = _degenerate_multilabel(seed)
    w = weights(seed, len(y)) if weighted else None
    counts = multilabel_counts(y, pred.astype(bool), sample_weight=w)
    for zd in ZERO_DIVISIONS:
        kw = {"beta": 2.0, "zero_division": zd, "summary": True, "label_names": list("abcdef")}
        pd.testing.assert_frame_equal(
            multilabel_label_table_from_counts(counts, **kw),
            multilabel_label_table(y, pred, sample_weight=w, **kw),
        )


def test_multilabel_counts_bool_input_is_used_as_is():
    from metrics.classification import multilabel_confusion_matrix
    from metrics.explain.classification import multilabel_counts

    y, pred = _degenerate_multilabel(1)
    w = weights(1, len(y))
    a = multilabel_counts(y, pred, sample_weight=w)
    b = multilabel_counts(y.astype(bool), pred.astype(bool), sample_weight=w)
    for field in ("tp", "predicted", "support", "sample_tp", "sample_predicted", "sample_true"):
        np.testing.assert_array_equal(getattr(a, field), getattr(b, field))
    mcm = multilabel_confusion_matrix(y, pred, samplewise=True)
    np.testing.assert_array_equal(a.sample_tp, mcm[:, 1, 1])
    np.testing.assert_array_equal(a.sample_wrong, mcm[:, 0, 1] + mcm[:, 1, 0])
    assert a.n_samples == len(y) and a.n_labels == y.shape[1]


@pytest.mark.parametrize(
    ("y_true", "y_pred", "match"),
    [
        (
            [[0, 2], [1, 0]],
            [[0, 1], [1, 0]],
            r"y_true must hold only 0 and 1; found 2 at y_true\[0, 1\]",
        ),
        ([[0, 1], [1, 0]], [[0, 1], [1, -1]], r"y_pred must hold only 0 and 1; found -1"),
        ([[0, 1], [1, 0]], [[0, 1, 0], [1, 0, 0]], "different shapes"),
        ([0, 1, 1], [0, 1, 0], "multilabel indicator matrices"),
        ([[0, 1], [1, np.nan]], [[0, 1], [1, 0]], r"y_true contains NaN at y_true\[1, 1\]"),
        (np.zeros((0, 2), bool), np.zeros((0, 2), bool), "empty"),
    ],
)
def test_multilabel_counts_refusals(y_true, y_pred, match):
    from metrics.explain.classification import multilabel_counts

    with pytest.raises(MetricInputError, match=match):
        multilabel_counts(y_true, y_pred)


def test_counts_helpers_refuse_bad_arguments():
    from metrics.explain.classification import (
        multilabel_averages,
        multilabel_counts,
        multilabel_label_table_from_counts,
        multilabel_worst_samples,
    )

    counts = multilabel_counts([[0, 1], [1, 1]], [[1, 1], [0, 1]])
    for fn in (multilabel_averages, multilabel_label_table_from_counts, multilabel_worst_samples):
        with pytest.raises(MetricInputError, match="counts must be a MultilabelCounts"):
            fn([[0, 1]])
        with pytest.raises(MetricInputError, match="zero_division"):
            fn(counts, zero_division=2)
    with pytest.raises(MetricInputError, match="beta"):
        multilabel_averages(counts, beta=-1.0)
    with pytest.raises(MetricInputError, match="label_names has 3"):
        multilabel_label_table_from_counts(counts, label_names=list("abc"))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("zd", ZERO_DIVISIONS)
def test_worst_samples_is_the_stable_sort_of_the_per_sample_table(seed, zd):
    from metrics.explain.classification import (
        multilabel_counts,
        multilabel_per_sample,
        multilabel_worst_samples,
    )

    y, pred = _degenerate_multilabel(seed)
    pred[5] = y[5]  # more exact rows, among them row 0 (nothing true, nothing predicted)
    table = multilabel_per_sample(y, pred, zero_division=zd)
    want = table.sort_values(["wrong", "jaccard"], ascending=[False, True], kind="stable").index
    got = multilabel_worst_samples(multilabel_counts(y, pred), zero_division=zd)
    np.testing.assert_array_equal(got, want.to_numpy())


def test_multilabel_outcomes_of_one_column():
    from metrics.explain.classification import multilabel_outcomes

    y, pred = _degenerate_multilabel(0)
    full = multilabel_outcomes(y, pred)
    np.testing.assert_array_equal(multilabel_outcomes(y[:, 2], pred[:, 2]), full[:, 2])
    np.testing.assert_array_equal(multilabel_outcomes(y[:, [2]], pred[:, [2]]), full[:, 2])
    with pytest.raises(MetricInputError, match="y_pred must hold only 0 and 1"):
        multilabel_outcomes([0, 1], [0, 2])


@pytest.mark.parametrize("seed", range(3))
def test_prediction_helpers_bool_dtype_and_top_k_against_a_stable_sort(seed):
    from metrics.classification import threshold_predictions, top_k_predictions

    rng = np.random.default_rng(seed)
    s = rng.integers(0, 4, size=(300, 12)) / 4  # ties everywhere
    s[0] = 0.5  # a row all tied
    s[1, :6] = -0.0  # -0.0 ties with 0.0
    for k in range(1, 14):
        order = np.argsort(-s, axis=1, kind="stable")[:, :k]
        want = np.zeros(s.shape, dtype=np.int64)
        np.put_along_axis(want, order, 1, axis=1)
        got = top_k_predictions(s, k=k)
        assert got.dtype == np.int64
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(top_k_predictions(s, k=k, dtype=bool), want.astype(bool))
    mask = threshold_predictions(s, 0.5, dtype=bool)
    assert mask.dtype == bool
    np.testing.assert_array_equal(mask, threshold_predictions(s, 0.5) == 1)


# ---------------------------------------------------------------------------
# matthews_corrcoef, balanced_accuracy_score, cohen_kappa_score, brier_score_loss,
# top_k_accuracy_score and the D2 scores against scikit-learn
# ---------------------------------------------------------------------------
def close_float(ours, theirs):
    np.testing.assert_allclose(
        np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float), rtol=1e-9, atol=1e-9
    )


def both(name, *args, **kwargs):
    """(ours, scikit-learn's) value, warnings silenced."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return getattr(metrics, name)(*args, **kwargs), getattr(skm, name)(*args, **kwargs)


def case(seed, n=60, k=4, weighted=False):
    rng = np.random.default_rng(seed)
    yt = rng.integers(0, k, n)
    yp = np.where(rng.random(n) < 0.6, yt, rng.integers(0, k, n))
    w = rng.random(n) if weighted else None
    return yt, yp, w


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [2, 3, 5])
@pytest.mark.parametrize("weighted", [False, True])
def test_label_metrics_match_sklearn(seed, k, weighted):
    yt, yp, w = case(seed, k=k, weighted=weighted)
    close_float(*both("matthews_corrcoef", yt, yp, sample_weight=w))
    for adjusted in (False, True):
        close_float(*both("balanced_accuracy_score", yt, yp, sample_weight=w, adjusted=adjusted))
    for kappa_weights in (None, "linear", "quadratic"):
        close_float(*both("cohen_kappa_score", yt, yp, weights=kappa_weights, sample_weight=w))
    close_float(*both("cohen_kappa_score", yt, yp, labels=[k - 1, 0]))


def test_string_labels():
    yt, yp, _ = case(9, k=3)
    names = np.array(["ant", "bee", "cat"])
    close_float(*both("matthews_corrcoef", names[yt], names[yp]))
    close_float(*both("balanced_accuracy_score", names[yt], names[yp]))
    close_float(*both("cohen_kappa_score", names[yt], names[yp], labels=["cat", "ant"]))


def test_degenerate_values():
    close_float(*both("matthews_corrcoef", [1, 1, 1], [1, 1, 1]))  # 0.0
    close_float(*both("balanced_accuracy_score", [0, 0, 1], [0, 2, 1]))  # class 2 dropped
    ours, theirs = both("cohen_kappa_score", [1, 1], [1, 1])
    assert np.isnan(ours) and np.isnan(theirs)
    with pytest.warns(metrics.UndefinedMetricWarning):
        metrics.cohen_kappa_score([1, 1], [1, 1])
    with pytest.warns(UserWarning, match="y_pred contains classes not in y_true"):
        metrics.balanced_accuracy_score([0, 0, 1], [0, 2, 1])
    with pytest.raises(MetricInputError, match="weights must be"):
        metrics.cohen_kappa_score([0, 1], [0, 1], weights="cubic")


@settings(max_examples=40, deadline=None)
@given(
    st.integers(2, 40).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
            st.lists(st.integers(0, 3), min_size=n, max_size=n),
            st.lists(st.floats(0.01, 10), min_size=n, max_size=n),
        )
    )
)
def test_property_label_metrics_match_sklearn(data):
    yt, yp, w = data
    close_float(*both("matthews_corrcoef", yt, yp, sample_weight=w))
    ours, theirs = both("cohen_kappa_score", yt, yp, sample_weight=w)
    close_float(ours, theirs)
    close_float(*both("balanced_accuracy_score", yt, yp))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
def test_brier_binary_and_multiclass(seed, weighted):
    rng = np.random.default_rng(seed)
    n = 50
    y = rng.integers(0, 2, n)
    p = rng.random(n)
    w = rng.random(n) if weighted else None
    close_float(*both("brier_score_loss", y, p, sample_weight=w))
    close_float(*both("brier_score_loss", y, p, sample_weight=w, pos_label=0))
    close_float(*both("brier_score_loss", np.array([3, 7])[y], p, sample_weight=w))
    close_float(*both("brier_score_loss", np.array(["no", "yes"])[y], p, pos_label="yes"))
    close_float(*both("brier_score_loss", y, p, scale_by_half=False))
    yk = rng.integers(0, 3, n)
    proba = rng.dirichlet(np.ones(3), n)
    close_float(*both("brier_score_loss", yk, proba, sample_weight=w))
    close_float(*both("brier_score_loss", yk, proba, scale_by_half=True))
    close_float(*both("brier_score_loss", yk[yk < 2], proba[yk < 2], labels=[0, 1, 2]))
    close_float(*both("brier_score_loss", y, np.column_stack([1 - p, p])))


def test_brier_refusals():
    with pytest.raises(MetricInputError, match="y_proba must hold probabilities"):
        metrics.brier_score_loss([0, 1], [0.2, 1.5])
    with pytest.raises(MetricInputError, match="pos_label is not specified"):
        metrics.brier_score_loss(["a", "b"], [0.2, 0.5])
    with pytest.raises(MetricInputError, match="multiclass"):
        metrics.brier_score_loss([0, 1, 2], [0.2, 0.5, 0.1])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [1, 2, 3])
def test_top_k_accuracy_multiclass(seed, k):
    rng = np.random.default_rng(seed)
    n, m = 80, 4
    y = rng.integers(0, m, n)
    s = np.round(rng.random((n, m)), 1)  # many ties
    w = rng.random(n)
    close_float(*both("top_k_accuracy_score", y, s, k=k))
    close_float(*both("top_k_accuracy_score", y, s, k=k, sample_weight=w, normalize=False))
    names = np.array(["a", "b", "c", "d"])
    close_float(*both("top_k_accuracy_score", names[y], s, k=k))
    sub = y < 3
    close_float(*both("top_k_accuracy_score", y[sub], s[sub], k=k, labels=[0, 1, 2, 3]))


def test_top_k_accuracy_binary():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 30)
    s = rng.random(30)
    for k in (1, 2):
        close_float(*both("top_k_accuracy_score", y, s, k=k))
        close_float(*both("top_k_accuracy_score", y, s * 4 - 2, k=k))
    with pytest.raises(MetricInputError, match="Parameter 'labels' must be ordered"):
        metrics.top_k_accuracy_score([0, 1, 2], np.eye(3), labels=[2, 1, 0])
    with pytest.raises(MetricInputError, match="Number of classes in 'y_true'"):
        metrics.top_k_accuracy_score([0, 1, 2], np.eye(3)[:, :2])


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
def test_d2_scores_of_probabilities(seed, weighted):
    rng = np.random.default_rng(seed)
    n = 50
    w = rng.random(n) if weighted else None
    y = rng.integers(0, 2, n)
    p = rng.random(n)
    for name in ("d2_log_loss_score", "d2_brier_score"):
        close_float(*both(name, y, p, sample_weight=w))
        close_float(*both(name, np.array([3, 7])[y], p, sample_weight=w))
        close_float(*both(name, np.eye(2)[y], np.column_stack([1 - p, p])))
    names = np.array(["no", "yes"])
    close_float(*both("d2_brier_score", names[y], p, pos_label="no"))
    yk = rng.integers(0, 3, n)
    proba = rng.dirichlet(np.ones(3), n)
    for name in ("d2_log_loss_score", "d2_brier_score"):
        close_float(*both(name, yk, proba, sample_weight=w))
        close_float(*both(name, np.array(["a", "b", "c"])[yk], proba))
    with pytest.raises(MetricInputError, match="less than two samples"):
        metrics.d2_log_loss_score([1], [0.3])


def test_multilabel_per_sample_names_each_rows_own_items():
    """A 2-D ``label_names`` (a query's document ids) against a loop over the rows."""
    from metrics.explain.classification import multilabel_per_sample

    rng = np.random.default_rng(4)
    y, p = rng.integers(0, 2, (12, 5)), rng.integers(0, 2, (12, 5))
    names = np.array([[f"q{i}-d{j}" for j in range(5)] for i in range(12)], dtype=object)
    table = multilabel_per_sample(y, p, label_names=names)
    for i in range(12):

        def listed(mask, i=i):
            return ", ".join(names[i, j] for j in range(5) if mask[j])

        assert table["true_labels"].iloc[i] == listed(y[i] == 1)
        assert table["predicted_labels"].iloc[i] == listed(p[i] == 1)
        assert table["missed"].iloc[i] == listed((y[i] == 1) & (p[i] == 0))
        assert table["extra"].iloc[i] == listed((p[i] == 1) & (y[i] == 0))
    with pytest.raises(MetricInputError, match="label_names has shape"):
        multilabel_per_sample(y, p, label_names=names[:3])
