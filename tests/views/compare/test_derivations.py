"""Compare derives each difference on screen from A and B: each line ends in the digits
of the st.metric it derives, and the numbers are those of metrics."""

from __future__ import annotations

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import metric, open_page


def test_compare_derives_each_difference_from_a_and_b():
    ds = load_sample("breast_cancer")
    y = ds.y_true
    a, b = (metrics.roc_auc_score(y, ds.score(m)) for m in ds.model_names[:2])
    at = open_page(script("compare"), "breast_cancer")
    shown = metric(at, "ROC AUC: B - A")
    assert shown == fmt(b - a)
    line = f"ROC AUC: B - A = {fmt(b)} - {fmt(a)} = {fmt(b - a)}"
    assert line in [m.value for m in at.main.markdown]
