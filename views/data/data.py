"""Data: bring your own data, edit it, check it, download it, share it."""

import streamlit as st

from explorer import downloads, editing, io
from explorer.datasets import KIND_LABELS
from explorer.pages import data as data_model
from explorer.ui import cache, session, share
from views.data import upload

st.title("Data")
ds = session.active()

c1, c2, c3 = st.columns(3)
c1.metric("Samples", ds.n_samples)
c2.metric("Labels", ds.n_labels)
c3.metric("Models", len(ds.model_names))
st.caption(f"Active dataset **{ds.shown_name}**: {KIND_LABELS[ds.kind]}. {ds.description}")

# ---------------------------------------------------------------- uploads
upload.uploads()
upload.notices(ds)

# ---------------------------------------------------------------- summary
st.subheader("Validation summary")
# a static table: every value in full (a data grid cuts long cells such as the positives
# per label of many labels)
st.table(cache.data.summary(ds), hide_index=True)

# ---------------------------------------------------------------- editor
st.subheader("Edit")
# The editor's widgets hold the last dataset's names, window and pending edits: when the
# active dataset changes, they start again from the new one.
EDITOR_KEYS = (
    "data_editor_label_names",
    "data_editor_labels",
    "data_editor_scores",
    "data_editor_table",
    "data_editor_window_start",
)
if st.session_state.get("data_editor_for") != ds.fingerprint:
    for key in EDITOR_KEYS:
        st.session_state.pop(key, None)
    st.session_state["data_editor_for"] = ds.fingerprint
n = ds.n_samples
start, stop = 0, n
if n > editing.EDIT_MAX_ROWS:
    start = int(
        st.number_input(
            "First row of the window",
            min_value=0,
            max_value=max(n - 1, 0),
            value=0,
            step=editing.EDIT_MAX_ROWS,
            key="data_editor_window_start",
        )
    )
    stop = min(start + editing.EDIT_MAX_ROWS, n)
    st.info(
        f"This dataset has {n:,} rows, too many to edit at once: you are editing rows "
        f"{start:,} to {stop - 1:,}. Your changes are spliced back into the full dataset.",
        icon="✂️",
    )

base = ds.name.removesuffix(" (edited)")
window = slice(start, stop)
if ds.is_matrix:
    st.session_state.setdefault("data_editor_label_names", ", ".join(ds.label_names))
    names_text = st.text_input(
        "Label names (comma separated: rename, add or remove labels)",
        key="data_editor_label_names",
    )
    typed = data_model.label_names(names_text, ds.label_names)
    new_names = typed.names
    if typed.twice:
        st.error(
            f"Label names must be different from each other: {', '.join(typed.twice)} "
            "appear(s) more than once. The editor keeps the dataset's names.",
            icon="🚫",
        )
    elif not typed.given:
        st.error("Give at least one label name. The editor keeps the dataset's names.", icon="🚫")
    elif typed.removed or typed.added:
        change = (
            f"the last {len(typed.removed)} label(s) ({', '.join(typed.removed)}) are removed"
            if typed.removed
            else f"{len(typed.added)} label(s) ({', '.join(typed.added)}) are added, "
            "all labels and scores 0 until you edit them"
        )
        st.info(
            f"You gave {len(new_names)} names for {ds.n_labels} labels: names apply in "
            f"order, and {change}.",
            icon="ℹ️",
        )

    labels_df, scores_df = data_model.named_matrices(ds, new_names, window)  # on screen
    lc, sc = st.columns(2)
    with lc:
        st.caption("Labels" + (" (0/1)" if ds.kind == "multilabel" else " (relevance)"))
        ed_labels = st.data_editor(
            labels_df, num_rows="dynamic", key="data_editor_labels", width="stretch"
        )
    with sc:
        st.caption(f"Scores of model **{ds.model_names[0]}**")
        ed_scores = st.data_editor(
            scores_df, num_rows="dynamic", key="data_editor_scores", width="stretch"
        )
    if st.button("Use the edited data", key="data_apply_edits", type="primary"):
        # the full tables, built on the click only
        all_labels, all_scores = data_model.named_matrices(ds, new_names)
        try:
            new = editing.dataset_from_matrices(
                editing.splice(all_labels, ed_labels, start, stop),
                editing.splice(all_scores, ed_scores, start, stop),
                kind=ds.kind,
                name=f"{base} (edited)",
                model=ds.model_names[0],
                description=f"edited from {base}",
            )
        except io.DataError as exc:
            st.error(f"Not applied, your data is unchanged: {exc}", icon="🚫")
        else:
            session.add_dataset(new)
            st.rerun()
else:
    edited = st.data_editor(
        editing.table_from_dataset(ds, window),  # only the rows on screen
        num_rows="dynamic",
        key="data_editor_table",
        width="stretch",
    )
    if st.button("Use the edited data", key="data_apply_edits", type="primary"):
        try:
            new = editing.dataset_from_table(
                editing.splice(editing.table_from_dataset(ds), edited, start, stop),
                kind=ds.kind,
                name=f"{base} (edited)",
                description=f"edited from {base}",
            )
        except io.DataError as exc:
            st.error(f"Not applied, your data is unchanged: {exc}", icon="🚫")
        else:
            session.add_dataset(new)
            st.rerun()

# ---------------------------------------------------------------- download and share
st.subheader("Download and share")
# the CSVs are written only when a button is clicked (a million rows take seconds)
if ds.is_matrix:
    d1, d2 = st.columns(2)
    d1.download_button(
        "Labels as CSV",
        lambda: downloads.csv_text(editing.matrices_from_dataset(ds)[0]),
        file_name=f"{base}.labels.csv",
        mime="text/csv",
        key="data_download_labels",
    )
    d2.download_button(
        "Scores as CSV",
        lambda: downloads.csv_text(editing.matrices_from_dataset(ds)[1]),
        file_name=f"{base}.scores.csv",
        mime="text/csv",
        key="data_download_scores",
    )
else:
    st.download_button(
        "Dataset as CSV",
        lambda: downloads.csv_text(editing.table_from_dataset(ds)),
        file_name=f"{base}.csv",
        mime="text/csv",
        key="data_download_csv",
    )
if share.link_is_shareable():
    st.success(
        "The address bar now holds a link to exactly this view: copy it to share it.", icon="🔗"
    )
else:
    st.warning(
        "This dataset is too big to travel inside a link: share the file instead "
        "(download it above).",
        icon="🔗",
    )
