"""The Label ranking page model (explorer.pages.label_ranking) and its caches, without AppTest,
and the metrics it calls (rank tables, per-sample contributions, tie rules) against slow
references."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm

import metrics
import metrics._label_ranking_kernel as lrk
import metrics.explain.label_ranking
from explorer import budget
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import label_ranking, label_ranking_ranks
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
    s = label_ranking.summary(SEED, "model")
    # LRAP: human at rank 2 of 3 -> 1/2; human 1/1 and dog 2/3 -> 5/6; 1 -> mean 7/9
    assert s.lrap == pytest.approx(7 / 9) and round(s.lrap, 4) == 0.7778
    assert s.coverage == pytest.approx((2 + 3 + 2) / 3)  # deepest true label per sample
    assert s.best_coverage == pytest.approx((1 + 2 + 2) / 3)  # the true labels per sample
    assert s.loss == pytest.approx((1 / 2 + 1 / 2 + 0) / 3)
    assert s.contrib["lrap"].tolist() == pytest.approx([1 / 2, 5 / 6, 1])
    assert s.contrib["n_misordered"].tolist() == [1, 1, 0]
    assert s.ties.loc["max", "lrap"] == pytest.approx(7 / 9)
    assert not label_ranking.one_true_label(s.contrib)


@pytest.mark.parametrize("weighted", [False, True])
def test_summary_equals_scikit_learn(weighted):
    ds = tied(1, weighted=weighted)
    y, s, w = ds.y_true, ds.score("other"), ds.sample_weight
    got = label_ranking.summary(ds, "other")
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
    s = label_ranking.summary(ds, "model")
    assert label_ranking.one_true_label(s.contrib)
    assert label_ranking.mrr(ds, "model") == pytest.approx(s.lrap, abs=1e-12)
    assert label_ranking.mrr(SEED, "model") == pytest.approx(
        (1 / 2 + 1 + 1) / 3
    )  # first true label


# ------------------------------------------------------------------ what if?
@pytest.mark.parametrize("weighted", [False, True])
def test_what_if_equals_the_summary_of_the_edited_matrix(weighted):
    ds = tied(2, weighted=weighted)
    base = label_ranking.summary(ds, "m")
    for sample, row in (
        (5, np.full(5, 0.25)),
        (7, [0.9, 0.1, 0.9, 0.4, 0.0]),
        (0, [1, 2, 3, 4, 5]),
    ):
        got = label_ranking.what_if(ds, "m", base, sample, row)
        full = label_ranking.summary(edited(ds, "m", sample, row), "m")
        for name in ("coverage", "lrap", "loss", "best_coverage"):
            assert getattr(got, name) == pytest.approx(getattr(full, name), rel=1e-12)
        cols = ["coverage", "lrap", "ranking_loss", "lrap_moves_mean", "coverage_moves_mean"]
        np.testing.assert_allclose(got.contrib[cols], full.contrib[cols], rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(got.ties, full.ties, rtol=1e-12)
    assert base.contrib.equals(label_ranking.summary(ds, "m").contrib)  # the base is not changed


def test_what_if_of_the_models_own_scores_is_none_and_nan_is_refused():
    base = label_ranking.summary(SEED, "model")
    assert label_ranking.what_if(SEED, "model", base, 1, SEED.score()[1].copy()) is None
    lifted = label_ranking.what_if(SEED, "model", base, 0, [2.0, 0.5, 1.0])
    assert lifted.lrap == pytest.approx((1 + 5 / 6 + 1) / 3)
    assert lifted.best_coverage == base.best_coverage
    with pytest.raises(metrics.MetricInputError, match="NaN at column 1"):
        label_ranking.what_if(SEED, "model", base, 0, [0.75, np.nan, 1.0])


def test_apply_cells_scores_of_and_rank_table_use_the_edit_without_mutating():
    row = SEED.score()[1]
    assert label_ranking.apply_cells(row, {2: 0.2, 0: 0.0}).tolist() == [0.0, 0.2, 0.2]
    assert row.tolist() == [1.0, 0.2, 0.1]
    scores = SEED.score()
    shown = label_ranking_ranks.scores_of(scores, [2, 1], 1, np.array([0.5, 0.5, 0.1]))
    assert shown.tolist() == [[0.9, 0.7, 0.6], [0.5, 0.5, 0.1]]
    assert scores[1].tolist() == [1.0, 0.2, 0.1]
    assert label_ranking_ranks.scores_of(scores, [1], 1, None).tolist() == [[1.0, 0.2, 0.1]]
    ranks = label_ranking_ranks.rank_table(scores, [0, 1, 2], 1, np.array([0.5, 0.5, 0.1]))
    assert ranks.rank.tolist() == [[2, 3, 1], [2, 2, 3], [1, 2, 3]]  # tied labels: deepest rank
    assert ranks.tie_size[1].tolist() == [2, 2, 1]


def test_rank_frame_holds_every_rank_and_label():
    ds = tied(3)
    new = np.array([0.3, 0.3, 0.3, 0.1, 0.9])
    shown = label_ranking_ranks.scores_of(ds.score("m"), np.arange(ds.n_samples), 4, new)
    frame = label_ranking_ranks.rank_frame(shown, ds.y_true, ds.sample_ids, ds.label_names)
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
        one = label_ranking.sample_steps(y[i], s[i], ties)
        assert one.values == pytest.approx((per.lrap[i], per.coverage[i], loss[i]))
        assert one.ranking["running_value"].iloc[-1] == pytest.approx(
            metrics.lrap_per_sample(y, s)[i]
        )
        assert one.ties.loc[ties, "lrap"] == pytest.approx(per.lrap[i])


def test_seed003_sample_1_walk_through():
    one = label_ranking.sample_steps(SEED.y_true[1], SEED.score()[1], "max")
    true_rows = label_ranking.with_label_names(one.lrap, SEED.label_names)
    true_rows = true_rows[true_rows["is_true"]]
    assert true_rows[["label_name", "n_true_at_or_above", "rank"]].values.tolist() == [
        ["human", 1, 1],
        ["dog", 2, 3],
    ]  # 1/1 and 2/3: LRAP 5/6
    assert one.values == pytest.approx((5 / 6, 3.0, 0.5))
    # a tie of dog and cat: scikit-learn counts dog at rank 3, optimistic at 2
    opt = label_ranking.sample_steps(SEED.y_true[1], [1, 0.2, 0.2], "optimistic")
    mx = label_ranking.sample_steps(SEED.y_true[1], [1, 0.2, 0.2], "max")
    assert (opt.values[:2], mx.values[:2]) == ((1.0, 2.0), pytest.approx((5 / 6, 3.0)))
    side = label_ranking.tie_rules_table(mx.ties, label_ranking.summary(SEED, "model").ties)
    assert side["tie rule"].tolist() == list(label_ranking.TIE_LABELS.values())
    assert side["LRAP (this sample)"].round(4).tolist() == [0.8333, 1.0, 0.8333]
    assert side["coverage (this sample)"].tolist() == [3.0, 2.0, 3.0]
    assert side["LRAP (all samples)"].tolist() == pytest.approx([7 / 9] * 3)


def test_with_label_names_names_full_label_columns_only():
    loss = label_ranking.sample_steps([1, 0, 1], [0.2, 0.6, 0.9], "max").loss
    named = label_ranking.with_label_names(loss, ["a", "b", "c"])
    cols = list(named.columns)
    assert cols.index("true_label_name") == cols.index("true_label") + 1
    assert named["false_label_name"].tolist() == ["b", "b"]
    assert named["true_label_name"].tolist() == ["a", "c"]
    assert "true_label_name" not in loss  # a copy
    partial = pd.DataFrame({"label": [0, np.nan]})
    assert list(label_ranking.with_label_names(partial, ["a"]).columns) == ["label"]


# ------------------------------------------------------------------ every sample
@pytest.mark.parametrize("by", list(label_ranking.SORT_LABELS))
def test_worst_first_tables_and_csv(by):
    ds = load_sample("digit_properties")
    contrib = label_ranking.summary(ds, "from_digit").contrib
    order = label_ranking.worst_first(contrib, by)
    assert sorted(order["sample"]) == list(range(ds.n_samples))
    harm = order[f"{by}_moves_mean"].to_numpy()
    # LRAP: the samples that pull the mean down most first; coverage, loss: up most first
    sign = 1 if by == "lrap" else -1
    assert (sign * np.diff(harm) >= -1e-15).all()
    ids = list(ds.sample_ids)
    shown = label_ranking.contributions_table(order.iloc[:200], ids)
    assert len(shown) == 200 and shown["sample"].tolist() == order["sample"].tolist()[:200]
    assert shown["id"].tolist() == [ids[s] for s in shown["sample"]]
    pairs = {"LRAP": "lrap", "coverage": "coverage", "loss moves mean": "ranking_loss_moves_mean"}
    for col, ref in pairs.items():
        np.testing.assert_array_equal(shown[col], order[ref].iloc[:200])
    every = label_ranking.all_contributions(contrib, order, ids)
    assert every["sample"].tolist() == order["sample"].tolist()
    assert every["id"].tolist() == [ids[s] for s in order["sample"]]


def test_degenerate_samples_of_digit_properties():
    ds = load_sample("digit_properties")
    contrib = label_ranking.summary(ds, "model").contrib
    t = label_ranking.degenerate_samples(contrib, ds.sample_ids)
    empty = np.flatnonzero(ds.y_true.sum(axis=1) == 0)
    assert t["sample"].tolist() == empty.tolist() and len(empty) > 0
    assert t["id"].tolist() == [ds.sample_ids[i] for i in empty]
    assert (t["lrap"] == 1).all() and (t["coverage"] == 0).all() and (t["ranking_loss"] == 0).all()
    assert label_ranking.degenerate_samples(
        label_ranking.summary(SEED, "model").contrib, SEED.sample_ids
    ).empty


# ------------------------------------------------------------------ caches
def test_cached_functions_return_the_page_models_values():
    ds = load_sample("digit_properties")
    a, b = cache.label_ranking.summary(ds, "model"), cache.label_ranking.summary(ds, "from_digit")
    assert a.lrap == label_ranking.summary(ds, "model").lrap
    assert b.lrap == label_ranking.summary(ds, "from_digit").lrap and a.lrap != b.lrap
    pd.testing.assert_frame_equal(a.contrib, label_ranking.summary(ds, "model").contrib)
    assert cache.label_ranking.mrr(load_sample("digits"), "model") == label_ranking.mrr(
        load_sample("digits"), "model"
    )


# ------------------------------------------------------------------ the derivations
def test_derivations_end_in_the_headline_and_weight_their_terms():
    rng = np.random.default_rng(2)
    y = (rng.random((12, 5)) < 0.4).astype(int)
    s = rng.integers(0, 3, (12, 5)) / 3
    w = rng.integers(1, 4, 12).astype(float)
    res = label_ranking.summary(Dataset("w", "multilabel", y, {"m": s}, sample_weight=w), "m")
    d = label_ranking.derivations(res, w)
    lrap = metrics.lrap_per_sample(y, s)
    assert d["LRAP"].terms[0] == f"{int(w[0])} × {fmt(lrap[0])}"
    assert d["LRAP"].text().endswith(f"= {fmt(res.lrap)}  (first 3 and last 2 of 12 terms)")
    assert d["LRAP"].total == pytest.approx(np.dot(w, lrap))
    assert d["Ranking loss"].value == res.loss and d["Coverage error"].value == res.coverage


@pytest.mark.parametrize("by", list(label_ranking.SORT_LABELS))
def test_worst_sample_is_the_lowest_lrap_or_the_highest_loss(by):
    ds = load_sample("digit_properties")
    y, s = ds.y_true, ds.score("from_digit")
    values = {
        "lrap": -metrics.lrap_per_sample(y, s),
        "coverage": metrics.coverage_per_sample(y, s),
        "ranking_loss": metrics.ranking_loss_per_sample(y, s),
    }[by]
    worst = label_ranking.worst_sample(label_ranking.summary(ds, "from_digit").contrib, by)
    assert worst == int(np.argmax(values))  # the first of the worst in sample order


def test_effect_scale_names_the_power_of_ten():
    assert label_ranking.effect_scale([-3.7e-4, 1e-6]) == (1e4, "×10⁻⁴")
    assert label_ranking.effect_scale([9.99e-3]) == (1e3, "×10⁻³")
    assert label_ranking.effect_scale([0.01, -0.5]) == (1.0, "")
    factor, name = label_ranking.effect_scale(np.array([-7.4e-5, np.nan, 0.0]))
    assert name == "×10⁻⁵" and 1 <= 7.4e-5 * factor < 10
    contrib = label_ranking.summary(load_sample("digit_properties"), "model").contrib
    scales = label_ranking.effect_scales(contrib)
    shown = label_ranking.contributions_table(
        contrib.iloc[:5], load_sample("digit_properties").sample_ids, scales
    )
    factor, name = scales["lrap"]
    np.testing.assert_array_equal(
        shown[f"LRAP moves mean {name}"], contrib["lrap_moves_mean"].iloc[:5] * factor
    )


# ------------------------------------------------------------------ the metrics it calls
#: The seed003_lrap sample's labels and scores.
SEED_Y = np.array([[1, 0, 0], [1, 0, 1], [1, 1, 0]])
SEED_S = np.array([[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]])


def _case(seed: int, n: int = 40, m: int = 6, levels: int = 3):
    """Random labels (some rows empty or full) and heavily tied scores."""
    rng = np.random.default_rng(seed)
    y = (rng.random((n, m)) < 0.4).astype(int)
    y[0] = 0
    y[1] = 1
    s = rng.integers(0, levels, (n, m)) / levels
    w = rng.random(n) + 0.1
    return y, s, w


def _slow_rank_table(s):
    n, m = s.shape
    rank = np.zeros((n, m), int)
    group = np.zeros((n, m), int)
    size = np.zeros((n, m), int)
    for i in range(n):
        distinct = sorted(set(s[i]), reverse=True)
        for j in range(m):
            rank[i, j] = sum(s[i, k] >= s[i, j] for k in range(m))
            group[i, j] = distinct.index(s[i, j])
            size[i, j] = sum(s[i, k] == s[i, j] for k in range(m))
    return rank, group, size


def _slow_tie_broken(y, s, ties):
    """LRAP and coverage of each row after an explicit sort with a Python key."""
    lraps, covs = [], []
    for yi, si in zip(y, s, strict=True):
        m = len(yi)
        if ties == "optimistic":
            order = sorted(range(m), key=lambda j: (-si[j], -yi[j], j))
        else:
            order = sorted(range(m), key=lambda j: (-si[j], yi[j], j))
        seen, fr, deepest = 0, [], 0
        for pos, j in enumerate(order, start=1):
            if yi[j]:
                seen += 1
                fr.append(seen / pos)
                deepest = pos
        t = int(yi.sum())
        lraps.append(1.0 if t in (0, m) else float(np.mean(fr)))
        covs.append(float(deepest))
    return np.array(lraps), np.array(covs)


def _slow_moves(values, w):
    total = np.average(values, weights=w)
    out = []
    for i in range(len(values)):
        keep = np.arange(len(values)) != i
        out.append(total - np.average(values[keep], weights=w[keep]))
    return np.array(out)


@pytest.mark.parametrize("seed", range(4))
def test_label_rank_table_matches_slow_reference_and_max_rank(seed):
    _, s, _ = _case(seed)
    t = metrics.label_rank_table(s)
    rank, group, size = _slow_rank_table(s)
    np.testing.assert_array_equal(t.rank, rank)
    np.testing.assert_array_equal(t.rank, max_rank(s))
    np.testing.assert_array_equal(t.tie_group, group)
    np.testing.assert_array_equal(t.tie_size, size)


def test_label_rank_table_refuses_nan():
    with pytest.raises(metrics.MetricInputError, match="y_score"):
        metrics.label_rank_table([[0.1, np.nan]])


def test_best_coverage_is_mean_true_labels_and_a_perfect_rankings_coverage():
    y, _, w = _case(1)
    assert metrics.best_coverage_error(y) == pytest.approx(y.sum(axis=1).mean())
    assert metrics.best_coverage_error(y, sample_weight=w) == pytest.approx(
        skm.coverage_error(y, y + 0.0, sample_weight=w)
    )
    assert metrics.best_coverage_error(SEED_Y) == pytest.approx(5 / 3)


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("weighted", [False, True])
def test_contributions_match_per_sample_functions_and_leave_one_out(seed, weighted):
    y, s, w = _case(seed)
    w = w if weighted else None
    t = metrics.label_ranking_contributions(y, s, sample_weight=w)
    np.testing.assert_allclose(t["coverage"], metrics.coverage_per_sample(y, s))
    np.testing.assert_allclose(t["lrap"], metrics.lrap_per_sample(y, s))
    np.testing.assert_allclose(t["ranking_loss"], metrics.ranking_loss_per_sample(y, s))
    ww = np.ones(len(y)) if w is None else w
    for col in ("coverage", "lrap", "ranking_loss"):
        np.testing.assert_allclose(t[f"{col}_moves_mean"], _slow_moves(t[col].to_numpy(), ww))
    # every (true, false) pair with the false label scoring at least as high
    m = y.shape[1]
    slow = [
        sum(y[i, j] and not y[i, k] and s[i, k] >= s[i, j] for j in range(m) for k in range(m))
        for i in range(len(y))
    ]
    np.testing.assert_array_equal(t["n_misordered"], slow)
    assert t.loc[0, "note"] == "no true label" and t.loc[1, "note"] == "every label is true"
    assert np.average(t["lrap"], weights=ww) == pytest.approx(
        skm.label_ranking_average_precision_score(y, s, sample_weight=w)
    )


def test_contributions_of_seed003():
    t = metrics.label_ranking_contributions(SEED_Y, SEED_S)
    assert t["lrap"].round(4).tolist() == [0.5, 0.8333, 1.0]
    assert t["n_misordered"].tolist() == [1, 1, 0]
    # removing sample 0 (LRAP 0.5) would lift the mean from 0.7778 to 0.9167
    assert t.loc[0, "lrap_moves_mean"] == pytest.approx(7 / 9 - 11 / 12)


def test_contributions_of_a_lone_sample_have_nan_effect():
    t = metrics.label_ranking_contributions([[1, 0]], [[0.2, 0.5]])
    assert np.isnan(t.loc[0, "lrap_moves_mean"])
    assert metrics.sort_worst_first(t, "lrap")["sample"].tolist() == [0]


def test_sort_worst_first_orders_by_harm():
    y, s, _ = _case(2)
    t = metrics.label_ranking_contributions(y, s)
    for by, worst in (("lrap", t["lrap"].min()), ("coverage", t["coverage"].max())):
        assert metrics.sort_worst_first(t, by)[by].iloc[0] == worst
    assert (
        metrics.sort_worst_first(t, "ranking_loss")["ranking_loss"].iloc[0]
        == t["ranking_loss"].max()
    )
    with pytest.raises(metrics.MetricInputError, match="by must be one of"):
        metrics.sort_worst_first(t, "auc")


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("ties", ["optimistic", "pessimistic"])
def test_tie_broken_per_sample_matches_explicit_sort(seed, ties):
    y, s, _ = _case(seed)
    got = metrics.tie_broken_per_sample(y, s, ties=ties)
    lrap, cov = _slow_tie_broken(y, s, ties)
    np.testing.assert_allclose(got.lrap, lrap)
    np.testing.assert_allclose(got.coverage, cov)


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("levels", [1, 2, 7, 1000])
def test_tie_broken_counted_and_sorted_groups_match_explicit_sort(monkeypatch, seed, levels):
    """Tie groups counted by score code (few values) or found by one sort (many), across
    blocks of rows; negative and integer scores, rows with no or every label true."""
    rng = np.random.default_rng(seed)
    n, m = 90, 7
    y = (rng.random((n, m)) < 0.4).astype(int)
    y[0], y[1] = 0, 1
    s = rng.integers(-levels, levels, (n, m)) if levels > 1 else np.zeros((n, m), int)
    import metrics.explain.label_ranking as explain_lr  # where the tie-broken tables live

    chunks = [slice(0, 13), slice(13, 50), slice(50, n)]
    monkeypatch.setattr(explain_lr, "row_chunks", lambda a, b: chunks)
    for ties in ("optimistic", "pessimistic"):
        lrap, cov = _slow_tie_broken(y, s, ties)
        for yy in (y, y.astype(bool)):
            got = metrics.tie_broken_per_sample(yy, s, ties=ties)
            np.testing.assert_allclose(got.lrap, lrap, rtol=1e-12, atol=1e-12)
            np.testing.assert_array_equal(got.coverage, cov)
        values = lrk.score_values(s.astype(float))
        for vals in (values, None):  # the counted path (when it applies) and the sorted one
            out = metrics.explain.label_ranking._broken_rows(y, s.astype(float), vals, (ties,))
            np.testing.assert_allclose(out[0], lrap, rtol=1e-12, atol=1e-12)
            np.testing.assert_array_equal(out[1], cov)


@pytest.mark.parametrize("seed", range(3))
def test_tie_rules_bracket_scikit_learn(seed):
    y, s, w = _case(seed)
    mx = metrics.tie_broken_per_sample(y, s, ties="max")
    opt = metrics.tie_broken_per_sample(y, s, ties="optimistic")
    pes = metrics.tie_broken_per_sample(y, s, ties="pessimistic")
    np.testing.assert_allclose(mx.lrap, metrics.lrap_per_sample(y, s))
    np.testing.assert_allclose(mx.coverage, metrics.coverage_per_sample(y, s))
    np.testing.assert_allclose(mx.coverage, pes.coverage)  # scikit-learn's coverage is pessimistic
    assert np.all(mx.lrap >= pes.lrap - 1e-12) and np.all(opt.lrap >= pes.lrap - 1e-12)
    assert np.all(opt.coverage <= mx.coverage)
    summary = metrics.tie_broken_summary(y, s, sample_weight=w)
    assert summary.loc["max", "lrap"] == pytest.approx(
        skm.label_ranking_average_precision_score(y, s, sample_weight=w)
    )
    assert summary.loc["max", "coverage"] == pytest.approx(
        skm.coverage_error(y, s, sample_weight=w)
    )
    assert summary.loc["optimistic", "lrap"] == pytest.approx(np.average(opt.lrap, weights=w))


def test_optimistic_lrap_can_fall_below_scikit_learns():
    # the docstring's example: max counts all three tied true labels in |L_ij|
    y, s = [[1, 1, 0, 0, 1, 1]], [[1, 0, 2, 1, 0, 0]]
    assert metrics.tie_broken_per_sample(y, s, ties="max").lrap[0] == pytest.approx(7 / 12)
    assert metrics.tie_broken_per_sample(y, s, ties="optimistic").lrap[0] == pytest.approx(
        (1 / 2 + 2 / 4 + 3 / 5 + 4 / 6) / 4
    )


def test_tie_rules_agree_without_ties():
    rng = np.random.default_rng(7)
    y = (rng.random((30, 5)) < 0.5).astype(int)
    s = rng.random((30, 5))
    rules = metrics.tie_broken_summary(y, s)
    assert rules["lrap"].nunique() == 1 and rules["coverage"].nunique() == 1


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("ties", metrics.TIE_RULES)
def test_tie_broken_steps_end_at_the_sample_values(seed, ties):
    y, s, _ = _case(seed, n=12)
    per = metrics.tie_broken_per_sample(y, s, ties=ties)
    for i in range(len(y)):
        lt = metrics.lrap_steps_tie_broken(y[i], s[i], ties=ties)
        ct = metrics.coverage_steps_tie_broken(y[i], s[i], ties=ties)
        assert lt["running_value"].iloc[-1] == pytest.approx(per.lrap[i])
        assert ct["running_value"].iloc[-1] == per.coverage[i]
        assert sorted(lt["label"]) == list(range(y.shape[1]))
    pd.testing.assert_frame_equal(
        metrics.lrap_steps_tie_broken(y[2], s[2], ties="max"), metrics.lrap_steps(y[2], s[2])
    )


def test_tie_rule_is_validated():
    with pytest.raises(metrics.MetricInputError, match="ties must be one of"):
        metrics.tie_broken_per_sample(SEED_Y, SEED_S, ties="random")
    with pytest.raises(metrics.MetricInputError, match="ties must be one of"):
        metrics.lrap_steps_tie_broken(SEED_Y[0], SEED_S[0], ties="average")


# ------------------------------------------------------------------ the computing budget
def test_the_estimate_at_the_page_sizes_decides_the_refusal():
    assert budget.label_ranking_seconds(100_000, 100) == pytest.approx(4.0)
    assert label_ranking.refusal(100_000, 100, limit=budget.HOSTED.per_run) is None
    assert label_ranking.refusal(200_000, 100, limit=budget.HOSTED.per_run) is None  # 8.0 s
    why = label_ranking.refusal(200_001, 100, limit=budget.HOSTED.per_run)
    assert why == (
        "The per-sample table of 200,001 samples x 100 labels would take about 8 s of "
        "computing; this server offers 8 s"
    )
    assert label_ranking.refusal(1_000_000, 100, limit=budget.LOCAL.per_run) is None  # 40 s


def test_over_the_limit_the_means_stay_and_the_table_is_refused(monkeypatch):
    y, s = _random_case(40, 6)
    ds = Dataset("r", "multilabel", y, {"m": s})
    monkeypatch.setattr(budget, "limits", lambda: budget.Limits(1e-5, None))
    res = label_ranking.summary(ds, "m")
    assert res.contrib is None and res.ties is None
    assert res.refused.startswith("The per-sample table of 40 samples x 6 labels")
    assert res.lrap == metrics.label_ranking_average_precision_score(y, s)
    assert res.coverage == metrics.coverage_error(y, s)
    assert res.loss == metrics.label_ranking_loss(y, s)


def test_the_table_runs_in_groups_of_rows_with_a_checkpoint_between(monkeypatch):
    y, s = _random_case(50, 6)
    w = np.linspace(0.5, 2.0, 50)
    ds = Dataset("r", "multilabel", y, {"m": s}, sample_weight=w)
    whole = label_ranking.summary(ds, "m")
    monkeypatch.setattr(
        metrics.explain.label_ranking, "CHECKPOINT_CELLS", 60
    )  # 10 rows a group: 5 groups
    calls = []
    grouped = label_ranking.summary(ds, "m", checkpoint=lambda: calls.append(1))
    # one before each of coverage, LRAP and the loss; five groups for the table, five for
    # the tie rules
    assert len(calls) == 13
    pd.testing.assert_frame_equal(grouped.contrib, whole.contrib)
    pd.testing.assert_frame_equal(grouped.ties, whole.ties)


def _random_case(n, m):
    rng = np.random.default_rng(3)
    y = (rng.random((n, m)) < 0.3).astype(int)
    return y, np.round(rng.random((n, m)), 1)  # rounded: ties under every rule


def _slow_ranked(y, s, got, ids):
    """One row's items best first as (id, rank, true): a loop over its kept items, an
    unretrieved true label below every retrieved one, padding left out."""
    items = [j for j in range(len(y)) if got[j] or y[j]]
    score = {j: (s[j] if got[j] else -np.inf) for j in items}
    rank = {j: sum(score[k] >= score[j] for k in items) for j in items}
    order = sorted(items, key=lambda j: (rank[j], j))
    return [(ids[j], rank[j], bool(y[j])) for j in order]


@pytest.mark.parametrize("seed", [0, 1])
def test_ranked_items_of_ragged_rows_equal_a_loop_over_each_rows_items(seed):
    rng = np.random.default_rng(seed)
    n, m = 12, 6
    y = rng.integers(0, 2, size=(n, m))
    s = rng.integers(0, 4, size=(n, m)) / 4.0  # ties
    got = np.arange(m)[None, :] < rng.integers(1, m + 1, size=n)[:, None]
    y[~got & (rng.random((n, m)) < 0.6)] = 0  # some unretrieved true labels stay
    got[0] = True  # one row with every item retrieved
    ids = np.array([[f"d{i}-{j}" for j in range(m)] for i in range(n)], dtype=object)
    ids[~got & (y == 0)] = ""
    ds = Dataset("r", "multilabel", y, {"m": s}, retrieved=got, item_ids=ids)
    rows = [3, 0, 7, 11]
    items = label_ranking_ranks.ranked_items(ds, s[rows], rows)
    for r, i in enumerate(rows):
        want = _slow_ranked(y[i], s[i], got[i], ids[i])
        k = len(want)
        got_row = list(
            zip(items.ids[r][:k], items.rank[r][:k].tolist(), items.is_true[r][:k], strict=True)
        )
        assert got_row == want and (items.ids[r][k:] == "").all()
    csv = label_ranking_ranks.ranked_frame(items, [ds.sample_ids[i] for i in rows])
    assert len(csv) == sum(int((got[i] | (y[i] != 0)).sum()) for i in rows)
