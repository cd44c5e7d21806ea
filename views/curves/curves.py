"""ROC & PR curves: one operating point drives the curves, the confusion matrix and
every rate; AUC four ways; the ROC point by point; log loss and calibration.

The headline numbers, the threshold, the score distribution by class, both curves and
the confusion matrix share one screen (1440 x 900, and 1280 x 720 at 150% in
presentation mode) in a panel that reruns alone when the threshold moves
(:mod:`views.curves.panel`, an st.fragment); the teaching sections are tabs below it
(:mod:`views.curves.teach`). Layout and prose only: the numbers come from
:mod:`explorer.pages.curves` through its cached declarations in
:mod:`explorer.ui.cache.curves`, the texts from views/curves/text.md."""

from __future__ import annotations

import streamlit as st

import metrics
from explorer.formatting import fmt, literal, model_words
from explorer.ui import cache, classroom, language, navigation, slice_filter, widgets
from explorer.ui.language import refusal, t
from views.curves import controls, headline, panel, teach
from views.curves.parts import text

# Reveal beside the title: a row of its own under the headline pushed the curves and the
# matrix below the fold at 853 x 480
c_title, c_reveal, c_model = st.columns([2.2, 0.8, 1], vertical_alignment="bottom")
c_title.title(t("ROC & PR curves"))
ds = slice_filter.active()
widgets.require_kind(ds, ("binary",), "balanced")
classroom.reveal_button(c_reveal, compact=True)
slice_filter.note(ds)  # on how many samples, of which slice

model = controls.model(ds, c_model)

exact = cache.big.exact_headline(ds)  # the host's big data: exact over every row
if exact:
    st.info(
        t(
            "Exact over all ${total:,} rows: ${numbers}. The curves, the counts at the "
            "threshold and the tables on this page use a uniform sample of ${n:,} of the "
            "${total:,} rows.",
            total=ds.total_rows,
            n=ds.n_samples,
            numbers=", ".join(
                f"{t(n.label)} {'n/a' if n.value is None else fmt(n.value)}" for n in exact
            ),
        ),
        icon=":material/straighten:",
    )

try:
    by_model = cache.curves.every_model(ds)
except metrics.MetricInputError as exc:  # valid data the curves cannot show: one class
    st.info(
        t(
            "${refusal} The ROC and PR curves need samples of both classes; Home and the Data "
            "page show what this dataset does define.",
            refusal=literal(refusal(exc)),
        ),
        icon=":material/info:",
    )
    navigation.stop_page()
log_loss = cache.curves.log_loss(ds, model)
headline.inverted_notice(ds, by_model[model]["auc"])

panel.operating_panel(ds, model, by_model, log_loss)
# under the lesson's screen: the panel comes first
st.caption(
    t(
        "Dataset **${name}**: ${n:,} samples, ${model}${weighted}",
        name=literal(language.dataset_title(ds)),
        n=ds.n_samples,
        model=t(model_words(model))
        if model_words(model) == "the model"
        else t("model **${name}**", name=literal(model)),
        weighted=t(", weighted by `sample_weight`") if ds.sample_weight is not None else "",
    )
    + (f". {literal(language.dataset_description(ds))}" if ds.description else "")
)

shown, most = panel.drawn_vertices(ds, model, by_model)
drawn = (
    text("vertices_drawn", roc=shown[m][0], pr=shown[m][1], **{**c, "model": literal(m)})
    for m, c in by_model.items()
)
st.caption(" · ".join(drawn) + text("vertices", max_points=most))
if not classroom.held_back("Optimize for, AUC four ways, the point-by-point ROC and log loss"):
    teach.teaching_tabs(
        ds, model, by_model[model], log_loss, cache.curves.threshold_axis(ds, model).hi
    )
widgets.scenarios("curves")
