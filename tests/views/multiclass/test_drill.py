"""The Multiclass classification page's drill-downs (AppTest): a confusion-matrix cell's
samples and one sample's log-loss term."""

from __future__ import annotations

import numpy as np

from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.conftest import open_page
from tests.views.multiclass.common import PAGE, open_link


def test_a_cell_lists_its_samples():
    at = open_page(PAGE, "iris", ct="versicolor", cp="virginica")
    cell = next(m.value for m in at.markdown if m.value.startswith("**True versicolor"))
    assert "predicted virginica** (wrong): 13 sample(s)" in cell
    table = at.dataframe[0].value
    assert len(table) == 13 and list(table.columns)[:2] == ["sample", "p_setosa"]
    ds = load_sample("iris")
    rows = [ds.sample_ids.index(s) for s in table["sample"]]
    assert (ds.score()[rows].argmax(axis=1) == 2).all()
    assert (ds.y_true[rows].argmax(axis=1) == 1).all()


def test_sample_drill_down_writes_its_log_loss_term():
    at = open_link({"ds": "iris", "sample": "flower000"})
    assert at.selectbox(key="mc_sample").value == "flower000"
    ds = load_sample("iris")
    p = ds.score()[0, 0]
    want = fmt(-np.log(p))
    assert any(x.value.strip("$\n").endswith(f"-\\log {fmt(p)} = {want}") for x in at.latex)
