"""ruff's lint and format checks report nothing on the repository (pyproject.toml's
settings): the house style holds at every commit, not only where someone ran them."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.conftest import ROOT


@pytest.mark.parametrize("check", [["check"], ["format", "--check"]], ids=["lint", "format"])
def test_ruff_finds_nothing(check):
    done = subprocess.run(
        [sys.executable, "-m", "ruff", *check, "--no-cache", "."],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
