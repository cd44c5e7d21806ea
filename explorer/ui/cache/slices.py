"""The cached computations of the slice filter and the Slices page."""

from __future__ import annotations

from explorer import slicing
from explorer.ui.cache._core import shared

#: The rows of a slice, as a Dataset every page computes on (see explorer.ui.slice_filter).
subset = shared(slicing.subset)
