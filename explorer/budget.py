"""How much computing one visitor may start: the estimates, the limits, the refusals.

Every heavy computation a visitor can start (a page's 95% intervals, the Compare
page's bootstraps, Label ranking over n x m scores) is estimated here *before* it
runs, in seconds of CPU, from its size; above :attr:`Limits.per_run` it is refused
with a sentence that says what and how long (never a silently smaller computation).
The ui layer (:mod:`explorer.ui.work`) adds the per-session budget
(:attr:`Limits.session_per_minute`) and stops a run that a rerun, a page change or a
closed tab made useless.

The costs are CPU seconds per unit measured on the 2-core development machine at a
load of about 2.5 (``bench``'s machine, 2026-11-27; ``/tmp`` scripts timing
``metrics.bootstrap_ci`` with ``time.process_time``), rounded up. The first four were
measured again on 2026-11-29 through the page models themselves (``intervals``,
``compare.compare``, ``leaderboard.board`` at 10^6 rows, every thread's CPU): 5.8-6.4,
12.4, 5.8 and 2.7-4.2 ns; they are kept about 1.5x above that, as the others are:

========================= =========================================================
path                      cost
========================= =========================================================
ROC AUC / AP, one model   9 ns per row and resample (running sums of draw counts)
AP of two models (paired) 18 ns per row and resample
mean of per-sample values 9 ns per row and resample (one gather of an index matrix)
each further model        6 ns per row and resample (many models on one draw of counts)
any other metric          0.5 ms per call + 60 ns per cell, one call per resample
Multilabel headline       60 ns per row + 6 ns per cell, each resample (products of the
                          resamples' weights with the label matrices; 2026-12-01, 25-50
                          and 1-5 ns at load 4)
Multiclass headline       90 ns per cell and resample (blocks of resamples as arrays;
                          2026-12-01, 75-84 ns at load 30)
Label ranking summary     400 ns per cell (a sort per row, then the running sums)
weighted cells at a cut   60 ns per row and resample (the constraint solver, 2026-11-29)
Slices: ROC AUC per group 4 ns per row and resample (draw counts of runs of one class)
Slices: permutation test  35 ns per row and shuffle, + 20 per grouping (2026-11-29, load 20)
========================= =========================================================

Pure: no Streamlit. The limits are read from the environment in one place,
:func:`limits` (``METRIC_EXPLORER_HOSTED``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import NamedTuple

from explorer.i18n import Phrase
from metrics import PERMUTATION_CELLS

#: The environment variable that says the app is the public demo (``1``, ``true``...).
HOSTED_VARIABLE = "METRIC_EXPLORER_HOSTED"

#: CPU seconds per unit of each bootstrap path (see the module's table).
NS = 1e-9
PER_DRAW = {
    "count": 9 * NS,
    "count2": 18 * NS,
    "count_each": 6 * NS,
    "mean": 9 * NS,
    "cells": 60 * NS,
    "runs": 4 * NS,
}
#: The Multilabel headline, per row and per cell (row and label), each resample.
LABELS_ROW, LABELS_CELL = 60 * NS, 6 * NS
PERMUTATION_SHUFFLE, PERMUTATION_SUMS = 35 * NS, 20 * NS
#: Picking a subsample of the rows by group, per row (a shuffle and one stable sort).
SUBSAMPLE_ROW = 80 * NS
SLOW_CALL, SLOW_CELL = 0.5e-3, 60 * NS
#: The Multiclass headline, per cell (row and class) and resample.
HEAVY_CELL = 90 * NS
LABEL_RANKING_CELL = 400 * NS


class Limits(NamedTuple):
    """The computing a visitor may start.

    Attributes
    ----------
    per_run : float
        Most estimated CPU seconds of one computation (a page's intervals, a comparison).
    session_per_minute : float or None
        CPU seconds one session may use for heavy work in any minute (None: no limit).
    """

    per_run: float
    session_per_minute: float | None


#: The public demo: a computation of at most 8 s of CPU, 30 s per session and minute
#: (half a core: a 2-core server keeps a core for the other visitors' pages).
HOSTED = Limits(per_run=8.0, session_per_minute=30.0)
#: A laptop: two minutes per computation (still stopped by a rerun), no session budget.
LOCAL = Limits(per_run=120.0, session_per_minute=None)


def no_checkpoint() -> None:
    """The default checkpoint of the pure layers: never stops anything."""


def hosted(environ: Mapping[str, str] | None = None) -> bool:
    """Whether the app runs as the public demo (``METRIC_EXPLORER_HOSTED=1``).

    Examples
    --------
    >>> hosted({"METRIC_EXPLORER_HOSTED": "1"}), hosted({}), hosted({HOSTED_VARIABLE: "no"})
    (True, False, False)
    """
    env = os.environ if environ is None else environ
    return env.get(HOSTED_VARIABLE, "").strip().lower() in ("1", "true", "yes", "on")


def limits(environ: Mapping[str, str] | None = None) -> Limits:
    """The limits in force: :data:`HOSTED` on the public demo, else :data:`LOCAL`.

    Examples
    --------
    >>> limits({HOSTED_VARIABLE: "1"}).per_run, limits({}).session_per_minute is None
    (8.0, True)
    """
    return HOSTED if hosted(environ) else LOCAL


def bootstrap_seconds(path: str, rows: int, resamples: int, cells: int | None = None) -> float:
    """Estimated CPU seconds of one bootstrap of ``rows`` rows.

    ``path``: ``"count"`` (ROC AUC or AP of one model), ``"count2"`` (AP of two models
    on the same resamples), ``"count_each"`` (each model after the first on one draw of
    counts), ``"mean"`` (a mean of per-sample values), ``"cells"`` (the
    weighted confusion cells at a fixed threshold), ``"slow"`` (one
    metric call per resample on ``cells`` cells, rows x columns), ``"labels"`` (the
    Multilabel headline's five numbers) or ``"heavy"`` (the Multiclass headline's
    eight), each on ``cells`` cells and computed for blocks of resamples at once.

    Examples
    --------
    >>> round(bootstrap_seconds("count", 1_000_000, 2000), 1)
    18.0
    >>> round(bootstrap_seconds("slow", 1000, 2000, cells=2000), 2)
    1.24
    """
    if path in PER_DRAW:
        return PER_DRAW[path] * rows * resamples
    cells = rows if cells is None else cells
    if path == "heavy":
        return resamples * HEAVY_CELL * cells
    if path == "labels":
        return resamples * (LABELS_ROW * rows + LABELS_CELL * cells)
    return resamples * (SLOW_CALL + SLOW_CELL * cells)


def permutation_seconds(rows: int, permutations: int, groupings: int) -> float:
    """Estimated CPU seconds of :mod:`metrics.slices`' permutation test: the shuffles,
    drawn once, then each grouping's sums; above ``PERMUTATION_CELLS`` rows times
    permutations it reads ``PERMUTATION_CELLS // permutations`` rows, picked per grouping
    by one sort of every row (``SUBSAMPLE_ROW``).

    Examples
    --------
    >>> round(permutation_seconds(20_000, 999, 6), 1), round(permutation_seconds(10**6, 999, 1), 1)
    (3.1, 1.2)
    """
    picked = 0.0
    if rows * permutations > PERMUTATION_CELLS:
        picked, rows = SUBSAMPLE_ROW * rows * groupings, PERMUTATION_CELLS // permutations
    return picked + rows * permutations * (PERMUTATION_SHUFFLE + PERMUTATION_SUMS * groupings)


def label_ranking_seconds(n_samples: int, n_labels: int) -> float:
    """Estimated CPU seconds of the Label ranking page's per-sample table.

    Examples
    --------
    >>> round(label_ranking_seconds(100_000, 100), 1)
    4.0
    """
    return LABEL_RANKING_CELL * n_samples * n_labels


def too_long(seconds: float, what: str, limit: float) -> str | None:
    """The sentence that refuses ``what`` when its estimate is over ``limit``, else None
    (a :class:`~explorer.i18n.Phrase`: ``what`` may be one too).

    Examples
    --------
    >>> too_long(31.2, "2,000 resamples of 1,000,000 rows", 8.0)
    '2,000 resamples of 1,000,000 rows would take about 31 s of computing; this server offers 8 s'
    >>> too_long(2.0, "anything", 8.0) is None
    True
    """
    if seconds <= limit:
        return None
    return Phrase(
        "${what} would take about ${seconds:,.0f} s of computing; this server offers ${limit:g} s",
        what=what,
        seconds=seconds,
        limit=limit,
    )


def wait_text(seconds: float) -> str:
    """The notice when a session has spent its minute, ``seconds`` before it may go on (a
    :class:`~explorer.i18n.Phrase`).

    Examples
    --------
    >>> wait_text(12.3)
    'This session has used its computing time for this minute; try again in 13 s.'
    """
    wait = max(1, int(-(-seconds // 1)))
    return Phrase(
        "This session has used its computing time for this minute; try again in ${wait} s.",
        wait=wait,
    )


class Ledger:
    """One session's CPU seconds of heavy work over the last :data:`WINDOW` seconds.

    Parameters
    ----------
    per_minute : float
        Seconds the session may use in any window.

    Examples
    --------
    >>> book = Ledger(30.0)
    >>> book.charge(100.0, 20.0); book.charge(110.0, 12.0)
    >>> book.spent(120.0), book.wait(120.0)  # over 30 s: free again when 100's goes
    (32.0, 40.0)
    >>> book.spent(161.0), book.wait(161.0)
    (12.0, 0.0)
    """

    def __init__(self, per_minute: float):
        self.per_minute = per_minute
        self._charges: list[tuple[float, float]] = []

    def charge(self, now: float, seconds: float) -> None:
        """Add ``seconds`` of CPU used at time ``now``."""
        self._charges.append((now, seconds))

    def spent(self, now: float) -> float:
        """CPU seconds charged in the window that ends at ``now``."""
        self._charges = [(t, s) for t, s in self._charges if t > now - WINDOW]
        return sum(s for _, s in self._charges)

    def wait(self, now: float) -> float:
        """Seconds until the session is under its budget again (0: it is now)."""
        over = self.spent(now) - self.per_minute
        if over < 0:
            return 0.0
        for t, s in self._charges:  # oldest first: each leaves the window at t + WINDOW
            over -= s
            if over < 0:
                return t + WINDOW - now
        return self._charges[-1][0] + WINDOW - now


#: The window of :class:`Ledger`, in seconds.
WINDOW = 60.0
