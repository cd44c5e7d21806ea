"""One table per file, one row per sample: binary scores or regression predictions."""

from __future__ import annotations

import numpy as np

from explorer.datasets import Dataset
from explorer.io.dispatch import _format, _open_frame, _source
from explorer.io.errors import DataError, quote
from explorer.io.validation import (
    _binary_check,
    _Frame,
    _ids,
    _listed,
    _no_header_hint,
    _trec_hint,
)


def _table_dataset(frame: _Frame, kind: str | None, name: str | None) -> Dataset:
    label, cols = frame.label, frame.columns
    if "y_true" not in cols:
        raise DataError(
            f'{label} has no "y_true" column; its columns are {_listed(cols)}.'
            f"{_no_header_hint(cols)}{_trec_hint(cols)}"
        )
    scores = [c for c in cols if c == "y_score" or c.startswith("score_")]
    preds = [c for c in cols if c == "y_pred" or c.startswith("pred_")]
    if kind is None:
        if scores and preds:
            raise DataError(
                f"{label} has score columns {_listed(scores)} and prediction columns "
                f"{_listed(preds)}: a table holds one kind of data (binary scores or "
                "regression predictions)."
            )
        kind = "regression" if preds else "binary"
    elif kind not in ("binary", "regression"):
        raise ValueError(f"a one-table file holds binary or regression data; got kind={kind!r}")
    single, prefix, model_cols = (
        ("y_score", "score_", scores) if kind == "binary" else ("y_pred", "pred_", preds)
    )
    if not model_cols:
        raise DataError(
            f'{label} has no score column: expected "{single}" or "{prefix}<model>" '
            f"columns; its columns are {_listed(cols)}."
        )
    has_weight = "sample_weight" in cols
    frame.load(["y_true", *model_cols, *(["sample_weight"] * has_weight)])
    y = frame.numbers("y_true")
    if kind == "binary":
        _binary_check(frame, "y_true", y)
    arrays = {c: frame.numbers(c) for c in model_cols}
    if model_cols != [single]:
        arrays = {(c.removeprefix(prefix) or c): v for c, v in arrays.items()}
    weight = None
    if has_weight:
        weight = frame.numbers("sample_weight")
        negative = weight < 0
        if negative.any():
            i = int(np.argmax(negative))
            raise DataError(
                f"{frame.cell(i, 'sample_weight')}: {quote(frame.raw(i, 'sample_weight'))} is "
                "negative (expected a weight >= 0)."
            )
        if not (weight > 0).any():
            raise DataError(
                f'{label}, column "sample_weight": every weight is 0 (expected at least one '
                "positive weight)."
            )
    ids = _ids(frame, "id") if "id" in cols else tuple(map(str, range(len(y))))
    used = {"y_true", "sample_weight", "id", *model_cols}
    ignored = [c for c in cols if c not in used]
    note = f"; ignored columns: {', '.join(ignored)}" if ignored else ""
    return Dataset(
        name=name or label,
        kind=kind,
        y_true=y,
        scores=arrays,
        sample_weight=weight,
        sample_ids=ids,
        description=f"{label}: {len(y):,} samples, {len(arrays)} model(s){note}",
        source="upload",
    )


def read_table(source, *, kind: str | None = None, name: str | None = None) -> Dataset:
    """Read a one-row-per-sample table: ``y_true`` plus score or prediction columns.

    Parameters
    ----------
    source : path, bytes or file-like
        A CSV, TSV, text (delimiter sniffed) or Parquet file. The format comes
        from the extension of the path or of ``name``, else from the content.
    kind : {"binary", "regression"} or None
        None infers it: ``y_pred`` / ``pred_<model>`` columns mean regression,
        ``y_score`` / ``score_<model>`` binary (``y_true`` must then be 0 or 1).
    name : str, optional
        The dataset name; for bytes it is also the file name messages use.

    Returns
    -------
    Dataset
        One model per score column (``score_a`` gives model ``a``; a lone
        ``y_score`` gives model ``y_score``), ``sample_weight`` (finite, >= 0,
        not all 0) and ``id`` (unique) when present. Other columns are ignored
        and listed in the description; pandas' unnamed index column is dropped.

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
    """
    data, label = _source(source, name, "table")
    frame = _open_frame(data, label, _format(label, data))
    return _table_dataset(frame, kind, name)
