"""Session state: the active Dataset, the sidebar picker and shareable links.

The active dataset's name lives in the non-widget key ``active_dataset`` so
it survives page changes; the picker widget (key ``dataset_picker``) is
re-seeded from it. ``?ds=<sample>`` in the URL opens a bundled sample, and
the picker writes it back so the address bar is always a shareable link.
"""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset, load_sample, sample_index, sample_names

DEFAULT_SAMPLE = "balanced"
ACTIVE = "active_dataset"
UPLOADS = "session_datasets"
PICKER = "dataset_picker"


def _session_datasets() -> dict[str, Dataset]:
    return st.session_state.setdefault(UPLOADS, {})


def available() -> list[str]:
    """Names the picker offers: this session's uploads and edits, then the gallery."""
    return [*_session_datasets(), *sample_names()]


def get_dataset(name: str) -> Dataset:
    uploads = _session_datasets()
    return uploads[name] if name in uploads else load_sample(name)


def init() -> None:
    """Pick the active dataset once per session: from the URL, else the default."""
    if ACTIVE in st.session_state:
        return
    wanted = st.query_params.get("ds")
    st.session_state[ACTIVE] = wanted if wanted in sample_names() else DEFAULT_SAMPLE


def set_active(name: str) -> None:
    """Make ``name`` the active dataset and mirror it to the URL when shareable."""
    st.session_state[ACTIVE] = name
    if name in sample_names():
        st.query_params["ds"] = name
    else:
        st.query_params.pop("ds", None)


def _on_pick() -> None:
    set_active(st.session_state[PICKER])


def _label(name: str) -> str:
    titles = {row["name"]: row["title"] for row in sample_index()}
    return titles.get(name, f"{name} (this session)")


def sidebar_picker() -> Dataset:
    """Render the sidebar dataset picker and return the active Dataset."""
    init()
    names = available()
    if st.session_state[ACTIVE] not in names:
        st.session_state[ACTIVE] = DEFAULT_SAMPLE
    st.session_state[PICKER] = st.session_state[ACTIVE]
    st.sidebar.selectbox(
        "Dataset", names, key=PICKER, format_func=_label, on_change=_on_pick,
        help="The bundled samples, plus anything you upload or edit in this session.",
    )
    ds = get_dataset(st.session_state[ACTIVE])
    st.sidebar.caption(f"{ds.kind} · {ds.n_samples} samples · {ds.n_labels} label(s)")
    if st.session_state[ACTIVE] in sample_names():
        st.query_params["ds"] = st.session_state[ACTIVE]
    return ds


def active() -> Dataset:
    """The active Dataset (after :func:`sidebar_picker` ran in app.py)."""
    init()
    return get_dataset(st.session_state[ACTIVE])
