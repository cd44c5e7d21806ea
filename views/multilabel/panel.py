"""The Multilabel classification page's panel, one st.fragment: the controls (model,
rule, threshold or per-label thresholds or k, beta, zero_division) and all they change:
the headline, the per-label bars and the tabs (how it is computed, the per-label
tables, what the model got wrong, every sample). Moving a control reruns this panel
only: the title, the introduction and the sidebar are not run or drawn again. The
figures are cached per dataset and setting (:mod:`explorer.ui.cache.multilabel`).

Layout only: the numbers come from :mod:`explorer.pages.multilabel`."""

from __future__ import annotations

import streamlit as st

import metrics
from explorer.ui import bound, cache, classroom, language, widgets
from explorer.ui.language import t
from views.multilabel import controls, derivation, drill, headline, tables

#: The tabs below the bars (key ``ml_tab``, URL ``?tab=`` by the first word in lower
#: case); the first derives the headline numbers.
#: Under the per-label chart when each row has its own documents (a query-grouped upload):
#: a column there is a slot, the j-th document of each row, not one label of every row.
SLOTS_NOTE = (
    "Each sample here has its own documents: a column is a slot (the j-th document of "
    "each sample, a different one in each), not a label every sample shares. The per-label "
    "chart and tables, and the macro and weighted averages, read slots as labels; the "
    "micro, overall and per-sample numbers do not depend on it."
)

TABS = ("Derivations of the headline", "Per-label tables", "Errors", "Every sample")
TAB_KEY, TAB_PARAM = "ml_tab", "tab"


@st.fragment
def panel(ds) -> None:
    """The controls and what they change (see the module's docstring)."""
    classroom.track_view()  # a move here hides revealed numbers again
    settings = controls.show(ds)
    beta, zd_key = settings.beta, settings.zd_key
    try:
        pred, counts = cache.multilabel.prediction(ds, *settings.setting)
        res = cache.multilabel.summary(ds, *settings.setting, beta, zd_key)
    except metrics.MetricInputError as exc:
        widgets.cannot_score(ds, exc, t("Multilabel scores treat one column as binary data"))
        return
    headline.show(ds, settings, res)
    if classroom.held_back("The per-label chart, the derivations, tables, errors and samples"):
        return

    st.subheader(t("Per label: precision, recall, F1"))
    if ds.item_ids is not None:
        st.caption(t(SLOTS_NOTE))
    bars = cache.multilabel.bars(ds, settings.setting, beta, zd_key, language.current())
    widgets.svg_chart(bars)

    # lazy: only the open tab is computed and drawn (and redrawn on a move)
    tab_derive, tab_tables, tab_wrong, tab_samples = bound.tabs(TABS, key=TAB_KEY, param=TAB_PARAM)
    if tab_derive.open:
        with tab_derive:
            derivation.show(ds, settings, counts, res)
    if tab_tables.open:
        with tab_tables:
            tables.label_tables(ds, res, beta)
    if tab_wrong.open:
        with tab_wrong:
            drill.errors(ds, settings, pred, res)
    if tab_samples.open:
        with tab_samples:
            tables.sample_table(ds, settings, res)
