"""Multiclass classification: one class per sample, a probability per class."""

import streamlit as st

import metrics
from explorer.formatting import literal
from explorer.ui import cache, classroom, navigation, slice_filter, widgets
from explorer.ui.language import refusal, t
from views import prose
from views.multiclass import controls, derivation, drill, headline, tables

st.title(t("Multiclass classification"))
ds = slice_filter.active()
widgets.require_kind(ds, ("multiclass",), "iris")
slice_filter.note(ds)  # on how many samples, of which slice
widgets.scenarios("multiclass")
st.markdown(prose.section("multiclass", "intro"))

settings = controls.show(ds)
try:
    res = cache.multiclass.summary(ds, settings.model, settings.k)
except metrics.MetricInputError as exc:  # data metrics refuses: say what, keep the page
    st.error(literal(refusal(exc)))
    navigation.stop_page()

headline.show(ds, settings, res)
if classroom.held_back(t("The confusion matrix, the curves, the derivations and the samples")):
    navigation.stop_page()
drill.confusion(ds, settings, res)
chosen, average = drill.curves(ds, settings, res)
derivation.show(ds, settings, res, average, list(ds.label_names).index(chosen))

st.subheader(t("Per sample, worst first"))
st.markdown(prose.section("multiclass", "per_sample"))
samples = cache.multiclass.samples(ds, settings.model)
drill.sample(ds, settings, samples)
tables.per_sample(ds, settings, samples)
