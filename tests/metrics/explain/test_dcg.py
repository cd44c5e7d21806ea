"""metrics.explain.dcg (tie bounds, tie orders, the exponential gain) against slow
references."""

from __future__ import annotations

import itertools
import math

import numpy as np
import pytest

import metrics
from metrics import (
    MetricInputError,
    dcg_tie_bounds_per_sample,
    dcg_tie_order_steps,
    exponential_gain,
)
from tests.conftest import graded_case


def _ref_order_dcg(gains, order, k, base):
    m = len(gains)
    k = m if k is None else min(k, m)
    return sum(gains[order[p]] / math.log(p + 2, base) for p in range(k))


def _ref_bounds(gains, scores, k, base):
    """Every permutation that keeps the score order: the min and max DCG (small rows only)."""
    values = sorted(set(scores), reverse=True)
    groups = [[j for j in range(len(scores)) if scores[j] == v] for v in values]
    dcgs = [
        _ref_order_dcg(gains, [j for g in perm for j in g], k, base)
        for perm in itertools.product(*(itertools.permutations(g) for g in groups))
    ]
    return min(dcgs), max(dcgs), float(np.mean(dcgs))


@pytest.mark.parametrize("seed", range(5))
@pytest.mark.parametrize("k", [None, 1, 2, 4])
def test_tie_bounds_match_brute_force(seed, k):
    y, s = graded_case(seed, n=12, m=5)
    for base in (2, 10):
        low, high = dcg_tie_bounds_per_sample(y, s, k=k, log_base=base)
        avg = metrics.dcg_per_sample(y, s, k=k, log_base=base)
        for i in range(len(y)):
            rlow, rhigh, rmean = _ref_bounds(list(y[i]), list(s[i]), k, base)
            assert low[i] == pytest.approx(rlow, abs=1e-9)
            assert high[i] == pytest.approx(rhigh, abs=1e-9)
            assert avg[i] == pytest.approx(rmean, abs=1e-9)  # McSherry & Najork's mean
        assert np.all(low <= avg + 1e-12) and np.all(avg <= high + 1e-12)
    nlow, nhigh = dcg_tie_bounds_per_sample(y, s, k=k, normalize=True)
    ndcg = metrics.ndcg_per_sample(y, s, k=k)
    assert np.all(nlow <= ndcg + 1e-12) and np.all(ndcg <= nhigh + 1e-12)
    assert nlow[0] == 0 and nhigh[0] == 0  # graded_case's row 0 has no relevant item


def test_tie_bounds_without_ties_collapse():
    y, s = graded_case(3, n=20, m=6, ties=False)
    low, high = dcg_tie_bounds_per_sample(y, s, k=3)
    np.testing.assert_allclose(low, high)
    np.testing.assert_allclose(low, metrics.dcg_per_sample(y, s, k=3))


@pytest.mark.parametrize("seed", range(4))
def test_tie_orders_columns_sum_to_each_dcg(seed):
    y, s = graded_case(seed, n=6, m=7)
    for i, k in itertools.product(range(6), (None, 3)):
        t = dcg_tie_order_steps(y[i], s[i], k=k)
        low, high = dcg_tie_bounds_per_sample(y[i : i + 1], s[i : i + 1], k=k)
        sums = {w: t[f"contribution_{w}"].sum() for w in ("averaged", "ignore_ties")}
        assert sums["averaged"] == pytest.approx(metrics.dcg_per_sample(y, s, k=k)[i])
        assert sums["ignore_ties"] == pytest.approx(
            metrics.dcg_per_sample(y, s, k=k, ignore_ties=True)[i]
        )
        assert t["contribution_pessimistic"].sum() == pytest.approx(low[0])
        assert t["contribution_optimistic"].sum() == pytest.approx(high[0])
        for w in ("averaged", "ignore_ties", "pessimistic", "optimistic"):
            assert sorted(t[f"position_{w}"]) == list(range(1, 8))
        assert not t.loc[t["tie_size"] == 1, "moved"].any()


def test_exponential_gain_values_and_refusals():
    y = np.array([[0, 1, 2, 3], [4, 0, 1, 10]])
    np.testing.assert_array_equal(exponential_gain(y), [[0, 1, 3, 7], [15, 0, 1, 1023]])
    with pytest.raises(MetricInputError, match="non-negative"):
        exponential_gain([[1, -1]])
    with pytest.raises(MetricInputError, match="overflows"):
        exponential_gain([[2000.0, 1.0]])
    # NDCG with the exponential gain: the ideal order is the same (monotone transform)
    g, s = graded_case(1, n=10, m=5)
    ref = metrics.dcg_per_sample(2.0**g - 1, s) / np.where(
        (ideal := metrics.dcg_per_sample(2.0**g - 1, 2.0**g - 1)) > 0, ideal, 1
    )
    np.testing.assert_allclose(metrics.ndcg_per_sample(exponential_gain(g), s), ref, atol=1e-12)
