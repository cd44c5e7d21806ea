"""explorer.ui.priority: heavy work waits at its checkpoints while another visitor's page
runs, only as long as that page runs, and never longer than it worked."""

from __future__ import annotations

import itertools
import threading
import time

import pytest
from streamlit.testing.v1 import AppTest

from explorer.ui import priority, work

#: Set by the script below when it reaches its checkpoint; what it saw after it.
REACHED = threading.Event()
SEEN: list[int] = []


@pytest.fixture
def other_page():
    """Another visitor's page, running until ``end`` is set."""
    started, end = threading.Event(), threading.Event()

    def page():
        with priority.interactive():
            started.set()
            end.wait(120)

    runner = threading.Thread(target=page)
    runner.start()
    assert started.wait(120)
    yield end
    end.set()
    runner.join(120)
    assert priority.pages_running() == 0


@pytest.fixture
def long_blocks(monkeypatch):
    """Heavy work's clock says 100 s pass between two checkpoints (so its waits are
    bounded by ``most`` alone)."""
    ticks = itertools.count(step=100.0)
    monkeypatch.setattr(priority, "_clock", lambda: next(ticks))


def _until(state, seconds: float = 120) -> bool:
    deadline = time.monotonic() + seconds
    while not state() and time.monotonic() < deadline:
        time.sleep(0.001)
    return state()


def test_no_page_running_no_wait():
    assert priority.pages_running() == 0
    with priority.heavy():
        assert priority.yield_to_pages() == 0.0


def test_heavy_work_waits_its_most_while_a_page_runs(other_page, long_blocks):
    with priority.heavy():
        assert priority.pages_running() == 1
        assert priority.yield_to_pages(most=0.05) >= 0.05


def test_heavy_work_waits_no_longer_than_it_worked(other_page):
    with priority.heavy():
        start = time.monotonic()
        while time.monotonic() - start < 0.02:  # a block of work of 20 ms
            pass
        waited = priority.yield_to_pages(most=120)
        assert 0.02 <= waited < 120 and priority.pages_running() == 1


def test_the_wait_ends_when_the_page_ends(other_page, long_blocks):
    seen = []

    def heavy():
        with priority.heavy():
            seen.append(priority.yield_to_pages(most=120))
            seen.append(priority.pages_running())

    waiter = threading.Thread(target=heavy)
    waiter.start()
    assert _until(lambda: priority.waiting() == 1)
    other_page.set()
    waiter.join(120)
    assert seen[0] < 50 and seen[1] == 0  # back as soon as the page ended, not at its 100 s
    assert priority.waiting() == 0


def test_a_page_never_waits_for_another_page(other_page, long_blocks):
    with priority.interactive():
        assert priority.pages_running() == 2
        assert priority.yield_to_pages(most=120) == 0.0


def test_heavy_work_leaves_the_count_and_comes_back():
    with priority.interactive():
        assert priority.pages_running() == 1
        with work.metered():
            assert priority.pages_running() == 0
            with work.unmetered():  # nested: still heavy
                assert priority.pages_running() == 0
        assert priority.pages_running() == 1
    assert priority.pages_running() == 0


def test_a_page_that_raises_leaves_the_count():
    with pytest.raises(RuntimeError), priority.interactive():
        with work.metered():
            raise RuntimeError("a stopped run")
    assert priority.pages_running() == 0


def _heavy_page():
    from explorer.ui import priority, work
    from tests.explorer.ui import test_priority

    with priority.interactive(), work.metered():
        test_priority.REACHED.set()
        work.checkpoint()
        test_priority.SEEN.append(priority.pages_running())


def test_a_checkpoint_of_heavy_work_gives_way_to_another_page(other_page, long_blocks, monkeypatch):
    monkeypatch.setattr(priority, "MOST_WAIT", 120.0)
    REACHED.clear()
    SEEN.clear()
    at = AppTest.from_function(_heavy_page, default_timeout=120)
    runner = threading.Thread(target=at.run)
    runner.start()
    assert REACHED.wait(120)
    assert _until(lambda: priority.waiting() == 1)  # the checkpoint waits for the page
    other_page.set()  # the other page ends: the checkpoint goes on
    runner.join(120)
    assert SEEN == [0] and not at.exception
