"""The Data page's uploads, their refusals and notices, and its validation summary
(AppTest)."""

import os
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

import metrics
from explorer import budget, io
from explorer.formatting import fmt, literal
from explorer.registry import script
from explorer.samples import load_sample
from explorer.ui import background, upload_store
from tests.conftest import metric, rendered
from tests.views.data.conftest import BAD, GOOD, open_data_page

LIGHTGBM = Path(__file__).parents[2] / "data" / "lightgbm"


def test_data_page_shows_the_active_sample(at):
    ds = load_sample("balanced")
    assert metric(at, "Samples") == str(ds.n_samples)
    assert metric(at, "Labels") == "1"
    summary = at.table[0].value.map(rendered).set_index("what")["value"]
    assert summary["positives"] == f"{int(ds.y_true.sum())} of {ds.n_samples}"


@pytest.mark.skipif(sys.platform != "linux", reason="a thread's own nice value")
def test_an_upload_is_read_as_heavy_work_at_a_low_priority(at, monkeypatch):
    """Reading millions of rows has no checkpoint: other visitors' pages go first."""
    read, seen = io.read_upload, []

    def watched(*args, **kwargs):
        tid = threading.get_native_id()
        seen.append((threading.current_thread().name, os.getpriority(os.PRIO_PROCESS, tid)))
        return read(*args, **kwargs)

    monkeypatch.setattr(io, "read_upload", watched)
    at.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    assert not at.exception
    assert seen == [("heavy-work", background.NICE)]
    assert at.session_state["active_dataset"] == "mine.csv"


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


@pytest.fixture
def stores(monkeypatch) -> list[MemoryUploadedFileManager]:
    """Streamlit's store of uploaded files of each run (AppTest makes one a run and
    fills it with the files its uploaders hold), newest last."""
    made = []
    init = MemoryUploadedFileManager.__init__

    def record(self, *args, **kwargs):
        init(self, *args, **kwargs)
        made.append(self)

    monkeypatch.setattr(MemoryUploadedFileManager, "__init__", record)
    return made


def _held(store: MemoryUploadedFileManager) -> list[bytes]:
    return [f.data for files in store.file_storage.values() for f in files.values()]


def test_leaving_the_data_page_lets_go_of_the_uploaded_bytes(at, stores):
    """Read once, an upload's bytes are a second copy of its dataset, and a file waiting
    for its labels is read never: Streamlit would keep both until the session ends. On
    the Data page they stay in place (another file may join them); the next page drops
    them from Streamlit's store."""
    at.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    at.file_uploader(key="data_upload_scores").upload("s.npy", b"waiting", "text/plain").run()
    assert sorted(_held(stores[-1])) == sorted([GOOD, b"waiting"])
    at.switch_page(script("home")).run()
    assert not at.exception
    assert _held(stores[-1]) == []
    assert at.session_state["active_dataset"] == "mine.csv"  # the dataset stays
    assert metric(at, "ROC AUC") == fmt(
        metrics.roc_auc_score([0, 1, 0, 1, 1], [0.1, 0.8, 0.35, 0.4, 0.9])
    )


def test_files_past_the_bound_in_place_are_dropped_with_a_notice(at, stores, monkeypatch):
    """Score files wait for their labels, read never: on the public demo, past the bound
    on what the uploaders may hold, every file goes (the datasets read stay) and the page says why;
    a file read then replaces the notice."""
    monkeypatch.setenv(budget.HOSTED_VARIABLE, "1")  # the public demo's bound
    monkeypatch.setattr(upload_store, "MAX_IN_PLACE", 2 * len(GOOD))
    at.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    waiting = [("a.npy", b"x" * len(GOOD), "text/plain"), ("b.npy", b"y" * 10, "text/plain")]
    at.file_uploader(key="data_upload_scores").set_value(waiting).run()
    assert not at.exception
    held = 2 * len(GOOD) + 10
    notice = (
        "Not loaded, your data is unchanged: the files in the uploaders took "
        f"{held / 10**6:,.1f} MB, more than the 0 MB a session may hold at once: upload "
        "fewer or smaller files."
    )
    assert [rendered(e.value) for e in at.error] == [notice]
    assert _held(stores[-1]) == []
    assert at.session_state["active_dataset"] == "mine.csv"
    assert metric(at, "Samples") == "5"
    at.file_uploader(key="data_upload_scores").set_value(None).run()
    at.file_uploader(key="data_upload_file").upload("again.csv", GOOD, "text/csv").run()
    assert not at.error
    assert at.session_state["active_dataset"] == "again.csv"


