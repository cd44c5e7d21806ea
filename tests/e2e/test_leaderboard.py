"""Real-browser test of the Leaderboard: a click on a cell of the pairwise matrix."""

import re

from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.e2e.conftest import metric_value, wait_for_run
from tests.e2e.keyboard import assert_walks


def test_a_click_on_a_matrix_cell_opens_compare_on_that_pair(page: Page, app_url: str):
    ds = load_sample("breast_cancer_five")
    names, m = ds.model_names, len(ds.model_names)
    page.goto(app_url + "/leaderboard?ds=breast_cancer_five")
    wait_for_run(page)
    assert_walks(page)  # every control by Tab, with a visible focus
    chart = page.locator(".st-key-lb_matrix")
    chart.scroll_into_view_if_needed()
    area = chart.locator(".nsewdrag").first.bounding_box()
    i, j = 3, 1  # the row model is A, the column model B
    page.mouse.click(
        area["x"] + (j + 0.5) * area["width"] / m, area["y"] + (i + 0.5) * area["height"] / m
    )
    expect(page).to_have_url(re.compile(r"/compare\?"))
    wait_for_run(page)
    expect(page).to_have_url(re.compile(rf"[?&]a={names[i]}(&|$)"))
    expect(page).to_have_url(re.compile(rf"[?&]b={names[j]}(&|$)"))
    auc = metrics.roc_auc_score(ds.y_true, ds.score(names[i]))
    expect(metric_value(page, "ROC AUC of A")).to_have_text(fmt(auc))
    expect(page.get_by_test_id("stException")).to_have_count(0)
