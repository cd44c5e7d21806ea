"""The per-sample part of Compare two models: how many samples B won and lost, the
samples that changed most both ways (each opening its drill-down where a page has one),
and A against B per sample."""

from __future__ import annotations

import streamlit as st

from explorer import registry
from explorer.charts import compare as charts
from explorer.datasets import Dataset
from explorer.formatting import literal, model_words
from explorer.pages import compare
from explorer.ui import widgets

#: Where a sample's drill-down lives, by kind: (page, URL parameter, by id or by row).
DRILL_DOWN = {
    "multilabel": ("label_ranking", "i", "row"),
    "graded": ("dcg", "sample", "id"),
}


def show(ds: Dataset, result, model_a: str, model_b: str) -> None:
    """The counts, the two tables of the samples that changed most, and the scatter."""
    st.subheader(f"Where {literal(model_b)} wins and loses: {result.per_sample} per sample")
    st.caption(result.per_sample_help)
    better, worse, same = result.counts()
    st.markdown(
        f"B did better on **{better}** samples, worse on **{worse}**, the same on **{same}** "
        f"(of {ds.n_samples})."
    )
    losses, wins = result.changed(ds)
    for title, frame in ((f"{model_b} lost most", losses), (f"{model_b} won most", wins)):
        st.markdown(f"**{literal(title)}**")
        if frame.empty:
            st.caption("— none: no sample went this way.")
            continue
        changed(ds, frame, model_a, model_b, result.per_sample)
    drawn = result.drawn
    fig = charts.scatter(
        result.a_values, result.b_values, ds.sample_ids, drawn, result.per_sample, model_a, model_b
    )
    widgets.plotly_chart(st, fig, key="cmp_scatter")
    st.caption(
        "Each dot is a sample; on the dotted line A and B agree. "
        + ("Above it B did better. " if result.higher_is_better else "Below it B did better. ")
        + _reduced(drawn)
    )


def _reduced(drawn) -> str:
    """What a dot stands for when it is more than one sample."""
    if drawn.gridded:
        return (
            f"With more than {compare.MAX_POINTS:,} distinct points, the square is cut into "
            f"{compare.GRID} x {compare.GRID} cells and each cell that holds samples shows one "
            "of them (its most changed), its hover saying how many more the cell holds; the "
            "lowest and highest A, B and B - A are drawn as they are."
        )
    if drawn.counts.size and drawn.counts.max() > 1:
        return "Samples with the same A and B are one dot; its hover says how many."
    return ""


def changed(ds: Dataset, frame, model_a: str, model_b: str, per_sample: str) -> None:
    """One table of changed samples (id, label, both scores where a sample has one, the
    per-sample values and the gain), and a link to the first one's drill-down."""
    widgets.dataframe(
        st,
        frame,
        hide_index=True,
        width="stretch",
        column_config={
            "A score": st.column_config.NumberColumn(f"{model_a} score"),
            "B score": st.column_config.NumberColumn(f"{model_b} score"),
            "A": st.column_config.NumberColumn(f"{model_a}: {per_sample}"),
            "B": st.column_config.NumberColumn(f"{model_b}: {per_sample}"),
            "B better by": st.column_config.NumberColumn(),
        },
    )
    drill = DRILL_DOWN.get(ds.kind)
    if drill:
        page, param, by = drill
        first = frame.iloc[0]
        value = int(first["row"]) if by == "row" else str(first["sample"])
        st.page_link(
            registry.script(page),
            label=f"Open sample {literal(first['sample'])} on its page "
            f"({model_words(model_a, bold=False)})",
            query_params={"ds": ds.name, param: str(value), "model": model_a},
        )
