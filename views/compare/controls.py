"""The controls of Compare two models: model A (the reference) and model B (the
challenger), bound to ``?a=`` and ``?b=``."""

from __future__ import annotations

from dataclasses import dataclass

import streamlit as st

from explorer.datasets import Dataset
from explorer.ui import bound
from explorer.ui.language import t


@dataclass(frozen=True)
class Settings:
    """The two models compared: ``a`` the reference, ``b`` the challenger."""

    a: str
    b: str


def show(ds: Dataset) -> Settings:
    """The two model pickers side by side (the first two models by default)."""
    names = ds.model_names
    c1, c2 = st.columns(2)
    a = bound.selectbox(c1, t("Model A (the reference)"), names, key="cmp_a", param="a")
    b = bound.selectbox(
        c2, t("Model B (the challenger)"), names, key="cmp_b", param="b", default=names[1]
    )
    return Settings(a, b)
