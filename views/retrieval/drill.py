"""The Top-K retrieval page's drill-down: one query, position by position (the formula
of the drill-down metric, the ranked list's chart, the step table and its sum).

Layout only: the numbers come from :mod:`explorer.pages.retrieval_query` through
:mod:`explorer.ui.cache.retrieval`."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import downloads, i18n
from explorer.charts.retrieval import (
    SVG_ITEMS,
    grade_color,
    ranked_list_figure,
    ranked_list_svg,
)
from explorer.formatting import COLUMN_WORDS, fmt, literal, table_number
from explorer.pages import retrieval_query
from explorer.ui import cache, classroom, language, widgets
from explorer.ui.language import refusal, t
from metrics import MetricInputError
from views import prose
from views.retrieval import controls as _controls
from views.retrieval import derivation


def show(ds, controls, per_query, means: dict) -> _controls.Query | None:
    """The query picked in :func:`views.retrieval.controls.query`, step by step; None
    when its steps cannot be computed (an error says why)."""
    st.subheader(t("How it is computed: one query"))
    query = _controls.query(ds, controls)
    settings = controls.settings
    try:
        steps = cache.retrieval.steps(ds, controls.model, query.row, settings)
    except MetricInputError as exc:
        st.error(literal(refusal(exc)))
        return None
    row = per_query.iloc[query.row]
    total, value = retrieval_query.drill_total(steps, query.drill)
    derivation.drill_formula(query.drill, steps, row, settings, total)
    derivation.count_formulas(row, settings.k)
    _ranked_list(ds, steps, query, settings)
    st.download_button(
        t("Step table as CSV"),
        lambda s=steps: downloads.csv_text(s),
        f"retrieval_steps_{query.id}.csv",
        key="ret_dl_steps",
    )
    st.markdown(
        t(
            "Sum of the **${column}** column: **${total}**${dcg} = this query's ${metric} in "
            "the per-query table: **${value}**.",
            column=t(COLUMN_WORDS[retrieval_query.CONTRIB[query.drill]]),
            total=fmt(total),
            dcg=t(" (DCG; over IDCG = **${ndcg}** NDCG@K)", ndcg=fmt(value))
            if query.drill == "DCG"
            else "",
            metric=query.metric,
            value=fmt(row[query.metric]),
        )
    )
    if ds.n_samples <= 10 and classroom.numbers_shown():  # it ends in MAP@K
        derivation.every_query_ap(ds, controls, per_query, means["MAP@K"])
    return query


def _ranked_list(ds, steps: pd.DataFrame, query, settings) -> None:
    """The query's ranked list (its first positions) as a chart and as the step table."""
    names = ds.item_names(query.row)
    shown = retrieval_query.shown_positions(steps, settings.k)
    head = steps.head(shown)
    contribution = retrieval_query.CONTRIB[query.drill]
    args = {
        "k": settings.k,
        "max_grade": max(float(settings.max_grade), 1.0),
        "item_names": names,
        "lang": language.current(),
        "title": t(
            "Query ${id}: each position's ${metric} contribution", id=query.id, metric=query.drill
        ),
    }
    if ds.n_labels > SVG_ITEMS:
        widgets.svg_chart(ranked_list_svg(head, contribution, **args))
    else:
        widgets.plotly_chart(
            st, ranked_list_figure(head, contribution, **args), key="ret_drill_chart"
        )
    st.caption(prose.section("retrieval", "bar-colours"))
    if shown < len(steps):
        st.caption(
            t(
                "The chart and the table show the first ${shown} of ${n} positions: the top K "
                "and every position with a term of these metrics (the running sums end in "
                "this query's values); the CSV has all of them.",
                shown=shown,
                n=len(steps),
            )
        )
    step_table(retrieval_query.step_display(head, query.drill), settings.max_grade)


def step_table(show: pd.DataFrame, max_grade: float) -> None:
    """The step table, its grade and item name cells coloured by grade."""
    max_g = max(float(max_grade), 1.0)
    # in another language the columns' names in words, translated (the CSV keeps the
    # code's); in English the code's names, shown in words by the column_config
    english = language.current() == i18n.DEFAULT
    names = {c: c if english else t(COLUMN_WORDS.get(c, c)) for c in show.columns}
    grade, item = names["grade"], names["item name"]

    def grade_styles(frame: pd.DataFrame) -> pd.DataFrame:
        css = [
            f"background-color: {grade_color(g, max_g)}; color: "
            + ("white" if g / max_g > 0.5 else "black")
            for g in frame[grade]
        ]
        styles = pd.DataFrame("", index=frame.index, columns=frame.columns)
        styles[grade] = css
        styles[item] = css
        return styles

    widgets.dataframe(
        st,
        show.rename(columns=names).style.apply(grade_styles, axis=None).format(table_number),
        hide_index=True,
        width="stretch",
        column_config=widgets.worded(show.columns) if english else None,
    )
