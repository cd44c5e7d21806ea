"""Teaching notes of the Multilabel classification page."""

from __future__ import annotations

import streamlit as st

from explorer.pages import multilabel
from explorer.ui import widgets
from explorer.ui.language import t
from views import prose


def notes_naming(averages: dict) -> None:
    """The multilabel-evaluation notes' loosely named formulas, read two ways, with the
    live value of each reading (``averages``: the summary's averages)."""
    with st.expander(t("The multilabel notes' naming, read two ways"), expanded=True):
        st.markdown(prose.section("multilabel", "notes_naming"))
        widgets.dataframe(
            st,
            _readings(multilabel.naming_readings(averages)),
            hide_index=True,
            width="stretch",
            column_config={"value": st.column_config.NumberColumn()},
        )
        st.caption(prose.section("multilabel", "notes_fbeta"))


def _readings(table):
    """The readings' table with what each formula computes in the visitor's language."""
    return table.assign(**{"what it computes": table["what it computes"].map(t)})
