"""AppTest tests for the ROC & PR curves page, and unit tests of its figures."""

from __future__ import annotations

import base64
import json
from pathlib import Path
from statistics import NormalDist

import numpy as np
import plotly.io as pio
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt, undash
from explorer.pages import curves as curves_page
from explorer.registry import script
from explorer.samples import load_sample
from metrics import confusion_matrix, log_loss
from tests.conftest import APP
from views.curves import parts
from views.curves.tabs import THRESHOLD_TABS
from views.curves.teach import TEACHING_TABS

PAGE = script("curves")


def metric(at, label):
    return next(m.value for m in at.metric if m.label == label)


def count(v) -> str:
    return str(int(v)) if float(v).is_integer() else fmt(v)


def open_page(sample: str = "balanced", query: dict | None = None) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30)
    if query:  # a link names its dataset (picking one drops the page settings)
        at.query_params["ds"] = sample
    for k, v in (query or {}).items():
        at.query_params[k] = v
    at.run()
    at.selectbox(key="dataset_picker").set_value(sample).run()
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def open_with(ds: Dataset, at: AppTest) -> AppTest:
    """Open the page alone on a session dataset (AppTest cannot drive the sidebar
    picker once it lists a session dataset: its format_func is not applied)."""
    page = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=at.default_timeout)
    page.session_state["session_datasets"] = {ds.name: ds}
    page.session_state["active_dataset"] = ds.name
    page.run()
    assert not page.exception
    return page


def open_tab(at: AppTest, label: str) -> AppTest:
    """Open a tab below the panel (the tabs draw only the open one)."""
    key = "curves_t_tab" if label in THRESHOLD_TABS else "curves_teach_tab"
    assert label in THRESHOLD_TABS + TEACHING_TABS, label
    at.session_state[key] = label
    at.run()
    assert not at.exception
    return at


def component(at) -> dict:
    """The data of the operating-point component (views/curves/operating_point.py)."""
    (element,) = at.get("bidi_component")
    return json.loads(element.proto.json)


def slide(at, t: float) -> AppTest:
    """What the component's slider does on release: it reports ``t``, which counts as
    the slider (views.curves_parts.from_component records it so)."""
    at.session_state[parts.PENDING] = {"curves_threshold_slider": t}
    return at.run()


def threshold(at) -> float:
    """The threshold the page runs with: the number box's, and the component's."""
    box = at.number_input(key="curves_threshold_number").value
    assert component(at)["t"] == box
    return box


def check_component(at, y, s, t, *, w=None):
    """The component's counts at the threshold and at every slider position equal
    metrics' (its rates are computed from them in the browser: tests/e2e)."""
    data = component(at)
    want = metrics.rates_at_threshold(y, s, t, sample_weight=w)
    assert data["at_t"] == {k: want[k] for k in ("tp", "fp", "fn", "tn")}
    for i in range(0, len(data["thresholds"]), 7):
        want = metrics.rates_at_threshold(y, s, data["thresholds"][i], sample_weight=w)
        got = [data[k][i] for k in ("tp", "fp", "fn", "tn")]
        assert got == pytest.approx([want[k] for k in ("tp", "fp", "fn", "tn")], rel=1e-12)


def check_operating_point(at, y, s, t, *, beta=1.0, w=None):
    """Every threshold metric on the page equals the metrics package at (t, beta)."""
    pred = (np.asarray(s) >= t).astype(int)
    kw = dict(sample_weight=w, zero_division=0.0)
    assert metric(at, "Precision") == fmt(metrics.precision_score(y, pred, **kw))
    assert metric(at, "Recall") == fmt(metrics.recall_score(y, pred, **kw))
    assert metric(at, "F1") == fmt(metrics.f1_score(y, pred, **kw))
    assert metric(at, "F-beta") == fmt(metrics.fbeta_score(y, pred, beta=beta, **kw))
    acc = metrics.accuracy_score(y, pred, sample_weight=w)
    assert metric(at, "Accuracy") == fmt(acc)
    assert metric(at, "Error rate") == fmt(1 - acc)
    (tp, fn), (fp, tn) = confusion_matrix(y, pred, labels=[1, 0], sample_weight=w)
    assert [metric(at, k) for k in ("TP", "FP", "FN", "TN")] == [count(v) for v in (tp, fp, fn, tn)]
    assert metric(at, "TPR") == fmt(tp / (tp + fn))
    assert metric(at, "FPR") == fmt(fp / (fp + tn))


