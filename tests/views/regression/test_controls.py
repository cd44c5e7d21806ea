"""The Regression page (AppTest), its chart builders, and the per-sample helpers of
metrics.regression it relies on (against scikit-learn and slow references)."""

from __future__ import annotations

import json
import math
import re

import numpy as np
import pandas as pd
import pytest
import sklearn.metrics as skm
from streamlit.testing.v1 import AppTest

import metrics
from explorer.charts import regression as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from metrics import (
    ERROR_COLUMNS,
    MAPE_EPSILON,
    MetricInputError,
    recency_weights,
    regression_errors,
    regression_steps,
)
from tests.conftest import APP, metric, numbered_selectbox

PAGE = script("regression")
LABELS = ["MAE", "Weighted MAE", "MSE", "RMSE", "MAPE", "MAPE (%)", "RMSLE", "R²"]


# ---------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------
def delta(at, label):
    return next(m.delta for m in at.metric if m.label == label)


def open_page(sample="diabetes", *, query=None, datasets=None):
    at = AppTest.from_file(APP, default_timeout=30)
    for k, v in (query or {}).items():
        at.query_params[k] = v
    if datasets:
        # A session dataset goes in before the first run; open the page directly, since
        # AppTest cannot re-serialize the sidebar picker's formatted option afterwards.
        at.session_state["session_datasets"] = {d.name: d for d in datasets}
        at.session_state["active_dataset"] = datasets[0].name
        at.switch_page(PAGE).run()
        assert not at.exception
        return at
    at.run()
    assert not at.exception
    if sample is not None:
        at.selectbox(key="dataset_picker").set_value(sample).run()
        assert not at.exception
    at.switch_page(PAGE).run()
    assert not at.exception
    return at


def expected(y, p, *, w=None, w_weighted="recency"):
    """The page's headline numbers, straight from metrics."""
    ww = {"recency": recency_weights(len(y)), "uniform": None, "dataset": w}[w_weighted]
    out = {
        "MAE": fmt(metrics.mean_absolute_error(y, p, sample_weight=w)),
        "Weighted MAE": fmt(metrics.mean_absolute_error(y, p, sample_weight=ww)),
        "MSE": fmt(metrics.mean_squared_error(y, p, sample_weight=w)),
        "RMSE": fmt(metrics.root_mean_squared_error(y, p, sample_weight=w)),
        "MAPE": fmt(metrics.mean_absolute_percentage_error(y, p, sample_weight=w)),
        "MAPE (%)": fmt(100 * metrics.mean_absolute_percentage_error(y, p, sample_weight=w)),
        "R²": fmt(metrics.r2_score(y, p, sample_weight=w)),
    }
    try:
        out["RMSLE"] = fmt(metrics.root_mean_squared_log_error(y, p, sample_weight=w))
    except MetricInputError:
        out["RMSLE"] = "undefined"
    return out


def assert_headline(at, want):
    assert {label: metric(at, label) for label in LABELS} == want


def frame_with(at, column):
    return next(df.value for df in at.dataframe if column in df.value.columns)


def shifted(p, i, by):
    q = np.array(p, dtype=float)
    q[i] += by
    return q


DIABETES = load_sample("diabetes")


# ---------------------------------------------------------------------------
# AppTest: every control
# ---------------------------------------------------------------------------
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
    assert any("RMSE by" in i.value for i in at.info)
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
    assert any("y_pred must be greater than -1" in w.value for w in at.warning)
    assert metric(at, "RMSE") == expected(y, shifted(p0, 7, -1000.0))["RMSE"]


@pytest.mark.parametrize(
    ("choice", "last"),
    [
        ("MAE", "MAE"),
        ("Weighted MAE", "MAE"),
        ("MSE", "MSE"),
        ("RMSE", "RMSE"),
        ("MAPE", "MAPE"),
        ("RMSLE", "RMSLE"),
        ("R²", "R2"),
    ],
)
def test_explain_control_step_table_ends_with_the_headline(choice, last):
    at = open_page()
    at.selectbox(key="reg_explain").set_value(choice).run()
    assert not at.exception
    steps = frame_with(at, "step")
    assert steps["step"].iloc[-1] == last
    assert fmt(steps["value"].iloc[-1]) == metric(at, choice)
    assert len(at.latex) >= 5  # the explained formula plus the four teaching formulas


def test_rmsle_demo_inputs_compute_seed002_live():
    at = open_page()
    assert metric(at, "RMSLE, predicting 150") == "0.2860"
    assert metric(at, "RMSLE, predicting 250") == "0.2221"
    assert metric(at, "RMSE, either way") == "50.00"
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
    assert any("greater than -1" in w.value for w in at.warning)


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


def _awkward_dataset():
    y = np.array([0.0, 3.0, -2.0, 5.0, 0.0, 10.0, 2.5, 7.0])
    return Dataset(
        "awkward",
        "regression",
        y,
        {"a": np.array([0.5, 2.0, -1.5, 5.5, 0.2, 8.0, 2.0, 9.0]), "b": y + 1.0},
        sample_ids=tuple(f"s{i}" for i in range(8)),
    )


