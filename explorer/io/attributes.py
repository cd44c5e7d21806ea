"""Attributes: what else a file says of each sample (or query), kept for slicing.

A table's columns that are neither labels, scores, weights nor ids are read as
attributes (:func:`from_frame`); in a table of one row per document (a long table,
a table with a query column) a column whose value is the same on every row of a
sample (query) is that sample's attribute, and one that varies within a sample
is left out and named (:func:`per_group`). Formats that have no room for them
(TREC files, ``.npy`` pairs, SVMlight) take a side file (:func:`read_side_file`,
:func:`attach`): a table keyed by sample or query id, one row per id.

An attribute's values are numbers (float64, NaN where a cell is empty) when every
non-empty cell is a finite number, else texts (``""`` where empty); see
:class:`explorer.datasets.Dataset`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable

import numpy as np
import pandas as pd

from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.io.dispatch import _format, _open_frame
from explorer.io.errors import DataError, quote
from explorer.io.validation import _check_text_column, _Frame, _listed

__all__ = ["attach", "attribute_values", "from_frame", "note", "per_group", "read_side_file"]

#: The column of a side file that names the samples (or queries), first found.
ID_COLUMNS = ("id", "sample", "sample_id", "qid", "query", "query_id")


def attribute_values(s: pd.Series) -> np.ndarray:
    """One column as attribute values: float64 (NaN: empty) when every non-empty cell
    is a finite number, else stripped text (``""``: empty).

    Examples
    --------
    >>> attribute_values(pd.Series(["3", " ", "4.5"])).tolist()
    [3.0, nan, 4.5]
    >>> attribute_values(pd.Series(["B", None, 2])).tolist()
    ['B', '', '2']
    >>> attribute_values(pd.Series([True, False])).tolist()
    [1.0, 0.0]
    """
    if pd.api.types.is_bool_dtype(s.dtype) or pd.api.types.is_numeric_dtype(s.dtype):
        v = s.to_numpy(dtype=np.float64, na_value=np.nan)
        if not np.isinf(v).any():
            return v
    text = s.astype(object).where(s.notna(), "").astype(str).str.strip()
    filled = (text != "").to_numpy()
    v = pd.to_numeric(text.where(filled, None), errors="coerce").to_numpy(
        dtype=np.float64, na_value=np.nan
    )
    if filled.any() and np.isfinite(v[filled]).all():
        return v
    return text.to_numpy(dtype=object)


def _column(frame: _Frame, col: str) -> np.ndarray:
    values = attribute_values(frame.column(col))
    if values.dtype == object:
        _check_text_column(frame, col, pd.Series(values))
    return values


def from_frame(
    frame: _Frame, cols: Iterable[str]
) -> tuple[tuple[tuple[str, np.ndarray], ...], list[str]]:
    """The columns ``cols`` of a loaded table as attributes, one value per row, and the
    columns left out: one that cannot be read as one short value per row (a text over
    ``MAX_TEXT_CHARS``, a Parquet list, a column too big for its rows) is ignored, as
    every extra column was before attributes, not refused.

    Examples
    --------
    >>> f = _open_frame(b"y,site,age\\n1,A,30\\n0,B,\\n", "t.csv", "csv")
    >>> f.load(["y"])
    >>> pairs, ignored = from_frame(f, ["site", "age"])
    >>> [(n, v.tolist()) for n, v in pairs], ignored
    ([('site', ['A', 'B']), ('age', [30.0, nan])], [])
    """
    pairs, ignored = [], []
    for c in cols:
        try:
            pairs.append((c, _column(frame, c)))
        except DataError:
            ignored.append(c)
    return tuple(pairs), ignored


def per_group(
    frame: _Frame, cols: Iterable[str], codes: np.ndarray, n_groups: int
) -> tuple[tuple[tuple[str, np.ndarray], ...], list[str]]:
    """The columns ``cols`` as attributes of groups of rows (``codes``: each row's group,
    0 to ``n_groups - 1``): a column whose value is the same on every row of each group
    gives that value; one that varies within a group (a document's feature) is left out
    and returned second, to be named.

    Examples
    --------
    >>> f = _open_frame(b"q,cat,len\\n1,news,3\\n1,news,9\\n2,web,4\\n", "t.csv", "csv")
    >>> f.load([])
    >>> pairs, varying = per_group(f, ["cat", "len"], np.array([0, 0, 1]), 2)
    >>> [(n, v.tolist()) for n, v in pairs], varying
    ([('cat', ['news', 'web'])], ['len'])
    """
    codes = np.asarray(codes)
    first = np.zeros(n_groups, np.int64)
    first[codes[::-1]] = np.arange(len(codes) - 1, -1, -1)  # each group's first row
    pairs, varying = [], []
    for c in cols:
        try:
            v = _column(frame, c)
        except DataError:  # not one short value per row: not an attribute
            varying.append(c)
            continue
        mine = v[first[codes]]
        same = mine == v
        if v.dtype == np.float64:
            same |= np.isnan(mine) & np.isnan(v)
        if np.asarray(same, dtype=bool).all():
            pairs.append((c, v[first]))
        else:
            varying.append(c)
    return tuple(pairs), varying


def note(pairs, varying: Iterable[str] = (), source: str = "") -> str:
    """What was read as attributes, for a dataset's description (empty when nothing).

    Examples
    --------
    >>> note([("site", None), ("age", None)], ["len"])
    "read as attributes: 'site', 'age'; left out (not the same on every row of a sample): 'len'"
    >>> note([("topic", None)], source="meta.csv")
    "attributes from meta.csv: 'topic'"
    """
    parts = []
    if pairs:
        head = f"attributes from {source}" if source else "read as attributes"
        parts.append(f"{head}: {_listed([n for n, _ in pairs])[1:-1]}")
    varying = list(varying)
    if varying:
        parts.append(f"left out (not the same on every row of a sample): {_listed(varying)[1:-1]}")
    return "; ".join(parts)


def _id_column(frame: _Frame) -> str:
    for c in ID_COLUMNS:
        if c in frame.columns:
            return c
    return frame.columns[0]


def read_side_file(
    data: bytes, label: str, ids: tuple[str, ...], what: str = "sample"
) -> tuple[tuple[str, np.ndarray], ...]:
    """A side file of attributes, in the order of ``ids``.

    The file is a table (CSV, TSV, text, Parquet) with one row per id: the ids in the
    first column named ``id``, ``sample``, ``qid``, ``query`` (...; else the first
    column), the attributes in the others. Every id of ``ids`` needs its row; a row
    whose id is not one of ``ids``, or repeats one, is refused naming its line.

    Examples
    --------
    >>> pairs = read_side_file(b"qid,topic\\n2,web\\n1,news\\n", "m.csv", ("1", "2"), "query")
    >>> [(n, v.tolist()) for n, v in pairs]
    [('topic', ['news', 'web'])]
    >>> try:
    ...     read_side_file(b"qid,topic\\n1,news\\n9,web\\n", "m.csv", ("1",), "query")
    ... except DataError as exc:
    ...     print(exc)
    m.csv, line 3, column "qid": '9' is not a query id of the data (expected one of ['1']).
    """
    frame = _open_frame(data, label, _format(label, data))
    key = _id_column(frame)
    others = [c for c in frame.columns if c != key]
    what = Phrase(what)  # "query" or "sample", translated in a refusal
    if not others:
        raise DataError(
            Phrase(
                "${label} has only the column ${key}: a side file holds the ${what} ids "
                "and at least one attribute column.",
                label=label,
                key=quote(key),
                what=what,
            )
        )
    frame.load([])
    keys = frame.strings(key)
    dup = keys.duplicated().to_numpy()
    if dup.any():
        i = int(np.argmax(dup))
        raise DataError(
            Phrase(
                "${cell}: ${raw} is given twice (expected one row per ${what} id).",
                cell=frame.cell(i, key),
                raw=quote(keys.iloc[i]),
                what=what,
            )
        )
    at = pd.Index(ids).get_indexer(keys.tolist())
    unknown = at < 0
    if unknown.any():
        i = int(np.argmax(unknown))
        raise DataError(
            Phrase(
                "${cell}: ${raw} is not a ${what} id of the data (expected one of ${ids}).",
                cell=frame.cell(i, key),
                raw=quote(keys.iloc[i]),
                what=what,
                ids=_listed(ids),
            )
        )
    if len(at) < len(ids):
        missing = np.ones(len(ids), bool)
        missing[at] = False
        gone = [ids[j] for j in np.flatnonzero(missing)]
        more = Phrase(" (nor ${n:,} more)", n=len(gone) - 1) if len(gone) > 1 else ""
        raise DataError(
            Phrase(
                "${label} has no row for ${what} id ${id}${more}: every ${what} needs one.",
                label=label,
                what=what,
                id=quote(gone[0]),
                more=more,
            )
        )
    order = np.argsort(at)
    return tuple((c, _column(frame, c)[order]) for c in others)


def attach(ds: Dataset, side: tuple[str, bytes] | None) -> Dataset:
    """``ds`` with the attributes of the side file ``side`` (name, content) added, and
    the description saying so; ``ds`` itself when there is no side file.

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.7])},
    ...              sample_ids=("a", "b"), description="t.csv")
    >>> out = attach(ds, ("meta.csv", b"id,site\\nb,B\\na,A\\n"))
    >>> out.attribute("site").tolist(), out.description
    (['A', 'B'], "t.csv; attributes from meta.csv: 'site'")
    """
    if side is None:
        return ds
    label, data = side
    what = "query" if ds.retrieved is not None or ds.item_ids is not None else "sample"
    pairs = read_side_file(data, label, ds.sample_ids, what)
    clash = [n for n, _ in pairs if n in ds.attribute_names]
    if clash:
        raise DataError(
            Phrase(
                "${label}: the data already has the attribute ${name}; rename one of them.",
                label=label,
                name=quote(clash[0]),
            )
        )
    text = "; ".join(t for t in (ds.description, note(pairs, source=label)) if t)
    return dataclasses.replace(ds, attributes=(*ds.attributes, *pairs), description=text)
