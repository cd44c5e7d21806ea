"""The cached computations of Home."""

from __future__ import annotations

from explorer import intervals as _intervals
from explorer.budget import no_checkpoint
from explorer.datasets import Dataset
from explorer.pages import home
from explorer.ui.cache._core import value

headline = value(home.headline)


# seeded bootstraps: an entry is the same numbers every time it is computed


@value
def intervals(ds: Dataset, checkpoint=no_checkpoint) -> dict:
    """:func:`explorer.intervals.home`."""
    return _intervals.home(ds, checkpoint)
