"""The teaching tabs of the ROC & PR curves page that do not follow the threshold: the
"Optimize for" settings and candidates, AUC four ways, the ROC curve point by point, log
loss and calibration, the DET curve. A setting here reruns the whole page (the
candidates it changes are drawn on the curves above).

Layout only: the numbers come from :mod:`explorer.pages.curves` and
:mod:`explorer.pages.curves_teach` through :mod:`explorer.ui.cache`, the texts from
views/curves/text.md."""

from __future__ import annotations

import streamlit as st

import metrics
from explorer.charts import curves_teach as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt, literal
from explorer.pages import curves, curves_teach
from explorer.pages.curves import MAX_ROWS
from explorer.ui import bound, cache, widgets
from explorer.ui.language import refusal
from explorer.ui.language import t as tr
from views import prose
from views.curves import controls
from views.curves.parts import csv, table, text

#: The tabs below the panel (key ``curves_teach_tab``).
TEACHING_TABS = (
    "Optimize for",
    "AUC four ways",
    "ROC point by point",
    "Log loss and calibration",
    "DET curve",
)


def teaching_tabs(ds: Dataset, model: str, cur: dict, log_loss: tuple, hi: float) -> None:
    """The tabs below the panel, one section each."""
    if log_loss[2]:  # said here, not only in its tab: it is why the panel's log loss is n/a
        st.warning(tr("Log loss and calibration need probabilities: ${why}", why=tr(log_loss[2])))
    # lazy: only the open tab is computed and drawn (AUC four ways sorts and pairs the
    # scores: a first load at 10^6 rows need not wait for it)
    tabs = bound.tabs(TEACHING_TABS, key="curves_teach_tab", param="tab")  # a link opens a tab
    if tabs[0].open:
        with tabs[0]:
            optimize_tab(ds, model, hi)
    if tabs[1].open:
        with tabs[1]:
            four_ways(ds, model, cur["auc"])
            st.subheader(tr("Average precision versus the area under the PR curve"))
            cols = st.columns(3)
            widgets.metric(cols[0], tr("AP (step sum)"), fmt(cur["ap"]))
            widgets.metric(cols[1], tr("PR area (trapezoids)"), fmt(cur["pr_trapezoid"]))
            st.markdown(prose.section("curves", "ap_vs_pr_area"))
    if tabs[2].open:
        with tabs[2]:
            point_by_point(ds, model)
    if tabs[3].open:
        with tabs[3]:
            calibration(ds, model, log_loss)
    if tabs[4].open:
        with tabs[4]:
            widgets.plotly_chart(
                st, charts.det_figure(cache.curves.det(ds, model)), key="curves_det_chart"
            )
            st.markdown(prose.section("curves", "det"))


def optimize_tab(ds: Dataset, model: str, hi: float) -> None:
    """The goal and its settings (URL-bound), the button that moves the threshold to the
    goal's best one, and the table of candidates."""
    where = st.columns([2.2, 1, 1, 1, 1])
    goal, goals = controls.goals(where)
    beta = float(st.session_state["curves_beta"])
    optima = cache.curves.optima(ds, model, beta, *goals)
    label, target = curves.optimum_move(
        optima.loc[goal, "threshold"], goal, hi, float(ds.score(model).max())
    )
    where[0].button(
        tr(label),
        key="curves_apply_optimum",
        on_click=controls.set_threshold,
        args=(target,),
        type="primary",
        disabled=target is None,
    )
    candidates = curves.candidates_table(optima)
    widgets.table(
        candidates.assign(criterion=candidates["criterion"].map(tr)),
        missing=tr("no threshold meets this constraint"),
        hide_index=True,
        width="stretch",
        key="curves_optima_table",
    )
    st.caption(text("candidates", beta=beta, cost_fp=goals[0], cost_fn=goals[1]))
    st.download_button(
        tr("Download the candidates (CSV)"),
        csv(candidates),
        "candidates.csv",
        key="curves_dl_optima",
    )


def four_ways(ds: Dataset, model: str, roc_auc: float) -> None:
    """AUC four ways: the four numbers and Gini, then one tab a way (its formula, its
    table or figure); the histogram tab holds the bins (URL-bound)."""
    st.subheader(tr("AUC four ways"))
    try:
        four = cache.curves.four_ways(ds, model, controls.seeded_bins())
    except metrics.MetricInputError as exc:
        st.error(literal(refusal(exc)))
        return
    cols = st.columns(5)
    widgets.metric(cols[0], tr("AUC: trapezoids"), fmt(four["trapezoid"]))
    widgets.metric(cols[1], tr("AUC: all pairs"), fmt(four["pairwise"]))
    widgets.metric(cols[2], tr("AUC: rank sum"), fmt(four["rank"]))
    widgets.metric(
        cols[3],
        tr("AUC: histogram"),
        fmt(four["histogram"]) if not four["histogram_message"] else "n/a",
        delta=None
        if four["histogram_message"]
        else tr("error ${e:+.2e}", e=four["histogram_error"]),
        delta_color="off",
        delta_arrow="off",
    )
    widgets.metric(cols[4], "Gini", fmt(four["gini"]), help="Gini = 2 AUC - 1")
    if ds.sample_weight is not None:
        st.info(text("weighted_four_ways", auc=roc_auc, exact=four["exact"]))
    tab_trap, tab_pairs, tab_rank, tab_hist = st.tabs(
        [tr("Trapezoids"), tr("All pairs"), tr("Rank sum (Mann-Whitney)"), tr("Histogram (O(n))")]
    )
    with tab_trap:
        st.latex(text("formula_trapezoids", **four))
        st.markdown(prose.section("curves", "trapezoids"))
    with tab_pairs:
        all_pairs(ds, model, four)
    with tab_rank:
        rank_sum(ds, model)
    with tab_hist:
        histogram(ds, model, four)