def test_zero_and_minus_one_targets_are_flagged_without_exception():
    ds = _awkward_dataset()
    at = open_page(datasets=[ds])
    y, p = ds.y_true, ds.score("a")
    assert_headline(at, expected(y, p))
    assert metric(at, "RMSLE") == "undefined"
    assert float(metric(at, "MAPE")) > 1e14  # 0.5 / eps: MAPE explodes
    warnings = " ".join(w.value for w in at.warning)
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
    assert "regression" in at.info[0].value
    at.button(key="open_fitting_sample").click().run()
    assert not at.exception
    assert at.session_state["active_dataset"] == "diabetes"
    assert metric(at, "MAE") == "44.68"


def test_download_holds_every_row():
    at = open_page()
    dl = at.get("download_button")
    assert len(dl) == 1
    table = frame_with(at, "absolute_error")
    assert len(table) == 200
    assert table["absolute_error"].is_monotonic_decreasing


# ---------------------------------------------------------------------------
# chart builders
# ---------------------------------------------------------------------------
def test_predicted_vs_actual_has_identity_line_and_highlight():
    fig = charts.predicted_vs_actual(
        [1.0, 2.0, 3.0], [1.5, 2.0, 9.0], ids=["a", "b", "c"], highlight=2, original=2.5
    )
    names = [t.name for t in fig.data]
    assert names[0] == "model" and "identity y_hat = y" in names
    identity = fig.data[names.index("identity y_hat = y")]
    assert list(identity.x) == list(identity.y) == [1.0, 9.0]
    assert "before the shift" in names
    moved = fig.data[-1]
    assert list(moved.x) == [3.0] and list(moved.y) == [9.0] and "c" in moved.name
    json.loads(fig.to_json())
    plain = charts.predicted_vs_actual([1.0, 2.0], [1.0, 2.0])
    assert len(plain.data) == 2


def test_residual_histogram_and_rmsle_curve():
    fig = charts.residual_histogram([-1.0, 0.0, 2.0], highlight=2.0)
    assert fig.data[0].type == "histogram" and list(fig.data[0].x) == [-1.0, 0.0, 2.0]
    assert [s["x0"] for s in fig.layout.shapes] == [0, 2.0]
    fig = charts.rmsle_asymmetry([1, 2, 3], [0.3, 0.0, 0.2], [0.5, 0, 0.5], y_true=2, marks=(1, 3))
    assert len(fig.data) == 2 and len(fig.layout.shapes) == 3


# ---------------------------------------------------------------------------
# metrics.regression helpers: against scikit-learn and slow references
# ---------------------------------------------------------------------------
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
    # seed 002's (1/N) sum w |e| equals scikit-learn's weighted mean with these weights
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


def test_charts_thin_big_data():
    rng = np.random.default_rng(0)
    y = rng.normal(size=30_000)
    p = y + rng.normal(size=30_000)
    fig = charts.predicted_vs_actual(y, p, highlight=12_345, max_points=1000)
    assert len(fig.data[0].x) == 1000 and "1000 of 30000" in fig.data[0].name
    assert list(fig.data[-1].x) == [y[12_345]]  # the highlighted sample is always drawn
    fig = charts.residual_histogram(y - p, nbins=40)
    assert fig.data[0].type == "bar" and sum(fig.data[0].y) == 30_000


def test_big_dataset_worst_rows_follow_a_moved_prediction_and_ties_keep_row_order():
    """Past ROW_LIMIT rows the table holds the worst 200 of the full sort (ties in row
    order), also when the outlier control moves one row in or out of them; the
    headline and the y <= -1 flags follow the moved row."""
    rng = np.random.default_rng(3)
    n = 2500  # past the 2,000 rows of the outlier selectbox: a number input
    y = rng.integers(0, 30, n).astype(float)
    p = y + rng.integers(-6, 7, n)  # absolute errors 0..6: ties everywhere
    ds = Dataset("tied_reg", "regression", y, {"model": p})
    at = open_page(datasets=[ds])

    def check(pred):
        full = regression_errors(y, pred).sort_values(
            "absolute_error", ascending=False, kind="stable"
        )
        table = frame_with(at, "absolute_error")
        assert table["id"].tolist() == [str(i) for i in full.index[:200]]
        np.testing.assert_array_equal(table["absolute_error"], full["absolute_error"][:200])
        assert_headline(at, expected(y, pred))

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


# ---------------------------------------------------------------------------
# derivations (issue 18): every headline derived on screen from the samples
# ---------------------------------------------------------------------------
def one_line(latex: str) -> str:
    """A sum drawn over three aligned lines, written on one."""
    for a, b in (
        (r"\begin{aligned}", ""),
        (r"\end{aligned}", ""),
        (r" \\ &\quad + ", " + "),
        (r" \\ &= ", " = "),
        ("&= ", "= "),
    ):
        latex = latex.replace(a, b)
    return latex


def latex_lines(at) -> list[str]:
    return [one_line(x.value.strip("$\n")) for x in at.latex]


