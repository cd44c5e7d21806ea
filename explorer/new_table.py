"""A dataset typed live: the Data page's "New table" of N rows and M models (or L labels).

Pure functions (no streamlit). :func:`entry_data` describes the grid the Data page's
table-entry component draws (views/data/table_entry.py) and :func:`dataset_from_entry`
reads what it sends on Apply: every cell as typed, text. :func:`blank_table` and
:func:`blank_matrices` give the same grids as empty frames; :func:`dataset_from_new_table`
and :func:`dataset_from_new_matrices` read them back. Until then anything may stay
empty; on Apply the blank rows at the end (more rows asked for than typed) and the
model columns left wholly empty are dropped, the models and labels get the names typed,
and only what cannot be scored is refused: an empty or unreadable cell of a row that
was typed, named by its row and column as the grid shows them.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from explorer.datasets import Dataset
from explorer.editing import _numbers, _prefix, dataset_from_matrices, dataset_from_table
from explorer.i18n import Phrase
from explorer.io.errors import DataError, quote
from explorer.io.limits import MAX_CELL_CHARS, _check_text

__all__ = [
    "MATRIX_KINDS",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "MAX_TYPED_ROWS",
    "blank_matrices",
    "blank_table",
    "dataset_from_entry",
    "dataset_from_new_matrices",
    "dataset_from_new_table",
    "entry_data",
    "names",
]

#: The most rows, and models or labels, a new table starts with (the editor adds more).
MAX_ROWS, MAX_COLUMNS = 200, 12
#: The most rows a typed table may send: the grid adds rows past its start ("Add row",
#: Enter on the last row).
MAX_TYPED_ROWS = 1_000
#: The kinds typed as two matrices side by side (labels, then scores), a column a label.
MATRIX_KINDS = ("multilabel", "graded", "multiclass")

_TABLE = "the new table"


def blank_table(n_rows: int, n_models: int) -> pd.DataFrame:
    """``n_rows`` empty rows: ``id`` (text), ``y_true`` and ``model_1``... (numbers).

    Examples
    --------
    >>> t = blank_table(2, 2)
    >>> t.columns.tolist(), t["model_2"].isna().all()
    (['id', 'y_true', 'model_1', 'model_2'], np.True_)
    """
    cols = {"id": pd.Series([None] * n_rows, dtype=object), "y_true": np.full(n_rows, np.nan)}
    for j in range(1, n_models + 1):
        cols[f"model_{j}"] = np.full(n_rows, np.nan)
    return pd.DataFrame(cols)


def blank_matrices(n_rows: int, n_labels: int) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The empty labels and scores grids: ``n_rows`` rows, ``label_1``... columns.

    Examples
    --------
    >>> labels, scores = blank_matrices(3, 2)
    >>> labels.shape, scores.columns.tolist()
    ((3, 2), ['label_1', 'label_2'])
    """
    columns = [f"label_{j}" for j in range(1, n_labels + 1)]
    blank = np.full((n_rows, n_labels), np.nan)
    return pd.DataFrame(blank, columns=columns), pd.DataFrame(blank.copy(), columns=columns)


def names(text: str, defaults: list[str], what: str) -> list[str]:
    """The names typed (comma separated) over ``defaults``, in order: a name left out
    keeps its default. A name given twice is refused.

    Examples
    --------
    >>> names("good, , weak", ["model_1", "model_2", "model_3"], "model")
    ['good', 'model_2', 'weak']
    >>> names("", ["model_1"], "model")
    ['model_1']
    """
    typed = [x.strip() for x in text.split(",")] if text.strip() else []
    out = [t or d for t, d in zip(typed, defaults, strict=False)] + defaults[len(typed) :]
    for i, name in enumerate(out):
        _check_text(f"the {what} names", name)
        if name in out[:i]:
            raise DataError(
                Phrase(
                    "the ${what} names give ${name} twice (expected each once).",
                    what=Phrase(what),
                    name=quote(name),
                )
            )
    return out


def _blank(df: pd.DataFrame) -> np.ndarray:
    """Per cell: nothing typed (None, NaN or blank text)."""
    return df.map(
        lambda v: v is None or (isinstance(v, float) and np.isnan(v)) or v == ""
    ).to_numpy(dtype=bool)


