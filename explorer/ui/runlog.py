"""A line per script run for whoever hosts the app: ``METRIC_EXPLORER_RUN_LOG=<file>``.

Streamlit logs no timing of its script runs; a host who wants to know how long pages
take, and whether heavy work holds them up, sets this variable (off by default). Each
line is JSON: ``end`` (the Unix time the run ended), ``page`` (its slug), ``session``
(a tag of the session: a keyed hash of its id, the key drawn anew at each start, so
two lines of one session match and nothing leads back to the id), ``wall`` and ``cpu``
(seconds: the script thread's CPU and that of its blocks in ``metrics``' pool),
``waited`` (seconds its heavy work gave way to other pages, :mod:`explorer.ui.priority`)
and ``stopped`` (a rerun, another page or a closed tab ended it early). Nothing a visitor
typed, uploaded or named is written.
"""

from __future__ import annotations

import hashlib
import json
import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager

from streamlit.runtime.scriptrunner import get_script_run_ctx

from explorer.ui import priority, work

#: The environment variable naming the file the lines are appended to.
RUN_LOG_VARIABLE = "METRIC_EXPLORER_RUN_LOG"

_KEY = os.urandom(16)
_write = threading.Lock()


def session_tag() -> str:
    """The running session's tag (8 hex digits; ``"-"`` outside a script run)."""
    ctx = get_script_run_ctx(suppress_warning=True)
    if ctx is None:
        return "-"
    return hashlib.blake2b(ctx.session_id.encode(), key=_KEY, digest_size=4).hexdigest()


@contextmanager
def timed(page: str) -> Iterator[None]:
    """Append the run of ``page`` inside the block to the run log, if one is named."""
    path = os.environ.get(RUN_LOG_VARIABLE)
    if not path:
        yield
        return
    wall, cpu, waited = time.monotonic(), work.cpu_seconds(), priority.waited()
    stopped = True
    try:
        yield
        stopped = False
    finally:
        line = {
            "end": round(time.time(), 3),
            "page": page,
            "session": session_tag(),
            "wall": round(time.monotonic() - wall, 4),
            "cpu": round(work.cpu_seconds() - cpu, 4),
            "waited": round(priority.waited() - waited, 4),
            "stopped": stopped,
        }
        try:
            with _write, open(path, "a", encoding="utf-8") as log:
                log.write(json.dumps(line) + "\n")
        except OSError:  # the host's file, not the visitor's page: never an error on it
            pass
