"""explorer/io: every format, and every refusal naming file, line, column and value."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest

import metrics
from explorer.io import (
    MAX_COLUMNS,
    MAX_ROWS,
    MAX_UPLOAD_BYTES,
    DataError,
    limits,
    limits_text,
    read_long_table,
    read_matrix_pair,
    read_pair_upload,
    read_table,
    read_trec,
    read_trec_upload,
    read_upload,
)


def npy_bytes(a) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(a))
    return buf.getvalue()


def parquet_bytes(df: pd.DataFrame) -> bytes:
    buf = io.BytesIO()
    df.to_parquet(buf)
    return buf.getvalue()


def refusal(fn, *args, **kwargs) -> str:
    """The DataError message of ``fn(*args, **kwargs)``."""
    with pytest.raises(DataError) as info:
        fn(*args, **kwargs)
    return str(info.value)


def assert_names(message: str, *parts: str) -> None:
    for part in parts:
        assert part in message, f"{part!r} not in {message!r}"


# --------------------------------------------------------------------------
# Good files, one per format
# --------------------------------------------------------------------------


def test_csv_binary_table_with_two_models_weights_and_ids():
    text = (
        b"id,y_true,score_good,score_weak,sample_weight\n"
        b"a,0,0.1,0.5,1\nb,1,0.9,0.4,2\nc,1,0.7,0.6,0\n"
    )
    ds = read_upload("two.csv", text)
    assert ds.kind == "binary"
    assert ds.model_names == ("good", "weak")
    assert ds.y_true.tolist() == [0, 1, 1]
    assert ds.score("weak").tolist() == [0.5, 0.4, 0.6]
    assert ds.sample_weight.tolist() == [1, 2, 0]
    assert ds.sample_ids == ("a", "b", "c")
    assert ds.name == "two.csv" and ds.source == "upload"


def test_regression_is_inferred_from_prediction_columns():
    ds = read_upload("r.csv", b"y_true,pred_lin,pred_tree\n1.5,1.2,2\n-3,-2.5,-3\n")
    assert ds.kind == "regression"
    assert ds.model_names == ("lin", "tree")
    assert ds.y_true.tolist() == [1.5, -3.0]


def test_tsv_and_txt_with_sniffed_delimiters():
    tsv = read_upload("t.tsv", b"y_true\ty_score\n0\t0.25\n1\t0.75\n")
    assert tsv.score().tolist() == [0.25, 0.75]
    for sep in (b";", b"|", b"\t", b"   "):
        ds = read_upload(
            "t.txt", b"y_true" + sep + b"y_score\n0" + sep + b"0.25\n1" + sep + b"0.75\n"
        )
        assert ds.score().tolist() == [0.25, 0.75], sep


def test_parquet_table_with_ids_in_the_index():
    df = pd.DataFrame(
        {"y_true": [0, 1, 1], "y_score": [0.2, 0.8, 0.6]},
        index=pd.Index(["x", "y", "z"], name="id"),
    )
    ds = read_upload("t.parquet", parquet_bytes(df))
    assert ds.kind == "binary"
    assert ds.sample_ids == ("x", "y", "z")
    assert ds.score().tolist() == [0.2, 0.8, 0.6]


def test_pandas_to_csv_index_column_is_dropped():
    df = pd.DataFrame({"y_true": [0, 1], "y_score": [0.1, 0.9]})
    ds = read_upload("p.csv", df.to_csv().encode())  # header ",y_true,y_score"
    assert ds.model_names == ("y_score",) and ds.y_true.tolist() == [0, 1]


def test_values_are_parsed_exactly_as_python_floats():
    rng = np.random.default_rng(0)
    values = rng.random(2_000) * 10.0 ** rng.integers(-8, 8, 2_000)
    text = "y_true,y_score\n" + "".join(f"{i % 2},{float(v)!r}\n" for i, v in enumerate(values))
    ds = read_table(text.encode(), name="exact.csv")
    assert ds.score().tolist() == values.tolist()


def test_bom_crlf_quotes_and_blank_lines_are_read():
    text = b'\xef\xbb\xbf"y_true","y_score","note"\r\n0,0.1,"a, b"\r\n\r\n1,0.9,"c"\r\n\r\n'
    ds = read_upload("r.csv", text)
    assert ds.y_true.tolist() == [0, 1] and "note" in ds.description


def test_classic_mac_line_endings_and_file_objects_are_read():
    ds = read_upload("mac.csv", b"y_true,y_score\r0,0.1\r1,0.9\r")
    assert ds.score().tolist() == [0.1, 0.9]
    upload = io.BytesIO(b"y_true,y_score\n0,0.1\n1,oops\n")
    upload.name = "uploaded.csv"
    message = refusal(read_table, upload)
    assert message.startswith('uploaded.csv, line 3, column "y_score"')


def test_utf16_and_cp1252_text_is_read():
    ds = read_upload("u.csv", "y_true,y_score,id\n0,0.1,café\n1,0.2,b\n".encode("utf-16"))
    assert ds.sample_ids == ("café", "b")
    ds = read_upload("w.csv", "y_true,y_score,id\n0,0.1,café\n1,0.2,b\n".encode("cp1252"))
    assert ds.sample_ids == ("café", "b")


def test_read_table_keeps_its_path_and_kind_interface(tmp_path):
    path = tmp_path / "sample.csv"
    path.write_text("y_true,score_a\n0,0.3\n1,0.6\n")
    ds = read_table(path, kind="binary", name="sample")
    assert ds.name == "sample" and ds.model_names == ("a",)
    message = refusal(read_table, tmp_path / "gone.csv", kind="binary")
    assert "gone.csv" in message


def test_csv_matrix_pair_infers_multilabel_and_graded(tmp_path):
    ds = read_matrix_pair(b"cat,dog\n1,0\n0,1\n", b"cat,dog\n0.9,0.2\n0.3,0.4\n")
    assert ds.kind == "multilabel" and ds.label_names == ("cat", "dog")
    graded = read_matrix_pair(b"a,b,c\n3,0,1\n", b"a,b,c\n0.1,0.2,0.3\n")
    assert graded.kind == "graded"
    (tmp_path / "x.labels.csv").write_text("a,b\n1,0\n")
    (tmp_path / "x.scores.csv").write_text("a,b\n0.5,0.2\n")
    (tmp_path / "x.scores.other.csv").write_text("a,b\n0.1,0.7\n")
    ds = read_matrix_pair(
        tmp_path / "x.labels.csv",
        tmp_path / "x.scores.csv",
        kind="multilabel",
        name="x",
        extra_scores={"other": tmp_path / "x.scores.other.csv"},
    )
    assert ds.model_names == ("model", "other")
    assert ds.score("other").tolist() == [[0.1, 0.7]]


def test_npy_pair_from_np_save():
    y = np.array([[1, 0, 1], [0, 0, 1]], dtype=np.int8)
    s = np.array([[0.9, 0.1, 0.5], [0.2, 0.3, 0.8]])
    ds = read_pair_upload("labels.npy", npy_bytes(y), "bm25.npy", npy_bytes(s))
    assert ds.kind == "multilabel"
    assert ds.label_names == ("label_0", "label_1", "label_2")
    assert ds.model_names == ("bm25",)
    np.testing.assert_array_equal(ds.y_true, y)
    np.testing.assert_array_equal(ds.score(), s)
    graded = read_pair_upload("g.npy", npy_bytes(y * 3), "s.npy", npy_bytes(s))
    assert graded.kind == "graded"


def test_mixed_pair_parquet_labels_csv_scores_with_ids():
    labels = pd.DataFrame({"cat": [1, 0], "dog": [0, 2]}, index=pd.Index(["s1", "s2"], name="id"))
    ds = read_pair_upload(
        "labels.parquet",
        parquet_bytes(labels),
        "scores.csv",
        b"id,cat,dog\ns1,0.1,0.2\ns2,0.3,0.4\n",
    )
    assert ds.kind == "graded"
    assert ds.sample_ids == ("s1", "s2") and ds.label_names == ("cat", "dog")
    assert ds.y_true.tolist() == [[1, 0], [0, 2]]


LONG = (
    b"sample,label,y_true,y_score,model\n"
    b"q1,a,1,0.9,m1\nq1,b,0,0.2,m1\nq2,a,0,0.4,m1\nq2,b,2,0.5,m1\n"
    b"q1,a,1,0.3,m2\nq1,b,0,0.6,m2\nq2,a,0,0.1,m2\nq2,b,2,0.8,m2\n"
)


def test_long_table_with_two_models_is_pivoted():
    ds = read_upload("long.csv", LONG)
    assert ds.kind == "graded"
    assert ds.sample_ids == ("q1", "q2") and ds.label_names == ("a", "b")
    assert ds.model_names == ("m1", "m2")
    assert ds.y_true.tolist() == [[1, 0], [0, 2]]
    assert ds.score("m1").tolist() == [[0.9, 0.2], [0.4, 0.5]]
    assert ds.score("m2").tolist() == [[0.3, 0.6], [0.1, 0.8]]


def test_long_table_in_any_row_order_and_from_parquet():
    df = pd.read_csv(io.BytesIO(LONG)).sample(frac=1.0, random_state=3)
    ds = read_long_table(parquet_bytes(df.reset_index(drop=True)), name="long.parquet")
    order_s = [ds.sample_ids.index(q) for q in ("q1", "q2")]
    order_l = [ds.label_names.index(a) for a in ("a", "b")]
    y = ds.y_true[np.ix_(order_s, order_l)]
    assert y.tolist() == [[1, 0], [0, 2]]
    assert ds.score("m2")[np.ix_(order_s, order_l)].tolist() == [[0.3, 0.6], [0.1, 0.8]]


def test_long_table_with_score_columns_and_multilabel():
    text = b"sample,label,y_true,score_x,score_y\nq1,a,1,0.9,0.1\nq1,b,0,0.2,0.3\n"
    ds = read_long_table(text, name="w.csv")
    assert ds.kind == "multilabel" and ds.model_names == ("x", "y")
    assert ds.score("y").tolist() == [[0.1, 0.3]]


def test_limits_are_stated_in_one_line():
    text = limits_text()
    assert "\n" not in text
    assert_names(text, "50 MB", f"{MAX_ROWS:,}", f"{MAX_COLUMNS:,}")
    # the browser's file picker counts 1 MB as 1,000,000 bytes (Linux, macOS)
    assert MAX_UPLOAD_BYTES == 50_000_000
    assert "50,000,000 bytes" in text


# --------------------------------------------------------------------------
# TREC
# --------------------------------------------------------------------------

QRELS = b"""\
q1 0 d1 1
q1 0 d2 0
q1 0 d9 2
q2 0 x 1
q3 0 zz 1
"""
RUN = b"""\
q1 Q0 d1 1 3.5 bm25
q1 Q0 d2 2 2.0 bm25
q1 Q0 d3 3 1.0 bm25
q2 Q0 x 1 0.5 bm25
q2 Q0 y 2 0.25 bm25
q4 Q0 x 1 9.0 bm25
"""


def ranked(y: np.ndarray, s: np.ndarray) -> np.ndarray:
    """Relevance in ranked order: descending score, ties by column order (as metrics ranks)."""
    order = np.argsort(-s, axis=1, kind="stable")
    return np.take_along_axis(y, order, axis=1)


def test_trec_unretrieved_relevant_doc_counts_but_never_ranks_above_retrieved():
    ds = read_trec_upload("qrels.txt", QRELS, "run.txt", RUN)
    assert ds.kind == "graded" and ds.model_names == ("bm25",)
    assert ds.sample_ids == ("q1", "q2")  # q4 has no judgments, q3 is not in the run
    y, s = ds.y_true, ds.score()
    # q1: d1 (1), d2 (0), d3 (unjudged: 0), then d9 (2) that the run did not retrieve
    assert y[0].tolist() == [1, 0, 0, 2]
    assert s[0, :3].tolist() == [3.5, 2.0, 1.0]
    assert ds.item_ids.tolist() == [["d1", "d2", "d3", "d9"], ["x", "y", "", ""]]
    assert ds.retrieved.tolist() == [[True, True, True, False], [True, True, False, False]]
    # every unretrieved or padding score is below every retrieved score of the run
    assert s[0, 3] < 0.25 and (s[1, 2:] < 0.25).all()
    # recall@k counts d9 and never finds it, at any k: 1/2 for q1 at k = 3 and 1000
    for k in (3, 1000):
        recall = metrics.recall_at_k_per_sample(y, s, k=k, retrieved=ds.retrieved)
        assert recall.tolist() == [0.5, 1.0]
    assert "added 1 judged relevant document the run did not retrieve" in ds.description
    assert "1 run query without judgments skipped" in ds.description


def test_trec_breaks_score_ties_by_docid_descending_as_trec_eval():
    qrels = b"1 0 a 1\n1 0 c 1\n"
    run = b"1 Q0 a 1 0.5 t\n1 Q0 b 2 0.5 t\n1 Q0 c 3 0.5 t\n1 Q0 d 4 0.9 t\n"
    ds = read_trec(qrels, run, qrels_name="q", run_name="r")
    # trec_eval order: d (0.9), then the 0.5 tie as c, b, a
    assert ds.y_true.tolist() == [[0, 1, 0, 1]]
    # the queries' lines interleaved, out of score order: the same order per query
    run = b"2 Q0 x 1 0.1 t\n1 Q0 a 1 0.5 t\n2 Q0 z 3 0.3 t\n1 Q0 b 2 0.5 t\n2 Q0 y 2 0.1 t\n"
    run += b"1 Q0 c 3 0.5 t\n1 Q0 d 4 0.9 t\n"
    ds = read_trec(qrels + b"2 0 y 1\n", run, qrels_name="q", run_name="r")
    assert ds.sample_ids == ("2", "1")  # in order of first appearance in the run
    assert ds.item_ids.tolist() == [["z", "y", "x", ""], ["d", "c", "b", "a"]]


def test_trec_tabs_blank_lines_and_negative_judgments():
    qrels = b"1\t0\ta\t-2\n\n1\t0\tb\t1\n"
    run = b"1 Q0  a 1 0.5 t\n\n1 Q0 b 2 0.4 t\n"  # two spaces: the slow path
    ds = read_trec(qrels, run, qrels_name="q.txt", run_name="r.txt")
    assert ds.y_true.tolist() == [[0, 1]]
    assert "1 negative judgment counted as 0" in ds.description


def _trec_case(seed: int):
    rng = np.random.default_rng(seed)
    qrels, run = [], []
    qrels_d: dict[str, dict[str, int]] = {}
    run_d: dict[str, dict[str, float]] = {}
    for q in range(12):
        qid = f"q{q}"
        docs = [f"D{i}" for i in rng.choice(60, size=30, replace=False)]
        judged = docs[:20] if q != 11 else []
        for d in judged:
            rel = int(rng.integers(0, 3))
            qrels.append(f"{qid} 0 {d} {rel}")
            qrels_d.setdefault(qid, {})[d] = rel
        if q == 10:
            continue  # a judged query the run lacks
        depth = 20 if q == 0 else int(rng.integers(3, 25))
        retrieved = list(rng.choice(docs, size=depth, replace=False))
        scores = rng.integers(0, 8, size=depth) / 4  # many ties
        for rank, (d, sc) in enumerate(zip(retrieved, scores, strict=True)):
            run.append(f"{qid} Q0 {d} {rank + 1} {sc} tag")
            run_d.setdefault(qid, {})[d] = float(sc)
    return "\n".join(qrels).encode(), "\n".join(run).encode(), qrels_d, run_d


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_trec_pivot_reproduces_trec_eval(seed):
    pytrec_eval = pytest.importorskip("pytrec_eval")
    qrels, run, qrels_d, run_d = _trec_case(seed)
    ds = read_trec(qrels, run, qrels_name="q", run_name="r")
    run_d = {q: docs for q, docs in run_d.items() if q in qrels_d}
    measures = {"P.5,10,30,1000", "recall.5,10,30,1000", "ndcg_cut.5,10,30,1000", "map"}
    want = pytrec_eval.RelevanceEvaluator(qrels_d, measures).evaluate(run_d)
    assert set(ds.sample_ids) == set(want)
    y, s, mask = ds.y_true, ds.score(), ds.retrieved
    # every cut-off, past the run's depth (at most 24) and the matrix's width too
    # the Top-K page's tables, ties in column order (the reader's is trec_eval's)
    for k in (5, 10, 30, 1000):
        t = metrics.retrieval_per_query(y, s, k=k, denominator="relevant", retrieved=mask)
        for row, qid in enumerate(ds.sample_ids):
            assert t["P@K"][row] == pytest.approx(want[qid][f"P_{k}"])
            assert t["R@K"][row] == pytest.approx(want[qid][f"recall_{k}"])
            assert t["NDCG@K"][row] == pytest.approx(want[qid][f"ndcg_cut_{k}"])
            if k == 1000:  # trec_eval's map: every retrieved document, over all relevant
                assert t["AP@K"][row] == pytest.approx(want[qid]["map"])
    for row, qid in enumerate(ds.sample_ids):
        # each retrieved slot names the run's document, each unretrieved one a judged one
        seen = ds.item_ids[row][mask[row]].tolist()
        assert sorted(seen) == sorted(run_d[qid])
        added = [d for d in ds.item_ids[row][~mask[row]].tolist() if d]
        assert sorted(added) == sorted(
            d for d, g in qrels_d[qid].items() if g > 0 and d not in run_d[qid]
        )


# --------------------------------------------------------------------------
# Refusals: each names the file, the line or row, the column and the value
# --------------------------------------------------------------------------


def test_refuses_a_semicolon_csv_naming_the_delimiter():
    message = refusal(read_upload, "semi.csv", b"y_true;y_score\n0;0.1\n1;0.9\n")
    assert_names(message, "semi.csv", "line 1", "'y_true;y_score'", "delimiter looks like ';'")


def test_refuses_a_tab_file_named_csv_and_a_comma_file_named_tsv():
    message = refusal(read_upload, "tabs.csv", b"y_true\ty_score\n0\t0.1\n")
    assert_names(message, "tabs.csv", "line 1", "delimiter looks like a tab")
    message = refusal(read_upload, "commas.tsv", b"y_true,y_score\n0,0.1\n")
    assert_names(message, "commas.tsv", "line 1", "delimiter looks like ','")


def test_refuses_labels_and_scores_headers_that_differ():
    message = refusal(
        read_pair_upload,
        "labels.csv",
        b"cat,dog,fish\n1,0,1\n",
        "scores.csv",
        b"cat,dog,fish,bird\n0.1,0.2,0.3,0.4\n",
    )
    assert_names(message, "labels.csv has 3 columns but scores.csv has 4", "extra: ['bird']")
    message = refusal(
        read_pair_upload, "labels.csv", b"cat,dog\n1,0\n", "scores.csv", b"cat,cow\n0.1,0.2\n"
    )
    assert_names(message, "labels.csv", "scores.csv", "extra: ['cow']", "missing: ['dog']")
    message = refusal(
        read_pair_upload, "labels.csv", b"cat,dog\n1,0\n", "scores.csv", b"dog,cat\n0.1,0.2\n"
    )
    assert_names(message, 'column 1 is "cat" in labels.csv but "dog" in scores.csv')


def test_refuses_a_non_numeric_cell():
    message = refusal(read_upload, "scores.csv", b"y_true,y_score\n0,0.1\n1,n/a\n")
    assert message == "scores.csv, line 3, column \"y_score\": 'n/a' is not a number."
    message = refusal(
        read_pair_upload, "labels.csv", b"cat,dog\n1,0\n", "scores.csv", b"cat,dog\n0.1,high\n"
    )
    assert_names(message, "scores.csv", "line 2", 'column "dog"', "'high'", "is not a number")


def test_a_decimal_comma_gets_a_hint():
    message = refusal(read_upload, "s.txt", b"y_true;y_score\n0;0,5\n")
    assert_names(message, "s.txt", "line 2", 'column "y_score"', "'0,5'", "decimal point")


@pytest.mark.parametrize(
    ("cell", "why"),
    [
        (b"nan", "'nan' is not a number"),
        (b"NaN", "'NaN' is not a number"),
        (b"inf", "'inf' is infinite"),
        (b"-inf", "'-inf' is infinite"),
        (b"1e999", "'1e999' is too large"),
        (b"", "is empty"),
        (b"  ", "is empty"),
    ],
)
def test_refuses_nan_inf_and_empty_cells(cell, why):
    text = b"y_true,y_score\n0,0.1\n1," + cell + b"\n0,0.3\n"
    message = refusal(read_upload, "cells.csv", text)
    assert_names(message, 'cells.csv, line 3, column "y_score"', why, "expected a")


def test_refuses_nan_in_npy_and_parquet_naming_row_and_column():
    s = np.zeros((3, 2))
    s[2, 1] = np.nan
    message = refusal(read_pair_upload, "y.npy", npy_bytes(np.ones((3, 2))), "s.npy", npy_bytes(s))
    assert_names(message, "s.npy", "row 3", 'column "label_1"', "index [2, 1]", "'nan'")
    df = pd.DataFrame({"y_true": [0, 1, 1], "y_score": [0.1, None, 0.3]})
    message = refusal(read_upload, "t.parquet", parquet_bytes(df))
    assert_names(message, "t.parquet", "row 2", 'column "y_score"', "empty or NaN")


@pytest.mark.parametrize(
    ("text", "line", "got", "want"),
    [
        (b"y_true,y_score\n0,0.1\n1,0.9,7\n", 3, 3, 2),  # one field too many
        (b"y_true,y_score\n0,0.1,7\n1,0.9\n", 2, 3, 2),  # on the first data line
        (b"y_true,y_score\n0,0.1\n1\n", 3, 1, 2),  # one field too few
        (b"y_true,y_score,id\n0,0.1,a\n\n\n1,0.9\n", 5, 2, 3),  # blank lines count
        (b'"y_true","y_score","note"\n0,0.1,"a, b"\n1,0.3\n', 3, 2, 3),  # quoted comma
    ],
)
def test_refuses_ragged_rows_naming_the_line(text, line, got, want):
    message = refusal(read_upload, "ragged.csv", text)
    assert_names(message, f"ragged.csv, line {line} has {got} field", f"header (line 1) has {want}")


def test_refuses_an_empty_file():
    for data in (b"", b"  \n\n"):
        assert_names(refusal(read_upload, "empty.csv", data), "empty.csv is empty")
    assert_names(refusal(read_pair_upload, "y.csv", b"", "s.csv", b"a\n1\n"), "y.csv is empty")
    assert_names(refusal(read_trec_upload, "q.txt", b"", "r.txt", RUN), "q.txt is empty")


def test_refuses_a_header_only_file():
    message = refusal(read_upload, "head.csv", b"y_true,y_score\n")
    assert_names(message, "head.csv has a header but no data rows")
    df = pd.DataFrame({"y_true": pd.Series([], dtype=int), "y_score": pd.Series([], dtype=float)})
    assert_names(refusal(read_upload, "h.parquet", parquet_bytes(df)), "h.parquet", "no data rows")


def test_refuses_a_2_where_a_binary_label_is_required():
    message = refusal(read_upload, "b.csv", b"y_true,y_score\n0,0.1\n1,0.5\n2,0.9\n")
    assert (
        message == "b.csv, line 4, column \"y_true\": '2' is not a binary label (expected 0 or 1)."
    )
    message = refusal(
        read_pair_upload,
        "labels.csv",
        b"cat,dog\n1,0\n0,2\n",
        "scores.csv",
        b"cat,dog\n0.1,0.2\n0.3,0.4\n",
        kind="multilabel",
    )
    assert_names(message, 'labels.csv, line 3, column "dog"', "'2'", "expected 0 or 1")


def test_refuses_negative_labels_in_a_matrix():
    message = refusal(
        read_pair_upload, "labels.csv", b"a,b\n1,-1\n", "scores.csv", b"a,b\n0.1,0.2\n"
    )
    assert_names(message, 'labels.csv, line 2, column "b"', "'-1'", "negative")
    message = refusal(read_upload, "long.csv", LONG.replace(b"q2,b,2,0.5", b"q2,b,-2,0.5"))
    assert_names(message, 'long.csv, line 5, column "y_true"', "'-2'", "negative")


def test_refuses_duplicated_ids_naming_both_lines():
    text = b"id,y_true,y_score\na,0,0.1\nb,1,0.2\nc,0,0.3\nb,1,0.4\n"
    message = refusal(read_upload, "ids.csv", text)
    assert message == (
        "ids.csv, line 5, column \"id\": 'b' repeats the id on line 3 (expected each id once)."
    )


def test_refuses_weights_that_are_negative_or_all_zero():
    message = refusal(read_upload, "w.csv", b"y_true,y_score,sample_weight\n0,0.1,1\n1,0.2,-0.5\n")
    assert_names(message, 'w.csv, line 3, column "sample_weight"', "'-0.5'", "expected a weight")
    message = refusal(read_upload, "w.csv", b"y_true,y_score,sample_weight\n0,0.1,0\n1,0.2,0\n")
    assert_names(message, 'w.csv, column "sample_weight"', "every weight is 0")


def test_refuses_shapes_that_differ():
    message = refusal(
        read_pair_upload,
        "labels.npy",
        npy_bytes(np.eye(5, 3)),
        "scores.npy",
        npy_bytes(np.zeros((5, 4))),
    )
    assert_names(message, "labels.npy has shape (5, 3) but scores.npy has shape (5, 4)")
    message = refusal(
        read_pair_upload, "labels.csv", b"a,b\n1,0\n0,1\n", "scores.csv", b"a,b\n0.1,0.2\n"
    )
    assert_names(message, "labels.csv has 2 rows but scores.csv has 1")
    message = refusal(
        read_pair_upload, "labels.npy", npy_bytes(np.zeros(4)), "s.npy", npy_bytes(np.zeros(4))
    )
    assert_names(message, "labels.npy", "shape (4,)", "expected a 2-D array")


def test_refuses_a_long_table_with_a_pair_one_model_lacks():
    message = refusal(read_upload, "long.csv", LONG.replace(b"q2,a,0,0.1,m2\n", b""))
    assert_names(message, "long.csv", "(sample 'q2', label 'a') is missing for model 'm2'")


def test_a_long_table_with_groups_of_different_sizes_keeps_each_groups_items():
    text = (
        b"sample,label,y_true,y_score,model\n"
        b"s1,a,1,0.5,m\ns1,b,0,0.4,m\ns2,b,2,0.3,m\ns3,z,1,0.7,m\ns3,a,0,0.7,m\ns3,c,1,0.1,m\n"
        b"s1,a,1,0.1,n\ns1,b,0,0.2,n\ns2,b,2,0.3,n\ns3,z,1,0.2,n\ns3,a,0,0.8,n\ns3,c,1,0.9,n\n"
    )
    ds = read_long_table(text, name="l.csv")
    assert ds.kind == "graded" and ds.label_names == ("slot_1", "slot_2", "slot_3")
    assert ds.item_ids.tolist() == [["a", "b", ""], ["b", "", ""], ["z", "a", "c"]]
    assert ds.retrieved.tolist() == [[1, 1, 0], [1, 0, 0], [1, 1, 1]]
    assert ds.y_true.tolist() == [[1, 0, 0], [2, 0, 0], [1, 0, 1]]
    assert ds.score("n").tolist() == [[0.1, 0.2, 0], [0.3, 0, 0], [0.2, 0.8, 0.9]]
    assert "1 to 3 each" in ds.description
    # an empty slot is never ranked: s2's P@3 is 1/3, its other slots no hit
    p = metrics.precision_at_k_per_sample(ds.y_true, ds.score("m"), k=3, retrieved=ds.retrieved)
    assert p.tolist() == [1 / 3, 1 / 3, 2 / 3]
    # the 0.7 tie of s3 ranks z (first in the file) first: RR 1
    rr = metrics.reciprocal_rank(ds.y_true, ds.score("m"), retrieved=ds.retrieved)
    assert rr.tolist() == [1.0, 1.0, 1.0]


def test_refuses_a_long_table_with_a_duplicated_pair():
    message = refusal(read_upload, "long.csv", LONG.replace(b"q2,a,0,0.1,m2", b"q2,b,2,0.1,m2"))
    assert_names(
        message,
        "long.csv, line 9",
        "(sample 'q2', label 'b', model 'm2') already appears on line 8",
    )


def test_refuses_a_long_table_whose_models_disagree_on_y_true():
    message = refusal(read_upload, "long.csv", LONG.replace(b"q2,a,0,0.1,m2", b"q2,a,1,0.1,m2"))
    assert_names(message, 'long.csv, line 8, column "y_true"', "'1' differs from '0' on line 4")


def test_refuses_a_trec_line_with_too_few_fields():
    run = RUN.replace(b"d2 2 2.0 bm25", b"d2 2 2.0")
    message = refusal(read_trec_upload, "qrels.txt", QRELS, "run.txt", run)
    assert_names(message, "run.txt, line 2 has 5 fields", "a TREC run line has 6")
    message = refusal(read_trec_upload, "qrels.txt", b"q1 0 d1\n", "run.txt", RUN)
    assert_names(message, "qrels.txt, line 1 has 3 fields", "a TREC qrels line has 4")
    message = refusal(read_trec_upload, "qrels.txt", RUN, "run.txt", QRELS)
    assert_names(message, "qrels.txt, line 1 has 6 fields", "swapped")


def test_refuses_non_numeric_trec_relevance_and_score():
    message = refusal(read_trec_upload, "q.txt", QRELS.replace(b"d2 0", b"d2 x"), "r.txt", RUN)
    assert message == "q.txt, line 2, field 4 (rel): 'x' is not a number."
    message = refusal(read_trec_upload, "q.txt", QRELS, "r.txt", RUN.replace(b"2.0", b"nan"))
    assert_names(message, "r.txt, line 2, field 5 (score)", "'nan' is not a number")


def test_refuses_trec_duplicates_and_runs_without_judged_queries():
    message = refusal(read_trec_upload, "q.txt", QRELS, "r.txt", RUN + b"q1 Q0 d1 9 0.1 bm25\n")
    assert_names(message, "r.txt, line 7", "'d1' of query 'q1' was already retrieved on line 1")
    message = refusal(read_trec_upload, "q.txt", QRELS + b"q1 0 d1 0\n", "r.txt", RUN)
    assert_names(message, "q.txt, line 6", "already judged on line 1")
    message = refusal(read_trec_upload, "q.txt", b"q9 0 a 1\n", "r.txt", RUN)
    assert_names(message, "r.txt", "q.txt", "none of the 3 queries")


@pytest.mark.parametrize(
    "data",
    [
        np.random.default_rng(7).bytes(2_000),
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x01\x00",
        b"PK\x03\x04\x14\x00\x06\x00",
        b"y_true,y_score\n0,0.1\x00\x00\x00\x01\x02\n",
    ],
    ids=["random", "png", "xlsx", "nul"],
)
def test_refuses_binary_garbage(data):
    message = refusal(read_upload, "upload.csv", data)
    assert_names(message, "upload.csv is not a text CSV file")
    message = refusal(read_trec_upload, "q.txt", data, "r.txt", RUN)
    assert_names(message, "q.txt is not a text TREC file")


def test_refuses_garbage_and_pickles_named_npy():
    message = refusal(read_pair_upload, "y.npy", b"not numpy", "s.npy", npy_bytes(np.eye(2)))
    assert_names(message, "y.npy is not a .npy file")
    buf = io.BytesIO()
    np.save(buf, np.array([{"a": 1}, None], dtype=object), allow_pickle=True)
    message = refusal(read_pair_upload, "y.npy", buf.getvalue(), "s.npy", npy_bytes(np.eye(2)))
    assert_names(message, "y.npy holds Python objects", "never unpickles")


def test_refuses_a_npy_header_claiming_more_than_the_file_holds():
    """np.load would allocate the claimed (10^6, 10^6) floats (7 TiB) before reading."""
    good = npy_bytes(np.eye(2))
    huge = good.replace(b"(2, 2)", b"(1000000, 1000000)")
    message = refusal(read_pair_upload, "y.npy", huge, "s.npy", good)
    assert_names(message, "y.npy is damaged", "shape (1000000, 1000000)", "8,000,000,000,000 bytes")
    short = good[:-8]  # the last value cut off
    message = refusal(read_pair_upload, "y.npy", good, "s.npy", short)
    assert_names(message, "s.npy is damaged", "shape (2, 2)", "(32 bytes)", "holds 24 bytes")


@pytest.mark.parametrize("at", [10, 20, 30, 40, 50])
def test_refuses_a_npy_with_a_damaged_header_byte(at):
    """A flipped byte in the header made numpy's tokenizer raise TokenError."""
    damaged = bytearray(npy_bytes(np.eye(2)))
    damaged[at] = ord("(")
    message = refusal(read_pair_upload, "y.npy", bytes(damaged), "s.npy", npy_bytes(np.eye(2)))
    assert_names(message, "y.npy")


