"""A tiny app that draws views.curves_derivation.show alone (tests/views/test_curves_derivation.py).

The dataset is ``st.session_state["ds"]`` when a test put one there, else the bundled
sample named by the ``ds`` URL parameter; ``model``, ``t`` and ``beta`` come from the URL.
"""

import streamlit as st

from explorer.samples import load_sample
from views import curves_derivation

q = st.query_params
ds = st.session_state.get("ds") or load_sample(q.get("ds", "seed002_roc6"))
curves_derivation.show(
    ds, q.get("model", ds.model_names[0]), float(q.get("t", 0.5)), float(q.get("beta", 1.0))
)
