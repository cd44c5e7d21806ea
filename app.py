"""Metric Explorer: the entry point. `python3 dev.py run` starts it."""

from pathlib import Path

import streamlit as st

from explorer import state, theme

ROOT = Path(__file__).resolve().parent

# The sidebar order of shared/design/pages.md: (file, title).
PAGES = [
    ("views/home.py", "Home"),
    ("views/data.py", "Data"),
    ("views/curves.py", "ROC & PR curves"),
    ("views/label_ranking.py", "Label ranking"),
    ("views/dcg.py", "DCG & NDCG"),
    ("views/retrieval.py", "Top-K retrieval"),
    ("views/multilabel.py", "Multilabel classification"),
    ("views/multiclass.py", "Multiclass classification"),
    ("views/regression.py", "Regression"),
    ("views/compare.py", "Compare two models"),
]

present = state.presentation_mode()  # ?present=1: large text, the sidebar folded away
st.set_page_config(
    page_title="Metric Explorer",
    layout="wide",
    initial_sidebar_state="collapsed" if present else "auto",
)
theme.use_template()  # again, in case streamlit's own import reset plotly's default
st.html(theme.page_css(present))
nav = st.navigation(
    [
        st.Page(path, title=title, default=(path == "views/home.py"))
        for path, title in PAGES
        if (ROOT / path).exists()
    ]
)
state.follow_scenario()  # a scenario link (explorer.scenarios) clicked in the app
# a page change drops the other pages' settings (see explorer.state.enter_page)
state.enter_page({title: path for path, title in PAGES}.get(nav.title, nav.title))
state.sidebar_picker()
state.presentation_toggle()
state.classroom_toggles()  # predict, then reveal (reveal=0); 95% intervals (ci=1)
share = state.ShareLink()  # "Copy link", under the picker (and a notice if it has no data)
state.run_page(nav)  # a page that stops early (state.stop_page) still ends its run normally
share.fill()  # again, now that the page wrote its settings into the URL
