"""The Regression page model (explorer.pages.regression), without AppTest: hand-computed
toy cases, the bundled diabetes sample against `metrics` and scikit-learn, and the
helpers of metrics.regression it relies on against scikit-learn and slow references."""

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
from explorer.pages import regression
from explorer.samples import load_sample
from metrics import (
    ERROR_COLUMNS,
    MAPE_EPSILON,
    MetricInputError,
    recency_weights,
    regression_errors,
    regression_steps,
)
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
    h = values(regression.headline(toy(), "m", "uniform", 0, 0.0))
    assert h["MAE"] == h["Weighted MAE"] == pytest.approx(2 / 4)
    assert h["MSE"] == pytest.approx(1.5 / 4)
    assert h["RMSE"] == pytest.approx(math.sqrt(1.5 / 4))
    # MAPE: the y = 0 row divides by the float64 epsilon
    mape = (0.5 / 3 + 0.5 / MAPE_EPSILON + 0 + 1 / 7) / 4
    assert h["MAPE"] == pytest.approx(mape) and h["MAPE (%)"] == pytest.approx(100 * mape)
    assert h["R²"] == pytest.approx(1 - 1.5 / 26)  # mean 3, SS_tot 0 + 9 + 1 + 16
    # recency weights 0.4, 0.8, 1.2, 1.6 for the Weighted MAE only
    h = values(regression.headline(toy(), "m", "recency", 0, 0.0))
    assert h["Weighted MAE"] == pytest.approx((0.2 + 0.4 + 0 + 1.6) / 4)
    assert h["MAE"] == pytest.approx(0.5)


@pytest.mark.parametrize("choice", ["uniform", "recency", "dataset"])
def test_headline_matches_scikit_learn_on_diabetes(choice):
    w = np.random.default_rng(0).random(DIABETES.n_samples)
    ds = Dataset("d", "regression", DIABETES.y_true, dict(DIABETES.scores), sample_weight=w)
    h = regression.headline(ds, "tree", choice, 7, 500.0)
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
    h = regression.headline(toy(), "m", "uniform", 1, -1.5)  # y_hat = -1
    value, err = h["RMSLE"]
    assert value is None
    with pytest.raises(metrics.MetricInputError) as exc:
        metrics.root_mean_squared_log_error(
            toy().y_true, regression.moved_prediction(toy(), "m", 1, -1.5)
        )
    assert err == str(exc.value)
    assert h["MAE"][0] == pytest.approx(2.5 / 4)  # 0.5 + |0 - (-1)| + 0 + 1


def test_weights():
    assert regression.weight_options(toy()) == ["uniform", "recency"]
    w = np.array([1.0, 2.0, 3.0, 4.0])
    assert regression.weight_options(toy(sample_weight=w)) == ["dataset", "uniform", "recency"]
    assert regression.sample_weights(toy(sample_weight=w), "dataset").tolist() == w.tolist()
    assert regression.sample_weights(toy(sample_weight=w), "uniform") is None
    assert regression.sample_weights(toy(), "recency").tolist() == pytest.approx(
        [0.4, 0.8, 1.2, 1.6]
    )


def test_moved_prediction_copies():
    p = regression.moved_prediction(toy(), "m", 0, 10.0)
    assert p.tolist() == [12.5, 0.5, 2.0, 8.0]
    assert toy().score("m")[0] == 2.5


def test_changes_and_outlier_effect():
    before = regression.headline(toy(), "m", "uniform", 0, 0.0)
    now = regression.headline(toy(), "m", "uniform", 3, 1.0)  # error 1 -> 2
    c = regression.changes(now, before)
    assert c["MAE"] == pytest.approx(0.25) and c["MSE"] == pytest.approx(0.75)
    assert regression.changes(before, before) == dict.fromkeys(before, 0.0)
    assert (
        regression.changes(regression.headline(toy(), "m", "uniform", 1, -2.0), before)["RMSLE"]
        is None
    )
    # an infinite MSE before and after has not changed (inf - inf would be NaN)
    huge = Dataset("huge", "regression", np.array([1e200, 1.0]), {"m": np.array([0.0, 1.0])})
    with np.errstate(over="ignore", invalid="ignore"):
        moved_huge = regression.headline(huge, "m", "uniform", 1, 1.0)
        c = regression.changes(moved_huge, regression.headline(huge, "m", "uniform", 0, 0.0))
    assert moved_huge["MSE"][0] == math.inf and c["MSE"] == 0.0 and c["RMSE"] == 0.0
    mae, rmse, ratio = regression.outlier_effect(now, before)
    assert mae == pytest.approx(0.25)
    assert rmse == pytest.approx(math.sqrt(4.5 / 4) - math.sqrt(1.5 / 4))
    assert ratio == pytest.approx(rmse / mae)
    flipped = regression.headline(toy(), "m", "uniform", 3, -2.0)  # 8 -> 6: the same error
    assert regression.outlier_effect(flipped, before) == (0.0, 0.0, None)


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
        base = regression.base_errors(ds, "m", keep)
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
    moved = regression.moved_prediction(ds, "m", row, by)
    worst, residual, undefined = regression.moved_errors(
        ds, regression.base_errors(ds, "m", regression.ROW_LIMIT + 1), row, moved
    )
    want = full_sort(y, moved).iloc[: regression.ROW_LIMIT]
    assert worst.index.tolist() == want.index.tolist()
    np.testing.assert_array_equal(worst["absolute_error"], want["absolute_error"])
    np.testing.assert_array_equal(residual, y - moved)
    np.testing.assert_array_equal(undefined, (y <= -1) | (moved <= -1))
    # the worst row of a big move is the moved one
    if by == 1000.0:
        assert worst.index[0] == row


