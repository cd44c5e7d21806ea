"""The Regression page's teaching notes: RMSE against MAE under an outlier, MAPE as a
fraction or a percent and at y = 0, RMSLE's right formula, its refusal of values at or
below -1 and its asymmetry (a demo with its own two inputs)."""

from __future__ import annotations

import numpy as np
import streamlit as st

from explorer.charts import regression as charts
from explorer.formatting import fmt, literal
from explorer.pages import regression
from explorer.ui import classroom, language, widgets
from explorer.ui.language import t
from metrics import MAPE_EPSILON
from views import prose
from views.regression import controls
from views.regression.controls import Settings
from views.regression.headline import UNDEFINED


def outlier(ds, settings: Settings, now: dict, before: dict) -> None:
    """What moving one prediction did to MAE and to RMSE."""
    st.subheader(t("RMSE against MAE under an outlier"))
    st.markdown(prose.section("regression", "outlier"))
    if settings.moved and classroom.numbers_shown():
        mae_d, rmse_d, ratio = regression.outlier_effect(now, before)
        fields = {
            "sample": literal(ds.sample_ids[settings.outlier]),
            "shift": f"{settings.shift:+g}",
            "mae": fmt(mae_d),
            "rmse": fmt(rmse_d),
        }
        if ratio is not None:
            template = (
                "Moving sample ${sample} by ${shift}: MAE changed by ${mae}, RMSE by ${rmse} "
                "(${ratio} times)."
            )
            fields["ratio"] = f"{ratio:.3g}"
        else:
            template = (
                "Moving sample ${sample} by ${shift}: MAE changed by ${mae}, RMSE by ${rmse} "
                "(while MAE did not move)."
            )
        st.info(t(template, **fields))


def _two_formulas(left: str, left_latex: str, right: str, right_latex: str) -> None:
    """Two formulas side by side, each under its caption."""
    f1, f2 = st.columns(2)
    with f1:
        st.caption(t(left))
        st.latex(left_latex)
    with f2:
        st.caption(t(right))
        st.latex(right_latex)


def mape(ds, pred: np.ndarray, zero_rows: np.ndarray, now: dict) -> None:
    """MAPE as a fraction or a percent, and what the rows with y = 0 do to it."""
    st.markdown(t("**MAPE: a fraction or a percent, and what happens where y = 0**"))
    _two_formulas(
        "Revision sheet: in percent, undefined where y = 0",
        r"\mathrm{MAPE} = \frac{100}{N}\sum_{i=1}^{N}\left|\frac{y_i-p_i}{y_i}\right|,"
        r"\quad y_i \neq 0",
        "scikit-learn (and this page's MAPE): a fraction, never fails",
        r"\mathrm{MAPE} = \frac{1}{N}\sum_{i=1}^{N}\frac{|y_i-\hat y_i|}{\max(|y_i|,\ \epsilon)}",
    )
    st.markdown(prose.fill("regression", "mape", eps=MAPE_EPSILON))
    if not zero_rows.size:
        st.caption(t("No y = 0 in this dataset, so MAPE stays finite and meaningful here."))
        return
    if classroom.derivations_hidden():  # the note gives MAPE's value
        return
    flagged = [ds.sample_ids[i] for i in zero_rows]
    st.warning(
        prose.fill(
            "regression",
            "mape_zero",
            count=len(flagged),
            ids=literal(", ".join(flagged[:10])) + (" ..." if len(flagged) > 10 else ""),
            mape=now["MAPE"][0],
        )
    )
    rest = regression.mape_without_zeros(ds, pred, zero_rows)
    if rest is not None:
        widgets.metric(st, t("MAPE without the y = 0 rows"), fmt(rest))


def rmsle(log_undefined: np.ndarray, now: dict) -> None:
    """RMSLE's right formula and the revision sheet's slip, and values at or below -1."""
    st.markdown(t("**RMSLE: the right formula, the revision sheet's slip, values at or below -1**"))
    _two_formulas(
        "Right (scikit-learn's, with weights 1)",
        r"\sqrt{\frac{1}{N}\sum_{i=1}^{N}\big(\log(y_i+1)-\log(p_i+1)\big)^{2}}",
        "Revision sheet, as printed: the square is missing",
        r"\sqrt{\frac{1}{N}\sum_{i=1}^{N}\big(\log(y_i+1)-\log(p_i+1)\big)}",
    )
    st.markdown(prose.section("regression", "rmsle"))
    if log_undefined.any():
        st.error(
            t(
                "RMSLE is undefined for this data: ${n} sample(s) have y or y_hat at or below -1 "
                "(flagged in the per-sample table below). ",
                n=int(log_undefined.sum()),
            )
            + (now["RMSLE"][1] or "")
        )
    else:
        st.caption(t("Here every y and y_hat is above -1, so RMSLE is defined."))


def rmsle_asymmetry() -> None:
    """The demo of RMSLE's asymmetry: one true value predicted too low and too high."""
    st.markdown(t("**RMSLE punishes under-prediction more** (the revision sheet's hotel price)"))
    y, gap = controls.rmsle_demo()
    demo = regression.rmsle_demo(y, gap)
    low, high = demo["low"], demo["high"]
    m1, m2, m3 = st.columns(3)
    under = t(UNDEFINED) if demo["under"] is None else fmt(demo["under"])
    over = t(UNDEFINED) if demo["over"] is None else fmt(demo["over"])
    widgets.metric(m1, t("RMSLE, predicting ${p}", p=f"{low:g}"), under)
    widgets.metric(m2, t("RMSLE, predicting ${p}", p=f"{high:g}"), over)
    widgets.metric(m3, t("RMSE, either way"), fmt(demo["rmse"]))
    if demo["under_err"] is not None:
        st.warning(
            t("Predicting ${p} leaves RMSLE undefined: ${err}", p=f"{low:g}", err=demo["under_err"])
        )
    elif y > 0:
        st.caption(prose.fill("regression", "rmsle_asymmetry", y=y, gap=gap, low=low, high=high))
        grid, rmsle_values, pct = demo["curve"]
        widgets.plotly_chart(
            st,
            charts.rmsle_asymmetry(
                grid, rmsle_values, pct, y_true=y, marks=(low, high), lang=language.current()
            ),
            key="reg_rmsle_curve",
        )
