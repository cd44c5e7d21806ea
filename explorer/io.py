"""Readers that turn what users bring into a :class:`~explorer.datasets.Dataset`.

Every reader either returns a Dataset or raises :class:`DataError` whose
message names the file, the line (or row), the column, the value and what was
expected, e.g. ``scores.csv, line 15, column "cat": 'n/a' is not a number``.
Lines are counted as a text editor counts them: the header is line 1 and blank
lines count. Parquet and ``.npy`` files have no lines; their messages say
``row 1`` for the first data row.

Formats (``shared/design/data-formats.md``)
-------------------------------------------
one table (:func:`read_table`)
    CSV, TSV, text with a sniffed delimiter, or Parquet; one row per sample:
    ``y_true`` plus ``y_score`` / ``score_<model>`` (binary) or ``y_pred`` /
    ``pred_<model>`` (regression), optional ``sample_weight`` and ``id``.
labels + scores pair (:func:`read_matrix_pair`)
    two n_samples x n_labels matrices (CSV/TSV/text with a header row of label
    names, Parquet, or ``.npy``): multilabel (all 0/1) or graded relevance.
long "tidy" table (:func:`read_long_table`)
    columns ``sample``, ``label``, ``y_true``, ``y_score`` (+ ``model``),
    one row per (sample, label) pair, pivoted to matrices.
TREC qrels + run (:func:`read_trec`)
    pivoted to a graded matrix; see that function for how unjudged and
    unretrieved documents are placed.

Uploads go through :func:`read_upload`, :func:`read_pair_upload` and
:func:`read_trec_upload`, which also enforce :data:`MAX_UPLOAD_BYTES`.
Every reader enforces :data:`MAX_ROWS`, :data:`MAX_COLUMNS` and
:data:`MAX_CELLS`; :func:`limits_text` states them for the upload widgets.

Nothing read here is unpickled, evaluated or executed: ``.npy`` files are
loaded with ``allow_pickle=False``.

Parsing is vectorized: a text table (or TREC file) is read once by pyarrow's
strict CSV reader with numeric column types; only when that fast read meets a
problem is the file re-read as text by pandas (and its lines scanned with
numpy) to name the bad cell or line. No Python loop runs over rows, except
Python's csv module locating a line in a file with quoted fields, on that
error path only.
"""

from __future__ import annotations

import csv
import io as _io
import math
import re
import tokenize
import warnings
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from explorer.datasets import GRADE_LIMIT, MAX_GRADE, Dataset

__all__ = [
    "MAX_CELLS",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "MAX_UPLOAD_BYTES",
    "DataError",
    "limits_text",
    "read_long_table",
    "read_matrix_pair",
    "read_pair_upload",
    "read_table",
    "read_trec",
    "read_trec_upload",
    "read_upload",
]

#: Largest uploaded file, in bytes (50 MB).
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
#: Most data rows (or TREC lines) one file may hold.
MAX_ROWS = 2_000_000
#: Most columns one file (or a pivoted matrix) may hold.
MAX_COLUMNS = 2_000
#: Most cells (rows x columns) of one table or matrix: a guard for memory,
#: mainly against compressed Parquet files that expand a thousandfold.
MAX_CELLS = 20_000_000

TABLE_EXTENSIONS = (".csv", ".tsv", ".txt", ".parquet", ".pq")
MATRIX_EXTENSIONS = (*TABLE_EXTENSIONS, ".npy")

_FORMATS = {
    ".csv": "csv",
    ".tsv": "tsv",
    ".tab": "tsv",
    ".txt": "txt",
    ".parquet": "parquet",
    ".pq": "parquet",
    ".npy": "npy",
}
_INDEX = "\x00index"  # the unnamed first column pandas' to_csv writes for the index
_WS = b" \t\r\f\v"  # what pandas treats as blank on a line (besides the delimiter)
_DELIMITERS = (",", "\t", ";", "|")
_DELIMITER_NAMES = {",": "','", "\t": "a tab", ";": "';'", "|": "'|'", None: "whitespace"}
_MAGIC = (
    (b"\x89PNG", "a PNG image"),
    (b"\xff\xd8\xff", "a JPEG image"),
    (b"GIF8", "a GIF image"),
    (b"%PDF", "a PDF document"),
    (b"PK\x03\x04", "a zip archive (an Excel .xlsx workbook is one: save the sheet as CSV)"),
    (b"\xd0\xcf\x11\xe0", "an Excel .xls workbook (save the sheet as CSV)"),
    (b"\x1f\x8b", "a gzip archive (unpack it first)"),
    (b"PAR1", "a Parquet file (name it .parquet)"),
    (b"\x93NUMPY", "a NumPy .npy array (name it .npy)"),
)
_QRELS_FIELDS = ("qid", "iter", "docid", "rel")
_RUN_FIELDS = ("qid", "Q0", "docid", "rank", "score", "tag")


class DataError(ValueError):
    """Input the explorer refuses, with a message a student can act on.

    Examples
    --------
    >>> try:
    ...     read_table(b"y_true,y_score\\n1,high\\n", name="s.csv")
    ... except DataError as exc:
    ...     print(exc)
    s.csv, line 2, column "y_score": 'high' is not a number.
    """


def limits_text() -> str:
    """One line stating the upload limits, for the upload widgets' help.

    Examples
    --------
    >>> limits_text()
    'Up to 50 MB per file, 2,000,000 rows, 2,000 columns and 20,000,000 cells.'
    """
    return (
        f"Up to {_size(MAX_UPLOAD_BYTES)} per file, {MAX_ROWS:,} rows, "
        f"{MAX_COLUMNS:,} columns and {MAX_CELLS:,} cells."
    )


# --------------------------------------------------------------------------
# Small helpers: sources, sizes, limits, messages
# --------------------------------------------------------------------------


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.3g} MB"
    if n >= 1024:
        return f"{n / 1024:.3g} KB"
    return f"{n:,} bytes"


def _source(source, name: str | None, default: str) -> tuple[bytes, str]:
    """The bytes of ``source`` (a path, bytes or a file-like) and the file name to report."""
    if isinstance(source, (str, Path)):
        path = Path(source)
        try:
            return path.read_bytes(), path.name
        except OSError as exc:
            raise DataError(f"cannot read {path.name}: {exc.strerror or exc}.") from None
    if isinstance(source, (bytes, bytearray, memoryview)):
        return bytes(source), name or default
    if hasattr(source, "read"):
        data = source.read()
        if isinstance(data, str):
            data = data.encode("utf-8")
        label = name or Path(str(getattr(source, "name", "") or default)).name
        return bytes(data), label
    raise TypeError(f"expected a path, bytes or a file object; got {type(source).__name__}")


def _format(label: str, data: bytes) -> str:
    """``csv``, ``tsv``, ``txt``, ``parquet`` or ``npy``: by extension, else by content."""
    fmt = _FORMATS.get(Path(label).suffix.lower())
    if fmt:
        return fmt
    if data.startswith(b"PAR1"):
        return "parquet"
    if data.startswith(b"\x93NUMPY"):
        return "npy"
    return "txt"


def _check_size(label: str, data: bytes, max_bytes: int) -> None:
    if len(data) > max_bytes:
        raise DataError(
            f"{label} is {_size(len(data))}; the limit is {_size(max_bytes)} per file. "
            "Upload a smaller sample of the data."
        )


def _check_shape(label: str, n_rows: int, n_columns: int) -> None:
    if n_rows > MAX_ROWS:
        raise DataError(f"{label} has {n_rows:,} rows; the limit is {MAX_ROWS:,} rows.")
    if n_columns > MAX_COLUMNS:
        raise DataError(f"{label} has {n_columns:,} columns; the limit is {MAX_COLUMNS:,} columns.")
    if n_rows * n_columns > MAX_CELLS:
        raise DataError(
            f"{label} has {n_rows:,} rows x {n_columns:,} columns = {n_rows * n_columns:,} "
            f"cells; the limit is {MAX_CELLS:,} cells."
        )


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def _first_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__


