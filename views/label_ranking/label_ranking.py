"""Label ranking: coverage error, LRAP and ranking loss, sample by sample."""

import streamlit as st

from explorer.pages import label_ranking
from explorer.ui import classroom, navigation, slice_filter, widgets
from explorer.ui.language import t
from views import prose
from views.label_ranking import controls, drill, headline, tables, teach

st.title(t("Label ranking"))
widgets.scenarios("label_ranking")
ds = slice_filter.active()
widgets.require_kind(ds, ("multilabel",), "seed003_lrap")
slice_filter.note(ds)  # on how many samples, of which slice
st.caption(prose.section("label_ranking", "intro"))

top, picture = st.container(), st.container()  # the headline and the chart, above the controls
settings = controls.show(ds, table=label_ranking.refusal(*ds.y_true.shape) is None)
base = headline.summary(ds, settings.model)  # stops the page when it cannot be scored
if base.refused:  # over the computing budget: the means alone, and why
    with top:
        headline.refused(ds, settings.model, base)
    navigation.stop_page()

st.header(t("How it is computed: one sample"))
drawn: dict = {}  # what this run draws outside the drill-down (see drill.drill_down)
shown = drill.drill_down(ds, settings, base, drawn)
order = label_ranking.worst_first(shown.res.contrib, settings.sort_by)
rows = settings.page_of(order)
with top:
    headline.headline(ds, settings.model, shown)
with picture:
    held = classroom.held_back(t("Each sample's contribution, in a chart and a table"))
    drawn["chart"] = frozenset() if held else tables.contributions_chart(ds, settings, shown, rows)
    drawn["outside"] = drill.outside(shown.what_if, shown.i, shown.new_row, drawn["chart"])
if not held:
    tables.contributions_table(ds, settings, shown, order)
tables.rank_table(ds, settings, shown, rows)
teach.teaching_notes(
    shown.res.contrib, list(ds.sample_ids), label_ranking.one_true_label(shown.res.contrib)
)
