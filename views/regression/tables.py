"""The Regression page's tables: the per-sample errors worst first (every row in the
CSV, written when the download is clicked), and every model's headline."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from explorer.pages import regression
from explorer.ui import cache, widgets
from explorer.ui.language import t
from views import prose
from views.regression.controls import Settings


def per_sample(ds, settings: Settings, pred: np.ndarray, worst_rows: pd.DataFrame) -> None:
    """The worst rows of the moved prediction ``pred`` and the CSV of every row."""
    st.subheader(t("Per-sample errors, worst first"))
    st.caption(
        prose.fill(
            "regression",
            "per_sample",
            model=settings.model,
            moved=t(" (with the moved prediction)") if settings.moved else "",
            shown=min(regression.ROW_LIMIT, ds.n_samples),
            n=ds.n_samples,
        )
    )
    num = st.column_config.NumberColumn
    widgets.dataframe(
        st,
        regression.per_sample_table(ds, worst_rows),
        hide_index=True,
        column_config={
            "y_true": num("y", format="%.5g"),
            "y_pred": num("ŷ", format="%.5g"),
            "residual": num(t("residual"), format="%.4g"),
            "absolute_error": num(t("abs error"), format="%.4g"),
            "squared_error": num(t("squared"), format="%.4g"),
            "percentage_error": num("pct", format="%.4g"),
            "percentage_error_pct": num("pct %", format="%.4g"),
            "log_error": num(t("log error"), format="%.4g"),
            "squared_log_error": num(t("sq. log error"), format="%.4g"),
            "y_true_zero": st.column_config.CheckboxColumn("y = 0"),
            "log_undefined": st.column_config.CheckboxColumn("<= -1"),
        },
    )
    st.download_button(
        t("Download the per-sample errors (CSV)"),
        lambda: regression.per_sample_csv(ds, pred),  # built only when clicked
        file_name=f"{ds.name}_{settings.model}_errors.csv",
        mime="text/csv",
        key="reg_download_errors",
    )


def all_models(ds, settings: Settings, now: dict) -> None:
    """Every model's headline (the moved prediction applies to the selected one only)."""
    if len(ds.model_names) <= 1:
        return
    st.subheader(t("All models"))
    headlines = {
        name: now
        if name == settings.model
        else cache.regression.headline(ds, name, settings.weights, 0, 0.0)
        for name in ds.model_names
    }
    table = regression.models_table(headlines)
    widgets.dataframe(st, table, hide_index=True, column_config=widgets.worded(table.columns))
    st.caption(prose.section("regression", "all_models"))
