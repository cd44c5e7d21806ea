"""Home: what Metric Explorer is, the active dataset at a glance, the gallery."""

import pandas as pd
import streamlit as st

from explorer import cache, state
from explorer.datasets import KIND_LABELS
from explorer.formatting import fmt
from explorer.samples import sample_index
from views import prose

st.title("Metric Explorer")
st.markdown(prose.section("home", "intro"))
st.caption(prose.section("home", "present"))

ds = state.active()
st.subheader(f"Active dataset: {ds.shown_name}")
st.caption(
    f"{KIND_LABELS[ds.kind]} · {ds.n_samples} samples · {ds.n_labels} label(s) · "
    f"model(s): {', '.join(ds.model_names)}" + (f" · {ds.description}" if ds.description else "")
)

# valid data some metric is undefined on (one class, one label column): that metric shows
# n/a and a sentence says why; the others show their numbers
numbers = cache.home_headline(ds)
for col, number in zip(st.columns(len(numbers)), numbers, strict=True):
    col.metric(number.label, "n/a" if number.value is None else fmt(number.value), help=number.why)
for number in numbers:
    if number.why is not None:
        st.info(f"**{number.label}** cannot be computed on this dataset: {number.why}", icon="ℹ️")
st.caption(f"Computed for the first model, **{ds.model_names[0]}**, on all {ds.n_samples} samples.")

st.subheader("Sample gallery")
st.markdown(prose.section("home", "gallery"))
# the titles, never the ids of ?ds= links ("seed002_roc6"): Copy link gives those
gallery = pd.DataFrame(sample_index())[["title", "kind", "teaches"]]
st.dataframe(
    gallery,
    hide_index=True,
    width="stretch",
    column_config={
        "title": st.column_config.TextColumn("Sample", width="medium"),
        "kind": st.column_config.TextColumn("Kind", width="small"),
        "teaches": st.column_config.TextColumn("What it teaches", width="large"),
    },
)
