"""The Top-K retrieval page's per-query table (views/retrieval/panel.py): every query,
worst first by the drill-down metric, a page of rows at a time, and the CSV of all.

Layout only: the rows come from :mod:`explorer.pages.retrieval_query`."""

from __future__ import annotations

import streamlit as st

from explorer import downloads
from explorer.pages import retrieval, retrieval_query
from explorer.ui import bound, widgets
from explorer.ui.language import t
from views.retrieval import headline


def per_query(ds, table, worst, metric: str, empty: str) -> None:
    """The per-query ``table`` in the order ``worst`` (sorted by ``metric``), from a
    row the user picks, with the download of every row."""
    st.subheader(t("Per query, worst first"), anchor=headline.TABLE_ANCHOR)
    n_rows = len(worst)
    start = bound.window(st, n_rows, key="ret_rows_from")
    stop = min(start + bound.PAGE_ROWS, n_rows)
    st.caption(
        t("Sorted by ${metric} (the drill-down metric), worst first", metric=metric)
        + t("; the dropped queries (no relevant item) last. " if empty == "drop" else ". ")
        + (
            t(
                "Showing rows ${start:,} to ${stop:,} of ${n:,} (row 0 is the worst); "
                "the CSV has all.",
                start=start,
                stop=stop - 1,
                n=n_rows,
            )
            if n_rows > bound.PAGE_ROWS
            else ""
        )
        + t(" Pick a query above to open it.")
    )
    widgets.dataframe(
        st,
        retrieval_query.worst_first_rows(ds, table, worst[start:stop]),
        hide_index=True,
        width="stretch",
        column_config={c: st.column_config.NumberColumn(t(c)) for _, c in retrieval.HEADLINE},
    )
    st.download_button(
        t("Per-query table as CSV"),
        lambda d=ds, t=table, o=worst: downloads.csv_text(
            retrieval_query.worst_first_rows(d, t, o)
        ),
        "retrieval_per_query.csv",
        key="ret_dl_per_query",
    )
