"""What one upload may hold, stated once and enforced by every reader.

The readers check sizes only through the functions here, which read the
limits at call time: a test may lower them with
``monkeypatch.setattr(explorer.io.limits, "MAX_ROWS", 3)``.

Sizes are in decimal units (1 MB = 1,000,000 bytes), as the browser counts
them: Streamlit's file picker refuses a file above ``server.maxUploadSize``
megabytes of 1,000,000 bytes on Linux and macOS (1,048,576 bytes on Windows),
while the server takes up to that many MiB. :data:`MAX_UPLOAD_BYTES` is the
smaller, so the limit the app states is the one every browser enforces, and a
file that passes a Windows browser's picker is refused with the app's message.
"""

from __future__ import annotations

from explorer.i18n import Phrase
from explorer.io.errors import MAX_MESSAGE_CHARS, DataError, quote

__all__ = [
    "MAX_CELLS",
    "MAX_CELL_CHARS",
    "MAX_COLUMNS",
    "MAX_FILE_NAME_CHARS",
    "MAX_MESSAGE_CHARS",
    "MAX_MODELS",
    "MAX_PARQUET_BYTES",
    "MAX_ROWS",
    "MAX_TEXT_CHARS",
    "MAX_UPLOAD_BYTES",
    "UPLOAD_LIMIT_MB",
    "limits_text",
]

#: ``server.maxUploadSize`` of the app's configs (.streamlit/config.toml and
#: hosting/config.toml), in megabytes; tests check that the configs agree.
UPLOAD_LIMIT_MB = 50
#: Largest uploaded file, in bytes: what the browser's file picker enforces
#: for ``server.maxUploadSize`` on Linux and macOS (50 MB = 50,000,000 bytes).
MAX_UPLOAD_BYTES = UPLOAD_LIMIT_MB * 1000 * 1000
#: Most data rows (or TREC lines) one file may hold.
MAX_ROWS = 2_000_000
#: Most columns one file (or a pivoted matrix) may hold.
MAX_COLUMNS = 2_000
#: Most cells (rows x columns) of one table or matrix: a guard for memory,
#: mainly against compressed Parquet files that expand a thousandfold.
MAX_CELLS = 20_000_000
#: Most characters of one text cell that names something: a sample id, a label
#: or model name, a column name, a TREC query or document id, a run tag.
MAX_TEXT_CHARS = 256
#: Most characters of any one cell of a text table, read before parsing: a
#: longer line is refused before pandas or pyarrow copy it (a 49 MB cell took
#: 730 MB to parse). Names are capped lower (``MAX_TEXT_CHARS``) after reading.
MAX_CELL_CHARS = 1024
#: Most models one dataset may hold (score columns, score files, runs): the Compare
#: page's pickers and a leaderboard of every pair (190 pairs) stay readable.
MAX_MODELS = 20
#: Most characters of an uploaded file's name.
MAX_FILE_NAME_CHARS = 255
#: Most bytes the columns read from a Parquet file may take once decompressed,
#: as its metadata states them (and, for text columns, as decoded).
MAX_PARQUET_BYTES = 256_000_000


def limits_text() -> str:
    """One line stating the upload limits, for the upload widgets' help.

    Examples
    --------
    >>> limits_text()
    'Up to 50 MB (50,000,000 bytes) per file, 2,000,000 rows, 2,000 columns and 20,000,000 cells.'
    """
    return Phrase(
        "Up to ${size} per file, ${rows:,} rows, ${columns:,} columns and ${cells:,} cells.",
        size=_exact(MAX_UPLOAD_BYTES),
        rows=MAX_ROWS,
        columns=MAX_COLUMNS,
        cells=MAX_CELLS,
    )


def _size(n: int) -> str:
    """``n`` bytes in decimal units, as the browser shows file sizes.

    Examples
    --------
    >>> _size(50_000_000), _size(52_428_800), _size(10_272), _size(255)
    ('50 MB', '52.4 MB', '10.3 KB', '255 bytes')
    """
    for unit, size in (("GB", 10**9), ("MB", 10**6), ("KB", 10**3)):
        if n >= size:
            return f"{n / size:.3g} {unit}"
    return Phrase("${n:,} bytes", n=n)


