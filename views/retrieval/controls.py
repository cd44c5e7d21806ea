"""The Top-K retrieval page's controls, each bound to the address: K, the model, the
preset and the conventions (:func:`show`), and the drill-down's query and metric
(:func:`query`). A change of a convention sets the preset to "custom"."""

from __future__ import annotations

import re
from dataclasses import dataclass

import streamlit as st

from explorer.links import float_text
from explorer.pages import retrieval, retrieval_query
from explorer.ui import bound, cache, classroom, language, url
from explorer.ui.language import t
from views import prose

#: Above this many queries the query is typed (a select box would send every id).
PICKER_MAX = 1000


@dataclass(frozen=True)
class Controls:
    """What the page's controls choose: the model, the settings (K and conventions) and
    what a query with no relevant item does."""

    model: str
    settings: retrieval.Settings
    empty: str


@dataclass(frozen=True)
class Query:
    """The drill-down's query (its id and row), its metric and the queries worst first
    by that metric."""

    id: str
    row: int
    drill: str
    worst: object  # numpy array of rows

    @property
    def metric(self) -> str:
        """The per-query column the drill-down's sum equals."""
        return retrieval_query.DRILL_METRIC[self.drill]


def _apply_preset(n_items: int, top_grade: int) -> None:
    values = retrieval.preset_values(st.session_state["ret_preset"], n_items, top_grade)
    for key, value in values.items():
        st.session_state[f"ret_{key}"] = value


def _to_custom() -> None:
    st.session_state["ret_preset"] = "custom"


class _OneItem:
    """Where K is drawn when a query has one item: a slider needs two values, so a
    caption says K = 1 (``bound.slider`` still reads and writes ``?k=``)."""

    def __init__(self, where) -> None:
        self.where = where

    def slider(self, label: str, *, key: str, **kwargs) -> int:
        self.where.caption(t("One item per query: K = 1."))
        return 1


def show(ds, data_max: float, top_grade: int) -> Controls:
    """K, the model and the preset on one row, the conventions in an expander below;
    ``data_max``, ``top_grade``: the dataset's largest grade and the top of its scale."""
    n_items = retrieval.max_k(ds)  # a run's K goes past its items, to trec_eval's 1000
    linked = st.query_params.get("preset")
    if linked in retrieval.PRESETS:  # a link's preset applies what the link leaves out
        values = retrieval.preset_values(linked, n_items, top_grade)
        url.preset_from_link("ret_preset", {p: (f"ret_{p}", v) for p, v in values.items()})
    c1, c2, c3 = st.columns([2, 1, 1])
    k = bound.slider(
        c1 if n_items > 1 else _OneItem(c1),
        t("K (cut-off)"),
        key="ret_k",
        param="k",
        default=retrieval.opening_k(ds.n_labels),
        parse=retrieval.whole_in(1, n_items),
        check=url.int_in(1, n_items),
        min_value=1,
        max_value=n_items,
    )
    model = bound.selectbox(c2, t("Model"), ds.model_names, key="ret_model", param="model")
    preset = bound.selectbox(
        c3,
        t("Preset (which tool?)"),
        ("custom", *retrieval.PRESETS),
        format_func=language.options(),
        key="ret_preset",
        param="preset",
        on_change=_apply_preset,
        args=(n_items, top_grade),
        help=t("Sets the conventions below to those of a tool or a worked example."),
    )
    name = "preset-" + re.sub(r"[^\w-]+", "-", preset)
    note = prose.section("retrieval", name)
    # a worked example's own result is the answer the class is guessing
    result = f"{name}-result" in prose.sections("retrieval")
    if result and classroom.numbers_shown():
        note = f"{note} {prose.section('retrieval', f'{name}-result')}"
    st.caption(t("**${preset}**: ${note}", preset=t(preset), note=note))
    with st.expander(t("Conventions: the switches that make tools disagree"), expanded=True):
        denominator, ties, level = _ranking_conventions(top_grade)
        gain, max_grade, empty = _gain_conventions(data_max)
    settings = retrieval.Settings(
        k=int(k),
        denominator=denominator,
        level=int(level),
        gain=gain,
        max_grade=float(max_grade),
        ties=ties,
    )
    return Controls(model, settings, empty)


