"""The Data page's editor: the rows of the active dataset in an editable table (a window
of them past :data:`explorer.editing.EDIT_MAX_ROWS` rows), label names of a matrix
dataset, and the button that makes the edits a new dataset, spliced back into the
full data. A refused edit says why and keeps the data."""

from __future__ import annotations

import streamlit as st

from explorer import editing, io
from explorer.datasets import Dataset
from explorer.formatting import literal, model_words
from explorer.pages import data
from explorer.ui import session
from explorer.ui.language import t

# The editor's widgets hold the last dataset's names, window and pending edits: when the
# active dataset changes, they start again from the new one.
EDITOR_KEYS = (
    "data_editor_label_names",
    "data_editor_labels",
    "data_editor_scores",
    "data_editor_table",
    "data_editor_window_start",
)


def show(ds: Dataset) -> None:
    """The editor of ``ds``: its window, then the matrix editors or the table editor."""
    st.subheader(t("Edit"))
    if st.session_state.get("data_editor_for") != ds.fingerprint:
        for key in EDITOR_KEYS:
            st.session_state.pop(key, None)
        st.session_state["data_editor_for"] = ds.fingerprint
    start, stop = window(ds)
    if ds.is_matrix:
        matrix_editor(ds, start, stop)
    else:
        table_editor(ds, start, stop)


def base_name(ds: Dataset) -> str:
    """The dataset's name without " (edited)": the name of its edits and downloads."""
    return ds.name.removesuffix(" (edited)")


def window(ds: Dataset) -> tuple[int, int]:
    """The rows edited: all of them, or a window of EDIT_MAX_ROWS picked by its first
    row when the dataset has more."""
    n = ds.n_samples
    start, stop = 0, n
    if n > editing.EDIT_MAX_ROWS:
        start = int(
            st.number_input(
                t("First row of the window"),
                min_value=0,
                max_value=max(n - 1, 0),
                value=0,
                step=editing.EDIT_MAX_ROWS,
                key="data_editor_window_start",
            )
        )
        stop = min(start + editing.EDIT_MAX_ROWS, n)
        st.info(
            t(
                "This dataset has ${n:,} rows, too many to edit at once: you are editing rows "
                "${start:,} to ${stop:,}. Your changes are spliced back into the full dataset.",
                n=n,
                start=start,
                stop=stop - 1,
            ),
            icon=":material/content_cut:",
        )
    return start, stop


def label_names(ds: Dataset) -> list[str]:
    """The label names typed (comma separated), checked: names given twice or none keep
    the dataset's; fewer or more names remove or add labels (said in a note)."""
    st.session_state.setdefault("data_editor_label_names", ", ".join(ds.label_names))
    names_text = st.text_input(
        t("Label names (comma separated: rename, add or remove labels)"),
        key="data_editor_label_names",
    )
    typed = data.label_names(names_text, ds.label_names)
    new_names = typed.names
    if typed.twice:
        st.error(
            t(
                "Label names must be different from each other: ${names} appear(s) more than "
                "once. The editor keeps the dataset's names.",
                names=", ".join(typed.twice),
            ),
            icon=":material/block:",
        )
    elif not typed.given:
        st.error(
            t("Give at least one label name. The editor keeps the dataset's names."),
            icon=":material/block:",
        )
    elif typed.removed or typed.added:
        change = (
            t(
                "the last ${n} label(s) (${names}) are removed",
                n=len(typed.removed),
                names=", ".join(typed.removed),
            )
            if typed.removed
            else t(
                "${n} label(s) (${names}) are added, all labels and scores 0 until you edit them",
                n=len(typed.added),
                names=", ".join(typed.added),
            )
        )
        st.info(
            t(
                "You gave ${n} names for ${labels} labels: names apply in order, and ${change}.",
                n=len(new_names),
                labels=ds.n_labels,
                change=change,
            ),
            icon=":material/info:",
        )
    return new_names


def matrix_editor(ds: Dataset, start: int, stop: int) -> None:
    """The label names, the labels and the scores side by side, and the apply button."""
    base = base_name(ds)
    new_names = label_names(ds)
    labels_df, scores_df = data.named_matrices(ds, new_names, slice(start, stop))  # on screen
    lc, sc = st.columns(2)
    with lc:
        st.caption(t("Labels (0/1)" if ds.kind == "multilabel" else "Labels (relevance)"))
        ed_labels = st.data_editor(
            labels_df, num_rows="dynamic", key="data_editor_labels", width="stretch"
        )
    with sc:
        st.caption(_scores_of(ds.model_names[0]))
        ed_scores = st.data_editor(
            scores_df, num_rows="dynamic", key="data_editor_scores", width="stretch"
        )
    if st.button(t("Use the edited data"), key="data_apply_edits", type="primary"):
        # the full tables, built on the click only
        all_labels, all_scores = data.named_matrices(ds, new_names)
        try:
            new = editing.dataset_from_matrices(
                editing.splice(all_labels, ed_labels, start, stop),
                editing.splice(all_scores, ed_scores, start, stop),
                kind=ds.kind,
                name=f"{base} (edited)",
                model=ds.model_names[0],
                description=f"edited from {base}",
            )
            new = editing.keep_run(new, ds)  # a run keeps what it retrieved and its ids
            new = editing.keep_attributes(new, ds)  # and every sample its attributes
        except io.DataError as exc:
            _refused(exc)
        else:
            session.add_dataset(new)
            st.rerun()


def table_editor(ds: Dataset, start: int, stop: int) -> None:
    """The rows on screen as one table, and the apply button."""
    base = base_name(ds)
    edited = st.data_editor(
        editing.table_from_dataset(ds, slice(start, stop)),  # only the rows on screen
        num_rows="dynamic",
        key="data_editor_table",
        width="stretch",
        column_config=_words(editing.table_words(ds)),  # words over the code names (y_true)
    )
    if st.button(t("Use the edited data"), key="data_apply_edits", type="primary"):
        try:
            new = editing.dataset_from_table(
                editing.splice(editing.table_from_dataset(ds), edited, start, stop),
                kind=ds.kind,
                name=f"{base} (edited)",
                description=f"edited from {base}",
            )
        except io.DataError as exc:
            _refused(exc)
        else:
            session.add_dataset(new)
            st.rerun()


def _scores_of(model: str) -> str:
    """The scores editor's caption: "Scores of model **m**" (:func:`model_words`)."""
    if model_words(model) == "the model":
        return t("Scores of the model")
    return t("Scores of model **${name}**", name=literal(model))


def _refused(exc: io.DataError) -> None:
    """An edit the readers refuse: why, and that the data stays as it was."""
    why = literal(t(exc.args[0]))
    st.error(t("Not applied, your data is unchanged: ${why}", why=why), icon=":material/block:")


def _words(config: dict) -> dict:
    """The table editor's column words (``true label``, ``score of good``) translated."""
    return {column: t(words) for column, words in config.items()}
