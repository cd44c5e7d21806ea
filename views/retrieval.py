"""Top-K retrieval: P@K, R@K, hit rate, MAP@K, MRR, ERR@K, NDCG@K, and why tools disagree."""

from __future__ import annotations

import streamlit as st

from explorer import state, widgets
from explorer.datasets import GRADE_LIMIT, MAX_GRADE
from explorer.pages import retrieval as page
from views import prose, retrieval_panel

st.title("Top-K retrieval")
widgets.scenarios("views/retrieval.py")
st.markdown(prose.section("retrieval", "intro"))

ds = state.active()
widgets.require_kind(ds, ("graded", "multilabel"), "seed002_map")

data_max, top_grade = page.grade_scale(ds)
if data_max > MAX_GRADE:  # the readers refuse these; a dataset from elsewhere says so here
    st.warning(
        f"This page cannot rank **{ds.shown_name}**: its largest grade, {data_max:.17g}, "
        f"{GRADE_LIMIT}. The relevance threshold would compare inexact grades.",
        icon="⚠️",
    )
    state.stop_page()

# ------------------------------------------------------------------ the panel
retrieval_panel.panel(ds, data_max, top_grade)
