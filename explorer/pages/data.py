"""The Data page's model: the label names the editor uses and the tables it edits.

Pure functions (no Streamlit). The round trips between a Dataset and the editor's
tables are :mod:`explorer.editing`; the validation summary is
:func:`explorer.datasets.describe` (cached in :mod:`explorer.ui.cache`, section "Data").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from explorer import editing
from explorer.datasets import Dataset


@dataclass(frozen=True)
class LabelNames:
    """The label names typed in the editor, and those it uses.

    ``names`` are the names the editor uses: those given, or the dataset's own when
    the given ones repeat a name (``twice``) or are none. When the number of names
    differs from the dataset's labels, names apply in order and ``removed`` lists the
    dataset's labels left without a name (dropped), ``added`` the new labels.
    """

    names: tuple[str, ...]
    given: tuple[str, ...]
    twice: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()


def label_names(text: str, old: Sequence[str]) -> LabelNames:
    """Read the comma-separated label names of the editor's text box.

    Parameters
    ----------
    text : str
        What the user typed: names separated by commas (blanks around them ignored).
    old : sequence of str
        The dataset's label names.

    Returns
    -------
    LabelNames

    Examples
    --------
    >>> label_names("a, b, c", ["x", "y"])
    LabelNames(names=('a', 'b', 'c'), given=('a', 'b', 'c'), twice=(), removed=(), added=('c',))
    >>> label_names("a, b, a", ["x", "y"]).names
    ('x', 'y')
    >>> label_names(" , ", ["x", "y"]).names
    ('x', 'y')
    """
    given = tuple(x.strip() for x in text.split(",") if x.strip())
    old = tuple(old)
    twice = tuple(sorted({x for x in given if given.count(x) > 1}))
    if twice or not given:
        return LabelNames(old, given, twice)
    keep = min(len(given), len(old))
    return LabelNames(given, given, removed=old[keep:], added=given[keep:])


def named_matrices(
    ds: Dataset, names: Sequence[str], rows: slice | None = None
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The labels and scores tables of ``rows`` (None: all) under the label ``names``.

    The first names rename the columns in order; extra names add columns of 0, fewer
    names drop the last columns.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed003_lrap")
    >>> labels, scores = named_matrices(ds, ["a", "b", "c", "d"], slice(0, 2))
    >>> labels.columns.tolist(), labels["d"].tolist(), scores.shape
    (['a', 'b', 'c', 'd'], [0.0, 0.0], (2, 4))
    >>> named_matrices(ds, ["a"])[0].shape
    (3, 1)
    """
    keep = min(len(names), ds.n_labels)
    tables = []
    for df in editing.matrices_from_dataset(ds, rows=rows):
        df = df.iloc[:, :keep].set_axis(list(names[:keep]), axis=1)
        for name in names[keep:]:
            df[name] = 0.0
        tables.append(df)
    return tables[0], tables[1]


def column_note(ds: Dataset) -> str:
    """The note of the columns an upload read under another name (empty when none).

    The readers end an upload's description with it (:func:`explorer.io.table.alias_note`).

    Examples
    --------
    >>> from explorer.io import read_upload
    >>> column_note(read_upload("t.csv", b"label,prob\\n0,0.2\\n1,0.9\\n"))
    "read column 'label' as y_true, 'prob' as y_score"
    >>> from explorer.samples import load_sample
    >>> column_note(load_sample("balanced"))
    ''
    """
    if ds.source != "upload":
        return ""
    return next((p for p in ds.description.split("; ") if p.startswith("read column ")), "")


def looks_swapped(ds: Dataset) -> bool:
    """Whether the labels look like scores and the first model's scores like labels.

    True for an uploaded labels + scores pair whose labels hold a value that is not a whole
    number (a score, not a relevance grade) while every score is 0 or 1.

    Examples
    --------
    >>> import numpy as np
    >>> y, s = np.array([[0.9, 0.2], [0.1, 0.7]]), np.array([[1, 0], [0, 1]])
    >>> looks_swapped(Dataset("x", "graded", y, {"m": s}, source="upload")), looks_swapped(
    ...     Dataset("x", "multilabel", s, {"m": y}, source="upload")
    ... )
    (True, False)
    """
    if not ds.is_matrix or ds.source != "upload":  # the bundled samples are what they say
        return False
    y, s = ds.y_true, ds.score(ds.model_names[0])
    return bool((y != np.floor(y)).any() and ((s == 0) | (s == 1)).all())


def swapped(ds: Dataset) -> Dataset:
    """``ds`` with its labels and its first model's scores exchanged (a multilabel set).

    Examples
    --------
    >>> import numpy as np
    >>> y, s = np.array([[0.9, 0.2], [0.1, 0.7]]), np.array([[1, 0], [0, 1]])
    >>> d = swapped(Dataset("x", "graded", y, {"m": s}, label_names=("a", "b")))
    >>> d.name, d.kind, d.y_true.tolist(), d.score("m").tolist(), d.label_names
    ('x (swapped)', 'multilabel', [[1.0, 0.0], [0.0, 1.0]], [[0.9, 0.2], [0.1, 0.7]], ('a', 'b'))
    """
    model = ds.model_names[0]
    return Dataset(
        name=f"{ds.name} (swapped)",
        kind="multilabel",
        y_true=ds.score(model),
        scores={model: ds.y_true},
        label_names=ds.label_names,
        sample_ids=ds.sample_ids,
        description=f"{ds.description}; labels and scores swapped",
        source=ds.source,
    )
