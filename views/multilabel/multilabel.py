"""Multilabel classification: scores become label sets; class-averaged against overall metrics."""

import streamlit as st

from explorer.ui import slice_filter, widgets
from explorer.ui.language import t
from views import prose
from views.multilabel import panel

st.title(t("Multilabel classification"))
widgets.scenarios("multilabel")
ds = slice_filter.active()
widgets.require_kind(ds, ("multilabel",), "digit_properties")
slice_filter.note(ds)  # on how many samples, of which slice

st.markdown(prose.section("multilabel", "intro"))
panel.panel(ds)  # the controls and all they change, one fragment
