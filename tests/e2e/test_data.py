"""Real browser: upload a good file and a bad one through the Data page's file input; type
a new table fast (Tab, Enter) and open it on the page the Data page came from."""

import os
import re

import numpy as np
from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from tests.e2e.a11y import AXE_JS, violations
from tests.e2e.conftest import metric_value, wait_for_run
from tests.e2e.keyboard import assert_walks

GOOD = "y_true,y_score\n0,0.1\n1,0.8\n0,0.35\n1,0.4\n1,0.9\n0,0.7\n"
BAD = "y_true,y_score\n0,0.1\n1,n/a\n"


def _upload(page: Page, path) -> None:
    page.locator('.st-key-data_upload_file input[type="file"]').set_input_files(str(path))
    wait_for_run(page)


def test_upload_good_then_bad_file(page: Page, app_url: str, tmp_path):
    good, bad = tmp_path / "mine.csv", tmp_path / "broken.csv"
    good.write_text(GOOD)
    bad.write_text(BAD)
    page.goto(app_url + "/data")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="Data", exact=True)).to_be_visible()

    _upload(page, good)
    expect(metric_value(page, "Samples")).to_have_text("6")

    _upload(page, bad)
    error = page.get_by_test_id("stAlertContentError")
    expect(error).to_contain_text("broken.csv")
    expect(error).to_contain_text("line 3")
    expect(error).to_contain_text("n/a")
    expect(metric_value(page, "Samples")).to_have_text("6")  # the good upload stays
    expect(page.get_by_test_id("stException")).to_have_count(0)

    page.locator('[data-testid="stSidebarNavLink"]').filter(has_text="Home").click()
    wait_for_run(page)
    y = np.array([0, 1, 0, 1, 1, 0])
    s = np.array([0.1, 0.8, 0.35, 0.4, 0.9, 0.7])
    expect(metric_value(page, "ROC AUC")).to_have_text(fmt(metrics.roc_auc_score(y, s)))


def test_aliased_columns_are_noted_and_the_summary_shows_values_in_full(
    page: Page, app_url: str, tmp_path
):
    from explorer.datasets import describe
    from explorer.samples import load_sample

    page.goto(app_url + "/data?ds=digits")
    wait_for_run(page)
    assert_walks(page)  # every control by Tab, with a visible focus
    ds = load_sample("digits")
    full = describe(ds).set_index("what")["value"]["positives per label"]
    cell = page.get_by_test_id("stTable").locator("td").filter(has_text=full[:20])
    expect(cell).to_have_text(full)  # the whole value, not cut
    box = cell.bounding_box()
    assert box is not None and box["height"] > 0

    aliased = tmp_path / "mine.csv"
    aliased.write_text(GOOD.replace("y_true,y_score", "Label,prob"))
    _upload(page, aliased)
    expect(metric_value(page, "Samples")).to_have_text("6")
    expect(page.get_by_test_id("stAlertContentInfo")).to_contain_text(
        "read column 'Label' as y_true, 'prob' as y_score"
    )


#: A table typed live: (y_true, score) per row, typed at 20 characters a second.
TYPED = [(0, "0.3"), (1, "0.2"), (1, "0.85"), (0, "0.15"), (1, "0.6"), (0, "0.45")]


# The grid is the table-entry component (views/data/static/table_entry.js): plain inputs
# that Tab and Enter move between in the browser, and no run while typing (a run then
# redrew Streamlit's data grid, which lost and merged keys typed this fast). Six rows
# asked for: the seventh is made by Enter on the last, and left empty.
def test_a_new_table_typed_fast_opens_on_the_page_it_came_from(page: Page, app_url: str):
    page.goto(app_url + "/curves?ds=balanced")
    wait_for_run(page)
    page.locator('[data-testid="stSidebarNavLink"]').filter(has_text="Data").click()
    wait_for_run(page)
    page.locator(".st-key-data_new_rows input").fill(str(len(TYPED) - 1))
    page.locator(".st-key-data_new_rows input").press("Enter")
    wait_for_run(page, immediate=True)
    page.locator(".st-key-data_new_start button").click()
    wait_for_run(page, immediate=True)
    grid = page.locator(".st-key-data_new_entry table")
    expect(grid.locator("caption")).to_have_text(f"New table: {len(TYPED) - 1} rows, 2 models")
    first = grid.get_by_label("true label, row 0", exact=True)
    first.click()
    expect(first).to_be_focused()
    runs = page.evaluate("() => window.__stStarted")
    for y, s in TYPED:  # y, Tab, the score, Enter: the next row's y
        page.keyboard.type(str(y), delay=50)
        page.keyboard.press("Tab", delay=50)
        page.keyboard.type(s, delay=50)
        page.keyboard.press("Enter", delay=50)
    expect(grid.get_by_label(f"true label, row {len(TYPED)}", exact=True)).to_be_focused()
    for i, (y, s) in enumerate(TYPED):  # every key where it was typed
        expect(grid.get_by_label(f"true label, row {i}", exact=True)).to_have_value(str(y))
        expect(grid.get_by_label(f"score of model_1, row {i}", exact=True)).to_have_value(s)
    assert page.evaluate("() => window.__stStarted") == runs  # no run while typing
    if AXE_JS.exists() or os.environ.get("CI", "").lower() == "true":
        # labelled inputs, contrast: the grid alone (test_classroom checks the whole page)
        assert violations(page, ".st-key-data_new_entry") == []
    # a refused Apply keeps every cell (the run after it redraws the page, not the grid)
    gap = grid.get_by_label("score of model_1, row 3", exact=True)
    gap.fill("")
    apply = page.get_by_role("button", name="Apply and open ROC & PR curves")
    apply.click()
    wait_for_run(page)
    expect(page.get_by_test_id("stAlertContentError")).to_contain_text(
        'row 3, column "model_1": is empty'
    )
    expect(grid.get_by_label("score of model_1, row 4", exact=True)).to_have_value(TYPED[4][1])
    gap.fill(TYPED[3][1])
    page.get_by_label("Model names, comma separated (empty: model_1, ...)").fill("typed")
    apply.click()
    wait_for_run(page)
    refused = page.get_by_test_id("stAlertContentError")
    assert refused.count() == 0, refused.all_inner_texts()  # nothing lost
    expect(page).to_have_url(re.compile(r"/curves"))
    y = np.array([row[0] for row in TYPED])
    s = np.array([float(row[1]) for row in TYPED])
    expect(metric_value(page, "ROC AUC")).to_have_text(fmt(metrics.roc_auc_score(y, s)))
    expect(metric_value(page, "Log loss")).to_have_text(fmt(metrics.log_loss(y, s)))