def test_bad_upload_shows_error_and_keeps_previous_dataset(at):
    at.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    at.file_uploader(key="data_upload_file").upload("bad.csv", BAD, "text/csv").run()
    assert not at.exception
    assert at.error, "a refused upload must say why"
    text = rendered(at.error[0].value)
    assert "bad.csv" in text and "line 3" in text and "y_score" in text and "n/a" in text
    assert at.session_state["active_dataset"] == "mine.csv"
    assert metric(at, "Samples") == "5"


def test_a_refused_cell_is_quoted_as_text(at):
    cell = "![c](http://attacker.example/c)"
    bad = f"y_true,y_score\n1,0.5\n0,{cell}\n".encode()
    at.file_uploader(key="data_upload_file").upload("<b>x</b>.csv", bad, "text/csv").run()
    text = at.error[0].value
    assert literal(repr(cell)) in text and literal("<b>x</b>.csv") in text
    assert "![c]" not in text and "<b>" not in text
    assert f"{repr(cell)} is not a number" in rendered(text)


def test_pair_upload_makes_a_multilabel_dataset_with_a_side_file(at):
    at.file_uploader(key="data_upload_labels").upload("l.csv", b"a,b,c\n1,0,0\n0,1,1\n", "text/csv")
    at.file_uploader(key="data_upload_scores").upload(
        "s.csv", b"a,b,c\n.9,.2,.1\n.3,.2,.8\n", "text/csv"
    )
    side = b"id,ward,age\n1,*B*,70\n0,A,\n"
    at.file_uploader(key="data_upload_pair_attributes").upload("m.csv", side, "text/csv")
    at.run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "2" and metric(at, "Labels") == "3"
    summary = at.table[0].value.map(rendered).set_index("what")["value"]
    assert summary["attributes"] == "ward (text, 2 values), age (numbers, 1 value, 1 missing)"
    assert at.session_state["session_datasets"]["l.csv + s.csv"].attribute("ward").tolist() == [
        "A",
        "*B*",
    ]


def test_pair_upload_of_several_score_files_makes_one_model_each(at):
    at.file_uploader(key="data_upload_labels").upload("l.csv", b"a,b\n1,0\n0,1\n", "text/csv")
    scores = at.file_uploader(key="data_upload_scores")
    scores.upload("bm25.csv", b"a,b\n.9,.2\n.3,.4\n", "text/csv")
    scores.upload("dense.csv", b"a,b\n.1,.7\n.6,.5\n", "text/csv").run()
    assert not at.exception and not at.error
    ds = at.session_state["session_datasets"]["l.csv + 2 score files"]
    assert at.session_state["active_dataset"] == ds.name
    assert ds.model_names == ("bm25", "dense")
    np.testing.assert_array_equal(ds.scores["dense"], [[0.1, 0.7], [0.6, 0.5]])


def test_pair_upload_with_headers_that_differ_is_refused(at):
    at.file_uploader(key="data_upload_labels").upload("l.csv", b"a,b\n1,0\n", "text/csv")
    at.file_uploader(key="data_upload_scores").upload("s.csv", b"a,b,bird\n.9,.2,.1\n", "text/csv")
    at.run()
    assert not at.exception
    assert "bird" in rendered(at.error[0].value)
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
    assert "run.txt" in rendered(at.error[0].value) and "line 1" in rendered(at.error[0].value)
    assert at.session_state["active_dataset"] == "balanced"


@pytest.mark.parametrize("name", ["x.exe", "x.json", "x"])
def test_a_file_of_another_type_is_refused_with_a_notice(at, name):
    """Only a crafted request can send it (the picker names the types); no exception."""
    at.file_uploader(key="data_upload_file").upload(name, GOOD, "application/octet-stream").run()
    assert not at.exception
    assert at.error and name in rendered(at.error[0].value)
    assert at.session_state["active_dataset"] == "balanced"


def test_a_pq_parquet_file_is_read(at, tmp_path):
    import pandas as pd

    pd.DataFrame({"y_true": [0, 1, 1], "y_score": [0.2, 0.9, 0.4]}).to_parquet(tmp_path / "f.pq")
    data = (tmp_path / "f.pq").read_bytes()
    at.file_uploader(key="data_upload_file").upload("f.pq", data, "application/octet-stream").run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "3"


