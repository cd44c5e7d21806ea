"""AppTest tests for the entry point and the Home page."""

import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample, sample_names
from tests.conftest import APP, metric


@pytest.fixture
def at():
    return AppTest.from_file(APP, default_timeout=30).run()


def test_home_renders_default_sample_with_headline_numbers(at):
    assert not at.exception
    assert at.title[0].value == "Metric Explorer"
    ds = load_sample("balanced")
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(ds.y_true, ds.score()))
    assert metric(at, "Average precision") == fmt(
        metrics.average_precision_score(ds.y_true, ds.score())
    )
    assert at.query_params["ds"] == ["balanced"] or at.query_params["ds"] == "balanced"


def test_picker_switches_to_seed003_and_shows_lrap_0_7778(at):
    at.selectbox(key="dataset_picker").set_value("seed003_lrap").run()
    assert not at.exception
    assert metric(at, "LRAP") == "0.7778"
    ds = load_sample("seed003_lrap")
    assert metric(at, "Coverage error") == fmt(metrics.coverage_error(ds.y_true, ds.score()))
    assert metric(at, "Ranking loss") == fmt(metrics.label_ranking_loss(ds.y_true, ds.score()))


def test_link_with_ds_opens_that_sample():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["ds"] = "seed001_dcg"
    at.run()
    assert not at.exception
    ds = load_sample("seed001_dcg")
    assert metric(at, "DCG") == fmt(metrics.dcg_score(ds.y_true, ds.score()))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(ds.y_true, ds.score()))


@pytest.mark.parametrize("name", sample_names())
def test_home_renders_every_sample_without_exception(at, name):
    at.selectbox(key="dataset_picker").set_value(name).run()
    assert not at.exception
    assert len(at.metric) == 3
