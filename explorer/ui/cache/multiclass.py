"""The cached computations of Multiclass classification."""

from __future__ import annotations

from explorer import intervals as _intervals
from explorer.datasets import Dataset
from explorer.pages import multiclass, multiclass_curves, multiclass_derivation
from explorer.ui.cache._core import shared, value

#: :func:`explorer.intervals.multiclass`, the Multiclass page's headline:
#: ``intervals(ds, model, k)[label]``.
intervals = value(_intervals.multiclass)


#: Every headline number but top-k accuracy, the class table, the confusion matrix and
#: the one-vs-one pairs of a model (small: K rows, K x K cells); k does not key it.
base = value(multiclass.base_summary)
#: The rank of each sample's true class (N integers), shared read-only.
ranks = shared(multiclass.ranks, size="big")
#: The per-sample table without its top-k column (N rows): shared read-only, never copied.
samples = shared(multiclass.sample_base, size="big")


@value
def summary(ds: Dataset, model: str, k: int) -> dict:
    """:func:`explorer.pages.multiclass.summary` from the cached base and ranks: moving k
    only takes a mean of N hits."""
    return multiclass.with_top_k(base(ds, model), ranks(ds, model), ds.sample_weight, k)


#: Every one-vs-rest ROC and PR curve of a model (the curves do not depend on k).
curves = shared(multiclass_curves.ovr_curves, size="big")
#: One class's one-vs-rest pairs: positives, negatives, wins and ties (four numbers).
pair_counts = value(multiclass_curves.pair_counts)


@value
def derivations(ds: Dataset, model: str, k: int, average: str) -> dict:
    """:func:`explorer.pages.multiclass_derivation.derivations` of the cached summary."""
    res = summary(ds, model, k)
    terms = samples(ds, model).sort_index()
    return multiclass_derivation.derivations(res, terms, ds.sample_weight, average)
