"""A dataset without ids names its samples by row number, held as one number (RowIds)."""

from __future__ import annotations

import json
import pickle

import numpy as np
import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from explorer.datasets import Dataset, RowIds
from explorer.io import read_upload
from explorer.links import decode_dataset, encode_dataset
from explorer.ui.session import dataset_bytes


@given(st.integers(0, 60), st.data())
def test_row_ids_read_as_the_tuple_of_row_numbers(n, data):
    ids, same = RowIds(n), tuple(str(i) for i in range(n))
    assert len(ids) == n and list(ids) == list(same) and tuple(reversed(ids)) == same[::-1]
    assert ids == same and same == ids and ids == list(same) and hash(ids) == hash(same)
    i = data.draw(st.integers(-n - 2, n + 2))
    if -n <= i < n:
        assert ids[i] == same[i] and ids[np.int64(i)] == same[i]
    else:
        with pytest.raises(IndexError):
            ids[i]
    start, stop = data.draw(st.integers(-n - 2, n + 2)), data.draw(st.integers(-n - 2, n + 2))
    step = data.draw(st.sampled_from([1, 2, 3, -1, -2]))
    assert ids[start:stop:step] == same[start:stop:step]
    name = data.draw(st.sampled_from([str(i), f"0{i}", f"{i} ", "x", "", "-1", "1e1", "٣"]))
    assert (name in ids) == (name in same) and ids.count(name) == same.count(name)
    if name in same:
        assert ids.index(name) == same.index(name)
    else:
        with pytest.raises(ValueError):
            ids.index(name)


def test_row_ids_equal_only_the_same_strings():
    assert RowIds(3) != ("0", "1", "3") and RowIds(3) != ("0", "1") and RowIds(2) != (0, 1)
    assert RowIds(3) != RowIds(4) and RowIds(0) == () and not RowIds(0)
    assert {RowIds(2): "a"}[("0", "1")] == "a"  # one key, as equal tuples are


def test_row_ids_go_where_a_tuple_of_ids_went():
    ids = RowIds(5)
    assert pickle.loads(pickle.dumps(ids)) == ids and repr(ids) == "RowIds(5)"
    assert np.asarray(ids, dtype=object).tolist() == ["0", "1", "2", "3", "4"]
    assert pd.Index(ids).get_indexer(["3", "9"]).tolist() == [3, -1]
    assert json.dumps(list(ids)) == '["0", "1", "2", "3", "4"]'


def test_a_dataset_without_ids_gets_row_ids_and_keeps_its_key_apart():
    y, s = np.array([0, 1, 1]), {"m": np.array([0.2, 0.7, 0.4])}
    bare = Dataset("d", "binary", y, s)
    named = Dataset("d", "binary", y, s, sample_ids=("0", "1", "2"))
    other = Dataset("d", "binary", y, s, sample_ids=("a", "b", "c"))
    assert isinstance(bare.sample_ids, RowIds) and bare.sample_ids == named.sample_ids
    assert bare.cache_key == Dataset("d", "binary", y, s).cache_key
    assert len({bare.cache_key, other.cache_key}) == 2
    assert bare.fingerprint == named.fingerprint == other.fingerprint  # ids are no content


def test_an_upload_without_ids_is_counted_by_its_numbers_not_by_strings():
    """A 200,000-row two-model CSV without an id column: the session's budget counts the
    arrays it holds (three of 1.6 MB), not 200,000 id strings that are never made."""
    n = 200_000
    rng = np.random.default_rng(0)
    y, a, b = rng.integers(0, 2, n), rng.random(n), rng.random(n)
    frame = pd.DataFrame({"y_true": y, "score_a": a, "score_b": b})
    ds = read_upload("big.csv", frame.to_csv(index=False).encode())
    assert isinstance(ds.sample_ids, RowIds) and len(ds.sample_ids) == n
    assert ds.sample_ids[n - 1] == str(n - 1)
    arrays = ds.y_true.nbytes + sum(s.nbytes for s in ds.scores.values())
    assert arrays <= dataset_bytes(ds) < arrays + 10_000
    with_ids = frame.assign(id=[f"s{i}" for i in range(n)]).to_csv(index=False).encode()
    named = read_upload("named.csv", with_ids)
    assert dataset_bytes(named) > arrays + 57 * n  # explicit ids are held, and counted


def test_a_link_carries_no_row_ids_and_gives_them_back():
    ds = Dataset("d", "binary", np.array([0, 1]), {"m": np.array([0.1, 0.8])})
    back = decode_dataset(encode_dataset(ds))
    assert isinstance(back.sample_ids, RowIds) and back.sample_ids == ("0", "1")
    named = Dataset("d", "binary", ds.y_true, ds.scores, sample_ids=("1", "0"))
    assert decode_dataset(encode_dataset(named)).sample_ids == ("1", "0")
