"""Real browser: move the threshold of the ROC & PR curves page with the keyboard
and by clicking a ROC vertex; the confusion matrix on screen follows."""

import numpy as np
from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from tests.e2e.conftest import metric_value, step_slider, wait_for_run

Y = np.array([1, 0, 1, 0, 0, 0])  # seed002_roc6
S = np.array([0.9, 0.7, 0.8, 0.6, 0.5, 0.4])


def _expect_counts(page: Page, t: float) -> None:
    pred = (S >= t).astype(int)
    (tp, fn), (fp, tn) = metrics.confusion_matrix(Y, pred, labels=[1, 0])
    for label, value in (("TP", tp), ("FP", fp), ("FN", fn), ("TN", tn)):
        expect(metric_value(page, label)).to_have_text(str(value))
    expect(metric_value(page, "Precision")).to_have_text(fmt(metrics.precision_score(Y, pred)))
    expect(metric_value(page, "Accuracy")).to_have_text(fmt(metrics.accuracy_score(Y, pred)))


def test_keyboard_slider_and_roc_click_move_the_confusion_matrix(page: Page, app_url: str):
    page.goto(app_url)  # a first visit lets app.py register its navigation
    wait_for_run(page)
    page.goto(app_url + "/curves?ds=seed002_roc6")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="ROC & PR curves")).to_be_visible()
    _expect_counts(page, 0.5)  # TP 2, FP 3, FN 0, TN 1

    step_slider(page, "Threshold", "curves_threshold_slider", "ArrowRight", "0.65")  # 0.01 per key
    _expect_counts(page, 0.65)  # TP 2, FP 1, FN 0, TN 3
    expect(metric_value(page, "Precision")).to_have_text("0.6667")
    expect(page.locator(".st-key-curves_threshold_number input")).to_have_value("0.6500")
    expect(page.get_by_test_id("stTable")).to_contain_text("FP 1 (25.0%)")
    expect(page).to_have_url(__import__("re").compile(r"[?&]t=0\.65"))

    # click the ROC vertex of threshold 0.8 (the third point of the model's trace)
    roc = page.locator(".st-key-curves_roc_chart")
    roc.scroll_into_view_if_needed()
    point = roc.locator(".scatterlayer .trace").nth(1).locator(".point").nth(2)
    box = point.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(
        page.locator('.st-key-curves_threshold_slider [data-testid="stSliderThumbValue"]')
    ).to_have_text("0.80")
    wait_for_run(page)
    _expect_counts(page, 0.8)  # TP 2, FP 0, FN 0, TN 4
    expect(page.get_by_test_id("stException")).to_have_count(0)

    # click the TN cell of the confusion matrix: the samples in it are listed
    cm = page.locator(".st-key-curves_cm_chart")
    cm.scroll_into_view_if_needed()
    tn_cell = cm.locator(".scatterlayer .point").nth(3)  # cells in order TP, FN, FP, TN
    box = tn_cell.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_for_run(page)
    expect(page.get_by_text("4 samples are TN at threshold 0.8")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)
