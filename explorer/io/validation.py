"""Checks and message parts every reader shares.

The table readers (:mod:`explorer.io.text`, :mod:`explorer.io.parquet`) open a
file into a frame; :class:`_Frame` is what the dataset builders ask of one,
whatever the format: its columns, numbers and strings by column, and where a
cell is (``file, line 3, column "y"``) for a message.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Protocol

import numpy as np
import pandas as pd

from explorer.datasets import GRADE_LIMIT
from explorer.i18n import Phrase
from explorer.io import limits
from explorer.io.errors import DataError, quote

#: Column names read as ``y_true`` when the table has no ``y_true`` (any case).
Y_TRUE_ALIASES = (
    "y_true",
    "label",
    "labels",
    "target",
    "truth",
    "y",
    "actual",
    "class",
    "is_positive",
    "relevant",
)


class _Frame(Protocol):
    """A table opened by a reader (:class:`~explorer.io.text._TextFrame`,
    :class:`~explorer.io.parquet._ParquetFrame`), as the dataset builders use it."""

    label: str
    columns: list[str]

    def load(self, numeric: Iterable[str]) -> None:
        """Read the body; ``numeric`` columns will be asked for as numbers."""

    def where(self, i: int) -> str:
        """Where data row ``i`` is: ``line 3`` or ``row 2``."""

    def cell(self, i: int, col: str) -> str:
        """``file, line 3, column "col"``: the start of a message about one cell."""

    def raw(self, i: int, col: str) -> str:
        """The cell as written."""

    def numbers(self, col: str) -> np.ndarray:
        """Column ``col`` as finite float64, or a DataError naming the first bad cell."""

    def strings(self, col: str) -> pd.Series:
        """Column ``col`` as stripped text."""

    def column(self, col: str) -> pd.Series:
        """Column ``col`` as read, unchecked (attributes take any values)."""


def located(label: str, where: str) -> str:
    """``file, line 3``: where a message points, as a Phrase (``where`` one too)."""
    return Phrase("${label}, ${where}", label=label, where=where)


def line(n: int) -> str:
    """``line 3``, as a Phrase."""
    return Phrase("line ${n}", n=n)


def cell_at(label: str, where: str, col: str) -> str:
    """``file, line 3, column "col"``: the start of a message about one cell."""
    return Phrase('${label}, ${where}, column "${col}"', label=label, where=where, col=col)


def _bad_cell(cell: str, why: str) -> str:
    """``file, line 3, column "y": 'x' is not a number.``: a cell and why it is refused."""
    return Phrase("${cell}: ${why}.", cell=cell, why=why)


def negative_weight(frame: _Frame, i: int) -> str:
    """Why row ``i``'s negative sample weight is refused."""
    return Phrase(
        "${cell}: ${raw} is negative (expected a weight >= 0).",
        cell=frame.cell(i, "sample_weight"),
        raw=quote(frame.raw(i, "sample_weight")),
    )


def zero_weights(label: str) -> str:
    """Why weights that are all 0 are refused."""
    return Phrase(
        '${label}, column "sample_weight": every weight is 0 (expected at least one '
        "positive weight).",
        label=label,
    )


def negative_grade(cell: str, raw: str) -> str:
    """Why a negative label of multilabel or graded data is refused."""
    return Phrase(
        "${cell}: ${raw} is negative (expected 0 or 1 for multilabel data, a relevance grade "
        ">= 0 for graded data).",
        cell=cell,
        raw=quote(raw),
    )


def too_large_grade(cell: str, raw: str) -> str:
    """Why a grade above :data:`~explorer.datasets.MAX_GRADE` is refused (``raw`` quoted)."""
    return Phrase("${cell}: ${raw} ${limit}.", cell=cell, raw=quote(raw), limit=GRADE_LIMIT)


def _count(n: int, one: str, many: str | None = None) -> str:
    return f"{n:,} {one if n == 1 else many or one + 's'}"


def _first_line(exc: BaseException) -> str:
    """The first line of an exception's message, at most 120 characters of it, without
    memory addresses (the same file gives the same message).

    Examples
    --------
    >>> _first_line(ValueError("malformed node: <ast.BinOp object at 0x7f52c031c760>"))
    'malformed node: <ast.BinOp>'
    """
    text = str(exc).strip()
    line = text.splitlines()[0] if text else type(exc).__name__
    line = re.sub(r" object at 0x[0-9a-fA-F]+", "", line)
    return line if len(line) <= 120 else line[:117] + "..."


def _listed(names, most: int = 8) -> str:
    """Column names for a message: the first ``most``, each quoted short, then how many more.

    Examples
    --------
    >>> _listed(["y_true", "y_score"])
    "['y_true', 'y_score']"
    >>> _listed([f"c{j}" for j in range(20)], most=2)
    "['c0', 'c1', ... 18 more]"
    """
    names = list(names)
    shown = [quote(n, 24) for n in names[:most]]
    more = f", ... {len(names) - most:,} more" if len(names) > most else ""
    return f"[{', '.join(shown)}{more}]"


