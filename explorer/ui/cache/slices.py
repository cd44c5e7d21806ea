"""The cached computations of the slice filter and the Slices page."""

from __future__ import annotations

from explorer import slicing
from explorer.pages import slices, slices_derivation
from explorer.ui.cache._core import shared, value

#: The rows of a slice, as a Dataset every page computes on (see explorer.ui.slice_filter).
subset = shared(slicing.subset)
#: Seeded bootstraps: an entry is the same numbers every time it is computed.
_frame = value(slices.frame)
_worst = value(slices.worst)


def frame(ds, settings):
    """:func:`slices.frame`, cached on the settings it reads (:func:`slices.computed_on`)."""
    return _frame(ds, slices.computed_on(ds, settings))


def worst(ds, settings):
    """:func:`slices.worst`, cached on the settings it reads (:func:`slices.computed_on`)."""
    return _worst(ds, slices.computed_on(ds, settings))


rates = value(slices.rates)
grouping = value(slices.grouping)
derivation = value(slices_derivation.group_derivation)
