"""The per-sample part of Compare two models: how many samples B won and lost, the
samples that changed most both ways (each opening its drill-down where a page has one),
and A against B per sample."""

from __future__ import annotations

import streamlit as st

from explorer import registry
from explorer.charts import compare as charts
from explorer.datasets import Dataset
from explorer.formatting import literal, model_words
from explorer.pages import compare_points
from explorer.ui import language, widgets
from explorer.ui.language import t

#: Where a sample's drill-down lives, by kind: (page, URL parameter, by id or by row).
DRILL_DOWN = {
    "multilabel": ("label_ranking", "i", "row"),
    "graded": ("dcg", "sample", "id"),
}


def show(ds: Dataset, result, model_a: str, model_b: str) -> None:
    """The counts, the two tables of the samples that changed most, and the scatter."""
    per_sample = t(result.per_sample)
    st.subheader(
        t(
            "Where ${model} wins and loses: ${what} per sample",
            model=literal(model_b),
            what=per_sample,
        )
    )
    st.caption(t(result.per_sample_help))
    better, worse, same = result.counts()
    st.markdown(
        t(
            "B did better on **${better}** samples, worse on **${worse}**, the same on "
            "**${same}** (of ${n}).",
            better=better,
            worse=worse,
            same=same,
            n=ds.n_samples,
        )
    )
    losses, wins = result.changed(ds)
    titles = (t("${model} lost most", model=model_b), t("${model} won most", model=model_b))
    for title, frame in zip(titles, (losses, wins), strict=True):
        st.markdown(f"**{literal(title)}**")
        if frame.empty:
            st.caption(t("— none: no sample went this way."))
            continue
        changed(ds, frame, model_a, model_b, result.per_sample)
    drawn = result.drawn
    fig = charts.scatter(
        result.a_values,
        result.b_values,
        ds.sample_ids,
        drawn,
        result.per_sample,
        model_a,
        model_b,
        lang=language.current(),
    )
    widgets.plotly_chart(st, fig, key="cmp_scatter")
    st.caption(
        t("Each dot is a sample; on the dotted line A and B agree. ")
        + (
            t("Above it B did better. ")
            if result.higher_is_better
            else t("Below it B did better. ")
        )
        + _reduced(drawn)
    )


def _reduced(drawn) -> str:
    """What a dot stands for when it is more than one sample."""
    if drawn.gridded:
        return t(
            "With more than ${most:,} distinct points, the square is cut into ${grid} x ${grid} "
            "cells and each cell that holds samples shows one of them (its most changed), its "
            "hover saying how many more the cell holds; the lowest and highest A, B and B - A "
            "are drawn as they are.",
            most=compare_points.MAX_POINTS,
            grid=compare_points.GRID,
        )
    if drawn.counts.size and drawn.counts.max() > 1:
        return t("Samples with the same A and B are one dot; its hover says how many.")
    return ""


def changed(ds: Dataset, frame, model_a: str, model_b: str, per_sample: str) -> None:
    """One table of changed samples (id, label, both scores where a sample has one, the
    per-sample values and the gain), and a link to the first one's drill-down."""
    num = st.column_config.NumberColumn
    # its columns of words in the visitor's language (the page model's names are English)
    frame = frame.rename(columns={c: t(c) for c in ("B better by", "relevant labels")})
    widgets.dataframe(
        st,
        frame,
        hide_index=True,
        width="stretch",
        column_config=widgets.worded(
            frame.columns,
            {
                "A score": num(t("${model} score", model=model_a)),
                "B score": num(t("${model} score", model=model_b)),
                "A": num(t("${model}: ${what}", model=model_a, what=t(per_sample))),
                "B": num(t("${model}: ${what}", model=model_b, what=t(per_sample))),
                t("B better by"): num(),
            },
        ),
    )
    drill = DRILL_DOWN.get(ds.kind)
    if drill:
        page, param, by = drill
        first = frame.iloc[0]
        value = int(first["row"]) if by == "row" else str(first["sample"])
        st.page_link(
            registry.script(page),
            label=t(
                "Open sample ${sample} on its page (${model})",
                sample=literal(first["sample"]),
                model=model_words(model_a, bold=False),
            ),
            query_params={"ds": ds.name, param: str(value), "model": model_a},
        )
