"""The cached computations of the slice filter and the Slices page.

Each computation of the page takes the cached grouping of its settings: grouping 10^6
text values costs about 0.07 CPU s, and a run of the page reads the groups four times.
"""

from __future__ import annotations

from explorer import slicing
from explorer.budget import no_checkpoint
from explorer.pages import slices, slices_derivation
from explorer.ui.cache._core import shared, value

#: The rows of a slice, as a Dataset every page computes on (see explorer.ui.slice_filter).
subset = shared(slicing.subset)


def _grouping(ds, by, cuts):
    return slices.grouping(ds, slices.Settings("", "", by, cuts))


_groupings = value(_grouping)


def grouping(ds, settings):
    """:func:`slices.grouping`, cached on what it reads: the attributes and their cut
    points (a threshold step or another metric finds the groups cached)."""
    return _groupings(ds, settings.by, settings.cuts)


def _frame(ds, settings, checkpoint=no_checkpoint):
    return slices.frame(ds, settings, grouping(ds, settings), checkpoint)


def _values(ds, settings):
    return slices.frame(ds, settings, grouping(ds, settings), resampled=False)


def _rates(ds, settings):
    return slices.rates(ds, settings, grouping(ds, settings))


def _derivation(ds, settings, code):
    return slices_derivation.group_derivation(ds, settings, code, grouping(ds, settings))


#: Seeded bootstraps: an entry is the same numbers every time it is computed. Both take
#: a checkpoint: metered on the session's budget, stopped with its run.
_frames = value(_frame)
_values_frames = value(_values)
_worst = value(slices.worst)
_derivations = value(_derivation)
rates = value(_rates)


def frame(ds, settings):
    """:func:`slices.frame`, cached on the settings it reads (:func:`slices.computed_on`)."""
    return _frames(ds, slices.computed_on(ds, settings))


def values(ds, settings):
    """:func:`slices.frame` without resamples (the values alone), cached as :func:`frame`."""
    return _values_frames(ds, slices.computed_on(ds, settings))


def worst(ds, settings):
    """:func:`slices.worst`, cached on the settings it reads (:func:`slices.searched_on`)."""
    return _worst(ds, slices.searched_on(ds, settings))


def derivation(ds, settings, code):
    """:func:`slices_derivation.group_derivation`, cached on the settings it reads
    (:func:`slices.computed_on`: a threshold step leaves ROC AUC's line as it was)."""
    return _derivations(ds, slices.computed_on(ds, settings), code)
