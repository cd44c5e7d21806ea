"""Timing and peak-memory measurement of one call.

Time is wall-clock (:func:`time.perf_counter`), the best (minimum) of a few
repeats: the minimum is the least disturbed by other processes sharing the
machine. CPU time of the process (:func:`time.process_time`) is kept beside
it. Peak memory is measured in a separate call under :mod:`tracemalloc`,
which tracks numpy's allocations (numpy reports its data buffers to
tracemalloc) but not torch's or numba's own allocators.
"""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class Budget:
    """How long to keep repeating a call.

    Parameters
    ----------
    seconds : float
        Repeat while the calls so far took less than this in total.
    max_repeats : int
        Never more calls than this.
    min_repeats : int
        At least this many calls when one call takes under a second.
    """

    seconds: float = 1.0
    max_repeats: int = 11
    min_repeats: int = 1


FULL_BUDGET = Budget(1.0, 11, 3)
QUICK_BUDGET = Budget(0.03, 7)


@dataclass(frozen=True)
class Timing:
    """The result of timing one call.

    Attributes
    ----------
    seconds : float
        Best wall-clock time of one call (extrapolated if ``scale != 1``).
    cpu_seconds : float
        Process CPU time of that best call (all threads), scaled likewise.
    repeats : int
        Number of timed calls.
    scale : float
        ``n / rows`` when timed on a row subset and extrapolated linearly.
    rows : int or None
        The subset size when extrapolated.
    """

    seconds: float
    cpu_seconds: float
    repeats: int
    scale: float = 1.0
    rows: int | None = None

    @property
    def extrapolated(self) -> bool:
        """Whether the time was extrapolated from a row subset."""
        return self.rows is not None


def time_call(fn: Callable[[], Any], budget: Budget = FULL_BUDGET) -> tuple[Any, Timing]:
    """Call ``fn`` repeatedly and return its first result and the best time.

    Parameters
    ----------
    fn : callable
        Called with no argument.
    budget : Budget
        Repeat while the total is under ``budget.seconds``.

    Returns
    -------
    value, Timing
        What the first call returned and the timing.

    Examples
    --------
    >>> value, t = time_call(lambda: sum(range(1000)), Budget(0.01, 3))
    >>> value, 1 <= t.repeats <= 3, t.seconds > 0
    (499500, True, True)
    """
    best = best_cpu = float("inf")
    total, repeats, value = 0.0, 0, None
    while True:
        c0 = time.process_time()
        t0 = time.perf_counter()
        out = fn()
        elapsed = time.perf_counter() - t0
        cpu = time.process_time() - c0
        if repeats == 0:
            value = out
        del out
        repeats += 1
        total += elapsed
        if elapsed < best:
            best, best_cpu = elapsed, cpu
        enough = total >= budget.seconds and (repeats >= budget.min_repeats or best >= 1.0)
        if enough or repeats >= budget.max_repeats:
            break
    return value, Timing(best, best_cpu, repeats)


def extrapolate(t: Timing, rows: int, n: int) -> Timing:
    """Scale a timing taken on ``rows`` rows to ``n`` rows (linear in rows)."""
    scale = n / rows
    return Timing(t.seconds * scale, t.cpu_seconds * scale, t.repeats, scale, rows)


def peak_memory(fn: Callable[[], Any]) -> int:
    """Peak bytes allocated (and tracked by tracemalloc) during one call of ``fn``.

    Memory held before the call (the inputs) is not counted; the result of
    the call is, while it is alive inside the call.

    Examples
    --------
    >>> import numpy as np
    >>> peak_memory(lambda: np.ones(1_000_000).sum()) >= 8_000_000
    True
    """
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        out = fn()
        del out
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
