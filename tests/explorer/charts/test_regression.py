"""The Regression page's figures (explorer.charts.regression), without AppTest."""

from __future__ import annotations

import json

import numpy as np

from explorer.charts import regression as charts


def test_predicted_vs_actual_has_identity_line_and_highlight():
    fig = charts.predicted_vs_actual(
        [1.0, 2.0, 3.0], [1.5, 2.0, 9.0], ids=["a", "b", "c"], highlight=2, original=2.5
    )
    names = [t.name for t in fig.data]
    assert names[0] == "model" and "identity y_hat = y" in names
    identity = fig.data[names.index("identity y_hat = y")]
    assert list(identity.x) == list(identity.y) == [1.0, 9.0]
    assert "before the shift" in names
    moved = fig.data[-1]
    assert list(moved.x) == [3.0] and list(moved.y) == [9.0] and "c" in moved.name
    json.loads(fig.to_json())
    plain = charts.predicted_vs_actual([1.0, 2.0], [1.0, 2.0])
    assert len(plain.data) == 2


def test_residual_histogram_and_rmsle_curve():
    fig = charts.residual_histogram([-1.0, 0.0, 2.0], highlight=2.0)
    assert fig.data[0].type == "histogram" and list(fig.data[0].x) == [-1.0, 0.0, 2.0]
    assert [s["x0"] for s in fig.layout.shapes] == [0, 2.0]
    fig = charts.rmsle_asymmetry([1, 2, 3], [0.3, 0.0, 0.2], [0.5, 0, 0.5], y_true=2, marks=(1, 3))
    assert len(fig.data) == 2 and len(fig.layout.shapes) == 3


def test_charts_thin_big_data():
    rng = np.random.default_rng(0)
    y = rng.normal(size=30_000)
    p = y + rng.normal(size=30_000)
    fig = charts.predicted_vs_actual(y, p, highlight=12_345, max_points=1000)
    assert len(fig.data[0].x) == 1000 and "1000 of 30000" in fig.data[0].name
    assert list(fig.data[-1].x) == [y[12_345]]  # the highlighted sample is always drawn
    fig = charts.residual_histogram(y - p, nbins=40)
    assert fig.data[0].type == "bar" and sum(fig.data[0].y) == 30_000
