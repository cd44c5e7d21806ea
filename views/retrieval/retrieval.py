"""Top-K retrieval: P@K, R@K, hit rate, MAP@K, MRR, ERR@K, NDCG@K, and why tools disagree."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import GRADE_LIMIT, MAX_GRADE
from explorer.formatting import literal
from explorer.pages import retrieval
from explorer.ui import navigation, slice_filter, widgets
from explorer.ui.language import t
from views import prose
from views.retrieval import panel

st.title(t("Top-K retrieval"))
widgets.scenarios("retrieval")
st.markdown(prose.section("retrieval", "intro"))

ds = slice_filter.active()
widgets.require_kind(ds, ("graded", "multilabel"), "seed002_map")
slice_filter.note(ds)  # on how many samples, of which slice

data_max, top_grade = retrieval.grade_scale(ds)
if data_max > MAX_GRADE:  # the readers refuse these; a dataset from elsewhere says so here
    st.warning(
        t(
            "This page cannot rank **${name}**: its largest grade, ${grade}, ${limit}. The "
            "relevance threshold would compare inexact grades.",
            name=literal(ds.shown_name),
            grade=f"{data_max:.17g}",
            limit=t(GRADE_LIMIT),  # a sentence of the readers too
        ),
        icon=":material/warning:",
    )
    navigation.stop_page()

# ------------------------------------------------------------------ the panel
panel.panel(ds, data_max, top_grade)
