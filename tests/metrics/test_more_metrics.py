"""matthews_corrcoef, balanced_accuracy_score, cohen_kappa_score, brier_score_loss,
top_k_accuracy_score and det_curve against scikit-learn."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sklearn.metrics as skm
from hypothesis import given, settings
from hypothesis import strategies as st

import metrics
from metrics import MetricInputError


def close(ours, theirs):
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
    close(*both("matthews_corrcoef", yt, yp, sample_weight=w))
    for adjusted in (False, True):
        close(*both("balanced_accuracy_score", yt, yp, sample_weight=w, adjusted=adjusted))
    for weights in (None, "linear", "quadratic"):
        close(*both("cohen_kappa_score", yt, yp, weights=weights, sample_weight=w))
    close(*both("cohen_kappa_score", yt, yp, labels=[k - 1, 0]))


def test_string_labels():
    yt, yp, _ = case(9, k=3)
    names = np.array(["ant", "bee", "cat"])
    close(*both("matthews_corrcoef", names[yt], names[yp]))
    close(*both("balanced_accuracy_score", names[yt], names[yp]))
    close(*both("cohen_kappa_score", names[yt], names[yp], labels=["cat", "ant"]))


def test_degenerate_values():
    close(*both("matthews_corrcoef", [1, 1, 1], [1, 1, 1]))  # 0.0
    close(*both("balanced_accuracy_score", [0, 0, 1], [0, 2, 1]))  # class 2 dropped
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
    close(*both("matthews_corrcoef", yt, yp, sample_weight=w))
    ours, theirs = both("cohen_kappa_score", yt, yp, sample_weight=w)
    close(ours, theirs)
    close(*both("balanced_accuracy_score", yt, yp))


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
def test_brier_binary_and_multiclass(seed, weighted):
    rng = np.random.default_rng(seed)
    n = 50
    y = rng.integers(0, 2, n)
    p = rng.random(n)
    w = rng.random(n) if weighted else None
    close(*both("brier_score_loss", y, p, sample_weight=w))
    close(*both("brier_score_loss", y, p, sample_weight=w, pos_label=0))
    close(*both("brier_score_loss", np.array([3, 7])[y], p, sample_weight=w))
    close(*both("brier_score_loss", np.array(["no", "yes"])[y], p, pos_label="yes"))
    close(*both("brier_score_loss", y, p, scale_by_half=False))
    yk = rng.integers(0, 3, n)
    proba = rng.dirichlet(np.ones(3), n)
    close(*both("brier_score_loss", yk, proba, sample_weight=w))
    close(*both("brier_score_loss", yk, proba, scale_by_half=True))
    close(*both("brier_score_loss", yk[yk < 2], proba[yk < 2], labels=[0, 1, 2]))
    close(*both("brier_score_loss", y, np.column_stack([1 - p, p])))


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
    close(*both("top_k_accuracy_score", y, s, k=k))
    close(*both("top_k_accuracy_score", y, s, k=k, sample_weight=w, normalize=False))
    names = np.array(["a", "b", "c", "d"])
    close(*both("top_k_accuracy_score", names[y], s, k=k))
    sub = y < 3
    close(*both("top_k_accuracy_score", y[sub], s[sub], k=k, labels=[0, 1, 2, 3]))


def test_top_k_accuracy_binary():
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 30)
    s = rng.random(30)
    for k in (1, 2):
        close(*both("top_k_accuracy_score", y, s, k=k))
        close(*both("top_k_accuracy_score", y, s * 4 - 2, k=k))
    with pytest.raises(MetricInputError, match="Parameter 'labels' must be ordered"):
        metrics.top_k_accuracy_score([0, 1, 2], np.eye(3), labels=[2, 1, 0])
    with pytest.raises(MetricInputError, match="Number of classes in 'y_true'"):
        metrics.top_k_accuracy_score([0, 1, 2], np.eye(3)[:, :2])


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


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("weighted", [False, True])
def test_d2_scores_of_probabilities(seed, weighted):
    rng = np.random.default_rng(seed)
    n = 50
    w = rng.random(n) if weighted else None
    y = rng.integers(0, 2, n)
    p = rng.random(n)
    for name in ("d2_log_loss_score", "d2_brier_score"):
        close(*both(name, y, p, sample_weight=w))
        close(*both(name, np.array([3, 7])[y], p, sample_weight=w))
        close(*both(name, np.eye(2)[y], np.column_stack([1 - p, p])))
    names = np.array(["no", "yes"])
    close(*both("d2_brier_score", names[y], p, pos_label="no"))
    yk = rng.integers(0, 3, n)
    proba = rng.dirichlet(np.ones(3), n)
    for name in ("d2_log_loss_score", "d2_brier_score"):
        close(*both(name, yk, proba, sample_weight=w))
        close(*both(name, np.array(["a", "b", "c"])[yk], proba))
    with pytest.raises(MetricInputError, match="less than two samples"):
        metrics.d2_log_loss_score([1], [0.3])
