"""metrics._ranks: the keyed sort equals the stable argsorts it replaces, and row blocks
shared among threads (map_blocks) change no number."""

from __future__ import annotations

import os
import sys
import threading
import time
from functools import partial

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

import metrics
import metrics._ranks as ranks
import metrics.curves as curves
from metrics import MetricInputError
from metrics._ranks import keyed_descending_order, sklearn_ignore_ties_order
from tests.conftest import graded_case, multilabel_case


def _reference(scores, ties):
    if ties == "lower_first":
        return np.argsort(-scores, axis=1, kind="stable")
    return np.argsort(scores, axis=1, kind="stable")[:, ::-1]


def _adversarial(rng, n, m):
    """Ties, -0.0 beside 0.0, negatives, and scores one ulp apart (merged keys)."""
    base = rng.choice([-1.5, -0.0, 0.0, 1.0, 3.0], size=(n, m))
    ulps = rng.integers(0, 4, size=(n, m))
    return np.nextafter(base, np.inf) * (ulps == 1) + base * (ulps != 1)


@pytest.mark.parametrize("ties", ["lower_first", "higher_first"])
@pytest.mark.parametrize("shape", [(1, 1), (3, 2), (50, 7), (20, 128), (5, 300)])
@pytest.mark.parametrize("seed", range(3))
def test_keyed_order_equals_the_stable_argsort(ties, shape, seed):
    rng = np.random.default_rng(seed)
    for scores in (
        _adversarial(rng, *shape),
        np.round(rng.random(shape), 1),
        rng.normal(size=shape) * 1e300,
    ):
        expected = _reference(scores, ties)
        np.testing.assert_array_equal(keyed_descending_order(scores, ties=ties), expected)
        flat = keyed_descending_order(scores, ties=ties, flat=True)
        np.testing.assert_array_equal(flat - np.arange(shape[0])[:, None] * shape[1], expected)


def test_scores_one_ulp_apart_fall_back_to_the_stable_sort():
    # 1 + 2**-52 and 1 + 2**-51 differ only in the low (column) bits at 4 columns
    scores = np.array([[1.0, 1.0 + 2**-52, 1.0 + 2**-51, 1.0]])
    assert keyed_descending_order(scores).tolist() == [[2, 1, 0, 3]]
    assert sklearn_ignore_ties_order(scores).tolist() == [[2, 1, 3, 0]]


@settings(max_examples=200, deadline=None)
@given(
    arrays(
        np.float64,
        st.tuples(st.integers(1, 6), st.integers(1, 9)),
        elements=st.floats(-1e6, 1e6, allow_nan=False, width=64)
        | st.sampled_from([0.0, -0.0, 1.0, np.nextafter(1.0, 2.0)]),
    ),
    st.sampled_from(["lower_first", "higher_first"]),
)
def test_keyed_order_property(scores, ties):
    expected = _reference(scores, ties)
    np.testing.assert_array_equal(keyed_descending_order(scores, ties=ties), expected)


def test_unknown_tie_rule_is_refused():
    with pytest.raises(ValueError, match="ties"):
        keyed_descending_order(np.zeros((1, 2)), ties="random")


# ---------------------------------------------------------------------------
# Row blocks shared among threads (map_blocks) change no number
# ---------------------------------------------------------------------------
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


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own nice value")
def test_blocks_run_at_the_priority_of_the_thread_that_asked(monkeypatch):
    """A low-priority caller's blocks do not run at the default priority (nor the
    other way round), whichever called first."""
    monkeypatch.setattr(ranks, "WORKERS", 2)

    def own_nice(_block) -> int:
        time.sleep(0.01)  # both of the pool's threads take blocks
        return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())

    seen = {}

    def caller(nice: int) -> None:
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), nice)
        seen[nice] = set(ranks.map_blocks(own_nice, range(8)))

    now = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
    lower = min(19, now + 7)  # a lower priority: no privilege needed to take it
    for nice in (now, lower, now, lower):  # each time on a new thread at its value
        thread = threading.Thread(target=caller, args=(nice,))
        thread.start()
        thread.join()
    assert lower != now and seen == {now: {now}, lower: {lower}}


def test_the_pool_threads_cpu_is_counted_for_the_caller(monkeypatch):
    """time.thread_time misses what the pool's threads did; worker_seconds has it,
    about what the same blocks cost in the caller's own thread."""
    import time

    monkeypatch.setattr(ranks, "WORKERS", 2)
    a = np.random.default_rng(0).random(400_000)

    def block(_):
        for _ in range(5):
            np.sort(a)

    start = time.thread_time()
    ranks.map_blocks(block, range(1))  # one block: runs in the caller
    alone = time.thread_time() - start
    before, own = ranks.worker_seconds(), time.thread_time()
    ranks.map_blocks(block, range(6))  # six: in the pool
    in_pool = ranks.worker_seconds() - before
    assert time.thread_time() - own < alone  # the caller's thread only waited
    assert 6 * alone / 3 < in_pool < 6 * alone * 3


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
