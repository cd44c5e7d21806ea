"""The ROC & PR curves page's figures (explorer.charts.curves, curves_samples and
curves_teach): the thresholds they
carry, the PR curve drawn as steps, the candidate markers, a click's threshold, the
strip's histograms and the histogram AUC's bins."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import metrics
from explorer.charts import curves as charts
from explorer.charts import curves_samples as sample_charts
from explorer.charts import curves_teach as teach_charts
from explorer.pages import curves
from explorer.samples import load_sample

#: Every label a candidate marker can carry (goals sharing a threshold share a marker).
LABELS = {
    " / ".join(c)
    for n in range(1, 6)
    for c in itertools.combinations(
        ["max F-beta", "Youden J", "min cost", "recall >= x", "precision >= x"], n
    )
}


def test_threshold_from_selection_shapes():
    pick = charts.threshold_from_selection
    assert pick({"selection": {"points": [{"customdata": 0.7}]}}) == 0.7
    assert pick({"selection": {"points": [{"customdata": [0.3]}]}}) == 0.3
    assert pick({"selection": {"points": [{"customdata": {"0": 0.4}}]}}) == 0.4
    assert pick({"selection": {"points": [{"customdata": None}, {"customdata": 0.2}]}}) == 0.2
    assert pick({"selection": {"points": [{"x": 0.1}]}}) is None
    assert pick({"selection": {"points": []}}) is None
    assert pick(None) is None

    class State:  # attribute-style, as st.plotly_chart leaves it
        class selection:
            points = [{"customdata": 0.9}]

    assert pick(State()) == 0.9


def test_roc_and_pr_figures_carry_thresholds():
    y = [1, 0, 1, 0, 0, 0]
    s = [0.9, 0.7, 0.8, 0.6, 0.5, 0.4]
    fpr, tpr, thr = metrics.roc_curve(y, s, drop_intermediate=False)
    optima = metrics.optimal_thresholds(y, s).assign(label=["a", "b", "c", "d", "e"])
    optima["recall"] = optima["tpr"]
    fig = charts.roc_figure(
        [{"model": "m", "fpr": fpr, "tpr": tpr, "thresholds": thr, "auc": 1.0}],
        {"fpr": 0.75, "tpr": 1.0, "threshold": 0.5},
        optima,
    )
    names = [tr.name for tr in fig.data]
    assert names[0].startswith("chance") and names[1] == "m (AUC 1.000)"
    curve = fig.data[1]
    # thresholds as one float array (NaN: the +inf vertex), read back by the hover
    custom = charts_counts(curve.customdata)
    assert np.isnan(custom[0]) and custom[1:].tolist() == [0.9, 0.8, 0.7, 0.6, 0.5, 0.4]
    assert "%{customdata:.4g}" in curve.hovertemplate
    # all five candidates sit at 0.8: one marker named after all of them
    merged = [tr for tr in fig.data if tr.name.startswith("a / b")]
    assert len(merged) == 1 and list(merged[0].customdata) == [0.8]
    assert fig.data[-1].name == "operating point (t = 0.5)"
    p, r, pt = metrics.precision_recall_curve(y, s)
    pr = charts.pr_figure(
        [{"model": "m", "recall": r, "precision": p, "thresholds": [*pt, np.inf], "ap": 1.0}],
        1 / 3,
        {"recall": 1.0, "precision": 0.4, "threshold": 0.5},
    )
    assert list(pr.data[0].y) == [1 / 3, 1 / 3]
    assert np.isnan(charts_counts(pr.data[1].customdata)[-1])


def test_pr_curve_is_drawn_as_steps_post_like_scikit_learn():
    """PrecisionRecallDisplay plots precision_recall_curve's (recall, precision) with
    drawstyle="steps-post": from each point horizontally to the next recall, then
    vertically. Plotly's line shape "hv" draws the same polyline; the page keeps every
    vertex where the precision changes, so the steps are those of the exact curve."""
    ds = load_sample("balanced")
    y, s = ds.y_true, ds.score("good")  # precision 1 up to recall 0.6: a flat run
    p, r, _ = metrics.precision_recall_curve(y, s)
    c = curves.curves(ds, "good")
    fig = curves.curve_bases(ds)[1]
    trace = fig.data[1]
    assert trace.name.startswith("good (AP") and trace.line.shape == "hv"
    # the drawn polyline, expanded as steps-post expands it ...
    xs, ys = charts_counts(trace.x), charts_counts(trace.y)
    drawn = steps_post(xs, ys)
    exact = steps_post(r, p)
    # ... covers the exact steps: same corners once repeated points are merged
    assert dedupe(drawn) == dedupe(exact)
    assert xs.tolist() == c["recall"].tolist() and len(xs) < len(r)  # flat runs left out
    # the area under the drawn steps is the average precision (a step sum)
    assert float(np.sum((xs[:-1] - xs[1:]) * ys[:-1])) == pytest.approx(c["ap"], abs=1e-12)


def steps_post(x, y) -> list[tuple[float, float]]:
    """The corners matplotlib's steps-post draws through: (x_i, y_i), (x_{i+1}, y_i), ..."""
    out = [(float(x[0]), float(y[0]))]
    for i in range(1, len(x)):
        out += [(float(x[i]), float(y[i - 1])), (float(x[i]), float(y[i]))]
    return out