def _not_a_number(raw) -> str:
    """Why the cell ``raw`` is not a finite number, for a message."""
    if raw is None or (isinstance(raw, float) and np.isnan(raw)) or raw is pd.NA:
        return "is empty or NaN (expected a finite number)"
    if not isinstance(raw, str):
        if isinstance(raw, (int, float, np.number)) and np.isinf(raw):
            return f"{raw} is infinite (expected a finite number)"
        return f"{raw!r} is not a number"
    text = raw.strip()
    if text == "":
        return "is empty (expected a number)"
    try:
        value = float(text)
    except ValueError:
        if re.fullmatch(r"[+-]?\d+,\d+", text):
            return f"{raw!r} is not a number (write the decimal point as '.', not ',')"
        return f"{raw!r} is not a number"
    if np.isnan(value):
        return f"{raw!r} is not a number (NaN is not allowed: expected a finite number)"
    if "inf" in text.lower():
        return f"{raw!r} is infinite (expected a finite number)"
    return f"{raw!r} is too large (expected a finite number)"


def _looks_like_data(names: list[str]) -> bool:
    """True when every header name parses as a number: the file probably has no header."""
    try:
        [float(n) for n in names]
    except ValueError:
        return False
    return True


def _no_header_hint(names: list[str]) -> str:
    if names and _looks_like_data(names):
        return (
            " The first line looks like data: the file needs a header row naming the columns"
            " (np.savetxt writes none: pass header=..., comments='')."
        )
    return ""


def _check_names(label: str, names: list[str], where: str) -> None:
    """Refuse empty and duplicated column names."""
    for j, n in enumerate(names):
        if n == "":
            raise DataError(
                f"{label}, {where}: column {j + 1} has no name (expected a column name; "
                "is there a stray delimiter at the end of the header?)."
            )
    seen: dict[str, int] = {}
    for j, n in enumerate(names):
        if n in seen:
            raise DataError(
                f'{label}, {where}: column "{n}" appears twice (columns {seen[n] + 1} and '
                f"{j + 1}); every column needs its own name."
                f"{_no_header_hint(names) or _trec_hint(names)}"
            )
        seen[n] = j


# --------------------------------------------------------------------------
# Text: bytes checks, header, line scan
# --------------------------------------------------------------------------


def _text_bytes(data: bytes, label: str, what: str) -> bytes:
    """UTF-8 bytes of a text file; refuse binary data with a named reason."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16, e.g. Excel's "Unicode text"
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            raise DataError(f"{label} is not a text {what} file: broken UTF-16 text.") from None
    elif data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            raise DataError(f"{label} is not a text {what} file: it looks like {kind}.")
    head = np.frombuffer(data[:65536], dtype=np.uint8)
    control = ((head < 32) & ~np.isin(head, (9, 10, 11, 12, 13))) | (head == 127)
    if (head == 0).any() or control.sum() > max(4, len(head) // 100):
        at = int(np.argmax(control))
        raise DataError(
            f"{label} is not a text {what} file: it holds binary data "
            f"(byte 0x{int(head[at]):02x} at offset {at})."
        )
    if b"\r" in data and b"\n" not in data:  # classic Mac line endings
        data = data.replace(b"\r", b"\n")
    if not data.isascii():
        try:
            data.decode("utf-8")
        except UnicodeDecodeError:  # not UTF-8: read it as Windows-1252 (Excel's default)
            data = data.decode("cp1252", errors="replace").encode("utf-8")
    return data


def _header_line(data: bytes) -> tuple[int, str]:
    """The line number and text of the first non-blank line."""
    pos, line_no = 0, 1
    while True:
        end = data.find(b"\n", pos)
        line = data[pos : end if end >= 0 else len(data)]
        if line.strip(_WS):
            return line_no, line.decode("utf-8").rstrip("\r")
        pos, line_no = end + 1, line_no + 1


def _sniff(header: str) -> str | None:
    """The delimiter of a ``.txt`` table from its header line (None: whitespace)."""
    counts = {d: header.count(d) for d in _DELIMITERS}
    best = max(counts, key=counts.__getitem__)
    if counts[best]:
        return best
    return None if len(header.split()) > 1 else ","


def _scan_lines(data: bytes, sep: str | None) -> tuple[np.ndarray, np.ndarray]:
    """Line numbers (1-based) of the non-blank lines and their field counts, vectorized.

    A line is blank as pandas sees it: only spaces, tabs and carriage returns
    (other than the delimiter). With ``sep=None`` fields are whitespace separated.
    """
    buf = np.frombuffer(data, dtype=np.uint8)
    if buf.size == 0:
        return np.zeros(0, np.int64), np.zeros(0, np.int64)
    starts = np.flatnonzero(buf == 10) + 1
    starts = np.concatenate(([0], starts[starts < buf.size]))
    blank = np.frombuffer(_WS + b"\n", dtype=np.uint8)
    if sep is not None:
        blank = blank[blank != ord(sep)]
    content = ~np.isin(buf, blank)
    filled = np.logical_or.reduceat(content, starts)
    if sep is None:
        token_start = content.copy()
        token_start[1:] &= ~content[:-1]
        counts = np.add.reduceat(token_start, starts, dtype=np.int64)
    else:
        counts = np.add.reduceat(buf == ord(sep), starts, dtype=np.int64) + 1
    return np.flatnonzero(filled) + 1, counts[filled]


def _scan_quoted(data: bytes, sep: str, label: str) -> tuple[np.ndarray, np.ndarray]:
    """Like :func:`_scan_lines` for files with quoted fields (a record may span lines)."""
    reader = csv.reader(_io.StringIO(data.decode("utf-8"), newline=""), delimiter=sep)
    lines, counts, previous = [], [], 0
    try:
        for record in reader:
            start, previous = previous + 1, reader.line_num
            if not record or (len(record) == 1 and not record[0].strip()):
                continue
            lines.append(start)
            counts.append(len(record))
    except csv.Error as exc:
        raise DataError(
            f"{label}, line {reader.line_num}: not readable as CSV ({_first_line(exc)})."
        ) from None
    return np.asarray(lines, dtype=np.int64), np.asarray(counts, dtype=np.int64)


# --------------------------------------------------------------------------
# Frames: a table read from text or Parquet, with exact error locations
# --------------------------------------------------------------------------


class _TextFrame:
    """A delimited text table.

    ``load`` reads it once with pandas' C parser, numeric columns as float64.
    If that read fails, or a number is not finite, or the field counts do
    not add up, the file is re-read with every cell as text; the text view
    and a numpy line scan then name the ragged line or the bad cell.
    """

    def __init__(self, data: bytes, label: str, sep: str | None, what: str) -> None:
        self.label, self.what = label, what
        data = _text_bytes(data, label, what)
        if not data or data.isspace():
            raise DataError(f"{label} is empty: expected a header row and at least one data row.")
        self.data = data
        self.header_line, header = _header_line(data)
        if sep == "sniff":
            sep = _sniff(header)
        self.sep = sep
        if sep is None:
            fields = header.split()
        else:
            try:
                fields = next(csv.reader([header], delimiter=sep))
            except csv.Error as exc:
                raise DataError(
                    f"{label}, line {self.header_line}: the header is not readable "
                    f"({_first_line(exc)})."
                ) from None
            if len(fields) == 1:
                self._check_delimiter(header)
        self.raw_names = list(fields)
        names = [f.strip() for f in fields]
        if len(names) > MAX_COLUMNS:
            raise DataError(
                f"{label} has {len(names):,} columns; the limit is {MAX_COLUMNS:,} columns."
            )
        if len(names) > 1 and names[0] == "":
            names[0] = _INDEX
        _check_names(label, names, f"line {self.header_line}")
        self.names = names
        self.columns = [n for n in names if n != _INDEX]
        self.df: pd.DataFrame | None = None
        self._text_df: pd.DataFrame | None = None
        self._scanned: tuple[np.ndarray, np.ndarray] | None = None

    def _check_delimiter(self, header: str) -> None:
        for other in (";", "\t", ",", "|"):
            if other != self.sep and other in header:
                raise DataError(
                    f"{self.label}, line {self.header_line}: the header {header!r} reads as one "
                    f"column: the delimiter looks like {_DELIMITER_NAMES[other]}, but a "
                    f"{self.what} file is separated by {_DELIMITER_NAMES[self.sep]}. Save it "
                    f"with {_DELIMITER_NAMES[self.sep]} between columns, or name it .txt to "
                    "let the explorer detect the delimiter."
                )

    # -- reading ---------------------------------------------------------
    def _read(self, **kw) -> pd.DataFrame:
        with warnings.catch_warnings():
            warnings.simplefilter("error", pd.errors.ParserWarning)
            return pd.read_csv(
                _io.BytesIO(self.data),
                sep=self.sep or r"\s+",
                header=0,
                names=self.names,
                index_col=False,
                na_filter=False,
                encoding="utf-8",
                **kw,
            )

    def load(self, numeric: Iterable[str]) -> None:
        """Read the body; ``numeric`` columns are parsed as numbers (checked in ``numbers``)."""
        numeric = set(numeric)
        df = self._fast_read(numeric)
        if df is not None and not all(np.isfinite(df[c].to_numpy()).all() for c in numeric):
            df = None
        self.df = df if df is not None else self._text()
        if len(self.df) == 0:
            raise DataError(f"{self.label} has a header but no data rows.")
        _check_shape(self.label, len(self.df), len(self.columns))

    def _fast_read(self, numeric: set[str]) -> pd.DataFrame | None:
        """A strict typed read, or None when anything is off (the text path then says what).

        pyarrow's CSV reader (multi-threaded, correctly rounded floats) refuses a
        ragged line, a whitespace-only line and a cell that is not a number, so a
        frame it returns has one row per non-blank line after the header.
        Whitespace-separated text goes through pandas' C parser instead.
        """
        if self.sep is None:
            dtype = {c: ("float64" if c in numeric else "str") for c in self.names}
            try:
                df = self._read(dtype=dtype)
            except (ValueError, OverflowError, pd.errors.ParserWarning):
                return None
            return df if self._fields_add_up(len(df)) else None
        import pyarrow as pa
        import pyarrow.csv as pacsv

        types = {
            raw: pa.float64() if name in numeric else pa.string()
            for raw, name in zip(self.raw_names, self.names, strict=True)
        }
        try:
            table = pacsv.read_csv(
                _io.BytesIO(self.data),
                parse_options=pacsv.ParseOptions(
                    delimiter=self.sep, newlines_in_values=b'"' in self.data
                ),
                convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
            )
        except (ValueError, OSError, pa.ArrowException):
            return None
        if table.column_names != self.raw_names:
            return None
        df = table.to_pandas()
        df.columns = self.names
        return df

    def _text(self) -> pd.DataFrame:
        """Every cell as text (the slow path, used to name bad cells)."""
        if self._text_df is None:
            try:
                df = self._read(dtype=str)
            except (ValueError, pd.errors.ParserWarning) as exc:
                self._check_ragged(None)
                raise DataError(
                    f"{self.label} is not a readable {self.what} file: {_first_line(exc)}"
                ) from None
            self._check_ragged(len(df))
            self._text_df = df
        return self._text_df

    def _scan(self) -> tuple[np.ndarray, np.ndarray]:
        if self._scanned is None:
            if self.sep is not None and b'"' in self.data:
                self._scanned = _scan_quoted(self.data, self.sep, self.label)
            else:
                self._scanned = _scan_lines(self.data, self.sep)
        return self._scanned

    def _fields_add_up(self, n_rows: int) -> bool:
        """Cheap check that no line has more or fewer fields than the header."""
        if self.sep is None:
            lines, counts = self._scan()
            return len(lines) == n_rows + 1 and bool((counts == len(self.names)).all())
        if b'"' in self.data:  # count delimiters outside quoted fields
            buf = np.frombuffer(self.data, dtype=np.uint8)
            inside = np.bitwise_xor.accumulate((buf == ord('"')).view(np.uint8))
            seps = int(np.count_nonzero((buf == ord(self.sep)) & (inside == 0)))
        else:
            seps = self.data.count(self.sep.encode())
        return seps == (len(self.names) - 1) * (n_rows + 1)

    def _check_ragged(self, n_rows: int | None) -> None:
        """Name the first line whose field count differs from the header's."""
        if n_rows is not None and self._fields_add_up(n_rows):
            return
        lines, counts = self._scan()
        want = len(self.names)
        bad = np.flatnonzero(counts != want)
        if bad.size:
            i = int(bad[0])
            got = int(counts[i])
            sep = _DELIMITER_NAMES[self.sep] if self.sep else "space"
            hint = (
                f"an extra {sep} or a decimal comma?"
                if got > want
                else f"a missing value or {sep}?"
            )
            raise DataError(
                f"{self.label}, line {lines[i]} has {got} field{'s' * (got != 1)} but the "
                f"header (line {self.header_line}) has {want} ({hint})."
            )

    # -- access ----------------------------------------------------------
    def where(self, i: int) -> str:
        lines, _ = self._scan()
        if len(lines) == len(self.df) + 1:
            return f"line {lines[i + 1]}"
        return f"data row {i + 1}"

    def cell(self, i: int, col: str) -> str:
        return f'{self.label}, {self.where(i)}, column "{col}"'

    def raw(self, i: int, col: str) -> str:
        return str(self._text()[col].iloc[i])

    def numbers(self, col: str) -> np.ndarray:
        """Column ``col`` as finite float64, or a DataError naming the first bad cell."""
        s = self.df[col]
        if s.dtype == np.float64:
            v = s.to_numpy(dtype=np.float64)
            if np.isfinite(v).all():
                return v
        text = self._text()[col]
        v = pd.to_numeric(text.str.strip(), errors="coerce")
        v = np.asarray(v.to_numpy(dtype=np.float64, na_value=np.nan))
        bad = ~np.isfinite(v)
        if bad.any():
            i = int(np.argmax(bad))
            raise DataError(f"{self.cell(i, col)}: {_not_a_number(text.iloc[i])}.")
        return v

    def strings(self, col: str) -> pd.Series:
        s = self.df[col]
        if s.dtype == np.float64:
            s = self._text()[col]
        return s.str.strip()


