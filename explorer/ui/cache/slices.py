"""The cached computations of the slice filter and the Slices page."""

from __future__ import annotations

from explorer import slicing
from explorer.pages import slices, slices_derivation
from explorer.ui.cache._core import shared, value

#: The rows of a slice, as a Dataset every page computes on (see explorer.ui.slice_filter).
subset = shared(slicing.subset)
#: Seeded bootstraps: an entry is the same numbers every time it is computed.
frame = value(slices.frame)
worst = value(slices.worst)
rates = value(slices.rates)
grouping = value(slices.grouping)
derivation = value(slices_derivation.group_derivation)
