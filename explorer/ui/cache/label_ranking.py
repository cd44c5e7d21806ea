"""The cached computations of Label ranking."""

from __future__ import annotations

import numpy as np

import metrics
from explorer import intervals as _intervals
from explorer.budget import no_checkpoint
from explorer.datasets import Dataset
from explorer.pages import label_ranking
from explorer.ui.cache._core import value

#: Headline numbers, per-sample table and tie rules of one model (what-if edits update
#: a copy of it, one row at a time).
summary = value(label_ranking.summary)
#: The mean reciprocal rank, shown when every sample has one true label.
mrr = value(label_ranking.mrr)


@value
def what_if(ds: Dataset, model: str, i: int, new_row: tuple, checkpoint=no_checkpoint):
    """:func:`explorer.pages.label_ranking.what_if` of the cached summary: a ragged
    dataset's edit scores the whole matrix again, so it runs on the session's budget
    (refused when spent, stopped by a rerun) like the summary it replaces."""
    new = np.asarray(new_row, dtype=np.float64)
    return label_ranking.what_if(ds, model, summary(ds, model), i, new, checkpoint)


@value
def intervals(
    ds: Dataset, model: str, i: int, new_row: tuple | None, mrr: bool, checkpoint=no_checkpoint
) -> dict:
    """:func:`explorer.intervals.label_ranking` of ``model``, with sample ``i``'s what-if
    scores ``new_row`` (None: unedited); ``mrr``: with the MRR's interval."""
    res = summary(ds, model)
    if new_row is not None:
        res = what_if(ds, model, i, tuple(new_row)) or res
    rr = (
        metrics.reciprocal_rank(ds.y_true, ds.score(model), retrieved=ds.retrieved) if mrr else None
    )
    return _intervals.label_ranking(res.contrib, ds.sample_weight, rr, checkpoint)
