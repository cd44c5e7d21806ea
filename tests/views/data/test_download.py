"""The Data page's downloads and shared links (AppTest)."""

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.conftest import APP, metric
from tests.views.data.conftest import GOOD, open_data_page


def test_shared_inline_link_reproduces_an_upload():
    first = open_data_page()
    first.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    token = first.query_params["data"]
    token = token[0] if isinstance(token, list) else token
    fresh = AppTest.from_file(APP, default_timeout=30)
    fresh.query_params["data"] = token
    fresh.run()
    assert not fresh.exception
    y, s = np.array([0, 1, 0, 1, 1]), np.array([0.1, 0.8, 0.35, 0.4, 0.9])
    assert metric(fresh, "ROC AUC") == fmt(metrics.roc_auc_score(y, s))


def test_damaged_link_shows_an_error_and_the_default_sample():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["data"] = "garbage"
    at.run()
    assert not at.exception
    assert "damaged" in at.error[0].value
    assert at.session_state["active_dataset"] == "balanced"


def test_downloads_are_built_on_the_click_and_hold_every_row(deferred_downloads):
    import io as _io

    import pandas as pd

    def csv_of(key):
        data = deferred_downloads(key)
        return pd.read_csv(_io.StringIO(data if isinstance(data, str) else data.decode()))

    open_data_page("seed002_auc8")
    ds = load_sample("seed002_auc8")
    table = csv_of("download_csv")
    assert len(table) == ds.n_samples
    np.testing.assert_array_equal(table["y_true"], ds.y_true)
    np.testing.assert_allclose(table["score_model"], ds.score())
    open_data_page("seed003_lrap")
    ds = load_sample("seed003_lrap")
    labels, scores = csv_of("download_labels"), csv_of("download_scores")
    assert labels.columns.tolist() == list(ds.label_names)
    np.testing.assert_array_equal(labels.to_numpy(), ds.y_true)
    np.testing.assert_allclose(scores.to_numpy(), ds.score())


def test_downloads_neutralise_formula_ids_but_keep_negative_numbers(deferred_downloads):
    """OWASP CSV injection: an id a spreadsheet would run as a formula gets a quote."""
    at = open_data_page()
    data = b"id,y_true,y_score\n=HYPERLINK(1),0,-1.5\n@SUM(A1),1,0.8\n-7,0,0.35\n+x,1,0.4\n"
    at.file_uploader(key="data_upload_file").upload("f.csv", data, "text/csv").run()
    assert not at.exception and not at.error
    text = deferred_downloads("download_csv")
    text = text if isinstance(text, str) else text.decode()
    rows = [line.split(",") for line in text.splitlines()]
    ids = [r[rows[0].index("id")] for r in rows[1:]]
    assert ids == ["'=HYPERLINK(1)", "'@SUM(A1)", "-7", "'+x"]
    assert rows[0][:2] == ["id", "y_true"] and rows[1][2] == "-1.5"
