"""Real browser: the ROC & PR curves page's lesson on one screen. The threshold moves
with the slider, the arrow keys (from one distinct score to the next), a drag over the
score distribution and a click on a vertex of the selected model's curve; each redraws
the confusion matrix in the browser, in the event's own task (read back in the same
script call: no server round trip could have come in between), then the server's
numbers (headline, URL) agree. The headline, the threshold, the distribution, both
curves and the matrix share one screen at 1280x720 zoomed to 150% and at 1440x900, in
presentation mode, and a click on the other model's curve selects that model.

The slider, the distribution, the curves and the confusion matrix are the
operating-point component (views/curves/operating_point.py)."""

import re

import numpy as np
from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from tests.e2e.conftest import metric_value, wait_for_run

Y = np.array([1, 0, 1, 0, 0, 0])  # seed002_roc6
S = np.array([0.9, 0.7, 0.8, 0.6, 0.5, 0.4])


def _expect_counts(page: Page, t: float) -> None:
    """The server's headline and the component's matrix at ``t`` (seed002_roc6)."""
    pred = (S >= t).astype(int)
    (tp, fn), (fp, tn) = metrics.confusion_matrix(Y, pred, labels=[1, 0])
    for label, value in (("TP", tp), ("FP", fp), ("FN", fn), ("TN", tn)):
        expect(op(page, label)).to_have_text(str(value))
    expect(metric_value(page, "Precision")).to_have_text(fmt(metrics.precision_score(Y, pred)))
    expect(metric_value(page, "Accuracy")).to_have_text(fmt(metrics.accuracy_score(Y, pred)))


#: Runs one browser event on the component and reads its threshold and TP count back in
#: the same task: what it shows then was drawn without the server. ``[kind, arg]``:
#: ``key`` (a key name, on the slider), ``click`` (a ROC vertex: [model, index]),
#: ``drag`` (to the slider's i-th position, over the distribution: pointer down, move, up).
IN_FRAME = """([kind, arg]) => {
  const host = document.querySelector('.st-key-curves_operating_point');
  const root = host.querySelector('[data-testid=stBidiComponentIsolated]').shadowRoot;
  const read = () => [root.querySelector("[data-op='threshold']").textContent,
                      root.querySelector("[data-op='TP']").textContent];
  const at = (el, fx, fy) => { const r = el.getBoundingClientRect();
    return {clientX: r.left + fx * r.width, clientY: r.top + fy * r.height, bubbles: true,
            pointerId: 7, isPrimary: true}; };
  if (kind === 'key') {
    const input = root.querySelector('input[type=range]');
    input.dispatchEvent(new KeyboardEvent('keydown', {key: arg, bubbles: true}));
    const got = read();
    input.dispatchEvent(new KeyboardEvent('keyup', {key: arg, bubbles: true}));
    return got;
  }
  if (kind === 'click') {
    const v = root.querySelector(
      `.op-roc .op-vertices[data-model='${arg[0]}'] circle[data-i='${arg[1]}']`);
    root.querySelector('.op-roc svg').dispatchEvent(new MouseEvent('click', at(v, 0.5, 0.5)));
    return read();
  }
  const svg = root.querySelector('.op-dist svg');
  const r = svg.getBoundingClientRect(), inset = 9 * r.width / svg.viewBox.baseVal.width;
  const f = arg / Number(root.querySelector('input[type=range]').max);
  const x = r.left + inset + f * (r.width - 2 * inset), y = r.top + r.height / 2;
  const ev = {clientX: x, clientY: y, bubbles: true, pointerId: 7, isPrimary: true};
  svg.dispatchEvent(new PointerEvent('pointerdown', ev));
  svg.dispatchEvent(new PointerEvent('pointermove', ev));
  const got = read();
  window.dispatchEvent(new PointerEvent('pointerup', ev));
  return got;
}"""


def in_frame(page: Page, kind: str, arg) -> list[str]:
    """The component's threshold and TP count right after one event (:data:`IN_FRAME`)."""
    return page.evaluate(IN_FRAME, [kind, arg])


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
    # a screen reader is told the marked point's rates, as the matrix shows them
    shown = op(page, "threshold").inner_text()
    roc = page.locator(".st-key-curves_operating_point svg[role=img]").first
    said = f"at the threshold {shown}: FPR {fmt(r['fpr'])}, TPR {fmt(r['tpr'])}."
    expect(roc).to_have_attribute("aria-label", re.compile(rf"^ROC curve of .*{re.escape(said)}$"))


