"""The Top-K retrieval page's panel (views/retrieval.py), one st.fragment: K, the
model, the preset and the conventions, and all they change: the headline, each
metric against K, the switchboard, one query step by step and the per-query table.
Moving K reruns this panel only: the title, the introduction and the sidebar are not
run or drawn again.

Layout only: the numbers come from :mod:`explorer.pages.retrieval` through
:mod:`explorer.ui.cache`."""

from __future__ import annotations

import re
from dataclasses import replace

import streamlit as st

from explorer import downloads
from explorer.charts.retrieval import (
    SVG_ITEMS,
    metrics_vs_k_svg,
    ranked_list_figure,
    ranked_list_svg,
    with_k_line,
)
from explorer.formatting import fmt
from explorer.links import float_text
from explorer.pages import retrieval as page
from explorer.ui import cache, classroom, url, widgets
from metrics import MetricInputError
from views import prose
from views.retrieval import headline, parts, tables

#: Above this many queries the query is typed (a select box would send every id).
PICKER_MAX = 1000


def _apply_preset(n_items: int, top_grade: int) -> None:
    for key, value in page.preset_values(
        st.session_state["ret_preset"], n_items, top_grade
    ).items():
        st.session_state[f"ret_{key}"] = value


@st.fragment
def panel(ds, data_max: float, top_grade: int) -> None:
    """The settings and what they change (see the module's docstring); ``data_max``,
    ``top_grade``: the dataset's largest grade and the top of its grade scale."""
    classroom.track_view()  # a move here hides revealed numbers again
    gains = page.offered_gains(data_max)
    n_items = ds.n_labels
    default_k = min(5, n_items)

    # each value, from the URL or left by an earlier run, is checked against this dataset
    # (a None, a text or a k beyond the items must not reach a widget or int())
    url.bind_param("ret_k", "k", default_k, page.whole_in(1, n_items), url.int_in(1, n_items))
    url.bind_param("ret_model", "model", ds.model_names[0], str, url.member(ds.model_names))
    url.bind_param("ret_preset", "preset", "custom", str, url.member(("custom", *page.PRESETS)))
    url.bind_param(
        "ret_ap_denominator", "ap_denominator", "min_m_k", str, url.member(page.DENOMINATORS)
    )
    url.bind_param(
        "ret_rel_level", "rel_level", 1, page.whole_in(1, top_grade), url.int_in(1, top_grade)
    )
    url.bind_param("ret_gain", "gain", "linear", str, url.member(gains))
    url.bind_param(
        "ret_max_grade", "max_grade", data_max, page.grade_from(data_max), page.at_least(data_max)
    )
    url.bind_param("ret_tie_mode", "tie_mode", "column", str, url.member(page.TIES))
    url.bind_param("ret_empty_query", "empty_query", "zero", str, url.member(page.EMPTY))

    c1, c2, c3 = st.columns([2, 1, 1])
    if n_items > 1:
        k = c1.slider("K (cut-off)", 1, n_items, key="ret_k")
    else:
        k = 1
        c1.caption("One item per query: K = 1.")
    model = c2.selectbox("Model", ds.model_names, key="ret_model")
    preset = c3.selectbox(
        "Preset (which tool?)",
        ("custom", *page.PRESETS),
        key="ret_preset",
        on_change=_apply_preset,
        args=(n_items, top_grade),
        help="Sets the conventions below to those of a tool or a worked example.",
    )
    note = prose.section("retrieval", "preset-" + re.sub(r"[^\w-]+", "-", preset))
    st.caption(f"**{preset}**: {note}")

    denominator, tie_mode, rel_level, gain, max_grade, empty = parts.conventions(
        data_max, top_grade, gains
    )

    for param in ("k", "model", "preset", "ap_denominator", "tie_mode", "gain", "empty_query"):
        url.write_param(param, st.session_state[f"ret_{param}"])
    url.write_param("rel_level", int(rel_level))
    url.write_param("max_grade", float_text(max_grade))

    settings = page.Settings(
        k=int(k),
        denominator=denominator,
        level=int(rel_level),
        gain=gain,
        max_grade=float(max_grade),
        ties=tie_mode,
    )
    try:  # shared read-only tables (explorer.ui.cache: by family of columns, curves apart from K)
        per_query, curve = cache.retrieval.tables(ds, model, settings, empty)
        means = page.headline(per_query, empty)
    except MetricInputError as exc:
        st.error(str(exc))
        return

    # ------------------------------------------------------------------ 1 headline
    headline.headline(ds, model, per_query, means, settings, empty)

    # ------------------------------------------------------------------ 2 picture
    st.subheader("Each metric against K")
    if n_items > SVG_ITEMS:  # many K, each move redraws: SVG, not plotly
        widgets.svg_chart(metrics_vs_k_svg(curve, int(k)))
    else:
        base = cache.retrieval.curve_base(ds, model, replace(settings, k=1), empty, curve)
        st.plotly_chart(with_k_line(base, int(k)), key="ret_curve_chart")
    st.caption(prose.section("retrieval", "curve"))
    st.download_button(
        "Curve as CSV",
        lambda c=curve: downloads.csv_text(c),
        "retrieval_vs_k.csv",
        key="ret_dl_curve",
    )

    # ------------------------------------------------------------------ switchboard
    st.subheader("Why do my numbers differ? The convention switchboard")
    st.markdown(prose.section("retrieval", "switchboard"))
    variants = page.variants(ds, settings, empty, levels=cache.retrieval.levels(ds))
    board_key = (ds.fingerprint, model, variants)
    board = None
    if (
        ds.n_samples * n_items <= page.SWITCHBOARD_CELLS
        or st.session_state.get("ret_board_for") == board_key
    ):
        board = cache.retrieval.switchboard(ds, model, variants, per_query)
    else:
        st.info(
            f"On {ds.n_samples:,} queries x {n_items:,} items each of the {len(variants)} rows "
            "ranks the whole matrix again under its conventions, which takes a while: the "
            "switchboard is computed when you ask for it (and again after a change of settings)."
        )
        if st.button("Compute the switchboard", key="ret_compute_board"):
            st.session_state["ret_board_for"] = board_key
            board = cache.retrieval.switchboard(ds, model, variants, per_query)
    if board is not None:
        parts.switchboard_table(board)
    with st.expander("Recall@K against hit rate, and ties", expanded=False):
        st.markdown(prose.section("retrieval", "recall-and-ties"))

    # ------------------------------------------------------------------ 3 how it is computed
    st.subheader("How it is computed: one query")
    q1, q2 = st.columns([2, 3])
    ids, rows = ds.sample_ids, cache.retrieval.query_rows(ds)
    drill = url.bind_param("ret_drill_metric", "drill_metric", "AP@K", str, url.member(page.DRILL))
    metric = page.DRILL_METRIC[drill]
    worst = cache.retrieval.worst_first(ds, model, settings, metric, per_query, empty)
    url.bind_param("ret_query", "query", ids[worst[0]], str, page.known_query(rows))  # worst
    if len(ids) <= PICKER_MAX:
        query_id = q1.selectbox("Query", ids, key="ret_query", help="Opens on the worst query.")
    else:  # a select box of 10^5 ids would send every one of them on each move
        query_id = q1.text_input(
            f"Query (its id; {len(ids):,} queries)",
            key="ret_query",
            help="Opens on the worst query; type another id, or see the per-query table.",
        )
    drill = q2.radio("Metric", page.DRILL, key="ret_drill_metric", horizontal=True)
    url.write_param("query", query_id)
    url.write_param("drill_metric", drill)
    q = rows[query_id]

    try:
        steps = cache.retrieval.steps(ds, model, q, settings)
    except MetricInputError as exc:
        st.error(str(exc))
        return

    row = per_query.iloc[q]
    contribution = page.CONTRIB[drill]
    total, value = page.drill_total(steps, drill)
    parts.drill_formula(drill, steps, row, settings, total)
    parts.count_formulas(row, int(k))

    names = list(ds.label_names)
    shown = page.shown_positions(steps, int(k))
    head = steps.head(shown)
    drill_args = {
        "k": int(k),
        "max_grade": max(float(max_grade), 1.0),
        "item_names": names,
        "title": f"Query {query_id}: each position's {drill} contribution",
    }
    if n_items > SVG_ITEMS:
        widgets.svg_chart(ranked_list_svg(head, contribution, **drill_args))
    else:
        st.plotly_chart(ranked_list_figure(head, contribution, **drill_args), key="ret_drill_chart")
    st.caption(prose.section("retrieval", "bar-colours"))
    if shown < len(steps):
        st.caption(
            f"The chart and the table show the first {shown} of {len(steps)} positions: the "
            "top K and every position with a term of these metrics (the running sums end in "
            "this query's values); the CSV has all of them."
        )
    parts.step_table(page.step_display(head, names, drill), max_grade)
    st.download_button(
        "Step table as CSV",
        lambda s=steps: downloads.csv_text(s),
        f"retrieval_steps_{query_id}.csv",
        key="ret_dl_steps",
    )
    st.markdown(
        f"Sum of the `{contribution}` column: **{fmt(total)}**"
        + (f" (DCG; over IDCG = **{fmt(value)}** NDCG@K)" if drill == "DCG" else "")
        + f" = this query's {metric} in the per-query table: **{fmt(row[metric])}**."
    )
    if ds.n_samples <= 10 and classroom.numbers_shown():  # it ends in MAP@K
        parts.every_query_ap(ds, model, settings, per_query, empty, means["MAP@K"])

    # ------------------------------------------------------------------ 4 per query
    tables.per_query(ds, per_query, worst, metric, empty)
