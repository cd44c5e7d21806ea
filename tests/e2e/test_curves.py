"""Real browser: move the threshold of the ROC & PR curves page with the keyboard
and by clicking a ROC vertex; the confusion matrix on screen follows. The threshold,
both curves and the confusion matrix share one 1440 x 900 screen, and a click on the
other model's curve selects that model.

The slider, the curves and the confusion matrix are the operating-point component
(views/curves/operating_point.py): its numbers change in the browser, before the server
reruns; then the server's numbers (headline, URL) agree with them."""

import re

import numpy as np
import pytest
from playwright.sync_api import Browser, Page, expect

import metrics
from explorer.formatting import fmt
from tests.e2e.conftest import metric_value, wait_for_run

Y = np.array([1, 0, 1, 0, 0, 0])  # seed002_roc6
S = np.array([0.9, 0.7, 0.8, 0.6, 0.5, 0.4])


def _expect_counts(page: Page, t: float) -> None:
    pred = (S >= t).astype(int)
    (tp, fn), (fp, tn) = metrics.confusion_matrix(Y, pred, labels=[1, 0])
    for label, value in (("TP", tp), ("FP", fp), ("FN", fn), ("TN", tn)):
        expect(metric_value(page, label)).to_have_text(str(value))
    expect(metric_value(page, "Precision")).to_have_text(fmt(metrics.precision_score(Y, pred)))
    expect(metric_value(page, "Accuracy")).to_have_text(fmt(metrics.accuracy_score(Y, pred)))


def op(page: Page, name: str):
    """A number of the operating-point component: ``threshold``, a count (``TP``), a
    cell's rate in brackets (``TP-rate``) or a rate (``precision``, ``fpr``, ...)."""
    return page.locator(f".st-key-curves_operating_point [data-op='{name}']")


def press_slider(page: Page, arrow: str, times: int) -> None:
    """Press ``arrow`` on the component's threshold slider ``times`` times, as fast as
    the keyboard goes (each key moves the operating point in the browser)."""
    page.get_by_role("slider", name="Threshold", exact=True).focus()
    for _ in range(times):
        page.keyboard.press(arrow)


def _expect_component(page: Page, t: float, y=Y, s=S, w=None) -> None:
    """The component's counts and rates at ``t`` are metrics' at ``t``."""
    pred = (np.asarray(s) >= t).astype(int)
    r = metrics.rates_at_threshold(y, s, t, sample_weight=w)
    (tp, fn), (fp, tn) = metrics.confusion_matrix(y, pred, labels=[1, 0], sample_weight=w)
    for label, value in (("TP", tp), ("FP", fp), ("FN", fn), ("TN", tn)):
        expect(op(page, label)).to_have_text(str(value))
    kw = dict(sample_weight=w, zero_division=0.0)
    for name, value in (
        ("precision", metrics.precision_score(y, pred, **kw)),
        ("recall", metrics.recall_score(y, pred, **kw)),
        ("f1", metrics.f1_score(y, pred, **kw)),
        ("accuracy", metrics.accuracy_score(y, pred, sample_weight=w)),
        ("fpr", r["fpr"]),
        ("error_rate", r["error_rate"]),
    ):
        expect(op(page, name)).to_have_text(fmt(value))
    rates = metrics.confusion_matrix(y, pred, labels=[1, 0], normalize="true")
    expect(op(page, "FP-rate")).to_have_text(f"({rates[1, 0]:.1%})")


