"""The bootstraps of Compare two models, run after the first numbers are on screen:
a progress line while they run, the notice when they cannot."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset
from explorer.pages import compare
from explorer.ui import cache, work

#: Estimated seconds of bootstraps from which the page draws a progress line.
PROGRESS_FROM = 1.0


def resampled(ds: Dataset, settings, first: compare.Comparison) -> compare.Comparison:
    """The comparison with its intervals; ``first`` (and a notice) when this session has
    spent its computing time. Past :data:`PROGRESS_FROM` estimated seconds a status box
    holds a progress bar while the paired bootstraps run, moved by the checkpoints
    between blocks of resamples (:func:`explorer.ui.work.progress`)."""
    estimate = compare.bootstrap_seconds(ds.kind, ds.n_samples)
    if estimate < PROGRESS_FROM:
        return _computed(st, ds, settings, first)
    status = st.status(
        f"Resampling: {compare.N_RESAMPLES:,} paired bootstrap resamples of "
        f"{ds.n_samples:,} rows for the intervals",
        expanded=True,
    )
    bar = status.progress(0.0, text="starting")
    with work.progress(work.bar_report(bar, estimate)):
        result = _computed(status, ds, settings, first)
    bar.empty()
    if result is first or result.note:
        status.update(label="Intervals not computed", state="error", expanded=True)
    else:
        status.update(label="Intervals: resampled", state="complete", expanded=False)
    return result


def _computed(where, ds: Dataset, settings, first: compare.Comparison) -> compare.Comparison:
    """The comparison, or ``first``; a notice in ``where`` for what was left out."""
    try:
        result = cache.compare.models(ds, settings.a, settings.b)
    except work.Spent as exc:
        where.info(
            f"{exc} The intervals wait until then; the numbers above need none.",
            icon=":material/hourglass_empty:",
        )
        return first
    if result.note:
        where.info(
            f"{result.note}: each B - A is shown without its bootstrap interval; DeLong's "
            "test and the paired t-tests need no bootstrap and are kept.",
            icon=":material/hourglass_empty:",
        )
    return result
