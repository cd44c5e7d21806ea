"""Seeded hostile inputs for the upload and link fuzz tests.

:func:`upload_case` builds case ``i`` of a seeded run: which uploader (one file,
a labels + scores pair, TREC qrels + run), the files' names and bytes, and what
was done to them (``what``), so a failure can be replayed from its number
alone. :func:`link_case` does the same for a ``?data=`` link token.

Nothing here is random without a seed: ``random.Random(f"{seed}:{i}")``.
``FUZZ_CASES`` (an environment variable) raises the number of cases a test runs;
``FUZZ_UPLOADS`` and ``FUZZ_LINKS`` set the uploads and the links of both levels (the
readers and the app in AppTest): the long mode,
``FUZZ_UPLOADS=10000 FUZZ_LINKS=10000 .venv/bin/python -m pytest -p no:xdist -q
tests/explorer/test_upload_fuzz.py tests/explorer/test_link_fuzz.py
tests/views/test_upload_fuzz_app.py tests/views/test_link_fuzz_app.py``, opens 10,000
uploads and 10,000 links in the app (and at least as many through the readers).
"""

from __future__ import annotations

import base64
import bz2
import functools
import gzip
import io
import json
import lzma
import os
import random
import zipfile
import zlib
from dataclasses import dataclass
from decimal import Decimal

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq


def _env(variable: str, environ=None) -> int:
    return int((os.environ if environ is None else environ).get(variable, "0") or 0)


def n_cases(default: int, variable: str | None = None) -> int:
    """``default``, or more when the environment asks for more: ``FUZZ_CASES``, or
    ``variable`` (``FUZZ_UPLOADS``, ``FUZZ_LINKS``) for one fuzzer."""
    return max(default, _env("FUZZ_CASES"), _env(variable) if variable else 0)


def app_cases(default: int, variable: str, environ=None) -> int:
    """Cases of an AppTest fuzz: ``default``, a twentieth of ``FUZZ_CASES``, or all of
    ``variable`` (``FUZZ_UPLOADS=10000``: 10,000 uploads through the Data page).

    Examples
    --------
    >>> app_cases(252, "FUZZ_UPLOADS", {"FUZZ_UPLOADS": "10000"})
    10000
    >>> app_cases(252, "FUZZ_UPLOADS", {"FUZZ_CASES": "40000"}), app_cases(252, "X", {})
    (2000, 252)
    """
    return max(default, _env("FUZZ_CASES", environ) // 20, _env(variable, environ))


# ---------------------------------------------------------------- valid bases
@dataclass
class Case:
    """One fuzz case: the uploader (``one``, ``pair``, ``trec``), its files, what was done."""

    entry: str
    files: list[tuple[str, bytes]]
    what: str


def _csv(header, rows, sep=",") -> bytes:
    lines = [sep.join(map(str, header))]
    lines += [sep.join(str(v) for v in r) for r in rows]
    return ("\n".join(lines) + "\n").encode()


def _parquet(df: pd.DataFrame | pa.Table, compression: str = "snappy") -> bytes:
    table = df if isinstance(df, pa.Table) else pa.Table.from_pandas(df)
    buf = io.BytesIO()
    pq.write_table(table, buf, compression=compression)
    return buf.getvalue()


def _npy(a) -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.asarray(a))
    return buf.getvalue()


def _binary_rows(r: random.Random, n: int):
    return [
        [f"s{i}", r.randint(0, 1), round(r.random(), 3), round(r.random(), 3)] for i in range(n)
    ]


def base_one(r: random.Random) -> tuple[str, bytes]:
    """A valid one-file upload: binary, regression or long; CSV, TSV, text or Parquet."""
    n = r.randint(2, 12)
    shape = r.choice(["binary", "regression", "long"])
    if shape == "binary":
        header, rows = ["id", "y_true", "score_a", "score_b"], _binary_rows(r, n)
    elif shape == "regression":
        header = ["y_true", "y_pred"]
        rows = [[round(r.uniform(-5, 5), 2), round(r.uniform(-5, 5), 2)] for _ in range(n)]
    else:
        header = ["sample", "label", "y_true", "y_score"]
        rows = [
            [f"q{i}", f"d{j}", r.randint(0, 2), round(r.random(), 3)]
            for i in range(n)
            for j in range(3)
        ]
    fmt = r.choice(["csv", "csv", "tsv", "txt", "parquet"])
    if fmt == "parquet":
        return f"{shape}.parquet", _parquet(pd.DataFrame(rows, columns=header))
    sep = {"csv": ",", "tsv": "\t", "txt": r.choice([",", ";", "|", "\t", " "])}[fmt]
    return f"{shape}.{fmt}", _csv(header, rows, sep)


