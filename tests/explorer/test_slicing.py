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


#: Lists of numbers with missing ones (NaN) among them.
NUMBERS = st.lists(
    st.one_of(st.floats(-1e6, 1e6, allow_nan=False), st.just(float("nan"))),
    min_size=1,
    max_size=40,
)


@settings(max_examples=60, deadline=None)
@given(
    NUMBERS,
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


@settings(max_examples=80, deadline=None)
@given(NUMBERS, st.integers(2, 6))
def test_quantile_cuts_are_short_and_keep_every_value_in_the_quantiles_bin(values, n_bins):
    values = np.array(values)
    v = values[~np.isnan(values)]
    raw = tuple(np.unique(np.quantile(v, np.arange(1, n_bins) / n_bins))) if v.size else ()
    cuts = slicing.quantile_cuts(values, n_bins)
    # the same groups (an empty bin between two cuts in one gap is dropped either way)
    assert slicing.bin_numbers(values, cuts)[0].tolist() == (
        slicing.bin_numbers(values, raw)[0].tolist()
    )
    for c, r in zip(cuts, raw, strict=True) if len(cuts) == len(raw) else ():
        assert len(repr(c)) <= len(repr(r)) and abs(c - r) <= 1e-9 * abs(r)


def test_a_quartile_is_written_as_a_person_writes_it():
    radius = np.array([9.61, 11.52, 13.27, 13.28, 15.04, 17.19, 19.02, 12.0])
    (cut,) = slicing.quantile_cuts(radius, 2)
    assert np.quantile(radius, 0.5) == 13.274999999999999
    assert cut == 13.275 and slicing.cuts_text((cut,)) == "13.275"
    codes, labels = slicing.bin_numbers(radius, (cut,))
    assert labels == ("[9.61, 13.275)", "[13.275, 19.02]")
    assert codes.tolist() == (radius >= np.quantile(radius, 0.5)).astype(int).tolist()


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


# ----------------------------------------------------------------- the slice filter


@settings(max_examples=60, deadline=None)
@given(
    NUMBERS,
    st.one_of(st.integers(1, 6), st.lists(st.floats(-1e6, 1e6), max_size=4, unique=True)),
)
def test_a_filter_on_each_group_label_selects_exactly_that_groups_rows(values, bins):
    """Every label :func:`groups_of` makes, read back by :func:`slice_mask`, is its group."""
    bins = bins if isinstance(bins, int) else tuple(sorted(bins))
    ds = Dataset(
        "t",
        "binary",
        np.zeros(len(values)),
        {"m": np.zeros(len(values))},
        attributes={"v": np.array(values)},
    )
    codes, labels = slicing.groups_of(ds, "v", bins)
    for g, label in enumerate(labels):
        text = slicing.slice_text([("v", label)])
        mask = slicing.slice_mask(ds, slicing.parse_slice(text))
        assert mask.tolist() == (codes == g).tolist(), (label, bins)


def test_text_groups_and_two_conditions_and_hostile_names_read_back():
    site = np.array(["a:b;c", "50%", "", "a:b;c", "x"], dtype=object)
    flag = np.array([1.0, 0.0, 1.0, 1.0, np.nan])
    ds = Dataset(
        "t",
        "binary",
        np.zeros(5),
        {"m": np.zeros(5)},
        attributes={"we;ird:name%": site, "flag": flag},
    )
    for conds, rows in [
        ((("we;ird:name%", "a:b;c"),), [0, 3]),
        ((("we;ird:name%", "50%"),), [1]),
        ((("we;ird:name%", slicing.MISSING),), [2]),
        ((("flag", slicing.MISSING),), [4]),
        ((("we;ird:name%", "a:b;c"), ("flag", "1")), [0, 3]),
    ]:
        text = slicing.slice_text(conds)
        assert slicing.parse_slice(text) == conds
        assert np.flatnonzero(slicing.slice_mask(ds, conds)).tolist() == rows


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("site", "is not attribute:group"),
        ("a:1;b:2;c:3", "is not attribute:group"),
        ("a:1;a:2", "names one attribute twice"),
    ],
)
def test_a_malformed_slice_text_is_refused(text, says):
    with pytest.raises(slicing.GroupingError, match=says):
        slicing.parse_slice(text)


@pytest.mark.parametrize(
    ("conds", "says"),
    [
        ([("ward", "B")], "no attribute 'ward'"),
        ([("site", "C")], "no group 'C'"),
        ([("age", "[100, 200)")], "no group"),
        ([("age", "old")], "no group 'old'"),
        ([("site", "A"), ("age", "20")], "no sample is in all of site = A and age = 20"),
    ],
)
def test_a_slice_the_data_lacks_is_refused_with_a_sentence(conds, says):
    ds = Dataset(
        "t",
        "binary",
        np.zeros(3),
        {"m": np.zeros(3)},
        attributes={
            "site": np.array(["A", "B", "B"], dtype=object),
            "age": np.array([30.0, 20, 50]),
        },
    )
    with pytest.raises(slicing.GroupingError, match=says):
        slicing.slice_mask(ds, conds)


def test_a_subset_takes_every_per_row_array_of_a_run():
    rng = np.random.default_rng(3)
    y = rng.integers(0, 3, (6, 4)).astype(float)
    retrieved = rng.random((6, 4)) < 0.8
    retrieved[:, 0] = True
    retrieved[1, 3] = False  # the slice keeps a mask (one of all True would be None)
    items = np.array([[f"d{i}_{j}" for j in range(4)] for i in range(6)], dtype=object)
    topic = np.array(["x", "y", "x", "y", "x", "x"], dtype=object)
    ds = Dataset(
        "run",
        "graded",
        y,
        {"m": rng.random((6, 4)), "n": rng.random((6, 4))},
        sample_weight=rng.random(6) + 0.5,
        sample_ids=tuple("abcdef"),
        retrieved=retrieved,
        item_ids=items,
        attributes={"topic": topic},
    )
    part = slicing.subset(ds, [("topic", "y")])
    rows = [1, 3]
    assert part.name == "run" and part.shown_name == "run (topic = y)"
    assert part.sample_ids == ("b", "d")
    assert np.array_equal(part.y_true, y[rows])
    for m in ("m", "n"):
        assert np.array_equal(part.scores[m], ds.scores[m][rows])
    assert np.array_equal(part.sample_weight, ds.sample_weight[rows])
    assert np.array_equal(part.retrieved, retrieved[rows])
    assert part.item_ids.tolist() == items[rows].tolist()
    assert part.attribute("topic").tolist() == ["y", "y"]
    assert part.cache_key != ds.cache_key
