"""The Regression page model (explorer.pages.regression), without AppTest: hand-computed
toy cases, and the bundled diabetes sample against `metrics` and scikit-learn."""

from __future__ import annotations

import io
import math
import subprocess
import sys

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm

import metrics
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import regression as reg
from explorer.samples import load_sample
from metrics import MAPE_EPSILON
from tests.conftest import ROOT

DIABETES = load_sample("diabetes")


def toy(**kw) -> Dataset:
    """y = 3, 0, 2, 7 predicted 2.5, 0.5, 2, 8: errors 0.5, 0.5, 0, 1."""
    y = np.array([3.0, 0.0, 2.0, 7.0])
    return Dataset("toy", "regression", y, {"m": np.array([2.5, 0.5, 2.0, 8.0])}, **kw)


def values(h: dict) -> dict:
    return {label: v for label, (v, _) in h.items()}


# ---------------------------------------------------------------- headline
def test_headline_by_hand():
    h = values(reg.headline(toy(), "m", "uniform", 0, 0.0))
    assert h["MAE"] == h["Weighted MAE"] == pytest.approx(2 / 4)
    assert h["MSE"] == pytest.approx(1.5 / 4)
    assert h["RMSE"] == pytest.approx(math.sqrt(1.5 / 4))
    # MAPE: the y = 0 row divides by the float64 epsilon
    mape = (0.5 / 3 + 0.5 / MAPE_EPSILON + 0 + 1 / 7) / 4
    assert h["MAPE"] == pytest.approx(mape) and h["MAPE (%)"] == pytest.approx(100 * mape)
    assert h["R²"] == pytest.approx(1 - 1.5 / 26)  # mean 3, SS_tot 0 + 9 + 1 + 16
    # recency weights 0.4, 0.8, 1.2, 1.6 for the Weighted MAE only
    h = values(reg.headline(toy(), "m", "recency", 0, 0.0))
    assert h["Weighted MAE"] == pytest.approx((0.2 + 0.4 + 0 + 1.6) / 4)
    assert h["MAE"] == pytest.approx(0.5)


@pytest.mark.parametrize("choice", ["uniform", "recency", "dataset"])
def test_headline_matches_scikit_learn_on_diabetes(choice):
    w = np.random.default_rng(0).random(DIABETES.n_samples)
    ds = Dataset("d", "regression", DIABETES.y_true, dict(DIABETES.scores), sample_weight=w)
    h = reg.headline(ds, "tree", choice, 7, 500.0)
    y, p = ds.y_true, ds.score("tree").copy()
    p[7] += 500.0
    ww = {"uniform": None, "recency": metrics.recency_weights(len(y)), "dataset": w}[choice]
    want = {
        "MAE": skm.mean_absolute_error(y, p, sample_weight=w),
        "Weighted MAE": skm.mean_absolute_error(y, p, sample_weight=ww),
        "MSE": skm.mean_squared_error(y, p, sample_weight=w),
        "RMSE": skm.root_mean_squared_error(y, p, sample_weight=w),
        "MAPE": skm.mean_absolute_percentage_error(y, p, sample_weight=w),
        "MAPE (%)": 100 * skm.mean_absolute_percentage_error(y, p, sample_weight=w),
        "RMSLE": skm.root_mean_squared_log_error(y, p, sample_weight=w),
        "R²": skm.r2_score(y, p, sample_weight=w),
    }
    assert list(h) == list(want)
    for label, value in want.items():
        assert h[label][0] == pytest.approx(value, rel=1e-12), label
        assert h[label][1] is None


def test_headline_leaves_rmsle_undefined_at_or_below_minus_one():
    h = reg.headline(toy(), "m", "uniform", 1, -1.5)  # y_hat = -1
    value, err = h["RMSLE"]
    assert value is None
    with pytest.raises(metrics.MetricInputError) as exc:
        metrics.root_mean_squared_log_error(toy().y_true, reg.moved_prediction(toy(), "m", 1, -1.5))
    assert err == str(exc.value)
    assert h["MAE"][0] == pytest.approx(2.5 / 4)  # 0.5 + |0 - (-1)| + 0 + 1


