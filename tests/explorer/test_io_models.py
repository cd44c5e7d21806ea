"""Several models in every input: score files beside one labels file, score columns,
a long table's model column, learning-to-rank score files, and the stated limit."""

from __future__ import annotations

import io as _io

import numpy as np
import pytest

import metrics
from explorer import io
from explorer.io import limits
from explorer.io.errors import DataError

LABELS = b"cat,dog,fox\n1,0,0\n0,1,1\n1,1,0\n"


def _csv(matrix: np.ndarray) -> bytes:
    lines = ["cat,dog,fox", *(",".join(f"{v:.3f}" for v in row) for row in matrix)]
    return ("\n".join(lines) + "\n").encode()


def _npy(matrix: np.ndarray) -> bytes:
    buf = _io.BytesIO()
    np.save(buf, matrix)
    return buf.getvalue()


def test_several_score_files_beside_one_labels_file_are_one_model_each():
    rng = np.random.default_rng(0)
    mats = [np.round(rng.random((3, 3)), 3) for _ in range(3)]
    files = [("bm25.csv", _csv(mats[0])), ("dense.npy", _npy(mats[1])), ("mix.csv", _csv(mats[2]))]
    ds = io.read_pair_upload("y.csv", LABELS, *files[0], more_scores=files[1:])
    assert ds.name == "y.csv + 3 score files"
    assert ds.model_names == ("bm25", "dense", "mix")
    for model, mat in zip(ds.model_names, mats, strict=True):
        np.testing.assert_array_equal(ds.scores[model], mat)
    np.testing.assert_array_equal(ds.y_true, [[1, 0, 0], [0, 1, 1], [1, 1, 0]])
    assert ds.description.endswith("; 3 models: bm25, dense, mix")
    # one score file reads as before: the pair's name, one model
    alone = io.read_pair_upload("y.csv", LABELS, *files[0])
    assert alone.name == "y.csv + bm25.csv" and alone.model_names == ("bm25",)


def test_two_score_files_of_one_name_or_too_many_files_are_refused(monkeypatch):
    a, b = _csv(np.full((3, 3), 0.2)), _csv(np.full((3, 3), 0.7))
    same_stem = [("bm25.npy", _npy(np.full((3, 3), 0.7)))]
    with pytest.raises(DataError, match="both name a model 'bm25': rename one file"):
        io.read_pair_upload("y.csv", LABELS, "bm25.csv", a, more_scores=same_stem)
    monkeypatch.setattr(limits, "MAX_MODELS", 2)
    more = [("m2.csv", b), ("m3.csv", a)]
    with pytest.raises(DataError) as refused:
        io.read_pair_upload("y.csv", LABELS, "m1.csv", a, more_scores=more)
    assert str(refused.value).startswith(
        "y.csv has 3 score files beside it; the limit is 2 models."
    )


def test_a_table_of_more_score_columns_than_the_limit_is_refused(monkeypatch):
    table = b"y_true,score_a,score_b,score_c\n0,0.1,0.2,0.3\n1,0.9,0.8,0.7\n"
    assert io.read_upload("t.csv", table).model_names == ("a", "b", "c")
    monkeypatch.setattr(limits, "MAX_MODELS", 2)
    with pytest.raises(DataError, match=r"^t.csv has 3 score columns; the limit is 2 models\."):
        io.read_upload("t.csv", table)


def test_a_long_table_with_a_model_column_counts_its_models(monkeypatch):
    rows = ["sample,label,y_true,model,y_score"]
    for m, shift in (("x", 0.0), ("y", 0.1), ("z", 0.2)):
        rows += [f"s1,a,1,{m},{0.5 + shift}", f"s1,b,0,{m},{0.4 - shift}"]
    table = ("\n".join(rows) + "\n").encode()
    ds = io.read_upload("long.csv", table)
    assert ds.model_names == ("x", "y", "z")
    np.testing.assert_allclose(ds.scores["z"], [[0.7, 0.2]])
    monkeypatch.setattr(limits, "MAX_MODELS", 2)
    with pytest.raises(DataError, match=r"^long.csv has 3 models; the limit is 2 models\."):
        io.read_upload("long.csv", table)


