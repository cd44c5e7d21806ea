"""Real browser: the Regression page responds to the outlier control."""

import re

import numpy as np
from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.e2e.conftest import wait_for_run


def exact_metric(page: Page, label: str):
    """The value of the st.metric labelled exactly ``label`` ("MSE" is inside "RMSE")."""
    return (
        page.locator('[data-testid="stMetric"]')
        .filter(has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
        .locator('[data-testid="stMetricValue"]')
    )


def test_outlier_control_moves_rmse_on_screen(page: Page, app_url: str):
    ds = load_sample("diabetes")
    y, p = ds.y_true, ds.score("linear")
    page.goto(app_url + "/regression?ds=diabetes")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="Regression", exact=True)).to_be_visible()
    expect(exact_metric(page, "RMSE")).to_have_text(fmt(metrics.root_mean_squared_error(y, p)))
    expect(exact_metric(page, "MAE")).to_have_text(fmt(metrics.mean_absolute_error(y, p)))

    box = page.locator(".st-key-reg_outlier_shift input")
    box.fill("300")
    box.press("Enter")
    wait_for_run(page)
    moved = np.array(p)
    moved[0] += 300
    expect(exact_metric(page, "RMSE")).to_have_text(fmt(metrics.root_mean_squared_error(y, moved)))
    expect(exact_metric(page, "MAE")).to_have_text(fmt(metrics.mean_absolute_error(y, moved)))
    expect(exact_metric(page, "R²")).to_have_text(fmt(metrics.r2_score(y, moved)))
    expect(page).to_have_url(re.compile(r"shift=300"))
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_derivations_render_and_end_in_the_headline(page: Page, app_url: str):
    page.goto(app_url + "/regression?ds=diabetes")
    wait_for_run(page)
    r2 = exact_metric(page, "R²").inner_text()
    annotations = page.locator(".katex-mathml annotation")
    texts = [t.strip() for t in annotations.evaluate_all("els => els.map(e => e.textContent)")]
    assert any(t.startswith("R^2 = 1 -") and t.endswith(f"= {r2}") for t in texts)
    expect(page.locator(".katex-error")).to_have_count(0)
