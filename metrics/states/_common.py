"""Shared pieces of the mergeable states: weight checks and the streaming reduction."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol, TypeVar

import numpy as np

from metrics._validation import MetricInputError, as_array, location

__all__ = ["chunk_weights", "merge_states", "numpy_dtype"]


class _Mergeable(Protocol):
    def merge(self, other): ...


S = TypeVar("S", bound=_Mergeable)


def chunk_weights(sample_weight, n_samples: int) -> np.ndarray | None:
    """Validate one chunk's ``sample_weight``: 1-D, length ``n_samples``, finite, >= 0.

    Unlike :func:`metrics._validation.check_sample_weight` a chunk may weigh
    zero in total (another chunk may carry the weight); the states check
    the positive total when they are finalized.

    Examples
    --------
    >>> chunk_weights([0, 0], 2)
    array([0., 0.])
    >>> chunk_weights(None, 3) is None
    True
    """
    if sample_weight is None:
        return None
    w = as_array(sample_weight, "sample_weight", ndim=(1,))
    if w.shape[0] != n_samples:
        raise MetricInputError(
            f"sample_weight has {w.shape[0]} entries but there are {n_samples} samples."
        )
    neg = w < 0
    if neg.any():
        i = int(np.argmax(neg))
        raise MetricInputError(
            f"sample_weight must be non-negative; found {float(w[i])!r} "
            f"at {location('sample_weight', (i,))}."
        )
    return w


def float32_values(s: np.ndarray) -> np.ndarray | None:
    """``s`` as float32 (a copy) when every value is a float32 value, else None (a NaN
    too: unequal to itself). A value past float32's range casts to an infinity, so it is
    unequal, without numpy's overflow warning.

    Examples
    --------
    >>> import numpy as np
    >>> float32_values(np.array([0.5, 0.25])).dtype.name
    'float32'
    >>> float32_values(np.array([0.1])) is None, float32_values(np.array([1e300])) is None
    (True, True)
    """
    with np.errstate(over="ignore"):
        narrow = s.astype(np.float32)
    return narrow if np.array_equal(narrow, s) else None


def numpy_dtype(column: np.ndarray) -> np.ndarray:
    """``column`` viewed with numpy's own instance of its dtype (byte order kept).

    An array that crossed processes (Dask) holds an unpickled dtype instance, equal to
    numpy's own but not it: ``np.add.at`` then leaves its fast path (53 against 1.6 ns a
    row, measured in :func:`metrics.states.binary.merge_tables`).

    Examples
    --------
    >>> import pickle
    >>> column = pickle.loads(pickle.dumps(np.zeros(3, np.int32)))
    >>> numpy_dtype(column).dtype is np.dtype(np.int32)
    True
    """
    return column.view(np.dtype(column.dtype.str))


def check_total_weight(total: float) -> None:
    """Refuse a state whose samples weigh nothing in total (or that saw no sample)."""
    if not total > 0:
        raise MetricInputError(
            "sample_weight sums to zero over every chunk (or no sample was seen); "
            "at least one weight must be positive."
        )


def merge_states(states: Iterable[S]) -> S:
    """Merge a stream of states in a balanced tree, holding O(log n) states at a time.

    A binary counter: each new state enters at level 0, and two states of
    the same level merge into one of the next level, so every sample takes
    part in about log2(number of chunks) merges (a running merge into one
    accumulator would copy a growing table once per chunk). The result is
    the same state, whatever the order of the merges, to rounding.
    (:func:`metrics.states.merge_states` sends a stream of
    :class:`~metrics.states.BinaryState` to
    :func:`metrics.states.binary_stream.merge_binary_stream`: the same tree,
    freeing each merge's inputs.)

    Parameters
    ----------
    states : iterable of states of one family
        At least one.

    Returns
    -------
    state
        Their merge.

    Raises
    ------
    MetricInputError
        No state at all.

    Examples
    --------
    >>> from metrics.states import RegressionState, merge_states
    >>> parts = (RegressionState.from_chunk([1.0, 2.0], [1.5, 2.0]),
    ...          RegressionState.from_chunk([3.0], [2.0]))
    >>> merge_states(parts).finalize()["mean_absolute_error"]
    0.5
    """
    stack: list[tuple[int, S]] = []
    for state in states:
        level = 0
        while stack and stack[-1][0] == level:
            _, top = stack.pop()
            state = top.merge(state)
            level += 1
        stack.append((level, state))
    if not stack:
        raise MetricInputError("merge_states needs at least one state; got none.")
    _, out = stack.pop()
    while stack:
        _, top = stack.pop()
        out = top.merge(out)
    return out