def test_headline_metrics_and_default_threshold():
    at = open_page("balanced")
    ds = load_sample("balanced")
    y, s = ds.y_true.astype(int), ds.score()
    assert at.title[0].value == "ROC & PR curves"
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s))
    assert metric(at, "Average precision") == fmt(metrics.average_precision_score(y, s))
    assert metric(at, "Log loss") == fmt(log_loss(y, s))
    assert threshold(at) == 0.5
    check_operating_point(at, y, s, 0.5)
    check_component(at, y, s, 0.5)
    assert any("score ≥ 0.5" in m.value for m in at.markdown)


def test_slider_and_number_box_stay_in_sync_and_go_to_url():
    at = open_page("seed002_roc6")
    y = np.array([1, 0, 1, 0, 0, 0])
    s = np.array([0.9, 0.7, 0.8, 0.6, 0.5, 0.4])
    slide(at, 0.65)
    assert not at.exception
    assert threshold(at) == 0.65
    assert at.query_params["t"] == ["0.65"] or at.query_params["t"] == "0.65"
    check_operating_point(at, y, s, 0.65)
    check_component(at, y, s, 0.65)
    assert metric(at, "Precision") == fmt(2 / 3)  # TP 2, FP 1
    at.number_input(key="curves_threshold_number").set_value(0.55).run()
    assert not at.exception
    assert component(at)["t"] == 0.55
    check_operating_point(at, y, s, 0.55)
    check_component(at, y, s, 0.55)
    # the formula shows the live numbers
    assert any(r"\frac{2}{2 + 2}" in x.value for x in at.latex)


def test_threshold_from_url():
    at = open_page("seed002_roc6", {"t": "0.75"})
    assert threshold(at) == 0.75
    assert metric(at, "TP") == "2" and metric(at, "FP") == "0" and metric(at, "TN") == "4"


def test_each_optimizer_moves_the_threshold():
    at = open_page("balanced")
    ds = load_sample("balanced")
    y, s = ds.y_true.astype(int), ds.score()
    for key, value in (("curves_beta", 2.0), ("curves_cost_fn", 4.0), ("curves_min_recall", 0.95)):
        at.number_input(key=key).set_value(value).run()
    at.number_input(key="curves_min_precision").set_value(0.95).run()
    assert not at.exception
    optima = metrics.optimal_thresholds(
        y, s, beta=2.0, cost_fp=1.0, cost_fn=4.0, min_recall=0.95, min_precision=0.95
    )
    assert len(set(optima["threshold"])) >= 3  # the goals disagree on this sample
    for goal in metrics.OPTIMIZERS:
        at.radio(key="curves_optimize").set_value(goal).run()
        at.button(key="curves_apply_optimum").click().run()
        assert not at.exception
        expected = float(optima.loc[goal, "threshold"])
        assert threshold(at) == pytest.approx(expected), goal
        check_operating_point(at, y, s, expected, beta=2.0)
    # the candidate markers are on the curves, one per threshold, at metrics' points
    marks = component(at)["candidates"]
    assert "Youden J" in " ".join(m["label"] for m in marks)
    assert {m["t"] for m in marks} == {float(t) for t in optima["threshold"] if np.isfinite(t)}
    for m in marks:
        row = optima[optima["threshold"] == m["t"]].iloc[0]
        assert (m["fpr"], m["tpr"], m["precision"]) == (row["fpr"], row["tpr"], row["precision"])
    assert component(at)["b2"] == 4.0


