"""How the Multiclass classification page writes its numbers, texts and formulas."""

from __future__ import annotations

import streamlit as st

from views import prose

#: A table column of probabilities or rates: four decimals.
FOUR = {"format": "%.4f"}


def text(name: str, **values) -> str:
    """The page's text ``name`` (views/multiclass/text.md), its fields filled with
    ``values`` (:func:`views.prose.fill`)."""
    return prose.fill("multiclass", name, **values)


def four_decimals(columns) -> dict:
    """The column configuration that shows ``columns`` with four decimals."""
    return {c: st.column_config.NumberColumn(**FOUR) for c in columns}
