"""Parquet tables: :class:`_ParquetFrame` (rows counted from 1, no header line).

Only the columns a dataset needs are read (pyarrow's column selection); a
300 MB text in a column the dataset ignores is never decompressed. Before
reading, the sizes the file's metadata states for those columns are checked
against :data:`~explorer.io.limits.MAX_PARQUET_BYTES`. Text columns are read
as dictionaries (each distinct text once), so a long text repeated on every
row is measured, and refused, before it is expanded. Nested columns (lists,
structs, maps) are refused when the dataset needs them.
"""

from __future__ import annotations

import io as _io
import re
from collections.abc import Iterable

import numpy as np
import pandas as pd

from explorer.i18n import Phrase
from explorer.io import limits
from explorer.io.errors import DataError
from explorer.io.limits import _check_columns, _check_decoded, _check_shape
from explorer.io.validation import (
    _bad_cell,
    _check_names,
    _check_text_column,
    _first_line,
    _not_a_number,
    cell_at,
)

#: Columns that hold text when a dataset reads them (ids, long-table keys).
TEXT_COLUMNS = ("id", "sample", "label", "model")
#: The column pandas writes for an index without a name (not data: dropped).
_UNNAMED_INDEX = re.compile(r"__index_level_\d+__")


def _arrow_errors() -> tuple[type[BaseException], ...]:
    import pyarrow as pa

    return (OSError, ValueError, TypeError, NotImplementedError, pa.ArrowException)


