"""The Data page's "New table": a blank table of N rows and M models (L labels for the
matrix kinds) typed live, then opened on the page the teacher came from.

The grid sits in a form: a keystroke, Tab or Enter sends nothing to the server, so no
rerun redraws the grid while the class watches it being typed (a rerun between two
cells lost or merged keystrokes). Apply reads it (:mod:`explorer.new_table`).
"""

from __future__ import annotations

import streamlit as st

from explorer import new_table, registry
from explorer.datasets import KIND_LABELS, Dataset
from explorer.formatting import literal
from explorer.io import DataError
from explorer.ui import navigation, session, url

KINDS = tuple(KIND_LABELS)
MATRIX_KINDS = ("multilabel", "graded", "multiclass")
#: The blank table on screen: (kind, rows, models or labels), set by "New table".
STARTED = "data_new_started"
#: The name of the dataset typed.
NAME = "typed table"


def origin() -> str | None:
    """The page the Data page was opened from: ``?from=<slug>`` (kept in the address),
    else the page left for it in this session; None from nowhere (a fresh visit)."""
    wanted = st.query_params.get("from") or st.session_state.get(navigation.CAME_FROM)
    if registry.prefix_of(wanted) is None or wanted == "data":
        return None
    url.write_param("from", wanted)
    return wanted


def show(ds: Dataset, back: str | None) -> None:
    """The size of a new table, then the blank grid, its names and Apply."""
    st.subheader("New table")
    where = f"on **{registry.page(back).title}**" if back else "here"
    st.caption(
        "A blank table to type a dataset live: cells may stay empty until Apply; Tab and "
        f"Enter move between cells. Apply opens it {where}."
    )
    c1, c2, c3, c4 = st.columns([3, 1, 1, 1], vertical_alignment="bottom")
    kind = c1.selectbox(
        "Kind", KINDS, index=KINDS.index(ds.kind), format_func=KIND_LABELS.get, key="data_new_kind"
    )
    rows = c2.number_input("Rows", 1, new_table.MAX_ROWS, 8, key="data_new_rows")
    what = "Labels" if kind in MATRIX_KINDS else "Models"
    many = c3.number_input(what, 1, new_table.MAX_COLUMNS, 2, key="data_new_columns")
    if c4.button(f"New table: {rows} rows, {many} {what.lower()}", key="data_new_start"):
        st.session_state[STARTED] = (kind, int(rows), int(many))
    if STARTED in st.session_state:
        _form(*st.session_state[STARTED], back)


def _form(kind: str, n_rows: int, n_columns: int, back: str | None) -> None:
    """The blank grid(s) in a form, the names, and Apply."""
    with st.form("data_new_form"):
        if kind in MATRIX_KINDS:
            blank_labels, blank_scores = new_table.blank_matrices(n_rows, n_columns)
            lc, sc = st.columns(2)
            lc.caption("Labels" + (" (relevance)" if kind == "graded" else " (0/1)"))
            labels = lc.data_editor(blank_labels, num_rows="dynamic", key="data_new_labels")
            sc.caption("Scores")
            scores = sc.data_editor(blank_scores, num_rows="dynamic", key="data_new_scores")
            names = st.text_input(
                "Label names, comma separated (empty: label_1, ...)", key="data_new_names"
            )
        else:
            blank = new_table.blank_table(n_rows, n_columns)
            grid = st.data_editor(
                blank,
                num_rows="dynamic",
                key="data_new_grid",
                hide_index=True,
            )
            names = st.text_input(
                "Model names, comma separated (empty: model_1, ...)", key="data_new_names"
            )
        label = "Apply" + (f" and open {registry.page(back).title}" if back else "")
        applied = st.form_submit_button(label, type="primary", key="data_new_apply")
    if not applied:
        return
    try:
        if kind in MATRIX_KINDS:
            new = new_table.dataset_from_new_matrices(
                labels, scores, kind=kind, name=NAME, label_names=names
            )
        else:
            new = new_table.dataset_from_new_table(grid, kind=kind, name=NAME, model_names=names)
    except DataError as exc:
        st.error(f"Not applied, keep typing: {literal(exc)}")
        return
    session.add_dataset(new)
    st.session_state.pop(STARTED, None)
    if back is None:
        st.rerun()
    keep = {p: str(st.query_params[p]) for p in url.APP_PARAMS if p in st.query_params}
    st.switch_page(registry.script(back), query_params=keep)
