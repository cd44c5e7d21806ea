"""The address is the state: page settings read from the URL, checked, and written back.

A widget shows the value the page uses. Streamlit tells the browser a widget's value
only when it was written through ``st.session_state`` in that run (or restored under
its key); otherwise the browser shows what it holds, or the widget's default. So every
page widget is seeded through :func:`bind_param` before it is drawn, and
:func:`seed_widget` writes a value so that it reaches the browser even when the widget
is drawn a run later. :mod:`explorer.ui.bound` draws widgets that do all three steps
(read, check, draw, write back) in one call.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from urllib.parse import urlencode

import streamlit as st

WRITTEN = "page_params_written"
#: The URL parameters that name the dataset; every other parameter is a page setting.
DATASET_PARAMS = ("ds", "data")
#: URL parameters of the whole app, kept on every page and dataset (``present=1``,
#: ``reveal=0``, ``ci=1``, ``lang=zh``); the slice filter (``slice=hospital:B``) is kept on every
#: page, and dropped with its dataset (:mod:`explorer.ui.slice_filter`).
APP_PARAMS = ("present", "reveal", "ci", "slice", "lang")
#: Text values of a URL flag that mean on, and that mean off.
ON, OFF = ("1", "true", "yes", "on"), ("0", "false", "no", "off")


def drop_page_params(only_written: bool = False) -> None:
    """Remove every URL parameter but the dataset's (``ds`` / ``data``) and the app's
    (:data:`APP_PARAMS`).

    ``only_written``: only those a page wrote in this session (:func:`write_param`);
    the settings of a link not yet read by a page stay.
    """
    written = st.session_state.get(WRITTEN, set())
    for param in list(st.query_params.keys()):
        if param not in DATASET_PARAMS + APP_PARAMS and (param in written or not only_written):
            del st.query_params[param]
    st.session_state[WRITTEN] = set()


def carried(**settings: str) -> dict[str, str]:
    """The query parameters a switch to another page carries: the dataset's and the
    app's (:data:`APP_PARAMS`, the slice filter among them), with ``settings`` of the
    page opened (``model=...``)."""
    keep = {p: str(st.query_params[p]) for p in DATASET_PARAMS + APP_PARAMS if p in st.query_params}
    keep.update(settings)
    return keep


def current_link() -> str:
    """The address of this page with its query parameters, as the browser shows it.

    ``st.context.url`` (no query) when the browser sent it; else only the
    query part, to put after the app's address.
    """
    query = urlencode(st.query_params.to_dict())
    return f"{st.context.url or ''}?{query}"


def bind_param(
    key: str,
    param: str | None,
    default,
    parse: Callable[[str], object] = str,
    check: Callable[[object], object] | None = None,
):
    """Seed ``key`` from ``?param=`` once, check it, and return the value to use.

    Call before creating the widget; after it, call :func:`write_param` so the link
    carries the setting. A malformed value in the URL falls back to ``default``.
    ``param=None``: a setting that is not in the URL (seeded from ``default``).

    ``check`` receives the value (from the URL, or left in session state by an
    earlier run) and returns the value to use: the same, or one brought into range
    (a k beyond the item count clamped to it); it raises ``ValueError``,
    ``TypeError``, ``KeyError`` or ``IndexError`` for a value that has no meaning on
    the current dataset, which then falls back to ``default`` (``parse`` may raise
    the same, or ``OverflowError``, for a malformed URL value). The session value is
    rewritten only when the check changed it (rewriting an unchanged value would
    reset a slider the user is still dragging).
    """
    ss = st.session_state
    if key not in ss:
        raw = st.query_params.get(param) if param is not None else None
        value = default
        if raw is not None:
            try:
                value = parse(raw)
            except (TypeError, ValueError, KeyError, IndexError, OverflowError):
                value = default  # OverflowError: int(float("inf")), 1e400
        seed_widget(key, _checked(value, default, check))
        return ss[key]
    value = ss[key]
    fixed = _checked(value, default, check)
    if type(fixed) is not type(value) or fixed != value:
        seed_widget(key, fixed)
    return ss[key]


def seed_widget(key: str, value) -> None:
    """Write ``value`` to the widget key ``key`` so that the browser shows it, whether
    the widget is drawn later in this run or only in a later run.

    Drawn in this run, the widget takes the value and the browser is told to show it.
    Drawn only later (multilabel draws its k box for the rule "top k" only), Streamlit
    1.67 files the value under the widget's id if the key had one from an earlier
    drawing, and then draws the widget without telling the browser, which shows the
    widget's default (k = 1 on screen, k = 3 in use). Deleting the key in between
    forgets that id: the value is filed under the key, and a widget whose value comes
    from its key is sent with it.

    Parameters
    ----------
    key
        The widget's key; call before the widget is drawn in this run.
    value
        The value the widget is to show and return.
    """
    ss = st.session_state
    ss[key] = value
    del ss[key]  # forgets the widget id the key had (and any value stored under it)
    ss[key] = value


def preset_from_link(preset_key: str, values: dict[str, tuple[str, object]]) -> None:
    """Seed the settings of a link's preset that the link itself leaves out.

    Call once per run before the widgets are bound; it acts only while the preset's
    widget ``preset_key`` is not yet in session state (a link opened fresh). ``values``:
    URL parameter -> (widget key, the preset's value). A setting given in the link
    (``?param=``) keeps the link's value: explicit values win over the preset.
    """
    ss = st.session_state
    if preset_key in ss:
        return
    for param, (key, value) in values.items():
        if param not in st.query_params and key not in ss:
            seed_widget(key, value)


def _checked(value, default, check):
    if check is None:
        return value
    try:
        return check(value)
    except (TypeError, ValueError, KeyError, IndexError, OverflowError):
        return default


def member(options: Iterable) -> Callable[[object], object]:
    """A ``check`` for :func:`bind_param`: the value must be one of ``options``
    (of the same type: ``True`` is not the option ``1``)."""
    allowed = {}
    for option in options:
        allowed.setdefault(option, type(option))

    def check(value):
        if allowed.get(value) is not type(value):
            raise ValueError(value)
        return value

    return check


def int_in(lo: int, hi: int, *, clamp: bool = True) -> Callable[[object], int]:
    """A ``check`` for :func:`bind_param`: a whole number in ``[lo, hi]``.

    ``clamp``: a number outside is brought to the nearest end; else it is refused.
    ``None``, text, a bool or a fraction is refused.
    """
    return _in_range(lo, hi, clamp=clamp, whole=True)


def float_in(lo: float, hi: float, *, clamp: bool = True) -> Callable[[object], float]:
    """A ``check`` for :func:`bind_param`: a finite float in ``[lo, hi]`` (clamped, or
    refused with ``clamp=False``)."""
    return _in_range(lo, hi, clamp=clamp, whole=False)


def _in_range(lo, hi, *, clamp: bool, whole: bool) -> Callable[[object], float]:
    def check(value):
        if isinstance(value, bool) or value is None:
            raise TypeError(value)
        v = float(value)
        if not math.isfinite(v) or (whole and not v.is_integer()):
            raise ValueError(value)
        if not lo <= v <= hi:
            if not clamp:
                raise ValueError(value)
            v = min(max(v, lo), hi)
        return int(v) if whole else v

    return check


def write_param(param: str, value) -> None:
    """Mirror a page setting into the URL (a page change drops it again)."""
    st.query_params[param] = str(value)
    st.session_state.setdefault(WRITTEN, set()).add(param)


# --------------------------------------------------------------------- classroom settings


def flag(key: str, param: str, values: tuple[str, ...]) -> bool:
    """Session flag ``key``, read once per session from ``?param=`` (on when the
    parameter's value is one of ``values``), then kept in session state."""
    ss = st.session_state
    if key not in ss:
        ss[key] = str(st.query_params.get(param, "")).strip().lower() in values
    return bool(ss[key])
