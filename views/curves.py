"""ROC & PR curves: one operating point drives the curves, the confusion matrix and
every rate; AUC four ways; the ROC point by point; log loss and calibration.

Layout and prose only: the numbers come from :mod:`explorer.pages.curves` through its
cached declarations in :mod:`explorer.cache`, the texts from views/text/curves.md;
the threshold controls, the "Optimize for" panel and AUC four ways are drawn by
:mod:`views.curves_parts`."""

from __future__ import annotations

import streamlit as st

import metrics
from explorer import cache, state, widgets
from explorer.charts import curves as charts
from explorer.formatting import fmt
from explorer.pages import curves as page
from explorer.pages.curves import MAX_ROWS, count_text
from views import curves_parts as parts
from views import prose
from views.curves_parts import csv, table, text

#: Per-sample tables: log-loss terms span 1e-16 to ~37, so 4 significant digits.
ROW_COLUMNS = {
    "log_loss_term": st.column_config.NumberColumn(
        "log_loss_term", format="%.4g", help="-log of the probability given to the true class"
    )
}

st.title("ROC & PR curves")
ds = state.active()
widgets.require_kind(ds, ("binary",), "balanced")

models = ds.model_names
if len(models) > 1:
    parts.choice("curves_model", "model", models, models[0])
    model = st.selectbox(
        "Model",
        models,
        key="curves_model",
        help="Every number below is for this model; the curves show all models.",
    )
    state.write_param("model", model)
else:
    model = models[0]
weighted = ds.sample_weight is not None
st.caption(
    f"Dataset **{ds.shown_name}**: {ds.n_samples:,} samples, model **{model}**"
    + (", weighted by `sample_weight`" if weighted else "")
    + (f". {ds.description}" if ds.description else "")
)

try:
    curves = {m: cache.curves_curves(ds, m) for m in models}
except metrics.MetricInputError as exc:
    st.error(str(exc))
    state.stop_page()
cur = curves[model]

# ---- the operating point, then the numbers at it
t, beta, axis = parts.threshold_controls(ds, model)
rates = cache.curves_rates(ds, model, t, beta)
ll, ll_sum, ll_error = cache.curves_log_loss(ds, model)

# ---- 1. headline numbers
cols = st.columns(7)
cols[0].metric("ROC AUC", fmt(cur["auc"]))
cols[1].metric("Average precision", fmt(cur["ap"]))
cols[2].metric(
    "Log loss",
    fmt(ll) if ll_error == "" else "n/a",
    help="Needs scores that are probabilities in [0, 1]." if ll_error else None,
)
for col, (label, name) in zip([*cols[3:], *st.columns(4)], page.RATE_LABELS.items(), strict=True):
    col.metric(label, fmt(rates[name]), help=f"β = {beta:g}" if name == "fbeta" else None)

goals, optima = parts.optimize_panel(ds, model, beta, axis.hi)

# ---- 2. the picture: ROC and PR curves
figures = cache.curves_figures(
    ds, model, t, beta, *goals, _curves=curves, _rates=rates, _optima=optima
)
chart_keys = ("curves_roc_chart", "curves_pr_chart")
for column, fig, key in zip(st.columns(2), figures, chart_keys, strict=True):
    with column:
        st.plotly_chart(
            fig,
            key=key,
            on_select=lambda key=key: parts.from_chart(key),
            selection_mode="points",
            width="stretch",
        )
drawn = (
    text("vertices_drawn", roc=len(c["fpr"]), pr=len(c["recall"]), **c) for c in curves.values()
)
st.caption(" · ".join(drawn) + text("vertices", max_points=page.MAX_POINTS))

# ---- 3. how it is computed: the confusion matrix and the formulas
st.header("At the operating point: the confusion matrix")
norm = parts.choice("curves_cm_normalize", "norm", tuple(page.NORMALIZE), "true")
norm = st.radio(
    "Normalize the rates",
    tuple(page.NORMALIZE),
    format_func=page.NORMALIZE.get,
    key="curves_cm_normalize",
    horizontal=True,
)
state.write_param("norm", norm)
cm_counts, cm_rates, cm_table = page.confusion(rates, norm)
for col, name in zip(st.columns(4), page.CELLS, strict=True):
    col.metric(name, count_text(rates[name.lower()]), help=charts.OUTCOME_NAMES[name])
c_cm, c_table = st.columns([1, 1])
with c_cm:
    st.plotly_chart(
        charts.confusion_figure(cm_counts, cm_rates, norm),
        key="curves_cm_chart",
        on_select=parts.on_cell_click,
        selection_mode="points",
    )
    st.caption("Click a cell to list its samples below.")
with c_table:
    st.table(cm_table)
    st.caption(f"Counts, and in brackets the rate normalized {page.NORMALIZE[norm]}.")
c_formulas, c_formulas2 = st.columns(2)
with c_formulas:
    for name in ("precision", "recall", "f1", "fpr"):
        st.latex(text(f"formula_{name}", **rates))
