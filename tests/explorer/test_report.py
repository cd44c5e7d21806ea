"""explorer.report: one view as a self-contained HTML document."""

from __future__ import annotations

import base64
import gzip
import json
import re

import pandas as pd
import plotly.graph_objects as go
from plotly.offline import get_plotlyjs

from explorer import report

HOSTILE = '<script>alert("x")</script><img src=x onerror=alert(1)>'


def _report(**parts) -> report.Report:
    return report.Report(
        HOSTILE,
        dataset={"Name": HOSTILE, "Samples": "200"},
        settings={"ds": HOSTILE, "t": "0.5"},
        link="http://localhost:8501/curves?t=0.5&x=<b>",
        versions={"numpy": "2.4.6"},
        **parts,
    )


def test_every_visitor_text_is_escaped():
    frame = pd.DataFrame({HOSTILE: [HOSTILE, None]})
    out = report.to_html(
        _report(
            headlines=[report.Headline(HOSTILE, "0.9604", HOSTILE)],
            derivations=[report.Derived(HOSTILE, (r"\frac{a}{b} = 0.5 <",), "", HOSTILE)],
            tables=[report.Table(HOSTILE, frame)],
        )
    )
    assert "<script>alert" not in out and "<img" not in out
    # the title, dataset name, setting, headline label and note, derivation name and
    # note, table title, column and cell (HTML and CSV): each escaped
    assert out.count("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;") == 12
    assert "&amp;x=&lt;b&gt;" in out  # the link, in its href and its text
    assert r"<code>\frac{a}{b} = 0.5 &lt;</code>" in out
    assert "<td>—</td>" in out  # a missing cell as the app shows it


def test_sections_in_order_and_nothing_fetched():
    fig = go.Figure(go.Scatter(x=[0, 1], y=[0, 1]), layout={"title": {"text": "ROC"}})
    out = report.to_html(
        _report(
            headlines=[report.Headline("ROC AUC", "0.9604")],
            charts=[report.Chart("ROC", "plotly", fig), report.Chart("S", "svg", "<svg></svg>")],
            tables=[report.Table("t", pd.DataFrame({"a": [1]}))],
        )
    )
    ids = re.findall(r'<section id="(\w+)"', out)
    assert ids == ["summary", "headline", "charts", "tables", "settings"]
    # no address the browser would fetch: no src, no stylesheet link, one href (the live link)
    assert " src=" not in out.replace("src=x", "") and "<link" not in out
    assert re.findall(r'href="([^"]*)"', out) == [
        "http://localhost:8501/curves?t=0.5&amp;x=&lt;b&gt;"
    ]
    assert "@media print" in out and "size: A4" in out
    assert '<div class="svg-chart"><svg></svg></div>' in out


def test_plotly_inlined_once_and_unpacks_to_the_installed_library():
    figs = [go.Figure(go.Bar(x=[1], y=[2])), lambda: go.Figure(go.Bar(x=[3], y=[4]))]
    out = report.to_html(
        _report(charts=[report.Chart(f"c{i}", "plotly", f) for i, f in enumerate(figs)])
    )
    blocks = re.findall(
        r'<script type="application/octet-stream" id="plotly-lib" '
        r'data-encoding="(\w+)">(.*?)</script>',
        out,
        re.S,
    )
    assert len(blocks) == 1
    encoding, text = blocks[0]
    packed = base64.b85decode(text) if encoding == "b85" else base64.b64decode(text)
    assert gzip.decompress(packed).decode() == get_plotlyjs()
    assert out.count('<div class="plotly-figure"') == 2
    assert report.to_html(_report()).count("plotly-lib") == 0  # no plotly chart, no library


def test_a_figure_cannot_end_its_script_block():
    fig = go.Figure(layout={"title": {"text": "</script><!-- x"}})
    out = report.to_html(_report(charts=[report.Chart("c", "plotly", fig)]))
    block = re.search(r'<script type="application/json">(.*?)</script>', out, re.S).group(1)
    assert "<" not in block
    assert json.loads(block)["layout"]["title"]["text"] == "</script><!-- x"


def test_a_table_is_windowed_and_its_csv_bounded():
    frame = pd.DataFrame({"id": range(100_000), "value": [0.123456789] * 100_000})
    out = report.table_html(report.Table("big", frame))
    assert out.count("<tr>") == report.SHOWN_ROWS + 1  # header + the window
    assert f"{report.SHOWN_ROWS:,} of 100,000 rows shown; the CSV below is cut" in out
    csv = re.search(r"<pre>(.*)</pre>", out, re.S).group(1)
    assert len(csv) <= report.CSV_CHARS and csv.endswith("\n")
    assert csv.splitlines()[1] == "0,0.123456789"
    small = report.table_html(report.Table("s", frame.head(3)))
    assert (
        "3 of 3 rows shown</p>" in small
        and "0,0.123456789\n1,0.123456789\n2,0.123456789\n" in small
    )


def test_size_of_a_view_with_plotly_stays_under_two_megabytes():
    fig = go.Figure(go.Scatter(x=list(range(2000)), y=[i / 2000 for i in range(2000)]))
    out = report.to_html(
        _report(
            charts=[report.Chart("c", "plotly", fig)],
            tables=[report.Table("t", pd.DataFrame({"a": range(5000)}))],
        )
    )
    lib = len(report.packed_plotly()[1])
    assert lib < 1.9e6  # gzip + base85 of the ~4.8 MB plotly.min.js
    assert len(out.encode()) < 2_000_000


def test_versions_name_the_app_and_its_libraries():
    v = report.versions()
    assert set(v) == set(report.VERSIONED)
    import numpy

    assert v["numpy"] == numpy.__version__


def test_a_view_in_chinese_has_its_headings_in_chinese_and_the_same_numbers():
    frame = pd.DataFrame({"k": range(60)})
    parts = dict(
        headlines=[report.Headline("LRAP", "0.7778")],
        derivations=[report.Derived("LRAP", (r"\frac{1}{3} = 0.3333",))],
        tables=[report.Table("steps", frame)],
    )
    english, chinese = (report.to_html(_report(**parts, lang=lang)) for lang in ("en", "zh"))
    assert '<html lang="zh">' in chinese and '<html lang="en">' in english
    for heading, translated in [
        ("Headline numbers", "主要指标"),
        ("How the numbers are computed", "这些数字是如何计算的"),
        ("Tables", "表格"),
        ("Settings", "设置"),
    ]:
        assert f"<h2>{heading}</h2>" in english and f"<h2>{translated}</h2>" in chinese
    assert "50 of 60 rows shown" in english and "显示 60 行中的 50 行" in chinese
    assert "在线版本：<a href=" in chinese  # the link stays a link inside the sentence
    assert "0.7778" in chinese and r"\frac{1}{3} = 0.3333" in chinese
