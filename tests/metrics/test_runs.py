"""metrics._runs, the runs of equal values of a sorted array, against a plain Python loop."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra.numpy import arrays

from metrics._runs import run_lengths, run_start_mask, runs, runs_from_mask


def slow_runs(values) -> tuple[list[int], list[int]]:
    """(starts, lengths) of the runs of equal neighbours, one element at a time."""
    starts, lengths = [], []
    for i, v in enumerate(values):
        # != as numpy compares: a NaN differs from everything, itself included
        if i == 0 or v != values[i - 1]:
            starts.append(i)
            lengths.append(1)
        else:
            lengths[-1] += 1
    return starts, lengths


sorted_floats = arrays(
    np.float64,
    st.integers(0, 60),
    elements=st.sampled_from([-1.5, 0.0, 0.25, 0.25 + 2**-50, 3.0, np.inf, -np.inf]),
).map(np.sort)


@settings(max_examples=200, deadline=None)
@given(sorted_floats, st.booleans())
def test_runs_equal_the_loop(x, descending):
    x = x[::-1].copy() if descending else x
    starts, lengths = slow_runs(x.tolist())
    r = runs(x)
    assert r.starts.tolist() == starts
    assert r.lengths.tolist() == lengths
    assert r.ends.tolist() == [s + n for s, n in zip(starts, lengths, strict=True)]
    assert r.last.tolist() == [s + n - 1 for s, n in zip(starts, lengths, strict=True)]
    assert run_start_mask(x).tolist() == [i in starts for i in range(x.shape[0])]
    assert run_lengths(r.starts, x.shape[0]).tolist() == lengths
    # the distinct values and their counts, as np.unique gives them
    if not descending:
        values, counts = np.unique(x, return_counts=True)
        assert x[r.starts].tolist() == values.tolist()
        assert r.lengths.tolist() == counts.tolist()


@given(arrays(np.int64, st.integers(0, 40), elements=st.integers(-3, 3)).map(np.sort))
def test_integer_runs_equal_the_loop(x):
    starts, lengths = slow_runs(x.tolist())
    assert runs(x).starts.tolist() == starts
    assert runs(x).lengths.tolist() == lengths


def test_each_nan_is_a_run_of_its_own():
    x = np.array([0.0, 0.0, np.nan, np.nan])
    assert runs(x).lengths.tolist() == slow_runs(x.tolist())[1] == [2, 1, 1]


@given(st.lists(st.booleans(), max_size=40).map(lambda b: np.array([True, *b])))
def test_runs_from_mask_cut_at_every_mark(is_start):
    r = runs_from_mask(is_start)
    assert r.starts.tolist() == np.flatnonzero(is_start).tolist()
    assert int(r.lengths.sum()) == is_start.shape[0]
    assert (r.lengths >= 1).all()


def test_empty():
    r = runs(np.zeros(0))
    assert r.starts.shape == r.lengths.shape == r.ends.shape == (0,)
    assert run_start_mask(np.zeros(0)).shape == (0,)
