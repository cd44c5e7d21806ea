"""How the Regression page's numbers are computed: every headline derived from the
samples, then one metric's formula with the live sums and its step table.

Layout only: the lines come from :mod:`explorer.pages.regression_derivation` and the
steps from :mod:`explorer.pages.regression`.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from explorer.formatting import fmt
from explorer.pages import regression
from explorer.ui import cache, classroom, widgets
from explorer.ui.derivations import show as show_derivations
from explorer.ui.language import t
from views import prose
from views.regression import controls
from views.regression.controls import Settings

SUMS = r"\sum_i w_i"


def show(ds, settings: Settings, pred: np.ndarray) -> None:
    """The derivations of the headline, then "How it is computed"."""
    lines = cache.regression.derivations(ds, settings.model, settings.weights, *settings.move)
    derivations(lines)
    how_it_is_computed(ds, pred, settings.weights)


def derivations(lines: dict) -> None:
    """Every headline number derived from the samples (explorer.pages.regression_derivation):
    each metric's steps, the last ending in the headline's digits."""
    with st.expander(t("Every headline number, derived from the samples"), expanded=True):
        if classroom.derivations_hidden():
            return
        st.markdown(prose.section("regression", "derivations"))
        show_derivations(lines.values(), hidden_note=False)


def how_it_is_computed(ds, pred: np.ndarray, weights: str) -> None:
    """The metric picker, its formula with the live sums, and its step table."""
    st.subheader(t("How it is computed"))
    explain = controls.explain()
    if classroom.derivations_hidden():  # its formula and step table end in the headline
        return
    steps, err = regression.steps(ds, pred, explain, weights)
    if err is not None:
        st.error(err)
        return
    st.latex(formula(explain, regression.step_values(steps)))
    if explain == "Weighted MAE":
        st.markdown(prose.section("regression", "wmae_sheet"))
    widgets.dataframe(
        st,
        steps.assign(formula=steps["formula"].map(t)),
        hide_index=True,
        column_config=widgets.worded(
            steps.columns, {"value": st.column_config.NumberColumn(format="%.6g")}
        ),
    )
    st.caption(prose.section("regression", "steps"))


def formula(explain: str, v: dict) -> str:
    """The formula of the metric ``explain`` with its sums ``v`` (regression.step_values)."""
    W, S = fmt(v["W"]), fmt(v.get("S", 0.0))
    if explain in ("MAE", "Weighted MAE"):
        return (
            rf"\mathrm{{{'WMAE' if explain != 'MAE' else 'MAE'}}} = "
            rf"\frac{{\sum_i w_i\,|y_i-\hat y_i|}}{{{SUMS}}} = \frac{{{S}}}{{{W}}} = "
            rf"{fmt(v['MAE'])}"
        )
    if explain in ("MSE", "RMSE"):
        tail = rf"\frac{{{S}}}{{{W}}} = {fmt(v['MSE'])}"
        if explain == "RMSE":
            return (
                rf"\mathrm{{RMSE}} = \sqrt{{\frac{{\sum_i w_i (y_i-\hat y_i)^2}}{{{SUMS}}}}}"
                rf" = \sqrt{{{tail}}} = {fmt(v['RMSE'])}"
            )
        return rf"\mathrm{{MSE}} = \frac{{\sum_i w_i (y_i-\hat y_i)^2}}{{{SUMS}}} = {tail}"
    if explain == "MAPE":
        return (
            rf"\mathrm{{MAPE}} = \frac{{1}}{{{SUMS}}}\sum_i w_i"
            rf"\frac{{|y_i-\hat y_i|}}{{\max(|y_i|, \epsilon)}} = \frac{{{S}}}{{{W}}} = "
            rf"{fmt(v['MAPE'])} = {fmt(v['MAPE %'])}\,\%"
        )
    if explain == "RMSLE":
        return (
            rf"\mathrm{{RMSLE}} = \sqrt{{\frac{{\sum_i w_i (\log(1+y_i)-\log(1+\hat y_i))^2}}"
            rf"{{{SUMS}}}}} = \sqrt{{\frac{{{S}}}{{{W}}}}} = \sqrt{{{fmt(v['MSLE'])}}} = "
            rf"{fmt(v['RMSLE'])}"
        )
    return (
        rf"R^2 = 1 - \frac{{\sum_i w_i (y_i-\hat y_i)^2}}{{\sum_i w_i (y_i-\bar y)^2}}"
        rf" = 1 - \frac{{{fmt(v['SS_res'])}}}{{{fmt(v['SS_tot'])}}} = {fmt(v['R2'])}"
    )
