"""The Dataset value."""

import numpy as np
import pytest

from explorer.datasets import Dataset
from explorer.samples import load_sample


def test_dataset_arrays_are_read_only():
    ds = load_sample("seed002_auc8")
    with pytest.raises(ValueError):
        ds.y_true[0] = 5


def test_dataset_refuses_mismatched_scores():
    with pytest.raises(ValueError, match="shape"):
        Dataset("x", "binary", np.zeros(3), {"m": np.zeros(2)})


Y = np.array([[1, 0, 2], [0, 1, 0]])
MASK = np.array([[True, False, True], [True, True, False]])
ITEMS = np.array([["d1", "d7", "d9"], ["d2", "d3", ""]], dtype=object)


def test_retrieved_and_item_ids_are_checked_frozen_and_keyed():
    ds = Dataset("t", "graded", Y, {"m": Y * 0.5}, retrieved=MASK, item_ids=ITEMS)
    assert ds.retrieved.dtype == bool and ds.retrieved.tolist() == MASK.tolist()
    assert ds.item_ids.tolist() == ITEMS.tolist()
    for a in (ds.retrieved, ds.item_ids):
        with pytest.raises(ValueError):
            a[0, 0] = a[0, 1]
    plain = Dataset("t", "graded", Y, {"m": Y * 0.5})
    ids_only = Dataset("t", "graded", Y, {"m": Y * 0.5}, item_ids=ITEMS)
    # the mask changes the numbers (fingerprint); the ids only what is shown (cache_key)
    assert ds.fingerprint != plain.fingerprint == ids_only.fingerprint
    assert len({plain.cache_key, ids_only.cache_key, ds.cache_key}) == 3
    # a mask of all True is no mask: the same numbers, the same keys
    full = Dataset("t", "graded", Y, {"m": Y * 0.5}, retrieved=np.ones_like(MASK))
    assert full.retrieved is None and full.cache_key == plain.cache_key


@pytest.mark.parametrize(
    ("kind", "y", "extra", "message"),
    [
        ("graded", Y, {"retrieved": MASK.astype(int)}, "boolean"),
        ("graded", Y, {"retrieved": MASK[:, :2]}, "retrieved has shape"),
        ("graded", Y, {"item_ids": ITEMS[:1]}, "item_ids has shape"),
        ("graded", Y, {"item_ids": np.arange(6).reshape(2, 3)}, "text"),
        ("binary", np.array([0, 1]), {"retrieved": np.array([True, False])}, "ranking kind"),
    ],
)
def test_a_wrong_mask_or_ids_is_refused(kind, y, extra, message):
    with pytest.raises(ValueError, match=message):
        Dataset("t", kind, y, {"m": y * 0.5}, **extra)
