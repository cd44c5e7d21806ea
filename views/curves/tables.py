"""The per-sample tables of the ROC & PR curves page: the samples of one
confusion-matrix cell (picked on a clickable heatmap) and every sample, worst log-loss
term first. Long tables are paged (URL-bound), their CSV holds every row.

Layout only: the numbers come from :mod:`explorer.pages.curves_samples`."""

from __future__ import annotations

import streamlit as st

from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.pages import curves, curves_samples
from explorer.pages.curves import MAX_ROWS
from explorer.ui import bound, widgets
from explorer.ui.language import t as tr
from views.curves import controls
from views.curves.parts import csv, table


def row_columns() -> dict:
    """Per-sample tables: log-loss terms span 1e-16 to ~37, so 4 significant digits."""
    return {
        "log_loss_term": st.column_config.NumberColumn(
            "log_loss_term",
            format="%.4g",
            help=tr("-log of the probability given to the true class"),
        )
    }


def shown(rows: slice, n: int) -> str:
    """The caption's note of the rows a paged table shows."""
    if n <= MAX_ROWS:
        return ""
    return tr(
        " Showing rows ${first:,} to ${last:,}; the CSV has all.",
        first=rows.start + 1,
        last=min(rows.stop, n),
    )


def cell_list(ds: Dataset, samples: dict, t: float, rates: dict) -> None:
    """The confusion matrix as a clickable heatmap, and the samples of the cell picked."""
    norm = st.session_state.get("curves_cm_normalize", "true")
    cm_counts, cm_rates, _ = curves.confusion(rates, norm)
    c_cm, c_list = st.columns([1, 1.6])
    with c_cm:
        widgets.plotly_chart(
            st,
            charts.confusion_figure(cm_counts, cm_rates, norm),
            key="curves_cm_chart",
            on_select=controls.on_cell_click,
            keyboard='the "List the samples of one cell" box',
            selection_mode="points",
        )
        st.caption(tr("Click a cell to list its samples."))
    with c_list:
        cell = bound.selectbox(
            st,
            tr("List the samples of one cell"),
            curves.CELLS,
            key="curves_cm_cell",
            param=None,
            default="TP",
            format_func={k: tr(v) for k, v in charts.OUTCOME_NAMES.items()}.__getitem__,
        )
        in_cell = curves_samples.cell_samples(samples, cell, t)
        rows = controls.pager("curves_cell_page", "cpage", len(in_cell))
        st.caption(
            tr(
                "${n:,} samples are ${cell} at threshold ${t:.4g}, highest score first.",
                n=len(in_cell),
                cell=cell,
                t=t,
            )
            + shown(rows, len(in_cell))
        )
        download = (
            tr("Download the ${cell} samples (CSV)", cell=cell),
            csv(curves_samples.sample_rows, ds, samples, in_cell, t),
        )
        table(
            curves_samples.sample_rows(ds, samples, in_cell[rows], t),
            "curves_cell_table",
            (*download, f"{cell}.csv", "curves_dl_cell"),
            width="stretch",
            column_config=row_columns(),
        )


def every_sample(ds: Dataset, model: str, samples: dict, t: float) -> None:
    """Every sample at the threshold, worst log-loss term first (paged)."""
    worst = samples["worst"]
    rows = controls.pager("curves_sample_page", "spage", len(worst))
    st.caption(
        tr(
            "${n:,} samples, worst log-loss term first (click a column header to sort).",
            n=len(worst),
        )
        + shown(rows, len(worst))
    )
    download = (
        tr("Download every sample (CSV)"),
        csv(curves_samples.sample_rows, ds, samples, worst, t),
    )
    table(
        curves_samples.sample_rows(ds, samples, worst[rows], t),
        "curves_sample_table",
        (*download, f"{ds.name}_{model}_samples.csv", "curves_dl_samples"),
        width="stretch",
        column_config=row_columns(),
    )