def test_refuses_a_file_over_the_size_limit():
    data = b"y_true,y_score\n" + b"0,0.1\n" * 40
    message = refusal(read_upload, "big.csv", data, max_bytes=100)
    assert_names(message, "big.csv is 255 bytes", "the limit is 100 bytes per file")
    message = refusal(read_pair_upload, "y.csv", data, "s.csv", data, max_bytes=100)
    assert_names(message, "y.csv", "100 bytes")
    message = refusal(read_trec_upload, "q.txt", QRELS, "r.txt", RUN, max_bytes=100)
    assert_names(message, "r.txt", "the limit is 100 bytes")


def test_refuses_too_many_rows_columns_and_cells(monkeypatch):
    monkeypatch.setattr(limits, "MAX_ROWS", 3)
    message = refusal(read_upload, "rows.csv", b"y_true,y_score\n" + b"0,0.1\n" * 4)
    assert_names(message, "rows.csv has 4 rows", "the limit is 3 rows")
    monkeypatch.setattr(limits, "MAX_ROWS", 10)
    monkeypatch.setattr(limits, "MAX_COLUMNS", 3)
    message = refusal(read_upload, "cols.csv", b"y_true,score_a,score_b,score_c\n0,1,2,3\n")
    assert_names(message, "cols.csv has 4 columns", "the limit is 3 columns")
    monkeypatch.setattr(limits, "MAX_COLUMNS", 100)
    monkeypatch.setattr(limits, "MAX_CELLS", 20)
    df = pd.DataFrame(np.zeros((10, 5)), columns=list("abcde"))
    message = refusal(read_pair_upload, "y.parquet", parquet_bytes(df), "s.npy", b"")
    assert_names(message, "y.parquet has 10 rows x 5 columns", "the limit is 20 cells")