def test_beta_changes_fbeta_only():
    at = open_page("balanced")
    ds = load_sample("balanced")
    y, s = ds.y_true.astype(int), ds.score()
    f1 = metric(at, "F1")
    at.number_input(key="curves_beta").set_value(0.5).run()
    assert not at.exception
    pred = (s >= 0.5).astype(int)
    assert metric(at, "F-beta") == fmt(metrics.fbeta_score(y, pred, beta=0.5))
    assert metric(at, "F1") == f1


def test_confusion_matrix_normalization():
    at = open_page("seed002_roc6")
    y = np.array([1, 0, 1, 0, 0, 0])
    pred = (np.array([0.9, 0.7, 0.8, 0.6, 0.5, 0.4]) >= 0.5).astype(int)
    for norm in ("pred", "all", "true"):
        at.radio(key="curves_cm_normalize").set_value(norm).run()
        assert not at.exception
        rates = confusion_matrix(y, pred, labels=[1, 0], normalize=norm)
        table = at.table[0].value
        assert table.iloc[1, 0] == f"FP 3 ({rates[1, 0]:.1%})"
        assert table.iloc[0, 0] == f"TP 2 ({rates[0, 0]:.1%})"
        assert at.query_params["norm"] in (norm, [norm])


def test_model_selector_and_cells_and_tables():
    at = open_page("breast_cancer")
    ds = load_sample("breast_cancer")
    at.selectbox(key="curves_model").set_value("tree").run()
    assert not at.exception
    y, s = ds.y_true.astype(int), ds.score("tree")
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s))
    check_operating_point(at, y, s, 0.5)
    # both models are drawn, one curve each; the counts are the selected model's
    data = component(at)
    assert [line["name"] for line in data["lines"]] == ["logreg", "tree"]
    assert data["model"] == "tree"
    check_component(at, y, s, 0.5)
    # the cell list: FN samples
    open_tab(at, "Samples of a cell")
    at.selectbox(key="curves_cm_cell").set_value("FN").run()
    cell = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
    assert set(cell["outcome"]) <= {"FN"}
    assert len(cell) == int(((s < 0.5) & (y == 1)).sum())
    # the point-by-point table, with and without drop_intermediate
    open_tab(at, "ROC point by point")
    steps = next(d.value for d in at.dataframe if "n_tied" in d.value.columns)
    assert len(steps) == len(np.unique(s)) + 1
    at.toggle(key="curves_drop_intermediate").set_value(True).run()
    assert not at.exception
    steps = next(d.value for d in at.dataframe if "n_tied" in d.value.columns)
    assert len(steps) == len(metrics.roc_curve(y, s)[0])


def test_auc_four_ways_and_histogram_bins():
    at = open_page("seed002_auc8")
    ds = load_sample("seed002_auc8")
    y, s = ds.y_true.astype(int), ds.score()
    exact = fmt(metrics.roc_auc_score(y, s))
    assert not any(m.label == "Gini" for m in at.metric)  # a closed tab draws nothing
    open_tab(at, "AUC four ways")
    for label in ("AUC: trapezoids", "AUC: all pairs", "AUC: rank sum"):
        assert metric(at, label) == exact
    assert metric(at, "Gini") == fmt(metrics.gini(y, s))
    assert metric(at, "AUC: histogram") == fmt(metrics.auc_histogram(y, s, n_bins=100))
    at.number_input(key="curves_n_bins").set_value(2).run()
    assert not at.exception
    assert metric(at, "AUC: histogram") == fmt(metrics.auc_histogram(y, s, n_bins=2))
    ranks = next(d.value for d in at.dataframe if "mid_rank" in d.value.columns)
    assert ranks["mid_rank"].tolist() == sorted(ranks["mid_rank"].tolist())
    assert any("rank" in x.value and f"= {exact}" in x.value for x in at.latex)


