"""Round trips between a Dataset and the tables the data editor shows.

Pure functions (no streamlit): the Data page hands the edited DataFrames
back here, and a bad cell is refused with :class:`~explorer.io.DataError`
naming the table, the row, the column, the value and what was expected.
Rows are numbered as the editor shows them (from 0).
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd

from explorer.datasets import GRADE_LIMIT, MAX_GRADE, Dataset
from explorer.i18n import Phrase
from explorer.io.attributes import attribute_values
from explorer.io.errors import DataError, quote
from explorer.io.limits import MAX_TEXT_CHARS, _check_text

__all__ = [
    "EDIT_MAX_ROWS",
    "dataset_from_matrices",
    "dataset_from_table",
    "attributes_table",
    "keep_attributes",
    "keep_run",
    "long_table_from_run",
    "matrices_from_dataset",
    "splice",
    "table_from_dataset",
]

EDIT_MAX_ROWS = 500


def _prefix(kind: str) -> str:
    return "score_" if kind == "binary" else "pred_"


def table_from_dataset(ds: Dataset, rows: slice | None = None) -> pd.DataFrame:
    """One row per sample: ``id``, ``y_true``, one column per model, ``sample_weight``,
    then one column per attribute (the table reader reads them back as attributes).

    Parameters
    ----------
    ds : Dataset
    rows : slice, optional
        Only these rows (a window of a big dataset), indexed by their row
        numbers in the full table: ``table_from_dataset(ds, rows)`` equals
        ``table_from_dataset(ds).iloc[rows]`` without building the rest.

    Examples
    --------
    >>> import numpy as np
    >>> ds = Dataset("t", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.8])})
    >>> table_from_dataset(ds).columns.tolist()
    ['id', 'y_true', 'score_m']
    >>> table_from_dataset(ds, slice(1, 2)).index.tolist()
    [1]
    """
    rows = slice(None) if rows is None else rows
    index = pd.RangeIndex(ds.n_samples)[rows]
    cols = {"id": list(ds.sample_ids[rows]), "y_true": ds.y_true[rows]}
    for model, s in ds.scores.items():
        cols[_prefix(ds.kind) + model] = s[rows]
    if ds.sample_weight is not None:
        cols["sample_weight"] = ds.sample_weight[rows]
    for name, values in ds.attributes:
        cols.setdefault(name, values[rows])  # a name the table uses stays the table's
    return pd.DataFrame(cols, index=index)


def table_words(ds: Dataset) -> dict[str, str]:
    """The words the Data page's table shows over the code names of
    :func:`table_from_dataset` (its CSV and the readers keep the names): the true
    column, each model's column, the weights; the attributes keep their own names.

    Examples
    --------
    >>> ds = Dataset("t", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.8])})
    >>> table_words(ds)
    {'y_true': 'true label', 'score_m': 'score of m'}
    >>> ds = Dataset("t", "regression", np.array([1.0, 2.0]), {"m": np.array([1.5, 2.0])})
    >>> table_words(ds)
    {'y_true': 'true value', 'pred_m': 'prediction of m'}
    """
    words = {"y_true": Phrase("true value" if ds.kind == "regression" else "true label")}
    # as _prefix names them
    noun = "score of ${model}" if ds.kind == "binary" else "prediction of ${model}"
    for model in ds.scores:
        words[_prefix(ds.kind) + model] = Phrase(noun, model=model)
    if ds.sample_weight is not None:
        words["sample_weight"] = Phrase("weight")
    return words


def attributes_table(ds: Dataset) -> pd.DataFrame:
    """``id`` and one column per attribute: the side file that gives them back (the
    download of a dataset whose other files have no room for them).

    Examples
    --------
    >>> ds = Dataset("t", "graded", np.eye(2), {"m": np.eye(2)}, sample_ids=("q1", "q2"),
    ...              attributes={"topic": np.array(["news", "web"], dtype=object)})
    >>> attributes_table(ds).values.tolist()
    [['q1', 'news'], ['q2', 'web']]
    """
    cols = {"id": list(ds.sample_ids)}
    for name, values in ds.attributes:
        cols.setdefault(name, values)
    return pd.DataFrame(cols)


def keep_attributes(new: Dataset, old: Dataset) -> Dataset:
    """``new`` (an edit of ``old``) with ``old``'s attributes on the rows it kept, by
    sample id; an added row's are missing (NaN, ``""``). ``new``'s own attributes
    (edited in the table) win.

    Examples
    --------
    >>> old = Dataset("o", "binary", np.array([0, 1]), {"m": np.array([.2, .7])},
    ...               sample_ids=("a", "b"), attributes={"age": np.array([30.0, 40.0])})
    >>> new = Dataset("e", "binary", np.array([1, 0]), {"m": np.array([.7, .1])},
    ...               sample_ids=("b", "z"))
    >>> keep_attributes(new, old).attribute("age").tolist()
    [40.0, nan]
    """
    if not old.attributes or new.attributes:
        return new
    at = pd.Index(old.sample_ids).get_indexer(list(new.sample_ids))
    kept = at >= 0
    pairs = []
    for name, values in old.attributes:
        empty = np.nan if values.dtype == np.float64 else ""
        moved = np.full(len(at), empty, dtype=values.dtype)
        moved[kept] = values[at[kept]]
        pairs.append((name, moved))
    return dataclasses.replace(new, attributes=tuple(pairs))


def matrices_from_dataset(ds: Dataset, model: str | None = None, rows: slice | None = None):
    """``(labels, scores)`` DataFrames with the label names as columns.

    ``rows`` keeps only a window of rows (as ``.iloc[rows]`` of the full
    tables, without building the rest).

    Examples
    --------
    >>> import numpy as np
    >>> ds = Dataset("t", "multilabel", np.eye(2), {"m": np.eye(2) / 2}, label_names=("a", "b"))
    >>> labels, scores = matrices_from_dataset(ds)
    >>> labels.columns.tolist(), scores.iloc[0].tolist()
    (['a', 'b'], [0.5, 0.0])
    >>> matrices_from_dataset(ds, rows=slice(1, 2))[0].index.tolist()
    ['1']
    """
    rows = slice(None) if rows is None else rows
    names = list(ds.label_names)
    index = pd.Index(list(ds.sample_ids[rows]), name="id")
    labels = pd.DataFrame(ds.y_true[rows], columns=names, index=index)
    scores = pd.DataFrame(ds.score(model)[rows], columns=names, index=index)
    return labels, scores


def long_table_from_run(ds: Dataset) -> pd.DataFrame:
    """A dataset with document ids (a run) as a long table: one row per document,
    ``sample``, ``label`` (the document id), ``y_true``, ``score_<model>`` and
    ``retrieved`` (0 for a judged document the run lacks), then each attribute of the
    query on its rows; slots of no document are left out. The long-table reader reads
    it back.

    Examples
    --------
    >>> y = np.array([[1, 0, 2], [0, 1, 0]])
    >>> ids = np.array([["d1", "d2", "d9"], ["d4", "", ""]], dtype=object)
    >>> seen = np.array([[True, True, False], [True, False, False]])
    >>> run = Dataset("r", "graded", y, {"bm25": y / 4}, retrieved=seen, item_ids=ids)
    >>> long_table_from_run(run).values.tolist()[2:]
    [['0', 'd9', 2.0, 0.5, 0], ['1', 'd4', 0.0, 0.0, 1]]
    """
    rows, cols = np.nonzero(ds.item_ids != "")
    out = {
        "sample": np.asarray(ds.sample_ids, dtype=object)[rows],
        "label": ds.item_ids[rows, cols],
        "y_true": ds.y_true[rows, cols],
    }
    for model, s in ds.scores.items():
        out[f"score_{model}"] = s[rows, cols]
    seen = np.ones(len(rows), bool) if ds.retrieved is None else ds.retrieved[rows, cols]
    out["retrieved"] = seen.astype(np.int64)
    for name, values in ds.attributes:  # a query's attribute on each of its rows
        out.setdefault(name, values[rows])
    return pd.DataFrame(out)


def keep_run(new: Dataset, old: Dataset) -> Dataset:
    """``new`` (an edit of ``old``) with ``old``'s ``retrieved`` mask and document ids
    on the rows it kept (by sample id); an added row has every item retrieved and
    its slot names as ids. Without them an edit of a run would rank the documents
    the run never retrieved. Unchanged when ``old`` has neither or the width changed.

    Examples
    --------
    >>> y = np.array([[1, 2], [0, 1]])
    >>> ids = np.array([["d1", "d9"], ["d4", "d5"]], dtype=object)
    >>> run = Dataset("r", "graded", y, {"m": y / 4}, sample_ids=("a", "b"),
    ...               retrieved=np.array([[True, False], [True, True]]), item_ids=ids)
    >>> edit = Dataset("e", "graded", y[::-1], {"m": y[::-1] / 4}, sample_ids=("b", "z"))
    >>> kept = keep_run(edit, run)
    >>> kept.retrieved is None, kept.item_ids.tolist()
    (True, [['d4', 'd5'], ['label_0', 'label_1']])
    """
    if (old.retrieved is None and old.item_ids is None) or new.y_true.shape[1:] != old.y_true.shape[
        1:
    ]:
        return new
    at = pd.Index(old.sample_ids).get_indexer(list(new.sample_ids))
    kept = (at >= 0)[:, None]
    seen = None
    if old.retrieved is not None:
        seen = np.where(kept, old.retrieved[np.maximum(at, 0)], True)
    names = np.broadcast_to(np.array(new.label_names, dtype=object), new.y_true.shape)
    ids = names if old.item_ids is None else np.where(kept, old.item_ids[np.maximum(at, 0)], names)
    return dataclasses.replace(new, retrieved=seen, item_ids=ids)


def _cell(table: str, i: int, column) -> str:
    """``the edited table, row 3, column "y_true"``: where a refusal points (``table``
    one of this module's names of a table, translated)."""
    return Phrase('${table}, row ${i}, column "${col}"', table=Phrase(table), i=i, col=column)


def _numbers(df: pd.DataFrame, table: str) -> np.ndarray:
    """All cells as finite floats, or a DataError naming the first bad one."""
    values = df.apply(pd.to_numeric, errors="coerce").to_numpy(dtype=np.float64)
    bad = ~np.isfinite(values)
    if bad.any():
        i, j = (int(v) for v in np.argwhere(bad)[0])
        raw = df.iat[i, j]
        what = (
            Phrase("is empty")
            if raw is None or (isinstance(raw, float) and np.isnan(raw))
            else Phrase("${raw} is not a finite number", raw=quote(raw))
        )
        raise DataError(Phrase("${cell}: ${why}.", cell=_cell(table, i, df.columns[j]), why=what))
    return values


def _sample_ids(values, table: str) -> tuple[str, ...]:
    """The ids of the edited rows: as typed, stripped; a row without one (a row the
    editor added) gets ``str(row)``, or the first of ``<row>-2``, ``<row>-3``... not
    taken. An id typed twice, or longer than ``MAX_TEXT_CHARS``, is refused.

    Examples
    --------
    >>> _sample_ids(["a", None, " b ", float("nan"), "1"], "t")
    ('a', '1-2', 'b', '3', '1')
    """
    typed: dict[str, int] = {}
    for i, v in enumerate(values):
        text = "" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v).strip()
        if not text:
            continue
        _check_text(_cell(table, i, "id"), text)
        if text in typed:
            raise DataError(
                Phrase(
                    "${cell}: ${raw} repeats the id of row ${j} (expected each id once).",
                    cell=_cell(table, i, "id"),
                    raw=quote(text),
                    j=typed[text],
                )
            )
        typed[text] = i
    ids = []
    taken = set(typed)
    for i, v in enumerate(values):
        text = "" if v is None or (isinstance(v, float) and np.isnan(v)) else str(v).strip()
        if not text:
            text, k = str(i), 1
            while text in taken:
                k += 1
                text = f"{i}-{k}"
            taken.add(text)
        ids.append(text)
    return tuple(ids)