def test_weights():
    assert reg.weight_options(toy()) == ["uniform", "recency"]
    w = np.array([1.0, 2.0, 3.0, 4.0])
    assert reg.weight_options(toy(sample_weight=w)) == ["dataset", "uniform", "recency"]
    assert reg.sample_weights(toy(sample_weight=w), "dataset").tolist() == w.tolist()
    assert reg.sample_weights(toy(sample_weight=w), "uniform") is None
    assert reg.sample_weights(toy(), "recency").tolist() == pytest.approx([0.4, 0.8, 1.2, 1.6])


def test_moved_prediction_copies():
    p = reg.moved_prediction(toy(), "m", 0, 10.0)
    assert p.tolist() == [12.5, 0.5, 2.0, 8.0]
    assert toy().score("m")[0] == 2.5


def test_changes_and_outlier_effect():
    before = reg.headline(toy(), "m", "uniform", 0, 0.0)
    now = reg.headline(toy(), "m", "uniform", 3, 1.0)  # error 1 -> 2
    c = reg.changes(now, before)
    assert c["MAE"] == pytest.approx(0.25) and c["MSE"] == pytest.approx(0.75)
    assert reg.changes(before, before) == dict.fromkeys(before, 0.0)
    assert reg.changes(reg.headline(toy(), "m", "uniform", 1, -2.0), before)["RMSLE"] is None
    # an infinite MSE before and after has not changed (inf - inf would be NaN)
    huge = Dataset("huge", "regression", np.array([1e200, 1.0]), {"m": np.array([0.0, 1.0])})
    with np.errstate(over="ignore", invalid="ignore"):
        moved_huge = reg.headline(huge, "m", "uniform", 1, 1.0)
        c = reg.changes(moved_huge, reg.headline(huge, "m", "uniform", 0, 0.0))
    assert moved_huge["MSE"][0] == math.inf and c["MSE"] == 0.0 and c["RMSE"] == 0.0
    mae, rmse, ratio = reg.outlier_effect(now, before)
    assert mae == pytest.approx(0.25)
    assert rmse == pytest.approx(math.sqrt(4.5 / 4) - math.sqrt(1.5 / 4))
    assert ratio == pytest.approx(rmse / mae)
    flipped = reg.headline(toy(), "m", "uniform", 3, -2.0)  # 8 -> 6: the same error
    assert reg.outlier_effect(flipped, before) == (0.0, 0.0, None)


# ---------------------------------------------------------------- per-sample errors
def full_sort(y, p) -> pd.DataFrame:
    table = metrics.regression_errors(y, p)
    return table.sort_values("absolute_error", ascending=False, kind="stable")


def test_base_errors_are_the_head_of_the_stable_sort():
    rng = np.random.default_rng(3)
    y = rng.integers(-3, 30, 600).astype(float)
    y[:4] = 0.0
    p = y + rng.integers(-6, 7, 600)  # ties everywhere
    ds = Dataset("t", "regression", y, {"m": p})
    for keep in (1, 201, 600, 700):
        base = reg.base_errors(ds, "m", keep)
        pd.testing.assert_frame_equal(base["worst"], full_sort(y, p).iloc[:keep])
    assert base["residual"].tolist() == (y - p).tolist()
    assert base["zero"].tolist() == np.flatnonzero(y == 0).tolist()
    assert base["undefined"].tolist() == np.flatnonzero((y <= -1) | (p <= -1)).tolist()


@pytest.mark.parametrize("row, by", [(0, 0.0), (5, 1000.0), (17, -50.0), (42, 0.5)])
def test_moved_errors_equal_a_full_recomputation(row, by):
    rng = np.random.default_rng(4)
    y = rng.integers(0, 20, 500).astype(float)
    p = y + rng.integers(-4, 5, 500)
    ds = Dataset("t", "regression", y, {"m": p})
    moved = reg.moved_prediction(ds, "m", row, by)
    worst, residual, undefined = reg.moved_errors(
        ds, reg.base_errors(ds, "m", reg.ROW_LIMIT + 1), row, moved
    )
    want = full_sort(y, moved).iloc[: reg.ROW_LIMIT]
    assert worst.index.tolist() == want.index.tolist()
    np.testing.assert_array_equal(worst["absolute_error"], want["absolute_error"])
    np.testing.assert_array_equal(residual, y - moved)
    np.testing.assert_array_equal(undefined, (y <= -1) | (moved <= -1))
    # the worst row of a big move is the moved one
    if by == 1000.0:
        assert worst.index[0] == row


