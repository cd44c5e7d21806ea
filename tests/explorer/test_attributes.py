"""Sample and query attributes: every reader, side files, links, edits and downloads."""

from __future__ import annotations

import base64
import io as _io
import json
import zlib

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from explorer import downloads, editing
from explorer.datasets import Dataset, describe
from explorer.io import DataError
from explorer.io.uploads import (
    read_pair_upload,
    read_ranking_upload,
    read_trec_upload,
    read_upload,
)
from explorer.links import decode_dataset, encode_dataset
from explorer.ui.session import dataset_bytes


def _refusal(call) -> str:
    with pytest.raises(DataError) as info:
        call()
    return str(info.value)


def _values(ds: Dataset) -> dict[str, list]:
    """Attributes as plain lists, NaN written None (NaN != NaN in a comparison)."""
    out = {}
    for name, v in ds.attributes:
        out[name] = [None if isinstance(x, float) and np.isnan(x) else x for x in v.tolist()]
    return out


# ------------------------------------------------------------------ one-table readers
TABLE = "y_true,y_score,site,age\n0,0.1,A,30\n1,0.9,B,\n1,0.4,A,41.5\n"


@pytest.mark.parametrize("fmt", ["csv", "tsv", "parquet"])
def test_a_table_keeps_its_extra_columns_as_attributes(fmt):
    df = pd.read_csv(_io.StringIO(TABLE), keep_default_na=False, dtype={"age": str})
    if fmt == "csv":
        data = TABLE.encode()
    elif fmt == "tsv":
        data = TABLE.replace(",", "\t").encode()
    else:
        df["age"] = pd.to_numeric(df["age"])  # a Parquet column of numbers with a null
        buf = _io.BytesIO()
        pq.write_table(pa.Table.from_pandas(df, preserve_index=False), buf)
        data = buf.getvalue()
    ds = read_upload(f"t.{fmt}", data)
    assert ds.model_names == ("y_score",) and ds.y_true.tolist() == [0, 1, 1]
    assert _values(ds) == {"site": ["A", "B", "A"], "age": [30.0, None, 41.5]}
    assert ds.attribute("age").dtype == np.float64 and ds.attribute("site").dtype == object
    assert "read as attributes: 'site', 'age'" in ds.description
    summary = describe(ds).set_index("what")["value"]
    assert summary["attributes"] == "site (text, 2 values), age (numbers, 2 values, 1 missing)"


def test_a_regression_table_ignores_score_columns_and_keeps_the_rest():
    data = b"y_true,pred_a,score_x,grp\n1.5,1.2,0.3,7\n2.0,2.5,0.1,8\n"
    ds = read_upload("r.csv", data, kind="regression")
    assert ds.kind == "regression" and ds.model_names == ("a",)
    assert _values(ds) == {"grp": [7.0, 8.0]}
    assert "ignored columns: score_x" in ds.description


def test_a_multiclass_table_and_a_long_table_keep_attributes():
    mc = read_upload("m.csv", b"y_true,proba_a,proba_b,lang\na,0.9,0.1,en\nb,0.3,0.7,fr\n")
    assert mc.kind == "multiclass" and _values(mc) == {"lang": ["en", "fr"]}
    text = (
        b"sample,label,y_true,y_score,site,feat\nq1,a,1,0.9,A,1\nq1,b,0,0.2,A,2\nq2,a,1,0.5,B,3\n"
    )
    long = read_upload("l.csv", text)
    assert long.sample_ids == ("q1", "q2") and _values(long) == {"site": ["A", "B"]}
    assert "left out (not the same on every row of a sample): 'feat'" in long.description


def test_a_qid_table_keeps_the_columns_constant_within_each_query():
    text = b"qid,doc,label,score,topic,len\n7,a,2,0.1,news,1\n7,b,0,0.3,news,2\n9,c,1,0.2,web,3\n"
    ds = read_upload("q.csv", text)
    assert ds.sample_ids == ("7", "9") and _values(ds) == {"topic": ["news", "web"]}
    assert "not the same on every row of a query): 'len'" in ds.description


# ------------------------------------------------------------------ side files
def _npy(a) -> bytes:
    buf = _io.BytesIO()
    np.save(buf, np.asarray(a, dtype=np.float64))
    return buf.getvalue()


