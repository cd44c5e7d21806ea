"""The ROC & PR curves page's operating point: the threshold controls, the headline
numbers, the component's data, the confusion matrix and the model selector."""

from __future__ import annotations

import re

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.samples import load_sample
from metrics import log_loss
from tests.conftest import APP
from tests.views.curves.drive import (
    check_component,
    check_operating_point,
    component,
    metric,
    open_page,
    open_tab,
    open_with,
    slide,
    threshold,
)


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
    # the sample's one model is called "model": the caption never says "model model"
    captions = " ".join(c.value for c in at.caption)
    assert "6 samples, the model" in captions and "model model" not in captions.replace("**", "")


def test_threshold_from_url():
    at = open_page("seed002_roc6", {"t": "0.75"})
    assert threshold(at) == 0.75
    assert component(at)["at_t"] == {"tp": 2.0, "fp": 0.0, "fn": 0.0, "tn": 4.0}


def test_beta_changes_fbeta_only():
    at = open_page("balanced")
    ds = load_sample("balanced")
    y, s = ds.y_true.astype(int), ds.score()
    f1 = metric(at, "F1")
    at.number_input(key="curves_beta").set_value(0.5).run()
    assert not at.exception
    pred = (s >= 0.5).astype(int)
    fbeta = fmt(metrics.fbeta_score(y, pred, beta=0.5))
    assert any(f"= {fbeta}" in x.value and "F_\\beta" in x.value for x in at.latex)
    assert component(at)["b2"] == 0.25 and component(at)["beta_text"] == "0.5"
    assert metric(at, "F1") == f1


def test_confusion_matrix_normalization():
    """The radio sets the brackets of the component's matrix, the page's only one (the
    browser computes them: tests/e2e/test_curves.py)."""
    at = open_page("seed002_roc6")
    assert not at.table  # no second matrix, as a table
    for norm in ("pred", "all", "true"):
        at.radio(key="curves_cm_normalize").set_value(norm).run()
        assert not at.exception
        assert component(at)["norm"] == norm
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


def test_wrong_kind_notice():
    at = open_page("digits")
    assert any("binary classification" in i.value for i in at.info)
    assert at.button(key="open_fitting_sample")
    assert not at.metric


def test_the_component_hides_its_numbers_until_reveal_and_knows_presentation_mode():
    """With "Predict, then reveal" the component shows ? for its counts and rates until
    Reveal (and again once its slider moves); ``present=1`` gives it the large text."""
    at = open_page("seed002_roc6", {"reveal": "0", "present": "1"})
    data = component(at)
    assert data["hidden"] and data["predict"] and data["present"]
    assert metric(at, "Precision") == "?"
    # no emoji on the page's buttons: Debian's Chromium has no emoji font (empty boxes)
    emoji = re.compile("[\U0001f000-\U0001ffff\u2600-\u27bf\ufe0f]")
    assert not [b.label + b.proto.icon for b in at.button if emoji.search(b.label + b.proto.icon)]
    at.button(key="curves_reveal").click().run()
    assert not at.exception
    assert not component(at)["hidden"] and metric(at, "Precision") == "0.4000"
    slide(at, 0.65)  # a threshold moved: the numbers wait for the next guess
    assert component(at)["hidden"] and metric(at, "Precision") == "?"
    plain = open_page("seed002_roc6")
    assert not any(component(plain)[k] for k in ("hidden", "predict", "present"))
