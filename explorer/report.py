"""One view of the app as a self-contained HTML document ("Download this view").

The parts are what the page drew (recorded by :mod:`explorer.ui.report`): its headline
numbers, derivations, tables and charts, with the dataset's summary, the settings (the
page's URL parameters), the versions and the link that opens the view live. The document
makes no network request: plotly.js is inlined once (gzip, then base85, unpacked in the
browser by ``DecompressionStream``) when the view has a plotly chart, the SVG charts are
inline as drawn, formulas are shown as their LaTeX text. Every text that may be a
visitor's (names, labels, cells, settings) is escaped here with :func:`html.escape`.
"""

from __future__ import annotations

import base64
import gzip
import html
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import metadata
from pathlib import Path

import pandas as pd

from explorer.i18n import Phrase, translate

#: Rows of a table drawn as HTML; the whole table is in the CSV block under it.
SHOWN_ROWS = 50
#: A table's CSV beyond this many characters is cut (the report stays small); the
#: caption says so and the Data page downloads the whole dataset.
CSV_CHARS = 200_000
VERSIONED = ("metric-explorer", "streamlit", "plotly", "numpy", "pandas")


@dataclass(frozen=True)
class Headline:
    """One headline number as shown (``?`` while "Predict, then reveal" hides it)."""

    label: str
    value: str
    note: str = ""


@dataclass(frozen=True)
class Derived:
    """One derivation: its name, formula and lines (LaTeX text) and its note."""

    name: str
    lines: tuple[str, ...]
    formula: str = ""
    note: str = ""


@dataclass(frozen=True)
class Table:
    """A table as drawn: ``frame`` (a DataFrame), ``title`` (its widget key or name)."""

    title: str
    frame: pd.DataFrame


@dataclass(frozen=True)
class Chart:
    """A chart: ``kind`` "plotly" (``content`` the figure, its JSON or a function making
    it) or "svg" (its HTML). A figure is made and written as JSON only when the document
    is built (on the click), not on every run of the page."""

    title: str
    kind: str
    content: str


@dataclass
class Report:
    """Everything one view's document holds."""

    title: str
    dataset: dict = field(default_factory=dict)
    settings: dict = field(default_factory=dict)
    link: str = ""
    headlines: list = field(default_factory=list)
    derivations: list = field(default_factory=list)
    tables: list = field(default_factory=list)
    charts: list = field(default_factory=list)
    versions: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    #: The language of the view (its headings; the parts come translated as drawn).
    lang: str = "en"


