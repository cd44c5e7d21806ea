"""Metric Explorer: the entry point. `python3 dev.py run` starts it."""

from pathlib import Path

import streamlit as st

from explorer import state

ROOT = Path(__file__).resolve().parent

# The sidebar order of shared/design/pages.md: (file, title).
PAGES = [
    ("pages/home.py", "Home"),
    ("pages/data.py", "Data"),
    ("pages/curves.py", "ROC & PR curves"),
    ("pages/label_ranking.py", "Label ranking"),
    ("pages/dcg.py", "DCG & NDCG"),
    ("pages/retrieval.py", "Top-K retrieval"),
    ("pages/multilabel.py", "Multilabel classification"),
    ("pages/regression.py", "Regression"),
]

st.set_page_config(page_title="Metric Explorer", layout="wide")
nav = st.navigation(
    [
        st.Page(path, title=title, default=(path == "pages/home.py"))
        for path, title in PAGES
        if (ROOT / path).exists()
    ]
)
state.sidebar_picker()
nav.run()
