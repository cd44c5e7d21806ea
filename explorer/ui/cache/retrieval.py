"""The cached computations of Top-K retrieval.

The per-query columns and the curves are cached by family (P/R/hit rate/AP/RR, ERR,
NDCG; see :mod:`explorer.pages.retrieval`): a change of one convention recomputes
the family it moves only. A family's curve does not depend on K, so it is keyed
without K (:func:`curve`): moving K computes the per-query columns at the new K only
(:func:`columns`). One pass over the matrix gives a curve and the columns at one K
together; the curve is computed at the K the page opens on, whose columns ride along
in its entry and serve while K is there. All are sorted on a miss only.
"""

from __future__ import annotations

import pandas as pd

from explorer import intervals as _intervals
from explorer.budget import no_checkpoint
from explorer.charts import retrieval as _retrieval_charts
from explorer.datasets import Dataset
from explorer.pages import retrieval, retrieval_query
from explorer.ui.cache._core import shared, value

#: One sort of a model's scores, reused by every K and convention (a resource: the
#: orders of 10^5 x 100 items are not unpickled on each hit).
ranking = shared(retrieval.ranking, size="big")


@shared
def columns(ds: Dataset, model: str, family: str, conventions: tuple, k: int):
    """:func:`explorer.pages.retrieval.family_columns` on the shared ranking."""
    order = ranking(ds, model)
    return retrieval.family_columns(ds, model, family, conventions, k, order=order)


@shared
def curve(ds: Dataset, model: str, family: str, conventions: tuple):
    """:func:`explorer.pages.retrieval.family_curve` on the shared ranking, keyed without
    K: computed at :func:`explorer.pages.retrieval.opening_k`, with the columns there."""
    order = ranking(ds, model)
    k = retrieval.opening_k(ds.n_labels)
    return retrieval.family_curve(ds, model, family, conventions, k, order=order)


def _family_columns(ds: Dataset, model: str, settings, family: str, empty: str):
    """A family's columns at the settings' K: those of its curve when K is the curve's."""
    got = curve(ds, model, family, settings.curve_conventions(family, empty))
    if got.k == settings.k:
        return got.columns
    return columns(ds, model, family, settings.conventions(family), settings.k)


@shared
def curve_table(ds: Dataset, model: str, curve_key: tuple) -> pd.DataFrame:
    """:func:`explorer.pages.retrieval.curve_table` of the cached family curves;
    ``curve_key`` is :meth:`explorer.pages.retrieval.Settings.curve_key` (no K)."""
    curves = [curve(ds, model, fam, conventions).curve for fam, conventions in curve_key]
    return retrieval.curve_table(retrieval.max_k(ds), curves)


@shared
def tables(ds: Dataset, model: str, settings: retrieval.Settings, empty: str):
    """:func:`explorer.pages.retrieval.tables` from the cached families (read-only)."""
    parts = [_family_columns(ds, model, settings, fam, empty) for fam in retrieval.FAMILY_SETTINGS]
    return retrieval.per_query_table(parts), curve_table(ds, model, settings.curve_key(empty))


@value
def switchboard(ds: Dataset, model: str, rows: tuple):
    """:func:`explorer.pages.retrieval.switchboard`, starting from the cached per-query
    table of the first row's settings; sorted on a miss only."""
    _, _, first, empty = rows[0]
    base, _ = tables(ds, model, first, empty)
    return retrieval.switchboard(ds, model, rows, base=base, order=ranking(ds, model))


levels = value(retrieval.levels)
steps = value(retrieval_query.steps_table)
id_rank = shared(retrieval_query.id_rank, size="big")
query_rows = shared(retrieval_query.query_rows, size="big")


@shared
def worst_first(ds: Dataset, model: str, settings, sort: str, empty: str = "zero"):
    """:func:`explorer.pages.retrieval_query.worst_first` of the cached per-query table."""
    per_query, _ = tables(ds, model, settings, empty)
    return retrieval_query.worst_first(per_query, sort, id_rank(ds), empty)


@value
def intervals(
    ds: Dataset, model: str, settings: retrieval.Settings, empty: str, checkpoint=no_checkpoint
) -> dict:
    """:func:`explorer.intervals.retrieval` of the cached per-query table."""
    per_query, _ = tables(ds, model, settings, empty)
    return _intervals.retrieval(per_query, empty, checkpoint)


@shared
def curve_base(ds: Dataset, model: str, curve_key: tuple, lang: str = "en"):
    """:func:`explorer.charts.retrieval.metrics_vs_k_base` of the cached curve table
    (keyed without K: moving K adds only the marker,
    :func:`~explorer.charts.retrieval.with_k_line`), its texts in ``lang``."""
    return _retrieval_charts.metrics_vs_k_base(curve_table(ds, model, curve_key), lang)
