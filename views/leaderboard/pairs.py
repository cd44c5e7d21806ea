"""Every pair of models: the matrix of differences coloured by corrected significance,
and a pair opened on Compare two models."""

from __future__ import annotations

import numpy as np
import streamlit as st

from explorer.charts import leaderboard as charts
from explorer.datasets import Dataset
from explorer.formatting import fill_fields
from explorer.pages import leaderboard
from explorer.ui import bound, navigation, widgets
from explorer.ui.language import t


def show(ds: Dataset, board: leaderboard.Board, settings: leaderboard.Settings) -> None:
    """The heatmap, then the pair picker (most significant first) and its button."""
    st.subheader(t("Every pair"))
    r = board.result
    diff, p = board.matrix()
    texts = (t("${metric}: row − column"), t("corrected p"))
    fig = charts.matrix(
        r.names, diff, p, settings.alpha, r.higher_is_better, t(settings.metric), texts
    )
    widgets.plotly_chart(
        st,
        fig,
        key="lb_matrix",
        on_select=lambda: _clicked(r.names),
        keyboard='the "Open a pair on Compare two models" box and its button',
        selection_mode="points",
    )
    clicked = st.session_state.pop("lb_clicked", None)
    if clicked is not None:
        _open(*clicked)
    st.caption(
        t(
            "Each cell is the row model's value minus the column model's. Green: the row model "
            "is significantly better (corrected p ≤ ${alpha:g}); vermillion: significantly "
            "worse; grey: no significant difference. The hover gives the corrected p-value. "
            "A click on a cell opens its pair on Compare two models (row model as A).",
            alpha=settings.alpha,
        )
    )
    options = list(range(r.pairs.shape[0]))
    first = int(np.argmin(np.nan_to_num(r.p_adjusted, nan=2.0)))  # the most significant

    def label(k: int) -> str:
        i, j = r.pairs[k]
        return fill_fields(vs, {"a": r.names[i], "b": r.names[j]})

    vs = t("${a} vs ${b}")  # worded now: AppTest formats the options after the run
    c1, c2 = st.columns([3, 1], vertical_alignment="bottom")
    # not in the link: it changes no number, and names its pair by its place
    chosen = bound.selectbox(
        c1, t("Open a pair on Compare two models"), options, key="lb_pair", param=None,
        default=first, format_func=label,
    )  # fmt: skip
    if c2.button(t("Open on Compare"), key="lb_open_pair", type="primary"):
        i, j = r.pairs[chosen]
        _open(r.names[i], r.names[j])


def _clicked(names) -> None:
    """A click on a cell of the matrix: its pair is opened in the run it starts (a
    callback cannot switch pages)."""
    pair = charts.pair_from_selection(st.session_state.get("lb_matrix"), names)
    if pair is not None:
        st.session_state["lb_clicked"] = pair


def _open(a: str, b: str) -> None:
    """Compare two models on ``a`` (A) and ``b`` (B), the dataset and app settings kept."""
    navigation.open_page("compare", a=a, b=b)
