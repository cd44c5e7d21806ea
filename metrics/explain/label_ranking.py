"""Teaching helpers of the label ranking page: coverage, LRAP and ranking loss laid out.

The step tables of one sample (:func:`coverage_steps`, :func:`lrap_steps`,
:func:`ranking_loss_steps`, and under a tie rule
:func:`coverage_steps_tie_broken`, :func:`lrap_steps_tie_broken`), the rank
table of every label, the best coverage any ranking could reach, the
values under the optimistic and pessimistic tie rules for every sample, each
sample's contribution to the means and how much it moves them, and the
what-if recomputation when one sample's scores change
(:func:`replace_sample_scores`). Input is validated as
:mod:`metrics.label_ranking` does; the whole-matrix tables run the kernels of
that module on blocks of rows.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

import numpy as np

from metrics._averages import weighted_mean
from metrics._label_ranking_kernel import (
    binary_mask,
    check_matrices,
    code_counts,
    counts_at_or_above,
    coverage_values,
    kept_pair_loss,
    label_matrix,
    lrap_values,
    masked_scores,
    ranking_loss_values,
    score_values,
)
from metrics._ranks import (
    ascending_tie_blocks,
    descending_order,
    map_blocks,
    row_chunks,
    scatter_back,
    tie_bounds,
)
from metrics._relevance import check_retrieved
from metrics._validation import (
    MetricInputError,
    as_2d,
    as_array,
    check_binary,
    check_same_shape,
    check_sample_weight,
)

if TYPE_CHECKING:  # the annotations' DataFrame; pandas itself is imported where used
    import pandas as pd

__all__ = [
    "RankTable",
    "SampleReplaced",
    "TIE_RULES",
    "TieBroken",
    "best_coverage_error",
    "coverage_steps",
    "coverage_steps_tie_broken",
    "label_rank_table",
    "label_ranking_contributions",
    "lrap_steps",
    "lrap_steps_tie_broken",
    "ranking_loss_steps",
    "replace_sample_scores",
    "sort_worst_first",
    "tie_broken_per_sample",
    "tie_broken_summary",
]


# ---------------------------------------------------------------------------
# step tables of one sample
# ---------------------------------------------------------------------------
_NOTE_NO_TRUE = "no true label"
_NOTE_ALL_TRUE = "every label is true"


def _check_rows(y_true_row, y_score_row, *, min_labels: int) -> tuple[np.ndarray, np.ndarray]:
    """One sample: a 0/1 vector and a finite score vector of the same length."""
    yt = as_array(y_true_row, "y_true_row", ndim=(1,))
    ys = as_array(y_score_row, "y_score_row", ndim=(1,))
    check_same_shape(yt, ys, "y_true_row", "y_score_row")
    if yt.shape[0] < min_labels:
        raise MetricInputError(f"y_true_row needs at least {min_labels} labels; got {yt.shape[0]}.")
    yt = check_binary(yt, "y_true_row")
    return yt, ys


def coverage_steps(y_true_row, y_score_row) -> pd.DataFrame:
    """Coverage of one sample, label by label.

    One table row per label, sorted by descending score (tied labels in
    column order).

    Parameters
    ----------
    y_true_row : array-like of shape (n_labels,)
        0/1 labels of one sample, at least 2.
    y_score_row : array-like of shape (n_labels,)
        Finite scores of that sample.

    Returns
    -------
    pandas.DataFrame
        The table described above, with the columns:

        label : int
            Column index of the label.
        score : float
        is_true : bool
        rank : int
            Max rank ``|{k : s_k >= s_label}|`` (tied labels share the deepest
            rank of their tie group).
        tie_group : int
            0-based id of the group of equal scores, in table order.
        running_value : int
            Deepest rank of a true label met so far (0 before the first true
            label); the last row is the sample's coverage.
        note : str
            Present only when the sample has no true label (coverage 0).

    Examples
    --------
    >>> t = coverage_steps([0, 1, 0, 1], [0.9, 0.5, 0.5, 0.1])
    >>> t[["label", "rank", "running_value"]].to_numpy().tolist()
    [[0, 1, 0], [1, 3, 3], [2, 3, 3], [3, 4, 4]]
    """
    yt, ys = _check_rows(y_true_row, y_score_row, min_labels=2)
    return _with_coverage_columns(_ranked_labels(yt, ys))


def _with_coverage_columns(table: pd.DataFrame) -> pd.DataFrame:
    """Add coverage's columns to a table of ranked labels (``is_true``, ``rank``, in order).

    ``running_value``: the deepest rank of a true label so far; ``note`` for
    a sample with no true label.
    """
    is_true = table["is_true"].to_numpy()
    table["running_value"] = np.maximum.accumulate(np.where(is_true, table["rank"].to_numpy(), 0))
    if not is_true.any():
        table["note"] = _NOTE_NO_TRUE + ": scikit-learn's coverage is 0 for such a sample"
    return table


def _ranked_labels(yt: np.ndarray, ys: np.ndarray) -> pd.DataFrame:
    """label, score, is_true, rank (max rank), tie_group; descending score, ties in column order."""
    import pandas as pd

    order = np.argsort(-ys, kind="stable")
    s = ys[order]
    change = np.empty(s.shape[0], dtype=bool)
    change[0] = True
    np.not_equal(s[1:], s[:-1], out=change[1:])
    group = np.cumsum(change) - 1
    sizes = np.bincount(group)
    rank = np.cumsum(sizes)[group]  # position of the group's last label, 1-based
    return pd.DataFrame(
        {
            "label": order.astype(np.int64),
            "score": s,
            "is_true": yt[order] == 1,
            "rank": rank.astype(np.int64),
            "tie_group": group.astype(np.int64),
        }
    )


def lrap_steps(y_true_row, y_score_row) -> pd.DataFrame:
    """LRAP of one sample, label by label.

    One table row per label, sorted by descending score (tied labels in
    column order).

    Parameters
    ----------
    y_true_row : array-like of shape (n_labels,)
        0/1 labels of one sample.
    y_score_row : array-like of shape (n_labels,)
        Finite scores of that sample.

    Returns
    -------
    pandas.DataFrame
        The table described above, with the columns:

        label : int
            Column index of the label.
        score : float
        is_true : bool
        rank : int
            ``rank_ij``: the number of labels scoring at least as high (tied
            labels share the deepest rank of their tie group).
        tie_group : int
            0-based id of the group of equal scores, in table order.
        n_true_at_or_above : Int64 (nullable)
            ``|L_ij|``: true labels scoring at least as high; ``<NA>`` on the
            rows of false labels.
        fraction : float
            ``|L_ij| / rank_ij`` for a true label; NaN on false-label rows.
        running_value : float
            Mean of the fractions met so far, carried forward over false-label
            rows (NaN before the first true label), so the last row is the
            sample's LRAP. 1.0 on every row of a degenerate sample.
        note : str
            Present only for a degenerate sample (no true label, or every label
            true), which scikit-learn scores 1.0.

    Examples
    --------
    >>> t = lrap_steps([1, 0, 1], [1, 0.2, 0.1])
    >>> t[["label", "rank", "n_true_at_or_above"]].to_numpy().tolist()
    [[0, 1, 1], [1, 2, <NA>], [2, 3, 2]]
    >>> [round(x, 4) for x in t["running_value"]]
    [1.0, 1.0, 0.8333]
    """
    yt, ys = _check_rows(y_true_row, y_score_row, min_labels=1)
    return _with_lrap_columns(_ranked_labels(yt, ys))


def _with_lrap_columns(table: pd.DataFrame) -> pd.DataFrame:
    """Add LRAP's columns to a table of ranked labels (``is_true``, ``rank``, in order).

    ``n_true_at_or_above`` (|L_ij|), ``fraction`` (|L_ij| / rank_ij) for the
    true labels, ``running_value`` (the LRAP so far) and, for a sample with
    no true label or only true labels, ``note``. ``rank`` is the max rank
    (:func:`lrap_steps`) or the position in a broken order
    (:func:`lrap_steps_tie_broken`).
    """
    import pandas as pd

    is_true = table["is_true"].to_numpy()
    rank = table["rank"].to_numpy()
    true_cum = np.cumsum(is_true)
    # |L_ij| = true labels up to the end of the tie group = cumulative count at position rank - 1
    at_or_above = true_cum[rank - 1]
    fraction = np.where(is_true, at_or_above / rank, np.nan)
    counts = pd.array(at_or_above.astype(np.int64), dtype="Int64")
    counts[~is_true] = pd.NA
    table["n_true_at_or_above"] = counts
    table["fraction"] = fraction
    n_true = int(true_cum[-1])
    if n_true == 0 or n_true == len(table):
        table["running_value"] = 1.0
        why = _NOTE_NO_TRUE if n_true == 0 else _NOTE_ALL_TRUE
        table["note"] = why + ": scikit-learn scores such a sample 1.0"
    else:
        running = np.cumsum(np.where(is_true, fraction, 0.0)) / np.maximum(true_cum, 1)
        table["running_value"] = np.where(true_cum > 0, running, np.nan)
    return table


def ranking_loss_steps(y_true_row, y_score_row) -> pd.DataFrame:
    """Ranking loss of one sample, pair by pair.

    One table row per (true label, false label) pair, true labels in column
    order, and for each its false labels in column order.

    Parameters
    ----------
    y_true_row : array-like of shape (n_labels,)
        0/1 labels of one sample, at least 2.
    y_score_row : array-like of shape (n_labels,)
        Finite scores of that sample.

    Returns
    -------
    pandas.DataFrame
        The table described above, with the columns:

        true_label, false_label : int
            Column indices of the pair (float NaN in the degenerate row).
        true_score, false_score : float
        misordered : bool
            ``false_score >= true_score`` (a tie is an error).
        tie : bool
            ``false_score == true_score``.
        running_value : float
            Mis-ordered pairs so far divided by the number of pairs
            ``|Y| * (n_labels - |Y|)``; the last row is the sample's loss.
        note : str
            Present only for a sample with no pair (no true label, or every
            label true): a single row with NaN labels and ``running_value`` 0.0.

    Examples
    --------
    >>> t = ranking_loss_steps([1, 0, 0], [0.5, 0.5, 0.1])
    >>> t[["true_label", "false_label", "misordered", "tie"]].to_numpy().tolist()
    [[0, 1, True, True], [0, 2, False, False]]
    >>> t["running_value"].tolist()
    [0.5, 0.5]
    """
    import pandas as pd

    yt, ys = _check_rows(y_true_row, y_score_row, min_labels=2)
    true_idx = np.flatnonzero(yt == 1)
    false_idx = np.flatnonzero(yt == 0)
    n_pairs = true_idx.shape[0] * false_idx.shape[0]
    if n_pairs == 0:
        why = _NOTE_NO_TRUE if true_idx.shape[0] == 0 else _NOTE_ALL_TRUE
        return pd.DataFrame(
            {
                "true_label": [np.nan],
                "false_label": [np.nan],
                "true_score": [np.nan],
                "false_score": [np.nan],
                "misordered": [False],
                "tie": [False],
                "running_value": [0.0],
                "note": [why + ": no (true, false) pair; scikit-learn's loss is 0"],
            }
        )
    t = np.repeat(true_idx, false_idx.shape[0])
    f = np.tile(false_idx, true_idx.shape[0])
    ts, fs = ys[t], ys[f]
    misordered = fs >= ts
    return pd.DataFrame(
        {
            "true_label": t.astype(np.int64),
            "false_label": f.astype(np.int64),
            "true_score": ts,
            "false_score": fs,
            "misordered": misordered,
            "tie": fs == ts,
            "running_value": np.cumsum(misordered) / n_pairs,
        }
    )


# ---------------------------------------------------------------------------
# page helpers: the rank table, per-sample contributions, tie-breaking rules
# ---------------------------------------------------------------------------
TIE_RULES = ("max", "optimistic", "pessimistic")
_CONTRIBUTION_METRICS = ("lrap", "coverage", "ranking_loss")


class RankTable(NamedTuple):
    """Every label's rank in its sample (see :func:`label_rank_table`).

    Attributes
    ----------
    rank : ndarray of int, shape (n_samples, n_labels)
        Max rank ``|{k : s_ik >= s_ij}|`` (1 = best; tied labels share the
        deepest rank of their group).
    tie_group : ndarray of int, shape (n_samples, n_labels)
        0-based id of the label's group of equal scores within its sample,
        highest score first (labels with the same id are tied).
    tie_size : ndarray of int, shape (n_samples, n_labels)
        Number of labels in that group (1 = not tied).

    Examples
    --------
    >>> t = label_rank_table([[0.2, 0.9, 0.2]])
    >>> t.rank.tolist(), t.tie_group.tolist(), t.tie_size.tolist()
    ([[3, 1, 3]], [[1, 0, 1]], [[2, 1, 2]])
    """

    rank: np.ndarray
    tie_group: np.ndarray
    tie_size: np.ndarray


def label_rank_table(y_score) -> RankTable:
    """Max rank, tie group and tie-group size of every label of every sample.

    One sort of the whole matrix (:func:`metrics._ranks.descending_order`),
    then the tie bounds of every sorted position, scattered back to column
    order; the ranks equal :func:`metrics._ranks.max_rank`.

    Parameters
    ----------
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores, highest ranks first.

    Returns
    -------
    RankTable
        ``rank``, ``tie_group`` and ``tie_size``, each shaped like ``y_score``.

    Examples
    --------
    >>> t = label_rank_table([[0.75, 0.5, 1.0], [0.3, 0.3, 0.1]])
    >>> t.rank.tolist(), t.tie_group.tolist(), t.tie_size.tolist()
    ([[2, 3, 1], [2, 2, 3]], [[1, 2, 0], [0, 0, 1]], [[1, 1, 1], [2, 2, 1]])
    """
    ys = as_2d(y_score, "y_score")
    order, sorted_scores = descending_order(ys)
    first, last = tie_bounds(sorted_scores)
    new_group = np.ones(ys.shape, dtype=np.int64)
    new_group[:, 1:] = sorted_scores[:, 1:] != sorted_scores[:, :-1]
    group = np.cumsum(new_group, axis=1) - 1
    return RankTable(
        rank=scatter_back(order, last + 1),
        tie_group=scatter_back(order, group),
        tie_size=scatter_back(order, last - first + 1),
    )


def best_coverage_error(y_true, *, sample_weight=None) -> float:
    """The best coverage error any scores could reach: the mean number of true labels.

    A perfect ranking puts the ``|Y_i|`` true labels of a sample on top, so
    its coverage is ``|Y_i|`` (0 for a sample with no true label, as
    scikit-learn counts it); :func:`coverage_error` is never below this.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix.
    sample_weight : array-like of shape (n_samples,), optional

    Returns
    -------
    float

    Examples
    --------
    >>> best_coverage_error([[1, 0, 0], [1, 0, 1], [1, 1, 0]])
    1.6666666666666667
    """
    yt = binary_mask(label_matrix(y_true, 1), "y_true")
    w = check_sample_weight(sample_weight, yt.shape[0])
    return weighted_mean(np.count_nonzero(yt, axis=1).astype(np.float64), w)


def _moves_mean(values: np.ndarray, w: np.ndarray | None) -> np.ndarray:
    """``mean - mean without sample i`` for every i (NaN where nothing would be left)."""
    w = np.ones(values.shape[0]) if w is None else w
    total = w.sum()
    mean = float(np.dot(w, values) / total)
    rest = total - w
    out = np.full(values.shape[0], np.nan)
    ok = rest > 0
    out[ok] = mean - (mean * total - w[ok] * values[ok]) / rest[ok]
    return out


#: Cells of one group of rows between two ``checkpoint`` calls (a few tenths of a second).
CHECKPOINT_CELLS = 1 << 21


def _by_row_groups(func, n: int, m: int, checkpoint) -> np.ndarray:
    """``func(rows)`` over groups of about :data:`CHECKPOINT_CELLS` cells, joined on the
    last axis; ``checkpoint`` (if given) is called before each group, in the caller's
    thread, so that a caller can stop a long computation. Each group is vectorized."""
    step = max(1, CHECKPOINT_CELLS // max(m, 1))
    parts = []
    for start in range(0, n, step):
        if checkpoint is not None:
            checkpoint()
        parts.append(func(slice(start, start + step)))
    return np.concatenate(parts, axis=-1)


def _masked(yt: np.ndarray, ys: np.ndarray, retrieved):
    """The scores with the ``retrieved`` mask applied and the labels each row keeps
    (None: every item retrieved), as :mod:`metrics.label_ranking` reads the mask."""
    mask = check_retrieved(retrieved, ys)
    if mask is None or mask.all():
        return ys, None
    return masked_scores(yt, ys, mask)


def label_ranking_contributions(
    y_true, y_score, *, sample_weight=None, checkpoint=None, retrieved=None
) -> pd.DataFrame:
    """Every sample's coverage, LRAP and ranking loss, and how much it moves each mean.

    Vectorized over all samples (the kernels of :func:`coverage_error`,
    :func:`label_ranking_average_precision_score` and
    :func:`label_ranking_loss`, one sort shared by the last two).

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix, at least 2 labels.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores.
    sample_weight : array-like of shape (n_samples,), optional
    checkpoint : callable, optional
        Called between groups of rows (:data:`CHECKPOINT_CELLS` cells); what it
        raises stops the computation.
    retrieved : array-like of bool, shape (n_samples, n_labels), optional
        The items retrieved, as :func:`metrics.label_ranking.coverage_error`
        reads them: an unretrieved false label (a padding slot) makes no pair
        and counts in no ``n_true``/``note``.

    Returns
    -------
    pandas.DataFrame
        One row per sample, in input order, with the columns:

        sample : int
            0-based row index.
        weight : float
            The sample weight (1.0 without ``sample_weight``).
        n_true : int
            ``|Y_i|``, the sample's true labels (its best possible coverage).
        n_pairs, n_misordered : int
            (true, false) label pairs, and those with the false label scoring
            at least as high (ties count as errors, as scikit-learn does).
        coverage, lrap, ranking_loss : float
            The sample's values (:func:`coverage_per_sample`,
            :func:`lrap_per_sample`, :func:`ranking_loss_per_sample`).
        coverage_moves_mean, lrap_moves_mean, ranking_loss_moves_mean : float
            The (weighted) mean minus the mean without this sample: how much
            the sample moves the headline number (NaN for a lone sample).
        note : str
            "no true label" / "every label is true" for degenerate samples,
            else "".

    Examples
    --------
    >>> t = label_ranking_contributions([[1, 0, 0], [1, 0, 1], [1, 1, 0]],
    ...                                 [[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]])
    >>> t["lrap"].round(4).tolist()
    [0.5, 0.8333, 1.0]
    >>> t["lrap_moves_mean"].round(4).tolist()
    [-0.1389, 0.0278, 0.1111]
    >>> t[["n_true", "n_pairs", "n_misordered"]].to_numpy().tolist()
    [[1, 2, 1], [2, 2, 1], [2, 2, 0]]
    """
    import pandas as pd

    yt, ys = check_matrices(y_true, y_score, min_columns=2, as_mask=False)
    n, m = ys.shape
    w = check_sample_weight(sample_weight, n)
    ys, kept = _masked(yt, ys, retrieved)
    n_true = np.count_nonzero(yt, axis=1)
    n_labels = m if kept is None else np.count_nonzero(kept, axis=1)
    n_pairs = n_true * (n_labels - n_true)
    cov, lrap, loss = _by_row_groups(
        lambda r: np.array(
            [
                coverage_values(yt[r], ys[r]),
                lrap_values(yt[r], ys[r]),
                ranking_loss_values(yt[r], ys[r]),
            ]
        ),
        n,
        m,
        checkpoint,
    )
    if kept is not None:  # the padding slots' pairs out of the loss
        loss = kept_pair_loss(loss, yt, kept)
    n_wrong = np.rint(loss * n_pairs).astype(np.int64)
    note = np.where(n_true == 0, _NOTE_NO_TRUE, np.where(n_true == n_labels, _NOTE_ALL_TRUE, ""))
    return pd.DataFrame(
        {
            "sample": np.arange(n, dtype=np.int64),
            "weight": np.ones(n) if w is None else w,
            "n_true": n_true.astype(np.int64),
            "n_pairs": n_pairs.astype(np.int64),
            "n_misordered": n_wrong,
            "coverage": cov,
            "lrap": lrap,
            "ranking_loss": loss,
            "coverage_moves_mean": _moves_mean(cov, w),
            "lrap_moves_mean": _moves_mean(lrap, w),
            "ranking_loss_moves_mean": _moves_mean(loss, w),
            "note": note,
        }
    )


def sort_worst_first(contributions: pd.DataFrame, by: str) -> pd.DataFrame:
    """Rows of :func:`label_ranking_contributions`, the samples that hurt ``by`` most first.

    "Hurt" is how much the sample moves the mean the wrong way: down for
    ``"lrap"`` (higher is better), up for ``"coverage"`` and
    ``"ranking_loss"`` (lower is better). Equal effects keep sample order.

    Parameters
    ----------
    contributions : pandas.DataFrame
        As returned by :func:`label_ranking_contributions`.
    by : {"lrap", "coverage", "ranking_loss"}

    Returns
    -------
    pandas.DataFrame
        The same rows, reordered (index kept).

    Examples
    --------
    >>> t = label_ranking_contributions([[1, 0, 0], [1, 0, 1], [1, 1, 0]],
    ...                                 [[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]])
    >>> sort_worst_first(t, "lrap")["sample"].tolist()
    [0, 1, 2]
    >>> sort_worst_first(t, "coverage")["sample"].tolist()
    [1, 0, 2]
    """
    if by not in _CONTRIBUTION_METRICS:
        raise MetricInputError(f"by must be one of {_CONTRIBUTION_METRICS}; got {by!r}.")
    effect = contributions[f"{by}_moves_mean"].to_numpy(dtype=np.float64)
    value = contributions[by].to_numpy(dtype=np.float64)
    sign = 1.0 if by == "lrap" else -1.0
    # NaN effects (a lone sample) fall back to the value itself
    key = sign * np.where(np.isnan(effect), value, effect)
    order = np.argsort(key, kind="stable")
    return contributions.iloc[order]


class TieBroken(NamedTuple):
    """Per-sample LRAP and coverage under one tie rule (see :func:`tie_broken_per_sample`).

    Attributes
    ----------
    lrap, coverage : ndarray of float, shape (n_samples,)

    Examples
    --------
    >>> t = tie_broken_per_sample([[1, 0, 1, 0]], [[0.5, 0.5, 0.5, 0.1]], ties="pessimistic")
    >>> t.lrap.round(4).tolist(), t.coverage.tolist()
    ([0.5833], [3.0])
    """

    lrap: np.ndarray
    coverage: np.ndarray


def _check_ties(ties: str) -> None:
    if ties not in TIE_RULES:
        raise MetricInputError(f"ties must be one of {TIE_RULES}; got {ties!r}.")


def _strict_order(mask: np.ndarray, ys: np.ndarray, ties: str) -> np.ndarray:
    """Column order of every row: descending score, then true labels first
    (optimistic) or last (pessimistic), then column order."""
    second = ~mask if ties == "optimistic" else mask
    return np.lexsort((second, -ys), axis=-1)


class _Groups(NamedTuple):
    """The tie groups of a block of rows, row by row (any order inside a row).

    ``u`` true and ``f`` false labels score the same; ``above`` labels, of
    which ``true_above`` are true, score strictly higher. ``starts`` are the
    positions where each row's groups begin (every row has at least one).
    """

    row: np.ndarray
    starts: np.ndarray
    u: np.ndarray
    f: np.ndarray
    above: np.ndarray
    true_above: np.ndarray


def _groups(mask: np.ndarray, ys: np.ndarray, values: np.ndarray | None) -> _Groups:
    """The tie groups of every row: counted by score code, else from one unstable sort."""
    n, m = ys.shape
    counts = None if values is None else code_counts(mask, ys, values)
    if counts is not None:
        pos, neg = counts  # (n, n_values), ascending score
        k = pos.shape[1]
        true_ge, all_ge = counts_at_or_above(pos), counts_at_or_above(pos + neg)
        return _Groups(
            np.repeat(np.arange(n), k),
            np.arange(0, n * k, k),
            pos.ravel(),
            neg.ravel(),
            (all_ge - pos - neg).ravel(),
            (true_ge - pos).ravel(),
        )
    if mask.dtype != bool:
        mask = mask != 0
    blocks = ascending_tie_blocks(ys, mask)
    u = np.rint(blocks.sums).astype(np.int64)
    n_true = np.count_nonzero(mask, axis=1)
    true_to_end = np.cumsum(u)  # true labels up to the end of each block (flat)
    true_to_end -= (np.cumsum(n_true) - n_true)[blocks.row]  # ... within its row
    starts = np.flatnonzero(blocks.first == 0)
    return _Groups(
        blocks.row,
        starts,
        u,
        blocks.size - u,
        m - blocks.first - blocks.size,
        n_true[blocks.row] - true_to_end,
    )


def _broken_rows(mask: np.ndarray, ys: np.ndarray, values, rules) -> np.ndarray:
    """LRAP and coverage of every row under each rule of ``rules``: (2 * len(rules), n).

    Inside a group the true labels take the ``u`` positions after ``start``
    (``start = above`` optimistic, ``above + f`` pessimistic), the k-th of
    them with ``true_above + k`` true labels at or above it, so the group adds
    ``sum_k (true_above + k) / (start + k) = u + (true_above - start) *
    (H[start + u] - H[start])`` to the LRAP sum (H the harmonic numbers), and
    its deepest true label sits at ``start + u``. Without ties every rule
    gives the max rule's numbers, to the last bit.
    """
    n, m = ys.shape
    g = _groups(mask, ys, values)
    harmonic = np.zeros(m + 1)
    np.cumsum(1.0 / np.arange(1, m + 1), out=harmonic[1:])
    n_true = np.bincount(g.row, weights=g.u, minlength=n)
    ordinary = (n_true > 0) & (n_true < m)
    out = np.empty((2 * len(rules), n))
    for r, rule in enumerate(rules):  # the two tie rules
        start = g.above if rule == "optimistic" else g.above + g.f
        term = (g.true_above - start) * (harmonic[start + g.u] - harmonic[start])
        term += g.u
        # a lone true label: (true_above + 1) / (start + 1), the max rule's very division
        lone = g.u == 1
        term[lone] = (g.true_above[lone] + 1) / (start[lone] + 1)
        total = np.bincount(g.row, weights=term, minlength=n)
        lrap = np.ones(n)
        lrap[ordinary] = total[ordinary] / n_true[ordinary]
        deepest = np.where(g.u > 0, start + g.u, 0)
        out[2 * r] = lrap
        out[2 * r + 1] = np.maximum.reduceat(deepest, g.starts)
    return out


def _tie_broken(mask: np.ndarray, ys: np.ndarray, rules) -> np.ndarray:
    """:func:`_broken_rows` over cache-sized blocks of rows, counted on few distinct scores."""
    n, m = ys.shape
    values = score_values(ys)
    out = np.empty((2 * len(rules), n))

    def run(rows: slice) -> None:  # a few dozen blocks of rows
        out[:, rows] = _broken_rows(mask[rows], ys[rows], values, rules)

    map_blocks(run, row_chunks(n, m))
    return out


def tie_broken_per_sample(y_true, y_score, *, ties: str = "max") -> TieBroken:
    """LRAP and coverage of every sample with ties broken by a rule.

    * ``"max"``: scikit-learn's rule, tied labels share the maximal rank
      (:func:`lrap_per_sample`, :func:`coverage_per_sample`);
    * ``"optimistic"``: inside a tie group the true labels come first, each
      taking its own position as rank (best case);
    * ``"pessimistic"``: inside a tie group the false labels come first
      (worst case).

    Without ties the three agree. Coverage under ``"max"`` equals the
    pessimistic one. For LRAP, ``"max"`` >= pessimistic, but the optimistic
    value is not an upper bound: the max rule also counts every tied true
    label in ``|L_ij|``, so a group of tied true labels after a false one can
    score more under it (labels ``[1, 1, 0, 0, 1, 1]``, scores ``[1, 0, 2, 1,
    0, 0]``: max 0.5833, optimistic 0.5667). A sample with no
    true label keeps LRAP 1 and coverage 0 under every rule. One
    ``np.lexsort`` of the whole matrix, then cumulative sums.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix, at least 2 labels.
    y_score : array-like of shape (n_samples, n_labels)
        Finite scores.
    ties : {"max", "optimistic", "pessimistic"}

    Returns
    -------
    TieBroken
        ``lrap`` and ``coverage``, each of shape (n_samples,).

    Examples
    --------
    >>> y, s = [[1, 0, 1, 0]], [[0.5, 0.5, 0.5, 0.1]]
    >>> [round(float(tie_broken_per_sample(y, s, ties=t).lrap[0]), 4) for t in TIE_RULES]
    [0.6667, 1.0, 0.5833]
    >>> [float(tie_broken_per_sample(y, s, ties=t).coverage[0]) for t in TIE_RULES]
    [3.0, 2.0, 3.0]
    """
    _check_ties(ties)
    yt, ys = check_matrices(y_true, y_score, min_columns=2, as_mask=False)
    if ties == "max":
        return TieBroken(lrap_values(yt, ys), coverage_values(yt, ys))
    lrap, coverage = _tie_broken(yt, ys, (ties,))
    return TieBroken(lrap, coverage)


def tie_broken_summary(
    y_true, y_score, *, sample_weight=None, checkpoint=None, retrieved=None
) -> pd.DataFrame:
    """Mean LRAP and coverage under each tie rule, side by side.

    Parameters
    ----------
    y_true : array-like of shape (n_samples, n_labels)
        0/1 indicator matrix, at least 2 labels.
    y_score : array-like of shape (n_samples, n_labels)
    sample_weight : array-like of shape (n_samples,), optional
    checkpoint : callable, optional
        Called between groups of rows, as in :func:`label_ranking_contributions`.
    retrieved : array-like of bool, shape (n_samples, n_labels), optional
        The items retrieved, as :func:`label_ranking_contributions` reads them.

    Returns
    -------
    pandas.DataFrame
        Index ``ties`` ("max", "optimistic", "pessimistic"), columns ``lrap``
        and ``coverage`` (the weighted means of :func:`tie_broken_per_sample`).

    Examples
    --------
    >>> t = tie_broken_summary([[1, 0, 1, 0]], [[0.5, 0.5, 0.5, 0.1]])
    >>> t.round(4).to_dict("index")["optimistic"]
    {'lrap': 1.0, 'coverage': 2.0}
    """
    import pandas as pd

    yt, ys = check_matrices(y_true, y_score, min_columns=2, as_mask=False)
    w = check_sample_weight(sample_weight, yt.shape[0])
    ys, _ = _masked(yt, ys, retrieved)
    rules = ("optimistic", "pessimistic")
    max_lrap, max_cov, opt_lrap, opt_cov, pes_lrap, pes_cov = _by_row_groups(
        lambda r: np.vstack(
            [
                lrap_values(yt[r], ys[r]),
                coverage_values(yt[r], ys[r]),
                _tie_broken(yt[r], ys[r], rules),
            ]
        ),
        *yt.shape,
        checkpoint,
    )
    lrap = np.array([max_lrap, opt_lrap, pes_lrap])  # (3, n_samples): one row per rule
    cov = np.array([max_cov, opt_cov, pes_cov])
    if w is None:
        lrap_mean, cov_mean = lrap.mean(axis=1), cov.mean(axis=1)
    else:
        lrap_mean, cov_mean = lrap @ w / w.sum(), cov @ w / w.sum()
    out = pd.DataFrame(
        {"lrap": lrap_mean, "coverage": cov_mean},
        index=pd.Index(TIE_RULES, name="ties"),
    )
    return out


class SampleReplaced(NamedTuple):
    """The per-sample table and the means after one sample's scores change.

    Attributes
    ----------
    contributions : pandas.DataFrame
        :func:`label_ranking_contributions` with the sample's row replaced.
    coverage, lrap, ranking_loss : float
        The (weighted) means over every sample.
    ties : pandas.DataFrame or None
        :func:`tie_broken_summary` updated, when one was passed.

    Examples
    --------
    >>> t = label_ranking_contributions([[1, 0], [0, 1]], [[0.2, 0.8], [0.1, 0.9]])
    >>> r = replace_sample_scores([1, 0], [0.9, 0.1], contributions=t, sample=0)
    >>> r.lrap, r.ranking_loss
    (1.0, 0.0)
    """

    contributions: pd.DataFrame
    coverage: float
    lrap: float
    ranking_loss: float
    ties: pd.DataFrame | None


_CONTRIBUTION_COLUMNS = (
    "weight",
    "n_true",
    "n_pairs",
    "n_misordered",
    "coverage",
    "lrap",
    "ranking_loss",
    "coverage_moves_mean",
    "lrap_moves_mean",
    "ranking_loss_moves_mean",
    "note",
)


def _check_sample_row(x, name: str) -> np.ndarray:
    """One sample's values as a float64 vector; a bad entry is named by its column."""
    try:
        arr = np.asarray(x, dtype=np.float64)
    except (TypeError, ValueError):
        arr = None
    if arr is None or arr.ndim != 1 or arr.size == 0:
        return as_array(x, name, ndim=(1,))  # raises with its own message
    bad = ~np.isfinite(arr)
    if bad.any():
        j = int(np.argmax(bad))
        what = "NaN" if np.isnan(arr[j]) else "an infinite value"
        raise MetricInputError(
            f"{name} contains {what} at column {j} ({name}[{j}]); values must be finite numbers."
        )
    return arr


