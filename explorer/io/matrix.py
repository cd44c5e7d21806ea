"""A labels matrix and a scores matrix of the same shape: multilabel or graded data."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from explorer.datasets import MAX_GRADE, Dataset, RowIds
from explorer.i18n import Phrase, joined
from explorer.io.dispatch import _format, _open_frame, _source
from explorer.io.errors import DataError, quote
from explorer.io.npy import _read_npy
from explorer.io.validation import (
    _bad_cell,
    _Frame,
    _ids,
    _listed,
    _not_a_number,
    negative_grade,
    too_large_grade,
)


@dataclass
class _Matrix:
    """One matrix file: names known on opening, values after ``load``."""

    label: str
    names: list[str] | None
    frame: _Frame | None = None
    values: np.ndarray | None = None
    ids: tuple[str, ...] | None = None

    def load(self) -> np.ndarray:
        if self.values is None:
            frame = self.frame
            frame.load(self.names)
            self.values = np.column_stack([frame.numbers(c) for c in self.names])
            if "id" in frame.columns:
                self.ids = _ids(frame, "id")
        return self.values

    def cell(self, i: int, j: int) -> str:
        if self.frame is not None:
            return self.frame.cell(i, self.names[j])
        return Phrase(
            '${label}, row ${n}, column "label_${j}" (index [${i}, ${j}])',
            label=self.label,
            n=i + 1,
            i=i,
            j=j,
        )

    def raw(self, i: int, j: int) -> str:
        if self.frame is not None:
            return self.frame.raw(i, self.names[j])
        return f"{self.values[i, j]:g}"


def _open_matrix(source, name: str | None, default: str) -> _Matrix:
    data, label = _source(source, name, default)
    fmt = _format(label, data)
    if fmt == "npy":
        values = _read_npy(data, label)
        m = _Matrix(label, None, values=values)
        bad = ~np.isfinite(values)
        if bad.any():
            i, j = np.unravel_index(int(np.argmax(bad)), bad.shape)
            raise DataError(_bad_cell(m.cell(i, j), _not_a_number(m.raw(i, j))))
        return m
    frame = _open_frame(data, label, fmt)
    names = [c for c in frame.columns if c != "id"]
    if not names:
        raise DataError(
            Phrase(
                "${label} has no label columns; its columns are ${cols}.",
                label=label,
                cols=_listed(frame.columns),
            )
        )
    return _Matrix(label, names, frame=frame)


def _same_header(a: _Matrix, b: _Matrix) -> None:
    if a.names is None or b.names is None or a.names == b.names:
        return
    extra = [c for c in b.names if c not in a.names]
    missing = [c for c in a.names if c not in b.names]
    if len(a.names) != len(b.names):
        head = Phrase(
            "${a} has ${na} columns but ${b} has ${nb}",
            a=a.label,
            na=len(a.names),
            b=b.label,
            nb=len(b.names),
        )
    else:
        head = Phrase("${a} and ${b} have different headers", a=a.label, b=b.label)
    parts = [Phrase("extra: ${names}", names=_listed(extra))] * bool(extra)
    parts += [Phrase("missing: ${names}", names=_listed(missing))] * bool(missing)
    if not parts:
        j = next(j for j, (x, y) in enumerate(zip(a.names, b.names, strict=True)) if x != y)
        parts = [
            Phrase(
                'column ${j} is "${x}" in ${a} but "${y}" in ${b}',
                j=j + 1,
                x=a.names[j],
                a=a.label,
                y=b.names[j],
                b=b.label,
            )
        ]
    raise DataError(
        Phrase("${head} (${parts}); the headers must match.", head=head, parts=joined(parts, "; "))
    )


def _same_shape(a: _Matrix, b: _Matrix) -> None:
    (na, la), (nb, lb) = a.values.shape, b.values.shape
    if (na, la) == (nb, lb):
        return
    if a.frame is None or b.frame is None:
        raise DataError(
            Phrase(
                "${a} has shape ${sa} but ${b} has shape ${sb}; labels and "
                "scores need the same shape (one row per sample, one column per label).",
                a=a.label,
                sa=(na, la),
                b=b.label,
                sb=(nb, lb),
            )
        )
    raise DataError(
        Phrase(
            "${a} has ${na:,} rows but ${b} has ${nb:,}; labels and scores need one row "
            "per sample, in the same order.",
            a=a.label,
            na=na,
            b=b.label,
            nb=nb,
        )
    )


def _matrix_kind(m: _Matrix, kind: str | None) -> str:
    if kind not in (None, "multilabel", "graded"):
        raise ValueError(f"a labels+scores pair holds multilabel or graded data; got {kind!r}")
    y = m.values
    negative = y < 0
    if negative.any():
        i, j = np.unravel_index(int(np.argmax(negative)), y.shape)
        raise DataError(negative_grade(m.cell(i, j), m.raw(i, j)))
    huge = y > MAX_GRADE
    if huge.any():
        i, j = np.unravel_index(int(np.argmax(huge)), y.shape)
        raise DataError(too_large_grade(m.cell(i, j), m.raw(i, j)))
    is01 = (y == 0) | (y == 1)
    if kind is None:
        return "multilabel" if is01.all() else "graded"
    if kind == "multilabel" and not is01.all():
        i, j = np.unravel_index(int(np.argmax(~is01)), y.shape)
        raise DataError(
            Phrase(
                "${cell}: ${raw} is not a 0/1 label (expected 0 or 1).",
                cell=m.cell(i, j),
                raw=quote(m.raw(i, j)),
            )
        )
    return kind


def read_matrix_pair(
    labels,
    scores,
    *,
    kind: str | None = None,
    name: str | None = None,
    extra_scores=None,
    labels_name: str | None = None,
    scores_name: str | None = None,
    model: str = "model",
) -> Dataset:
    """Read a labels matrix and a scores matrix of the same shape.

    Parameters
    ----------
    labels, scores : path, bytes or file-like
        CSV / TSV / text with a header row of label names, Parquet, or ``.npy``
        (no header: labels are named ``label_0``, ``label_1``, ...; loaded with
        ``allow_pickle=False``). Formats may differ between the two files.
        An ``id`` column (text formats, Parquet) gives the sample ids.
    kind : {"multilabel", "graded"} or None
        None infers it: "multilabel" when every label is 0 or 1, "graded"
        otherwise. Negative labels are refused either way.
    name : str, optional
        The dataset name (default: the labels file name).
    extra_scores : dict of str to path, bytes or file-like, optional
        More models' score matrices, by model name.
    labels_name, scores_name : str, optional
        File names for bytes sources (format and messages); default
        ``labels`` / ``scores``.
    model : str
        The model name of ``scores``.

    Raises
    ------
    DataError
        Headers, row counts or shapes that differ (naming both files), or the
        first bad cell.

    Examples
    --------
    >>> ds = read_matrix_pair(b"a,b\\n1,0\\n", b"a,b\\n0.9,0.1\\n", kind="multilabel", name="x")
    >>> ds.y_true.tolist(), ds.label_names
    ([[1.0, 0.0]], ('a', 'b'))
    >>> read_matrix_pair(b"a,b\\n3,0\\n", b"a,b\\n0.9,0.1\\n").kind
    'graded'
    """
    lab = _open_matrix(labels, labels_name, "labels")
    sources = [(model, scores, scores_name, "scores")]
    sources += [(str(m), src, None, str(m)) for m, src in (extra_scores or {}).items()]
    opened = [(m, _open_matrix(src, n, default)) for m, src, n, default in sources]
    for _, sm in opened:
        _same_header(lab, sm)
    lab.load()
    kind = _matrix_kind(lab, kind)
    arrays = {}
    names, ids = lab.names, lab.ids
    for model_name, sm in opened:
        sm.load()
        _same_shape(lab, sm)
        names = names or sm.names
        if ids and sm.ids and ids != sm.ids:
            i = next(i for i, (x, y) in enumerate(zip(ids, sm.ids, strict=True)) if x != y)
            raise DataError(
                Phrase(
                    "${cell}: ${raw} differs from ${other} in ${label} (expected the same "
                    "samples in the same order).",
                    cell=sm.frame.cell(i, "id"),
                    raw=quote(sm.ids[i]),
                    other=quote(ids[i]),
                    label=lab.label,
                )
            )
        ids = ids or sm.ids
        arrays[model_name] = sm.values
    n, n_labels = lab.values.shape
    return Dataset(
        name=name or lab.label,
        kind=kind,
        y_true=lab.values,
        scores=arrays,
        label_names=tuple(names) if names else (),
        sample_ids=ids or RowIds(n),
        description=f"{lab.label} + {opened[0][1].label}: {n:,} samples x {n_labels} labels",
        source="upload",
    )
