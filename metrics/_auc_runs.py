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

Tied scores (:func:`tied_runs`): the rows of a tie block that holds both
classes are ordered negatives first, and its negatives and its positives are
runs of their own (a run never crosses into or out of such a block); a
resample's pairs tied in a block count one half, from the two runs' draw
counts. Scores rounded in a file (six decimals, 10^6 rows) tie in almost
every group of a few thousand rows, which before took one count per row.
"""

from __future__ import annotations

import math

import numpy as np

from metrics._resample import SIGMAS

__all__ = ["MAX_RUN", "auc_run_bootstrap", "run_counts", "runs_of", "tied_runs"]

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
    start = np.concatenate(([True], pos[1:] != pos[:-1]))
    sizes, first = _pieces(start)
    return sizes, (~pos[first]).astype(np.uint8)


def tied_runs(pos: np.ndarray, block: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(sizes, negative, tied)`` of the runs of rows in score order, negatives first
    among tied rows (``block``: each row's tie block, nondecreasing). The negatives and
    the positives of a block holding both classes are runs of their own; ``tied``: one
    row per such block, the indices of its first negative piece, its first positive
    piece and the piece after its last.

    Examples
    --------
    >>> pos = np.array([0, 1, 0, 1, 1, 1, 0, 0], dtype=bool)  # scores 1 1 2 2 2 3 4 4
    >>> sizes, neg, tied = tied_runs(pos, np.array([0, 0, 1, 1, 1, 2, 3, 3]))
    >>> sizes.tolist(), neg.tolist(), tied.tolist()
    ([1, 1, 1, 2, 1, 2], [1, 0, 1, 0, 0, 1], [[0, 1, 2], [2, 3, 4]])
    """
    n = pos.shape[0]
    opens = np.concatenate(([True], block[1:] != block[:-1]))
    head = np.flatnonzero(opens)
    length = np.diff(np.append(head, n))
    positives = np.add.reduceat(pos.astype(np.int64), head)
    both = (positives > 0) & (positives < length)
    mixed = np.repeat(both, length)
    start = opens & (mixed | np.concatenate(([True], mixed[:-1])))  # into or out of one
    start |= np.concatenate(([True], pos[1:] != pos[:-1]))
    sizes, first = _pieces(start)
    rows = np.stack(
        [head[both], head[both] + length[both] - positives[both], (head + length)[both]]
    )
    tied = np.searchsorted(first, rows.T.reshape(-1)).reshape(-1, 3)
    return sizes, (~pos[first]).astype(np.uint8), tied


def _pieces(start: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(sizes, first rows)`` of the runs opened where ``start`` is True, each cut into
    pieces of at most :data:`MAX_RUN` rows."""
    n = start.shape[0]
    head = np.flatnonzero(start)
    length = np.diff(np.append(head, n))
    pieces = -(-length // MAX_RUN)  # a run of L rows: ceil(L / MAX_RUN) pieces
    first = np.repeat(head, pieces) + MAX_RUN * (
        np.arange(pieces.sum()) - np.repeat(np.cumsum(pieces) - pieces, pieces)
    )
    return np.diff(np.append(first, n)), first


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


def _auc(counts: np.ndarray, neg: np.ndarray, n: int, tied: np.ndarray | None = None):
    """ROC AUC of each resample from its run counts (runs in score order; ``tied``: the
    blocks of tied runs, :func:`tied_runs`), and whether both classes were drawn."""
    negc = counts * neg
    acc = np.int32 if n < 2**31 else np.int64
    below = np.cumsum(negc, axis=1, dtype=acc)  # negatives drawn at or below each run
    u = np.einsum("ij,ij->i", counts - negc, below, dtype=np.int64)
    if tied is not None and tied.shape[0]:
        # a positive run of a tied block counted its block's negatives as below: half of
        # those pairs are ties. Each block's negatives' and positives' draws, summed over
        # their pieces' columns alone (few: a cumulative sum of every column cost more).
        columns, starts = _tied_columns(tied)
        drawn = np.add.reduceat(counts[:, columns].astype(np.int64), starts, axis=1)
        u = u - (drawn[:, 0::2] * drawn[:, 1::2]).sum(axis=1) / 2.0
    w_neg = below[:, -1].astype(np.int64)
    w_pos = n - w_neg
    both = (w_pos > 0) & (w_neg > 0)
    with np.errstate(divide="ignore", invalid="ignore"):
        return u / (w_pos * w_neg.astype(np.float64)), both


def _tied_columns(tied: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The pieces of the tied blocks (``tied``'s rows: first negative piece, first
    positive piece, the piece after), in order, and where each block's negatives and
    each block's positives start among them.

    Examples
    --------
    >>> columns, starts = _tied_columns(np.array([[0, 1, 2], [4, 6, 7]]))
    >>> columns.tolist(), starts.tolist()
    ([0, 1, 4, 5, 6], [0, 1, 2, 4])
    """
    a, b, c = tied.T
    width = c - a
    offset = np.cumsum(width) - width
    columns = np.repeat(a - offset, width) + np.arange(width.sum())
    return columns, np.stack([offset, offset + b - a], axis=1).reshape(-1)


def auc_run_bootstrap(
    pos: np.ndarray,
    n_resamples: int,
    rng: np.random.Generator,
    block: np.ndarray | None = None,
    runs: tuple | None = None,
) -> np.ndarray:
    """ROC AUC on ``n_resamples`` bootstrap resamples of rows in score order.

    A resample that drew one class only is drawn again (as :func:`metrics.bootstrap_ci`).

    Parameters
    ----------
    pos : ndarray of bool, shape (n,)
        Each row's class (True: positive), the rows sorted by score (negatives first
        among tied scores).
    n_resamples : int
    rng : numpy.random.Generator
    block : ndarray of int, shape (n,), optional
        Each row's tie block (nondecreasing); None: no tied scores.
    runs : tuple, optional
        ``(sizes, negative, tied)`` of ``pos`` (:func:`runs_of` with None, or
        :func:`tied_runs`), when the caller holds them (made once for all the chunks
        of a group's resamples).

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
    if runs is None:
        runs = (*runs_of(pos), None) if block is None else tied_runs(pos, block)
    sizes, neg, tied = runs
    n = pos.shape[0]
    tables = _tables(max(1.0 - SIGMAS / math.sqrt(n), 0.25))
    per = max(1, BLOCK // sizes.shape[0])
    out = np.empty(n_resamples)
    for start in range(0, n_resamples, per):  # blocks of resamples bound the memory
        rows = min(per, n_resamples - start)
        auc, both = _auc(run_counts(rng, rows, sizes, tables), neg, n, tied)
        while not both.all():
            bad = np.flatnonzero(~both)
            auc[bad], both[bad] = _auc(run_counts(rng, bad.size, sizes, tables), neg, n, tied)
        out[start : start + rows] = auc
    return out
