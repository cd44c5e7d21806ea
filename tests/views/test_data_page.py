"""AppTest tests for the Data page and the sidebar picker."""

import numpy as np
import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.registry import script
from explorer.samples import load_sample
from tests.conftest import APP, metric

GOOD = b"y_true,y_score\n0,0.1\n1,0.8\n0,0.35\n1,0.4\n1,0.9\n"
BAD = b"y_true,y_score\n0,0.1\n1,n/a\n"


def open_data_page(sample: str | None = None) -> AppTest:
    """Run the app, pick ``sample`` in the sidebar, then open the Data page."""
    at = AppTest.from_file(APP, default_timeout=30).run()
    if sample:
        at.selectbox(key="dataset_picker").set_value(sample).run()
    at.switch_page(script("data")).run()
    assert not at.exception
    return at


@pytest.fixture
def at():
    return open_data_page()


def test_data_page_shows_the_active_sample(at):
    ds = load_sample("balanced")
    assert metric(at, "Samples") == str(ds.n_samples)
    assert metric(at, "Labels") == "1"
    summary = at.table[0].value.set_index("what")["value"]
    assert summary["positives"] == f"{int(ds.y_true.sum())} of {ds.n_samples}"


def test_upload_good_file_becomes_the_active_dataset(at):
    at.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    assert not at.exception
    assert not at.error
    assert metric(at, "Samples") == "5"
    assert at.session_state["active_dataset"] == "mine.csv"
    assert "mine.csv" in at.session_state["session_datasets"]
    at.switch_page(script("home")).run()
    y, s = np.array([0, 1, 0, 1, 1]), np.array([0.1, 0.8, 0.35, 0.4, 0.9])
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s))
    assert "data" in at.query_params


def test_bad_upload_shows_error_and_keeps_previous_dataset(at):
    at.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    at.file_uploader(key="data_upload_file").upload("bad.csv", BAD, "text/csv").run()
    assert not at.exception
    assert at.error, "a refused upload must say why"
    text = at.error[0].value
    assert "bad.csv" in text and "line 3" in text and "y_score" in text and "n/a" in text
    assert at.session_state["active_dataset"] == "mine.csv"
    assert metric(at, "Samples") == "5"


def test_pair_upload_makes_a_multilabel_dataset(at):
    at.file_uploader(key="data_upload_labels").upload("l.csv", b"a,b,c\n1,0,0\n0,1,1\n", "text/csv")
    at.file_uploader(key="data_upload_scores").upload(
        "s.csv", b"a,b,c\n.9,.2,.1\n.3,.2,.8\n", "text/csv"
    )
    at.run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "2" and metric(at, "Labels") == "3"


def test_pair_upload_with_headers_that_differ_is_refused(at):
    at.file_uploader(key="data_upload_labels").upload("l.csv", b"a,b\n1,0\n", "text/csv")
    at.file_uploader(key="data_upload_scores").upload("s.csv", b"a,b,bird\n.9,.2,.1\n", "text/csv")
    at.run()
    assert not at.exception
    assert "bird" in at.error[0].value
    assert at.session_state["active_dataset"] == "balanced"


def test_editing_a_label_creates_an_edited_dataset():
    at = open_data_page("seed002_auc8")
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
    assert 'row 2, column "y_true": 2 is not 0 or 1' in at.error[0].value
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


def test_trec_upload_counts_an_unretrieved_relevant_document(at):
    qrels = b"q1 0 d1 1\nq1 0 d2 0\nq1 0 d9 2\nq2 0 d3 1\n"
    run = (
        b"q1 Q0 d1 1 0.9 sys\nq1 Q0 d2 2 0.5 sys\nq1 Q0 d4 3 0.1 sys\n"
        b"q2 Q0 d3 1 0.7 sys\nq2 Q0 d5 2 0.6 sys\n"
    )
    at.file_uploader(key="data_upload_qrels").upload("qrels.txt", qrels, "text/plain")
    at.file_uploader(key="data_upload_run").upload("run.txt", run, "text/plain")
    at.run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "2"
    ds = at.session_state["session_datasets"][at.session_state["active_dataset"]]
    assert ds.kind == "graded"
    # q1 has two relevant documents (d1 retrieved, d9 not): recall@3 is 1/2; q2: 1/1.
    assert metrics.recall_at_k_per_sample(ds.y_true, ds.score(), k=3).tolist() == [0.5, 1.0]


