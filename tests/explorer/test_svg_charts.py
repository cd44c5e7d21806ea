"""explorer/charts/svg.py: the static SVG charts the pages redraw on every move."""

from __future__ import annotations

import re

import numpy as np

from explorer.charts import svg


def _chart(n: int, **kw) -> str:
    values = np.linspace(0, 1, n)
    return svg.bar_chart(
        svg.BarChart([f"c{j}" for j in range(n)], [svg.Series("v", values, "#123456")], **kw)
    )


def test_bars_sit_in_their_slots_left_to_right_with_heights_on_the_axis():
    html = _chart(4, y_range=(0.0, 1.0), height=200)
    xs = [float(x) for x in re.findall(r'class="bar"[^>]*x="([\d.]+)%"', html)]
    assert xs == sorted(xs) and svg.LEFT < xs[0] and xs[-1] < svg.RIGHT
    heights = [float(h) for h in re.findall(r'class="bar"[^>]*height="([\d.]+)"', html)]
    # values 0, 1/3, 2/3, 1 on a 0..1 axis: heights in the same ratios (0 drawn as 0.5 px)
    np.testing.assert_allclose(heights[1:], np.array([1, 2, 3]) * heights[3] / 3, rtol=1e-3)


def test_upright_labels_past_40_categories_are_every_other_one():
    few = re.findall(r'writing-mode="vertical-rl"[^>]*>([^<]+)<', _chart(40, vertical_ticks=True))
    many = re.findall(r'writing-mode="vertical-rl"[^>]*>([^<]+)<', _chart(60, vertical_ticks=True))
    assert few == [f"c{j}" for j in range(40)]
    assert many == [f"c{j}" for j in range(0, 60, 2)] + ["c59"]


def test_a_vertical_line_near_the_right_edge_is_labelled_towards_the_left():
    right = _chart(50, lines=[svg.Line(48, "k = 48", vertical=True)])
    left = _chart(50, lines=[svg.Line(2, "k = 2", vertical=True)])
    assert 'text-anchor="end">k = 48<' in right
    assert 'text-anchor="start">k = 2<' in left


def test_text_is_escaped():
    html = svg.bar_chart(
        svg.BarChart(["<b>"], [svg.Series("a&b", np.array([1.0]), "#000")], title="x<y")
    )
    assert "<b>" not in html and "&lt;b&gt;" in html and "x&lt;y" in html and "a&amp;b" in html


def test_the_drawing_names_every_value_for_a_screen_reader_escaped():
    chart = svg.BarChart(
        ["<b>x</b>", "y"],
        [svg.Series("F1", np.array([0.25, 2 / 3]), "#123456")],
        title='Per "label"',
    )
    label = re.search(r'<svg [^>]*role="img" aria-label="([^"]*)"', svg.bar_chart(chart))
    assert label.group(1) == ("Per &quot;label&quot;. F1: &lt;b&gt;x&lt;/b&gt; 0.25, y 0.6667.")
