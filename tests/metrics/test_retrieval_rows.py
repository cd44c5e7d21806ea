"""One ranking for every Top-K metric, one pass for DCG and NDCG, one for the label ranking
metrics: the functions' values to the bit (the ranking state sums these, not each function)."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

from metrics import _ranks as ranks
from metrics import _relevance as relevance
from metrics._dcg_kernel import ndcg_values
from metrics._label_ranking_kernel import label_ranking_block, score_values
from metrics._retrieval_rows import retrieval_block, retrieval_finish
from metrics.dcg import dcg_per_sample, ndcg_per_sample
from metrics.label_ranking import coverage_per_sample, lrap_per_sample, ranking_loss_per_sample
from metrics.retrieval import (
    average_precision_at_k,
    expected_reciprocal_rank_per_sample,
    hit_rate_at_k_per_sample,
    precision_at_k_per_sample,
    recall_at_k_per_sample,
    reciprocal_rank,
)
from metrics.states._ranking_rows import per_row_values
from tests.conftest import graded_case, multilabel_case

DENOMINATORS = ["min_m_k", "relevant", "k", "hits"]


def retrieval_rows(y, s, *, k, denominator, max_grade, retrieved=None):
    """The state's top-K formulas over blocks of rows, each block ranked once."""
    grades, scores = relevance.retrieved_only(y, s, retrieved)
    kernel = partial(retrieval_block, k=k, max_grade=max_grade)
    return retrieval_finish(relevance.by_row_blocks(kernel, y, grades, scores), k, denominator)


def label_ranking_rows(mask, s):
    """The state's label ranking trio over blocks of rows, each ranked or counted once."""
    block = partial(label_ranking_block, values=score_values(s))
    return ranks.apply_by_row_chunks(block, mask, s, columns=3).T


def _case(seed: int, n: int = 60, m: int = 7):
    """Graded rows, half with many ties and half with distinct scores, and a mask."""
    y, s = graded_case(seed, n=n, m=m, ties=True)
    rng = np.random.default_rng(seed)
    s[n // 2 :] = rng.random((n - n // 2, m))  # some blocks tied, others not
    retrieved = rng.random((n, m)) > 0.2
    return y.astype(np.float64), s, retrieved


def _functions(y, s, *, k, denominator, max_grade, retrieved):
    kw = {"retrieved": retrieved}
    out = {
        "reciprocal_rank": reciprocal_rank(y, s, k=k, **kw),
        "expected_reciprocal_rank": expected_reciprocal_rank_per_sample(
            y, s, k=k, max_grade=max_grade, **kw
        ),
    }
    if k is not None:
        out["precision_at_k"] = precision_at_k_per_sample(y, s, k=k, **kw)
        out["recall_at_k"] = recall_at_k_per_sample(y, s, k=k, **kw)
        out["hit_rate_at_k"] = hit_rate_at_k_per_sample(y, s, k=k, **kw)
        out["average_precision_at_k"] = average_precision_at_k(
            y, s, k=k, denominator=denominator, **kw
        )
    return out


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [None, 1, 3, 50])
@pytest.mark.parametrize("denominator", DENOMINATORS)
@pytest.mark.parametrize("masked", [False, True])
def test_one_ranking_gives_every_function_s_values(monkeypatch, seed, k, denominator, masked):
    monkeypatch.setattr(relevance, "BLOCK_ELEMENTS", 9 * 7)  # blocks of 9 rows, one ragged
    y, s, retrieved = _case(seed)
    retrieved = retrieved if masked else None
    max_grade = 3.0
    got = retrieval_rows(
        y, s, k=k, denominator=denominator, max_grade=max_grade, retrieved=retrieved
    )
    want = _functions(y, s, k=k, denominator=denominator, max_grade=max_grade, retrieved=retrieved)
    assert set(got) == set(want)
    for name, values in want.items():
        assert np.array_equal(got[name], values), name
    assert got["reciprocal_rank"].max() > 0 and got["expected_reciprocal_rank"].max() > 0


