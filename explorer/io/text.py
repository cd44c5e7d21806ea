"""CSV, TSV and delimited text tables (a sniffed delimiter or whitespace).

:class:`_TextFrame` reads a text table once, fast, and re-reads it as text
only to name a bad cell or a ragged line. The byte checks and the line scan
here also serve the TREC reader (:mod:`explorer.io.trec`).
"""

from __future__ import annotations

import csv
import io as _io
import re
import warnings
from collections.abc import Iterable

import numpy as np
import pandas as pd

from explorer.i18n import Phrase
from explorer.io import limits
from explorer.io.errors import DataError, quote
from explorer.io.limits import _check_columns, _check_shape
from explorer.io.validation import (
    _bad_cell,
    _check_names,
    _check_text_column,
    _first_line,
    _not_a_number,
    cell_at,
    line,
    located,
)

_INDEX = "\x00index"  # the unnamed first column pandas' to_csv writes for the index
_WS = b" \t\r\f\v"  # what pandas treats as blank on a line (besides the delimiter)
_DELIMITERS = (",", "\t", ";", "|")
# phrases: a refusal names them in the visitor's language
_DELIMITER_NAMES = {
    ",": "','",
    "\t": Phrase("a tab"),
    ";": "';'",
    "|": "'|'",
    None: Phrase("whitespace"),
}
_MAGIC = (
    (b"\x89PNG", Phrase("a PNG image")),
    (b"\xff\xd8\xff", Phrase("a JPEG image")),
    (b"GIF8", Phrase("a GIF image")),
    (b"%PDF", Phrase("a PDF document")),
    (
        b"PK\x03\x04",
        Phrase("a zip archive (an Excel .xlsx workbook is one: save the sheet as CSV)"),
    ),
    (b"\xd0\xcf\x11\xe0", Phrase("an Excel .xls workbook (save the sheet as CSV)")),
    (b"\x1f\x8b", Phrase("a gzip archive (unpack it first)")),
    (b"PAR1", Phrase("a Parquet file (name it .parquet)")),
    (b"\x93NUMPY", Phrase("a NumPy .npy array (name it .npy)")),
)


