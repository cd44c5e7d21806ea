"""Compare two models where a test or an interval cannot be had (AppTest).

Identical models, models with the same per-sample values, and one row, for every kind
Compare takes: the page says why in a sentence, never raises, and still shows the
numbers that exist, which are metrics' numbers. Each dataset travels in a link
(``?data=``), as a visitor's would.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.links import encode_dataset
from explorer.pages import compare
from explorer.registry import script
from tests.conftest import APP, metric

PAGE = script("compare")


def _log_loss(y, s):
    return float(np.mean(metrics.log_loss_per_sample(y, s, labels=[0, 1])))


def _open(kind: str, y, a, b) -> tuple[AppTest, Dataset]:
    ds = Dataset("pair", kind, np.array(y, dtype=float), {"a": np.array(a), "b": np.array(b)})
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["data"] = encode_dataset(ds)
    at.switch_page(PAGE).run()
    assert not at.exception
    return at, ds


def _words(at: AppTest) -> str:
    return " ".join(m.value for m in at.markdown)


def _shows(at: AppTest, label: str, a: float, b: float) -> None:
    assert metric(at, f"{label} of A") == fmt(a)
    assert metric(at, f"{label} of B") == fmt(b)
    assert metric(at, f"{label}: B - A") == fmt(b - a)


# (kind, y, score of A, score of B, {headline: metric}) with A and B the same scores
SAME = [
    ("binary", [1, 0, 1, 0], [0.5] * 4, [0.5] * 4, {"ROC AUC": metrics.roc_auc_score}),
    ("binary", [1, 1, 1], [1.0] * 3, [1.0] * 3, {"log loss": _log_loss}),
    ("regression", [1.0, 2.0, 4.0], [1.5, 2.0, 3.0], None, {"R²": metrics.r2_score}),
    (
        "multilabel",
        [[1, 0, 1], [0, 1, 0]],
        [[0.2, 0.3, 0.9], [0.4, 0.5, 0.1]],
        None,
        {"LRAP": metrics.label_ranking_average_precision_score},
    ),
    (
        "graded",
        [[2, 0, 1], [0, 1, 3]],
        [[0.2, 0.3, 0.1], [0.4, 0.5, 0.1]],
        None,
        {"NDCG": metrics.ndcg_score},
    ),
    (
        "multiclass",
        [[1, 0, 0], [0, 1, 0]],
        [[0.7, 0.2, 0.1], [0.5, 0.3, 0.2]],
        None,
        {"Accuracy": lambda y, s: float(np.mean(y.argmax(1) == s.argmax(1)))},
    ),
]


@pytest.mark.parametrize(("kind", "y", "a", "b", "shown"), SAME, ids=lambda v: str(v)[:12])
def test_one_model_under_two_names_has_nothing_to_test(kind, y, a, b, shown):
    at, ds = _open(kind, y, a, a if b is None else b)
    words = _words(at)
    assert compare.SAME_SCORES in words
    assert "p =" not in words and "p <" not in words  # no p-value anywhere
    for label, fn in shown.items():
        value = fn(ds.y_true, ds.score("a"))
        _shows(at, label, value, value)
    assert "B did better on **0** samples, worse on **0**" in words


# (kind, y, score of A, score of B, {headline: metric}, a sentence of why) on one row
ONE_ROW = [
    ("binary", [1], [0.9], [0.2], {"log loss": _log_loss}, compare.ONE_SAMPLE),
    ("regression", [1.0], [1.5], [2.0], {"MAE": metrics.mean_absolute_error}, "No R²: "),
    (
        "multilabel",
        [[1, 0]],
        [[0.2, 0.3]],
        [[0.4, 0.1]],
        {"LRAP": metrics.label_ranking_average_precision_score},
        "",
    ),
    ("graded", [[2, 0, 1]], [[0.2, 0.3, 0.1]], [[0.4, 0.1, 0.3]], {"DCG": metrics.dcg_score}, ""),
    ("multiclass", [[1, 0]], [[0.7, 0.3]], [[0.4, 0.6]], {"Log loss": None}, ""),
]


@pytest.mark.parametrize(
    ("kind", "y", "a", "b", "shown", "also"), ONE_ROW, ids=lambda v: str(v)[:12]
)
def test_one_row_shows_the_numbers_and_says_why_there_is_no_test(kind, y, a, b, shown, also):
    at, ds = _open(kind, y, a, b)
    words = _words(at)
    assert f"No test and no interval: {compare.ONE_SAMPLE}" in words
    assert also in words
    for label, fn in shown.items():
        if fn is None:  # multiclass log loss: -log p(the true class)
            va, vb = -math.log(a[0][0]), -math.log(b[0][0])
        else:
            va, vb = fn(ds.y_true, ds.score("a")), fn(ds.y_true, ds.score("b"))
        _shows(at, label, va, vb)


def test_the_same_per_sample_values_from_different_scores_say_so():
    # other scores, the same order of labels in each sample: every per-sample value equal
    y = [[1, 0, 0], [0, 1, 1]]
    a = [[0.9, 0.1, 0.3], [0.2, 0.8, 0.7]]
    b = [[0.8, 0.3, 0.4], [0.1, 0.7, 0.6]]
    at, ds = _open("multilabel", y, a, b)
    words = _words(at)
    assert "A and B have the same LRAP on every sample: B - A is 0 with no spread to test." in words
    assert "95% interval of b - a: 0 to 0." in words
    lrap = metrics.label_ranking_average_precision_score(ds.y_true, ds.score("a"))
    _shows(at, "LRAP", lrap, lrap)


def test_a_constant_nonzero_difference_has_an_interval_but_no_t_test():
    # B's argmax is wrong on every sample A gets right: B - A = -1 on each
    y = [[1, 0], [0, 1], [1, 0]]
    at, _ = _open(
        "multiclass", y, [[0.7, 0.3], [0.4, 0.6], [0.6, 0.4]], [[0.3, 0.7], [0.6, 0.4], [0.4, 0.6]]
    )
    words = _words(at)
    assert "B - A is -1 on every sample: with no spread between samples" in words
    _shows(at, "Accuracy", 1.0, 0.0)


def test_two_samples_of_one_class_are_too_few_for_delong_and_the_aucs_stay():
    y, a, b = [1, 0, 1], [0.9, 0.2, 0.4], [0.3, 0.4, 0.8]
    at, ds = _open("binary", y, a, b)
    assert (
        "DeLong's test needs at least two positives and two negatives; this data has 2 "
        "positive(s) and 1 negative(s)."
    ) in _words(at)
    _shows(at, "ROC AUC", metrics.roc_auc_score(ds.y_true, a), metrics.roc_auc_score(ds.y_true, b))
