"""Session state: the active Dataset, the sidebar picker and shareable links.

The active dataset's name lives in the non-widget key ``active_dataset`` so
it survives page changes; the picker widget (key ``dataset_picker``) is
re-seeded from it. The URL always describes the view: ``?ds=<sample>`` for a
bundled sample, ``?data=<packed>`` for a small upload or edit (see
``explorer.links``), plus each page's settings (``bind_param``). Opening
such a link in a fresh browser shows the same numbers. :class:`ShareLink`
offers the link on every page, and says so when the dataset is too big for it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from urllib.parse import urlencode

import streamlit as st

from explorer.datasets import Dataset, load_sample, sample_index, sample_names
from explorer.io import DataError
from explorer.links import decode_dataset, encode_dataset, fits_in_link

DEFAULT_SAMPLE = "balanced"
ACTIVE = "active_dataset"
SESSION = "session_datasets"
PICKER = "dataset_picker"
LINK_ERROR = "link_error"
LINK_WARNING = "link_warning"


def session_datasets() -> dict[str, Dataset]:
    """This session's uploads and edits, by name."""
    return st.session_state.setdefault(SESSION, {})


def available() -> list[str]:
    """Names the picker offers: this session's uploads and edits, then the gallery."""
    return [*session_datasets(), *sample_names()]


def get_dataset(name: str) -> Dataset:
    uploads = session_datasets()
    return uploads[name] if name in uploads else load_sample(name)


def init() -> None:
    """Pick the active dataset once per session: from the URL, else the default.

    A link that cannot be followed (a damaged ``data=``, an unknown ``ds=``)
    leaves a notice for :func:`sidebar_picker` and opens the default sample.
    """
    if ACTIVE in st.session_state:
        return
    st.session_state[ACTIVE] = DEFAULT_SAMPLE
    token = st.query_params.get("data")
    wanted = st.query_params.get("ds")
    if token:
        try:
            ds = decode_dataset(token)
        except DataError as exc:
            st.session_state[LINK_ERROR] = str(exc)
        else:
            if ds.name in sample_names():  # never hide the bundled sample of that name
                ds = dataclasses.replace(ds, name=f"{ds.name} (link)")
            session_datasets()[ds.name] = ds
            st.session_state[ACTIVE] = ds.name
    elif wanted in sample_names():
        st.session_state[ACTIVE] = wanted
    elif wanted:
        st.session_state[LINK_WARNING] = (
            f"The link asks for the sample {wanted!r}, which does not exist here: "
            f"showing {DEFAULT_SAMPLE!r} instead. Pick a dataset in the sidebar."
        )


def _sync_url(name: str) -> None:
    if name in sample_names() and name not in session_datasets():
        st.query_params["ds"] = name
        st.query_params.pop("data", None)
        return
    st.query_params.pop("ds", None)
    ds = get_dataset(name)
    if fits_in_link(ds):
        st.query_params["data"] = encode_dataset(ds)
    else:
        st.query_params.pop("data", None)


def set_active(name: str) -> None:
    """Make ``name`` the active dataset and mirror it to the URL."""
    st.session_state[ACTIVE] = name
    _sync_url(name)


def add_dataset(ds: Dataset) -> None:
    """Keep ``ds`` for this session and make it the active dataset."""
    session_datasets()[ds.name] = ds
    set_active(ds.name)


def link_is_shareable() -> bool:
    """Whether the current URL reproduces the active dataset."""
    name = st.session_state.get(ACTIVE, DEFAULT_SAMPLE)
    if name in sample_names() and name not in session_datasets():
        return True
    return fits_in_link(get_dataset(name))


def link_notice(message: str, *, error: bool = False) -> None:
    """Say that (part of) a link could not be followed, and what is shown instead."""
    (st.error if error else st.warning)(message, icon="🔗")


def current_link() -> str:
    """The address of this page with its query parameters, as the browser shows it.

    ``st.context.url`` (no query) when the browser sent it; else only the
    query part, to put after the app's address.
    """
    query = urlencode(st.query_params.to_dict())
    return f"{st.context.url or ''}?{query}"