with c_formulas2:
    for name in ("fbeta", "accuracy", "error_rate"):
        st.latex(text(f"formula_{name}", **rates))
    st.caption("N = TP + FP + FN + TN" + (" (total sample_weight)." if weighted else " (samples)."))

samples = cache.curves_samples(ds, model)
state.bind_param("curves_cm_cell", None, "TP", check=state.member(page.CELLS))
cell = st.selectbox(
    "List the samples of one cell",
    page.CELLS,
    format_func=charts.OUTCOME_NAMES.get,
    key="curves_cm_cell",
)
in_cell = page.cell_samples(samples, cell, t)
st.caption(
    f"{len(in_cell):,} samples are {cell} at threshold {t:.4g}"
    + (
        f"; the {MAX_ROWS} highest-scoring are shown, the CSV has all."
        if len(in_cell) > MAX_ROWS
        else "."
    )
)
download = (f"Download the {cell} samples (CSV)", csv(page.sample_rows, ds, samples, in_cell, t))
table(
    page.sample_rows(ds, samples, in_cell[:MAX_ROWS], t),
    "curves_cell_table",
    (*download, f"{cell}.csv", "curves_dl_cell"),
    width="stretch",
    column_config=ROW_COLUMNS,
)

# ---- the sample strip
st.header("The samples along the score axis")
strip = cache.curves_strip_figure(ds, model, t, _samples=samples)
st.plotly_chart(strip, key="curves_strip_chart")
st.caption(
    prose.section("curves", "strip")
    if ds.n_samples <= page.STRIP_MARKERS
    else f"{ds.n_samples:,} samples are too many markers: stacked histograms per outcome."
)

parts.four_ways(ds, model, cur["auc"])

st.subheader("Average precision versus the area under the PR curve")
cols = st.columns(3)
cols[0].metric("AP (step sum)", fmt(cur["ap"]))
cols[1].metric("PR area (trapezoids)", fmt(cur["pr_trapezoid"]))
st.markdown(prose.section("curves", "ap_vs_pr_area"))

# ---- the ROC curve point by point (seed 002)
st.header("The ROC curve point by point")
state.bind_param("curves_drop_intermediate", "drop", False, lambda v: v.lower() == "true")
drop = st.toggle(
    "drop_intermediate (drop the collinear points of straight runs)", key="curves_drop_intermediate"
)
state.write_param("drop", drop)
counts = cache.curves_counts(ds, model)
steps, n_steps = cache.curves_threshold_head(ds, model, drop, _counts=counts)
seed002 = ds.name == "seed002_roc6"
st.markdown(
    prose.section("curves", "steps")
    + (" " + prose.section("curves", "steps_seed002") if seed002 else "")
)
st.caption(
    f"{n_steps:,} thresholds (the first, +inf, predicts nothing positive)."
    + (f" Showing the first {MAX_ROWS}; the CSV has all." if n_steps > MAX_ROWS else "")
)
download = (
    "Download the threshold table (CSV)",
    csv(page.threshold_table, ds, model, drop, _counts=counts),
    "roc_points.csv",
)
table(steps, "curves_steps_table", (*download, "curves_dl_steps"), width="stretch")

# ---- log loss and calibration
st.header("Log loss and calibration")
if ll_error:
    st.warning(f"Log loss and calibration need probabilities: {ll_error}")
else:
    st.latex(text("formula_log_loss", total=ll_sum, n=rates["n"], mean=ll))
    st.caption(
        prose.section("curves", "log_loss")
        + (" " + prose.section("curves", "log_loss_weighted") if weighted else "")
    )
    parts.number("curves_calib_bins", "cbins", 10, 2, 50)
    c_cal, c_tab = st.columns([1.1, 1])
    with c_tab:
        st.slider("Calibration bins", min_value=2, max_value=50, key="curves_calib_bins")
        state.write_param("cbins", st.session_state["curves_calib_bins"])
        cal_bins = int(st.session_state["curves_calib_bins"])
        cal = cache.curves_calibration(ds, model, cal_bins)
        download = ("Download the bins (CSV)", csv(cal), "calibration.csv", "curves_dl_cal")
        table(cal, "curves_calib_table", download, missing="no sample falls in this bin")
    with c_cal:
        st.plotly_chart(
            cache.curves_calibration_figure(ds, model, cal_bins, _bins=cal),
            key="curves_calib_chart",
        )
        st.caption(prose.section("curves", "calibration"))

# ---- 4. per-sample breakdown
st.header("Every sample")
worst = samples["worst"]
st.caption(
    f"{len(worst):,} samples, worst log-loss term first (click a column header to sort)."
    + (f" Showing the worst {MAX_ROWS}; the CSV has all." if len(worst) > MAX_ROWS else "")
)
download = ("Download every sample (CSV)", csv(page.sample_rows, ds, samples, worst, t))
table(
    page.sample_rows(ds, samples, worst[:MAX_ROWS], t),
    "curves_sample_table",
    (*download, f"{ds.name}_{model}_samples.csv", "curves_dl_samples"),
    width="stretch",
    column_config=ROW_COLUMNS,
)
