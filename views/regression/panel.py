"""The Regression page's panel (views/regression.py), one st.fragment: the model, the
weights, the outlier control and all they change: the headline, both pictures, RMSE
against MAE, how it is computed, the teaching notes and the per-sample errors.
Moving the outlier's prediction reruns this panel only: the title, the dataset line
and the sidebar are not run or drawn again.

Layout only: the numbers come from :mod:`explorer.pages.regression` through
:mod:`explorer.ui.cache`."""

from __future__ import annotations

import streamlit as st

from explorer.charts import regression as charts
from explorer.formatting import fmt
from explorer.links import float_text
from explorer.pages import regression as reg
from explorer.pages._parse import finite_float
from explorer.ui import cache, classroom, url
from explorer.ui.widgets import numbered_selectbox
from views import prose
from views.regression import parts

WEIGHT_LABELS = {
    "dataset": "the dataset's sample_weight column",
    "uniform": "none (every sample weighs 1: equals MAE)",
    "recency": "by recency: linearly increasing with row order",
}


@st.fragment
def panel(ds) -> None:
    """The controls and what they change (see the module's docstring)."""
    classroom.track_view()  # a move here hides revealed numbers again
    y_true = ds.y_true
    ids = list(ds.sample_ids)
    n = ds.n_samples
    w_data = ds.sample_weight

    # ------------------------------------------------------------------ controls
    weight_options = reg.weight_options(ds)

    parts.seed("reg_model", "model", ds.model_names[0], str, lambda v: v in ds.model_names)
    parts.seed(
        "reg_weights",
        "weights",
        weight_options[0] if w_data is not None else "recency",
        str,
        lambda v: v in weight_options,
    )
    parts.seed("reg_outlier_sample", "outlier", 0, int, lambda v: isinstance(v, int) and 0 <= v < n)
    parts.seed("reg_outlier_shift", "shift", 0.0, finite_float, lambda v: abs(float(v)) <= 1e9)

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
        help="The revision sheet's weighted MAE gives recent samples more weight. The rows "
        "are taken to be in time order.",
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
        url.write_param(param, value)

    pred = reg.moved_prediction(ds, model, outlier, shift)
    moved = shift != 0

    # ------------------------------------------------------------------ headline
    now = cache.regression.headline(ds, model, weights, int(outlier) if moved else 0, float(shift))
    before = cache.regression.headline(ds, model, weights, 0, 0.0) if moved else now
    ci = (
        cache.regression.intervals(ds, model, weights, int(outlier) if moved else 0, float(shift))
        if classroom.intervals_on()
        else {}
    )
    parts.headline(now, reg.changes(now, before) if moved else None, ci)
    classroom.reveal_button()
    weight_note = {
        "dataset": "the dataset's `sample_weight` column",
        "uniform": "no weights (every sample counts 1), so it equals MAE",
        "recency": "recency weights w_i = 2i / (n + 1), row 1 the oldest (they average 1)",
    }[weights]
    st.caption(
        f"Model **{model}**, {n} samples"
        + (", weighted by the dataset's `sample_weight`" if w_data is not None else ", unweighted")
        + f". **Weighted MAE** uses {weight_note}. MAPE is a fraction (scikit-learn's), "
        "MAPE (%) the same number x 100 (the revision sheet's)."
        + (
            f" Sample **{ids[outlier]}**'s prediction is moved by {shift:+g} "
            f"({base_pred[outlier]:.4g} to {pred[outlier]:.4g}); the small numbers give each "
            "metric's change."
            if moved
            else ""
        )
    )

    # ------------------------------------------------------------------ per-sample errors
    base = cache.regression.base_errors(ds, model, reg.ROW_LIMIT + 1)
    worst_rows, residuals, log_undefined = reg.moved_errors(ds, base, int(outlier), pred)

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
    st.markdown(prose.section("regression", "outlier"))
    if moved and classroom.numbers_shown():
        mae_d, rmse_d, ratio = reg.outlier_effect(now, before)
        st.info(
            f"Moving sample {ids[outlier]} by {shift:+g}: MAE changed by {fmt(mae_d)}, "
            f"RMSE by {fmt(rmse_d)} "
            + (f"({ratio:.3g} times)." if ratio is not None else "(while MAE did not move).")
        )

    # ------------------------------------------------------------------ how it is computed
    parts.derivations(
        cache.regression.derivations(ds, model, weights, int(outlier) if moved else 0, float(shift))
    )
    parts.how_it_is_computed(ds, pred, weights)

    # ------------------------------------------------------------------ teaching notes
    st.subheader("Teaching notes")
    parts.mape_notes(ds, pred, base["zero"], now)
    parts.rmsle_notes(log_undefined, now)

    # ------------------------------------------------------------------ per-sample
    st.subheader("Per-sample errors, worst first")
    st.caption(
        prose.section("regression", "per_sample").format(
            model=model,
            moved=" (with the moved prediction)" if moved else "",
            shown=min(reg.ROW_LIMIT, n),
            n=n,
        )
    )
    parts.per_sample(reg.per_sample_table(ds, worst_rows))
    st.download_button(
        "Download the per-sample errors (CSV)",
        lambda: reg.per_sample_csv(ds, pred),  # built only when clicked
        file_name=f"{ds.name}_{model}_errors.csv",
        mime="text/csv",
        key="reg_download_errors",
    )

    # ------------------------------------------------------------------ all models
    if len(ds.model_names) > 1:
        st.subheader("All models")
        headlines = {
            name: now if name == model else cache.regression.headline(ds, name, weights, 0, 0.0)
            for name in ds.model_names
        }
        st.dataframe(reg.models_table(headlines), hide_index=True)
        st.caption(prose.section("regression", "all_models"))
