"""The Top-K retrieval page's headline (views/retrieval/panel.py): the means over queries, each
written out with its per-query terms, and the way to the worst queries."""

from __future__ import annotations

import streamlit as st

from explorer.formatting import fmt, literal
from explorer.pages import retrieval
from explorer.ui import cache, classroom
from explorer.ui.language import t
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
            classroom.headline(col, t(label), fmt(means[label]), interval=ci.get(label))
    classroom.reveal_button()
    with st.container(key="ret_derivation"):
        hidden = classroom.derivations_hidden()
        derived = {} if hidden else retrieval.derivations(per_query, means, empty)
        for d in derived.values():
            if d.count:
                st.markdown(t(d.text()))
            else:
                st.markdown(
                    t(
                        "${name} = 0: no query has a relevant item, and all are dropped.",
                        name=t(d.name),
                    )
                )
    k, rel_level = settings.k, settings.level
    n_empty = retrieval.empty_queries(per_query)
    kept = {"drop": " with a relevant item", "one": " (1 for a query without a relevant item)"}
    kept = t(kept.get(empty, "")) if n_empty else ""
    st.caption(prose.fill("retrieval", "derivation", kept=kept, anchor=TABLE_ANCHOR))
    if not n_empty:
        empties = t("Every query has a relevant item.")
    elif n_empty == 1:
        empties = t(
            "**${n} query has no item of grade >= ${level}**: they ${rule} in every mean.",
            n=n_empty,
            level=int(rel_level),
            rule=t(RULE_TEXT[empty]),
        )
    else:
        empties = t(
            "**${n} queries have no item of grade >= ${level}**: they ${rule} in every mean.",
            n=n_empty,
            level=int(rel_level),
            rule=t(RULE_TEXT[empty]),
        )
    st.caption(
        t(
            "Model **${model}**, K = ${k}, ${n} queries x ${items} items; AP@K divides by "
            "${den}; ties: ${ties}. MRR looks at the whole ranking (no cut). ${empties}",
            model=literal(model),
            k=k,
            n=ds.n_samples,
            items=ds.n_labels,
            den=retrieval.DEN_SHORT[settings.denominator],
            ties=t(retrieval.TIES[settings.ties]),
            empties=empties,
        )
    )
    if ds.source == "upload" and "TREC" in ds.description:
        st.info(t("TREC upload: ${description}", description=literal(ds.description)))
