"""The Multiclass classification page's figures (explorer.charts.multiclass), without
AppTest."""

from __future__ import annotations

from explorer.charts import multiclass as charts


def test_selection_picks_a_cell():
    event = {"selection": {"points": [{"x": "versicolor", "y": "virginica", "z": 14}]}}
    assert charts.cell_from_selection(event, ["setosa", "versicolor", "virginica"]) == (
        "virginica",
        "versicolor",
    )
    assert charts.cell_from_selection(None, ["a"]) is None
    assert (
        charts.cell_from_selection({"selection": {"points": [{"x": "zz", "y": "a"}]}}, ["a"])
        is None
    )