# ---------------------------------------------------------------- how it is computed
@pytest.mark.parametrize("explain", list(regression.STEP_KEY))
def test_steps_end_with_the_headline(explain):
    w = np.random.default_rng(1).random(DIABETES.n_samples)
    ds = Dataset("d", "regression", DIABETES.y_true, dict(DIABETES.scores), sample_weight=w)
    p = regression.moved_prediction(ds, "linear", 3, 40.0)
    table, err = regression.steps(ds, p, explain, "recency")
    assert err is None and table["step"].iloc[0] == "W"
    headline = regression.headline(ds, "linear", "recency", 3, 40.0)[explain][0]
    assert table["value"].iloc[-1] == pytest.approx(headline, rel=1e-12)
    v = regression.step_values(table)
    assert v["W"] == pytest.approx(
        metrics.recency_weights(ds.n_samples).sum() if explain == "Weighted MAE" else w.sum()
    )
    assert ("MAPE %" in v) == (explain == "MAPE")
    if explain == "MAPE":
        assert v["MAPE %"] == pytest.approx(100 * headline)


def test_steps_say_why_a_metric_is_undefined():
    table, err = regression.steps(
        toy(), regression.moved_prediction(toy(), "m", 1, -3.0), "RMSLE", "uniform"
    )
    assert table is None and "-1" in err
    table, err = regression.steps(toy(), toy().score("m"), "MSE", "uniform")
    assert regression.step_values(table) == {"W": 4.0, "S": 1.5, "MSE": 0.375}


# ---------------------------------------------------------------- teaching notes
def test_mape_without_zeros():
    rest = regression.mape_without_zeros(toy(), toy().score("m"), np.array([1]))
    assert rest == pytest.approx((0.5 / 3 + 0 + 1 / 7) / 3)
    w = np.array([1.0, 5.0, 2.0, 3.0])
    rest = regression.mape_without_zeros(toy(sample_weight=w), toy().score("m"), np.array([1]))
    assert rest == pytest.approx((1 * 0.5 / 3 + 2 * 0 + 3 * 1 / 7) / 6)
    zeros = Dataset("z", "regression", np.zeros(3), {"m": np.ones(3)})
    assert regression.mape_without_zeros(zeros, np.ones(3), np.arange(3)) is None


def test_rmsle_demo_by_hand():
    d = regression.rmsle_demo(200.0, 50.0)
    assert (d["low"], d["high"], d["rmse"]) == (150.0, 250.0, 50.0)
    assert d["under"] == pytest.approx(math.log(201 / 151))
    assert d["over"] == pytest.approx(math.log(251 / 201))
    assert d["under"] > d["over"] and d["under_err"] is None
    grid, rmsle, pct = d["curve"]
    assert grid.shape == (300,) and grid[0] == pytest.approx(100.0) and grid[-1] == 300.0
    np.testing.assert_allclose(rmsle, np.abs(np.log1p(200.0) - np.log1p(grid)))
    np.testing.assert_allclose(pct, np.abs(200.0 - grid) / 200.0)
    # a gap of 0: the grid spans y / 4 each side, from (low - 1) / 2 at the most
    grid = regression.rmsle_demo(10.0, 0.0)["curve"][0]
    assert (grid[0], grid[-1]) == (pytest.approx(7.5), 12.5)
    grid = regression.rmsle_demo(2.0, 0.0)["curve"][0]
    assert (grid[0], grid[-1]) == (pytest.approx(1.0), 3.0)  # half = 1: max(1, 0.5)


