"""The Label ranking page's headline (views/label_ranking.py): the three numbers, each
written out as the mean of its per-sample terms, and the way to the worst samples."""

from __future__ import annotations

import streamlit as st

from explorer import cache
from explorer.formatting import fmt
from explorer.pages import label_ranking as model
from views import prose

#: The anchor of the per-sample table, worst first (linked from the headline).
TABLE_ANCHOR = "lr-worst-first"


def headline(ds, model_name: str, res, base, *, is_edited: bool, i: int, one_true: bool) -> None:
    """The headline metrics, their derivations, the caption and the jump to the table."""
    n = ds.n_samples
    cols = st.columns(5)
    cols[0].metric("Coverage error", fmt(res.coverage), help="Lower is better.")
    cols[1].metric(
        "Best coverage",
        fmt(res.best_coverage),
        help="The mean number of true labels: the coverage error of a perfect ranking.",
    )
    cols[2].metric("LRAP", fmt(res.lrap), help="Higher is better; 1 is perfect.")
    cols[3].metric("Ranking loss", fmt(res.loss), help="Lower is better; 0 is perfect.")
    derived = list(model.derivations(res, ds.sample_weight).values())
    if one_true and not is_edited:
        mrr = cache.lr_mrr(ds, model_name)
        cols[4].metric(
            "MRR",
            fmt(mrr),
            help="Mean reciprocal rank: equals LRAP when every sample has one true label.",
        )
        derived.append(model.mrr_derivation(ds, model_name, mrr))
    with st.container(key="lr_derivation"):
        for d in derived:
            st.markdown(d.text())
    weighted = ds.sample_weight is not None
    mean = "weighted mean (weight × value)" if weighted else "mean"
    st.caption(prose.section("label_ranking", "derivation").format(mean=mean, anchor=TABLE_ANCHOR))
    caption = f"Model **{model_name}**, all {n} samples"
    if weighted:
        caption += ", weighted by sample_weight"
    if is_edited:
        caption += (
            f". With the what-if scores of sample {i}; before the edit: coverage error "
            f"{fmt(base.coverage)}, LRAP {fmt(base.lrap)}, ranking loss {fmt(base.loss)}"
        )
    st.caption(caption + ".")
    if one_true:
        st.success(prose.section("label_ranking", "one-true"))
