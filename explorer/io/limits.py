"""What one upload may hold, stated once and enforced by every reader.

The readers check sizes only through the functions here, which read the
limits at call time: a test may lower them with
``monkeypatch.setattr(explorer.io.limits, "MAX_ROWS", 3)``.
"""

from __future__ import annotations

from explorer.io.errors import DataError

#: Largest uploaded file, in bytes (50 MB).
MAX_UPLOAD_BYTES = 50 * 1024 * 1024
#: Most data rows (or TREC lines) one file may hold.
MAX_ROWS = 2_000_000
#: Most columns one file (or a pivoted matrix) may hold.
MAX_COLUMNS = 2_000
#: Most cells (rows x columns) of one table or matrix: a guard for memory,
#: mainly against compressed Parquet files that expand a thousandfold.
MAX_CELLS = 20_000_000


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


def _size(n: int) -> str:
    if n >= 1024 * 1024:
        return f"{n / (1024 * 1024):.3g} MB"
    if n >= 1024:
        return f"{n / 1024:.3g} KB"
    return f"{n:,} bytes"


def _check_size(label: str, data: bytes, max_bytes: int) -> None:
    if len(data) > max_bytes:
        raise DataError(
            f"{label} is {_size(len(data))}; the limit is {_size(max_bytes)} per file. "
            "Upload a smaller sample of the data."
        )


def _check_columns(label: str, n_columns: int) -> None:
    if n_columns > MAX_COLUMNS:
        raise DataError(f"{label} has {n_columns:,} columns; the limit is {MAX_COLUMNS:,} columns.")


def _check_lines(label: str, n_lines: int) -> None:
    """The row limit of a file whose records are lines (TREC)."""
    if n_lines > MAX_ROWS:
        raise DataError(f"{label} has {n_lines:,} lines; the limit is {MAX_ROWS:,} lines.")


def _check_shape(label: str, n_rows: int, n_columns: int) -> None:
    if n_rows > MAX_ROWS:
        raise DataError(f"{label} has {n_rows:,} rows; the limit is {MAX_ROWS:,} rows.")
    _check_columns(label, n_columns)
    if n_rows * n_columns > MAX_CELLS:
        raise DataError(
            f"{label} has {n_rows:,} rows x {n_columns:,} columns = {n_rows * n_columns:,} "
            f"cells; the limit is {MAX_CELLS:,} cells."
        )
