"""The Data page's uploads: the three upload tabs, their refusals, and
the notices about what was read: columns read under another name, and labels and
scores that look swapped (with a one-click swap)."""

import streamlit as st
from streamlit.runtime.uploaded_file_manager import DeletedFile

from explorer import io
from explorer.datasets import Dataset
from explorer.formatting import literal
from explorer.i18n import Phrase
from explorer.pages import data
from explorer.ui import session, upload_store, work
from explorer.ui.language import t
from views import prose

ERRORS = "data_upload_errors"
SEEN = "data_upload_seen"


def _fingerprint(*files) -> tuple:
    return tuple((f.name, f.size, getattr(f, "file_id", "")) for f in files)


def _ingest(slot: str, files: list, read) -> None:
    """Parse new uploads once; keep the error while the bad file stays in place."""
    errors: dict = st.session_state.setdefault(ERRORS, {})
    seen: dict = st.session_state.setdefault(SEEN, {})
    if not all(files):
        errors.pop(slot, None)
        seen.pop(slot, None)
        return
    if any(isinstance(f, DeletedFile) for f in files):
        return  # dropped for the bound (upload_store.over_bound): its notice says so
    key = _fingerprint(*files)
    if seen.get(slot) == key:
        return
    seen[slot] = key
    errors.pop("bound", None)
    contents = [(f.name, f.getvalue()) for f in files]
    try:
        # read as heavy work (on its own thread, at a low priority): a parse of millions
        # of rows has no checkpoint, and other visitors' pages go first meanwhile
        new = work.compute(lambda checkpoint: read(*contents), on_budget=False)
    except io.DataError as exc:
        errors[slot] = exc.args[0]  # a Phrase: shown in the visitor's language
    else:
        errors.pop(slot, None)
        session.add_dataset(new)
        st.rerun()


def _uploader(label: str, extensions, key: str, *, several: bool = False, **fields):
    """A file uploader that names the types it reads. The types are checked by
    explorer.io (a short notice), not by Streamlit's ``type=``: a crafted request with
    another type would make Streamlit raise before the page runs. ``several``: a list
    of files (empty when none)."""
    # ``label`` ends in "(${extensions})": the types are written as they are
    worded = t(label, extensions=", ".join(extensions), **fields)
    return st.file_uploader(worded, key=key, accept_multiple_files=several)


def uploads() -> None:
    """The upload tabs; a file that validates becomes the active dataset, a refused one
    leaves the data as it was and says why."""
    st.subheader(t("Upload"))
    st.caption(t(io.limits_text()))
    _bound()
    one, pair, trec, ltr = st.tabs(
        [t("One file"), t("Labels + scores"), "TREC qrels + run", t("Learning to rank")]
    )
    with one:
        st.markdown(prose.section("data", "one_file"))
        f = _uploader("Data file (${extensions})", io.TABLE_EXTENSIONS, "data_upload_file")
        _ingest("file", [f], lambda a: io.read_upload(*a))
    with pair:
        _pair_uploads()
    with trec:
        _trec_uploads()
    with ltr:
        _ranking_uploads()
    for message in st.session_state.get(ERRORS, {}).values():
        refused = t("Not loaded, your data is unchanged: ${why}", why=literal(t(message)))
        st.error(refused, icon=":material/block:")


def _bound() -> None:
    """Past :data:`explorer.ui.upload_store.MAX_IN_PLACE` of files in the uploaders, every one
    is dropped (the datasets read stay) and the page says so until a file is read. The
    uploaders' values go too, and the page runs again: Streamlit's widget state still
    held the files read before the drop (7 files of 45 MB: the server at 475 MB until the
    values went, 174 MB after)."""
    held = upload_store.over_bound()
    if held:
        st.session_state.setdefault(ERRORS, {})["bound"] = Phrase(
            "the files in the uploaders took ${held} MB, more than the ${most} MB a session "
            "may hold at once: upload fewer or smaller files.",
            held=f"{held / 10**6:,.1f}",
            most=f"{upload_store.MAX_IN_PLACE // 10**6:,}",
        )
        uploaders = session.KEEP_ON_DATASET_CHANGE  # their keys (and ERRORS', SEEN's)
        for key in [k for k in st.session_state if str(k).startswith(uploaders)]:
            if key not in (ERRORS, SEEN):
                del st.session_state[key]
        st.rerun()


