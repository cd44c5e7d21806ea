"""explorer.ui.background: a page's heavy work runs on a thread of its own at a low OS
priority (its blocks too), returns its value or raises its error in the script, and
stops at its next checkpoint when its run is stopped."""

from __future__ import annotations

import os
import sys
import threading
import time

import numpy as np
import pytest
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.testing.v1 import AppTest

from explorer.ui import background, work

#: What the scripts below saw: thread ids and nice values, the running script's requests.
SEEN: dict = {}

linux_only = pytest.mark.skipif(sys.platform != "linux", reason="a thread's own nice value")


def _nice() -> int:
    return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())


def _heavy_page():
    import threading
    import time

    import streamlit as st

    import metrics
    from explorer.ui import cache, work
    from tests.explorer.ui import test_background as here

    def blocks_nice(n, checkpoint):
        checkpoint()
        here.SEEN["work"] = (threading.get_ident(), here._nice(), work.cpu_seconds())
        nices = metrics._ranks.map_blocks(lambda b: (here._nice(), sum(range(b))), [10**5] * 4)
        here.SEEN["blocks"] = [nice for nice, _ in nices]
        spin = time.thread_time() + 0.05  # CPU time the script must count as its own
        while time.thread_time() < spin:
            pass
        return n * 2

    before = work.cpu_seconds()
    value = cache.value(blocks_nice)(21)
    here.SEEN["script"] = (threading.get_ident(), here._nice(), work.cpu_seconds() - before)
    st.markdown(f"value {value}")


@linux_only
def test_heavy_work_runs_at_a_low_priority_on_its_own_thread_and_counts_as_the_runs():
    SEEN.clear()
    at = AppTest.from_function(_heavy_page, default_timeout=120).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["value 42"]
    work_thread, work_nice, work_cpu_at_start = SEEN["work"]
    script_thread, script_nice, script_cpu = SEEN["script"]
    assert work_thread != script_thread
    assert work_nice == background.NICE and script_nice == 0
    assert SEEN["blocks"] == [background.NICE] * 4  # the pool's threads at the caller's
    assert work_cpu_at_start < 0.05  # a thread of its own: its clock starts near zero
    assert script_cpu >= 0.05  # the work's CPU time counts as the run's (meter, run log)


def _failing_page():
    import streamlit as st

    from explorer.ui import cache

    def refuse(n, checkpoint):
        checkpoint()
        raise ValueError(f"y_score row {n} is not a number")

    try:
        cache.value(refuse)(7)
    except ValueError as exc:
        st.markdown(f"refused: {exc}")


def test_an_error_in_heavy_work_reaches_the_script_as_itself():
    at = AppTest.from_function(_failing_page, default_timeout=120).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["refused: y_score row 7 is not a number"]


def _endless_first_run():
    import threading

    import streamlit as st
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from explorer.ui import cache
    from tests.explorer.ui import test_background as here

    runs = st.session_state.get("runs", 0) + 1
    st.session_state["runs"] = runs
    if runs == 1:
        here.SEEN["requests"] = get_script_run_ctx().script_requests

        def endless(checkpoint):
            here.SEEN["work thread"] = threading.get_ident()
            while True:
                checkpoint()

        cache.value(endless)()
    st.markdown(f"run {runs}")


def _work_alive() -> bool:
    ident = SEEN.get("work thread")
    return any(t.ident == ident and t.is_alive() for t in threading.enumerate())


def test_a_rerun_stops_the_heavy_work_at_its_next_checkpoint():
    SEEN.clear()
    at = AppTest.from_function(_endless_first_run, default_timeout=120)
    runner = threading.Thread(target=at.run)
    runner.start()
    deadline = time.monotonic() + 120
    while "work thread" not in SEEN and time.monotonic() < deadline:
        time.sleep(0.01)
    start = work.CHECKPOINTS[0]
    while work.CHECKPOINTS[0] < start + 100 and time.monotonic() < deadline:
        time.sleep(0.01)
    SEEN["requests"].request_rerun(RerunData())  # what a moved widget or another page sends
    runner.join(120)
    assert not runner.is_alive()
    assert [m.value for m in at.markdown] == ["run 2"]  # the rerun drew
    while _work_alive() and time.monotonic() < deadline:  # a busy machine: its turn
        time.sleep(0.01)
    assert not _work_alive()  # the work stopped at a checkpoint: nothing goes on behind


def test_outside_a_script_run_the_work_runs_in_the_callers_thread():
    here = threading.get_ident()
    assert background.run(lambda: threading.get_ident(), watch=lambda: None) == here
    assert work.compute(lambda checkpoint: float(np.sum(np.arange(4)))) == 6.0


def _nested_page():
    import streamlit as st

    from explorer.ui import cache, work
    from tests.explorer.ui import test_background as here

    def inner(checkpoint):
        checkpoint()
        return 1

    cached_inner = cache.value(inner)

    def outer(checkpoint):
        here.SEEN["reports"].append("inner")
        total = cached_inner()  # heavy work inside heavy work: on the same thread
        for _ in range(3):
            checkpoint()
        return total

    with work.progress(lambda seconds: here.SEEN["reports"].append("report")):
        st.markdown(f"outer {cache.value(outer)()}")


def test_heavy_work_inside_heavy_work_keeps_the_outer_works_progress_report():
    SEEN.clear()
    SEEN["reports"] = []
    at = AppTest.from_function(_nested_page, default_timeout=120).run()
    assert not at.exception
    assert [m.value for m in at.markdown] == ["outer 1"]
    # the inner checkpoint reports once, then each of the outer's three
    assert SEEN["reports"] == ["inner", "report", "report", "report", "report"]