def test_weighted_dataset_and_calibration_bins():
    rng = np.random.default_rng(4)
    n = 300
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1), 2)
    w = rng.random(n) * 2
    ds = Dataset("weighted", "binary", y, {"m": s}, sample_weight=w)
    at = AppTest.from_file(APP, default_timeout=30)
    at = open_with(ds, at)
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s, sample_weight=w))
    assert metric(at, "Log loss") == fmt(log_loss(y, s, sample_weight=w))
    check_operating_point(at, y, s, 0.5, w=w)
    check_component(at, y, s, 0.5, w=w)
    open_tab(at, "Log loss and calibration")
    at.slider(key="curves_calib_bins").set_value(5).run()
    assert not at.exception
    cal = next(d.value for d in at.dataframe if "fraction_positive" in d.value.columns)
    assert cal["count"].tolist() == metrics.calibration_bins(y, s, n_bins=5)["count"].tolist()


def test_big_dataset_draws_a_reduction():
    rng = np.random.default_rng(0)
    n = 200_000
    y = (rng.random(n) < 0.3).astype(int)
    s = np.clip(rng.normal(0.4 + 0.25 * y, 0.2), 0, 1)
    ds = Dataset("big", "binary", y, {"m": s})
    at = AppTest.from_file(APP, default_timeout=60)
    at = open_with(ds, at)
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s))
    n_roc = len(metrics.roc_curve(y, s, drop_intermediate=False)[0])
    assert any(f"of {n_roc:,} ROC vertices" in c.value for c in at.caption)
    line = component(at)["lines"][0]
    assert 100 < len(line["roc"]["x"]) <= 2000 and len(line["pr"]["x"]) <= 2000
    # the caption counts the vertices the component draws
    assert any(f"drew {len(line['roc']['x']):,} of {n_roc:,} ROC" in c.value for c in at.caption)
    open_tab(at, "Every sample")
    per_sample = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert len(per_sample) == 200  # the worst 200; the CSV has all


def test_predict_nothing_candidate_moves_to_the_right_end():
    # the top scores are negatives, one of them exactly 1.0: with FP dear, predicting
    # nothing is the cheapest; the slider's right end lies just above every score
    y = np.array([0, 0, 1, 1, 0, 1, 0, 0])
    s = np.array([1.0, 0.95, 0.9, 0.7, 0.6, 0.4, 0.3, 0.1])
    at = open_with(Dataset("top_negatives", "binary", y, {"m": s}), AppTest.from_file(APP))
    at.number_input(key="curves_cost_fp").set_value(5.0).run()
    at.radio(key="curves_optimize").set_value("min_cost").run()
    assert not at.exception
    optima = undash(next(d.value for d in at.dataframe if "criterion" in d.value.columns))
    row = optima[optima["criterion"] == "min expected cost"].iloc[0]
    assert row["threshold"] == np.inf and row["value"] == 3.0  # 3 FN, no FP
    button = at.button(key="curves_apply_optimum")
    assert "+inf" in button.label and not button.disabled
    button.click().run()
    assert not at.exception
    top = threshold(at)
    assert top == component(at)["thresholds"][-1] > 1.0 == s.max()  # the slider's right end
    check_operating_point(at, y, s, top)
    assert [metric(at, k) for k in ("TP", "FP", "FN", "TN")] == ["0", "0", "3", "5"]
    # the candidate marker sits at the ROC origin, its threshold +inf (JSON null)
    marker = next(m for m in component(at)["candidates"] if "min cost" in m["label"])
    assert marker["t"] is None and (marker["fpr"], marker["tpr"]) == (0.0, 0.0)


def test_wrong_kind_notice():
    at = open_page("digits")
    assert any("binary classification" in i.value for i in at.info)
    assert at.button(key="open_fitting_sample")
    assert not at.metric


# ---------------------------------------------------------------- figures and glue
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
    c = curves_page.curves(ds, "good")
    fig = curves_page.curve_bases(ds)[1]
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
    best = curves_page.optima(ds, "weak", 2.0, 1.0, 5.0, 0.95, 0.95)
    assert best["threshold"].nunique() >= 3
    roc, pr = curves_page.curve_figures(ds, "weak", 0.5, 2.0, 1.0, 5.0, 0.95, 0.95)
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
        m["threshold"]: m["glyph"]
        for m in charts.candidate_marks(curves_page.candidate_points(best))
    }
    assert len(set(glyphs.values())) == len(glyphs)


