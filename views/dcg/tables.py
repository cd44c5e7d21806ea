"""The DCG & NDCG page's per-sample section (views/dcg/panel.py): the distribution of
the per-sample DCG and NDCG and the table, worst first, a page of rows at a time.

Layout only: the numbers come from :mod:`explorer.pages.dcg` through
:mod:`explorer.ui.cache`."""

from __future__ import annotations

import streamlit as st

from explorer import downloads
from explorer.ui import bound, cache, language, widgets
from explorer.ui.language import t


def per_sample(ds, table, head, settings, title: str) -> None:
    """The per-sample DCG and NDCG: their distribution and the table, worst first, a page
    of rows at a time (a click on a row opens that sample above), and the CSV of all.
    Drawn in the panel's tab Every sample (views/dcg/panel.py)."""
    st.subheader(t("Per sample, worst first"))
    widgets.plotly_chart(
        st,
        cache.dcg.distribution_figure(ds, settings, title, language.current()),
        key="dcg_distribution",
    )
    empty = head.no_relevant  # the page's warning above the tabs names them
    worst_rows = cache.dcg.worst_first(ds, settings)
    start = bound.window(st, len(worst_rows), key="dcg_per_sample_start")
    shown = worst_rows.iloc[start : start + bound.PAGE_ROWS]
    st.session_state["dcg_shown_rows"] = shown["row"].tolist()
    st.caption(
        t("${n} samples, sorted by NDCG then DCG, lowest first", n=len(table))
        + (
            t(" (samples with no relevant item last: their 0 is not the model's fault)")
            if empty
            else ""
        )
        + (
            t(
                "; rows ${first} to ${last} are shown, the CSV has all ${n}",
                first=start,
                last=start + len(shown) - 1,
                n=len(table),
            )
            if len(table) > bound.PAGE_ROWS
            else ""
        )
        + t(". Click a row to open that sample above.")
    )
    widgets.dataframe(
        st,
        shown.drop(columns="row"),
        hide_index=True,
        key="dcg_per_sample_pick",
        on_select=on_pick_row,
        keyboard='the "sample" box',
        selection_mode="single-row",
        column_config={
            c: st.column_config.NumberColumn(t(c))
            for c in ("DCG", "ideal DCG", "NDCG", "pessimistic DCG", "optimistic DCG")
        },
    )
    st.download_button(
        t("Download per-sample DCG and NDCG (CSV)"),
        lambda: downloads.csv_text(worst_rows.drop(columns="row")),  # built on click only
        file_name=f"dcg_per_sample_{ds.name}_{settings.model}.csv",
        mime="text/csv",
        key="dcg_dl_per_sample",
    )


def on_pick_row() -> None:
    """Row click in the per-sample table: open that sample in "how it is computed"."""
    rows = st.session_state["dcg_per_sample_pick"]["selection"]["rows"]
    shown = st.session_state.get("dcg_shown_rows", [])
    if rows and rows[0] < len(shown):
        st.session_state["dcg_sample"] = shown[rows[0]]
