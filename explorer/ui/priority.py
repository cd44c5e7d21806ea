"""Pages before bootstraps: heavy work waits while another visitor's page runs.

On a server of two cores, one visitor's heavy computation (a Compare page's
bootstraps, a Slices frame: both cores for seconds) and another visitor's page switch
(a fraction of a second of one core) share the CPU, and the switch takes longer by
what the heavy work takes from it. So a script run counts as *interactive* while it
draws a page (:func:`interactive`, around the page by
:func:`explorer.ui.navigation.run_page`) and stops counting while it is inside heavy
work (:func:`heavy`, entered by :func:`explorer.ui.work.metered` and
:func:`~explorer.ui.work.unmetered`); at each of its checkpoints, heavy work waits
(:func:`yield_to_pages`) until no other run is interactive, at most as long as it
worked since its previous checkpoint and at most :data:`MOST_WAIT`: a stream of page
switches slows heavy work to half its speed at worst, never starves it. Waiting costs
no CPU, so it is not charged to the session's budget.

The count is of this process's script runs (every session's), kept under one lock;
a run that ends however it ends (a rerun, a stop, an exception) leaves it in a
``finally``.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

#: Most seconds heavy work waits at one checkpoint for other visitors' pages.
MOST_WAIT = 1.0

_changed = threading.Condition()
_interactive = [0]  # script runs drawing a page now, outside heavy work
_waiting = [0]  # heavy work waiting for them
#: This thread's run: ``counted`` in _interactive; ``since``, inside heavy work, the
#: clock at its previous checkpoint (None outside).
_run = threading.local()
_clock = time.monotonic


def _count(step: int) -> None:
    with _changed:
        _interactive[0] += step
        if step < 0:
            _changed.notify_all()


@contextmanager
def interactive() -> Iterator[None]:
    """Count this thread's script run as interactive until the block ends."""
    _count(1)
    _run.counted = True
    try:
        yield
    finally:
        if _run.counted:
            _count(-1)
        _run.counted = False


@contextmanager
def heavy() -> Iterator[None]:
    """Inside: this thread's run is heavy work, not counted as interactive."""
    counted, since = getattr(_run, "counted", False), getattr(_run, "since", None)
    if counted:
        _count(-1)
        _run.counted = False
    if since is None:  # nested heavy work keeps the outer one's clock
        _run.since = _clock()
    try:
        yield
    finally:
        _run.since = since
        if counted:
            _count(1)
            _run.counted = True


def pages_running() -> int:
    """Script runs of this process drawing a page now, outside heavy work."""
    return _interactive[0]


def waiting() -> int:
    """Heavy computations of this process waiting for other pages now."""
    return _waiting[0]


def waited() -> float:
    """Seconds this thread's heavy work has waited for other pages, since it started."""
    return getattr(_run, "waited", 0.0)


def add_waited(seconds: float) -> None:
    """Count ``seconds`` of waiting done for this thread's run on another thread."""
    _run.waited = waited() + seconds


def yield_to_pages(most: float | None = None) -> float:
    """At a checkpoint of heavy work, wait while another run draws its page; the wait.

    At most as long as the work ran since its previous checkpoint and at most ``most``
    seconds (default :data:`MOST_WAIT`). Outside heavy work (a page's own run) it never
    waits: two pages would wait for each other.

    Examples
    --------
    >>> yield_to_pages()  # outside heavy work
    0.0
    >>> with heavy():
    ...     yield_to_pages()  # no page running
    0.0
    """
    since = getattr(_run, "since", None)
    if since is None:
        return 0.0
    now = _clock()
    _run.since = now
    # read without the lock: a stale 0 only skips one wait
    if _interactive[0] == 0:
        return 0.0
    bound = min(MOST_WAIT if most is None else most, now - since)
    start = time.monotonic()
    with _changed:
        _waiting[0] += 1
        try:
            _changed.wait_for(lambda: _interactive[0] == 0, timeout=bound)
        finally:
            _waiting[0] -= 1
    _run.since = _clock()
    seconds = time.monotonic() - start
    _run.waited = waited() + seconds
    return seconds
