"""Data: bring your own data (:mod:`views.data.upload`) or type it
(:mod:`views.data.new_table`), check it, edit it (:mod:`views.data.editor`), download
it and share it (:mod:`views.data.download`)."""

import streamlit as st

from explorer.datasets import KIND_LABELS
from explorer.formatting import literal
from explorer.i18n import Phrase
from explorer.ui import cache, language, session, slice_filter, widgets
from explorer.ui.language import t
from views.data import download, editor, new_table, upload

st.title(t("Data"))
ds = session.active()
slice_filter.whole_note("The Data page")  # its edits and downloads are of the whole data
back = new_table.origin()  # the page a typed table opens on

c1, c2, c3 = st.columns(3)
widgets.metric(c1, t("Samples"), ds.n_samples)
widgets.metric(c2, t("Labels"), ds.n_labels)
widgets.metric(c3, t("Models"), len(ds.model_names))
st.caption(
    t(
        "Active dataset **${name}**: ${kind}. ${description}",
        name=literal(language.dataset_title(ds)),
        kind=t(KIND_LABELS[ds.kind]),
        description=literal(language.dataset_description(ds)),
    )
)

# ---------------------------------------------------------------- uploads
upload.uploads()
upload.notices(ds)

# ---------------------------------------------------------------- a table typed live
new_table.show(ds, back)

# ---------------------------------------------------------------- summary
st.subheader(t("Validation summary"))
# a static table: every value in full (a data grid cuts long cells such as the positives
# per label of many labels); st.table reads Markdown in its cells, which name the labels
# its words are phrases, translated; the data's own names are written as they are
summary = cache.data.summary(ds).map(lambda v: t(v) if isinstance(v, Phrase) else v)
summary["what"] = summary["what"].map(t)
summary.columns = [t("what"), t("value")]
st.table(summary.map(lambda v: literal(v) if isinstance(v, str) else v), hide_index=True)

# ---------------------------------------------------------------- editor
editor.show(ds)

# ---------------------------------------------------------------- download and share
download.show(ds)
