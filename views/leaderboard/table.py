"""The leaderboard table, best first, with ranx's letters explained in words under it,
and its Markdown, LaTeX and CSV downloads."""

from __future__ import annotations

import math

import pandas as pd
import streamlit as st

from explorer import leaderboard_export
from explorer.datasets import Dataset
from explorer.formatting import fmt, literal
from explorer.pages import leaderboard
from explorer.ui import classroom, widgets
from views import prose


def _interval(low: float, high: float) -> str:
    return "—" if math.isnan(low) else f"[{fmt(low)}, {fmt(high)}]"


def headline(board: leaderboard.Board, settings: leaderboard.Settings) -> None:
    """The best value, how many pairs differ after the correction, how many models."""
    c1, c2, c3 = st.columns(3)
    r = board.result
    classroom.headline(c1, f"Best {settings.metric}", fmt(board.rows[0]["value"]))
    differ = int((r.p_adjusted <= settings.alpha).sum())
    classroom.headline(c2, "Pairs that differ", f"{differ} of {r.pairs.shape[0]}")
    widgets.metric(c3, "Models", f"{len(r.names)}")


def show(ds: Dataset, board: leaderboard.Board, settings: leaderboard.Settings) -> None:
    """The table, the letters in words, how the intervals are made, the downloads."""
    st.subheader(f"{len(board.rows)} models by {settings.metric}, best first")
    level = f"{leaderboard.CONFIDENCE:.0%} interval"
    frame = pd.DataFrame(
        {
            "letter": [r["letter"] for r in board.rows],
            "model": [r["model"] for r in board.rows],
            settings.metric: [r["value"] for r in board.rows],
            level: [_interval(r["low"], r["high"]) for r in board.rows],
            "beats": [r["beats"] or "—" for r in board.rows],
        }
    )
    widgets.dataframe(st, frame, hide_index=True, key="lb_table")
    st.markdown(leaderboard.explanation(board.rows, settings, literal))
    st.caption(
        f"Intervals: {level}s from {leaderboard.N_RESAMPLES:,} paired bootstrap resamples "
        "(the same rows for every model, seeded so the page repeats its numbers)"
        + (
            "; DeLong's normal interval when no resample is run. "
            if settings.test == "delong"
            else ". "
        )
        + prose.section("leaderboard", "tests")
    )
    _downloads(ds, board, settings)


def _downloads(ds: Dataset, board: leaderboard.Board, settings: leaderboard.Settings) -> None:
    r, alpha, metric = board.result, settings.alpha, settings.metric
    stem = f"leaderboard_{metric.replace(' ', '_').replace('²', '2')}"
    files = (
        ("Markdown", "md", leaderboard_export.to_markdown(r, metric=metric, alpha=alpha)),
        ("LaTeX (booktabs)", "tex", leaderboard_export.to_latex(r, metric=metric, alpha=alpha)),
        ("CSV", "csv", leaderboard_export.to_csv(r, alpha=alpha)),
    )
    for col, (label, ext, text) in zip(st.columns(len(files)), files, strict=True):
        col.download_button(
            label, text, file_name=f"{stem}.{ext}", key=f"lb_{ext}", icon=":material/download:"
        )


def predict(ds: Dataset) -> None:
    """While "Predict, then reveal" hides the numbers: the models and their letters, in the
    dataset's order, and the question."""
    st.subheader("Which model comes first? Predict, then reveal")
    from metrics import model_letter

    widgets.dataframe(
        st,
        pd.DataFrame(
            {
                "letter": [model_letter(k) for k in range(len(ds.model_names))],
                "model": list(ds.model_names),
            }
        ),
        hide_index=True,
        key="lb_models",
    )
