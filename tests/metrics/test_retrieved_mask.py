"""The ``retrieved`` mask of the retrieval and DCG metrics.

Oracles: a slow reference here that ranks only the retrieved items of each
query (plain loops) while counting every relevant item, and pytrec_eval
(trec_eval) given a run that lacks the unretrieved documents, at cut-offs
past the run's depth (P_1000 of a 9-document run divides by 1000).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
import pytrec_eval

from metrics import (
    MetricInputError,
    average_precision_at_k,
    dcg_per_sample,
    dcg_score,
    expected_reciprocal_rank,
    expected_reciprocal_rank_per_sample,
    hit_rate_at_k,
    hit_rate_at_k_per_sample,
    mean_average_precision_at_k,
    mean_reciprocal_rank,
    ndcg_per_sample,
    ndcg_score,
    precision_at_k,
    precision_at_k_per_sample,
    recall_at_k,
    recall_at_k_per_sample,
    reciprocal_rank,
)

TOL = {"rtol": 1e-9, "atol": 1e-12}


def _case(seed, n=25, m=12, ties=False):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 4, size=(n, m))
    y[rng.random((n, m)) < 0.4] = 0
    y[0] = 0
    s = rng.integers(0, 4, size=(n, m)).astype(float) if ties else rng.random((n, m))
    mask = rng.random((n, m)) < 0.6
    mask[1] = False  # a query that retrieved nothing
    mask[2] = True
    return y, s, mask


def _ranked(t, s, r):
    """The grades of the retrieved items, by descending score, ties by lower column."""
    cols = sorted((j for j in range(len(t)) if r[j]), key=lambda j: (-s[j], j))
    return [t[j] for j in cols]


def ref_row(t, s, r, k, denominator="min_m_k"):
    ranked = _ranked(t, s, r)
    n_rel = sum(1 for g in t if g > 0)
    top = ranked[:k]
    hits = sum(1 for g in top if g > 0)
    ap, seen = 0.0, 0
    for pos, g in enumerate(top, start=1):
        if g > 0:
            seen += 1
            ap += seen / pos
    den = {"min_m_k": min(n_rel, k), "relevant": n_rel, "k": k, "hits": hits}[denominator]
    rr = next((1.0 / p for p, g in enumerate(top, start=1) if g > 0), 0.0)
    return {
        "P": hits / k,
        "R": hits / n_rel if n_rel else 0.0,
        "hit": float(hits > 0),
        "AP": ap / den if den else 0.0,
        "RR": rr,
    }


def ref_dcg_row(t, s, r, k):
    """Tie-free DCG of the retrieved items and the ideal DCG of every item (linear gain)."""
    dcg = sum(g / math.log2(p + 1) for p, g in enumerate(_ranked(t, s, r)[:k], start=1))
    ideal = sum(g / math.log2(p + 1) for p, g in enumerate(sorted(t, reverse=True)[:k], start=1))
    return dcg, (dcg / ideal if ideal else 0.0)


def ref_err_row(t, s, r, k, max_grade):
    err, still = 0.0, 1.0
    for pos, g in enumerate(_ranked(t, s, r)[:k], start=1):
        stop = (2.0**g - 1) / 2.0**max_grade
        err += still * stop / pos
        still *= 1 - stop
    return err


@pytest.mark.parametrize("ties", [False, True])
@pytest.mark.parametrize("seed", range(3))
def test_masked_metrics_match_the_reference(seed, ties):
    y, s, mask = _case(seed, ties=ties)
    rows = list(zip(y.tolist(), s.tolist(), mask.tolist(), strict=True))
    for k in (1, 3, 12, 40):
        ref = [ref_row(t, sc, r, k) for t, sc, r in rows]
        for name, f in (
            ("P", precision_at_k_per_sample),
            ("R", recall_at_k_per_sample),
            ("hit", hit_rate_at_k_per_sample),
        ):
            np.testing.assert_allclose(f(y, s, k=k, retrieved=mask), [x[name] for x in ref], **TOL)
        for den in ("min_m_k", "relevant", "k", "hits"):
            want = [ref_row(t, sc, r, k, den)["AP"] for t, sc, r in rows]
            got = average_precision_at_k(y, s, k=k, denominator=den, retrieved=mask)
            np.testing.assert_allclose(got, want, **TOL)
        np.testing.assert_allclose(
            reciprocal_rank(y, s, k=k, retrieved=mask), [x["RR"] for x in ref], **TOL
        )
        want_err = [ref_err_row(t, sc, r, k, 3) for t, sc, r in rows]
        got_err = expected_reciprocal_rank_per_sample(y, s, k=k, max_grade=3, retrieved=mask)
        np.testing.assert_allclose(got_err, want_err, **TOL)
        if not ties:
            want = np.array([ref_dcg_row(t, sc, r, k) for t, sc, r in rows])
            np.testing.assert_allclose(dcg_per_sample(y, s, k=k, retrieved=mask), want[:, 0], **TOL)
            np.testing.assert_allclose(
                ndcg_per_sample(y, s, k=k, retrieved=mask), want[:, 1], **TOL
            )


def test_means_pass_the_mask_on():
    y, s, mask = _case(7)
    k = 5
    pairs = [
        (precision_at_k, precision_at_k_per_sample),
        (recall_at_k, recall_at_k_per_sample),
        (hit_rate_at_k, hit_rate_at_k_per_sample),
    ]
    for mean, per in pairs:
        assert mean(y, s, k=k, retrieved=mask) == pytest.approx(
            per(y, s, k=k, retrieved=mask).mean()
        )
        assert mean(y, s, k=k, retrieved=mask) != pytest.approx(mean(y, s, k=k))
    ap = average_precision_at_k(y, s, k=k, retrieved=mask)
    assert mean_average_precision_at_k(y, s, k=k, retrieved=mask) == pytest.approx(ap.mean())
    rr = reciprocal_rank(y, s, retrieved=mask)
    assert mean_reciprocal_rank(y, s, retrieved=mask) == pytest.approx(rr.mean())
    err = expected_reciprocal_rank_per_sample(y, s, retrieved=mask)
    assert expected_reciprocal_rank(y, s, retrieved=mask) == pytest.approx(err.mean())
    assert dcg_score(y, s, retrieved=mask) == pytest.approx(
        dcg_per_sample(y, s, retrieved=mask).mean()
    )
    assert ndcg_score(y, s, retrieved=mask) == pytest.approx(
        ndcg_per_sample(y, s, retrieved=mask).mean()
    )


def test_all_true_mask_changes_nothing_and_one_row_is_all_unretrieved():
    y, s, mask = _case(3, ties=True)
    full = np.ones_like(mask)
    np.testing.assert_array_equal(
        ndcg_per_sample(y, s, k=4, retrieved=full), ndcg_per_sample(y, s, k=4)
    )
    np.testing.assert_array_equal(
        average_precision_at_k(y, s, k=4, retrieved=full), average_precision_at_k(y, s, k=4)
    )
    # row 1 retrieved nothing: every numerator 0, though it has relevant items
    assert (y[1] > 0).any()
    for f in (precision_at_k_per_sample, recall_at_k_per_sample, average_precision_at_k):
        assert f(y, s, k=12, retrieved=mask)[1] == 0.0
    assert ndcg_per_sample(y, s, retrieved=mask)[1] == 0.0


def _pytrec(y, s, mask, measures):
    qrels = {f"q{i}": {f"d{j}": int(g) for j, g in enumerate(row)} for i, row in enumerate(y)}
    run = {
        f"q{i}": {f"d{j}": float(v) for j, v in enumerate(row) if mask[i, j]}
        for i, row in enumerate(s)
    }
    run = {q: docs for q, docs in run.items() if docs}
    res = pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run)
    kept = [i for i in range(len(y)) if f"q{i}" in res]
    return kept, {m: np.array([res[f"q{i}"][m] for i in kept]) for m in res[f"q{kept[0]}"]}


@pytest.mark.parametrize("seed", range(3))
def test_matches_pytrec_eval_past_the_run_depth(seed):
    y, s, mask = _case(seed)
    measures = {"P.5,1000", "recall.5,1000", "map_cut.5,1000", "ndcg_cut.5,1000", "map", "ndcg"}
    kept, trec = _pytrec(y, s, mask, measures | {"recip_rank"})
    yk, sk, mk = y[kept], s[kept], mask[kept]
    for k in (5, 1000):
        for name, got in (
            (f"P_{k}", precision_at_k_per_sample(yk, sk, k=k, retrieved=mk)),
            (f"recall_{k}", recall_at_k_per_sample(yk, sk, k=k, retrieved=mk)),
            (
                f"map_cut_{k}",
                average_precision_at_k(yk, sk, k=k, denominator="relevant", retrieved=mk),
            ),
            (f"ndcg_cut_{k}", ndcg_per_sample(yk, sk, k=k, retrieved=mk)),
        ):
            np.testing.assert_allclose(got, trec[name], rtol=1e-9, atol=1e-12, err_msg=name)
    np.testing.assert_allclose(
        average_precision_at_k(yk, sk, k=1000, denominator="relevant", retrieved=mk), trec["map"]
    )
    np.testing.assert_allclose(ndcg_per_sample(yk, sk, retrieved=mk), trec["ndcg"])
    np.testing.assert_allclose(reciprocal_rank(yk, sk, retrieved=mk), trec["recip_rank"])


@pytest.mark.parametrize(
    "bad, message",
    [
        (np.ones((2, 2), dtype=bool), r"shape of y_score \(2, 3\)"),
        (np.array([[1, 0, 2], [1, 1, 1]]), r"retrieved\[0, 2\] \(row 0, column 2\)"),
        (np.array([["a", "b", "c"]] * 2), "dtype"),
    ],
)
def test_bad_mask_is_refused(bad, message):
    y, s = np.array([[1, 0, 1], [0, 1, 0]]), np.array([[0.3, 0.2, 0.1]] * 2)
    for f in (precision_at_k_per_sample, average_precision_at_k):
        with pytest.raises(MetricInputError, match=message):
            f(y, s, k=2, retrieved=bad)
    with pytest.raises(MetricInputError, match=message):
        ndcg_per_sample(y, s, retrieved=bad)
