"""Labels of every kind against scikit-learn: strings, booleans, objects, categoricals,
{-1, 1} and {1, 2} with pos_label, labels=, and the warnings scikit-learn gives."""

from __future__ import annotations

import warnings

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import metrics
from metrics import MetricInputError, UndefinedMetricWarning

RNG = np.random.default_rng(20)
N = 40
BIN = RNG.integers(0, 2, N)
BIN_PRED = np.where(RNG.random(N) < 0.7, BIN, 1 - BIN)
SCORE = np.round(RNG.random(N), 2)  # ties included
MULTI = RNG.integers(0, 4, N)
MULTI_PRED = np.where(RNG.random(N) < 0.6, MULTI, RNG.integers(0, 4, N))
W = RNG.random(N)


def close(ours, theirs):
    if theirs is None:
        assert ours is None
        return
    np.testing.assert_allclose(
        np.asarray(ours, dtype=float), np.asarray(theirs, dtype=float), rtol=1e-9, atol=1e-9
    )


def quiet(fn, *args, **kwargs):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fn(*args, **kwargs)


def kinds(values: np.ndarray, names):
    """The same labels as a str array, an object array, a list, a categorical Series."""
    text = np.asarray(names)[values]
    return {
        "str": text,
        "object": text.astype(object),
        "list": text.tolist(),
        "categorical": pd.Series(pd.Categorical(text)),
    }


BINARY_NAMES = ["ham", "spam"]
SET_METRICS = ["precision_score", "recall_score", "f1_score", "jaccard_score"]


@pytest.mark.parametrize("kind", ["str", "object", "list", "categorical"])
@pytest.mark.parametrize("name", SET_METRICS)
@pytest.mark.parametrize("pos_label", ["spam", "ham"])
def test_string_labels_set_metrics(kind, name, pos_label):
    yt = kinds(BIN, BINARY_NAMES)[kind]
    yp = kinds(BIN_PRED, BINARY_NAMES)[kind]
    ours = getattr(metrics, name)(yt, yp, pos_label=pos_label, sample_weight=W)
    theirs = getattr(skm, name)(yt, yp, pos_label=pos_label, sample_weight=W)
    close(ours, theirs)
    for average in (None, "macro", "weighted", "micro"):
        close(
            getattr(metrics, name)(yt, yp, average=average),
            getattr(skm, name)(yt, yp, average=average),
        )


@pytest.mark.parametrize("kind", ["str", "object", "categorical"])
def test_string_labels_multiclass(kind):
    names = ["cat", "dog", "emu", "yak"]
    yt, yp = kinds(MULTI, names)[kind], kinds(MULTI_PRED, names)[kind]
    close(metrics.confusion_matrix(yt, yp), skm.confusion_matrix(yt, yp))
    close(
        metrics.confusion_matrix(yt, yp, labels=["yak", "cat"], sample_weight=W),
        skm.confusion_matrix(yt, yp, labels=["yak", "cat"], sample_weight=W),
    )
    close(metrics.accuracy_score(yt, yp), skm.accuracy_score(yt, yp))
    close(metrics.hamming_loss(yt, yp), skm.hamming_loss(yt, yp))
    close(metrics.multilabel_confusion_matrix(yt, yp), skm.multilabel_confusion_matrix(yt, yp))
    for p, q in zip(
        metrics.precision_recall_fscore_support(yt, yp, sample_weight=W),
        skm.precision_recall_fscore_support(yt, yp, sample_weight=W),
        strict=True,
    ):
        close(p, q)


def test_boolean_labels():
    yt, yp = BIN.astype(bool), BIN_PRED.astype(bool)
    for pos_label in (True, False):
        close(
            metrics.f1_score(yt, yp, pos_label=pos_label),
            skm.f1_score(yt, yp, pos_label=pos_label),
        )
        close(
            metrics.average_precision_score(yt, SCORE, pos_label=pos_label),
            skm.average_precision_score(yt, SCORE, pos_label=pos_label),
        )
    close(metrics.confusion_matrix(yt, yp), skm.confusion_matrix(yt, yp))
    close(metrics.roc_auc_score(yt, SCORE), skm.roc_auc_score(yt, SCORE))


