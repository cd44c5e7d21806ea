"""explorer.launch from a notebook: a real server on the arrays, its page, its headline.

Streamlit draws in the browser, so the HTTP check is that the server answers the page's
address; the headline is read by AppTest running the same app on the same manifest.
"""

from __future__ import annotations

import urllib.request

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer import launch, opened
from explorer.formatting import fmt
from tests.conftest import APP, metric


@pytest.fixture
def server():
    yield
    launch.stop()  # the server launch() started, whatever the test did


def _get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as r:
        return r.status, r.read().decode()


def test_launch_serves_the_arrays_and_the_page_shows_their_headline(server, monkeypatch):
    rng = np.random.default_rng(31)
    y = rng.integers(0, 2, 200)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(200), 0, 1), 3)
    first = launch.launch(y, p, name="churn model")
    base = first.url.split("/curves?")[0]
    assert first.url == f"{base}/curves?ds=churn+model"  # binary opens ROC & PR curves
    assert base.startswith("http://127.0.0.1:")
    assert f'src="{first.url}"' in first._repr_html_()
    assert _get(f"{base}/_stcore/health") == (200, "ok")
    status, page = _get(first.url)
    assert status == 200 and "<title>" in page  # the app's page (drawn by the browser)

    # a second call reuses the server: one more dataset in its manifest
    grades = np.array([[3, 0, 1, 2], [0, 1, 0, 0]])
    scores = np.array([[0.5, 0.4, 0.1, 0.9], [0.3, 0.2, 0.8, 0.1]])
    second = launch.launch(grades, scores)
    assert second.url == f"{base}/dcg?ds=notebook+1"
    manifest = launch._SERVER.manifest
    assert [e.name for e in opened.read_manifest(manifest)] == ["churn model", "notebook 1"]

    monkeypatch.setenv(opened.ENV, str(manifest))
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params["ds"] = "churn model"
    at.run()
    assert not at.exception
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, p))
    assert metric(at, "Average precision") == fmt(metrics.average_precision_score(y, p))
    at.selectbox(key="dataset_picker").set_value("notebook 1").run()
    assert not at.exception
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(grades, scores))