class _ParquetFrame:
    """A Parquet table (rows are counted from 1; there is no header line)."""

    def __init__(self, data: bytes, label: str) -> None:
        self.label = label
        try:
            import pyarrow.parquet as pq

            meta = pq.ParquetFile(_io.BytesIO(data)).metadata
        except (ImportError, OSError, ValueError, TypeError) as exc:
            raise DataError(
                f"{label} is not a readable Parquet file ({_first_line(exc)})."
            ) from None
        _check_shape(label, meta.num_rows, meta.num_columns)
        try:
            df = pd.read_parquet(_io.BytesIO(data))
        except (ImportError, OSError, ValueError, TypeError) as exc:
            raise DataError(
                f"{label} is not a readable Parquet file ({_first_line(exc)})."
            ) from None
        if any(n is not None for n in df.index.names):  # e.g. df.set_index("id").to_parquet()
            df = df.reset_index()
        names = [str(c).strip() for c in df.columns]
        _check_names(label, names, "header")
        df.columns = names
        self.df = df
        self.columns = names

    def load(self, numeric: Iterable[str]) -> None:
        if len(self.df) == 0:
            raise DataError(f"{self.label} has a header but no data rows.")
        _check_shape(self.label, len(self.df), len(self.columns))

    def where(self, i: int) -> str:
        return f"row {i + 1}"

    def cell(self, i: int, col: str) -> str:
        return f'{self.label}, row {i + 1}, column "{col}"'

    def raw(self, i: int, col: str) -> str:
        return str(self.df[col].iloc[i])

    def numbers(self, col: str) -> np.ndarray:
        s = self.df[col]
        try:
            if pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
                v = s.to_numpy(dtype=np.float64, na_value=np.nan)
            else:
                v = pd.to_numeric(s, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError):
            v = pd.to_numeric(s.astype(str), errors="coerce")
            v = v.to_numpy(dtype=np.float64, na_value=np.nan)
        v = np.asarray(v, dtype=np.float64)
        bad = ~np.isfinite(v)
        if bad.any():
            i = int(np.argmax(bad))
            raise DataError(f"{self.cell(i, col)}: {_not_a_number(s.iloc[i])}.")
        return v

    def strings(self, col: str) -> pd.Series:
        s = self.df[col]
        missing = s.isna().to_numpy()
        if missing.any():
            i = int(np.argmax(missing))
            raise DataError(f"{self.cell(i, col)}: is empty (expected a value).")
        return s.astype(str).str.strip().reset_index(drop=True)


_Frame = _TextFrame | _ParquetFrame


def _open_frame(data: bytes, label: str, fmt: str) -> _Frame:
    if fmt == "parquet":
        return _ParquetFrame(data, label)
    if fmt == "npy":
        raise DataError(
            f"{label} is a .npy array: it has no column names, so it cannot hold y_true and "
            "the scores by itself. A .npy file goes in a labels + scores pair (two arrays "
            "of the same shape)."
        )
    sep, what = {"csv": (",", "CSV"), "tsv": ("\t", "TSV"), "txt": ("sniff", "CSV")}[fmt]
    return _TextFrame(data, label, sep, what)


