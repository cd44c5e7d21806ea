"""House rule: no module of metrics/ imports another module's private name.

A helper two modules share lives in a private module (``metrics/_*.py``)
under a public name, so a module's ``_name`` can be changed knowing that
nothing outside the module uses it. Importing a private *module*
(``from metrics import _validation``) is fine.
"""

import ast
from pathlib import Path

METRICS = Path(__file__).resolve().parents[2] / "metrics"


def _module_of(path: Path) -> str:
    parts = path.relative_to(METRICS.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _target(node: ast.ImportFrom, path: Path) -> str:
    if not node.level:
        return node.module or ""
    package = _module_of(path).split(".")
    if path.name != "__init__.py":
        package = package[:-1]
    base = package[: len(package) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def _is_module(dotted: str) -> bool:
    where = METRICS.parent.joinpath(*dotted.split("."))
    return where.with_suffix(".py").exists() or (where / "__init__.py").exists()


def private_imports() -> list[str]:
    found = []
    for path in sorted(METRICS.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if not isinstance(node, ast.ImportFrom):
                continue
            target = _target(node, path)
            if not target.startswith("metrics") or target == _module_of(path):
                continue
            for alias in node.names:
                name = alias.name
                private = name.startswith("_") and not name.startswith("__")
                if private and not _is_module(f"{target}.{name}"):
                    where = path.relative_to(METRICS.parent)
                    found.append(f"{where}:{node.lineno}: {target}.{name}")
    return found


def test_no_module_imports_another_modules_private_name():
    assert private_imports() == []


def test_the_check_sees_a_private_import(tmp_path, monkeypatch):
    package = tmp_path / "metrics"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_shared.py").write_text("def helper(): ...\n")
    (package / "a.py").write_text("def _helper(): ...\n")
    (package / "b.py").write_text(
        "from metrics import _shared\nfrom metrics._shared import helper\nfrom .a import _helper\n"
    )
    monkeypatch.setitem(globals(), "METRICS", package)
    assert private_imports() == ["metrics/b.py:3: metrics.a._helper"]