LABELS = {
    " / ".join(c)
    for n in range(1, 6)
    for c in __import__("itertools").combinations(
        ["max F-beta", "Youden J", "min cost", "recall >= x", "precision >= x"], n
    )
}


def test_a_click_on_the_other_models_curve_selects_that_model_and_threshold():
    """The selection of a point of trace 1 + i is models[i] at that point's threshold;
    a marker (candidate, operating point) keeps the selected model."""
    ds = load_sample("balanced")
    roc, pr = curves_page.curve_figures(ds, "good", 0.5, 1.0, 1.0, 1.0, 0.9, 0.9)
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
    strip = charts.strip_figure(s, y, out, 0.5)
    by_name = {tr.name.split(" ")[0]: tr for tr in strip.data}
    assert len(by_name["FP"].x) == 3 and len(by_name["TN"].x) == 1
    fp_y = sorted(by_name["FP"].y)
    assert len(set(fp_y)) == 2  # the two tied negatives at 0.5 stack
    big = charts.strip_figure(np.linspace(0, 1, 5000), np.zeros(5000), np.full(5000, "TN"), 0.5)
    assert big.data[0].type == "bar" and sum(tr.y.sum() for tr in big.data) == 5000
    pairs = metrics.auc_pairs([1, 0, 0, 1], [0.8, 0.8, 0.2, 0.6])
    grid = charts.pairs_grid_figure(pairs)
    assert np.asarray(grid.data[0].z).tolist() == [[0.5, 1.0], [0.0, 1.0]]
    cal = charts.calibration_figure(
        metrics.calibration_bins([0, 1, 1, 0], [0.1, 0.8, 0.9, 0.7], n_bins=2)
    )
    assert list(cal.data[2].y) == [1, 3]


def test_long_tables_list_the_right_rows():
    """Past the strip's 3000 markers and the tables' 200 rows: the cell list is the cell's
    highest-scoring samples, the per-sample table the worst log-loss terms, the strip's
    histograms count every sample of each outcome, and n_bins redoes the histogram way."""
    rng = np.random.default_rng(3)
    n = 5000
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 2)  # many ties
    ds = Dataset("ties5000", "binary", y, {"m": s})
    at = open_with(ds, AppTest.from_file(APP, default_timeout=60))
    full = metrics.per_sample_outcomes(y, s, 0.5)
    full.insert(0, "id", list(ds.sample_ids))
    open_tab(at, "Samples of a cell")
    for cell in ("FP", "TN", "TP", "FN"):
        at.selectbox(key="curves_cm_cell").set_value(cell).run()
        assert not at.exception
        shown = next(d.value for d in at.dataframe if "outcome" in d.value.columns)
        want = full[full["outcome"] == cell]
        want = want.iloc[np.argsort(-want["score"].to_numpy(), kind="stable")]
        assert any(f"{len(want):,} samples are {cell}" in c.value for c in at.caption)
        assert shown["id"].tolist() == want["id"].head(200).tolist(), cell
        assert shown.columns.tolist() == full.columns.tolist()
        assert shown["rank"].tolist() == want["rank"].head(200).tolist()
    worst = full.sort_values(
        ["log_loss_term", "score"], ascending=[False, False], na_position="last"
    ).head(200)
    open_tab(at, "Every sample")
    table = [d.value for d in at.dataframe if "log_loss_term" in d.value.columns][-1]
    assert table["id"].tolist() == worst["id"].tolist()
    assert table["outcome"].tolist() == worst["outcome"].tolist()
    np.testing.assert_array_equal(table["log_loss_term"], worst["log_loss_term"])
    open_tab(at, "Along the score axis")
    strip = next(
        json.loads(c.proto.spec)
        for c in at.get("plotly_chart")
        if "samples" in json.dumps(json.loads(c.proto.spec)["layout"].get("yaxis", {}))
    )
    totals = {tr["name"].split(" ")[0]: tr["y"] for tr in strip["data"] if tr["type"] == "bar"}
    assert set(totals) == {"TP", "FN", "FP", "TN"}
    for outcome, counts in totals.items():
        counts = charts_counts(counts)
        assert counts.sum() == (full["outcome"] == outcome).sum(), outcome
    open_tab(at, "AUC four ways")
    at.number_input(key="curves_n_bins").set_value(7).run()
    assert not at.exception
    four = metrics.auc_four_ways(y, s, n_bins=7)
    assert metric(at, "AUC: histogram") == fmt(four["histogram"])
    assert metric(at, "AUC: rank sum") == fmt(four["rank"])
    delta = next(m for m in at.metric if m.label == "AUC: histogram").proto.delta
    assert delta == f"error {four['histogram_error']:+.2e}"


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
    fig = charts.strip_figure(scores, y, out, 0.5)
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
        want = charts.strip_figure(scores, y, metrics.threshold_outcomes(y, scores, t), t)
        got = charts.strip_histogram_figure(pos, neg, t)
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
        fig = charts.histogram_auc_figure(s, y, n_bins)
        b = np.minimum(np.floor(s * n_bins), n_bins - 1).astype(int)
        pos, neg = (np.asarray(tr.y).tolist() for tr in fig.data)
        assert pos == np.bincount(b[y == 1], minlength=n_bins).tolist()
        assert neg == np.bincount(b[y == 0], minlength=n_bins).tolist()
        assert len(fig.data[0].x) == n_bins  # bars, never the scores themselves


