"""explorer/io bounds bytes as well as cells: Parquet columns read selectively and
measured before they are decompressed, text cells capped, refusals kept short."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

from explorer.io import DataError, limits, read_pair_upload, read_trec_upload, read_upload
from explorer.io.errors import MAX_MESSAGE_CHARS, quote


def parquet(table: pa.Table, compression: str = "zstd", **kwargs) -> bytes:
    buf = io.BytesIO()
    pq.write_table(table, buf, compression=compression, **kwargs)
    return buf.getvalue()


def refusal(fn, *args, **kwargs) -> str:
    with pytest.raises(DataError) as info:
        fn(*args, **kwargs)
    message = str(info.value)
    assert len(message) <= MAX_MESSAGE_CHARS, message[:500]
    return message


_POOLS = []  # every pool a test made stays alive: arrays it allocated may outlive the test


@pytest.fixture
def arrow_pool():
    """Call it to install a fresh pyarrow memory pool: its ``max_memory()`` is the peak
    of what pyarrow allocated since (the default pool is back after the test)."""
    before = pa.default_memory_pool()

    def fresh() -> pa.MemoryPool:
        pool = pa.proxy_memory_pool(before)
        _POOLS.append(pool)
        pa.set_memory_pool(pool)
        return pool

    yield fresh
    pa.set_memory_pool(before)


BIG = 30_000_000  # one text of 30 MB: a Parquet file of a few KB


@pytest.fixture(scope="module")
def bomb() -> bytes:
    """y_true, y_score and a column "note" whose first cell is 30 MB of one letter."""
    note = pa.array(["x" * BIG, "b", "c"])
    data = parquet(pa.table({"y_true": [0, 1, 0], "y_score": [0.1, 0.9, 0.3], "note": note}))
    assert len(data) < 20_000
    return data


def test_a_parquet_bomb_in_an_ignored_column_is_never_decompressed(bomb, arrow_pool):
    pool = arrow_pool()
    ds = read_upload("bomb.parquet", bomb)
    assert ds.y_true.tolist() == [0, 1, 0] and ds.score().tolist() == [0.1, 0.9, 0.3]
    assert "ignored columns: note" in ds.description
    assert pool.max_memory() < 1_000_000


def test_reading_the_whole_bomb_would_take_its_full_size(bomb, arrow_pool):
    """The measure above can fail: pyarrow's own whole-file read allocates the 30 MB."""
    pool = arrow_pool()
    pq.read_table(io.BytesIO(bomb))
    assert pool.max_memory() > BIG


def test_a_parquet_column_too_big_once_decompressed_is_refused_before_reading(
    bomb, arrow_pool, monkeypatch
):
    monkeypatch.setattr(limits, "MAX_PARQUET_BYTES", 10_000_000)
    table = pq.read_table(io.BytesIO(bomb)).rename_columns(["y_true", "y_score", "id"])
    data = parquet(table)
    pool = arrow_pool()
    message = refusal(read_upload, "ids.parquet", data)
    assert "ids.parquet: the columns y_true, y_score, id take 30 MB once decompressed" in message
    assert "the limit is 10 MB" in message
    assert pool.max_memory() < 100_000  # nothing was read


def test_a_long_id_in_parquet_is_refused_naming_row_and_column():
    ids = pa.array(["a", "=" + "y" * 5000, "c"])
    data = parquet(pa.table({"y_true": [0, 1, 0], "y_score": [0.1, 0.9, 0.3], "id": ids}))
    message = refusal(read_upload, "t.parquet", data)
    assert message.startswith('t.parquet, row 2, column "id": \'=yyyyyyy')
    assert "(5,001 characters) is too long: at most 256 characters" in message


