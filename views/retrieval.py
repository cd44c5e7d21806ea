"""Top-K retrieval: P@K, R@K, hit rate, MAP@K, MRR, ERR@K, NDCG@K, and why tools disagree."""

from __future__ import annotations

import math
import threading
from collections import OrderedDict

import numpy as np
import pandas as pd
import streamlit as st

from explorer import state, widgets
from explorer.charts.retrieval import grade_color, metrics_vs_k_figure, ranked_list_figure
from explorer.datasets import GRADE_LIMIT, MAX_GRADE, Dataset
from explorer.formatting import fmt
from explorer.links import float_text
from metrics import MetricInputError
from metrics.retrieval import (
    CONVENTION_METRICS,
    METRIC_PART,
    retrieval_curve,
    retrieval_means,
    retrieval_per_query,
    retrieval_query_steps,
    retrieval_summary,
    score_order,
)

st.title("Top-K retrieval")
st.markdown(
    "Each row is a **query**, each column a candidate **item**; the model's scores rank the "
    "items of a query, and we look at the top **K**. The same ranking gives different numbers "
    "in scikit-learn, trec_eval, ranx and torchmetrics: the **switchboard** below shows why."
)

ds = state.active()
widgets.require_kind(ds, ("graded", "multilabel"), "seed002_map")

# ------------------------------------------------------------------ conventions
DENOMINATORS = {
    "min_m_k": "min(M, K): the common AP@K (seed 002)",
    "relevant": "M, all relevant items (trec_eval, ranx)",
    "k": "K, the list length (seed 004's AveP example)",
    "hits": "hits in the top K (torchmetrics)",
}
DEN_SHORT = {"min_m_k": "min(M, K)", "relevant": "M", "k": "K", "hits": "hits@K"}
DEN_LATEX = {"min_m_k": r"\min(M, K)", "relevant": "M", "k": "K", "hits": r"\text{hits@K}"}
TIES = {
    "column": "column order (trec_eval: by document id)",
    "tie-averaged": "tie-averaged (expected over tie orders)",
    "optimistic": "optimistic (relevant first)",
    "pessimistic": "pessimistic (relevant last)",
}
GAINS = {"linear": "linear: g", "exponential": "exponential: 2^g - 1"}
EMPTY = {"zero": "score 0", "drop": "drop from the mean"}
DRILL = ("AP@K", "ERR", "DCG", "RR")

data_max = float(ds.y_true.max())
if data_max > MAX_GRADE:  # the readers refuse these; a dataset from elsewhere says so here
    st.warning(
        f"This page cannot rank **{ds.name}**: its largest grade, {data_max:.17g}, "
        f"{GRADE_LIMIT}. The relevance threshold would compare inexact grades.",
        icon="⚠️",
    )
    state.stop_page()
top_grade = max(1, math.ceil(data_max))
#: 2^g - 1 overflows float64 from grade 1024 on: the exponential gain is not offered then.
if data_max >= 1024:
    GAINS = {"linear": GAINS["linear"]}
n_items = ds.n_labels
default_k = min(5, n_items)

PRESETS = {
    "scikit-learn": {
        "ap_denominator": "relevant",
        "tie_mode": "tie-averaged",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
    },
    "trec_eval": {
        "ap_denominator": "relevant",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
    },
    "ranx": {
        "ap_denominator": "relevant",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
    },
    "torchmetrics": {
        "ap_denominator": "hits",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
    },
    "seed 002 AP@K": {
        "ap_denominator": "min_m_k",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
        "k": 5,
    },
    "seed 004 AveP": {
        "ap_denominator": "k",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
        "k": 10,
    },
}
PRESET_NOTES = {
    "custom": "your own choice of conventions.",
    "scikit-learn": "ndcg_score averages tied scores (McSherry & Najork) with linear gains; "
    "top_k_accuracy_score is the hit rate. It has no P@K or MAP@K; its per-row "
    "average_precision_score divides by all relevant items and treats a tie group as one "
    "threshold, which is close to but not the same as the tie-averaged AP shown here.",
    "trec_eval": "map_cut_K divides by all relevant items (also those not retrieved), P_K by "
    "K, ndcg_cut_K uses linear gains; ties are broken by document id (a TREC upload's columns "
    "are already in that order); a judged query with no relevant document scores 0.",
    "ranx": "average_precision divides by all relevant items at rel_lvl; ndcg uses linear "
    "gains (ndcg_burges the exponential ones); a query with no relevant judgment scores 0.",
    "torchmetrics": "retrieval_average_precision(top_k) averages the precisions over the "
    "relevant items found in the top K; empty_target_action='neg' scores an empty query 0; "
    "ties follow torch.topk (not specified; column order shown).",
    "seed 002 AP@K": "AP@K = sum of P(k) rel(k) over min(M, K), with K = 5: the revision sheet's "
    "0.76 and 0.5, MAP 0.63.",
    "seed 004 AveP": "its worked example divides by the list length (K = 10) and gets 0.26, "
    "where its own formula divides by the number of relevant items.",
}


