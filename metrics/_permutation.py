"""Permutation test of every group against the rest, for a metric of column sums.

Under the null hypothesis that a group's rows are like the rest's, the rows
are exchangeable: shuffling which rows carry which group code changes nothing
in law. The p-value of a group's difference ``finish(group sums) -
finish(rest sums)`` is then the share of shuffles whose difference is at least
as far from 0, counting the data's own: ``(1 + #|d_perm| >= |d_obs|) / (1 +
n_permutations)``, two-sided and valid at any size and any skew of the per-row
values, where the normal approximation's tail is too light (a lognormal's or a
Pareto's heavy right tail in a slice of 67 rows).

The same shuffles serve every group (and, with the same seed, every attribute):
one shuffle of the rows per permutation, each group's sums of it by one
``np.bincount`` over all groups at once.

Above ``PERMUTATION_CELLS`` rows times permutations the test runs on a seeded
subsample of the rows (:func:`subsample_rows`): as many rows of every group
as fit in the budget, the groups filled equally (a small group keeps all its
rows). The rows are picked by their group alone, never by their values, so
under the null hypothesis the picked rows are still exchangeable and the
permutation p-value on them keeps its level exactly, at any size and skew;
what the subsample costs is power (a group's gap is measured on fewer rows).
"""

from __future__ import annotations

import numpy as np

__all__ = ["PERMUTATION_CELLS", "permutation_p", "subsample_rows"]

#: Rows times permutations above which the pooled Wald test is used instead
#: (about 100 ns a cell: shuffle, gather and sum; 2e7 is 20,000 rows at 999 permutations).
PERMUTATION_CELLS = 2 * 10**7
#: Cells of one block of shuffles (bounds the index and value copies to about 64 MiB).
BLOCK_CELLS = 1 << 22


def permutation_p(
    stats, finish, codes, n_groups: int, n_permutations: int, seed, cache=None
) -> np.ndarray:
    """Two-sided permutation p-value of each group's value against its rest's.

    Parameters
    ----------
    stats : ndarray of shape (n_rows, m)
        Per-row statistics whose column sums ``finish`` turns into the metric.
    finish : callable
        Sums of shape ``(..., m)`` to values ``(...)`` (NaN where undefined).
    codes : ndarray of int of shape (n_rows,)
        Each row's group, ``0 .. n_groups - 1``.
    n_groups, n_permutations : int
    seed : int
        Of the shuffles: the same seed, the same shuffles for every grouping.
    cache : dict or None
        Keeps the shuffles between calls on the same rows (every grouping of
        :func:`metrics.worst_slices`): drawing them is most of the cost.

    Returns
    -------
    ndarray of shape (n_groups,)
        NaN where the group's or its rest's value is undefined.

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([0.0, 0, 0, 0, 1, 1, 1, 1])
    >>> stats = np.stack([v, np.ones(8)], axis=1)
    >>> finish = lambda t: t[..., 0] / t[..., 1]
    >>> p = permutation_p(stats, finish, np.repeat([0, 1], 4), 2, 999, 0)
    >>> bool(0.01 < p[0] < 0.05), bool(p[0] == p[1])
    (True, True)
    """
    n = stats.shape[0]
    total = stats.sum(axis=0)
    sums = _group_sums(stats, np.arange(n)[None, :], codes, n_groups)[0]
    # a constant column (the weights 1 of an unweighted mean) sums to the same per group
    # under every shuffle, which keeps the group sizes: only the others are shuffled
    vary = np.flatnonzero((stats != stats[:1]).any(axis=0))
    with np.errstate(divide="ignore", invalid="ignore"):
        observed = np.abs(finish(sums) - finish(total - sums))
    # the data's own difference, summed in another order, must count as "as far"
    bar = observed * (1.0 - 1e-9)
    exceed = np.zeros(n_groups, dtype=np.int64)
    for shuffled in _shuffles(n, n_permutations, seed, {} if cache is None else cache):
        s = np.broadcast_to(sums, (shuffled.shape[0], *sums.shape)).copy()
        s[:, :, vary] = _group_sums(stats[:, vary], shuffled, codes, n_groups)
        with np.errstate(divide="ignore", invalid="ignore"):
            d = np.abs(finish(s) - finish(total - s))
        exceed += (d >= bar).sum(axis=0)
    p = (1.0 + exceed) / (1.0 + n_permutations)
    return np.where(np.isfinite(observed), p, np.nan)


