"""docs/input-formats.md: every example file is read as the page says, and opens there.

Each ``<!-- file: NAME -->`` block is written as NAME, each ``<!-- run -->`` block runs
(it writes a binary file), and each ``<!-- opens: KIND on PAGE -->`` command is planned
as ``metric-explorer`` plans it (the same readers; no server).
"""

from __future__ import annotations

import re
import shlex

import pytest

from explorer import bigdata, launch, opened
from tests.conftest import ROOT

DOC = (ROOT / "docs" / "input-formats.md").read_text()
BLOCK = re.compile(r"<!-- (file: (?P<name>\S+)|run|opens: (?P<kind>\w+) on (?P<page>\w+)) -->\n"
                   r"```\w*\n(?P<body>.*?)```", re.S)  # fmt: skip
SECTIONS = [s for s in re.split(r"^## ", DOC, flags=re.M)[1:] if "<!-- opens:" in s]


def test_every_format_has_a_section_with_an_example():
    titles = [s.splitlines()[0] for s in SECTIONS]
    for word in ("CSV", "TSV", "Parquet", ".npy", "Long tables", "TREC", "Multiclass"):
        assert any(word in t for t in titles), word


@pytest.mark.parametrize("section", SECTIONS, ids=[s.splitlines()[0] for s in SECTIONS])
def test_the_example_opens_on_its_page(section, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    opens = []
    for m in BLOCK.finditer(section):
        if m["name"]:
            (tmp_path / m["name"]).write_text(m["body"])
            assert len(m["body"].splitlines()) <= 5  # five lines at most
        elif m["kind"]:
            opens.append((m["kind"], m["page"], m["body"].strip()))
        else:
            exec(compile(m["body"], "input-formats.md", "exec"), {})
    assert opens
    for kind, page, command in opens:
        argv = shlex.split(command)
        assert argv[0] == "metric-explorer"
        chosen = launch.plan(launch.parse_args(argv[1:]))
        assert chosen.page == page
        if chosen.big:
            assert bigdata.parse_config(chosen.big)[0][0].kind == kind
            continue
        ds = opened.read(chosen.entries[0])
        assert ds.kind == kind and ds.n_samples >= 2