def _apply_preset() -> None:
    name = st.session_state["ret_preset"]
    for key, value in PRESETS.get(name, {}).items():
        if key == "k":
            value = min(value, n_items)
        if key == "rel_level":
            value = min(value, top_grade)
        st.session_state[f"ret_{key}"] = value


def _to_custom() -> None:
    st.session_state["ret_preset"] = "custom"


def _int_in(lo: int, hi: int):
    def parse(raw: str) -> int:
        v = int(raw)
        if not lo <= v <= hi:
            raise ValueError(raw)
        return v

    return parse


def _grade(raw: str) -> float:
    v = float(raw)
    if not (math.isfinite(v) and v >= data_max):
        raise ValueError(raw)
    return v


def _at_least_data_max(value) -> float:
    v = float(value)
    if not math.isfinite(v):
        raise ValueError(value)
    return max(v, data_max)


# each value, from the URL or left by an earlier run, is checked against this dataset
# (a None, a text or a k beyond the items must not reach a widget or int())
state.bind_param("ret_k", "k", default_k, _int_in(1, n_items), state.int_in(1, n_items))
state.bind_param("ret_model", "model", ds.model_names[0], str, state.member(ds.model_names))
state.bind_param("ret_preset", "preset", "custom", str, state.member(("custom", *PRESETS)))
state.bind_param("ret_ap_denominator", "ap_denominator", "min_m_k", str, state.member(DENOMINATORS))
state.bind_param("ret_rel_level", "rel_level", 1, _int_in(1, top_grade), state.int_in(1, top_grade))
state.bind_param("ret_gain", "gain", "linear", str, state.member(GAINS))
state.bind_param("ret_max_grade", "max_grade", data_max, _grade, _at_least_data_max)
state.bind_param("ret_tie_mode", "tie_mode", "column", str, state.member(TIES))
state.bind_param("ret_empty_query", "empty_query", "zero", str, state.member(EMPTY))

c1, c2, c3 = st.columns([2, 1, 1])
if n_items > 1:
    k = c1.slider("K (cut-off)", 1, n_items, key="ret_k")
else:
    k = 1
    c1.caption("One item per query: K = 1.")
model = c2.selectbox("Model", ds.model_names, key="ret_model")
preset = c3.selectbox(
    "Preset (which tool?)",
    ("custom", *PRESETS),
    key="ret_preset",
    on_change=_apply_preset,
    help="Sets the conventions below to those of a tool or a worked example.",
)
st.caption(f"**{preset}**: {PRESET_NOTES[preset]}")

with st.expander("Conventions: the switches that make tools disagree", expanded=True):
    v1, v2, v3 = st.columns(3)
    denominator = v1.selectbox(
        "AP@K denominator",
        tuple(DENOMINATORS),
        format_func=DENOMINATORS.get,
        key="ret_ap_denominator",
        on_change=_to_custom,
    )
    tie_mode = v2.selectbox(
        "Tied scores",
        tuple(TIES),
        format_func=TIES.get,
        key="ret_tie_mode",
        on_change=_to_custom,
        help="trec_eval breaks ties by document id; the metrics package by column order "
        "(lower column first); scikit-learn's NDCG averages over the tie group.",
    )
    rel_level = v3.number_input(
        "Relevant from grade",
        min_value=1,
        max_value=top_grade,
        step=1,
        key="ret_rel_level",
        on_change=_to_custom,
        disabled=top_grade == 1,
        help="P, R, hit rate, AP and RR count an item as relevant when its grade is at least "
        "this (trec_eval -l, ranx rel_lvl). ERR and NDCG use the grades themselves.",
    )
    w1, w2, w3 = st.columns(3)
    gain = w1.radio(
        "NDCG gain",
        tuple(GAINS),
        format_func=GAINS.get,
        key="ret_gain",
        horizontal=True,
        on_change=_to_custom,
    )
    if "exponential" not in GAINS:
        w1.caption(
            f"The exponential gain 2^g - 1 overflows float64 from grade 1024 on; this data's "
            f"grades reach {data_max:g}, so NDCG uses the linear gain only."
        )
    max_grade = w2.number_input(
        "ERR maximum grade",
        min_value=data_max,
        step=1.0,
        key="ret_max_grade",
        on_change=_to_custom,
        help="Chapelle's stop probability R = (2^g - 1) / 2^max_grade; by default the "
        "largest grade in the data.",
    )
    empty = w3.radio(
        "Query with no relevant item",
        tuple(EMPTY),
        format_func=EMPTY.get,
        key="ret_empty_query",
        horizontal=True,
        on_change=_to_custom,
    )