def _typed_rows(*frames: pd.DataFrame) -> int:
    """How many rows to keep: up to the last one with anything typed in any frame."""
    filled = np.zeros(len(frames[0]), dtype=bool)
    for df in frames:
        filled |= ~_blank(df).all(axis=1)
    return int(np.flatnonzero(filled)[-1]) + 1 if filled.any() else 0


def dataset_from_new_table(df: pd.DataFrame, *, kind: str, name: str, model_names: str = ""):
    """The Dataset of a new 1-D table (binary or regression) as typed.

    Parameters
    ----------
    df : DataFrame
        The grid of :func:`blank_table`, edited (rows may have been added).
    kind : str
        ``"binary"`` or ``"regression"``.
    name : str
        The new dataset's name.
    model_names : str
        The models' names, comma separated, in the order of their columns.

    Examples
    --------
    >>> df = blank_table(3, 2)
    >>> df.loc[0:1, ["y_true", "model_1"]] = [[0, 0.3], [1, 0.2]]
    >>> ds = dataset_from_new_table(df, kind="binary", name="t", model_names="weak, good")
    >>> ds.n_samples, ds.scores
    (2, {'weak': array([0.3, 0.2])})
    """
    df = df.iloc[: _typed_rows(df)]
    if len(df) == 0:
        raise DataError(
            Phrase(
                "${table} is empty: type a y_true and a score in a row at least.",
                table=Phrase(_TABLE),
            )
        )
    columns = [c for c in df.columns if c not in ("id", "y_true")]
    named = dict(zip(columns, names(model_names, columns, "model"), strict=True))
    kept = [c for c in columns if not _blank(df[[c]]).all()]
    if not kept:
        raise DataError(
            Phrase(
                '${table}: type the scores of one model at least (column "${col}").',
                table=Phrase(_TABLE),
                col=columns[0],
            )
        )
    _numbers(df[["y_true", *kept]], _TABLE)  # an empty cell is refused where the grid shows it
    out = df[[c for c in ("id", "y_true") if c in df.columns] + kept]
    out = out.rename(columns={c: _prefix(kind) + named[c] for c in kept})
    return dataset_from_table(out, kind=kind, name=name, description="typed on the Data page")


def dataset_from_new_matrices(
    labels: pd.DataFrame,
    scores: pd.DataFrame,
    *,
    kind: str,
    name: str,
    label_names: str = "",
    model: str = "model",
) -> Dataset:
    """The Dataset of new labels and scores grids (multilabel, graded or multiclass).

    Examples
    --------
    >>> labels, scores = blank_matrices(3, 2)
    >>> labels.iloc[0], scores.iloc[0] = [1, 0], [0.9, 0.4]
    >>> ds = dataset_from_new_matrices(labels, scores, kind="multilabel", name="t",
    ...                                label_names="cat, dog")
    >>> ds.label_names, ds.y_true.tolist()
    (('cat', 'dog'), [[1.0, 0.0]])
    """
    n = _typed_rows(labels, scores)
    if n == 0:
        raise DataError(
            Phrase(
                "${table} is empty: type the labels and scores of a row at least.",
                table=Phrase(_TABLE),
            )
        )
    shown = [str(c) for c in labels.columns]
    new = names(label_names, shown, "label")
    rows = [str(i) for i in range(n)]  # the sample ids: the grid's row numbers
    return dataset_from_matrices(
        labels.iloc[:n].set_axis(rows).set_axis(new, axis=1),
        scores.iloc[:n].set_axis(rows).set_axis(new, axis=1),
        kind=kind,
        name=name,
        model=model,
        description="typed on the Data page",
    )


def _code_names(kind: str, n_columns: int) -> list[str]:
    """The grid's columns by code name: ``id, y_true, model_1...`` (1-D kinds), else
    ``label_1...`` twice (the labels, then the scores)."""
    if kind in MATRIX_KINDS:
        return [f"label_{j}" for j in range(1, n_columns + 1)] * 2
    return ["id", "y_true", *(f"model_{j}" for j in range(1, n_columns + 1))]


