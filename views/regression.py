"""Regression: MAE, weighted MAE, MSE, RMSE, MAPE, RMSLE and R² for one or more models.

Headline numbers, predicted against actual, how each metric is computed, the
per-sample errors worst first, and the teaching points of issue 8: MAPE at
y = 0, RMSLE's refusal of values at or below -1 and its asymmetry, RMSE
against MAE under an outlier, and seed 002's slips.
"""

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from explorer import state
from explorer.charts import regression as charts
from explorer.formatting import fmt
from explorer.links import float_text
from explorer.widgets import cache_by_dataset, numbered_selectbox, require_kind
from metrics.regression import (
    ERROR_COLUMNS,
    MAPE_EPSILON,
    recency_weights,
    regression_errors,
    regression_steps,
)

st.title("Regression")
ds = state.active()
require_kind(ds, ("regression",), "diabetes")

st.caption(
    f"Active dataset **{ds.name}** · {ds.n_samples} samples · "
    f"model(s): {', '.join(ds.model_names)}" + (f" · {ds.description}" if ds.description else "")
)

UNDEFINED = "undefined"
ROW_LIMIT = 200
y_true = ds.y_true
ids = list(ds.sample_ids)
n = ds.n_samples
w_data = ds.sample_weight


def _float(raw: str) -> float:
    value = float(raw)
    if not np.isfinite(value):
        raise ValueError(raw)
    return value


def _seed(key: str, param: str, default, parse, valid) -> None:
    """bind_param, then fall back to ``default`` when the value (from the URL or left
    in session state) is not allowed; a ``valid`` that raises refuses the value."""

    def check(value):
        if not valid(value):
            raise ValueError(value)
        return value

    state.bind_param(key, param, default, parse, check)


def _safe(fn, *args, **kwargs):
    """(value, None) or (None, message) when the metric refuses the input."""
    try:
        return fn(*args, **kwargs), None
    except metrics.MetricInputError as exc:
        return None, str(exc)


# ------------------------------------------------------------------ controls
WEIGHT_LABELS = {
    "dataset": "the dataset's sample_weight column",
    "uniform": "none (every sample weighs 1: equals MAE)",
    "recency": "by recency: linearly increasing with row order",
}
weight_options = (["dataset"] if w_data is not None else []) + ["uniform", "recency"]

_seed("reg_model", "model", ds.model_names[0], str, lambda v: v in ds.model_names)
_seed(
    "reg_weights",
    "weights",
    weight_options[0] if w_data is not None else "recency",
    str,
    lambda v: v in weight_options,
)
_seed("reg_outlier_sample", "outlier", 0, int, lambda v: isinstance(v, int) and 0 <= v < n)
_seed("reg_outlier_shift", "shift", 0.0, _float, lambda v: abs(float(v)) <= 1e9)

c1, c2 = st.columns(2)
model = c1.selectbox(
    "Model", ds.model_names, key="reg_model", help="The headline numbers are this model's."
)
weights = c2.radio(
    "Weights for Weighted MAE",
    weight_options,
    key="reg_weights",
    format_func=WEIGHT_LABELS.get,
    horizontal=True,
    help="Seed 002's weighted MAE gives recent samples more weight. The rows are taken "
    "to be in time order.",
)
base_pred = ds.score(model)

c3, c4 = st.columns(2)
if n <= 2000:
    # the labels carry the model's predictions: a fresh widget when they change
    outlier = numbered_selectbox(
        c3,
        "Outlier control: sample to move",
        range(n),
        lambda i: f"{ids[i]}  (y = {y_true[i]:g}, y_hat = {base_pred[i]:.4g})",
        key="reg_outlier_sample",
    )
else:
    outlier = c3.number_input(
        "Outlier control: row of the sample to move", 0, n - 1, step=1, key="reg_outlier_sample"
    )
shift = c4.number_input(
    "Move its prediction by",
    min_value=-1e9,
    max_value=1e9,
    step=10.0,
    key="reg_outlier_shift",
    help="Added to the chosen sample's prediction. Every metric below follows; the small "
    "numbers under each headline are the change against the unmoved prediction.",
)
for param, value in (
    ("model", model),
    ("weights", weights),
    ("outlier", outlier),
    ("shift", float_text(shift)),  # exact: a rounded shift changes the metrics
):
    state.write_param(param, value)

