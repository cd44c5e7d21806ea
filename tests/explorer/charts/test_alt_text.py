"""The text alternative of a plotly chart (explorer.charts.alt_text) reads the numbers the
chart draws: a grid cell by cell as written in it, a short series point by point, a long
one by its size and spans; a trace drawn only to be clicked is left out. The downloaded
view gives each figure's box the same text (explorer.report)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import plotly.graph_objects as go

from explorer import report
from explorer.charts import leaderboard, multiclass
from explorer.charts.alt_text import describe


def test_a_confusion_matrix_is_read_cell_by_cell_without_its_click_targets():
    table = pd.DataFrame([[5, 1], [2, 7]], index=["cat", "dog"], columns=["cat", "dog"])
    fig = multiclass.confusion_figure(table, counts=True)
    assert len(fig.data) == 2  # the heatmap and its transparent click targets
    text = describe(fig)
    for (true, predicted), n in np.ndenumerate(table.to_numpy()):
        assert re.search(rf"{table.index[true]} by {table.columns[predicted]}: {n}[;.]", text)
    assert text.endswith("dog by dog: 7.")  # the click targets add nothing after the cells


def test_a_grid_of_written_cells_is_read_as_written():
    diff = np.array([[0.0, 0.125, -0.5], [-0.125, 0.0, 0.25], [0.5, -0.25, 0.0]])
    p = np.full((3, 3), 0.01)
    fig = leaderboard.matrix(["a", "b<c>", "d"], diff, p, 0.05, True, "MAE")
    text = describe(fig)
    assert text.startswith("MAE: row − column.")
    # each cell by its row, then its column: row model minus column model
    assert "b<c>, a: -0.125" in text and "a, b<c>: +0.125" in text and "d, d: blank" in text


def test_a_long_curve_is_read_by_its_size_and_spans_a_short_one_point_by_point():
    x = np.linspace(0.0, 1.0, 101)
    fig = go.Figure([go.Scatter(x=x, y=x**2, name="ROC"), go.Bar(x=["p", "q"], y=[3, 0.25])])
    fig.update_layout(xaxis_title="FPR", yaxis_title="TPR")
    assert describe(fig) == (
        "Chart. Horizontal axis: FPR; vertical axis: TPR. "
        "ROC: 101 points, horizontal from 0 to 1, vertical from 0 to 1. series 2: p: 3; q: 0.25."
    )
    bars = go.Figure(go.Bar(x=[0.5, np.nan], y=["x", "y"], orientation="h", name="F1"))
    assert describe(bars) == "Chart. F1: x: 0.5; y: no value."
    dots = go.Figure(go.Scatter(x=[0.25, 1.0], y=["coarse", "smooth"], name="AUC"))
    assert describe(dots) == "Chart. AUC: coarse: 0.25; smooth: 1."
    # a trace of no x (a table, a pie) is named by its kind: no error, no number made up
    assert describe(go.Figure(go.Table(header={"values": ["a"]}))) == "Chart. A table chart."
    many = go.Histogram(x=np.arange(1_000_000) / 999_999, name="scores")
    assert describe(go.Figure(many)) == "Chart. scores: 1,000,000 values from 0 to 1."


def test_the_downloaded_views_figure_carries_the_same_text_escaped():
    # a visitor's name as plotly holds it (escaped): read as text, escaped again here
    fig = go.Figure(go.Bar(x=['"&gt;&lt;script&gt;'], y=[2.5], name="n"))
    out = report.to_html(report.Report("t", charts=[report.Chart("c", "plotly", fig)]))
    assert 'role="figure" aria-label="Chart. n: &quot;&gt;&lt;script&gt;: 2.5."' in out
    made = report.to_html(report.Report("t", charts=[report.Chart("c", "plotly", lambda: fig)]))
    assert made.count('aria-label="Chart. n:') == 1
