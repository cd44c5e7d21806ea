"""explorer.budget: the estimates of heavy work, the refusals, the session ledger; and
the Compare page's bootstraps left out, with a sentence, over the limit."""

from __future__ import annotations

import math

import numpy as np
import pytest

import metrics
import metrics._ranks
import metrics.compare
from explorer import budget
from explorer.pages import compare
from explorer.samples import load_sample


def test_the_estimates_grow_with_rows_resamples_and_cells():
    assert budget.bootstrap_seconds("count", 10**6, 2000) == pytest.approx(18.0)
    assert budget.bootstrap_seconds("mean", 10**6, 2000) == pytest.approx(18.0)
    assert budget.bootstrap_seconds("count2", 10**6, 2000) == pytest.approx(36.0)
    assert budget.bootstrap_seconds("count_each", 10**6, 1000) == pytest.approx(6.0)
    # the slow path: 0.5 ms per call and 60 ns per cell, one call per resample
    assert budget.bootstrap_seconds("slow", 100, 2000, cells=10_000) == pytest.approx(2.2)
    # the Multilabel headline: 60 ns per row and 6 ns per cell (row and label), each resample
    assert budget.bootstrap_seconds("labels", 1000, 2000, cells=10_000) == pytest.approx(0.24)
    # the Multiclass headline: 90 ns per cell (row and class) and resample
    assert budget.bootstrap_seconds("heavy", 100, 2000, cells=1000) == pytest.approx(0.18)
    assert budget.label_ranking_seconds(100_000, 100) == pytest.approx(4.0)


def test_hosted_is_strict_and_a_laptop_generous():
    assert budget.limits({budget.HOSTED_VARIABLE: "1"}) == budget.Limits(8.0, 30.0)
    assert budget.limits({budget.HOSTED_VARIABLE: "0"}) == budget.Limits(120.0, None)
    assert budget.limits({}) == budget.LOCAL


def test_a_refusal_says_what_how_long_and_the_limit():
    assert budget.too_long(8.0, "x", 8.0) is None
    assert budget.too_long(8.4, "Intervals on 10 rows", 8.0) == (
        "Intervals on 10 rows would take about 8 s of computing; this server offers 8 s"
    )


def test_the_ledger_forgets_after_a_minute():
    book = budget.Ledger(10.0)
    assert book.wait(0.0) == 0.0
    book.charge(0.0, 6.0)
    book.charge(30.0, 6.0)
    assert book.spent(31.0) == 12.0 and book.wait(31.0) == pytest.approx(29.0)
    assert book.spent(60.5) == 6.0 and book.wait(60.5) == 0.0
    assert book.wait(91.0) == 0.0 and book.spent(91.0) == 0.0


def test_compare_over_the_limit_keeps_the_cheap_tests_and_says_why():
    ds = load_sample("breast_cancer")
    full = compare.compare(ds, "logreg", "tree")
    cut = compare.compare(ds, "logreg", "tree", limit=0.0)
    assert full.note is None
    assert cut.note == (
        f"The 2,000 bootstrap resamples of {ds.n_samples:,} rows would take about 0 s of "
        "computing; this server offers 0 s"
    )
    by = {r.label: r for r in cut.rows}
    auc, ap, log = by["ROC AUC"], by["average precision"], by["log loss"]
    assert auc == full.rows[0]  # DeLong: no bootstrap
    assert math.isnan(ap.low) and ap.test == compare.SKIPPED and math.isnan(ap.p_value)
    assert (ap.a, ap.b) == (full.rows[1].a, full.rows[1].b)
    assert math.isnan(log.low) and log.p_value == full.rows[2].p_value  # the t-test stays
    assert "no bootstrap interval on data this large" in compare.verdict(log)
    assert compare.verdict(ap).startswith("No test: the average precision of A and B is ")


def test_a_bootstrap_with_a_checkpoint_gives_the_same_numbers(monkeypatch):
    monkeypatch.setattr(metrics.compare, "AUC_BLOCK_DRAWS", 2000)  # 4 resamples a block
    rng = np.random.default_rng(0)
    y, a, b = rng.integers(0, 2, 500), rng.random(500), rng.random(500)
    calls = []
    ap = metrics.average_precision_score
    got = metrics.paired_bootstrap_diff(
        ap, y, a, b, n_resamples=100, random_state=1, checkpoint=lambda: calls.append(1)
    )
    plain = metrics.paired_bootstrap_diff(ap, y, a, b, n_resamples=100, random_state=1)
    assert np.array_equal(got.distribution, plain.distribution)
    # 25 blocks, in groups of max(3, 2 x threads) between two checkpoints
    assert len(calls) == -(-25 // max(3, 2 * metrics._ranks.WORKERS))


def test_a_comparison_without_bootstraps_still_stops_between_its_metrics():
    """Over the limit no bootstrap runs, yet each metric (DeLong's test, the placements,
    the scatter: seconds at 10^6 rows) is preceded by a checkpoint that may stop it."""
    ds = load_sample("breast_cancer")
    calls = []
    cut = compare.compare(ds, "logreg", "tree", checkpoint=lambda: calls.append(1), limit=0.0)
    # ROC AUC, average precision, log loss, the two placements, the scatter
    assert len(calls) == 6 and cut.note is not None

    class Stop(Exception):
        pass

    def stop_at_the_third():
        calls.append(1)
        if len(calls) == 3:
            raise Stop

    calls.clear()
    with pytest.raises(Stop):
        compare.compare(ds, "logreg", "tree", checkpoint=stop_at_the_third, limit=0.0)
    assert len(calls) == 3  # nothing ran after the stop
    calls.clear()
    first = compare.first_numbers(ds, "logreg", "tree", checkpoint=lambda: calls.append(1))
    # the page's first numbers stop (and give way) at the same points, with no note
    assert len(calls) == 6 and first.note is None and first.rows == cut.rows
