"""Vectorized rank primitives shared by every ranking metric.

All functions work row-wise on a 2-D score matrix (samples x labels) with a
single sort of the matrix and cumulative operations, never a Python loop over
rows (:func:`apply_by_row_chunks` runs a kernel over cache-sized blocks of
rows, each block vectorized, the blocks shared by two threads through
:func:`map_blocks`). A 1-D vector can be passed as a ``(1, n)`` matrix.

Vocabulary
----------
descending order
    the label indices of a row sorted by score, highest first.
tie block (tie group)
    a maximal run of equal scores in that order. ``first`` and ``last`` give,
    for each sorted position, the 0-based positions where its block starts
    and ends.
max rank
    the number of labels with a score >= this label's score, i.e. ties take
    the *maximal* rank (scikit-learn's coverage and LRAP).
mid rank
    the average of the positions a tie block occupies (Mann-Whitney, AUC).
"""

from __future__ import annotations

import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import NamedTuple

import numpy as np

from metrics._runs import run_start_mask, runs_from_mask

__all__ = [
    "ROW_CHUNK_ELEMENTS",
    "TieBlocks",
    "apply_by_row_chunks",
    "ascending_flat_order",
    "ascending_tie_blocks",
    "block_start_of",
    "block_sums",
    "descending_order",
    "flat_tie_blocks",
    "keyed_descending_order",
    "map_blocks",
    "max_rank",
    "mid_rank",
    "row_chunks",
    "scatter_back",
    "sklearn_ignore_ties_order",
    "tie_bounds",
    "top_k_order",
]


def descending_order(scores: np.ndarray, *, stable: bool = False) -> tuple[np.ndarray, np.ndarray]:
    """Sort every row by descending score.

    Parameters
    ----------
    scores : ndarray of shape (n_samples, n_labels)
    stable : bool, default False
        With True, tied scores keep column order (lower column first), which
        is the Top-K tie rule of the contract. Metrics that only depend on
        tie *blocks* (max rank, tie averaging) pass False: the default sort
        is several times faster and any order inside a block gives the same
        block.

    Returns
    -------
    order : ndarray of int, shape (n_samples, n_labels)
        Column indices, highest score first.
    sorted_scores : ndarray of shape (n_samples, n_labels)

    Examples
    --------
    >>> import numpy as np
    >>> order, s = descending_order(np.array([[0.2, 0.9, 0.2]]), stable=True)
    >>> order.tolist(), s.tolist()
    ([[1, 0, 2]], [[0.9, 0.2, 0.2]])
    """
    order = np.argsort(-scores, axis=1, kind="stable" if stable else None)
    return order, np.take_along_axis(scores, order, axis=1)