class _ParquetFrame:
    """A Parquet table (rows are counted from 1; there is no header line).

    Opening reads the file's footer only: its columns and row count. Columns
    are read on :meth:`load` (and on first use), a few at a time.
    """

    def __init__(self, data: bytes, label: str) -> None:
        self.label, self.data = label, data
        try:
            import pyarrow.parquet as pq

            pf = pq.ParquetFile(_io.BytesIO(data))
            schema, meta = pf.schema_arrow, pf.metadata
        except ImportError as exc:
            raise DataError(
                Phrase(
                    "${label}: Parquet files cannot be read here (${why}).", label=label, why=exc
                )
            ) from None
        except _arrow_errors() as exc:
            raise DataError(_unreadable(label, exc)) from None
        fields = [f for f in schema if not _UNNAMED_INDEX.fullmatch(f.name)]
        _check_columns(label, len(fields))
        names = [str(f.name).strip() for f in fields]
        _check_names(label, names, Phrase("header"))
        self.n_rows = int(meta.num_rows)
        _check_shape(label, self.n_rows, len(fields))  # as a text table counts its cells
        self.columns = names
        self._field = {n: f for n, f in zip(names, fields, strict=True)}
        self._meta = meta
        self.df = pd.DataFrame(index=pd.RangeIndex(self.n_rows))

    # -- reading ---------------------------------------------------------
    def _stored_bytes(self, raw_names: set[str]) -> int:
        """The uncompressed size the metadata states for the columns ``raw_names``.

        The footer's column entries are decoded only here: a damaged one (a path that is
        not UTF-8, found by the upload fuzzer) is a refusal of the file, not a crash."""
        total = 0
        try:
            for g in range(self._meta.num_row_groups):
                group = self._meta.row_group(g)
                for j in range(group.num_columns):
                    col = group.column(j)
                    path = col.path_in_schema
                    if path in raw_names or path.split(".", 1)[0] in raw_names:
                        total += max(int(col.total_uncompressed_size), 0)
        except _arrow_errors() as exc:  # UnicodeDecodeError is a ValueError
            raise DataError(_unreadable(self.label, exc)) from None
        return total

    def _read(self, cols: list[str]) -> None:
        """Read the columns ``cols`` (not yet read) into ``self.df``, checked."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        cols = [c for c in cols if c not in self.df.columns]
        if not cols:
            return
        for c in cols:
            t = self._field[c].type
            if pa.types.is_nested(t) or (
                pa.types.is_dictionary(t) and pa.types.is_nested(t.value_type)
            ):
                raise DataError(
                    Phrase(
                        '${label}, column "${col}" holds ${kind}, not one value per row '
                        "(expected a number or a text in each cell; flatten it before saving).",
                        label=self.label,
                        col=c,
                        kind=_kind_of(t),
                    )
                )
        raw = [self._field[c].name for c in cols]
        stored = self._stored_bytes(set(raw))
        _check_decoded(
            self.label, stored, Phrase("the columns ${names}", names=", ".join(cols[:4]))
        )
        texts = [r for r, c in zip(raw, cols, strict=True) if _is_text(self._field[c].type)]
        try:
            table = pq.ParquetFile(_io.BytesIO(self.data), read_dictionary=texts).read(
                columns=raw, use_threads=False, use_pandas_metadata=False
            )
        except _arrow_errors() as exc:
            raise DataError(_unreadable(self.label, exc)) from None
        if table.num_rows != self.n_rows:
            raise DataError(
                Phrase(
                    "${label} is damaged: its footer says ${n:,} rows, its data holds ${held:,}.",
                    label=self.label,
                    n=self.n_rows,
                    held=table.num_rows,
                )
            )
        decoded = stored
        for c, r in zip(cols, raw, strict=True):
            column = table.column(table.schema.get_field_index(r))
            if pa.types.is_dictionary(column.type):
                decoded += self._check_dictionary(c, column)
                _check_decoded(self.label, decoded, Phrase("the text columns read"))
                column = column.cast(column.type.value_type)
            if pa.types.is_binary(column.type) or pa.types.is_large_binary(column.type):
                try:
                    column = column.cast(pa.large_string())
                except _arrow_errors():
                    raise DataError(
                        Phrase(
                            '${label}, column "${col}" holds bytes that are not UTF-8 text.',
                            label=self.label,
                            col=c,
                        )
                    ) from None
            try:
                self.df[c] = column.to_pandas().reset_index(drop=True)
            except _arrow_errors() as exc:
                raise DataError(
                    Phrase(
                        '${label}, column "${col}" is not readable (${why}).',
                        label=self.label,
                        col=c,
                        why=_first_line(exc),
                    )
                ) from None

    def _check_dictionary(self, col: str, column) -> int:
        """Refuse a text of ``column`` over ``MAX_TEXT_CHARS`` when it names something
        (ids, keys); return the bytes the column takes once decoded."""
        import pyarrow.compute as pc

        total, offset = 0, 0
        for chunk in column.chunks:
            lengths = pc.binary_length(chunk.dictionary)
            per_row = pc.fill_null(pc.take(lengths, chunk.indices), 0)
            total += int(pc.sum(per_row).as_py() or 0)
            if col in TEXT_COLUMNS:
                long = pc.greater(per_row, limits.MAX_TEXT_CHARS).to_numpy(zero_copy_only=False)
                if long.any():
                    i = int(np.argmax(long))
                    value = chunk.dictionary[chunk.indices[i].as_py()].as_py()
                    text = value if isinstance(value, str) else repr(value)
                    limits._check_text(self.cell(offset + i, col), text)
            offset += len(chunk)
        return total

    def load(self, numeric: Iterable[str]) -> None:
        if self.n_rows == 0:
            raise DataError(Phrase("${label} has a header but no data rows.", label=self.label))
        wanted = list(dict.fromkeys([*numeric, *(c for c in TEXT_COLUMNS if c in self.columns)]))
        self._read(wanted)

    def _column(self, col: str) -> pd.Series:
        if col not in self.df.columns:
            self._read([col])
        return self.df[col]

    # -- access ----------------------------------------------------------
    def where(self, i: int) -> str:
        return Phrase("row ${n}", n=i + 1)

    def cell(self, i: int, col: str) -> str:
        return cell_at(self.label, self.where(i), col)

    def raw(self, i: int, col: str) -> str:
        return str(self._column(col).iloc[i])

    def numbers(self, col: str) -> np.ndarray:
        s = self._column(col)
        try:
            if pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
                v = s.to_numpy(dtype=np.float64, na_value=np.nan)
            else:
                v = pd.to_numeric(s, errors="coerce").to_numpy(dtype=np.float64, na_value=np.nan)
        except (TypeError, ValueError, OverflowError):
            v = pd.to_numeric(s.astype(str), errors="coerce")
            v = v.to_numpy(dtype=np.float64, na_value=np.nan)
        v = np.asarray(v, dtype=np.float64)
        bad = ~np.isfinite(v)
        if bad.any():
            i = int(np.argmax(bad))
            raise DataError(_bad_cell(self.cell(i, col), _not_a_number(s.iloc[i])))
        return v

    def column(self, col: str) -> pd.Series:
        """Column ``col`` as stored (numbers, text, with None or NaN where empty); refused
        before it is decompressed when the file states more bytes than short values
        (``MAX_TEXT_CHARS`` each) could take: a bomb in a column no one asked for."""
        if col not in self.df.columns:
            most = self.n_rows * (limits.MAX_TEXT_CHARS + 64)
            if self._stored_bytes({self._field[col].name}) > most:
                raise DataError(
                    Phrase(
                        '${label}, column "${col}" holds more than ${limit:,} characters per row.',
                        label=self.label,
                        col=col,
                        limit=limits.MAX_TEXT_CHARS,
                    )
                )
        return self._column(col)

    def strings(self, col: str) -> pd.Series:
        s = self._column(col)
        missing = s.isna().to_numpy()
        if missing.any():
            i = int(np.argmax(missing))
            raise DataError(Phrase("${cell}: is empty (expected a value).", cell=self.cell(i, col)))
        s = s.astype(str).str.strip().reset_index(drop=True)
        _check_text_column(self, col, s)
        return s


def _is_text(t) -> bool:
    import pyarrow as pa

    return (
        pa.types.is_string(t)
        or pa.types.is_large_string(t)
        or pa.types.is_binary(t)
        or pa.types.is_large_binary(t)
    )


def _unreadable(label: str, exc: BaseException) -> str:
    return Phrase(
        "${label} is not a readable Parquet file (${why}).", label=label, why=_first_line(exc)
    )


def _kind_of(t) -> str:
    """What a nested Parquet type holds, for a message."""
    import pyarrow as pa

    if pa.types.is_dictionary(t):
        t = t.value_type
    if pa.types.is_struct(t):
        kind = "records (a struct)"
    elif pa.types.is_map(t):
        kind = "maps"
    else:
        kind = "lists" if not pa.types.is_union(t) else "mixed values (a union)"
    text = str(t)
    return f"{kind} ({text if len(text) <= 40 else text[:37] + '...'})"
