"""What a class sees: contrast, presentation mode, phones and zoomed screens.

The browser is asked for the colours and sizes it really draws (getComputedStyle,
with every ancestor's opacity applied over the element's backdrop), and the WCAG
contrast is computed from them: captions, body text and the SVG text of the
plotly charts reach 4.5:1 in both modes; presentation mode (``?present=1``) folds
the sidebar away, draws body text at 20 px or more and captions and chart text at
16 px or more, and stays on when the page changes. On a 390 px phone no formula
is cut off, and at 1280x720 zoomed to 150% the sidebar leaves the page its room.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from explorer import theme
from tests.e2e.conftest import wait_for_run
from tests.e2e.measure import CLIPPED_FORMULAS, MEASURE

# The same for every text of the ROC & PR curves page's operating-point component
# (views/curves/operating_point.py, in a shadow root): its SVG text at the size drawn (the
# SVG's scale applied), its HTML text as computed; and whether any of it reaches past
# the component's box or the viewport.
MEASURE_COMPONENT = """() => {
  const host = document.querySelector('.st-key-curves_operating_point');
  const root = host && host.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
  if (!root) return null;
  const parse = (c) => { const m = c.match(/[\\d.]+/g).map(Number);
    return {r: m[0], g: m[1], b: m[2], a: m.length > 3 ? m[3] : 1}; };
  const lum = ({r, g, b}) => { const f = (c) => { c /= 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
    return 0.2126 * f(r) + 0.7152 * f(g) + 0.0722 * f(b); };
  const backdrop = (e) => { for (let n = e; n && n.nodeType === 1; n = n.parentElement) {
    const c = parse(getComputedStyle(n).backgroundColor); if (c.a > 0.99) return c; }
    return {r: 255, g: 255, b: 255}; };
  const out = [];
  const box = host.getBoundingClientRect();
  let past = [];
  for (const e of root.querySelectorAll('text, label, output, span, th, dt, dd, div')) {
    if (!e.getClientRects().length) continue;
    const own = [...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own) continue;
    const cs = getComputedStyle(e);
    let size = parseFloat(cs.fontSize);
    const svg = e.ownerSVGElement;
    if (svg) size *= svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const fg = parse(e instanceof SVGElement ? cs.fill : cs.color);
    const [hi, lo] = [lum(fg), lum(backdrop(e))].sort((x, y) => y - x);
    out.push({text: e.textContent.trim().slice(0, 40), size, ratio: (hi + 0.05) / (lo + 0.05)});
    const r = e.getBoundingClientRect();
    if (r.right > Math.min(box.right, window.innerWidth) + 1 || r.left < box.left - 1)
      past.push({text: e.textContent.trim().slice(0, 40), left: r.left, right: r.right});
  }
  for (const svg of root.querySelectorAll('svg')) {
    const r = svg.getBoundingClientRect();
    if (r.right > Math.min(box.right, window.innerWidth) + 1) past.push({svg: r.right});
  }
  return {texts: out, past, width: box.width};
}"""


def _measure_component(page: Page, min_px: int) -> dict:
    """The operating-point component's text: at least ``min_px`` and 4.5:1 each, and
    none of it (nor a chart) past the component's box or the viewport."""
    got = page.evaluate(MEASURE_COMPONENT)
    assert got is not None and len(got["texts"]) > 40, got
    small = [t for t in got["texts"] if t["size"] < min_px - 0.01]
    faint = [t for t in got["texts"] if t["ratio"] < 4.5]
    assert small == [] and faint == [] and got["past"] == [], (small, faint, got["past"])
    return got


def _open(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_run(page, timeout=60_000)  # a first load on a busy machine is slow
    # a plotly chart, an SVG chart (explorer/charts/svg.py), or the curves page's
    # operating-point component (its own SVG)
    charts = (
        ".stPlotlyChart .xtick text, .me-svg-chart svg text,"
        " .st-key-curves_operating_point .op-chart svg text"
    )
    page.locator(charts).first.wait_for(timeout=60_000)


def _measure(page: Page, kinds=("caption", "body", "chart")) -> dict[str, list[dict]]:
    got = page.evaluate(MEASURE)
    for kind in kinds:
        assert got[kind], f"no {kind} text measured"
    return got


def _worst(items: list[dict], key: str) -> dict:
    return min(items, key=lambda item: item[key])


def test_captions_body_and_chart_text_reach_aa_contrast(sized, app_url: str):
    page = sized(1440, 900)
    _open(page, app_url + "/curves?ds=balanced")
    got = _measure(page, ("caption", "body"))  # the curves: the component (below)
    got["chart"] += _measure_component(page, theme.CHART_PX[0])["texts"]
    for kind in ("caption", "body", "chart"):
        worst = _worst(got[kind], "ratio")
        assert worst["ratio"] >= 4.5, (kind, worst)
    # the caption colour is the theme's (7.7:1), not Streamlit's faded grey (3.9:1)
    assert _worst(got["caption"], "ratio")["ratio"] == pytest.approx(
        theme.contrast_ratio(theme.CAPTION_TEXT), abs=0.01
    )
    assert _worst(got["chart"], "size")["size"] >= theme.CHART_PX[0]
    assert _worst(got["body"], "size")["size"] >= 16
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar).to_have_attribute("data-collapsed", "false")


def test_presentation_mode_from_the_link(sized, app_url: str):
    page = sized(1440, 900)
    _open(page, app_url + "/retrieval?ds=seed002_map&present=1")
    expect(page.get_by_test_id("stSidebar")).to_have_attribute("data-collapsed", "true")
    got = _measure(page)
    assert _worst(got["body"], "size")["size"] >= 20
    assert _worst(got["caption"], "size")["size"] >= 16
    assert _worst(got["chart"], "size")["size"] >= 16
    assert _worst(got["metric"], "size")["size"] >= 36  # headline numbers stay the biggest
    for kind in ("caption", "body", "chart", "metric"):
        assert _worst(got[kind], "ratio")["ratio"] >= 4.5, kind
    # another page, through the sidebar (a click that drops the URL's parameters)
    page.get_by_test_id("stExpandSidebarButton").click()
    page.get_by_test_id("stSidebarNavLink").filter(has_text="DCG & NDCG").click()
    wait_for_run(page)
    page.locator(".stPlotlyChart .xtick text").first.wait_for(timeout=60_000)
    assert "/dcg" in page.url and "present=1" in page.url
    expect(
        page.get_by_test_id("stSidebar").get_by_role("switch", name="Presentation mode")
    ).to_be_checked()
    got = _measure(page)
    assert _worst(got["body"], "size")["size"] >= 20
    assert _worst(got["chart"], "size")["size"] >= 16


def test_presentation_mode_enlarges_the_operating_point_component(sized, app_url: str):
    page = sized(1440, 900)
    _open(page, app_url + "/curves?ds=balanced&present=1")
    _measure_component(page, theme.CHART_PX[1])


def test_the_toggle_switches_presentation_on_and_off(sized, app_url: str):
    page = sized(1440, 900)
    _open(page, app_url + "/retrieval?ds=seed002_map")
    assert "present" not in page.url
    toggle = page.get_by_test_id("stSidebar").get_by_text("Presentation mode")
    toggle.click()
    wait_for_run(page)
    expect(page).to_have_url(re.compile(r"[?&]present=1"))
    assert _worst(_measure(page)["body"], "size")["size"] >= 20
    if page.get_by_test_id("stSidebar").get_attribute("data-collapsed") == "true":
        page.get_by_test_id("stExpandSidebarButton").click()
    page.get_by_test_id("stSidebar").get_by_text("Presentation mode").click()
    wait_for_run(page)
    expect(page).not_to_have_url(re.compile(r"present="))
    assert _worst(_measure(page)["body"], "size")["size"] < 20


@pytest.mark.parametrize(
    "path",
    ["curves?ds=balanced", "multilabel?ds=digit_properties", "retrieval?ds=seed002_map"],
)
def test_no_formula_is_cut_off_on_a_phone(sized, app_url: str, path: str):
    page = sized(390, 844)
    _open(page, f"{app_url}/{path}")
    got = page.evaluate(CLIPPED_FORMULAS)
    assert got["n"] > 0
    assert got["bad"] == []
    assert got["sideways"] <= 1  # the page itself never scrolls sideways
    if path.startswith("curves"):  # the operating-point component: nothing past its box
        assert _measure_component(page, theme.CHART_PX[0])["width"] <= 390


def test_zoomed_small_screen_keeps_the_page_its_room(sized, app_url: str):
    """1280x720 at 150% zoom is a 853x480 CSS-pixel viewport at device scale 1.5."""
    page = sized(853, 480, 1.5)
    _open(page, app_url + "/multilabel?ds=digit_properties")
    sidebar = page.get_by_test_id("stSidebar")
    expect(sidebar).to_have_attribute("data-collapsed", "false")
    assert sidebar.bounding_box()["width"] <= 0.26 * 853
    beta = page.locator(".st-key-ml_beta")
    beta.scroll_into_view_if_needed()
    for button in ("stNumberInputStepDown", "stNumberInputStepUp"):
        expect(beta.get_by_test_id(button)).to_be_visible()
