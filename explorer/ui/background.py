"""Heavy work on a thread of its own, at a low OS priority, while the script thread
keeps watch.

Why a thread of its own
    :mod:`explorer.ui.priority` makes heavy work wait at its checkpoints while another
    visitor's page runs; between two checkpoints (a block of resamples, a sort of a
    million scores) it still takes a core as any thread would. Run at the nice value
    :data:`NICE` (Linux sets it per thread), it gets a core only when nothing at the
    default priority wants one: another visitor's page run, and any other process.
    An unprivileged thread cannot take its priority back up once lowered, so the work
    runs on a thread made for it and ended with it.

The watch
    Streamlit stops a run only in its script thread (the yield points do nothing
    elsewhere), so the script thread waits for the work and calls ``watch`` (a yield
    point) every :data:`WATCH` seconds. When that raises (a rerun, another page, a
    closed tab), the work is told to stop and raises :class:`Stopped` at its next
    checkpoint (:func:`stop_point`); the script thread waits for that up to
    :data:`UNWIND` seconds, then lets its own exception go on.

The work runs with the script's run context (its session state, its elements) and a
copy of its context variables; what it raises is raised again in the script thread.
"""

from __future__ import annotations

import contextvars
import os
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from streamlit.runtime.scriptrunner import add_script_run_ctx, get_script_run_ctx

#: The nice value of heavy work's threads (0 is the default; 19 the lowest priority).
NICE = 15
#: Seconds between two looks of the script thread at a stop request.
WATCH = 0.1
#: Most seconds a stopped run waits for its work to reach a checkpoint and end.
UNWIND = 2.0

_current = threading.local()  # in a work thread: its Job


class Stopped(Exception):
    """The run that started this work was stopped: the work ends at its checkpoint."""


@dataclass
class Job:
    """One piece of heavy work and what came of it."""

    stop: threading.Event = field(default_factory=threading.Event)
    done: threading.Event = field(default_factory=threading.Event)
    result: Any = None
    error: BaseException | None = None


def in_work_thread() -> bool:
    """Whether this thread runs heavy work for a script thread."""
    return getattr(_current, "job", None) is not None


def stop_point() -> None:
    """In heavy work's thread: raise :class:`Stopped` if its run was stopped."""
    job = getattr(_current, "job", None)
    if job is not None and job.stop.is_set():
        raise Stopped()


def lower_priority() -> None:
    """Give this thread the nice value :data:`NICE` (Linux only, where the value is a
    thread's; elsewhere, and where refused, nothing happens)."""
    if sys.platform != "linux":  # elsewhere the id would name a process
        return
    tid = threading.get_native_id()
    try:
        os.setpriority(os.PRIO_PROCESS, tid, max(NICE, os.getpriority(os.PRIO_PROCESS, tid)))
    except OSError:
        pass


def run(call: Callable[[], Any], watch: Callable[[], None]) -> Any:
    """``call()`` on a thread of its own at :data:`NICE`; ``watch()`` in this thread
    every :data:`WATCH` seconds meanwhile. Outside a script run, or already in heavy
    work's thread, ``call()`` runs here.

    Examples
    --------
    >>> run(lambda: 6 * 7, watch=lambda: None)  # outside a script run: here
    42
    """
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None or in_work_thread():
        return call()
    job = Job()
    context = contextvars.copy_context()
    worker = threading.Thread(
        target=_work, args=(job, call, ctx, context), name="heavy-work", daemon=True
    )
    worker.start()
    try:
        while not job.done.wait(WATCH):
            watch()
    except BaseException:
        job.stop.set()
        job.done.wait(UNWIND)
        raise
    error, job.error = job.error, None  # no cycle through the traceback
    if error is not None:
        raise error
    return job.result


def _work(job: Job, call: Callable[[], Any], ctx, context: contextvars.Context) -> None:
    lower_priority()
    add_script_run_ctx(threading.current_thread(), ctx)
    _current.job = job
    try:
        job.result = context.run(call)
    except BaseException as exc:  # raised again in the script thread
        job.error = exc
    finally:
        _current.job = None
        job.done.set()