pred = base_pred.copy()
pred[outlier] += shift
moved = shift != 0
w_choice = {"dataset": w_data, "uniform": None, "recency": recency_weights(n)}[weights]

# ------------------------------------------------------------------ headline
#: headline label -> metric (None: MAPE x 100); Weighted MAE uses the chosen weights,
#: every other one the dataset's sample_weight
HEADLINE = {
    "MAE": metrics.mean_absolute_error,
    "Weighted MAE": metrics.mean_absolute_error,
    "MSE": metrics.mean_squared_error,
    "RMSE": metrics.root_mean_squared_error,
    "MAPE": metrics.mean_absolute_percentage_error,
    "MAPE (%)": None,
    "RMSLE": metrics.root_mean_squared_log_error,
    "R²": metrics.r2_score,
}
HIGHER_IS_BETTER = {"R²"}


@cache_by_dataset
def headline(
    data, model_name: str, weight_choice: str, row: int, by: float
) -> dict[str, tuple[float | None, str | None]]:
    """The headline values of ``model_name`` with sample ``row``'s prediction moved ``by``."""
    prediction = data.score(model_name).copy()
    prediction[row] += by
    w_of = {
        "dataset": data.sample_weight,
        "uniform": None,
        "recency": recency_weights(data.n_samples),
    }
    out = {}
    for label, fn in HEADLINE.items():
        if fn is None:  # MAPE in percent: the same number x 100
            value, err = out["MAPE"]
            out[label] = (None if value is None else 100 * value, err)
        else:
            w = w_of[weight_choice] if label == "Weighted MAE" else data.sample_weight
            out[label] = _safe(fn, data.y_true, prediction, sample_weight=w)
    return out


now = headline(ds, model, weights, int(outlier) if moved else 0, float(shift))
before = headline(ds, model, weights, 0, 0.0) if moved else now
errors_shown = set()
for row in (list(HEADLINE)[:4], list(HEADLINE)[4:]):
    cols = st.columns(4)
    for col, label in zip(cols, row, strict=True):
        value, err = now[label]
        old = before[label][0]
        delta = None
        if moved and value is not None and old is not None:
            delta = fmt(value - old) if value != old else "0"
        col.metric(
            label,
            UNDEFINED if value is None else fmt(value),
            delta=delta,
            delta_color="normal" if label in HIGHER_IS_BETTER else "inverse",
        )
        if err is not None and err not in errors_shown:
            errors_shown.add(err)
            st.warning(f"{label} is undefined here: {err}")
weight_note = {
    "dataset": "the dataset's `sample_weight` column",
    "uniform": "no weights (every sample counts 1), so it equals MAE",
    "recency": "recency weights w_i = 2i / (n + 1), row 1 the oldest (they average 1)",
}[weights]
st.caption(
    f"Model **{model}**, {n} samples"
    + (", weighted by the dataset's `sample_weight`" if w_data is not None else ", unweighted")
    + f". **Weighted MAE** uses {weight_note}. MAPE is a fraction (scikit-learn's), "
    "MAPE (%) the same number x 100 (seed 002's)."
    + (
        f" Sample **{ids[outlier]}**'s prediction is moved by {shift:+g} "
        f"({base_pred[outlier]:.4g} to {pred[outlier]:.4g}); the small numbers give each "
        "metric's change."
        if moved
        else ""
    )
)


# ------------------------------------------------------------------ per-sample errors
@cache_by_dataset
def base_errors(data, model_name: str, keep: int) -> dict:
    """The unmoved prediction's per-sample errors, reduced to what the page shows.

    The ``keep`` worst rows (absolute error, ties in row order), every
    residual (the histogram), and the rows flagged y = 0 or <= -1. A moved
    prediction changes one row only: :func:`moved_errors` patches it in.
    """
    table = regression_errors(data.y_true, data.score(model_name))
    error = table["absolute_error"].to_numpy()
    candidates = np.arange(error.shape[0])
    if keep < error.shape[0]:  # every row at least as bad as the keep-th worst, in row order
        candidates = np.flatnonzero(error >= np.partition(error, -keep)[-keep])
    order = candidates[np.argsort(-error[candidates], kind="stable")[:keep]]
    return {
        "worst": table.iloc[order],
        "residual": table["residual"].to_numpy(),
        "zero": np.flatnonzero(table["y_true_zero"].to_numpy()),
        "undefined": np.flatnonzero(table["log_undefined"].to_numpy()),
    }


