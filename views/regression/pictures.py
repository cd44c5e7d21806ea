"""The Regression page's two pictures: predicted against actual, and the residuals."""

from __future__ import annotations

import numpy as np
import streamlit as st

from explorer.charts import regression as charts
from explorer.ui import language, widgets
from explorer.ui.language import t
from views.regression.controls import Settings


def show(ds, settings: Settings, pred: np.ndarray, residuals: np.ndarray) -> None:
    """The scatter of the moved prediction ``pred`` (the outlier marked, with its
    unmoved place) beside the histogram of its ``residuals``."""
    i, lang = settings.outlier, language.current()
    left, right = st.columns(2)
    with left:
        st.markdown(t("**Predicted against actual**: on the dashed line a prediction is perfect."))
        widgets.plotly_chart(
            st,
            charts.predicted_vs_actual(
                ds.y_true,
                pred,
                ids=ds.sample_ids,
                highlight=int(i),
                original=float(ds.score(settings.model)[i]),
                model=settings.model,
                lang=lang,
            ),
            key="reg_scatter",
        )
    with right:
        st.markdown(t("**Residuals** y - y_hat: MAE averages their size, RMSE their squares."))
        widgets.plotly_chart(
            st,
            charts.residual_histogram(residuals, highlight=float(residuals[i]), lang=lang),
            key="reg_residuals",
        )
