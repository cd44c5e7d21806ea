"""One table per file, one row per sample, one probability column per class: multiclass.

The table has a ``y_true`` column (or an alias: ``label``, ``class``, ``target``, ...)
holding each sample's class name (text or whole numbers), and one column per class
named ``proba_<class>`` (or ``p_<class>``, or ``score_<class>`` when there are three
classes or more and every ``y_true`` is one of them), optional ``sample_weight`` and
``id``. The classes are the columns, in the file's order; a ``y_true`` that names no
column is refused. The Dataset holds ``y_true`` one-hot (see
:mod:`explorer.datasets`).
"""

from __future__ import annotations

import numpy as np
import pandas as pd

from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.io.attributes import from_frame
from explorer.io.attributes import note as attributes_note
from explorer.io.dispatch import _format, _open_frame, _source
from explorer.io.errors import DataError, quote
from explorer.io.validation import (
    Y_TRUE_ALIASES,
    _Frame,
    _ids,
    _listed,
    located,
    negative_weight,
    zero_weights,
)

#: Column prefixes of the per-class probabilities, in the order they are looked for.
PREFIXES = ("proba_", "p_", "score_")
#: ``score_<name>`` columns are several binary models' scores unless there are at
#: least this many and every y_true names one of them.
MIN_SCORE_CLASSES = 3


def _y_column(cols: list[str]) -> str | None:
    """The column read as y_true: ``y_true`` or its one alias, else None."""
    if "y_true" in cols:
        return "y_true"
    found = [c for c in cols if c.strip().lower() in Y_TRUE_ALIASES]
    return found[0] if len(found) == 1 else None


def class_columns(cols: list[str]) -> tuple[str, list[str]]:
    """The prefix and the per-class columns of a header, or ``("", [])``.

    Examples
    --------
    >>> class_columns(["y_true", "proba_cat", "proba_dog", "id"])
    ('proba_', ['proba_cat', 'proba_dog'])
    >>> class_columns(["y_true", "score_a"])
    ('', [])
    """
    for prefix in PREFIXES:
        found = [c for c in cols if c.startswith(prefix) and len(c) > len(prefix)]
        least = MIN_SCORE_CLASSES if prefix == "score_" else 2
        if len(found) >= least:
            return prefix, found
    return "", []


def _class_names(values) -> np.ndarray:
    """Class names as text; a whole number written ``3.0`` reads as ``3``."""
    out = np.asarray(values, dtype=object).astype(str)
    for i, v in enumerate(out):  # only the distinct values: called on np.unique
        try:
            f = float(v)
        except ValueError:
            continue
        if np.isfinite(f) and f == int(f) and v not in ("",):
            out[i] = str(int(f))
    return out


def is_multiclass(frame: _Frame) -> bool:
    """Whether a one-row-per-sample table holds multiclass data (loads it when it may).

    ``proba_`` / ``p_`` columns (two or more) always do; ``score_`` columns only
    when there are at least :data:`MIN_SCORE_CLASSES` and every ``y_true`` value
    names one of them (otherwise they are binary models' scores).
    """
    y_col = _y_column(frame.columns)
    prefix, cols = class_columns(frame.columns)
    if y_col is None or not prefix:
        return False
    if prefix != "score_":
        return True
    frame.load(cols)
    classes = {c.removeprefix(prefix) for c in cols}
    present = _class_names(np.unique(frame.strings(y_col).to_numpy(dtype=str)))
    return set(present.tolist()) <= classes


