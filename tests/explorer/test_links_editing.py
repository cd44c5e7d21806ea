"""Shareable links and the editor's round trips (pure functions, no server)."""

import numpy as np
import pandas as pd
import pytest

from explorer.datasets import Dataset
from explorer.editing import (
    dataset_from_matrices,
    dataset_from_table,
    matrices_from_dataset,
    splice,
    table_from_dataset,
)
from explorer.io import DataError
from explorer.links import decode_dataset, encode_dataset, fits_in_link
from explorer.samples import load_sample, sample_names


@pytest.mark.parametrize("name", sample_names())
def test_every_small_sample_survives_a_link_round_trip(name):
    ds = load_sample(name)
    if not fits_in_link(ds):
        pytest.skip("too big to travel inline")
    back = decode_dataset(encode_dataset(ds))
    assert back.kind == ds.kind
    np.testing.assert_array_equal(back.y_true, ds.y_true)
    for model, s in ds.scores.items():
        np.testing.assert_array_equal(back.scores[model], s)
    assert back.label_names == ds.label_names
    assert back.sample_ids == ds.sample_ids


def test_link_keeps_sample_weight():
    ds = Dataset(
        "w",
        "regression",
        np.array([1.5, 2.0]),
        {"m": np.array([1.0, 2.5])},
        sample_weight=np.array([0.25, 3.0]),
    )
    assert decode_dataset(encode_dataset(ds)).sample_weight.tolist() == [0.25, 3.0]


@pytest.mark.parametrize("token", ["", "%%%", "eJwrSS0u0S0pSiwqSkxLSy0CAC7tBcY", "abc"])
def test_damaged_link_is_refused_with_a_clear_message(token):
    with pytest.raises(DataError, match="link's data parameter is damaged"):
        decode_dataset(token)


def test_link_with_non_binary_labels_is_refused():
    ds = Dataset("r", "regression", np.array([2.0, 3.0]), {"m": np.array([1.0, 2.0])})
    token = encode_dataset(ds)
    import base64
    import json
    import zlib

    payload = json.loads(zlib.decompress(base64.urlsafe_b64decode(token + "==")))
    payload["kind"] = "binary"
    bad = base64.urlsafe_b64encode(zlib.compress(json.dumps(payload).encode())).decode()
    with pytest.raises(DataError, match="labels must be 0 or 1"):
        decode_dataset(bad)


def test_table_round_trip_and_bad_cell_names_row_and_column():
    ds = load_sample("seed002_auc8")
    df = table_from_dataset(ds)
    back = dataset_from_table(df, kind="binary", name="x")
    np.testing.assert_array_equal(back.score(), ds.score())
    df.loc[3, "y_true"] = 2
    with pytest.raises(DataError, match=r'row 3, column "y_true": 2 is not 0 or 1'):
        dataset_from_table(df, kind="binary", name="x")
    df = table_from_dataset(ds)
    df.loc[5, "score_model"] = None
    with pytest.raises(DataError, match=r'row 5, column "score_model": is empty'):
        dataset_from_table(df, kind="binary", name="x")


def test_matrix_round_trip_and_row_mismatch():
    ds = load_sample("seed003_lrap")
    labels, scores = matrices_from_dataset(ds)
    back = dataset_from_matrices(labels, scores, kind="multilabel", name="x")
    np.testing.assert_array_equal(back.y_true, ds.y_true)
    assert back.label_names == ("human", "cat", "dog")
    with pytest.raises(DataError, match="labels table has 3 rows but the scores table has 2"):
        dataset_from_matrices(labels, scores.iloc[:2], kind="multilabel", name="x")


def test_graded_labels_refuse_negative_relevance():
    labels = pd.DataFrame({"a": [1, -1], "b": [0, 2]})
    scores = pd.DataFrame({"a": [0.1, 0.2], "b": [0.3, 0.4]})
    with pytest.raises(DataError, match=r'row 1, column "a": -1 is not a relevance grade'):
        dataset_from_matrices(labels, scores, kind="graded", name="x")


def test_splice_replaces_only_the_window():
    full = pd.DataFrame({"x": range(10)})
    out = splice(full, pd.DataFrame({"x": [100, 101, 102]}, index=[4, 5, 50]), 4, 6)
    assert out["x"].tolist() == [0, 1, 2, 3, 100, 101, 102, 6, 7, 8, 9]


def test_a_window_of_rows_equals_the_rows_of_the_full_tables():
    ds = load_sample("seed002_auc8")
    full = table_from_dataset(ds)
    window = table_from_dataset(ds, slice(3, 6))
    pd.testing.assert_frame_equal(window, full.iloc[3:6])
    assert window.to_csv(index=False) == full.iloc[3:6].to_csv(index=False)
    ds = load_sample("seed003_lrap")
    labels, scores = matrices_from_dataset(ds)
    wl, ws = matrices_from_dataset(ds, rows=slice(1, 3))
    pd.testing.assert_frame_equal(wl, labels.iloc[1:3])
    pd.testing.assert_frame_equal(ws, scores.iloc[1:3])
