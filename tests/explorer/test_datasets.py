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