def tie_bounds(sorted_scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """First and last sorted position of the tie block of each position.

    Parameters
    ----------
    sorted_scores : ndarray of shape (n_samples, n_labels)
        Rows sorted (either direction).

    Returns
    -------
    first, last : ndarray of int, shape (n_samples, n_labels)

    Examples
    --------
    >>> import numpy as np
    >>> first, last = tie_bounds(np.array([[9.0, 5.0, 5.0, 1.0]]))
    >>> first.tolist(), last.tolist()
    ([[0, 1, 1, 3]], [[0, 2, 2, 3]])
    """
    n, m = sorted_scores.shape
    pos = np.arange(m)
    change = sorted_scores[:, 1:] != sorted_scores[:, :-1]
    is_first = np.ones((n, m), dtype=bool)
    is_first[:, 1:] = change
    is_last = np.ones((n, m), dtype=bool)
    is_last[:, :-1] = change
    first = np.maximum.accumulate(np.where(is_first, pos, 0), axis=1)
    last = np.minimum.accumulate(np.where(is_last, pos, m - 1)[:, ::-1], axis=1)[:, ::-1]
    return first, last


def block_sums(sorted_values: np.ndarray, first: np.ndarray, last: np.ndarray) -> np.ndarray:
    """Sum of ``sorted_values`` over the tie block of each position.

    Examples
    --------
    >>> import numpy as np
    >>> v = np.array([[10.0, 1.0, 5.0]])
    >>> block_sums(v, np.array([[0, 1, 1]]), np.array([[0, 2, 2]])).tolist()
    [[10.0, 6.0, 6.0]]
    """
    n = sorted_values.shape[0]
    csum = np.zeros((n, sorted_values.shape[1] + 1), dtype=np.float64)
    np.cumsum(sorted_values, axis=1, out=csum[:, 1:])
    return np.take_along_axis(csum, last + 1, axis=1) - np.take_along_axis(csum, first, axis=1)


def scatter_back(order: np.ndarray, sorted_values: np.ndarray) -> np.ndarray:
    """Put per-position values back in the original column order.

    Examples
    --------
    >>> import numpy as np
    >>> scatter_back(np.array([[2, 0, 1]]), np.array([[1, 2, 3]])).tolist()
    [[2, 3, 1]]
    """
    out = np.empty_like(sorted_values)
    np.put_along_axis(out, order, sorted_values, axis=1)
    return out


def max_rank(scores: np.ndarray) -> np.ndarray:
    """Rank of each label within its row, ties at the maximal rank.

    ``max_rank[i, j] = |{k : scores[i, k] >= scores[i, j]}|`` (1 = best).

    Examples
    --------
    >>> import numpy as np
    >>> max_rank(np.array([[0.75, 0.5, 1.0], [0.3, 0.3, 0.1]])).tolist()
    [[2, 3, 1], [2, 2, 3]]
    """
    order, sorted_scores = descending_order(scores)
    _, last = tie_bounds(sorted_scores)
    return scatter_back(order, last + 1)


def mid_rank(values: np.ndarray) -> np.ndarray:
    """Ascending ranks of a 1-D vector, ties at the mean of their positions.

    The ranks of the Mann-Whitney rank-sum formula (scipy's
    ``rankdata(method="average")``).

    Examples
    --------
    >>> import numpy as np
    >>> mid_rank(np.array([0.1, 0.4, 0.4, 0.9])).tolist()
    [1.0, 2.5, 2.5, 4.0]
    """
    values = np.asarray(values, dtype=np.float64)
    order = np.argsort(values, kind="stable")
    s = values[order][None, :]
    first, last = tie_bounds(s)
    ranks = np.empty(values.shape[0], dtype=np.float64)
    ranks[order] = (first[0] + last[0]) / 2.0 + 1.0
    return ranks


def top_k_order(scores: np.ndarray, k: int | None = None) -> np.ndarray:
    """Column indices of the top ``k`` labels of each row, ties in column order.

    The contract's Top-K tie rule: a stable sort on descending score, so
    among tied scores the lower column comes first. ``k=None`` or ``k`` past
    the number of columns returns the whole order.

    Examples
    --------
    >>> import numpy as np
    >>> top_k_order(np.array([[0.5, 0.9, 0.5, 0.1]]), 3).tolist()
    [[1, 0, 2]]
    """
    order = np.argsort(-scores, axis=1, kind="stable")
    return order if k is None else order[:, :k]


def sklearn_ignore_ties_order(scores: np.ndarray) -> np.ndarray:
    """The order ``dcg_score(..., ignore_ties=True)`` uses: stable ascending, reversed.

    Among tied scores the *higher* column comes first, which is how the
    scikit-learn docstring example of ``dcg_score`` gets 5.0. The opposite of
    :func:`top_k_order`'s tie rule; both are part of the contract.

    Examples
    --------
    >>> import numpy as np
    >>> sklearn_ignore_ties_order(np.array([[1.0, 0.0, 0.0, 0.0, 1.0]])).tolist()
    [[4, 0, 3, 2, 1]]
    """
    return keyed_descending_order(scores, ties="higher_first")


_MAGNITUDE = np.int64(0x7FFF_FFFF_FFFF_FFFF)


def keyed_descending_order(
    scores: np.ndarray, *, ties: str = "lower_first", flat: bool = False
) -> np.ndarray:
    """Every row by descending score, tied columns in a fixed order, without a stable sort.

    Equal to ``np.argsort(-scores, axis=1, kind="stable")`` (``ties=
    "lower_first"``) or ``np.argsort(scores, axis=1, kind="stable")[:, ::-1]``
    (``ties="higher_first"``), several times faster: one default sort of
    int64 keys that hold the score's order in their high bits and the column
    in their low bits, so every key of a row is distinct and the sort needs
    no stability; the column is read back from the sorted keys.

    The float's bits, with the magnitude bits of negatives flipped, order
    like the float (``-0.0`` is made ``+0.0`` first); inverting them orders
    by descending score. Clearing the low ``b`` bits (``2**b >= n_items``)
    for the column can merge two *different* scores of a row whose bits
    differ only there; the merged pair may then come out of order, which
    the check below sees (a sorted row whose scores increase somewhere) and
    such rows are ranked again with a stable argsort. Equal scores always
    share their high bits, so they come out in column order.

    Parameters
    ----------
    scores : ndarray of float64, shape (n_samples, n_items)
        Finite scores, C-contiguous when ``flat=True``.
    ties : {"lower_first", "higher_first"}
        Which column of a tie comes first.
    flat : bool, default False
        Return indices into ``scores.ravel()`` (row ``i``'s columns plus
        ``i * n_items``), ready for a fast ``np.take`` of another matrix of
        the same shape.

    Returns
    -------
    ndarray of int64, shape (n_samples, n_items)

    Examples
    --------
    >>> import numpy as np
    >>> s = np.array([[0.5, 0.9, 0.5, -0.0, 0.0]])
    >>> keyed_descending_order(s).tolist()
    [[1, 0, 2, 3, 4]]
    >>> keyed_descending_order(s, ties="higher_first").tolist()
    [[1, 2, 0, 4, 3]]
    """
    if ties not in ("lower_first", "higher_first"):
        raise ValueError(f"ties must be 'lower_first' or 'higher_first', got {ties!r}")
    m = scores.shape[1]
    bits = max(int(m - 1).bit_length(), 1)
    low = np.int64((1 << bits) - 1)
    scores = np.ascontiguousarray(scores, dtype=np.float64)
    key = scores + 0.0  # a copy in which -0.0 is +0.0
    u = key.view(np.int64)
    u ^= (u >> 63) & _MAGNITUDE  # ordered like the float
    u &= ~low
    column = np.arange(m, dtype=np.int64)
    u |= (low - column) if ties == "lower_first" else column
    np.invert(u, out=u)  # descending score, then the tie rule's column order
    u.sort(axis=1)
    u &= low
    if ties == "higher_first":
        # the column bits were inverted with the key: read them back
        np.subtract(low, u, out=u)
    starts = np.arange(0, scores.size, m)[:, None]
    u += starts  # flat indices: a flat gather is faster than take_along_axis
    ranked = np.take(scores.ravel(), u)
    increases = np.greater(ranked[:, 1:], ranked[:, :-1])
    if increases.any():
        bad = increases.any(axis=1)
        again = scores[bad]
        if ties == "lower_first":
            u[bad] = np.argsort(-again, axis=1, kind="stable") + starts[bad]
        else:
            u[bad] = np.argsort(again, axis=1, kind="stable")[:, ::-1] + starts[bad]
    if not flat:
        u -= starts
    return u


def ascending_flat_order(scores: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """One unstable ascending sort of every row, as flat indices, and the tie-block starts.

    The order of tied labels is whatever the fast default ``argsort`` gives:
    use this only for quantities that depend on tie *blocks*, not on the
    order inside them (max ranks, per-block sums, tie averaging).

    Parameters
    ----------
    scores : ndarray of shape (n_samples, n_labels)

    Returns
    -------
    flat : ndarray of int, shape (n_samples * n_labels,)
        ``scores.ravel()[flat]`` lists row 0 in ascending order, then row 1...
        (the argsort of each row, shifted by ``row * n_labels``).
    is_start : ndarray of bool, shape (n_samples * n_labels,)
        True where a tie block starts in that flat order (every row start
        is a block start: a block never spans two rows).

    Examples
    --------
    >>> import numpy as np
    >>> flat, is_start = ascending_flat_order(np.array([[0.5, 0.9, 0.5], [1.0, 1.0, 0.0]]))
    >>> np.array([[0.5, 0.9, 0.5], [1.0, 1.0, 0.0]]).ravel()[flat].tolist()
    [0.5, 0.5, 0.9, 0.0, 1.0, 1.0]
    >>> is_start.tolist()
    [True, False, True, True, True, False]
    """
    n, m = scores.shape
    flat = np.argsort(scores, axis=1)
    flat += np.arange(0, n * m, m)[:, None]  # row-wise positions -> flat indices, in place
    flat = flat.ravel()
    ordered = scores.ravel()[flat]
    is_start = run_start_mask(ordered)
    is_start[::m] = True  # a block never spans two rows
    return flat, is_start


def ascending_of_descending(descending: np.ndarray, scores: np.ndarray):
    """:func:`ascending_flat_order`'s ``(flat, is_start)`` from a descending flat order.

    ``descending`` (:func:`keyed_descending_order` with ``flat=True``) read
    backwards row by row is an ascending order of the same scores, so one sort
    serves the top-K metrics and the tie-block ones (DCG with ties averaged,
    the label ranking metrics), which do not read the order inside a tie block.

    Examples
    --------
    >>> import numpy as np
    >>> s = np.array([[0.5, 0.9, 0.5], [1.0, 1.0, 0.0]])
    >>> flat, is_start = ascending_of_descending(keyed_descending_order(s, flat=True), s)
    >>> s.ravel()[flat].tolist(), is_start.tolist()
    ([0.5, 0.5, 0.9, 0.0, 1.0, 1.0], [True, False, True, True, True, False])
    """
    m = scores.shape[1]
    flat = descending[:, ::-1].ravel()  # a copy, row by row
    is_start = run_start_mask(scores.ravel()[flat])
    is_start[::m] = True  # a block never spans two rows
    return flat, is_start


class TieBlocks(NamedTuple):
    """The tie blocks of every row of a score matrix, in one flat list.

    Blocks are listed row by row and, inside a row, by *ascending* score.
    For a row of ``n_labels`` scores, the block holding positions
    ``first .. first + size - 1`` of the ascending order holds positions
    ``n_labels - first - size .. n_labels - first - 1`` (0-based) of the
    descending order, and its labels have the max rank ``n_labels - first``
    (the number of labels scoring at least as high).

    Attributes
    ----------
    row : ndarray of int, shape (n_blocks,)
        Row (sample) of each block; every row has at least one block.
    first : ndarray of int, shape (n_blocks,)
        0-based position of the block's first label in the ascending order
        of its row (= the number of labels of the row that score lower).
    size : ndarray of int, shape (n_blocks,)
        Number of tied labels in the block.
    sums : ndarray of float, shape (n_blocks,), or None
        Sum of the carried values over the labels of the block.
    """

    row: np.ndarray
    first: np.ndarray
    size: np.ndarray
    sums: np.ndarray | None


def flat_tie_blocks(
    is_start: np.ndarray, n_labels: int, sorted_values: np.ndarray | None = None
) -> TieBlocks:
    """The tie blocks described by ``is_start`` (see :func:`ascending_flat_order`).

    Parameters
    ----------
    is_start : ndarray of bool, shape (n_samples * n_labels,)
    n_labels : int
    sorted_values : ndarray, shape (n_samples * n_labels,), optional
        Values already in the flat sorted order (``values.ravel()[flat]``),
        summed per block in float64 with ``np.add.reduceat``.

    Returns
    -------
    TieBlocks

    Examples
    --------
    >>> import numpy as np
    >>> b = flat_tie_blocks(np.array([True, False, True, True]), 2, np.array([1, 1, 0, 5]))
    >>> b.row.tolist(), b.first.tolist(), b.size.tolist(), b.sums.tolist()
    ([0, 1, 1], [0, 0, 1], [2, 1, 1], [2.0, 0.0, 5.0])
    """
    starts, size = runs_from_mask(is_start)
    row = starts // n_labels
    first = starts - row * n_labels
    sums = None
    if sorted_values is not None:
        sums = np.add.reduceat(sorted_values, starts, dtype=np.float64)
    return TieBlocks(row, first, size, sums)


def ascending_tie_blocks(scores: np.ndarray, values: np.ndarray | None = None) -> TieBlocks:
    """Tie blocks of every row and per-block sums of ``values``, from one sort.

    One unstable ascending ``argsort`` of the whole matrix
    (:func:`ascending_flat_order`), one gather of ``values`` through the flat
    indices, then the block starts (``np.flatnonzero``) and
    ``np.add.reduceat`` (:func:`flat_tie_blocks`). Nothing depends on the
    order *inside* a block. LRAP, ranking loss and tie-averaged DCG use these
    two steps on heavily tied scores: their per-row values are sums over tie
    blocks of a function of (``first``, ``size``, ``sums``), reduced per row
    with ``np.bincount(row, weights=...)``; with few distinct scores per row
    the block list is much shorter than the matrix.

    Parameters
    ----------
    scores : ndarray of shape (n_samples, n_labels)
        Finite scores.
    values : ndarray of shape (n_samples, n_labels), optional
        Values carried along the sort and summed per block (labels, gains);
        any numeric or boolean dtype, summed in float64.

    Returns
    -------
    TieBlocks
        ``row``, ``first``, ``size`` and ``sums`` (None without ``values``).

    Examples
    --------
    >>> import numpy as np
    >>> s = np.array([[0.5, 0.9, 0.5, 0.1], [2.0, 2.0, 2.0, 2.0]])
    >>> v = np.array([[1, 0, 1, 1], [1, 0, 0, 1]], dtype=bool)
    >>> b = ascending_tie_blocks(s, v)
    >>> b.row.tolist(), b.first.tolist(), b.size.tolist(), b.sums.tolist()
    ([0, 0, 0, 1], [0, 1, 3, 0], [1, 2, 1, 4], [1.0, 2.0, 0.0, 2.0])
    """
    flat, is_start = ascending_flat_order(scores)
    sorted_values = None if values is None else values.ravel()[flat]
    return flat_tie_blocks(is_start, scores.shape[1], sorted_values)


def block_start_of(is_start: np.ndarray) -> np.ndarray:
    """For every flat position, the flat position where its tie block starts.

    Examples
    --------
    >>> import numpy as np
    >>> block_start_of(np.array([True, False, False, True, False])).tolist()
    [0, 0, 0, 3, 3]
    """
    size = is_start.shape[0]
    dtype = np.int32 if size < 2**31 else np.int64
    start_of = np.where(is_start, np.arange(size, dtype=dtype), dtype(0))
    np.maximum.accumulate(start_of, out=start_of)
    return start_of


#: Entries per block of rows in :func:`apply_by_row_chunks` (2**17 float64 = 1 MiB).
ROW_CHUNK_ELEMENTS = 1 << 17


def row_chunks(n_rows: int, n_cols: int, *, max_elements: int | None = None) -> list[slice]:
    """Split the rows of an ``(n_rows, n_cols)`` matrix into cache-sized blocks.

    Each block holds about ``max_elements`` entries (default
    :data:`ROW_CHUNK_ELEMENTS`) and at least one row.

    Examples
    --------
    >>> row_chunks(5, 40_000, max_elements=1 << 17)
    [slice(0, 3, None), slice(3, 5, None)]
    >>> row_chunks(10, 3)
    [slice(0, 10, None)]
    """
    if max_elements is None:
        max_elements = ROW_CHUNK_ELEMENTS
    step = max(1, max_elements // max(n_cols, 1))
    return list(map(slice, range(0, n_rows, step), [*range(step, n_rows, step), n_rows]))


def _thread_count() -> int:
    """Threads for :func:`map_blocks`: ``METRICS_THREADS`` if set, else up to 2 cores."""
    raw = os.environ.get("METRICS_THREADS", "")
    if raw.strip().isdigit() and int(raw) >= 1:
        return int(raw)
    return min(2, os.cpu_count() or 1)


#: Threads that share the blocks of :func:`map_blocks` (numpy releases the GIL
#: inside its sorts, gathers, running sums and element-wise loops, so two blocks
#: of rows run at once on two cores). ``METRICS_THREADS=1`` runs every block in
#: the caller's thread; tests set :data:`WORKERS` to compare the two.
WORKERS = _thread_count()
_POOL: tuple[int, dict[int, ThreadPoolExecutor]] | None = None  # (its size, pool by nice value)
_POOL_LOCK = threading.Lock()
_IN_POOL = threading.local()


def _nice() -> int:
    """This thread's nice value: its own on Linux (where a thread may have lowered
    its priority), the process's elsewhere."""
    try:
        if sys.platform == "linux":
            return os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        return os.getpriority(os.PRIO_PROCESS, 0)
    except (OSError, AttributeError):  # AttributeError: no getpriority (Windows)
        return 0


def _pool() -> ThreadPoolExecutor:
    """The shared pool of :data:`WORKERS` threads for this thread's nice value, made on
    first use: blocks run at the priority of the thread that asked for them (a low
    priority caller's blocks do not take cores at the default one). A pool's threads
    are started by its callers as blocks come, so they inherit the callers' value."""
    global _POOL
    nice = _nice()
    with _POOL_LOCK:
        if _POOL is None or _POOL[0] != WORKERS:  # first use, or WORKERS was changed
            for pool in _POOL[1].values() if _POOL is not None else ():
                pool.shutdown(wait=False)
            _POOL = (WORKERS, {})
        pools = _POOL[1]
        if nice not in pools:
            pools[nice] = ThreadPoolExecutor(
                max_workers=WORKERS, thread_name_prefix="metrics-blocks"
            )
        return pools[nice]


_WORKER_CPU = threading.local()  # per calling thread: CPU seconds its blocks took in the pool


def worker_seconds() -> float:
    """CPU seconds that :func:`map_blocks` calls made from this thread have spent in
    the pool's threads so far (``time.thread_time`` does not see them); 0 when every
    block ran in the caller's thread. A caller that meters its thread's CPU adds this.

    Parameters
    ----------
    None

    Returns
    -------
    float
        CPU seconds, summed over the pool's threads, of this thread's calls.

    Examples
    --------
    >>> before = worker_seconds()
    >>> _ = map_blocks(lambda b: sum(range(b)), [10**5] * 4)
    >>> worker_seconds() > before or WORKERS == 1  # one worker: no pool, nothing to add
    True
    """
    return getattr(_WORKER_CPU, "seconds", 0.0)


def _in_pool(func, item):
    """``(func(item), its exception or None, this worker's CPU seconds on it)``."""
    _IN_POOL.active = True
    start = time.thread_time()
    try:
        return func(item), None, time.thread_time() - start
    except BaseException as exc:  # raised again in the caller, after the time is counted
        return None, exc, time.thread_time() - start
    finally:
        _IN_POOL.active = False


def map_blocks(func, blocks) -> list:
    """``[func(b) for b in blocks]``, the blocks shared among :data:`WORKERS` threads.

    The results come back in the order of ``blocks``, and an exception raised
    for a block is raised here, the first block's first, so neither a result
    nor an error message depends on the number of threads. With one worker,
    two blocks or fewer, or when called from inside a block (nested), every
    block runs in the caller's thread.

    Parameters
    ----------
    func : callable
        Applied to each block; it must not depend on the other blocks.
    blocks : sequence
        The blocks (typically the slices of :func:`row_chunks`).

    Returns
    -------
    list
        ``func(block)`` for each block, in order.

    Examples
    --------
    >>> map_blocks(lambda b: b * 10, [1, 2, 3, 4])
    [10, 20, 30, 40]
    """
    blocks = list(blocks)
    if WORKERS <= 1 or len(blocks) <= 2 or getattr(_IN_POOL, "active", False):
        return [func(b) for b in blocks]
    done = list(_pool().map(_in_pool, [func] * len(blocks), blocks))
    _WORKER_CPU.seconds = worker_seconds() + sum(spent for _, _, spent in done)
    for _, exc, _ in done:  # the first block's error first, as in one thread
        if exc is not None:
            raise exc
    return [result for result, _, _ in done]


def apply_by_row_chunks(
    func, *arrays: np.ndarray, max_elements: int | None = None, columns: int | None = None
) -> np.ndarray:
    """``func`` applied to blocks of rows of ``arrays``; one float64 value per row (or a few).

    Row-wise kernels (one sort per row plus cumulative operations) run
    several times faster on blocks of about 2**17 entries than on one huge
    matrix: the temporaries stay in cache and no fresh memory is faulted in
    for each of them (a 100,000 x 100 LRAP drops from about 3x to about 2x
    the cost of one ``argsort``). The blocks (a few dozen, never one per
    sample, each processed vectorized by ``func``, which must return one value
    per row of its block) are shared among threads by :func:`map_blocks`.

    Parameters
    ----------
    func : callable
        ``func(*blocks) -> ndarray of shape (n_block_rows,)``.
    *arrays : ndarray of shape (n_samples, n_labels)
        Row-aligned 2-D arrays; block ``rows`` passes ``a[rows]`` for each.
    max_elements : int, optional
        Entries per block (default :data:`ROW_CHUNK_ELEMENTS`).
    columns : int, optional
        Values per row: ``func`` then returns shape ``(n_block_rows, columns)``.

    Returns
    -------
    ndarray of float64, shape (n_samples,) or (n_samples, columns)

    Examples
    --------
    >>> import numpy as np
    >>> x = np.arange(12.0).reshape(6, 2)
    >>> apply_by_row_chunks(lambda b: b.sum(axis=1), x, max_elements=4).tolist()
    [1.0, 5.0, 9.0, 13.0, 17.0, 21.0]
    """
    n, m = arrays[0].shape
    out = np.empty(n if columns is None else (n, columns), dtype=np.float64)

    def run(rows: slice) -> None:
        out[rows] = func(*[a[rows] for a in arrays])

    map_blocks(run, row_chunks(n, m, max_elements=max_elements))
    return out
