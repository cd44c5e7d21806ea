"""explorer.scenario_effects: every scenario names what changes and gives its numbers
before and after; each scenario's claim (its "Watch:" note) holds on those numbers,
and the numbers are scikit-learn's (or a formula written here) on the scenario's data."""

from __future__ import annotations

import numpy as np
import pytest
import sklearn.metrics as skm

from explorer import scenarios
from explorer.samples import load_sample
from explorer.scenario_effects import dataset_of, effect, has_effect

ALL = scenarios.all_scenarios()


def rows(scenario_id: str) -> dict[str, tuple[float, float]]:
    return {r.metric: (r.before, r.after) for r in effect(scenario_id).rows}


@pytest.mark.parametrize("sc", ALL, ids=[s.id for s in ALL])
def test_every_scenario_names_its_change_and_moves_a_number(sc):
    assert has_effect(sc.id)
    e = effect(sc.id)
    assert e.changes and e.before and e.after and e.before != e.after
    assert all(np.isfinite([r.before, r.after]).all() for r in e.rows)
    # a scenario whose numbers stay put says why
    assert any(r.difference != 0 for r in e.rows) or e.note, sc.id


def test_binary_claims():
    perfect, random_, balanced = (load_sample(n) for n in ("perfect", "random", "balanced"))
    assert rows("home-perfect")["ROC AUC"][1] == 1.0 == rows("home-perfect")["AP"][1]
    assert rows("home-perfect")["Gini"][1] == 1.0
    auc_random = skm.roc_auc_score(random_.y_true, random_.score())
    assert rows("home-random")["ROC AUC"] == pytest.approx(
        (skm.roc_auc_score(balanced.y_true, balanced.score("good")), auc_random)
    )
    assert abs(auc_random - 0.5) < 0.1 and abs(rows("home-random")["Gini"][1]) < 0.2
    assert skm.roc_auc_score(perfect.y_true, perfect.score()) == 1.0
    # rare positives: AP falls much further than AUC
    auc, ap = rows("home-rare")["ROC AUC"], rows("home-rare")["AP"]
    assert ap[0] - ap[1] > 3 * (auc[0] - auc[1]) > 0
    # one confident label flipped: log loss rises by far more than AUC falls
    flipped = scenarios.flipped_label()
    auc, loss = rows("curves-flip")["ROC AUC"], rows("curves-flip")["Log loss"]
    assert auc[1] == pytest.approx(skm.roc_auc_score(flipped.y_true, flipped.score("good")))
    assert loss[1] == pytest.approx(skm.log_loss(flipped.y_true, flipped.score("good")))
    assert (loss[1] - loss[0]) / loss[0] > 10 * (auc[0] - auc[1]) / auc[0] > 0
    # five tied values: the curve has 5 steps after the origin; ties count 1/2 in AUC
    ties = load_sample("heavy_ties")
    before, after = rows("curves-ties")["ROC points"]
    assert after == 6 == np.unique(ties.score()).size + 1 and before == ties.n_samples + 1
    assert rows("curves-ties")["ROC AUC"][1] == pytest.approx(
        skm.roc_auc_score(ties.y_true, ties.score())
    )


def test_label_ranking_claims():
    tut = load_sample("seed003_lrap")
    lrap = rows("lr-tutorial")["LRAP"]
    assert lrap[0] == 0.5 and lrap[1] == pytest.approx(
        skm.label_ranking_average_precision_score(tut.y_true, tut.score())
    )
    assert int(lrap[1] * 1000) == 777
    digits = load_sample("digits")
    y, s = digits.y_true, digits.score()
    rank = (s >= s[y == 1][:, None]).sum(axis=1)  # one true label per row
    mrr, lrap = rows("lr-one-true")["mean over the samples"]
    assert mrr == pytest.approx(np.mean(1 / rank)) and lrap == pytest.approx(
        skm.label_ranking_average_precision_score(y, s)
    )
    assert mrr == pytest.approx(lrap)
    tied = scenarios.tied_ranking()
    one = rows("lr-ties")["LRAP of sample 0"]
    assert one[1] == pytest.approx(
        skm.label_ranking_average_precision_score(tied.y_true[:1], tied.score()[:1])
    )
    # optimistic: true labels a and d... a ties b and c at 0.5 and comes first: 1/1, d: 2/4
    assert one[0] == pytest.approx((1 + 2 / 4) / 2) and one[0] > one[1]


