"""A chart or table a click acts on (``widgets.plotly_chart`` or ``widgets.dataframe`` with
``on_select=``) names the control that does the same by keyboard (``keyboard=``: a click
on a plotly point or a table's row has none of its own), and each control it names by its
quoted label is drawn by the same page's package (the browser's tab walk,
tests/e2e/test_classroom.py, reaches every control drawn)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _clickable_charts(source: str) -> list[tuple[int, str | None]]:
    """(line, the ``keyboard=`` text or None) of each clickable widgets.plotly_chart and
    widgets.dataframe (a click on a point or a row)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if not (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("plotly_chart", "dataframe")
        ):
            continue
        kw = {k.arg: k.value for k in node.keywords}
        if "on_select" in kw:
            value = kw.get("keyboard")
            if isinstance(value, ast.Call) and value.args:  # t("..."): translated
                value = value.args[0]
            found.append((node.lineno, value.value if isinstance(value, ast.Constant) else None))
    return found


def test_every_clickable_chart_names_its_keyboard_control_drawn_on_its_page():
    problems, seen = [], 0
    for path in sorted((ROOT / "views").rglob("*.py")):
        charts = _clickable_charts(path.read_text())
        package = "".join(p.read_text() for p in path.parent.glob("*.py"))
        for line, keyboard in charts:
            seen += 1
            where = f"{path.relative_to(ROOT)}:{line}"
            if not keyboard:
                problems.append(f"{where}: no keyboard=")
                continue
            for label in re.findall(r'"([^"]+)"', keyboard):
                if f'"{label}"' not in package:
                    problems.append(f"{where}: no control labelled {label!r} in its package")
    assert seen >= 7 and problems == []


def test_the_check_finds_a_chart_without_its_keyboard_way():
    page = (
        "widgets.plotly_chart(st, fig, key='a', on_select=f)\n"
        "widgets.plotly_chart(st, fig, on_select=f, keyboard='the \"T\" box')\n"
        "widgets.plotly_chart(st, fig)\n"
    )
    assert _clickable_charts(page) == [(1, None), (2, 'the "T" box')]
