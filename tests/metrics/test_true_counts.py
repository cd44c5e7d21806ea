"""Counts of True along an axis: the counts ``np.count_nonzero`` gives, whatever the layout."""

from __future__ import annotations

import numpy as np
import pytest

from metrics._true_counts import column_counts, row_counts


@pytest.mark.parametrize("shape", [(0, 3), (5, 0), (1, 1), (300, 20), (40, 255), (40, 256)])
@pytest.mark.parametrize("layout", ["C", "F", "strided"])
def test_counts_equal_count_nonzero(shape, layout):
    rng = np.random.default_rng(shape[0] * 1000 + shape[1])
    mask = rng.random((shape[0], 2 * shape[1])) < 0.7
    mask = mask[:, ::2] if layout == "strided" else mask[:, : shape[1]]
    mask = np.asfortranarray(mask) if layout == "F" else mask
    rows, columns = row_counts(mask), column_counts(mask)
    assert rows.dtype == np.intp and columns.dtype == np.intp
    np.testing.assert_array_equal(rows, np.count_nonzero(mask, axis=1))
    np.testing.assert_array_equal(columns, np.count_nonzero(mask, axis=0))


def test_a_full_row_of_255_counts_255_and_wider_rows_count_past_a_byte():
    # the row's count is summed in its own bytes only while it fits one
    full = np.ones((3, 255), dtype=bool)
    assert row_counts(full).tolist() == [255] * 3
    assert row_counts(np.ones((2, 256), dtype=bool)).tolist() == [256, 256]
    assert row_counts(np.ones((2, 700), dtype=bool)).tolist() == [700, 700]
    assert column_counts(np.ones((70_000, 2), dtype=bool)).tolist() == [70_000, 70_000]


def test_other_dtypes_are_counted_by_count_nonzero():
    values = np.array([[0.0, 2.5, -1.0], [0.0, 0.0, 3.0]])
    assert row_counts(values).tolist() == [2, 1] and column_counts(values).tolist() == [0, 1, 2]
