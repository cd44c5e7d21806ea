"""Regression: MAE, weighted MAE, MSE, RMSE, MAPE, RMSLE and R² for one or more models.

Headline numbers, predicted against actual, how each metric is computed, the
per-sample errors worst first, and the teaching points: MAPE at y = 0, RMSLE's
refusal of values at or below -1 and its asymmetry, RMSE against MAE under an
outlier, and the revision sheet's slips.
"""

import streamlit as st

from explorer.ui import slice_filter, widgets
from explorer.ui.language import t
from views.regression import panel

st.title(t("Regression"))
widgets.scenarios("regression")
ds = slice_filter.active()
widgets.require_kind(ds, ("regression",), "diabetes")
slice_filter.note(ds)  # on how many samples, of which slice

widgets.models_caption(ds)
panel.panel(ds)