def test_one_long_text_on_every_row_is_measured_before_it_is_expanded(arrow_pool, monkeypatch):
    """Dictionary-encoded: 50 KB stored once, 2,000 rows point at it (100 MB decoded).

    Written as Spark or DuckDB would, without pyarrow's schema (which would have the
    column read back as a dictionary anyway).
    """
    monkeypatch.setattr(limits, "MAX_PARQUET_BYTES", 20_000_000)
    text = pa.DictionaryArray.from_arrays(pa.array([0] * 2000), pa.array(["z" * 50_000]))
    table = pa.table({"y_true": [0, 1] * 1000, "y_score": [0.5] * 2000, "sample_weight": text})
    data = parquet(table, store_schema=False)
    pool = arrow_pool()
    message = refusal(read_upload, "w.parquet", data)
    assert "w.parquet: the text columns read take 100 MB once decompressed" in message
    assert pool.max_memory() < 5_000_000


@pytest.mark.parametrize(
    ("column", "values", "holds"),
    [
        ("y_score", pa.array([[0.1], [0.9, 0.2], []]), "lists (list<element: double>)"),
        ("id", pa.array([{"a": 1}, {"a": 2}, {"a": 3}]), "records (a struct)"),
        ("y_true", pa.array([[("k", 1)], [], []], type=pa.map_(pa.string(), pa.int64())), "maps"),
    ],
)
def test_a_nested_parquet_column_is_refused_when_the_dataset_needs_it(column, values, holds):
    cols = {"y_true": pa.array([0, 1, 1]), "y_score": pa.array([0.1, 0.9, 0.4]), column: values}
    message = refusal(read_upload, "n.parquet", parquet(pa.table(cols)))
    assert message.startswith(f'n.parquet, column "{column}" holds {holds}')
    assert "not one value per row" in message


def test_a_nested_parquet_column_the_dataset_ignores_is_not_read():
    cols = {
        "tags": pa.array([["a"], ["b", "c"], None]),
        "y_true": pa.array([0, 1, 1]),
        "y_score": pa.array([0.1, 0.9, 0.4]),
    }
    ds = read_upload("n.parquet", parquet(pa.table(cols)))
    assert ds.score().tolist() == [0.1, 0.9, 0.4] and "ignored columns: tags" in ds.description


def test_parquet_columns_named_with_dots_and_pandas_unnamed_index():
    table = pa.table(
        {"y_true": [0, 1], "score_v1.2": [0.2, 0.7], "a.b": ["x", "y"], "__index_level_0__": [7, 9]}
    )
    ds = read_upload("d.parquet", parquet(table))
    assert ds.model_names == ("v1.2",) and ds.score().tolist() == [0.2, 0.7]
    assert ds.description.endswith("read as attributes: 'a.b'")
    assert ds.attribute_names == ("a.b",) and ds.attribute("a.b").tolist() == ["x", "y"]


def test_a_huge_csv_cell_is_quoted_by_its_first_characters():
    huge = b"=" + b"9" * 5_000_000
    message = refusal(read_upload, "h.csv", b"y_true,y_score\n1," + huge + b"\n0,0.1\n")
    assert message.startswith('h.csv, line 2, column "y_score": \'=999999999')
    assert "(5,000,001 characters)" in message


@pytest.mark.parametrize("n", [256, 257])
def test_ids_and_label_names_are_capped_in_length(n):
    long = "i" * n
    body = f"id,y_true,y_score\n{long},1,0.5\nb,0,0.2\n".encode()
    pair = (f"{long},b\n1,0\n".encode(), f"{long},b\n0.5,0.1\n".encode())
    if n <= limits.MAX_TEXT_CHARS:
        assert read_upload("ids.csv", body).sample_ids == (long, "b")
        assert read_pair_upload("l.csv", pair[0], "s.csv", pair[1]).label_names == (long, "b")
        return
    message = refusal(read_upload, "ids.csv", body)
    assert message.startswith('ids.csv, line 2, column "id": \'iiii')
    assert f"({n} characters) is too long: at most 256" in message
    message = refusal(read_pair_upload, "l.csv", pair[0], "s.csv", pair[1])
    assert message.startswith("l.csv, line 1, column 1: 'iii")


