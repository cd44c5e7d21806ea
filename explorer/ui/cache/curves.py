"""The cached computations of ROC & PR curves."""

from __future__ import annotations

from explorer import intervals as _intervals
from explorer.pages import curves as _curves
from explorer.pages import curves_derivation as _curves_derivation
from explorer.ui.cache._core import shared, value

curves = value(_curves.curves)
rates = value(_curves.rates)
optima = value(_curves.optima)
four_ways = value(_curves.four_ways)
pairs = value(_curves.pairs)
rank_head = value(_curves.rank_head)
threshold_head = value(_curves.threshold_head)
log_loss = value(_curves.log_loss_values)
calibration = value(_curves.calibration)
brier = value(_curves.brier)
det = value(_curves.det)
threshold_axis = shared(_curves.threshold_axis, size="shared")
# the one sort, the samples' orders and the figures: shared read-only, never copied
counts = shared(_curves.threshold_counts, size="big")
samples = shared(_curves.samples, size="big")
sorted_scores = shared(_curves.sorted_scores, size="big")
bases = shared(_curves.curve_bases, size="big")
strip_figure = shared(_curves.strip_figure, size="big")
histogram_figure = shared(_curves.histogram_figure, size="big")
calibration_figure = shared(_curves.calibration_figure, size="big")
# the operating-point component's counts at every slider position and reduced curves
operating_data = shared(_curves.operating_data, size="big")


#: ROC AUC, average precision and log loss written with their terms (a few strings).
curve_lines = value(_curves_derivation.curve_lines)
#: Every rate at a threshold with its counts plugged in.
derived_rates = value(_curves_derivation.rates)

#: :func:`explorer.intervals.curves_headlines`, for the curves page:
#: ``intervals(ds, model, t, beta)[label]``.
intervals = value(_intervals.curves_headlines)
