"""Visitor text in the plotly figures (explorer.charts): a class, label, model, sample
or item name from an upload is shown as it is, never as plotly's pseudo-HTML (a link
in an axis, bold in a legend, a line break in a hover)."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd

import metrics
from explorer.charts import (
    compare,
    curves,
    curves_samples,
    dcg,
    leaderboard,
    multiclass,
    multilabel,
    ranking,
    regression,
    retrieval,
)
from explorer.formatting import plotly_names, plotly_text
from explorer.pages.compare import points

HOSTILE = ['<a href="http://x">y</a>', "<img src=x>", "<b>", "line\nbreak"]
#: The markup the figures write themselves; any other "<" came from a visitor.
OWN_TAG = re.compile(r"<(br|/?extra)>")
#: Every "&" of escaped text starts an entity.
BROKEN_ENTITY = re.compile(r"&(?!(lt|gt|amp);)")


def _texts(node):
    """Every string in a figure's JSON (data and layout), at any depth."""
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for value in node.values():
            yield from _texts(value)
    elif isinstance(node, list | tuple | np.ndarray):
        for value in (
            np.asarray(node, dtype=object).ravel() if isinstance(node, np.ndarray) else node
        ):
            yield from _texts(value)


def assert_literal(fig, names=HOSTILE) -> None:
    """No visitor markup or line break reaches the figure; each name is there escaped."""
    texts = list(_texts(fig.to_plotly_json()))
    for text in texts:
        assert "<" not in OWN_TAG.sub("", text), text
        assert "\n" not in text, text
        assert not BROKEN_ENTITY.search(text), text  # a title's wrap cut none in two
    joined = "\x00".join(texts)
    for name in names:
        assert plotly_text(name) in joined, name


def test_plotly_text_escapes_markup_once():
    assert plotly_text('<a href="http://x">y</a>') == '&lt;a href="http://x"&gt;y&lt;/a&gt;'
    assert plotly_text("&lt; 1\r\n\r\n2") == "&amp;lt; 1 2"  # shown as typed: "&lt;"
    assert plotly_names(["a\nb", "a b", "a\r\nb", "a\nb"]) == [
        "a b",
        "a b\u200b",
        "a b\u200b\u200b",
        "a b",
    ]


def test_compare_and_regression():
    a, b = np.array([0.1, 0.5, 0.9, 0.3]), np.array([0.2, 0.4, 1.0, 0.3])
    assert_literal(
        compare.scatter(a, b, HOSTILE, points(a, b), "NDCG", HOSTILE[0], HOSTILE[1]), HOSTILE
    )
    fig = regression.predicted_vs_actual(
        a, b, ids=HOSTILE, highlight=3, original=0.9, model=HOSTILE[0]
    )
    assert_literal(fig)


def test_leaderboard_matrix():
    m = len(HOSTILE)
    diff = np.subtract.outer(np.arange(m), np.arange(m)) / 10
    p = np.full((m, m), 0.01)
    np.fill_diagonal(p, np.nan)
    fig = leaderboard.matrix(HOSTILE, diff, p, 0.05, True, "ROC AUC")
    assert_literal(fig)
    colour = fig.data[0].marker.color  # cell (row 1, column 0): the row model better
    assert colour[1 * m + 0] == leaderboard.BETTER and colour[0 * m + 1] == leaderboard.WORSE


def test_curves_and_strip():
    y, s = np.array([1, 0, 1, 0]), np.array([0.9, 0.7, 0.8, 0.6])
    fpr, tpr, thr = metrics.roc_curve(y, s, drop_intermediate=False)
    fig = curves.roc_figure(
        [{"model": HOSTILE[0], "fpr": fpr, "tpr": tpr, "thresholds": thr, "auc": 1.0}]
    )
    assert_literal(fig, HOSTILE[:1])
    out = metrics.threshold_outcomes(y, s, 0.75)
    assert_literal(curves_samples.strip_figure(s, y, out, 0.75, ids=HOSTILE))


def test_dcg_and_retrieval():
    steps = metrics.dcg_steps([3, 0, 2, 1], [0.9, 0.1, 0.5, 0.5], k=2)
    assert_literal(dcg.steps_figure(steps, k=2, item_names=HOSTILE, title=HOSTILE[0]))
    long_id = "<b>" * 30  # a title wrapped to lines of 34 characters
    fig = dcg.steps_figure(steps, k=2, item_names=HOSTILE, title=f"Sample {long_id}: gain")
    assert_literal(fig)
    assert fig.layout.title.text.replace("<br>", "").count("&lt;b&gt;") == 30
    per = pd.DataFrame({"DCG": [1.0, 2.0], "NDCG": [0.5, 1.0]})
    assert_literal(dcg.distribution_figure(per, title=HOSTILE[1]), HOSTILE[1:2])
    y = np.array([[3, 0, 2, 1]])
    s = np.array([[0.9, 0.1, 0.5, 0.5]])
    query = metrics.retrieval_query_steps(y, s, 0, k=2)
    fig = retrieval.ranked_list_figure(
        query, "dcg_term", k=2, max_grade=3, item_names=HOSTILE, title=HOSTILE[2]
    )
    assert_literal(fig)


def test_multiclass_keeps_classes_apart_and_clicks_find_them():
    names = [*HOSTILE, "line break"]  # the last two are one line apart
    table = pd.DataFrame(np.arange(25).reshape(5, 5), index=names, columns=names)
    fig = multiclass.confusion_figure(table, counts=True, selected=(names[0], names[4]))
    assert_literal(fig)
    cells = fig.data[1]
    assert len(set(cells.x)) == 5 and list(fig.data[0].x) == list(dict.fromkeys(cells.x))
    # a click on the cell (true names[3], predicted names[4]) reads the shown names
    point = {"x": str(cells.x[4 * 5 + 4]), "y": str(cells.y[3 * 5 + 4])}
    assert multiclass.cell_from_selection({"selection": {"points": [point]}}, names) == (
        names[3],
        names[4],
    )
    assert fig.layout.shapes[0].x0 == 3.5 and fig.layout.shapes[0].y0 == -0.5
    line = (np.array([0.0, 1.0]), np.array([0.0, 1.0]))
    curves_by_name = {**dict.fromkeys(HOSTILE, line), "micro": line, "macro": line}
    assert_literal(multiclass.roc_figure(curves_by_name, HOSTILE[0]))


def test_multilabel_and_ranking():
    outcomes = np.array([["TP", "FN", "FP", "TN"]] * 4)
    assert_literal(multilabel.outcome_grid_figure(outcomes, HOSTILE, HOSTILE, title=HOSTILE[0]))
    steps = metrics.lrap_steps([1, 0, 1, 0], [0.2, 0.9, 0.5, 0.5])
    assert_literal(ranking.sample_ranking_figure(steps, HOSTILE))
    y = np.array([[1, 0, 1], [0, 1, 1], [1, 1, 0], [0, 0, 1]])
    s = np.array([[0.2, 0.9, 0.5], [0.1, 0.3, 0.2], [0.7, 0.6, 0.1], [0.3, 0.2, 0.9]])
    t = metrics.sort_worst_first(metrics.label_ranking_contributions(y, s), "lrap")
    assert_literal(ranking.contributions_figure(t, "lrap", HOSTILE))