def moved_errors(row: int, prediction: np.ndarray):
    """The worst ROW_LIMIT rows, the residuals and the <= -1 flags with ``row`` moved.

    The other rows keep their errors, so the worst rows are among the base's
    ROW_LIMIT + 1 worst and the moved row.
    """
    base = base_errors(ds, model, ROW_LIMIT + 1)
    one = regression_errors(y_true[[row]], prediction[[row]]).set_axis([row])
    worst = pd.concat([base["worst"].drop(index=row, errors="ignore"), one])
    rank = np.lexsort((worst.index.to_numpy(), -worst["absolute_error"].to_numpy()))
    residual = base["residual"].copy()
    residual[row] = one["residual"].iloc[0]
    undefined = np.zeros(n, dtype=bool)
    undefined[base["undefined"]] = True
    undefined[row] = bool(one["log_undefined"].iloc[0])
    return worst.iloc[rank[:ROW_LIMIT]], residual, undefined


worst_rows, residuals, log_undefined = moved_errors(int(outlier), pred)
zero_rows = base_errors(ds, model, ROW_LIMIT + 1)["zero"]

# ------------------------------------------------------------------ pictures
left, right = st.columns(2)
with left:
    st.markdown("**Predicted against actual**: on the dashed line a prediction is perfect.")
    st.plotly_chart(
        charts.predicted_vs_actual(
            y_true,
            pred,
            ids=ids,
            highlight=int(outlier),
            original=float(base_pred[outlier]),
            model=model,
        ),
        key="reg_scatter",
    )
with right:
    st.markdown("**Residuals** y - y_hat: MAE averages their size, RMSE their squares.")
    st.plotly_chart(
        charts.residual_histogram(residuals, highlight=float(residuals[outlier])),
        key="reg_residuals",
    )

# ------------------------------------------------------------------ RMSE vs MAE
st.subheader("RMSE against MAE under an outlier")
st.markdown(
    "Move one sample's prediction with the **outlier control** above and watch the "
    "headline numbers. MAE grows with the size of the error, by |shift| / n at most; "
    "MSE grows with its square, so one large error can dominate RMSE, while R² falls "
    "by the same squared amount. MAPE moves by the error relative to that sample's y, "
    "and RMSLE by the ratio of the prediction to the truth."
)
if moved:
    mae_d = now["MAE"][0] - before["MAE"][0]
    rmse_d = now["RMSE"][0] - before["RMSE"][0]
    ratio = f"{rmse_d / mae_d:.3g} times" if mae_d else "while MAE did not move"
    st.info(
        f"Moving sample {ids[outlier]} by {shift:+g}: MAE changed by {fmt(mae_d)}, "
        f"RMSE by {fmt(rmse_d)} ({ratio})."
    )

# ------------------------------------------------------------------ how it is computed
st.subheader("How it is computed")
EXPLAIN = ["MAE", "Weighted MAE", "MSE", "RMSE", "MAPE", "RMSLE", "R²"]
STEP_KEY = {
    "MAE": "mae",
    "Weighted MAE": "mae",
    "MSE": "mse",
    "RMSE": "rmse",
    "MAPE": "mape",
    "RMSLE": "rmsle",
    "R²": "r2",
}
_seed("reg_explain", "explain", "RMSE", str, lambda v: v in EXPLAIN)
explain = st.selectbox("Metric to explain", EXPLAIN, key="reg_explain")
state.write_param("explain", explain)
w_explain = w_choice if explain == "Weighted MAE" else w_data
steps, err = _safe(
    regression_steps, y_true, pred, metric=STEP_KEY[explain], sample_weight=w_explain
)
if err is not None:
    st.error(err)