def test_a_npy_pair_takes_a_side_file_by_sample_id():
    side = ("meta.csv", b"id,hospital,age\n1,B,60\n0,A,35\n")
    ds = read_pair_upload(
        "y.npy", _npy([[1, 0], [0, 1]]), "m.npy", _npy([[0.9, 0.2], [0.1, 0.8]]), attributes=side
    )
    assert _values(ds) == {"hospital": ["A", "B"], "age": [35.0, 60.0]}
    assert ds.description.endswith("attributes from meta.csv: 'hospital', 'age'")


QRELS = b"1 0 d1 1\n1 0 d2 0\n2 0 d3 2\n"
RUN = b"1 Q0 d1 1 0.9 r\n1 Q0 d2 2 0.5 r\n2 Q0 d3 1 0.7 r\n"


def test_a_trec_run_takes_a_side_file_by_query_id():
    ds = read_trec_upload(
        "q.txt", QRELS, "r.txt", RUN, attributes=("t.tsv", b"qid\ttype\n2\tb\n1\ta\n")
    )
    assert ds.sample_ids == ("1", "2") and _values(ds) == {"type": ["a", "b"]}


def test_svmlight_takes_a_side_file_by_query_id():
    data = b"2 qid:10 1:0.5\n0 qid:10 1:0.2\n1 qid:11 1:0.9\n"
    ds = read_ranking_upload(
        "t.txt",
        data,
        ("s.txt", b"0.1\n0.7\n0.4\n"),
        attributes=("m.csv", b"query,len\n11,3\n10,8\n"),
    )
    assert _values(ds) == {"len": [8.0, 3.0]}


@pytest.mark.parametrize(
    ("side", "message"),
    [
        (b"qid,type\n1,a\n5,b\n2,c\n", "m.csv, line 3, column \"qid\": '5' is not a query id"),
        (b"qid,type\n1,a\n2,b\n1,c\n", "m.csv, line 4, column \"qid\": '1' is given twice"),
        (b"qid,type\n2,b\n", "m.csv has no row for query id '1': every query needs one."),
        (b"qid\n1\n2\n", "m.csv has only the column 'qid'"),
    ],
)
def test_a_side_file_whose_ids_do_not_match_is_refused_by_line(side, message):
    text = _refusal(lambda: read_trec_upload("q", QRELS, "r", RUN, attributes=("m.csv", side)))
    assert text.startswith(message)


def test_a_side_file_may_not_rename_an_attribute_the_table_has():
    text = _refusal(
        lambda: read_upload(
            "t.csv",
            b"y_true,y_score,site\n0,0.1,A\n1,0.9,B\n",
            attributes=("m.csv", b"id,site\n0,X\n1,Y\n"),
        )
    )
    assert text == "m.csv: the data already has the attribute 'site'; rename one of them."


# ------------------------------------------------------------------ Dataset, links, session
def _with_attributes() -> Dataset:
    return Dataset(
        "t",
        "binary",
        np.array([0, 1, 1]),
        {"m": np.array([0.1, 0.2, 0.3])},
        sample_ids=("a", "b", "c"),
        attributes={
            "site": np.array(["A", "", "=B"], dtype=object),
            "age": np.array([1 / 3, np.nan, -0.0]),
        },
    )


def test_attributes_are_part_of_the_fingerprint_and_validated():
    ds = _with_attributes()
    bare = Dataset("t", "binary", ds.y_true, ds.scores, sample_ids=ds.sample_ids)
    assert ds.fingerprint != bare.fingerprint and ds.cache_key != bare.cache_key
    other = Dataset(**{**_kw(ds), "attributes": {"site": np.array(["A", "", "B"], dtype=object)}})
    assert other.fingerprint != Dataset(**{**_kw(ds), "attributes": ds.attributes[:1]}).fingerprint
    with pytest.raises(ValueError, match="shape"):
        Dataset(**{**_kw(ds), "attributes": {"x": np.zeros(2)}})
    with pytest.raises(ValueError, match="infinite"):
        Dataset(**{**_kw(ds), "attributes": {"x": np.array([0, np.inf, 1])}})
    with pytest.raises(ValueError, match="not a mix"):
        Dataset(**{**_kw(ds), "attributes": {"x": np.array(["a", 1, "b"], dtype=object)}})
    assert ds.attribute("site").flags.writeable is False


def _kw(ds: Dataset) -> dict:
    return {"name": ds.name, "kind": ds.kind, "y_true": ds.y_true, "scores": ds.scores}


