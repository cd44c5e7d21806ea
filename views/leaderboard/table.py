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


def show(ds: Dataset, boards: list[leaderboard.Board], each: list[leaderboard.Settings]) -> None:
    """The table (a value, interval and letters column per metric, best first by the
    first), the letters in words, how the intervals are made, the downloads."""
    settings = each[0]
    names = ", ".join(s.metric for s in each)
    first = "" if len(each) == 1 else f" by {settings.metric}"
    st.subheader(f"{len(boards[0].rows)} models by {names}, best first{first}")
    level = f"{leaderboard.CONFIDENCE:.0%} interval"
    columns = [(s.metric, b.result) for s, b in zip(each, boards, strict=True)]
    cells = leaderboard_export.table_rows(columns, settings.alpha)
    frame = {"letter": [c[0]["letter"] for c in cells], "model": [c[0]["model"] for c in cells]}
    for k, s in enumerate(each):
        pre = "" if len(each) == 1 else f"{s.metric} "  # several: told apart by a prefix
        frame[s.metric] = [c[k]["value"] for c in cells]
        frame[pre + level] = [_interval(c[k]["low"], c[k]["high"]) for c in cells]
        frame[pre + "beats"] = [c[k]["beats"] or "—" for c in cells]
    widgets.dataframe(st, pd.DataFrame(frame), hide_index=True, key="lb_table")
    for s, b in zip(each, boards, strict=True):
        st.markdown(leaderboard.explanation(b.rows, s, literal))
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
    _downloads(columns, settings.alpha)


def _downloads(columns, alpha: float) -> None:
    stem = "leaderboard_" + "_".join(m.replace(" ", "_").replace("²", "2") for m, _ in columns)
    files = (
        ("Markdown", "md", leaderboard_export.table_markdown(columns, alpha=alpha)),
        ("LaTeX (booktabs)", "tex", leaderboard_export.table_latex(columns, alpha=alpha)),
        ("CSV", "csv", leaderboard_export.table_csv(columns, alpha=alpha)),
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