def entry_data(kind: str, n_rows: int, n_columns: int) -> dict:
    """What the table-entry component draws: its column heads (grouped for the matrix
    kinds), which columns take numbers, its rows, and the names box's label.

    Examples
    --------
    >>> d = entry_data("binary", 3, 2)
    >>> [c["head"] for c in d["columns"]], d["rows"], d["groups"]
    (['id', 'true label', 'model_1', 'model_2'], 3, [])
    >>> d = entry_data("graded", 2, 2)
    >>> [g["head"] for g in d["groups"]], [c["head"] for c in d["columns"]]
    (['Labels (relevance)', 'Scores'], ['label_1', 'label_2', 'label_1', 'label_2'])
    """
    codes = _code_names(kind, n_columns)
    if kind in MATRIX_KINDS:
        truth = Phrase("Labels (relevance)" if kind == "graded" else "Labels (0/1)")
        groups = [{"head": truth, "span": n_columns}, {"head": Phrase("Scores"), "span": n_columns}]
        heads = codes
        # each input's label names its group: "label_2 score"
        words = [
            *(Phrase("${column} label", column=c) for c in codes[:n_columns]),
            *(Phrase("${column} score", column=c) for c in codes[:n_columns]),
        ]
        names = Phrase("Label names, comma separated (empty: label_1, ...)")
    else:
        groups = []
        truth = Phrase("true value" if kind == "regression" else "true label")
        noun = "prediction of ${model}" if kind == "regression" else "score of ${model}"
        heads = ["id", truth, *codes[2:]]
        words = ["id", truth, *(Phrase(noun, model=c) for c in codes[2:])]
        names = Phrase("Model names, comma separated (empty: model_1, ...)")
    return {
        "kind": kind,
        "rows": n_rows,
        "max_rows": MAX_TYPED_ROWS,
        "groups": groups,
        "columns": [
            {"head": h, "label": w, "numeric": c != "id"}
            for h, w, c in zip(heads, words, codes, strict=True)
        ],
        "names_label": names,
    }


def _cells(value, width: int) -> list[list[str]]:
    """The rows the component sent, checked: text cells, ``width`` a row."""
    rows = value.get("cells") if isinstance(value, dict) else None
    if not isinstance(rows, list) or len(rows) > MAX_TYPED_ROWS:
        raise DataError(
            Phrase("${table} came back unreadable: type it again.", table=Phrase(_TABLE))
        )
    out = []
    for row in rows:
        ok = isinstance(row, list) and len(row) == width
        if not ok or not all(isinstance(v, str) and len(v) <= MAX_CELL_CHARS for v in row):
            raise DataError(
                Phrase("${table} came back unreadable: type it again.", table=Phrase(_TABLE))
            )
        out.append([v.strip() or None for v in row])
    return out


def dataset_from_entry(value, *, kind: str, n_columns: int, name: str) -> Dataset:
    """The Dataset of what the table-entry component sent on Apply: ``{"cells": rows of
    text, "names": the names typed}``. An empty cell is nothing typed; the rest is read
    as :func:`dataset_from_new_table` / :func:`dataset_from_new_matrices` read it.

    Examples
    --------
    >>> sent = {"cells": [["", "0", "0.3", ""], ["b", "1", "0.2", ""]], "names": "weak"}
    >>> ds = dataset_from_entry(sent, kind="binary", n_columns=2, name="t")
    >>> ds.sample_ids, ds.scores
    (('0', 'b'), {'weak': array([0.3, 0.2])})
    """
    codes = _code_names(kind, n_columns)
    rows = _cells(value, len(codes))
    typed = value.get("names", "")
    typed = typed if isinstance(typed, str) else ""
    if kind not in MATRIX_KINDS:
        df = pd.DataFrame(rows, columns=codes, dtype=object)
        return dataset_from_new_table(df, kind=kind, name=name, model_names=typed)
    grid = pd.DataFrame(rows, columns=range(len(codes)), dtype=object)
    labels = grid.iloc[:, :n_columns].set_axis(codes[:n_columns], axis=1)
    scores = grid.iloc[:, n_columns:].set_axis(codes[:n_columns], axis=1)
    return dataset_from_new_matrices(labels, scores, kind=kind, name=name, label_names=typed)
