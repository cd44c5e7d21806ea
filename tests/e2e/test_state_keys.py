"""Real browser: the sequences that crashed or showed stale numbers (issue 15, part 3).

The controls are found by their labels, not their keys, so the same file runs
against the code before the fix (where it fails) and after it.
"""

import re

from playwright.sync_api import Page, expect

import metrics
from explorer.datasets import load_sample
from explorer.formatting import fmt
from metrics.dcg import exponential_gain
from tests.e2e.conftest import wait_for_run

SEED = load_sample("seed001_dcg")
DIABETES = load_sample("diabetes_ranking")


def metric_value(page: Page, label: str):
    """The st.metric value whose label is exactly ``label`` ("DCG", not "pessimistic DCG")."""
    exact = page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
    return page.get_by_test_id("stMetric").filter(has=exact).get_by_test_id("stMetricValue")


def no_error(page: Page) -> None:
    expect(page.get_by_test_id("stException")).to_have_count(0)


def sample_box(page: Page):
    """DCG's sample select box (the combobox labelled "sample"; its value is the label)."""
    return page.get_by_role("combobox", name="sample", exact=True)


def toggle_ties(page: Page) -> None:
    page.get_by_test_id("stCheckbox").filter(has_text="ignore ties").locator("label").click()
    wait_for_run(page)


def set_k(page: Page, k: int) -> None:
    box = page.get_by_label("k (cut-off)", exact=True)
    box.fill(str(k))
    box.press("Enter")
    wait_for_run(page)


def open_page(page: Page, url: str) -> None:
    page.goto(url)
    wait_for_run(page)
    no_error(page)


def sidebar(page: Page, title: str) -> None:
    page.get_by_test_id("stSidebarNavLink").filter(has_text=title).click()
    expect(page.get_by_role("heading", name=title)).to_be_visible()
    wait_for_run(page)


def dcg_row(row: int, **kwargs) -> tuple[str, str]:
    """Seed 001's row ``row``: its DCG and NDCG as the page prints them."""
    y, s = SEED.y_true, SEED.score()
    if kwargs.pop("exponential", False):
        y = exponential_gain(y)
    dcg = metrics.dcg_per_sample(y, s, **kwargs)[row]
    ideal = metrics.dcg_per_sample(y, y, **{**kwargs, "ignore_ties": True})[row]
    return fmt(dcg), fmt(dcg / ideal)


def expect_sample(page: Page, row: int, **kwargs) -> None:
    """The sample's metrics, and the select box's label showing the same NDCG."""
    dcg, ndcg = dcg_row(row, **kwargs)
    expect(metric_value(page, "DCG of this sample")).to_have_text(dcg)
    expect(metric_value(page, "NDCG of this sample")).to_have_text(ndcg)
    expect(sample_box(page)).to_have_value(f"{SEED.sample_ids[row]} (NDCG {ndcg})")
    no_error(page)


def test_open_7_5_toggle_ties_and_back(page: Page, app_url: str):
    """The teacher's 7.5 -> 5.0 -> 7.5: the second toggle crashed ('<=' int and str)."""
    open_page(page, app_url + "/dcg?ds=seed001_dcg")
    page.get_by_role("button", name="Open 7.5").click()
    wait_for_run(page)
    expect(metric_value(page, "DCG of this sample")).to_have_text("7.500")
    expect_sample(page, 1, k=1)
    toggle_ties(page)
    expect(metric_value(page, "DCG of this sample")).to_have_text("5.000")
    expect_sample(page, 1, k=1, ignore_ties=True)
    toggle_ties(page)
    expect(metric_value(page, "DCG of this sample")).to_have_text("7.500")
    expect_sample(page, 1, k=1)
    set_k(page, 2)  # and the next control still works
    expect_sample(page, 1, k=2)
    assert re.search(r"[?&]k=2(&|$)", page.url) and re.search(r"[?&]sample=1(&|$)", page.url)


def test_k2_then_k3(page: Page, app_url: str):
    open_page(page, app_url + "/dcg?ds=seed001_dcg")
    expect_sample(page, 0)
    set_k(page, 2)
    expect_sample(page, 0, k=2)
    set_k(page, 3)
    expect_sample(page, 0, k=3)
    set_k(page, 4)
    expect_sample(page, 0, k=4)
    expect(metric_value(page, "DCG")).to_have_text(
        fmt(metrics.dcg_score(SEED.y_true, SEED.score(), k=4))
    )


