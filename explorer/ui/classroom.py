"""The classroom settings: "Predict, then reveal" (``reveal=0``) and the 95% intervals
(``ci=1``), app-wide URL flags; what view the class revealed.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

import streamlit as st

from explorer import registry
from explorer.ui import language, navigation, report, session, url, work

#: "Predict, then reveal": the session key, its URL parameter (``reveal=0`` hides the
#: headline numbers), the toggle's key.
PREDICT, REVEAL_PARAM, PREDICT_TOGGLE = "predict_mode", "reveal", "predict_toggle"
#: The bootstrap intervals under the headlines: session key, URL parameter, toggle key.
INTERVALS, CI_PARAM, CI_TOGGLE = "show_intervals", "ci", "ci_toggle"
#: The view (page, dataset, the page's settings) at the start of this run, and the view
#: whose numbers the class revealed (see :func:`numbers_shown`).
VIEW, REVEALED = "current_view", "revealed_view"
#: Set by the Reveal button, dropped by the run that follows (see :func:`reveal_button`).
JUST_REVEALED = "just_revealed"


def predict_mode() -> bool:
    """Whether "Predict, then reveal" is on: the headline numbers wait for the class.

    Read once per session from ``?reveal=0`` (also ``false``, ``no``, ``off``), then
    kept in session state, as :func:`explorer.ui.sidebar.presentation_mode`.
    """
    return url.flag(PREDICT, REVEAL_PARAM, url.OFF)


def intervals_on() -> bool:
    """Whether the headlines show their 95% bootstrap intervals (``?ci=1``)."""
    return url.flag(INTERVALS, CI_PARAM, url.ON)


def intervals(compute: Callable[..., dict], *args) -> dict:
    """The headline's intervals by label (``compute(*args)``, a cached function of
    :mod:`explorer.ui.cache`) when they are on, else ``{}``; ``{}`` with a notice when
    this session has used its computing time for this minute (:mod:`explorer.ui.work`)."""
    if not intervals_on():
        return {}
    try:
        return compute(*args)
    except work.Spent as exc:
        st.info(f"{exc} The intervals are left out meanwhile.", icon=":material/hourglass_empty:")
        return {}


def _app_toggle(label: str, key: str, toggle: str, param: str, url_value: str, help: str):
    on = bool(st.session_state[key])
    st.session_state[toggle] = on

    def _changed() -> None:
        st.session_state[key] = bool(st.session_state[toggle])

    st.sidebar.toggle(label, key=toggle, on_change=_changed, help=help)
    if on:
        st.query_params[param] = url_value
    else:
        st.query_params.pop(param, None)


#: The keys of download buttons (``curves_dl_optima``, ``ml_download_samples``,
#: ``lr_contrib_csv``): a download changes nothing on screen, and a section that appears
#: on Reveal with its download buttons must not make a new view (hiding it again).
DOWNLOAD_KEY = re.compile(r"_(dl|download)_|_csv$")


#: The widget of a select box whose labels carry numbers (``widgets.numbered_selectbox``):
#: its key is its value's key and a digest of its labels, which change on Reveal.
LABELLED_WIDGET = re.compile(r"__[0-9a-f]{12}$")


def view_signature() -> dict:
    """What the page shows: the page, the dataset and a digest of each session key of
    the page (its settings and edits), but its Reveal button, its download buttons
    (:data:`DOWNLOAD_KEY`) and the widgets of select boxes with numbers in their labels
    (:data:`LABELLED_WIDGET`: the value's own key is kept).

    Examples
    --------
    >>> sorted(view_signature())
    ['data', 'keys', 'page']
    >>> keys = ("dcg_dl_steps", "ml_download_samples", "lr_contrib_csv", "dcg_k", "ml_beta")
    >>> [bool(DOWNLOAD_KEY.search(k)) for k in keys]
    [True, True, True, False, False]
    """
    ss = st.session_state
    page = ss.get(navigation.PAGE)
    prefix = registry.prefix_of(page) or "\x00"
    keys = {
        k: hashlib.blake2b(repr(ss[k]).encode(), digest_size=12).hexdigest()
        for k in ss.keys()
        if isinstance(k, str)
        and k.startswith(prefix)
        and not k.endswith("reveal")
        and not DOWNLOAD_KEY.search(k)
        and not LABELLED_WIDGET.search(k)
    }
    data = (ss.get(session.ACTIVE), ss.get(session.SLICE) or ())  # a slice is other data
    return {"page": page, "data": repr(data), "keys": keys}


def same_view(revealed: dict | None, now: dict | None) -> bool:
    """Whether ``now`` is the view the class revealed (None: no view).

    Examples
    --------
    >>> view = {"page": "dcg", "data": "d", "keys": {"dcg_k": "1"}}
    >>> same_view(view, dict(view)), same_view(view, {**view, "keys": {"dcg_k": "2"}})
    (True, False)
    >>> same_view(None, view)
    False
    """
    return revealed is not None and revealed == now


def settle() -> None:
    """At the end of a run of the whole page: the view revealed is the view as the run
    leaves it. The parts held back until Reveal (:func:`held_back`) were drawn in this
    run, with their own controls: the view now has their keys too, and a later move of
    one of them hides the numbers again like any other control."""
    if predict_mode() and numbers_shown():
        st.session_state[REVEALED] = st.session_state[VIEW] = view_signature()


def classroom_toggles() -> None:
    """The sidebar's "Predict, then reveal" and "95% intervals" toggles, app-wide URL
    settings like ``present=1`` (``reveal=0``, ``ci=1``); call before the page runs.

    Also records the view at the start of this run: the numbers a class revealed stay
    shown while the view is the one they were revealed on (:func:`numbers_shown`).
    """
    predict_mode()
    intervals_on()
    _app_toggle(
        language.t("Predict, then reveal"),
        PREDICT,
        PREDICT_TOGGLE,
        REVEAL_PARAM,
        "0",
        "Hides the headline numbers until the class has guessed them: press Reveal. "
        "They hide again when a control, the dataset or the page changes. The link keeps "
        "it (reveal=0).",
    )
    _app_toggle(
        language.t("95% intervals"),
        INTERVALS,
        CI_TOGGLE,
        CI_PARAM,
        "1",
        "Under each headline number, its 95% bootstrap confidence interval (2,000 "
        "seeded percentile resamples of the samples). The link keeps it (ci=1).",
    )
    track_view()


def track_view() -> None:
    """Record the view on screen; numbers revealed on another view hide again. The app
    calls it on every run; a panel that reruns alone (an st.fragment) calls it too."""
    st.session_state[VIEW] = view_signature()
    if not same_view(st.session_state.get(REVEALED), st.session_state[VIEW]):
        st.session_state.pop(REVEALED, None)


def numbers_shown() -> bool:
    """Whether the headline numbers are on screen: always, unless "Predict, then reveal"
    is on and the class has not revealed this view yet."""
    if not predict_mode():
        return True
    return same_view(st.session_state.get(REVEALED), st.session_state.get(VIEW))


def reveal() -> None:
    """Show this view's numbers (the Reveal button's callback)."""
    st.session_state[JUST_REVEALED] = True
    st.session_state[REVEALED] = view_signature()
    st.session_state[VIEW] = st.session_state[REVEALED]


#: What a headline shows while "Predict, then reveal" hides it.
HIDDEN = "?"


def headline(
    col,
    label: str,
    value_text: str,
    *,
    interval=None,
    help: str | None = None,
    delta: str | None = None,
    delta_color: str = "normal",
    delta_arrow: str = "auto",
) -> None:
    """One headline number: ``st.metric`` in ``col``, the way every page draws them.

    While "Predict, then reveal" hides the numbers (:func:`numbers_shown`)
    it shows ``?`` (and no delta); with "95% intervals" on
    (:func:`intervals_on`) a caption under it gives ``interval``'s
    :meth:`~explorer.intervals.Interval.text`.

    Parameters
    ----------
    col
        Where to draw (``st``, a column).
    label, value_text, help, delta, delta_color, delta_arrow
        As for ``st.metric``.
    interval : explorer.intervals.Interval or None
        The number's interval; None draws none. Compute it only when
        ``intervals_on()`` (the pages pass ``intervals.get(label)``).
    """
    shown = numbers_shown()
    col.metric(
        label,
        value_text if shown else HIDDEN,
        help=help,
        delta=delta if shown else None,
        delta_color=delta_color,
        delta_arrow=delta_arrow,
    )
    note = interval.text() if shown and interval is not None and intervals_on() else ""
    if note:
        col.caption(note)
    report.headline(label, value_text if shown else HIDDEN, note, shown=shown)


def reveal_button(container=None, *, compact: bool = False) -> None:
    """The page's "Reveal" button while "Predict, then reveal" hides its numbers, keyed
    with the page's prefix (``dcg_reveal``); a line saying so once they are revealed.

    Revealed numbers stay until a control, the dataset or the page changes; then they
    hide again, for the next guess. Draw it under the headline numbers, or
    ``compact`` (the button alone, a one-word line after) in a column of their row.
    """
    if not predict_mode():
        return
    where = st if container is None else container
    prefix = registry.prefix_of(st.session_state.get(navigation.PAGE)) or "page_"
    if numbers_shown():
        if st.session_state.pop(JUST_REVEALED, False):
            # the parts held back until now (held_back) need a run of the whole page
            # (Reveal may be pressed in a panel that reruns alone, an st.fragment);
            # those drawn above in this run are part of the view revealed
            settle()
            st.rerun(scope="app")
        where.caption(
            language.t("Revealed.")
            if compact
            else language.t(
                "Revealed. Change a control and the numbers hide again for the next guess."
            )
        )
        return
    if compact:
        where.button(language.t("Reveal"), key=f"{prefix}reveal", on_click=reveal, type="primary")
        return
    c1, c2 = where.columns([1, 4], vertical_alignment="center")
    # text only: Debian's Chromium has no emoji font (an emoji icon drew an empty box)
    c1.button(language.t("Reveal"), key=f"{prefix}reveal", on_click=reveal, type="primary")
    c2.caption(language.t("Predict, then reveal: the numbers marked ? wait for the class's guess."))


def derivations_hidden(container=None) -> bool:
    """True, with a short note, while the headline numbers are hidden: the lines that
    derive them (they end in the numbers) wait for the Reveal too."""
    if numbers_shown():
        return False
    (st if container is None else container).caption(
        language.t("The derivations of the numbers appear with them, after Reveal.")
    )
    return True


def held_back(what: str, container=None) -> bool:
    """True, with a caption, while the headline numbers are hidden: ``what`` (a part of
    the page whose charts, tables or texts give them away) waits for the Reveal."""
    if numbers_shown():
        return False
    (st if container is None else container).caption(
        language.t("${what}: after Reveal.", what=language.t(what))
    )
    return True
