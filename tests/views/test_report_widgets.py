"""Every table, chart and number a page draws goes through the shared widgets that record
it for "Download this view" (explorer/ui/report.py): a page calling Streamlit's own
``dataframe``, ``plotly_chart`` or ``metric`` would draw something the report leaves out."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: Streamlit calls whose output the report must hold; the shared widgets wrap them.
RECORDED = {"dataframe", "plotly_chart", "metric"}


def _direct_calls(source: str, name: str) -> list[str]:
    return [
        f"{name}:{node.lineno} .{node.func.attr}()"
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in RECORDED
        and not (isinstance(node.func.value, ast.Name) and node.func.value.id == "widgets")
    ]


def test_pages_draw_tables_charts_and_numbers_through_the_recording_widgets():
    found = [
        call
        for path in sorted((ROOT / "views").rglob("*.py"))
        for call in _direct_calls(path.read_text(), str(path.relative_to(ROOT)))
    ]
    assert found == []


def test_the_check_finds_a_direct_call():
    page = "import streamlit as st\nst.dataframe([1])\ncol.metric('a', 1)\nwidgets.metric(st)\n"
    assert _direct_calls(page, "p.py") == ["p.py:2 .dataframe()", "p.py:3 .metric()"]
