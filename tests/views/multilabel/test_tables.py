"""The per-sample table and its CSV (AppTest)."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from explorer.samples import load_sample
from metrics import (
    multilabel_per_sample,
    threshold_predictions,
)
from tests.views.multilabel.helpers import (
    open_page,
    open_tab,
)


def test_samples_csv_holds_every_sample_worst_first(deferred_downloads):
    """The per-sample CSV, built on the click, lists every sample in the table's order."""
    at = open_tab(open_page(), "Every sample")
    at.slider(key="ml_threshold").set_value(0.7).run()
    at.radio(key="ml_zero_division").set_value("1").run()
    ds = load_sample("digit_properties")
    pred = threshold_predictions(ds.score(), 0.7)
    csv = pd.read_csv(
        io.BytesIO(deferred_downloads("download_samples")),
        dtype={"sample": str},
        keep_default_na=False,
    )
    full = multilabel_per_sample(ds.y_true, pred, zero_division=1, label_names=ds.label_names)
    full = full.sort_values(["wrong", "jaccard"], ascending=[False, True], kind="stable")
    assert len(csv) == ds.n_samples
    assert csv["sample"].tolist() == [ds.sample_ids[i] for i in full.index]
    for col in ("missed", "extra", "wrong", "tp"):
        assert csv[col].tolist() == full[col].tolist(), col
    np.testing.assert_allclose(csv["jaccard"], full["jaccard"], rtol=0, atol=1e-12)
    shown = at.dataframe[0].value
    assert shown["sample"].tolist() == csv["sample"].tolist()[: len(shown)]
