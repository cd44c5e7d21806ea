"""Bootstrap draw counts: how often each of ``n`` rows is drawn in ``n`` draws with replacement.

A nonparametric bootstrap resample of ``n`` rows is, for a metric that only
depends on how often each row was drawn (ROC AUC, average precision), a
vector of counts ``c`` with ``c ~ Multinomial(n; 1/n, ..., 1/n)``.
:func:`draw_counts` draws such vectors exactly, one per row of a matrix, in
one of two ways:

* ``n < POISSON_MIN_ROWS``: ``n`` uniform indices per resample
  (``Generator.integers``, uint32) and their ``np.bincount``;
* otherwise **Poisson, then completion**: draw ``X_t ~ Poisson(lam)``
  independently for every row ``t``, with ``lam = 1 - SIGMAS / sqrt(n)``
  slightly below 1, so that the total ``S = sum X_t`` exceeds ``n`` with
  probability about ``P(Z > SIGMAS)`` (3e-5); such a resample is drawn
  again. Then add ``n - S`` uniform draws (``np.unique`` of a few thousand
  indices). This is exact: given ``S = s``, independent Poisson counts of
  equal rate are ``Multinomial(s; 1/n, ...)`` (for any rate), and ``n - s``
  further uniform draws make them ``Multinomial(n; 1/n, ...)``; rejecting
  ``S > n`` only conditions on ``s``.

The Poisson counts come from a table lookup by inversion: 16 random bits
``u`` (``Generator.integers`` over the whole uint16 range: raw bits, whatever
the bit generator) index a table of the count ``k`` with
``cdf[k-1] <= U < cdf[k]`` for every ``U`` in ``[u, u + 1) / 2^16``; the few
``u`` (about 10 of 65536) whose interval straddles a step of the CDF are
marked, and those rows get a uniform fraction (``Generator.random``, 53 bits)
and ``np.searchsorted`` on the CDF. The counts are thus exact to the
float64 rounding of the Poisson probabilities, the precision at which numpy's
own ``Generator.poisson`` and ``Generator.multinomial`` work. It costs about
2 ns per row and resample against about 5 ns for uniform indices and
``np.bincount`` (whose scattered increments into ``n`` cells miss the cache),
and no per-resample Python code: every step runs on the whole matrix.

Reproducibility: the counts are a function of the generator's state, ``rows``
and ``n``; the same seed gives the same counts on every run.
"""

from __future__ import annotations

import functools
import math

import numpy as np

#: From this many rows on, counts are Poisson draws completed to ``n`` (else uniform indices).
POISSON_MIN_ROWS = 4096
#: The Poisson rate is ``1 - SIGMAS / sqrt(n)``: a resample overshoots ``n`` with probability
#: about ``P(Z > SIGMAS)`` and is drawn again; about ``SIGMAS * sqrt(n)`` draws complete it.
SIGMAS = 4.0
_BITS = 16
_MARK = 255  # a table entry whose 2^-16 interval straddles a step of the CDF


@functools.lru_cache(maxsize=32)
def _poisson_table(lam: float) -> tuple[np.ndarray, np.ndarray]:
    """``(table, cdf)`` of Poisson(``lam``): ``table[u]`` (uint8) is the count of every
    ``U`` in ``[u, u + 1) / 2^16`` (:data:`_MARK` where that interval holds a step).

    Examples
    --------
    >>> table, cdf = _poisson_table(1.0)
    >>> int(table[0]), int(table[-1]) > 5, round(float(cdf[0]), 6)
    (0, True, 0.367879)
    """
    k = np.arange(64, dtype=np.float64)
    log_factorial = np.concatenate(([0.0], np.cumsum(np.log(k[1:]))))
    cdf = np.cumsum(np.exp(-lam + k * math.log(lam) - log_factorial))
    cdf = np.minimum(cdf, 1.0)
    cdf[-1] = 1.0
    u = np.arange(2**_BITS, dtype=np.float64)
    low = np.searchsorted(cdf, u / 2**_BITS, side="right")
    high = np.searchsorted(cdf, (u + 1.0) / 2**_BITS, side="left")
    table = np.where(low == high, low, _MARK).astype(np.uint8)
    return table, cdf


def _poisson_counts(rng: np.random.Generator, rows: int, n: int, lam: float):
    """``rows`` x ``n`` independent Poisson(``lam``) counts (uint8) and their row sums
    (int64), each at most ``n`` (a row above is drawn again)."""
    table, cdf = _poisson_table(lam)
    size = rows * n
    u = rng.integers(0, 2**_BITS, size=size, dtype=np.uint16)
    x = np.take(table, u)
    marked = np.flatnonzero(x == _MARK)
    if marked.size:
        frac = rng.random(marked.size)
        x[marked] = np.searchsorted(cdf, (u[marked] + frac) * 2.0**-_BITS, side="right")
    x = x.reshape(rows, n)
    total = x.sum(axis=1, dtype=np.int64)
    over = np.flatnonzero(total > n)
    if over.size:
        x[over], total[over] = _poisson_counts(rng, over.size, n, lam)
    return x, total


def _uniform_counts(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """``np.bincount`` of ``n`` uniform indices per row (int64)."""
    dtype = np.uint32 if rows * n < 2**32 else np.int64
    keys = rng.integers(0, n, size=(rows, n), dtype=dtype)
    keys += np.arange(0, rows * n, n, dtype=dtype)[:, None]
    return np.bincount(keys.ravel(), minlength=rows * n).reshape(rows, n)


def draw_counts(rng: np.random.Generator, rows: int, n: int) -> np.ndarray:
    """Draw counts of ``rows`` bootstrap resamples of ``n`` rows: row ``r`` is
    ``Multinomial(n; 1/n, ..., 1/n)`` (how often each row is drawn), independently.

    Parameters
    ----------
    rng : numpy.random.Generator
    rows : int
        Resamples.
    n : int
        Rows of the data (draws per resample).

    Returns
    -------
    ndarray of shape (rows, n)
        uint8 (int64 in the astronomically unlikely case of a count above 255 with
        ``n > 255``); every row sums to ``n``.

    Examples
    --------
    >>> import numpy as np
    >>> c = draw_counts(np.random.default_rng(0), 3, 5000)
    >>> c.shape, c.dtype, c.sum(axis=1).tolist()
    ((3, 5000), dtype('uint8'), [5000, 5000, 5000])
    """
    if n < POISSON_MIN_ROWS:
        counts = _uniform_counts(rng, rows, n)
        return counts.astype(np.uint8) if n <= 255 or counts.max() <= 255 else counts
    lam = max(1.0 - SIGMAS / math.sqrt(n), 0.25)
    x, total = _poisson_counts(rng, rows, n, lam)
    missing = n - total
    flat = np.repeat(np.arange(rows, dtype=np.int64) * n, missing)
    flat += rng.integers(0, n, size=flat.shape[0])
    cells, extra = np.unique(flat, return_counts=True)
    x = x.reshape(-1)
    new = x[cells] + extra
    if new.size and new.max() > 255:
        x = x.astype(np.int64)
    x[cells] = new
    return x.reshape(rows, n)