def test_dcg_claims_are_the_dcg_score_page():
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    before, after = rows("dcg-top2")["DCG of row 0"]
    assert (round(before, 2), round(after, 2)) == (9.5, 5.63)
    assert after == pytest.approx(skm.dcg_score(y[:1], s[:1], k=2))
    assert rows("dcg-tie-top")["DCG@1"] == (5.0, 7.5)
    assert rows("dcg-tie-ignored")["DCG@1 of row 1"] == (
        skm.dcg_score(y[1:], s[1:], k=1),
        skm.dcg_score(y[1:], s[1:], k=1, ignore_ties=True),
    )
    # the gain ignore_ties takes is the last tied column's (e), not the first's (a)
    assert (y[1, 0], y[1, -1]) == (10, 5) and rows("dcg-tie-ignored")["DCG@1 of row 1"][1] == 5
    ignored = next(s for s in ALL if s.id == "dcg-tie-ignored")
    assert "last tied column" in ignored.watch and "first column's gain" not in ignored.watch


def test_retrieval_claims():
    r = rows("ret-min-m-k")
    assert [round(v, 2) for v in (r["AP@5 of query 0"][1], r["AP@5 of query 1"][1])] == [0.76, 0.5]
    assert round(r["MAP@5"][1], 2) == 0.63 and r["MAP@5"][0] < r["MAP@5"][1]
    assert r["AP@5 of query 0"][0] == pytest.approx((1 + 2 / 3 + 3 / 5) / 5)
    # all relevant items: at K = 2 MAP@K goes down; at K = 5 nothing changes (M <= K)
    before, after = rows("ret-all-relevant")["MAP@2"]
    assert (before, after) == pytest.approx(((1 / 2 + 0.5 / 2) / 2, (1 / 3 + 0.5 / 2) / 2))
    assert after < before and "M <= 5" in effect("ret-all-relevant").note
    sc = next(s for s in ALL if s.id == "ret-all-relevant")
    assert sc.settings["k"] == "2"
    drop = rows("ret-drop-empty")
    for name in ("P@5", "R@5", "MAP@5", "MRR"):
        assert drop[name][1] > drop[name][0], name
    assert drop["NDCG@5"][1] < drop["NDCG@5"][0]  # why the note says NDCG need not rise


def test_multilabel_claims():
    ds = dataset_of(next(s for s in ALL if s.id == "ml-high-threshold"))
    y, s = ds.y_true, ds.score()
    assert y[:, 2].mean() <= 0.1  # a rare label
    r = rows("ml-high-threshold")
    assert r["rare label predicted (samples)"] == (4, 0)
    micro = skm.f1_score(y, (s >= 0.9).astype(int), average="micro", zero_division=0)
    macro = skm.f1_score(y, (s >= 0.9).astype(int), average="macro", zero_division=0)
    assert r["Micro F1 (O-F1)"][1] == pytest.approx(micro)
    assert r["Macro F1 (C-F1)"][1] == pytest.approx(macro)
    fall = {k: v[0] - v[1] for k, v in r.items()}
    assert fall["Macro F1 (C-F1)"] > fall["Micro F1 (O-F1)"] > 0
    props = load_sample("digit_properties")
    before, after = rows("ml-top1")["Subset accuracy"]
    top = props.score().argmax(axis=1)
    assert (
        after == pytest.approx(skm.accuracy_score(props.y_true, np.eye(5, dtype=int)[top]))
        and after < before
    )
    pred = (props.score() >= 0.99).astype(int)
    assert rows("ml-zero-division")["Macro precision"] == (
        skm.precision_score(props.y_true, pred, average="macro", zero_division=0),
        skm.precision_score(props.y_true, pred, average="macro", zero_division=1),
    )