def test_trec_run_line_with_too_few_fields_is_refused(at):
    at.file_uploader(key="data_upload_qrels").upload("qrels.txt", b"q1 0 d1 1\n", "text/plain")
    at.file_uploader(key="data_upload_run").upload("run.txt", b"q1 Q0 d1 1\n", "text/plain")
    at.run()
    assert not at.exception
    assert "run.txt" in at.error[0].value and "line 1" in at.error[0].value
    assert at.session_state["active_dataset"] == "balanced"


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
    assert "editing rows 500 to 999" in at.info[0].value
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


@pytest.mark.parametrize("name", ["x.exe", "x.json", "x"])
def test_a_file_of_another_type_is_refused_with_a_notice(at, name):
    """Only a crafted request can send it (the picker names the types); no exception."""
    at.file_uploader(key="data_upload_file").upload(name, GOOD, "application/octet-stream").run()
    assert not at.exception
    assert at.error and name in at.error[0].value
    assert at.session_state["active_dataset"] == "balanced"


def test_a_pq_parquet_file_is_read(at, tmp_path):
    import pandas as pd

    pd.DataFrame({"y_true": [0, 1, 1], "y_score": [0.2, 0.9, 0.4]}).to_parquet(tmp_path / "f.pq")
    data = (tmp_path / "f.pq").read_bytes()
    at.file_uploader(key="data_upload_file").upload("f.pq", data, "application/octet-stream").run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "3"


# ---------------------------------------------------------------- issue 17 item 5
def test_column_names_people_write_are_read_with_a_notice(at):
    data = b"Label,prob\n0,0.1\n1,0.8\n0,0.35\n1,0.4\n1,0.9\n"
    at.file_uploader(key="data_upload_file").upload("mine.csv", data, "text/csv").run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "5"
    assert any("read column 'Label' as y_true, 'prob' as y_score" in i.value for i in at.info)
    at.switch_page(script("home")).run()
    y, s = np.array([0, 1, 0, 1, 1]), np.array([0.1, 0.8, 0.35, 0.4, 0.9])
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s))


def test_a_canonical_upload_has_no_column_notice(at):
    at.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    assert not any("read column" in i.value for i in at.info)


def test_swapped_labels_and_scores_are_flagged_and_swapped_in_one_click(at):
    at.file_uploader(key="data_upload_labels").upload(
        "l.csv", b"a,b,c\n.9,.2,.1\n.3,.2,.8\n.6,.7,.1\n", "text/csv"
    )
    at.file_uploader(key="data_upload_scores").upload(
        "s.csv", b"a,b,c\n1,0,0\n0,0,1\n1,1,0\n", "text/csv"
    )
    at.run()
    assert not at.exception and not at.error
    assert any("look swapped" in w.value for w in at.warning)
    at.button(key="data_swap_pair").click().run()
    assert not at.exception
    assert not any("look swapped" in w.value for w in at.warning)
    ds = at.session_state["session_datasets"][at.session_state["active_dataset"]]
    assert ds.kind == "multilabel" and ds.name.endswith("(swapped)")
    assert ds.y_true.tolist() == [[1, 0, 0], [0, 0, 1], [1, 1, 0]]
    assert ds.score().tolist() == [[0.9, 0.2, 0.1], [0.3, 0.2, 0.8], [0.6, 0.7, 0.1]]
    summary = at.table[0].value.set_index("what")["value"]
    assert summary["task kind"].startswith("multilabel") and summary["positives per label"] == (
        "a: 2, b: 1, c: 1"
    )


def test_a_real_multilabel_pair_is_not_flagged_as_swapped(at):
    at.file_uploader(key="data_upload_labels").upload("l.csv", b"a,b\n1,0\n0,1\n", "text/csv")
    at.file_uploader(key="data_upload_scores").upload("s.csv", b"a,b\n.9,.2\n.3,.7\n", "text/csv")
    at.run()
    assert not at.exception and not at.warning
    assert not [b for b in at.button if b.key == "data_swap_pair"]


def test_validation_summary_shows_every_value_in_full():
    from explorer.datasets import describe

    at = open_data_page("digits")
    ds = load_sample("digits")
    assert not at.dataframe or "what" not in at.dataframe[0].value.columns
    shown = at.table[0].value.reset_index(drop=True)
    want = describe(ds)
    assert shown["what"].tolist() == want["what"].tolist()
    assert shown["value"].tolist() == want["value"].tolist()  # the long cells whole
    per_label = shown.set_index("what")["value"]["positives per label"]
    assert len(per_label) > 60 and per_label.endswith(
        f"{ds.label_names[-1]}: {int(ds.y_true[:, -1].sum())}"
    )
