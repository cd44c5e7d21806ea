"""The headline of Compare two models: each headline metric for A and B, the difference
with its interval and a test in words."""

from __future__ import annotations

import math

import streamlit as st

from explorer.formatting import fmt, literal
from explorer.pages import compare
from explorer.ui import classroom
from views import prose


def show(result, model_a: str, model_b: str) -> None:
    """One row a metric of ``result`` (:func:`explorer.pages.compare.compare`): A, B,
    B - A, and the difference and verdict in words."""
    st.subheader(f"Is {literal(model_b)} better than {literal(model_a)}?")
    for row in result.rows:
        cols = st.columns([1, 1, 1, 3])
        if not math.isfinite(row.diff):  # the metric itself is undefined here: say why
            cols[3].markdown(compare.verdict(row, literal(model_a), literal(model_b)))
            continue
        classroom.headline(cols[0], f"{row.label} of A", fmt(row.a))
        classroom.headline(cols[1], f"{row.label} of B", fmt(row.b))
        word = "B better" if row.better_by > 0 else ("B worse" if row.better_by < 0 else "equal")
        classroom.headline(
            cols[2],
            f"{row.label}: B - A",
            fmt(row.diff),
            delta=word,
            delta_color="normal" if row.better_by > 0 else "inverse",
            delta_arrow="off",
        )
        if not classroom.derivations_hidden(cols[3]):  # the verdict gives the difference
            cols[3].markdown(compare.difference_line(row))
            cols[3].markdown(compare.verdict(row, literal(model_a), literal(model_b)))
    classroom.reveal_button()
    st.caption(
        f"Intervals: {compare.CONFIDENCE:.0%}, from {compare.N_RESAMPLES:,} paired bootstrap "
        "resamples of the samples (the same rows for both models; seeded, so the page "
        "repeats its numbers), or DeLong's standard error for ROC AUC. "
        + prose.section("compare", "tests")
    )
