"""The Label ranking page's headline (views/label_ranking.py): the three numbers, each
written out as the mean of its per-sample terms, and the way to the worst samples."""

from __future__ import annotations

import streamlit as st

from explorer.formatting import fmt
from explorer.pages import label_ranking as model
from explorer.ui import cache, classroom
from views import prose

#: The anchor of the per-sample table, worst first (linked from the headline).
TABLE_ANCHOR = "lr-worst-first"


def headline(
    ds, model_name: str, res, base, *, is_edited: bool, i: int, one_true: bool, new_row=None
) -> None:
    """The headline metrics, their derivations, the caption and the jump to the table.

    ``new_row``: sample ``i``'s what-if scores when ``is_edited`` (for the intervals).
    """
    cols = st.columns(5)
    with_mrr = one_true and not is_edited
    ci = {}
    if classroom.intervals_on():
        edit = tuple(float(x) for x in new_row) if is_edited else None
        ci = cache.label_ranking.intervals(ds, model_name, i, edit, with_mrr)
    numbers = [
        ("Coverage error", res.coverage, "Lower is better."),
        (
            "Best coverage",
            res.best_coverage,
            "The mean number of true labels: the coverage error of a perfect ranking.",
        ),
        ("LRAP", res.lrap, "Higher is better; 1 is perfect."),
        ("Ranking loss", res.loss, "Lower is better; 0 is perfect."),
    ]
    derived = list(model.derivations(res, ds.sample_weight).values())
    if with_mrr:
        mrr = cache.label_ranking.mrr(ds, model_name)
        numbers.append(
            ("MRR", mrr, "Mean reciprocal rank: equals LRAP when every sample has one true label.")
        )
        derived.append(model.mrr_derivation(ds, model_name, mrr))
    for col, (label, value, why) in zip(cols, numbers, strict=False):
        classroom.headline(col, label, fmt(value), interval=ci.get(label), help=why)
    classroom.reveal_button()
    with st.container(key="lr_derivation"):
        if not classroom.derivations_hidden():
            for d in derived:
                st.markdown(d.text())
    weighted = ds.sample_weight is not None
    mean = "weighted mean (weight × value)" if weighted else "mean"
    st.caption(prose.section("label_ranking", "derivation").format(mean=mean, anchor=TABLE_ANCHOR))
    caption = f"Model **{model_name}**, all {ds.n_samples} samples"
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
