"""Readers that turn what users bring into a :class:`~explorer.datasets.Dataset`.

Every reader either returns a Dataset or raises :class:`DataError` whose
message names the file, the line, the column, the value and what was
expected, e.g. ``scores.csv, line 15, column "cat": "n/a" is not a number``.
Lines are counted as a text editor counts them (the header is line 1).

So far: one-file tables (CSV) for binary and regression data and
labels+scores matrix pairs (CSV); more formats come with the data issue.
"""

from __future__ import annotations

import io as _io
from pathlib import Path

import numpy as np
import pandas as pd

from explorer.datasets import Dataset

__all__ = ["DataError", "read_matrix_pair", "read_table"]


class DataError(ValueError):
    """Input the explorer refuses, with a message a student can act on."""


def _read_csv(source, label: str) -> pd.DataFrame:
    """Read a CSV with every cell as text, so we can name bad cells exactly."""
    if isinstance(source, (str, Path)):
        data = Path(source).read_bytes()
    else:
        data = source.read() if hasattr(source, "read") else bytes(source)
    if not data.strip():
        raise DataError(f"{label} is empty: expected a header row and at least one data row.")
    try:
        df = pd.read_csv(_io.BytesIO(data), dtype=str, keep_default_na=False)
    except (pd.errors.ParserError, UnicodeDecodeError) as exc:
        raise DataError(f"{label} is not a readable CSV file: {exc}") from None
    if df.empty:
        raise DataError(f"{label} has a header but no data rows.")
    return df


def _numeric(df: pd.DataFrame, label: str, columns: list[str]) -> np.ndarray:
    """Parse ``columns`` of ``df`` as finite floats or name the first bad cell."""
    out = np.empty((len(df), len(columns)), dtype=np.float64)
    for j, col in enumerate(columns):
        text = df[col].str.strip()
        values = pd.to_numeric(text, errors="coerce").to_numpy(dtype=np.float64)
        bad = ~np.isfinite(values)
        if bad.any():
            i = int(np.argmax(bad))
            raw = df[col].iloc[i]
            why = "is empty" if raw.strip() == "" else f"{raw!r} is not a finite number"
            raise DataError(f'{label}, line {i + 2}, column "{col}": {why}.')
        out[:, j] = values
    return out


def read_table(source, *, kind: str, name: str | None = None) -> Dataset:
    """Read a one-row-per-sample table: ``y_true`` plus score columns.

    Binary data take ``y_score`` or ``score_<model>`` columns; regression
    data take ``y_pred`` or ``pred_<model>``. Optional ``sample_weight`` and
    ``id`` columns.

    Examples
    --------
    >>> ds = read_table(b"y_true,y_score\\n0,0.2\\n1,0.9\\n", kind="binary", name="t.csv")
    >>> ds.model_names, ds.y_true.tolist()
    (('y_score',), [0.0, 1.0])
    """
    label = name or str(source)
    df = _read_csv(source, label)
    df.columns = [str(c).strip() for c in df.columns]
    if "y_true" not in df.columns:
        raise DataError(f'{label} has no "y_true" column; columns are {list(df.columns)}.')
    single, prefix = ("y_score", "score_") if kind == "binary" else ("y_pred", "pred_")
    model_cols = [c for c in df.columns if c == single or c.startswith(prefix)]
    if not model_cols:
        raise DataError(
            f'{label} has no score column: expected "{single}" or "{prefix}<model>" '
            f"columns; columns are {list(df.columns)}."
        )
    y = _numeric(df, label, ["y_true"])[:, 0]
    if kind == "binary":
        bad = (y != 0) & (y != 1)
        if bad.any():
            i = int(np.argmax(bad))
            raise DataError(
                f'{label}, line {i + 2}, column "y_true": {df["y_true"].iloc[i]!r} '
                "is not a binary label (expected 0 or 1)."
            )
    scores = dict(zip(model_cols, _numeric(df, label, model_cols).T, strict=True))
    if model_cols != [single]:
        scores = {c.removeprefix(prefix): v for c, v in scores.items()}
    weight = _numeric(df, label, ["sample_weight"])[:, 0] if "sample_weight" in df else None
    ids = tuple(df["id"].astype(str)) if "id" in df else ()
    return Dataset(
        name=name or label,
        kind=kind,
        y_true=y,
        scores=scores,
        sample_weight=weight,
        sample_ids=ids,
        source="upload",
    )


def read_matrix_pair(
    labels, scores, *, kind: str, name: str | None = None, extra_scores=None
) -> Dataset:
    """Read a labels matrix and a scores matrix of the same shape (CSV, header = label names).

    Examples
    --------
    >>> ds = read_matrix_pair(b"a,b\\n1,0\\n", b"a,b\\n0.9,0.1\\n", kind="multilabel", name="x")
    >>> ds.y_true.tolist(), ds.label_names
    ([[1.0, 0.0]], ('a', 'b'))
    """
    lab_label = getattr(labels, "name", None) or Path(str(labels)).name
    sco_label = getattr(scores, "name", None) or Path(str(scores)).name
    if isinstance(labels, bytes):
        lab_label = "labels"
    if isinstance(scores, bytes):
        sco_label = "scores"
    ldf = _read_csv(labels, lab_label)
    columns = [str(c).strip() for c in ldf.columns]
    ldf.columns = columns
    y = _numeric(ldf, lab_label, columns)
    if kind == "multilabel":
        bad = (y != 0) & (y != 1)
        if bad.any():
            i, j = np.unravel_index(int(np.argmax(bad)), bad.shape)
            raise DataError(
                f'{lab_label}, line {i + 2}, column "{columns[j]}": '
                f"{ldf.iloc[i, j]!r} is not a 0/1 label."
            )
    models = {"model": scores, **(extra_scores or {})}
    arrays = {}
    for model, src in models.items():
        label = sco_label if model == "model" else Path(str(src)).name
        sdf = _read_csv(src, label)
        scols = [str(c).strip() for c in sdf.columns]
        sdf.columns = scols
        if scols != columns:
            extra = [c for c in scols if c not in columns]
            missing = [c for c in columns if c not in scols]
            raise DataError(
                f"{lab_label} has {len(columns)} columns but {label} has {len(scols)}"
                f" (extra: {extra}, missing: {missing}); the headers must match."
            )
        if len(sdf) != len(ldf):
            raise DataError(f"{lab_label} has {len(ldf)} rows but {label} has {len(sdf)}.")
        arrays[model] = _numeric(sdf, label, scols)
    return Dataset(
        name=name or lab_label,
        kind=kind,
        y_true=y,
        scores=arrays,
        label_names=tuple(columns),
        source="upload",
    )
