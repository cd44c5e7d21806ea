"""ranx's compare report reproduced under its own settings (tests/fixtures/ranx_compare:
four TREC runs beside one qrels file, ranx's output and the script that made it): the
runs read as models as the Data page reads them, and the Leaderboard's NDCG and DCG under
the paired t-test or Fisher's randomization test, no correction, alpha = ranx's max_p,
give ranx's values, p-values and letters."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import metrics
from explorer.io.uploads import read_trec_upload
from explorer.pages import leaderboard as lb

HERE = Path(__file__).parents[2] / "fixtures" / "ranx_compare"
EXPECTED = json.loads((HERE / "expected.json").read_text())
#: ranx's test names, by ours.
TESTS = {"t": "student", "randomization": "fisher"}
LABELS = {"ndcg": "NDCG", "dcg": "DCG"}


@pytest.fixture(scope="module")
def ds():
    runs = [(f"{tag}.run", (HERE / f"{tag}.run").read_bytes()) for tag in EXPECTED["models"]]
    qrels = (HERE / "qrels.txt").read_bytes()
    return read_trec_upload("qrels.txt", qrels, *runs[0], more_runs=runs[1:])


def _ranx_p(report: dict, metric: str, pairs, names) -> np.ndarray:
    p = {(x["a"], x["b"]): x["p_value"] for x in report["pairs"] if x["metric"] == metric}
    return np.array([p[names[i], names[j]] for i, j in pairs])


@pytest.mark.parametrize("test", list(TESTS))
@pytest.mark.parametrize("metric", list(LABELS))
def test_compare_models_gives_ranx_values_p_values_and_letters(ds, test, metric):
    settings = EXPECTED["settings"]
    report = EXPECTED["reports"][TESTS[test]]
    assert ds.model_names == tuple(EXPECTED["models"])  # each run named by its tag
    fn, y, scores = lb.inputs(ds, LABELS[metric])
    r = metrics.compare_models(
        fn, y, scores, test=test, correction=None, n_resamples=None, random_state=0,
        n_permutations=settings["n_permutations"],
    )  # fmt: skip
    values = [report["values"][m][metric] for m in r.names]
    np.testing.assert_allclose(r.estimate, values, rtol=1e-12)
    want = _ranx_p(report, metric, r.pairs, r.names)
    if test == "t":  # the same statistic and distribution: the same p-value
        np.testing.assert_allclose(r.p_value, want, rtol=1e-6, atol=1e-15)
    else:  # two draws of 1,000 sign patterns; ranx counts k/n, we count (k+1)/(n+1)
        n = settings["n_permutations"]
        sd = np.sqrt(2 * want * (1 - want) / n)
        assert np.all(np.abs(r.p_value - want) <= 5 * sd + 2 / n), (r.p_value, want)
    np.testing.assert_array_equal(r.p_adjusted, r.p_value)  # no correction
    assert metrics.letters(r, settings["max_p"]) == [report["letters"][metric][m] for m in r.names]


@pytest.mark.parametrize("test", list(TESTS))
def test_the_page_offers_ranx_settings_and_shows_its_letters(ds, test):
    report = EXPECTED["reports"][TESTS[test]]
    alpha = EXPECTED["settings"]["max_p"]
    assert alpha in lb.ALPHAS and "none" in lb.corrections_for(test)
    settings = lb.Settings("NDCG", test, "none", alpha, more=("DCG",))
    for each in lb.each_metric(ds, settings):
        assert each.test == test and each.correction == "none"
        metric = each.metric.lower()
        rows = lb.board(ds, each).rows
        got = {row["model"]: (row["value"], row["beats"]) for row in rows}
        for model in EXPECTED["models"]:
            value, beats = got[model]
            assert value == pytest.approx(report["values"][model][metric], rel=1e-12)
            assert beats == report["letters"][metric][model]
