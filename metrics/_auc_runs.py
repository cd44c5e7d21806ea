"""Bootstrap of ROC AUC over runs of one class: fewer draw counts than rows.

In score order without tied scores, a resample's ROC AUC depends on the
rows only through how often each *run* (consecutive rows of one class) was
drawn: moving a draw from one row of a run to another changes the order of
no positive-negative pair. Drawing ``n`` rows with replacement draws the
runs' counts from ``Multinomial(n; size / n)``, so a resample needs one count
per run, not per row: about ``n / 2.5`` on a model's scores (half of the rows
or fewer, whatever the order).

The counts are drawn as :mod:`metrics._resample` draws rows' (exactly):
independent ``Poisson(lam * size)`` counts with ``lam = 1 - SIGMAS / sqrt(n)``,
a resample whose total exceeds ``n`` drawn again, then ``n - total`` uniform
rows added to their runs. Runs are cut at :data:`MAX_RUN` rows, so the rates
take at most that many values, each with a 4,096-entry table of the count of
16 random bits' top 12 (the few entries that straddle a step of the CDF
resolved with a uniform fraction and the CDF itself).
"""

from __future__ import annotations

import math

import numpy as np

from metrics._resample import SIGMAS

__all__ = ["MAX_RUN", "auc_run_bootstrap", "run_counts", "runs_of"]

#: The longest run kept whole (longer ones are cut): the number of Poisson tables.
MAX_RUN = 8
#: Run counts x resamples per block (bounds the memory: about 8 MiB of uint8 and uint16).
BLOCK = 1 << 20
_BITS = 12
_MARK = 255