def test_every_grade_zero_gives_zero_err_and_rr():
    y = np.zeros((5, 4))
    s = np.random.default_rng(0).random((5, 4))
    got = retrieval_rows(y, s, k=2, denominator="min_m_k", max_grade=0.0)
    assert got["expected_reciprocal_rank"].tolist() == [0.0] * 5
    assert got["reciprocal_rank"].tolist() == [0.0] * 5
    assert got["average_precision_at_k"].tolist() == [0.0] * 5


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("k", [None, 2, 5])
@pytest.mark.parametrize("ignore_ties", [False, True])
@pytest.mark.parametrize("masked", [False, True])
def test_one_pass_gives_dcg_and_ndcg_to_the_bit(monkeypatch, seed, k, ignore_ties, masked):
    # blocks of 9 rows: tie-heavy blocks and tie-free ones take different DCG methods
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 9 * 7)
    y, s, retrieved = _case(seed)
    retrieved = retrieved if masked else None
    dcg, ndcg = ndcg_values(y, s, k, ignore_ties, retrieved)
    kw = {"k": k, "ignore_ties": ignore_ties, "retrieved": retrieved}
    assert np.array_equal(dcg, dcg_per_sample(y, s, log_base=2, **kw))
    assert np.array_equal(ndcg, ndcg_per_sample(y, s, **kw))
    assert 0 < ndcg.max() <= 1.0


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("ties", ["grid", "uneven", "distinct"])
def test_one_pass_gives_the_label_ranking_metrics_to_the_bit(monkeypatch, seed, ties):
    # blocks of 9 rows; grid scores take the counted path, others the sorted one
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 9 * 7)
    y, s = multilabel_case(seed, n=60, m=7, ties=ties != "distinct")
    if ties == "uneven":
        s = s**3  # few distinct values, not evenly spaced
    got = label_ranking_rows(y == 1, s)
    want = (
        coverage_per_sample(y, s),
        lrap_per_sample(y, s),
        ranking_loss_per_sample(y, s),
    )
    for name, g, w in zip(("coverage", "lrap", "loss"), got, want, strict=True):
        assert np.array_equal(g, w), name
    assert got[1].min() < 1.0 and got[2].max() > 0.0


@pytest.mark.parametrize("seed", range(3))
@pytest.mark.parametrize("k", [None, 3])
@pytest.mark.parametrize("ignore_ties", [False, True])
@pytest.mark.parametrize("kind", ["graded", "labels", "masked", "one column"])
def test_the_state_s_one_sort_gives_every_function_s_values(
    monkeypatch, seed, k, ignore_ties, kind
):
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", 9 * 7)  # blocks of 9 rows
    y, s, retrieved = _case(seed)
    if kind in ("labels", "one column"):
        y, s = multilabel_case(seed, n=60, m=7, ties=seed != 2)
        y = y.astype(np.float64)
    if kind == "one column":
        y, s = y[:, :1], s[:, :1]
    mask = retrieved if kind == "masked" else None
    log_base = 10.0 if seed == 1 else 2.0
    rows = per_row_values(
        y, s, mask, k=k, max_grade=3.0, denominator="relevant", log_base=log_base,
        ignore_ties=ignore_ties,
    )  # fmt: skip
    kw = {"retrieved": mask}
    want = {
        "mean_reciprocal_rank": reciprocal_rank(y, s, k=k, **kw),
        "expected_reciprocal_rank": expected_reciprocal_rank_per_sample(
            y, s, k=k, max_grade=3.0, **kw
        ),
    }
    if k is not None:
        want["precision_at_k"] = precision_at_k_per_sample(y, s, k=k, **kw)
        want["recall_at_k"] = recall_at_k_per_sample(y, s, k=k, **kw)
        want["hit_rate_at_k"] = hit_rate_at_k_per_sample(y, s, k=k, **kw)
        want["mean_average_precision_at_k"] = average_precision_at_k(
            y, s, k=k, denominator="relevant", **kw
        )
    if kind != "one column":
        ties = {"k": k, "ignore_ties": ignore_ties, **kw}
        want["dcg_score"] = dcg_per_sample(y, s, log_base=log_base, **ties)
        want["ndcg_score"] = ndcg_per_sample(y, s, **ties)
    if kind in ("labels", "one column"):
        want["label_ranking_average_precision_score"] = lrap_per_sample(y, s)
    if kind == "labels":
        want["coverage_error"] = coverage_per_sample(y, s)
        want["label_ranking_loss"] = ranking_loss_per_sample(y, s)
    assert set(rows) == set(want)
    for name, values in want.items():  # tie blocks summed in another order: 1e-12
        np.testing.assert_allclose(rows[name], values, rtol=1e-12, atol=1e-15, err_msg=name)


@pytest.mark.parametrize(
    "grades, top",
    [
        ([[0.0, 1.0, 3.0], [2.0, 0.0, 0.0]], 3.0),  # whole grades: read from a table
        ([[0.0, 1.0, 1.0]], 1.0),
        ([[0.5, 1.0, 2.0]], 2.0),  # a grade between: computed each
        ([[0.0, 1.0, 2.0]], 2.5),  # a top between
        ([[0.0, 1.0, 4.0]], 3.0),  # a grade past the top
    ],
)
def test_err_s_stop_probabilities_are_those_computed_grade_by_grade(grades, top):
    from metrics._relevance import stop_probability
    from metrics._retrieval_rows import _stops

    grades = np.array(grades)
    want = (2.0**grades - 1.0) / 2.0**top  # Chapelle's R, directly
    np.testing.assert_allclose(_stops(grades, top), want, rtol=0, atol=1e-15)
    assert _stops(grades, top).tolist() == stop_probability(grades, top).tolist()