# ---------------------------------------------------------------- how it is computed
@pytest.mark.parametrize("explain", list(reg.STEP_KEY))
def test_steps_end_with_the_headline(explain):
    w = np.random.default_rng(1).random(DIABETES.n_samples)
    ds = Dataset("d", "regression", DIABETES.y_true, dict(DIABETES.scores), sample_weight=w)
    p = reg.moved_prediction(ds, "linear", 3, 40.0)
    table, err = reg.steps(ds, p, explain, "recency")
    assert err is None and table["step"].iloc[0] == "W"
    headline = reg.headline(ds, "linear", "recency", 3, 40.0)[explain][0]
    assert table["value"].iloc[-1] == pytest.approx(headline, rel=1e-12)
    v = reg.step_values(table)
    assert v["W"] == pytest.approx(
        metrics.recency_weights(ds.n_samples).sum() if explain == "Weighted MAE" else w.sum()
    )
    assert ("MAPE %" in v) == (explain == "MAPE")
    if explain == "MAPE":
        assert v["MAPE %"] == pytest.approx(100 * headline)


def test_steps_say_why_a_metric_is_undefined():
    table, err = reg.steps(toy(), reg.moved_prediction(toy(), "m", 1, -3.0), "RMSLE", "uniform")
    assert table is None and "-1" in err
    table, err = reg.steps(toy(), toy().score("m"), "MSE", "uniform")
    assert reg.step_values(table) == {"W": 4.0, "S": 1.5, "MSE": 0.375}


# ---------------------------------------------------------------- teaching notes
def test_mape_without_zeros():
    rest = reg.mape_without_zeros(toy(), toy().score("m"), np.array([1]))
    assert rest == pytest.approx((0.5 / 3 + 0 + 1 / 7) / 3)
    w = np.array([1.0, 5.0, 2.0, 3.0])
    rest = reg.mape_without_zeros(toy(sample_weight=w), toy().score("m"), np.array([1]))
    assert rest == pytest.approx((1 * 0.5 / 3 + 2 * 0 + 3 * 1 / 7) / 6)
    zeros = Dataset("z", "regression", np.zeros(3), {"m": np.ones(3)})
    assert reg.mape_without_zeros(zeros, np.ones(3), np.arange(3)) is None


def test_rmsle_demo_by_hand():
    d = reg.rmsle_demo(200.0, 50.0)
    assert (d["low"], d["high"], d["rmse"]) == (150.0, 250.0, 50.0)
    assert d["under"] == pytest.approx(math.log(201 / 151))
    assert d["over"] == pytest.approx(math.log(251 / 201))
    assert d["under"] > d["over"] and d["under_err"] is None
    grid, rmsle, pct = d["curve"]
    assert grid.shape == (300,) and grid[0] == pytest.approx(100.0) and grid[-1] == 300.0
    np.testing.assert_allclose(rmsle, np.abs(np.log1p(200.0) - np.log1p(grid)))
    np.testing.assert_allclose(pct, np.abs(200.0 - grid) / 200.0)
    # a gap of 0: the grid spans y / 4 each side, from (low - 1) / 2 at the most
    grid = reg.rmsle_demo(10.0, 0.0)["curve"][0]
    assert (grid[0], grid[-1]) == (pytest.approx(7.5), 12.5)
    grid = reg.rmsle_demo(2.0, 0.0)["curve"][0]
    assert (grid[0], grid[-1]) == (pytest.approx(1.0), 3.0)  # half = 1: max(1, 0.5)


def test_rmsle_demo_undefined_and_non_positive():
    d = reg.rmsle_demo(0.5, 2.0)  # predicting -1.5
    assert d["under"] is None and "-1" in d["under_err"] and d["curve"] is None
    assert d["over"] == pytest.approx(math.log(3.5 / 1.5))
    d = reg.rmsle_demo(-0.5, 0.0)  # defined, but y <= 0 draws no curve
    assert d["under"] == 0.0 and d["curve"] is None


