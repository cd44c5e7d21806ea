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
from explorer.ui.language import t
from views import prose


def _interval(low: float, high: float) -> str:
    return "—" if math.isnan(low) else f"[{fmt(low)}, {fmt(high)}]"


def headline(board: leaderboard.Board, settings: leaderboard.Settings) -> None:
    """The best value, how many pairs differ after the correction, how many models."""
    c1, c2, c3 = st.columns(3)
    r = board.result
    best = t("Best ${metric}", metric=t(settings.metric))
    classroom.headline(c1, best, fmt(board.rows[0]["value"]))
    differ = int((r.p_adjusted <= settings.alpha).sum())
    of = t("${n} of ${total}", n=differ, total=r.pairs.shape[0])
    classroom.headline(c2, t("Pairs that differ"), of)
    widgets.metric(c3, t("Models"), f"{len(r.names)}")


def show(ds: Dataset, boards: list[leaderboard.Board], each: list[leaderboard.Settings]) -> None:
    """The table (a value, interval and letters column per metric, best first by the
    first), the letters in words, how the intervals are made, the downloads."""
    settings = each[0]
    names = ", ".join(t(s.metric) for s in each)
    n = len(boards[0].rows)
    if len(each) == 1:
        st.subheader(t("${n} models by ${names}, best first", n=n, names=names))
    else:
        by = t(settings.metric)
        st.subheader(t("${n} models by ${names}, best first by ${by}", n=n, names=names, by=by))
    level = t("${p:.0%} interval", p=leaderboard.CONFIDENCE)
    columns = [(s.metric, b.result) for s, b in zip(each, boards, strict=True)]
    cells = leaderboard_export.table_rows(columns, settings.alpha)
    frame = {
        t("letter"): [c[0]["letter"] for c in cells],
        t("model"): [c[0]["model"] for c in cells],
    }
    for k, s in enumerate(each):
        metric = t(s.metric)
        frame[metric] = [c[k]["value"] for c in cells]
        frame[_head(level, metric, len(each))] = [
            _interval(c[k]["low"], c[k]["high"]) for c in cells
        ]
        frame[_head(t("beats"), metric, len(each))] = [c[k]["beats"] or "—" for c in cells]
    widgets.dataframe(st, pd.DataFrame(frame), hide_index=True, key="lb_table")
    for s, b in zip(each, boards, strict=True):
        st.markdown(t(leaderboard.explanation(b.rows, s, literal)))
    intervals = t(
        "Intervals: ${level}s from ${n:,} paired bootstrap resamples (the same rows for every "
        "model, seeded so the page repeats its numbers); DeLong's normal interval when no "
        "resample is run."
        if settings.test == "delong"
        else "Intervals: ${level}s from ${n:,} paired bootstrap resamples (the same rows for "
        "every model, seeded so the page repeats its numbers).",
        level=level,
        n=leaderboard.N_RESAMPLES,
    )
    st.caption(f"{intervals} {prose.section('leaderboard', 'tests')}")
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
    st.subheader(t("Which model comes first? Predict, then reveal"))
    from metrics import model_letter

    widgets.dataframe(
        st,
        _shown(
            pd.DataFrame(
                {
                    "letter": [model_letter(k) for k in range(len(ds.model_names))],
                    "model": list(ds.model_names),
                }
            )
        ),
        hide_index=True,
        key="lb_models",
    )


def _head(word: str, metric: str, n_metrics: int) -> str:
    """A column's head: with several metrics, told apart by the metric's name."""
    return word if n_metrics == 1 else t("${metric} ${what}", metric=metric, what=word)


def _shown(frame: pd.DataFrame) -> pd.DataFrame:
    """The table with its column names in the visitor's language; the models' names and
    letters are the data's."""
    return frame.rename(columns=t)
