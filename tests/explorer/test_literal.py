"""A visitor's text is only text: explorer.formatting.literal over hostile payloads, and
the SVG charts' texts (explorer.charts.svg) on one line and escaped."""

from __future__ import annotations

import html
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.charts import svg
from explorer.formatting import latex_text, literal, one_line
from tests.conftest import rendered

#: What visitors have tried in names, ids, links and cells.
PAYLOADS = [
    "![x](http://attacker.example/pixel)",
    "[Click to log in again](http://attacker.example/phish)",
    "<http://attacker.example/auto>",
    "www.attacker.example/bare _www.x.org WWW.X.ORG",
    "mail me: victim@attacker.example, mailto:a@b.example",
    ":red[alarm] :blue-background[x] :material/warning:",
    r"$\href{http://attacker.example/x}{y}$",
    "$$\n\\href{http://x}{y}\n$$",
    "<script>window.__pwned = 1</script>",
    "</title><script>window.__pwned = 1</script>",
    "</text><foreignObject><img src=x onerror='window.__pwned=1'></foreignObject>",
    '<img src=x onerror="window.__pwned = 1">',
    "<a href='javascript:window.__pwned=1'>j</a>",
    "[j](javascript:window.__pwned=1)",
    "![d](data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=)",
    "a\n\n![i](http://attacker.example/after-blank-line)",
    "a\r\n\r\n<img src=x onerror=alert(1)>",
    "2**53",
    "__init__ _x_ *y* ~~z~~ `code` | a | b |",
    "# heading",
    "- item",
    "+ item",
    "1. item",
    "7) item",
    "> quote",
    "=====",
    "back\\slash \\[not a link\\](http://x)",
    "&lt;already an entity&gt; &amp;",
    "emoji :smile: {curly}",
]

#: What GitHub-flavoured Markdown makes a link of in text, after escapes are read
#: (mdast-util-gfm-autolink-literal): web addresses and e-mail addresses.
AUTOLINK = re.compile(r"(https?://|www(?=\.))[-.\w]+|[-.\w+]+@[-\w]+(\.[-\w]+)+", re.I)

#: Characters Streamlit's Markdown (or HTML) would read as syntax.
SYNTAX = set("\\`*_{}[]()!#~|$:<>&\"'")
_ENTITY = re.compile(r"&(lt|gt|amp|quot|#x27);")


def _unescaped(out: str) -> list[str]:
    """The characters of ``out`` that are neither backslash-escaped nor in one of
    literal's entities, and are Markdown or HTML syntax."""
    bare, i = [], 0
    while i < len(out):
        if out[i] == "\\" and i + 1 < len(out):
            i += 2
            continue
        entity = _ENTITY.match(out, i)
        if entity:
            i = entity.end()
            continue
        if out[i] in SYNTAX:
            bare.append(out[i])
        i += 1
    return bare


@pytest.mark.parametrize("payload", PAYLOADS)
def test_literal_leaves_no_markdown_or_html_syntax(payload):
    out = literal(payload)
    assert _unescaped(out) == [], out
    assert "\n" not in out and "\r" not in out  # no blank line can end a block
    assert not re.match(r"\s*([-+=>]|\d+[.)])", out)  # no list, quote or heading marker
    # no web or e-mail address is left for Markdown to make a link of
    assert not AUTOLINK.search(html.unescape(re.sub(r"\\(.)", r"\1", out)))
    # and it reads back as the visitor wrote it (line breaks as spaces)
    assert rendered(out) == one_line(payload)


def test_literal_writes_the_escaped_form():
    assert literal("![x](http://a.example/p)") == "\\!\\[x\\]\\(http\\:\u2060//a.example/p\\)"
    assert literal("2**53") == r"2\*\*53"
    assert literal("<img src=x>") == "&lt;img src=x&gt;"
    assert literal(":red[x]") == r"\:red\[x\]"
    assert literal("a\n\nb") == "a b"
    assert literal("- x") == r"\- x" and literal("12. x") == r"12\. x"
    assert literal(3) == "3"


@settings(max_examples=40, derandomize=True)
@given(st.text())
def test_literal_round_trips_any_text(text):
    out = literal(text)
    assert _unescaped(out) == []
    assert not AUTOLINK.search(html.unescape(re.sub(r"\\(.)", r"\1", out)))
    assert rendered(out) == one_line(text)
    assert not re.search(r"[\r\n\x0b\x0c\x1c-\x1e\x85\u2028\u2029]", out)


def test_latex_text_keeps_a_name_inside_text():
    assert latex_text(r"}\href{http://x}{y}\text{") == (
        r"\}\textbackslash{}href\{http://x\}\{y\}\textbackslash{}text\{"
    )
    assert latex_text("a\n\nb") == "a b"


def test_svg_chart_texts_are_escaped_and_on_one_line():
    names = [p for p in PAYLOADS if "<" in p or "\n" in p]
    chart = svg.BarChart(
        categories=names,
        series=[svg.Series(names[0], np.linspace(0.1, 1, len(names)), "#123456")],
        title=names[1],
        x_title=names[2],
        y_title=names[3],
        caption=names[-1],
        lines=[svg.Line(0.5, names[4])],
        bands=[svg.Band(0, 1, names[5])],
        column_hover=names,
        legend=[("#654321", names[6])],
    )
    out = svg.bar_chart(chart)
    assert "\n" not in out and "\r" not in out
    for tag in ("<script", "<img", "<foreignObject", "<a "):
        assert tag not in out, tag
    # every text is there, HTML-escaped: the browser shows it as the visitor wrote it
    texts = re.findall(r">([^<>]+)<", out)
    shown = {html.unescape(t) for t in texts}
    for name in names:
        assert one_line(name) in shown or any(one_line(name) in t for t in shown), name
