"""How explorer/ imports itself: no cycle, and DataError without the readers."""

from __future__ import annotations

import ast
import subprocess
import sys

import pytest

import explorer.io
from tests.conftest import ROOT

EXPLORER = ROOT / "explorer"


def _module_name(path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Module -> the explorer modules it imports anywhere in its file.

    Imports inside functions and ``if TYPE_CHECKING:`` blocks count too (as
    import-linter counts them). ``from explorer.io import errors`` is an import of
    ``explorer.io.errors``; importing a submodule is not counted as importing
    its package.
    """
    files = {_module_name(p): p for p in EXPLORER.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        is_package = path.name == "__init__.py"
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                targets.update(a.name for a in node.names)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    package = module.split(".")[: len(module.split(".")) - node.level + is_package]
                    base = ".".join([*package, *([base] if base else [])])
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.add(sub if sub in files else base)
        graph[module] = {t for t in targets if t in files and t != module}
    return graph


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle of ``graph`` as a list of modules, or None."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(m: str) -> list[str] | None:
        state[m] = 1
        path.append(m)
        for t in sorted(graph[m]):
            if state.get(t) == 1:
                return [*path[path.index(t) :], t]
            if t not in state and (found := visit(t)):
                return found
        path.pop()
        state[m] = 2
        return None

    for m in sorted(graph):
        if m not in state and (found := visit(m)):
            return found
    return None


def test_the_graph_sees_the_packages_modules():
    graph = _import_graph()
    assert "explorer.io.errors" in graph["explorer.io.validation"]
    assert "explorer.io" in graph["explorer.samples"]
    assert "explorer.io" in graph["explorer.ui.session"]
    assert {"explorer.io.errors", "explorer.io.limits"} <= graph["explorer.links"]
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]


def test_no_import_cycle_in_explorer():
    assert _cycle(_import_graph()) is None


def test_datasets_imports_nothing_of_the_explorer_but_its_phrases():
    graph = _import_graph()
    assert graph["explorer.datasets"] == {"explorer.i18n"}  # a summary's words as phrases
    assert graph["explorer.i18n"] == {"explorer.formatting"}
    assert graph["explorer.formatting"] == set()


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(out.split())


@pytest.mark.parametrize(
    "code", ["import explorer.io.errors", "from explorer.io import DataError", "import explorer.io"]
)
def test_data_error_comes_without_the_readers(code):
    loaded = _modules_after(code)
    assert "explorer.io.errors" in loaded or code == "import explorer.io"
    readers = {m for m in loaded if m.startswith("explorer.io.") and m != "explorer.io.errors"}
    assert readers == set()
    assert not {"pandas", "pyarrow", "numpy", "explorer.datasets"} & loaded


def test_datasets_comes_without_the_readers():
    loaded = _modules_after("import explorer.datasets")
    assert not {m for m in loaded if m.startswith("explorer.io")}


def test_every_public_name_is_served_by_the_package():
    for name in explorer.io.__all__:
        value = getattr(explorer.io, name)
        assert value is getattr(sys.modules[f"explorer.io.{explorer.io._HOME[name]}"], name)
    assert set(explorer.io.__all__) <= set(dir(explorer.io))
    with pytest.raises(AttributeError, match="no attribute 'read_excel'"):
        explorer.io.read_excel  # noqa: B018