def test_regression_claims():
    ds = load_sample("diabetes")
    y, p = ds.y_true, ds.score()
    r = rows("reg-outlier")
    assert r["RMSE"][1] - r["RMSE"][0] > 3 * (r["MAE"][1] - r["MAE"][0]) > 0
    moved = p.copy()
    moved[0] += 500
    assert r["RMSE"][1] == pytest.approx(skm.root_mean_squared_error(y, moved))
    assert r["MAE"][1] == pytest.approx(skm.mean_absolute_error(y, moved))
    # recency weights: 2 i / (n + 1), the later samples weigh more
    w = 2 * np.arange(1, ds.n_samples + 1) / (ds.n_samples + 1)
    got = rows("reg-recency")["MAE"]
    assert got == pytest.approx(
        (skm.mean_absolute_error(y, p), skm.mean_absolute_error(y, p, sample_weight=w))
    )
    zero = scenarios.zero_target()
    mape = rows("reg-zero")["MAPE (a fraction)"]
    assert mape[0] == pytest.approx(
        skm.mean_absolute_percentage_error(zero.y_true[1:], zero.score()[1:])
    )
    assert mape[1] == pytest.approx(skm.mean_absolute_percentage_error(zero.y_true, zero.score()))
    assert mape[0] < 1 < 1e6 < mape[1]


def test_compare_and_multiclass_claims():
    bal, bc = load_sample("balanced"), load_sample("breast_cancer")
    assert rows("cmp-good-weak")["ROC AUC"] == pytest.approx(
        tuple(skm.roc_auc_score(bal.y_true, bal.score(m)) for m in ("weak", "good"))
    )
    tree = rows("cmp-tree")
    assert tree["ROC AUC"][1] < tree["ROC AUC"][0] and tree["AP"][1] < tree["AP"][0]
    assert np.unique(bc.score("tree")).size == 4
    iris = load_sample("iris")
    t = iris.y_true.argmax(axis=1)
    assert rows("mc-iris-top2")["Top-k accuracy"] == pytest.approx(
        tuple(skm.top_k_accuracy_score(t, iris.score(), k=k) for k in (1, 2))
    )
    digits = load_sample("digits10")
    t, pred = digits.y_true.argmax(axis=1), digits.score().argmax(axis=1)
    recall = skm.recall_score(t, pred, average=None)
    ((name, (count, share)),) = rows("mc-digits-recall").items()
    assert (
        share == pytest.approx(recall.min())
        and count == ((t == pred) & (t == recall.argmin())).sum()
    )


def test_leaderboard_claims_are_delong_one_pair_at_a_time_corrected_by_statsmodels():
    from itertools import combinations

    from statsmodels.stats.multitest import multipletests

    from metrics import delong_test

    ds = load_sample("breast_cancer_five")
    pairs = combinations(ds.model_names, 2)
    raw = np.array([delong_test(ds.y_true, ds.score(a), ds.score(b)).p_value for a, b in pairs])

    def differ(method):
        p = raw if method is None else multipletests(raw, alpha=0.05, method=method)[1]
        return (p <= 0.05).sum(), p.min()

    holm, bh = rows("lb-holm"), rows("lb-bh")
    none_, holm_, bh_ = differ(None), differ("holm"), differ("fdr_bh")
    assert holm["pairs that differ at 0.05 (of 10)"] == (none_[0], holm_[0]) == (5, 1)
    assert holm["smallest p-value"] == pytest.approx((none_[1], holm_[1]), rel=1e-9)
    assert bh["pairs that differ at 0.05 (of 10)"] == (holm_[0], bh_[0]) == (1, 4)
    assert bh["smallest p-value"] == pytest.approx((holm_[1], bh_[1]), rel=1e-9)