def test_refuses_npy_alone_and_unknown_file_types():
    message = refusal(read_upload, "scores.npy", npy_bytes(np.eye(2)))
    assert_names(message, "scores.npy", "labels + scores pair")
    message = refusal(read_upload, "book.xlsx", b"PK\x03\x04")
    assert_names(message, "book.xlsx", "'.xlsx'", ".csv")


def test_refuses_tables_without_the_needed_columns():
    message = refusal(read_upload, "nohead.csv", b"0,0.1\n1,0.9\n")
    assert_names(message, 'nohead.csv has no "y_true" column', "header row")
    message = refusal(read_upload, "t.csv", b"y_true,weight\n0,1\n")
    assert_names(message, "t.csv has no score column", '"y_score"')
    message = refusal(read_upload, "both.csv", b"y_true,y_score,y_pred\n0,0.1,0.2\n")
    assert_names(message, "both.csv", "['y_score']", "['y_pred']")
    message = refusal(read_upload, "dup.csv", b"y_true,y_score,y_true\n0,0.1,1\n")
    assert_names(message, "dup.csv, line 1", 'column "y_true" appears twice')
    message = refusal(read_upload, "trail.csv", b"y_true,y_score,\n0,0.1,\n")
    assert_names(message, "trail.csv, line 1", "column 3 has no name")