def test_rmsle_demo_undefined_and_non_positive():
    d = regression.rmsle_demo(0.5, 2.0)  # predicting -1.5
    assert d["under"] is None and "-1" in d["under_err"] and d["curve"] is None
    assert d["over"] == pytest.approx(math.log(3.5 / 1.5))
    d = regression.rmsle_demo(-0.5, 0.0)  # defined, but y <= 0 draws no curve
    assert d["under"] == 0.0 and d["curve"] is None


# ---------------------------------------------------------------- tables
def test_per_sample_table_and_csv():
    ds = toy()
    table = regression.per_sample_table(ds, regression.base_errors(ds, "m", 3)["worst"])
    assert list(table.columns) == regression.PER_SAMPLE_COLUMNS
    assert regression.PER_SAMPLE_COLUMNS[:2] == ["id", "y_true"]
    i = regression.PER_SAMPLE_COLUMNS.index("percentage_error")
    assert regression.PER_SAMPLE_COLUMNS[i + 1] == "percentage_error_pct"
    assert table["id"].tolist() == ["3", "0", "1"]
    assert table["percentage_error_pct"].tolist() == pytest.approx(
        [100 / 7, 50 / 3, 50 / MAPE_EPSILON]
    )
    assert table["y_true_zero"].tolist() == [False, False, True]
    p = regression.moved_prediction(DIABETES, "linear", 7, 500.0)
    csv = pd.read_csv(io.BytesIO(regression.per_sample_csv(DIABETES, p)), dtype={"id": str})
    want = full_sort(DIABETES.y_true, p)
    assert csv["id"].tolist() == [DIABETES.sample_ids[i] for i in want.index]
    assert csv["id"].iloc[0] == DIABETES.sample_ids[7]
    np.testing.assert_allclose(csv["percentage_error_pct"], 100 * want["percentage_error"])


def test_models_table():
    ds = Dataset("two", "regression", toy().y_true, {"m": toy().score("m"), "low": -np.ones(4) * 2})
    table = regression.models_table(
        {m: regression.headline(ds, m, "uniform", 0, 0.0) for m in ds.model_names}
    )
    assert table["model"].tolist() == ["m", "low"]
    assert list(table.columns) == ["model", *regression.HEADLINE]
    assert table["MAE"].tolist() == pytest.approx([0.5, (5 + 2 + 4 + 9) / 4])
    assert table["RMSLE"].iloc[0] is not None and pd.isna(table["RMSLE"].iloc[1])


# ---------------------------------------------------------------- layering and caches
def test_page_model_does_not_import_streamlit():
    code = "import sys, explorer.pages.regression; assert 'streamlit' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=True)


def test_cached_functions_equal_the_page_model():
    from explorer.ui import cache

    got = cache.regression.headline(DIABETES, "tree", "recency", 3, 12.5)
    assert got == regression.headline(DIABETES, "tree", "recency", 3, 12.5)
    base = cache.regression.base_errors(DIABETES, "linear", regression.ROW_LIMIT + 1)
    want = regression.base_errors(DIABETES, "linear", regression.ROW_LIMIT + 1)
    pd.testing.assert_frame_equal(base["worst"], want["worst"])
    np.testing.assert_array_equal(base["residual"], want["residual"])


# ---------------------------------------------------------------- derivations
@pytest.mark.parametrize(
    ("y", "p", "last"),
    [
        ([2.0, 2.0, 2.0], [2.0, 2.0, 2.0], r"\text{SS\_res} = 0,\ \text{so}\ R^2 = 1"),
        ([2.0, 2.0, 2.0], [1.0, 2.0, 3.0], r"\ \text{so}\ R^2 = 0"),
    ],
)
def test_r2_derivation_names_the_degenerate_cases(y, p, last):
    from explorer.pages.regression_derivation import derivations

    ds = Dataset("flat", "regression", np.array(y), {"m": np.array(p)})
    lines = derivations(ds, "m", "uniform", 0, 0.0)
    assert lines["R²"].latex.endswith(last)
    assert fmt(metrics.r2_score(y, p)) == last.rsplit("= ", 1)[1]


def test_derivations_elide_many_terms_and_keep_the_total():
    from explorer.pages.regression_derivation import derivations

    rng = np.random.default_rng(3)
    y = rng.random(1000) * 10
    ds = Dataset("many", "regression", y, {"m": y + rng.normal(size=1000)})
    mae = derivations(ds, "m", "recency", 0, 0.0)["MAE"]
    a = np.abs(y - ds.score())
    assert mae.latex.endswith(
        rf"\frac{{{fmt(a.sum())}}}{{1{{,}}000}} = {fmt(metrics.mean_absolute_error(y, ds.score()))}"
    )
    assert mae.note == "the first 3 and last 2 of 1,000 terms"


