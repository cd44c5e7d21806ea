"""Long ("tidy") tables, one row per (sample, label) pair, pivoted to matrices."""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

from explorer.datasets import MAX_GRADE, Dataset
from explorer.i18n import Phrase
from explorer.io.attributes import note, per_group
from explorer.io.dispatch import _format, _open_frame, _source
from explorer.io.errors import DataError, quote
from explorer.io.limits import _check_models, _check_shape
from explorer.io.validation import (
    _binary_check,
    _Frame,
    _listed,
    located,
    negative_grade,
    too_large_grade,
)


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


class _Keys(NamedTuple):
    """The rows of a long table as codes: sample, label and model of each row."""

    samples: pd.Series
    labels: pd.Series
    models: pd.Series | None
    s_codes: np.ndarray
    s_names: pd.Index
    l_codes: np.ndarray
    l_names: pd.Index
    m_codes: np.ndarray
    #: Model name -> its score column, in order of first appearance.
    column_of: dict[str, str]


def _score_columns(frame: _Frame) -> list[str]:
    """The score columns of a long table (``y_score`` or ``score_<model>``), after the
    checks that it has its key columns and, with a ``model`` column, one ``y_score``."""
    label, cols = frame.label, frame.columns
    missing = [c for c in ("sample", "label", "y_true") if c not in cols]
    if missing:
        raise DataError(
            Phrase(
                "${label} has no ${missing} column: a long table needs sample, label, y_true and "
                "y_score columns; its columns are ${cols}.",
                label=label,
                missing=", ".join(repr(c) for c in missing),
                cols=_listed(cols),
            )
        )
    score_cols = [c for c in cols if c == "y_score" or c.startswith("score_")]
    if "model" in cols and score_cols != ["y_score"]:
        raise DataError(
            Phrase(
                '${label} has a "model" column, so it needs exactly one "y_score" column; '
                "its score columns are ${cols}.",
                label=label,
                cols=_listed(score_cols),
            )
        )
    if not score_cols:
        raise DataError(
            Phrase(
                '${label} has no score column: expected "y_score" (with an optional "model" '
                'column) or "score_<model>" columns; its columns are ${cols}.',
                label=label,
                cols=_listed(cols),
            )
        )
    return score_cols


def _long_y_true(frame: _Frame, kind: str | None) -> np.ndarray:
    """The y_true column: relevance grades >= 0 (0 or 1 for multilabel), bounded."""
    y = frame.numbers("y_true")
    negative = y < 0
    if negative.any():
        i = int(np.argmax(negative))
        raise DataError(negative_grade(frame.cell(i, "y_true"), frame.raw(i, "y_true")))
    huge = y > MAX_GRADE
    if huge.any():
        i = int(np.argmax(huge))
        raise DataError(too_large_grade(frame.cell(i, "y_true"), frame.raw(i, "y_true")))
    if kind == "multilabel":
        _binary_check(frame, "y_true", y)
    return y


def _long_keys(frame: _Frame, score_cols: list[str]) -> _Keys:
    """Each row's sample, label and model as codes, and each model's score column."""
    samples, labels = frame.strings("sample"), frame.strings("label")
    s_codes, s_names = pd.factorize(samples)
    l_codes, l_names = pd.factorize(labels)
    if "model" in frame.columns:
        models = frame.strings("model")
        m_codes, m_names = pd.factorize(models)
        column_of = {str(m): "y_score" for m in m_names}
    else:
        models = None
        m_codes = np.zeros(len(samples), dtype=np.intp)
        prefix_free = score_cols != ["y_score"]
        model_names = [(c.removeprefix("score_") or c) if prefix_free else c for c in score_cols]
        column_of = dict(zip(model_names, score_cols, strict=True))
    return _Keys(samples, labels, models, s_codes, s_names, l_codes, l_names, m_codes, column_of)


def _check_pairs_once(frame: _Frame, k: _Keys) -> None:
    """Each (sample, label[, model]) pair on one row only, else name both rows."""
    has_model = k.models is not None
    dup = _first_duplicate([k.s_codes, k.l_codes, *([k.m_codes] if has_model else [])])
    if dup is None:
        return
    i, j = dup
    pair = Phrase(
        "sample ${sample}, label ${label}",
        sample=quote(k.samples.iloc[i]),
        label=quote(k.labels.iloc[i]),
    )
    if has_model:
        pair = Phrase("${pair}, model ${model}", pair=pair, model=quote(k.models.iloc[i]))
    raise DataError(
        Phrase(
            "${at}: the pair (${pair}) already appears on ${where} (expected each pair once).",
            at=located(frame.label, frame.where(i)),
            pair=pair,
            where=frame.where(j),
        )
    )


class _Layout(NamedTuple):
    """Where each row of a long table goes: its column, and the matrix's width."""

    cols: np.ndarray
    width: int
    ragged: bool  # the samples have different items: columns are slots, see _slots


