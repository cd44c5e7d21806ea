"""DCG & NDCG: discounted cumulative gain step by step, and what tied scores do to it."""

from __future__ import annotations

import streamlit as st

from explorer import state, widgets
from explorer.pages import dcg as model
from views import dcg_panel, prose
from views import dcg_parts as parts

st.title("DCG & NDCG")
widgets.scenarios("views/dcg.py")
ds = state.active()
widgets.require_kind(ds, ("graded", "multilabel"), model.SEED)

st.markdown(prose.section("dcg", "intro"))
if ds.name != model.SEED:
    st.button(
        "scikit-learn dcg_score documentation: its examples (9.49, 5.63, 7.5, 5.0)",
        key="dcg_open_seed",
        on_click=parts.open_seed_example,
        args=(0,),
    )

# ------------------------------------------------------------------ the panel
dcg_panel.panel(ds)
