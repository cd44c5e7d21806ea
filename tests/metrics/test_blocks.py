"""Row blocks shared among threads (metrics._ranks.map_blocks) change no number."""

from __future__ import annotations

from functools import partial

import numpy as np
import pytest

import metrics
import metrics._ranks as ranks
import metrics.curves as curves
from metrics import MetricInputError
from tests.conftest import graded_case, multilabel_case

SMALL_BLOCK = 64  # entries per block: dozens of blocks on the cases below


def test_results_come_back_in_block_order():
    ranks_seen = ranks.map_blocks(lambda b: b * b, range(40))
    assert ranks_seen == [b * b for b in range(40)]


def test_the_first_failing_block_raises(monkeypatch):
    monkeypatch.setattr(ranks, "WORKERS", 2)

    def fail_from_10(b):
        if b >= 10:
            raise ValueError(f"block {b}")
        return b

    with pytest.raises(ValueError, match="^block 10$"):
        ranks.map_blocks(fail_from_10, range(30))


def test_nested_calls_run_in_the_worker_thread(monkeypatch):
    """A block that maps blocks of its own does not wait on the (full) pool."""
    monkeypatch.setattr(ranks, "WORKERS", 2)
    out = ranks.map_blocks(lambda b: sum(ranks.map_blocks(lambda c: b * c, range(5))), range(6))
    assert out == [b * 10 for b in range(6)]


CALLS = {
    "LRAP": (metrics.label_ranking_average_precision_score, multilabel_case),
    "label_ranking_loss": (metrics.label_ranking_loss, multilabel_case),
    "coverage_error": (metrics.coverage_error, multilabel_case),
    "lrap_per_sample": (metrics.lrap_per_sample, multilabel_case),
    "ndcg_per_sample": (metrics.ndcg_per_sample, graded_case),
    "dcg_per_sample": (metrics.dcg_per_sample, graded_case),
    "AP samples": (partial(metrics.average_precision_score, average="samples"), multilabel_case),
    "AP per label": (partial(metrics.average_precision_score, average=None), multilabel_case),
    "AUC per label": (partial(metrics.roc_auc_score, average=None), multilabel_case),
    "precision_at_k": (partial(metrics.precision_at_k_per_sample, k=3), graded_case),
}


@pytest.mark.parametrize("name", CALLS)
@pytest.mark.parametrize("tied", [True, False])
def test_one_thread_and_two_give_identical_values(name, tied, monkeypatch):
    func, case = CALLS[name]
    y, s = case(5, n=300, m=9, ties=tied)
    if name.startswith("AUC"):
        y[0], y[1] = 0, 1  # both classes in every label
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", SMALL_BLOCK)
    monkeypatch.setattr(curves, "_COLUMN_BLOCK_ELEMENTS", 3 * 300)  # 3 labels a block
    monkeypatch.setattr(curves, "_FLAT_COLUMN_ELEMENTS", 0)  # the column-block path
    monkeypatch.setattr(ranks, "WORKERS", 1)
    one = np.asarray(func(y, s))
    monkeypatch.setattr(ranks, "WORKERS", 2)
    two = np.asarray(func(y, s))
    np.testing.assert_array_equal(one, two)
    if one.ndim and "label" not in name:  # per-sample: each value is its row's alone
        for row in (0, 150, 299):
            assert two[row] == pytest.approx(float(func(y[row : row + 1], s[row : row + 1])[0]))


def test_two_threads_name_the_first_bad_row(monkeypatch):
    """Validation inside the blocks: the message names the first bad row, whatever
    block finishes first."""
    y, s = multilabel_case(2, n=400, m=9)
    s = s.astype(float)
    s[390, 3] = np.nan
    s[77, 1] = np.inf
    monkeypatch.setattr(ranks, "ROW_CHUNK_ELEMENTS", SMALL_BLOCK)
    monkeypatch.setattr(ranks, "WORKERS", 2)
    with pytest.raises(MetricInputError, match=r"row 77"):
        metrics.label_ranking_average_precision_score(y, s)


@pytest.mark.parametrize(
    ("env", "expected"),
    [("1", 1), ("3", 3), (" 2 ", 2), ("0", None), ("two", None), ("", None), ("-1", None)],
)
def test_metrics_threads_sets_the_workers(env, expected, monkeypatch):
    """METRICS_THREADS=N (a whole number >= 1) sets the threads; anything else: up to 2 cores."""
    monkeypatch.setenv("METRICS_THREADS", env)
    monkeypatch.setattr(ranks.os, "cpu_count", lambda: 8)
    assert ranks._thread_count() == (2 if expected is None else expected)
    monkeypatch.setattr(ranks.os, "cpu_count", lambda: 1)
    assert ranks._thread_count() == (1 if expected is None else expected)