def _ranking_conventions(top_grade: int) -> tuple[str, str, int]:
    """The AP@K denominator, the tie rule and the relevance level, on one row."""
    v1, v2, v3 = st.columns(3)
    denominator = bound.selectbox(
        v1,
        t("AP@K denominator"),
        tuple(retrieval.DENOMINATORS),
        key="ret_ap_denominator",
        param="ap_denominator",
        format_func=language.options(retrieval.DENOMINATORS),
        on_change=_to_custom,
    )
    ties = bound.selectbox(
        v2,
        t("Tied scores"),
        tuple(retrieval.TIES),
        key="ret_tie_mode",
        param="tie_mode",
        format_func=language.options(retrieval.TIES),
        on_change=_to_custom,
        help=t(
            "trec_eval breaks ties by document id; the metrics package by column order "
            "(lower column first); scikit-learn's NDCG averages over the tie group."
        ),
    )
    level = bound.number(
        v3,
        t("Relevant from grade"),
        key="ret_rel_level",
        param="rel_level",
        default=1,
        parse=retrieval.whole_in(1, top_grade),
        check=url.int_in(1, top_grade),
        to_url=lambda v: str(int(v)),
        min_value=1,
        max_value=top_grade,
        step=1,
        on_change=_to_custom,
        disabled=top_grade == 1,
        help=t(
            "P, R, hit rate, AP and RR count an item as relevant when its grade is at least "
            "this (trec_eval -l, ranx rel_lvl). ERR and NDCG use the grades themselves."
        ),
    )
    return denominator, ties, level


def _gain_conventions(data_max: float) -> tuple[str, float, str]:
    """The NDCG gain, ERR's maximum grade and the empty-query rule, on one row."""
    gains = retrieval.offered_gains(data_max)
    w1, w2, w3 = st.columns(3)
    gain = bound.radio(
        w1,
        t("NDCG gain"),
        tuple(gains),
        key="ret_gain",
        param="gain",
        format_func=language.options(gains),
        horizontal=True,
        on_change=_to_custom,
    )
    if "exponential" not in gains:
        w1.caption(
            t(
                "The exponential gain 2^g - 1 overflows float64 from grade 1024 on; this data's "
                "grades reach ${top}, so NDCG uses the linear gain only.",
                top=f"{data_max:g}",
            )
        )
    max_grade = bound.number(
        w2,
        t("ERR maximum grade"),
        key="ret_max_grade",
        param="max_grade",
        default=data_max,
        parse=retrieval.grade_from(data_max),
        check=retrieval.at_least(data_max),
        to_url=float_text,
        min_value=data_max,
        step=1.0,
        on_change=_to_custom,
        help=t(
            "Chapelle's stop probability R = (2^g - 1) / 2^max_grade; by default the "
            "largest grade in the data."
        ),
    )
    empty = bound.radio(
        w3,
        t("Query with no relevant item"),
        tuple(retrieval.EMPTY),
        key="ret_empty_query",
        param="empty_query",
        format_func=language.options(retrieval.EMPTY),
        horizontal=True,
        on_change=_to_custom,
    )
    return gain, max_grade, empty


def query(ds, controls: Controls) -> Query:
    """The drill-down's metric and query (opening on the worst query by that metric)."""
    q1, q2 = st.columns([2, 3])
    drill = bound.radio(
        q2,
        t("Metric"),
        retrieval_query.DRILL,
        key="ret_drill_metric",
        param="drill_metric",
        horizontal=True,
    )
    model, settings, empty = controls.model, controls.settings, controls.empty
    sort = retrieval_query.DRILL_METRIC[drill]
    worst = cache.retrieval.worst_first(ds, model, settings, sort, empty)
    ids, rows = ds.sample_ids, cache.retrieval.query_rows(ds)
    if len(ids) <= PICKER_MAX:
        query_id = bound.selectbox(
            q1,
            t("Query"),
            ids,
            key="ret_query",
            param="query",
            default=ids[worst[0]],
            help=t("Opens on the worst query."),
        )
    else:  # a select box of 10^5 ids would send every one of them on each move
        query_id = _typed_query(q1, len(ids), ids[worst[0]], rows)
    return Query(query_id, rows[query_id], drill, worst)


def _typed_query(where, n: int, default: str, rows: dict[str, int]) -> str:
    """A text box of the query's id bound to ``?query=`` (an unknown id: the worst query)."""
    return bound.text(
        where,
        t("Query (its id; ${n:,} queries)", n=n),
        key="ret_query",
        param="query",
        default=default,
        check=retrieval_query.known_query(rows),
        help=t("Opens on the worst query; type another id, or see the per-query table."),
    )
