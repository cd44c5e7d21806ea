"""The gallery of bundled samples: ``sample_data/index.csv`` lists every one.

A one-file sample is ``<name>.csv`` (columns ``y_true``, ``score_<model>``...,
optional ``sample_weight`` and ``id``); a matrix sample is
``<name>.labels.csv`` and ``<name>.scores.csv`` (one file per extra model:
``<name>.scores.<model>.csv``). They are read by the same readers as an
upload (:mod:`explorer.io`), so a sample is held to the same rules.
"""

from __future__ import annotations

import csv
from functools import cache
from pathlib import Path

from explorer.datasets import Dataset
from explorer.io import read_matrix_pair, read_multiclass, read_table

__all__ = ["SAMPLE_DIR", "load_sample", "sample_index", "sample_names", "sample_title"]

SAMPLE_DIR = Path(__file__).resolve().parents[1] / "sample_data"


@cache
def sample_index() -> tuple[dict[str, str], ...]:
    """Rows of ``sample_data/index.csv``: name, kind, title, teaches.

    Examples
    --------
    >>> sorted(sample_index()[0])
    ['kind', 'name', 'teaches', 'title']
    """
    with open(SAMPLE_DIR / "index.csv", newline="", encoding="utf-8") as fh:
        return tuple(dict(row) for row in csv.DictReader(fh))


def sample_names() -> tuple[str, ...]:
    """Names of the bundled samples, in gallery order.

    Examples
    --------
    >>> "seed003_lrap" in sample_names()
    True
    """
    return tuple(row["name"] for row in sample_index())


def sample_title(name: str) -> str:
    """The gallery title of the bundled sample ``name`` (what people read), or ``name``
    itself when no sample is called so.

    Examples
    --------
    >>> sample_title("seed002_roc6")
    'Revision sheet: ROC point by point (6 impressions)'
    >>> sample_title("my upload")
    'my upload'
    """
    return next((row["title"] for row in sample_index() if row["name"] == name), name)


@cache
def load_sample(name: str) -> Dataset:
    """Load a bundled sample by name (cached; Datasets are immutable).

    Examples
    --------
    >>> d = load_sample("seed003_lrap")
    >>> d.kind, d.y_true.shape, d.shown_name
    ('multilabel', (3, 3), 'LRAP tutorial: its worked example (3 samples)')
    """
    row = next((r for r in sample_index() if r["name"] == name), None)
    if row is None:
        raise KeyError(f"no bundled sample named {name!r}")
    if row["kind"] == "multiclass":
        ds = read_multiclass(SAMPLE_DIR / f"{name}.csv", name=name)
    elif row["kind"] in ("binary", "regression"):
        ds = read_table(SAMPLE_DIR / f"{name}.csv", kind=row["kind"], name=name)
    else:
        extra = sorted(SAMPLE_DIR.glob(f"{name}.scores.*.csv"))
        ds = read_matrix_pair(
            SAMPLE_DIR / f"{name}.labels.csv",
            SAMPLE_DIR / f"{name}.scores.csv",
            kind=row["kind"],
            name=name,
            extra_scores={p.name.split(".")[-2]: p for p in extra},
        )
    return Dataset(
        name=ds.name,
        kind=ds.kind,
        y_true=ds.y_true,
        scores=ds.scores,
        sample_weight=ds.sample_weight,
        label_names=ds.label_names,
        sample_ids=ds.sample_ids,
        description=row["teaches"],
        source="sample",
        title=row["title"],
        attributes=ds.attributes,
    )
