"""Predict, then reveal, in Chromium: on a 1280x720 projector at 150% (853x480 at
scale 1.5), in presentation mode with ``reveal=0``, one page load, then every page
(by its sidebar link) and every scenario (by its link on the page) by clicking; on
each, no text node (SVG text included), aria-label, title attribute or the tab's
title holds a number the page hides (:mod:`tests.hidden_values`)."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlparse

from explorer import registry
from explorer.scenarios import all_scenarios, for_page
from tests import hidden_values
from tests.e2e.conftest import wait_for_run

# every text the page shows: text nodes (HTML and SVG), aria-labels, titles, the tab's title
_TEXTS = """() => {
  const out = [document.title];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (['SCRIPT', 'STYLE'].includes(node.parentElement?.tagName)) continue;
    const text = node.textContent.trim();
    if (text) out.push(text);
  }
  for (const e of document.querySelectorAll('[aria-label], [title]'))
    for (const a of ['aria-label', 'title']) if (e.getAttribute(a)) out.push(e.getAttribute(a));
  return out;
}"""
# every chart on the page has drawn
_DRAWN = """() => [...document.querySelectorAll('.stMain .stPlotlyChart')]
  .every(c => c.querySelector('.main-svg'))"""


def _where(url: str) -> tuple[str, dict[str, str]]:
    parts = urlparse(url)
    return parts.path.strip("/").split("/")[-1] or registry.HOME, dict(parse_qsl(parts.query))


def _leaks(page, checked: list[str]) -> list[str]:
    """The hidden numbers the page shows, once the run of the last action has ended;
    ``checked`` gets the page's address when it hides some (a page with a headline on a
    dataset it scores)."""
    page.wait_for_function(_DRAWN, timeout=60_000)
    slug, query = _where(page.url)
    if not page.locator(".stMain [data-testid=stMetric]").count():
        return []  # no headline here (the Data page, a dataset the page cannot score)
    hidden = hidden_values.hidden_texts(slug, query)
    if hidden.text:
        checked.append(page.url)
    texts = page.evaluate(_TEXTS)
    return [f"{slug} {query}: {h!r} in {t!r}" for h, t in hidden_values.leaks(texts, hidden)]


def test_no_page_or_scenario_shows_a_hidden_number(sized, app_url: str):
    page = sized(853, 480, 1.5)
    page.goto(f"{app_url}/?present=1&reveal=0")
    wait_for_run(page, timeout=60_000)
    found: list[str] = []
    checked: list[str] = []
    for entry in registry.PAGES:
        expand = page.get_by_test_id("stExpandSidebarButton")
        if expand.is_visible():  # presentation mode folds the sidebar away
            expand.click()
        page.get_by_test_id("stSidebarNavLink").filter(has_text=entry.title).first.click()
        wait_for_run(page)
        fitting = page.locator(".st-key-open_fitting_sample button")
        if fitting.count():  # the active dataset is of another kind: open the page's sample
            fitting.click()
            wait_for_run(page)
        found += _leaks(page, checked)
        for sc in for_page(entry.slug):
            scenarios = page.get_by_test_id("stExpander").filter(has_text="Scenarios")
            if not scenarios.get_by_text(sc.title, exact=True).is_visible():
                scenarios.locator("summary").click()
            scenarios.get_by_text(sc.title, exact=True).click()
            wait_for_run(page)
            found += _leaks(page, checked)
            assert f"{sc.page}" in page.url or sc.page == registry.HOME, (sc.id, page.url)
    assert not found, "\n".join(found)
    # every scenario but the perfect ranker's (its 1.0 is a label too) hides numbers
    assert len(checked) >= len(all_scenarios()), checked
