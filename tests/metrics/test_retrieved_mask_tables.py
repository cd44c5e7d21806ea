"""The ``retrieved`` mask in the Top-K page's tables (``metrics.explain.retrieval``).

Oracles: the masked metrics of :mod:`metrics.retrieval` and :mod:`metrics.dcg`,
which ``tests/metrics/test_retrieved_mask.py`` checks against a slow reference and
pytrec_eval; and that reference's row functions for the step table.
"""

from __future__ import annotations

import numpy as np
import pytest

from metrics import (
    average_precision_at_k,
    dcg_per_sample,
    dcg_ranking,
    dcg_ranking_table,
    dcg_steps,
    expected_reciprocal_rank_per_sample,
    hit_rate_at_k_per_sample,
    ndcg_per_sample,
    precision_at_k,
    precision_at_k_per_sample,
    rank_queries,
    recall_at_k_per_sample,
    reciprocal_rank,
    retrieval_curve,
    retrieval_per_query,
    retrieval_query_steps,
    score_order,
)
from metrics.states import RankingState
from tests.metrics.test_retrieved_mask import _case, ref_row

TOL = {"rtol": 1e-9, "atol": 1e-12}


def _expected(y, s, mask, k, ties):
    """Each column of the per-query table from the masked metrics."""
    kw = {"retrieved": mask}
    want = {
        "P@K": precision_at_k_per_sample(y, s, k=k, **kw),
        "R@K": recall_at_k_per_sample(y, s, k=k, **kw),
        "hit rate@K": hit_rate_at_k_per_sample(y, s, k=k, **kw),
        "AP@K": average_precision_at_k(y, s, k=k, denominator="relevant", **kw),
        "RR": reciprocal_rank(y, s, **kw),
        "ERR@K": expected_reciprocal_rank_per_sample(y, s, k=k, **kw),
        "NDCG@K": ndcg_per_sample(y, s, k=k, **kw),
    }
    return want if ties == "column" else {"NDCG@K": want["NDCG@K"]}


@pytest.mark.parametrize("ties", ["column", "tie-averaged"])
@pytest.mark.parametrize("seed", range(2))
def test_tables_with_a_mask_equal_the_masked_metrics_at_any_k(seed, ties):
    # column ties: scikit-learn's DCG breaks them higher column first, the tables lower
    y, s, mask = _case(seed, ties=ties == "tie-averaged")
    ranked = rank_queries(y, s, retrieved=mask)
    for k in (1, 4, 12, 30):  # 30: past every item, as trec_eval's P_1000 on a short run
        got = retrieval_per_query(y, s, k=k, denominator="relevant", ties=ties, retrieved=mask)
        again = ranked.per_query(k=k, denominator="relevant", ties=ties)
        for column, want in _expected(y, s, mask, k, ties).items():
            np.testing.assert_allclose(got[column], want, err_msg=column, **TOL)
            np.testing.assert_allclose(again[column], want, err_msg=column, **TOL)
        assert got["relevant"].tolist() == (y > 0).sum(axis=1).tolist()  # unretrieved count
    curve = retrieval_curve(y, s, k_max=30, denominator="relevant", ties=ties, retrieved=mask)
    _, c2 = ranked.summary(k=3, k_max=30, denominator="relevant", ties=ties)
    for k in (1, 4, 12, 30):
        means = retrieval_per_query(
            y, s, k=k, denominator="relevant", ties=ties, retrieved=mask
        ).mean()
        for column, name in (("P@K", "P@K"), ("AP@K", "MAP@K"), ("NDCG@K", "NDCG@K")):
            assert curve[name].iloc[k - 1] == pytest.approx(means[column], rel=1e-9)
            assert c2[name].iloc[k - 1] == pytest.approx(means[column], rel=1e-9)


