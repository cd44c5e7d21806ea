"""The Label ranking page model (explorer.pages.label_ranking) and its caches, without AppTest."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import label_ranking as page
from explorer.samples import load_sample
from explorer.ui import cache
from metrics._ranks import max_rank
from tests.conftest import multilabel_case, weights

SEED = load_sample("seed003_lrap")  # labels human, cat, dog


def tied(seed: int = 0, n: int = 30, m: int = 5, *, weighted: bool = True) -> Dataset:
    """Tied multilabel data with empty and full rows, ids, names and sample weights."""
    y, s = multilabel_case(seed, n=n, m=m)
    return Dataset(
        "tied",
        "multilabel",
        y,
        {"m": s, "other": np.random.default_rng(seed).random(s.shape)},
        sample_weight=weights(seed, n) if weighted else None,
        label_names=tuple("abcdefgh"[:m]),
        sample_ids=tuple(f"s{i}" for i in range(n)),
    )


def edited(ds: Dataset, model: str, sample: int, row) -> Dataset:
    scores = np.array(ds.score(model))
    scores[sample] = row
    return Dataset(ds.name, ds.kind, ds.y_true, {model: scores}, sample_weight=ds.sample_weight)


# ------------------------------------------------------------------ the summary
def test_seed003_summary_by_hand():
    s = page.summary(SEED, "model")
    # LRAP: human at rank 2 of 3 -> 1/2; human 1/1 and dog 2/3 -> 5/6; 1 -> mean 7/9
    assert s.lrap == pytest.approx(7 / 9) and round(s.lrap, 4) == 0.7778
    assert s.coverage == pytest.approx((2 + 3 + 2) / 3)  # deepest true label per sample
    assert s.best_coverage == pytest.approx((1 + 2 + 2) / 3)  # the true labels per sample
    assert s.loss == pytest.approx((1 / 2 + 1 / 2 + 0) / 3)
    assert s.contrib["lrap"].tolist() == pytest.approx([1 / 2, 5 / 6, 1])
    assert s.contrib["n_misordered"].tolist() == [1, 1, 0]
    assert s.ties.loc["max", "lrap"] == pytest.approx(7 / 9)
    assert not page.one_true_label(s.contrib)


@pytest.mark.parametrize("weighted", [False, True])
def test_summary_equals_scikit_learn(weighted):
    ds = tied(1, weighted=weighted)
    y, s, w = ds.y_true, ds.score("other"), ds.sample_weight
    got = page.summary(ds, "other")
    assert got.lrap == pytest.approx(
        skm.label_ranking_average_precision_score(y, s, sample_weight=w)
    )
    assert got.coverage == pytest.approx(skm.coverage_error(y, s, sample_weight=w))
    assert got.loss == pytest.approx(skm.label_ranking_loss(y, s, sample_weight=w))
    assert got.best_coverage == pytest.approx(skm.coverage_error(y, y + 0.0, sample_weight=w))
    np.testing.assert_allclose(got.contrib["coverage"], metrics.coverage_per_sample(y, s))
    pd.testing.assert_frame_equal(got.ties, metrics.tie_broken_summary(y, s, sample_weight=w))


def test_digits_lrap_equals_mrr():
    ds = load_sample("digits")
    s = page.summary(ds, "model")
    assert page.one_true_label(s.contrib)
    assert page.mrr(ds, "model") == pytest.approx(s.lrap, abs=1e-12)
    assert page.mrr(SEED, "model") == pytest.approx((1 / 2 + 1 + 1) / 3)  # first true label


# ------------------------------------------------------------------ what if?
@pytest.mark.parametrize("weighted", [False, True])
def test_what_if_equals_the_summary_of_the_edited_matrix(weighted):
    ds = tied(2, weighted=weighted)
    base = page.summary(ds, "m")
    for sample, row in (
        (5, np.full(5, 0.25)),
        (7, [0.9, 0.1, 0.9, 0.4, 0.0]),
        (0, [1, 2, 3, 4, 5]),
    ):
        got = page.what_if(ds, "m", base, sample, row)
        full = page.summary(edited(ds, "m", sample, row), "m")
        for name in ("coverage", "lrap", "loss", "best_coverage"):
            assert getattr(got, name) == pytest.approx(getattr(full, name), rel=1e-12)
        cols = ["coverage", "lrap", "ranking_loss", "lrap_moves_mean", "coverage_moves_mean"]
        np.testing.assert_allclose(got.contrib[cols], full.contrib[cols], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got.ties, full.ties, rtol=1e-12)
    assert base.contrib.equals(page.summary(ds, "m").contrib)  # the base is not changed


def test_what_if_of_the_models_own_scores_is_none_and_nan_is_refused():
    base = page.summary(SEED, "model")
    assert page.what_if(SEED, "model", base, 1, SEED.score()[1].copy()) is None
    lifted = page.what_if(SEED, "model", base, 0, [2.0, 0.5, 1.0])
    assert lifted.lrap == pytest.approx((1 + 5 / 6 + 1) / 3)
    assert lifted.best_coverage == base.best_coverage
    with pytest.raises(metrics.MetricInputError, match="NaN at column 1"):
        page.what_if(SEED, "model", base, 0, [0.75, np.nan, 1.0])


def test_apply_cells_scores_of_and_rank_table_use_the_edit_without_mutating():
    row = SEED.score()[1]
    assert page.apply_cells(row, {2: 0.2, 0: 0.0}).tolist() == [0.0, 0.2, 0.2]
    assert row.tolist() == [1.0, 0.2, 0.1]
    scores = SEED.score()
    shown = page.scores_of(scores, [2, 1], 1, np.array([0.5, 0.5, 0.1]))
    assert shown.tolist() == [[0.9, 0.7, 0.6], [0.5, 0.5, 0.1]]
    assert scores[1].tolist() == [1.0, 0.2, 0.1]
    assert page.scores_of(scores, [1], 1, None).tolist() == [[1.0, 0.2, 0.1]]
    ranks = page.rank_table(scores, [0, 1, 2], 1, np.array([0.5, 0.5, 0.1]))
    assert ranks.rank.tolist() == [[2, 3, 1], [2, 2, 3], [1, 2, 3]]  # tied labels: deepest rank
    assert ranks.tie_size[1].tolist() == [2, 2, 1]


def test_rank_frame_holds_every_rank_and_label():
    ds = tied(3)
    new = np.array([0.3, 0.3, 0.3, 0.1, 0.9])
    shown = page.scores_of(ds.score("m"), np.arange(ds.n_samples), 4, new)
    frame = page.rank_frame(shown, ds.y_true, ds.sample_ids, ds.label_names)
    assert list(frame.columns) == ["id"] + [f"rank_{c}" for c in "abcde"] + [
        f"true_{c}" for c in "abcde"
    ]
    assert frame["id"].tolist() == list(ds.sample_ids)
    np.testing.assert_array_equal(frame.filter(like="rank_"), max_rank(shown))
    assert frame.filter(like="rank_").iloc[4].tolist() == [4, 4, 4, 5, 1]
    np.testing.assert_array_equal(frame.filter(like="true_"), ds.y_true.astype(int))


# ------------------------------------------------------------------ one sample
@pytest.mark.parametrize("ties", metrics.TIE_RULES)
def test_sample_steps_end_at_the_sample_values(ties):
    ds = tied(4, weighted=False)
    y, s = ds.y_true, ds.score("m")
    per = metrics.tie_broken_per_sample(y, s, ties=ties)
    loss = metrics.ranking_loss_per_sample(y, s)
    for i in range(ds.n_samples):
        one = page.sample_steps(y[i], s[i], ties)
        assert one.values == pytest.approx((per.lrap[i], per.coverage[i], loss[i]))
        assert one.ranking["running_value"].iloc[-1] == pytest.approx(
            metrics.lrap_per_sample(y, s)[i]
        )
        assert one.ties.loc[ties, "lrap"] == pytest.approx(per.lrap[i])


def test_seed003_sample_1_walk_through():
    one = page.sample_steps(SEED.y_true[1], SEED.score()[1], "max")
    true_rows = page.with_label_names(one.lrap, SEED.label_names)
    true_rows = true_rows[true_rows["is_true"]]
    assert true_rows[["label_name", "n_true_at_or_above", "rank"]].values.tolist() == [
        ["human", 1, 1],
        ["dog", 2, 3],
    ]  # 1/1 and 2/3: LRAP 5/6
    assert one.values == pytest.approx((5 / 6, 3.0, 0.5))
    # a tie of dog and cat: scikit-learn counts dog at rank 3, optimistic at 2
    opt = page.sample_steps(SEED.y_true[1], [1, 0.2, 0.2], "optimistic")
    mx = page.sample_steps(SEED.y_true[1], [1, 0.2, 0.2], "max")
    assert (opt.values[:2], mx.values[:2]) == ((1.0, 2.0), pytest.approx((5 / 6, 3.0)))
    side = page.tie_rules_table(mx.ties, page.summary(SEED, "model").ties)
    assert side["tie rule"].tolist() == list(page.TIE_LABELS.values())
    assert side["LRAP (this sample)"].round(4).tolist() == [0.8333, 1.0, 0.8333]
    assert side["coverage (this sample)"].tolist() == [3.0, 2.0, 3.0]
    assert side["LRAP (all samples)"].tolist() == pytest.approx([7 / 9] * 3)


def test_with_label_names_names_full_label_columns_only():
    loss = page.sample_steps([1, 0, 1], [0.2, 0.6, 0.9], "max").loss
    named = page.with_label_names(loss, ["a", "b", "c"])
    cols = list(named.columns)
    assert cols.index("true_label_name") == cols.index("true_label") + 1
    assert named["false_label_name"].tolist() == ["b", "b"]
    assert named["true_label_name"].tolist() == ["a", "c"]
    assert "true_label_name" not in loss  # a copy
    partial = pd.DataFrame({"label": [0, np.nan]})
    assert list(page.with_label_names(partial, ["a"]).columns) == ["label"]


# ------------------------------------------------------------------ every sample
@pytest.mark.parametrize("by", list(page.SORT_LABELS))
def test_worst_first_tables_and_csv(by):
    ds = load_sample("digit_properties")
    contrib = page.summary(ds, "from_digit").contrib
    order = page.worst_first(contrib, by)
    assert sorted(order["sample"]) == list(range(ds.n_samples))
    harm = order[f"{by}_moves_mean"].to_numpy()
    # LRAP: the samples that pull the mean down most first; coverage, loss: up most first
    sign = 1 if by == "lrap" else -1
    assert (sign * np.diff(harm) >= -1e-15).all()
    ids = list(ds.sample_ids)
    shown = page.contributions_table(order.iloc[:200], ids)
    assert len(shown) == 200 and shown["sample"].tolist() == order["sample"].tolist()[:200]
    assert shown["id"].tolist() == [ids[s] for s in shown["sample"]]
    pairs = {"LRAP": "lrap", "coverage": "coverage", "loss moves mean": "ranking_loss_moves_mean"}
    for col, ref in pairs.items():
        np.testing.assert_array_equal(shown[col], order[ref].iloc[:200])
    every = page.all_contributions(contrib, order, ids)
    assert every["sample"].tolist() == order["sample"].tolist()
    assert every["id"].tolist() == [ids[s] for s in order["sample"]]


def test_degenerate_samples_of_digit_properties():
    ds = load_sample("digit_properties")
    contrib = page.summary(ds, "model").contrib
    t = page.degenerate_samples(contrib, ds.sample_ids)
    empty = np.flatnonzero(ds.y_true.sum(axis=1) == 0)
    assert t["sample"].tolist() == empty.tolist() and len(empty) > 0
    assert t["id"].tolist() == [ds.sample_ids[i] for i in empty]
    assert (t["lrap"] == 1).all() and (t["coverage"] == 0).all() and (t["ranking_loss"] == 0).all()
    assert page.degenerate_samples(page.summary(SEED, "model").contrib, SEED.sample_ids).empty


# ------------------------------------------------------------------ caches
def test_cached_functions_return_the_page_models_values():
    ds = load_sample("digit_properties")
    a, b = cache.label_ranking.summary(ds, "model"), cache.label_ranking.summary(ds, "from_digit")
    assert a.lrap == page.summary(ds, "model").lrap
    assert b.lrap == page.summary(ds, "from_digit").lrap and a.lrap != b.lrap
    pd.testing.assert_frame_equal(a.contrib, page.summary(ds, "model").contrib)
    assert cache.label_ranking.mrr(load_sample("digits"), "model") == page.mrr(
        load_sample("digits"), "model"
    )


# ------------------------------------------------------------------ issue 18.1 and 17.4
def test_derivations_end_in_the_headline_and_weight_their_terms():
    rng = np.random.default_rng(2)
    y = (rng.random((12, 5)) < 0.4).astype(int)
    s = rng.integers(0, 3, (12, 5)) / 3
    w = rng.integers(1, 4, 12).astype(float)
    res = page.summary(Dataset("w", "multilabel", y, {"m": s}, sample_weight=w), "m")
    d = page.derivations(res, w)
    lrap = metrics.lrap_per_sample(y, s)
    assert d["LRAP"].terms[0] == f"{int(w[0])} × {fmt(lrap[0])}"
    assert d["LRAP"].text().endswith(f"= {fmt(res.lrap)}  (first 3 and last 2 of 12 terms)")
    assert d["LRAP"].total == pytest.approx(np.dot(w, lrap))
    assert d["Ranking loss"].value == res.loss and d["Coverage error"].value == res.coverage


@pytest.mark.parametrize("by", list(page.SORT_LABELS))
def test_worst_sample_is_the_lowest_lrap_or_the_highest_loss(by):
    ds = load_sample("digit_properties")
    y, s = ds.y_true, ds.score("from_digit")
    values = {
        "lrap": -metrics.lrap_per_sample(y, s),
        "coverage": metrics.coverage_per_sample(y, s),
        "ranking_loss": metrics.ranking_loss_per_sample(y, s),
    }[by]
    worst = page.worst_sample(page.summary(ds, "from_digit").contrib, by)
    assert worst == int(np.argmax(values))  # the first of the worst in sample order


def test_effect_scale_names_the_power_of_ten():
    assert page.effect_scale([-3.7e-4, 1e-6]) == (1e4, "×10⁻⁴")
    assert page.effect_scale([9.99e-3]) == (1e3, "×10⁻³")
    assert page.effect_scale([0.01, -0.5]) == (1.0, "")
    factor, name = page.effect_scale(np.array([-7.4e-5, np.nan, 0.0]))
    assert name == "×10⁻⁵" and 1 <= 7.4e-5 * factor < 10
    contrib = page.summary(load_sample("digit_properties"), "model").contrib
    scales = page.effect_scales(contrib)
    shown = page.contributions_table(
        contrib.iloc[:5], load_sample("digit_properties").sample_ids, scales
    )
    factor, name = scales["lrap"]
    np.testing.assert_array_equal(
        shown[f"LRAP moves mean {name}"], contrib["lrap_moves_mean"].iloc[:5] * factor
    )
