"""scikit-learn's ``dcg_score`` examples, computed on their sample for the DCG page.

The page's model (:mod:`explorer.pages.dcg`) shows any graded sample; these are the four
worked examples of scikit-learn's documentation, each with what its docstring prints, the
row and settings it uses, and the steps the page derives it by.
"""

from __future__ import annotations

from dataclasses import dataclass

import pandas as pd

import metrics
from explorer.datasets import Dataset
from metrics import dcg_tie_bounds_per_sample

#: The sample of scikit-learn's worked examples.
SEED = "seed001_dcg"

#: The scikit-learn dcg_score examples: (what the source prints, row, k, ignore_ties).
SEED_EXAMPLES = (
    ("9.49", 0, None, False),
    ("5.63", 0, 2, False),
    ("7.5", 1, 1, False),
    ("5.0", 1, 1, True),
)


@dataclass(frozen=True)
class SeedExample:
    """One of the scikit-learn dcg_score examples, computed."""

    printed: str  # what scikit-learn's docstring prints
    row: int
    k: int | None
    ignore_ties: bool
    value: float  # the row's DCG at these settings
    steps: pd.DataFrame  # metrics.dcg_steps of the row at these settings
    optimistic: float  # the best order of the row's tied items, at k
    averaged: float  # the tie-averaged DCG of the row, at k


def seed_examples(ds: Dataset) -> list[SeedExample]:
    """scikit-learn's four ``dcg_score`` examples on their sample (:data:`SEED`).

    Parameters
    ----------
    ds : Dataset
        The sample ``seed001_dcg`` (first model).

    Returns
    -------
    list of SeedExample
        In the order of :data:`SEED_EXAMPLES`.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> [round(e.value, 3) for e in seed_examples(load_sample("seed001_dcg"))]
    [9.499, 5.631, 7.5, 5.0]
    """
    y, s = ds.y_true, ds.score()
    out = []
    for printed, row, k, ignore_ties in SEED_EXAMPLES:
        _, high = dcg_tie_bounds_per_sample(y, s, k=k)
        out.append(
            SeedExample(
                printed,
                row,
                k,
                ignore_ties,
                value=float(metrics.dcg_per_sample(y, s, k=k, ignore_ties=ignore_ties)[row]),
                steps=metrics.dcg_steps(y[row], s[row], k=k, ignore_ties=ignore_ties),
                optimistic=float(high[row]),
                averaged=float(metrics.dcg_per_sample(y, s, k=k)[row]),
            )
        )
    return out
