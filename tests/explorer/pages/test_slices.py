"""The Slices page model: each group's value equals the metric on that group's rows alone
(found here without explorer.slicing), pairs of attributes, the rates against
scikit-learn's confusion matrix, the worst slices' conditions, the derivations."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from sklearn.metrics import confusion_matrix, log_loss, ndcg_score, r2_score, roc_auc_score

from explorer import slicing
from explorer.datasets import Dataset
from explorer.pages import slices
from explorer.samples import load_sample
from tests.conftest import graded_case

BREAST = load_sample("breast_cancer")


def _settings(**kw):
    return slices.Settings(**{"model": "logreg", "metric": "ROC AUC", "by": ("texture",), **kw})


def test_each_groups_roc_auc_is_scikit_learns_on_its_rows():
    f = slices.frame(BREAST, _settings())
    texture = BREAST.attribute("texture")
    for code, label in enumerate(("coarse", "smooth")):
        rows = texture == label
        i = f.groups.tolist().index(code)
        expected = roc_auc_score(BREAST.y_true[rows], BREAST.scores["logreg"][rows])
        assert f.value[i] == pytest.approx(expected, abs=1e-12)
        assert f.count[i] == rows.sum()
        assert f.low[i] <= f.value[i] <= f.high[i]
    assert f.overall == pytest.approx(roc_auc_score(BREAST.y_true, BREAST.scores["logreg"]))


def test_a_pair_of_attributes_groups_by_both_and_cut_points_are_used():
    s = _settings(by=("radius", "texture"), cuts=((12.0, 15.0), None), model="tree")
    g = slices.grouping(BREAST, s)
    radius, texture = BREAST.attribute("radius"), BREAST.attribute("texture")
    bins = np.searchsorted([12.0, 15.0], radius, side="right")
    assert len(g.labels) == len(set(zip(bins.tolist(), texture.tolist(), strict=True)))
    f = slices.frame(BREAST, s)
    for code in f.groups.tolist():
        conds = g.conditions[code]
        rows = slicing.slice_mask(BREAST, conds)
        assert np.array_equal(rows, g.codes == code)
        (a, la), (b, lb) = conds
        assert (a, b) == ("radius", "texture") and lb in ("coarse", "smooth")
        assert g.labels[code] == f"radius in {la} and texture = {lb}"
        assert np.array_equal(rows & (texture == lb), rows)


@pytest.mark.parametrize(
    ("name", "metric", "by", "reference"),
    [
        ("diabetes", "R²", ("sex",), lambda y, s: r2_score(y, s)),
        ("iris", "Log loss", ("topic",), lambda y, s: log_loss(y, s, labels=[0, 1, 2])),
    ],
)
def test_every_kind_has_each_groups_value_of_its_rows(name, metric, by, reference):
    ds = load_sample(name)
    if not ds.attributes:
        topic = np.where(np.arange(ds.n_samples) % 3 == 0, "a", "b").astype(object)
        ds = dataclasses.replace(ds, attributes={"topic": topic})
    s = slices.Settings(ds.model_names[0], metric, by)
    f = slices.frame(ds, s)
    codes = slices.grouping(ds, s).codes
    y, score = slices.arrays(ds, s.model, slices.metric_of(ds.kind, metric))
    for i, code in enumerate(f.groups.tolist()):
        rows = codes == code
        assert f.value[i] == pytest.approx(reference(y[rows], score[rows]), abs=1e-10)
    assert f.test == "permutation"  # neither has 0/1 rows: no exact test


def test_graded_ranking_slices_queries_by_a_query_attribute():
    y, s = graded_case(4, n=40)
    topic = np.where(np.arange(40) < 15, "news", "shop").astype(object)
    ds = Dataset("g", "graded", y, {"m": s + np.arange(6) * 1e-3}, attributes={"topic": topic})
    f = slices.frame(ds, slices.Settings("m", "NDCG", ("topic",)))
    for i, label in enumerate(("news", "shop")):
        rows = topic == label
        keep = y[rows].sum(axis=1) > 0  # scikit-learn's NDCG of a query with no relevant item
        per = [
            ndcg_score(y[rows][j : j + 1], ds.scores["m"][rows][j : j + 1])
            for j in range(rows.sum())
        ]
        expected = np.mean(np.where(keep, per, 0.0))
        assert f.value[i] == pytest.approx(expected, abs=1e-10)


@pytest.mark.parametrize("own", [{}, {1: 0.7, 3: 0.05}])
def test_rates_per_group_are_scikit_learns_confusion_counts_and_the_gaps_follow(own):
    labels = slices.grouping(BREAST, _settings(by=("radius",))).labels
    pairs = tuple((labels[code], t) for code, t in own.items())
    s = _settings(by=("radius",), threshold=0.3, group_thresholds=pairs)
    table, gaps = slices.rates(BREAST, s)
    codes = slices.grouping(BREAST, s).codes
    tprs, fprs = [], []
    for code, row in table.iterrows():
        rows, t = codes == code, own.get(code, 0.3)
        assert row["threshold"] == t
        pred = (BREAST.scores["logreg"][rows] >= t).astype(int)
        tn, fp, fn, tp = confusion_matrix(BREAST.y_true[rows], pred, labels=[0, 1]).ravel()
        assert (row["TP"], row["FP"], row["FN"], row["TN"]) == (tp, fp, fn, tn)
        tprs += [tp / (tp + fn)] if tp + fn else []
        fprs += [fp / (fp + tn)] if fp + tn else []
        line = slices.rate_derivation(row, "TPR")
        assert line.value == pytest.approx(tp / (tp + fn)) if tp + fn else np.isnan(line.value)
    assert gaps["Equal opportunity difference (TPR)"] == pytest.approx(max(tprs) - min(tprs))
    assert gaps["False positive rate difference"] == pytest.approx(max(fprs) - min(fprs))
    # the metric frame's TPR at the threshold uses each group's threshold too
    f = slices.frame(BREAST, dataclasses.replace(s, metric="Recall (TPR) at the threshold"))
    want = table["TPR"].to_numpy()[f.groups]
    np.testing.assert_allclose(f.value, want, rtol=0, atol=1e-12)
    per_row = np.where(codes == 1, own.get(1, 0.3), np.where(codes == 3, own.get(3, 0.3), 0.3))
    y, pred = BREAST.y_true == 1, BREAST.scores["logreg"] >= per_row
    assert f.overall == pytest.approx((y & pred).sum() / y.sum(), abs=1e-12)


def test_group_thresholds_read_back_from_their_link_text():
    labels = ("a;b", "[1, 2)", "50%")
    pairs = (("a;b", 0.25), ("50%", 1 / 3))
    text = slices.group_thresholds_text(pairs)
    assert slices.parse_group_thresholds(text, labels) == dict(pairs)
    assert slices.parse_group_thresholds(text + ";gone:0.2;[1, 2):inf", labels) == dict(pairs)
    assert slices.parse_group_thresholds("no pairs", labels) == {}


def test_the_worst_slices_are_worse_than_their_rest_and_their_conditions_select_them():
    s = _settings(metric="Accuracy at the threshold", by=("radius",))
    table, conditions, tested = slices.worst(BREAST, s)
    assert tested >= len(table) > 0 and len(conditions) == len(table)
    assert (table["worse by"] > 0).all() and table["worse by"].is_monotonic_decreasing
    pred = BREAST.scores["logreg"] >= 0.5
    for cond, (_, row) in zip(conditions, table.iterrows(), strict=True):
        rows = slicing.slice_mask(BREAST, cond)
        assert row["rows"] == rows.sum()
        assert row["Accuracy at the threshold"] == pytest.approx(
            np.mean(pred[rows] == BREAST.y_true[rows]), abs=1e-12
        )


def test_the_gap_derivation_ends_in_the_gap_and_a_page_without_attributes_says_why():
    s = _settings()
    f = slices.frame(BREAST, s)
    line = slices.gap_derivation(f, slices.grouping(BREAST, s).labels, "ROC AUC")
    assert line.value == pytest.approx(np.nanmax(f.value) - np.nanmin(f.value))
    assert "coarse" in line.latex and "smooth" in line.latex
    holm = slices.holm_derivation(f, slices.grouping(BREAST, s).labels)
    assert holm.value == pytest.approx(np.nanmin(f.p_holm))
    assert holm.value == pytest.approx(min(1.0, 2 * np.nanmin(f.p_value)))
    assert "no attributes" in slices.check(load_sample("balanced"))
    assert slices.check(BREAST) is None


def test_a_metric_of_no_threshold_is_computed_on_the_default_one_with_the_same_numbers():
    # the cache keys the frame and the search on computed_on's settings: a threshold step
    # must leave ROC AUC's numbers as they are, and move a rate's
    moved = _settings(threshold=0.7, group_thresholds=(("smooth", 0.2),))
    base = slices.computed_on(BREAST, moved)
    assert base == _settings()
    a, b = slices.frame(BREAST, moved), slices.frame(BREAST, base)
    np.testing.assert_array_equal(a.value, b.value)
    np.testing.assert_array_equal(a.p_value, b.p_value)
    assert slices.worst(BREAST, moved)[0].equals(slices.worst(BREAST, base)[0])
    tpr = dataclasses.replace(moved, metric="Recall (TPR) at the threshold")
    assert slices.computed_on(BREAST, tpr) == tpr


@pytest.mark.parametrize("metric", ["ROC AUC", "Accuracy at the threshold"])
def test_the_search_is_keyed_without_the_attributes_grouped_by_unless_cut_by_hand(metric):
    # the cache keys the worst slices on searched_on's settings: every grouping without
    # cut points of its own must find the same slices, and given cut points other ones
    by_texture = _settings(metric=metric, threshold=0.4)
    by_pair = _settings(metric=metric, threshold=0.4, by=("radius", "texture"), cuts=(None, None))
    key = slices.searched_on(BREAST, by_texture)
    assert key == slices.searched_on(BREAST, by_pair) and key.by == ()
    first = slices.worst(BREAST, by_texture)
    for other in (by_pair, key):
        table, conditions, tested = slices.worst(BREAST, other)
        assert table.equals(first[0]) and conditions == first[1] and tested == first[2]
    cut = dataclasses.replace(by_texture, by=("radius",), cuts=((12.0,),))
    assert slices.searched_on(BREAST, cut).cuts == ((12.0,),)
    radius_slices = {s for s in slices.worst(BREAST, cut)[0]["slice"] if "radius" in s}
    assert radius_slices and all(s.startswith("radius in [12, ") for s in radius_slices)
    assert not any("radius in [12, " in s for s in first[0]["slice"])  # the quartiles'
    # a group's own threshold names a group of the grouping: a rate keeps it all
    own = dataclasses.replace(by_texture, group_thresholds=(("smooth", 0.2),))
    assert slices.searched_on(BREAST, own).by == (() if metric == "ROC AUC" else ("texture",))