else:
    v = dict(zip(steps["step"], steps["value"], strict=True))
    W, S = fmt(v["W"]), fmt(v.get("S", 0.0))
    sums = r"\sum_i w_i"
    if explain in ("MAE", "Weighted MAE"):
        st.latex(
            rf"\mathrm{{{'WMAE' if explain != 'MAE' else 'MAE'}}} = "
            rf"\frac{{\sum_i w_i\,|y_i-\hat y_i|}}{{{sums}}} = \frac{{{S}}}{{{W}}} = "
            rf"{fmt(v['MAE'])}"
        )
        if explain == "Weighted MAE":
            st.markdown(
                "Seed 002 writes $\\mathrm{WMAE} = \\frac{1}{N}\\sum_i w_i |y_i - p_i|$, "
                "dividing by N; scikit-learn divides by the weight sum. They agree when "
                "the weights average 1, as the recency weights here do."
            )
    elif explain in ("MSE", "RMSE"):
        tail = rf"\frac{{{S}}}{{{W}}} = {fmt(v['MSE'])}"
        if explain == "RMSE":
            st.latex(
                rf"\mathrm{{RMSE}} = \sqrt{{\frac{{\sum_i w_i (y_i-\hat y_i)^2}}{{{sums}}}}}"
                rf" = \sqrt{{{tail}}} = {fmt(v['RMSE'])}"
            )
        else:
            st.latex(rf"\mathrm{{MSE}} = \frac{{\sum_i w_i (y_i-\hat y_i)^2}}{{{sums}}} = {tail}")
    elif explain == "MAPE":
        st.latex(
            rf"\mathrm{{MAPE}} = \frac{{1}}{{{sums}}}\sum_i w_i"
            rf"\frac{{|y_i-\hat y_i|}}{{\max(|y_i|, \epsilon)}} = \frac{{{S}}}{{{W}}} = "
            rf"{fmt(v['MAPE'])} = {fmt(100 * v['MAPE'])}\,\%"
        )
    elif explain == "RMSLE":
        st.latex(
            rf"\mathrm{{RMSLE}} = \sqrt{{\frac{{\sum_i w_i (\log(1+y_i)-\log(1+\hat y_i))^2}}"
            rf"{{{sums}}}}} = \sqrt{{\frac{{{S}}}{{{W}}}}} = \sqrt{{{fmt(v['MSLE'])}}} = "
            rf"{fmt(v['RMSLE'])}"
        )
    else:
        st.latex(
            rf"R^2 = 1 - \frac{{\sum_i w_i (y_i-\hat y_i)^2}}{{\sum_i w_i (y_i-\bar y)^2}}"
            rf" = 1 - \frac{{{fmt(v['SS_res'])}}}{{{fmt(v['SS_tot'])}}} = {fmt(v['R2'])}"
        )
    st.dataframe(
        steps,
        hide_index=True,
        column_config={"value": st.column_config.NumberColumn(format="%.6g")},
    )
    st.caption(
        "Without weights every w_i is 1, so W is the number of samples. The last line is "
        "the headline number."
    )

# ------------------------------------------------------------------ teaching notes
st.subheader("Teaching notes")
st.markdown("**MAPE: a fraction or a percent, and what happens where y = 0**")
f1, f2 = st.columns(2)
with f1:
    st.caption("Seed 002: in percent, undefined where y = 0")
    st.latex(
        r"\mathrm{MAPE} = \frac{100}{N}\sum_{i=1}^{N}\left|\frac{y_i-p_i}{y_i}\right|,"
        r"\quad y_i \neq 0"
    )
with f2:
    st.caption("scikit-learn (and this page's MAPE): a fraction, never fails")
    st.latex(
        r"\mathrm{MAPE} = \frac{1}{N}\sum_{i=1}^{N}\frac{|y_i-\hat y_i|}{\max(|y_i|,\ \epsilon)}"
    )
