"""The Leaderboard in AppTest: its table is metrics' numbers, its controls move them and
write the link, a pair opens Compare two models on that pair."""

from __future__ import annotations

import numpy as np

import metrics
from explorer.formatting import fmt
from explorer.pages import leaderboard as lb
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import metric, open_page

PAGE = script("leaderboard")


def _table(at):
    return next(d.value for d in at.dataframe if d.value.columns[-1].endswith("beats"))


def test_the_table_is_compare_models_and_a_pair_opens_compare():
    ds = load_sample("breast_cancer_five")
    y, scores = ds.y_true, {m: ds.score(m) for m in ds.model_names}
    at = open_page(PAGE, "breast_cancer_five")
    table = _table(at)
    auc = {m: metrics.roc_auc_score(y, s) for m, s in scores.items()}
    assert table["model"].tolist() == sorted(auc, key=auc.get, reverse=True)
    np.testing.assert_allclose(table["ROC AUC"], [auc[m] for m in table["model"]], rtol=1e-12)
    delong = metrics.compare_models(
        metrics.roc_auc_score, y, scores, test="delong", n_resamples=None
    )
    beats = dict(zip(ds.model_names, metrics.letters(delong), strict=True))
    assert [b if b != "—" else "" for b in table["beats"]] == [beats[m] for m in table["model"]]
    assert "logreg (a) beats tree (b)" in " ".join(m.value for m in at.markdown)
    assert at.query_params["metric"] == "ROC AUC" and at.query_params["test"] == "delong"

    # two metrics: sorted by the first, a column group each, both in the link
    at.multiselect(key="lb_metric").set_value(["average precision", "ROC AUC"]).run()
    at.selectbox(key="lb_corr").set_value("bonferroni").run()
    assert not at.exception
    assert at.selectbox(key="lb_test").value == "bootstrap"  # AP has no DeLong
    boot = metrics.compare_models(
        metrics.average_precision_score, y, scores, test="bootstrap", correction="bonferroni",
        n_resamples=lb.N_RESAMPLES, random_state=lb.SEED,
    )  # fmt: skip
    table = _table(at)
    order = np.argsort(-boot.estimate, kind="stable")
    assert table["model"].tolist() == [ds.model_names[k] for k in order]
    assert (
        table["average precision 95% interval"].iloc[0]
        == f"[{fmt(boot.low[order[0]])}, {fmt(boot.high[order[0]])}]"
    )
    got = [b if b != "—" else "" for b in table["average precision beats"]]
    assert got == [metrics.letters(boot)[k] for k in order]
    np.testing.assert_allclose(table["ROC AUC"], [auc[m] for m in table["model"]], rtol=1e-12)
    auc_boot = metrics.compare_models(
        metrics.roc_auc_score, y, scores, test="bootstrap", correction="bonferroni",
        n_resamples=lb.N_RESAMPLES, random_state=lb.SEED,
    )  # fmt: skip
    got = [b if b != "—" else "" for b in table["ROC AUC beats"]]
    assert got == [metrics.letters(auc_boot)[k] for k in order]
    assert at.query_params["metric"] == "average precision;ROC AUC"
    assert at.query_params["test"] == "bootstrap" and at.query_params["corr"] == "bonferroni"

    last = boot.pairs.shape[0] - 1  # knn vs forest
    at.selectbox(key="lb_pair").set_value(last).run()
    i, j = boot.pairs[last]
    at.button(key="lb_open_pair").click().run()
    assert not at.exception
    assert at.query_params["a"] == ds.model_names[i] and at.query_params["b"] == ds.model_names[j]
    assert metric(at, "ROC AUC of A") == fmt(auc[ds.model_names[i]])


def test_one_model_says_why_there_is_nothing_to_rank():
    at = open_page(PAGE, "imbalanced")
    notice = " ".join(i.value for i in at.info)
    assert "nothing to rank" in notice and "one model" in notice
    assert not at.dataframe


def test_the_resamples_run_under_a_status_box_that_ends_complete(monkeypatch):
    from views.leaderboard import panel

    monkeypatch.setattr(panel, "PROGRESS_FROM", 0.0)  # a progress line at any size
    at = open_page(PAGE, "breast_cancer_five", metric="average precision")
    (status,) = at.status
    assert status.label == "Resampled"
    ds = load_sample("breast_cancer_five")
    ap = {m: metrics.average_precision_score(ds.y_true, ds.score(m)) for m in ds.model_names}
    assert _table(at)["model"].iloc[0] == max(ap, key=ap.get)
    assert metric(at, "Best average precision") == fmt(max(ap.values()))
