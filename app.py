"""Metric Explorer: the entry point. `python3 dev.py run` starts it."""

import streamlit as st

from explorer import state

st.set_page_config(page_title="Metric Explorer", page_icon="📏", layout="wide")

pages = [
    st.Page("pages/home.py", title="Home", icon="🏠", default=True),
]
nav = st.navigation(pages)
state.sidebar_picker()
nav.run()
