"""Metric Explorer: the entry point. `python3 dev.py run` starts it."""

import streamlit as st

from explorer import state

st.set_page_config(page_title="Metric Explorer", layout="wide")

pages = [
    st.Page("pages/home.py", title="Home", default=True),
    st.Page("pages/data.py", title="Data"),
]
nav = st.navigation(pages)
state.sidebar_picker()
nav.run()