def _check_replacement(contributions, sample, y_true_row, y_score_row, ties, previous_score_row):
    import pandas as pd

    if not isinstance(contributions, pd.DataFrame):
        raise MetricInputError(
            "contributions must be the DataFrame of label_ranking_contributions; "
            f"got {type(contributions).__name__}."
        )
    missing = sorted(set(_CONTRIBUTION_COLUMNS).difference(contributions.columns))
    if missing:
        raise MetricInputError(
            f"contributions lacks the column(s) {missing}: pass the DataFrame of "
            "label_ranking_contributions."
        )
    n = contributions.shape[0]
    if isinstance(sample, bool) or not isinstance(sample, (int, np.integer)):
        raise MetricInputError(f"sample must be an integer row index; got {sample!r}.")
    if not 0 <= sample < n:
        raise MetricInputError(f"sample must be in [0, {n - 1}]; got {sample}.")
    yt = _check_sample_row(y_true_row, "y_true_row")
    ys = _check_sample_row(y_score_row, "y_score_row")
    check_same_shape(yt, ys, "y_true_row", "y_score_row")
    if yt.shape[0] < 2:
        raise MetricInputError(f"y_true_row needs at least 2 labels; got {yt.shape[0]}.")
    yt = check_binary(yt, "y_true_row")
    n_true = int(np.count_nonzero(yt))
    if n_true != int(contributions["n_true"].iat[sample]):
        raise MetricInputError(
            f"y_true_row has {n_true} true labels but row {sample} of contributions has "
            f"{int(contributions['n_true'].iat[sample])}: pass that sample's own labels."
        )
    previous = None
    if ties is not None:
        if not isinstance(ties, pd.DataFrame) or list(ties.index) != list(TIE_RULES):
            raise MetricInputError(
                f"ties must be the DataFrame of tie_broken_summary (index {TIE_RULES})."
            )
        if previous_score_row is None:
            raise MetricInputError(
                "previous_score_row is needed to update ties: the sample's scores before "
                "the change."
            )
        previous = _check_sample_row(previous_score_row, "previous_score_row")
        check_same_shape(yt, previous, "y_true_row", "previous_score_row")
    return yt, ys, previous