def _text_bytes(data: bytes, label: str, what: str) -> bytes:
    """UTF-8 bytes of a text file; refuse binary data with a named reason."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16, e.g. Excel's "Unicode text"
        try:
            data = data.decode("utf-16").encode("utf-8")
        except UnicodeDecodeError:
            raise DataError(
                Phrase(
                    "${label} is not a text ${what} file: broken UTF-16 text.",
                    label=label,
                    what=what,
                )
            ) from None
    elif data.startswith(b"\xef\xbb\xbf"):
        data = data[3:]
    for magic, kind in _MAGIC:
        if data.startswith(magic):
            raise DataError(
                Phrase(
                    "${label} is not a text ${what} file: it looks like ${kind}.",
                    label=label,
                    what=what,
                    kind=kind,
                )
            )
    head = np.frombuffer(data[:65536], dtype=np.uint8)
    control = ((head < 32) & ~np.isin(head, (9, 10, 11, 12, 13))) | (head == 127)
    if (head == 0).any() or control.sum() > max(4, len(head) // 100):
        at = int(np.argmax(control))
        raise DataError(
            Phrase(
                "${label} is not a text ${what} file: it holds binary data "
                "(byte 0x${byte} at offset ${at}).",
                label=label,
                what=what,
                byte=f"{int(head[at]):02x}",
                at=at,
            )
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


def _count_lines(data: bytes, sep: str | None, chunk: int = 8_000_000) -> int:
    """How many non-blank lines ``data`` has (as :func:`_scan_lines` counts them),
    scanned ``chunk`` bytes at a time so that memory stays small.

    Examples
    --------
    >>> _count_lines(b"a,b\\n1,2\\n\\n \\n3,4", ",", chunk=3)
    3
    """
    n, start = 0, 0
    while start < len(data):
        end = data.find(b"\n", min(start + chunk, len(data)))
        end = len(data) if end < 0 else end + 1
        n += len(_scan_lines(data[start:end], sep)[0])
        start = end
    return n


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
            Phrase(
                "${at}: not readable as CSV (${why}).",
                at=located(label, line(reader.line_num)),
                why=_first_line(exc),
            )
        ) from None
    return np.asarray(lines, dtype=np.int64), np.asarray(counts, dtype=np.int64)


def _parser_reason(exc: BaseException) -> str:
    """What pandas' parser met, in a sentence of ours naming the line where pandas gives
    one (its own words, "Error tokenizing data. C error: ...", mean nothing to a reader).

    Examples
    --------
    >>> _parser_reason(ValueError("Error tokenizing data. C error: EOF inside string "
    ...                           "starting at row 3"))
    'a quoted field that opens on line 4 is never closed (a " is missing)'
    >>> _parser_reason(ValueError("Error tokenizing data. C error: Expected 2 fields in "
    ...                           "line 5, saw 3"))
    'line 5 has 3 fields where the header has 2'
    >>> _parser_reason(ValueError("Error tokenizing data. C error: Buffer overflow caught"))
    'its lines could not be split into fields (check the quotes and the delimiter)'
    """
    text = str(exc)
    found = re.search(r"EOF inside string starting at row (\d+)", text)
    if found:  # pandas counts rows from 0, the header included
        line = int(found[1]) + 1
        return Phrase(
            'a quoted field that opens on line ${line} is never closed (a " is missing)', line=line
        )
    found = re.search(r"Expected (\d+) fields in line (\d+), saw (\d+)", text)
    if found:
        return Phrase(
            "line ${line} has ${got} fields where the header has ${want}",
            line=found[2],
            got=found[3],
            want=found[1],
        )
    return Phrase("its lines could not be split into fields (check the quotes and the delimiter)")


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
            raise DataError(
                Phrase(
                    "${label} is empty: expected a header row and at least one data row.",
                    label=label,
                )
            )
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
                    Phrase(
                        "${at}: the header is not readable (${why}).",
                        at=located(label, line(self.header_line)),
                        why=_first_line(exc),
                    )
                ) from None
            if len(fields) == 1:
                self._check_delimiter(header)
        self.raw_names = list(fields)
        names = [f.strip() for f in fields]
        _check_columns(label, len(names))
        if len(names) > 1 and names[0] == "":
            names[0] = _INDEX
        _check_names(label, names, line(self.header_line))
        self.names = names
        self.columns = [n for n in names if n != _INDEX]
        self.df: pd.DataFrame | None = None
        self._text_df: pd.DataFrame | None = None
        self._scanned: tuple[np.ndarray, np.ndarray] | None = None

    def _check_delimiter(self, header: str) -> None:
        for other in (";", "\t", ",", "|"):
            if other != self.sep and other in header:
                raise DataError(
                    Phrase(
                        "${at}: the header ${header} reads as one column: the delimiter looks "
                        "like ${other}, but a ${what} file is separated by ${sep}. Save it with "
                        "${sep} between columns, or name it .txt to let the explorer detect the "
                        "delimiter.",
                        at=located(self.label, line(self.header_line)),
                        header=quote(header),
                        other=_DELIMITER_NAMES[other],
                        what=self.what,
                        sep=_DELIMITER_NAMES[self.sep],
                    )
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
        self._check_size_before_reading()
        df = self._fast_read(numeric)
        if df is not None and not all(np.isfinite(df[c].to_numpy()).all() for c in numeric):
            df = None
        self.df = df if df is not None else self._text()
        if len(self.df) == 0:
            raise DataError(Phrase("${label} has a header but no data rows.", label=self.label))
        _check_shape(self.label, len(self.df), len(self.columns))

    def _check_size_before_reading(self) -> None:
        """Refuse a file of too many rows or cells before parsing it.

        Parsing 12 million short rows takes half a gigabyte before the row limit
        could refuse them. When the line count says the file may be over a limit,
        its non-blank lines are counted (8 MB at a time) and the limits checked.
        A file with quoted fields (a record may span lines) is checked after reading.
        """
        self._check_line_lengths()
        n_lines = self.data.count(b"\n") + 1
        over = n_lines > limits.MAX_ROWS + 1 or n_lines * len(self.columns) > limits.MAX_CELLS
        if over and b'"' not in self.data:
            _check_shape(self.label, _count_lines(self.data, self.sep) - 1, len(self.columns))

    def _check_line_lengths(self) -> None:
        """Refuse a line too long for its columns before anything copies it.

        A line may hold ``MAX_CELL_CHARS`` characters per column (and a line's
        worth more); the first longer line is refused naming its longest field.
        """
        budget = limits.MAX_CELL_CHARS * (len(self.names) + 1)
        if len(self.data) <= budget:
            return
        buf = np.frombuffer(self.data, dtype=np.uint8)
        bounds = np.concatenate(([-1], np.flatnonzero(buf == 10), [buf.size]))
        long = np.flatnonzero(np.diff(bounds) - 1 > budget)
        lines = ((int(i), self.data[bounds[i] + 1 : bounds[i + 1]]) for i in long)
        i, line = next(((i, line) for i, line in lines if not line.isspace()), (0, b""))
        if not line:  # blank lines (padding) are skipped, as the parsers skip them
            return
        fields = line.split() if self.sep is None else line.split(self.sep.encode())
        j = max(range(len(fields)), key=lambda k: len(fields[k]))
        if len(fields[j]) <= limits.MAX_CELL_CHARS:
            raise DataError(
                Phrase(
                    "${at} is ${n:,} characters long: a row of ${columns} columns holds at most "
                    "${budget:,} (check its quotes and delimiters).",
                    at=located(self.label, Phrase("line ${n}", n=i + 1)),
                    n=len(line),
                    columns=len(self.names),
                    budget=budget,
                )
            )
        where = located(self.label, Phrase("line ${n}", n=i + 1))
        if j < len(self.names):
            where = cell_at(self.label, Phrase("line ${n}", n=i + 1), self.names[j])
        else:
            where = Phrase("${at}, column ${j}", at=where, j=j + 1)
        head = fields[j][:40].decode("utf-8", errors="replace")
        raise DataError(
            Phrase(
                "${where}: ${head}... (${n:,} characters) is too long: a cell holds at most "
                "${limit:,} characters.",
                where=where,
                head=repr(head),
                n=len(fields[j]),
                limit=limits.MAX_CELL_CHARS,
            )
        )

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
                    Phrase(
                        "${label} is not a readable ${what} file: ${why}.",
                        label=self.label,
                        what=self.what,
                        why=_parser_reason(exc),
                    )
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
            sep = _DELIMITER_NAMES[self.sep] if self.sep else Phrase("space")
            hint = (
                Phrase("an extra ${sep} or a decimal comma?", sep=sep)
                if got > want
                else Phrase("a missing value or ${sep}?", sep=sep)
            )
            raise DataError(
                Phrase(
                    "${at} has ${got} ${fields} but the header (line ${header}) has ${want} "
                    "(${hint}).",
                    at=located(self.label, line(lines[i])),
                    got=got,
                    fields=Phrase("field") if got == 1 else Phrase("fields"),
                    header=self.header_line,
                    want=want,
                    hint=hint,
                )
            )

    # -- access ----------------------------------------------------------
    def where(self, i: int) -> str:
        lines, _ = self._scan()
        if len(lines) == len(self.df) + 1:
            return line(lines[i + 1])
        return Phrase("data row ${n}", n=i + 1)

    def cell(self, i: int, col: str) -> str:
        return cell_at(self.label, self.where(i), col)

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
            raise DataError(_bad_cell(self.cell(i, col), _not_a_number(text.iloc[i])))
        return v

    def column(self, col: str) -> pd.Series:
        """Column ``col`` as read (text unless it was loaded as a number)."""
        return self.df[col]

    def strings(self, col: str) -> pd.Series:
        """Column ``col`` as stripped text; a cell over ``MAX_TEXT_CHARS`` is refused."""
        s = self.df[col]
        if s.dtype == np.float64:
            s = self._text()[col]
        s = s.str.strip()
        _check_text_column(self, col, s)
        return s