def base_matrix(r: random.Random, n: int, m: int, graded: bool, fmt: str) -> tuple[str, bytes]:
    values = r.choice([[0, 1], [0, 1, 2, 3]]) if graded else [0.1, 0.5, 0.9, -2.0]
    a = np.array([[r.choice(values) for _ in range(m)] for _ in range(n)], dtype=float)
    names = [f"L{j}" for j in range(m)]
    if fmt == "npy":
        return "m.npy", _npy(a)
    if fmt == "parquet":
        return "m.parquet", _parquet(pd.DataFrame(a, columns=names))
    return f"m.{fmt}", _csv(names, a.tolist(), "\t" if fmt == "tsv" else ",")


def base_pair(r: random.Random) -> list[tuple[str, bytes]]:
    n, m = r.randint(1, 8), r.randint(1, 5)
    fl, fs = r.choice(["csv", "tsv", "npy", "parquet"]), r.choice(["csv", "npy", "parquet"])
    lname, lab = base_matrix(r, n, m, True, fl)
    sname, sco = base_matrix(r, n, m, False, fs)
    return [("labels." + lname.split(".")[-1], lab), ("scores." + sname.split(".")[-1], sco)]


def base_trec(r: random.Random) -> list[tuple[str, bytes]]:
    qrels, run = [], []
    for q in range(r.randint(1, 4)):
        docs = [f"D{q}{j}" for j in range(r.randint(1, 6))]
        for d in docs:
            if r.random() < 0.8:
                qrels.append(f"{q} 0 {d} {r.randint(-1, 3)}")
        for rank, d in enumerate(docs):
            run.append(f"{q} Q0 {d} {rank + 1} {round(10 - rank + r.random(), 2)} tag")
    return [
        ("qrels.txt", ("\n".join(qrels) + "\n").encode()),
        ("run.txt", ("\n".join(run) + "\n").encode()),
    ]


# ---------------------------------------------------------------- mutations
def _truncate(r: random.Random, data: bytes) -> bytes:
    return data[: r.randint(0, max(len(data) - 1, 0))]


def _bitflip(r: random.Random, data: bytes) -> bytes:
    if not data:
        return b"\x01"
    b = bytearray(data)
    for _ in range(r.choice([1, 1, 2, 4, 16])):
        k = r.randrange(len(b))
        b[k] ^= 1 << r.randrange(8)
    return bytes(b)


def _random_bytes(r: random.Random) -> bytes:
    n = r.choice([0, 1, 7, 64, 1000, 5000])
    return bytes(r.getrandbits(8) for _ in range(n))


def _npy_header(r: random.Random) -> bytes:
    """A .npy file whose header claims something the bytes do not hold."""
    shape = r.choice(
        [
            "(1000000, 1000000)",
            "(10**6,)",
            "(-1, 2)",
            "(2, 2, 2)",
            "()",
            "(0, 3)",
            "(3, 0)",
            "(99999999999999999999, 2)",
            "(2, 2)",
            "(1, 1)",
            "('a', 2)",
            "(2.5, 2)",
        ]
    )
    descr = r.choice(
        [
            "'<f8'",
            "'>f8'",
            "'|O'",
            "'<U10'",
            "'|V8'",
            "'<c16'",
            "'|b1'",
            "'<i8'",
            "'<M8[s]'",
            "'f8'",
            "[('a', '<f8')]",
            "'<f2'",
        ]
    )
    fortran = r.choice(["False", "True", "1", "'x'"])
    header = f"{{'descr': {descr}, 'fortran_order': {fortran}, 'shape': {shape}, }}"
    if r.random() < 0.2:
        header = header[: r.randint(0, len(header))]
    body = header.encode() + b" " * (r.choice([0, 5, 63])) + b"\n"
    version = r.choice([b"\x01\x00", b"\x02\x00", b"\x03\x00", b"\x09\x09"])
    if version == b"\x01\x00":
        head = version + len(body).to_bytes(2, "little")
    else:
        head = version + len(body).to_bytes(4, "little")
    payload = bytes(8 * r.choice([0, 1, 4, 8]))
    return b"\x93NUMPY" + head + body + payload


