"""The Top-K retrieval page's charts (explorer.charts.retrieval): each metric against K
and the ranked list, as plotly figures and as SVG."""

from __future__ import annotations

import re

import numpy as np

from explorer.charts import retrieval as charts
from explorer.charts.retrieval import grade_color, metrics_vs_k_figure, ranked_list_figure
from explorer.samples import load_sample
from metrics import (
    retrieval_curve,
    retrieval_query_steps,
)
from tests.conftest import graded_case


def test_charts():
    ds = load_sample("diabetes_ranking")
    c = retrieval_curve(ds.y_true, ds.score("tree"), k_max=10)
    fig = metrics_vs_k_figure(c, 3)
    assert [tr.name for tr in fig.data] == list(c.columns.drop("K"))
    assert any(sh.x0 == 3 for sh in fig.layout.shapes)
    steps = retrieval_query_steps(ds.y_true, ds.score("tree"), 0, k=4)
    fig = ranked_list_figure(steps, "dcg_term", k=4, max_grade=3, item_names=list(ds.label_names))
    bar = fig.data[0]
    np.testing.assert_allclose(bar.y, steps["dcg_term"])
    assert bar.marker.color[0] == grade_color(steps["grade"][0], 3)
    n_tie_groups = int((steps.groupby("tie_group").size() >= 2).sum())
    brackets = [sh for sh in fig.layout.shapes if sh.type == "path"]
    assert n_tie_groups >= 1 and len(brackets) == n_tie_groups
    assert any(sh.x0 == 4.5 for sh in fig.layout.shapes if sh.type == "line")
    assert grade_color(0, 3) != grade_color(1, 3) != grade_color(3, 3)


def test_svg_charts_of_many_items_draw_metrics_values():
    """Past SVG_ITEMS items the page draws SVG: each metric's line over every K, the K
    line; the ranked list's bars are the contributions, coloured by grade, a band per
    tie group and the top-K cut."""
    y, s = graded_case(7, n=30, m=40)
    s = np.round(s, 1)
    c = retrieval_curve(y, s, k_max=40)
    html = charts.metrics_vs_k_svg(c, 7)
    lines = re.findall(r'class="curve-line" points="([^"]+)"', html)
    assert len(lines) == len(c.columns) - 1 and all(len(p.split()) == 40 for p in lines)
    assert html.count(">K = 7<") == 1  # the line's label (and K = 7 on hover)
    for name in c.columns.drop("K"):
        assert f"</span>{name}</span>" in html  # named in the legend
    hover = re.findall(r'<rect class="column"[^>]*><title>([^<]*)</title>', html)
    assert len(hover) == 40 and hover[6].startswith("K = 7: P@K ")
    assert f"P@K {c['P@K'][6]:.4f}" in hover[6]
    steps = retrieval_query_steps(y, s, 3, k=7)
    html = charts.ranked_list_svg(steps, "dcg_term", k=7, max_grade=3)
    bars = re.findall(
        r'<rect class="bar" data-series="0" data-value="([^"]+)"[^>]*fill="([^"]+)"', html
    )
    np.testing.assert_array_equal([float(v) for v, _ in bars], steps["dcg_term"])
    assert [c_ for _, c_ in bars] == [grade_color(g, 3) for g in steps["grade"]]
    groups = int((steps.groupby("tie_group").size() >= 2).sum())
    assert groups >= 1 and html.count('class="band"') == groups
    assert "top-7 cut" in html