def runs_of(pos: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sizes, negative)`` of the runs of one class in ``pos`` (rows in score order),
    each at most :data:`MAX_RUN` rows.

    Examples
    --------
    >>> sizes, neg = runs_of(np.array([0, 0, 1, 1, 1, 0] + [1] * 10, dtype=bool))
    >>> sizes.tolist(), neg.tolist()
    ([2, 3, 1, 8, 2], [1, 0, 1, 0, 0])
    """
    n = pos.shape[0]
    start = np.flatnonzero(np.concatenate(([True], pos[1:] != pos[:-1])))
    length = np.diff(np.append(start, n))
    pieces = -(-length // MAX_RUN)  # a run of L rows: ceil(L / MAX_RUN) pieces
    first = np.repeat(start, pieces) + MAX_RUN * (
        np.arange(pieces.sum()) - np.repeat(np.cumsum(pieces) - pieces, pieces)
    )
    sizes = np.diff(np.append(first, n))
    return sizes, (~pos[first]).astype(np.uint8)


def _tables(lam: float) -> tuple[np.ndarray, np.ndarray]:
    """Lookup tables (``MAX_RUN * 4096`` uint8, :data:`_MARK` at a step) and CDFs
    (``MAX_RUN x 64``) of ``Poisson(lam * size)`` for ``size = 1 .. MAX_RUN``."""
    k = np.arange(64, dtype=np.float64)
    log_factorial = np.concatenate(([0.0], np.cumsum(np.log(k[1:]))))
    rate = lam * np.arange(1, MAX_RUN + 1, dtype=np.float64)[:, None]
    cdf = np.minimum(np.cumsum(np.exp(-rate + k * np.log(rate) - log_factorial), axis=1), 1.0)
    cdf[:, -1] = 1.0
    u = np.arange(2**_BITS, dtype=np.float64) / 2**_BITS
    table = np.empty((MAX_RUN, 2**_BITS), dtype=np.uint8)
    for size in range(MAX_RUN):
        low = np.searchsorted(cdf[size], u, side="right")  # the count at the interval's start
        high = np.searchsorted(cdf[size], u + 2.0**-_BITS, side="left")  # ... and near its end
        table[size] = np.where(low == high, low, _MARK)
    return table.ravel(), cdf


def _poisson(rng, rows: int, sizes: np.ndarray, n: int, tables, cdf):
    """``rows`` x runs Poisson counts (uint8) with totals at most ``n`` (int64)."""
    u = rng.integers(0, 2**16, size=(rows, sizes.shape[0]), dtype=np.uint16)
    base = ((sizes - 1) << _BITS).astype(np.uint16)
    x = np.take(tables, (u >> (16 - _BITS)) | base)
    marked = np.flatnonzero(x == _MARK)
    if marked.size:
        fine = (u.ravel()[marked] + rng.random(marked.size)) * 2.0**-16
        size = sizes[marked % sizes.shape[0]]
        flat = x.reshape(-1)
        for s in np.unique(size):  # at most MAX_RUN rates
            at = size == s
            flat[marked[at]] = np.searchsorted(cdf[s - 1], fine[at], side="right")
    total = x.sum(axis=1, dtype=np.int64)
    over = np.flatnonzero(total > n)
    if over.size:
        x[over], total[over] = _poisson(rng, over.size, sizes, n, tables, cdf)
    return x, total


def run_counts(rng: np.random.Generator, rows: int, sizes: np.ndarray, tables=None) -> np.ndarray:
    """Draw counts of the runs in ``rows`` bootstrap resamples of ``sizes.sum()`` rows.

    Parameters
    ----------
    rng : numpy.random.Generator
    rows : int
        Resamples.
    sizes : ndarray of int64
        Rows of each run (1 to :data:`MAX_RUN`).
    tables : tuple, optional
        :func:`_tables` of this ``n`` (computed when not given).

    Returns
    -------
    ndarray of shape (rows, n_runs)
        Row ``r`` is ``Multinomial(n; sizes / n)``; uint8, or int64 if a count passes 255.

    Examples
    --------
    >>> c = run_counts(np.random.default_rng(0), 3, np.array([1, 2, 8] * 2000))
    >>> c.shape, c.sum(axis=1).tolist()
    ((3, 6000), [22000, 22000, 22000])
    """
    n, width = int(sizes.sum()), sizes.shape[0]
    lam = max(1.0 - SIGMAS / math.sqrt(n), 0.25)
    tables, cdf = _tables(lam) if tables is None else tables
    x, total = _poisson(rng, rows, sizes, n, tables, cdf)
    # the n - total draws still missing: uniform rows, each counted in its run
    run_of_row = np.repeat(np.arange(width, dtype=np.int64), sizes)
    flat = np.repeat(np.arange(rows, dtype=np.int64) * width, n - total)
    flat += run_of_row[rng.integers(0, n, size=flat.shape[0])]
    # one pass over the block's counts: cheaper than sorting the ~4 sqrt(n) draws a resample
    x = x.reshape(-1) + np.bincount(flat, minlength=rows * width)
    return (x if x.max() > 255 else x.astype(np.uint8)).reshape(rows, width)


def _auc(counts: np.ndarray, neg: np.ndarray, n: int):
    """ROC AUC of each resample from its run counts (runs in score order, no ties), and
    whether both classes were drawn."""
    negc = counts * neg
    acc = np.int32 if n < 2**31 else np.int64
    below = np.cumsum(negc, axis=1, dtype=acc)  # negatives drawn at or below each run
    u = np.einsum("ij,ij->i", counts - negc, below, dtype=np.int64)
    w_neg = below[:, -1].astype(np.int64)
    w_pos = n - w_neg
    both = (w_pos > 0) & (w_neg > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return u / (w_pos * w_neg.astype(np.float64)), both


def auc_run_bootstrap(pos: np.ndarray, n_resamples: int, rng: np.random.Generator) -> np.ndarray:
    """ROC AUC on ``n_resamples`` bootstrap resamples of rows in score order (no ties).

    A resample that drew one class only is drawn again (as :func:`metrics.bootstrap_ci`).

    Parameters
    ----------
    pos : ndarray of bool, shape (n,)
        Each row's class (True: positive), the rows sorted by a score without ties.
    n_resamples : int
    rng : numpy.random.Generator

    Returns
    -------
    ndarray of float64, shape (n_resamples,)

    Examples
    --------
    >>> pos = np.random.default_rng(1).random(5000) < np.linspace(0.1, 0.9, 5000)
    >>> d = auc_run_bootstrap(pos, 200, np.random.default_rng(0))
    >>> round(float(d.mean()), 2), bool(0.005 < d.std() < 0.01)
    (0.77, True)
    """
    sizes, neg = runs_of(pos)
    n = pos.shape[0]
    tables = _tables(max(1.0 - SIGMAS / math.sqrt(n), 0.25))
    per = max(1, BLOCK // sizes.shape[0])
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, per):  # blocks of resamples bound the memory
        rows = min(per, n_resamples - start)
        auc, both = _auc(run_counts(rng, rows, sizes, tables), neg, n)
        while not both.all():
            bad = np.flatnonzero(~both)
            auc[bad], both[bad] = _auc(run_counts(rng, bad.size, sizes, tables), neg, n)
        out[start : start + rows] = auc
    return out
