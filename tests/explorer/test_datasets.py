"""The Dataset value, the gallery and the first readers."""

import numpy as np
import pytest

from explorer.datasets import Dataset, load_sample, sample_names
from explorer.io import DataError, read_matrix_pair, read_table


def test_every_sample_loads_with_matching_shapes():
    for name in sample_names():
        ds = load_sample(name)
        assert ds.description
        for s in ds.scores.values():
            assert s.shape == ds.y_true.shape


def test_dataset_arrays_are_read_only():
    ds = load_sample("seed002_auc8")
    with pytest.raises(ValueError):
        ds.y_true[0] = 5


def test_dataset_refuses_mismatched_scores():
    with pytest.raises(ValueError, match="shape"):
        Dataset("x", "binary", np.zeros(3), {"m": np.zeros(2)})


def test_seed_samples_hold_the_documents_numbers():
    ds = load_sample("seed002_auc8")
    assert ds.y_true.tolist() == [1, 0, 0, 0, 1, 0, 1, 0]
    assert ds.score().tolist() == [0.9, 0.8, 0.3, 0.1, 0.4, 0.9, 0.66, 0.7]
    ds = load_sample("seed001_dcg")
    assert ds.y_true[0].tolist() == [10, 0, 0, 1, 5]


def test_read_table_names_line_column_and_value_of_a_bad_cell():
    with pytest.raises(DataError, match=r'bad\.csv, line 3, column "y_score": \'n/a\''):
        read_table(b"y_true,y_score\n0,0.1\n1,n/a\n", kind="binary", name="bad.csv")


def test_read_table_refuses_non_binary_label():
    with pytest.raises(DataError, match=r'line 2, column "y_true": \'2\''):
        read_table(b"y_true,y_score\n2,0.1\n", kind="binary", name="b.csv")


def test_read_matrix_pair_refuses_headers_that_differ():
    with pytest.raises(DataError, match=r"extra: \['bird'\]"):
        read_matrix_pair(b"cat,dog\n1,0\n", b"cat,dog,bird\n0.1,0.2,0.3\n", kind="multilabel")


def test_read_table_refuses_empty_and_header_only_files():
    with pytest.raises(DataError, match="empty"):
        read_table(b"", kind="binary", name="e.csv")
    with pytest.raises(DataError, match="no data rows"):
        read_table(b"y_true,y_score\n", kind="binary", name="h.csv")
