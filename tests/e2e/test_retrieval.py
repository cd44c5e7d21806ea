"""Real browser: the Top-K retrieval page opens by link and follows the K slider."""

from playwright.sync_api import Page, expect

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.e2e.conftest import wait_for_run


def metric_value(page: Page, label: str):
    """Like conftest.metric_value, but the label must match exactly ("P@K" is in "MAP@K")."""
    return (
        page.locator('[data-testid="stMetric"]')
        .filter(has=page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True))
        .locator('[data-testid="stMetricValue"]')
    )


def test_k_slider_moves_precision_at_k(page: Page, app_url: str):
    page.goto(app_url + "/retrieval?ds=diabetes_ranking")
    wait_for_run(page)
    ds = load_sample("diabetes_ranking")
    expect(metric_value(page, "P@K")).to_have_text(
        fmt(metrics.precision_at_k(ds.y_true, ds.score(), k=5))
    )
    page.get_by_role("slider", name="K (cut-off)").focus()
    page.keyboard.press("ArrowRight")
    wait_for_run(page)
    expect(metric_value(page, "P@K")).to_have_text(
        fmt(metrics.precision_at_k(ds.y_true, ds.score(), k=6))
    )
    expect(metric_value(page, "MAP@K")).to_have_text(
        fmt(metrics.mean_average_precision_at_k(ds.y_true, ds.score(), k=6))
    )
    assert "k=6" in page.url
    expect(page.get_by_test_id("stException")).to_have_count(0)


def test_seed002_opens_with_the_worked_example(page: Page, app_url: str):
    page.goto(app_url + "/retrieval?ds=seed002_map")
    wait_for_run(page)
    expect(metric_value(page, "MAP@K")).to_have_text("0.6278")
    expect(metric_value(page, "P@K")).to_have_text("0.5000")
    expect(page.get_by_test_id("stException")).to_have_count(0)


#: The drawn lines and the K marker of the metric-against-K chart (plotly's own state).
_CURVE = """() => {
  const gd = document.querySelector('.st-key-ret_curve_chart .js-plotly-plot');
  const map = gd.calcdata.find(c => c[0].trace.name === 'MAP@K');
  return {k: gd._fullLayout.shapes[0].x0, map: map.map(p => p.y)};
}"""


def test_the_curve_draws_its_k_line_and_the_lines_of_the_conventions(page: Page, app_url: str):
    """What plotly drew: the K line follows the slider, and after a convention that
    moves the lines the MAP@K line is the new curve of metrics (the K line stays)."""
    page.goto(app_url + "/retrieval?ds=diabetes_ranking")
    wait_for_run(page)
    ds = load_sample("diabetes_ranking")
    y, s, m = ds.y_true, ds.score(), ds.n_labels

    def drawn_map(**kw):
        want = metrics.retrieval_curve(y, s, k_max=m, **kw)["MAP@K"].tolist()
        page.wait_for_function(
            f"() => ({_CURVE})().map.every((v, i) => Math.abs(v - {want}[i]) < 1e-12)"
        )

    drawn_map(max_grade=float(y.max()))
    page.get_by_role("slider", name="K (cut-off)").focus()
    page.keyboard.press("ArrowRight")
    wait_for_run(page)
    page.wait_for_function(f"() => ({_CURVE})().k === 6")
    drawn_map(max_grade=float(y.max()))
    page.locator(".st-key-ret_ap_denominator").click()
    page.get_by_role("option", name="M, all relevant items").click()
    wait_for_run(page)
    drawn_map(denominator="relevant", max_grade=float(y.max()))
    assert page.evaluate(_CURVE)["k"] == 6
    expect(page.get_by_test_id("stException")).to_have_count(0)