def versions() -> dict:
    """The installed versions of the app and the libraries its numbers depend on."""
    out = {}
    for name in VERSIONED:
        if name == "metric-explorer" and not _installed(name):
            out[name] = _source_version()
            continue
        try:
            out[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            out[name] = "not installed"
    return out


def _installed(name: str) -> bool:
    try:
        metadata.version(name)
    except metadata.PackageNotFoundError:
        return False
    return True


def _source_version() -> str:
    # run from a checkout (python3 dev.py run), not installed: pyproject.toml says it
    try:
        with open(Path(__file__).resolve().parents[1] / "pyproject.toml", "rb") as f:
            return tomllib.load(f)["project"]["version"] + " (source)"
    except (OSError, KeyError, tomllib.TOMLDecodeError):
        return "unknown"


def _e(text) -> str:
    return html.escape(str(text), quote=True)


def _rows(pairs) -> str:
    return "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in pairs)


def _summary(r: Report) -> str:
    live = translate("Live: ${link} (needs the app running)", r.lang)
    link = f'<a href="{_e(r.link)}">{_e(r.link)}</a>'
    link = "<p>" + _e(live).replace("${link}", link) + "</p>" if r.link else ""
    notes = "".join(f'<p class="note">{_e(n)}</p>' for n in r.notes)
    return (
        f'<section id="summary"><h1>{_e(r.title)}</h1>{notes}'
        f"<h2>{_e(translate('Dataset', r.lang))}</h2>"
        f'<table class="kv">{_rows(r.dataset.items())}</table>{link}</section>'
    )


def _headlines(r: Report) -> str:
    if not r.headlines:
        return ""
    cards = "".join(
        f'<div class="metric"><div class="label">{_e(h.label)}</div>'
        f'<div class="value">{_e(h.value)}</div>'
        + (f'<div class="note">{_e(h.note)}</div>' if h.note else "")
        + "</div>"
        for h in r.headlines
    )
    return (
        f'<section id="headline"><h2>{_e(translate("Headline numbers", r.lang))}</h2>'
        f'<div class="metrics">{cards}</div></section>'
    )


def _derivations(r: Report) -> str:
    if not r.derivations:
        return ""
    items = []
    for d in r.derivations:
        lines = ([d.formula] if d.formula else []) + list(d.lines)
        code = "".join(f"<pre><code>{_e(line)}</code></pre>" for line in lines)
        note = f'<p class="note">{_e(d.name)}: {_e(d.note)}.</p>' if d.note else ""
        items.append(f'<div class="derivation"><h3>{_e(d.name)}</h3>{code}{note}</div>')
    return (
        f'<section id="derivations"><h2>{_e(translate("How the numbers are computed", r.lang))}'
        f"</h2>{''.join(items)}</section>"
    )


def table_html(t: Table, lang: str = "en") -> str:
    """A table's first :data:`SHOWN_ROWS` rows as HTML and its CSV in a closed block.

        >>> import pandas as pd

    from explorer.i18n import Phrase, translate
        >>> out = table_html(Table("t", pd.DataFrame({"<b>": ["&x"] * 60})))
        >>> "<b>" in out, "&lt;b&gt;" in out, out.count("<tr>")
        (False, True, 51)
    """
    frame = t.frame
    head = "".join(f"<th>{_e(c)}</th>" for c in frame.columns)
    body = "".join(
        "<tr>" + "".join(f"<td>{_e('—' if pd.isna(v) else v)}</td>" for v in row) + "</tr>"
        for row in frame.head(SHOWN_ROWS).itertuples(index=False, name=None)
    )
    csv = frame.to_csv(index=False)
    cut = len(csv) > CSV_CHARS
    csv = csv[:CSV_CHARS].rsplit("\n", 1)[0] + "\n" if cut else csv
    shown = Phrase(
        "${shown:,} of ${n:,} rows shown", shown=min(len(frame), SHOWN_ROWS), n=len(frame)
    )
    caption = _e(translate(shown, lang))
    if cut:
        caption += _e(translate("; the CSV below is cut to its first rows", lang))
    return (
        f'<div class="table"><h3>{_e(t.title)}</h3><p class="note">{caption}</p>'
        f"<table><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>"
        f"<details><summary>{_e(translate('The table as CSV', lang))}</summary>"
        f"<pre>{_e(csv)}</pre></details></div>"
    )


def _tables(r: Report) -> str:
    if not r.tables:
        return ""
    return (
        f'<section id="tables"><h2>{_e(translate("Tables", r.lang))}</h2>'
        f"{''.join(table_html(t, r.lang) for t in r.tables)}</section>"
    )


def _script_json(text: str) -> str:
    # "<" as its JSON escape: no "</script>" or "<!--" can end or confuse the block
    return text.replace("<", "\\u003c")


def _charts(r: Report) -> str:
    if not r.charts:
        return ""
    parts = []
    for c in r.charts:
        if c.kind == "plotly":
            text, alt = _figure(c.content)
            label = f' role="figure" aria-label="{_e(alt)}"' if alt else ""
            body = (
                f'<div class="plotly-figure"{label}><div class="plot"></div>'
                f'<script type="application/json">{_script_json(text)}</script>'
                "</div>"
            )
        else:  # our SVG charts: drawn by explorer.charts.svg, their texts escaped there
            body = f'<div class="svg-chart">{c.content}</div>'
        parts.append(f'<div class="chart"><h3>{_e(c.title)}</h3>{body}</div>')
    heading = _e(translate("Charts", r.lang))
    return f'<section id="charts"><h2>{heading}</h2>{"".join(parts)}</section>'


def _settings(r: Report) -> str:
    defaults = _e(translate("(the page's defaults)", r.lang))
    rows = _rows(r.settings.items()) or f"<tr><td>{defaults}</td></tr>"
    vers = _rows(r.versions.items())
    settings, versions = (_e(translate(h, r.lang)) for h in ("Settings", "Versions"))
    return (
        f'<section id="settings"><h2>{settings}</h2><table class="kv">{rows}</table>'
        f'<h2>{versions}</h2><table class="kv">{vers}</table></section>'
    )


@lru_cache(maxsize=1)
def packed_plotly() -> tuple[str, str]:
    """plotly.min.js of the installed plotly, gzipped, as text for a script block:
    ``(encoding, text)``, base85 (a quarter smaller than base64), or base64 in the
    unlikely case the base85 text holds ``<!--`` (it would confuse the HTML parser)."""
    from plotly.offline import get_plotlyjs  # plotly only when a view has a plotly chart

    packed = gzip.compress(get_plotlyjs().encode(), compresslevel=9, mtime=0)
    text = base64.b85encode(packed).decode()
    if "<!--" in text:
        return "b64", base64.b64encode(packed).decode()
    return "b85", text


#: Unpacks plotly.js (base85 or base64, gunzipped by the browser: no network), then
#: draws each figure from its JSON.
_LOADER = """
<script>
(async () => {
  const A = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz!#$%&()*+-;<=>?@^_`{|}~";
  const code = new Uint8Array(128);  // a digit's value by its character code
  for (let i = 0; i < 85; i++) code[A.charCodeAt(i)] = i;
  const b85 = (s) => {
    const pad = (5 - (s.length % 5)) % 5, t = s + "~".repeat(pad);
    const out = new Uint8Array((t.length / 5) * 4);
    for (let i = 0, o = 0; i < t.length; i += 5, o += 4) {
      let v = 0;
      for (let j = 0; j < 5; j++) v = v * 85 + code[t.charCodeAt(i + j)];
      for (let j = 3; j >= 0; j--, v = Math.floor(v / 256)) out[o + j] = v % 256;
    }
    return out.subarray(0, out.length - pad);
  };
  const b64 = (s) => Uint8Array.from(atob(s), (c) => c.charCodeAt(0));
  const lib = document.getElementById("plotly-lib");
  const text = lib.textContent.trim();
  const bytes = lib.dataset.encoding === "b85" ? b85(text) : b64(text);
  const gz = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("gzip"));
  const js = await new Response(gz).text();
  const tag = document.createElement("script");
  tag.textContent = js;
  document.head.appendChild(tag);
  for (const box of document.querySelectorAll(".plotly-figure")) {
    const fig = JSON.parse(box.querySelector("script").textContent);
    const config = {displaylogo: false, responsive: true};
    await Plotly.newPlot(box.querySelector(".plot"), fig.data, fig.layout, config);
  }
  document.body.dataset.charts = "drawn";
})();
</script>
"""


def _plotly(r: Report) -> str:
    if not any(c.kind == "plotly" for c in r.charts):
        return ""
    encoding, text = packed_plotly()
    return (
        f'<script type="application/octet-stream" id="plotly-lib" data-encoding="{encoding}">'
        f"{text}</script>{_LOADER}"
    )


STYLE = """
<style>
body { font-family: system-ui, "Noto Sans CJK SC", "Source Han Sans SC", "PingFang SC",
  "Microsoft YaHei", sans-serif; margin: 2rem auto; max-width: 60rem; color: #1a1a1a; }
table { border-collapse: collapse; margin: .5rem 0; font-size: .9rem; }
th, td { border: 1px solid #ccc; padding: .2rem .5rem; text-align: left; }
.metrics { display: flex; flex-wrap: wrap; gap: 1rem; }
.metric { border: 1px solid #ddd; border-radius: .4rem; padding: .5rem 1rem; min-width: 9rem; }
.metric .value { font-size: 1.8rem; }
.note, .metric .label { color: #555; font-size: .9rem; }
a, pre { overflow-wrap: anywhere; }
pre { white-space: pre-wrap; background: #f6f6f6; padding: .4rem; }
.plot { width: 100%; min-height: 420px; }
svg { max-width: 100%; height: auto; }
@media print {
  @page { size: A4; margin: 15mm; }
  body { margin: 0; max-width: none; font-size: 10pt; }
  section + section { break-before: page; }
  .metric, .chart, .derivation, tr { break-inside: avoid; }
  details > pre { display: none; }
  a { color: inherit; }
}
</style>
"""


def to_html(r: Report) -> str:
    """The whole document, one string.

    >>> out = to_html(Report("ROC", {"name": "<script>x"}, headlines=[Headline("AUC", "0.75")]))
    >>> "<script>x" in out, "&lt;script&gt;x" in out, "0.75" in out, "plotly-lib" in out
    (False, True, True, False)
    """
    body = _summary(r) + _headlines(r) + _derivations(r) + _charts(r) + _tables(r) + _settings(r)
    return (
        f'<!DOCTYPE html><html lang="{_e(r.lang)}"><head><meta charset="utf-8">'
        f"<title>{_e(r.title)}</title>{STYLE}</head><body>{body}{_plotly(r)}</body></html>"
    )


def _figure(content) -> tuple[str, str]:
    """A chart's figure as JSON and its text alternative ("" for JSON given as text)."""
    if isinstance(content, str):
        return content, ""
    from explorer.charts import alt_text  # plotly only when a view has a plotly chart

    fig = content() if callable(content) else content
    return fig.to_json(), alt_text.describe(fig)
