"""ROC AUC and average precision of bootstrap resamples given as draw counts.

A resample of ``n`` rows is a row of draw counts ``c`` (how often each layout
position was drawn). For one model, :func:`split_model` sorts once and keeps
the negatives' positions by ascending score, the positives' positions by
ascending score and, for every positive, how many negatives score strictly
below it (and at most as high, when some negative ties it). Then per block of
resamples, with ``N`` the running count of drawn negatives in score order:

* ROC AUC: ``2 U = sum_i c_i (N_<i + N_<=i)`` over the positives ``i``
  (``2 N_<i`` without a tie between the classes) and ``AUC = U / (W+ W-)``,
  integer-exact until that one division;
* average precision: ``AP = sum_i c_i TP_i / (TP_i + FP_i) / W+`` over the
  positives, ``TP_i`` and ``FP_i`` the drawn positives and negatives scoring
  at least ``s_i`` (scikit-learn's step sum: positives of one tie block share
  their threshold's precision).

Each model gathers its negatives' counts (``np.take``), one running sum over
them, then one gather of that sum at the positives' places: the positives and
negatives are never interleaved again, which is about four times cheaper per
model and resample than gathering every count into the model's order and
summing over all rows (bench/results.md, "Leaderboard: many models at once").
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from metrics._runs import run_start_mask


class SplitModel(NamedTuple):
    """One model's positions for :func:`auc_u2` and :func:`ap_from_counts`."""

    neg: np.ndarray  # positions of the negatives, by ascending score
    pos: np.ndarray  # positions of the positives, by ascending score
    below: np.ndarray  # per positive (that order): negatives scoring strictly below
    upto: np.ndarray | None  # ... scoring at most as high (None: no class tie)
    first: np.ndarray | None  # per positive: positives scoring strictly below (None: no tie)


def split_model(pos: np.ndarray, s: np.ndarray) -> SplitModel:
    """The :class:`SplitModel` of scores ``s`` with classes ``pos`` (positions' order).

    Parameters
    ----------
    pos : ndarray of bool, shape (n,)
    s : ndarray, shape (n,)
        Scores (any ordered values: cells use their tie block's number).

    Returns
    -------
    SplitModel

    Examples
    --------
    >>> import numpy as np
    >>> m = split_model(np.array([True, False, True, False]), np.array([2.0, 1.0, 1.0, 3.0]))
    >>> m.neg.tolist(), m.pos.tolist(), m.below.tolist(), m.upto.tolist(), m.first
    ([1, 3], [2, 0], [0, 1], [1, 1], None)
    """
    order = np.argsort(s, kind="stable")
    ss, is_pos = s[order], pos[order]
    is_neg = ~is_pos
    neg_before = np.cumsum(is_neg) - is_neg  # negatives before each sorted position
    at_pos = np.flatnonzero(is_pos)
    start = run_start_mask(ss)
    if start.all():  # no tied scores: a position is its own tie block
        return SplitModel(order[is_neg], order[is_pos], neg_before[at_pos], None, None)
    block_first = np.flatnonzero(start)
    block = np.cumsum(start) - 1
    block_last = np.append(block_first[1:] - 1, ss.shape[0] - 1)
    first_of = block_first[block[at_pos]]  # each positive's tie block: first, last position
    below = neg_before[first_of]
    upto = neg_before[block_last[block[at_pos]]] + is_neg[block_last[block[at_pos]]]
    before = (np.cumsum(is_pos) - is_pos)[first_of]
    return SplitModel(
        order[is_neg],
        order[is_pos],
        below,
        None if np.array_equal(below, upto) else upto,
        None if np.array_equal(before, np.arange(before.shape[0])) else before,
    )


def _running(c: np.ndarray, factor: int = 1) -> np.ndarray:
    """``[0, c_0, c_0 + c_1, ...]`` along each row: int32 when ``factor`` such sums of
    uint8 counts fit, else int64."""
    small = c.dtype == np.uint8 and factor * 255 * (c.shape[1] + 1) < 2**31
    out = np.zeros((c.shape[0], c.shape[1] + 1), dtype=np.int32 if small else np.int64)
    np.cumsum(c, axis=1, out=out[:, 1:])
    return out


def auc_u2(counts: np.ndarray, model: SplitModel, w_pos: np.ndarray | None = None):
    """``(2 U, W+, W-)`` of every resample (row of ``counts``), int64, exact.

    ``w_pos``: the drawn positives of each resample when already known (another
    model's call on the same counts: they do not depend on the order).

    Examples
    --------
    >>> import numpy as np
    >>> m = split_model(np.array([True, False, True, False]), np.array([2.0, 1.0, 1.0, 3.0]))
    >>> [v.tolist() for v in auc_u2(np.array([[1, 1, 1, 1], [2, 1, 1, 0]]), m)]
    [[3, 5], [2, 3], [2, 1]]
    """
    run = _running(np.take(counts, model.neg, axis=1), 2)
    cp = np.take(counts, model.pos, axis=1)
    n_below = np.take(run, model.below, axis=1)
    if model.upto is None:
        u2 = 2 * np.einsum("ij,ij->i", cp, n_below, dtype=np.int64)
    else:
        n_below += np.take(run, model.upto, axis=1)
        u2 = np.einsum("ij,ij->i", cp, n_below, dtype=np.int64)
    w_neg = run[:, -1].astype(np.int64)
    return u2, cp.sum(axis=1, dtype=np.int64) if w_pos is None else w_pos, w_neg


def ap_from_counts(counts: np.ndarray, model: SplitModel) -> np.ndarray:
    """Average precision of every resample (row of ``counts``); 0 without a drawn positive.

    Examples
    --------
    >>> import numpy as np
    >>> m = split_model(np.array([True, False, True, False]), np.array([2.0, 1.0, 1.0, 3.0]))
    >>> ap_from_counts(np.array([[1, 1, 1, 1], [2, 1, 1, 0], [0, 1, 0, 1]]), m).round(6).tolist()
    [0.5, 0.916667, 0.0]
    """
    run = _running(np.take(counts, model.neg, axis=1))
    cp = np.take(counts, model.pos, axis=1)
    fp = run[:, -1:] - np.take(run, model.below, axis=1)  # drawn negatives scoring >= s_i
    tp_run = _running(cp)
    w_pos = tp_run[:, -1].astype(np.int64)
    before = tp_run[:, :-1] if model.first is None else np.take(tp_run, model.first, axis=1)
    tp = tp_run[:, -1:] - before  # drawn positives scoring >= s_i
    at = tp + fp
    np.maximum(at, 1, out=at)  # >= 1 wherever a positive was drawn
    total = np.einsum("ij,ij->i", cp, tp / at)
    return np.divide(total, w_pos, out=np.zeros(total.shape[0]), where=w_pos > 0)
