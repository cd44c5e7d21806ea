"""The Multilabel classification page's charts (explorer.charts.multilabel), without AppTest."""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from explorer.charts import multilabel as charts
from metrics import multilabel_label_table, threshold_predictions
from tests.conftest import multilabel_case


def svg_bars(html: str) -> list[tuple[int, float, str]]:
    """(series, value, hover text) of each bar of an SVG chart, in drawing order."""
    found = re.findall(
        r'<rect class="bar" data-series="(\d+)" data-value="([^"]+)"[^>]*><title>([^<]*)<',
        html,
    )
    return [(int(s), float(v), t) for s, v, t in found]


def test_label_scores_chart_has_bars_and_average_lines():
    y, s = multilabel_case(0)
    table = multilabel_label_table(y, threshold_predictions(s, 0.5), label_names=list("abcdef"))
    html = charts.label_scores_chart(table.iloc[:6], macro_f1=0.41, micro_f1=0.52)
    bars = svg_bars(html)
    assert len(bars) == 18
    for k, col in enumerate(("precision", "recall", "f1")):
        values = [v for s_, v, _ in bars if s_ == k]
        assert values == pytest.approx(table[col].iloc[:6].tolist(), nan_ok=True)
    assert [t for s_, _, t in bars if s_ == 2][0].startswith("a: F1 ")
    assert html.count('class="marker"') == 2
    assert "Macro F1 (C-F1) = 0.410" in html and "Micro F1 (O-F1) = 0.520" in html
    # a NaN average (every label 0/0 with zero_division=nan) draws no line
    html = charts.label_scores_chart(table.iloc[:6], macro_f1=math.nan, micro_f1=0.5)
    assert html.count('class="marker"') == 1 and "Macro F1" not in html


def test_many_labels_draw_the_lowest_f1_bars_only():
    """Past BARS_MAX labels the bars are the BARS_MAX lowest F1, lowest first; the
    average lines stay those of every label."""
    rng = np.random.default_rng(5)
    L = charts.BARS_MAX + 12
    y = (rng.random((300, L)) < 0.3).astype(int)
    s = rng.random((300, L)) * 0.6 + 0.4 * y
    names = [f"tag{j}" for j in range(L)]
    table = multilabel_label_table(y, threshold_predictions(s, 0.5), label_names=names)
    f1 = table["f1"].iloc[:L].to_numpy()
    html = charts.label_scores_chart(table.iloc[:L], macro_f1=0.41, micro_f1=0.52)
    f1_bars = [(v, t) for s_, v, t in svg_bars(html) if s_ == 2]
    assert [v for v, _ in f1_bars] == pytest.approx(sorted(f1)[: charts.BARS_MAX])
    worst = [names[j] for j in np.argsort(f1, kind="stable")[: charts.BARS_MAX]]
    assert [t.split(":")[0] for _, t in f1_bars] == worst
    assert f"lowest F1, of {L}" in html
    assert "Macro F1 (C-F1) = 0.410" in html and "Micro F1 (O-F1) = 0.520" in html


def test_outcome_grid_codes_cells():
    out = np.array([["TP", "FN"], ["FP", "TN"]])
    fig = charts.outcome_grid_figure(out, ["s1", "s2"], ["a", "b"], title="t")
    hm = fig.data[0]
    assert np.asarray(hm.z).tolist() == [[3, 2], [1, 0]]
    assert list(hm.y) == ["s1", "s2"] and list(hm.x) == ["a", "b"]
