"""The Data page's editor: edits become a new dataset, refused edits keep the data,
a big dataset is edited a window at a time (AppTest)."""

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import APP, metric, rendered
from tests.views.data.conftest import open_data_page
from tests.views.reveal_texts import code_names, headers


def test_editing_a_label_creates_an_edited_dataset():
    at = open_data_page("seed002_auc8")
    # the table a class reads heads its columns in words; the edits keep the code names
    assert headers(at)[:3] == ["id", "true label", "score of model"]
    assert code_names(at, load_sample("seed002_auc8")) == []
    at.session_state["data_editor_table"] = {
        "edited_rows": {1: {"y_true": 1}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    at.button(key="data_apply_edits").click().run()
    assert not at.exception
    assert at.session_state["active_dataset"] == "seed002_auc8 (edited)"
    at.switch_page(script("home")).run()
    ds = load_sample("seed002_auc8")
    y = ds.y_true.copy()
    y[1] = 1
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, ds.score()))


def test_editing_a_bad_label_is_refused_and_data_kept():
    at = open_data_page("seed002_auc8")
    at.session_state["data_editor_table"] = {
        "edited_rows": {2: {"y_true": 2}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    at.button(key="data_apply_edits").click().run()
    assert not at.exception
    assert 'row 2, column "y_true": 2 is not 0 or 1' in rendered(at.error[0].value)
    assert at.session_state["active_dataset"] == "seed002_auc8"


def test_matrix_editor_removes_a_row():
    at = open_data_page("seed003_lrap")
    at.session_state["data_editor_labels"] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": [0],
    }
    at.session_state["data_editor_scores"] = {
        "edited_rows": {},
        "added_rows": [],
        "deleted_rows": [0],
    }
    at.run()
    at.button(key="data_apply_edits").click().run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "2"
    at.switch_page(script("home")).run()
    ds = load_sample("seed003_lrap")
    expected = metrics.label_ranking_average_precision_score(ds.y_true[1:], ds.score()[1:])
    assert metric(at, "LRAP") == fmt(expected)


def test_editing_a_window_of_a_big_dataset_splices_it_back():
    """Past 500 rows the editor shows one window; an edit there lands on the right row."""
    from explorer.datasets import Dataset

    rng = np.random.default_rng(0)
    n = 1200
    y = (rng.random(n) < 0.4).astype(float)
    s = rng.random(n)
    ds = Dataset("big", "binary", y, {"model": s})
    at = AppTest.from_file(APP, default_timeout=30)
    at.session_state["session_datasets"] = {"big": ds}
    at.session_state["active_dataset"] = "big"
    at.run()
    at.switch_page(script("data")).run()
    assert not at.exception
    at.number_input(key="data_editor_window_start").set_value(500).run()
    assert "editing rows 500 to 999" in rendered(at.info[0].value)
    flipped = 1.0 - y[503]
    at.session_state["data_editor_table"] = {
        "edited_rows": {3: {"y_true": flipped}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    at.button(key="data_apply_edits").click().run()
    assert not at.exception
    assert at.session_state["active_dataset"] == "big (edited)"
    at.switch_page(script("home")).run()
    expected = y.copy()
    expected[503] = flipped
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(expected, s))
    assert metric(at, "ROC AUC") != fmt(metrics.roc_auc_score(y, s))