def test_a_bad_cell_deep_in_a_big_file_is_found_on_its_line():
    n = 50_000
    rng = np.random.default_rng(5)
    body = "".join(f"{i % 2},{v:.6f}\n" for i, v in enumerate(rng.random(n)))
    lines = ("y_true,y_score\n" + body).splitlines(keepends=True)
    lines[40_000] = "1,oops\n"
    message = refusal(read_upload, "big.csv", "".join(lines).encode())
    assert message == "big.csv, line 40001, column \"y_score\": 'oops' is not a number."
    lines[40_000] = "1,0.5,3\n"
    message = refusal(read_upload, "big.csv", "".join(lines).encode())
    assert_names(message, "big.csv, line 40001 has 3 fields")


# --------------------------------------------------------------------------
# The first readers' tests (from test_datasets.py)
# --------------------------------------------------------------------------


def test_read_table_names_line_column_and_value_of_a_bad_cell():
    with pytest.raises(DataError, match=r'bad\.csv, line 3, column "y_score": \'n/a\''):
        read_table(b"y_true,y_score\n0,0.1\n1,n/a\n", kind="binary", name="bad.csv")


def test_read_table_refuses_non_binary_label():
    with pytest.raises(DataError, match=r'line 2, column "y_true": \'2\''):
        read_table(b"y_true,y_score\n2,0.1\n", kind="binary", name="b.csv")