def replace_sample_scores(
    y_true_row,
    y_score_row,
    *,
    contributions: pd.DataFrame,
    sample: int,
    ties: pd.DataFrame | None = None,
    previous_score_row=None,
) -> SampleReplaced:
    """Contributions and means after replacing the scores of one sample ("what if?").

    Equals running :func:`label_ranking_contributions`,
    :func:`coverage_error`, :func:`label_ranking_average_precision_score`,
    :func:`label_ranking_loss` (and :func:`tie_broken_summary`) on the whole
    matrix with row ``sample`` of ``y_score`` replaced, at the cost of one
    row: the edited sample's values come from the same kernels, run on that
    row alone; the means are taken again over the updated columns, and the
    ``*_moves_mean`` columns, which all depend on the means, are recomputed
    vectorized. The optimistic and pessimistic means of ``ties`` are not
    means of the table's columns: they are shifted by the sample's weighted
    change, ``w_i * (new_i - old_i) / sum(w)`` (the old values from
    ``previous_score_row``).

    Parameters
    ----------
    y_true_row : array-like of shape (n_labels,)
        The sample's 0/1 labels (unchanged; at least 2 labels).
    y_score_row : array-like of shape (n_labels,)
        Its new finite scores.
    contributions : pandas.DataFrame
        :func:`label_ranking_contributions` of the data before the change (the
        ``weight`` column carries the sample weights).
    sample : int
        The 0-based row whose scores change.
    ties : pandas.DataFrame, optional
        :func:`tie_broken_summary` of the data before the change, to update.
    previous_score_row : array-like of shape (n_labels,), optional
        The sample's scores before the change; needed with ``ties``.

    Returns
    -------
    SampleReplaced
        ``contributions`` (a new table; the input is left as it is),
        ``coverage``, ``lrap`` and ``ranking_loss`` (the weighted means),
        ``ties`` (None without ``ties``).

    Raises
    ------
    MetricInputError
        A row that is not 0/1 labels or finite scores (naming the argument
        and the column), rows of different lengths, a ``sample`` out of
        range, or labels whose count differs from the table's ``n_true``.

    Examples
    --------
    >>> y = [[1, 0, 0], [1, 0, 1], [1, 1, 0]]
    >>> s = [[0.75, 0.5, 1], [1, 0.2, 0.1], [0.9, 0.7, 0.6]]
    >>> t = label_ranking_contributions(y, s)
    >>> r = replace_sample_scores([1, 0, 0], [2, 0.5, 1], contributions=t, sample=0)
    >>> r.contributions["lrap"].round(4).tolist()
    [1.0, 0.8333, 1.0]
    >>> round(r.lrap, 4), r.coverage, round(r.ranking_loss, 4)
    (0.9444, 2.0, 0.1667)
    >>> from metrics import label_ranking_average_precision_score
    >>> s[0] = [2, 0.5, 1]
    >>> round(label_ranking_average_precision_score(y, s), 4)
    0.9444
    """
    yt, ys, previous = _check_replacement(
        contributions, sample, y_true_row, y_score_row, ties, previous_score_row
    )
    i = int(sample)
    mask = (yt == 1)[None, :]
    w = contributions["weight"].to_numpy(dtype=np.float64)
    unit = bool((w == 1.0).all())  # unweighted: the same arithmetic as sample_weight=None
    wv = None if unit else w
    cov = contributions["coverage"].to_numpy().copy()
    lrap = contributions["lrap"].to_numpy(dtype=np.float64).copy()
    loss = contributions["ranking_loss"].to_numpy(dtype=np.float64).copy()
    wrong = contributions["n_misordered"].to_numpy().copy()
    cov[i] = coverage_values(mask, ys[None, :])[0]
    lrap[i] = lrap_values(mask, ys[None, :])[0]
    loss[i] = ranking_loss_values(mask, ys[None, :])[0]
    wrong[i] = np.rint(loss[i] * contributions["n_pairs"].iat[i])
    table = contributions.assign(
        n_misordered=wrong,
        coverage=cov,
        lrap=lrap,
        ranking_loss=loss,
        coverage_moves_mean=_moves_mean(cov, wv),
        lrap_moves_mean=_moves_mean(lrap, wv),
        ranking_loss_moves_mean=_moves_mean(loss, wv),
    )
    lrap_mean, cov_mean = weighted_mean(lrap, wv), weighted_mean(cov, wv)
    summary = None
    if ties is not None:
        rules = ("optimistic", "pessimistic")
        new = _tie_broken(mask, ys[None, :], rules)[:, 0]  # lrap, cov of each rule
        old = _tie_broken(mask, previous[None, :], rules)[:, 0]
        shift = (new - old) * (w[i] / w.sum())
        summary = ties.copy()
        summary.loc["max"] = [lrap_mean, cov_mean]
        summary.loc[list(rules), "lrap"] += shift[0::2]
        summary.loc[list(rules), "coverage"] += shift[1::2]
    return SampleReplaced(table, cov_mean, lrap_mean, weighted_mean(loss, wv), summary)


