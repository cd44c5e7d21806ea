"""Small Streamlit helpers every page uses: the wrong-kind notice, the cannot-score notice,
a table with dashes for empty cells, an SVG chart, a select box whose labels carry
numbers and the page's scenarios."""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Iterable, Sequence

import pandas as pd
import streamlit as st

from explorer import i18n, registry, scenario_effects
from explorer import scenarios as scenario_list
from explorer.charts import alt_text
from explorer.datasets import KIND_LABELS, Dataset
from explorer.formatting import MISSING, column_words, dash_missing, literal, one_line
from explorer.ui import classroom, effects, examples, language, navigation, report, session, url


def _switch(name: str) -> None:
    session.set_active(name)


def require_kind(ds: Dataset, kinds: Iterable[str], suggestion: str) -> None:
    """Stop the page, kindly, when the active dataset is of a kind it cannot show.

    Says what the page needs and offers a button that opens ``suggestion``
    (a bundled sample of a fitting kind).
    """
    kinds = tuple(kinds)
    if ds.kind in kinds:
        return
    t = language.t
    wanted = f" {t('or')} ".join(t(KIND_LABELS[k]) for k in kinds)
    st.info(
        t(
            "This page shows ${wanted} data; the active dataset **${name}** is ${kind}. "
            "Pick another dataset in the sidebar, or open a sample.",
            wanted=wanted,
            name=literal(language.dataset_title(ds)),
            kind=t(KIND_LABELS[ds.kind]),
        ),
        icon=":material/info:",
    )
    st.button(
        t("Open the sample “${title}”", title=language.sample_title(suggestion)),
        key="open_fitting_sample",
        on_click=_switch,
        args=(suggestion,),
        type="primary",
    )
    navigation.stop_page()


def cannot_score(ds: Dataset, exc: Exception, why: str, prefix: str = "") -> None:
    """Say why the page shows nothing for ``ds``: an info sentence for valid data with
    one label column (``why``: what the page needs two labels for), an error box with
    ``prefix`` and the refusal for a setting ``metrics`` refuses (log base 1, ...).
    The caller stops (or returns) after it. The dataset's name and the refusal (which
    may quote a name) are shown literally; ``why`` and ``prefix`` are the page's Markdown."""
    if ds.y_true.ndim == 2 and ds.y_true.shape[1] < 2:
        st.info(
            language.t(
                "${why}, so it needs at least two labels; **${name}** has one. (${refusal})",
                why=language.t(why),
                name=literal(language.dataset_title(ds)),
                refusal=literal(language.refusal(exc)),
            ),
            icon=":material/info:",
        )
    else:
        st.error(f"{language.t(prefix)}{literal(language.refusal(exc))}")


def label_columns(labels, where=None) -> list:
    """One column per headline label, each as wide as its label needs (at least seven
    characters' worth): in presentation mode at 853 px, equal columns broke the longer
    labels ("Coverage error", "Subset accuracy") over two lines."""
    return (st if where is None else where).columns([max(len(label), 7) for label in labels])


#: A top-k column (``top_2``), worded "in the top 2" (:func:`column_words`).
_TOP_COLUMN = re.compile(r"top_(\d+)")


def worded(columns, config: dict | None = None, *, classes: bool = False) -> dict:
    """``config`` (a ``column_config``) with each code-style name among ``columns`` shown
    in words (:func:`explorer.formatting.column_words`); a column configured without a
    label gets the words as its label, one with a label keeps it."""
    out = dict(config or {})
    words_of = column_words(columns, classes=classes)
    # a page's own column name (not the data's) is shown in the visitor's language
    words_of |= {c: c for c in map(str, columns) if c not in words_of and language.t(c) != c}
    for column, words in words_of.items():
        given = out.get(column)
        if given is None:
            out[column] = language.t(words)
        elif isinstance(given, dict) and not given.get("label"):
            out[column] = {**given, "label": words}
    if language.current() != i18n.DEFAULT:
        _translate_labels(columns, out)
    return out


def _translate_labels(columns, config: dict) -> None:
    """Each column's label in the visitor's language (the frame keeps its English
    names: tests and CSV downloads read them); a name with no entry stays as it is."""
    for column in map(str, columns):
        given = config.get(column)
        label = given.get("label") if isinstance(given, dict) else given
        label = label or column
        top = _TOP_COLUMN.fullmatch(column)
        if top and label == f"in the top {top[1]}":
            shown = language.t("in the top ${k}", k=top[1])
        else:
            shown = language.t(label)
        if shown == label:
            continue
        config[column] = {**given, "label": shown} if isinstance(given, dict) else shown


