"""The Data page's "New table": a blank table of N rows and M models (L labels for the
matrix kinds) typed live, then opened on the page the teacher came from.

The grid is a custom component of plain text inputs (:mod:`views.data.table_entry`): a
keystroke, Tab or Enter moves in the browser and sends nothing to the server, so none
is lost however fast the class watches it typed (Streamlit's data grid lost and merged
keys typed at 20 a second). Apply sends the table; :mod:`explorer.new_table` reads it.
"""

from __future__ import annotations

import uuid

import streamlit as st

from explorer import new_table, registry
from explorer.datasets import KIND_LABELS, Dataset
from explorer.formatting import literal
from explorer.io import DataError
from explorer.ui import bound, language, navigation, session, sidebar, url
from explorer.ui.language import t
from views.data.table_entry import table_entry

KINDS = tuple(KIND_LABELS)
MATRIX_KINDS = new_table.MATRIX_KINDS
#: The blank table on screen: (kind, rows, models or labels, draft id), set by "New table".
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
    st.subheader(t("New table"))
    where = t("on **${page}**", page=t(registry.page(back).title)) if back else t("here")
    st.caption(
        t(
            "A blank table to type a dataset live: cells may stay empty until Apply; Tab moves "
            "to the next cell, Enter to the next row (a new one past the last). Apply opens it "
            "${where}.",
            where=where,
        )
    )
    c1, c2, c3, c4 = st.columns([3, 1, 1, 1], vertical_alignment="bottom")
    # bound (not in the address: they change no number until Apply), so that a dataset
    # switch, which drops the page's keys, re-seeds what the boxes show
    kind = bound.selectbox(
        c1,
        t("Kind"),
        KINDS,
        key="data_new_kind",
        param=None,
        default=ds.kind,
        format_func=language.options(KIND_LABELS.get),
    )
    rows = bound.number(
        c2,
        t("Rows"),
        key="data_new_rows",
        param=None,
        default=8,
        parse=int,
        check=url.int_in(1, new_table.MAX_ROWS),
        min_value=1,
        max_value=new_table.MAX_ROWS,
    )
    what = "Labels" if kind in MATRIX_KINDS else "Models"
    many = bound.number(
        c3,
        t(what),
        key="data_new_columns",
        param=None,
        default=2,
        parse=int,
        check=url.int_in(1, new_table.MAX_COLUMNS),
        min_value=1,
        max_value=new_table.MAX_COLUMNS,
    )
    if c4.button(_size_text(rows, many, what.lower()), key="data_new_start"):
        # a new draft each time: the grid starts blank again
        st.session_state[STARTED] = (kind, int(rows), int(many), uuid.uuid4().hex[:12])
    if STARTED in st.session_state:
        _form(*st.session_state[STARTED], back)


def _form(kind: str, n_rows: int, n_columns: int, draft: str, back: str | None) -> None:
    """The blank grid (the table-entry component), its names box and Apply; what Apply
    sent read, refused below the grid (which keeps every cell typed) or opened."""
    what = "labels" if kind in MATRIX_KINDS else "models"
    apply = t("Apply and open ${page}", page=t(registry.page(back).title)) if back else t("Apply")
    data = _translated(new_table.entry_data(kind, n_rows, n_columns)) | {
        "draft": draft,
        "caption": _size_text(n_rows, n_columns, what),
        "apply_label": apply,
        "add_label": t("Add row"),
        "row_word": t("row"),
        "present": sidebar.presentation_mode(),  # a projector's text sizes
    }
    sent = table_entry(data)
    if sent is None:
        return
    try:
        new = new_table.dataset_from_entry(sent, kind=kind, n_columns=n_columns, name=NAME)
    except DataError as exc:
        st.error(t("Not applied, keep typing: ${why}", why=literal(t(exc.args[0]))))
        return
    session.add_dataset(new)
    st.session_state.pop(STARTED, None)
    if back is None:
        st.rerun()
    keep = {p: str(st.query_params[p]) for p in url.APP_PARAMS if p in st.query_params}
    st.switch_page(registry.script(back), query_params=keep)


def _size_text(rows: int, columns: int, what: str) -> str:
    """ "New table: 8 rows, 2 models" (or labels), in the visitor's language."""
    if what == "labels":
        return t("New table: ${rows} rows, ${n} labels", rows=rows, n=columns)
    return t("New table: ${rows} rows, ${n} models", rows=rows, n=columns)


def _translated(data: dict) -> dict:
    """The component's texts (its group and column heads, its inputs' labels, the names
    box's label) in the visitor's language; the column codes (``model_1``) stay."""
    return data | {
        "groups": [g | {"head": t(g["head"])} for g in data["groups"]],
        "columns": [c | {"head": t(c["head"]), "label": t(c["label"])} for c in data["columns"]],
        "names_label": t(data["names_label"]),
    }