def _binary_check(frame: _Frame, col: str, y: np.ndarray) -> None:
    bad = (y != 0) & (y != 1)
    if bad.any():
        i = int(np.argmax(bad))
        raise DataError(
            f"{frame.cell(i, col)}: {frame.raw(i, col)!r} is not a binary label (expected 0 or 1)."
        )


def _ids(frame: _Frame, col: str) -> tuple[str, ...]:
    """Column ``col`` as unique, non-empty sample ids."""
    ids = frame.strings(col)
    empty = (ids == "").to_numpy()
    if empty.any():
        i = int(np.argmax(empty))
        raise DataError(f"{frame.cell(i, col)}: is empty (expected an id).")
    dup = ids.duplicated().to_numpy()
    if dup.any():
        i = int(np.argmax(dup))
        j = int(np.argmax((ids.iloc[:i] == ids.iloc[i]).to_numpy()))
        raise DataError(
            f"{frame.cell(i, col)}: {ids.iloc[i]!r} repeats the id on {frame.where(j)} "
            "(expected each id once)."
        )
    return tuple(ids.tolist())


# --------------------------------------------------------------------------
# One table per file: binary or regression
# --------------------------------------------------------------------------


def _table_dataset(frame: _Frame, kind: str | None, name: str | None) -> Dataset:
    label, cols = frame.label, frame.columns
    if "y_true" not in cols:
        raise DataError(
            f'{label} has no "y_true" column; its columns are {cols[:12]}.{_no_header_hint(cols)}'
            f"{_trec_hint(cols)}"
        )
    scores = [c for c in cols if c == "y_score" or c.startswith("score_")]
    preds = [c for c in cols if c == "y_pred" or c.startswith("pred_")]
    if kind is None:
        if scores and preds:
            raise DataError(
                f"{label} has score columns {scores} and prediction columns {preds}: a table "
                "holds one kind of data (binary scores or regression predictions)."
            )
        kind = "regression" if preds else "binary"
    elif kind not in ("binary", "regression"):
        raise ValueError(f"a one-table file holds binary or regression data; got kind={kind!r}")
    single, prefix, model_cols = (
        ("y_score", "score_", scores) if kind == "binary" else ("y_pred", "pred_", preds)
    )
    if not model_cols:
        raise DataError(
            f'{label} has no score column: expected "{single}" or "{prefix}<model>" '
            f"columns; its columns are {cols[:12]}."
        )
    has_weight = "sample_weight" in cols
    frame.load(["y_true", *model_cols, *(["sample_weight"] * has_weight)])
    y = frame.numbers("y_true")
    if kind == "binary":
        _binary_check(frame, "y_true", y)
    arrays = {c: frame.numbers(c) for c in model_cols}
    if model_cols != [single]:
        arrays = {(c.removeprefix(prefix) or c): v for c, v in arrays.items()}
    weight = None
    if has_weight:
        weight = frame.numbers("sample_weight")
        negative = weight < 0
        if negative.any():
            i = int(np.argmax(negative))
            raise DataError(
                f"{frame.cell(i, 'sample_weight')}: {frame.raw(i, 'sample_weight')!r} is "
                "negative (expected a weight >= 0)."
            )
        if not (weight > 0).any():
            raise DataError(
                f'{label}, column "sample_weight": every weight is 0 (expected at least one '
                "positive weight)."
            )
    ids = _ids(frame, "id") if "id" in cols else tuple(map(str, range(len(y))))
    used = {"y_true", "sample_weight", "id", *model_cols}
    ignored = [c for c in cols if c not in used]
    note = f"; ignored columns: {', '.join(ignored)}" if ignored else ""
    return Dataset(
        name=name or label,
        kind=kind,
        y_true=y,
        scores=arrays,
        sample_weight=weight,
        sample_ids=ids,
        description=f"{label}: {len(y):,} samples, {len(arrays)} model(s){note}",
        source="upload",
    )


def _trec_hint(cols: list[str]) -> str:
    if len(cols) in (4, 6) and cols[1] in ("0", "Q0"):
        return (
            " It looks like a TREC qrels or run file: upload it with its partner in the TREC "
            "uploaders."
        )
    return ""


def read_table(source, *, kind: str | None = None, name: str | None = None) -> Dataset:
    """Read a one-row-per-sample table: ``y_true`` plus score or prediction columns.

    Parameters
    ----------
    source : path, bytes or file-like
        A CSV, TSV, text (delimiter sniffed) or Parquet file. The format comes
        from the extension of the path or of ``name``, else from the content.
    kind : {"binary", "regression"} or None
        None infers it: ``y_pred`` / ``pred_<model>`` columns mean regression,
        ``y_score`` / ``score_<model>`` binary (``y_true`` must then be 0 or 1).
    name : str, optional
        The dataset name; for bytes it is also the file name messages use.

    Returns
    -------
    Dataset
        One model per score column (``score_a`` gives model ``a``; a lone
        ``y_score`` gives model ``y_score``), ``sample_weight`` (finite, >= 0,
        not all 0) and ``id`` (unique) when present. Other columns are ignored
        and listed in the description; pandas' unnamed index column is dropped.

    Raises
    ------
    DataError
        Naming the file, line, column and value of the first problem.

    Examples
    --------
    >>> ds = read_table(b"y_true,y_score\\n0,0.2\\n1,0.9\\n", kind="binary", name="t.csv")
    >>> ds.model_names, ds.y_true.tolist()
    (('y_score',), [0.0, 1.0])
    >>> read_table(b"y_true,pred_lin\\n1.5,1.2\\n", name="r.csv").kind
    'regression'
    """
    data, label = _source(source, name, "table")
    frame = _open_frame(data, label, _format(label, data))
    return _table_dataset(frame, kind, name)


# --------------------------------------------------------------------------
# Labels + scores matrices
# --------------------------------------------------------------------------


@dataclass
class _Matrix:
    """One matrix file: names known on opening, values after ``load``."""

    label: str
    names: list[str] | None
    frame: _Frame | None = None
    values: np.ndarray | None = None
    ids: tuple[str, ...] | None = None

    def load(self) -> np.ndarray:
        if self.values is None:
            frame = self.frame
            frame.load(self.names)
            self.values = np.column_stack([frame.numbers(c) for c in self.names])
            if "id" in frame.columns:
                self.ids = _ids(frame, "id")
        return self.values

    def cell(self, i: int, j: int) -> str:
        if self.frame is not None:
            return self.frame.cell(i, self.names[j])
        return f'{self.label}, row {i + 1}, column "label_{j}" (index [{i}, {j}])'

    def raw(self, i: int, j: int) -> str:
        if self.frame is not None:
            return self.frame.raw(i, self.names[j])
        return f"{self.values[i, j]:g}"


def _check_npy_header(data: bytes, label: str) -> None:
    """Refuse a .npy header that does not parse, or whose shape the bytes cannot fill.

    ``np.load`` allocates the array the header claims before reading it: a 200-byte
    file claiming shape (10^6, 10^6) would ask for 7 TiB. A damaged header raises
    errors of the Python tokenizer. Both become a DataError here.
    """
    f = _io.BytesIO(data)
    try:
        version = np.lib.format.read_magic(f)
        if version == (1, 0):
            shape, _, dtype = np.lib.format.read_array_header_1_0(f)
        elif version == (2, 0):
            shape, _, dtype = np.lib.format.read_array_header_2_0(f)
        else:
            raise ValueError(f"format version {version[0]}.{version[1]} (save with np.save)")
    except (SyntaxError, tokenize.TokenError):
        raise DataError(f"{label} is not a readable .npy file (its header is damaged).") from None
    except (ValueError, TypeError, OverflowError) as exc:
        raise DataError(f"{label} is not a readable .npy file ({_first_line(exc)}).") from None
    if dtype.hasobject:
        return  # np.load refuses it below, with the pickled-data message
    claimed = math.prod(shape) * dtype.itemsize
    held = len(data) - f.tell()
    if claimed != held:
        raise DataError(
            f"{label} is damaged: its header says shape {tuple(shape)} of {dtype} "
            f"({claimed:,} bytes), but the file holds {held:,} bytes of data."
        )