st.markdown(
    "0.25 as a fraction is 25 %: the headline shows both (**MAPE** and **MAPE (%)**). "
    f"scikit-learn divides by max(|y|, eps) with eps = {MAPE_EPSILON:.3g}, the float64 "
    "machine epsilon, so a row with y = 0 adds |error| / 2.2e-16, about 4.5e15 times its "
    "error, instead of failing: MAPE explodes. Targets near 0 inflate it the same way."
)
if zero_rows.size:
    zero = np.zeros(n, dtype=bool)
    zero[zero_rows] = True
    flagged = [ids[i] for i in zero_rows]
    st.warning(
        f"{len(flagged)} sample(s) have y = 0, flagged in the per-sample table below "
        f"({', '.join(flagged[:10])}{' ...' if len(flagged) > 10 else ''}): their "
        "percentage errors dominate MAPE, which is meaningless here "
        f"(MAPE = {now['MAPE'][0]:.4g} as a fraction)."
    )
    if (~zero).any():
        rest = metrics.mean_absolute_percentage_error(
            y_true[~zero],
            pred[~zero],
            sample_weight=None if w_data is None else w_data[~zero],
        )
        st.metric("MAPE without the y = 0 rows", fmt(rest))
else:
    st.caption("No y = 0 in this dataset, so MAPE stays finite and meaningful here.")

st.markdown("**RMSLE: the right formula, seed 002's slip, and values at or below -1**")
f1, f2 = st.columns(2)
with f1:
    st.caption("Right (scikit-learn's, with weights 1)")
    st.latex(r"\sqrt{\frac{1}{N}\sum_{i=1}^{N}\big(\log(y_i+1)-\log(p_i+1)\big)^{2}}")
with f2:
    st.caption("Seed 002, as printed: the square is missing")
    st.latex(r"\sqrt{\frac{1}{N}\sum_{i=1}^{N}\big(\log(y_i+1)-\log(p_i+1)\big)}")
st.markdown(
    "Without the square, over- and under-predictions cancel, and the root of a negative "
    "mean is undefined. RMSLE needs log(1 + y), which is undefined at y <= -1, so it "
    "refuses such values, as scikit-learn does. Even in (-1, 0) it is a poor choice: "
    "log(1 + y) stretches values near -1 towards minus infinity, so tiny differences there "
    "outweigh large ones elsewhere. RMSLE is meant for positive quantities (prices, "
    "counts) whose relative error matters; for targets that can be negative use MAE or RMSE."
)
bad = log_undefined
if bad.any():
    st.error(
        f"RMSLE is undefined for this data: {int(bad.sum())} sample(s) have y or y_hat "
        "at or below -1 (flagged in the per-sample table below). " + (now["RMSLE"][1] or "")
    )
else:
    st.caption("Here every y and y_hat is above -1, so RMSLE is defined.")

st.markdown("**RMSLE punishes under-prediction more** (seed 002: a hotel's average price)")
_seed("reg_rmsle_demo_true", "rt", 200.0, _float, lambda v: -0.99 <= float(v) <= 1e9)
_seed("reg_rmsle_demo_gap", "rg", 50.0, _float, lambda v: 0 <= float(v) <= 1e9)
d1, d2 = st.columns(2)
demo_true = d1.number_input(
    "True value y", min_value=-0.99, max_value=1e9, step=10.0, key="reg_rmsle_demo_true"
)
demo_gap = d2.number_input(
    "Predict this much too low and too high",
    min_value=0.0,
    max_value=1e9,
    step=10.0,
    key="reg_rmsle_demo_gap",
)
state.write_param("rt", float_text(demo_true))
state.write_param("rg", float_text(demo_gap))
low, high = demo_true - demo_gap, demo_true + demo_gap
under, under_err = _safe(metrics.root_mean_squared_log_error, [demo_true], [low])
over, _ = _safe(metrics.root_mean_squared_log_error, [demo_true], [high])
m1, m2, m3 = st.columns(3)
m1.metric(f"RMSLE, predicting {low:g}", UNDEFINED if under is None else fmt(under))
m2.metric(f"RMSLE, predicting {high:g}", UNDEFINED if over is None else fmt(over))
m3.metric("RMSE, either way", fmt(metrics.root_mean_squared_error([demo_true], [high])))
if under_err is not None:
    st.warning(f"Predicting {low:g} leaves RMSLE undefined: {under_err}")
