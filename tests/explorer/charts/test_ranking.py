"""The Label ranking page's charts (explorer.charts.ranking), without AppTest."""

from __future__ import annotations

import re

import numpy as np

import metrics
from explorer.charts import ranking as charts
from tests.explorer.pages.test_label_ranking import SEED_S, SEED_Y
from tests.views.untranslated import english_left


def test_sample_ranking_figure_marks_true_labels_and_tie_groups():
    steps = metrics.lrap_steps([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.1])
    fig = charts.sample_ranking_figure(steps, ["a", "b", "c", "d"])
    bars = [t for t in fig.data if t.type == "bar"]
    assert [t.name for t in bars] == ["true label", "false"]
    assert list(bars[0].y) == ["a (#0)", "c (#2)"]
    assert list(bars[0].text) == ["rank 3", "rank 3"]
    assert len(fig.layout.shapes) == 1  # one tie group of three labels
    assert fig.layout.annotations[0].text == "tied: rank 3"


def svg_bars(html: str) -> list[tuple[int, float, float, str]]:
    """(series, value, x in percent, hover text) of each bar of an SVG chart."""
    found = re.findall(
        r'<rect class="bar" data-series="(\d+)" data-value="([^"]+)" x="([\d.]+)%"'
        r"[^>]*><title>([^<]*)</title>",
        html,
    )
    return [(int(s), float(v), float(x), t) for s, v, x, t in found]


def test_many_labels_are_drawn_by_position_with_names_on_hover():
    """Past NAMED_ROWS_MAX labels: one SVG bar per position, left to right, the bars'
    heights the scores in ranked order, true labels colored, names on hover, every tie
    group shaded."""
    m = charts.NAMED_ROWS_MAX + 10
    rng = np.random.default_rng(3)
    y = (rng.random(m) < 0.2).astype(int)
    s = rng.integers(0, 15, m) / 15  # ties
    steps = metrics.lrap_steps(y, s)
    names = [f"tag{j}" for j in range(m)]
    html = charts.sample_ranking_svg(steps, names)
    bars = svg_bars(html)
    assert len(bars) == m
    assert [x for _, _, x, _ in bars] == sorted(x for _, _, x, _ in bars)
    assert [v for _, v, _, _ in bars] == sorted(s, reverse=True)
    true_names = {names[j] for j in np.flatnonzero(y)}
    shown_true = {t.split(": ")[1].split(" (")[0] for _, _, _, t in bars if "(true)" in t}
    assert shown_true == true_names
    # each true label: its bar and a dot above it, in the true color
    assert html.count('class="mark"') == len(true_names)
    assert html.count(f'fill="{charts.TRUE_COLOR}"') == 2 * len(true_names)
    n_groups = int((steps.groupby("tie_group").size() > 1).sum())
    assert n_groups > 0 and html.count('class="band"') == n_groups
    assert f"The {m} labels by score" in html


def test_contributions_figure_colors_and_selection():
    t = metrics.sort_worst_first(metrics.label_ranking_contributions(SEED_Y, SEED_S), "lrap")
    fig = charts.contributions_figure(t, "lrap", ["0", "1", "2"], selected=1)
    (bar,) = fig.data
    assert list(bar.customdata) == [0, 1, 2]
    assert list(bar.marker.color) == [
        charts.WORSE_COLOR,
        charts.SELECTED_COLOR,
        charts.BETTER_COLOR,
    ]
    assert list(bar.text) == ["0.5", "0.8333", "1"]


def test_rank_table_styler_shows_marks_and_colors():
    t = metrics.label_rank_table([[0.5, 0.5, 0.9]])
    sty = charts.rank_table_styler(
        t.rank, np.array([[1, 0, 0]]), t.tie_size, ["0"], ["a", "b", "c"]
    )
    html = sty.to_html()
    assert "3 = \u25cf" in html and ">1<" in html.replace(" ", "")
    assert "background-color" in html


def test_rank_colors_equal_one_colorscale_sample_per_cell():
    """Colors are computed once per distinct rank: the same CSS as sampling every cell."""
    from plotly.colors import sample_colorscale

    rank = np.random.default_rng(3).integers(1, 8, (6, 7))
    frac = (rank - 1) / 6
    per_cell = np.array(sample_colorscale("Blues", list(1.0 - 0.85 * frac.ravel())), dtype=object)
    expected = "background-color: " + per_cell.reshape(rank.shape)
    expected = expected + "; color: " + np.where(frac < 0.5, "white", "black")
    np.testing.assert_array_equal(charts.rank_colors(rank, 7), expected)


def test_the_svg_ranking_in_chinese_has_no_english_left():
    """Past 30 labels the sample's ranking is SVG (not seen by the page's AppTest)."""
    y, s = np.array([1, 0, 0, 1] * 10), np.linspace(0, 1, 40)
    s[3] = s[4]  # a tie group
    html = charts.sample_ranking_svg(metrics.lrap_steps(y, s), [f"L{i}" for i in range(40)], "zh")
    assert "按分数排列的 40 个标签，位置 1 最高（20 个为真" in html and "并列：排名" in html
    assert english_left(["svg: " + re.sub(r"<[^>]+>", " ", html)]) == []