# ---------------------------------------------------------------- the names people write
def test_column_names_people_write_are_read_with_a_notice(at):
    data = b"Label,prob\n0,0.1\n1,0.8\n0,0.35\n1,0.4\n1,0.9\n"
    at.file_uploader(key="data_upload_file").upload("mine.csv", data, "text/csv").run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "5"
    assert any(
        "read column 'Label' as y_true, 'prob' as y_score" in rendered(i.value) for i in at.info
    )
    at.switch_page(script("home")).run()
    y, s = np.array([0, 1, 0, 1, 1]), np.array([0.1, 0.8, 0.35, 0.4, 0.9])
    assert metric(at, "ROC AUC") == fmt(metrics.roc_auc_score(y, s))


def test_a_canonical_upload_has_no_column_notice(at):
    at.file_uploader(key="data_upload_file").upload("mine.csv", GOOD, "text/csv").run()
    assert not any("read column" in rendered(i.value) for i in at.info)


def test_swapped_labels_and_scores_are_flagged_and_swapped_in_one_click(at):
    at.file_uploader(key="data_upload_labels").upload(
        "l.csv", b"a,b,c\n.9,.2,.1\n.3,.2,.8\n.6,.7,.1\n", "text/csv"
    )
    at.file_uploader(key="data_upload_scores").upload(
        "s.csv", b"a,b,c\n1,0,0\n0,0,1\n1,1,0\n", "text/csv"
    )
    at.run()
    assert not at.exception and not at.error
    assert any("look swapped" in rendered(w.value) for w in at.warning)
    at.button(key="data_swap_pair").click().run()
    assert not at.exception
    assert not any("look swapped" in rendered(w.value) for w in at.warning)
    ds = at.session_state["session_datasets"][at.session_state["active_dataset"]]
    assert ds.kind == "multilabel" and ds.name.endswith("(swapped)")
    assert ds.y_true.tolist() == [[1, 0, 0], [0, 0, 1], [1, 1, 0]]
    assert ds.score().tolist() == [[0.9, 0.2, 0.1], [0.3, 0.2, 0.8], [0.6, 0.7, 0.1]]
    summary = at.table[0].value.map(rendered).set_index("what")["value"]
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
    shown = at.table[0].value.map(rendered).reset_index(drop=True)
    want = describe(ds)
    assert shown["what"].tolist() == want["what"].tolist()
    assert shown["value"].tolist() == want["value"].tolist()  # the long cells whole
    per_label = shown.set_index("what")["value"]["positives per label"]
    assert len(per_label) > 60 and per_label.endswith(
        f"{ds.label_names[-1]}: {int(ds.y_true[:, -1].sum())}"
    )


def test_learning_to_rank_uploads_svmlight_and_a_qid_table(at):
    """LightGBM's own example with its score and query files, then a table with a qid
    column alone, each read as ranking with the note, documents kept, padding masked."""
    lgb = LIGHTGBM
    for key, name in (
        ("data_upload_ltr", "rank.test"),
        ("data_upload_ltr_scores", "rank.test.pred"),
        ("data_upload_ltr_query", "rank.test.query"),
    ):
        at.file_uploader(key=key).upload(name, (lgb / name).read_bytes(), "text/plain")
    at.run()
    assert not at.exception and not at.error
    assert metric(at, "Samples") == "50"
    ds = at.session_state["session_datasets"][at.session_state["active_dataset"]]
    assert ds.kind == "graded" and ds.model_names == ("rank.test",)
    assert int(ds.retrieved.sum()) == 768 and "read as ranking" in ds.description
    table = b"qid,doc,label,score\n1,a,3,0.2\n1,b,0,0.9\n2,c,1,0.5\n"
    at.file_uploader(key="data_upload_file").upload("q.csv", table, "text/csv").run()
    assert not at.exception and not at.error
    ds = at.session_state["session_datasets"]["q.csv"]
    assert ds.kind == "graded" and ds.item_ids.tolist() == [["a", "b"], ["c", ""]]
    split = b"qid,label,score\n1,1,0.1\n2,0,0.2\n1,0,0.3\n"
    at.file_uploader(key="data_upload_file").upload("s.csv", split, "text/csv").run()
    assert "s.csv, line 4: query '1' starts again after query '2'" in rendered(at.error[0].value)
