"""How the ROC & PR curves page's AppTest tests drive it: open it on a sample or on a
session dataset, open a tab, move the operating point as the component's slider does,
and check its numbers against the metrics package."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.registry import script
from metrics import confusion_matrix
from tests.conftest import APP
from views.curves import controls
from views.curves.tabs import THRESHOLD_TABS
from views.curves.teach import TEACHING_TABS
from views.curves.workbench import CHARTS

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
    """Open a tab below the panel (the tabs draw only the open one); a workbench chart's
    label opens the Charts tab on that chart."""
    if label in CHARTS:
        at.session_state["curves_wb_chart"] = label
        label = "Charts"
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
    the slider (views.curves.controls.from_component records it so)."""
    at.session_state[controls.PENDING] = {"curves_threshold_slider": t}
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
    """Every threshold headline on the page equals the metrics package at (t, beta), and
    so do the counts the component's confusion matrix (the page's only one) starts from
    (its rates, F-beta among them, are the browser's: tests/e2e/test_curves.py)."""
    pred = (np.asarray(s) >= t).astype(int)
    kw = dict(sample_weight=w, zero_division=0.0)
    assert metric(at, "Precision") == fmt(metrics.precision_score(y, pred, **kw))
    assert metric(at, "Recall") == fmt(metrics.recall_score(y, pred, **kw))
    assert metric(at, "F1") == fmt(metrics.f1_score(y, pred, **kw))
    assert metric(at, "Accuracy") == fmt(metrics.accuracy_score(y, pred, sample_weight=w))
    (tp, fn), (fp, tn) = confusion_matrix(y, pred, labels=[1, 0], sample_weight=w)
    got = component(at)["at_t"]
    assert [count(got[k]) for k in ("tp", "fp", "fn", "tn")] == [count(v) for v in (tp, fp, fn, tn)]
    assert component(at)["b2"] == beta**2
