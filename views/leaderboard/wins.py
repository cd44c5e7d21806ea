"""Per sample (per query): how often each model is the best one."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset
from explorer.ui import cache, widgets
from explorer.ui.language import t
from views import prose


def show(ds: Dataset) -> None:
    what, frame = cache.leaderboard.wins(ds)
    if not what:
        return
    queries = ds.kind == "graded"
    st.subheader(
        t("Which model is best on each query: by its ${what}", what=t(what))
        if queries
        else t("Which model is best on each sample: by its ${what}", what=t(what))
    )
    # the frame's own columns in the visitor's language, their heads in words
    shown = frame.rename(columns=t)
    widgets.dataframe(
        st,
        shown,
        hide_index=True,
        key="lb_wins",
        column_config={
            t("alone"): st.column_config.NumberColumn(
                t("best alone (queries)") if queries else t("best alone (samples)")
            ),
            t("tied"): st.column_config.NumberColumn(
                t("best, tied (queries)") if queries else t("best, tied (samples)")
            ),
            t("share alone"): st.column_config.ProgressColumn(
                t("share best alone"), min_value=0.0, max_value=1.0, format="percent"
            ),
        },
    )
    st.caption(prose.section("leaderboard", "wins"))