@pytest.mark.parametrize(
    ("values", "pos_label"),
    [((-1, 1), 1), ((-1, 1), -1), ((1, 2), 2), ((1, 2), 1), ((3, 7), 7)],
)
def test_binary_labels_other_than_zero_one(values, pos_label):
    yt = np.asarray(values)[BIN]
    yp = np.asarray(values)[BIN_PRED]
    for name in SET_METRICS:
        close(
            getattr(metrics, name)(yt, yp, pos_label=pos_label),
            getattr(skm, name)(yt, yp, pos_label=pos_label),
        )
    close(
        metrics.fbeta_score(yt, yp, beta=2, pos_label=pos_label),
        skm.fbeta_score(yt, yp, beta=2, pos_label=pos_label),
    )
    for ours, ref in zip(
        metrics.roc_curve(yt, SCORE, pos_label=pos_label, sample_weight=W),
        skm.roc_curve(yt, SCORE, pos_label=pos_label, sample_weight=W),
        strict=True,
    ):
        close(ours, ref)
    for ours, ref in zip(
        metrics.precision_recall_curve(yt, SCORE, pos_label=pos_label),
        skm.precision_recall_curve(yt, SCORE, pos_label=pos_label),
        strict=True,
    ):
        close(ours, ref)
    close(
        metrics.average_precision_score(yt, SCORE, pos_label=pos_label),
        skm.average_precision_score(yt, SCORE, pos_label=pos_label),
    )
    close(metrics.roc_auc_score(yt, SCORE), skm.roc_auc_score(yt, SCORE))


@pytest.mark.parametrize("kind", ["str", "object", "categorical"])
def test_string_labels_curves(kind):
    yt = kinds(BIN, ["no", "yes"])[kind]
    for ours, ref in zip(
        metrics.roc_curve(yt, SCORE, pos_label="yes"),
        skm.roc_curve(yt, SCORE, pos_label="yes"),
        strict=True,
    ):
        close(ours, ref)
    close(metrics.roc_auc_score(yt, SCORE), skm.roc_auc_score(yt, SCORE))
    close(
        metrics.average_precision_score(yt, SCORE, pos_label="no"),
        skm.average_precision_score(yt, SCORE, pos_label="no"),
    )


def test_curves_need_pos_label_for_string_labels():
    yt = kinds(BIN, ["no", "yes"])["str"]
    with pytest.raises(MetricInputError, match=r"y_true takes value in \{'no', 'yes'\}"):
        metrics.roc_curve(yt, SCORE)
    with pytest.raises(MetricInputError, match="pos_label=1 is not a valid label"):
        metrics.average_precision_score(yt, SCORE)
    with pytest.raises(MetricInputError, match=r"y_true takes value in \{1, 2\}"):
        metrics.precision_recall_curve(np.asarray([1, 2])[BIN], SCORE)


def test_roc_curve_one_vs_rest_with_pos_label_on_multiclass():
    close(
        np.concatenate(metrics.roc_curve(MULTI, SCORE, pos_label=2)),
        np.concatenate(skm.roc_curve(MULTI, SCORE, pos_label=2)),
    )


def test_pos_label_refusals_use_sklearn_messages():
    yt = kinds(BIN, BINARY_NAMES)["str"]
    with pytest.raises(MetricInputError, match=r"pos_label=1 is not a valid label"):
        metrics.f1_score(yt, yt)
    with pytest.raises(MetricInputError, match="Target is multiclass but average='binary'"):
        metrics.f1_score(MULTI, MULTI_PRED)
    with pytest.raises(MetricInputError, match="Mix of label input types"):
        metrics.accuracy_score(yt, BIN)
    with pytest.raises(MetricInputError, match="Mix of label input types"):
        metrics.accuracy_score(np.array(["a", 1], dtype=object), ["a", "b"])


def test_pos_label_ignored_warning_outside_binary():
    with pytest.warns(UserWarning, match="pos_label"):
        metrics.f1_score(BIN, BIN_PRED, average="macro", pos_label=0)


def test_complex_numbers_are_refused():
    with pytest.raises(MetricInputError, match="complex"):
        metrics.mean_squared_error([1 + 1j, 2, 3], [1, 2, 3])
    with pytest.raises(MetricInputError, match="complex"):
        metrics.roc_auc_score([0, 1, 1], [0.2 + 1j, 0.4, 0.5])


