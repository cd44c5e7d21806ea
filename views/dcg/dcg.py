"""DCG & NDCG: discounted cumulative gain step by step, and what tied scores do to it."""

from __future__ import annotations

import streamlit as st

from explorer.pages import dcg_examples
from explorer.ui import slice_filter, widgets
from explorer.ui.language import t
from views import prose
from views.dcg import panel, teach

st.title(t("DCG & NDCG"))
widgets.scenarios("dcg")
ds = slice_filter.active()
widgets.require_kind(ds, ("graded", "multilabel"), dcg_examples.SEED)
slice_filter.note(ds)  # on how many samples, of which slice

st.markdown(prose.section("dcg", "intro"))
if ds.name != dcg_examples.SEED:
    st.button(
        t("scikit-learn dcg_score documentation: its examples (9.49, 5.63, 7.5, 5.0)"),
        key="dcg_open_seed",
        on_click=teach.open_seed_example,
        args=(0,),
    )

# ------------------------------------------------------------------ the panel
panel.panel(ds)