def _tie_broken_table(yt: np.ndarray, ys: np.ndarray, ties: str) -> pd.DataFrame:
    """label, score, is_true, tie_group, rank (= position in the broken order)."""
    import pandas as pd

    ranked = _ranked_labels(yt, ys)  # for the tie groups, by label
    group_of = np.empty(yt.shape[0], dtype=np.int64)
    group_of[ranked["label"].to_numpy()] = ranked["tie_group"].to_numpy()
    order = _strict_order((yt == 1)[None, :], ys[None, :], ties)[0]
    return pd.DataFrame(
        {
            "label": order.astype(np.int64),
            "score": ys[order],
            "is_true": yt[order] == 1,
            "rank": np.arange(1, yt.shape[0] + 1, dtype=np.int64),
            "tie_group": group_of[order],
        }
    )


def lrap_steps_tie_broken(y_true_row, y_score_row, *, ties: str = "max") -> pd.DataFrame:
    """:func:`lrap_steps` under a tie rule (see :func:`tie_broken_per_sample`).

    ``ties="max"`` returns :func:`lrap_steps` itself. Otherwise the rows
    follow the broken order (descending score; inside a tie group true labels
    first for ``"optimistic"``, last for ``"pessimistic"``) and ``rank`` is
    the position in it; the columns are those of :func:`lrap_steps`, and the
    last ``running_value`` is the sample's value in
    :func:`tie_broken_per_sample`.

    Parameters
    ----------
    y_true_row : array-like of shape (n_labels,)
        0/1 labels of one sample, at least 2.
    y_score_row : array-like of shape (n_labels,)
    ties : {"max", "optimistic", "pessimistic"}

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> t = lrap_steps_tie_broken([1, 0, 1, 0], [0.5, 0.5, 0.5, 0.1], ties="pessimistic")
    >>> t[["label", "rank", "n_true_at_or_above"]].to_numpy().tolist()
    [[1, 1, <NA>], [0, 2, 1], [2, 3, 2], [3, 4, <NA>]]
    >>> round(float(t["running_value"].iloc[-1]), 4)
    0.5833
    """
    _check_ties(ties)
    if ties == "max":
        return lrap_steps(y_true_row, y_score_row)
    yt, ys = _check_rows(y_true_row, y_score_row, min_labels=2)
    # rank is the position in the broken order: |L_ij| is the running count of true labels
    return _with_lrap_columns(_tie_broken_table(yt, ys, ties))