for param in ("k", "model", "preset", "ap_denominator", "tie_mode", "gain", "empty_query"):
    state.write_param(param, st.session_state[f"ret_{param}"])
state.write_param("rel_level", int(rel_level))
state.write_param("max_grade", float_text(max_grade))

settings = {
    "k": int(k),
    "denominator": denominator,
    "level": int(rel_level),
    "gain": gain,
    "max_grade": float(max_grade),
    "ties": tie_mode,
}


# The per-query tables (100,000 x 8 on big data) and the curves live in st.cache_resource
# (keyed on the dataset's fingerprint, shared, not copied on every rerun), by family of
# columns: P, R, hit rate, AP and RR depend on the relevance grade and the AP denominator,
# ERR on its maximum grade, NDCG on its gain. A change of one of these recomputes its
# family only; a curve does not depend on K, so moving K computes the per-query columns
# at the new K only; what is missing is computed in one pass over the matrix, ranked once
# per model (score_order).
_BY_FINGERPRINT = {Dataset: lambda d: d.fingerprint}
#: The conventions each family of columns depends on (besides the model, K and ties).
FAMILY_SETTINGS = {"rel": ("level", "denominator"), "err": ("max_grade",), "dcg": ("gain",)}
FAMILY_COLUMNS = {
    fam: tuple(c for c in CONVENTION_METRICS if METRIC_PART[c] == fam) for fam in FAMILY_SETTINGS
}
CURVE_COLUMNS = {"AP@K": "MAP@K", "RR": "MRR@K"}
#: How many per-query tables (of each family) and curves of one dataset are kept.
KEEP_TABLES, KEEP_CURVES = 8, 32


@st.cache_resource(max_entries=4, hash_funcs=_BY_FINGERPRINT)
def _memo(ds) -> dict:
    """This dataset's computed columns, by family and settings, and assembled tables.

    Shared by every session on the dataset: ``"lock"`` serializes their updates.
    """
    memo = {name: OrderedDict() for name in ("per_query", "curve", "table", "curve_table")}
    return memo | {"lock": threading.Lock()}


@st.cache_resource(max_entries=4, hash_funcs=_BY_FINGERPRINT)
def _order(ds, model: str) -> np.ndarray:
    """The model's ranking of every query (one sort, reused by every K and convention)."""
    return score_order(ds.score(model))


def _remember(store: OrderedDict, key: tuple, value, keep: int) -> None:
    store[key] = value
    store.move_to_end(key)
    while len(store) > keep:
        store.popitem(last=False)


def _columns(families) -> list[str]:
    return [c for fam in families for c in FAMILY_COLUMNS[fam]]


def tables(
    ds, model: str, settings: tuple, empty: str, *, with_curve: bool = True
) -> tuple[pd.DataFrame, pd.DataFrame | None]:
    """The per-query table at the settings' K and (``with_curve``) the curve over every
    K; shared objects, read-only."""
    memo = _memo(ds)
    with memo["lock"]:  # sessions on one dataset take turns
        return _tables_locked(memo, ds, model, settings, empty, with_curve)