def dedupe(points) -> list:
    """Drop repeated corners and corners in the middle of a straight horizontal or
    vertical run (they draw nothing)."""
    pts = [pt for i, pt in enumerate(points) if i == 0 or pt != points[i - 1]]
    keep = [pts[0]]
    for i in range(1, len(pts) - 1):
        (x0, y0), (x1, y1), (x2, y2) = keep[-1], pts[i], pts[i + 1]
        if not ((x0 == x1 == x2) or (y0 == y1 == y2)):
            keep.append(pts[i])
    return keep + [pts[-1]]


def test_candidate_markers_are_legible_and_never_labelled_on_the_chart():
    """Markers of at least 12 px, no text drawn beside them (the buttons beside the
    chart name them by their shape), fonts of at least 12 px, one marker per
    threshold, each of its own shape."""
    ds = load_sample("balanced")
    best = curves.optima(ds, "weak", 2.0, 1.0, 5.0, 0.95, 0.95)
    assert best["threshold"].nunique() >= 3
    at_t = curves.rates(ds, "weak", 0.5, 2.0)
    roc, pr = curves.curve_figures(curves.curve_bases(ds), 0.5, at_t, best)
    for fig in (roc, pr):
        assert fig.layout.font.size >= 12 and fig.layout.legend.font.size >= 12
        assert fig.layout.hoverlabel.font.size >= 12
        assert all("text" not in tr.mode for tr in fig.data)
        marks = [tr for tr in fig.data if tr.name.split(" (t = ")[0] in LABELS]
        assert len(marks) == best["threshold"].nunique()
        assert all(tr.marker.size >= 12 for tr in marks)
        assert len({tr.marker.symbol for tr in marks}) == len(marks)
        thresholds = [tr.customdata[0] for tr in marks]
        assert len(set(thresholds)) == len(thresholds)  # never two markers on one point
    # the buttons name each marker by the same shape
    glyphs = {
        m["threshold"]: m["glyph"] for m in charts.candidate_marks(curves.candidate_points(best))
    }
    assert len(set(glyphs.values())) == len(glyphs)


def test_a_click_on_the_other_models_curve_selects_that_model_and_threshold():
    """The selection of a point of trace 1 + i is models[i] at that point's threshold;
    a marker (candidate, operating point) keeps the selected model."""
    ds = load_sample("balanced")
    best = curves.optima(ds, "good", 1.0, 1.0, 1.0, 0.9, 0.9)
    at_t = curves.rates(ds, "good", 0.5, 1.0)
    roc, pr = curves.curve_figures(curves.curve_bases(ds), 0.5, at_t, best)
    models = ds.model_names
    for fig in (roc, pr):
        weak = fig.data[2]
        custom = charts_counts(weak.customdata)
        assert weak.name.startswith("weak")
        i = 7
        event = {
            "selection": {
                "points": [{"curve_number": 2, "point_index": i, "customdata": custom[i]}]
            }
        }
        assert charts.pick_from_selection(event, models) == ("weak", custom[i])
        marker = len(fig.data) - 1  # the operating point
        event = {"selection": {"points": [{"curve_number": marker, "customdata": 0.5}]}}
        assert charts.pick_from_selection(event, models) == (None, 0.5)
    nan = {"selection": {"points": [{"curve_number": 1, "customdata": None}]}}
    assert charts.pick_from_selection(nan, models) == (None, None)


