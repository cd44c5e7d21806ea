"""Runs of equal values in a sorted 1-D array: the one kernel behind distinct values.

Sorting puts equal values next to each other, so the distinct values of an
array, how often each occurs and where each occurs are the *runs* of its
sorted copy. Every tie block, every table of distinct scores and every
count per value in the package comes from this kernel.

A run starts wherever a value differs from the one before it (``!=``, so
each NaN is a run of its own, as ``np.unique`` does not group them either).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

__all__ = ["Runs", "run_lengths", "run_start_mask", "runs", "runs_from_mask"]


class Runs(NamedTuple):
    """The runs of a sorted 1-D array.

    Attributes
    ----------
    starts : ndarray of intp, shape (n_runs,)
        Index of the first element of each run, ascending.
    lengths : ndarray of intp, shape (n_runs,)
        Number of elements of each run (>= 1, summing to the array's length).
    """

    starts: np.ndarray
    lengths: np.ndarray

    @property
    def ends(self) -> np.ndarray:
        """Index one past the last element of each run."""
        return self.starts + self.lengths

    @property
    def last(self) -> np.ndarray:
        """Index of the last element of each run."""
        return self.starts + (self.lengths - 1)


def run_start_mask(sorted_values: np.ndarray) -> np.ndarray:
    """True at every index where a run of equal values starts.

    One comparison of neighbours written straight into the mask (no
    temporary the size of the array beside it).

    Parameters
    ----------
    sorted_values : ndarray of shape (n,)
        Sorted (either direction); only neighbours are compared.

    Returns
    -------
    ndarray of bool, shape (n,)
        ``mask[0]`` is True for a non-empty array.

    Examples
    --------
    >>> import numpy as np
    >>> run_start_mask(np.array([1.0, 1.0, 2.0, 5.0, 5.0])).tolist()
    [True, False, True, True, False]
    """
    n = sorted_values.shape[0]
    is_start = np.empty(n, dtype=bool)
    if n:
        is_start[0] = True
        np.not_equal(sorted_values[1:], sorted_values[:-1], out=is_start[1:])
    return is_start


def run_lengths(starts: np.ndarray, n: int, dtype=None) -> np.ndarray:
    """Length of each run from the run starts of an array of length ``n``, as ``dtype``
    when given (int32 counts of a stream's tables: written straight into it, no intp
    temporary).

    Examples
    --------
    >>> import numpy as np
    >>> run_lengths(np.array([0, 2, 3]), 5).tolist()
    [2, 1, 2]
    >>> run_lengths(np.array([0, 2, 3]), 5, dtype=np.int32).dtype.name
    'int32'
    """
    if dtype is None:
        return np.diff(starts, append=n)
    lengths = np.empty(starts.shape[0], dtype=dtype)
    np.subtract(starts[1:], starts[:-1], out=lengths[:-1])
    lengths[-1:] = n - starts[-1:]
    return lengths


def runs_from_mask(is_start: np.ndarray) -> Runs:
    """The runs marked by a start mask (such as :func:`run_start_mask`'s).

    A caller may mark more starts than the values alone give (the first
    element of every row of a flattened matrix, say): a run is whatever lies
    between two marks.

    Examples
    --------
    >>> import numpy as np
    >>> r = runs_from_mask(np.array([True, False, True, True, False]))
    >>> r.starts.tolist(), r.lengths.tolist()
    ([0, 2, 3], [2, 1, 2])
    """
    starts = np.flatnonzero(is_start)
    return Runs(starts, run_lengths(starts, is_start.shape[0]))


def runs(sorted_values: np.ndarray) -> Runs:
    """The runs of equal values of a sorted 1-D array: where each starts, how long it is.

    The distinct values are ``sorted_values[r.starts]`` and their counts
    ``r.lengths``.

    Parameters
    ----------
    sorted_values : ndarray of shape (n,)
        Sorted (either direction); only neighbours are compared.

    Returns
    -------
    Runs
        ``starts`` and ``lengths`` (intp), one entry per run; empty for an
        empty array.

    Examples
    --------
    >>> import numpy as np
    >>> x = np.array([0.1, 0.1, 0.4, 0.8, 0.8, 0.8])
    >>> r = runs(x)
    >>> x[r.starts].tolist(), r.lengths.tolist()
    ([0.1, 0.4, 0.8], [2, 1, 3])
    >>> r.ends.tolist(), r.last.tolist()
    ([2, 3, 6], [1, 2, 5])
    """
    return runs_from_mask(run_start_mask(sorted_values))
