"""The Regression page's per-sample table, its flags and its CSV (AppTest)."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from metrics import regression_errors
from tests.conftest import metric, numbered_selectbox, rendered
from tests.views.regression.common import (
    DIABETES,
    assert_headline,
    awkward_dataset,
    expected,
    frame_with,
    open_page,
    shifted,
)


def test_zero_and_minus_one_targets_are_flagged_without_exception():
    ds = awkward_dataset()
    at = open_page(datasets=[ds])
    y, p = ds.y_true, ds.score("a")
    # an upload's rows need not be in time order: equal weights, not recency ones
    assert at.radio(key="reg_weights").value == "uniform"
    assert_headline(at, expected(y, p, w_weighted="uniform"))
    assert metric(at, "Weighted MAE") == metric(at, "MAE")
    assert metric(at, "RMSLE") == "undefined"
    assert float(metric(at, "MAPE")) > 1e14  # 0.5 / eps: MAPE explodes
    assert metric(at, "MAPE").endswith("e+14")  # in full: never cut in its card
    warnings = rendered(" ".join(w.value for w in at.warning))
    assert "y_true must be greater than -1" in warnings
    assert "2 sample(s) have y = 0" in warnings and "s0, s4" in warnings
    assert any("RMSLE is undefined for this data: 1 sample(s)" in e.value for e in at.error)
    keep = y != 0
    assert metric(at, "MAPE without the y = 0 rows") == fmt(
        metrics.mean_absolute_percentage_error(y[keep], p[keep])
    )
    table = frame_with(at, "y_true_zero")
    assert set(table.loc[table["y_true_zero"], "id"]) == {"s0", "s4"}
    assert set(table.loc[table["log_undefined"], "id"]) == {"s2"}
    # explaining RMSLE shows the refusal as an error, not a traceback
    at.selectbox(key="reg_explain").set_value("RMSLE").run()
    assert not at.exception
    assert any("greater than -1" in e.value for e in at.error)
    # the all-models table holds an empty RMSLE for both models
    models = frame_with(at, "model")
    assert list(models["model"]) == ["a", "b"]
    assert models["RMSLE"].isna().all()
    assert models["MAE"].tolist() == pytest.approx([metrics.mean_absolute_error(y, p), 1.0])


def test_download_holds_every_row():
    at = open_page()
    dl = at.main.get("download_button")  # the sidebar has "Download this view"
    assert len(dl) == 1
    table = frame_with(at, "absolute_error")
    assert len(table) == 200
    assert table["absolute_error"].is_monotonic_decreasing


def test_big_dataset_worst_rows_follow_a_moved_prediction_and_ties_keep_row_order():
    """Past ROW_LIMIT rows the table holds the worst 200 of the full sort (ties in row
    order), also when the outlier control moves one row in or out of them; the
    headline and the y <= -1 flags follow the moved row."""
    rng = np.random.default_rng(3)
    n = 2500  # past the 2,000 rows of the outlier selectbox: a number input
    y = rng.integers(0, 30, n).astype(float)
    p = y + rng.integers(-6, 7, n)  # absolute errors 0..6: ties everywhere
    ds = Dataset("tied_reg", "regression", y, {"model": p}, source="upload")
    at = open_page(datasets=[ds])

    def check(pred):
        full = regression_errors(y, pred).sort_values(
            "absolute_error", ascending=False, kind="stable"
        )
        table = frame_with(at, "absolute_error")
        assert table["id"].tolist() == [str(i) for i in full.index[:200]]
        np.testing.assert_array_equal(table["absolute_error"], full["absolute_error"][:200])
        assert_headline(at, expected(y, pred, w_weighted="uniform"))

    check(p)
    worst = frame_with(at, "absolute_error")["id"].iloc[0]
    at.number_input(key="reg_outlier_sample").set_value(int(worst)).run()
    at.number_input(key="reg_outlier_shift").set_value(float(y[int(worst)] - p[int(worst)])).run()
    assert not at.exception
    check(shifted(p, int(worst), y[int(worst)] - p[int(worst)]))  # out of the worst rows
    at.number_input(key="reg_outlier_sample").set_value(2345).run()
    at.number_input(key="reg_outlier_shift").set_value(-100.0).run()
    assert not at.exception
    moved = shifted(p, 2345, -100.0)
    check(moved)  # into them, first
    assert frame_with(at, "absolute_error")["id"].iloc[0] == "2345"
    flagged = int(((y <= -1) | (moved <= -1)).sum())
    assert flagged == int((p <= -1).sum()) + 1  # the moved row is one more
    assert f"{flagged} sample(s) have y or y_hat at or below -1" in at.error[0].value


def test_download_callable_writes_every_row_worst_first(deferred_downloads):
    """The CSV is built on the click (a callable); calling it gives every row, worst first."""
    import io as _io

    at = open_page()
    numbered_selectbox(at, "reg_outlier_sample").set_value(7).run()
    at.number_input(key="reg_outlier_shift").set_value(500.0).run()
    csv = pd.read_csv(_io.BytesIO(deferred_downloads("download_errors")), dtype={"id": str})
    y, p = DIABETES.y_true, shifted(DIABETES.score(), 7, 500.0)
    full = regression_errors(y, p).sort_values("absolute_error", ascending=False, kind="stable")
    assert len(csv) == DIABETES.n_samples
    assert csv["id"].tolist() == [DIABETES.sample_ids[i] for i in full.index]
    np.testing.assert_allclose(csv["absolute_error"], full["absolute_error"])
    np.testing.assert_allclose(csv["percentage_error_pct"], 100 * full["percentage_error"])