def all_pairs(ds: Dataset, model: str, four: dict) -> None:
    """AUC as the share of positive/negative pairs ranked right: the grid and the table
    of the pairs (every one, or a uniform sample)."""
    pairs = cache.curves.pairs(ds, model)
    if pairs["full"]:
        st.latex(text("formula_pairs", **pairs, **four))
        widgets.plotly_chart(st, charts.pairs_grid_figure(pairs["table"]), key="curves_pairs_chart")
        st.caption(text("pairs", **pairs))
    else:
        st.latex(text("formula_pairs_sampled", **four))
        st.caption(text("pairs_sampled", **pairs, n_sample=curves_teach.PAIR_SAMPLE))
    table(
        pairs["table"].head(MAX_ROWS),
        "curves_pairs_table",
        (tr("Download the pairs (CSV)"), csv(pairs["table"]), "pairs.csv", "curves_dl_pairs"),
    )


def rank_sum(ds: Dataset, model: str) -> None:
    """AUC from the positives' rank sum (Mann-Whitney), with the table of mid-ranks."""
    ranks, n_ranks = cache.curves.rank_head(ds, model)
    st.latex(text("formula_rank_sum", **ranks.attrs, n_pos_plus_1=ranks.attrs["n_pos"] + 1))
    st.caption(
        prose.section("curves", "ranks")
        + (
            tr(" Showing the ${rows} lowest of ${n:,} rows.", rows=MAX_ROWS, n=n_ranks)
            if n_ranks > MAX_ROWS
            else ""
        )
    )
    download = (
        tr("Download the ranks (CSV)"),
        csv(curves_teach.rank_table, ds, model),
        "ranks.csv",
    )
    table(ranks, "curves_rank_table", (*download, "curves_dl_ranks"))


def histogram(ds: Dataset, model: str, four: dict) -> None:
    """AUC from a histogram of the scores (O(n)): the bins (URL-bound) and the figure."""
    n_bins = controls.bins()
    if four["histogram_message"]:
        st.warning(tr(four["histogram_message"]))
    else:
        st.markdown(text("histogram", n_bins=n_bins, **four))
        widgets.plotly_chart(
            st, cache.curves.histogram_figure(ds, model, int(n_bins)), key="curves_hist_chart"
        )


def point_by_point(ds: Dataset, model: str) -> None:
    """The ROC curve one threshold a row (the scikit-learn roc_curve example on the
    six-sample dataset), drop_intermediate URL-bound."""
    drop = controls.drop()
    steps, n_steps = cache.curves.threshold_head(ds, model, drop)
    example = ds.name == "seed002_roc6"
    st.markdown(
        prose.section("curves", "steps")
        + (" " + prose.section("curves", "steps_seed002") if example else "")
    )
    st.caption(
        tr("${n:,} thresholds (the first, +inf, predicts nothing positive).", n=n_steps)
        + (
            tr(" Showing the first ${rows}; the CSV has all.", rows=MAX_ROWS)
            if n_steps > MAX_ROWS
            else ""
        )
    )
    counts = cache.curves.counts(ds, model)
    download = (
        tr("Download the threshold table (CSV)"),
        csv(curves_teach.threshold_table, ds, model, drop, counts),
        "roc_points.csv",
    )
    table(steps, "curves_steps_table", (*download, "curves_dl_steps"), width="stretch")


def calibration(ds: Dataset, model: str, log_loss: tuple) -> None:
    """Log loss with its live numbers, and the reliability diagram (bins URL-bound)."""
    ll, ll_sum, ll_error = log_loss
    if ll_error:
        st.caption(tr("See the note above the tabs."))
        return
    weighted = ds.sample_weight is not None
    n = float(ds.n_samples if not weighted else ds.sample_weight.sum())
    st.latex(text("formula_log_loss", total=ll_sum, n=n, mean=ll))
    st.caption(
        prose.section("curves", "log_loss")
        + (" " + prose.section("curves", "log_loss_weighted") if weighted else "")
    )
    brier = cache.curves.brier(ds, model)
    if brier is not None:
        widgets.metric(st, tr("Brier score"), fmt(brier))
        st.markdown(text("brier", brier=brier))
    c_cal, c_tab = st.columns([1.1, 1])
    with c_tab:
        cal_bins = controls.calibration_bins(st)
        cal = cache.curves.calibration(ds, model, cal_bins)
        download = (tr("Download the bins (CSV)"), csv(cal), "calibration.csv", "curves_dl_cal")
        table(cal, "curves_calib_table", download, missing=tr("no sample falls in this bin"))
    with c_cal:
        widgets.plotly_chart(
            st, cache.curves.calibration_figure(ds, model, cal_bins), key="curves_calib_chart"
        )
        st.caption(prose.section("curves", "calibration"))
