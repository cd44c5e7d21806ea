"""House style that ruff does not check: every function short enough to read at once,
every module of the app short enough to hold one thing.

A function's body (its docstring aside) is at most 80 lines; about 60 is the aim.
Long declarative tables belong at module level or in one function per group.
"""

from __future__ import annotations

import ast
import textwrap

import pytest

from tests.conftest import ROOT

MAX_BODY_LINES = 80
#: Where the rule holds: the app, its layers and the bench.
CHECKED = ("metrics", "explorer", "views", "bench", "app.py", "dev.py")


def body_lines(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> int:
    """Lines from the first statement after the docstring to the end of the last one."""
    body = fn.body
    first = body[0]
    if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
        if isinstance(first.value.value, str):
            body = body[1:]
    if not body:
        return 0
    return body[-1].end_lineno - body[0].lineno + 1


def long_functions(source: str, limit: int = MAX_BODY_LINES) -> list[tuple[str, int, int]]:
    """(name, line, body lines) of every function in ``source`` whose body exceeds ``limit``."""
    return [
        (node.name, node.lineno, body_lines(node))
        for node in ast.walk(ast.parse(source))
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and body_lines(node) > limit
    ]


def test_the_count_skips_the_docstring_and_counts_every_line_of_the_body():
    source = textwrap.dedent(
        '''
        def short():
            """A docstring

            of four lines.
            """
            x = 1
            return x

        def long():
            """Doc."""
            total = 0
            for i in range(3):
                total += i
            return total

        def only_doc():
            """Nothing else."""
        '''
    )
    fns = {n.name: n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.FunctionDef)}
    assert {name: body_lines(fn) for name, fn in fns.items()} == {
        "short": 2,
        "long": 4,
        "only_doc": 0,
    }
    assert long_functions(source, limit=3) == [("long", 10, 4)]
    assert long_functions(source, limit=4) == []


@pytest.mark.parametrize("where", CHECKED)
def test_no_function_body_is_longer_than_80_lines(where):
    root = ROOT / where
    files = [root] if root.suffix == ".py" else sorted(root.rglob("*.py"))
    assert files, where
    found = [
        f"{path.relative_to(ROOT)}:{line} {name}: {n} lines"
        for path in files
        for name, line, n in long_functions(path.read_text(encoding="utf-8"))
    ]
    assert not found, f"split these into functions named for what they do: {found}"


#: The longest module of the app's layers, in lines: a longer one holds two things.
MAX_MODULE_LINES = 700


@pytest.mark.parametrize("where", ("explorer", "views"))
def test_no_module_of_the_app_is_longer_than_700_lines(where):
    files = sorted((ROOT / where).rglob("*.py"))
    assert files, where
    found = [
        f"{path.relative_to(ROOT)}: {n} lines"
        for path in files
        if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    ]
    assert not found, f"split these into modules named for what they hold: {found}"