def test_a_long_model_name_and_a_long_sample_key_are_refused():
    message = refusal(read_upload, "m.csv", f"y_true,score_{'m' * 300}\n1,0.5\n".encode())
    assert message.startswith("m.csv, line 1, column 2: 'score_mmm")
    long = "s" * 1000
    body = f"sample,label,y_true,y_score\n{long},a,1,0.5\n".encode()
    message = refusal(read_upload, "long.csv", body)
    assert message.startswith('long.csv, line 2, column "sample": \'sss')


def test_a_long_trec_document_id_is_refused_naming_its_line():
    qrels = b"1 0 d1 1\n1 0 " + b"d" * 400 + b" 1\n"
    run = b"1 Q0 d1 1 2.0 tag\n"
    message = refusal(read_trec_upload, "q.txt", qrels, "r.txt", run)
    assert message.startswith("q.txt, line 2, field 3 (docid): 'ddd")
    run = b"1 Q0 d1 1 2.0 " + b"t" * 300 + b"\n"
    message = refusal(read_trec_upload, "q.txt", b"1 0 d1 1\n", "r.txt", run)
    assert message.startswith("r.txt, line 1, field 6 (tag): 'ttt")


def test_a_file_name_is_capped_in_length():
    name = "n" * 300 + ".csv"
    message = refusal(read_upload, name, b"y_true,y_score\n1,0.5\n")
    assert "is 304 characters long; the limit is 255 characters" in message


def test_every_refusal_is_short_however_long_its_parts():
    message = str(DataError("where: " + "x" * 100_000 + " (expected a number)."))
    assert len(message) == MAX_MESSAGE_CHARS
    assert message.startswith("where: xxx") and message.endswith("(expected a number).")
    assert quote("abc") == "'abc'" and quote("a" * 50, 3) == "'aaa'... (50 characters)"


def test_the_upload_limit_is_what_the_browser_enforces():
    """Streamlit's file picker: server.maxUploadSize x 1,000 x 1,000 bytes (Linux, macOS)."""
    assert limits.MAX_UPLOAD_BYTES == limits.UPLOAD_LIMIT_MB * 1000 * 1000 == 50_000_000
    assert "Up to 50 MB (50,000,000 bytes) per file" in limits.limits_text()
    at_limit = b"y_true,y_score\n1,0.5\n" + b" " * (50_000_000 - 21)
    assert read_upload("edge.csv", at_limit).n_samples == 1
    message = refusal(read_upload, "over.csv", at_limit + b" ")
    assert "over.csv is 50 MB (50,000,001 bytes); the limit is 50 MB (50,000,000 bytes)" in message


def test_a_npy_of_python_objects_claiming_a_huge_shape_is_refused_before_np_load():
    """Found by the upload fuzz (upload_case(19, 19155)): np.load sized the shape first
    and raised OverflowError for an object array of shape (99999999999999999999, 2)."""
    header = b"{'descr': '|O', 'fortran_order': True, 'shape': (99999999999999999999, 2), }\n"
    data = b"\x93NUMPY\x01\x00" + len(header).to_bytes(2, "little") + header
    buf = io.BytesIO()
    np.save(buf, np.eye(2))
    good = buf.getvalue()
    message = refusal(read_pair_upload, "y.npy", good, "s.npy", data)
    assert message.startswith("s.npy holds Python objects (pickled data), not numbers")


def test_a_parquet_binary_id_that_is_not_utf8_is_refused():
    """Found by the upload fuzz (upload_case(19, 3421)): pandas raised UnicodeDecodeError."""
    ids = pa.array([b"\xff", b"0", b"1"])
    data = parquet(pa.table({"y_true": [0, 1, 1], "y_score": [0.1, 0.9, 0.4], "id": ids}))
    message = refusal(read_upload, "b.parquet", data)
    assert message == 'b.parquet, column "id" holds bytes that are not UTF-8 text.'
    ok = parquet(pa.table({"y_true": [0, 1], "y_score": [0.1, 0.9], "id": [b"a", b"b"]}))
    assert read_upload("ok.parquet", ok).sample_ids == ("a", "b")