def _read_npy(data: bytes, label: str) -> np.ndarray:
    if not data.startswith(b"\x93NUMPY"):
        raise DataError(
            f"{label} is not a .npy file: it does not start with the .npy header "
            "(save the array with np.save)."
        )
    _check_npy_header(data, label)
    try:
        arr = np.load(_io.BytesIO(data), allow_pickle=False)
    except ValueError as exc:
        if "pickle" in str(exc).lower():
            raise DataError(
                f"{label} holds Python objects (pickled data), not numbers; the explorer never "
                "unpickles uploads. Save a numeric array: np.save(path, a.astype(float))."
            ) from None
        raise DataError(f"{label} is not a readable .npy file ({_first_line(exc)}).") from None
    except (OSError, EOFError) as exc:
        raise DataError(f"{label} is not a readable .npy file ({_first_line(exc)}).") from None
    if hasattr(arr, "files"):
        arr.close()
        raise DataError(f"{label} is a .npz archive; save each matrix with np.save as a .npy.")
    if arr.dtype.kind not in "biuf":
        raise DataError(
            f"{label} holds {arr.dtype} values; expected numbers (bool, integer or float)."
        )
    if arr.ndim != 2:
        hint = " (for one label per sample use a.reshape(-1, 1))" if arr.ndim == 1 else ""
        raise DataError(
            f"{label} holds an array of shape {arr.shape}; expected a 2-D array "
            f"(samples x labels){hint}."
        )
    _check_shape(label, *arr.shape)
    if arr.shape[0] == 0 or arr.shape[1] == 0:
        raise DataError(f"{label} holds an empty array of shape {arr.shape}.")
    return np.asarray(arr, dtype=np.float64)


def _open_matrix(source, name: str | None, default: str) -> _Matrix:
    data, label = _source(source, name, default)
    fmt = _format(label, data)
    if fmt == "npy":
        values = _read_npy(data, label)
        m = _Matrix(label, None, values=values)
        bad = ~np.isfinite(values)
        if bad.any():
            i, j = np.unravel_index(int(np.argmax(bad)), bad.shape)
            raise DataError(f"{m.cell(i, j)}: {_not_a_number(m.raw(i, j))}.")
        return m
    frame = _open_frame(data, label, fmt)
    names = [c for c in frame.columns if c != "id"]
    if not names:
        raise DataError(f"{label} has no label columns; its columns are {frame.columns}.")
    return _Matrix(label, names, frame=frame)


def _same_header(a: _Matrix, b: _Matrix) -> None:
    if a.names is None or b.names is None or a.names == b.names:
        return
    extra = [c for c in b.names if c not in a.names]
    missing = [c for c in a.names if c not in b.names]
    if len(a.names) != len(b.names):
        head = f"{a.label} has {len(a.names)} columns but {b.label} has {len(b.names)}"
    else:
        head = f"{a.label} and {b.label} have different headers"
    parts = [f"extra: {extra}"] * bool(extra) + [f"missing: {missing}"] * bool(missing)
    if not parts:
        j = next(j for j, (x, y) in enumerate(zip(a.names, b.names, strict=True)) if x != y)
        parts = [f'column {j + 1} is "{a.names[j]}" in {a.label} but "{b.names[j]}" in {b.label}']
    raise DataError(f"{head} ({'; '.join(parts)}); the headers must match.")


def _same_shape(a: _Matrix, b: _Matrix) -> None:
    (na, la), (nb, lb) = a.values.shape, b.values.shape
    if (na, la) == (nb, lb):
        return
    if a.frame is None or b.frame is None:
        raise DataError(
            f"{a.label} has shape {(na, la)} but {b.label} has shape {(nb, lb)}; labels and "
            "scores need the same shape (one row per sample, one column per label)."
        )
    raise DataError(
        f"{a.label} has {na:,} rows but {b.label} has {nb:,}; labels and scores need one row "
        "per sample, in the same order."
    )


def _matrix_kind(m: _Matrix, kind: str | None) -> str:
    if kind not in (None, "multilabel", "graded"):
        raise ValueError(f"a labels+scores pair holds multilabel or graded data; got {kind!r}")
    y = m.values
    negative = y < 0
    if negative.any():
        i, j = np.unravel_index(int(np.argmax(negative)), y.shape)
        raise DataError(
            f"{m.cell(i, j)}: {m.raw(i, j)!r} is negative (expected 0 or 1 for multilabel "
            "data, a relevance grade >= 0 for graded data)."
        )
    huge = y > MAX_GRADE
    if huge.any():
        i, j = np.unravel_index(int(np.argmax(huge)), y.shape)
        raise DataError(f"{m.cell(i, j)}: {m.raw(i, j)!r} {GRADE_LIMIT}.")
    is01 = (y == 0) | (y == 1)
    if kind is None:
        return "multilabel" if is01.all() else "graded"
    if kind == "multilabel" and not is01.all():
        i, j = np.unravel_index(int(np.argmax(~is01)), y.shape)
        raise DataError(f"{m.cell(i, j)}: {m.raw(i, j)!r} is not a 0/1 label (expected 0 or 1).")
    return kind


def read_matrix_pair(
    labels,
    scores,
    *,
    kind: str | None = None,
    name: str | None = None,
    extra_scores=None,
    labels_name: str | None = None,
    scores_name: str | None = None,
    model: str = "model",
) -> Dataset:
    """Read a labels matrix and a scores matrix of the same shape.

    Parameters
    ----------
    labels, scores : path, bytes or file-like
        CSV / TSV / text with a header row of label names, Parquet, or ``.npy``
        (no header: labels are named ``label_0``, ``label_1``, ...; loaded with
        ``allow_pickle=False``). Formats may differ between the two files.
        An ``id`` column (text formats, Parquet) gives the sample ids.
    kind : {"multilabel", "graded"} or None
        None infers it: "multilabel" when every label is 0 or 1, "graded"
        otherwise. Negative labels are refused either way.
    name : str, optional
        The dataset name (default: the labels file name).
    extra_scores : dict of str to path, bytes or file-like, optional
        More models' score matrices, by model name.
    labels_name, scores_name : str, optional
        File names for bytes sources (format and messages); default
        ``labels`` / ``scores``.
    model : str
        The model name of ``scores``.

    Raises
    ------
    DataError
        Headers, row counts or shapes that differ (naming both files), or the
        first bad cell.

    Examples
    --------
    >>> ds = read_matrix_pair(b"a,b\\n1,0\\n", b"a,b\\n0.9,0.1\\n", kind="multilabel", name="x")
    >>> ds.y_true.tolist(), ds.label_names
    ([[1.0, 0.0]], ('a', 'b'))
    >>> read_matrix_pair(b"a,b\\n3,0\\n", b"a,b\\n0.9,0.1\\n").kind
    'graded'
    """
    lab = _open_matrix(labels, labels_name, "labels")
    sources = [(model, scores, scores_name, "scores")]
    sources += [(str(m), src, None, str(m)) for m, src in (extra_scores or {}).items()]
    opened = [(m, _open_matrix(src, n, default)) for m, src, n, default in sources]
    for _, sm in opened:
        _same_header(lab, sm)
    lab.load()
    kind = _matrix_kind(lab, kind)
    arrays = {}
    names, ids = lab.names, lab.ids
    for model_name, sm in opened:
        sm.load()
        _same_shape(lab, sm)
        names = names or sm.names
        if ids and sm.ids and ids != sm.ids:
            i = next(i for i, (x, y) in enumerate(zip(ids, sm.ids, strict=True)) if x != y)
            raise DataError(
                f"{sm.frame.cell(i, 'id')}: {sm.ids[i]!r} differs from {ids[i]!r} in "
                f"{lab.label} (expected the same samples in the same order)."
            )
        ids = ids or sm.ids
        arrays[model_name] = sm.values
    n, n_labels = lab.values.shape
    return Dataset(
        name=name or lab.label,
        kind=kind,
        y_true=lab.values,
        scores=arrays,
        label_names=tuple(names) if names else (),
        sample_ids=ids or tuple(map(str, range(n))),
        description=f"{lab.label} + {opened[0][1].label}: {n:,} samples x {n_labels} labels",
        source="upload",
    )


# --------------------------------------------------------------------------
# Long ("tidy") tables
# --------------------------------------------------------------------------


def _first_duplicate(codes: list[np.ndarray]) -> tuple[int, int] | None:
    """(i, j): row i repeats row j's key (j < i, both first such), or None."""
    dup = pd.DataFrame({k: c for k, c in enumerate(codes)}).duplicated().to_numpy()
    if not dup.any():
        return None
    i = int(np.argmax(dup))
    same = np.ones(i, dtype=bool)
    for c in codes:
        same &= c[:i] == c[i]
    return i, int(np.argmax(same))


