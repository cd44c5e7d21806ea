""" "Download this view" of every page, opened offline in Chromium: each page's file,
opened from file:// with every network request refused, shows the headline numbers the
live page shows and draws every chart it holds.

The files are built in Python, by the callable the sidebar's download button holds (the
same function makes the bytes the button gives on a click), from an AppTest run of each
page on its bundled sample. The live page's numbers are read from that same AppTest run:
AppTest runs the app's scripts as the server does for the same URL, so the ``st.metric``
values it sees are what a browser on that address shows (``test_report.py`` checks a
real download of the ROC page against its live numbers in the browser). So no Streamlit
page is loaded here: one browser page opens the twelve files one after another.
"""

from __future__ import annotations

import re
from collections import defaultdict

from playwright.sync_api import Page, expect

from explorer.registry import PAGES
from tests.conftest import open_page
from tests.e2e.conftest import network_refused

#: slug -> (bundled sample, URL parameters of the view)
VIEWS = {
    "home": ("balanced", {}),
    "data": ("balanced", {}),
    "curves": ("balanced", {"ttab": "derivations"}),
    "label_ranking": ("seed003_lrap", {}),
    "dcg": ("seed001_dcg", {}),
    "retrieval": ("seed002_map", {}),
    "multilabel": ("digit_properties", {}),
    "multiclass": ("iris", {}),
    "regression": ("diabetes", {}),
    "slices": ("breast_cancer", {"by": "texture"}),
    "compare": ("breast_cancer", {}),
    "leaderboard": ("breast_cancer_five", {}),
}

#: each headline card of a file: its label and its value, as the browser draws them
_CARDS = """() => [...document.querySelectorAll('#headline .metric')].map((m) => [
  m.querySelector('.label').innerText.trim(), m.querySelector('.value').innerText.trim()])"""


def _views(view_download, folder) -> dict:
    """slug -> (the file written, the live headline values by label, its plotly charts)."""
    out = {}
    for page in PAGES:
        sample, params = VIEWS[page.slug]
        at = open_page(page.script, sample, **params)
        live = defaultdict(set)
        for m in at.metric:
            live[m.label].add(m.value)
        assert live, f"{page.slug}: no headline number drawn"
        # each plotly chart drawn has its numbers as its text alternative (aria-label)
        assert all(c.proto.alt for c in at.get("plotly_chart")), page.slug
        html = view_download()
        path = folder / f"{page.slug}.html"
        path.write_text(html, encoding="utf-8")
        out[page.slug] = (path, dict(live), html.count('<div class="plotly-figure"'))
    return out


def test_every_pages_export_opens_offline_with_the_live_numbers(
    page: Page, view_download, tmp_path
):
    assert set(VIEWS) == {p.slug for p in PAGES}  # a new page joins this test
    views = _views(view_download, tmp_path)
    fetched = network_refused(page)
    problems = []
    for slug, (path, live, n_plotly) in views.items():
        page.goto(path.as_uri())
        if n_plotly:
            expect(page.locator("body[data-charts=drawn]")).to_have_count(1, timeout=60_000)
            drawn = page.locator(".plotly-figure:has(.main-svg)").count()
            if drawn != n_plotly:
                problems.append(f"{slug}: {drawn} plotly charts drawn of {n_plotly}")
        cards = page.evaluate(_CARDS)
        shown = {label for label, _ in cards}
        if shown != set(live):
            problems.append(f"{slug}: headlines {sorted(shown)}, live {sorted(live)}")
        for label, value in cards:
            if value not in live.get(label, ()):
                problems.append(f"{slug}: {label} = {value} offline, {live.get(label)} live")
        if re.search(r"\d", " ".join(v for _, v in cards)) is None:
            problems.append(f"{slug}: no number among the headlines")
    assert not problems, "\n".join(problems)
    assert fetched == [v[0].as_uri() for v in views.values()]  # nothing but the files
