"""The visitor's language: read once per session from ``?lang=zh``, kept in session
state, switched in the sidebar, and written into the address while it is not English
(a teacher's bookmark opens in Chinese). :func:`t` translates a text of the interface
(:mod:`explorer.i18n`).
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from explorer import i18n, samples
from explorer.formatting import fill_fields

#: The URL parameter, and the session keys of the language and of its select box.
PARAM, LANGUAGE, PICKER = "lang", "language", "language_picker"


def current() -> str:
    """This session's language code; English outside a script run (a test, the CLI)."""
    if get_script_run_ctx() is None:
        return i18n.DEFAULT
    ss = st.session_state
    if LANGUAGE not in ss:
        ss[LANGUAGE] = i18n.language(st.query_params.get(PARAM))
    return ss[LANGUAGE]


def t(text: str, /, **values) -> str:
    """``text`` in this session's language (English when it has no translation), its
    fields ``${name}`` filled from ``values`` (:func:`explorer.formatting.fill_fields`):
    ``t("${n} samples", n=200)``. A visitor's text goes in a value, already literal.
    A page model's :class:`~explorer.i18n.Phrase` is translated from its template."""
    translated = i18n.translate(text, current())
    return fill_fields(translated, values) if values else translated


def _on_pick() -> None:
    st.session_state[LANGUAGE] = st.session_state[PICKER]


def picker() -> None:
    """The sidebar's language select box; ``lang=zh`` in the address while it is on."""
    lang = current()
    st.session_state[PICKER] = lang
    st.sidebar.selectbox(
        "Language",
        tuple(i18n.LANGUAGES),
        key=PICKER,
        format_func=i18n.LANGUAGES.__getitem__,
        on_change=_on_pick,
        label_visibility="collapsed",
        help=t(
            "The interface's language (the link keeps it: lang=zh). Formulas and numbers "
            "are the same in every language."
        ),
    )
    if lang == i18n.DEFAULT:
        st.query_params.pop(PARAM, None)
    else:
        st.query_params[PARAM] = lang


def sample_title(name: str) -> str:
    """The title of the bundled sample ``name`` in this session's language (its English
    title is the catalogue's key: ``sample_data/index.csv``); any other name as it is."""
    return t(samples.sample_title(name)) if name in samples.sample_names() else name


def dataset_title(ds) -> str:
    """A dataset's title as shown: a bundled sample's translated (a slice of it keeps its
    condition after the title: "… (texture = smooth)"), a visitor's as named."""
    english = samples.sample_title(ds.name) if ds.source == "sample" else None
    if english is None or not ds.shown_name.startswith(english):
        return ds.shown_name
    return t(english) + ds.shown_name[len(english) :]


def dataset_description(ds) -> str:
    """A dataset's description: a bundled sample's "what it teaches" translated, the
    description of an upload (it quotes the visitor's columns) as the reader wrote it."""
    if ds.description and (ds.source == "sample" or isinstance(ds.description, i18n.Phrase)):
        return t(ds.description)
    return ds.description


def formatter(label_of) -> callable:
    """A select box's ``format_func``: ``label_of(option)`` translated into this session's
    language, the language fixed when it is made (Streamlit's AppTest calls it after the
    run, outside the session; an option's value stays English)."""
    lang = current()
    return lambda option: i18n.translate(label_of(option), lang)
