"""explorer.intervals: every headline interval is metrics.bootstrap_ci with the app's
seed, around the number the page shows."""

from __future__ import annotations

import functools

import numpy as np
import pandas as pd
import pytest

import metrics
from explorer import intervals
from explorer.datasets import Dataset
from explorer.intervals import CONFIDENCE, N_RESAMPLES, SEED
from explorer.pages import dcg, home, label_ranking, multilabel, regression, retrieval
from explorer.pages.curves import rates
from explorer.samples import load_sample
from tests.conftest import weights


def ci(metric, *arrays):
    return metrics.bootstrap_ci(
        metric, *arrays, n_resamples=N_RESAMPLES, confidence=CONFIDENCE, random_state=SEED
    )


def close(interval, expected, tol=1e-12):
    assert interval.why is None, interval.why
    assert interval.estimate == pytest.approx(expected.estimate, abs=tol)
    assert interval.low == pytest.approx(expected.low, abs=tol)
    assert interval.high == pytest.approx(expected.high, abs=tol)


def test_a_mean_is_the_bootstrap_of_the_per_sample_mean():
    rng = np.random.default_rng(3)
    v = rng.random(500)
    close(intervals.mean_interval(v), ci(np.mean, v))
    signed = v - 0.5  # the np.mean path
    close(intervals.mean_interval(signed), ci(np.mean, signed))
    w = weights(3, 500)
    generic = ci(lambda a, b: float(a @ b / b.sum()), v, w)  # one call per resample
    close(intervals.mean_interval(v, w), generic)  # two fast bootstraps, the same resamples
    signed_generic = ci(lambda a, b: float(a @ b / b.sum()), signed, w)
    close(intervals.mean_interval(signed, w), signed_generic)  # the generic path itself


def test_home_is_the_bootstrap_of_its_metrics():
    ds = load_sample("balanced")
    got = intervals.home(ds)
    y, s = ds.y_true, ds.score()
    close(got["ROC AUC"], ci(metrics.roc_auc_score, y, s))
    close(got["Average precision"], ci(metrics.average_precision_score, y, s))
    close(got["Gini"], ci(metrics.gini, y, s))
    shown = {n.label: n.value for n in home.headline(ds)}
    assert all(got[k].estimate == pytest.approx(v, abs=1e-12) for k, v in shown.items())


def test_graded_home_uses_the_fast_mean_path():
    ds = load_sample("diabetes_ranking")
    got = intervals.home(ds)
    close(got["NDCG"], ci(metrics.ndcg_score, ds.y_true, ds.score()))
    close(got["MRR"], ci(metrics.mean_reciprocal_rank, ds.y_true, ds.score()))


def test_label_ranking_means_equal_the_page_and_the_metric_bootstrap():
    ds = load_sample("digit_properties")
    res = label_ranking.summary(ds, "model")
    got = intervals.label_ranking(res.contrib)
    assert got["LRAP"].estimate == pytest.approx(res.lrap, abs=1e-12)
    assert got["Coverage error"].estimate == pytest.approx(res.coverage, abs=1e-12)
    assert got["Ranking loss"].estimate == pytest.approx(res.loss, abs=1e-12)
    y, s = ds.y_true, ds.score()
    close(got["LRAP"], ci(metrics.label_ranking_average_precision_score, y, s), 1e-9)
    close(got["Ranking loss"], ci(metrics.label_ranking_loss, y, s), 1e-9)


def test_dcg_and_retrieval_means():
    ds = load_sample("diabetes_ranking")
    settings = dcg.Settings("model", None, 2.0, False, False)
    table = dcg.per_sample_table(ds, settings, dcg.ranking(ds, "model"))
    got = intervals.dcg(table)
    close(got["NDCG"], ci(metrics.ndcg_score, ds.y_true, ds.score()), 1e-9)
    close(got["DCG"], ci(metrics.dcg_score, ds.y_true, ds.score()), 1e-9)
    per_query, _ = retrieval.tables(ds, "model", retrieval.Settings(k=5))
    got = intervals.retrieval(per_query)
    p_at_5 = functools.partial(metrics.precision_at_k, k=5)
    close(got["P@K"], ci(p_at_5, ds.y_true, ds.score()), 1e-9)
    means = retrieval.headline(per_query)
    assert all(got[k].estimate == pytest.approx(v, abs=1e-12) for k, v in means.items())


def test_retrieval_drops_the_empty_queries_when_the_means_do():
    ds = load_sample("diabetes_ranking")
    per_query, _ = retrieval.tables(ds, "model", retrieval.Settings(k=5, level=3), "drop")
    got = intervals.retrieval(per_query, "drop")
    kept = per_query[per_query["relevant"] > 0]
    assert len(kept) < len(per_query)
    close(got["MAP@K"], ci(np.mean, kept["AP@K"].to_numpy()))
    means = retrieval.headline(per_query, "drop")
    assert got["MAP@K"].estimate == pytest.approx(means["MAP@K"], abs=1e-12)


