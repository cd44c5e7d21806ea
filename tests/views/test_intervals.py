"""95% intervals, in AppTest: a sidebar toggle, off by default, in
the link as ``ci=1``; with it on, each headline shows its interval, equal to
metrics.bootstrap_ci with the app's seed, and the link opened fresh shows the same."""

from __future__ import annotations

import functools

import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.intervals import CONFIDENCE, N_RESAMPLES, SEED
from explorer.registry import script
from explorer.samples import load_sample
from explorer.ui import classroom
from tests.conftest import APP, open_page


def expected(metric, *arrays) -> str:
    r = metrics.bootstrap_ci(
        metric, *arrays, n_resamples=N_RESAMPLES, confidence=CONFIDENCE, random_state=SEED
    )
    return f"95% CI {fmt(r.low)} – {fmt(r.high)}"


def shown(at) -> dict[str, str]:
    """Each headline's interval line, by the label of the metric above it."""
    out = {}
    for column in at.main.columns:
        labels = [m.label for m in column.metric]
        lines = [c.value for c in column.caption if c.value.startswith("95% CI")]
        if len(labels) == 1 and lines:
            out[labels[0]] = lines[0]
    return out


def reopen(at: AppTest, page: str) -> AppTest:
    """The address of ``at`` opened in a fresh session."""
    other = AppTest.from_file(APP, default_timeout=60)
    other.query_params.update(dict(at.query_params))
    other.switch_page(page).run()
    assert not other.exception
    return other


def test_off_by_default_and_the_toggle_writes_the_link():
    at = open_page(script("home"), "balanced")
    assert at.sidebar.toggle(key=classroom.CI_TOGGLE).value is False
    assert shown(at) == {} and "ci" not in at.query_params
    at.sidebar.toggle(key=classroom.CI_TOGGLE).set_value(True).run()
    assert at.query_params["ci"] == "1"
    ds = load_sample("balanced")
    y, s = ds.y_true, ds.score()
    assert shown(at) == {
        "ROC AUC": expected(metrics.roc_auc_score, y, s),
        "Average precision": expected(metrics.average_precision_score, y, s),
        "Gini": expected(metrics.gini, y, s),
    }
    assert shown(reopen(at, script("home"))) == shown(at)
    at.sidebar.toggle(key=classroom.CI_TOGGLE).set_value(False).run()
    assert shown(at) == {} and "ci" not in at.query_params


def test_the_setting_stays_on_every_page():
    at = open_page(script("home"), "digit_properties", ci="1")
    at.query_params.clear()  # a sidebar click drops the address's parameters
    at.switch_page(script("label_ranking")).run()
    assert at.query_params["ci"] == "1"
    ds = load_sample("digit_properties")
    y, s = ds.y_true, ds.score()
    got = shown(at)
    assert got["LRAP"] == expected(metrics.label_ranking_average_precision_score, y, s)
    assert got["Ranking loss"] == expected(metrics.label_ranking_loss, y, s)
    assert got["Coverage error"] == expected(metrics.coverage_error, y, s)


@pytest.mark.parametrize("k", [3, 5])
def test_retrieval_intervals_follow_k_and_the_link(k):
    at = open_page(script("retrieval"), "diabetes_ranking", ci="1", k=str(k))
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score()
    got = shown(at)
    assert got["P@K"] == expected(functools.partial(metrics.precision_at_k, k=k), y, s)
    assert got["MRR"] == expected(metrics.mean_reciprocal_rank, y, s)
    assert shown(reopen(at, script("retrieval"))) == got


def test_dcg_intervals():
    at = open_page(script("dcg"), "diabetes_ranking", ci="1")
    ds = load_sample("diabetes_ranking")
    y, s = ds.y_true, ds.score()
    assert shown(at) == {
        "DCG": expected(metrics.dcg_score, y, s),
        "NDCG": expected(metrics.ndcg_score, y, s),
    }


def test_regression_intervals_with_a_moved_prediction():
    at = open_page(script("regression"), "diabetes", ci="1", outlier="2", shift="300")
    ds = load_sample("diabetes")
    y, pred = ds.y_true, ds.score("linear").copy()
    pred[2] += 300
    got = shown(at)
    assert got["MAE"] == expected(metrics.mean_absolute_error, y, pred)
    assert got["RMSE"] == expected(metrics.root_mean_squared_error, y, pred)
    assert got["R²"] == expected(metrics.r2_score, y, pred)
    assert shown(reopen(at, script("regression"))) == got


def test_multilabel_intervals():
    at = open_page(script("multilabel"), "digit_properties", ci="1", t="0.60")
    ds = load_sample("digit_properties")
    pred = (ds.score() >= 0.6).astype(int)
    micro = functools.partial(metrics.f1_score, average="micro", zero_division=0)
    got = shown(at)
    assert got["Micro F1"] == expected(micro, ds.y_true, pred)
    assert got["Hamming loss"] == expected(metrics.hamming_loss, ds.y_true, pred)
    assert set(got) == {
        "Hamming loss",
        "Subset accuracy",
        "Micro F1",
        "Macro F1",
        "Jaccard (samples)",
    }


def test_hidden_numbers_hide_their_intervals_too():
    at = open_page(script("dcg"), "diabetes_ranking", ci="1", reveal="0")
    assert shown(at) == {}
    at.button(key="dcg_reveal").click().run()
    assert set(shown(at)) == {"DCG", "NDCG"}


def test_the_curves_panel_shows_the_intervals_of_its_headline():
    at = open_page(script("curves"), "breast_cancer", ci="1", t="0.5")
    assert not at.exception
    ds = load_sample("breast_cancer")
    y, s = ds.y_true, ds.score("logreg")
    lines = shown(at)
    assert lines["ROC AUC"] == expected(metrics.roc_auc_score, y, s)
    assert lines["Average precision"] == expected(metrics.average_precision_score, y, s)
    # the rates of the matrix (TPR, FPR, ...) are drawn by the operating-point component,
    # which moves in the browser: the intervals are those of the headline row
    assert set(lines) >= {"Log loss", "Precision", "Accuracy", "Recall"}
    assert shown(reopen(at, script("curves"))) == lines