def test_a_link_opens_the_tabs_it_names_with_their_settings():
    """The open tabs are in the URL (tab, ttab), so a link shows the same numbers: the
    histogram AUC at the link's bins, the per-sample table at the link's threshold."""
    ds = load_sample("seed002_auc8")
    y, s = ds.y_true.astype(int), ds.score()
    at = open_page("seed002_auc8", {"tab": "auc", "bins": "2", "ttab": "every"})
    assert metric(at, "AUC: histogram") == fmt(metrics.auc_histogram(y, s, n_bins=2))
    table = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert len(table) == len(y) and set(table["outcome"]) <= {"TP", "FP", "FN", "TN"}
    assert at.query_params["tab"] in ("auc", ["auc"])
    assert at.query_params["ttab"] in ("every", ["every"])
    # a tab that does not exist opens the first one
    at = open_page("seed002_auc8", {"tab": "Nonsense", "ttab": "<b>"})
    assert at.session_state["curves_teach_tab"] == TEACHING_TABS[0]
    assert at.session_state["curves_t_tab"] == THRESHOLD_TABS[0]
    assert not any(m.label == "Gini" for m in at.metric)


def test_long_tables_are_paged_and_the_page_is_in_the_url():
    """Every sample, 200 rows a page: page 3 lists the 401st to 600th worst samples; the
    page is in the URL (spage), and a link with it opens that page."""
    rng = np.random.default_rng(9)
    n = 650
    y = (rng.random(n) < 0.4).astype(int)
    s = np.round(rng.random(n), 3)
    ds = Dataset("paged", "binary", y, {"m": s})
    at = open_with(ds, AppTest.from_file(APP, default_timeout=60))
    open_tab(at, "Every sample")
    at.number_input(key="curves_sample_page").set_value(3).run()
    assert not at.exception
    full = metrics.per_sample_outcomes(y, s, 0.5)
    full.insert(0, "id", list(ds.sample_ids))
    worst = full.sort_values(
        ["log_loss_term", "score"], ascending=[False, False], na_position="last"
    )
    table = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert table["id"].tolist() == worst["id"].iloc[400:600].tolist()
    assert any("Showing rows 401 to 600" in c.value for c in at.caption)
    assert at.query_params["spage"] in ("3", ["3"])
    at.number_input(key="curves_sample_page").set_value(4).run()
    table = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert table["id"].tolist() == worst["id"].iloc[600:].tolist()  # the last 50
    # a link to page 2 of the sample list opens page 2
    at = open_page("breast_cancer", {"ttab": "every", "spage": "2"})
    table = next(d.value for d in at.dataframe if "log_loss_term" in d.value.columns)
    assert at.number_input(key="curves_sample_page").value == 2 and len(table) == 28  # 228


