"""The sidebar: the dataset picker, the positive class of text labels, presentation mode."""

from __future__ import annotations

import logging

import streamlit as st

from explorer import bigdata
from explorer.datasets import Dataset
from explorer.formatting import literal
from explorer.io import DataError
from explorer.samples import sample_title
from explorer.ui import language, report, session, url

LOG = logging.getLogger(__name__)

PICKER = "dataset_picker"
#: Presentation mode: the session key that holds it, its URL parameter, the toggle's key.
PRESENT, PRESENT_PARAM, PRESENT_TOGGLE = "presentation", "present", "present_toggle"


def link_notice(message: str, *, error: bool = False) -> None:
    """Say that (part of) a link could not be followed, and what is shown instead.

    ``message`` is plain text that may quote the link (a ``?ds=`` name, a refused cell):
    it is shown literally, never as Markdown."""
    (st.error if error else st.warning)(literal(message), icon=":material/link:")


def _on_pick() -> None:
    session.set_active(st.session_state[PICKER])


def _labels(names: list[str]) -> dict[str, str]:
    """The picker's label of each name (worked out once a run: the select box formats
    every option, and the host's big-data list is a cached call)."""
    mine, big = session.session_datasets(), session.big_sources()

    def label(name: str) -> str:
        if name in mine:
            return name  # uploads and edits show their own name (first in the list)
        if name in big:
            return language.t("${name} (big data, sampled)", name=name)
        return sample_title(name)

    return {name: label(name) for name in names}


#: The sidebar's "Positive class" box, for binary data whose labels were text.
POSITIVE = "positive_class"


def _on_positive() -> None:
    ds = session.get_dataset(st.session_state[session.ACTIVE])
    if len(ds.label_names) == 2 and st.session_state[POSITIVE] == ds.label_names[0]:
        flip_positive_class()


def flip_positive_class() -> None:
    """Make the other text class the positive one (a button's callback: the box
    follows on the next run, seeded from the flipped dataset)."""
    ds = session.get_dataset(st.session_state[session.ACTIVE])
    session.add_dataset(session.flip_positive(ds))


def _positive_class(ds: Dataset) -> Dataset:
    """For binary data whose labels were two text classes ("spam"/"ham"): the sidebar's
    "Positive class" box. Picking the other class replaces the dataset by its flipped
    version (:func:`explorer.ui.session.flip_positive`), which a link then carries."""
    if ds.kind != "binary" or len(ds.label_names) != 2:
        return ds
    url.seed_widget(POSITIVE, ds.label_names[1])
    st.sidebar.selectbox(
        language.t("Positive class"),
        (ds.label_names[1], ds.label_names[0]),
        key=POSITIVE,
        on_change=_on_positive,
        help=language.t(
            "The class the scores are for: a score at or above the threshold predicts it "
            "(scikit-learn's pos_label). Every page counts it as 1."
        ),
    )
    return ds


def sidebar_picker() -> Dataset:
    """Render the sidebar dataset picker and return the active Dataset."""
    session.init()
    if session.LINK_ERROR in st.session_state:
        link_notice(st.session_state.pop(session.LINK_ERROR), error=True)
    if session.LINK_WARNING in st.session_state:
        link_notice(st.session_state.pop(session.LINK_WARNING))
    if session.DROPPED in st.session_state:
        st.info(literal(st.session_state.pop(session.DROPPED)), icon=":material/delete:")
    names = session.available()
    if st.session_state[session.ACTIVE] not in names:
        session.set_active(session.DEFAULT_SAMPLE)
    st.session_state[PICKER] = st.session_state[session.ACTIVE]
    st.sidebar.selectbox(
        language.t("Dataset"),
        names,
        key=PICKER,
        format_func=_labels(names).__getitem__,
        on_change=_on_pick,
        help=language.t(
            "The bundled samples, the host's big data (if any), plus anything you upload "
            "or edit in this session."
        ),
    )
    try:
        ds = session.get_dataset(st.session_state[session.ACTIVE])
    except DataError as exc:
        LOG.error("%s", exc)  # the host's paths and errors stay in the server's log
        st.error(
            literal(
                f"The data {st.session_state[session.ACTIVE]!r} cannot be opened right now: "
                f"showing {session.DEFAULT_SAMPLE!r} instead. The host's log says why."
            )
        )
        session.set_active(session.DEFAULT_SAMPLE)  # the picker follows on the next run
        ds = session.get_dataset(session.DEFAULT_SAMPLE)
    ds = _positive_class(ds)
    t = language.t
    caption = t(
        "${kind} · ${n} samples · ${labels} label(s)",
        kind=t(ds.kind),
        n=ds.n_samples,
        labels=ds.n_labels,
    )
    if isinstance(ds, bigdata.SampledDataset):
        caption = t(
            "${kind} · a uniform sample of ${n:,} of ${total:,} rows · ${labels} label(s)",
            kind=t(ds.kind),
            n=ds.n_samples,
            total=ds.total_rows,
            labels=ds.n_labels,
        )
    st.sidebar.caption(caption)
    session.sync_url(st.session_state[session.ACTIVE])
    report.dataset(ds)
    return ds


def download_view() -> None:
    """ "Download this view": the page's numbers, derivations, tables and charts as one
    HTML file that opens offline (:mod:`explorer.ui.report`)."""
    report.download_button(st.sidebar)


def presentation_mode() -> bool:
    """Whether this session shows the presentation mode (large text, for a projector).

    Read once per session from ``?present=1`` (also ``true``, ``yes``, ``on``), then
    kept in session state: a sidebar click, which drops the URL's parameters, keeps it.
    """
    ss = st.session_state
    if PRESENT not in ss:
        raw = str(st.query_params.get(PRESENT_PARAM, "")).strip().lower()
        ss[PRESENT] = raw in ("1", "true", "yes", "on")
    return bool(ss[PRESENT])


def _on_present() -> None:
    st.session_state[PRESENT] = bool(st.session_state[PRESENT_TOGGLE])


def presentation_toggle() -> None:
    """The sidebar's "Presentation mode" toggle; writes ``present=1`` into the URL
    while it is on (on every page: a teacher bookmarks the link)."""
    on = presentation_mode()
    st.session_state[PRESENT_TOGGLE] = on
    st.sidebar.toggle(
        language.t("Presentation mode"),
        key=PRESENT_TOGGLE,
        on_change=_on_present,
        help=language.t(
            "Larger text and charts for a projector, the sidebar folded away. "
            "The link keeps it (present=1)."
        ),
    )
    if on:
        st.query_params[PRESENT_PARAM] = "1"
    else:
        st.query_params.pop(PRESENT_PARAM, None)
