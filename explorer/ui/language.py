"""The visitor's language: read once per session from ``?lang=zh``, kept in session
state, switched in the sidebar, and written into the address while it is not English
(a teacher's bookmark opens in Chinese). :func:`t` translates a text of the interface
(:mod:`explorer.i18n`).
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from explorer import i18n, metric_refusals, samples
from explorer.formatting import fill_fields

#: The URL parameter, and the session keys of the language and of its select box.
PARAM, LANGUAGE, PICKER = "lang", "language", "language_picker"


def current() -> str:
    """This session's language code; English outside a script run (a test, the CLI)."""
    if get_script_run_ctx() is None:
        return i18n.DEFAULT
    ss = st.session_state
    try:  # one read: ``in`` then ``[]`` read session state twice (every text translated)
        return ss[LANGUAGE]
    except KeyError:
        ss[LANGUAGE] = i18n.language(st.query_params.get(PARAM))
        return ss[LANGUAGE]


def t(text: str, /, **values) -> str:
    """``text`` in this session's language (English when it has no translation), its
    fields ``${name}`` filled from ``values`` (:func:`explorer.formatting.fill_fields`):
    ``t("${n} samples", n=200)``. A visitor's text goes in a value, already literal.
    A page model's :class:`~explorer.i18n.Phrase` is translated from its template."""
    translated = i18n.translate(text, current())
    return fill_fields(translated, values) if values else translated


def refusal(exc: Exception) -> str:
    """A refusal of ``metrics`` (``MetricInputError``) in this session's language, not yet
    literal: a message of one of the common shapes (:mod:`explorer.metric_refusals`)
    translated; in another language, any other message quoted in a translated sentence
    (its English kept as the package wrote it)."""
    said = metric_refusals.phrase(str(exc))
    if isinstance(said, i18n.Phrase) or current() == i18n.DEFAULT:
        return t(said)
    return t("The metric refuses these numbers, in its own words: ${reason}", reason=said)


def options(names=str):
    """A widget's ``format_func`` that names each option in this run's language:
    ``names`` (a mapping or a function) gives an option's English name. The language
    is fixed now, as AppTest calls the function outside the script run."""
    lang = current()
    name = names.__getitem__ if isinstance(names, Mapping) else names
    return lambda value: i18n.translate(name(value), lang)


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


def _text(value, lang: str):
    """A figure's text in ``lang``: a page model's phrase from its template, a plain
    text from the catalogue, a list of texts each; anything else as it is."""
    if isinstance(value, i18n.Phrase):
        return value.translated(lang)
    if isinstance(value, str):
        return i18n.translate(value, lang)
    if isinstance(value, list | tuple) and value and all(isinstance(v, str) for v in value):
        return [_text(v, lang) for v in value]
    if (
        isinstance(value, list | tuple)
        and value
        and all(isinstance(v, list | tuple) for v in value)
    ):
        rows = [_text(row, lang) for row in value]  # a grid's cells, row by row
        return value if all(a is b for a, b in zip(rows, value, strict=True)) else rows
    return value


def figure(fig):
    """``fig`` with the texts it shows in this session's language: its title, axis and
    legend titles, annotations, each trace's name, hover template and drawn texts (a
    chart module writes them in English, a text with numbers as a
    :class:`~explorer.i18n.Phrase`). English returns ``fig`` itself; another language a
    copy (a cached figure is never changed)."""
    lang = current()
    if lang == i18n.DEFAULT:
        return fig
    import plotly.graph_objects as go  # plotly when a chart is drawn, not at app start

    fig = go.Figure(fig)
    titled = [fig.layout.title, fig.layout.legend.title]
    axes = []
    fig.for_each_xaxis(axes.append)
    fig.for_each_yaxis(axes.append)
    titled += [axis.title for axis in axes]
    for axis in axes:  # category names written as ticks ("actual 0")
        if axis.ticktext is not None:
            axis.ticktext = _text(axis.ticktext, lang)
    titled += [bar.title for bar in (getattr(tr, "colorbar", None) for tr in fig.data) if bar]
    for title in titled:
        if title.text is not None:
            title.text = _text(title.text, lang)
    for note in fig.layout.annotations:
        note.text = _text(note.text, lang)
    for trace in fig.data:
        for name in ("name", "hovertemplate", "text", "x", "y"):  # x, y: categories
            try:
                old = trace[name]
            except (KeyError, ValueError):  # a trace type without it
                continue
            new = _text(old, lang)
            if new is not old:
                trace[name] = new
    return fig
