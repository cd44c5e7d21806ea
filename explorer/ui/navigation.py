"""Which page runs: entering a page (the other pages' keys and settings dropped), a page
that stops early, and a scenario link followed from inside the app.

Pages are named by slug (:mod:`explorer.registry`). A page that stops early calls
:func:`stop_page`, not ``st.stop()`` (see there).
"""

from __future__ import annotations

from dataclasses import replace
from typing import NoReturn

import streamlit as st

from explorer import registry
from explorer.i18n import Phrase
from explorer.io import DataError
from explorer.links import decode_dataset
from explorer.samples import sample_names
from explorer.ui import priority, runlog, session, upload_store, url

#: The session key of the page running (its slug, :mod:`explorer.registry`).
PAGE = "active_page"
#: The session key of the page left for the one running (the Data page's "New table"
#: opens its result there).
CAME_FROM = "came_from_page"

#: The URL parameter a scenario link carries (explorer.scenarios): its settings win over
#: the session's (see :func:`follow_scenario`).
SCENARIO_PARAM = "scn"
#: The session key of the scenario or worked example this page was opened on (the
#: ``scn`` of its link), kept while the page stays; :data:`_OPENED_NOW` marks the run
#: that followed it, which may change the page.
OPENED = "opened_scenario"
_OPENED_NOW = "opened_scenario_now"


def enter_page(slug: str) -> None:
    """Record the page about to run; on a page change drop the other pages' state.

    A sidebar click in the browser drops the URL's parameters and the widgets of the
    page left behind, but not the session keys set from code; ``AppTest.switch_page``
    keeps the parameters. Both end up the same here: the new page sees none of the
    other pages' keys, nor the parameters a page wrote. A link's parameters that no
    page has read yet stay (a test opens a link as: run the app, switch to the page),
    and the first run of a session keeps everything.
    """
    previous = st.session_state.get(PAGE)
    st.session_state[PAGE] = slug
    followed = st.session_state.pop(_OPENED_NOW, False)
    if previous is None or previous == slug:
        return
    st.session_state[CAME_FROM] = previous
    if previous == "data":  # its uploaders are gone from the browser: their bytes are dead
        upload_store.release()
    if not followed:  # the scenario's note stays on its page only
        st.session_state.pop(OPENED, None)
    own = registry.prefix_of(slug)
    session.drop_page_keys(lambda key: own is not None and key.startswith(own))
    url.drop_page_params(only_written=True)


def open_page(slug: str, **settings: str) -> NoReturn:
    """Switch to the page ``slug`` with the dataset's and the app's parameters and
    ``settings`` for it (``model=...``). They count as a link's, which the page reads,
    not as settings the page left wrote (which :func:`enter_page` drops)."""
    st.session_state[url.WRITTEN] = st.session_state.get(url.WRITTEN, set()) - set(settings)
    st.switch_page(registry.script(slug), query_params=url.carried(**settings))


class PageStopped(Exception):
    """Raised by :func:`stop_page`; :func:`run_page` ends the page there."""


def stop_page() -> NoReturn:
    """End the page here, as ``st.stop()`` would, but let the script run end normally.

    After ``st.stop()`` Streamlit keeps the values of the widgets that this run did not
    draw, while the browser drops those widgets. Drawn again later, such a widget is
    sent without its value, so the browser shows the widget's default while the page
    uses the kept value (DCG's sample box showed sample 0, after a log base of 1 had
    stopped the page, while the page used sample 2), and the next control change sends
    the default back. A run that ends normally drops those values too, as the browser
    does, so the widget is seeded afresh (:func:`explorer.ui.url.bind_param`) when it comes back.
    """
    raise PageStopped


def run_page(nav) -> None:
    """Run the page of ``st.navigation`` ``nav``; a :func:`stop_page` ends it quietly.
    Meanwhile the run counts as interactive: other visitors' heavy work gives it way
    (:mod:`explorer.ui.priority`); with a run log named, its line is written
    (:mod:`explorer.ui.runlog`)."""
    try:
        with runlog.timed(nav.url_path or registry.HOME), priority.interactive():
            nav.run()
    except PageStopped:
        pass


def follow_scenario() -> None:
    """Open the scenario a link names (``?scn=...`` with its dataset and settings).

    A scenario link clicked in the app keeps the session, whose dataset and page keys
    would win over the link's; so the link's dataset becomes the active one and every
    page key is dropped, and the page then reads its settings from the URL, as a link
    opened fresh does. Call before :func:`enter_page`; ``scn`` leaves the URL.
    """
    if SCENARIO_PARAM not in st.query_params:
        return
    ss = st.session_state
    ss[OPENED], ss[_OPENED_NOW] = st.query_params.pop(SCENARIO_PARAM, None), True
    token, wanted = st.query_params.get("data"), st.query_params.get("ds")
    if token:
        try:
            # a scenario's data, not a visitor's shared link
            ds = replace(decode_dataset(token), description=Phrase("the data of a scenario"))
            ss[session.ACTIVE] = session.keep(ds)
        except DataError as exc:
            ss[session.LINK_ERROR] = exc.args[0]  # translated where shown
            return
    elif wanted in sample_names():
        ss[session.ACTIVE] = wanted
    else:
        return
    session.drop_page_keys(lambda key: key.startswith(session.KEEP_ON_DATASET_CHANGE))
    ss[url.WRITTEN] = set()