def _trec_uploads() -> None:
    """A qrels file and any number of runs of the same documents (a model each)."""
    st.markdown(prose.fill("data", "trec", max_models=io.MAX_MODELS))
    qrels = st.file_uploader(t("Qrels"), key="data_upload_qrels")
    runs = _model_files("Runs", "data_upload_run")
    side = _side_file("query", "data_upload_trec_attributes")
    _with_models(
        "trec",
        qrels,
        runs,
        side,
        lambda head, more, a: io.read_trec_upload(
            *head, *more[0], more_runs=more[1:], attributes=a
        ),
    )


def _pair_uploads() -> None:
    """A labels file and any number of score files (a model each, named by its file)."""
    st.markdown(prose.fill("data", "pair", max_models=io.MAX_MODELS))
    lab = _uploader("Labels (${extensions})", io.MATRIX_EXTENSIONS, "data_upload_labels")
    sco = _uploader(
        "Scores, one file a model, up to ${n} (${extensions})",
        io.MATRIX_EXTENSIONS,
        "data_upload_scores",
        n=io.MAX_MODELS,
        several=True,
    )
    side = _side_file("sample", "data_upload_pair_attributes")
    _with_models(
        "pair",
        lab,
        sco,
        side,
        lambda head, more, a: io.read_pair_upload(
            *head, *more[0], more_scores=more[1:], attributes=a
        ),
    )


def _model_files(label: str, key: str) -> list:
    """An uploader of any number of model files (score files, runs): a model each."""
    return st.file_uploader(
        t("${files}; one file a model, up to ${n}", files=t(label), n=io.MAX_MODELS),
        key=key,
        accept_multiple_files=True,
    )


def _with_models(slot: str, first, models: list, side, reader) -> None:
    """Read a labels (qrels) file, any number of model files (score files, runs) and an
    optional side file, once all are there: ``reader(first, models, side)``, each file as
    (name, bytes); no model file yet: the upload waits."""

    def read(head, *rest):
        n = len(models)
        return reader(head, rest[:n], rest[n] if side else None)

    _ingest(slot, [first, *(models or [None]), *([side] if side else [])], read)


def _ranking_uploads() -> None:
    """SVMlight / LETOR or a table with a query column, with its optional score file and
    LightGBM query file (any extension: rank.train, train.txt, .query, .group)."""
    st.markdown(prose.fill("data", "ltr", max_models=io.MAX_MODELS))
    data = st.file_uploader(t("Data (SVMlight, LETOR or a table)"), key="data_upload_ltr")
    scores = _model_files("Scores (one per line), optional", "data_upload_ltr_scores")
    query_label = t("Query file (.query, .group), optional")
    query = st.file_uploader(query_label, key="data_upload_ltr_query")
    side = _side_file("query", "data_upload_ltr_attributes")

    def read(first, *rest):
        more = iter(rest)
        s = [next(more) for _ in scores]
        q = next(more) if query is not None else None
        a = next(more) if side is not None else None
        return io.read_ranking_upload(
            *first, s[0] if s else None, q, attributes=a, more_scores=s[1:]
        )

    _ingest("ltr", [data, *scores, *(f for f in (query, side) if f is not None)], read)


def _side_file(what: str, key: str):
    """The optional side file of attributes, a table keyed by ``what`` id."""
    label = (
        "Attributes by sample id, optional (${extensions})"
        if what == "sample"
        else "Attributes by query id, optional (${extensions})"
    )
    return _uploader(label, io.TABLE_EXTENSIONS, key)


def _swap() -> None:
    """The swap button's callback: the active dataset with labels and scores exchanged."""
    session.add_dataset(data.swapped(session.active()))


def notices(ds: Dataset) -> None:
    """What the active upload was read as: renamed columns, and a likely swap."""
    note = data.column_note(ds)
    if note:
        st.info(
            prose.fill("data", "column_note", note=literal(note)), icon=":material/text_fields:"
        )
    if data.looks_swapped(ds):
        st.warning(
            prose.fill("data", "swapped", model=literal(ds.model_names[0])),
            icon=":material/swap_horiz:",
        )
        st.button(t("Swap labels and scores"), key="data_swap_pair", on_click=_swap)
