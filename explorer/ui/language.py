"""The visitor's language: read once per session from ``?lang=zh``, kept in session
state, switched in the sidebar, and written into the address while it is not English
(a teacher's bookmark opens in Chinese). :func:`t` translates a text of the interface
(:mod:`explorer.i18n`).
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from explorer import i18n
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
    if isinstance(text, i18n.Phrase) and not values:
        return text.translated(current())
    translated = i18n.translate(text, current())
    return fill_fields(translated, values) if values else translated


def options(names=str):
    """A widget's ``format_func`` that names each option in this run's language:
    ``names`` (a mapping or a function) gives an option's English name. The language
    is fixed now, as AppTest calls the function outside the script run."""
    lang = current()
    name = names.__getitem__ if isinstance(names, Mapping) else names
    return lambda value: i18n.translate(name(value), lang)


def table(frame):
    """A copy of the data frame ``frame`` for display, its column names (and a named
    index's name) translated; the page model's frame, its tests and its CSV keep the
    English names."""
    if current() == i18n.DEFAULT:
        return frame
    shown = frame.rename(columns=lambda c: t(c) if isinstance(c, str) else c)
    if isinstance(shown.index.name, str):
        shown.index.name = t(shown.index.name)
    return shown


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
        help="The interface's language (the link keeps it: lang=zh). Formulas and numbers "
        "are the same in every language.",
    )
    if lang == i18n.DEFAULT:
        st.query_params.pop(PARAM, None)
    else:
        st.query_params[PARAM] = lang