# ---------------------------------------------------------------- metrics.regression helpers
# the per-sample errors, weights and steps the page shows: against scikit-learn and slow
# references
def _case(seed, n=40):
    rng = np.random.default_rng(seed)
    y = np.round(rng.uniform(-0.9, 20, n), 1)
    y[:3] = [0.0, -0.5, 0.0]
    p = np.clip(y + rng.normal(0, 2, n), -0.95, None)
    return y, p


@pytest.mark.parametrize("seed", range(5))
def test_regression_errors_weighted_means_are_the_metrics(seed):
    y, p = _case(seed)
    w = np.random.default_rng(seed).random(y.shape[0])
    t = regression_errors(y, p)
    assert tuple(t.columns) == ERROR_COLUMNS
    for col, fn in [
        ("absolute_error", skm.mean_absolute_error),
        ("squared_error", skm.mean_squared_error),
        ("percentage_error", skm.mean_absolute_percentage_error),
        ("squared_log_error", skm.mean_squared_log_error),
    ]:
        for weights in (None, w):
            np.testing.assert_allclose(
                np.average(t[col], weights=weights),
                fn(y, p, sample_weight=weights),
                rtol=1e-9,
            )
    # slow reference, row by row
    for i in range(y.shape[0]):
        assert t["residual"][i] == y[i] - p[i]
        assert t["percentage_error"][i] == abs(y[i] - p[i]) / max(abs(y[i]), MAPE_EPSILON)
        assert t["log_error"][i] == pytest.approx(math.log(1 + y[i]) - math.log(1 + p[i]))
        assert t["y_true_zero"][i] == (y[i] == 0)
    assert not t["log_undefined"].any()


def test_regression_errors_marks_undefined_logs_as_nan():
    t = regression_errors([0.0, -1.0, 2.0, -3.0], [1.0, 1.0, -1.0, -5.0])
    assert t["log_undefined"].tolist() == [False, True, True, True]
    assert t["log_error"].isna().tolist() == [False, True, True, True]
    assert t["y_true_zero"].tolist() == [True, False, False, False]
    assert t["percentage_error"][0] == 1.0 / MAPE_EPSILON
    with pytest.raises(MetricInputError, match="y_pred"):
        regression_errors([1.0, 2.0], [1.0])


def test_recency_weights():
    w = recency_weights(7)
    assert w.mean() == pytest.approx(1.0)
    assert np.all(np.diff(w) > 0)
    np.testing.assert_allclose(w / w[0], np.arange(1, 8))
    # the revision sheet's (1/N) sum w |e| equals scikit-learn's weighted mean with these weights
    y, p = _case(1, 7)
    e = np.abs(y - p)
    assert np.sum(w * e) / 7 == pytest.approx(skm.mean_absolute_error(y, p, sample_weight=w))
    with pytest.raises(MetricInputError):
        recency_weights(0)


@pytest.mark.parametrize("metric_name", ["mae", "mse", "rmse", "mape", "rmsle", "r2"])
@pytest.mark.parametrize("weighted", [False, True])
def test_regression_steps_end_with_the_metric(metric_name, weighted):
    y, p = _case(3)
    w = np.random.default_rng(0).random(y.shape[0]) if weighted else None
    fn = {
        "mae": skm.mean_absolute_error,
        "mse": skm.mean_squared_error,
        "rmse": skm.root_mean_squared_error,
        "mape": skm.mean_absolute_percentage_error,
        "rmsle": skm.root_mean_squared_log_error,
        "r2": skm.r2_score,
    }[metric_name]
    steps = regression_steps(y, p, metric=metric_name, sample_weight=w)
    assert isinstance(steps, pd.DataFrame)
    assert list(steps.columns) == ["step", "formula", "value"]
    assert steps["step"].iloc[0] == "W"
    assert steps["value"].iloc[0] == pytest.approx(y.shape[0] if w is None else w.sum())
    np.testing.assert_allclose(steps["value"].iloc[-1], fn(y, p, sample_weight=w), rtol=1e-9)
    v = dict(zip(steps["step"], steps["value"], strict=True))
    if "S" in v and metric_name != "r2":
        # the middle step is S / W
        mid = steps["value"].iloc[2]
        assert mid == pytest.approx(v["S"] / v["W"])


def test_regression_steps_refuse_like_the_metrics():
    with pytest.raises(MetricInputError, match="greater than -1"):
        regression_steps([1.0, -1.0], [1.0, 1.0], metric="rmsle")
    with pytest.raises(MetricInputError, match="at least two"):
        regression_steps([1.0], [1.0], metric="r2")
    with pytest.raises(MetricInputError, match="metric must be one of"):
        regression_steps([1.0], [1.0], metric="mad")
