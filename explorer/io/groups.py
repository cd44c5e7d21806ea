"""Query groups of learning-to-rank files: rows in query blocks, pivoted to matrices.

Learning-to-rank data (SVMlight/LETOR with ``qid:``, a LightGBM ``.query`` /
``.group`` file, a table with a ``qid`` column) lists one row per (query,
document), the rows of a query together, in blocks of any size. :func:`blocks_of_qids`
and :func:`blocks_of_counts` find the blocks, refusing a query whose rows are
split (LightGBM and XGBoost read a query's rows as one block) and counts that do
not add up to the rows; :func:`pivot` lays each query on a row of a matrix, its
documents in the file's order, and pads the shorter queries with slots marked
not retrieved (never in a top K) whose grade is 0 and whose score is below every
score of the file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

import numpy as np
import pandas as pd

from explorer.datasets import MAX_GRADE, Dataset
from explorer.i18n import Phrase
from explorer.io.errors import DataError, quote
from explorer.io.limits import _check_shape
from explorer.io.validation import _count, located, too_large_grade

#: The note every query-grouped dataset's description carries.
RANKING_NOTE = (
    "read as ranking (graded relevance): one query per row, its documents in the file's order"
)


class Blocks(NamedTuple):
    """The query blocks of a file's data rows: where each starts, how many rows it has,
    and its query id as text."""

    starts: np.ndarray
    sizes: np.ndarray
    names: tuple[str, ...]

    @property
    def n_rows(self) -> int:
        return int(self.sizes.sum())


def blocks_of_qids(qids: pd.Series, where: Callable[[int], str], label: str) -> Blocks:
    """The blocks of a qid per row; a query whose rows are split is refused.

    Parameters
    ----------
    qids : Series of str
        The query id of each data row.
    where : callable
        Data row index -> where it is in the file (``"line 7"``), for messages.
    label : str
        The file name that starts a message.

    Examples
    --------
    >>> b = blocks_of_qids(pd.Series(["7", "7", "3"]), lambda i: f"line {i + 1}", "f")
    >>> b.starts.tolist(), b.sizes.tolist(), b.names
    ([0, 2], [2, 1], ('7', '3'))
    >>> try:
    ...     blocks_of_qids(pd.Series(["7", "3", "7"]), lambda i: f"line {i + 1}", "f")
    ... except DataError as exc:
    ...     print(exc)  # doctest: +ELLIPSIS
    f, line 3: query '7' starts again after query '3', but its rows ended on line 1: ...
    """
    codes, uniques = pd.factorize(qids)
    n = len(codes)
    starts = np.concatenate(([0], np.flatnonzero(codes[1:] != codes[:-1]) + 1))
    block_codes = codes[starts]
    if len(block_codes) != len(uniques):
        b = int(np.argmax(pd.Index(block_codes).duplicated()))
        first = int(np.argmax(block_codes == block_codes[b]))
        ended = int(starts[first + 1]) - 1
        i = int(starts[b])
        raise DataError(
            Phrase(
                "${at}: query ${query} starts again after query ${before}, but its rows ended "
                "on ${ended}: the rows of a query must be together, as LightGBM and XGBoost "
                "read them (sort the rows by query, keeping each query's document order).",
                at=located(label, where(i)),
                query=quote(qids.iloc[i]),
                before=quote(qids.iloc[i - 1]),
                ended=where(ended),
            )
        )
    sizes = np.diff(np.append(starts, n))
    return Blocks(starts, sizes, tuple(str(q) for q in uniques))


def blocks_of_counts(counts: np.ndarray, n_rows: int, label: str, data_label: str) -> Blocks:
    """The blocks of a LightGBM ``.query`` / ``.group`` file: rows per query, in order.

    ``counts`` are whole numbers >= 1, checked by the reader of the file; they must add
    up to ``n_rows``, the data rows of ``data_label``. Queries are named by their
    place, 1, 2, ...

    Examples
    --------
    >>> blocks_of_counts(np.array([2, 1]), 3, "q", "d").sizes.tolist()
    [2, 1]
    >>> try:
    ...     blocks_of_counts(np.array([2, 2]), 3, "d.query", "d.txt")
    ... except DataError as exc:
    ...     print(exc)  # doctest: +ELLIPSIS
    d.query, line 2: the counts reach 4 rows, but d.txt has 3 data rows (the counts ...
    """
    ends = np.cumsum(counts)
    total = int(ends[-1]) if len(ends) else 0
    if total != n_rows:
        line = int(np.argmax(ends > n_rows)) + 1 if total > n_rows else len(counts)
        reach = int(ends[line - 1]) if len(ends) else 0
        raise DataError(
            Phrase(
                "${at}: the counts reach ${reach:,} rows, but ${data} has ${n:,} data rows (the "
                "counts of a query file add up to the rows of its data file).",
                at=located(label, Phrase("line ${n}", n=line)),
                reach=reach,
                data=data_label,
                n=n_rows,
            )
        )
    starts = ends - counts
    names = tuple(map(str, range(1, len(counts) + 1)))
    return Blocks(starts, np.asarray(counts, dtype=np.int64), names)


def check_grades(y: np.ndarray, where: Callable[[int], str], raw: Callable[[int], str]) -> None:
    """Refuse a negative or too large relevance grade, naming its row (``where``)."""
    negative = y < 0
    if negative.any():
        i = int(np.argmax(negative))
        raise DataError(
            Phrase(
                "${cell}: ${raw} is negative (expected a relevance grade >= 0).",
                cell=where(i),
                raw=quote(raw(i)),
            )
        )
    huge = y > MAX_GRADE
    if huge.any():
        i = int(np.argmax(huge))
        raise DataError(too_large_grade(where(i), raw(i)))


def no_room(label: str) -> str:
    """Why scores at the float limit are refused (no lower score is left for the
    documents a run did not retrieve)."""
    return Phrase("${label}: scores near the float limit leave no room below them.", label=label)


class Pivoted(NamedTuple):
    """Queries as rows: grades, each model's scores, the retrieved mask, document ids."""

    y_true: np.ndarray
    scores: dict[str, np.ndarray]
    retrieved: np.ndarray
    item_ids: np.ndarray


def pivot(
    blocks: Blocks,
    label: str,
    y: np.ndarray,
    scores: dict[str, np.ndarray],
    doc_ids: np.ndarray | None,
) -> Pivoted:
    """Each query's rows on one row of a matrix, in the file's order, padded.

    A padding slot has grade 0, is not retrieved, has document id ``""`` and a score
    below every score of its model (1 below the lowest), so that a page which ranks
    by score alone still ranks it last.

    Parameters
    ----------
    blocks : Blocks
    label : str
        The file name for the size check.
    y : ndarray of shape (n_rows,)
        The grades, in file order.
    scores : dict of str to ndarray of shape (n_rows,)
    doc_ids : ndarray of str, shape (n_rows,), or None
        The documents' ids; None names each by its row number within the query (1, 2, ...).

    Examples
    --------
    >>> b = Blocks(np.array([0, 2]), np.array([2, 1]), ("a", "b"))
    >>> p = pivot(b, "f", np.array([2.0, 0, 1]), {"m": np.array([0.5, 0.1, 3.0])}, None)
    >>> p.y_true.tolist(), p.scores["m"].tolist(), p.retrieved.tolist()
    ([[2.0, 0.0], [1.0, 0.0]], [[0.5, 0.1], [3.0, -0.9]], [[True, True], [True, False]])
    >>> p.item_ids.tolist()
    [['1', '2'], ['1', '']]
    """
    n_q, width = len(blocks.sizes), int(blocks.sizes.max())
    _check_shape(Phrase("${label} pivoted by query", label=label), n_q, width)
    row = np.repeat(np.arange(n_q), blocks.sizes)
    col = np.arange(len(row)) - np.repeat(blocks.starts, blocks.sizes)
    if doc_ids is None:
        doc_ids = (col + 1).astype(str)
    y_mat = np.zeros((n_q, width))
    y_mat[row, col] = y
    retrieved = np.zeros((n_q, width), dtype=bool)
    retrieved[row, col] = True
    ids = np.full((n_q, width), "", dtype=object)
    ids[row, col] = np.asarray(doc_ids, dtype=object)
    out = {}
    for model, s in scores.items():
        low = float(s.min())
        mat = np.full((n_q, width), low - max(1.0, abs(low) * 2.0**-40))
        mat[row, col] = s
        if not np.isfinite(mat).all():
            raise DataError(no_room(label))
        out[model] = mat
    return Pivoted(y_mat, out, retrieved, ids)


def description(label: str, blocks: Blocks, n_models: int, extra: list[str]) -> str:
    """The dataset's one line: what was read, the ranking note, and what else to know.

    Examples
    --------
    >>> b = Blocks(np.array([0, 2]), np.array([2, 1]), ("a", "b"))
    >>> description("f.txt", b, 1, [])  # doctest: +NORMALIZE_WHITESPACE
    "f.txt: 2 queries, 3 documents (1 to 2 per query), 1 model(s); read as ranking
    (graded relevance): one query per row, its documents in the file's order;
    shorter queries padded with slots that are not retrieved (never in a top K)."
    """
    lo, hi = int(blocks.sizes.min()), int(blocks.sizes.max())
    parts = [
        f"{label}: {_count(len(blocks.sizes), 'query', 'queries')}, "
        f"{_count(blocks.n_rows, 'document')} ({lo:,} to {hi:,} per query), {n_models} model(s)",
        RANKING_NOTE,
    ]
    if lo < hi:
        parts.append("shorter queries padded with slots that are not retrieved (never in a top K)")
    return "; ".join(parts + extra) + "."


def ranking_dataset(
    name: str, label: str, blocks: Blocks, p: Pivoted, notes: list[str], attributes=()
) -> Dataset:
    """The graded Dataset of pivoted query groups: the mask, the document ids, the queries'
    ids, and the description (:func:`description` with ``notes``). Columns are named
    ``row_1``, ``row_2``, ...: a document's place within its query in the file."""
    return Dataset(
        name=name,
        kind="graded",
        y_true=p.y_true,
        scores=p.scores,
        label_names=tuple(f"row_{j + 1}" for j in range(p.y_true.shape[1])),
        sample_ids=blocks.names,
        description=description(label, blocks, len(p.scores), notes),
        source="upload",
        retrieved=p.retrieved,
        item_ids=p.item_ids,
        attributes=attributes,
    )