def test_read_matrix_pair_refuses_headers_that_differ():
    with pytest.raises(DataError, match=r"extra: \['bird'\]"):
        read_matrix_pair(b"cat,dog\n1,0\n", b"cat,dog,bird\n0.1,0.2,0.3\n", kind="multilabel")


def test_read_table_refuses_empty_and_header_only_files():
    with pytest.raises(DataError, match="empty"):
        read_table(b"", kind="binary", name="e.csv")
    with pytest.raises(DataError, match="no data rows"):
        read_table(b"y_true,y_score\n", kind="binary", name="h.csv")


# ---------------------------------------------------------------- column names people write
@pytest.mark.parametrize("y_name", ["label", "Target", "TRUTH", "y", "actual", "is_positive"])
@pytest.mark.parametrize("s_name", ["score", "prob", "Proba", "prediction", "y_prob", "logit"])
def test_common_column_names_are_read_with_a_note(y_name, s_name):
    from explorer.io.table import read_table

    data = f"{y_name},{s_name}\n0,0.2\n1,0.9\n1,0.4\n".encode()
    ds = read_table(data, name="t.csv")
    assert ds.kind == "binary" and ds.model_names == ("y_score",)
    assert ds.y_true.tolist() == [0, 1, 1] and ds.score().tolist() == [0.2, 0.9, 0.4]
    assert ds.description.endswith(f"read column '{y_name}' as y_true, '{s_name}' as y_score")


