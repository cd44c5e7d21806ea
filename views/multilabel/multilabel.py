"""Multilabel classification: scores become label sets; class-averaged against overall metrics."""

import streamlit as st

from explorer.pages import multilabel as ml
from explorer.pages._parse import finite_float
from explorer.ui import session, url, widgets
from views import prose
from views.multilabel import panel
from views.multilabel.panel import RULES, ZERO_DIVISION

st.title("Multilabel classification")
widgets.scenarios("multilabel")
ds = session.active()
widgets.require_kind(ds, ("multilabel",), "digit_properties")

st.markdown(prose.section("multilabel", "intro"))

# ---------------------------------------------------------------- controls
models = list(ds.model_names)
url.bind_param("ml_model", "model", models[0], str, url.member(models))
url.bind_param("ml_pred_rule", "rule", "threshold", str, url.member(RULES))

lo, hi = ml.threshold_range(ds.score(st.session_state["ml_model"]))
url.bind_param("ml_threshold", "t", 0.5, finite_float, url.float_in(lo, hi))
url.bind_param("ml_top_k", "k", 1, int, url.int_in(1, ds.n_labels))
url.bind_param("ml_beta", "beta", 1.0, finite_float, url.float_in(0.0, 10.0))
url.bind_param("ml_zero_division", "zd", "warn", str, url.member(ZERO_DIVISION))

c_model, c_rule = st.columns([1, 2])
model = c_model.selectbox(
    "Model", models, key="ml_model", help="The dataset's score matrices, one per model."
)
rule = c_rule.radio(
    "Prediction rule",
    list(RULES),
    format_func=RULES.get,
    key="ml_pred_rule",
    horizontal=True,
    help="How scores become a predicted label set.",
)
# ---------------------------------------------------------------- the panel
panel.panel(ds, model, rule, lo, hi)