def test_keyboard_slider_and_roc_click_move_the_confusion_matrix(page: Page, app_url: str):
    page.goto(app_url)  # a first visit lets app.py register its navigation
    wait_for_run(page)
    page.goto(app_url + "/curves?ds=seed002_roc6")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="ROC & PR curves")).to_be_visible()
    _expect_counts(page, 0.5)  # TP 2, FP 3, FN 0, TN 1

    _expect_component(page, 0.5)
    op(page, "TP").evaluate("el => { el.dataset.mounted = 'before' }")
    press_slider(page, "ArrowRight", 15)  # 0.01 per key, no wait between keys
    expect(op(page, "threshold")).to_have_text("0.65")
    _expect_component(page, 0.65)  # TP 2, FP 1, FN 0, TN 3, in the browser
    wait_for_run(page)  # then the server's numbers agree
    _expect_counts(page, 0.65)
    # the reruns the keys started updated the component in place: no re-mount, no jump
    assert op(page, "TP").get_attribute("data-mounted") == "before"
    expect(metric_value(page, "Precision")).to_have_text("0.6667")
    expect(page.locator(".st-key-curves_threshold_number input")).to_have_value("0.6500")
    expect(page.get_by_test_id("stTable")).to_contain_text("FP 1 (25.0%)")
    expect(page).to_have_url(re.compile(r"[?&]t=0\.65"))

    expect(op(page, "threshold")).to_have_text("0.65")  # the rerun left the slider there
    # click the ROC vertex of threshold 0.8 (the third vertex of the model's curve)
    point = vertex(page, "roc", "model", 2)
    box = point.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(op(page, "threshold")).to_have_text("0.80")
    wait_for_run(page)
    _expect_counts(page, 0.8)  # TP 2, FP 0, FN 0, TN 4
    _expect_component(page, 0.8)
    expect(page.get_by_test_id("stException")).to_have_count(0)

    # click the TN cell of the confusion matrix: the samples in it are listed
    page.get_by_role("tab", name="Samples of a cell").click()
    cm = page.locator(".st-key-curves_cm_chart")
    cm.scroll_into_view_if_needed()
    tn_cell = cm.locator(".scatterlayer .point").nth(3)  # cells in order TP, FN, FP, TN
    box = tn_cell.bounding_box()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    wait_for_run(page)
    expect(page.get_by_text("4 samples are TN at threshold 0.8")).to_be_visible()
    expect(page.get_by_test_id("stException")).to_have_count(0)


def vertex(page: Page, chart: str, model: str, i: int):
    """The i-th vertex of ``model``'s curve on the component's ``chart`` (roc, pr)."""
    return page.locator(
        f".st-key-curves_operating_point .op-{chart} .op-vertices[data-model='{model}'] circle"
    ).nth(i)


@pytest.fixture
def wide(browser: Browser):
    """A page in a 1440 x 900 window, the size the issue was measured at."""
    context = browser.new_context(viewport={"width": 1440, "height": 900})
    yield context.new_page()
    context.close()


