"""The headline of Compare two models: each headline metric for A and B, the difference
with its interval and a test in words."""

from __future__ import annotations

import math

import streamlit as st

from explorer.formatting import fmt, literal
from explorer.pages import compare
from explorer.ui import classroom, widgets
from views import prose

#: What a row without its interval says while the bootstraps run.
PENDING = "Its interval and test follow once the bootstrap resamples are drawn (below)."


def show(result, model_a: str, model_b: str, *, final: bool = True) -> None:
    """One row a metric of ``result`` (:func:`explorer.pages.compare.compare`): A, B,
    B - A, and the difference and verdict in words. ``final=False``: the first numbers
    (:func:`explorer.pages.compare.first_numbers`), drawn while the bootstraps run: a
    row still waiting for its interval says so instead of its verdict, and the Reveal
    button waits for the final draw (one button a run)."""
    st.subheader(f"Is {literal(model_b)} better than {literal(model_a)}?")
    for row in result.rows:
        if not math.isfinite(row.diff):  # the metric itself is undefined here: say why
            st.markdown(compare.verdict(row, literal(model_a), literal(model_b)))
            continue
        labels = [f"{row.label} of A", f"{row.label} of B", f"{row.label}: B - A"]
        # the three numbers a row of their own, the words under them: beside a fourth
        # column of words, "average precision of A" broke over two lines at 853 px
        cols = [*widgets.label_columns(labels), st]
        classroom.headline(cols[0], labels[0], fmt(row.a))
        classroom.headline(cols[1], labels[1], fmt(row.b))
        word = "B better" if row.better_by > 0 else ("B worse" if row.better_by < 0 else "equal")
        classroom.headline(
            cols[2],
            labels[2],
            fmt(row.diff),
            delta=word,
            delta_color="normal" if row.better_by > 0 else "inverse",
            delta_arrow="off",
        )
        if not classroom.derivations_hidden(cols[3]):  # the verdict gives the difference
            cols[3].markdown(compare.difference_line(row))
            if final or math.isfinite(row.low):
                cols[3].markdown(compare.verdict(row, literal(model_a), literal(model_b)))
            else:
                cols[3].caption(PENDING)
    if final:
        close()


def close() -> None:
    """Under the headline: the Reveal button and how the intervals are made."""
    classroom.reveal_button()
    st.caption(
        f"Intervals: {compare.CONFIDENCE:.0%}, from {compare.N_RESAMPLES:,} paired bootstrap "
        "resamples of the samples (the same rows for both models; seeded, so the page "
        "repeats its numbers), or DeLong's standard error for ROC AUC. "
        + prose.section("compare", "tests")
    )
