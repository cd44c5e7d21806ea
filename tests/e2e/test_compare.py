"""Real-browser test of the Compare page: numbers, a model change, a drill-down link."""

import re

from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.e2e.conftest import metric_value, wait_for_run


def test_compare_models_then_open_the_worst_loss_on_its_page(page: Page, app_url: str):
    ds = load_sample("digit_properties")
    va = metrics.lrap_per_sample(ds.y_true, ds.score("model"))
    vb = metrics.lrap_per_sample(ds.y_true, ds.score("from_digit"))
    page.goto(app_url + "/compare?ds=digit_properties")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="Compare two models")).to_be_visible()
    expect(metric_value(page, "LRAP of A")).to_have_text(fmt(va.mean()))
    expect(metric_value(page, "LRAP of B")).to_have_text(fmt(vb.mean()))
    expect(page.get_by_text("from_digit is better", exact=False).first).to_be_visible()

    # the sample B lost most on opens on Label ranking, model A selected
    worst = int((vb - va).argmin())
    page.get_by_role("link", name=re.compile(r"^Open sample ")).first.click()
    wait_for_run(page)
    expect(page.get_by_role("heading", name="Label ranking")).to_be_visible()
    expect(page).to_have_url(re.compile(rf"[?&]i={worst}(&|$)"))
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_swapping_a_and_b_in_the_browser(page: Page, app_url: str):
    ds = load_sample("diabetes")
    page.goto(app_url + "/compare?ds=diabetes")
    wait_for_run(page)
    box = page.locator(".st-key-cmp_a")
    box.click()
    page.get_by_role("option", name="tree").click()
    wait_for_run(page)
    page.locator(".st-key-cmp_b").click()
    page.get_by_role("option", name="linear").click()
    wait_for_run(page)
    mae = metrics.mean_absolute_error(ds.y_true, ds.score("tree"))
    expect(metric_value(page, "MAE of A")).to_have_text(fmt(mae))
    expect(page).to_have_url(re.compile(r"[?&]a=tree(&|$)"))
    expect(page.get_by_test_id("stException")).to_have_count(0)