def _check_labels(y: np.ndarray, df: pd.DataFrame, table: str, kind: str) -> None:
    if kind == "multiclass" and y.ndim == 2 and np.isin(y, (0, 1)).all():
        rows = np.flatnonzero(y.sum(axis=1) != 1)
        if rows.size:
            i = int(rows[0])
            raise DataError(
                Phrase(
                    "${table}, row ${i}: ${n} classes are marked 1 (expected exactly "
                    "one 1 per row: the sample's class).",
                    table=Phrase(table),
                    i=i,
                    n=int(y[i].sum()),
                )
            )
    if kind in ("binary", "multilabel", "multiclass"):
        bad = (y != 0) & (y != 1)
        expected = Phrase("is not 0 or 1")
    elif kind == "graded":
        bad = y < 0
        expected = Phrase("is not a relevance grade >= 0")
    else:
        return
    if kind == "graded" and not bad.any() and (y > MAX_GRADE).any():
        bad, expected = y > MAX_GRADE, None
    if bad.any():
        i, j = (int(v) for v in np.argwhere(bad.reshape(len(df), -1))[0])
        col = df.columns[j] if y.ndim == 2 else "y_true"
        value = y[i, j] if y.ndim == 2 else y[i]
        raise DataError(
            Phrase(
                "${cell}: ${value} ${why}.",
                cell=_cell(table, i, col),
                value=f"{value:g}",
                why=expected or GRADE_LIMIT,
            )
        )


