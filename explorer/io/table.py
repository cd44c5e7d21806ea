"""One table per file, one row per sample: binary scores or regression predictions."""

from __future__ import annotations

import numpy as np
import pandas as pd

from explorer.datasets import Dataset, RowIds
from explorer.i18n import Phrase
from explorer.io.attributes import from_frame
from explorer.io.attributes import note as attributes_note
from explorer.io.dispatch import _format, _open_frame, _source
from explorer.io.errors import DataError, quote
from explorer.io.limits import _check_models
from explorer.io.multiclass import is_multiclass, multiclass_dataset
from explorer.io.validation import (
    Y_TRUE_ALIASES,
    _binary_check,
    _Frame,
    _ids,
    _listed,
    _no_header_hint,
    _trec_hint,
    negative_weight,
    zero_weights,
)

#: Column names read as the one model's scores (``y_score``, or ``y_pred`` for
#: regression) when the table has no score or prediction column (any case).
SCORE_ALIASES = (
    "y_score",
    "score",
    "scores",
    "prob",
    "proba",
    "probability",
    "pred",
    "prediction",
    "predicted",
    "y_pred",
    "y_prob",
    "logit",
    "output",
    "confidence",
)


def _alias(label: str, cols: list[str], aliases: tuple[str, ...], what: str) -> str | None:
    """The one column of ``cols`` named like one of ``aliases`` (any case), or None.

    Examples
    --------
    >>> _alias("t.csv", ["Label", "prob"], Y_TRUE_ALIASES, "y_true")
    'Label'
    >>> _alias("t.csv", ["a", "b"], Y_TRUE_ALIASES, "y_true") is None
    True
    """
    found = [c for c in cols if c.strip().lower() in aliases]
    if len(found) > 1:
        raise DataError(
            Phrase(
                '${label}: columns ${found} could each be ${what}; name the one to use "${what}".',
                label=label,
                found=_listed(found),
                what=what,
            )
        )
    return found[0] if found else None


def alias_note(mapping: dict[str, str]) -> str:
    """The note of the columns read under another name (empty when none).

    Examples
    --------
    >>> alias_note({"label": "y_true", "prob": "y_score"})
    "read column 'label' as y_true, 'prob' as y_score"
    >>> alias_note({})
    ''
    """
    if not mapping:
        return ""
    parts = [f"'{c}' as {target}" for c, target in mapping.items()]
    return f"read column {', '.join(parts)}"


def _labels(frame: _Frame, y_col: str, kind: str | None) -> tuple[np.ndarray, tuple[str, ...]]:
    """``y_true`` as numbers; or, for binary data, a column of two text classes
    ("spam"/"ham", "yes"/"no", "True"/"False") as 0/1 with the class names (negative,
    positive). The positive class is the greater name, as scikit-learn picks it; the
    sidebar's "Positive class" chooser flips it."""
    try:
        return frame.numbers(y_col), ()
    except DataError:
        if kind not in (None, "binary"):
            raise
        text = frame.strings(y_col)
        classes = sorted(pd.unique(text))
        if len(classes) != 2 or "" in classes:
            raise
        return (text == classes[1]).to_numpy(dtype=np.float64), (classes[0], classes[1])


