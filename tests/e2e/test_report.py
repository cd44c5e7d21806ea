""" "Download this view" in Chromium: the downloaded file, opened from file:// with every
network request refused, shows the live page's headline numbers and draws its charts."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.e2e.conftest import metric_value, network_refused, wait_for_run

LABELS = ("ROC AUC", "Average precision", "Precision", "Recall")


def test_the_downloaded_view_opens_offline_with_the_live_numbers(page: Page, app_url, tmp_path):
    page.goto(app_url + "/curves?ds=balanced")
    wait_for_run(page)
    before = metric_value(page, "Precision").inner_text()
    # the threshold panel reruns alone (an st.fragment): the view it leaves is downloaded
    box = page.locator(".st-key-curves_threshold_number input")
    box.fill("0.4")
    box.press("Enter")
    wait_for_run(page, immediate=True)
    expect(metric_value(page, "Precision")).not_to_have_text(before)
    live = {label: metric_value(page, label).inner_text() for label in LABELS}
    assert all(v and v != "?" for v in live.values())
    with page.expect_download() as download:
        page.get_by_role("button", name="Download this view").click()
    path = tmp_path / "view.html"
    download.value.save_as(path)

    offline = page.context.new_page()
    fetched = network_refused(offline)
    offline.goto(path.as_uri())
    expect(offline.locator("body[data-charts=drawn]")).to_have_count(1, timeout=60_000)
    for label, value in live.items():
        card = offline.locator(".metric").filter(
            has=offline.locator(".label").get_by_text(label, exact=True)
        )
        expect(card.locator(".value")).to_have_text(value)
    # the ROC and PR curves, drawn by the inlined plotly: each its model's line
    expect(offline.locator(".plotly-figure .main-svg").first).to_be_visible()
    assert offline.locator(".plotly-figure .scatterlayer .trace").count() >= 4
    assert "t=0.4" in offline.locator("#summary a").inner_text()
    assert fetched == [path.as_uri()]  # nothing but the file itself
    offline.close()