def dataset_from_table(df: pd.DataFrame, *, kind: str, name: str, description: str = ""):
    """Build a 1-D Dataset from an edited one-row-per-sample table.

    Examples
    --------
    >>> df = pd.DataFrame({"id": ["a", "b"], "y_true": [0, 1], "score_m": [0.1, 0.7]})
    >>> dataset_from_table(df, kind="binary", name="t").scores["m"].tolist()
    [0.1, 0.7]
    """
    table = "the edited table"
    if len(df) == 0:
        raise DataError(
            Phrase("${table} has no rows; keep at least one sample.", table=Phrase(table))
        )
    prefix = _prefix(kind)
    model_cols = [c for c in df.columns if str(c).startswith(prefix)]
    if "y_true" not in df.columns or not model_cols:
        raise DataError(
            Phrase(
                '${table} needs a "y_true" column and at least one "${prefix}" column.',
                table=Phrase(table),
                prefix=prefix,
            )
        )
    y = _numbers(df[["y_true"]], table)[:, 0]
    _check_labels(y, df[["y_true"]], table, kind)
    scores = dict(zip(model_cols, _numbers(df[model_cols], table).T, strict=True))
    weight = None
    if "sample_weight" in df.columns:
        weight = _numbers(df[["sample_weight"]], table)[:, 0]
        if (weight < 0).any():
            i = int(np.argmax(weight < 0))
            raise DataError(Phrase("${cell}: must be >= 0.", cell=_cell(table, i, "sample_weight")))
    ids = _sample_ids(list(df["id"]), table) if "id" in df.columns else ()
    used = {"id", "y_true", "sample_weight", *model_cols}
    attributes = []
    for c in (c for c in df.columns if c not in used):
        values = attribute_values(df[c])
        if values.dtype == object:
            long = pd.Series(values).str.len().to_numpy() > MAX_TEXT_CHARS
            if long.any():
                i = int(np.argmax(long))
                _check_text(_cell(table, i, c), values[i])
        attributes.append((str(c), values))
    return Dataset(
        name=name,
        kind=kind,
        y_true=y,
        scores={c.removeprefix(prefix): v for c, v in scores.items()},
        sample_weight=weight,
        sample_ids=ids,
        description=description,
        source="edit",
        attributes=tuple(attributes),
    )