def _check_text_column(frame: _Frame, col: str, s: pd.Series) -> None:
    """Refuse a text cell of column ``col`` longer than ``limits.MAX_TEXT_CHARS``."""
    lengths = s.str.len().to_numpy(dtype=np.int64, na_value=0)
    long = lengths > limits.MAX_TEXT_CHARS
    if long.any():
        i = int(np.argmax(long))
        limits._check_text(frame.cell(i, col), str(s.iloc[i]))


def _not_a_number(raw) -> str:
    """Why the cell ``raw`` is not a finite number, for a message (a Phrase)."""
    if raw is None or (isinstance(raw, float) and np.isnan(raw)) or raw is pd.NA:
        return Phrase("is empty or NaN (expected a finite number)")
    if not isinstance(raw, str):
        if isinstance(raw, (int, float, np.number)) and np.isinf(raw):
            return Phrase("${raw} is infinite (expected a finite number)", raw=raw)
        return Phrase("${raw} is not a number", raw=quote(raw))
    text = raw.strip()
    if text == "":
        return Phrase("is empty (expected a number)")
    try:
        value = float(text)
    except ValueError:
        if re.fullmatch(r"[+-]?\d+,\d+", text):
            return Phrase(
                "${raw} is not a number (write the decimal point as '.', not ',')", raw=quote(raw)
            )
        return Phrase("${raw} is not a number", raw=quote(raw))
    if np.isnan(value):
        return Phrase(
            "${raw} is not a number (NaN is not allowed: expected a finite number)", raw=quote(raw)
        )
    if "inf" in text.lower():
        return Phrase("${raw} is infinite (expected a finite number)", raw=quote(raw))
    return Phrase("${raw} is too large (expected a finite number)", raw=quote(raw))


def _looks_like_data(names: list[str]) -> bool:
    """True when every header name parses as a number: the file probably has no header."""
    try:
        [float(n) for n in names]
    except ValueError:
        return False
    return True


def _no_header_hint(names: list[str]) -> str:
    if names and _looks_like_data(names):
        return Phrase(
            " The first line looks like data: the file needs a header row naming the columns"
            " (np.savetxt writes none: pass header=..., comments='')."
        )
    return ""


def _check_names(label: str, names: list[str], where: str) -> None:
    """Refuse empty, over-long and duplicated column names."""
    for j, n in enumerate(names):
        limits._check_text(Phrase("${at}, column ${j}", at=located(label, where), j=j + 1), n)
        if n == "":
            raise DataError(
                Phrase(
                    "${at}: column ${j} has no name (expected a column name; "
                    "is there a stray delimiter at the end of the header?).",
                    at=located(label, where),
                    j=j + 1,
                )
            )
    seen: dict[str, int] = {}
    for j, n in enumerate(names):
        if n in seen:
            raise DataError(
                Phrase(
                    '${at}: column "${name}" appears twice (columns ${a} and ${b}); every '
                    "column needs its own name.${hint}",
                    at=located(label, where),
                    name=n,
                    a=seen[n] + 1,
                    b=j + 1,
                    hint=_no_header_hint(names) or _trec_hint(names),
                )
            )
        seen[n] = j


def _trec_hint(cols: list[str]) -> str:
    if len(cols) in (4, 6) and cols[1] in ("0", "Q0"):
        return Phrase(
            " It looks like a TREC qrels or run file: upload it with its partner in the TREC "
            "uploaders."
        )
    return ""


def _binary_check(frame: _Frame, col: str, y: np.ndarray) -> None:
    bad = (y != 0) & (y != 1)
    if bad.any():
        i = int(np.argmax(bad))
        raise DataError(
            Phrase(
                "${cell}: ${raw} is not a binary label (expected 0 or 1).",
                cell=frame.cell(i, col),
                raw=quote(frame.raw(i, col)),
            )
        )


def _ids(frame: _Frame, col: str) -> tuple[str, ...]:
    """Column ``col`` as unique, non-empty sample ids."""
    ids = frame.strings(col)
    empty = (ids == "").to_numpy()
    if empty.any():
        i = int(np.argmax(empty))
        raise DataError(Phrase("${cell}: is empty (expected an id).", cell=frame.cell(i, col)))
    dup = ids.duplicated().to_numpy()
    if dup.any():
        i = int(np.argmax(dup))
        j = int(np.argmax((ids.iloc[:i] == ids.iloc[i]).to_numpy()))
        raise DataError(
            Phrase(
                "${cell}: ${raw} repeats the id on ${where} (expected each id once).",
                cell=frame.cell(i, col),
                raw=quote(ids.iloc[i]),
                where=frame.where(j),
            )
        )
    return tuple(ids.tolist())
