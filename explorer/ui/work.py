"""Heavy work in a session: stopped when the visitor moves on, metered per session.

The stop
    Streamlit stops a script run (a rerun, another page, a closed tab) only at its
    yield points: each ``st`` call that sends something to the browser, and each read
    or write of ``st.session_state``, calls the ScriptRunner's
    ``_maybe_handle_execution_control_request``, which raises ``RerunException`` or
    ``StopException`` when a rerun or a stop was asked for (a closed tab's session is
    asked to stop by ``disconnect_session``). A long numpy loop has none, so a run
    would go on long after its visitor left. :func:`checkpoint` is such a yield point:
    the pure layers call it between blocks of bootstrap resamples. The exception goes
    up through the cached function, which then keeps nothing (``st.cache_data`` and
    the session store cache a value only when the function returns).

The meter
    :func:`metered` wraps every cached function that takes a ``checkpoint``
    (:mod:`explorer.ui.cache`): it charges the script thread's CPU time
    (``time.thread_time``) and that of the pool threads its blocks ran on
    (``metrics.worker_seconds``) to the session's :class:`explorer.budget.Ledger`, and
    refuses to start (:class:`Spent`) while the session has used
    :attr:`explorer.budget.Limits.session_per_minute` in the last minute; a
    :func:`checkpoint` stops a computation that goes over it. A cached value costs
    nothing and is never refused. Off without a session budget (locally).

The way given
    Inside :func:`metered` (and :func:`unmetered`) the run is heavy work, and each
    :func:`checkpoint` first waits while another visitor's page is being drawn
    (:mod:`explorer.ui.priority`: at most as long as the work ran since its previous
    checkpoint, at most a second), so that a page switch beside a bootstrap gets the
    cores back within a block of work.

The thread
    :func:`compute` runs the work on a thread of its own at a low OS priority
    (:mod:`explorer.ui.background`), so that within a block of work too another
    visitor's page gets a core first; the script thread keeps Streamlit's yield point
    meanwhile, and the work's checkpoint stops it once its run has stopped.

The progress
    :func:`progress` gives a computation run inside it a report, called at each
    :func:`checkpoint` with the seconds since it started: the page draws its progress
    line from it, so a long run is never a blank page.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx
from streamlit.runtime.scriptrunner_utils.script_run_context import in_cached_function

from explorer import budget
from explorer.formatting import fill_fields
from explorer.ui import background, language, priority
from metrics import worker_seconds

#: The ``st.session_state`` key of the session's ledger.
LEDGER_KEY = "work_ledger"
#: Checkpoints passed in this process (the tests watch it grow, then stop).
CHECKPOINTS = [0]

_meter = threading.local()  # the running computation: (ledger, thread time at its last charge)
_report = threading.local()  # the running progress report: (report, its start)
_elsewhere = threading.local()  # CPU seconds this thread's work took on work threads


class Spent(Exception):
    """This session has used its computing time for this minute."""

    def __init__(self, wait: float):
        super().__init__(budget.wait_text(wait))
        self.wait = wait


def _ledger() -> budget.Ledger | None:
    per_minute = budget.limits().session_per_minute
    if per_minute is None or get_script_run_ctx(suppress_warning=True) is None:
        return None
    ledger = st.session_state.get(LEDGER_KEY)
    if not isinstance(ledger, budget.Ledger) or ledger.per_minute != per_minute:
        ledger = budget.Ledger(per_minute)
        st.session_state[LEDGER_KEY] = ledger
    return ledger


def wait() -> float:
    """Seconds until this session may start heavy work again (0: now)."""
    ledger = _ledger()
    return 0.0 if ledger is None else ledger.wait(time.monotonic())


@contextmanager
def metered() -> Iterator[None]:
    """Run a heavy computation on this session's budget: refused (:class:`Spent`) when
    the budget is spent, its CPU time charged when it ends, stopped or not."""
    if getattr(_meter, "run", None) is not None:  # nested: the outer meters
        yield
        return
    ledger = _ledger()
    left = 0.0 if ledger is None else ledger.wait(time.monotonic())
    if left > 0:
        raise Spent(left)
    _meter.run = [ledger, cpu_seconds()]
    try:
        with priority.heavy():
            yield
    finally:  # no st call here: a second stop request would raise inside the finally
        _charge()
        _meter.run = None


@contextmanager
def unmetered() -> Iterator[None]:
    """Heavy work that is never refused nor charged (what a page must show at once):
    its :func:`checkpoint` still stops it with its run and gives way to other pages."""
    with priority.heavy():
        yield


def cpu_seconds() -> float:
    """CPU seconds of this thread's work: its own, its blocks' in the pool and its heavy
    work's on the threads :func:`compute` ran it on."""
    return time.thread_time() + worker_seconds() + getattr(_elsewhere, "seconds", 0.0)