_FORMULAS = ["=1+1", "+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", '=HYPERLINK("x")']
_NUMBERS = [
    "1e308",
    "1e309",
    "-1e309",
    "-0",
    "nan",
    "NaN",
    "inf",
    "-inf",
    "Infinity",
    "0x10",
    "1_000",
    " 1 ",
    "١",
    "１",
    "1,5",
    "9" * 400,
    "-" + "9" * 400,
    "1e-400",
    "5e-324",
    "",
    " ",
    "True",
    "null",
    "None",
    '"1"',
    "'1'",
    "1.0.0",
    "++1",
    "--1",
    "2**53",
    "9007199254740993",
]


def _encode(r: random.Random, text: bytes) -> bytes:
    s = text.decode("utf-8", "replace")
    s = s.replace("s0", r.choice(["sé", "s€", "s😀", "s\u200b", "s\x00", "s\ufffd", "ß"]))
    enc = r.choice(
        [
            "utf-16",
            "utf-16-le",
            "utf-16-be",
            "latin-1",
            "cp1252",
            "utf-8-sig",
            "utf-32",
            "shift_jis",
            "utf-7",
        ]
    )
    try:
        out = s.encode(enc, "replace")
    except (LookupError, UnicodeError):
        out = s.encode("utf-8")
    if r.random() < 0.3:
        out = out + bytes([0xC3, 0x28, 0xFF, 0xFE])  # broken UTF-8
    return out


def _ragged(r: random.Random, text: bytes) -> bytes:
    lines = text.split(b"\n")
    for _ in range(r.randint(1, 3)):
        k = r.randrange(len(lines))
        lines[k] = r.choice(
            [lines[k] + b",9", lines[k].rsplit(b",", 1)[0], b"", b",,,", b'"', lines[k] + b'"x']
        )
    return b"\n".join(lines)


def _header(r: random.Random, text: bytes) -> bytes:
    head, _, body = text.partition(b"\n")
    cells = head.split(b",")
    k = r.randrange(len(cells))
    choice = r.choice(["dup", "empty", "space", "long", "quote", "bom", "unicode", "index"])
    if choice == "dup":
        cells.append(cells[k])
    elif choice == "empty":
        cells[k] = b""
    elif choice == "space":
        cells[k] = b"   "
    elif choice == "long":
        cells[k] = b"score_" + b"x" * r.choice([300, 5000, 200_000])
    elif choice == "quote":
        cells[k] = b'"' + cells[k]
    elif choice == "bom":
        cells[0] = b"\xef\xbb\xbf" + cells[0]
    elif choice == "unicode":
        cells[k] = "y_trüe\u202e".encode()
    else:
        cells.insert(0, b"")
    return b",".join(cells) + b"\n" + body


def _huge_cell(r: random.Random) -> tuple[str, bytes]:
    size = r.choice([300, 10_000, 1_000_000, 3_000_000])
    big = r.choice([b"A", b"=", b"9", b"\xc3\xa9"]) * size
    where = r.choice(["id", "y_score", "y_true", "label", "sample", "model"])
    if where in ("label", "sample", "model"):
        rows = [b"q1,a,1,0.5,m", b"q1,b,0,0.2,m"]
        text = b"sample,label,y_true,y_score,model\n" + b"\n".join(rows) + b"\n"
        text = text.replace(
            {"label": b",a,", "sample": b"q1,a", "model": b",m\n"}[where],
            {"label": b"," + big + b",", "sample": big + b",a", "model": b"," + big + b"\n"}[where],
            1,
        )
        return "huge.csv", text
    row = {
        "id": [big, b"1", b"0.5"],
        "y_score": [b"s0", b"1", big],
        "y_true": [b"s0", big, b"0.5"],
    }[where]
    return "huge.csv", b"id,y_true,y_score\n" + b",".join(row) + b"\ns1,0,0.1\n"