def table(df, *, missing: str, container=None, **kwargs) -> None:
    """``st.dataframe`` of ``df`` with its empty cells as "—" (never "None"), its
    code-style column names in words (:func:`worded`), and then, when there is a
    dash, a caption saying what it means (``missing``).

    ``kwargs`` go to ``st.dataframe``; ``container`` is where to draw (``st``).
    """
    where = st if container is None else container
    shown = dash_missing(df)
    kwargs["column_config"] = worded(shown.columns, kwargs.get("column_config"))
    dataframe(where, shown, **kwargs)
    if shown is not df:
        where.caption(language.t("${dash} : ${missing}.", dash=MISSING, missing=missing))


def models_caption(ds: Dataset) -> None:
    """Under a page's title: the active dataset by its title, its size and its models
    (and its description when it has one), the visitor's names written as text."""
    st.caption(
        language.t(
            "Active dataset **${name}** · ${n} samples · model(s): ${models}",
            name=literal(language.dataset_title(ds)),
            n=ds.n_samples,
            models=literal(", ".join(ds.model_names)),
        )
        + (f" · {literal(language.dataset_description(ds))}" if ds.description else "")
    )


def svg_chart(html: str, container=None) -> None:
    """Draw a chart of :mod:`explorer.charts.svg` (HTML and SVG, no script) in
    ``container`` (the main area by default).

    Markdown with HTML allowed, not st.html: st.html's sanitizer drops the whole <svg>
    (Streamlit 1.67). In Markdown a blank line would end the chart's HTML and let the
    rest be read as Markdown (links, remote images), so the chart's texts are escaped
    and on one line (:func:`explorer.charts.svg.escape`), and any line break left in the
    HTML becomes a space here."""
    report.svg(html)
    (container or st).markdown(one_line(html), unsafe_allow_html=True)


def dataframe(where, data, keyboard: str = "", **kwargs):
    """``where.dataframe(data, **kwargs)`` (``where``: ``st``, a column), recorded for
    "Download this view" (:mod:`explorer.ui.report`); returns what Streamlit returns.

    A table a click on a row acts on (``on_select``) names the control that does the
    same by keyboard (``keyboard``: 'the "Sample" box'), said in a caption under it."""
    report.table(data, kwargs.get("key"))
    if isinstance(data, pd.DataFrame) and language.current() != i18n.DEFAULT:
        data, kwargs = _in_language(data, kwargs)
    shown = where.dataframe(data, **kwargs)
    if keyboard:
        where.caption(
            language.t(
                "By keyboard, ${keyboard} does what a click on a row does.",
                keyboard=language.t(keyboard),
            )
        )
    return shown


def _in_language(data: pd.DataFrame, kwargs: dict) -> tuple[pd.DataFrame, dict]:
    """A table whose own column names (not the data's) are in the visitor's language: a
    renamed copy, its ``column_config`` and ``column_order`` following the names. A name
    two columns would share ("label" and "label_name" both read 标签) is not a column
    name twice (a table refuses that) but the second column's label."""
    words = column_words(data.columns)
    for column in map(str, data.columns):  # "in the top 2": its template translated
        if top := _TOP_COLUMN.fullmatch(column):
            words[column] = i18n.Phrase("in the top ${k}", k=top[1])
    shown = {c: language.t(words.get(c, c)) for c in data.columns if isinstance(c, str)}
    shown = {c: name for c, name in shown.items() if name != c}
    if not shown:
        return data, kwargs
    taken, names, labels = set(map(str, data.columns)) - set(shown), {}, {}
    for column, name in shown.items():
        (labels if name in taken else names)[column] = name
        taken.add(name)
    config = dict(kwargs.get("column_config") or {})
    for column, name in labels.items():
        given = config.get(column)
        if given is None or (isinstance(given, dict) and not given.get("label")):
            config[column] = {**(given or {}), "label": name}
    kwargs = {**kwargs, "column_config": {names.get(c, c): v for c, v in config.items()}}
    if kwargs.get("column_order"):
        kwargs["column_order"] = [names.get(c, c) for c in kwargs["column_order"]]
    return data.rename(columns=names), kwargs


def metric(where, label: str, value, **kwargs) -> None:
    """``where.metric(label, value, **kwargs)`` for a number that is not a headline (a
    teaching note's, one sample's), recorded for "Download this view"."""
    report.headline(label, str(value))
    where.metric(label, value, **kwargs)


def plotly_chart(where, fig, keyboard: str = "", **kwargs):
    """``where.plotly_chart(fig, **kwargs)``, recorded for "Download this view", with
    what it draws as its text alternative (``alt``: the chart's ``aria-label``,
    :func:`explorer.charts.alt_text.describe`); returns the selection state when
    ``on_select`` asks for one.

    A chart a click acts on names in ``keyboard`` the control that does the same by
    keyboard (a click on a plotly point has no keyboard way of its own); its text
    alternative says so."""
    fig = language.figure(fig)  # its titles, legends and hover texts translated
    report.plotly(fig, kwargs.get("key"))
    alt = alt_text.describe(fig, language.current())
    by_keyboard = language.t(
        "${alt} By keyboard, ${keyboard} does what a click does.",
        alt=alt,
        keyboard=language.t(keyboard),
    )
    kwargs.setdefault("alt", by_keyboard if keyboard else alt)
    return where.plotly_chart(fig, **kwargs)


