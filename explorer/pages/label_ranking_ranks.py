"""The label ranking page's rank tables: each label's (or each real item's) rank in the
samples shown, with the what-if row in place, and their CSV downloads.

Pure functions, no streamlit; the page model is :mod:`explorer.pages.label_ranking`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
import pandas as pd

import metrics
from explorer.datasets import Dataset


def scores_of(scores: np.ndarray, rows, sample: int, new_row: np.ndarray | None) -> np.ndarray:
    """The shown scores of these samples: the what-if row in place of ``sample``'s.

    Examples
    --------
    >>> s = np.array([[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    >>> scores_of(s, [1, 0], 0, np.array([2.0, 0.5, 1.0])).tolist()
    [[1.0, 0.2, 0.1], [2.0, 0.5, 1.0]]
    """
    out = scores[rows]
    if new_row is not None:
        out[np.asarray(rows) == sample] = new_row
    return out


def rank_table(
    scores: np.ndarray, rows, sample: int, new_row: np.ndarray | None
) -> metrics.RankTable:
    """Every label's max rank and tie size in these samples, as shown (:func:`scores_of`).

    Examples
    --------
    >>> s = np.array([[0.75, 0.5, 1.0], [1.0, 0.2, 0.1]])
    >>> ranks = rank_table(s, [0, 1], 1, np.array([0.5, 0.5, 0.1]))
    >>> ranks.rank.tolist(), ranks.tie_size.tolist()
    ([[2, 3, 1], [2, 2, 3]], [[1, 1, 1], [2, 2, 1]])
    """
    return metrics.label_rank_table(scores_of(scores, rows, sample, new_row))


class RankedItems(NamedTuple):
    """Each row's real items in rank order (a ragged dataset's rank table): position p
    of row r holds its item at place p, blank (``""`` id) past the row's items."""

    ids: np.ndarray  # object (n_rows, n_labels): the item's name, "" past the row's items
    rank: np.ndarray  # int: the item's max rank among the row's items
    is_true: np.ndarray  # bool
    tie_size: np.ndarray  # int


def ranked_items(ds: Dataset, scores: np.ndarray, rows) -> RankedItems:
    """The rank table of a ragged dataset: each row's items only (its padding slots left
    out, an unretrieved true label below every retrieved item, as the per-sample numbers
    rank them), named by id, best first.

    Parameters
    ----------
    ds : Dataset
    scores : ndarray of shape (len(rows), n_labels)
        The shown scores of ``rows`` (:func:`scores_of`).
    rows : sequence of int

    Examples
    --------
    >>> y = np.array([[1, 0, 0, 0], [0, 1, 1, 0]])
    >>> kept = np.array([[True, True, False, False], [True, True, True, True]])
    >>> ids = np.array([["a", "b", "", ""], ["c", "d", "e", "f"]], dtype=object)
    >>> ds = Dataset("t", "multilabel", y, {"m": y * 1.0}, retrieved=kept, item_ids=ids)
    >>> r = ranked_items(ds, np.array([[0.2, 0.7, 0.9, 0.9], [0.1, 0.5, 0.5, 0.3]]), [0, 1])
    >>> r.ids.tolist(), r.rank.tolist()[1]
    ([['b', 'a', '', ''], ['d', 'e', 'f', 'c']], [2, 2, 3, 4])
    """
    rows = np.asarray(rows, dtype=np.int64)
    y = ds.y_true[rows] != 0
    got = np.ones(y.shape, bool) if ds.retrieved is None else ds.retrieved[rows]
    keep = got | y
    s = np.asarray(scores, dtype=np.float64)
    low = np.where(got, s, np.inf).min(axis=1, initial=np.inf, keepdims=True)
    low = np.where(np.isfinite(low), low, 0.0)
    # an unretrieved true label just below the row's retrieved items, padding below it
    ranked = np.where(got, s, np.where(y, np.nextafter(low, -np.inf), low - 1.0))
    table = metrics.label_rank_table(ranked)
    n, m = y.shape
    order = np.argsort(np.where(keep, table.rank, m + 1) * (m + 1) + np.arange(m), axis=1)
    if ds.item_ids is None:
        names = np.broadcast_to(np.array(ds.label_names, dtype=object), (n, m))
    else:  # each query its own documents (a padding slot's empty id is left out below)
        names = ds.item_ids[rows]

    def take(a):
        return np.take_along_axis(a, order, axis=1)

    shown = take(keep)
    return RankedItems(
        np.where(shown, take(names), ""), take(table.rank), take(y) & shown, take(table.tie_size)
    )


def rank_frame(scores: np.ndarray, y_true: np.ndarray, ids, names) -> pd.DataFrame:
    """Every label's rank and truth, one row per sample (the rank table's CSV).

    Parameters
    ----------
    scores : ndarray of shape (n_samples, n_labels)
        The shown scores (:func:`scores_of` every row).
    y_true : ndarray of shape (n_samples, n_labels)
    ids, names : sequence of str
        The sample ids and the label names.

    Returns
    -------
    pandas.DataFrame
        Columns ``id``, ``rank_<label>`` and ``true_<label>``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed003_lrap")
    >>> t = rank_frame(ds.score(), ds.y_true, ds.sample_ids, ds.label_names)
    >>> list(t.columns)
    ['id', 'rank_human', 'rank_cat', 'rank_dog', 'true_human', 'true_cat', 'true_dog']
    >>> t.filter(like="rank_").to_numpy().tolist()
    [[2, 3, 1], [1, 2, 3], [1, 2, 3]]
    """
    ranks = metrics.label_rank_table(scores)
    out = pd.DataFrame(ranks.rank, columns=[f"rank_{c}" for c in names])
    true_df = pd.DataFrame(y_true.astype(int), columns=[f"true_{c}" for c in names])
    out.insert(0, "id", list(ids))
    return pd.concat([out, true_df], axis=1)


def ranked_frame(items: RankedItems, ids) -> pd.DataFrame:
    """The ragged rank table's CSV: one row per sample and item, best first.

    Parameters
    ----------
    items : RankedItems
        :func:`ranked_items` of every sample.
    ids : sequence of str
        Their sample ids.

    Returns
    -------
    pandas.DataFrame
        Columns ``id``, ``place``, ``item``, ``rank``, ``true``; no row for padding.

    Examples
    --------
    >>> r = RankedItems(np.array([["b", "a", ""]], dtype=object), np.array([[1, 2, 3]]),
    ...                 np.array([[False, True, False]]), np.ones((1, 3), int))
    >>> ranked_frame(r, ["q1"]).values.tolist()
    [['q1', 1, 'b', 1, 0], ['q1', 2, 'a', 2, 1]]
    """
    real = items.ids != ""
    where = np.nonzero(real)
    return pd.DataFrame(
        {
            "id": np.asarray(list(ids), dtype=object)[where[0]],
            "place": where[1] + 1,
            "item": items.ids[real],
            "rank": items.rank[real],
            "true": items.is_true[real].astype(int),
        }
    )