def test_confusion_strip_and_other_figures():
    fig = charts.confusion_figure(
        np.array([[2, 0], [3, 1]]), np.array([[1, 0], [0.75, 0.25]]), "true"
    )
    assert fig.data[0].text[1][0].startswith("<b>FP</b><br>3<br>75.0%")
    y = np.array([1, 0, 1, 0, 0, 0])
    s = np.array([0.9, 0.7, 0.8, 0.5, 0.5, 0.4])
    out = metrics.threshold_outcomes(y, s, 0.5)
    strip = sample_charts.strip_figure(s, y, out, 0.5)
    by_name = {tr.name.split(" ")[0]: tr for tr in strip.data}
    assert len(by_name["FP"].x) == 3 and len(by_name["TN"].x) == 1
    fp_y = sorted(by_name["FP"].y)
    assert len(set(fp_y)) == 2  # the two tied negatives at 0.5 stack
    big = sample_charts.strip_figure(
        np.linspace(0, 1, 5000), np.zeros(5000), np.full(5000, "TN"), 0.5
    )
    assert big.data[0].type == "bar" and sum(tr.y.sum() for tr in big.data) == 5000
    pairs = metrics.auc_pairs([1, 0, 0, 1], [0.8, 0.8, 0.2, 0.6])
    grid = teach_charts.pairs_grid_figure(pairs)
    assert np.asarray(grid.data[0].z).tolist() == [[0.5, 1.0], [0.0, 1.0]]
    cal = teach_charts.calibration_figure(
        metrics.calibration_bins([0, 1, 1, 0], [0.1, 0.8, 0.9, 0.7], n_bins=2)
    )
    assert list(cal.data[2].y) == [1, 3]


def charts_counts(y) -> np.ndarray:
    """Bar heights from a figure's JSON (plain list, or plotly's typed-array dict)."""
    if isinstance(y, dict):
        import base64

        return np.frombuffer(base64.b64decode(y["bdata"]), dtype=y["dtype"])
    return np.asarray(y)


@pytest.mark.parametrize(
    "scores",
    [
        np.round(np.random.default_rng(1).random(5000), 2),  # ties on bin edges
        np.random.default_rng(2).normal(3.0, 40.0, 4001),  # outside [0, 1]
        np.full(3500, 0.3),  # one distinct score
        np.r_[np.full(3500, 1e6), [1e6 + 1]],  # 1e-12 does not widen the range
        np.full(3500, 1e6),
    ],
)
def test_strip_histograms_equal_numpy_histogram(scores):
    y = (np.arange(scores.shape[0]) % 3 == 0).astype(int)
    out = metrics.threshold_outcomes(y, scores, float(np.median(scores)))
    fig = sample_charts.strip_figure(scores, y, out, 0.5)
    edges = np.linspace(scores.min(), scores.max() + 1e-12, 101)
    assert len(fig.data) == 4
    for trace in fig.data:
        outcome = trace.name.split(" ")[0]
        want = np.histogram(scores[out == outcome], bins=edges)[0]
        assert np.asarray(trace.y).tolist() == want.tolist(), outcome


@pytest.mark.parametrize(
    "scores",
    [
        np.round(np.random.default_rng(1).random(5000), 2),  # ties on bin edges
        np.random.default_rng(2).normal(3.0, 40.0, 4001),  # outside [0, 1]
        np.full(3500, 0.3),  # one distinct score
        np.r_[np.full(3500, 1e6), [1e6 + 1]],  # 1e-12 does not widen the range
        np.full(3500, 1e6),
    ],
)
def test_strip_histogram_from_sorted_scores_equals_strip_figure(scores):
    y = (np.arange(scores.shape[0]) % 3 == 0).astype(int)
    pos, neg = np.sort(scores[y == 1]), np.sort(scores[y == 0])
    for t in (float(np.median(scores)), 0.5, 0.3, scores.min(), scores.max(), 1e9, -1e9):
        want = sample_charts.strip_figure(scores, y, metrics.threshold_outcomes(y, scores, t), t)
        got = sample_charts.strip_histogram_figure(pos, neg, t)
        assert [tr.name for tr in got.data] == [tr.name for tr in want.data]
        for g, w in zip(got.data, want.data, strict=True):
            assert np.asarray(g.y).tolist() == np.asarray(w.y).tolist(), (t, g.name)
            np.testing.assert_array_equal(g.x, w.x)
        assert got.layout.shapes[0].x0 == t


def test_histogram_auc_figure_uses_the_bins_of_auc_histogram():
    rng = np.random.default_rng(5)
    s = np.r_[np.round(rng.random(3000), 2), [0.0, 1.0, 0.59]]
    y = (rng.random(s.shape[0]) < 0.5).astype(int)
    for n_bins in (1, 7, 100):
        fig = teach_charts.histogram_auc_figure(s, y, n_bins)
        b = np.minimum(np.floor(s * n_bins), n_bins - 1).astype(int)
        pos, neg = (np.asarray(tr.y).tolist() for tr in fig.data)
        assert pos == np.bincount(b[y == 1], minlength=n_bins).tolist()
        assert neg == np.bincount(b[y == 0], minlength=n_bins).tolist()
        assert len(fig.data[0].x) == n_bins  # bars, never the scores themselves
