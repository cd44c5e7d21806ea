"""Leaderboard: every model of the dataset ranked on one metric, each pair tested, the
p-values corrected across the pairs.

The table best first with ranx's letters (:mod:`views.leaderboard.table`), the matrix of
pairwise differences and a button per pair opening Compare two models
(:mod:`views.leaderboard.pairs`), and how often each model is best on a sample
(:mod:`views.leaderboard.wins`).
"""

import streamlit as st

from explorer.formatting import literal
from explorer.ui import language, navigation, session, slice_filter, widgets
from explorer.ui.language import t
from views import prose
from views.leaderboard import panel

#: The bundled sample with more than two models.
MANY_MODELS = "breast_cancer_five"

st.title(t("Leaderboard"))
widgets.scenarios("leaderboard")
ds = slice_filter.active()
slice_filter.note(ds)  # on how many samples, of which slice
widgets.models_caption(ds)
st.markdown(prose.section("leaderboard", "intro"))

if len(ds.model_names) < 2:
    st.info(
        t(
            "There is nothing to rank: **${name}** has one model, and a leaderboard compares "
            "several models scored on the same samples. Upload a table with several score "
            "columns, several score files or runs, or open the five-model sample.",
            name=literal(language.dataset_title(ds)),
        ),
        icon=":material/info:",
    )
    st.button(
        t("Open breast cancer (five models)"),
        key="lb_open_sample",
        on_click=session.set_active,
        args=(MANY_MODELS,),
        type="primary",
    )
    navigation.stop_page()

panel.panel(ds)