def test_keys_step_through_the_scores_and_a_roc_click_moves_the_matrix(page: Page, app_url: str):
    page.goto(app_url)  # a first visit lets app.py register its navigation
    wait_for_run(page)
    page.goto(app_url + "/curves?ds=seed002_roc6")
    wait_for_run(page)
    expect(page.get_by_role("heading", name="ROC & PR curves")).to_be_visible()
    _expect_counts(page, 0.5)  # TP 2, FP 3, FN 0, TN 1
    _expect_component(page, 0.5)
    op(page, "TP").evaluate("el => { el.dataset.mounted = 'before' }")

    # an arrow key goes to the next distinct score (0.6), not 0.01 up; at once
    assert in_frame(page, "key", "ArrowRight") == ["0.6", "2"]
    press_slider(page, "ArrowRight", 1)  # no wait between keys: 0.7
    expect(op(page, "threshold")).to_have_text("0.7")
    _expect_component(page, 0.7)  # TP 2, FP 1, FN 0, TN 3, in the browser
    wait_for_run(page)  # then the server's numbers agree
    _expect_counts(page, 0.7)
    # the reruns the keys started updated the component in place: no re-mount, no jump
    assert op(page, "TP").get_attribute("data-mounted") == "before"
    expect(metric_value(page, "Precision")).to_have_text("0.6667")
    expect(page.locator(".st-key-curves_threshold_number input")).to_have_value("0.7000")
    expect(page).to_have_url(re.compile(r"[?&]t=0\.7(&|$)"))
    expect(op(page, "threshold")).to_have_text("0.7")  # the rerun left the slider there
    press_slider(page, "ArrowLeft", 3)  # 0.6, 0.5, 0.4, and no lower: every score is >= 0.4
    press_slider(page, "ArrowLeft", 1)
    expect(op(page, "threshold")).to_have_text("0.4")
    _expect_component(page, 0.4)
    wait_for_run(page)

    # a click on the ROC vertex of threshold 0.8 (the model's third) moves the matrix at once
    assert in_frame(page, "click", ["model", 2]) == ["0.8", "2"]
    _expect_component(page, 0.8)  # TP 2, FP 0, FN 0, TN 4
    wait_for_run(page)
    _expect_counts(page, 0.8)
    expect(page).to_have_url(re.compile(r"[?&]t=0\.8(&|$)"))
    expect(op(page, "threshold")).to_have_text("0.8")
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


#: The lesson's parts that must share one screen, as selectors.
LESSON = {
    name: ".st-key-curves_operating_point " + selector
    for name, selector in {
        "threshold": "input[type='range']",
        "distribution": ".op-dist svg",
        "roc": ".op-roc svg",
        "pr": ".op-pr svg",
        "confusion matrix": ".op-cm",
    }.items()
}
HEADLINE = ("ROC AUC", "Average precision", "Log loss", "Precision", "Recall", "F1", "Accuracy")


def _box(page: Page, selector: str) -> dict:
    box = page.locator(selector).first.bounding_box()
    assert box is not None, selector
    return box


def _fits_one_screen(page: Page, width: int, height: int) -> dict:
    """Every part of the lesson inside the window, unscrolled; their boxes by name."""
    assert page.evaluate("window.scrollY") == 0
    boxes = {name: _box(page, selector) for name, selector in LESSON.items()}
    boxes.update({label: metric_value(page, label).bounding_box() for label in HEADLINE})
    for name, box in boxes.items():
        assert box["y"] >= 0 and box["y"] + box["height"] <= height, (name, box, width)
        assert box["x"] >= 0 and box["x"] + box["width"] <= width, (name, box, width)
    # the curves side by side, the threshold column beside them; no title cut
    assert abs(boxes["roc"]["y"] - boxes["pr"]["y"]) < 2
    assert boxes["roc"]["x"] + boxes["roc"]["width"] <= boxes["pr"]["x"]
    assert boxes["pr"]["x"] + boxes["pr"]["width"] <= boxes["distribution"]["x"]
    titles = page.locator(".st-key-curves_operating_point .op-title")
    for k in range(2):
        fits = titles.nth(k).evaluate(
            "t => t.getBBox().x + t.getBBox().width <= t.ownerSVGElement.viewBox.baseVal.width"
        )
        assert fits, titles.nth(k).text_content()
    # the legend names the models only: no AUC or AP in it ("Predict, then reveal")
    legend = page.locator(".st-key-curves_operating_point .op-legend").inner_text()
    assert "AUC" not in legend and "AP" not in legend and "0." not in legend, legend
    return boxes


#: Every tab row of the page: its labels and how far its tabs reach past its width.
TAB_ROWS = """() => [...document.querySelectorAll('.stMain [role=tablist]')].map(row => {
  const tabs = [...row.querySelectorAll('[role=tab]')];
  const right = Math.max(...tabs.map(t => t.getBoundingClientRect().right));
  return {labels: tabs.map(t => t.innerText.trim()), scroll: row.scrollWidth - row.clientWidth,
          past: right - row.getBoundingClientRect().right};
})"""


def _tab_rows_fit(page: Page) -> None:
    """Every tab label of both tab rows in view: no row scrolls sideways."""
    rows = page.evaluate(TAB_ROWS)
    assert any("Charts" in row["labels"] for row in rows), rows
    for row in rows:
        assert row["scroll"] <= 0 and row["past"] <= 0.5, row


