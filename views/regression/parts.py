"""Layout helpers of the Regression page (views/regression.py).

Each draws one part of the page from the results of :mod:`explorer.pages.regression`;
no computation here.
"""

import streamlit as st

from explorer.charts import regression as charts
from explorer.formatting import fmt
from explorer.links import float_text
from explorer.pages import regression as reg
from explorer.pages._parse import finite_float
from explorer.ui import classroom, url
from metrics import MAPE_EPSILON
from views import prose

UNDEFINED = "undefined"
EXPLAIN = list(reg.STEP_KEY)


def seed(key: str, param: str, default, parse, valid) -> None:
    """bind_param, then fall back to ``default`` when the value (from the URL or left
    in session state) is not allowed; a ``valid`` that raises refuses the value."""

    def check(value):
        if not valid(value):
            raise ValueError(value)
        return value

    url.bind_param(key, param, default, parse, check)


def headline(now: dict, changes: dict | None, intervals: dict) -> None:
    """The eight headline numbers, with their change when a prediction is moved (and
    their ``intervals``, by label, when on), and a warning for each metric that is
    undefined."""
    errors_shown = set()
    for row in (list(reg.HEADLINE)[:4], list(reg.HEADLINE)[4:]):
        cols = st.columns(4)
        for col, label in zip(cols, row, strict=True):
            value, err = now[label]
            change = None if changes is None else changes[label]
            classroom.headline(
                col,
                label,
                UNDEFINED if value is None else fmt(value),
                interval=None if value is None else intervals.get(label),
                delta=None if change is None else ("0" if change == 0 else fmt(change)),
                delta_color="normal" if label in reg.HIGHER_IS_BETTER else "inverse",
            )
            if err is not None and err not in errors_shown:
                errors_shown.add(err)
                st.warning(f"{label} is undefined here: {err}")


def derivations(lines: dict) -> None:
    """Every headline number derived from the samples (explorer.pages.regression_derivation):
    each metric's steps, the last ending in the headline's digits."""
    with st.expander("Every headline number, derived from the samples", expanded=True):
        if classroom.derivations_hidden():
            return
        st.markdown(prose.section("regression", "derivations"))
        for line in lines.values():
            for latex in line.latex:
                st.latex(latex)
            if line.note:
                st.caption(f"{line.name}: {line.note}.")


def how_it_is_computed(ds, pred, weights: str) -> None:
    """The metric picker, its formula with the live sums, and its step table."""
    st.subheader("How it is computed")
    seed("reg_explain", "explain", "RMSE", str, lambda v: v in EXPLAIN)
    explain = st.selectbox("Metric to explain", EXPLAIN, key="reg_explain")
    url.write_param("explain", explain)
    if classroom.derivations_hidden():  # its formula and step table end in the headline
        return
    steps, err = reg.steps(ds, pred, explain, weights)
    if err is not None:
        st.error(err)
        return
    v = reg.step_values(steps)
    W, S = fmt(v["W"]), fmt(v.get("S", 0.0))
    sums = r"\sum_i w_i"
    if explain in ("MAE", "Weighted MAE"):
        st.latex(
            rf"\mathrm{{{'WMAE' if explain != 'MAE' else 'MAE'}}} = "
            rf"\frac{{\sum_i w_i\,|y_i-\hat y_i|}}{{{sums}}} = \frac{{{S}}}{{{W}}} = "
            rf"{fmt(v['MAE'])}"
        )
        if explain == "Weighted MAE":
            st.markdown(prose.section("regression", "wmae_seed"))
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
            rf"{fmt(v['MAPE'])} = {fmt(v['MAPE %'])}\,\%"
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
    st.caption(prose.section("regression", "steps"))


def _two_formulas(left: str, left_latex: str, right: str, right_latex: str) -> None:
    """Two formulas side by side, each under its caption."""
    f1, f2 = st.columns(2)
    with f1:
        st.caption(left)
        st.latex(left_latex)
    with f2:
        st.caption(right)
        st.latex(right_latex)