def _tables_locked(memo: dict, ds, model: str, settings: tuple, empty: str, with_curve: bool):
    s = dict(settings)
    pq_keys, curve_keys = {}, {}
    for fam, names in FAMILY_SETTINGS.items():
        conv = (model, fam, s["ties"], *(s[n] for n in names))
        pq_keys[fam] = (*conv, s["k"])
        curve_keys[fam] = (*conv, empty, s["level"] if empty == "drop" else None)
    table_key, curve_key = (model, settings), (model, settings, empty)
    per_query = memo["table"].get(table_key)
    curve = memo["curve_table"].get(curve_key) if with_curve else None
    if per_query is not None and (curve is not None or not with_curve):
        memo["table"].move_to_end(table_key)
        return per_query, curve

    for store, keys in ((memo["per_query"], pq_keys), (memo["curve"], curve_keys)):
        for key in keys.values():  # kept ones are the newest: a store never drops them now
            if key in store:
                store.move_to_end(key)
    need_pq = [f for f in FAMILY_SETTINGS if pq_keys[f] not in memo["per_query"]]
    need_curve = [f for f in FAMILY_SETTINGS if with_curve and curve_keys[f] not in memo["curve"]]
    both = [f for f in need_pq if f in need_curve]
    args = dict(s, y_true=ds.y_true, y_score=ds.score(model), order=_order(ds, model))
    got_pq, got_curve = {}, {}
    if both:
        t, c = retrieval_summary(**args, k_max=n_items, empty=empty, metrics=_columns(both))
        got_pq |= dict.fromkeys(both, t)
        got_curve |= dict.fromkeys(both, c)
    if set(need_pq) - set(both):
        rest = [f for f in need_pq if f not in both]
        got_pq |= dict.fromkeys(rest, retrieval_per_query(**args, metrics=_columns(rest)))
    if set(need_curve) - set(both):
        rest = [f for f in need_curve if f not in both]
        args.pop("k")
        c = retrieval_curve(**args, k_max=n_items, empty=empty, metrics=_columns(rest))
        got_curve |= dict.fromkeys(rest, c)
    for fam, t in got_pq.items():
        keep = [*FAMILY_COLUMNS[fam], *(["relevant"] if fam == "rel" else [])]
        _remember(memo["per_query"], pq_keys[fam], t[keep], KEEP_TABLES)
    for fam, c in got_curve.items():
        cols = [CURVE_COLUMNS.get(n, n) for n in FAMILY_COLUMNS[fam]]
        _remember(memo["curve"], curve_keys[fam], c[cols], KEEP_CURVES)

    parts = [memo["per_query"][pq_keys[f]] for f in FAMILY_SETTINGS]
    per_query = pd.concat(parts, axis=1)[[*CONVENTION_METRICS, "relevant"]]
    _remember(memo["table"], table_key, per_query, KEEP_TABLES)
    if with_curve:
        parts = [memo["curve"][curve_keys[f]] for f in FAMILY_SETTINGS]
        curve = pd.concat([pd.DataFrame({"K": np.arange(1, n_items + 1)}), *parts], axis=1)
        _remember(memo["curve_table"], curve_key, curve, KEEP_TABLES)
    return per_query, curve


def per_query_table(ds, model: str, settings: tuple) -> pd.DataFrame:
    """The per-query table alone (kept with the others; read-only)."""
    return tables(ds, model, settings, "zero", with_curve=False)[0]


@widgets.cache_by_dataset
def steps_table(ds, model: str, query: int, settings: tuple) -> pd.DataFrame:
    """One query's steps. The settings carry ``max_grade`` (at least the matrix's largest
    grade), so the query's row alone gives the numbers of the whole matrix's table."""
    rows = slice(query, query + 1)
    return retrieval_query_steps(ds.y_true[rows], ds.score(model)[rows], 0, **dict(settings))


@st.cache_resource(max_entries=4, hash_funcs=_BY_FINGERPRINT)
def _id_rank(ds) -> np.ndarray:
    """Each query id's place in sorted order (ties of the worst-first sort)."""
    ids = np.asarray(ds.sample_ids, dtype=object)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[np.argsort(ids, kind="stable")] = np.arange(len(ids))
    return rank


@st.cache_resource(max_entries=8, hash_funcs=_BY_FINGERPRINT)
def worst_first(ds, model: str, settings: tuple, sort: str, _per_query) -> np.ndarray:
    """The rows of the per-query table, worst ``sort`` first (ties by query id)."""
    return np.lexsort((_id_rank(ds), _per_query[sort].to_numpy()))


def worst_first_rows(ds, per_query: pd.DataFrame, order: np.ndarray) -> pd.DataFrame:
    """The rows ``order`` of the per-query table, with their query ids first."""
    table = per_query.take(order).reset_index(drop=True)
    table.insert(0, "query", [ds.sample_ids[i] for i in order])
    return table


def _key(s: dict) -> tuple:
    return tuple(sorted(s.items()))


#: Above this many query x item cells the switchboard (one ranking of the
#: whole matrix per row of the board) is computed on demand, not on every rerun.
SWITCHBOARD_CELLS = 1_000_000
#: Rows of the per-query table shown at once (the CSV holds every row).
PAGE_ROWS = 200

try:
    per_query, curve = tables(ds, model, _key(settings), empty)
    means = retrieval_means(per_query, empty=empty)