def _long_dataset(frame: _Frame, kind: str | None, name: str | None) -> Dataset:
    label, cols = frame.label, frame.columns
    missing = [c for c in ("sample", "label", "y_true") if c not in cols]
    if missing:
        raise DataError(
            f"{label} has no {', '.join(repr(c) for c in missing)} column: a long table needs "
            f"sample, label, y_true and y_score columns; its columns are {cols[:12]}."
        )
    has_model = "model" in cols
    score_cols = [c for c in cols if c == "y_score" or c.startswith("score_")]
    if has_model and score_cols != ["y_score"]:
        raise DataError(
            f'{label} has a "model" column, so it needs exactly one "y_score" column; '
            f"its score columns are {score_cols}."
        )
    if not score_cols:
        raise DataError(
            f'{label} has no score column: expected "y_score" (with an optional "model" '
            f'column) or "score_<model>" columns; its columns are {cols[:12]}.'
        )
    if kind not in (None, "multilabel", "graded"):
        raise ValueError(f"a long table holds multilabel or graded data; got {kind!r}")
    frame.load(["y_true", *score_cols])
    y = frame.numbers("y_true")
    negative = y < 0
    if negative.any():
        i = int(np.argmax(negative))
        raise DataError(
            f"{frame.cell(i, 'y_true')}: {frame.raw(i, 'y_true')!r} is negative (expected 0 or "
            "1 for multilabel data, a relevance grade >= 0 for graded data)."
        )
    huge = y > MAX_GRADE
    if huge.any():
        i = int(np.argmax(huge))
        raise DataError(f"{frame.cell(i, 'y_true')}: {frame.raw(i, 'y_true')!r} {GRADE_LIMIT}.")
    if kind == "multilabel":
        _binary_check(frame, "y_true", y)
    samples, labels = frame.strings("sample"), frame.strings("label")
    s_codes, s_names = pd.factorize(samples)
    l_codes, l_names = pd.factorize(labels)
    if has_model:
        models = frame.strings("model")
        m_codes, m_names = pd.factorize(models)
        model_names = [str(m) for m in m_names]
        column_of = {m: "y_score" for m in model_names}
    else:
        m_codes = np.zeros(len(y), dtype=np.intp)
        prefix_free = score_cols != ["y_score"]
        model_names = [(c.removeprefix("score_") or c) if prefix_free else c for c in score_cols]
        column_of = dict(zip(model_names, score_cols, strict=True))
    keys = [s_codes, l_codes, *([m_codes] if has_model else [])]
    dup = _first_duplicate(keys)
    if dup is not None:
        i, j = dup
        pair = f"sample {samples.iloc[i]!r}, label {labels.iloc[i]!r}"
        if has_model:
            pair += f", model {models.iloc[i]!r}"
        raise DataError(
            f"{label}, {frame.where(i)}: the pair ({pair}) already appears on {frame.where(j)} "
            "(expected each pair once)."
        )
    n_s, n_l = len(s_names), len(l_names)
    _check_shape(f"{label} (pivoted)", n_s, n_l)
    for m in range(len(model_names) if has_model else 1):
        rows = m_codes == m
        count = int(rows.sum())
        if count != n_s * n_l:
            sc, lc = s_codes[rows], l_codes[rows]
            s = int(np.argmax(np.bincount(sc, minlength=n_s) < n_l))
            present = np.zeros(n_l, dtype=bool)
            present[lc[sc == s]] = True
            j = int(np.argmax(~present))
            of_model = f" for model {model_names[m]!r}" if has_model else ""
            raise DataError(
                f"{label}: the pair (sample {str(s_names[s])!r}, label {str(l_names[j])!r}) is "
                f"missing{of_model}: expected a row for every sample and label ({n_s:,} samples "
                f"x {n_l:,} labels = {n_s * n_l:,} rows), found {count:,}."
            )
    first = m_codes == 0
    y_mat = np.zeros((n_s, n_l))
    y_mat[s_codes[first], l_codes[first]] = y[first]
    if has_model:
        differs = y_mat[s_codes, l_codes] != y
        if differs.any():
            i = int(np.argmax(differs))
            j = int(np.argmax(first & (s_codes == s_codes[i]) & (l_codes == l_codes[i])))
            raise DataError(
                f"{frame.cell(i, 'y_true')}: {frame.raw(i, 'y_true')!r} differs from "
                f"{frame.raw(j, 'y_true')!r} on {frame.where(j)} for the same (sample "
                f"{samples.iloc[i]!r}, label {labels.iloc[i]!r}); every model shares one y_true."
            )
    arrays = {}
    for m, model in enumerate(model_names):
        rows = m_codes == m if has_model else slice(None)
        v = frame.numbers(column_of[model])[rows]
        mat = np.empty((n_s, n_l))
        mat[s_codes[rows], l_codes[rows]] = v
        arrays[model] = mat
    if kind is None:
        kind = "multilabel" if ((y == 0) | (y == 1)).all() else "graded"
    return Dataset(
        name=name or label,
        kind=kind,
        y_true=y_mat,
        scores=arrays,
        label_names=tuple(str(x) for x in l_names),
        sample_ids=tuple(str(x) for x in s_names),
        description=(
            f"{label} (long table): {n_s:,} samples x {n_l:,} labels, {len(arrays)} model(s)"
        ),
        source="upload",
    )


def read_long_table(source, *, kind: str | None = None, name: str | None = None) -> Dataset:
    """Read a long ("tidy") table, one row per (sample, label) pair, into matrices.

    Parameters
    ----------
    source : path, bytes or file-like
        CSV, TSV, text or Parquet with columns ``sample``, ``label``,
        ``y_true`` and ``y_score`` plus an optional ``model`` column (one
        row per (sample, label, model)); or ``score_<model>`` columns instead
        of ``y_score`` and ``model``.
    kind : {"multilabel", "graded"} or None
        None infers it from ``y_true`` (all 0/1: multilabel). Negative
        labels are refused.
    name : str, optional
        The dataset name; for bytes also the file name.

    Returns
    -------
    Dataset
        Rows are samples and columns labels, both in order of first
        appearance; models in order of first appearance.

    Raises
    ------
    DataError
        A (sample, label[, model]) pair twice (naming both lines), a pair
        missing (naming the first missing pair), a y_true that differs
        between models, or a bad cell.

    Examples
    --------
    >>> text = b"sample,label,y_true,y_score\\nq1,a,1,0.9\\nq1,b,0,0.2\\n"
    >>> ds = read_long_table(text, name="long.csv")
    >>> ds.kind, ds.label_names, ds.y_true.tolist()
    ('multilabel', ('a', 'b'), [[1.0, 0.0]])
    """
    data, label = _source(source, name, "table")
    frame = _open_frame(data, label, _format(label, data))
    return _long_dataset(frame, kind, name)


# --------------------------------------------------------------------------
# TREC qrels + run
# --------------------------------------------------------------------------