elif demo_true > 0:
    st.caption(
        f"Both predictions miss y = {demo_true:g} by {demo_gap:g}, so RMSE is the same; "
        f"RMSLE compares log({demo_true:g} + 1) with log({low:g} + 1) and "
        f"log({high:g} + 1), and the log is steeper below: the under-prediction costs more."
    )
    half = 2 * demo_gap if demo_gap > 0 else max(abs(demo_true) / 4, 1.0)
    grid = np.linspace(max(demo_true - half, (low - 1) / 2), demo_true + half, 300)
    curve = regression_errors(np.full(grid.shape, demo_true), grid)
    st.plotly_chart(
        charts.rmsle_asymmetry(
            grid,
            np.sqrt(curve["squared_log_error"].to_numpy()),
            curve["percentage_error"].to_numpy(),
            y_true=demo_true,
            marks=(low, high),
        ),
        key="reg_rmsle_curve",
    )

# ------------------------------------------------------------------ per-sample
st.subheader("Per-sample errors, worst first")
# the columns of regression_errors, with the id first and pct % after pct
PER_SAMPLE_COLUMNS = ["id", *ERROR_COLUMNS]
PER_SAMPLE_COLUMNS.insert(PER_SAMPLE_COLUMNS.index("percentage_error") + 1, "percentage_error_pct")


def per_sample_table(errors: pd.DataFrame) -> pd.DataFrame:
    """Rows of ``regression_errors`` (indexed by row number) with the ids and pct %."""
    out = errors.assign(
        id=[ids[i] for i in errors.index], percentage_error_pct=100 * errors["percentage_error"]
    )
    return out[PER_SAMPLE_COLUMNS]


def per_sample_csv() -> bytes:
    """Every row, worst first: the download, written only when it is clicked."""
    every = per_sample_table(regression_errors(y_true, pred))
    return (
        every.sort_values("absolute_error", ascending=False, kind="stable")
        .to_csv(index=False)
        .encode()
    )


per_sample = per_sample_table(worst_rows)
st.caption(
    f"Model **{model}**{' (with the moved prediction)' if moved else ''}. Sorted by "
    f"absolute error; showing the worst {min(ROW_LIMIT, n)} of {n} samples (click a "
    "column header to sort by it; the CSV holds every row, full precision). **pct** is "
    "MAPE's term |y - y_hat| / max(|y|, eps) (a fraction; **pct %** the same x 100), "
    "**log error** is log(1 + y) - log(1 + y_hat), empty where undefined. **y = 0** flags "
    "the rows where MAPE explodes, **<= -1** the rows RMSLE refuses."
)
num = st.column_config.NumberColumn
st.dataframe(
    per_sample,
    hide_index=True,
    column_config={
        "y_true": num("y", format="%.5g"),
        "y_pred": num("y_hat", format="%.5g"),
        "residual": num("residual", format="%.4g"),
        "absolute_error": num("abs error", format="%.4g"),
        "squared_error": num("squared", format="%.4g"),
        "percentage_error": num("pct", format="%.4g"),
        "percentage_error_pct": num("pct %", format="%.4g"),
        "log_error": num("log error", format="%.4g"),
        "squared_log_error": num("sq. log error", format="%.4g"),
        "y_true_zero": st.column_config.CheckboxColumn("y = 0"),
        "log_undefined": st.column_config.CheckboxColumn("<= -1"),
    },
)
st.download_button(
    "Download the per-sample errors (CSV)",
    per_sample_csv,  # built only when clicked
    file_name=f"{ds.name}_{model}_errors.csv",
    mime="text/csv",
    key="reg_download_errors",
)

# ------------------------------------------------------------------ all models
if len(ds.model_names) > 1:
    st.subheader("All models")
    rows = []
    for name in ds.model_names:
        values = now if name == model else headline(ds, name, weights, 0, 0.0)
        rows.append({"model": name, **{k: v for k, (v, _) in values.items()}})
    st.dataframe(pd.DataFrame(rows), hide_index=True)
    st.caption(
        "Each model's headline numbers (the moved prediction applies to the selected "
        "model only); empty where a metric is undefined. Weighted MAE uses the weights "
        "chosen above."
    )
