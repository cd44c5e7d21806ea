"""Per sample (per query): how often each model is the best one."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset
from explorer.ui import cache, widgets
from views import prose


def show(ds: Dataset) -> None:
    what, frame = cache.leaderboard.wins(ds)
    if not what:
        return
    unit = "query" if ds.kind == "graded" else "sample"
    st.subheader(f"Which model is best on each {unit}: by its {what}")
    widgets.dataframe(
        st,
        frame,
        hide_index=True,
        key="lb_wins",
        column_config={
            "alone": st.column_config.NumberColumn(f"best alone ({unit}s)"),
            "tied": st.column_config.NumberColumn(f"best, tied ({unit}s)"),
            "share alone": st.column_config.ProgressColumn(
                "share best alone", min_value=0.0, max_value=1.0, format="percent"
            ),
        },
    )
    st.caption(prose.section("leaderboard", "wins"))