def _formula(r: random.Random) -> tuple[str, bytes]:
    f = r.choice(_FORMULAS)
    q = '"' + f.replace('"', '""') + '"'
    variant = r.choice(["id", "model", "label", "sample"])
    if variant == "id":
        return "formula.csv", f"id,y_true,y_score\n{q},1,0.5\nb,0,0.2\n".encode()
    if variant == "model":
        return "formula.csv", f"y_true,{q}\n1,0.5\n0,0.2\n".replace(
            q, '"score_' + f.replace('"', '""') + '"'
        ).encode()
    if variant == "label":
        return "formula.csv", f"sample,label,y_true,y_score\nq,{q},1,0.5\nq,b,0,0.2\n".encode()
    return "formula.csv", f"sample,label,y_true,y_score\n{q},a,1,0.5\n{q},b,0,0.2\n".encode()


def _numbers(r: random.Random) -> tuple[str, bytes]:
    cells = [r.choice(_NUMBERS) for _ in range(4)]
    col = r.choice(["y_true", "y_score", "sample_weight"])
    rows = [["a", 1, 0.5, 1], ["b", 0, 0.2, 1]]
    idx = {"y_true": 1, "y_score": 2, "sample_weight": 3}[col]
    rows[r.randint(0, 1)][idx] = (
        '"' + cells[0].replace('"', '""') + '"' if "," in cells[0] else cells[0]
    )
    return "numbers.csv", _csv(["id", "y_true", "y_score", "sample_weight"], rows)


def _nested_parquet(r: random.Random) -> tuple[str, bytes]:
    n = 3
    kinds = {
        "list": pa.array([[0.1, 0.2], [0.3], []], type=pa.list_(pa.float64())),
        "large_list": pa.array([[1], [0], [1]], type=pa.large_list(pa.int64())),
        "struct": pa.array([{"a": 1, "b": "x"}, {"a": 2, "b": "y"}, {"a": 3, "b": "z"}]),
        "map": pa.array([[("k", 1)], [("k", 2)], []], type=pa.map_(pa.string(), pa.int64())),
        "fixed": pa.array([[1, 2], [3, 4], [5, 6]], type=pa.list_(pa.int64(), 2)),
        "list_str": pa.array([["a"], ["b", "c"], None], type=pa.list_(pa.string())),
    }
    kind = r.choice(sorted(kinds))
    cols = {
        "y_true": pa.array([0, 1, 1]),
        "y_score": pa.array([0.1, 0.9, 0.4]),
        "id": pa.array(["a", "b", "c"]),
    }
    target = r.choice(["y_true", "y_score", "id", "extra", "sample"])
    if target == "sample":
        cols = {
            "sample": kinds[kind],
            "label": pa.array(["a", "b", "c"]),
            "y_true": pa.array([0, 1, 1]),
            "y_score": pa.array([0.1, 0.9, 0.4]),
        }
    else:
        cols[target] = kinds[kind]
    assert all(len(v) == n for v in cols.values())
    return "nested.parquet", _parquet(pa.table(cols))


def _parquet_types(r: random.Random) -> tuple[str, bytes]:
    n = 3
    arrays = {
        "decimal": pa.array([Decimal(1), Decimal(0), Decimal("1.5")], type=pa.decimal128(10, 2)),
        "timestamp": pa.array([0, 1, 2]).cast(pa.timestamp("s")),
        "date": pa.array([0, 1, 2], type=pa.int32()).cast(pa.date32()),
        "bool": pa.array([True, False, True]),
        "float16": pa.array(np.array([0.5, 1, 0], dtype=np.float16)),
        "dictionary": pa.array(["1", "0", "1"]).dictionary_encode(),
        "null": pa.nulls(n),
        "large_string": pa.array(["0.1", "x", "0.3"], type=pa.large_string()),
        "binary": pa.array([b"\xff", b"0", b"1"]),
        "duration": pa.array([1, 2, 3]).cast(pa.duration("s")),
        "uint64": pa.array([2**64 - 1, 0, 1], type=pa.uint64()),
        "int8": pa.array([1, 0, -1], type=pa.int8()),
        "string_ids_dup": pa.array(["a", "a", "b"]),
        "long_string": pa.array(["x" * 100_000, "y", "z"]),
    }
    kind = r.choice(sorted(arrays))
    cols = {"y_true": pa.array([0, 1, 1]), "y_score": pa.array([0.1, 0.9, 0.4])}
    cols[r.choice(["y_true", "y_score", "id", "sample_weight", "note"])] = arrays[kind]
    return f"{kind}.parquet", _parquet(pa.table(cols), r.choice(["snappy", "zstd", "gzip", "none"]))


