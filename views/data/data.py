"""Data: bring your own data (:mod:`views.data.upload`) or type it
(:mod:`views.data.new_table`), check it, edit it (:mod:`views.data.editor`), download
it and share it (:mod:`views.data.download`)."""

import streamlit as st

from explorer.datasets import KIND_LABELS
from explorer.formatting import literal
from explorer.ui import cache, session, slice_filter, widgets
from views.data import download, editor, new_table, upload

st.title("Data")
ds = session.active()
slice_filter.whole_note("The Data page")  # its edits and downloads are of the whole data
back = new_table.origin()  # the page a typed table opens on

c1, c2, c3 = st.columns(3)
widgets.metric(c1, "Samples", ds.n_samples)
widgets.metric(c2, "Labels", ds.n_labels)
widgets.metric(c3, "Models", len(ds.model_names))
st.caption(
    f"Active dataset **{literal(ds.shown_name)}**: {KIND_LABELS[ds.kind]}. "
    f"{literal(ds.description)}"
)

# ---------------------------------------------------------------- uploads
upload.uploads()
upload.notices(ds)

# ---------------------------------------------------------------- a table typed live
new_table.show(ds, back)

# ---------------------------------------------------------------- summary
st.subheader("Validation summary")
# a static table: every value in full (a data grid cuts long cells such as the positives
# per label of many labels); st.table reads Markdown in its cells, which name the labels
summary = cache.data.summary(ds)
st.table(summary.map(lambda v: literal(v) if isinstance(v, str) else v), hide_index=True)

# ---------------------------------------------------------------- editor
editor.show(ds)

# ---------------------------------------------------------------- download and share
download.show(ds)
