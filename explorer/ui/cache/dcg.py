"""The cached computations of DCG & NDCG."""

from __future__ import annotations

from explorer import intervals as _intervals
from explorer.budget import no_checkpoint
from explorer.charts import dcg as _dcg_charts
from explorer.datasets import Dataset
from explorer.pages import dcg
from explorer.ui.cache._core import shared, value

#: The one sort of a model's scores, shared by every k, log base, gain and tie mode;
#: a resource, so that its ~60 MB of orders (10^5 x 100) is not unpickled on each hit.
ranking = shared(dcg.ranking, size="big")


@value
def per_sample_table(ds: Dataset, settings: dcg.Settings):
    """:func:`explorer.pages.dcg.per_sample_table` on the shared sort (sorted on a miss only)."""
    return dcg.per_sample_table(ds, settings, ranking(ds, settings.model))


@value
def worst_first(ds: Dataset, settings: dcg.Settings):
    """:func:`explorer.pages.dcg.worst_first` of the cached table (a stable sort of 10^5 rows)."""
    return dcg.worst_first(per_sample_table(ds, settings))


@value
def intervals(ds: Dataset, settings: dcg.Settings, checkpoint=no_checkpoint) -> dict:
    """:func:`explorer.intervals.dcg` of the cached per-sample table."""
    return _intervals.dcg(per_sample_table(ds, settings), ds.sample_weight, checkpoint)


# Built once per dataset and setting, shared read-only: a rerun that draws the same
# setting again (a move back, a click elsewhere on the page) skips plotly's validation.


@shared
def distribution_figure(ds: Dataset, settings: dcg.Settings, title: str, lang: str = "en"):
    """:func:`explorer.charts.dcg.distribution_figure` of the cached per-sample table, its
    texts in ``lang``."""
    return _dcg_charts.distribution_figure(per_sample_table(ds, settings), title=title, lang=lang)