def compute(call: Callable, *, on_budget: bool = True):
    """``call(checkpoint=checkpoint)`` as heavy work: inside :func:`metered` (or
    :func:`unmetered` when not ``on_budget``), on a thread of its own at a low priority
    while this run stops counting as a page (:mod:`explorer.ui.background`). Its CPU
    time and its waits for other pages count as this thread's
    (:func:`cpu_seconds`, :func:`explorer.ui.priority.waited`)."""
    around = metered if on_budget else unmetered
    report = getattr(_report, "run", None)
    spent: list = []  # (the thread it ran on, its CPU seconds, its waits)

    def work():
        held, _report.run = getattr(_report, "run", None), report
        try:
            with around():
                return call(checkpoint=checkpoint)
        finally:
            _report.run = held  # nested in other work: that work's report goes on
            spent[:] = threading.get_ident(), cpu_seconds(), priority.waited()

    with priority.heavy():
        try:
            return background.run(work, watch=_yield_point)
        finally:
            if spent and spent[0] != threading.get_ident():
                _elsewhere.seconds = getattr(_elsewhere, "seconds", 0.0) + spent[1]
                priority.add_waited(spent[2])


def _charge() -> budget.Ledger | None:
    run = getattr(_meter, "run", None)
    if run is None or run[0] is None:
        return None
    now = cpu_seconds()
    run[0].charge(time.monotonic(), now - run[1])
    run[1] = now
    return run[0]


def checkpoint() -> None:
    """A point where a heavy computation may be stopped: by a rerun or a stop request
    of this session's script run (Streamlit's exception), or by the session's budget
    (:class:`Spent`). A no-op outside a script run."""
    CHECKPOINTS[0] += 1
    if get_script_run_ctx(suppress_warning=True) is None:
        return
    _stop_point()
    if priority.yield_to_pages() > 0:  # other visitors' pages drew meanwhile
        _stop_point()  # this run may have been stopped while it waited
    _reported()
    ledger = _charge()
    if ledger is not None:
        left = ledger.wait(time.monotonic())
        if left > 0:
            raise Spent(left)


def _yield_point() -> None:
    _ = LEDGER_KEY in st.session_state  # Streamlit's yield point: raises to stop the run


def _stop_point() -> None:
    """Stop here if this run was stopped: Streamlit's yield point in the script thread,
    the work thread's own flag in :func:`compute`'s thread."""
    if background.in_work_thread():
        background.stop_point()
    else:
        _yield_point()


@contextmanager
def progress(report: Callable[[float], None]) -> Iterator[None]:
    """Call ``report(seconds since the start)`` at each :func:`checkpoint` of the work
    run inside (a cached value returns at once and reports nothing)."""
    _report.run = (report, time.monotonic())
    try:
        yield
    finally:
        _report.run = None


#: Least seconds between two redraws of a progress bar (:func:`bar_report`).
REDRAW_SECONDS = 0.5


def bar_report(bar, estimate: float) -> Callable[[float], None]:
    """A ``report`` for :func:`progress` that moves ``bar`` (an ``st.progress``) toward
    ``estimate`` seconds, at most every :data:`REDRAW_SECONDS` (a message per checkpoint
    would be ~1,000), never to 100% before the work is done (the estimate is of an idle
    machine)."""
    shown = [-1.0]
    # worded now: the report runs in the computation's thread, outside the session
    words = language.t("${done:.0f} s of about ${total:.0f} s")

    def report(seconds: float) -> None:
        if seconds - shown[0] < REDRAW_SECONDS:
            return
        shown[0] = seconds
        share = min(0.99, seconds / max(estimate, 1e-9))
        bar.progress(share, text=fill_fields(words, {"done": seconds, "total": estimate}))

    return report


def elapsed_report(where, words: str) -> Callable[[float], None]:
    """A ``report`` for :func:`progress` that writes ``words`` (translated, with a
    ``${seconds}`` field) as a caption in ``where`` (an ``st.empty``), at most every
    :data:`REDRAW_SECONDS`: for work without an estimate of its length."""
    shown = [-1.0]
    words = language.t(words)  # worded now: the report runs outside the session

    def report(seconds: float) -> None:
        if seconds - shown[0] < REDRAW_SECONDS:
            return
        shown[0] = seconds
        where.caption(fill_fields(words, {"seconds": seconds}))

    return report


def _reported() -> None:
    run = getattr(_report, "run", None)
    if run is None:
        return
    # outside the cache's record: an element drawn inside a cached function is replayed
    # on every later hit, and this progress line belongs to this run only
    token = in_cached_function.set(False)
    try:
        run[0](time.monotonic() - run[1])
    finally:
        in_cached_function.reset(token)