except MetricInputError as exc:
    st.error(str(exc))
    state.stop_page()

# ------------------------------------------------------------------ 1 headline
HEADLINE = [
    ("P@K", "P@K"),
    ("R@K", "R@K"),
    ("Hit rate@K", "hit rate@K"),
    ("MAP@K", "AP@K"),
    ("MRR", "RR"),
    ("ERR@K", "ERR@K"),
    ("NDCG@K", "NDCG@K"),
]
for chunk in (HEADLINE[:4], HEADLINE[4:]):
    cols = st.columns(4)
    for col, (label, name) in zip(cols, chunk, strict=False):
        col.metric(label, fmt(means[name]))
n_empty = int((per_query["relevant"] == 0).sum())
st.caption(
    f"Model **{model}**, K = {k}, {ds.n_samples} queries x {n_items} items; AP@K divides by "
    f"{DEN_SHORT[denominator]}; ties: {TIES[tie_mode]}. MRR looks at the whole ranking "
    "(no cut). "
    + (
        f"**{n_empty} quer{'y has' if n_empty == 1 else 'ies have'} no item of grade >= "
        f"{int(rel_level)}**: they {'score 0 and count' if empty == 'zero' else 'are dropped'} "
        "in every mean."
        if n_empty
        else "Every query has a relevant item."
    )
)
if ds.source == "upload" and "TREC" in ds.description:
    st.info(f"TREC upload: {ds.description}")

# ------------------------------------------------------------------ 2 picture
st.subheader("Each metric against K")
st.plotly_chart(metrics_vs_k_figure(curve, int(k)), key="ret_curve_chart")
st.caption(
    "Precision falls and recall rises as K grows; the hit rate and MRR@K only ever rise "
    "(the first relevant item is found or not). At K = number of items, R@K is 1 for every "
    "query with a relevant item."
)
st.download_button(
    "Curve as CSV", lambda c=curve: c.to_csv(index=False), "retrieval_vs_k.csv", key="ret_dl_curve"
)

# ------------------------------------------------------------------ switchboard
st.subheader("Why do my numbers differ? The convention switchboard")
st.markdown(
    "Each row changes **one** switch of your current settings (or applies a tool's preset); "
    "a highlighted cell differs from the first row."
)


#: The switchboard lists every "relevant from grade" level up to this many; beyond (click
#: counts as grades), this many of the levels that change which items are relevant.
MAX_LEVEL_ROWS = 10


@widgets.cache_by_dataset
def _levels(ds) -> tuple[int, ...]:
    """The "relevant from grade" levels of the switchboard: 1 to the top grade when that is
    at most MAX_LEVEL_ROWS, else MAX_LEVEL_ROWS levels spread over the distinct ones (a
    level between two grades relevates the same items as the next grade up)."""
    if top_grade <= MAX_LEVEL_ROWS:
        return tuple(range(1, top_grade + 1))
    grades = np.unique(ds.y_true)
    distinct = np.unique(np.maximum(np.ceil(grades[grades > 0]), 1)).astype(np.int64)
    pick = np.unique(np.linspace(0, len(distinct) - 1, MAX_LEVEL_ROWS).round().astype(int))
    return tuple(int(v) for v in distinct[pick])


def _variants() -> list[tuple[str, str, dict, str]]:
    out = [("your settings", "-", dict(settings), empty)]
    for d in DENOMINATORS:
        out.append(("AP denominator", DEN_SHORT[d], {**settings, "denominator": d}, empty))
    for t in TIES:
        out.append(("ties", t, {**settings, "ties": t}, empty))
    for g in GAINS:
        out.append(("NDCG gain", g, {**settings, "gain": g}, empty))
    for lv in _levels(ds):
        out.append(("relevant from grade", str(lv), {**settings, "level": lv}, empty))
    for e in EMPTY:
        out.append(("no-relevant query", EMPTY[e], dict(settings), e))
    for mg in sorted({data_max, data_max + 1, float(max_grade)}):
        out.append(("ERR max grade", f"{mg:g}", {**settings, "max_grade": mg}, empty))
    for name, p in PRESETS.items():
        s = {
            **settings,
            "denominator": p["ap_denominator"],
            "ties": p["tie_mode"],
            "gain": p["gain"],
            "level": min(p["rel_level"], top_grade),
        }
        if "k" in p:
            s["k"] = min(p["k"], n_items)
        out.append(("preset", f"{name} (K={s['k']})", s, p["empty_query"]))
    return out