def test_attributes_travel_in_a_link_exactly_and_old_links_still_open():
    ds = _with_attributes()
    back = decode_dataset(encode_dataset(ds))
    assert back.fingerprint == ds.fingerprint and _values(back) == _values(ds)
    assert np.signbit(back.attribute("age")[2])  # -0.0 comes back as itself
    bare = Dataset("t", "binary", ds.y_true, ds.scores)
    assert (
        "a" not in _payload(encode_dataset(bare))
        and decode_dataset(encode_dataset(bare)).attributes == ()
    )


def _payload(token: str) -> dict:
    raw = zlib.decompress(base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)))
    return json.loads(raw.partition(b"\n")[0])


def _token(payload: dict) -> str:
    return base64.urlsafe_b64encode(zlib.compress(json.dumps(payload).encode())).decode()


@pytest.mark.parametrize(
    "attributes",
    [
        [["x", "n", [1, 2]]],  # 2 values for 3 samples
        [["x", "t", ["a", 1, "b"]]],
        [["x", "n", [1, "2", 3]]],
        [["x", "q", [1, 2, 3]]],
        [["x", "n", [1, 2, 3]], ["x", "n", [1, 2, 3]]],
        [[7, "n", [1, 2, 3]]],
        "x",
    ],
)
def test_a_link_with_damaged_attributes_is_refused(attributes):
    payload = _payload(encode_dataset(_with_attributes()))
    payload["a"] = attributes
    assert "the link's data parameter is damaged" in _refusal(
        lambda: decode_dataset(_token(payload))
    )


def test_the_session_counts_the_attributes_bytes():
    ds = _with_attributes()
    bare = Dataset("t", "binary", ds.y_true, ds.scores, sample_ids=ds.sample_ids)
    # 3 float64, 3 texts of 0 to 2 characters and 2 names of 3 and 4 characters
    assert dataset_bytes(ds) - dataset_bytes(bare) == 24 + (1 + 0 + 2 + 3 + 4) + 57 * 5


# ------------------------------------------------------------------ edits and downloads
def test_the_csv_download_reads_back_with_its_attributes():
    ds = _with_attributes()
    text = downloads.csv_text(editing.table_from_dataset(ds))
    assert text.splitlines()[0] == "id,y_true,score_m,site,age"
    back = read_upload("t.csv", text.replace("'=B", "=B").encode())
    assert _values(back) == {"site": ["A", "", "=B"], "age": [1 / 3, None, 0.0]}


def test_an_edit_keeps_the_attributes_of_the_rows_it_kept():
    ds = _with_attributes()
    table = editing.table_from_dataset(ds)
    edited = pd.concat(
        [table.iloc[[2, 0]], pd.DataFrame({"id": ["z"], "y_true": [1], "score_m": [0.5]})]
    )
    new = editing.dataset_from_table(edited, kind="binary", name="e")
    assert _values(new) == {"site": ["=B", "A", ""], "age": [-0.0, 1 / 3, None]}
    y = np.eye(2)
    run = Dataset(
        "g",
        "graded",
        y,
        {"m": y},
        sample_ids=("q1", "q2"),
        attributes={"k": np.array(["x", "y"], dtype=object)},
    )
    labels, scores = editing.matrices_from_dataset(run)
    edit = editing.dataset_from_matrices(
        labels.iloc[::-1], scores.iloc[::-1], kind="graded", name="e"
    )
    assert _values(editing.keep_attributes(edit, run)) == {"k": ["y", "x"]}
    side = editing.attributes_table(run)
    again = read_pair_upload(
        "l.csv",
        labels.to_csv().encode(),
        "s.csv",
        scores.to_csv().encode(),
        attributes=("a.csv", downloads.csv_text(side).encode()),
    )
    assert _values(again) == {"k": ["x", "y"]}


def test_a_runs_long_download_reads_back_with_its_query_attributes():
    y = np.array([[1.0, 0.0], [2.0, 0.0]])
    ids = np.array([["d1", "d2"], ["d3", ""]], dtype=object)
    run = Dataset(
        "r",
        "graded",
        y,
        {"bm25": y / 4},
        sample_ids=("q1", "q2"),
        item_ids=ids,
        retrieved=np.array([[True, True], [True, False]]),
        attributes={"topic": np.array(["news", "web"], dtype=object), "n": np.array([2.0, 1.0])},
    )
    text = downloads.csv_text(editing.long_table_from_run(run))
    back = read_upload("r.csv", text.encode())
    assert back.sample_ids == ("q1", "q2") and _values(back) == _values(run)