def _parquet_bomb(r: random.Random) -> tuple[str, bytes]:
    """A small Parquet file whose text column decompresses to megabytes."""
    size = r.choice([1_000_000, 4_000_000])
    target = r.choice(["note", "id", "y_score"])
    col = [("x" * size) if target != "id" else "a" * size, "b", "c"]
    cols = {"y_true": [0, 1, 1], "y_score": [0.1, 0.9, 0.4]}
    cols[target] = col
    if r.random() < 0.5:  # one long text on every row: small as a dictionary, huge decoded
        cols = {"y_true": [0, 1] * 200, "y_score": [0.5] * 400, target: ["z" * 50_000] * 400}
    return f"bomb_{target}.parquet", _parquet(pa.table(cols), "zstd")


def _trec_garbage(r: random.Random, files: list[tuple[str, bytes]]) -> list[tuple[str, bytes]]:
    pieces = [
        b"1",
        b"Q0",
        b"d1",
        b"0",
        b"-1",
        b"1e400",
        b"nan",
        b"x" * 300,
        b"\t",
        b"",
        b"\xff",
        b"9" * 400,
        b"#",
        b'"',
        b"1 0",
    ]
    out = []
    for name, data in files:
        lines = data.split(b"\n")
        for _ in range(r.randint(1, 4)):
            k = r.randrange(len(lines))
            fields = lines[k].split(b" ")
            op = r.choice(["swap", "drop", "add", "replace", "dup"])
            if op == "swap" and len(fields) > 1:
                i, j = r.randrange(len(fields)), r.randrange(len(fields))
                fields[i], fields[j] = fields[j], fields[i]
            elif op == "drop" and fields:
                fields.pop(r.randrange(len(fields)))
            elif op == "add":
                fields.insert(r.randrange(len(fields) + 1), r.choice(pieces))
            elif op == "replace" and fields:
                fields[r.randrange(len(fields))] = r.choice(pieces)
            else:
                lines.insert(k, lines[k])
            lines[k] = r.choice([b" ", b"\t", b"  "]).join(fields)
        out.append((name, b"\n".join(lines)))
    if r.random() < 0.2:
        out.reverse()  # qrels and run swapped
    return out


def _compressed(r: random.Random, name: str, data: bytes) -> tuple[str, bytes]:
    kind = r.choice(["gzip", "zip", "bz2", "xz", "zlib"])
    if kind == "gzip":
        packed = gzip.compress(data)
    elif kind == "zip":
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
            z.writestr(name, data)
        packed = buf.getvalue()
    elif kind == "bz2":
        packed = bz2.compress(data)
    elif kind == "xz":
        packed = lzma.compress(data)
    else:
        packed = zlib.compress(data)
    return r.choice([name, name + ".gz", name.rsplit(".", 1)[0] + ".csv"]), packed


def _rename(r: random.Random, name: str) -> str:
    return r.choice(
        [
            name,
            name,
            "x" + name,
            "data.csv",
            "data.parquet",
            "data.npy",
            "data",
            "a.b.csv",
            "data.CSV",
            "=cmd.csv",
            "balanced.csv",
            "a" * 300 + ".csv",
            "../../etc/passwd.csv",
            "s p a c e.tsv",
            "x.txt",
        ]
    )


MUTATIONS = (
    "random",
    "truncate",
    "bitflip",
    "npy_header",
    "encoding",
    "ragged",
    "header",
    "huge_cell",
    "formula",
    "numbers",
    "nested_parquet",
    "parquet_types",
    "parquet_bomb",
    "trec",
    "compressed",
    "blank",
    "quotes",
    "pair_mismatch",
    "too_big",
    "rename",
    "valid",
)


