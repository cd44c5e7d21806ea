""" "Download this view" in AppTest: the sidebar button's HTML holds each page's
headline numbers, as metrics computes them, its charts and its settings; under
"Predict, then reveal" the hidden numbers stay out of it."""

from __future__ import annotations

import re

import metrics
from explorer.formatting import fmt, short
from explorer.samples import load_sample
from explorer.ui import classroom
from tests.conftest import open_page


def _headline(html: str, label: str) -> str:
    m = re.search(
        rf'<div class="label">{re.escape(label)}</div><div class="value">([^<]*)</div>', html
    )
    return m.group(1) if m else ""


def _switch(at, sample: str, page: str) -> None:
    at.selectbox(key="dataset_picker").set_value(sample).run()
    at.switch_page(page).run()
    assert not at.exception


def test_the_view_download_holds_each_pages_numbers(view_download):
    at = open_page("views/curves/curves.py")
    html = view_download()
    ds = load_sample("balanced")
    assert _headline(html, "ROC AUC") == fmt(metrics.roc_auc_score(ds.y_true, ds.score()))
    assert _headline(html, "Average precision") == fmt(
        metrics.average_precision_score(ds.y_true, ds.score())
    )
    # the component's two curves, as plotly figures; the library inlined once
    assert html.count('<div class="plotly-figure"') == 2 and html.count('id="plotly-lib"') == 1
    assert "<th>ds</th><td>balanced</td>" in html and "<th>Samples</th><td>200</td>" in html
    assert len(html.encode()) < 2_000_000

    _switch(at, "seed001_dcg", "views/dcg/dcg.py")
    html = view_download()
    ds = load_sample("seed001_dcg")
    assert _headline(html, "NDCG") == fmt(metrics.ndcg_score(ds.y_true, ds.score()))
    assert _headline(html, "DCG") == fmt(metrics.dcg_score(ds.y_true, ds.score()))
    assert "<title>Metric Explorer: DCG &amp; NDCG</title>" in html

    _switch(at, "diabetes", "views/regression/regression.py")
    ds = load_sample("diabetes")
    mae = fmt(metrics.mean_absolute_error(ds.y_true, ds.score()))
    html = view_download()
    assert _headline(html, "MAE") == mae
    # every plotly chart has its numbers as its text alternative (the chart's aria-label):
    # the scatter of each prediction against its truth, read by its size and spans
    alts = [c.proto.alt for c in at.get("plotly_chart")]
    assert alts and all(alts)
    y = ds.y_true
    assert (
        f"{ds.model_names[0]}: {len(y)} points, horizontal from {short(y.min())} to "
        f"{short(y.max())}" in alts[0]
    )
    assert html.count('role="figure" aria-label="') == html.count('<div class="plotly-figure"')
    assert "How the numbers are computed" in html and f"= {mae}</code>" in html

    at.toggle(key=classroom.PREDICT_TOGGLE).set_value(True).run()
    html = view_download()
    assert _headline(html, "MAE") == classroom.HIDDEN
    assert mae not in html and "How the numbers are computed" not in html
    assert "hid the numbers of this view" in html


def test_a_view_downloaded_in_chinese_has_chinese_headings_and_the_same_numbers(view_download):
    at = open_page("views/dcg/dcg.py", "seed001_dcg", lang="zh")
    html = view_download()
    ds = load_sample("seed001_dcg")
    assert '<html lang="zh">' in html and "<h2>主要指标</h2>" in html
    assert "<title>指标探索器: DCG 与 NDCG</title>" in html
    assert "<th>样本数</th><td>2</td>" in html and "<th>类型</th>" in html
    values = re.findall(r'<div class="value">([^<]*)</div>', html)
    assert fmt(metrics.ndcg_score(ds.y_true, ds.score())) in values
    assert fmt(metrics.dcg_score(ds.y_true, ds.score())) in values
    at.sidebar.selectbox(key="language_picker").set_value("en").run()
    html = view_download()
    assert '<html lang="en">' in html and "<h2>Headline numbers</h2>" in html
