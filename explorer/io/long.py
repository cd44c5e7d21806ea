"""Long ("tidy") tables, one row per (sample, label) pair, pivoted to matrices."""

from __future__ import annotations

import numpy as np
import pandas as pd

from explorer.datasets import GRADE_LIMIT, MAX_GRADE, Dataset
from explorer.io.dispatch import _format, _open_frame, _source
from explorer.io.errors import DataError, quote
from explorer.io.limits import _check_shape
from explorer.io.validation import _binary_check, _Frame, _listed


def _first_duplicate(codes: list[np.ndarray]) -> tuple[int, int] | None:
    """(i, j): row i repeats row j's key (j < i, both first such), or None."""
    dup = pd.DataFrame({k: c for k, c in enumerate(codes)}).duplicated().to_numpy()
    if not dup.any():
        return None
    i = int(np.argmax(dup))
    same = np.ones(i, dtype=bool)
    for c in codes:
        same &= c[:i] == c[i]
    return i, int(np.argmax(same))


def _long_dataset(frame: _Frame, kind: str | None, name: str | None) -> Dataset:
    label, cols = frame.label, frame.columns
    missing = [c for c in ("sample", "label", "y_true") if c not in cols]
    if missing:
        raise DataError(
            f"{label} has no {', '.join(repr(c) for c in missing)} column: a long table needs "
            f"sample, label, y_true and y_score columns; its columns are {_listed(cols)}."
        )
    has_model = "model" in cols
    score_cols = [c for c in cols if c == "y_score" or c.startswith("score_")]
    if has_model and score_cols != ["y_score"]:
        raise DataError(
            f'{label} has a "model" column, so it needs exactly one "y_score" column; '
            f"its score columns are {_listed(score_cols)}."
        )
    if not score_cols:
        raise DataError(
            f'{label} has no score column: expected "y_score" (with an optional "model" '
            f'column) or "score_<model>" columns; its columns are {_listed(cols)}.'
        )
    if kind not in (None, "multilabel", "graded"):
        raise ValueError(f"a long table holds multilabel or graded data; got {kind!r}")
    frame.load(["y_true", *score_cols])
    y = frame.numbers("y_true")
    negative = y < 0
    if negative.any():
        i = int(np.argmax(negative))
        raise DataError(
            f"{frame.cell(i, 'y_true')}: {quote(frame.raw(i, 'y_true'))} is negative (expected "
            "0 or 1 for multilabel data, a relevance grade >= 0 for graded data)."
        )
    huge = y > MAX_GRADE
    if huge.any():
        i = int(np.argmax(huge))
        raw = quote(frame.raw(i, "y_true"))
        raise DataError(f"{frame.cell(i, 'y_true')}: {raw} {GRADE_LIMIT}.")
    if kind == "multilabel":
        _binary_check(frame, "y_true", y)
    samples, labels = frame.strings("sample"), frame.strings("label")
    s_codes, s_names = pd.factorize(samples)
    l_codes, l_names = pd.factorize(labels)
    if has_model:
        models = frame.strings("model")
        m_codes, m_names = pd.factorize(models)
        model_names = [str(m) for m in m_names]
        column_of = {m: "y_score" for m in model_names}
    else:
        m_codes = np.zeros(len(y), dtype=np.intp)
        prefix_free = score_cols != ["y_score"]
        model_names = [(c.removeprefix("score_") or c) if prefix_free else c for c in score_cols]
        column_of = dict(zip(model_names, score_cols, strict=True))
    keys = [s_codes, l_codes, *([m_codes] if has_model else [])]
    dup = _first_duplicate(keys)
    if dup is not None:
        i, j = dup
        pair = f"sample {quote(samples.iloc[i])}, label {quote(labels.iloc[i])}"
        if has_model:
            pair += f", model {quote(models.iloc[i])}"
        raise DataError(
            f"{label}, {frame.where(i)}: the pair ({pair}) already appears on {frame.where(j)} "
            "(expected each pair once)."
        )
    n_s, n_l = len(s_names), len(l_names)
    _check_shape(f"{label} (pivoted)", n_s, n_l)
    for m in range(len(model_names) if has_model else 1):
        rows = m_codes == m
        count = int(rows.sum())
        if count != n_s * n_l:
            sc, lc = s_codes[rows], l_codes[rows]
            s = int(np.argmax(np.bincount(sc, minlength=n_s) < n_l))
            present = np.zeros(n_l, dtype=bool)
            present[lc[sc == s]] = True
            j = int(np.argmax(~present))
            of_model = f" for model {quote(model_names[m])}" if has_model else ""
            raise DataError(
                f"{label}: the pair (sample {quote(s_names[s])}, label {quote(l_names[j])}) "
                f"is missing{of_model}: expected a row for every sample and label ({n_s:,} samples "
                f"x {n_l:,} labels = {n_s * n_l:,} rows), found {count:,}."
            )
    first = m_codes == 0
    y_mat = np.zeros((n_s, n_l))
    y_mat[s_codes[first], l_codes[first]] = y[first]
    if has_model:
        differs = y_mat[s_codes, l_codes] != y
        if differs.any():
            i = int(np.argmax(differs))
            j = int(np.argmax(first & (s_codes == s_codes[i]) & (l_codes == l_codes[i])))
            raise DataError(
                f"{frame.cell(i, 'y_true')}: {quote(frame.raw(i, 'y_true'))} differs from "
                f"{quote(frame.raw(j, 'y_true'))} on {frame.where(j)} for the same (sample "
                f"{quote(samples.iloc[i])}, label {quote(labels.iloc[i])}); every model shares "
                "one y_true."
            )
    arrays = {}
    for m, model in enumerate(model_names):
        rows = m_codes == m if has_model else slice(None)
        v = frame.numbers(column_of[model])[rows]
        mat = np.empty((n_s, n_l))
        mat[s_codes[rows], l_codes[rows]] = v
        arrays[model] = mat
    if kind is None:
        kind = "multilabel" if ((y == 0) | (y == 1)).all() else "graded"
    return Dataset(
        name=name or label,
        kind=kind,
        y_true=y_mat,
        scores=arrays,
        label_names=tuple(str(x) for x in l_names),
        sample_ids=tuple(str(x) for x in s_names),
        description=(
            f"{label} (long table): {n_s:,} samples x {n_l:,} labels, {len(arrays)} model(s)"
        ),
        source="upload",
    )


