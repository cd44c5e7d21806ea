"""The tabs of the ROC & PR curves page whose numbers follow the threshold, drawn inside
the panel's fragment (:mod:`views.curves.panel`): the formulas with live numbers, every
headline derived from the samples, the samples of a confusion-matrix cell, the samples
along the score axis, every sample (:mod:`views.curves.tables`). Only the open tab is
drawn.

Layout only: the numbers come from :mod:`explorer.pages.curves` through
:mod:`explorer.ui.cache`, the texts from views/curves/text.md."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import curves_samples
from explorer.ui import bound, cache, classroom, widgets
from explorer.ui.language import t as tr
from views import prose
from views.curves import derivation, tables, workbench
from views.curves.parts import text

#: The tabs below the panel whose numbers follow the threshold (key ``curves_t_tab``).
#: Short labels: the row fits 853 CSS px (1280x720 at 150%) beside the sidebar.
THRESHOLD_TABS = (
    "Formulas",
    "Derivations",
    "Samples of a cell",
    "Along the score axis",
    "Every sample",
    "Charts",
)


def threshold_tabs(ds: Dataset, model: str, t: float, beta: float, rates: dict) -> None:
    """The tabs whose numbers follow the threshold: the formulas, every headline
    derived from the samples, the samples of a cell, the samples along the score axis,
    every sample, and the workbench's charts (:mod:`views.curves.workbench`)."""
    # lazy: only the open tab is drawn (and redrawn on a threshold step)
    _chart_link()
    tabs = bound.tabs(THRESHOLD_TABS, key="curves_t_tab", param="ttab")  # a link opens a tab
    tab_formulas, tab_derive, tab_cell, tab_strip, tab_all, tab_charts = tabs
    hidden = classroom.derivations_hidden() if (tab_formulas.open or tab_derive.open) else False
    if tab_formulas.open and not hidden:
        with tab_formulas:
            formulas(rates, ds.sample_weight is not None)
    if tab_derive.open and not hidden:
        with tab_derive:
            derivation.show(ds, model, t, beta)
    # the per-sample orders (a sort of every sample) only for the tabs that list samples
    if tab_cell.open or tab_strip.open or tab_all.open:
        samples = cache.curves.samples(ds, model)
    if tab_cell.open:
        with tab_cell:
            tables.cell_list(ds, samples, t, rates)
    if tab_strip.open:
        with tab_strip:
            strip(ds, model, t)
    if tab_all.open:
        with tab_all:
            tables.every_sample(ds, model, samples, t)
    if tab_charts.open:
        with tab_charts:
            workbench.charts_tab(ds, model, t)


def _chart_link() -> None:
    """A link from when each chart had its tab (``?ttab=ks``) opens the Charts tab on it."""
    old = st.query_params.get("ttab")
    if "curves_t_tab" not in st.session_state and old in workbench.CHART_IDS:
        st.query_params["chart"] = old
        st.query_params["ttab"] = "charts"


def formulas(rates: dict, weighted: bool) -> None:
    """Every rate's formula with the counts at the threshold plugged in."""
    c1, c2 = st.columns(2)
    with c1:
        for name in ("precision", "recall", "f1", "fpr"):
            st.latex(text(f"formula_{name}", **rates))
    with c2:
        for name in ("fbeta", "accuracy", "error_rate"):
            st.latex(text(f"formula_{name}", **rates))
        st.caption(
            "N = TP + FP + FN + TN"
            + (tr(" (total sample_weight).") if weighted else tr(" (samples)."))
        )
    m1, m2 = st.columns(2)
    widgets.metric(m1, "MCC", fmt(rates["mcc"]))
    widgets.metric(m2, tr("Balanced accuracy"), fmt(rates["balanced_accuracy"]))
    for name in ("mcc", "balanced_accuracy"):
        st.latex(text(f"formula_{name}", **rates))
    st.caption(text("cell_scores"))


def strip(ds: Dataset, model: str, t: float) -> None:
    """The samples along the score axis at the threshold."""
    widgets.plotly_chart(st, cache.curves.strip_figure(ds, model, t), key="curves_strip_chart")
    st.caption(
        prose.section("curves", "strip")
        if ds.n_samples <= curves_samples.STRIP_MARKERS
        else tr(
            "${n:,} samples are too many markers: stacked histograms per outcome.",
            n=ds.n_samples,
        )
    )
