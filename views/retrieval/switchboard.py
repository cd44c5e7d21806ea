"""The Top-K retrieval page's convention switchboard: every headline number under each
change of one switch (or a tool's preset), the cells that differ highlighted; on big
data it is computed when asked for.

Layout only: the numbers come from :mod:`explorer.pages.retrieval` through
:mod:`explorer.ui.cache.retrieval`."""

from __future__ import annotations

import re

import pandas as pd
import streamlit as st

from explorer import downloads, i18n
from explorer.formatting import table_number
from explorer.pages import retrieval
from explorer.ui import cache, language, widgets
from explorer.ui.language import t
from views import prose

HIGHLIGHT = "background-color: #ffe08a; font-weight: bold"


def show(ds, controls) -> None:
    """The switchboard of ``controls`` (:class:`views.retrieval.controls.Controls`) and
    the note on recall and ties under it."""
    st.subheader(t("Why do my numbers differ? The convention switchboard"))
    st.markdown(prose.section("retrieval", "switchboard"))
    model, settings, empty = controls.model, controls.settings, controls.empty
    variants = retrieval.variants(ds, settings, empty, levels=cache.retrieval.levels(ds))
    board_key = (ds.fingerprint, model, variants)
    board = None
    if (
        ds.n_samples * ds.n_labels <= retrieval.SWITCHBOARD_CELLS
        or st.session_state.get("ret_board_for") == board_key
    ):
        board = cache.retrieval.switchboard(ds, model, variants)
    else:
        st.info(
            t(
                "On ${n:,} queries x ${items:,} items each of the ${rows} rows ranks the whole "
                "matrix again under its conventions, which takes a while: the switchboard is "
                "computed when you ask for it (and again after a change of settings).",
                n=ds.n_samples,
                items=ds.n_labels,
                rows=len(variants),
            )
        )
        if st.button(t("Compute the switchboard"), key="ret_compute_board"):
            st.session_state["ret_board_for"] = board_key
            board = cache.retrieval.switchboard(ds, model, variants)
    if board is not None:
        table(board)
    with st.expander(t("Recall@K against hit rate, and ties"), expanded=False):
        st.markdown(prose.section("retrieval", "recall-and-ties"))


def table(board: pd.DataFrame) -> None:
    """The switchboard, each cell that differs from the first row highlighted."""
    metric_cols = [label for label, _ in retrieval.HEADLINE]
    base_row = board.loc[0, metric_cols]

    def highlight(row: pd.Series) -> list[str]:
        return [
            HIGHLIGHT if c in metric_cols and abs(row[c] - base_row[c]) > 1e-12 else ""
            for c in row.index
        ]

    # one text column ("ties: optimistic") before the numbers: every metric column fits
    # 853 px (1280 x 720 at 150%); the CSV keeps switch and convention apart
    # on screen: one text column, the metrics' names in the visitor's language
    settings = [_setting(s, c) for s, c in zip(board["switch"], board["convention"], strict=True)]
    names = {c: t(c) for c in metric_cols}
    shown = board.assign(setting=settings)
    if language.current() != i18n.DEFAULT:  # the hidden columns' English cells go too
        shown = shown[["setting", *metric_cols]].rename(columns=names)
    metric_cols = list(names.values())
    base_row = base_row.rename(names)
    styled = shown.style.apply(highlight, axis=1).format(table_number, subset=metric_cols)
    widgets.dataframe(
        st.container(key="ret_switchboard"),
        styled,
        hide_index=True,
        width="stretch",
        height=36 * (len(board) + 1),
        column_order=("setting", *metric_cols),
        column_config={
            "setting": st.column_config.TextColumn(t("setting"), width=245),
            **{c: st.column_config.Column(c, width=54) for c in metric_cols},
        },
    )
    st.download_button(
        t("Switchboard as CSV"),
        lambda b=board: downloads.csv_text(b),
        "retrieval_switchboard.csv",
        key="ret_dl_board",
    )


def _setting(switch: str, convention) -> str:
    """A row's switch and convention in the visitor's language ("ties: optimistic"; a
    preset keeps its tool's name and its K: "revision sheet AP@K (K=5)")."""
    preset = re.fullmatch(r"(.*) \(K=(\d+)\)", str(convention))
    shown = f"{t(preset[1])} (K={preset[2]})" if preset else t(str(convention))
    return f"{t(switch)}: {shown}"
