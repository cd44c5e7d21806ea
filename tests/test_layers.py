"""The layers, enforced: import-linter's contracts of pyproject.toml hold.

views -> explorer -> metrics, never upwards; metrics imports neither streamlit nor
plotly; charts and page models never import streamlit; no import cycle among the
modules of any package.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept():
    exe = Path(sys.executable).with_name("lint-imports")
    cmd = [str(exe if exe.exists() else shutil.which("lint-imports"))]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def test_a_broken_contract_is_reported(tmp_path):
    """The check can fail: a metrics module importing streamlit breaks a contract."""
    (tmp_path / "metrics").mkdir()
    (tmp_path / "metrics" / "__init__.py").write_text("import streamlit\n")
    for pkg in ("explorer", "explorer/charts", "explorer/pages", "views"):
        (tmp_path / pkg).mkdir()
        (tmp_path / pkg / "__init__.py").write_text("")
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    exe = Path(sys.executable).with_name("lint-imports")
    run = subprocess.run(
        [str(exe if exe.exists() else shutil.which("lint-imports"))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )
    assert run.returncode != 0
    assert "metrics is pure computation: no streamlit, no plotly BROKEN" in run.stdout


def _layout_block() -> list[str]:
    text = (ROOT / "README.md").read_text()
    block = text.split("## Layout", 1)[1].split("```", 2)[1]
    return [line.split()[0] for line in block.splitlines() if line and not line.startswith(" ")]


def test_readme_layout_names_every_folder_and_only_existing_ones():
    named = _layout_block()
    for entry in named:
        assert (ROOT / entry).exists(), f"README's layout names {entry}, which does not exist"
    folders = {
        p.name + "/"
        for p in ROOT.iterdir()
        if p.is_dir() and not p.name.startswith((".", "_")) and p.name != "node_modules"
    }
    assert folders <= set(named), f"folders missing from README's layout: {folders - set(named)}"
    packages = {f"explorer/{p.name}/" for p in (ROOT / "explorer").iterdir() if p.is_dir()}
    packages.discard("explorer/__pycache__/")
    assert packages <= set(named), f"missing: {packages - set(named)}"
