"""The teaching notes at the bottom of the Label ranking page; the texts come from
views/label_ranking/text.md."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer.pages import label_ranking
from explorer.ui import session, widgets
from explorer.ui.language import t
from views import prose


def teaching_notes(contrib: pd.DataFrame, ids: list[str], one_true: bool) -> None:
    """The four notes at the bottom of the page."""
    st.header(t("Notes for teaching"))
    with st.expander(t("Why do tied labels take the maximal rank?"), expanded=False):
        st.markdown(prose.section("label_ranking", "note-max-rank"))
    with st.expander(t("Why is scikit-learn's coverage 1 more than Tsoumakas'?")):
        st.markdown(prose.section("label_ranking", "note-tsoumakas"))
    with st.expander(t("A sample with no true label, or with every label true")):
        degenerate = label_ranking.degenerate_samples(contrib, ids)
        degenerate = degenerate.assign(note=degenerate["note"].map(t))
        st.markdown(prose.section("label_ranking", "note-degenerate"))
        if len(degenerate):
            widgets.dataframe(
                st,
                degenerate,
                hide_index=True,
                key="lr_degenerate_table",
                column_config=widgets.worded(degenerate.columns),
            )
        else:
            st.caption(t("This dataset has no such sample; `digit_properties` has (a 1 has none)."))
    with st.expander(t("LRAP equals MRR when each sample has one true label")):
        st.markdown(prose.section("label_ranking", "note-mrr"))
        if not one_true:
            st.button(
                t("Open the digits sample"),
                key="lr_open_digits",
                on_click=session.set_active,
                args=("digits",),
            )
