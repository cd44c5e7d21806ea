"""The cached computations of Multilabel classification."""

from __future__ import annotations

from explorer import intervals as _intervals
from explorer.budget import no_checkpoint
from explorer.charts import multilabel as _multilabel_charts
from explorer.datasets import Dataset
from explorer.pages import multilabel
from explorer.ui.cache._core import shared, value

#: The one pass over the N x L cells of a setting: the read-only predictions and every
#: count. Shared, so the N x L matrix is not copied on every rerun; call it with
#: ``multilabel.setting(...)`` (a rule's unused settings blanked, so going back to a
#: rule reuses its entry). Moving beta or zero_division reuses it whole.
prediction = shared(multilabel.prediction)


def _summary(ds, model, rule, threshold, thresholds, top_k, beta, zd_key) -> dict:
    """:func:`explorer.pages.multilabel.summary` of the cached prediction of a setting."""
    pred, counts = prediction(ds, model, rule, threshold, thresholds, top_k)
    return multilabel.summary(ds, pred, counts, beta, zd_key)


#: Every average, the per-label table and the worst samples (beta and zero_division
#: only rescore the counts of :data:`prediction`).
summary = value(_summary)


@value
def intervals(
    ds: Dataset, model, rule, threshold, thresholds, top_k, zd_key, checkpoint=no_checkpoint
) -> dict:
    """:func:`explorer.intervals.multilabel` of the cached prediction of a setting."""
    pred, _ = prediction(ds, model, rule, threshold, thresholds, top_k)
    return _intervals.multilabel(ds, pred, zd_key, checkpoint)


@shared
def bars(ds: Dataset, setting: tuple, beta: float, zd_key: str, lang: str = "en"):
    """The per-label bars of one setting (``multilabel.setting(...)``, as
    :data:`prediction` takes it), from the cached summary: a rerun of the
    panel on the same setting (another label or sample inspected) does not build it
    again."""
    res = summary(ds, *setting, beta, zd_key)
    avg = res["averages"]
    return _multilabel_charts.label_scores_chart(
        res["labels"].iloc[: res["n_labels"]],
        macro_f1=avg["macro"]["f1"],
        micro_f1=avg["micro"]["f1"],
        lang=lang,
    )


@shared
def grid(ds: Dataset, setting: tuple, beta: float, zd_key: str, grid_title: str, lang: str = "en"):
    """The grid of the worst samples of one setting (drawn in its tab only), from the
    cached prediction and summary."""
    pred, _ = prediction(ds, *setting)
    res = summary(ds, *setting, beta, zd_key)
    grid, grid_ids = multilabel.outcome_grid(ds, pred, res["worst"])
    labels = list(ds.label_names)
    return _multilabel_charts.outcome_grid_figure(
        grid, grid_ids, labels, title=grid_title, lang=lang
    )
