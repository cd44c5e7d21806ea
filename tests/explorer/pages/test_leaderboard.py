"""The Leaderboard's page model against metrics' pairwise functions and slow references."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest
from statsmodels.stats.multitest import multipletests

import metrics
from explorer.datasets import Dataset
from explorer.pages import leaderboard as lb
from explorer.samples import load_sample
from tests.conftest import binary_case


def test_roc_auc_delong_board_equals_delong_one_pair_at_a_time_with_holm():
    ds = load_sample("breast_cancer_five")
    board = lb.board(ds, lb.Settings("ROC AUC", "delong", "holm"))
    r, y, names = board.result, ds.y_true, ds.model_names
    for k, name in enumerate(names):
        assert r.estimate[k] == pytest.approx(metrics.roc_auc_score(y, ds.score(name)), abs=1e-12)
    raw = []
    for (i, j), p in zip(r.pairs, r.p_value, strict=True):
        t = metrics.delong_test(y, ds.score(names[i]), ds.score(names[j]))
        assert p == pytest.approx(t.p_value, rel=1e-9, abs=1e-12)
        raw.append(t.p_value)
    holm = multipletests(raw, method="holm")[1]
    np.testing.assert_allclose(r.p_adjusted, holm, rtol=1e-9)
    # the table: best first, logreg beats the tree only (the sample's one clear pair)
    assert [row["model"] for row in board.rows] == sorted(
        names, key=lambda m: -metrics.roc_auc_score(y, ds.score(m))
    )
    assert {row["model"]: row["beats"] for row in board.rows}["logreg"] == "b"
    assert board.note is None and np.isfinite(r.low).all()


def test_the_matrix_is_antisymmetric_and_holds_every_pair():
    ds = load_sample("breast_cancer_five")
    board = lb.board(ds, lb.Settings("average precision", "bootstrap", "bh"))
    diff, p = board.matrix()
    r = board.result
    ap = [metrics.average_precision_score(ds.y_true, ds.score(m)) for m in ds.model_names]
    for i, j in itertools.permutations(range(5), 2):
        assert diff[i, j] == pytest.approx(ap[i] - ap[j], abs=1e-12)
    for (i, j), q in zip(r.pairs, r.p_adjusted, strict=True):
        assert p[i, j] == p[j, i] == q
    np.testing.assert_allclose(r.p_adjusted, multipletests(r.p_value, method="fdr_bh")[1])
    assert np.isnan(np.diag(p)).all()


@pytest.mark.parametrize("test", ["t", "wilcoxon"])
def test_a_mean_metric_equals_paired_test_one_pair_at_a_time(test):
    ds = load_sample("diabetes")
    board = lb.board(ds, lb.Settings("MAE", test, "none"))
    y, (a, b) = ds.y_true, (ds.score(m) for m in ds.model_names)
    expected = metrics.paired_test(np.abs(y - a), np.abs(y - b), method=test).p_value
    assert board.result.p_adjusted[0] == pytest.approx(expected, rel=1e-9)
    assert board.result.higher_is_better is False
    assert board.rows[0]["model"] == "linear"  # the lower MAE first


def test_multiclass_ranks_accuracy_of_the_argmax():
    rng = np.random.default_rng(3)
    y = np.eye(3)[rng.integers(0, 3, 80)]
    scores = {m: rng.dirichlet(np.ones(3), 80) for m in ("p", "q", "r")}
    scores["good"] = 0.6 * y + 0.4 * scores["p"]
    ds = Dataset("mc", "multiclass", y, scores, label_names=("x", "y", "z"))
    board = lb.board(ds, lb.Settings("accuracy", "t", "holm"))
    truth = y.argmax(axis=1)
    acc = {m: float((s.argmax(axis=1) == truth).mean()) for m, s in scores.items()}
    assert board.rows[0]["model"] == "good" and board.rows[0]["value"] == acc["good"]
    assert board.rows[0]["beats"] == "abc"  # far better than three random ones


def test_over_the_budget_delong_keeps_its_tests_and_the_bootstrap_gives_values_only():
    ds = load_sample("breast_cancer_five")
    kept = lb.board(ds, lb.Settings("ROC AUC", "delong", "holm"), limit=0.0)
    full = lb.board(ds, lb.Settings("ROC AUC", "delong", "holm"))
    assert kept.note.startswith("The 1,000 bootstrap resamples of 228 rows for every model")
    np.testing.assert_allclose(kept.result.p_adjusted, full.result.p_adjusted)
    z = 1.959963984540054
    se = (kept.result.high - kept.result.estimate) / z
    assert np.all(se > 0)  # DeLong's normal intervals, no resample
    none = lb.board(ds, lb.Settings("average precision", "bootstrap", "holm"), limit=0.0)
    assert np.isnan(none.result.p_value).all() and np.isnan(none.result.low).all()
    assert all(row["beats"] == "" for row in none.rows)
    np.testing.assert_allclose(
        none.result.estimate,
        [metrics.average_precision_score(ds.y_true, ds.score(m)) for m in ds.model_names],
    )


def _best_counts_slow(values, higher):
    n, m = values.shape
    alone, tied = [0] * m, [0] * m
    counted = 0
    for row in values:
        if not all(math.isfinite(v) for v in row):
            continue
        counted += 1
        best = max(row) if higher else min(row)
        top = [k for k in range(m) if row[k] == best]
        if len(top) == 1:
            alone[top[0]] += 1
        elif len(top) < m:
            for k in top:
                tied[k] += 1
    return alone, tied, counted


@pytest.mark.parametrize("higher", [True, False])
def test_best_counts_equal_a_loop_over_samples(higher):
    rng = np.random.default_rng(5)
    values = rng.integers(0, 4, size=(300, 4)).astype(float)
    values[7, 2] = np.nan
    got = lb.best_counts(values, higher)
    alone, tied, counted = _best_counts_slow(values, higher)
    assert got["alone"].tolist() == alone and got["tied"].tolist() == tied
    np.testing.assert_allclose(got["share alone"], np.array(alone) / counted)


def test_wins_of_a_binary_dataset_read_each_samples_share_of_pairs_ranked_right():
    y, s = binary_case(2, 50)
    ds = Dataset("b", "binary", y, {"m": s, "flip": 1 - s, "same": s.copy()})
    what, table = lb.wins(ds)
    placements = np.column_stack([metrics.auc_placements(y, ds.score(m)) for m in ds.model_names])
    alone, tied, _ = _best_counts_slow(placements, True)
    assert what == "pairs ranked right"
    assert table["alone"].tolist() == alone and table["tied"].tolist() == tied


def test_the_letters_in_words_name_each_winner_and_its_losers():
    rows = [
        {"letter": "b", "model": "y<1>", "beats": "ac"},
        {"letter": "a", "model": "x", "beats": ""},
        {"letter": "c", "model": "z", "beats": ""},
    ]
    text = lb.explanation(rows, lb.Settings("NDCG", "t", "bonferroni", 0.01), str.upper)
    assert text.endswith("Here: Y<1> (b) beats X (a), Z (c).")
    assert "paired t-test" in text and "(Bonferroni)" in text and "at most 0.01" in text


def test_a_run_with_unretrieved_documents_ranks_ndcg_over_its_mask():
    rng = np.random.default_rng(0)
    y = rng.integers(0, 3, (30, 8)).astype(float)
    seen = np.ones((30, 8), bool)
    seen[:, 6:] = False
    scores = {f"r{k}": rng.random((30, 8)) + k * 0.1 * y for k in range(3)}
    ds = Dataset("run", "graded", y, scores, retrieved=seen)
    board = lb.board(ds, lb.Settings("NDCG", "t", "none"))
    ndcg = {m: metrics.ndcg_per_sample(y, s, retrieved=seen) for m, s in scores.items()}
    values = dict(zip(board.result.names, board.result.estimate, strict=True))
    for m, v in ndcg.items():
        assert values[m] == pytest.approx(v.mean(), abs=1e-12)
        assert values[m] == pytest.approx(metrics.ndcg_score(y, scores[m], retrieved=seen))
    expected = metrics.paired_test(ndcg["r0"], ndcg["r2"], method="t").p_value
    assert board.result.p_adjusted[1] == pytest.approx(expected, rel=1e-9)  # pair (0, 2)