def _layout(label: str, k: _Keys) -> _Layout:
    """Columns by label when every sample has every label; else each sample's items in
    slots (:func:`_slots`) after the check that every model has the same pairs."""
    n_s, n_l = len(k.s_names), len(k.l_names)
    pair = k.s_codes.astype(np.int64) * n_l + k.l_codes
    if k.models is None:
        if len(pair) == n_s * n_l:  # pairs are unique: every pair is present
            return _Layout(k.l_codes, n_l, False)
        return _Layout(*_slots(k, pair), True)
    pairs, first = np.unique(pair, return_index=True)
    model_names = list(k.column_of)
    for m in range(len(model_names)):
        rows = k.m_codes == m
        if int(rows.sum()) == len(pairs):
            continue
        present = np.zeros(len(pairs), dtype=bool)
        present[np.searchsorted(pairs, pair[rows])] = True
        i = first[int(np.argmax(~present))]
        raise DataError(
            Phrase(
                "${label}: the pair (sample ${sample}, label ${item}) is missing for model "
                "${model}: every model needs a row for each pair another model has (${n:,} "
                "pairs), found ${found:,}.",
                label=label,
                sample=quote(k.samples.iloc[i]),
                item=quote(k.labels.iloc[i]),
                model=quote(model_names[m]),
                n=len(pairs),
                found=int(rows.sum()),
            )
        )
    if len(pairs) == n_s * n_l:
        return _Layout(k.l_codes, n_l, False)
    return _Layout(*_slots(k, pair), True)


def _slots(k: _Keys, pair: np.ndarray) -> tuple[np.ndarray, int]:
    """Each row's slot when the samples have different items (query groups of different
    sizes): a sample's items fill slots 1, 2, ... in the order they first appear, so
    column order (the metrics' tie rule) is the file's order. Returns the row's slot and
    the width (the largest group)."""
    pairs, first, inverse = np.unique(pair, return_index=True, return_inverse=True)
    sample = k.s_codes[first]
    by_sample = np.lexsort((first, sample))  # each sample's items, by first appearance
    sizes = np.bincount(sample, minlength=len(k.s_names))
    slot = np.empty(len(pairs), dtype=np.intp)
    slot[by_sample] = np.arange(len(pairs)) - np.repeat(np.cumsum(sizes) - sizes, sizes)
    return slot[inverse.ravel()], int(sizes.max())


def _truth_matrix(frame: _Frame, k: _Keys, y: np.ndarray, at: _Layout) -> np.ndarray:
    """y_true as a samples x columns matrix (from the first model's rows), after the
    check that every model's rows give the same y_true."""
    first = k.m_codes == 0
    y_mat = np.zeros((len(k.s_names), at.width))
    y_mat[k.s_codes[first], at.cols[first]] = y[first]
    if k.models is None:
        return y_mat
    differs = y_mat[k.s_codes, at.cols] != y
    if differs.any():
        i = int(np.argmax(differs))
        j = int(np.argmax(first & (k.s_codes == k.s_codes[i]) & (k.l_codes == k.l_codes[i])))
        raise DataError(
            Phrase(
                "${cell}: ${raw} differs from ${other} on ${where} for the same (sample "
                "${sample}, label ${item}); every model shares one y_true.",
                cell=frame.cell(i, "y_true"),
                raw=quote(frame.raw(i, "y_true")),
                other=quote(frame.raw(j, "y_true")),
                where=frame.where(j),
                sample=quote(k.samples.iloc[i]),
                item=quote(k.labels.iloc[i]),
            )
        )
    return y_mat


def _score_matrices(frame: _Frame, k: _Keys, at: _Layout) -> dict[str, np.ndarray]:
    """Each model's scores as a samples x columns matrix (0 in the slots of no item)."""
    arrays = {}
    for m, (model, column) in enumerate(k.column_of.items()):
        rows = k.m_codes == m if k.models is not None else slice(None)
        mat = np.zeros((len(k.s_names), at.width))
        mat[k.s_codes[rows], at.cols[rows]] = frame.numbers(column)[rows]
        arrays[model] = mat
    return arrays


def _retrieved_column(frame: _Frame, k: _Keys, at: _Layout, extra: dict) -> None:
    """An optional ``retrieved`` column (1, or 0 for an item the sample's ranking never
    retrieved, as the Data page's download of a run writes it) into ``extra``'s mask."""
    if "retrieved" not in frame.columns:
        return
    r = frame.numbers("retrieved")
    _binary_check(frame, "retrieved", r)
    first = k.m_codes == 0
    seen = extra.get("retrieved")
    seen = np.ones((len(k.s_names), at.width), dtype=bool) if seen is None else seen
    seen[k.s_codes[first], at.cols[first]] = r[first] != 0
    extra["retrieved"] = seen