class ShareLink:
    """The "Copy link" of every page: a sidebar popover under the dataset picker, and,
    when the address cannot hold the active dataset, a warning at the top of the page.

    Create it after :func:`sidebar_picker` and before the page runs: it draws
    both with the address as it stands. Call :meth:`fill` again once the page has
    run, so the link holds the settings the page wrote (a page that stops early,
    with ``st.stop()``, keeps the first drawing: nothing can be drawn after it).
    """

    def __init__(self) -> None:
        self._top = st.empty()
        self._side = st.sidebar.empty()
        self.fill()

    def fill(self) -> None:
        link = current_link()
        name = st.session_state.get(ACTIVE, DEFAULT_SAMPLE)
        if link_is_shareable():
            with self._side.popover("Copy link", icon="🔗"):
                st.caption("This page with its dataset and settings:")
                st.code(link, language=None, wrap_lines=True)
            return
        with self._side.popover("Copy link (settings only)", icon="🔗"):
            st.caption(
                f"This page's settings, without the dataset {name!r}: the link opens the "
                f"sample {DEFAULT_SAMPLE!r}."
            )
            st.code(link, language=None, wrap_lines=True)
        with self._top.container():
            note, copy = st.columns([5, 1], vertical_alignment="center")
            note.warning(
                f"This address does not hold the dataset **{name}** (too big for a link): "
                f"opened elsewhere it shows the sample {DEFAULT_SAMPLE!r}. To share the data, "
                "download it on the Data page.",
                icon="🔗",
            )
            with copy.popover("Copy link", icon="🔗"):
                st.caption(f"This page's settings only, without {name!r}:")
                st.code(link, language=None, wrap_lines=True)


def _on_pick() -> None:
    set_active(st.session_state[PICKER])


def _label(name: str) -> str:
    if name in session_datasets():
        return name  # uploads and edits show their own name (first in the list)
    titles = {row["name"]: row["title"] for row in sample_index()}
    return titles.get(name, name)


def sidebar_picker() -> Dataset:
    """Render the sidebar dataset picker and return the active Dataset."""
    init()
    if LINK_ERROR in st.session_state:
        link_notice(st.session_state.pop(LINK_ERROR), error=True)
    if LINK_WARNING in st.session_state:
        link_notice(st.session_state.pop(LINK_WARNING))
    names = available()
    if st.session_state[ACTIVE] not in names:
        st.session_state[ACTIVE] = DEFAULT_SAMPLE
    st.session_state[PICKER] = st.session_state[ACTIVE]
    st.sidebar.selectbox(
        "Dataset",
        names,
        key=PICKER,
        format_func=_label,
        on_change=_on_pick,
        help="The bundled samples, plus anything you upload or edit in this session.",
    )
    ds = get_dataset(st.session_state[ACTIVE])
    st.sidebar.caption(f"{ds.kind} · {ds.n_samples} samples · {ds.n_labels} label(s)")
    _sync_url(st.session_state[ACTIVE])
    return ds


def active() -> Dataset:
    """The active Dataset (after :func:`sidebar_picker` ran in app.py)."""
    init()
    return get_dataset(st.session_state[ACTIVE])


def bind_param(key: str, param: str, default, parse: Callable[[str], object] = str):
    """Seed widget ``key`` from ``?param=`` once, and return the value to write back.

    Call before creating the widget; after it, call ``st.query_params[param] =
    str(value)`` (or use :func:`write_param`) so the link carries the setting.
    A malformed value in the URL falls back to ``default``.
    """
    if key not in st.session_state:
        raw = st.query_params.get(param)
        value = default
        if raw is not None:
            try:
                value = parse(raw)
            except (TypeError, ValueError):
                value = default
        st.session_state[key] = value
    return st.session_state[key]


def write_param(param: str, value) -> None:
    """Mirror a page setting into the URL."""
    st.query_params[param] = str(value)
