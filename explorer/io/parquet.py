"""Parquet tables: :class:`_ParquetFrame` (rows counted from 1, no header line)."""

from __future__ import annotations

import io as _io
from collections.abc import Iterable

import numpy as np
import pandas as pd

from explorer.io.errors import DataError
from explorer.io.limits import _check_shape
from explorer.io.validation import _check_names, _first_line, _not_a_number


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