def test_the_derivations_tab_ends_each_line_in_the_headline():
    """?ttab=derivations opens the tab of every headline derived (views/curves_derivation)."""
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "seed002_roc6", "ttab": "derivations"})
    at.run().switch_page(script("curves")).run()
    assert not at.exception
    ds = load_sample("seed002_roc6")
    auc = fmt(metrics.roc_auc_score(ds.y_true, ds.score()))
    ap = fmt(metrics.average_precision_score(ds.y_true, ds.score()))
    headline = {m.label: m.value for m in at.metric}
    assert headline["ROC AUC"] == auc and headline["Average precision"] == ap
    lines = [x.value.strip().strip("$").strip() for x in at.latex]
    assert any(x.endswith(f"= {auc}") for x in lines), lines
    assert any(x.endswith(f"= {ap}") for x in lines), lines


def test_mcc_and_balanced_accuracy_at_the_threshold_with_their_formulas():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "seed002_roc6", "t": "0.65"})
    at.run().switch_page(script("curves")).run()
    assert not at.exception
    ds = load_sample("seed002_roc6")
    pred = (ds.score() >= 0.65).astype(int)
    mcc = fmt(metrics.matthews_corrcoef(ds.y_true, pred))
    bal = fmt(metrics.balanced_accuracy_score(ds.y_true, pred))
    headline = {m.label: m.value for m in at.metric}
    assert headline["MCC"] == mcc and headline["Balanced accuracy"] == bal
    lines = [x.value.strip().strip("$").strip() for x in at.latex]
    assert any("MCC" in x and x.endswith(f"= {mcc} \\end{{aligned}}") for x in lines), lines
    assert any(x.startswith("\\text{Balanced accuracy}") and x.endswith(f"= {bal}") for x in lines)


def test_brier_score_and_the_det_curve_tabs():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "balanced", "tab": "log"})
    at.run().switch_page(script("curves")).run()
    assert not at.exception
    ds = load_sample("balanced")
    brier = metrics.brier_score_loss(ds.y_true, ds.score("good"))
    assert {m.label: m.value for m in at.metric}["Brier score"] == fmt(brier)
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params.update({"ds": "balanced", "tab": "det"})
    at.run().switch_page(script("curves")).run()
    assert not at.exception
    fpr, fnr, _ = metrics.det_curve(ds.y_true, ds.score("good"))
    figs = [pio.from_json(c.proto.spec) for c in at.get("plotly_chart")]
    det = next(f for f in figs if "normal deviate" in (f.layout.xaxis.title.text or ""))
    probit = NormalDist().inv_cdf
    expected = [probit(min(max(r, 1e-6), 1 - 1e-6)) for r in fnr]
    assert np.allclose(_array(det.data[0].y), expected) and len(_array(det.data[0].x)) == len(fpr)


def _array(values) -> np.ndarray:
    """A plotly JSON array: a list, or a typed array ``{"dtype", "bdata"}`` (base64)."""
    if isinstance(values, dict):
        return np.frombuffer(base64.b64decode(values["bdata"]), dtype=values["dtype"])
    return np.asarray(values, dtype=float)


def test_the_component_hides_its_numbers_until_reveal_and_knows_presentation_mode():
    """With "Predict, then reveal" the component shows ? for its counts and rates until
    Reveal (and again once its slider moves); ``present=1`` gives it the large text."""
    at = open_page("seed002_roc6", {"reveal": "0", "present": "1"})
    data = component(at)
    assert data["hidden"] and data["predict"] and data["present"]
    assert metric(at, "TP") == "?"
    at.button(key="curves_reveal").click().run()
    assert not at.exception
    assert not component(at)["hidden"] and metric(at, "TP") == "2"
    slide(at, 0.65)  # a threshold moved: the numbers wait for the next guess
    assert component(at)["hidden"] and metric(at, "TP") == "?"
    plain = open_page("seed002_roc6")
    assert not any(component(plain)[k] for k in ("hidden", "predict", "present"))
