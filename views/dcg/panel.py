"""The DCG & NDCG page's panel (views/dcg/dcg.py), one st.fragment: the settings (k, log
base, ties, gain, model) and all they change: the headline, the selected sample
position by position, how it is computed, what ties do and the per-sample table.
Moving k (or picking a sample) reruns this panel only: the title, the introduction,
the sidebar and the worked example above it are not run or drawn again.

Layout only: the numbers come from :mod:`explorer.pages.dcg` through
:mod:`explorer.ui.cache.dcg`."""

from __future__ import annotations

import streamlit as st

import metrics
from explorer.pages import dcg, dcg_examples
from explorer.ui import bound, cache, classroom, widgets
from explorer.ui.language import t
from views import prose
from views.dcg import controls, derivation, drill, headline, tables, teach

#: The tabs below the selected sample's chart (key ``dcg_tab``, URL ``?tab=`` by the
#: first word in lower case); the first derives the selected sample's numbers.
TABS = ("Derivation of the sample", "Ties", "Every sample")
TAB_KEY, TAB_PARAM = "dcg_tab", "tab"


@st.fragment
def panel(ds) -> None:
    """The settings and what they change (see the module's docstring)."""
    classroom.track_view()  # a move here hides revealed numbers again
    chosen = controls.show(ds)
    settings = chosen.settings
    try:
        table = cache.dcg.per_sample_table(ds, settings)
        head = dcg.headline(ds, table)
    except metrics.MetricInputError as exc:
        widgets.cannot_score(ds, exc, t("DCG ranks the labels of each sample by score"))
        return
    top = st.container()  # the headline needs the sample picked below it
    st.subheader(t("The selected sample, position by position"))
    row = controls.sample(ds, table, dcg.worst_row(table))  # opens on the worst sample
    with top:
        headline.headline(ds, table, head, chosen, row=row)
        if not chosen.base_2:
            st.info(prose.fill("dcg", "base-cancels", base=chosen.base_text))
        if ds.name == dcg_examples.SEED:
            teach.seed_examples(ds)
    one = dcg.sample_steps(ds, settings, row, table)
    if not classroom.held_back(t("The sample's chart of gains and contributions")):
        drill.chart(ds, row, one, chosen)
    if head.no_relevant:
        st.warning(drill.no_relevant_text(head.no_relevant, ds.n_samples, settings))
    in_detail(ds, row, one, table, head, chosen)


def in_detail(ds, row: int, one: dcg.SampleSteps, table, head, chosen) -> None:
    """The tabs, lazy: only the open one is computed and drawn (again on a move of k)."""
    st.subheader(t("In detail"), anchor=headline.TABLE_ANCHOR)
    tab_how, tab_ties, tab_every = bound.tabs(TABS, key=TAB_KEY, param=TAB_PARAM)
    # "Predict, then reveal": the sample's DCG is the answer of a worked example (and
    # of the headline on one sample), so its derivation and tie values wait for Reveal
    if tab_how.open:
        with tab_how:
            if not classroom.derivations_hidden():
                derivation.how_it_is_computed(ds, row, one, chosen)
    if tab_ties.open:
        with tab_ties:
            st.subheader(t("What tied scores do"))
            if not classroom.derivations_hidden():
                comparison = dcg.tie_comparison(ds, chosen.settings, row, table, one.gains)
                teach.tie_section(ds, row, comparison)
    if tab_every.open:
        with tab_every:
            title = t(
                "Model ${model}: ${k}, ${ties}",
                model=chosen.settings.model,
                k=chosen.k_text,
                ties=chosen.tie_text,
            )
            if not classroom.held_back(t("Every sample's DCG and NDCG")):
                tables.per_sample(ds, table, head, chosen.settings, title)