class _TrecFile:
    """A TREC qrels or run file: a strict fast read, a text path that names bad lines."""

    def __init__(self, data: bytes, label: str, fields: tuple[str, ...], what: str) -> None:
        self.label, self.fields, self.what = label, fields, what
        data = _text_bytes(data, label, "TREC")
        if not data or data.isspace():
            raise DataError(f"{label} is empty: expected TREC {what} lines ({' '.join(fields)}).")
        self.data = data
        self._scanned: tuple[np.ndarray, np.ndarray] | None = None
        self._text_df: pd.DataFrame | None = None
        self.df = self._fast_read()
        if self.df is None:
            self.df = self._text()
        if len(self.df) > MAX_ROWS:
            raise DataError(f"{label} has {len(self.df):,} lines; the limit is {MAX_ROWS:,} lines.")

    def _fast_read(self) -> pd.DataFrame | None:
        """pyarrow's reader for the usual one-space (or one-tab) separated file, else None."""
        import pyarrow as pa
        import pyarrow.csv as pacsv

        first = self.data[: self.data.find(b"\n")]
        sep = "\t" if b"\t" in first and b" " not in first.strip() else " "
        numeric = {"rel", "score"}
        types = {f: pa.float64() if f in numeric else pa.string() for f in self.fields}
        try:
            table = pacsv.read_csv(
                _io.BytesIO(self.data),
                read_options=pacsv.ReadOptions(column_names=list(self.fields)),
                parse_options=pacsv.ParseOptions(delimiter=sep, quote_char=False),
                convert_options=pacsv.ConvertOptions(column_types=types, strings_can_be_null=False),
            )
        except (ValueError, OSError, pa.ArrowException):
            return None
        return table.to_pandas()

    def _scan(self) -> tuple[np.ndarray, np.ndarray]:
        if self._scanned is None:
            self._scanned = _scan_lines(self.data, None)
        return self._scanned

    def _text(self) -> pd.DataFrame:
        """Every field as text, after checking the field count of every line."""
        if self._text_df is None:
            lines, counts = self._scan()
            width = len(self.fields)
            bad = np.flatnonzero(counts != width)
            if bad.size:
                i = int(bad[0])
                got = int(counts[i])
                other = {4: "qrels", 6: "run"}.get(got)
                hint = (
                    f" (that is the shape of a TREC {other} line: are the two files swapped?)"
                    if other and other != self.what
                    else ""
                )
                raise DataError(
                    f"{self.label}, line {lines[i]} has {got} field{'s' * (got != 1)} but a "
                    f"TREC {self.what} line has {width}: {' '.join(self.fields)}{hint}."
                )
            self._text_df = pd.read_csv(
                _io.BytesIO(self.data),
                sep=r"\s+",
                header=None,
                names=list(self.fields),
                dtype=str,
                na_filter=False,
                quoting=csv.QUOTE_NONE,
                encoding="utf-8",
            )
        return self._text_df

    def line(self, i: int) -> int:
        """The line number of record ``i``."""
        return int(self._scan()[0][i])

    def numbers(self, field: str) -> np.ndarray:
        v = self.df[field]
        if v.dtype == np.float64 and np.isfinite(v.to_numpy()).all():
            return v.to_numpy(dtype=np.float64)
        text = self._text()[field]
        v = pd.to_numeric(text, errors="coerce")
        v = np.asarray(v.to_numpy(dtype=np.float64, na_value=np.nan))
        bad = ~np.isfinite(v)
        if bad.any():
            i = int(np.argmax(bad))
            raise DataError(
                f"{self.label}, line {self.line(i)}, field {self.fields.index(field) + 1} "
                f"({field}): {_not_a_number(text.iloc[i])}."
            )
        return v

    def refuse_duplicates(self, verb: str) -> None:
        """Refuse a document listed twice for one query, naming both lines."""
        q, d = self.df["qid"], self.df["docid"]
        dup = pd.DataFrame({"q": q, "d": d}).duplicated().to_numpy()
        if dup.any():
            i = int(np.argmax(dup))
            j = int(np.argmax(((q == q.iloc[i]) & (d == d.iloc[i])).to_numpy()))
            raise DataError(
                f"{self.label}, line {self.line(i)}: document {d.iloc[i]!r} of query "
                f"{q.iloc[i]!r} was already {verb} on line {self.line(j)} (expected each "
                "document once per query)."
            )


def read_trec(
    qrels,
    run,
    *,
    name: str | None = None,
    qrels_name: str | None = None,
    run_name: str | None = None,
) -> Dataset:
    """Pivot TREC qrels and a TREC run into a graded relevance matrix.

    Parameters
    ----------
    qrels : path, bytes or file-like
        Whitespace-separated ``qid iter docid rel`` lines (``iter`` is
        ignored). A negative ``rel`` (e.g. -2 for junk) counts as 0, as
        trec_eval treats it as not relevant.
    run : path, bytes or file-like
        Whitespace-separated ``qid Q0 docid rank score tag`` lines. ``Q0``,
        ``rank`` and ``tag`` are not interpreted (trec_eval ranks by score
        too); the tag names the model when the whole file has one tag.
    name, qrels_name, run_name : str, optional
        The dataset name (default: the run file name) and the file names of
        bytes sources.

    Returns
    -------
    Dataset
        ``kind="graded"``; one row per query of the run that has at least
        one judgment in the qrels, in order of first appearance in the run
        (run queries without judgments are skipped, and judged queries the
        run lacks are not evaluated, as trec_eval without ``-c``). Columns
        are rank slots ``slot_1``, ``slot_2``, ..., not document ids, since
        each query retrieves different documents. Each row holds, left to
        right:

        1. the retrieved documents in trec_eval's order (score descending,
           ties by docid descending), with the run's score and the judged
           relevance (0 when unjudged). Since the metrics break score ties
           by column order, they rank these exactly as trec_eval does;
        2. padding up to column ``depth`` (the most documents the run
           retrieved for one query): relevance 0, score ``min_score - step``;
        3. in the last ``u`` columns, the ``u`` judged relevant documents
           (rel > 0) the run did not retrieve, grade descending, with score
           ``min_score - (2 + j) * step`` for the j-th (j = 0, 1, ...).

        ``min_score`` is the lowest score the run gives a document of those
        queries, and ``step``
        is 1 (``|min_score| * 2**-40`` when that is larger, so the scores
        stay distinct). The width is ``depth + max u``, so an unretrieved
        relevant document sits at position ``depth + 1`` or later: it counts
        in every denominator that counts relevant items (recall, AP over all
        relevant, the ideal DCG) and never enters a top k for any k up to the
        run depth. Beyond the run depth trec_eval has no documents at all;
        the matrix has padding and then those documents. The description
        says how many such documents were added.

    Raises
    ------
    DataError
        A line with too few or too many fields, a non-numeric rel or score,
        a document twice for one query, or no query in common (each naming
        the file and line).

    Examples
    --------
    >>> qrels = b"1 0 d1 1\\n1 0 d2 0\\n1 0 d9 2\\n"
    >>> run = b"1 Q0 d1 1 3.5 bm25\\n1 Q0 d2 2 2.0 bm25\\n1 Q0 d3 3 1.0 bm25\\n"
    >>> ds = read_trec(qrels, run, qrels_name="q.txt", run_name="r.txt")
    >>> ds.y_true.tolist(), ds.score("bm25").tolist()
    ([[1.0, 0.0, 0.0, 2.0]], [[3.5, 2.0, 1.0, -1.0]])
    """
    q_data, q_label = _source(qrels, qrels_name, "qrels")
    r_data, r_label = _source(run, run_name, "run")
    q_file = _TrecFile(q_data, q_label, _QRELS_FIELDS, "qrels")
    r_file = _TrecFile(r_data, r_label, _RUN_FIELDS, "run")
    rel, score = q_file.numbers("rel"), r_file.numbers("score")
    huge = rel > MAX_GRADE
    if huge.any():
        i = int(np.argmax(huge))
        raw = q_file._text()["rel"].iloc[i]  # the text as written (an error path only)
        raise DataError(f"{q_label}, line {q_file.line(i)}, field 4 (rel): {raw!r} {GRADE_LIMIT}.")
    q_file.refuse_duplicates("judged")
    r_file.refuse_duplicates("retrieved")
    judged, ranked = q_file.df, r_file.df
    n_negative = int((rel < 0).sum())
    rel = np.maximum(rel, 0.0)

    nj = len(judged)
    q_codes, q_names = pd.factorize(pd.concat([judged["qid"], ranked["qid"]], ignore_index=True))
    d_codes, _ = pd.factorize(pd.concat([judged["docid"], ranked["docid"]], ignore_index=True))
    jq, rq, jd, rd = q_codes[:nj], q_codes[nj:], d_codes[:nj], d_codes[nj:]
    n_docs = int(d_codes.max()) + 1
    has_judgment = np.zeros(len(q_names), dtype=bool)
    has_judgment[jq] = True
    keep = has_judgment[rq]
    if not keep.any():
        raise DataError(
            f"none of the {len(pd.unique(rq)):,} queries of {r_label} has a judgment in "
            f"{q_label} (run qids such as {ranked['qid'].iloc[0]!r}, qrels qids such as "
            f"{judged['qid'].iloc[0]!r})."
        )
    queries = pd.unique(rq[keep])  # in order of first appearance in the run
    n_q = len(queries)
    row_of = np.full(len(q_names), -1, dtype=np.intp)
    row_of[queries] = np.arange(n_q)

    r_row, r_doc, r_score = row_of[rq[keep]], rd[keep], score[keep]
    r_key = rq[keep].astype(np.int64) * n_docs + r_doc
    j_key = jq.astype(np.int64) * n_docs + jd
    at = pd.Index(j_key).get_indexer(r_key)
    r_rel = np.where(at >= 0, rel[at], 0.0)
    n_unjudged = int((at < 0).sum())
    j_row = row_of[jq]
    unretrieved = (j_row >= 0) & (rel > 0) & (pd.Index(r_key).get_indexer(j_key) < 0)

    retrieved = np.bincount(r_row, minlength=n_q)
    added = np.bincount(j_row[unretrieved], minlength=n_q)
    depth, extra = int(retrieved.max()), int(added.max())
    width = depth + extra
    _check_shape(f"{r_label} pivoted by query", n_q, width)

    low = float(r_score.min())
    step = max(1.0, abs(low) * 2.0**-40)
    y = np.zeros((n_q, width))
    s = np.full((n_q, width), low - step)
    order = np.lexsort((-r_score, r_row))
    r_row_o, r_score_o = r_row[order], r_score[order]
    tied = (r_row_o[1:] == r_row_o[:-1]) & (r_score_o[1:] == r_score_o[:-1])
    if tied.any():  # trec_eval breaks score ties by docid, descending
        in_tie = np.zeros(len(order), dtype=bool)
        in_tie[1:] |= tied
        in_tie[:-1] |= tied
        involved = np.zeros(len(order), dtype=bool)
        involved[order] = in_tie
        docids = ranked["docid"].to_numpy(dtype=object)[keep]
        doc_rank = np.zeros(len(order), dtype=np.intp)
        doc_rank[involved] = pd.factorize(docids[involved], sort=True)[0]
        order = np.lexsort((-doc_rank, -r_score, r_row))
        r_row_o = r_row[order]
    col = np.arange(len(order)) - (np.cumsum(retrieved) - retrieved)[r_row_o]
    y[r_row_o, col] = r_rel[order]
    s[r_row_o, col] = r_score[order]

    u_row, u_rel = j_row[unretrieved], rel[unretrieved]
    u_order = np.lexsort((-u_rel, u_row))
    u_row = u_row[u_order]
    j = np.arange(len(u_row)) - (np.cumsum(added) - added)[u_row]
    y[u_row, width - added[u_row] + j] = u_rel[u_order]
    s[u_row, width - added[u_row] + j] = low - (2 + j) * step
    if not np.isfinite(s).all():
        raise DataError(f"{r_label}: scores near the float limit leave no room below them.")

    tags = pd.unique(ranked["tag"])
    model = str(tags[0]) if len(tags) == 1 else Path(r_label).stem
    n_run_q = len(pd.unique(rq))
    n_judged_q = int(has_judgment.sum())
    notes = [
        f"TREC run {r_label} judged by {q_label}: {_count(n_q, 'query', 'queries')}, "
        f"run depth {depth:,}",
        f"added {_count(int(unretrieved.sum()), 'judged relevant document')} the run did not "
        "retrieve, after the padding (they count in recall and the ideal DCG, and never "
        f"enter a top k for k <= {depth:,})",
        f"{_count(n_unjudged, 'retrieved document')} without a judgment count as relevance 0",
    ]
    if n_run_q > n_q:
        notes.append(
            f"{_count(n_run_q - n_q, 'run query', 'run queries')} without judgments skipped"
        )
    if n_judged_q > n_q:
        notes.append(f"{_count(n_judged_q - n_q, 'judged query', 'judged queries')} not in the run")
    if n_negative:
        notes.append(f"{_count(n_negative, 'negative judgment')} counted as 0")
    notes.append("columns are rank slots, not document ids")
    return Dataset(
        name=name or r_label,
        kind="graded",
        y_true=y,
        scores={model: s},
        label_names=tuple(f"slot_{k + 1}" for k in range(width)),
        sample_ids=tuple(str(q) for q in q_names[queries]),
        description="; ".join(notes) + ".",
        source="upload",
    )


