"""Several models in every input: score files beside one labels file, score columns,
a long table's model column, learning-to-rank score files, and the stated limit."""

from __future__ import annotations

import io as _io

import numpy as np
import pytest

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
