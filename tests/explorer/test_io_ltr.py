"""The learning-to-rank readers: SVMlight/LETOR, LightGBM query files, qid tables."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

import metrics
from explorer.io import DataError
from explorer.io.ltr import read_ranking
from explorer.io.uploads import read_ranking_upload, read_upload

LGB = Path(__file__).parent.parent / "data" / "lightgbm"


def _refusal(call) -> str:
    with pytest.raises(DataError) as info:
        call()
    return str(info.value)


# ------------------------------------------------------------------ SVMlight / LETOR
LETOR = b"""# LETOR 4.0 style
2 qid:10 1:0.5 2:0.1 #docid = GX01 inc = 1
0 qid:10 1:0.2 2:0.3 #docid = GX02 inc = 1

1 qid:10 1:0.9 2:0.0 #docid = GX03
0 qid:11 1:0.4 #docid = GX04
"""


def test_letor_file_pivots_by_query_with_docids_and_padding():
    ds = read_ranking(LETOR, b"0.1\n0.7\n0.4\n0.9\n", data_name="t.txt", scores_name="lm.txt")
    assert ds.kind == "graded" and ds.sample_ids == ("10", "11")
    assert ds.model_names == ("lm",)
    assert ds.y_true.tolist() == [[2, 0, 1], [0, 0, 0]]
    assert ds.score("lm").tolist() == [[0.1, 0.7, 0.4], [0.9, -0.9, -0.9]]
    assert ds.retrieved.tolist() == [[True] * 3, [True, False, False]]
    assert ds.item_ids.tolist() == [["GX01", "GX02", "GX03"], ["GX04", "", ""]]
    assert "read as ranking" in ds.description and "padded" in ds.description


def test_svmlight_refusals_name_the_line():
    scores = b"1\n2\n3\n"
    split = b"1 qid:1 1:0\n0 qid:2 1:0\n1 qid:1 1:0\n"
    message = _refusal(lambda: read_ranking(split, scores, data_name="s.txt"))
    assert message.startswith("s.txt, line 3: query '1' starts again after query '2'")
    assert "ended on line 1" in message
    short = _refusal(lambda: read_ranking(split[:24], b"1\n", data_name="s.txt"))
    assert short.startswith("s.txt, line 2 has no score: scores ends at line 1")
    long = _refusal(lambda: read_ranking(split[:12], b"1\n2\n", data_name="s.txt"))
    assert long.startswith("scores, line 2: a score beyond the 1 data rows of s.txt")
    bad = _refusal(lambda: read_ranking(b"1 qid:1 1:0 x\n", b"1\n", data_name="s.txt"))
    assert bad.startswith("s.txt, line 1: 'x' is not a feature")
    none = _refusal(lambda: read_ranking(b"1 qid:1 1:0\n", data_name="s.txt"))
    assert "holds the relevance labels and features, not a model's scores" in none
    neg = _refusal(lambda: read_ranking(b"1 qid:1 1:0\n-1 qid:1 1:0\n", b"1\n2\n"))
    assert neg.startswith("data, line 2: '-1' is negative")


def test_query_file_counts_must_add_up_to_the_lines():
    data = b"2 1:0\n0 1:0\n1 1:0\n"
    ds = read_ranking(data, b"3\n2\n1\n", b"2\n1\n", query_name="d.query")
    assert ds.y_true.tolist() == [[2, 0], [1, 0]] and ds.sample_ids == ("1", "2")
    over = _refusal(lambda: read_ranking(data, b"3\n2\n1\n", b"2\n2\n", query_name="d.query"))
    assert over.startswith("d.query, line 2: the counts reach 4 rows, but data has 3")
    under = _refusal(lambda: read_ranking(data, b"3\n2\n1\n", b"2\n", query_name="d.query"))
    assert under.startswith("d.query, line 1: the counts reach 2 rows, but data has 3")
    zero = _refusal(lambda: read_ranking(data, b"3\n2\n1\n", b"3\n0\n", query_name="d.query"))
    assert zero.startswith("d.query, line 2: 0 is not a count of rows")
    both = _refusal(lambda: read_ranking(b"1 qid:1 1:0\n", b"1\n", b"1\n", query_name="q"))
    assert "names its queries (qid:) and q counts them" in both


# ------------------------------------------------------------------ tables with a qid column
def test_qid_table_is_ranking_never_regression():
    table = b"qid,doc,label,score\n1,a,3,0.2\n1,b,0,0.9\n1,c,1,0.1\n2,d,2,0.5\n"
    ds = read_upload("t.csv", table)
    assert ds.kind == "graded" and ds.model_names == ("y_score",)
    assert ds.y_true.tolist() == [[3, 0, 1], [2, 0, 0]]
    assert ds.item_ids.tolist() == [["a", "b", "c"], ["d", "", ""]]
    assert ds.retrieved.sum() == 4
    assert "read as ranking" in ds.description and "regression" not in ds.description
    # NDCG of query 1 (scores rank b, a, c): linear gains 0, 3, 1 against 3, 1, 0
    dcg = 3 / np.log2(3) + 1 / np.log2(4)
    ideal = 3 + 1 / np.log2(3)
    got = metrics.ndcg_per_sample(ds.y_true, ds.score(), retrieved=ds.retrieved)
    assert got[0] == pytest.approx(dcg / ideal) and got[1] == 1.0


def test_xgboost_qid_column_several_models_and_refusals():
    table = b"QID\trel\tscore_xgb\tscore_lgb\n5\t1\t0.3\t0.1\n5\t0\t0.2\t0.4\n"
    ds = read_upload("x.tsv", table)
    assert ds.model_names == ("xgb", "lgb") and ds.sample_ids == ("5",)
    assert ds.item_ids.tolist() == [["1", "2"]]
    split = b"qid,label,score\n1,1,0.1\n2,0,0.2\n1,0,0.3\n"
    message = _refusal(lambda: read_upload("s.csv", split))
    assert message.startswith("s.csv, line 4: query '1' starts again after query '2'")
    dup = b"qid,doc,label,score\n1,a,1,0.1\n1,a,0,0.2\n"
    assert _refusal(lambda: read_upload("d.csv", dup)).startswith(
        "d.csv, line 3: document 'a' of query '1' already appears on line 2"
    )
    svm = _refusal(lambda: read_upload("m.txt", b"1 qid:1 1:0.5\n"))
    assert "Upload it in the tab Learning to rank" in svm


def test_table_with_a_query_file_and_a_score_file():
    ds = read_ranking_upload(
        "t.csv",
        b"label,f1\n1,0.5\n0,0.2\n2,0.1\n",
        ("pred.txt", b"0.4\n0.6\n0.1\n"),
        ("t.query", b"2\n1\n"),
    )
    assert ds.model_names == ("pred",) and ds.sample_ids == ("1", "2")
    assert ds.score().tolist() == [[0.4, 0.6], [0.1, -0.9]]
    # a document's feature varies within its query: no attribute of the query
    assert "left out (not the same on every row of a query): 'f1'" in ds.description
    assert ds.attributes == ()


# ------------------------------------------------------------------ LightGBM's own numbers
def _lightgbm_ndcg(ds, k: int) -> float:
    """NDCG@k under the Top-K page's LightGBM/XGBoost preset: exponential gain, ties in
    the file's order, a query with no relevant document scoring 1."""
    per_query = metrics.retrieval_per_query(
        ds.y_true, ds.score(), k=k, gain="exponential", ties="column", metrics=["NDCG@K"]
    )
    return float(metrics.retrieval_means(per_query, empty="one")["NDCG@K"])