def latex_starting(at, start: str) -> str:
    return next(v for v in latex_lines(at) if v.startswith(start))


def mean_parts(line: str) -> tuple[list[str], str, str | None]:
    fracs = re.findall(r"\\frac\{([^{}]*)\}\{([^{}]*)\}", line)
    terms = [t for t in fracs[0][0].split(" + ") if t != r"\dots"]
    return terms, fracs[0][1], fracs[1][0] if len(fracs) > 1 else None


def shown(v):
    v = np.asarray(v, dtype=float)
    return v if len(v) <= 5 else np.r_[v[:3], v[-2:]]


def check_mean(at, name, values, headline):
    line = latex_starting(at, rf"\text{{{name}}} = ")
    assert line.endswith(f"= {headline}")
    terms, denom, total = mean_parts(line)
    assert terms == [fmt(x) for x in shown(values)]
    assert denom == f"{len(values):,}".replace(",", "{,}")
    assert total == fmt(np.sum(values))
    assert fmt(np.sum(values) / len(values)) == headline


def test_every_headline_is_derived_from_the_samples():
    at = open_page()
    y, p = DIABETES.y_true, DIABETES.score()
    errors = regression_errors(y, p)
    check_mean(at, "MAE", errors["absolute_error"], metric(at, "MAE"))
    check_mean(at, "MSE", errors["squared_error"], metric(at, "MSE"))
    check_mean(at, "MAPE", errors["percentage_error"], metric(at, "MAPE"))
    check_mean(at, "MSLE", errors["squared_log_error"], fmt(errors["squared_log_error"].mean()))
    mse = fmt(metrics.mean_squared_error(y, p))
    assert latex_starting(at, r"\text{RMSE}") == (
        rf"\text{{RMSE}} = \sqrt{{\text{{MSE}}}} = \sqrt{{{mse}}} = {metric(at, 'RMSE')}"
    )
    assert latex_starting(at, r"\text{RMSLE}").endswith(f"= {metric(at, 'RMSLE')}")
    assert latex_starting(at, r"\text{MAPE (\%)}").endswith(f"= {metric(at, 'MAPE (%)')}")
    # Weighted MAE: recency weights times the absolute errors, over their sum
    wmae = latex_starting(at, r"\text{Weighted MAE}")
    w = recency_weights(len(y))
    terms, denom, total = mean_parts(wmae)
    a = errors["absolute_error"].to_numpy()
    assert terms[0] == rf"{fmt(w[0])} \times {fmt(a[0])}"
    assert total == fmt(np.dot(w, a)) and wmae.endswith(f"= {metric(at, 'Weighted MAE')}")
    # R²: both sums with their terms, then 1 - SS_res / SS_tot
    res = (y - p) ** 2
    tot = (y - y.mean()) ** 2
    ss_res = latex_starting(at, r"\text{SS\_res}")
    assert ss_res.startswith(rf"\text{{SS\_res}} = {fmt(res[0])} + {fmt(res[1])}")
    assert ss_res.endswith(f"= {fmt(res.sum())}")
    assert latex_starting(at, r"\text{SS\_tot}").endswith(f"= {fmt(tot.sum())}")
    assert latex_starting(at, "R^2 = 1 -").endswith(
        rf"\frac{{{fmt(res.sum())}}}{{{fmt(tot.sum())}}} = {metric(at, 'R²')}"
    )


def weight(x: float) -> str:
    """A weight as the derivation writes it: whole numbers as integers."""
    return str(int(x)) if float(x).is_integer() else fmt(x)


def test_derivations_follow_the_outlier_and_the_dataset_weights():
    y = np.array([1.0, 2.0, 4.0, 8.0, 3.0])
    w = np.array([1.0, 0.5, 2.0, 0.0, 1.5])
    ds = Dataset("weighted", "regression", y, {"m": y * 1.1 + 0.3}, sample_weight=w)
    at = open_page(datasets=[ds])
    at.number_input(key="reg_outlier_shift").set_value(10.0).run()
    assert not at.exception
    p = ds.score().copy()
    p[0] += 10.0
    a = np.abs(y - p)
    mae = latex_starting(at, r"\text{MAE}")
    assert mae == (
        r"\text{MAE} = \frac{"
        + " + ".join(rf"{weight(x)} \times {fmt(e)}" for x, e in zip(w, a, strict=True))
        + rf"}}{{{weight(w.sum())}}} = {metric(at, 'MAE')}"
    )
    assert metric(at, "MAE") == fmt(metrics.mean_absolute_error(y, p, sample_weight=w))
    for label in ("RMSE", "R²", "RMSLE", "MAPE (%)"):
        assert any(v.endswith(f"= {metric(at, label)}") for v in latex_lines(at)), label


def test_undefined_metrics_say_why_in_the_derivation():
    at = open_page(datasets=[_awkward_dataset()])
    assert any(c.value.startswith("RMSLE: undefined:") for c in at.caption)
    assert not any(v.startswith(r"\text{RMSLE}") for v in latex_lines(at))


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
