"""Real browser: the DCG & NDCG page opens on seed 001 and follows the k input."""

import re

from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.e2e.conftest import wait_for_run


def metric_value(page: Page, label: str):
    """The st.metric value whose label is exactly ``label``.

    The shared helper matches labels by substring, and this page also shows
    "DCG of this sample", "Ideal DCG of this sample", "pessimistic DCG", ...
    """
    label_el = page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
    return (
        page.locator('[data-testid="stMetric"]')
        .filter(has=label_el)
        .locator('[data-testid="stMetricValue"]')
    )


def test_dcg_page_changes_k(page: Page, app_url: str):
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    page.goto(app_url + "/dcg?ds=seed001_dcg")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="DCG & NDCG")).to_be_visible()
    expect(metric_value(page, "DCG")).to_have_text(fmt(metrics.dcg_score(y, s)))
    expect(metric_value(page, "DCG of this sample")).to_have_text(fmt(9.499458))

    k_input = page.locator(".st-key-dcg_k input")
    k_input.fill("2")
    k_input.press("Enter")
    wait_for_run(page)
    expect(metric_value(page, "DCG")).to_have_text(fmt(metrics.dcg_score(y, s, k=2)))
    expect(metric_value(page, "NDCG")).to_have_text(fmt(metrics.ndcg_score(y, s, k=2)))
    expect(metric_value(page, "DCG of this sample")).to_have_text("5.631")
    assert "k=2" in page.url

    page.locator(".st-key-dcg_seed_example_2 button").click()  # seed 001's tied example: 7.5
    wait_for_run(page)
    expect(metric_value(page, "DCG of this sample")).to_have_text("7.500")
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_open_7_5_on_a_phone_shows_the_row_first_and_wrapped_derivations(page: Page, app_url: str):
    """After "Open 7.5" the row's 7.500 comes before the mean 6.250, and the
    derivation lines wrap inside a phone's width; the jump link reaches the tabs, whose
    Every sample opens the table."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(app_url + "/dcg?ds=seed001_dcg")
    wait_for_run(page)
    page.locator(".st-key-dcg_seed_example_2 button").click()
    wait_for_run(page)
    focus = metric_value(page, "DCG of row 1")
    expect(focus).to_have_text("7.500")
    # the result, a screen above the button, is scrolled into view
    expect(focus).to_be_in_viewport()
    expect(metric_value(page, "DCG")).to_have_text("6.250")
    assert focus.bounding_box()["y"] < metric_value(page, "DCG").bounding_box()["y"]
    line = page.locator(".st-key-dcg_derivation p").first
    expect(line).to_have_text("DCG = (5 + 7.500) / 2 = 6.250")
    box = line.bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    page.screenshot(path="/tmp/teach1_dcg_phone.png", full_page=False)
    page.get_by_role("link", name="The samples, worst first: tab Every sample ↓").click()
    tab = page.get_by_role("tab", name="Every sample")
    expect(tab).to_be_in_viewport()
    tab.click()  # a lazy tab: its table is drawn when opened
    wait_for_run(page)
    heading = page.get_by_role("heading", name="Per sample, worst first")
    heading.scroll_into_view_if_needed()
    expect(heading).to_be_in_viewport()
    expect(page).to_have_url(re.compile(r"[?&]tab=every(&|$)"))