def coverage_steps_tie_broken(y_true_row, y_score_row, *, ties: str = "max") -> pd.DataFrame:
    """:func:`coverage_steps` under a tie rule (see :func:`tie_broken_per_sample`).

    ``ties="max"`` returns :func:`coverage_steps` itself; otherwise the rows
    follow the broken order, ``rank`` is the position in it and the last
    ``running_value`` is the deepest position of a true label.

    Parameters
    ----------
    y_true_row : array-like of shape (n_labels,)
        0/1 labels of one sample, at least 2.
    y_score_row : array-like of shape (n_labels,)
    ties : {"max", "optimistic", "pessimistic"}

    Returns
    -------
    pandas.DataFrame

    Examples
    --------
    >>> t = coverage_steps_tie_broken([0, 1, 0, 1], [0.9, 0.5, 0.5, 0.1], ties="optimistic")
    >>> t[["label", "rank", "running_value"]].to_numpy().tolist()
    [[0, 1, 0], [1, 2, 2], [2, 3, 2], [3, 4, 4]]
    """
    _check_ties(ties)
    if ties == "max":
        return coverage_steps(y_true_row, y_score_row)
    yt, ys = _check_rows(y_true_row, y_score_row, min_labels=2)
    return _with_coverage_columns(_tie_broken_table(yt, ys, ties))