def _slow_lightgbm_ndcg(ds, k: int) -> float:
    """LightGBM's DCGCalculator, query by query: a stable sort by score descending."""
    values = []
    for y, s, kept in zip(ds.y_true, ds.score(), ds.retrieved, strict=True):
        y, s = y[kept], s[kept]
        order = sorted(range(len(s)), key=lambda i: -s[i])
        disc = [1 / np.log2(i + 2) for i in range(min(k, len(s)))]
        dcg = sum((2 ** y[j] - 1) * d for j, d in zip(order, disc, strict=False))
        ideal = sum((2**g - 1) * d for g, d in zip(sorted(y, reverse=True), disc, strict=False))
        values.append(dcg / ideal if ideal > 0 else 1.0)
    return float(np.mean(values))


@pytest.mark.parametrize("part", ["train", "test"])
def test_lightgbm_example_equals_lightgbms_own_ndcg(part):
    expected = json.loads((LGB / "eval.json").read_text())["ndcg"][part]
    ds = read_ranking(LGB / f"rank.{part}", LGB / f"rank.{part}.pred", LGB / f"rank.{part}.query")
    assert ds.retrieved is not None  # queries of different sizes, padded
    for k in (1, 3, 5):
        got = _lightgbm_ndcg(ds, k)
        assert got == pytest.approx(expected[f"ndcg@{k}"], abs=1e-12)
        assert got == pytest.approx(_slow_lightgbm_ndcg(ds, k), abs=1e-12)
    # the other conventions give other numbers on these tied scores
    assert _lightgbm_ndcg(ds, 5) != pytest.approx(
        metrics.ndcg_score(ds.y_true, ds.score(), k=5, retrieved=ds.retrieved), abs=1e-6
    )


def train_lightgbm(lgb, directory: Path):
    """The model of eval.json: 10 rounds of lambdarank on rank.train; its predictions of
    both files and LightGBM's own ndcg@1,3,5 of the last round on each."""
    from sklearn.datasets import load_svmlight_file

    spec = json.loads((LGB / "eval.json").read_text())
    parts = {}
    for part in ("train", "test"):
        x, y = load_svmlight_file(str(directory / f"rank.{part}"), n_features=300)
        group = np.loadtxt(directory / f"rank.{part}.query", dtype=int)
        parts[part] = (x, y, group)
    train = lgb.Dataset(*parts["train"][:2], group=parts["train"][2])
    test = lgb.Dataset(*parts["test"][:2], group=parts["test"][2], reference=train)
    result: dict = {}
    booster = lgb.train(
        spec["params"],
        train,
        num_boost_round=spec["num_boost_round"],
        valid_sets=[train, test],
        valid_names=["train", "test"],
        callbacks=[lgb.record_evaluation(result)],
    )
    preds = {part: booster.predict(parts[part][0]) for part in parts}
    evals = {p: {m: float(v[-1]) for m, v in r.items()} for p, r in result.items()}
    return preds, evals


def test_freshly_trained_lightgbm_agrees(tmp_path):
    lgb = pytest.importorskip("lightgbm")
    preds, evals = train_lightgbm(lgb, LGB)
    for part, pred in preds.items():
        (tmp_path / "pred.txt").write_text("\n".join(map(repr, pred.tolist())))
        ds = read_ranking(LGB / f"rank.{part}", tmp_path / "pred.txt", LGB / f"rank.{part}.query")
        for k in (1, 3, 5):
            assert _lightgbm_ndcg(ds, k) == pytest.approx(evals[part][f"ndcg@{k}"], abs=1e-12)