@widgets.cache_by_dataset
def switchboard(ds, model: str, variants: tuple) -> pd.DataFrame:
    rows = []
    for switch, value, s, e in variants:
        means_v = retrieval_means(per_query_table(ds, model, s), empty=e)
        rows.append(
            {"switch": switch, "convention": value}
            | {label: float(means_v[name]) for label, name in HEADLINE}
        )
    return pd.DataFrame(rows)


variants = tuple((sw, v, _key(s), e) for sw, v, s, e in _variants())
board_key = (ds.fingerprint, model, variants)
if (
    ds.n_samples * n_items <= SWITCHBOARD_CELLS
    or st.session_state.get("ret_board_for") == board_key
):
    board = switchboard(ds, model, variants)
else:
    st.info(
        f"On {ds.n_samples:,} queries x {n_items:,} items each of the {len(variants)} rows "
        "ranks the whole matrix again under its conventions, which takes a while: the "
        "switchboard is computed when you ask for it (and again after a change of settings)."
    )
    board = None
    if st.button("Compute the switchboard", key="ret_compute_board"):
        st.session_state["ret_board_for"] = board_key
        board = switchboard(ds, model, variants)
metric_cols = [label for label, _ in HEADLINE]


def _highlight(row: pd.Series) -> list[str]:
    return [
        "background-color: #ffe08a; font-weight: bold"
        if c in metric_cols and abs(row[c] - base_row[c]) > 1e-12
        else ""
        for c in row.index
    ]


if board is not None:
    base_row = board.loc[0, metric_cols]
    styled = board.style.apply(_highlight, axis=1).format("{:.4f}", subset=metric_cols)
    st.dataframe(
        styled,
        hide_index=True,
        width="stretch",
        height=36 * (len(board) + 1),
        column_config={
            "switch": st.column_config.TextColumn("switch", width="medium"),
            "convention": st.column_config.TextColumn("convention", width="medium"),
        },
    )
    st.download_button(
        "Switchboard as CSV",
        lambda b=board: b.to_csv(index=False),
        "retrieval_switchboard.csv",
        key="ret_dl_board",
    )
with st.expander("Recall@K against hit rate, and ties", expanded=False):
    st.markdown(
        "- **R@K** is the share of a query's relevant items found in the top K; the **hit "
        "rate@K** only asks whether *at least one* was found. With one relevant item per query "
        "(as in `digits`) they are equal; with several, R@K is lower.\n"
        "- **Ties**: the metrics package ranks tied scores in column order, lower column first "
        "(trec_eval breaks ties by document id, so a TREC upload ranks as trec_eval does). "
        "scikit-learn's NDCG averages the gain over a tie group, which is the expected value "
        "over every order of the tied items; *tie-averaged* here does the same for every "
        "metric (exact for P, R, hit rate, AP with a fixed denominator, RR and NDCG; ERR uses "
        "each position's expected stop probability). Optimistic and pessimistic orders bound "
        "every tie policy: a model whose scores tie a lot (the tree of `diabetes_ranking`) can "
        "look much better or worse depending on a rule nobody chose."
    )

# ------------------------------------------------------------------ 3 how it is computed
st.subheader("How it is computed: one query")
q1, q2 = st.columns([2, 3])
ids = list(ds.sample_ids)
state.bind_param("ret_query", "query", ids[0], str, state.member(ids))
query_id = q1.selectbox("Query", ids, key="ret_query")
state.bind_param("ret_drill_metric", "drill_metric", "AP@K", str, state.member(DRILL))
drill = q2.radio("Metric", DRILL, key="ret_drill_metric", horizontal=True)
state.write_param("query", query_id)
state.write_param("drill_metric", drill)
q = ids.index(query_id)

try:
    steps = steps_table(ds, model, q, _key(settings))
except MetricInputError as exc:
    st.error(str(exc))
    state.stop_page()

row = per_query.iloc[q]
top = steps[steps["in_top_k"]]
exact = tie_mode != "tie-averaged"
CONTRIB = {"AP@K": "ap_term", "ERR": "err_term", "DCG": "dcg_term", "RR": "rr_term"}
contribution = CONTRIB[drill]
total = float(steps[contribution].sum())


def _wrap(terms: list[str], per_line: int = 5) -> str:
    """Join latex terms with +, breaking the line every ``per_line`` terms."""
    if not terms:
        return "0"
    lines = [" + ".join(terms[i : i + per_line]) for i in range(0, len(terms), per_line)]
    return r" \\ &+ ".join(lines)