def test_an_aliased_prediction_of_real_targets_is_regression():
    from explorer.io import read_upload

    ds = read_upload("r.csv", b"target,prediction,sample_weight\n1.5,1.2,1\n3.0,2.5,2\n")
    assert ds.kind == "regression" and ds.model_names == ("y_pred",)
    assert ds.score().tolist() == [1.2, 2.5] and ds.sample_weight.tolist() == [1.0, 2.0]
    assert "read column 'target' as y_true, 'prediction' as y_pred" in ds.description


def test_canonical_names_win_and_need_no_note():
    from explorer.io.table import read_table

    ds = read_table(b"y_true,y_score,label\n0,0.2,1\n1,0.9,0\n", name="t.csv")
    assert ds.y_true.tolist() == [0, 1] and "read column" not in ds.description
    ds = read_table(b"label,score_a,score_b\n0,0.2,0.3\n1,0.9,0.1\n", name="t.csv")
    assert ds.model_names == ("a", "b")
    assert ds.description.endswith("read column 'label' as y_true")


def test_two_candidate_columns_are_refused_by_name():
    from explorer.io.table import read_table

    with pytest.raises(DataError, match=r"columns \['label', 'target'\] could each be y_true"):
        read_table(b"label,target,score\n0,0,0.2\n1,1,0.9\n", name="t.csv")
    with pytest.raises(DataError, match=r"\['prob', 'pred'\] could each be y_score"):
        read_table(b"label,prob,pred\n0,0.1,0.2\n1,0.8,0.9\n", name="t.csv")


