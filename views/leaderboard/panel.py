"""The Leaderboard under its controls: the resampled comparison (a progress line while it
runs), then the table, the pairs and the per-sample wins, each held back while
"Predict, then reveal" hides the numbers."""

from __future__ import annotations

import streamlit as st

import metrics
from explorer.datasets import Dataset
from explorer.formatting import literal
from explorer.pages import leaderboard
from explorer.ui import cache, classroom, widgets, work
from explorer.ui.language import t
from views.leaderboard import controls, pairs, table, wins

#: Estimated seconds of resamples from which the page draws a progress line.
PROGRESS_FROM = 1.0


def panel(ds: Dataset) -> None:
    settings = controls.show(ds)
    each = leaderboard.each_metric(ds, settings)
    try:
        boards = [_computed(ds, s) for s in each]
    except metrics.MetricInputError as exc:
        why = t("The leaderboard compares the models' ${metric}", metric=t(settings.metric))
        widgets.cannot_score(ds, exc, why)
        return
    except work.Spent as exc:
        st.info(
            t("${why} The leaderboard waits until then.", why=literal(t(exc.args[0]))),
            icon=":material/hourglass_empty:",
        )
        return
    board = boards[0]  # the first metric ranks the table and makes the matrix and wins
    for s, b in zip(each, boards, strict=True):
        if b.note:
            template = (
                "${metric}: ${why}: no interval is resampled, and the bootstrap test is not run."
                if s.test == "bootstrap"
                else "${metric}: ${why}: no interval is resampled."
            )
            st.info(
                t(template, metric=t(s.metric), why=literal(t(b.note))),
                icon=":material/hourglass_empty:",
            )
    if ds.sample_weight is not None:
        st.caption(t("The sample weights are not used here: each sample counts once."))
    table.headline(board, settings)
    classroom.reveal_button()
    if not classroom.numbers_shown():
        table.predict(ds)
    else:
        table.show(ds, boards, each)
    if classroom.held_back("The pairs, the matrix and the per-sample wins"):
        return
    pairs.show(ds, board, settings)
    wins.show(ds)


def _computed(ds: Dataset, settings: leaderboard.Settings) -> leaderboard.Board:
    """The board; past :data:`PROGRESS_FROM` estimated seconds under a status box whose
    progress bar the checkpoints between blocks of resamples move."""
    estimate = leaderboard.seconds(ds, settings.metric)
    if estimate < PROGRESS_FROM:
        return cache.leaderboard.board(ds, settings)
    status = st.status(
        t(
            "Resampling: ${n:,} paired bootstrap resamples of ${rows:,} rows for ${models} models",
            n=leaderboard.N_RESAMPLES,
            rows=ds.n_samples,
            models=len(ds.model_names),
        ),
        expanded=True,
    )
    bar = status.progress(0.0, text=t("starting"))
    try:
        with work.progress(work.bar_report(bar, estimate)):
            board = cache.leaderboard.board(ds, settings)
    except Exception:  # the panel says why; the box must not spin on
        status.update(label=t("Not resampled"), state="error", expanded=False)
        raise
    bar.empty()
    status.update(label=t("Resampled"), state="complete", expanded=False)
    return board