def multiclass_dataset(frame: _Frame, name: str | None) -> Dataset:
    """The Dataset of a multiclass table (see the module); DataError names a bad cell."""
    label, cols = frame.label, frame.columns
    y_col = _y_column(cols)
    if y_col is None:
        raise DataError(
            Phrase(
                '${label} has no "y_true" column (the class of each sample); its columns are '
                "${cols}.",
                label=label,
                cols=_listed(cols),
            )
        )
    prefix, class_cols = class_columns(cols)
    if not prefix:
        raise DataError(
            Phrase(
                '${label} has no probability columns: expected one "proba_<class>" column per '
                "class; its columns are ${cols}.",
                label=label,
                cols=_listed(cols),
            )
        )
    has_weight = "sample_weight" in cols
    frame.load([*class_cols, *(["sample_weight"] * has_weight)])
    classes = [c.removeprefix(prefix) for c in class_cols]
    scores = np.column_stack([frame.numbers(c) for c in class_cols])
    raw = frame.strings(y_col).to_numpy(dtype=str)
    distinct, inverse = np.unique(raw, return_inverse=True)
    names = _class_names(distinct)
    column_of = {c: j for j, c in enumerate(classes)}
    code = np.array([column_of.get(n, -1) for n in names.tolist()], dtype=np.intp)
    unknown = code[inverse] < 0
    if unknown.any():
        i = int(np.argmax(unknown))
        raise DataError(
            Phrase(
                "${cell}: ${raw} is not a class of the probability columns (expected one of "
                '${classes}: each class needs a "${prefix}<class>" column).',
                cell=frame.cell(i, y_col),
                raw=quote(str(raw[i])),
                classes=_listed(classes),
                prefix=prefix,
            )
        )
    y = np.zeros(scores.shape)
    y[np.arange(len(raw)), code[inverse]] = 1.0
    weight = _sample_weight(frame) if has_weight else None
    ids = _ids(frame, "id") if "id" in cols else ()
    used = {y_col, "sample_weight", "id", *class_cols}
    attributes, ignored = from_frame(frame, [c for c in cols if c not in used])
    note = f"; ignored columns: {', '.join(ignored)}" if ignored else ""
    if attributes:
        note += f"; {attributes_note(attributes)}"
    if y_col != "y_true":
        note += f"; read column '{y_col}' as y_true"
    return Dataset(
        name=name or label,
        kind="multiclass",
        y_true=y,
        scores={"model": scores},
        sample_weight=weight,
        label_names=tuple(classes),
        sample_ids=ids,
        description=f"{label}: {len(raw):,} samples, {len(classes)} classes{note}",
        source="upload",
        attributes=attributes,
    )


def _sample_weight(frame: _Frame) -> np.ndarray:
    """The ``sample_weight`` column: weights >= 0, at least one positive."""
    weight = frame.numbers("sample_weight")
    if (weight < 0).any():
        i = int(np.argmax(weight < 0))
        raise DataError(negative_weight(frame, i))
    if not (weight > 0).any():
        raise DataError(zero_weights(frame.label))
    return weight


def read_multiclass(source, *, name: str | None = None) -> Dataset:
    """Read a multiclass table: ``y_true`` (class names) and ``proba_<class>`` columns.

    Parameters
    ----------
    source : path, bytes or file-like
        CSV, TSV, text or Parquet (see :func:`explorer.io.read_table`).
    name : str, optional
        The dataset name; for bytes also the file name.

    Returns
    -------
    Dataset
        Kind ``"multiclass"``: ``y_true`` one-hot, one model ``"model"`` whose score
        matrix has a column per class, ``label_names`` the classes in column order.

    Raises
    ------
    DataError
        No probability columns, a ``y_true`` naming no class column (the cell and
        the classes), a bad number, weight or id.

    Examples
    --------
    >>> text = b"y_true,proba_cat,proba_dog,proba_bird\\ncat,0.7,0.2,0.1\\nbird,0.3,0.3,0.4\\n"
    >>> ds = read_multiclass(text, name="pets.csv")
    >>> ds.kind, ds.label_names, ds.y_true.argmax(axis=1).tolist()
    ('multiclass', ('cat', 'dog', 'bird'), [0, 2])
    """
    data, label = _source(source, name, "table")
    frame = _open_frame(data, label, _format(label, data))
    return multiclass_dataset(frame, name)


# ---------------------------------------------------------------- long tables
def is_long_multiclass(frame: _Frame) -> bool:
    """Whether a long table (``sample``, ``label``, ``y_true``, scores) is multiclass.

    It is when ``y_true`` holds class names rather than 0/1 or grades: every value
    names one of the ``label`` values, not all are 0 or 1, and each sample has the
    same value on all its rows. Loads the table.
    """
    cols = frame.columns
    score_cols = [c for c in cols if c == "y_score" or c.startswith("score_")]
    if not {"sample", "label", "y_true"} <= set(cols) or not score_cols or "model" in cols:
        return False
    frame.load(score_cols)
    y = frame.strings("y_true").to_numpy(dtype=str)
    names = set(_class_names(np.unique(y)).tolist())
    if names <= {"0", "1"} or not names <= set(frame.strings("label").unique().tolist()):
        return False
    # one class per sample: the same y_true on every row of a sample (graded relevance
    # whose grades happen to be label names varies within a sample)
    s_codes, _ = pd.factorize(frame.strings("sample"))
    first = y[np.unique(s_codes, return_index=True)[1]]
    return bool((y == first[s_codes]).all())