def test_swapped_label_and_score_columns_are_named():
    from explorer.io.table import read_table

    with pytest.raises(DataError, match="look swapped"):
        read_table(b"label,prob\n0.2,0\n0.9,1\n0.7,1\n", name="t.csv")


def test_aliases_in_parquet_and_long_tables_still_work():
    from explorer.io import read_upload

    data = parquet_bytes(pd.DataFrame({"Truth": [0, 1, 1], "Confidence": [0.1, 0.7, 0.6]}))
    ds = read_upload("t.parquet", data)
    assert ds.kind == "binary" and ds.score().tolist() == [0.1, 0.7, 0.6]
    assert ds.description.endswith("read column 'Truth' as y_true, 'Confidence' as y_score")
    long = read_upload("l.csv", b"sample,label,y_true,y_score\na,x,1,0.9\na,y,0,0.2\n")
    assert long.kind == "multilabel" and "read column" not in long.description


def test_swapped_canonical_columns_get_a_hint():
    from explorer.io.table import read_table

    with pytest.raises(DataError, match="look swapped") as info:
        read_table(b"y_true,y_score\n0.2,0\n0.9,1\n", name="t.csv")
    assert "line 2" in str(info.value) and "0.2" in str(info.value)
    with pytest.raises(DataError) as info:  # a score column that is no 0/1: no hint
        read_table(b"y_true,y_score\n0.2,0.3\n0.9,1\n", name="t.csv")
    assert "swapped" not in str(info.value)


