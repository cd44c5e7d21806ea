"""Real-browser smoke test: the home page renders in Chromium with no exception."""

from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.e2e.conftest import metric_value, wait_for_run


def test_home_renders_without_exception(page: Page, app_url: str, tmp_path):
    page.goto(app_url)
    wait_for_run(page)
    expect(page.get_by_role("heading", name="Metric Explorer")).to_be_visible()
    ds = load_sample("balanced")
    expect(metric_value(page, "ROC AUC")).to_have_text(
        fmt(metrics.roc_auc_score(ds.y_true, ds.score()))
    )
    expect(page.get_by_test_id("stException")).to_have_count(0)
    page.screenshot(path=str(tmp_path / "home.png"), full_page=True)


def test_shared_link_opens_the_named_sample(page: Page, app_url: str):
    page.goto(app_url + "/?ds=seed003_lrap")
    wait_for_run(page)
    expect(metric_value(page, "LRAP")).to_have_text("0.7778")
    expect(page.get_by_test_id("stException")).to_have_count(0)
