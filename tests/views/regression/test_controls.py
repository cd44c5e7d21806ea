"""The Regression page's controls (AppTest): the model, the weights, the outlier control,
the RMSLE demo, links and bad link values, and several moves in a row."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from metrics import recency_weights
from tests.conftest import metric, numbered_selectbox, rendered
from tests.views.regression.common import (
    DIABETES,
    LABELS,
    assert_headline,
    delta,
    expected,
    frame_with,
    open_page,
    shifted,
)


def test_default_view_shows_every_headline_for_the_first_model():
    at = open_page()
    assert at.title[0].value == "Regression"
    y, p = DIABETES.y_true, DIABETES.score("linear")
    assert_headline(at, expected(y, p))
    assert metric(at, "MAE") == "44.68" and metric(at, "RMSE") == "55.52"
    assert metric(at, "R²") == "0.4307"
    # the weighted MAE really differs from MAE (recency weights by default)
    assert metric(at, "Weighted MAE") != metric(at, "MAE")
    assert at.radio(key="reg_weights").value == "recency"
    assert at.query_params["model"] == ["linear"] or at.query_params["model"] == "linear"
    assert not at.error


def test_model_control_switches_every_headline():
    at = open_page()
    at.selectbox(key="reg_model").set_value("tree").run()
    assert not at.exception
    assert_headline(at, expected(DIABETES.y_true, DIABETES.score("tree")))


def test_weights_control_uniform_makes_weighted_mae_equal_mae():
    at = open_page()
    at.radio(key="reg_weights").set_value("uniform").run()
    assert not at.exception
    y, p = DIABETES.y_true, DIABETES.score("linear")
    assert_headline(at, expected(y, p, w_weighted="uniform"))
    assert metric(at, "Weighted MAE") == metric(at, "MAE")
    at.radio(key="reg_weights").set_value("recency").run()
    assert metric(at, "Weighted MAE") == fmt(
        metrics.mean_absolute_error(y, p, sample_weight=recency_weights(200))
    )


def test_outlier_control_moves_every_metric_and_rmse_more_than_mae():
    at = open_page()
    numbered_selectbox(at, "reg_outlier_sample").set_value(7).run()
    at.number_input(key="reg_outlier_shift").set_value(400.0).run()
    assert not at.exception
    y, p0 = DIABETES.y_true, DIABETES.score("linear")
    p = shifted(p0, 7, 400.0)
    want = expected(y, p)
    assert_headline(at, want)
    before = expected(y, p0)
    for label in LABELS:
        assert metric(at, label) != before[label], label
    d_mae = metrics.mean_absolute_error(y, p) - metrics.mean_absolute_error(y, p0)
    d_rmse = metrics.root_mean_squared_error(y, p) - metrics.root_mean_squared_error(y, p0)
    assert delta(at, "MAE") == fmt(d_mae)
    assert delta(at, "RMSE") == fmt(d_rmse)
    assert d_rmse > d_mae > 0
    assert any("RMSE by" in rendered(i.value) for i in at.info)
    assert at.query_params["shift"] in ("400", ["400"])
    assert at.query_params["outlier"] in ("7", ["7"])
    # the moved sample leads the per-sample table (worst first)
    table = frame_with(at, "absolute_error")
    assert table["id"].iloc[0] == DIABETES.sample_ids[7]
    assert table["absolute_error"].iloc[0] == pytest.approx(abs(y[7] - p[7]))
    # a shift that pushes the prediction below -1 makes RMSLE undefined, calmly
    at.number_input(key="reg_outlier_shift").set_value(-1000.0).run()
    assert not at.exception
    assert metric(at, "RMSLE") == "undefined"
    assert any("y_pred must be greater than -1" in rendered(w.value) for w in at.warning)
    assert metric(at, "RMSE") == expected(y, shifted(p0, 7, -1000.0))["RMSE"]


def test_rmsle_demo_inputs_compute_the_revision_sheet_example_live():
    at = open_page()
    assert metric(at, "RMSLE, predicting 150") == "0.2860"
    assert metric(at, "RMSLE, predicting 250") == "0.2221"
    assert metric(at, "RMSE, either way") == "50"
    at.number_input(key="reg_rmsle_demo_true").set_value(100.0).run()
    at.number_input(key="reg_rmsle_demo_gap").set_value(30.0).run()
    assert not at.exception
    assert metric(at, "RMSLE, predicting 70") == fmt(
        metrics.root_mean_squared_log_error([100], [70])
    )
    assert metric(at, "RMSLE, predicting 130") == fmt(
        metrics.root_mean_squared_log_error([100], [130])
    )
    assert at.query_params["rt"] in ("100", ["100"])
    # predicting 100 - 150 = -50 is at or below -1: a warning, not a traceback
    at.number_input(key="reg_rmsle_demo_gap").set_value(150.0).run()
    assert not at.exception
    assert metric(at, "RMSLE, predicting -50") == "undefined"
    assert metric(at, "RMSLE, predicting 250") == fmt(
        metrics.root_mean_squared_log_error([100], [250])
    )
    assert any("greater than -1" in rendered(w.value) for w in at.warning)


def test_link_reproduces_the_view():
    at = open_page(
        None,
        query={
            "ds": "diabetes",
            "model": "tree",
            "weights": "uniform",
            "outlier": "3",
            "shift": "-25",
            "explain": "R²",
        },
    )
    assert at.selectbox(key="reg_model").value == "tree"
    assert numbered_selectbox(at, "reg_outlier_sample").value == 3
    assert at.number_input(key="reg_outlier_shift").value == -25.0
    y, p = DIABETES.y_true, shifted(DIABETES.score("tree"), 3, -25.0)
    assert_headline(at, expected(y, p, w_weighted="uniform"))
    assert frame_with(at, "step")["step"].iloc[-1] == "R2"


def test_bad_url_values_fall_back_to_defaults():
    at = open_page(
        None,
        query={
            "ds": "diabetes",
            "model": "nope",
            "outlier": "9999",
            "shift": "abc",
            "weights": "x",
            "explain": "?",
        },
    )
    assert at.selectbox(key="reg_model").value == "linear"
    assert numbered_selectbox(at, "reg_outlier_sample").value == 0
    assert at.number_input(key="reg_outlier_shift").value == 0.0
    assert_headline(at, expected(DIABETES.y_true, DIABETES.score("linear")))


def test_dataset_sample_weight_is_used_and_offered():
    y = np.array([1.0, 2.0, 4.0, 8.0, 3.0])
    w = np.array([1.0, 0.5, 2.0, 0.0, 1.5])
    ds = Dataset("weighted", "regression", y, {"m": y * 1.1 + 0.3}, sample_weight=w)
    at = open_page(datasets=[ds])
    assert at.radio(key="reg_weights").value == "dataset"
    assert_headline(at, expected(y, ds.score(), w=w, w_weighted="dataset"))
    at.radio(key="reg_weights").set_value("recency").run()
    assert not at.exception
    assert_headline(at, expected(y, ds.score(), w=w, w_weighted="recency"))


def test_wrong_kind_shows_notice_and_opens_diabetes():
    at = open_page("balanced")
    assert not at.metric
    assert "regression" in rendered(at.info[0].value)
    at.button(key="open_fitting_sample").click().run()
    assert not at.exception
    assert at.session_state["active_dataset"] == "diabetes"
    assert metric(at, "MAE") == "44.68"


def test_several_shifts_in_the_panel_give_the_headline_and_the_url():
    """The outlier control and what it changes are one st.fragment: each of several
    shifts shows the headline of the moved prediction (metrics) and the URL follows."""
    at = open_page()
    numbered_selectbox(at, "reg_outlier_sample").set_value(5).run()
    y, p0 = DIABETES.y_true, DIABETES.score("linear")
    for shift in (10.0, 20.0, -30.0, 250.0):
        at.number_input(key="reg_outlier_shift").set_value(shift).run()
        assert not at.exception
        assert_headline(at, expected(y, shifted(p0, 5, shift)))
        assert at.query_params["shift"] == f"{shift:g}"
        assert at.query_params["outlier"] == "5"
