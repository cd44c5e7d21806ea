"""The intervals bench's larger tables: the sample's rows repeated, nothing else changed."""

from __future__ import annotations

import numpy as np

from bench.intervals import _tiled
from explorer.samples import load_sample


def test_a_tiled_table_repeats_every_row_of_labels_and_scores():
    for name in ("iris", "digit_properties", "imbalanced"):
        ds = load_sample(name)
        big = _tiled(ds, 3)
        model = ds.model_names[0]
        assert big.n_samples == 3 * ds.n_samples and big.kind == ds.kind
        np.testing.assert_array_equal(big.y_true[ds.n_samples : 2 * ds.n_samples], ds.y_true)
        np.testing.assert_array_equal(big.score(model)[-ds.n_samples :], ds.score(model))