def numbered_selectbox(
    container,
    label: str,
    options: Sequence,
    format_func: Callable[[object], str],
    *,
    key: str,
    default=None,
    **kwargs,
):
    """A select box whose option labels show numbers that change with the settings.

    The browser hands a select box's choice back as its label; once a setting
    changes the labels (``"1 (NDCG 0.7500)"`` becomes ``"1 (NDCG 0.5000)"``), the
    label it sends back is no longer an option and Streamlit returns the raw label
    string instead of the option. So the choice lives in the non-widget session key
    ``key``, and the widget's own key is ``key`` plus a digest of the labels: new
    labels make a fresh widget, seeded from ``key``; a pick writes the option back.

    Parameters
    ----------
    container
        Where to draw it (``st``, a column, ...).
    label, options, format_func
        As for ``st.selectbox``; ``options`` must be hashable.
    key
        The session key holding the chosen option (a value there that is not an
        option, of the same type, is replaced by ``default``).
    default
        The option chosen when ``key`` holds none; ``options[0]`` if None.
    **kwargs
        Passed to ``st.selectbox`` (``help``, ...).

    Returns
    -------
    object
        The chosen option (always one of ``options``).
    """
    options = list(options)
    labels = [str(format_func(o)) for o in options]
    position = {}
    for i, option in enumerate(options):
        position.setdefault(option, i)

    def _is_option(value) -> bool:
        try:
            i = position.get(value)
        except TypeError:  # unhashable
            return False
        return i is not None and type(options[i]) is type(value)

    fallback = default if _is_option(default) else options[0]
    ss = st.session_state
    if not _is_option(ss.get(key)):
        ss[key] = fallback
    digest = hashlib.blake2b("\x1f".join(labels).encode(), digest_size=6).hexdigest()
    widget_key = f"{key}__{digest}"
    current = ss[key]
    if widget_key not in ss or not _is_option(ss[widget_key]) or ss[widget_key] != current:
        ss[widget_key] = current

    def _write_back() -> None:
        picked = st.session_state.get(widget_key)
        if _is_option(picked):  # a stale label string is ignored
            st.session_state[key] = picked

    container.selectbox(
        label,
        options,
        key=widget_key,
        format_func=lambda o: labels[position[o]],
        on_change=_write_back,
        **kwargs,
    )
    return ss[key]


def scenarios(slug: str) -> None:
    """The page's worked examples (a button each, :mod:`explorer.ui.examples`), the
    effect of the scenario or the note of the example the page was opened on, and the
    page's scenarios (:mod:`explorer.scenarios`): a small expander of links, each a
    teaching moment that sets the data and the controls; the links keep the app's
    settings in use (presentation, predict-then-reveal, intervals)."""
    if st.session_state.get(navigation.PAGE) != slug:
        return  # a page script run alone (a test) has no navigation to link to
    if slug not in (registry.HOME, "dcg"):  # Home has the gallery, DCG its own buttons
        examples.buttons(slug)
    _opened(slug)
    items = scenario_list.for_page(slug)
    if not items:
        return
    extra = {p: str(st.query_params[p]) for p in url.APP_PARAMS if p in st.query_params}
    # "Predict, then reveal": each "Watch:" note names what the class is to predict
    guessing = classroom.predict_mode()
    title = language.t("Scenarios: teaching moments, each a link")
    with st.expander(title, icon=":material/movie:"):
        if guessing:
            st.caption(
                language.t("What to watch in each is not shown while Predict, then reveal is on.")
            )
        for sc in items:
            st.page_link(
                registry.script(slug),
                label=language.t(sc.title),
                query_params=sc.query(**extra),
                icon=":material/play_arrow:",
            )
            if not guessing:
                st.caption(language.t("Watch: ${watch}", watch=language.t(sc.watch)))


def _opened(slug: str) -> None:
    """The effect of the scenario, or the note of the worked example, that this page
    was opened on, while its dataset is the active one."""
    example = examples.opened_here(slug)
    if example is not None:
        examples.opened(example)
        return
    opened = st.session_state.get(navigation.OPENED)
    sc = next((s for s in scenario_list.for_page(slug) if s.id == opened), None)
    if sc is None or not scenario_effects.has_effect(sc.id):
        return
    name, active = scenario_effects.dataset_of(sc).name, st.session_state.get(session.ACTIVE)
    if active != name and not str(active).startswith(f"{name} ("):
        return  # another dataset since: the scenario's numbers are not this page's
    effects.show(sc)
