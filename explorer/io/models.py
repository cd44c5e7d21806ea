"""Several models beside one labels file: the datasets read for each score file (or
run) made one dataset of several models, each named by its file.

The readers read one score file at a time; :func:`merged` checks that every read
shares the first's samples and layout (the same labels file: the same ``y_true``,
ids, documents and retrieved mask) and gathers their models, at most
:data:`~explorer.io.limits.MAX_MODELS`.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from explorer.datasets import Dataset
from explorer.i18n import Phrase
from explorer.io.errors import DataError, quote
from explorer.io.limits import _check_models


def _same_layout(first: Dataset, other: Dataset) -> bool:
    def same(x, y) -> bool:
        return (x is None and y is None) or (
            x is not None and y is not None and np.array_equal(x, y)
        )

    return (
        first.kind == other.kind
        and first.sample_ids == other.sample_ids
        and first.label_names == other.label_names
        and np.array_equal(first.y_true, other.y_true)
        and same(first.retrieved, other.retrieved)
        and same(first.item_ids, other.item_ids)
    )


def merged(reads: list[tuple[str, Dataset]], name: str) -> Dataset:
    """One dataset holding the models of every read, in order.

    Parameters
    ----------
    reads : list of (file name, Dataset)
        Each score file's name and the dataset read with it; the first gives the
        labels, ids and layout. A model already held (a table's own score column read
        again beside the next file) is taken once.
    name : str
        The dataset's name.

    Raises
    ------
    DataError
        A read whose samples or labels differ from the first's (naming its file), two
        files giving a model the same name, or more than ``MAX_MODELS`` models.

    Examples
    --------
    >>> y = np.array([0, 1])
    >>> a = Dataset("y + a", "binary", y, {"a": np.array([0.2, 0.7])})
    >>> b = Dataset("y + b", "binary", y, {"b": np.array([0.4, 0.3])})
    >>> merged([("a.csv", a), ("b.csv", b)], "y + 2 score files").model_names
    ('a', 'b')
    """
    first_file, first = reads[0]
    scores = dict(first.scores)
    for file, ds in reads[1:]:
        if not _same_layout(first, ds):
            raise DataError(
                Phrase(
                    "${file} does not score the samples ${first} scores (other samples, "
                    "labels or documents): every score file must be read with the same labels.",
                    file=file,
                    first=first_file,
                )
            )
        for model, s in ds.scores.items():
            if model in scores and not np.array_equal(scores[model], s):
                raise DataError(
                    Phrase(
                        "${file} and another score file both name a model ${model}: "
                        "rename one file (each model is named by its file).",
                        file=file,
                        model=quote(model),
                    )
                )
            scores[model] = s
    _check_models(name, len(scores), Phrase("models in ${n} score files", n=len(reads)))
    described = f"{first.description}; {len(scores)} models: {', '.join(scores)}"
    return dataclasses.replace(first, name=name, scores=scores, description=described)