# --------------------------------------------------------------------------
# Uploads
# --------------------------------------------------------------------------


def _check_extension(label: str, allowed: tuple[str, ...]) -> str:
    ext = Path(label).suffix.lower()
    if ext == ".npy" and ".npy" not in allowed:
        raise DataError(
            f"{label} is a .npy array: it has no column names, so it cannot hold y_true and "
            "the scores by itself. Upload a .npy as a labels + scores pair (two arrays of "
            "the same shape)."
        )
    if ext not in allowed:
        raise DataError(
            f"{label}: files of type {ext or '(no extension)'!r} are not read; expected "
            f"{', '.join(allowed)}."
        )
    return ext


def read_upload(
    name: str, data: bytes, *, max_bytes: int = MAX_UPLOAD_BYTES, kind: str | None = None
) -> Dataset:
    """Read one uploaded file holding everything: a one-row-per-sample or a long table.

    Parameters
    ----------
    name : str
        The uploaded file's name; its extension picks the format: ``.csv``,
        ``.tsv``, ``.txt`` (delimiter sniffed: comma, tab, semicolon, bar or
        whitespace), ``.parquet`` / ``.pq``. A ``.npy`` alone is refused: it
        needs a labels + scores pair (:func:`read_pair_upload`).
    data : bytes
        The file's content.
    max_bytes : int
        Size limit (default :data:`MAX_UPLOAD_BYTES`).
    kind : str or None
        Passed on; None infers it.

    Returns
    -------
    Dataset
        A long table (columns ``sample`` and ``label``) via
        :func:`read_long_table`, else a one-row-per-sample table via
        :func:`read_table`.

    Examples
    --------
    >>> read_upload("s.csv", b"y_true,score_a,score_b\\n0,0.1,0.3\\n1,0.8,0.2\\n").model_names
    ('a', 'b')
    >>> try:
    ...     read_upload("big.csv", b"y_true,y_score\\n" * 10, max_bytes=100)
    ... except DataError as exc:
    ...     print(str(exc).split(". ")[0])
    big.csv is 150 bytes; the limit is 100 bytes per file
    """
    _check_size(name, data, max_bytes)
    _check_extension(name, TABLE_EXTENSIONS)
    frame = _open_frame(data, name, _format(name, data))
    if "sample" in frame.columns and "label" in frame.columns:
        return _long_dataset(frame, kind, name)
    return _table_dataset(frame, kind, name)


def read_pair_upload(
    labels_name: str,
    labels_bytes: bytes,
    scores_name: str,
    scores_bytes: bytes,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
    kind: str | None = None,
) -> Dataset:
    """Read an uploaded labels + scores pair (see :func:`read_matrix_pair`).

    Each file may be ``.csv``, ``.tsv``, ``.txt``, ``.parquet`` / ``.pq`` or
    ``.npy``. The model is named after the scores file (``bm25.csv`` gives
    model ``bm25``).

    Examples
    --------
    >>> import io, numpy as np
    >>> buf = io.BytesIO()
    >>> np.save(buf, np.array([[0.9, 0.1], [0.2, 0.7]]))
    >>> ds = read_pair_upload("y.csv", b"cat,dog\\n1,0\\n0,2\\n", "bm25.npy", buf.getvalue())
    >>> ds.kind, ds.model_names, ds.label_names
    ('graded', ('bm25',), ('cat', 'dog'))
    """
    for label, data in ((labels_name, labels_bytes), (scores_name, scores_bytes)):
        _check_size(label, data, max_bytes)
        _check_extension(label, MATRIX_EXTENSIONS)
    return read_matrix_pair(
        labels_bytes,
        scores_bytes,
        kind=kind,
        name=f"{labels_name} + {scores_name}",
        labels_name=labels_name,
        scores_name=scores_name,
        model=Path(scores_name).stem or "model",
    )


def read_trec_upload(
    qrels_name: str,
    qrels_bytes: bytes,
    run_name: str,
    run_bytes: bytes,
    *,
    max_bytes: int = MAX_UPLOAD_BYTES,
) -> Dataset:
    """Read uploaded TREC qrels and run files (see :func:`read_trec`); any extension.

    Examples
    --------
    >>> ds = read_trec_upload("q.txt", b"7 0 a 1\\n", "r.txt", b"7 Q0 b 1 0.5 x\\n")
    >>> ds.y_true.tolist(), ds.n_samples
    ([[0.0, 1.0]], 1)
    """
    _check_size(qrels_name, qrels_bytes, max_bytes)
    _check_size(run_name, run_bytes, max_bytes)
    return read_trec(qrels_bytes, run_bytes, qrels_name=qrels_name, run_name=run_name)
