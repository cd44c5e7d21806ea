"""The Top-K retrieval page's headline (views/retrieval/panel.py): the means over queries, each
written out with its per-query terms, and the way to the worst queries."""

from __future__ import annotations

import streamlit as st

from explorer.formatting import fmt, literal
from explorer.pages import retrieval
from explorer.ui import cache, classroom
from views import prose

#: The anchor of the per-query table, worst first (linked from the headline).
TABLE_ANCHOR = "ret-worst-first"


#: What a query without a relevant item does, under each empty-query rule.
RULE_TEXT = {"zero": "score 0 and count", "drop": "are dropped", "one": "score 1 and count"}


def headline(ds, model: str, per_query, means: dict, settings, empty: str) -> None:
    """The headline metrics, the line that derives each and the caption under them."""
    labels = list(means)
    ci = classroom.intervals(cache.retrieval.intervals, ds, model, settings, empty)
    for chunk in (labels[:4], labels[4:]):
        for col, label in zip(st.columns(4), chunk, strict=False):
            classroom.headline(col, label, fmt(means[label]), interval=ci.get(label))
    classroom.reveal_button()
    with st.container(key="ret_derivation"):
        hidden = classroom.derivations_hidden()
        derived = {} if hidden else retrieval.derivations(per_query, means, empty)
        for d in derived.values():
            if d.count:
                st.markdown(d.text())
            else:
                st.markdown(f"{d.name} = 0: no query has a relevant item, and all are dropped.")
    k, rel_level = settings.k, settings.level
    n_empty = retrieval.empty_queries(per_query)
    kept = {"drop": " with a relevant item", "one": " (1 for a query without a relevant item)"}
    kept = kept.get(empty, "") if n_empty else ""
    st.caption(prose.fill("retrieval", "derivation", kept=kept, anchor=TABLE_ANCHOR))
    st.caption(
        f"Model **{literal(model)}**, K = {k}, {ds.n_samples} queries x {ds.n_labels} items; AP@K "
        f"divides by {retrieval.DEN_SHORT[settings.denominator]}; "
        f"ties: {retrieval.TIES[settings.ties]}. "
        "MRR looks at the whole ranking (no cut). "
        + (
            f"**{n_empty} quer{'y has' if n_empty == 1 else 'ies have'} no item of grade >= "
            f"{int(rel_level)}**: they {RULE_TEXT[empty]} "
            "in every mean."
            if n_empty
            else "Every query has a relevant item."
        )
    )
    if ds.source == "upload" and "TREC" in ds.description:
        st.info(f"TREC upload: {literal(ds.description)}")