def test_the_lesson_fits_one_screen_at_both_sizes(sized, app_url: str):
    """1280x720 at 150% (853x480 CSS px) and 1440x900, in presentation mode: headline,
    threshold, distribution, both curves and the matrix on screen, and every tab label of
    both tab rows without a sideways scroll; at 853 the drag over
    the distribution moves the matrix at once, at 1440 a click on the other model's
    curve selects that model."""
    from explorer.samples import load_sample

    ds = load_sample("balanced")
    y, good = ds.y_true, ds.score("good")
    small = sized(853, 480, 1.5)
    small.goto(app_url + "/curves?ds=balanced&present=1")  # two models: the model box too
    wait_for_run(small)
    expect(op(small, "TP")).to_have_text("84")
    boxes = _fits_one_screen(small, 853, 480)
    assert boxes["roc"]["height"] >= 180  # not shrunk out of sight
    _tab_rows_fit(small)
    # drag the threshold over the distribution to 0.65 (the grid's 65th): the matrix follows
    want = int(((good >= 0.65) & (y == 1)).sum())
    assert in_frame(small, "drag", 65) == ["0.65", str(want)]
    _expect_component(small, 0.65, y, good)
    wait_for_run(small)
    expect(small).to_have_url(re.compile(r"[?&]t=0\.65(&|$)"))
    pred = (good >= 0.65).astype(int)
    expect(metric_value(small, "Precision")).to_have_text(fmt(metrics.precision_score(y, pred)))
    # an arrow key: the lowest score above 0.65
    nxt = float(good[good > 0.65].min())
    assert in_frame(small, "key", "ArrowRight")[0] == f"{nxt:.4g}"
    _expect_component(small, nxt, y, good)
    wait_for_run(small)
    expect(small.locator(".st-key-curves_threshold_number input")).to_have_value(f"{nxt:.4f}")

    # "Predict, then reveal": the Reveal button in the headline row, the lesson on screen
    hidden = sized(853, 480, 1.5)
    hidden.goto(app_url + "/curves?ds=balanced&present=1&reveal=0")
    wait_for_run(hidden)
    expect(metric_value(hidden, "ROC AUC")).to_have_text("?")
    reveal = hidden.locator(".st-key-curves_reveal button")
    boxes = _fits_one_screen(hidden, 853, 480) | {"reveal": reveal.bounding_box()}
    assert boxes["reveal"]["y"] + boxes["reveal"]["height"] <= 480, boxes["reveal"]
    assert boxes["reveal"]["x"] + boxes["reveal"]["width"] <= 853, boxes["reveal"]
    reveal.click()
    wait_for_run(hidden)
    auc = metrics.roc_auc_score(y, good)
    expect(metric_value(hidden, "ROC AUC")).to_have_text(fmt(auc))

    wide = sized(1440, 900)
    wide.goto(app_url + "/curves?ds=balanced&present=1")
    wait_for_run(wide)
    boxes = _fits_one_screen(wide, 1440, 900)
    assert boxes["roc"]["height"] >= 300
    _tab_rows_fit(wide)
    # the weak model's 40th ROC vertex: its hover, then a click selects that model
    model_box = wide.get_by_role("combobox", name="Model")
    expect(model_box).to_have_value("Model: good")
    point = vertex(wide, "roc", "weak", 40)
    fpr, tpr, thresholds = metrics.roc_curve(y, ds.score("weak"), drop_intermediate=False)
    want = float(thresholds[40])
    box = point.bounding_box()
    wide.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    tip = wide.locator(".st-key-curves_operating_point .op-roc .op-tip text")
    expect(tip).to_have_text(f"weak: threshold {want:.4g}, FPR {fpr[40]:.3f}, TPR {tpr[40]:.3f}")
    wide.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    expect(model_box).to_have_value("Model: weak", timeout=30_000)
    wait_for_run(wide)
    expect(wide.locator(".st-key-curves_threshold_number input")).to_have_value(f"{want:.4f}")
    s = ds.score("weak")
    expect(metric_value(wide, "ROC AUC")).to_have_text(fmt(metrics.roc_auc_score(y, s)))
    expect(wide).to_have_url(re.compile(r"[?&]model=weak"))
    _expect_component(wide, want, y, s)  # the weak model's counts at that exact threshold
    expect(op(wide, "threshold")).to_have_text(f"{want:.4g}")
    expect(wide.get_by_test_id("stException")).to_have_count(0)


def test_copy_link_holds_the_threshold_a_panel_rerun_set(page: Page, app_url: str):
    """The threshold panel reruns alone (a fragment); the sidebar's link box follows the
    address all the same, and opened fresh it shows the same numbers."""
    page.goto(app_url + "/curves?ds=seed002_roc6")
    wait_for_run(page)
    press_slider(page, "ArrowRight", 2)  # the next two distinct scores: 0.6, 0.7
    expect(op(page, "threshold")).to_have_text("0.7")
    wait_for_run(page)
    expect(page).to_have_url(re.compile(r"[?&]t=0\.7"))
    page.get_by_role("button", name=re.compile("Copy link")).first.click()
    code = page.locator("[class*=st-key-share_link] code").first
    expect(code).to_contain_text("t=0.7")
    link = code.inner_text().strip()
    page.goto(link)
    wait_for_run(page)
    _expect_counts(page, 0.7)


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