def dataset_from_matrices(
    labels: pd.DataFrame,
    scores: pd.DataFrame,
    *,
    kind: str,
    name: str,
    model: str = "model",
    other_scores: dict | None = None,
    description: str = "",
) -> Dataset:
    """Build a matrix Dataset from edited labels and scores tables.

    Examples
    --------
    >>> lab = pd.DataFrame({"a": [1, 0], "b": [0, 1]})
    >>> sco = pd.DataFrame({"a": [0.9, 0.2], "b": [0.1, 0.8]})
    >>> dataset_from_matrices(lab, sco, kind="multilabel", name="t").y_true.tolist()
    [[1.0, 0.0], [0.0, 1.0]]
    """
    if len(labels) == 0:
        raise DataError(Phrase("the edited labels table has no rows; keep at least one sample."))
    if len(labels) != len(scores):
        raise DataError(
            Phrase(
                "the labels table has ${a} rows but the scores table has ${b}: "
                "add or remove the same rows in both.",
                a=len(labels),
                b=len(scores),
            )
        )
    y = _numbers(labels, "the labels table")
    _check_labels(y, labels, "the labels table", kind)
    s = _numbers(scores, "the scores table")
    arrays = {model: s}
    for other, arr in (other_scores or {}).items():
        if np.shape(arr) == s.shape:
            arrays[other] = arr
    return Dataset(
        name=name,
        kind=kind,
        y_true=y,
        scores=arrays,
        label_names=tuple(str(c) for c in labels.columns),
        sample_ids=_sample_ids(list(labels.index), "the labels table"),
        description=description,
        source="edit",
    )


def splice(full: pd.DataFrame, window: pd.DataFrame, start: int, stop: int) -> pd.DataFrame:
    """Replace rows ``[start, stop)`` of ``full`` by the edited ``window``.

    The window may have gained or lost rows; the rest is kept as it was.

    Examples
    --------
    >>> full = pd.DataFrame({"x": [0, 1, 2, 3]})
    >>> splice(full, pd.DataFrame({"x": [9]}), 1, 3)["x"].tolist()
    [0, 9, 3]
    """
    return pd.concat([full.iloc[:start], window, full.iloc[stop:]], ignore_index=False)
