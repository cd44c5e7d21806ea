"""DCG & NDCG page on many samples: the row-number picker and the paged per-sample table."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from explorer.formatting import fmt
from tests.conftest import metric
from tests.views.dcg.helpers import open_graded, open_tab


def test_large_dataset_row_picker_and_paged_table():
    """Over 1,000 samples: a row-number picker, a paged worst-first table, all rows in the CSV."""
    y, s, at = open_graded(1500, 6)
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s))
    at.number_input(key="dcg_sample").set_value(1234).run()
    assert not at.exception
    assert metric(at, "DCG of this sample") == fmt(metrics.dcg_per_sample(y, s)[1234])
    at.number_input(key="dcg_k").set_value(2).run()
    at.toggle(key="dcg_ignore_ties").set_value(True).run()
    assert not at.exception
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=2, ignore_ties=True))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s, k=2, ignore_ties=True))
    assert metric(at, "DCG of this sample") == fmt(
        metrics.dcg_per_sample(y, s, k=2, ignore_ties=True)[1234]
    )
    ndcg = metrics.ndcg_per_sample(y, s, k=2, ignore_ties=True)
    open_tab(at, "Every sample")
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=2, ignore_ties=True))
    per = next(df.value for df in at.dataframe if "pessimistic DCG" in df.value.columns)
    assert len(per) == 200
    assert per["NDCG"].iloc[0] == pytest.approx(np.sort(ndcg)[0])
    at.number_input(key="dcg_per_sample_start").set_value(1400).run()
    assert not at.exception
    per = next(df.value for df in at.dataframe if "pessimistic DCG" in df.value.columns)
    assert len(per) == 100
    assert per["NDCG"].iloc[-1] == pytest.approx(np.sort(ndcg)[-1])