def test_a_text_file_of_too_many_rows_is_refused_before_it_is_parsed(monkeypatch):
    """12 million short rows took 450 MB of parsing before the row limit refused them."""
    from explorer.io.text import _TextFrame

    def never(*args):
        raise AssertionError("the file was parsed")

    monkeypatch.setattr(_TextFrame, "_fast_read", never)
    monkeypatch.setattr(limits, "MAX_ROWS", 1000)
    body = b"y_true,y_score\n" + b"0,1\n\n" * 1001  # blank lines do not count as rows
    message = refusal(read_upload, "rows.csv", body)
    assert message == "rows.csv has 1,001 rows; the limit is 1,000 rows."
    monkeypatch.setattr(limits, "MAX_CELLS", 1500)
    message = refusal(read_upload, "cells.csv", b"y_true,y_score\n" + b"0,1\n" * 800)
    assert "cells.csv has 800 rows x 2 columns = 1,600 cells; the limit is 1,500 cells." in message


def test_a_line_too_long_for_its_columns_is_refused_before_any_parser_copies_it(monkeypatch):
    import pyarrow.csv

    def no_parse(*args, **kw):
        raise AssertionError("parsed a file that the line scan should have refused")

    monkeypatch.setattr(pd, "read_csv", no_parse)
    monkeypatch.setattr(pyarrow.csv, "read_csv", no_parse)
    cell = b"x" * (limits.MAX_CELL_CHARS * 10)
    message = refusal(read_upload, "c.csv", b"id,y_true,y_score\na,0,0.1\n" + cell + b",1,0.5\n")
    assert message == (
        f'c.csv, line 3, column "id": {"x" * 40!r}... ({len(cell):,} characters) is too long: '
        f"a cell holds at most {limits.MAX_CELL_CHARS:,} characters."
    )
    many = b",".join([b"1"] * (limits.MAX_CELL_CHARS * 4))
    message = refusal(read_upload, "q.csv", b"y_true,y_score\n" + many + b"\n")
    assert message.startswith(f"q.csv, line 2 is {len(many):,} characters long: a row of 2")


def _varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def _read_varint(buf: bytes, i: int) -> tuple[int, int]:
    n = shift = 0
    while True:
        byte, i = buf[i], i + 1
        n |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return n, i


def _page_header_claiming(compression: str, claim: int) -> bytes:
    """A Parquet file whose y_score data page header claims ``claim`` bytes uncompressed.

    The thrift compact header starts: type (i32), uncompressed_page_size (i32),
    compressed_page_size (i32), crc (i32). The crc field is dropped to make room for
    the 5-byte claim; the compressed size is re-written as a padded varint, so the
    header keeps its length and every offset in the footer stays right.
    """
    table = pa.table({"y_true": [0, 1] * 500, "y_score": np.linspace(0, 1, 1000)})
    data = bytearray(parquet(table, compression, write_page_checksum=True, use_dictionary=False))
    at = pq.ParquetFile(io.BytesIO(bytes(data))).metadata.row_group(0).column(1)
    i = at.data_page_offset
    assert data[i] == 0x15
    start = _read_varint(data, i + 1)[1] + 1  # the uncompressed size's varint
    compressed, j = _read_varint(data, _read_varint(data, start)[1] + 1)
    assert data[j] == 0x15  # the crc field follows
    end = _read_varint(data, j + 1)[1]
    head = _varint(2 * claim) + b"\x15"  # zigzag of a positive i32, then field 3's header
    size = _varint(compressed)
    pad = end - start - len(head) - len(size)
    assert pad > 0
    size = bytes(b | 0x80 for b in size) + b"\x80" * (pad - 1) + b"\x00"
    data[start:end] = head + size
    return bytes(data)


@pytest.mark.parametrize("compression", ["snappy", "gzip", "zstd", "none"])
def test_a_page_header_claiming_two_gigabytes_is_refused_without_allocating_them(
    compression, arrow_pool
):
    data = _page_header_claiming(compression, 2**31 - 1)
    pool = arrow_pool()
    message = refusal(read_upload, "p.parquet", data)
    assert message.startswith("p.parquet is not a readable Parquet file (")
    assert pool.max_memory() < 10_000_000
