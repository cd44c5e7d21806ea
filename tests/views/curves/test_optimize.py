"""The ROC & PR curves page's "Optimize for" goals, their buttons and their markers."""

from __future__ import annotations

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import undash
from explorer.samples import load_sample
from tests.conftest import APP
from tests.views.curves.drive import (
    check_operating_point,
    component,
    open_page,
    open_with,
    threshold,
)


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
    assert component(at)["at_t"] == {"tp": 0.0, "fp": 0.0, "fn": 3.0, "tn": 5.0}
    # the candidate marker sits at the ROC origin, its threshold +inf (JSON null)
    marker = next(m for m in component(at)["candidates"] if "min cost" in m["label"])
    assert marker["t"] is None and (marker["fpr"], marker["tpr"]) == (0.0, 0.0)
