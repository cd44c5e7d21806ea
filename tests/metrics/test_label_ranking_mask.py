"""The ``retrieved`` mask of the label ranking metrics (coverage error, LRAP, ranking loss).

Oracle: a slow reference that loops over each row's kept items: the retrieved ones
at their scores, an unretrieved true label below every retrieved item (tied with the
other unretrieved true labels), an unretrieved false label left out; on those items,
scikit-learn's definitions (ties at the maximal rank, a tie a mis-ordered pair).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from sklearn import metrics as skm

import metrics
from metrics import MetricInputError
from metrics.explain.label_ranking import label_ranking_contributions, tie_broken_summary
from tests.conftest import tied_scores

TOL = {"rtol": 0, "atol": 1e-12}


def _slow_row(y, s, kept):
    """(coverage, LRAP, ranking loss) of one row, a loop over its kept items."""
    items = [j for j in range(len(y)) if kept[j] or y[j]]
    score = {j: (s[j] if kept[j] else -math.inf) for j in items}
    true = [j for j in items if y[j]]
    false = [j for j in items if not y[j]]
    rank = {j: sum(score[k] >= score[j] for k in items) for j in items}
    coverage = max((rank[j] for j in true), default=0)
    if not true or not false:
        lrap = 1.0
    else:
        lrap = sum(sum(score[k] >= score[j] for k in true) / rank[j] for j in true) / len(true)
    pairs = len(true) * len(false)
    wrong = sum(score[f] >= score[t] for t in true for f in false)
    return coverage, lrap, (wrong / pairs if pairs else 0.0)


def _case(seed, n=40, m=9):
    rng = np.random.default_rng(seed)
    y = (rng.random((n, m)) < 0.35).astype(int)
    s = tied_scores(rng, (n, m), 4) - 0.5  # negative scores too: a pad at 0 would rank
    kept = rng.random((n, m)) < 0.7
    kept[0] = True  # a full row
    kept[1, 3:] = False  # a short row (padding slots)
    y[2] = 0  # no true label
    y[3] = kept[3]  # every retrieved item true, padding false
    return y, s, kept


@pytest.mark.parametrize("seed", range(6))
def test_masked_metrics_match_a_slow_reference(seed):
    y, s, kept = _case(seed)
    slow = np.array([_slow_row(y[i], s[i], kept[i]) for i in range(len(y))])
    w = np.random.default_rng(seed).random(len(y))
    for col, (per_sample, score) in enumerate(
        [
            (metrics.coverage_per_sample, metrics.coverage_error),
            (metrics.lrap_per_sample, metrics.label_ranking_average_precision_score),
            (metrics.ranking_loss_per_sample, metrics.label_ranking_loss),
        ]
    ):
        np.testing.assert_allclose(per_sample(y, s, retrieved=kept), slow[:, col], **TOL)
        want = np.average(slow[:, col], weights=w)
        assert score(y, s, sample_weight=w, retrieved=kept) == pytest.approx(want, abs=1e-12)
    table = label_ranking_contributions(y, s, retrieved=kept)
    np.testing.assert_allclose(table[["coverage", "lrap", "ranking_loss"]], slow, **TOL)
    n_true, n_items = y.sum(1), (kept | (y == 1)).sum(1)
    assert table["n_pairs"].tolist() == (n_true * (n_items - n_true)).tolist()
    assert table["note"].iloc[3] == "every label is true"
    ties = tie_broken_summary(y, s, retrieved=kept)
    assert ties.loc["max", "lrap"] == pytest.approx(slow[:, 1].mean(), abs=1e-12)


def test_a_padded_row_equals_the_row_cut_to_its_items_by_scikit_learn():
    y = np.array([[1, 0, 1, 0, 0], [0, 1, 0, 0, 0]])
    s = np.array([[-0.2, -0.5, -0.9, 0.0, 0.0], [-0.3, -0.1, -0.7, 0.0, 0.0]])
    kept = np.array([[True, True, True, False, False], [True, True, True, False, False]])
    cut_y, cut_s = y[:, :3], s[:, :3]
    assert metrics.coverage_error(y, s, retrieved=kept) == skm.coverage_error(cut_y, cut_s)
    assert metrics.label_ranking_loss(y, s, retrieved=kept) == pytest.approx(
        skm.label_ranking_loss(cut_y, cut_s), abs=1e-15
    )
    lrap = metrics.label_ranking_average_precision_score(y, s, retrieved=kept)
    assert lrap == pytest.approx(skm.label_ranking_average_precision_score(cut_y, cut_s))
    # unmasked, the padding slots at score 0 outrank every document
    assert (
        metrics.coverage_error(y, s) == (5 + 3) / 2 != metrics.coverage_error(y, s, retrieved=kept)
    )


def test_an_all_true_mask_is_no_mask_and_bad_masks_are_refused():
    y, s, _ = _case(0)
    for f in (metrics.coverage_error, metrics.label_ranking_loss):
        assert f(y, s, retrieved=np.ones_like(y, bool)) == f(y, s)
    with pytest.raises(MetricInputError, match="retrieved must have the shape"):
        metrics.coverage_error(y, s, retrieved=[[True]])
    with pytest.raises(MetricInputError, match="retrieved must hold booleans"):
        metrics.lrap_per_sample(y, s, retrieved=np.full(y.shape, 2))
    with pytest.raises(MetricInputError, match="y_true"):  # the data first
        metrics.label_ranking_loss(y * 2, s, retrieved=np.ones_like(y, bool))
