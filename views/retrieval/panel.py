"""The Top-K retrieval page's panel (views/retrieval/retrieval.py), one st.fragment: K, the
model, the preset and the conventions, and all they change: the headline, each
metric against K, the switchboard, one query step by step and the per-query table.
Moving K reruns this panel only: the title, the introduction and the sidebar are not
run or drawn again.

Layout only: the numbers come from :mod:`explorer.pages.retrieval` through
:mod:`explorer.ui.cache.retrieval`."""

from __future__ import annotations

import streamlit as st

from explorer import downloads
from explorer.charts.retrieval import SVG_ITEMS, metrics_vs_k_svg, with_k_line
from explorer.formatting import literal
from explorer.pages import retrieval
from explorer.ui import cache, classroom, language, widgets
from explorer.ui.language import refusal, t
from metrics import MetricInputError
from views import prose
from views.retrieval import controls, drill, headline, switchboard, tables


@st.fragment
def panel(ds, data_max: float, top_grade: int) -> None:
    """The settings and what they change (see the module's docstring); ``data_max``,
    ``top_grade``: the dataset's largest grade and the top of its grade scale."""
    classroom.track_view()  # a move here hides revealed numbers again
    chosen = controls.show(ds, data_max, top_grade)
    model, settings, empty = chosen.model, chosen.settings, chosen.empty
    try:  # shared read-only tables (by family of columns, curves apart from K)
        per_query, curve = cache.retrieval.tables(ds, model, settings, empty)
        means = retrieval.headline(per_query, empty)
    except MetricInputError as exc:
        st.error(literal(refusal(exc)))
        return
    headline.headline(ds, model, per_query, means, settings, empty)
    if classroom.held_back(
        "Each metric against K, the switchboard, a query's drill-down and the per-query table"
    ):
        return
    metrics_against_k(ds, chosen, curve)
    switchboard.show(ds, chosen)
    query = drill.show(ds, chosen, per_query, means)
    if query is not None:
        tables.per_query(ds, per_query, query.worst, query.metric, empty)


def metrics_against_k(ds, chosen: controls.Controls, curve) -> None:
    """Each metric's mean at every K, a line at the chosen K, and the curve's CSV."""
    st.subheader(t("Each metric against K"))
    k, lang = chosen.settings.k, language.current()
    if retrieval.max_k(ds) > SVG_ITEMS:  # many K, each move redraws: SVG, not plotly
        widgets.svg_chart(metrics_vs_k_svg(curve, k, lang))
    else:
        key = chosen.settings.curve_key(chosen.empty)  # the figure does not depend on K
        base = cache.retrieval.curve_base(ds, chosen.model, key, lang)
        widgets.plotly_chart(st, with_k_line(base, k), key="ret_curve_chart")
    st.caption(prose.section("retrieval", "curve"))
    st.download_button(
        t("Curve as CSV"),
        lambda c=curve: downloads.csv_text(c),
        "retrieval_vs_k.csv",
        key="ret_dl_curve",
    )
