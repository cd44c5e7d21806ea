"""Real-browser tests of the Multiclass classification page."""

import re

import numpy as np
import sklearn.metrics as skm
from playwright.sync_api import Page, expect

from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.e2e.conftest import metric_value, wait_for_run

UPLOAD = (
    b"y_true,proba_cat,proba_dog,proba_bird\ncat,0.7,0.2,0.1\nbird,0.3,0.3,0.4\n"
    b"dog,0.2,0.5,0.3\ncat,0.4,0.5,0.1\nbird,0.1,0.1,0.8\n"
)


def _headline(name: str, k: int) -> dict[str, str]:
    ds = load_sample(name)
    t, s = ds.y_true.argmax(axis=1), ds.score()
    p = s.argmax(axis=1)
    return {
        "Accuracy": fmt(skm.accuracy_score(t, p)),
        "Macro F1": fmt(skm.f1_score(t, p, average="macro")),
        "MCC": fmt(skm.matthews_corrcoef(t, p)),
        "Log loss": fmt(skm.log_loss(t, s)),
        f"Top-{k} accuracy": fmt(skm.top_k_accuracy_score(t, s, k=k, labels=np.arange(len(s[0])))),
        "Macro ROC AUC (OvR)": fmt(skm.roc_auc_score(t, s, multi_class="ovr")),
    }


def test_headline_and_k_in_chromium(page: Page, app_url: str):
    page.goto(app_url + "/multiclass?ds=digits10")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="Multiclass classification")).to_be_visible()
    for label, value in _headline("digits10", 2).items():
        expect(metric_value(page, label)).to_have_text(value)
    page.locator(".st-key-mc_k").get_by_test_id("stNumberInputStepUp").click()
    wait_for_run(page)
    for label, value in _headline("digits10", 3).items():
        expect(metric_value(page, label)).to_have_text(value)
    expect(page).to_have_url(re.compile(r"[?&]k=3(&|$)"))
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_a_click_on_a_cell_lists_its_samples(page: Page, app_url: str):
    page.goto(app_url + "/multiclass?ds=iris")
    wait_for_run(page)
    chart = page.locator(".st-key-mc_cm_chart")
    chart.scroll_into_view_if_needed()
    area = chart.locator(".nsewdrag").first.bounding_box()
    i, j, K = 0, 1, 3  # true setosa, predicted versicolor
    page.mouse.click(
        area["x"] + (j + 0.5) * area["width"] / K, area["y"] + (i + 0.5) * area["height"] / K
    )
    wait_for_run(page)
    expect(page).to_have_url(re.compile(r"[?&]ct=setosa&cp=versicolor(&|$)"))
    expect(page.get_by_text("True setosa, predicted versicolor")).to_be_visible()
    expect(page.get_by_text("(wrong): 1 sample(s).")).to_be_visible()


def test_derivations_render_and_end_in_the_headline(page: Page, app_url: str):
    page.goto(app_url + "/multiclass?ds=iris")
    wait_for_run(page)
    for label, tex_start in (
        ("Macro F1", r"\text{Macro F1} = \frac{"),
        ("Log loss", r"\text{Log loss} = \frac{"),
        ("MCC", r"\text{MCC} = \frac{"),
    ):
        value = metric_value(page, label).inner_text()
        annotations = page.locator(".katex-mathml annotation").all_text_contents()
        line = next(a.strip() for a in annotations if a.strip().startswith(tex_start))
        assert line.endswith(f"= {value}"), (label, line)
    expect(page.locator(".katex-error")).to_have_count(0)


def test_an_upload_opens_as_multiclass(page: Page, app_url: str, tmp_path):
    path = tmp_path / "pets.csv"
    path.write_bytes(UPLOAD)
    page.goto(app_url + "/data")
    wait_for_run(page)
    page.locator('.st-key-data_upload_file input[type="file"]').set_input_files(path)
    wait_for_run(page)
    expect(page.get_by_text("multiclass (one class per sample)").first).to_be_visible()
    page.locator('[data-testid="stSidebarNavLink"]').filter(
        has_text="Multiclass classification"
    ).click()
    wait_for_run(page)
    expect(metric_value(page, "Accuracy")).to_have_text(fmt(0.8))  # the 4th cat reads as dog
    expect(metric_value(page, "Log loss")).to_have_text(
        fmt(
            skm.log_loss(
                [0, 2, 1, 0, 2],
                [
                    [0.7, 0.2, 0.1],
                    [0.3, 0.3, 0.4],
                    [0.2, 0.5, 0.3],
                    [0.4, 0.5, 0.1],
                    [0.1, 0.1, 0.8],
                ],
            )
        )
    )
    expect(page.get_by_test_id("stException")).to_have_count(0)