def _frac(a: float, b: float) -> str:
    return rf"\tfrac{{{a:g}}}{{{b:g}}}" if exact else f"{a / b:.4f}"


if drill == "AP@K":
    hits = top[top["relevant"] > 0]
    n_rel = int(row["relevant"])
    den = {
        "min_m_k": min(n_rel, k),
        "relevant": n_rel,
        "k": k,
        "hits": float(top["relevant"].sum()),
    }[denominator]
    terms = (
        " + ".join(_frac(h, p) for h, p in zip(hits["hits_so_far"], hits["position"], strict=True))
        or "0"
    )
    st.latex(
        r"AP@K = \frac{1}{" + DEN_LATEX[denominator] + r"}"
        r"\sum_{r \le K} P(r)\,\mathrm{rel}(r) = \frac{1}{"
        + f"{den:g}"
        + r"}\left("
        + terms
        + r"\right) = "
        + fmt(total)
    )
    st.caption(
        f"P(r) = relevant items in the top r / r, at each relevant position r <= {k}. "
        f"M = {n_rel} relevant items (grade >= {int(rel_level)})."
    )
elif drill == "ERR":
    parts = _wrap(
        [
            rf"\tfrac{{1}}{{{int(p)}}}\,{r:.3f}\cdot{s:.3f}"
            for p, r, s in zip(
                top["position"], top["err_stop_prob"], top["err_still_looking"], strict=True
            )
            if r > 0
        ],
        4,
    )
    st.latex(
        r"ERR@K = \sum_{r \le K} \frac{1}{r}\,R_r \prod_{i<r}(1-R_i),\quad "
        r"R = \frac{2^{g}-1}{2^{" + f"{float(max_grade):g}" + r"}}"
    )
    st.latex(r"\begin{aligned} ERR@K &= " + parts + r" \\ &= " + fmt(total) + r"\end{aligned}")
    st.caption(
        "R_r: the probability the user stops at position r, satisfied; the product: "
        "the probability they are still looking when they reach it."
    )
elif drill == "DCG":
    ideal = float(steps["ideal_dcg"].iloc[0])
    parts = _wrap(
        [
            rf"{gv:g}\cdot{dv:.3f}"
            for gv, dv in zip(top["gain"], top["discount"], strict=True)
            if gv > 0
        ]
    )
    st.latex(
        r"\begin{aligned} DCG@K &= \sum_{r \le K} \mathrm{gain}_r \cdot \frac{1}{\log_2(r+1)}"
        r" \\ &= " + parts + r" \\ &= " + fmt(total) + r"\end{aligned}"
    )
    st.latex(
        r"NDCG@K = \frac{DCG@K}{IDCG@K} = \frac{"
        + fmt(total)
        + "}{"
        + fmt(ideal)
        + "} = "
        + fmt(row["NDCG@K"])
    )
else:
    firsts = steps[steps["first_prob"] > 0]
    if firsts.empty:
        st.latex(r"RR = 0 \quad\text{(no relevant item)}")
    elif exact:
        p = int(firsts["position"].iloc[0])
        st.latex(
            r"RR = \frac{1}{\text{position of the first relevant item}} = "
            + rf"\frac{{1}}{{{p}}} = {fmt(total)}"
        )
    else:
        st.latex(
            r"RR = \sum_r \frac{P(\text{first relevant at } r)}{r} = "
            + " + ".join(
                rf"\tfrac{{{fp:.3f}}}{{{int(p)}}}"
                for fp, p in zip(firsts["first_prob"], firsts["position"], strict=True)
            )
            + " = "
            + fmt(total)
        )

names = list(ds.label_names)
st.plotly_chart(
    ranked_list_figure(
        steps,
        contribution,
        k=int(k),
        max_grade=max(float(max_grade), 1.0),
        item_names=names,
        title=f"Query {query_id}: each position's {drill} contribution",
    ),
    key="ret_drill_chart",
)
st.caption(
    "Bar colour = relevance grade (grey = 0, darker green = higher); brackets mark items "
    "with tied scores; the red dashed line is the top-K cut."
)

COLS = {
    "AP@K": ["hits_so_far", "precision", "ap_term", "ap_running"],
    "ERR": ["err_stop_prob", "err_still_looking", "err_term", "err_running"],
    "DCG": ["gain", "discount", "dcg_term", "dcg_running"],
    "RR": ["first_prob", "rr_term"],
}
show = steps[["position", "score", "grade", "relevant", "tie_group", "in_top_k"]].copy()
show.insert(1, "item name", [names[i] for i in steps["item"]])
for c in COLS[drill]:
    show[c] = steps[c]