def _box(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def test_slider_curves_and_confusion_matrix_fit_one_1440x900_screen(wide: Page, app_url: str):
    wide.goto(app_url)
    wait_for_run(wide)
    wide.goto(app_url + "/curves?ds=balanced")  # two models: the model box is drawn too
    wait_for_run(wide)
    expect(metric_value(wide, "TP")).to_have_text("84")
    assert wide.evaluate("window.scrollY") == 0
    boxes = {
        name: _box(wide, selector)
        for name, selector in {
            "slider": ".st-key-curves_operating_point input[type='range']",
            "roc": ".st-key-curves_operating_point .op-roc svg",
            "pr": ".st-key-curves_operating_point .op-pr svg",
            "confusion table": ".st-key-curves_operating_point .op-cm",
            "TP": ".st-key-curves_operating_point [data-op='TP']",
            "FPR": ".st-key-curves_operating_point [data-op='fpr']",
            "error rate": ".st-key-curves_operating_point [data-op='error_rate']",
            "optimize buttons": ".st-key-curves_go_precision_at_least",
            "model": ".st-key-curves_model",
        }.items()
    }
    for label in ("ROC AUC", "Average precision", "Precision", "Recall", "F1", "Accuracy"):
        boxes[label] = metric_value(wide, label).bounding_box()
    for name, box in boxes.items():
        assert box["y"] >= 0 and box["y"] + box["height"] <= 900, (name, box)
        assert box["x"] >= 0 and box["x"] + box["width"] <= 1440, (name, box)
    # the curves side by side, the confusion matrix beside them
    assert abs(boxes["roc"]["y"] - boxes["pr"]["y"]) < 2
    assert boxes["roc"]["x"] + boxes["roc"]["width"] <= boxes["pr"]["x"]
    assert boxes["pr"]["x"] + boxes["pr"]["width"] <= boxes["confusion table"]["x"]
    assert boxes["roc"]["height"] >= 300  # not shrunk to fit


def test_a_click_on_the_other_models_curve_selects_that_model(wide: Page, app_url: str):
    from explorer.samples import load_sample

    ds = load_sample("balanced")
    wide.goto(app_url)
    wait_for_run(wide)
    wide.goto(app_url + "/curves?ds=balanced")
    wait_for_run(wide)
    model_box = wide.get_by_role("combobox", name="Model")
    expect(model_box).to_have_value("good")
    # the weak model's 40th ROC vertex
    point = vertex(wide, "roc", "weak", 40)
    fpr, tpr, thresholds = metrics.roc_curve(ds.y_true, ds.score("weak"), drop_intermediate=False)
    want = float(thresholds[40])
    box = point.bounding_box()
    wide.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip = wide.locator(".st-key-curves_operating_point .op-roc .op-tip text")
    expect(tip).to_have_text(f"weak: threshold {want:.4g}, FPR {fpr[40]:.3f}, TPR {tpr[40]:.3f}")
    wide.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(model_box).to_have_value("weak", timeout=30_000)
    wait_for_run(wide)
    expect(wide.locator(".st-key-curves_threshold_number input")).to_have_value(f"{want:.4f}")
    y, s = ds.y_true, ds.score("weak")
    pred = (s >= want).astype(int)
    expect(metric_value(wide, "ROC AUC")).to_have_text(fmt(metrics.roc_auc_score(y, s)))
    expect(metric_value(wide, "TP")).to_have_text(str(int(((pred == 1) & (y == 1)).sum())))
    expect(metric_value(wide, "FPR")).to_have_text(fmt(fpr[40]))
    expect(wide).to_have_url(re.compile(r"[?&]model=weak"))
    # the component shows the weak model's counts at that exact threshold
    _expect_component(wide, want, y, s)
    expect(op(wide, "threshold")).to_have_text(f"{want:.4g}")
    expect(wide.get_by_test_id("stException")).to_have_count(0)


def test_copy_link_holds_the_threshold_a_panel_rerun_set(page: Page, app_url: str):
    """The threshold panel reruns alone (a fragment); the sidebar's link box follows the
    address all the same, and opened fresh it shows the same numbers."""
    page.goto(app_url + "/curves?ds=seed002_roc6")
    wait_for_run(page)
    press_slider(page, "ArrowRight", 15)
    expect(op(page, "threshold")).to_have_text("0.65")
    wait_for_run(page)
    expect(page).to_have_url(re.compile(r"[?&]t=0\.65"))
    page.get_by_role("button", name=re.compile("Copy link")).first.click()
    code = page.locator("[class*=st-key-share_link] code").first
    expect(code).to_contain_text("t=0.65")
    link = code.inner_text().strip()
    page.goto(link)
    wait_for_run(page)
    _expect_counts(page, 0.65)


def test_a_slow_drag_reports_on_the_way_and_ends_where_it_is_released(page: Page, app_url: str):
    """While the slider is dragged, the component reports every 250 ms; the reruns
    those reports start never pull the thumb back, and the release is the threshold
    the server keeps."""
    page.goto(app_url + "/curves?ds=seed002_roc6")
    wait_for_run(page)
    track = page.get_by_role("slider", name="Threshold", exact=True)
    box = track.bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + box["width"] * 0.5, y)
    page.mouse.down()
    for k in range(1, 13):  # ~1.2 s from the middle to 85% of the track
        page.mouse.move(box["x"] + box["width"] * (0.5 + 0.03 * k), y, steps=2)
        page.wait_for_timeout(100)
    shown = op(page, "threshold").inner_text()
    page.mouse.up()
    t = float(shown)
    assert 0.7 < t < 0.95
    wait_for_run(page)
    expect(op(page, "threshold")).to_have_text(shown)  # no jump back to a reported value
    expect(page).to_have_url(re.compile(rf"[?&]t={re.escape(repr(t))}(&|$)"))
    expect(page.locator(".st-key-curves_threshold_number input")).to_have_value(f"{t:.4f}")
    _expect_counts(page, t)
    _expect_component(page, t)
