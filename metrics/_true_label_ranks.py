"""The ranks of the true labels of every row: one kernel for LRAP, ranking loss and per-row AP.

For a row of scores ``s`` with true labels ``Y`` (a 0/1 mask), a true label
``j`` has

* ``rank_ij = |{k : s_ik >= s_ij}|`` (ties at the maximal rank) and
* ``|L_ij| = |{k in Y : s_ik >= s_ij}|``.

LRAP is the mean of ``|L_ij| / rank_ij`` over the true labels of a row, and
so is scikit-learn's per-row average precision (a tie block is one
threshold: each of its positives earns the precision at the block's end);
the two differ only on rows with no true label (LRAP 1, AP 0). Ranking loss
counts ``rank_ij - |L_ij|``, the false labels scoring at least as high.

Everything comes from one unstable ascending sort of a block of rows
(:func:`metrics._ranks.ascending_flat_order`); nothing depends on the order
inside a tie block. No Python loop over rows.
"""

from __future__ import annotations

import numpy as np

from metrics._ranks import ascending_flat_order, block_start_of, flat_tie_blocks
from metrics._true_counts import row_counts

__all__ = ["precision_sums", "summed_precisions", "true_label_ranks"]


def true_label_ranks(
    mask: np.ndarray, scores: np.ndarray, *, per_block: bool | None = None, order=None
):
    """|L_ij| and rank_ij of the true labels of every row, from one sort.

    A true label whose tie block starts at ascending position ``a`` has
    ``rank_ij = m - a`` and ``|L_ij| = T - (true labels of the row before a)``.

    Two ways to the same numbers, picked by how tied the scores are (or by
    ``per_block``, for tests):

    * per tie block (few distinct scores): ``u`` true labels per block by
      ``np.add.reduceat``; every quantity is per block;
    * per true label (mostly distinct scores): the block start of every
      position by a running maximum, and the true labels scoring lower than
      a block is the index of the block's first true label among all true
      labels.

    Parameters
    ----------
    mask : ndarray of bool, shape (n_rows, n_labels)
        True labels.
    scores : ndarray of float, shape (n_rows, n_labels)
        Finite scores.
    per_block : bool or None, default None
        Force one of the two ways; None picks by the number of tie blocks.
    order : tuple or None, default None
        :func:`metrics._ranks.ascending_flat_order` of ``scores``, when the
        caller has it (:func:`metrics._ranks.ascending_of_descending`).

    Returns
    -------
    row, count, at_or_above, rank, n_true
        One entry per block (``count`` = its true labels) or per true label
        (``count`` None, i.e. 1): its row, ``|L_ij|`` and ``rank_ij``;
        ``n_true`` per row.

    Examples
    --------
    >>> import numpy as np
    >>> mask = np.array([[True, False, True]])
    >>> row, count, at_or_above, rank, n_true = true_label_ranks(
    ...     mask, np.array([[0.9, 0.5, 0.2]]), per_block=False)
    >>> row.tolist(), at_or_above.tolist(), rank.tolist(), n_true.tolist()
    ([0, 0], [2, 1], [3, 1], [2])
    """
    n, m = scores.shape
    flat, is_start = ascending_flat_order(scores) if order is None else order
    ordered_true = mask.ravel()[flat]
    n_true = row_counts(mask)
    true_before_row = np.cumsum(n_true) - n_true
    n_blocks = np.count_nonzero(is_start)
    if per_block is None:
        per_block = 2 * n_blocks <= is_start.shape[0]
    if per_block:
        blocks = flat_tie_blocks(is_start, m, ordered_true)
        count = blocks.sums
        lower = np.cumsum(count)  # true labels up to the end of the block (flat)
        lower -= count
        lower -= true_before_row[blocks.row]
        return blocks.row, count, n_true[blocks.row] - lower, m - blocks.first, n_true
    pos = np.flatnonzero(ordered_true)  # flat positions of the true labels
    if n_blocks == is_start.shape[0]:  # no tie at all: every label is its own block
        start = pos
        lower = np.arange(pos.shape[0])
    else:
        start = block_start_of(is_start)[pos]
        new_block = np.empty(pos.shape[0], dtype=bool)
        new_block[:1] = True
        np.not_equal(start[1:], start[:-1], out=new_block[1:])
        lower = block_start_of(new_block).astype(np.int64)  # index of the block's first true
    row = pos // m
    lower -= true_before_row[row]
    return row, None, n_true[row] - lower, m * (row + 1) - start, n_true


def precision_sums(
    mask: np.ndarray, scores: np.ndarray, *, per_block: bool | None = None
) -> tuple[np.ndarray, np.ndarray]:
    """Per row, the sum of ``|L_ij| / rank_ij`` over its true labels, and their number.

    Divided by the number of true labels, the sum is the row's LRAP and its
    average precision (see the module docstring for the rows without a true
    label, where the two conventions differ).

    Parameters
    ----------
    mask, scores, per_block
        As in :func:`true_label_ranks`.

    Returns
    -------
    total : ndarray of float, shape (n_rows,)
    n_true : ndarray of int, shape (n_rows,)

    Examples
    --------
    >>> import numpy as np
    >>> total, n_true = precision_sums(np.array([[True, False, True]]),
    ...                                np.array([[0.9, 0.5, 0.2]]))
    >>> total.round(4).tolist(), n_true.tolist()
    ([1.6667], [2])
    """
    return summed_precisions(true_label_ranks(mask, scores, per_block=per_block))


def summed_precisions(ranks: tuple) -> tuple[np.ndarray, np.ndarray]:
    """:func:`precision_sums` from :func:`true_label_ranks`' output (computed once for several)."""
    row, count, at_or_above, rank, n_true = ranks
    frac = at_or_above / rank
    if count is not None:
        frac *= count
    return np.bincount(row, weights=frac, minlength=n_true.shape[0]), n_true
