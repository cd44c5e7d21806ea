"""The Home page model (explorer.pages.home): its headline numbers against metrics."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from explorer.datasets import Dataset
from explorer.pages import home
from explorer.samples import load_sample
from explorer.ui import cache


@pytest.mark.parametrize(
    ("sample", "expected"),
    [
        (
            "balanced",
            {
                "ROC AUC": metrics.roc_auc_score,
                "Average precision": metrics.average_precision_score,
                "Gini": metrics.gini,
            },
        ),
        (
            "digits",
            {
                "Coverage error": metrics.coverage_error,
                "LRAP": metrics.label_ranking_average_precision_score,
                "Ranking loss": metrics.label_ranking_loss,
            },
        ),
        (
            "diabetes_ranking",
            {
                "DCG": metrics.dcg_score,
                "NDCG": metrics.ndcg_score,
                "MRR": metrics.mean_reciprocal_rank,
            },
        ),
        (
            "diabetes",
            {
                "MAE": metrics.mean_absolute_error,
                "RMSE": metrics.root_mean_squared_error,
                "R²": metrics.r2_score,
            },
        ),
    ],
)
def test_headline_of_each_kind_is_the_first_models_metrics(sample, expected):
    ds = load_sample(sample)
    got = home.headline(ds)
    assert [n.label for n in got] == list(expected)
    for number, func in zip(got, expected.values(), strict=True):
        assert number.why is None
        assert number.value == pytest.approx(func(ds.y_true, ds.score()), rel=1e-12)


def test_seed002_headline_by_hand():
    ds = load_sample("seed002_map")
    dcg, ndcg, mrr = (n.value for n in home.headline(ds))
    # relevant at positions 1, 3, 5 and at 2, 4: DCG = sum of 1 / log2(position + 1)
    q0 = 1 + 1 / np.log2(4) + 1 / np.log2(6)
    q1 = 1 / np.log2(3) + 1 / np.log2(5)
    assert dcg == pytest.approx((q0 + q1) / 2)
    assert mrr == pytest.approx((1 + 1 / 2) / 2)
    ideal0 = 1 + 1 / np.log2(3) + 1 / np.log2(4)
    ideal1 = 1 + 1 / np.log2(3)
    assert ndcg == pytest.approx((q0 / ideal0 + q1 / ideal1) / 2)


def test_sample_weight_is_used_where_the_metric_takes_it():
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.4, 0.35, 0.8, 0.2, 0.7])
    w = np.array([1.0, 3.0, 0.5, 1.0, 2.0, 1.0])
    ds = Dataset("w", "binary", y, {"m": s}, sample_weight=w)
    auc, ap, gini = home.headline(ds)
    assert auc.value == pytest.approx(metrics.roc_auc_score(y, s, sample_weight=w))
    assert auc.value != pytest.approx(metrics.roc_auc_score(y, s))
    assert ap.value == pytest.approx(metrics.average_precision_score(y, s, sample_weight=w))
    assert gini.value == pytest.approx(metrics.gini(y, s))  # gini takes no weights


def test_undefined_metrics_say_why_and_the_others_still_show():
    one_class = Dataset("one", "binary", np.array([1, 1, 1]), {"m": np.array([0.2, 0.7, 0.1])})
    auc, ap, gini = home.headline(one_class)
    assert auc.value is None and "single class" in auc.why
    assert gini.value is None and gini.why == auc.why
    assert ap.value == 1.0 and ap.why is None
    one_col = Dataset("col", "multilabel", np.array([[1], [0], [1]]), {"m": np.ones((3, 1))})
    cov, lrap, loss = home.headline(one_col)
    assert cov.value is None and "at least 2 columns" in cov.why
    assert loss.value is None and lrap.value == 1.0


def test_cached_headline_equals_the_page_model():
    ds = load_sample("imbalanced")
    assert cache.home.headline(ds) == home.headline(ds)
