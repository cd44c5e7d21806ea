"""Real browser: upload a good file and a bad one through the Data page's file input."""

import numpy as np
from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from tests.e2e.conftest import metric_value, wait_for_run

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
