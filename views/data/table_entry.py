"""The table-entry component of the Data page's "New table": plain text inputs, one a
cell, typed and moved through in the browser (views/data/static/table_entry.js and .css,
read once here; what it draws from :func:`explorer.new_table.entry_data`).

A keystroke, Tab or Enter sends nothing to the server: Apply sends the whole table once
(a trigger value), which :func:`table_entry` puts in :data:`SUBMITTED` for the run to
read (an AppTest test sets that key as the component would).
"""

from __future__ import annotations

from pathlib import Path

import streamlit as st

_STATIC = Path(__file__).parent / "static"
#: The component's key.
KEY = "data_new_entry"
#: What Apply sent, waiting for the run that reads it: ``{"draft", "cells", "names"}``.
SUBMITTED = "data_new_submitted"

_component = st.components.v2.component(
    "data_table_entry",
    js=(_STATIC / "table_entry.js").read_text(encoding="utf-8"),
    css=(_STATIC / "table_entry.css").read_text(encoding="utf-8"),
)


def _take() -> None:
    """Apply was pressed: keep what it sent for this run."""
    state = st.session_state.get(KEY)
    try:
        value = state["apply"]
    except (KeyError, TypeError):
        value = getattr(state, "apply", None)
    if value is not None:
        st.session_state[SUBMITTED] = value


def table_entry(data: dict) -> dict | None:
    """Draw the grid of ``data`` (:func:`~explorer.new_table.entry_data` with ``draft``,
    ``caption`` and ``apply_label``); what Apply sent in this run of this draft, else None.
    """
    _component(key=KEY, data=data, on_apply_change=_take, height="content")
    sent = st.session_state.pop(SUBMITTED, None)
    if isinstance(sent, dict) and sent.get("draft") == data["draft"]:
        return sent
    return None
