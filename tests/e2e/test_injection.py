"""Real browser: a stranger's text is only text. A linked dataset whose name, label
names, sample ids and model names carry Markdown and HTML payloads (blank lines
included) is shown on every page of the registry in one browser page; an upload whose
refused cell is a remote image, and a link naming a sample ``?ds=<payload>``, are
refused with notices. Nothing may load from another host, no link or image the app did
not make may point away from it, no script may run, and the payloads read as text."""

from __future__ import annotations

import re
import urllib.parse

import numpy as np
from playwright.sync_api import Page, expect

from explorer import registry
from explorer.datasets import Dataset
from explorer.formatting import one_line
from explorer.links import encode_dataset
from tests.e2e.conftest import wait_for_run

EVIL = "http://attacker.example"
#: Each payload, if it were read as Markdown or HTML, would load from EVIL, link to it,
#: or set window.__pwned.
PAYLOADS = (
    f"![x]({EVIL}/pixel)",
    f"[Click to log in again]({EVIL}/phish)",
    f"a\n\n![i]({EVIL}/after-a-blank-line)\n\n<img src={EVIL}/raw>",
    '<img src=x onerror="window.__pwned = 1">',
    "</title><script>window.__pwned = 1</script>",
    "</text><foreignObject><img src=x onerror=window.__pwned=1></foreignObject>",
    r"$\href{http://attacker.example/tex}{y}$ :red[red] 2**53",
    "[j](javascript:window.__pwned=1) ![d](data:image/gif;base64,R0lGODlhAQABAAAAACw=)",
    f'<a href="{EVIL}/chart">plotly reads its own tags</a> <b>bold</b>',
)
#: The dataset's name: what every page's notice or caption quotes.
NAME = f"[Click]({EVIL}/name)\n\n<img src=x onerror=window.__pwned=1> 2**53"


def _hostile() -> Dataset:
    """Multilabel, 3 samples x 31 labels (past 30 the DCG and Retrieval drills draw
    SVG), two models: every text a payload."""
    rng = np.random.default_rng(0)
    n_labels = 31
    y = (rng.random((3, n_labels)) < 0.4).astype(float)
    y[:, 0] = 1.0  # every sample has a true label
    labels = tuple(f"{PAYLOADS[j % len(PAYLOADS)]} {j}" for j in range(n_labels))
    scores = {PAYLOADS[0]: rng.random((3, n_labels)), PAYLOADS[2]: rng.random((3, n_labels))}
    # the last id also carries plotly's own tags: the Label ranking and Compare charts
    # write the ids in a tick label and a hover
    ids = (PAYLOADS[3], PAYLOADS[1], f"{PAYLOADS[6]} {PAYLOADS[-1]}")
    return Dataset(NAME, "multilabel", y, scores, label_names=labels, sample_ids=ids)


#: Reads the page: links and images pointing off the app, and whether a script ran.
_AUDIT = """() => {
  const off = (u) => { try { return new URL(u, location.href).origin !== location.origin; }
                       catch (e) { return true; } };
  const bad = [];
  // an SVG link (plotly's <a href> in a tick or legend) holds its address in href.baseVal
  for (const a of document.querySelectorAll('a[href], a[*|href]')) {
    const h = a.href.baseVal ?? a.href;
    if (off(h) || h.startsWith('javascript:')) bad.push('a ' + h);
  }
  for (const i of document.querySelectorAll('img[src], image'))
    if (off(i.src || i.getAttribute('href') || '')) bad.push('img ' + (i.src || ''));
  return {bad, pwned: typeof window.__pwned !== 'undefined',
          scripts: document.querySelectorAll('.stMain script, .stSidebar script').length};
}"""


def _shown(text: str) -> re.Pattern:
    """``text`` as a page shows it: on one line, maybe with the invisible word joiners
    (U+2060) that explorer.formatting.literal puts into web and e-mail addresses."""
    return re.compile("\u2060?".join(map(re.escape, one_line(text))))


def _audit(page: Page, where: str) -> None:
    found = page.evaluate(_AUDIT)
    assert found["bad"] == [], f"{where}: {found['bad']}"
    assert not found["pwned"], f"{where}: a payload's script ran"


def test_hostile_names_stay_text_on_every_page(page: Page, app_url: str, tmp_path):
    origin = urllib.parse.urlsplit(app_url).netloc
    away: list[str] = []
    page.on(
        "request",
        lambda r: (
            urllib.parse.urlsplit(r.url).netloc not in (origin, "")
            and not r.url.startswith("data:")
            and away.append(r.url)
        ),
    )
    # a link naming a sample that does not exist: refused with a notice, quoted as text
    page.goto(f"{app_url}/?ds=" + urllib.parse.quote(PAYLOADS[0] + " " + PAYLOADS[3]))
    wait_for_run(page)
    expect(page.get_by_test_id("stAlertContentWarning").first).to_contain_text(_shown(PAYLOADS[0]))
    _audit(page, "?ds=")

    # an upload whose refused cell is a remote image: the notice quotes it as text
    bad = tmp_path / "refused.csv"
    bad.write_text(f"y_true,y_score\n1,0.5\n0,{PAYLOADS[0]}\n")
    page.goto(f"{app_url}/data")
    wait_for_run(page)
    page.locator('.st-key-data_upload_file input[type="file"]').set_input_files(str(bad))
    wait_for_run(page)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text(_shown(PAYLOADS[0]))
    _audit(page, "upload")

    # the hostile dataset in a link, then every page of the registry by the sidebar
    page.goto(f"{app_url}/?data={encode_dataset(_hostile())}")
    wait_for_run(page)
    heading = page.get_by_role("heading", name="Active dataset:")
    expect(heading).to_contain_text(_shown(NAME))  # the name as written, on one line
    for p in registry.PAGES:
        page.get_by_test_id("stSidebarNavLink").filter(has_text=p.title).first.click()
        wait_for_run(page)
        expect(page.get_by_test_id("stException")).to_have_count(0)
        _audit(page, p.slug)
        if p.slug in ("dcg", "retrieval", "multilabel"):  # their SVG charts name the labels
            chart = page.locator(".me-svg-chart", has_text=_shown(PAYLOADS[2]))
            expect(chart.first).to_be_visible()
        if p.slug in ("curves", "regression", "multiclass"):  # the wrong-kind notice
            notice = page.get_by_test_id("stAlertContentInfo").first
            expect(notice).to_contain_text(_shown(NAME))
    assert away == [], f"requests to other hosts: {away}"