def upload_case(seed: int, i: int) -> Case:
    """Case ``i`` of the seeded upload fuzz ``seed`` (see the module docstring)."""
    r = random.Random(f"{seed}:{i}")
    what = MUTATIONS[i % len(MUTATIONS)] if i < 4 * len(MUTATIONS) else r.choice(MUTATIONS)
    if what == "random":
        entry = r.choice(["one", "pair", "trec"])
        ext = lambda: r.choice([".csv", ".tsv", ".txt", ".parquet", ".npy", ".pq", ""])  # noqa: E731
        count = 1 if entry == "one" else 2
        return Case(entry, [(f"f{k}{ext()}", _random_bytes(r)) for k in range(count)], what)
    if what in ("truncate", "bitflip"):
        entry = r.choice(["one", "pair", "trec"])
        files = (
            [base_one(r)] if entry == "one" else base_pair(r) if entry == "pair" else base_trec(r)
        )
        k = r.randrange(len(files))
        op = _truncate if what == "truncate" else _bitflip
        files[k] = (files[k][0], op(r, files[k][1]))
        return Case(entry, files, f"{what} {files[k][0]}")
    if what == "npy_header":
        good = base_matrix(r, 2, 2, True, "npy")[1]
        files = [("labels.npy", _npy_header(r)), ("scores.npy", good)]
        if r.random() < 0.5:
            files.reverse()
        return Case("pair", files, what)
    if what == "encoding":
        name, data = base_one(r)
        if name.endswith(".parquet"):
            name, data = (
                "binary.csv",
                _csv(["id", "y_true", "y_score"], [["s0", 1, 0.5], ["s1", 0, 0.2]]),
            )
        return Case("one", [(name, _encode(r, data))], what)
    if what == "ragged":
        data = _csv(["id", "y_true", "y_score"], [r[:3] for r in _binary_rows(r, 6)])
        return Case("one", [("ragged.csv", _ragged(r, data))], what)
    if what == "header":
        data = _csv(["id", "y_true", "y_score"], [r[:3] for r in _binary_rows(r, 4)])
        if r.random() < 0.3:
            labels = _csv(["a", "b"], [[1, 0], [0, 1]])
            return Case(
                "pair",
                [
                    ("labels.csv", _header(r, labels)),
                    ("scores.csv", _csv(["a", "b"], [[0.1, 0.2], [0.3, 0.4]])),
                ],
                what,
            )
        return Case("one", [("header.csv", _header(r, data))], what)
    if what == "huge_cell":
        return Case("one", [_huge_cell(r)], what)
    if what == "formula":
        return Case("one", [_formula(r)], what)
    if what == "numbers":
        return Case("one", [_numbers(r)], what)
    if what == "nested_parquet":
        return Case("one", [_nested_parquet(r)], what)
    if what == "parquet_types":
        return Case("one", [_parquet_types(r)], what)
    if what == "parquet_bomb":
        return Case("one", [_parquet_bomb(r)], what)
    if what == "trec":
        return Case("trec", _trec_garbage(r, base_trec(r)), what)
    if what == "compressed":
        name, data = base_one(r)
        return Case("one", [_compressed(r, name, data)], what)
    if what == "blank":
        body = r.choice(
            [
                b"",
                b"\n",
                b" \n\t\n",
                b"\xef\xbb\xbf",
                b"\xff\xfe",
                b"\r\r\r",
                b",,,\n,,,\n",
                b"y_true,y_score\n\n\n",
            ]
        )
        entry = r.choice(["one", "pair", "trec"])
        files = [("blank.csv", body)] if entry == "one" else [("a.csv", body), ("b.csv", body)]
        return Case(entry, files, what)
    if what == "quotes":
        body = r.choice(
            [
                b'y_true,y_score\n"1,0.5\n0,0.2\n',
                b'id,y_true,y_score\n"a\nb",1,0.5\nc,0,0.2\n',
                b'"y_true","y_score"\n"1","0.5"\n"0","0.2"\n',
                b'y_true,y_score\n1,"0.5""\n',
                b'id,y_true,y_score\n"a""b",1,0.5\n',
            ]
        )
        return Case("one", [("quotes.csv", body)], what)
    if what == "pair_mismatch":
        files = base_pair(r)
        other = base_pair(r)
        files[r.randrange(2)] = other[r.randrange(2)]
        return Case("pair", files, what)
    if what == "too_big":
        return Case("one", [("big.csv", b"y_true,y_score\n" + b"0" * 50_000_001)], what)
    if what == "rename":
        entry = r.choice(["one", "pair", "trec"])
        files = (
            [base_one(r)] if entry == "one" else base_pair(r) if entry == "pair" else base_trec(r)
        )
        files = [(_rename(r, n), d) for n, d in files]
        return Case(entry, files, what)
    entry = r.choice(["one", "pair", "trec"])
    files = [base_one(r)] if entry == "one" else base_pair(r) if entry == "pair" else base_trec(r)
    return Case(entry, files, what)


