"""The headline of Compare two models: each headline metric for A and B, the difference
with its interval and a test in words."""

from __future__ import annotations

import math

import streamlit as st

from explorer.formatting import fmt, literal
from explorer.pages import compare
from explorer.ui import classroom, widgets
from explorer.ui.language import t
from views import prose

#: What a row without its interval says while the bootstraps run.
PENDING = "Its interval and test follow once the bootstrap resamples are drawn (below)."


def show(result, model_a: str, model_b: str, *, final: bool = True) -> None:
    """One row a metric of ``result`` (:func:`explorer.pages.compare.compare`): A, B,
    B - A, and the difference and verdict in words. ``final=False``: the first numbers
    (:func:`explorer.pages.compare.first_numbers`), drawn while the bootstraps run: a
    row still waiting for its interval says so instead of its verdict, and the Reveal
    button waits for the final draw (one button a run)."""
    st.subheader(t("Is ${b} better than ${a}?", a=literal(model_a), b=literal(model_b)))
    for row in result.rows:
        if not math.isfinite(row.diff):  # the metric itself is undefined here: say why
            st.markdown(t(compare.verdict(row, literal(model_a), literal(model_b))))
            continue
        label = t(row.label)
        labels = [
            t("${label} of A", label=label),
            t("${label} of B", label=label),
            t("${label}: B - A", label=label),
        ]
        # the three numbers a row of their own, the words under them: beside a fourth
        # column of words, "average precision of A" broke over two lines at 853 px
        cols = [*widgets.label_columns(labels), st]
        classroom.headline(cols[0], labels[0], fmt(row.a))
        classroom.headline(cols[1], labels[1], fmt(row.b))
        word = "B better" if row.better_by > 0 else ("B worse" if row.better_by < 0 else "equal")
        word = t(word)
        classroom.headline(
            cols[2],
            labels[2],
            fmt(row.diff),
            delta=word,
            delta_color="normal" if row.better_by > 0 else "inverse",
            delta_arrow="off",
        )
        if not classroom.derivations_hidden(cols[3]):  # the verdict gives the difference
            cols[3].markdown(t(compare.difference_line(row)))
            if final or math.isfinite(row.low):
                cols[3].markdown(t(compare.verdict(row, literal(model_a), literal(model_b))))
            else:
                cols[3].caption(t(PENDING))
    if final:
        close()


def close() -> None:
    """Under the headline: the Reveal button and how the intervals are made."""
    classroom.reveal_button()
    st.caption(
        t(
            "Intervals: ${confidence}, from ${n:,} paired bootstrap resamples of the samples "
            "(the same rows for both models; seeded, so the page repeats its numbers), or "
            "DeLong's standard error for ROC AUC. ",
            confidence=f"{compare.CONFIDENCE:.0%}",
            n=compare.N_RESAMPLES,
        )
        + prose.section("compare", "tests")
    )
