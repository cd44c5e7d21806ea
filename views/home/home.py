"""Home: what Metric Explorer is, the active dataset at a glance (its headline numbers:
:mod:`views.home.headline`), the gallery."""

import pandas as pd
import streamlit as st

from explorer.datasets import KIND_LABELS
from explorer.formatting import literal
from explorer.samples import sample_index
from explorer.ui import examples, language, slice_filter, widgets
from explorer.ui.language import t
from views import prose
from views.home import headline

st.title(t("Metric Explorer"))
st.markdown(prose.section("home", "intro"))
st.caption(prose.section("home", "present"))
st.caption(prose.section("home", "classroom"))

ds = slice_filter.active()
slice_filter.note(ds)  # on how many samples, of which slice
st.subheader(f"{t('Active dataset')}: {literal(language.dataset_title(ds))}")
st.caption(
    f"{t(KIND_LABELS[ds.kind])} · {ds.n_samples} {t('samples')} · {ds.n_labels} {t('label(s)')} · "
    f"{t('model(s)')}: {literal(', '.join(ds.model_names))}"
    + (f" · {literal(language.dataset_description(ds))}" if ds.description else "")
)

headline.show(ds)
widgets.scenarios("home")

st.subheader(t("Worked examples of the source documents"))
st.caption(prose.section("home", "examples"))
examples.gallery()

st.subheader(t("Sample gallery"))
st.markdown(prose.section("home", "gallery"))
# the titles, never the ids of ?ds= links ("seed002_roc6"): Copy link gives those
gallery = pd.DataFrame(sample_index())[["title", "kind", "teaches"]]
# each text of the index is its own catalogue entry; the kinds are the sidebar's words
gallery = gallery.map(t)
widgets.dataframe(
    st,
    gallery,
    hide_index=True,
    width="stretch",
    column_config={
        "title": st.column_config.TextColumn(t("Sample"), width="medium"),
        "kind": st.column_config.TextColumn(t("Kind"), width="small"),
        "teaches": st.column_config.TextColumn(t("What it teaches"), width="large"),
    },
)