# ---------------------------------------------------------------- links
def token(payload, *, raw: bytes | None = None, level: int = 9) -> str:
    """A ``?data=`` token holding ``payload`` (JSON) or the bytes ``raw``."""
    if raw is None:
        raw = json.dumps(payload, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(zlib.compress(raw, level)).decode().rstrip("=")


def _good_payload(r: random.Random) -> dict:
    kind = r.choice(["binary", "regression", "multilabel", "graded"])
    n = r.randint(1, 6)
    if kind in ("binary", "regression"):
        shape = [n]
        y = (
            [r.randint(0, 1) for _ in range(n)]
            if kind == "binary"
            else [r.uniform(-3, 3) for _ in range(n)]
        )
    else:
        m = r.randint(1, 4)
        shape = [n, m]
        top = 1 if kind == "multilabel" else 3
        y = [r.randint(0, top) for _ in range(n * m)]
    s = {"m": [round(r.random(), 3) for _ in range(len(y))]}
    return {
        "v": 2,
        "name": "mine",
        "kind": kind,
        "shape": shape,
        "y": y,
        "s": s,
        "w": None,
        "labels": [],
        "ids": [],
    }


_ABSURD = [
    float("inf"),
    -float("inf"),
    float("nan"),
    10**400,
    -(10**400),
    1e308,
    -1e308,
    5e-324,
    2**53 + 1,
    2**64,
    -1,
    -0.0,
    True,
    False,
    None,
    "1",
    [],
    {},
    [1],
    1.5,
    0,
]


@functools.cache
def _bomb(k: int) -> str:
    """A few kilobytes of token that inflate to megabytes (built once per kind)."""
    raw = [b"[" * 10_000_000, b"0" * 50_000_000, b" " * 3_000_000 + b"{}", b"\n" * 5_000_000][k]
    return token(None, raw=raw)


def link_case(seed: int, i: int) -> tuple[str, str]:
    """Case ``i`` of the seeded link fuzz ``seed``: (what, the ``data=`` token)."""
    r = random.Random(f"link:{seed}:{i}")
    whats = (
        "bomb",
        "nested",
        "wrong_type",
        "wrong_shape",
        "y2d",
        "ids",
        "labels",
        "one_class",
        "weights",
        "empty",
        "sample_name",
        "absurd",
        "garbage",
        "bitflip",
        "keys",
        "names",
        "models",
        "valid",
        "version",
        "blob",
    )
    what = whats[i % len(whats)] if i < 4 * len(whats) else r.choice(whats)
    p = _good_payload(r)
    size = len(p["y"])
    if what == "bomb":
        return what, _bomb(r.randrange(4))
    if what == "nested":
        depth = r.choice([1000, 100_000, 1_000_000])
        raw = r.choice([b"[" * depth, b"[" * depth + b"]" * depth, b'{"a":' * depth])
        if r.random() < 0.5:
            raw = b'{"v":2,"kind":"binary","name":"x","shape":[1],"y":' + raw
        return what, token(None, raw=raw)
    if what == "wrong_type":
        key = r.choice(["v", "name", "kind", "shape", "y", "s", "w", "labels", "ids"])
        p[key] = r.choice(
            ["x", 1, 1.5, None, [], {}, [[1]], {"a": 1}, True, [None], ["1"], 10**400]
        )
        return f"{what} {key}", token(p)
    if what == "wrong_shape":
        p["shape"] = r.choice(
            [
                [],
                [0],
                [-1],
                [size + 1],
                [size, 1, 1],
                [1.5],
                ["2"],
                [10**12],
                [2**31, 2**31],
                [size, 0],
            ]
        )
        return what, token(p)
    if what == "y2d":
        p["kind"] = r.choice(["binary", "regression"])
        p["shape"] = [size, 1]
        return what, token(p)
    if what == "ids":
        p["ids"] = r.choice(
            [
                ["a"] * size,
                [str(k) for k in range(size + 1)],
                [""] * size,
                [1] * size,
                ["=cmd"] * size,
                ["x" * 10_000] * size,
            ]
        )
        return what, token(p)
    if what == "labels":
        m = p["shape"][1] if len(p["shape"]) == 2 else 1
        p["labels"] = r.choice(
            [
                ["a"] * m,
                ["a"] * (m + 1),
                [""] * m,
                ["=1+1"] + [f"b{k}" for k in range(m - 1)],
                ["x" * 5000] * m,
                [None] * m,
            ]
        )
        return what, token(p)
    if what == "one_class":
        p["y"] = [r.choice([0, 1])] * size
        return what, token(p)
    if what == "weights":
        n = p["shape"][0]
        p["w"] = r.choice(
            [
                [0] * n,
                [-1] * n,
                [1] * (n + 1),
                [float("inf")] * n,
                ["1"] * n,
                [1e308] * n,
                "f8",
                [0.5] * n,
            ]
        )
        return what, token(p)
    if what == "empty":
        raw = r.choice([b"", b"{}", b"[]", b"null", b"\n", b"{}\n"])
        return what, r.choice([token(None, raw=raw), "", "=", "====", "a"])
    if what == "sample_name":
        p["name"] = r.choice(
            [
                "balanced",
                "balanced (link)",
                "diabetes",
                "seed001_dcg",
                " balanced",
                "balanced\n",
                "",
            ]
        )
        return what, token(p)
    if what == "absurd":
        key = r.choice(["y", "s", "w"])
        v = r.choice(_ABSURD)
        if key == "y":
            p["y"][r.randrange(size)] = v
        elif key == "s":
            p["s"]["m"][r.randrange(size)] = v
        else:
            p["w"] = [v] * p["shape"][0]
        return f"{what} {key}={v!r:.20}", token(None, raw=json.dumps(p, allow_nan=True).encode())
    if what == "garbage":
        return what, "".join(r.choice("ABCxyz019-_=+/%~.") for _ in range(r.randint(0, 200)))
    if what == "bitflip":
        t = bytearray(base64.urlsafe_b64decode(token(p) + "=="))
        for _ in range(r.randint(1, 4)):
            k = r.randrange(len(t))
            t[k] ^= 1 << r.randrange(8)
        return what, base64.urlsafe_b64encode(bytes(t)).decode()
    if what == "keys":
        p.pop(r.choice(sorted(p)))
        p["extra"] = "x" * r.choice([1, 10_000])
        return what, token(p)
    if what == "names":
        p["name"] = r.choice(
            [
                "x" * 100_000,
                '=HYPERLINK("evil")',
                "\x00\x01",
                "a/b\\c",
                "<script>",
                "🙂" * 50,
                "\u202e",
            ]
        )
        return what, token(p)
    if what == "models":
        p["s"] = r.choice(
            [
                {},
                {"": p["s"]["m"]},
                {f"m{k}": p["s"]["m"] for k in range(r.choice([3, 3000]))},
                {"=cmd": p["s"]["m"]},
                {"x" * 5000: p["s"]["m"]},
                {"m": p["s"]["m"][:-1]},
                {"m": "f8"},
                {"m": [[v] for v in p["s"]["m"]]},
            ]
        )
        return what, token(p)
    if what == "version":
        p["v"] = r.choice([0, 1, 3, -1, 2.0, "2", 10**400, None])
        return what, token(p)
    if what == "blob":
        head = json.dumps({**p, "y": "f8", "v": 2}).encode()
        blob = r.choice(
            [
                b"",
                b"\x00" * 7,
                b"\xff" * (8 * size),
                b"\x00" * (8 * size + 1),
                np.full(size, np.nan).tobytes(),
            ]
        )
        return what, token(None, raw=head + b"\n" + blob)
    return what, token(p)