def _exact(n: int) -> str:
    """``n`` bytes in decimal units and, when rounded, exactly.

    Examples
    --------
    >>> _exact(50_000_000), _exact(52_428_800), _exact(150)
    ('50 MB (50,000,000 bytes)', '52.4 MB (52,428,800 bytes)', '150 bytes')
    """
    text = _size(n)
    return text if text.endswith("bytes") else Phrase("${size} (${n:,} bytes)", size=text, n=n)


def _check_size(label: str, data: bytes, max_bytes: int) -> None:
    if len(data) > max_bytes:
        raise DataError(
            Phrase(
                "${label} is ${size}; the limit is ${limit} per file. "
                "Upload a smaller sample of the data.",
                label=label,
                size=_exact(len(data)),
                limit=_exact(max_bytes),
            )
        )


def _check_file_name(name: str) -> None:
    if len(name) > MAX_FILE_NAME_CHARS:
        raise DataError(
            Phrase(
                "the file name ${name} is ${n:,} characters long; the limit is "
                "${limit} characters. Rename the file.",
                name=quote(name),
                n=len(name),
                limit=MAX_FILE_NAME_CHARS,
            )
        )


def _check_columns(label: str, n_columns: int) -> None:
    if n_columns > MAX_COLUMNS:
        raise DataError(
            Phrase(
                "${label} has ${n:,} columns; the limit is ${limit:,} columns.",
                label=label,
                n=n_columns,
                limit=MAX_COLUMNS,
            )
        )


def _check_models(label: str, n_models: int, what: str = "models") -> None:
    """Refuse more than :data:`MAX_MODELS` models, naming the count and what they are.

    Examples
    --------
    >>> try:
    ...     _check_models("runs.csv", 23, "score columns")
    ... except DataError as exc:
    ...     print(str(exc).split(". ")[0])
    runs.csv has 23 score columns; the limit is 20 models
    """
    if n_models > MAX_MODELS:
        raise DataError(
            Phrase(
                "${label} has ${n:,} ${what}; the limit is ${limit} models. Keep "
                "the models to compare in one file, or split them over several datasets.",
                label=label,
                n=n_models,
                what=what if isinstance(what, Phrase) else Phrase(what),  # "score columns"...
                limit=MAX_MODELS,
            )
        )


def _check_lines(label: str, n_lines: int) -> None:
    """The row limit of a file whose records are lines (TREC)."""
    if n_lines > MAX_ROWS:
        raise DataError(
            Phrase(
                "${label} has ${n:,} lines; the limit is ${limit:,} lines.",
                label=label,
                n=n_lines,
                limit=MAX_ROWS,
            )
        )


def _check_shape(label: str, n_rows: int, n_columns: int) -> None:
    if n_rows > MAX_ROWS:
        raise DataError(
            Phrase(
                "${label} has ${n:,} rows; the limit is ${limit:,} rows.",
                label=label,
                n=n_rows,
                limit=MAX_ROWS,
            )
        )
    _check_columns(label, n_columns)
    if n_rows * n_columns > MAX_CELLS:
        raise DataError(
            Phrase(
                "${label} has ${rows:,} rows x ${columns:,} columns = ${cells:,} "
                "cells; the limit is ${limit:,} cells.",
                label=label,
                rows=n_rows,
                columns=n_columns,
                cells=n_rows * n_columns,
                limit=MAX_CELLS,
            )
        )


def _check_text(where: str, text: str) -> None:
    """Refuse a name or id longer than :data:`MAX_TEXT_CHARS`; ``where`` says where it is."""
    if len(text) > MAX_TEXT_CHARS:
        raise DataError(
            Phrase(
                "${where}: ${text} is too long: at most ${limit} characters (an id "
                "or a name, not a text).",
                where=where,
                text=quote(text),
                limit=MAX_TEXT_CHARS,
            )
        )


def _check_decoded(label: str, n_bytes: int, what: str) -> None:
    if n_bytes > MAX_PARQUET_BYTES:
        raise DataError(
            Phrase(
                "${label}: ${what} take ${size} once decompressed; the limit is "
                "${limit}. Upload fewer rows, or drop the long text columns.",
                label=label,
                what=what,
                size=_size(n_bytes),
                limit=_size(MAX_PARQUET_BYTES),
            )
        )
