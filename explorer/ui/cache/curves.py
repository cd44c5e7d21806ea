"""The cached computations of ROC & PR curves.

A computation that reuses another's result (the one sort of the scores, the curves of
every model) takes only hashable arguments and fetches that result from its own cache
here: ``rates(ds, model, t, beta)`` reads :func:`sorted_scores` (two binary searches, no
pass over the samples).
"""

from __future__ import annotations

from explorer import intervals as _intervals
from explorer.datasets import Dataset
from explorer.pages import (
    curves,
    curves_derivation,
    curves_samples,
    curves_teach,
    curves_threshold,
    curves_workbench,
)
from explorer.ui.cache._core import shared, value

#: :func:`explorer.pages.curves.curves` of one model (``model_curves(ds, model)``).
model_curves = value(curves.curves)
log_loss = value(curves.log_loss_values)
pairs = value(curves_teach.pairs)
rank_head = value(curves_teach.rank_head)
calibration = value(curves_teach.calibration)
brier = value(curves_teach.brier)
det = value(curves_teach.det)
threshold_axis = shared(curves_threshold.threshold_axis, size="shared")
# the one sort, the samples' orders and the figures: shared read-only, never copied
counts = shared(curves.threshold_counts, size="big")
samples = shared(curves_samples.samples, size="big")
sorted_scores = shared(curves.sorted_scores, size="big")
histogram_figure = shared(curves_teach.histogram_figure, size="big")


def every_model(ds: Dataset) -> dict:
    """:func:`model_curves` of every model of ``ds``, by name (each cached)."""
    return {m: model_curves(ds, m) for m in ds.model_names}


@value
def rates(ds: Dataset, model: str, t: float, beta: float) -> dict:
    """:func:`explorer.pages.curves.rates` from the cached :func:`sorted_scores`."""
    return curves.rates(ds, model, t, beta, sorted_scores(ds, model))


@value
def optima(
    ds: Dataset,
    model: str,
    beta: float,
    cost_fp: float,
    cost_fn: float,
    min_recall: float,
    min_precision: float,
):
    """:func:`explorer.pages.curves.optima` from the cached :func:`counts`."""
    goals = (cost_fp, cost_fn, min_recall, min_precision)
    return curves.optima(ds, model, beta, *goals, counts(ds, model))


@value
def four_ways(ds: Dataset, model: str, n_bins: int) -> dict:
    """:func:`explorer.pages.curves_teach.four_ways`: the sorting ways from the cached
    result at 100 bins, the histogram at ``n_bins``."""
    at_100 = None if n_bins == 100 else four_ways(ds, model, 100)
    return curves_teach.four_ways(ds, model, n_bins, at_100)


@value
def threshold_head(ds: Dataset, model: str, drop: bool):
    """:func:`explorer.pages.curves_teach.threshold_head` from the cached :func:`counts`."""
    return curves_teach.threshold_head(ds, model, drop, counts(ds, model))


@shared(size="big")
def bases(ds: Dataset):
    """:func:`explorer.pages.curves.curve_bases` from the cached curves of every model."""
    return curves.curve_bases(ds, every_model(ds))


@shared(size="big")
def strip_figure(ds: Dataset, model: str, t: float):
    """:func:`explorer.pages.curves_samples.strip_figure` from the cached :func:`samples`."""
    return curves_samples.strip_figure(ds, model, t, samples(ds, model))


@shared(size="big")
def calibration_figure(ds: Dataset, model: str, n_bins: int):
    """:func:`explorer.pages.curves_teach.calibration_figure` from the cached
    :func:`calibration`."""
    return curves_teach.calibration_figure(ds, model, n_bins, calibration(ds, model, n_bins))


@shared(size="big")
def operating_data(ds: Dataset, model: str) -> dict:
    """The operating-point component's counts at every slider position and the reduced
    curves (:func:`explorer.pages.curves.operating_data`), from the cached curves of
    every model, :func:`counts` and :func:`threshold_axis`."""
    axis = threshold_axis(ds, model)
    return curves.operating_data(ds, model, every_model(ds), counts(ds, model), axis)


#: ROC AUC, average precision and log loss written with their terms (a few strings).
curve_lines = value(curves_derivation.curve_lines)
#: Every rate at a threshold with its counts plugged in.
derived_rates = value(curves_derivation.rates)

#: :func:`explorer.intervals.curves_headlines`, for the curves page:
#: ``intervals(ds, model, t, beta)[label]``.
intervals = value(_intervals.curves_headlines)

#: The threshold workbench (:mod:`explorer.pages.curves_workbench`): the curves per
#: model, the numbers at a threshold per (model, t), the solver per goal and bound.
gain_curve = value(curves_workbench.gain_curve)
ks_curves = value(curves_workbench.ks_curves)
decision_curve = value(curves_workbench.decision)
reliability = value(curves_workbench.reliability)
ks = value(curves_workbench.ks)
calibration_errors = value(curves_workbench.calibration_errors)


@value
def gain_at(ds: Dataset, model: str, t: float):
    """:func:`explorer.pages.curves_workbench.gain_at` from the cached :func:`sorted_scores`."""
    return curves_workbench.gain_at(ds, model, t, sorted_scores(ds, model))


@value
def ks_at(ds: Dataset, model: str, t: float):
    """:func:`explorer.pages.curves_workbench.ks_at` from the cached :func:`ks` and
    :func:`sorted_scores`."""
    return curves_workbench.ks_at(ds, model, t, ks(ds, model), sorted_scores(ds, model))


@value
def decision_at(ds: Dataset, model: str, t: float):
    """:func:`explorer.pages.curves_workbench.decision_at` from the cached :func:`sorted_scores`."""
    return curves_workbench.decision_at(ds, model, t, sorted_scores(ds, model))


@value
def calibration_at(ds: Dataset, model: str, t: float):
    """:func:`explorer.pages.curves_workbench.calibration_at` from the cached
    :func:`calibration_errors` and :func:`reliability`."""
    errors, table = calibration_errors(ds, model), reliability(ds, model)
    return curves_workbench.calibration_at(ds, model, t, errors, table)


solve = value(curves_workbench.solve)