def test_optimistic_ranking_never_lifts_an_unretrieved_item():
    y, s, mask = _case(4, ties=True)
    ranked = rank_queries(y, s, retrieved=mask)
    for ties in ("optimistic", "pessimistic"):
        order = ranked.ranking(ties)
        seen = np.take_along_axis(mask, order.astype(np.int64), axis=1)
        # every retrieved item ranks before every unretrieved one
        assert (np.diff(seen.astype(int), axis=1) <= 0).all()
        got = ranked.per_query(k=12, ties=ties)
        # with every position in the top K, only the retrieved relevant items are hits
        want = precision_at_k_per_sample(y, s, k=12, retrieved=mask)
        np.testing.assert_allclose(got["P@K"], want, **TOL)
    best = ranked.per_query(k=3, ties="optimistic")["RR"]
    worst = ranked.per_query(k=3, ties="pessimistic")["RR"]
    column = reciprocal_rank(y, s, retrieved=mask)
    assert (worst <= column).all() and (column <= best).all() and (worst < best).any()


def test_score_order_puts_the_unretrieved_last():
    y, s, mask = _case(5)
    order = score_order(s, retrieved=mask)
    assert rank_queries(y, s, retrieved=mask).order.tolist() == order.tolist()
    seen = np.take_along_axis(mask, order.astype(np.int64), axis=1)
    assert (np.diff(seen.astype(int), axis=1) <= 0).all()


def test_query_steps_sum_to_the_masked_values_and_name_the_unretrieved():
    y, s, mask = _case(6)
    q = 3
    steps = retrieval_query_steps(y, s, q, k=5, denominator="relevant", retrieved=mask)
    ref = ref_row(y[q].tolist(), s[q].tolist(), mask[q].tolist(), 5, "relevant")
    assert steps["ap_term"].sum() == pytest.approx(ref["AP"])
    assert steps["rr_term"].sum() == pytest.approx(ref["RR"])
    n_seen = int(mask[q].sum())
    assert steps["retrieved"].tolist() == [True] * n_seen + [False] * (12 - n_seen)
    assert sorted(steps["item"][:n_seen]) == np.flatnonzero(mask[q]).tolist()
    # an unretrieved relevant item keeps its grade but is no hit
    gone = steps[~steps["retrieved"]]
    assert (gone["relevant"] == 0).all() and (gone["grade"] == y[q, gone["item"]]).all()


@pytest.mark.parametrize("ignore_ties", [False, True])
def test_dcg_ranking_table_and_steps_with_a_mask_equal_the_masked_dcg(ignore_ties):
    y, s, mask = _case(8, ties=True)
    ranked = dcg_ranking(y, s, retrieved=mask)
    for k in (1, 3, None):
        table = dcg_ranking_table(ranked, k=k, ignore_ties=ignore_ties)
        kw = {"k": k, "ignore_ties": ignore_ties, "retrieved": mask}
        np.testing.assert_allclose(table["DCG"], dcg_per_sample(y, s, **kw), **TOL)
        np.testing.assert_allclose(table["NDCG"], ndcg_per_sample(y, s, **kw), **TOL)
        # the ideal DCG reads every item, retrieved or not
        np.testing.assert_allclose(table["ideal DCG"], dcg_per_sample(y, y, k=k), **TOL)
        assert (table["pessimistic DCG"] <= table["DCG"] + 1e-12).all()
        assert (table["DCG"] <= table["optimistic DCG"] + 1e-12).all()
        for q in (0, 3, 7):
            steps = dcg_steps(y[q], s[q], k=k, ignore_ties=ignore_ties, retrieved=mask[q])
            assert steps["running_sum"].iloc[-1] == pytest.approx(table["DCG"][q], abs=1e-12)
            n_seen = int(mask[q].sum())
            assert steps["retrieved"].tolist() == [True] * n_seen + [False] * (12 - n_seen)


def test_ranking_states_with_a_mask_merge_to_the_masked_means():
    y, s, mask = _case(9)
    kw = {"k": 4, "denominator": "relevant"}
    parts = [
        RankingState.from_chunk(y[rows], s[rows], retrieved=mask[rows], **kw)
        for rows in (slice(0, 10), slice(10, None))
    ]
    got = parts[0].merge(parts[1]).finalize()
    masked = {"retrieved": mask}
    assert got["precision_at_k"] == pytest.approx(precision_at_k(y, s, k=4, **masked))
    assert got["mean_average_precision_at_k"] == pytest.approx(
        average_precision_at_k(y, s, **kw, **masked).mean()
    )
    assert got["ndcg_score"] == pytest.approx(ndcg_per_sample(y, s, k=4, **masked).mean())
    assert "coverage_error" not in got  # label ranking has no unretrieved items
