"""The cached computations of Top-K retrieval."""

from __future__ import annotations

from explorer import intervals as _intervals
from explorer.charts import retrieval as _retrieval_charts
from explorer.datasets import Dataset
from explorer.pages import retrieval as retrieval_model
from explorer.ui.cache._core import shared, value

#: One sort of a model's scores, reused by every K and convention (a resource: the
#: orders of 10^5 x 100 items are not unpickled on each hit).
ranking = shared(retrieval_model.ranking, size="big")


# The per-query columns and the curves are cached by family (P/R/hit rate/AP/RR, ERR,
# NDCG; see explorer.pages.retrieval): a change of one convention recomputes the family
# it moves only, and a curve is keyed without K, so moving K computes the per-query
# columns at the new K only. A curve is computed in one pass with the columns at the K
# of that run, which ride along in its entry (tagged with their K: `_k` is not part of
# the key) and serve while K stays there. All are sorted on a miss only.
@shared
def columns(ds: Dataset, model: str, family: str, conventions: tuple, k: int):
    """:func:`explorer.pages.retrieval.family_columns` on the shared ranking."""
    order = ranking(ds, model)
    return retrieval_model.family_columns(ds, model, family, conventions, k, order=order)


@shared
def curve(ds: Dataset, model: str, family: str, conventions: tuple, _k: int):
    """:func:`explorer.pages.retrieval.family_curve` on the shared ranking (keyed without K)."""
    order = ranking(ds, model)
    return retrieval_model.family_curve(ds, model, family, conventions, _k, order=order)


@shared
def tables(ds: Dataset, model: str, settings: retrieval_model.Settings, empty: str):
    """:func:`explorer.pages.retrieval.tables` from the cached families (read-only)."""
    return retrieval_model.tables(ds, model, settings, empty, columns=columns, curve=curve)


@value
def switchboard(ds: Dataset, model: str, rows: tuple, _base):
    """:func:`explorer.pages.retrieval.switchboard`; ``_base`` is the per-query table of
    the first row's settings (a function of the key), sorted on a miss only."""
    order = ranking(ds, model)
    return retrieval_model.switchboard(ds, model, rows, base=_base, order=order)


levels = value(retrieval_model.levels)
steps = value(retrieval_model.steps_table)
id_rank = shared(retrieval_model.id_rank, size="big")
query_rows = shared(retrieval_model.query_rows, size="big")


@shared
def worst_first(ds: Dataset, model: str, settings, sort: str, _per_query, empty: str = "zero"):
    """:func:`explorer.pages.retrieval.worst_first`; ``_per_query`` is the per-query
    table of ``settings`` (a function of the key)."""
    return retrieval_model.worst_first(_per_query, sort, id_rank(ds), empty)


@value
def intervals(ds: Dataset, model: str, settings: retrieval_model.Settings, empty: str) -> dict:
    """:func:`explorer.intervals.retrieval` of the cached per-query table."""
    per_query, _ = tables(ds, model, settings, empty)
    return _intervals.retrieval(per_query, empty)


@shared
def curve_base(ds: Dataset, model: str, settings, empty: str, _curve):
    """:func:`explorer.charts.retrieval.metrics_vs_k_base` of the curve of ``settings``
    (pass ``settings`` with its K set to 1: the curve does not depend on K, and moving K
    adds only the marker, :func:`~explorer.charts.retrieval.with_k_line`); ``_curve`` is
    that curve (a function of the key)."""
    return _retrieval_charts.metrics_vs_k_base(_curve)
