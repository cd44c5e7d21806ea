"""How the Multiclass classification page writes its numbers, texts and formulas."""

from __future__ import annotations

import streamlit as st

from views import prose

#: A table column of probabilities or rates: Streamlit's own number format (up to four
#: decimals, trailing zeros dropped: 1, 0.5, 0.8333), not a fixed four-decimal format (1.0000).
FOUR: dict = {}


def text(name: str, **values) -> str:
    """The page's text ``name`` (views/multiclass/text.md), its fields filled with
    ``values`` (:func:`views.prose.fill`)."""
    return prose.fill("multiclass", name, **values)


def four_decimals(columns) -> dict:
    """The column configuration that shows ``columns`` with up to four decimals."""
    return {c: st.column_config.NumberColumn(**FOUR) for c in columns}
