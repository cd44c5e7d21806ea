"""The Label ranking page's AppTest files: every test starts with empty caches."""

from __future__ import annotations

import pytest
import streamlit as st


@pytest.fixture(autouse=True)
def _clear_caches():
    st.cache_data.clear()
    yield
