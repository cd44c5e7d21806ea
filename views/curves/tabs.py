"""The tabs of the ROC & PR curves page (views/curves.py) whose numbers follow the
threshold, drawn inside the panel's fragment (:mod:`views.curves_panel`): the formulas
with live numbers, the samples of a confusion-matrix cell, the samples along the score
axis, every sample. Only the open tab is drawn; long tables are paged (URL-bound), their
CSV holds every row.

Layout only: the numbers come from :mod:`explorer.pages.curves` through
:mod:`explorer.ui.cache`, the texts from views/curves/text.md."""

from __future__ import annotations

import streamlit as st

from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import curves as page
from explorer.pages.curves import MAX_ROWS
from explorer.ui import bound, cache, classroom, url
from views import prose
from views.curves import derivation, parts
from views.curves.parts import csv, table, text

#: Per-sample tables: log-loss terms span 1e-16 to ~37, so 4 significant digits.
ROW_COLUMNS = {
    "log_loss_term": st.column_config.NumberColumn(
        "log_loss_term", format="%.4g", help="-log of the probability given to the true class"
    )
}
#: The tabs below the panel whose numbers follow the threshold (key ``curves_t_tab``).
THRESHOLD_TABS = (
    "Formulas at the threshold",
    "Derivations of every headline",
    "Samples of a cell",
    "Along the score axis",
    "Every sample",
)


def pager(key: str, param: str, n: int) -> slice:
    """A box picking a page of :data:`~explorer.pages.curves.MAX_ROWS` rows of ``n``
    (URL-bound; drawn only when there is more than one page); the rows' slice."""
    pages = max(1, -(-n // MAX_ROWS))
    if pages == 1:
        return slice(0, MAX_ROWS)
    parts.number(key, param, 1, 1, pages)
    number = st.number_input(
        f"Page of {MAX_ROWS} rows (1 to {pages:,})", min_value=1, max_value=pages, step=1, key=key
    )
    url.write_param(param, number)
    return slice((number - 1) * MAX_ROWS, number * MAX_ROWS)


def shown(rows: slice, n: int) -> str:
    """The caption's note of the rows a paged table shows."""
    if n <= MAX_ROWS:
        return ""
    return f" Showing rows {rows.start + 1:,} to {min(rows.stop, n):,}; the CSV has all."


def threshold_tabs(ds: Dataset, model: str, t: float, beta: float, rates: dict) -> None:
    """The tabs whose numbers follow the threshold: the formulas, every headline
    derived from the samples, the samples of a cell, the samples along the score axis,
    every sample."""
    weighted = ds.sample_weight is not None
    # lazy: only the open tab is drawn (and redrawn on a threshold step)
    tabs = bound.tabs(THRESHOLD_TABS, key="curves_t_tab", param="ttab")  # a link opens a tab
    tab_formulas, tab_derive, tab_cell, tab_strip, tab_all = tabs
    hidden = classroom.derivations_hidden() if (tab_formulas.open or tab_derive.open) else False
    if tab_formulas.open and not hidden:
        with tab_formulas:
            c1, c2 = st.columns(2)
            with c1:
                for name in ("precision", "recall", "f1", "fpr"):
                    st.latex(text(f"formula_{name}", **rates))
            with c2:
                for name in ("fbeta", "accuracy", "error_rate"):
                    st.latex(text(f"formula_{name}", **rates))
                st.caption(
                    "N = TP + FP + FN + TN"
                    + (" (total sample_weight)." if weighted else " (samples).")
                )
            m1, m2 = st.columns(2)
            m1.metric("MCC", fmt(rates["mcc"]))
            m2.metric("Balanced accuracy", fmt(rates["balanced_accuracy"]))
            for name in ("mcc", "balanced_accuracy"):
                st.latex(text(f"formula_{name}", **rates))
            st.caption(text("cell_scores"))
    if tab_derive.open and not hidden:
        with tab_derive:
            derivation.show(ds, model, t, beta)
    # the per-sample orders (a sort of every sample) only for the tabs that list samples
    samples = (
        cache.curves.samples(ds, model)
        if (tab_cell.open or tab_strip.open or tab_all.open)
        else None
    )
    if tab_cell.open:
        with tab_cell:
            cell_list(ds, samples, t, rates)
    if tab_strip.open:
        with tab_strip:
            strip = cache.curves.strip_figure(ds, model, t, _samples=samples)
            st.plotly_chart(strip, key="curves_strip_chart")
            st.caption(
                prose.section("curves", "strip")
                if ds.n_samples <= page.STRIP_MARKERS
                else f"{ds.n_samples:,} samples are too many markers: stacked histograms per "
                "outcome."
            )
    if tab_all.open:
        with tab_all:
            worst = samples["worst"]
            rows = pager("curves_sample_page", "spage", len(worst))
            st.caption(
                f"{len(worst):,} samples, worst log-loss term first (click a column header to "
                "sort)." + shown(rows, len(worst))
            )
            download = (
                "Download every sample (CSV)",
                csv(page.sample_rows, ds, samples, worst, t),
            )
            table(
                page.sample_rows(ds, samples, worst[rows], t),
                "curves_sample_table",
                (*download, f"{ds.name}_{model}_samples.csv", "curves_dl_samples"),
                width="stretch",
                column_config=ROW_COLUMNS,
            )


def cell_list(ds: Dataset, samples: dict, t: float, rates: dict) -> None:
    """The confusion matrix as a clickable heatmap, and the samples of the cell picked."""
    norm = st.session_state.get("curves_cm_normalize", "true")
    cm_counts, cm_rates, _ = page.confusion(rates, norm)
    c_cm, c_list = st.columns([1, 1.6])
    with c_cm:
        st.plotly_chart(
            charts.confusion_figure(cm_counts, cm_rates, norm),
            key="curves_cm_chart",
            on_select=parts.on_cell_click,
            selection_mode="points",
        )
        st.caption("Click a cell to list its samples.")
    with c_list:
        url.bind_param("curves_cm_cell", None, "TP", check=url.member(page.CELLS))
        cell = st.selectbox(
            "List the samples of one cell",
            page.CELLS,
            format_func=charts.OUTCOME_NAMES.get,
            key="curves_cm_cell",
        )
        in_cell = page.cell_samples(samples, cell, t)
        rows = pager("curves_cell_page", "cpage", len(in_cell))
        st.caption(
            f"{len(in_cell):,} samples are {cell} at threshold {t:.4g}, highest score first."
            + shown(rows, len(in_cell))
        )
        download = (
            f"Download the {cell} samples (CSV)",
            csv(page.sample_rows, ds, samples, in_cell, t),
        )
        table(
            page.sample_rows(ds, samples, in_cell[rows], t),
            "curves_cell_table",
            (*download, f"{cell}.csv", "curves_dl_cell"),
            width="stretch",
            column_config=ROW_COLUMNS,
        )