def _table_dataset(frame: _Frame, kind: str | None, name: str | None) -> Dataset:
    label, cols = frame.label, frame.columns
    if kind == "multiclass" or (kind is None and is_multiclass(frame)):
        return multiclass_dataset(frame, name)  # y_true plus proba_<class> columns
    mapping: dict[str, str] = {}  # column -> the name it is read as
    y_col = "y_true"
    if y_col not in cols:
        y_col = _alias(label, cols, Y_TRUE_ALIASES, "y_true")
        if y_col is None:
            raise DataError(
                Phrase(
                    '${label} has no "y_true" column (nor label, target, y, ...); its columns '
                    "are ${cols}.${hint}${trec}",
                    label=label,
                    cols=_listed(cols),
                    hint=_no_header_hint(cols),
                    trec=_trec_hint(cols),
                )
            )
        mapping[y_col] = "y_true"
    scores = [c for c in cols if c == "y_score" or c.startswith("score_")]
    preds = [c for c in cols if c == "y_pred" or c.startswith("pred_")]
    if not scores and not preds:
        other = [c for c in cols if c != y_col]
        alias = _alias(label, other, SCORE_ALIASES, "y_score")
        if alias is not None:
            return _aliased(frame, kind, name, y_col, alias, mapping)
    if kind is None:
        if scores and preds:
            raise DataError(
                Phrase(
                    "${label} has score columns ${scores} and prediction columns ${preds}: a "
                    "table holds one kind of data (binary scores or regression predictions).",
                    label=label,
                    scores=_listed(scores),
                    preds=_listed(preds),
                )
            )
        kind = "regression" if preds else "binary"
    elif kind not in ("binary", "regression"):
        raise ValueError(f"a one-table file holds binary or regression data; got kind={kind!r}")
    single, prefix, model_cols = (
        ("y_score", "score_", scores) if kind == "binary" else ("y_pred", "pred_", preds)
    )
    if not model_cols:
        raise DataError(
            Phrase(
                '${label} has no score column: expected "${single}" or "${prefix}<model>" '
                "columns; its columns are ${cols}.",
                label=label,
                single=single,
                prefix=prefix,
                cols=_listed(cols),
            )
        )
    what = "score columns" if kind == "binary" else "prediction columns"
    _check_models(label, len(model_cols), what)
    has_weight = "sample_weight" in cols
    frame.load([y_col, *model_cols, *(["sample_weight"] * has_weight)])
    y, classes = _labels(frame, y_col, kind)
    arrays = {c: frame.numbers(c) for c in model_cols}
    if kind == "binary":
        try:
            _binary_check(frame, y_col, y)
        except DataError as exc:
            s = arrays[model_cols[0]]
            if ((y >= 0) & (y <= 1)).all() and ((s == 0) | (s == 1)).all():
                raise DataError(
                    Phrase(
                        "${why} The columns look swapped: ${scores} holds only 0 and "
                        "1 (like labels), ${labels} scores.",
                        why=exc.args[0],
                        scores=quote(model_cols[0]),
                        labels=quote(y_col),
                    )
                ) from None
            raise
    if model_cols != [single]:
        arrays = {(c.removeprefix(prefix) or c): v for c, v in arrays.items()}
    return _finish(frame, kind, name, y_col, y, arrays, model_cols, mapping, classes)


def _aliased(frame: _Frame, kind, name, y_col: str, col: str, mapping: dict) -> Dataset:
    """A table whose one model column is named like a score (``prob``, ``prediction``,
    ...): binary when every label is 0 or 1, else regression (unless ``kind`` says)."""
    has_weight = "sample_weight" in frame.columns
    frame.load([y_col, col, *(["sample_weight"] * has_weight)])
    (y, classes), s = _labels(frame, y_col, kind), frame.numbers(col)
    zero_one = (y == 0) | (y == 1)
    if kind is None and not zero_one.all() and ((y >= 0) & (y <= 1)).all():
        if ((s == 0) | (s == 1)).all():
            raise DataError(
                Phrase(
                    "${label}: column ${labels} holds values between 0 and 1 other than "
                    "0 and 1 (like scores) and column ${scores} only 0 and 1 (like labels): "
                    'they look swapped. Name the 0/1 labels "y_true" and the scores "y_score".',
                    label=frame.label,
                    labels=quote(y_col),
                    scores=quote(col),
                )
            )
    if kind is None:
        kind = "binary" if zero_one.all() else "regression"
    elif kind not in ("binary", "regression"):
        raise ValueError(f"a one-table file holds binary or regression data; got kind={kind!r}")
    if kind == "binary":
        _binary_check(frame, y_col, y)
    single = "y_score" if kind == "binary" else "y_pred"
    mapping[col] = single
    return _finish(frame, kind, name, y_col, y, {single: s}, [col], mapping, classes)


