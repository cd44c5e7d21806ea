"""Compare two models: is B better than A, how sure, and on which samples?

Each headline metric of the dataset's kind for A and B, the difference with its
confidence interval and a test in words (:mod:`views.compare.headline`); the samples
that changed most both ways, each opening its drill-down where a page has one, and A
against B per sample (:mod:`views.compare.tables`).
"""

import streamlit as st

from explorer.formatting import literal
from explorer.ui import cache, navigation, session, slice_filter, widgets
from explorer.ui.language import t
from views.compare import controls, headline, intervals, tables

#: A bundled sample with two models, by kind.
TWO_MODELS = {
    "binary": "breast_cancer",
    "multilabel": "digit_properties",
    "graded": "diabetes_ranking",
    "regression": "diabetes",
}

st.title(t("Compare two models"))
widgets.scenarios("compare")
ds = slice_filter.active()
slice_filter.note(ds)  # on how many samples, of which slice
widgets.models_caption(ds)

if len(ds.model_names) < 2:
    suggestion = TWO_MODELS.get(ds.kind, "breast_cancer")
    st.info(
        t(
            "This page compares two models of one dataset; **${name}** has one model. Upload "
            "a table with two score columns (`score_a`, `score_b`) or two score files, or open "
            "a sample with two models.",
            name=literal(ds.shown_name),
        ),
        icon=":material/info:",
    )
    st.button(
        t("Open ${sample} (two models)", sample=suggestion.replace("_", " ")),
        key="cmp_open_sample",
        on_click=session.set_active,
        args=(suggestion,),
        type="primary",
    )
    navigation.stop_page()

settings = controls.show(ds)
if settings.a == settings.b:
    st.info(t("Pick two different models: A and B are the same model."), icon=":material/info:")
    navigation.stop_page()

first = cache.compare.first_numbers(ds, settings.a, settings.b)
if not first.rows:
    st.info(
        t("No headline metric of this dataset can be compared: it has one class only."),
        icon=":material/info:",
    )
    navigation.stop_page()

# the values and differences at once; the intervals replace them when resampled
slot = st.empty()
with slot.container():
    headline.show(first, settings.a, settings.b, final=False)
result = intervals.resampled(ds, settings, first)
if result is first:  # no intervals this minute: the first numbers stay
    headline.close()
else:
    with slot.container():
        headline.show(result, settings.a, settings.b)
tables.show(ds, result, settings.a, settings.b)