def mape_notes(ds, pred, zero_rows, now: dict) -> None:
    """MAPE as a fraction or a percent, and what the rows with y = 0 do to it."""
    st.markdown("**MAPE: a fraction or a percent, and what happens where y = 0**")
    _two_formulas(
        "Revision sheet: in percent, undefined where y = 0",
        r"\mathrm{MAPE} = \frac{100}{N}\sum_{i=1}^{N}\left|\frac{y_i-p_i}{y_i}\right|,"
        r"\quad y_i \neq 0",
        "scikit-learn (and this page's MAPE): a fraction, never fails",
        r"\mathrm{MAPE} = \frac{1}{N}\sum_{i=1}^{N}\frac{|y_i-\hat y_i|}{\max(|y_i|,\ \epsilon)}",
    )
    st.markdown(prose.section("regression", "mape").format(eps=MAPE_EPSILON))
    if not zero_rows.size:
        st.caption("No y = 0 in this dataset, so MAPE stays finite and meaningful here.")
        return
    if classroom.derivations_hidden():  # the note gives MAPE's value
        return
    flagged = [ds.sample_ids[i] for i in zero_rows]
    st.warning(
        prose.section("regression", "mape_zero").format(
            count=len(flagged),
            ids=", ".join(flagged[:10]) + (" ..." if len(flagged) > 10 else ""),
            mape=now["MAPE"][0],
        )
    )
    rest = reg.mape_without_zeros(ds, pred, zero_rows)
    if rest is not None:
        st.metric("MAPE without the y = 0 rows", fmt(rest))


def rmsle_notes(log_undefined, now: dict) -> None:
    """RMSLE's right formula and seed 002's slip, values at or below -1, and the demo of
    its asymmetry (its own two inputs)."""
    st.markdown("**RMSLE: the right formula, the revision sheet's slip, values at or below -1**")
    _two_formulas(
        "Right (scikit-learn's, with weights 1)",
        r"\sqrt{\frac{1}{N}\sum_{i=1}^{N}\big(\log(y_i+1)-\log(p_i+1)\big)^{2}}",
        "Revision sheet, as printed: the square is missing",
        r"\sqrt{\frac{1}{N}\sum_{i=1}^{N}\big(\log(y_i+1)-\log(p_i+1)\big)}",
    )
    st.markdown(prose.section("regression", "rmsle"))
    if log_undefined.any():
        st.error(
            f"RMSLE is undefined for this data: {int(log_undefined.sum())} sample(s) have y "
            "or y_hat at or below -1 (flagged in the per-sample table below). "
            + (now["RMSLE"][1] or "")
        )
    else:
        st.caption("Here every y and y_hat is above -1, so RMSLE is defined.")

    st.markdown("**RMSLE punishes under-prediction more** (the revision sheet's hotel price)")
    seed("reg_rmsle_demo_true", "rt", 200.0, finite_float, lambda v: -0.99 <= float(v) <= 1e9)
    seed("reg_rmsle_demo_gap", "rg", 50.0, finite_float, lambda v: 0 <= float(v) <= 1e9)
    d1, d2 = st.columns(2)
    y = d1.number_input(
        "True value y", min_value=-0.99, max_value=1e9, step=10.0, key="reg_rmsle_demo_true"
    )
    gap = d2.number_input(
        "Predict this much too low and too high",
        min_value=0.0,
        max_value=1e9,
        step=10.0,
        key="reg_rmsle_demo_gap",
    )
    url.write_param("rt", float_text(y))
    url.write_param("rg", float_text(gap))
    demo = reg.rmsle_demo(y, gap)
    low, high = demo["low"], demo["high"]
    m1, m2, m3 = st.columns(3)
    m1.metric(
        f"RMSLE, predicting {low:g}", UNDEFINED if demo["under"] is None else fmt(demo["under"])
    )
    m2.metric(
        f"RMSLE, predicting {high:g}", UNDEFINED if demo["over"] is None else fmt(demo["over"])
    )
    m3.metric("RMSE, either way", fmt(demo["rmse"]))
    if demo["under_err"] is not None:
        st.warning(f"Predicting {low:g} leaves RMSLE undefined: {demo['under_err']}")
    elif y > 0:
        st.caption(
            prose.section("regression", "rmsle_asymmetry").format(y=y, gap=gap, low=low, high=high)
        )
        grid, rmsle, pct = demo["curve"]
        st.plotly_chart(
            charts.rmsle_asymmetry(grid, rmsle, pct, y_true=y, marks=(low, high)),
            key="reg_rmsle_curve",
        )


def per_sample(table) -> None:
    """The per-sample errors, with short column names and the two flags as checkboxes."""
    num = st.column_config.NumberColumn
    st.dataframe(
        table,
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
