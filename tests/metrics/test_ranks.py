"""The keyed sort in metrics._ranks equals the stable argsorts it replaces."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from metrics._ranks import keyed_descending_order, sklearn_ignore_ties_order


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
