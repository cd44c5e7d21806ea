"""Vectorized rank primitives shared by every ranking metric.

All functions work row-wise on a 2-D score matrix (samples x labels) with a
single sort of the matrix and cumulative operations, never a Python loop over
rows. A 1-D vector can be passed as a ``(1, n)`` matrix.

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
    the *maximal* rank (scikit-learn's coverage, LRAP and seed 000).
mid rank
    the average of the positions a tie block occupies (Mann-Whitney, AUC).
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "block_sums",
    "descending_order",
    "max_rank",
    "mid_rank",
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
    scikit-learn docstring example gets 5.0 (seed 001). The opposite of
    :func:`top_k_order`'s tie rule; both are part of the contract.

    Examples
    --------
    >>> import numpy as np
    >>> sklearn_ignore_ties_order(np.array([[1.0, 0.0, 0.0, 0.0, 1.0]])).tolist()
    [[4, 0, 3, 2, 1]]
    """
    return np.argsort(scores, axis=1, kind="stable")[:, ::-1]