def test_exponential_gain_then_ignore_ties(page: Page, app_url: str):
    open_page(page, app_url + "/dcg?ds=seed001_dcg&sample=1")
    expect_sample(page, 1)
    page.get_by_test_id("stRadio").get_by_text("2^rel - 1").click()
    wait_for_run(page)
    expect_sample(page, 1, exponential=True)
    toggle_ties(page)
    expect_sample(page, 1, exponential=True, ignore_ties=True)
    set_k(page, 2)
    expect_sample(page, 1, exponential=True, ignore_ties=True, k=2)


def test_dcg_with_k_all_then_sidebar_to_retrieval(page: Page, app_url: str):
    """Top-K retrieval crashed every time it was opened from DCG with k = all."""
    open_page(page, app_url + "/dcg?ds=diabetes_ranking")
    assert "k=all" in page.url
    sidebar(page, "Top-K retrieval")
    no_error(page)
    y, s = DIABETES.y_true, DIABETES.score()
    expect(metric_value(page, "P@K")).to_have_text(fmt(metrics.precision_at_k(y, s, k=5)))
    expect(metric_value(page, "MAP@K")).to_have_text(
        fmt(metrics.mean_average_precision_at_k(y, s, k=5))
    )
    no_error(page)


def dcg_numbers(page: Page) -> dict[str, str]:
    labels = ("DCG", "NDCG", "DCG of this sample", "NDCG of this sample")
    return {label: metric_value(page, label).inner_text() for label in labels}


def test_retrieval_k1_then_sidebar_to_dcg_matches_a_fresh_dcg_page(
    page: Page, app_url: str, context
):
    """DCG opened with retrieval's k = 1 and showed other numbers than a fresh page."""
    fresh = context.new_page()
    open_page(fresh, app_url + "/dcg?ds=diabetes_ranking")
    y, s = DIABETES.y_true, DIABETES.score()
    expect(metric_value(fresh, "DCG")).to_have_text(fmt(metrics.dcg_score(y, s)))
    want = dcg_numbers(fresh)
    fresh.close()

    open_page(page, app_url + "/retrieval?ds=diabetes_ranking&k=2")
    slider = page.get_by_role("slider", name="K (cut-off)")
    thumb = page.get_by_test_id("stSlider").filter(has_text="K (cut-off)")
    for _ in range(5):  # one key at a time, each after the rerun it starts
        if thumb.get_by_test_id("stSliderThumbValue").inner_text().strip() == "1":
            break
        slider.focus()
        page.keyboard.press("ArrowLeft")
        wait_for_run(page)
    expect(thumb.get_by_test_id("stSliderThumbValue")).to_have_text("1")
    expect(metric_value(page, "P@K")).to_have_text(fmt(metrics.precision_at_k(y, s, k=1)))
    sidebar(page, "DCG & NDCG")
    no_error(page)
    expect(metric_value(page, "DCG")).to_have_text(want["DCG"])
    assert dcg_numbers(page) == want


def test_dataset_switch_in_the_sidebar_resets_the_page_settings(page: Page, app_url: str):
    """A k and a model chosen on one dataset do not follow to the next, in the URL or
    on screen (the widgets are re-seeded, so the browser does not send them back)."""
    open_page(page, app_url + "/dcg?ds=diabetes_ranking&model=tree&sample=3")
    set_k(page, 2)
    assert "k=2" in page.url and "model=tree" in page.url
    page.get_by_test_id("stSidebar").get_by_role("combobox").click()
    page.get_by_role("option", name="Seed 001: dcg_score worked examples").click()
    wait_for_run(page)
    no_error(page)
    expect(page.get_by_label("k (cut-off)", exact=True)).to_have_value("")
    expect(metric_value(page, "DCG")).to_have_text(
        fmt(metrics.dcg_score(SEED.y_true, SEED.score()))
    )
    expect_sample(page, 0)
    assert "k=all" in page.url and "sample=0" in page.url and "model=model" in page.url
    set_k(page, 3)  # the next control change keeps the new dataset's settings
    expect_sample(page, 0, k=3)
