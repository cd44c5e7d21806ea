"""The bootstraps of Compare two models, run after the first numbers are on screen:
a progress line while they run, the notice when they cannot."""

from __future__ import annotations

import streamlit as st

from explorer.datasets import Dataset
from explorer.pages import compare
from explorer.ui import cache, work
from explorer.ui.language import t

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
        t(
            "Resampling: ${n:,} paired bootstrap resamples of ${rows:,} rows for the intervals",
            n=compare.N_RESAMPLES,
            rows=ds.n_samples,
        ),
        expanded=True,
    )
    bar = status.progress(0.0, text=t("starting"))
    with work.progress(work.bar_report(bar, estimate)):
        result = _computed(status, ds, settings, first)
    bar.empty()
    if result is first or result.note:
        status.update(label=t("Intervals not computed"), state="error", expanded=True)
    else:
        status.update(label=t("Intervals: resampled"), state="complete", expanded=False)
    return result


def _computed(where, ds: Dataset, settings, first: compare.Comparison) -> compare.Comparison:
    """The comparison, or ``first``; a notice in ``where`` for what was left out."""
    try:
        result = cache.compare.models(ds, settings.a, settings.b)
    except work.Spent as exc:
        where.info(
            t("${why} The intervals wait until then; the numbers above need none.", why=exc),
            icon=":material/hourglass_empty:",
        )
        return first
    if result.note:
        where.info(
            t(
                "${note}: each B - A is shown without its bootstrap interval; DeLong's test and "
                "the paired t-tests need no bootstrap and are kept.",
                note=t(result.note),
            ),
            icon=":material/hourglass_empty:",
        )
    return result
