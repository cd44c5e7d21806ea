"""The Regression page's panel, one st.fragment: the controls and all they change.

Moving the outlier's prediction reruns this panel only: the title, the dataset line
and the sidebar are not run or drawn again.
"""

from __future__ import annotations

import streamlit as st

from explorer.pages import regression
from explorer.ui import cache, classroom
from explorer.ui.language import t
from views.regression import controls, derivation, headline, pictures, tables, teach


@st.fragment
def panel(ds) -> None:
    """The headline, both pictures, RMSE against MAE, how it is computed, the teaching
    notes, the per-sample errors and every model's headline."""
    classroom.track_view()  # a move here hides revealed numbers again
    settings = controls.show(ds)
    pred = regression.moved_prediction(ds, settings.model, settings.outlier, settings.shift)
    now, before = headline.show(ds, settings, pred)
    base = cache.regression.base_errors(ds, settings.model, regression.ROW_LIMIT + 1)
    worst_rows, residuals, log_undefined = regression.moved_errors(ds, base, settings.outlier, pred)
    pictures.show(ds, settings, pred, residuals)
    teach.outlier(ds, settings, now, before)
    derivation.show(ds, settings, pred)
    st.subheader(t("Teaching notes"))
    teach.mape(ds, pred, base["zero"], now)
    teach.rmsle(log_undefined, now)
    teach.rmsle_asymmetry()
    tables.per_sample(ds, settings, pred, worst_rows)
    if not classroom.held_back(t("Every model's headline numbers")):
        tables.all_models(ds, settings, now)