def _check_class_pairs(frame: _Frame, samples: pd.Series, labels: pd.Series, keys) -> None:
    """Each (sample, class) pair of a long table once, and none missing (naming it);
    ``keys``: ``pd.factorize`` of ``samples``, then of ``labels``."""
    from explorer.io.long import _first_duplicate  # long does not import this module

    (s_codes, s_names), (l_codes, l_names) = keys
    dup = _first_duplicate([s_codes, l_codes])
    if dup is not None:
        i, j = dup
        raise DataError(
            Phrase(
                "${at}: the pair (sample ${sample}, class ${label}) already appears on "
                "${where} (expected each pair once).",
                at=located(frame.label, frame.where(i)),
                sample=quote(samples.iloc[i]),
                label=quote(labels.iloc[i]),
                where=frame.where(j),
            )
        )
    n_s, n_l = len(s_names), len(l_names)
    if len(s_codes) != n_s * n_l:
        s = int(np.argmax(np.bincount(s_codes, minlength=n_s) < n_l))
        present = np.zeros(n_l, dtype=bool)
        present[l_codes[s_codes == s]] = True
        j = int(np.argmax(~present))
        raise DataError(
            Phrase(
                "${label}: the pair (sample ${sample}, class ${item}) is missing: expected a row "
                "for every sample and class (${n_s:,} x ${n_l:,} = ${n:,} rows), found ${found:,}.",
                label=frame.label,
                sample=quote(s_names[s]),
                item=quote(l_names[j]),
                n_s=n_s,
                n_l=n_l,
                n=n_s * n_l,
                found=len(s_codes),
            )
        )


def long_multiclass_dataset(frame: _Frame, name: str | None) -> Dataset:
    """The Dataset of a long multiclass table: one row per (sample, class), ``y_true``
    the sample's class on each of its rows, ``y_score`` (or ``score_<model>``) the
    probability of the row's class. DataError names a pair twice or missing, or a
    sample whose rows disagree on its class."""
    label = frame.label
    score_cols = [c for c in frame.columns if c == "y_score" or c.startswith("score_")]
    frame.load(score_cols)
    samples, labels = frame.strings("sample"), frame.strings("label")
    s_codes, s_names = pd.factorize(samples)
    l_codes, l_names = pd.factorize(labels)
    _check_class_pairs(frame, samples, labels, ((s_codes, s_names), (l_codes, l_names)))
    n_s, n_l = len(s_names), len(l_names)
    raw = frame.strings("y_true").to_numpy(dtype=str)
    distinct, inverse = np.unique(raw, return_inverse=True)
    column_of = {str(c): j for j, c in enumerate(l_names)}
    code = np.array([column_of.get(n, -1) for n in _class_names(distinct)], dtype=np.intp)
    row_class = code[inverse]
    unknown = row_class < 0
    if unknown.any():
        i = int(np.argmax(unknown))
        raise DataError(
            Phrase(
                '${cell}: ${raw} is not one of the classes in column "label" (${classes}).',
                cell=frame.cell(i, "y_true"),
                raw=quote(str(raw[i])),
                classes=_listed(l_names),
            )
        )
    first = row_class[np.unique(s_codes, return_index=True)[1]]  # on each sample's first row
    differs = row_class != first[s_codes]
    if differs.any():
        i = int(np.argmax(differs))
        j = int(np.argmax(s_codes == s_codes[i]))
        raise DataError(
            Phrase(
                "${cell}: ${raw} differs from ${other} on ${where} for the same sample "
                "${sample} (expected the sample's one class on each of its rows).",
                cell=frame.cell(i, "y_true"),
                raw=quote(str(raw[i])),
                other=quote(str(raw[j])),
                where=frame.where(j),
                sample=quote(samples.iloc[i]),
            )
        )
    arrays = {}
    for c in score_cols:
        mat = np.empty((n_s, n_l))
        mat[s_codes, l_codes] = frame.numbers(c)
        model = "model" if c == "y_score" else (c.removeprefix("score_") or c)
        arrays[model] = mat
    return Dataset(
        name=name or label,
        kind="multiclass",
        y_true=np.eye(n_l)[first],
        scores=arrays,
        label_names=tuple(str(x) for x in l_names),
        sample_ids=tuple(str(x) for x in s_names),
        description=f"{label} (long table): {n_s:,} samples, {n_l:,} classes, "
        f"{len(arrays)} model(s)",
        source="upload",
    )