def test_multilabel_numbers_are_the_page_numbers():
    ds = load_sample("digit_properties")
    pred, counts = multilabel.prediction(ds, "model", "threshold", 0.5, (), None)
    res = multilabel.summary(ds, pred, counts, 1.0, "0")
    got = intervals.multilabel(ds, pred, "0")
    assert got["Hamming loss"].estimate == pytest.approx(res["hamming"], abs=1e-12)
    assert got["Micro F1"].estimate == pytest.approx(res["averages"]["micro"]["f1"], abs=1e-12)
    assert got["Macro F1"].estimate == pytest.approx(res["averages"]["macro"]["f1"], abs=1e-12)
    micro = functools.partial(metrics.f1_score, average="micro", zero_division=0)
    close(got["Micro F1"], ci(micro, ds.y_true, pred.astype(int)), 1e-9)


def test_regression_with_a_moved_prediction():
    ds = load_sample("diabetes")
    got = intervals.regression(ds, "linear", "recency", 3, 250.0)
    shown = regression.headline(ds, "linear", "recency", 3, 250.0)
    for label, (value, _) in shown.items():
        assert got[label].estimate == pytest.approx(value, rel=1e-12), label
    pred = regression.moved_prediction(ds, "linear", 3, 250.0)
    close(got["RMSE"], ci(metrics.root_mean_squared_error, ds.y_true, pred), 1e-9)
    close(got["R²"], ci(metrics.r2_score, ds.y_true, pred), 1e-9)
    w = regression.sample_weights(ds, "recency")

    def weighted_mae(y, p, w):
        return metrics.mean_absolute_error(y, p, sample_weight=w)

    wmae = ci(weighted_mae, ds.y_true, pred, w)
    close(got["Weighted MAE"], wmae, 1e-9)


def test_curves_headlines_for_the_lead():
    ds = load_sample("balanced")
    got = intervals.curves_headlines(ds, "good", 0.5)
    at = rates(ds, "good", 0.5, 1.0)
    for label, key in (("Precision", "precision"), ("Recall", "recall"), ("F1", "f1")):
        assert got[label].estimate == pytest.approx(at[key], abs=1e-12)
    close(got["ROC AUC"], ci(metrics.roc_auc_score, ds.y_true, ds.score("good")))


def test_no_interval_says_why():
    # a resample that draws only the row of weight 0 has no weighted mean
    no_weight = intervals.mean_interval([1.0, 2.0], [1.0, 0.0])
    assert no_weight.why is not None and "weight 0" in no_weight.why
    assert no_weight.text().startswith("95% CI: none (")


def test_a_page_over_the_budget_refuses_every_interval_with_its_estimate(monkeypatch):
    monkeypatch.setenv("METRIC_EXPLORER_HOSTED", "1")
    table = pd.DataFrame({"DCG": np.ones(1_000_000), "NDCG": np.ones(1_000_000)})
    got = intervals.dcg(table)  # 2 x 2,000 x 10^6 x 9 ns: about 36 s, over 8 s
    assert got["DCG"] == got["NDCG"]
    assert got["DCG"].why == (
        "intervals on 1,000,000 rows would take about 36 s of computing; this server offers 8 s"
    )
    monkeypatch.delenv("METRIC_EXPLORER_HOSTED")
    assert intervals.refused(["DCG"], 48.0, 10**6) is None  # a laptop: two minutes


def test_a_checkpoint_that_raises_stops_the_resamples():
    calls = []

    def checkpoint():
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt  # what a rerun does: an exception no layer catches

    values = np.random.default_rng(0).random(20_000)  # 209 resamples per block of indices
    with pytest.raises(KeyboardInterrupt):
        intervals.mean_interval(values, checkpoint=checkpoint)
    assert len(calls) == 3  # stopped at the third block of 10


def test_multiclass_intervals_fit_the_hosted_limit_on_iris_and_a_large_table_is_refused(
    monkeypatch,
):
    monkeypatch.setenv("METRIC_EXPLORER_HOSTED", "1")  # 8 s of computing per run
    iris = load_sample("iris")
    model = iris.model_names[0]
    got = intervals.multiclass(iris, model, 2)  # 2,000 x 450 cells x 90 ns: 0.08 s
    assert all(i.why is None and i.low <= i.estimate <= i.high for i in got.values())
    assert got["Accuracy"].text() == "95% CI 0.7533 – 0.8733"
    times = 200  # 30,000 rows x 3 classes: 2,000 x 90,000 x 90 ns, about 16 s
    big = Dataset(
        "big",
        "multiclass",
        np.tile(iris.y_true, (times, 1)),
        {model: np.tile(iris.score(model), (times, 1))},
    )
    refused = intervals.multiclass(big, model, 2)
    assert {i.why for i in refused.values()} == {
        "intervals on 30,000 rows would take about 16 s of computing; this server offers 8 s"
    }
