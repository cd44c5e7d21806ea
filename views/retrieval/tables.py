"""The Top-K retrieval page's per-query table (views/retrieval/panel.py): every query,
worst first by the drill-down metric, a page of rows at a time, and the CSV of all.

Layout only: the rows come from :mod:`explorer.pages.retrieval`."""

from __future__ import annotations

import streamlit as st

from explorer import downloads
from explorer.pages import retrieval as page
from explorer.ui import url
from views.retrieval import headline

#: Rows of the per-query table shown at once (the CSV holds every row).
PAGE_ROWS = 200


def per_query(ds, table, worst, metric: str, empty: str) -> None:
    """The per-query ``table`` in the order ``worst`` (sorted by ``metric``), from a
    row the user picks, with the download of every row."""
    st.subheader("Per query, worst first", anchor=headline.TABLE_ANCHOR)
    n_rows = len(worst)
    start = 1
    if n_rows > PAGE_ROWS:
        url.bind_param("ret_rows_from", None, 1, check=url.int_in(1, n_rows, clamp=False))
        start = int(
            st.number_input(
                "Show rows from (1 = the worst query)",
                min_value=1,
                max_value=n_rows,
                step=PAGE_ROWS,
                key="ret_rows_from",
            )
        )
    stop = min(start - 1 + PAGE_ROWS, n_rows)
    st.caption(
        f"Sorted by {metric} (the drill-down metric), worst first"
        + ("; the dropped queries (no relevant item) last. " if empty == "drop" else ". ")
        + (
            f"Showing rows {start:,} to {stop:,} of {n_rows:,}; the CSV has all."
            if n_rows > PAGE_ROWS
            else ""
        )
        + " Pick a query above to open it."
    )
    st.dataframe(
        page.worst_first_rows(ds, table, worst[start - 1 : stop]),
        hide_index=True,
        width="stretch",
        column_config={
            c: st.column_config.NumberColumn(c, format="%.4f") for _, c in page.HEADLINE
        },
    )
    st.download_button(
        "Per-query table as CSV",
        lambda d=ds, t=table, o=worst: downloads.csv_text(page.worst_first_rows(d, t, o)),
        "retrieval_per_query.csv",
        key="ret_dl_per_query",
    )
