"""Real browser: a click on a group's row of the Slices page's table opens the model page
filtered to it, whose headline says on how many samples, with the metric of that subset."""

import re

import numpy as np
from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.e2e.conftest import wait_for_run
from tests.e2e.keyboard import assert_walks

#: Streamlit's data grid: the height of its header and of each row, in CSS px
ROW_PX = 35


def _click_row(page: Page, key: str, row: int) -> None:
    """Click the middle of row ``row`` of the table ``key`` (a canvas: by its place)."""
    grid = page.locator(f".st-key-{key} [data-testid='stDataFrameResizable']")
    grid.scroll_into_view_if_needed()
    box = grid.bounding_box()
    page.mouse.click(box["x"] + 15, box["y"] + ROW_PX * (row + 1.5))  # the row's checkbox


def test_a_click_on_a_groups_row_opens_the_curves_page_on_that_slice(page: Page, app_url: str):
    ds = load_sample("breast_cancer")
    rows = ds.attribute("texture") == "smooth"
    y, s = ds.y_true[rows], ds.scores["logreg"][rows]
    page.goto(app_url + "/slices?ds=breast_cancer&by=texture")
    wait_for_run(page)
    assert_walks(page)  # every control by Tab, with a visible focus
    expect(page.locator(".st-key-sl_table td#glide-cell-1-1")).to_have_text("smooth")
    _click_row(page, "sl_table", 1)  # the table's rows: coarse, smooth
    wait_for_run(page)
    expect(page).to_have_url(re.compile(r"/curves\?.*slice=texture%3Asmooth"))
    note = f"On {int(rows.sum()):,} of {ds.n_samples:,} samples: texture = smooth"
    expect(page.get_by_text(note)).to_be_visible()
    auc = (
        page.locator('[data-testid="stMetric"]')
        .filter(has=page.get_by_test_id("stMetricLabel").get_by_text("ROC AUC", exact=True))
        .locator('[data-testid="stMetricValue"]')
    )
    expect(auc).to_have_text(fmt(metrics.roc_auc_score(y, s)))
    assert np.unique(y).size == 2  # the subset has both classes: a real AUC
    expect(page.get_by_test_id("stException")).to_have_count(0)