def test_two_text_classes_read_as_binary_with_the_greater_one_positive():
    import io as _io

    import pyarrow as pa
    import pyarrow.parquet as pq

    from explorer.io import read_upload as _read

    ds = _read("yn.csv", b"label,prob\nno,0.1\nyes,0.8\nyes,0.6\nno,0.3\n")
    assert ds.kind == "binary" and ds.label_names == ("no", "yes")
    assert ds.y_true.tolist() == [0, 1, 1, 0] and "'yes' (1, positive)" in ds.description
    buf = _io.BytesIO()
    pq.write_table(pa.table({"y_true": ["False", "True"], "y_score": [0.2, 0.7]}), buf)
    assert _read("tf.parquet", buf.getvalue()).label_names == ("False", "True")
    with pytest.raises(DataError, match=r'r.csv, line 2, column "y_true"'):
        _read("r.csv", b"y_true,pred_a\nlow,1.0\nhigh,2.0\n")  # regression needs numbers


def test_a_trec_run_with_extra_fields_is_read_as_trec_eval_reads_it():
    """trec_eval reads the first six fields (its own results.trunc has nine)."""
    lines = RUN.decode().splitlines()
    extra = "".join(f"{line} more   junk\n" for line in lines).encode()
    plain = read_trec_upload("qrels.txt", QRELS, "run.txt", RUN)
    wide = read_trec_upload("qrels.txt", QRELS, "run.txt", extra)
    np.testing.assert_array_equal(wide.y_true, plain.y_true)
    assert wide.model_names == plain.model_names
    for name in plain.model_names:
        np.testing.assert_array_equal(wide.score(name), plain.score(name))


def test_a_run_downloaded_as_a_long_table_reads_back_to_the_same_numbers():
    from explorer import downloads, editing

    run = read_trec_upload("qrels.txt", QRELS, "run.txt", RUN)
    text = downloads.csv_text(editing.long_table_from_run(run)).encode()
    back = read_long_table(text, name="run.csv")
    assert back.sample_ids == run.sample_ids
    assert back.item_ids.tolist() == [["d1", "d2", "d3", "d9"], ["x", "y", "", ""]]
    assert back.retrieved.tolist() == run.retrieved.tolist()
    for k in (1, 3, 1000):
        want = metrics.retrieval_per_query(run.y_true, run.score(), k=k, retrieved=run.retrieved)
        got = metrics.retrieval_per_query(back.y_true, back.score(), k=k, retrieved=back.retrieved)
        pd.testing.assert_frame_equal(got, want)
    with pytest.raises(DataError, match="retrieved"):
        read_long_table(text.replace(b",0\r\n", b",2\r\n"), name="run.csv")


def test_an_edited_run_keeps_what_it_retrieved():
    from explorer import editing

    run = read_trec_upload("qrels.txt", QRELS, "run.txt", RUN)
    labels, scores = editing.matrices_from_dataset(run)
    scores.iloc[0, 3] = 9.0  # the unretrieved d9 now scores highest: still never ranked
    new = editing.dataset_from_matrices(labels, scores, kind="graded", name="e", model="bm25")
    kept = editing.keep_run(new, run)
    assert kept.item_ids.tolist() == run.item_ids.tolist()
    # at K = 1 q1 shows d1 (grade 1) of an ideal d9 (grade 2): 0.5; had d9 been
    # ranked, NDCG@1 would be 1
    ndcg = metrics.ndcg_per_sample(kept.y_true, kept.score(), k=1, retrieved=kept.retrieved)
    assert ndcg.tolist() == [0.5, 1.0]
    assert metrics.ndcg_per_sample(new.y_true, new.score(), k=1).tolist() == [1.0, 1.0]
