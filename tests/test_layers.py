"""The layers, enforced: import-linter's contracts of pyproject.toml hold.

views -> explorer -> metrics, never upwards; metrics imports neither streamlit nor
plotly; charts and page models never import streamlit; no import cycle among the
modules of any package.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_import_contracts_are_kept():
    exe = Path(sys.executable).with_name("lint-imports")
    cmd = [str(exe if exe.exists() else shutil.which("lint-imports"))]
    run = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 broken" in run.stdout


def _contract(name: str) -> dict:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    return next(c for c in config["tool"]["importlinter"]["contracts"] if c["name"] == name)


STREAMLIT_BOUNDARY = "Only explorer.ui touches streamlit"


def _lint_tree(tmp_path, streamlit_in: str) -> subprocess.CompletedProcess:
    """import-linter on an empty copy of the packages where ``streamlit_in`` (a module
    path such as ``metrics/__init__.py``) imports streamlit."""
    modules = ["metrics", "explorer", "explorer/ui", "views"]
    modules += [m.replace(".", "/") for m in _contract(STREAMLIT_BOUNDARY)["source_modules"]]
    for module in modules:
        (tmp_path / module).mkdir(parents=True, exist_ok=True)
        (tmp_path / module / "__init__.py").write_text("")
    (tmp_path / streamlit_in).write_text("import streamlit\n")
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text())
    exe = Path(sys.executable).with_name("lint-imports")
    return subprocess.run(
        [str(exe if exe.exists() else shutil.which("lint-imports"))],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=120,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"},
    )


def test_a_broken_contract_is_reported(tmp_path):
    """The check can fail: a metrics module importing streamlit breaks a contract."""
    run = _lint_tree(tmp_path, "metrics/__init__.py")
    assert run.returncode != 0
    assert "metrics is pure computation: no streamlit, no plotly BROKEN" in run.stdout


def test_streamlit_outside_explorer_ui_is_reported(tmp_path):
    run = _lint_tree(tmp_path, "explorer/pages/__init__.py")
    assert run.returncode != 0
    assert f"{STREAMLIT_BOUNDARY} BROKEN" in run.stdout


def test_the_streamlit_boundary_names_every_module_of_explorer_but_ui():
    """A new module of explorer is under the contract from its first commit."""
    named = set(_contract(STREAMLIT_BOUNDARY)["source_modules"])
    found = {
        f"explorer.{p.stem}"
        for p in (ROOT / "explorer").iterdir()
        if (p.suffix == ".py" or (p / "__init__.py").exists()) and not p.name.startswith("_")
    }
    assert named == found - {"explorer.ui"}


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
