"""explorer.ui.runlog: with METRIC_EXPLORER_RUN_LOG set, a line per page run (its page,
a session tag, its times), nothing a visitor named; without it, no file; a file that
cannot be written never reaches the page."""

from __future__ import annotations

import json

from streamlit.testing.v1 import AppTest

from explorer.registry import script
from explorer.ui.runlog import RUN_LOG_VARIABLE
from tests.conftest import APP


def _lines(path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_each_page_run_writes_its_line(tmp_path, monkeypatch):
    log = tmp_path / "runs.jsonl"
    monkeypatch.setenv(RUN_LOG_VARIABLE, str(log))
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(script("curves")).run()
    assert not at.exception
    first, second = _lines(log)
    assert [first["page"], second["page"]] == ["home", "curves"]
    assert set(first) == {"end", "page", "session", "wall", "cpu", "waited", "stopped"}
    assert first["session"] == second["session"] and len(first["session"]) == 8
    assert 0 < first["wall"] and 0 <= first["cpu"] and first["waited"] == 0
    assert not first["stopped"] and first["end"] <= second["end"]


def test_no_variable_no_file(tmp_path, monkeypatch):
    monkeypatch.delenv(RUN_LOG_VARIABLE, raising=False)
    monkeypatch.chdir(tmp_path)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception and list(tmp_path.iterdir()) == []


def test_a_log_that_cannot_be_written_never_reaches_the_page(tmp_path, monkeypatch):
    monkeypatch.setenv(RUN_LOG_VARIABLE, str(tmp_path / "no such folder" / "runs.jsonl"))
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not at.exception and not at.error and at.title
