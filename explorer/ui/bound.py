"""Widgets bound to the address: read the setting from the URL, check it against the
current dataset, draw the widget and write the value back, in one call.

A page's controls read as ``k = bound.number(col, "k", key="dcg_k", param="k", ...)``:
the value comes from the link the first time (:func:`explorer.ui.url.bind_param`),
from the widget after that, is brought back into range when the dataset changed it,
and the link carries it (:func:`explorer.ui.url.write_param`). ``param=None`` keeps a
setting out of the address (a table's scroll position).

Each function takes ``where`` (``st``, a column, the sidebar) first, then the
widget's own arguments; ``parse`` turns the URL's text into a value, ``check`` brings
a value into range or refuses it (see :func:`explorer.ui.url.bind_param`), and
``to_url`` writes the value as the URL's text (``str`` by default).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import streamlit as st

from explorer.ui import language, url, widgets

#: Rows of a long table shown at a time (:func:`window`).
PAGE_ROWS = 200


def _write(param: str | None, value, to_url: Callable[[object], str]) -> None:
    if param is not None:
        url.write_param(param, to_url(value))


def _choice(draw, label, options, key, param, default, parse, to_url, kwargs):
    """A choice among ``options`` drawn by ``draw`` (a select box or radio buttons)."""
    options = list(options)
    fallback = options[0] if default is None else default
    url.bind_param(key, param, fallback, parse, url.member(options))
    value = draw(label, options, key=key, **kwargs)
    _write(param, value, to_url)
    return value


def selectbox(
    where,
    label: str,
    options: Sequence,
    *,
    key: str,
    param: str | None,
    default=None,
    parse: Callable[[str], object] = str,
    to_url: Callable[[object], str] = str,
    **kwargs,
):
    """``st.selectbox`` of ``options`` bound to ``?param=`` (the first option by default).

    Examples
    --------
    >>> from streamlit.testing.v1 import AppTest
    >>> def page():
    ...     import streamlit as st
    ...     from explorer.ui import bound
    ...     bound.selectbox(st, "model", ["a", "b"], key="x_model", param="model")
    >>> at = AppTest.from_function(page)
    >>> at.query_params["model"] = "b"
    >>> at.run().selectbox(key="x_model").value, at.query_params["model"]
    ('b', 'b')
    """
    return _choice(where.selectbox, label, options, key, param, default, parse, to_url, kwargs)


def radio(
    where,
    label: str,
    options: Sequence,
    *,
    key: str,
    param: str | None,
    default=None,
    parse: Callable[[str], object] = str,
    to_url: Callable[[object], str] = str,
    **kwargs,
):
    """``st.radio`` of ``options`` bound to ``?param=`` (the first option by default)."""
    return _choice(where.radio, label, options, key, param, default, parse, to_url, kwargs)


def segmented(
    where,
    label: str,
    options: Sequence,
    *,
    key: str,
    param: str | None,
    default=None,
    parse: Callable[[str], object] = str,
    to_url: Callable[[object], str] = str,
    **kwargs,
):
    """``st.segmented_control`` of ``options`` bound to ``?param=`` (the first option by
    default); one option is always chosen (a click on the chosen one keeps it)."""
    kwargs.setdefault("required", True)
    draw = where.segmented_control
    return _choice(draw, label, options, key, param, default, parse, to_url, kwargs)


def toggle(
    where,
    label: str,
    *,
    key: str,
    param: str | None,
    default: bool = False,
    to_url: Callable[[bool], str] = lambda v: str(int(v)),
    **kwargs,
):
    """``st.toggle`` bound to ``?param=1`` / ``0`` (read also as ``true``/``false``,
    ``on``/``off``; ``to_url=str`` writes ``True``/``False``).

    Examples
    --------
    >>> from streamlit.testing.v1 import AppTest
    >>> def page():
    ...     import streamlit as st
    ...     from explorer.ui import bound
    ...     bound.toggle(st, "ignore ties", key="x_ties", param="ties")
    >>> at = AppTest.from_function(page)
    >>> at.query_params["ties"] = "on"
    >>> at.run().toggle(key="x_ties").value, at.query_params["ties"]
    (True, '1')
    """
    url.bind_param(key, param, default, parse_bool, url.member((False, True)))
    value = bool(where.toggle(label, key=key, **kwargs))
    _write(param, value, to_url)
    return value


def number(
    where,
    label: str,
    *,
    key: str,
    param: str | None,
    default,
    check: Callable[[object], object],
    parse: Callable[[str], object] = float,
    to_url: Callable[[object], str] = str,
    **kwargs,
):
    """``st.number_input`` bound to ``?param=``; ``check`` is :func:`explorer.ui.url.int_in`,
    :func:`~explorer.ui.url.float_in` or the page's own (``None`` allowed for an empty
    box when ``check`` lets it through)."""
    url.bind_param(key, param, default, parse, check)
    value = where.number_input(label, key=key, **kwargs)
    _write(param, value, to_url)
    return value


def slider(
    where,
    label: str,
    *,
    key: str,
    param: str | None,
    default,
    check: Callable[[object], object],
    parse: Callable[[str], object] = float,
    to_url: Callable[[object], str] = str,
    **kwargs,
):
    """``st.slider`` (or ``st.select_slider`` with ``options=``) bound to ``?param=``."""
    url.bind_param(key, param, default, parse, check)
    draw = where.select_slider if "options" in kwargs else where.slider
    value = draw(label, key=key, **kwargs)
    _write(param, value, to_url)
    return value


def text(
    where,
    label: str,
    *,
    key: str,
    param: str | None,
    default: str,
    check: Callable[[object], object] | None = None,
    **kwargs,
) -> str:
    """``st.text_input`` bound to ``?param=``; ``check`` refuses a text that means
    nothing on the current dataset (an unknown id falls back to ``default``)."""
    url.bind_param(key, param, default, str, check)
    value = where.text_input(label, key=key, **kwargs)
    _write(param, value, str)
    return value


def multiselect(
    where,
    label: str,
    options: Sequence[str],
    *,
    key: str,
    param: str | None,
    default: Sequence[str],
    sep: str = ";",
    **kwargs,
) -> list[str]:
    """``st.multiselect`` of text ``options`` bound to ``?param=a;b`` (in the order picked;
    an option the dataset lacks is dropped, and none left falls back to ``default``).

    Examples
    --------
    >>> from streamlit.testing.v1 import AppTest
    >>> def page():
    ...     import streamlit as st
    ...     from explorer.ui import bound
    ...     bound.multiselect(st, "m", ["a", "b", "c"], key="x_m", param="m", default=["a"])
    >>> at = AppTest.from_function(page)
    >>> at.query_params["m"] = "c;x;a"
    >>> at.run().multiselect(key="x_m").value, at.query_params["m"]
    (['c', 'a'], 'c;a')
    """
    options = list(options)

    def check(value):
        kept = [v for v in value if v in options] if isinstance(value, list) else []
        if not kept and value:
            raise ValueError(value)
        return list(dict.fromkeys(kept))

    url.bind_param(key, param, list(default), lambda raw: raw.split(sep), check)
    value = list(where.multiselect(label, options, key=key, **kwargs))
    _write(param, value, sep.join)
    return value


def tabs(labels: Sequence[str], *, key: str, param: str, where=None) -> list:
    """``st.tabs`` that run lazily (only the open tab's body needs to be computed: test
    ``tab.open``) and that a link opens: ``?param=`` names a tab by the first word of its
    label in lower case; the first tab by default. The tabs are named in the page's
    language (the session holds the name shown; a link names them in English).

    Examples
    --------
    >>> from streamlit.testing.v1 import AppTest
    >>> def page():
    ...     import streamlit as st
    ...     from explorer.ui import bound
    ...     one, two = bound.tabs(["First tab", "Second tab"], key="x_tab", param="tab")
    ...     if two.open:
    ...         two.write("two is open")
    >>> at = AppTest.from_function(page)
    >>> at.query_params["tab"] = "second"
    >>> at.run().query_params["tab"]
    'second'
    """
    labels = tuple(labels)
    ids = {label.split()[0].lower(): label for label in labels}
    url.bind_param(key, param, labels[0], ids.__getitem__, url.member(labels))
    shown = {label: language.t(label) for label in labels}
    if all(label == text for label, text in shown.items()):
        drawn = (where or st).tabs(list(labels), key=key, on_change="rerun")
    else:  # a tab's value is its shown label: the widget holds it, ``key`` the English one
        widget, english = f"{key}__shown", {text: label for label, text in shown.items()}
        st.session_state[widget] = shown[st.session_state[key]]

        def _picked() -> None:
            st.session_state[key] = english[st.session_state[widget]]

        drawn = (where or st).tabs(list(shown.values()), key=widget, on_change=_picked)
    url.write_param(param, st.session_state[key].split()[0].lower())
    return drawn


def sample(
    where,
    label: str,
    n: int,
    describe: Callable[[int], str],
    *,
    key: str,
    param: str | None,
    default: int = 0,
    parse: Callable[[str], int] = int,
    to_url: Callable[[int], str] = str,
    picker_max: int = 1000,
    help: str | None = None,
) -> int:
    """The sample picker: a row of ``n``, bound to ``?param=``.

    Up to ``picker_max`` samples it is a select box whose labels are ``describe(row)``
    (which may carry numbers that change with the settings: see
    :func:`explorer.ui.widgets.numbered_selectbox`); past it, a row-number box with
    ``describe(row)`` as a caption under it (a select box of 10^5 options would format
    and send every one of them). ``parse`` reads the URL's text as a row (``int`` by
    default; a page with sample ids in its links passes ``ids.index``) and ``to_url``
    writes a row back (the row itself by default).
    """
    url.bind_param(key, param, default, parse, url.int_in(0, n - 1, clamp=False))
    if n <= picker_max:
        row = widgets.numbered_selectbox(
            where, label, range(n), describe, key=key, default=default, help=help
        )
    else:
        row = int(
            where.number_input(
                language.t("${label} (row 0 to ${last})", label=language.t(label), last=n - 1),
                min_value=0,
                max_value=n - 1,
                step=1,
                key=key,
                help=help,
            )
        )
        where.caption(describe(row))
    _write(param, row, to_url)
    return row


def window(where, n_rows: int, *, key: str, label: str = "show rows from") -> int:
    """The first row of a long table's window of :data:`PAGE_ROWS` rows: a number box
    when there are more rows than that (kept in the session, not the link), else 0."""
    if n_rows <= PAGE_ROWS:
        return 0
    url.bind_param(key, None, 0, check=url.int_in(0, n_rows - 1))
    return int(
        where.number_input(
            language.t("${label} (${n} rows)", label=language.t(label), n=n_rows),
            min_value=0,
            max_value=n_rows - 1,
            step=PAGE_ROWS,
            key=key,
        )
    )


def parse_bool(text: str) -> bool:
    """A URL flag's text as a bool: ``1``, ``true``, ``yes``, ``on`` are True; ``0``,
    ``false``, ``no``, ``off`` False; anything else is refused.

    Examples
    --------
    >>> parse_bool("on"), parse_bool("0")
    (True, False)
    """
    value = str(text).strip().lower()
    if value in url.ON:
        return True
    if value in url.OFF:
        return False
    raise ValueError(text)