def test_learning_to_rank_score_files_are_one_model_each(monkeypatch):
    data = b"2 qid:1 1:0.5\n0 qid:1 1:0.1\n1 qid:2 1:0.3\n"
    first, second = ("lgbm.txt", b"0.9\n0.1\n0.4\n"), ("xgb.txt", b"0.2\n0.6\n0.5\n")
    ds = io.read_ranking_upload("train.svm", data, first, more_scores=[second])
    assert ds.name == "train.svm + 2 score files" and ds.model_names == ("lgbm", "xgb")
    # query 2 has one document: its second slot is padding, never retrieved
    assert ds.retrieved.tolist() == [[True, True], [True, False]]
    np.testing.assert_array_equal(ds.scores["xgb"][ds.retrieved], [0.2, 0.6, 0.5])
    np.testing.assert_array_equal(ds.scores["lgbm"][ds.retrieved], [0.9, 0.1, 0.4])
    with pytest.raises(DataError, match="xgb.txt"):  # a score file of another length
        io.read_ranking_upload("train.svm", data, first, more_scores=[("xgb.txt", b"0.2\n")])
    monkeypatch.setattr(limits, "MAX_MODELS", 1)
    with pytest.raises(DataError, match=r"^train.svm has 2 score files beside it; the limit"):
        io.read_ranking_upload("train.svm", data, first, more_scores=[second])


QRELS = b"q1 0 d1 1\nq1 0 d2 0\nq1 0 d3 2\nq1 0 d9 1\nq2 0 d4 1\nq2 0 d5 0\n"
# three runs of the same documents (d9 never retrieved), with score ties broken by
# docid descending in trec_eval; the queries in another order in the third run
RUNS = [
    ("bm25.run", b"q1 Q0 d1 1 2.0 bm25\nq1 Q0 d2 2 2.0 bm25\nq1 Q0 d3 3 1.0 bm25\n"
     b"q2 Q0 d4 1 0.5 bm25\nq2 Q0 d5 2 0.5 bm25\n"),
    ("dense.run", b"q1 Q0 d3 1 0.9 dense\nq1 Q0 d1 2 0.2 dense\nq1 Q0 d2 3 0.2 dense\n"
     b"q2 Q0 d5 1 0.7 dense\nq2 Q0 d4 2 0.1 dense\n"),
    ("mix.run", b"q2 Q0 d4 1 3.0 mix\nq2 Q0 d5 2 1.0 mix\nq1 Q0 d2 1 5.0 mix\n"
     b"q1 Q0 d3 2 5.0 mix\nq1 Q0 d1 3 4.0 mix\n"),
]  # fmt: skip


def _per_query(ds, model, k):
    """Each query's AP@k, P@k and NDCG, by query id."""
    y, s, seen = ds.y_true, ds.score(model), ds.retrieved
    values = zip(
        metrics.average_precision_at_k(y, s, k=k, retrieved=seen),
        metrics.precision_at_k_per_sample(y, s, k=k, retrieved=seen),
        metrics.ndcg_per_sample(y, s, retrieved=seen),
        strict=True,
    )
    return dict(zip(ds.sample_ids, values, strict=True))


def test_several_trec_runs_of_the_same_documents_give_each_run_its_own_numbers():
    ds = io.read_trec_upload("qrels.txt", QRELS, *RUNS[0], more_runs=RUNS[1:])
    assert ds.name == "qrels.txt + 3 runs" and ds.model_names == ("bm25", "dense", "mix")
    for (name, data), model in zip(RUNS, ds.model_names, strict=True):
        alone = io.read_trec_upload("qrels.txt", QRELS, name, data)
        for k in (1, 2, 4):  # past the depth too: d9 counts, never ranked
            want = _per_query(alone, model, k)
            got = _per_query(ds, model, k)
            assert got.keys() == want.keys()
            for q in want:
                np.testing.assert_allclose(got[q], want[q])
    # a tie in bm25 (d1, d2 at 2.0): trec_eval ranks d2 first (docid descending)
    assert (
        metrics.precision_at_k_per_sample(ds.y_true, ds.score("bm25"), k=1, retrieved=ds.retrieved)[
            0
        ]
        == 0.0
    )


def test_trec_runs_of_other_documents_or_one_tag_are_refused_or_named_by_file():
    other = (b"q1 Q0 d1 1 2.0 bm25\nq1 Q0 d9 2 2.0 bm25\nq1 Q0 d3 3 1.0 bm25\n"
             b"q2 Q0 d4 1 0.5 bm25\nq2 Q0 d5 2 0.5 bm25\n")  # fmt: skip
    with pytest.raises(DataError, match="other.run retrieved other documents than bm25.run"):
        io.read_trec_upload("qrels.txt", QRELS, *RUNS[0], more_runs=[("other.run", other)])
    one_tag = RUNS[1][1].replace(b"dense", b"bm25")
    ds = io.read_trec_upload("qrels.txt", QRELS, *RUNS[0], more_runs=[("tuned.run", one_tag)])
    assert ds.model_names == ("bm25", "tuned")
