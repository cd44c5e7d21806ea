"""Home: what Metric Explorer is, the active dataset at a glance, the gallery."""

import pandas as pd
import streamlit as st

from explorer.datasets import KIND_LABELS
from explorer.formatting import fmt
from explorer.pages.home import DERIVED_ON, gini_latex
from explorer.samples import sample_index
from explorer.ui import cache, classroom, session, widgets
from views import prose

st.title("Metric Explorer")
st.markdown(prose.section("home", "intro"))
st.caption(prose.section("home", "present"))
st.caption(prose.section("home", "classroom"))

ds = session.active()
st.subheader(f"Active dataset: {ds.shown_name}")
st.caption(
    f"{KIND_LABELS[ds.kind]} · {ds.n_samples} samples · {ds.n_labels} label(s) · "
    f"model(s): {', '.join(ds.model_names)}" + (f" · {ds.description}" if ds.description else "")
)

# valid data some metric is undefined on (one class, one label column): that metric shows
# n/a and a sentence says why; the others show their numbers
# the host's big data: the headline is exact over every row (its merged states), and no
# bootstrap interval of the sample applies to it
exact = cache.big.exact_headline(ds)
numbers = exact or cache.home.headline(ds)
intervals = cache.home.intervals(ds) if classroom.intervals_on() and not exact else {}
for col, number in zip(st.columns(len(numbers)), numbers, strict=True):
    value = "n/a" if number.value is None else fmt(number.value)
    interval = intervals.get(number.label) if number.value is not None else None
    classroom.headline(col, number.label, value, interval=interval, help=number.why)
classroom.reveal_button()
for number in numbers:
    if number.why is not None:
        st.info(f"**{number.label}** cannot be computed on this dataset: {number.why}", icon="ℹ️")
values = {n.label: n.value for n in numbers}
if exact or None in values.values():
    pass  # the exact numbers of big data (or an undefined one) are not derived here
elif ds.kind == "binary" and not classroom.derivations_hidden():
    with st.expander("How these numbers are computed, term by term", expanded=True):
        lines = cache.curves.curve_lines(ds, ds.model_names[0])
        for label in ("ROC AUC", "Average precision"):
            st.latex(lines[label].latex)
            st.caption(f"{label}: {lines[label].note}.")
        st.latex(gini_latex(values["ROC AUC"], values["Gini"]))
elif ds.kind in DERIVED_ON:
    st.caption(
        f"Each of these numbers is derived term by term on the **{DERIVED_ON[ds.kind]}** page."
    )
if exact:
    st.caption(
        f"Exact over all {ds.total_rows:,} rows, for **{ds.model_names[0]}** (merged states "
        f"of the whole file). The other pages show a uniform sample of {ds.n_samples:,} of the "
        f"{ds.total_rows:,} rows."
    )
else:
    st.caption(
        f"Computed for the first model, **{ds.model_names[0]}**, on all {ds.n_samples} samples."
    )

widgets.scenarios("home")

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
