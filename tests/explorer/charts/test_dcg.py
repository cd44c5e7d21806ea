"""The DCG & NDCG page's charts (explorer.charts.dcg): the steps figure and SVG, the tie
bounds and the distribution."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

import metrics
from explorer.charts import dcg as charts
from tests.conftest import graded_case
from tests.views.untranslated import english_left


def test_steps_figure_traces_ties_and_cut():
    steps = metrics.dcg_steps([10, 0, 0, 1, 5], [1, 0, 0, 0, 1], k=1)
    fig = charts.steps_figure(steps, k=1, item_names=list("abcde"))
    names = [t.name for t in fig.data]
    assert names[0].startswith("gain used") and names[1].startswith("contribution")
    assert any(n.startswith("discount") for n in names)
    assert list(fig.data[0].y) == [7.5, 7.5, 1 / 3, 1 / 3, 1 / 3]
    rects = [s for s in fig.layout.shapes if s.type == "rect"]
    assert [(r.x0, r.x1) for r in rects] == [(0.5, 2.5), (2.5, 5.5)]
    lines = [s for s in fig.layout.shapes if s.type == "line"]
    assert len(lines) == 1 and lines[0].x0 == 1.5
    assert charts.n_tie_groups(steps) == 2
    no_cut = charts.steps_figure(metrics.dcg_steps([3, 1], [0.2, 0.9]), k=None)
    assert not [s for s in no_cut.layout.shapes if s.type in ("line", "rect")]


def test_steps_figure_of_many_items_draws_the_top_positions_and_the_k_line():
    """max_positions caps the bars (one past a larger k, whose line stays between two
    bars); the values drawn are metrics' own, the labels upright past a dozen."""
    y, s = graded_case(5, n=1, m=40)
    names = [f"item {j}" for j in range(40)]
    for k, drawn in ((3, 30), (None, 30), (35, 36), (39, 40)):
        steps = metrics.dcg_steps(y[0], s[0], k=k)
        fig = charts.steps_figure(steps, k=k, item_names=names, max_positions=30)
        assert fig.data[0].x.tolist() == list(range(1, drawn + 1))
        np.testing.assert_array_equal(fig.data[1].y, steps["contribution"][:drawn])
        lines = [sh.x0 for sh in fig.layout.shapes if sh.type == "line"]
        assert lines == ([k + 0.5] if k is not None else [])
        first = names[int(steps["item"].iloc[0])]
        assert fig.layout.xaxis.ticktext[0] == f"1. {first}" and fig.layout.xaxis.tickangle == -90
    few = charts.steps_figure(metrics.dcg_steps(y[0][:5], s[0][:5]), k=None, max_positions=30)
    assert len(few.data[0].x) == 5 and few.layout.xaxis.tickangle is None


def test_steps_svg_of_many_items_draws_metrics_values_the_ties_and_the_k_line():
    """The SVG chart of a long list (drawn by the page past UPRIGHT_TICKS items): per
    drawn position the gain used and the contribution of metrics.dcg_steps, the own
    gain as a stroke, the discount line, a band per tie group, the k line."""
    y, s = graded_case(5, n=1, m=40)
    s = np.round(s, 1)  # tie groups
    names = [f"item {j}" for j in range(40)]
    for k, drawn in ((3, 30), (None, 30), (35, 36)):
        steps = metrics.dcg_steps(y[0], s[0], k=k)
        html = charts.steps_svg(steps, k=k, item_names=names, max_positions=30)
        bars = re.findall(r'<rect class="bar" data-series="(\d)" data-value="([^"]+)"', html)
        gains = [float(v) for g, v in bars if g == "0"]
        contributions = [float(v) for g, v in bars if g == "1"]
        np.testing.assert_allclose(gains, steps["mean_gain"][:drawn], rtol=0, atol=0)
        np.testing.assert_allclose(contributions, steps["contribution"][:drawn], rtol=0, atol=0)
        own = re.findall(r'class="tick-mark" data-series="2" data-value="([^"]+)"', html)
        np.testing.assert_array_equal([float(v) for v in own], steps["relevance"][:drawn])
        (points,) = re.findall(r'class="curve-line" points="([^"]+)"', html)
        assert len(points.split()) == drawn  # the discount line, a point per position
        curve = re.findall(r'class="curve" data-value="([^"]+)"', html)  # dots up to 30
        want = steps["discount"][:drawn] if drawn <= 30 else []
        np.testing.assert_array_equal([float(v) for v in curve], want)
        groups = charts.n_tie_groups(steps.iloc[:drawn])
        assert groups > 0 and html.count('class="band"') == groups
        assert html.count(f"k = {k} cut") == (k is not None)
        assert f"1. {names[int(steps['item'].iloc[0])]}" in html


def test_tie_bounds_and_distribution_figures():
    fig = charts.tie_bounds_figure(
        {"pessimistic": 5.0, "tie-averaged": 7.5, "ignore_ties": 5.0, "optimistic": 10.0}
    )
    assert [t.name for t in fig.data] == [
        "pessimistic",
        "tie-averaged",
        "ignore_ties",
        "optimistic",
    ]
    assert fig.layout.shapes[0].x0 == 5.0 and fig.layout.shapes[0].x1 == 10.0
    dist = charts.distribution_figure(pd.DataFrame({"DCG": [1.0, 2.0], "NDCG": [0.5, 1.0]}))
    assert [t.name for t in dist.data] == ["DCG", "NDCG"]
    # pre-binned: NDCG bins of 0.05, 0.5 falls in [0.5, 0.55), 1.0 in the last (closed) bin
    counts = list(dist.data[1].y)
    assert len(counts) == 20 and sum(counts) == 2 and counts[10] == 1 and counts[19] == 1
    assert list(dist.data[0].y).count(1) == 2 and sum(dist.data[0].y) == 2


def test_the_svg_steps_in_chinese_have_no_english_left():
    """Past a dozen items the sample's chart is SVG (not seen by the page's AppTest)."""
    scores = np.linspace(0, 1, 40)
    scores[3] = scores[4]  # a tie group
    steps = metrics.dcg_steps(np.arange(40) % 4, scores, k=5)
    names = [f"I{i}" for i in range(40)]
    html = charts.steps_svg(
        steps, k=5, item_names=names, gain_label="相关性", max_positions=30, lang="zh"
    )
    assert "k = 5 截断：其后的位置计为 0" in html and "并列组" in html
    assert english_left(["svg: " + re.sub(r"<[^>]+>", " ", html)]) == []