def _finish(
    frame: _Frame, kind, name, y_col, y, arrays, model_cols, mapping, classes=()
) -> Dataset:
    """The weights, ids and description of a table, then its Dataset (``classes``: the
    names of text labels, negative then positive)."""
    label, cols = frame.label, frame.columns
    weight = None
    if "sample_weight" in cols:
        weight = frame.numbers("sample_weight")
        negative = weight < 0
        if negative.any():
            i = int(np.argmax(negative))
            raise DataError(negative_weight(frame, i))
        if not (weight > 0).any():
            raise DataError(zero_weights(label))
    ids = _ids(frame, "id") if "id" in cols else RowIds(len(y))
    used = {y_col, "sample_weight", "id", *model_cols}
    # another model column (a score_ column in a regression table) is not an attribute
    ignored = [c for c in cols if c not in used and _model_like(c)]
    attributes, unread = from_frame(frame, [c for c in cols if c not in used and c not in ignored])
    ignored += unread
    note = f"; ignored columns: {', '.join(ignored)}" if ignored else ""
    if attributes:
        note += f"; {attributes_note(attributes)}"
    if mapping:
        note += f"; {alias_note(mapping)}"
    if classes:
        note += f"; classes {classes[0]!r} (0) and {classes[1]!r} (1, positive)"
    return Dataset(
        name=name or label,
        kind=kind,
        y_true=y,
        scores=arrays,
        sample_weight=weight,
        label_names=classes,
        sample_ids=ids,
        description=f"{label}: {len(y):,} samples, {len(arrays)} model(s){note}",
        source="upload",
        attributes=attributes,
    )


def _model_like(col: str) -> bool:
    return col in ("y_score", "y_pred") or col.startswith(("score_", "pred_", "proba_"))


def read_table(source, *, kind: str | None = None, name: str | None = None) -> Dataset:
    """Read a one-row-per-sample table: ``y_true`` plus score or prediction columns.

    Parameters
    ----------
    source : path, bytes or file-like
        A CSV, TSV, text (delimiter sniffed) or Parquet file. The format comes
        from the extension of the path or of ``name``, else from the content.
    kind : {"binary", "regression", "multiclass"} or None
        None infers it: ``y_pred`` / ``pred_<model>`` columns mean regression,
        ``y_score`` / ``score_<model>`` binary (``y_true`` must then be 0 or 1),
        ``proba_<class>`` columns multiclass (:mod:`explorer.io.multiclass`).
    name : str, optional
        The dataset name; for bytes it is also the file name messages use.

    Column names people write are read too, in any case, when the canonical one
    is missing: ``label``, ``target``, ``truth``, ``y``, ``actual``, ``class``, ...
    as ``y_true`` (:data:`Y_TRUE_ALIASES`), and one column named ``score``,
    ``prob``, ``proba``, ``prediction``, ``logit``, ... (:data:`SCORE_ALIASES`) as
    ``y_score``, or as ``y_pred`` when the labels are not all 0 or 1 (regression).
    The description then ends with the mapping (:func:`alias_note`).

    Returns
    -------
    Dataset
        One model per score column (``score_a`` gives model ``a``; a lone
        ``y_score`` gives model ``y_score``), ``sample_weight`` (finite, >= 0,
        not all 0) and ``id`` (unique) when present. Other columns are read as
        attributes (``Dataset.attributes``), named in the description; another
        model's columns (``score_`` in a regression table) are ignored and listed;
        pandas' unnamed index column is dropped.

    Raises
    ------
    DataError
        Naming the file, line, column and value of the first problem.

    Examples
    --------
    >>> ds = read_table(b"y_true,y_score\\n0,0.2\\n1,0.9\\n", kind="binary", name="t.csv")
    >>> ds.model_names, ds.y_true.tolist()
    (('y_score',), [0.0, 1.0])
    >>> read_table(b"y_true,pred_lin\\n1.5,1.2\\n", name="r.csv").kind
    'regression'
    >>> ds = read_table(b"Label,prob\\n0,0.2\\n1,0.9\\n", name="p.csv")
    >>> ds.kind, ds.model_names, ds.description.split("; ")[1]
    ('binary', ('y_score',), "read column 'Label' as y_true, 'prob' as y_score")
    """
    data, label = _source(source, name, "table")
    frame = _open_frame(data, label, _format(label, data))
    return _table_dataset(frame, kind, name)
