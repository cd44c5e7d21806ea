"""Which reader reads a file: by its name's extension, else by its content.

:func:`_source` turns a path, bytes or a file object into bytes and the file
name messages use; :func:`_format` names the format; :func:`_open_frame`
opens a table format with its reader; :func:`_check_extension` refuses an
upload of a type the explorer does not read.
"""

from __future__ import annotations

from pathlib import Path

from explorer.i18n import Phrase
from explorer.io.errors import DataError, quote
from explorer.io.parquet import _ParquetFrame
from explorer.io.text import _TextFrame
from explorer.io.validation import _Frame

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


def _check_extension(label: str, allowed: tuple[str, ...]) -> str:
    ext = Path(label).suffix.lower()
    if ext == ".npy" and ".npy" not in allowed:
        raise DataError(
            Phrase(
                "${label} is a .npy array: it has no column names, so it cannot hold y_true and "
                "the scores by itself. Upload a .npy as a labels + scores pair (two arrays of "
                "the same shape).",
                label=label,
            )
        )
    if ext not in allowed:
        raise DataError(
            Phrase(
                "${label}: files of type ${ext} are not read; expected ${allowed}.",
                label=label,
                ext=quote(ext) if ext else Phrase("'(no extension)'"),
                allowed=", ".join(allowed),
            )
        )
    return ext


def _open_frame(data: bytes, label: str, fmt: str) -> _Frame:
    if fmt == "parquet":
        return _ParquetFrame(data, label)
    if fmt == "npy":
        raise DataError(
            Phrase(
                "${label} is a .npy array: it has no column names, so it cannot hold y_true and "
                "the scores by itself. A .npy file goes in a labels + scores pair (two arrays "
                "of the same shape).",
                label=label,
            )
        )
    sep, what = {"csv": (",", "CSV"), "tsv": ("\t", "TSV"), "txt": ("sniff", "CSV")}[fmt]
    return _TextFrame(data, label, sep, what)