def test_undefined_metric_warning_as_sklearn():
    yt, yp = [0, 0, 1], [0, 0, 0]
    with pytest.warns(UndefinedMetricWarning, match="Precision is ill-defined"):
        assert metrics.precision_score(yt, yp) == 0.0
    with pytest.warns(UndefinedMetricWarning, match="Recall is ill-defined"):
        metrics.recall_score([0, 0], [1, 0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        metrics.precision_score(yt, yp, zero_division=0)
        metrics.f1_score(yt, [0, 0, 1])


def test_confusion_matrix_integer_weights_are_exact_past_2_53():
    big = np.array([2**62, 2**62 - 1, 1], dtype=np.int64)
    ours = metrics.confusion_matrix([0, 0, 1], [0, 0, 1], labels=[0, 1], sample_weight=big)
    assert ours.dtype == np.int64
    assert ours.tolist() == [[2**63 - 1, 0], [0, 1]]


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted"])
@pytest.mark.parametrize("labels", [[2, 0], [0, 1, 2, 3], [3, 5], [1]])
def test_labels_argument_multiclass(average, labels):
    for name in SET_METRICS:
        close(
            quiet(getattr(metrics, name), MULTI, MULTI_PRED, average=average, labels=labels),
            quiet(getattr(skm, name), MULTI, MULTI_PRED, average=average, labels=labels),
        )
    for p, q in zip(
        quiet(
            metrics.precision_recall_fscore_support,
            MULTI,
            MULTI_PRED,
            average=average,
            labels=labels,
            sample_weight=W,
        ),
        quiet(
            skm.precision_recall_fscore_support,
            MULTI,
            MULTI_PRED,
            average=average,
            labels=labels,
            sample_weight=W,
        ),
        strict=True,
    ):
        close(p, q)
    close(
        metrics.multilabel_confusion_matrix(MULTI, MULTI_PRED, labels=labels),
        skm.multilabel_confusion_matrix(MULTI, MULTI_PRED, labels=labels),
    )


@pytest.mark.parametrize("average", [None, "micro", "macro", "weighted", "samples"])
@pytest.mark.parametrize("labels", [[2, 0], [0, 1, 2], [1]])
def test_labels_argument_multilabel(average, labels):
    yt = RNG.integers(0, 2, (N, 3))
    yp = RNG.integers(0, 2, (N, 3))
    for name in SET_METRICS:
        close(
            quiet(getattr(metrics, name), yt, yp, average=average, labels=labels),
            quiet(getattr(skm, name), yt, yp, average=average, labels=labels),
        )
    for samplewise in (False, True):
        close(
            metrics.multilabel_confusion_matrix(
                yt, yp, labels=labels, samplewise=samplewise, sample_weight=W
            ),
            skm.multilabel_confusion_matrix(
                yt, yp, labels=labels, samplewise=samplewise, sample_weight=W
            ),
        )
    with pytest.raises(MetricInputError, match=r"All labels must be in \[0, n labels\)"):
        metrics.f1_score(yt, yp, average="macro", labels=[0, 3])


def test_log_loss_any_labels_one_hot_and_y_proba_name():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, 30)
    proba = rng.dirichlet(np.ones(3), 30)
    names = np.array(["a", "b", "c"])
    close(metrics.log_loss(names[y], proba), skm.log_loss(names[y], proba))
    close(metrics.log_loss(np.eye(3)[y], proba), skm.log_loss(np.eye(3)[y], proba))
    close(metrics.log_loss(y, y_proba=proba), skm.log_loss(y, y_proba=proba))
    b = rng.integers(0, 2, 30)
    p = rng.random(30)
    close(metrics.log_loss(np.array([-1, 1])[b], p), skm.log_loss(np.array([-1, 1])[b], p))
    close(metrics.log_loss(np.eye(2)[b], p), skm.log_loss(np.eye(2)[b], p))
    with pytest.warns(FutureWarning, match="y_proba"):
        metrics.log_loss(y, y_pred=proba)
    with pytest.warns(UserWarning, match="do not sum to one"):
        metrics.log_loss(y, proba * 0.5)
    with pytest.raises(MetricInputError, match="Cannot use both"):
        metrics.log_loss(y, proba, y_pred=proba)


@pytest.mark.parametrize("max_fpr", [0.1, 0.3, 0.5, 1.0])
@pytest.mark.parametrize("weighted", [False, True])
def test_roc_auc_max_fpr_mcclish(max_fpr, weighted):
    w = W if weighted else None
    close(
        metrics.roc_auc_score(BIN, SCORE, max_fpr=max_fpr, sample_weight=w),
        skm.roc_auc_score(BIN, SCORE, max_fpr=max_fpr, sample_weight=w),
    )
    yt = RNG.integers(0, 2, (N, 3))
    s = np.round(RNG.random((N, 3)), 1)
    for average in (None, "micro", "macro", "weighted"):
        close(
            metrics.roc_auc_score(yt, s, max_fpr=max_fpr, average=average, sample_weight=w),
            skm.roc_auc_score(yt, s, max_fpr=max_fpr, average=average, sample_weight=w),
        )
    with pytest.raises(MetricInputError, match=r"Expected max_fpr in range \(0, 1\]"):
        metrics.roc_auc_score(BIN, SCORE, max_fpr=0)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("kind", ["int", "str"])
def test_multiclass_roc_auc_and_average_precision(seed, kind):
    rng = np.random.default_rng(seed)
    n, k = 60, 4
    y = rng.integers(0, k, n)
    proba = rng.dirichlet(np.ones(k), n)
    proba[:5] = 0.25  # ties
    yt = np.array(["a", "b", "c", "d"])[y] if kind == "str" else y
    w = rng.random(n)
    for average in ("micro", "macro", "weighted", None):
        close(
            metrics.roc_auc_score(yt, proba, multi_class="ovr", average=average, sample_weight=w),
            skm.roc_auc_score(yt, proba, multi_class="ovr", average=average, sample_weight=w),
        )
        close(
            metrics.average_precision_score(yt, proba, average=average, sample_weight=w),
            skm.average_precision_score(yt, proba, average=average, sample_weight=w),
        )
    for average in ("macro", "weighted"):
        close(
            metrics.roc_auc_score(yt, proba, multi_class="ovo", average=average),
            skm.roc_auc_score(yt, proba, multi_class="ovo", average=average),
        )
    labels = ["a", "b", "c", "d"] if kind == "str" else [0, 1, 2, 3]
    close(
        metrics.roc_auc_score(yt, proba, multi_class="ovo", labels=labels),
        skm.roc_auc_score(yt, proba, multi_class="ovo", labels=labels),
    )


def test_multiclass_roc_auc_refusals():
    y = [0, 1, 2, 1]
    p = [[0.7, 0.2, 0.1], [0.2, 0.5, 0.3], [0.1, 0.3, 0.6], [0.5, 0.4, 0.1]]
    with pytest.raises(MetricInputError, match="multi_class must be in"):
        metrics.roc_auc_score(y, p)
    with pytest.raises(MetricInputError, match="Partial AUC computation not available"):
        metrics.roc_auc_score(y, p, multi_class="ovr", max_fpr=0.5)
    with pytest.raises(MetricInputError, match="need to be probabilities"):
        metrics.roc_auc_score(y, np.asarray(p) * 2, multi_class="ovr")
    with pytest.raises(MetricInputError, match="sample_weight is not supported"):
        metrics.roc_auc_score(y, p, multi_class="ovo", sample_weight=[1, 1, 1, 1])
    with pytest.raises(MetricInputError, match="Parameter 'labels' must be ordered"):
        metrics.roc_auc_score(y, p, multi_class="ovo", labels=[2, 1, 0])


def test_bytes_labels_are_refused_as_sklearn_does():
    for fn in (metrics.accuracy_score, metrics.roc_curve):
        with pytest.raises(TypeError, match="bytes is not supported"):
            fn(np.array([b"a", b"b"]), [0.0, 1.0])
    with pytest.raises(MetricInputError, match="bytes"):
        metrics.f1_score([b"a", b"b"], [b"a", b"a"], pos_label=b"a")
