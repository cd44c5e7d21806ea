"""Compare two models, in AppTest: the page's numbers are metrics' numbers."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import metric, open_page

PAGE = script("compare")


def test_binary_roc_auc_of_both_models_and_the_delong_test():
    at = open_page(PAGE, "breast_cancer")
    ds = load_sample("breast_cancer")
    y, a, b = ds.y_true, ds.score("logreg"), ds.score("tree")
    auc_a, auc_b = metrics.roc_auc_score(y, a), metrics.roc_auc_score(y, b)
    assert metric(at, "ROC AUC of A") == fmt(auc_a)
    assert metric(at, "ROC AUC of B") == fmt(auc_b)
    assert metric(at, "ROC AUC: B - A") == fmt(auc_b - auc_a)
    test = metrics.delong_test(y, a, b)
    words = " ".join(m.value for m in at.markdown)
    assert f"(DeLong test, p = {test.p_value:.2g})" in words
    assert "logreg is better: tree's ROC AUC is lower" in words
    assert at.query_params["a"] == "logreg" and at.query_params["b"] == "tree"


def test_swapping_the_models_swaps_the_numbers_and_the_link():
    at = open_page(PAGE, "breast_cancer")
    before_a = metric(at, "ROC AUC of A")
    at.selectbox(key="cmp_a").set_value("tree").run()
    at.selectbox(key="cmp_b").set_value("logreg").run()
    assert not at.exception
    assert metric(at, "ROC AUC of B") == before_a
    assert at.query_params["a"] == "tree" and at.query_params["b"] == "logreg"


def test_a_link_opened_fresh_shows_the_same_numbers():
    at = open_page(PAGE, "diabetes", a="tree", b="linear")
    ds = load_sample("diabetes")
    mae_tree = metrics.mean_absolute_error(ds.y_true, ds.score("tree"))
    mae_lin = metrics.mean_absolute_error(ds.y_true, ds.score("linear"))
    assert metric(at, "MAE of A") == fmt(mae_tree)
    assert metric(at, "MAE of B") == fmt(mae_lin)
    r2 = metrics.r2_score(ds.y_true, ds.score("linear"))
    assert metric(at, "R² of B") == fmt(r2)


@pytest.mark.parametrize(
    ("sample", "label", "per_sample"),
    [
        ("digit_properties", "LRAP", metrics.lrap_per_sample),
        ("diabetes_ranking", "NDCG", metrics.ndcg_per_sample),
    ],
)
def test_matrix_kinds_compare_the_means_of_per_sample_values(sample, label, per_sample):
    at = open_page(PAGE, sample)
    ds = load_sample(sample)
    a_name, b_name = ds.model_names[:2]
    va = per_sample(ds.y_true, ds.score(a_name))
    vb = per_sample(ds.y_true, ds.score(b_name))
    assert metric(at, f"{label} of A") == fmt(va.mean())
    assert metric(at, f"{label} of B") == fmt(vb.mean())
    p = metrics.paired_test(vb, va, method="t").p_value
    words = " ".join(m.value for m in at.markdown)
    assert f"(paired t-test, p = {p:.2g})" in words or p < 1e-4
    # the sample B lost most on is the first row of its table
    gain = vb - va
    worst = int(np.argmin(gain))
    losses = at.dataframe[0].value
    assert losses["sample"].iloc[0] == ds.sample_ids[worst]
    assert losses["B better by"].iloc[0] == pytest.approx(gain[worst])


def test_the_binary_per_sample_values_are_deLong_placements():
    ds = load_sample("balanced")
    p = metrics.auc_placements(ds.y_true, ds.score("good"))
    pos = ds.y_true == 1
    auc = metrics.roc_auc_score(ds.y_true, ds.score("good"))
    assert p[pos].mean() == pytest.approx(auc) and p[~pos].mean() == pytest.approx(auc)


def test_a_dataset_with_one_model_says_why_and_opens_one_with_two():
    at = open_page(PAGE, "seed002_auc8")
    assert "has one model" in at.info[0].value
    assert not at.metric
    at.button(key="cmp_open_sample").click().run()
    assert not at.exception
    assert metric(at, "ROC AUC of A")  # breast_cancer: two models


def test_the_same_model_twice_is_refused_kindly():
    at = open_page(PAGE, "breast_cancer")
    at.selectbox(key="cmp_b").set_value("logreg").run()
    assert not at.exception
    assert "A and B are the same model" in at.info[0].value
    assert not at.metric
