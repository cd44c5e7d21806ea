"""explorer.ui.work: a heavy computation stops at its next checkpoint when the run is
asked to stop or rerun, an interrupted cached call keeps nothing, and the session's
budget refuses heavy work once spent."""

from __future__ import annotations

import threading
import time

import pytest
from streamlit.runtime.scriptrunner_utils.exceptions import StopException
from streamlit.runtime.scriptrunner_utils.script_requests import RerunData
from streamlit.testing.v1 import AppTest

from explorer import budget
from explorer.ui import cache, session_cache, work

#: The running script's requests (the handle a rerun or a closed tab goes through).
REQUESTS: list = []


def test_an_interrupted_cached_computation_keeps_nothing(monkeypatch):
    done = []

    def chunks(n, checkpoint=budget.no_checkpoint):
        for i in range(n):
            checkpoint()
            done.append(i)
        return len(done)

    cached = cache.value(chunks)

    def stop_at_the_fourth():
        if len(done) == 3:
            raise StopException()

    monkeypatch.setattr(work, "checkpoint", stop_at_the_fourth)
    with pytest.raises(StopException):
        cached(6)
    assert done == [0, 1, 2]  # stopped at the next checkpoint, before chunk 3
    monkeypatch.setattr(work, "checkpoint", budget.no_checkpoint)
    done.clear()
    assert cached(6) == 6 and done == list(range(6))  # computed again: nothing was kept
    done.clear()
    assert cached(6) == 6 and done == []  # a whole run is kept


def test_the_session_store_keeps_nothing_of_an_interrupted_computation():
    store = session_cache.SessionCache()

    def interrupted():
        raise StopException()

    with pytest.raises(StopException):
        store.get_or_compute("f", 1, interrupted, copy=True, max_entries=4, ttl=60)
    assert len(store) == 0


def _endless_first_run():
    import streamlit as st
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    from explorer.ui import work
    from tests.explorer.ui import test_work

    runs = st.session_state.get("runs", 0) + 1
    st.session_state["runs"] = runs
    if runs == 1:
        test_work.REQUESTS.append(get_script_run_ctx().script_requests)
        while True:  # a computation without end, in chunks
            work.checkpoint()
    st.markdown(f"run {runs}")


def test_a_rerun_stops_the_previous_runs_chunks():
    REQUESTS.clear()
    at = AppTest.from_function(_endless_first_run, default_timeout=120)
    runner = threading.Thread(target=at.run)
    runner.start()
    deadline = time.monotonic() + 120
    while not REQUESTS and time.monotonic() < deadline:  # wait for the loop to start
        time.sleep(0.01)
    start = work.CHECKPOINTS[0]
    while work.CHECKPOINTS[0] < start + 100 and time.monotonic() < deadline:
        time.sleep(0.01)
    REQUESTS[0].request_rerun(RerunData())  # what a moved widget or another page sends
    runner.join(120)
    assert not runner.is_alive()
    stopped = work.CHECKPOINTS[0]
    assert [m.value for m in at.markdown] == ["run 2"]  # the loop ended; the rerun drew
    assert work.CHECKPOINTS[0] == stopped  # and nothing goes on behind it


def test_a_spent_session_is_refused_and_told_when_to_come_back(monkeypatch):
    monkeypatch.setenv(budget.HOSTED_VARIABLE, "1")
    ledger = budget.Ledger(budget.HOSTED.session_per_minute)
    monkeypatch.setattr(work, "_ledger", lambda: ledger)
    with work.metered():
        pass  # under budget: runs, and its CPU time is charged
    ledger.charge(time.monotonic(), 31.0)
    with pytest.raises(work.Spent) as refused, work.metered():
        pytest.fail("a spent session started heavy work")
    assert 55 < refused.value.wait <= 60
    assert str(refused.value).startswith(
        "This session has used its computing time for this minute; try again in "
    )