# ---------------------------------------------------------------- tables
def test_per_sample_table_and_csv():
    ds = toy()
    table = reg.per_sample_table(ds, reg.base_errors(ds, "m", 3)["worst"])
    assert list(table.columns) == reg.PER_SAMPLE_COLUMNS
    assert reg.PER_SAMPLE_COLUMNS[:2] == ["id", "y_true"]
    i = reg.PER_SAMPLE_COLUMNS.index("percentage_error")
    assert reg.PER_SAMPLE_COLUMNS[i + 1] == "percentage_error_pct"
    assert table["id"].tolist() == ["3", "0", "1"]
    assert table["percentage_error_pct"].tolist() == pytest.approx(
        [100 / 7, 50 / 3, 50 / MAPE_EPSILON]
    )
    assert table["y_true_zero"].tolist() == [False, False, True]
    p = reg.moved_prediction(DIABETES, "linear", 7, 500.0)
    csv = pd.read_csv(io.BytesIO(reg.per_sample_csv(DIABETES, p)), dtype={"id": str})
    want = full_sort(DIABETES.y_true, p)
    assert csv["id"].tolist() == [DIABETES.sample_ids[i] for i in want.index]
    assert csv["id"].iloc[0] == DIABETES.sample_ids[7]
    np.testing.assert_allclose(csv["percentage_error_pct"], 100 * want["percentage_error"])


def test_models_table():
    ds = Dataset("two", "regression", toy().y_true, {"m": toy().score("m"), "low": -np.ones(4) * 2})
    table = reg.models_table({m: reg.headline(ds, m, "uniform", 0, 0.0) for m in ds.model_names})
    assert table["model"].tolist() == ["m", "low"]
    assert list(table.columns) == ["model", *reg.HEADLINE]
    assert table["MAE"].tolist() == pytest.approx([0.5, (5 + 2 + 4 + 9) / 4])
    assert table["RMSLE"].iloc[0] is not None and pd.isna(table["RMSLE"].iloc[1])


# ---------------------------------------------------------------- layering and caches
def test_page_model_does_not_import_streamlit():
    code = "import sys, explorer.pages.regression; assert 'streamlit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_cached_functions_equal_the_page_model():
    from explorer.ui import cache

    got = cache.regression.headline(DIABETES, "tree", "recency", 3, 12.5)
    assert got == reg.headline(DIABETES, "tree", "recency", 3, 12.5)
    base = cache.regression.base_errors(DIABETES, "linear", reg.ROW_LIMIT + 1)
    want = reg.base_errors(DIABETES, "linear", reg.ROW_LIMIT + 1)
    pd.testing.assert_frame_equal(base["worst"], want["worst"])
    np.testing.assert_array_equal(base["residual"], want["residual"])


# ---------------------------------------------------------------- derivations (issue 18)
@pytest.mark.parametrize(
    ("y", "p", "last"),
    [
        ([2.0, 2.0, 2.0], [2.0, 2.0, 2.0], r"\text{SS\_res} = 0,\ \text{so}\ R^2 = 1.000"),
        ([2.0, 2.0, 2.0], [1.0, 2.0, 3.0], r"\ \text{so}\ R^2 = 0"),
    ],
)
def test_r2_derivation_names_the_degenerate_cases(y, p, last):
    from explorer.pages.regression_derivation import derivations

    ds = Dataset("flat", "regression", np.array(y), {"m": np.array(p)})
    lines = derivations(ds, "m", "uniform", 0, 0.0)
    assert lines["R²"].latex[-1].endswith(last)
    assert fmt(metrics.r2_score(y, p)) == last.rsplit("= ", 1)[1]


def test_derivations_elide_many_terms_and_keep_the_total():
    from explorer.pages.regression_derivation import derivations

    rng = np.random.default_rng(3)
    y = rng.random(1000) * 10
    ds = Dataset("many", "regression", y, {"m": y + rng.normal(size=1000)})
    mae = derivations(ds, "m", "recency", 0, 0.0)["MAE"]
    a = np.abs(y - ds.score())
    assert mae.latex[0].endswith(
        rf"\frac{{{fmt(a.sum())}}}{{1{{,}}000}} = {fmt(metrics.mean_absolute_error(y, ds.score()))}"
    )
    assert mae.note == "the first 3 and last 2 of 1,000 terms"