def read_long_table(source, *, kind: str | None = None, name: str | None = None) -> Dataset:
    """Read a long ("tidy") table, one row per (sample, label) pair, into matrices.

    Parameters
    ----------
    source : path, bytes or file-like
        CSV, TSV, text or Parquet with columns ``sample``, ``label``,
        ``y_true`` and ``y_score`` plus an optional ``model`` column (one
        row per (sample, label, model)); or ``score_<model>`` columns instead
        of ``y_score`` and ``model``.
    kind : {"multilabel", "graded"} or None
        None infers it from ``y_true`` (all 0/1: multilabel). Negative
        labels are refused.
    name : str, optional
        The dataset name; for bytes also the file name.

    Returns
    -------
    Dataset
        Rows are samples and columns labels, both in order of first
        appearance; models in order of first appearance.

    Raises
    ------
    DataError
        A (sample, label[, model]) pair twice (naming both lines), a pair
        missing (naming the first missing pair), a y_true that differs
        between models, or a bad cell.

    Examples
    --------
    >>> text = b"sample,label,y_true,y_score\\nq1,a,1,0.9\\nq1,b,0,0.2\\n"
    >>> ds = read_long_table(text, name="long.csv")
    >>> ds.kind, ds.label_names, ds.y_true.tolist()
    ('multilabel', ('a', 'b'), [[1.0, 0.0]])
    """
    data, label = _source(source, name, "table")
    frame = _open_frame(data, label, _format(label, data))
    return _long_dataset(frame, kind, name)
