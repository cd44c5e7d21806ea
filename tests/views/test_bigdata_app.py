"""The host's big Parquet data in the app (METRIC_EXPLORER_BIG_DATA), through AppTest."""

from __future__ import annotations

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from streamlit.testing.v1 import AppTest

import metrics as M
from explorer import bigdata
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import APP, metric, rendered

N, SAMPLE = 30_000, 4_000
NAME = "clicks (big)"


@pytest.fixture(scope="module")
def big_file(tmp_path_factory):
    rng = np.random.default_rng(44)
    y = rng.integers(0, 2, N).astype(np.int8)
    p = np.round(np.clip(0.25 * y + 0.75 * rng.random(N), 0, 1), 4)
    path = tmp_path_factory.mktemp("host") / "clicks.parquet"
    pq.write_table(pa.table({"clicked": y, "p": p}), path, row_group_size=7_000)
    return path, y, p


@pytest.fixture
def host(big_file, monkeypatch):
    path, *_ = big_file
    monkeypatch.setenv(
        bigdata.ENV, f"{path},name={NAME},y_true=clicked,score=p,sample={SAMPLE},seed=3"
    )
    return big_file


def captions(at) -> str:
    return "\n".join(rendered(c.value) for c in [*at.caption, *at.sidebar.caption])


def test_home_shows_the_exact_numbers_of_the_whole_file_and_the_sample_size(host):
    _, y, p = host
    at = AppTest.from_file(APP, default_timeout=60).run()
    picker = at.selectbox(key="dataset_picker")
    assert NAME in picker.options or f"{NAME} (big data, sampled)" in picker.options
    picker.set_value(NAME).run()
    assert not at.exception
    assert metric(at, "ROC AUC") == fmt(M.roc_auc_score(y, p))
    assert metric(at, "Average precision") == fmt(M.average_precision_score(y, p))
    assert metric(at, "Log loss") == fmt(M.log_loss(y, p))
    text = captions(at)
    assert "Exact over all 30,000 rows" in text
    assert "a uniform sample of 4,000 of the 30,000 rows" in text
    assert "a uniform sample of 4,000 of 30,000 rows" in text  # the sidebar
    assert at.query_params["ds"] in ([NAME], NAME)  # a link names it, never its path


def test_a_link_names_the_host_data_by_name(host):
    _, y, p = host
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ds"] = NAME
    at.run()
    assert not at.exception
    assert metric(at, "ROC AUC") == fmt(M.roc_auc_score(y, p))


def test_in_chinese_the_sample_is_described_in_chinese(host):
    # the data's description (a uniform sample of N of M rows, exact headline over all)
    # is the app's sentence, not the visitor's text: it follows the page's language
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ds"] = NAME
    at.query_params["lang"] = "zh"
    at.run()
    assert not at.exception
    text = captions(at)
    assert "从全部 30,000 行中均匀随机抽取的 4,000 行（种子 3）" in text
    assert "A uniform random sample" not in text


@pytest.mark.parametrize("wanted", ["/etc/passwd", "PATH", "file:///etc/passwd", "../clicks"])
def test_a_visitor_cannot_open_a_path(host, wanted):
    path, *_ = host
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ds"] = str(path) if wanted == "PATH" else wanted
    at.run()
    assert not at.exception
    assert "does not exist here" in rendered(at.warning[0].value)
    assert (
        rendered(at.subheader[0].value) == f"Active dataset: {load_sample('balanced').shown_name}"
    )
    assert at.query_params["ds"] in (["balanced"], "balanced")


def test_without_the_variable_no_big_data_is_offered(monkeypatch):
    monkeypatch.delenv(bigdata.ENV, raising=False)
    at = AppTest.from_file(APP, default_timeout=60).run()
    assert not any("big data" in o for o in at.selectbox(key="dataset_picker").options)


def test_data_the_host_misnamed_falls_back_with_a_message(big_file, monkeypatch):
    path, *_ = big_file
    monkeypatch.setenv(bigdata.ENV, f"{path},name=broken,y_true=nope,score=p")
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="dataset_picker").set_value("broken").run()
    assert not at.exception
    assert "cannot be opened right now" in rendered(at.error[0].value)
    assert str(path) not in rendered(at.error[0].value)  # the host's path stays in the log
    assert (
        rendered(at.subheader[0].value) == f"Active dataset: {load_sample('balanced').shown_name}"
    )


@pytest.mark.parametrize("page", [script("data"), script("curves"), script("compare")])
def test_the_other_pages_show_the_sample_without_a_traceback(host, page):
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ds"] = NAME
    at.run()
    at.switch_page(page).run()
    assert not at.exception
    assert "a uniform sample of 4,000 of 30,000 rows" in captions(at)


def test_the_curves_page_states_the_exact_numbers_over_every_row(host):
    _, y, p = host
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ds"] = NAME
    at.run()
    at.switch_page(script("curves")).run()
    assert not at.exception
    note = next(
        rendered(i.value)
        for i in at.info
        if rendered(i.value).startswith("Exact over all 30,000 rows")
    )
    assert f"ROC AUC {fmt(M.roc_auc_score(y, p))}" in note
    assert f"Average precision {fmt(M.average_precision_score(y, p))}" in note
    assert "uniform sample of 4,000 of the 30,000 rows" in note
