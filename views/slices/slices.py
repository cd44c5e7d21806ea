"""Slices: where does the model fail? One metric on every group of an attribute (or a
pair), with intervals and corrected tests, the worst slices found over every attribute,
and for binary data the rates per group at a threshold."""

from __future__ import annotations

import streamlit as st

from explorer.formatting import literal
from explorer.pages import slices
from explorer.ui import language, navigation, session, slice_filter, widgets
from explorer.ui.language import t
from views import prose
from views.slices import panel

st.title(t("Slices"))
widgets.scenarios("slices")
ds = session.active()  # the whole dataset: the page makes the groups itself
slice_filter.whole_note("The Slices page")
st.markdown(prose.section("slices", "intro"))
why = slices.check(ds)
if why is not None:
    st.info(
        t(
            "**${name}** cannot be sliced: ${why}. The bundled breast cancer (radius, texture) "
            "and diabetes (age, sex) samples carry attributes; an upload's extra columns "
            "become attributes.",
            name=literal(language.dataset_title(ds)),
            why=t(why),
        ),
        icon=":material/info:",
    )
    st.button(
        t("Open the breast cancer sample"),
        key="sl_open_sample",
        on_click=session.set_active,
        args=("breast_cancer",),
    )
    navigation.stop_page()
panel.panel(ds)
