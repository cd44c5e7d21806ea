"""Real-browser test of the multilabel classification page."""

import re

from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from metrics.classification import threshold_predictions
from tests.e2e.conftest import metric_value, step_slider, wait_for_run


def _headline(threshold: float) -> dict[str, str]:
    ds = load_sample("digit_properties")
    pred = threshold_predictions(ds.score(), threshold)
    return {
        "Hamming loss": fmt(metrics.hamming_loss(ds.y_true, pred)),
        "Micro F1": fmt(metrics.f1_score(ds.y_true, pred, average="micro")),
        "Macro F1": fmt(metrics.f1_score(ds.y_true, pred, average="macro")),
    }


def test_threshold_slider_moves_the_headline(page: Page, app_url: str):
    page.goto(app_url + "/multilabel?ds=digit_properties")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="Multilabel classification")).to_be_visible()
    for label, value in _headline(0.5).items():
        expect(metric_value(page, label)).to_have_text(value)

    step_slider(page, "Threshold", "ml_threshold", "ArrowLeft", "0.45")  # 0.01 per key
    for label, value in _headline(0.45).items():
        expect(metric_value(page, label)).to_have_text(value)
    expect(page).to_have_url(re.compile(r"[?&]t=0\.45(&|$)"))
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_derivations_render_and_end_in_the_headline(page: Page, app_url: str):
    page.goto(app_url + "/multilabel?ds=digit_properties")
    wait_for_run(page)
    macro = metric_value(page, "Macro F1").inner_text()
    line = page.locator(".katex").filter(has_text="Macro F1=").first
    line.scroll_into_view_if_needed()
    expect(line).to_be_visible()
    tex = line.locator(".katex-mathml annotation").text_content().strip()
    assert tex.startswith(r"\text{Macro F1} = \frac{") and tex.endswith(f"= {macro}")
    expect(page.locator(".katex-error")).to_have_count(0)


def test_several_threshold_moves_rerun_the_panel_with_real_numbers(page: Page, app_url: str):
    """The threshold's panel is an st.fragment: after each of several moves the headline is
    that threshold's (computed by metrics), the address follows, and opening the address
    afresh shows the same numbers."""
    page.goto(app_url + "/multilabel?ds=digit_properties")
    wait_for_run(page)
    for target in ("0.52", "0.54", "0.53", "0.55"):
        arrow = "ArrowRight" if target in ("0.52", "0.54", "0.55") else "ArrowLeft"
        step_slider(page, "Threshold", "ml_threshold", arrow, target)
        for label, value in _headline(float(target)).items():
            expect(metric_value(page, label)).to_have_text(value)
        expect(page).to_have_url(re.compile(rf"[?&]t={re.escape(target)}(&|$)"))
    page.goto(page.url)
    wait_for_run(page)
    expect(page.locator(".st-key-ml_threshold [data-testid='stSliderThumbValue']")).to_have_text(
        "0.55"
    )
    for label, value in _headline(0.55).items():
        expect(metric_value(page, label)).to_have_text(value)
    expect(page.get_by_test_id("stException")).to_have_count(0)