def _shuffles(n: int, n_permutations: int, seed, cache: dict) -> list:
    """Blocks of row orders, ``(b, n)`` each, drawn once per ``(n, n_permutations, seed)``."""
    key = (n, n_permutations, seed)
    if key not in cache:
        rng = np.random.default_rng(seed)
        index = np.arange(n, dtype=np.int32 if n < 2**31 else np.int64)
        per = max(1, BLOCK_CELLS // n)
        sizes = [min(per, n_permutations - start) for start in range(0, n_permutations, per)]
        cache[key] = [rng.permuted(np.broadcast_to(index, (b, n)), axis=1) for b in sizes]
    return cache[key]


def _group_sums(stats: np.ndarray, orders: np.ndarray, codes, n_groups: int) -> np.ndarray:
    """``out[k, g] = column sums of stats[orders[k]][codes == g]``: each group's sums
    with the rows in each of the orders ``(b, n_rows)``; one bincount per column over
    all orders, order ``k``'s codes offset by ``k * n_groups``."""
    b, m = orders.shape[0], stats.shape[1]
    flat = (codes + n_groups * np.arange(b)[:, None]).ravel()
    out = np.empty((b * n_groups, m))
    for j in range(m):  # a loop over the statistic's few columns, not over rows
        values = stats[:, j][orders].ravel()
        out[:, j] = np.bincount(flat, weights=values, minlength=b * n_groups)
    return out.reshape(b, n_groups, m)


def subsample_rows(codes: np.ndarray, n_groups: int, size: int, seed) -> np.ndarray:
    """Sorted indices of ``size`` rows, the groups filled equally, picked by a seeded draw.

    Each group gives ``min(its rows, q)`` rows, ``q`` the largest share that
    fits in ``size``; the rows left over go to rows of the larger groups
    drawn at random. The pick reads the group codes and the seed only, so a
    permutation test on the picked rows keeps its level.

    Parameters
    ----------
    codes : ndarray of int of shape (n_rows,)
    n_groups, size : int
    seed : int or sequence of int

    Returns
    -------
    ndarray of intp
        Every row when ``n_rows <= size``.

    Examples
    --------
    >>> import numpy as np
    >>> codes = np.repeat([0, 1, 2], [2, 50, 100])
    >>> rows = subsample_rows(codes, 3, 30, 0)
    >>> rows.size, np.bincount(codes[rows]).tolist()
    (30, [2, 14, 14])
    """
    n = codes.shape[0]
    if n <= size:
        return np.arange(n)
    count = np.bincount(codes, minlength=n_groups)
    low, high = 0, int(count.max())  # the largest q with sum(min(count, q)) <= size
    while low < high:  # a bisection over the share (about 20 steps), not over rows
        mid = (low + high + 1) // 2
        low, high = (mid, high) if np.minimum(count, mid).sum() <= size else (low, mid - 1)
    rng = np.random.default_rng(seed)
    shuffled = rng.permutation(n)
    # by group, in the shuffled order within a group (a radix sort for 16-bit codes)
    key = codes[shuffled].astype(np.uint16) if n_groups <= 1 << 16 else codes[shuffled]
    order = shuffled[np.argsort(key, kind="stable")]
    start = np.concatenate(([0], np.cumsum(count)[:-1]))
    rank = np.arange(n) - start[codes[order]]
    taken, others = order[rank < low], order[rank >= low]
    extra = size - taken.size
    if extra > 0:
        taken = np.concatenate((taken, rng.choice(others, extra, replace=False)))
    return np.sort(taken)
