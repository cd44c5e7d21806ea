"""The Data page's downloads and sharing: the active dataset as CSV (built only when a
button is clicked: a million rows take seconds), and whether the address bar's link
carries it."""

from __future__ import annotations

import streamlit as st

from explorer import downloads, editing
from explorer.datasets import Dataset
from explorer.ui import share
from views.data.editor import base_name


def show(ds: Dataset) -> None:
    """The download buttons (labels and scores, or one table) and the share note."""
    st.subheader("Download and share")
    base = base_name(ds)
    # the CSVs are written only when a button is clicked (a million rows take seconds)
    if ds.item_ids is not None:  # a run: each query's documents by their ids
        st.download_button(
            "Dataset as CSV (one row per document)",
            lambda: downloads.csv_text(editing.long_table_from_run(ds)),
            file_name=f"{base}.csv",
            mime="text/csv",
            key="data_download_run",
        )
    elif ds.is_matrix:
        d1, d2 = st.columns(2)
        d1.download_button(
            "Labels as CSV",
            lambda: downloads.csv_text(editing.matrices_from_dataset(ds)[0]),
            file_name=f"{base}.labels.csv",
            mime="text/csv",
            key="data_download_labels",
        )
        d2.download_button(
            "Scores as CSV",
            lambda: downloads.csv_text(editing.matrices_from_dataset(ds)[1]),
            file_name=f"{base}.scores.csv",
            mime="text/csv",
            key="data_download_scores",
        )
    else:
        st.download_button(
            "Dataset as CSV",
            lambda: downloads.csv_text(editing.table_from_dataset(ds)),
            file_name=f"{base}.csv",
            mime="text/csv",
            key="data_download_csv",
        )
    if share.link_is_shareable():
        st.success(
            "The address bar now holds a link to exactly this view: copy it to share it.",
            icon="🔗",
        )
    else:
        st.warning(
            "This dataset is too big to travel inside a link: share the file instead "
            "(download it above).",
            icon="🔗",
        )