max_g = max(float(max_grade), 1.0)


def _grade_styles(frame: pd.DataFrame) -> pd.DataFrame:
    """Colour the grade and item name cells by grade (the whole table at once)."""
    css = [
        f"background-color: {grade_color(g, max_g)}; color: "
        + ("white" if g / max_g > 0.5 else "black")
        for g in frame["grade"]
    ]
    styles = pd.DataFrame("", index=frame.index, columns=frame.columns)
    styles["grade"] = css
    styles["item name"] = css
    return styles


table = show.style.apply(_grade_styles, axis=None).format(precision=4)
st.dataframe(table, hide_index=True, width="stretch")
st.download_button(
    "Step table as CSV",
    lambda s=steps: s.to_csv(index=False),
    f"retrieval_steps_{query_id}.csv",
    key="ret_dl_steps",
)
VALUE_COL = {"AP@K": "AP@K", "ERR": "ERR@K", "DCG": "NDCG@K", "RR": "RR"}
shown = total if drill != "DCG" else total / float(steps["ideal_dcg"].iloc[0] or 1)
st.markdown(
    f"Sum of the `{contribution}` column: **{fmt(total)}**"
    + (f" (DCG; over IDCG = **{fmt(shown)}** NDCG@K)" if drill == "DCG" else "")
    + f" = this query's {VALUE_COL[drill]} in the per-query table: "
    f"**{fmt(row[VALUE_COL[drill]])}**."
)

if ds.n_samples <= 10:
    st.markdown("**Every query's AP@K, and the mean**")
    lines = []
    for i, qid in enumerate(ids):
        s_i = steps_table(ds, model, i, _key(settings))
        t_i = s_i[s_i["in_top_k"] & (s_i["relevant"] > 0)]
        fr = (
            " + ".join(
                _frac(h, p) for h, p in zip(t_i["hits_so_far"], t_i["position"], strict=True)
            )
            or "0"
        )
        n_rel_i = int(per_query["relevant"].iloc[i])
        den_i = {
            "min_m_k": min(n_rel_i, k),
            "relevant": n_rel_i,
            "k": k,
            "hits": float(s_i.loc[s_i["in_top_k"], "relevant"].sum()),
        }[denominator]
        lines.append(
            rf"AP@{k}(\text{{{qid}}}) = \frac{{1}}{{{den_i:g}}}\left({fr}\right) = "
            + fmt(per_query["AP@K"].iloc[i])
        )
    st.latex(r" \\ ".join(lines))
    kept = per_query if empty == "zero" else per_query[per_query["relevant"] > 0]
    st.latex(
        rf"MAP@{k} = \frac{{"
        + " + ".join(fmt(v) for v in kept["AP@K"])
        + rf"}}{{{len(kept)}}} = "
        + fmt(means["AP@K"])
    )

# ------------------------------------------------------------------ 4 per query
st.subheader("Per query, worst first")
metric_names = [name for _, name in HEADLINE]
SORT = {"AP@K": "AP@K", "ERR": "ERR@K", "DCG": "NDCG@K", "RR": "RR"}[drill]
worst = worst_first(ds, model, _key(settings), SORT, per_query)
n_rows = len(worst)
start = 1
if n_rows > PAGE_ROWS:
    state.bind_param("ret_rows_from", None, 1, check=state.int_in(1, n_rows, clamp=False))
    start = int(
        st.number_input(
            "Show rows from (1 = the worst query)",
            min_value=1,
            max_value=n_rows,
            step=PAGE_ROWS,
            key="ret_rows_from",
        )
    )
stop = min(start - 1 + PAGE_ROWS, n_rows)
st.caption(
    f"Sorted by {SORT} (the drill-down metric), worst first. "
    + (
        f"Showing rows {start:,} to {stop:,} of {n_rows:,}; the CSV has all."
        if n_rows > PAGE_ROWS
        else ""
    )
    + " Pick a query above to open it."
)
st.dataframe(
    worst_first_rows(ds, per_query, worst[start - 1 : stop]),
    hide_index=True,
    width="stretch",
    column_config={c: st.column_config.NumberColumn(c, format="%.4f") for c in metric_names},
)
st.download_button(
    "Per-query table as CSV",
    lambda d=ds, t=per_query, o=worst: worst_first_rows(d, t, o).to_csv(index=False),
    "retrieval_per_query.csv",
    key="ret_dl_per_query",
)
