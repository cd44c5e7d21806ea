"""Groups made from attributes: bins against a slow reference, categories, refusals."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer import slicing
from explorer.datasets import Dataset


def _slow_bins(values, cuts):
    """Each value's bin by a loop: the number of cut points at or below it; NaN last."""
    out = []
    for v in values:
        out.append(len(cuts) + 1 if np.isnan(v) else sum(1 for c in cuts if c <= v))
    return out


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.just(float("nan"))),
        min_size=1,
        max_size=40,
    ),
    st.lists(st.floats(-1e6, 1e6, allow_nan=False), max_size=5, unique=True),
)
def test_bins_equal_a_slow_reference(values, cuts):
    values, cuts = np.array(values), tuple(sorted(cuts))
    codes, labels = slicing.bin_numbers(values, cuts)
    slow = _slow_bins(values, cuts)
    present = sorted(set(slow))
    assert codes.tolist() == [present.index(b) for b in slow]  # empty bins dropped
    assert len(labels) == len(present)
    if np.isnan(values).any():
        assert labels[-1] == slicing.MISSING


def test_quantile_bins_hold_equal_counts_and_labels_show_the_edges():
    values = np.arange(1.0, 101.0)
    cuts = slicing.quantile_cuts(values, 4)
    assert cuts == tuple(np.percentile(values, [25, 50, 75]))
    codes, labels = slicing.bin_numbers(values, 4)
    assert np.bincount(codes).tolist() == [25, 25, 25, 25]
    assert labels == ("[1, 25.75)", "[25.75, 50.5)", "[50.5, 75.25)", "[75.25, 100]")
    assert slicing.parse_cuts(slicing.cuts_text(cuts)) == cuts


def _ds(**attributes) -> Dataset:
    n = len(next(iter(attributes.values())))
    y = np.arange(n) % 2
    return Dataset("t", "binary", y, {"m": np.linspace(0, 1, n)}, attributes=attributes)


def test_groups_of_text_discrete_numbers_and_bins():
    ds = _ds(
        site=np.array(["b", "a", "", "b", "c", "a"], dtype=object),
        flag=np.array([1.0, 0, 1, np.nan, 0, 1]),
        age=np.array([10.0, 20, 30, 40, 50, 60]),
    )
    codes, labels = slicing.groups_of(ds, "site")
    assert labels == ("a", "b", "c", "(missing)") and codes.tolist() == [1, 0, 3, 1, 2, 0]
    codes, labels = slicing.groups_of(ds, "flag")
    assert labels == ("0", "1", "(missing)") and codes.tolist() == [1, 0, 1, 2, 0, 1]
    codes, labels = slicing.groups_of(ds, "age", bins=(25.0, 45.0))
    assert labels == ("[10, 25)", "[25, 45)", "[45, 60]") and codes.tolist() == [0, 0, 1, 1, 2, 2]
    codes, labels = slicing.groups_of(ds, "age", bins=2)
    assert labels == ("[10, 35)", "[35, 60]") and codes.tolist() == [0, 0, 0, 1, 1, 1]


def test_too_many_groups_and_unknown_attributes_are_refused_with_a_sentence():
    ds = _ds(user=np.array([f"u{i}" for i in range(51)], dtype=object), x=np.arange(51.0))
    with pytest.raises(slicing.GroupingError) as info:
        slicing.groups_of(ds, "user")
    assert str(info.value) == (
        "attribute 'user' has 51 different values: too many to compare as groups (at most 50). "
        "Group it into fewer values before uploading."
    )
    assert len(slicing.groups_of(ds, "x")[1]) == slicing.DEFAULT_BINS  # numbers are binned
    with pytest.raises(slicing.GroupingError, match="more than 50 bins"):
        slicing.groups_of(ds, "x", bins=tuple(np.arange(50.0)))
    with pytest.raises(
        slicing.GroupingError, match=r"no attribute 'nope' \(its attributes: user, x\)"
    ):
        slicing.groups_of(ds, "nope")
    with pytest.raises(slicing.GroupingError, match="is not a number"):
        slicing.parse_cuts("1, two")
