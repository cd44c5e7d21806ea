"""The Data page's downloads and sharing: the active dataset as CSV (built only when a
button is clicked: a million rows take seconds), and whether the address bar's link
carries it."""

from __future__ import annotations

import streamlit as st

from explorer import downloads, editing
from explorer.datasets import Dataset
from explorer.ui import share
from explorer.ui.language import t
from views.data.editor import base_name


def _csv_button(where, label: str, build, file_name: str, key: str) -> None:
    """A download button whose CSV ``build()`` writes only when clicked."""
    where.download_button(
        t(label), lambda: downloads.csv_text(build()), file_name=file_name, mime="text/csv", key=key
    )


def show(ds: Dataset) -> None:
    """The download buttons (labels and scores, or one table) and the share note."""
    st.subheader(t("Download and share"))
    base = base_name(ds)
    # the CSVs are written only when a button is clicked (a million rows take seconds)
    if ds.item_ids is not None:  # a run: each query's documents by their ids
        _csv_button(
            st,
            "Dataset as CSV (one row per document)",
            lambda: editing.long_table_from_run(ds),
            f"{base}.csv",
            "data_download_run",
        )
    elif ds.is_matrix:
        d1, d2 = st.columns(2)
        labels = lambda: editing.matrices_from_dataset(ds)[0]  # noqa: E731
        scores = lambda: editing.matrices_from_dataset(ds)[1]  # noqa: E731
        _csv_button(d1, "Labels as CSV", labels, f"{base}.labels.csv", "data_download_labels")
        _csv_button(d2, "Scores as CSV", scores, f"{base}.scores.csv", "data_download_scores")
    else:
        table = lambda: editing.table_from_dataset(ds)  # noqa: E731
        _csv_button(st, "Dataset as CSV", table, f"{base}.csv", "data_download_csv")
    if ds.is_matrix and ds.item_ids is None and ds.attributes:  # labels + scores have no room
        _csv_button(
            st,
            "Attributes as CSV (a side file, by sample id)",
            lambda: editing.attributes_table(ds),
            f"{base}.attributes.csv",
            "data_download_attributes",
        )
    if share.link_is_shareable():
        st.success(
            t("The address bar now holds a link to exactly this view: copy it to share it."),
            icon=":material/link:",
        )
    else:
        st.warning(
            t(
                "This dataset is too big to travel inside a link: share the file instead "
                "(download it above)."
            ),
            icon=":material/link:",
        )
