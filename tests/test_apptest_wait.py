"""The suite's changes to AppTest (tests/conftest.py): the wait for a script run on the
run's thread, and one cache of compiled page scripts."""

from __future__ import annotations

import threading

import pytest
from streamlit.testing.v1 import AppTest, local_script_runner

from tests.conftest import _wait_for_script


def test_apptest_waits_for_the_whole_run_through_the_suites_wait():
    assert local_script_runner.require_widgets_deltas is _wait_for_script
    at = AppTest.from_string(
        "import time\nimport streamlit as st\nst.write('start')\ntime.sleep(0.3)\nst.write('end')"
    ).run()
    assert [m.value for m in at.markdown] == ["start", "end"]


class _Runner:
    """What the wait uses of a LocalScriptRunner: its thread, request_stop and join."""

    def __init__(self, seconds: float):
        self.release = threading.Event()
        self._script_thread = threading.Thread(target=self.release.wait, args=(seconds,))
        self._script_thread.start()
        self.calls: list[str] = []

    def request_stop(self):
        self.calls.append("request_stop")
        self.release.set()

    def join(self):
        self.calls.append("join")
        self._script_thread.join()


def test_a_run_past_its_timeout_is_stopped_and_reported():
    runner = _Runner(seconds=60)
    with pytest.raises(RuntimeError, match=r"AppTest script run timed out after 0.05\(s\)"):
        _wait_for_script(runner, timeout=0.05)
    assert runner.calls == ["request_stop", "join"]
    assert not runner._script_thread.is_alive()


def test_a_run_that_ends_in_time_is_left_alone():
    runner = _Runner(seconds=0.05)
    _wait_for_script(runner, timeout=60)
    assert runner.calls == []
    assert not runner._script_thread.is_alive()


def test_apptests_share_compiled_scripts_and_compile_a_changed_file_again(tmp_path):
    script = tmp_path / "page.py"
    script.write_text("import streamlit as st\nst.write('first')\n")
    assert [m.value for m in AppTest.from_file(str(script)).run().markdown] == ["first"]
    shared = local_script_runner.SCRIPTS
    assert shared.get_bytecode(str(script)) is shared.get_bytecode(str(script))
    script.write_text("import streamlit as st\nst.write('second, longer')\n")
    assert [m.value for m in AppTest.from_file(str(script)).run().markdown] == ["second, longer"]