def _ragged(k: _Keys, at: _Layout) -> dict:
    """The Dataset fields of a table whose samples have different items: slot names, the
    retrieved mask (False in the slots of no item) and each slot's item (label)."""
    first = k.m_codes == 0
    n_s = len(k.s_names)
    seen = np.zeros((n_s, at.width), dtype=bool)
    seen[k.s_codes[first], at.cols[first]] = True
    items = np.full((n_s, at.width), "", dtype=object)
    items[k.s_codes[first], at.cols[first]] = k.labels.to_numpy(dtype=object)[first]
    return {
        "label_names": tuple(f"slot_{j + 1}" for j in range(at.width)),
        "retrieved": seen,
        "item_ids": items,
    }


def _long_dataset(frame: _Frame, kind: str | None, name: str | None) -> Dataset:
    label = frame.label
    score_cols = _score_columns(frame)
    if kind not in (None, "multilabel", "graded"):
        raise ValueError(f"a long table holds multilabel or graded data; got {kind!r}")
    frame.load(["y_true", *score_cols, *(["retrieved"] if "retrieved" in frame.columns else [])])
    y = _long_y_true(frame, kind)
    keys = _long_keys(frame, score_cols)
    _check_models(label, len(keys.column_of))
    _check_pairs_once(frame, keys)
    n_s, n_l = len(keys.s_names), len(keys.l_names)
    at = _layout(label, keys)
    _check_shape(Phrase("${label} (pivoted)", label=label), n_s, at.width)
    y_mat = _truth_matrix(frame, keys, y, at)
    arrays = _score_matrices(frame, keys, at)
    if kind is None:
        kind = "multilabel" if ((y == 0) | (y == 1)).all() else "graded"
    described = f"{label} (long table): {n_s:,} samples x {n_l:,} labels, {len(arrays)} model(s)"
    extra: dict = {"label_names": tuple(str(x) for x in keys.l_names)}
    if at.ragged:
        extra = _ragged(keys, at)
        sizes = extra["retrieved"].sum(axis=1)
        described += (
            f"; the samples have different labels ({int(sizes.min()):,} to "
            f"{int(sizes.max()):,} each): columns are slots named by each sample's labels, "
            "and the empty slots are never ranked"
        )
    _retrieved_column(frame, keys, at, extra)
    used = {"sample", "label", "y_true", "model", "retrieved", *score_cols}
    extra["attributes"], varying = per_group(
        frame, [c for c in frame.columns if c not in used], keys.s_codes, n_s
    )
    if extra["attributes"] or varying:
        described += f"; {note(extra['attributes'], varying)}"
    return Dataset(
        name=name or label,
        kind=kind,
        y_true=y_mat,
        scores=arrays,
        sample_ids=tuple(str(x) for x in keys.s_names),
        description=described,
        source="upload",
        **extra,
    )


def read_long_table(source, *, kind: str | None = None, name: str | None = None) -> Dataset:
    """Read a long ("tidy") table, one row per (sample, label) pair, into matrices.

    Parameters
    ----------
    source : path, bytes or file-like
        CSV, TSV, text or Parquet with columns ``sample``, ``label``,
        ``y_true`` and ``y_score`` plus an optional ``model`` column (one
        row per (sample, label, model)); or ``score_<model>`` columns instead
        of ``y_score`` and ``model``. An optional ``retrieved`` column (0 or
        1) marks with 0 the items a sample's ranking never retrieved.
    kind : {"multilabel", "graded"} or None
        None infers it from ``y_true`` (all 0/1: multilabel). Negative
        labels are refused.
    name : str, optional
        The dataset name; for bytes also the file name.

    Returns
    -------
    Dataset
        Rows are samples and columns labels, both in order of first
        appearance; models in order of first appearance. When the samples
        have different labels (query groups of different sizes, each with
        its own documents), columns are slots ``slot_1``, ``slot_2``, ...:
        each sample's labels in the order they first appear, named in
        ``item_ids``, the slots past a sample's last label marked False in
        ``retrieved`` (never ranked, relevance 0). Any other column whose value
        is the same on every row of a sample is that sample's attribute
        (``Dataset.attributes``); one that varies within a sample is left out,
        both named in the description.

    Raises
    ------
    DataError
        A (sample, label[, model]) pair twice (naming both lines), a pair
        one model lacks (naming the first), a y_true that differs between
        models, or a bad cell.

    Examples
    --------
    >>> text = b"sample,label,y_true,y_score\\nq1,a,1,0.9\\nq1,b,0,0.2\\n"
    >>> ds = read_long_table(text, name="long.csv")
    >>> ds.kind, ds.label_names, ds.y_true.tolist()
    ('multilabel', ('a', 'b'), [[1.0, 0.0]])
    >>> ragged = read_long_table(text + b"q2,c,2,0.5\\n", name="long.csv")
    >>> ragged.item_ids.tolist(), ragged.retrieved.tolist()
    ([['a', 'b'], ['c', '']], [[True, True], [True, False]])
    """
    data, label = _source(source, name, "table")
    frame = _open_frame(data, label, _format(label, data))
    return _long_dataset(frame, kind, name)
