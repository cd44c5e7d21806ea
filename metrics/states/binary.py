"""The binary state: positive and negative weight per distinct score.

Every threshold metric of a binary scorer depends on the data only through
the table *distinct score -> (positive weight, negative weight)*: the ROC
and precision-recall curves have one point per distinct score, AUC and AP
are sums over those points, the confusion matrix at a threshold sums the
table on either side of it, and the log loss of a probability ``v`` is the
same for every sample scoring ``v``. The table of a union of chunks is the
sum of their tables (merged by score value), so the state is exact: its
metrics equal the in-memory functions on the concatenated data whatever the
chunking (bit for bit without ``sample_weight``, where the table holds
integer counts and AUC and AP are computed from the same integers as
:func:`metrics.roc_auc_score` and :func:`metrics.average_precision_score`;
to rounding, 1e-12 relative, with weights, through the package's own
kernels ``auc_from_blocks`` and ``ap_from_blocks``).

Its size is the number of distinct scores, 24 bytes each (score, positive
and negative count): float32 model scores have at most 2**24 distinct
values in [0, 1) as numpy draws them (about 400 MB at most), float64 scores
can make the table as long as the data.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass
from functools import cached_property, partial

import numpy as np

from metrics import _block_chunks
from metrics._binary_input import labels_and_scores, positive_mask
from metrics._block_chunks import (
    accuracy_ratio_from_chunks,
    accuracy_ratio_reader,
    descending_chunks,
    descending_totals,
    ks_from_chunks,
    ks_reader,
    lift_from_chunks,
    lift_reader,
    net_benefit_from_chunks,
    net_benefit_reader,
    read_chunks,
    sum_of_products,
    widened,
)
from metrics._ranks import map_blocks
from metrics._runs import run_lengths, run_start_mask, runs
from metrics._thresholds import (
    ap_from_blocks,
    auc_from_blocks,
    intermediate_mask,
    prepend_value,
)
from metrics._validation import MetricInputError
from metrics.calibration import check_binning, check_norm, error_from_sums, table_sums
from metrics.operating_point import check_operating_options, choice_reader, settle
from metrics.states._common import (
    check_total_weight,
    chunk_weights,
    float32_values,
    numpy_dtype,
)
from metrics.threshold import (
    check_fraction,
    cost_from_blocks,
    decision_from_blocks,
    gain_curve_from_blocks,
    refuse_one_class,
    scalar_or_array,
    threshold_probabilities,
)

__all__ = ["BinaryState"]

_EPS = float(np.finfo(np.float64).eps)
#: Distinct scores from which :meth:`BinaryState.finalize` reads its three groups of metrics
#: on :func:`~metrics._ranks.map_blocks`'s threads (numpy releases the GIL in their passes:
#: 2.9 s of wall against 4.3 for a table of 2 x 10^7 scores on two cores, measured).
_PARALLEL_ROWS = 1 << 20

#: The keys of :meth:`BinaryState.finalize`, in its order.
_FINALIZED = (
    "roc_auc_score", "average_precision_score", "log_loss", "confusion_matrix", "ks_statistic",
    "lift_at", "accuracy_ratio", "calibration_error", "max_calibration_error", "net_benefit",
    "operating_point",
)  # fmt: skip


def _distinct_counts(sorted_values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Distinct values of an ascending array and how often each occurs (int64)."""
    n = sorted_values.shape[0]
    if n == 0:
        return sorted_values, np.zeros(0, dtype=np.int64)
    r = runs(sorted_values)
    if r.starts.shape[0] == n:
        return sorted_values, np.ones(n, dtype=np.int64)
    return sorted_values[r.starts], r.lengths


def _class_counts(pos: np.ndarray, s: np.ndarray):
    """The distinct scores of the positives and of the negatives, and their counts.

    Two value sorts, much faster than an argsort. Scores that are all
    float32 values (a model's float32 output widened to float64) are sorted
    as float32, about 1.6x faster (half the bytes), and widened back: the
    same values, the same order.
    """
    narrow = float32_values(s)
    if narrow is not None:
        s = narrow
    del narrow
    out = []
    for mask in (pos, ~pos):
        part = np.compress(mask, s)
        part.sort()
        values, counts = _distinct_counts(part)
        out += [values.astype(np.float64, copy=False), counts]
    return out


def _count_below(scores: np.ndarray, t: float) -> int:
    """The number of ascending ``scores`` below ``t``; float32 scores (a stream's compact
    table) compared as float64, a chunk at a time (no float64 copy of the column)."""
    if scores.dtype == np.float64:
        return int(np.searchsorted(scores, t, side="left"))
    step = _block_chunks.CHUNK
    return sum(
        int(np.count_nonzero(widened(scores[lo : lo + step]) < t))
        for lo in range(0, scores.shape[0], step)
    )


def _scatter(out: np.ndarray, keep, from_b, a_w, b_w, step: int = 1 << 18) -> None:
    """``a_w`` then ``b_w`` written to their rows of ``out`` (``b``'s added), a slice of the
    merged order at a time: no index array of the merged length is ever held.

    The row of a merged position is the number of kept positions up to it, less one: a
    dropped twin (``b``'s copy of a score in both tables) lands on ``a``'s row before it.
    The rows are intp: numpy scatters by an intp index about 3x faster than by an int32
    one, which it converts first, and adds by ``np.add.at`` about 4x faster than by
    ``out[rows] += w`` (a gather, then a scatter; measured, numpy 2.4). Slices of 2**18
    positions keep the rows and their two parts near 4 MB (16 at 2**20: a 3-million-row
    file's merges peaked 20 MB higher), for the same CPU time (two 10^7-row tables merged
    in 0.53-0.84 s against 0.61-1.00 s, measured).
    """
    done_a = done_b = row = 0
    for lo in range(0, from_b.shape[0], step):
        rows = np.cumsum(keep[lo : lo + step], dtype=np.intp)
        rows += row - 1
        row = int(rows[-1]) + 1
        part = from_b[lo : lo + step]
        # np.compress: about 5x faster than a boolean index here (numpy 2.4, measured)
        ra, rb = np.compress(~part, rows), np.compress(part, rows)
        out[ra] = a_w[done_a : done_a + ra.shape[0]]
        np.add.at(out, rb, b_w[done_b : done_b + rb.shape[0]])
        done_a, done_b = done_a + ra.shape[0], done_b + rb.shape[0]


def sample_keys(bits: np.ndarray, positive: np.ndarray, out: np.ndarray | None = None):
    """``bits * 2 + label`` (uint32) of samples with non-negative float32 scores, written
    into ``out`` when given: a non-negative float32's bits order as the value does and use
    31 bits, so one sort of these keys puts each score's negatives, then its positives,
    together."""
    key = np.left_shift(bits, np.uint32(1), out=out)
    key |= positive
    return key


def keys_table(key: np.ndarray, presorted: bool = False) -> list:
    """The compact table of samples' keys (:func:`sample_keys`, sorted here in place unless
    ``presorted``): ``[bits (uint32), positive (int32), negative (int32)]``.

    The runs of the sorted keys are the two classes' counts (no sort per class, no
    merge of two tables): a score's keys are one run of its negatives, then one of its
    positives, so a score's negatives are its first run's length when that run is
    negative and its positives its last run's when that run is positive. The counts are
    int32 (fewer than 2**31 keys); no index array but the runs' starts: about 22 bytes a
    distinct key at most, where a scatter by table rows took twice that and twice the
    time (measured on 2**20 keys).

    Examples
    --------
    >>> import numpy as np
    >>> bits = np.array([0.5, 0.25, 0.5], dtype=np.float32).view(np.uint32)
    >>> table = keys_table(sample_keys(bits, np.array([True, False, False])))
    >>> table[0].view(np.float32).tolist(), table[1].tolist(), table[2].tolist()
    ([0.25, 0.5], [0, 1], [1, 1])
    """
    if not presorted:
        key.sort()
    start = run_start_mask(key)
    keys = key[start]
    lengths = run_lengths(np.flatnonzero(start), key.shape[0], dtype=np.int32)
    del start
    positive = (keys & np.uint32(1)).view(np.int32) != 0
    keys >>= np.uint32(1)  # the score's bits
    first = run_start_mask(keys)  # a score's first key (its negatives, or its positives)
    last = np.empty_like(first)  # a score's last key (its positives, or its negatives)
    last[:-1] = first[1:]
    last[-1:] = True
    p = np.where(positive[last], lengths[last], np.int32(0))
    n = np.where(positive[first], np.int32(0), lengths[first])
    return [keys[first], p, n]


def float32_bits(narrow: np.ndarray) -> np.ndarray:
    """The bits (uint32) of non-negative float32 scores, -0.0 made 0.0 (one score).

    Examples
    --------
    >>> import numpy as np
    >>> float32_bits(np.array([-0.0, 0.0, 1.0], dtype=np.float32)).tolist()
    [0, 0, 1065353216]
    """
    return (narrow + np.float32(0)).view(np.uint32)


def _key_table(pos: np.ndarray, narrow: np.ndarray) -> list:
    """:func:`keys_table` of float32 scores, widened: float64 scores and int64 counts."""
    bits, p, n = keys_table(sample_keys(float32_bits(narrow), pos))
    return [wide_scores(bits), p.astype(np.int64), n.astype(np.int64)]


def wide_scores(scores: np.ndarray) -> np.ndarray:
    """Scores as float64: float32 bits (a stream's uint32 column) widened back."""
    if scores.dtype == np.uint32:
        return scores.view(np.float32).astype(np.float64)
    return scores


def _bits_order(a: np.ndarray, b: np.ndarray) -> tuple:
    """Two ascending distinct uint32 bit columns merged, and which rows came from ``b``."""
    n_a = a.shape[0]
    key = np.empty(n_a + b.shape[0], dtype=np.uint32)
    key[:n_a] = a
    key[n_a:] = b
    del a, b
    key <<= np.uint32(1)
    key[n_a:] |= np.uint32(1)  # a score in both tables: a's key first
    key.sort(kind="stable")  # timsort: one merge of the two runs
    from_b = (key & np.uint32(1)).astype(bool)
    key >>= np.uint32(1)
    return key, from_b


def merge_tables(a: list, b: list) -> list:
    """The sum of two tables of distinct ascending scores, merged by value.

    ``a`` and ``b`` are lists ``[scores, positive, negative]``; they are
    emptied column by column as the merge goes, so a column nobody else
    holds is freed as soon as it is consumed: the peak is about 1.4 times
    the merged table (a state's own columns are never changed).

    The two score arrays are concatenated and put in order by a stable
    argsort, numpy's timsort, which finds the two sorted runs and merges
    them in linear time (faster than a ``searchsorted`` of one table into
    the other, measured); the scores themselves by a stable value sort, the
    same timsort merge (the default quicksort does not see the runs and took
    most of a large file's time). The argsort gives which table each merged
    row came from, and the weights are scattered to their rows a slice of the
    merged order at a time (int32 rows; no index array of the merged length). A
    score present in both tables lands twice, ``a``'s copy first: its
    weights are summed into that copy (``a + b``, as a merge in either order
    adds) and ``b``'s dropped.

    A stream may hold its scores as float32 bits instead
    (:mod:`metrics.states.binary_stream`: uint32, non-negative float32
    scores): two such tables merge by one value sort of ``bits * 2 +
    from_b`` keys (31 bits and one), a timsort merge of two runs about
    four times faster than the argsort and the sort of float64 scores.
    """
    # a table that crossed processes (Dask) holds unpickled dtype instances, equal to numpy's
    # own but not them: np.add.at then leaves its fast path (53 against 1.6 ns a row measured,
    # the merge of two 18-million-row tables 4.2 against 1.4-2.0 s); a view restores them
    a[:], b[:] = [numpy_dtype(c) for c in a], [numpy_dtype(c) for c in b]
    dtype = np.result_type(a[1], b[1])
    if a[0].shape[0] == 0 or b[0].shape[0] == 0:
        s, p, n = b if a[0].shape[0] == 0 else a
        return [s, p.astype(dtype, copy=False), n.astype(dtype, copy=False)]
    if a[0].dtype == np.uint32 and b[0].dtype == np.uint32:
        s, from_b = _bits_order(a.pop(0), b.pop(0))
    else:
        n_a = a[0].shape[0]
        s = np.concatenate((wide_scores(a.pop(0)), wide_scores(b.pop(0))))
        from_b = np.argsort(s, kind="stable") >= n_a
        s.sort(kind="stable")  # the values in the argsort's order, in place
    # each table is distinct: a score in both is twice in a row, a's copy first
    keep = np.empty(s.shape[0], dtype=bool)
    keep[0] = True
    np.not_equal(s[1:], s[:-1], out=keep[1:])
    if not keep.all():
        s = s[keep]  # not np.compress: its int64 index of the kept rows is twice the column
    out = [s]
    for _ in range(2):  # a column at a time: a's and b's freed before the next is built
        w = np.zeros(s.shape[0], dtype=dtype)
        _scatter(w, keep, from_b, a.pop(0), b.pop(0))
        out.append(w)
    return out


def chunk_input(y_true, y_score, sample_weight=None) -> tuple:
    """A chunk's input validated as :meth:`BinaryState.from_chunk` refuses it:
    ``(positive mask, float64 scores, weights or None, narrow)``, ``narrow`` the scores
    as float32 when they are unweighted, non-negative and all float32 values (a model's
    float32 probabilities), else None.

    Examples
    --------
    >>> pos, s, w, narrow = chunk_input([1, 0], [0.5, 0.25])
    >>> pos.tolist(), w, narrow.dtype.name
    ([True, False], None, 'float32')
    >>> chunk_input([1, 0], [0.1, 0.25])[3] is None  # 0.1 is no float32 value
    True
    """
    y, s = labels_and_scores(y_true, y_score, multilabel_ok=False)
    w = chunk_weights(sample_weight, y.shape[0])
    s = s.astype(np.float64, copy=False)
    narrow = None
    if w is None and s.shape[0] and s.min() >= 0:
        narrow = float32_values(s)
    return positive_mask(y), s, w, narrow


def _before(a: np.ndarray, first) -> np.ndarray:
    """``a`` moved one row down with ``first`` on top: at each row of a descending chunk,
    the weight cumulated above it (``first``: the last row of the chunk before)."""
    out = np.empty_like(a)
    out[0] = first
    out[1:] = a[:-1]
    return out


def _twice_u(positive: np.ndarray, negative: np.ndarray) -> int:
    """``2 U = sum_v pos(v) (2 neg(< v) + neg(v))`` of an ascending unweighted table, exact
    in Python's integers (int64 within a chunk of 2^16 rows): the Mann-Whitney count of
    the in-memory function. Its own pass over the two count columns, not the threshold
    metrics' cumulated one: the finalize reads it beside the log loss, on the other thread."""
    u2, below, step = 0, 0, _block_chunks.CHUNK
    for lo in range(0, positive.shape[0], step):
        n = negative[lo : lo + step]
        twice = np.cumsum(n, dtype=np.int64)  # the negatives at or below each score
        twice += below
        below = int(twice[-1])
        twice *= 2
        twice -= n  # 2 neg(<= v) - neg(v) = 2 neg(< v) + neg(v)
        u2 += int(np.dot(positive[lo : lo + step].astype(np.int64), twice))
    return u2


def _ap_reader(w_pos, k: int):
    """Reads average precision from the descending chunks of an unweighted table with ``k``
    distinct positive scores: the precision at each (``tps / (tps + fps)`` where it has
    positives), filled from the end a chunk at a time so that it lies in ascending order,
    then summed whole (the float sum of the in-memory function)."""
    precision, cnt, at, ones, tps_above = np.empty(k), np.empty(k), k, True, 0
    while (chunk := (yield)) is not None:
        fps, tps, _ = chunk
        p = tps - _before(tps, tps_above)
        tps_above = tps[-1]
        has = np.flatnonzero(p)
        tp, m = tps.take(has), has.shape[0]
        np.divide(tp, tp + fps.take(has), out=precision[at - m : at][::-1])
        counts = cnt[at - m : at][::-1]
        counts[:] = p.take(has)
        ones = ones and bool((counts == 1).all())
        at -= m
    total = precision.sum() if ones else sum_of_products(cnt, precision)
    return max(0.0, float(total) / int(w_pos))


@dataclass(frozen=True, eq=False)
class BinaryState:
    """Mergeable state of a binary scorer: weight per distinct score and class.

    Build one per chunk with :meth:`from_chunk`, combine with
    :meth:`merge` (or :func:`metrics.states.merge_states`), read the metrics
    with :meth:`finalize` or the methods named as the in-memory functions.

    Attributes
    ----------
    scores : ndarray of shape (n_distinct,)
        The distinct scores of samples with non-zero weight, ascending.
    positive, negative : ndarray of shape (n_distinct,)
        The weight of the positive and the negative samples at each score
        (int64 counts when no chunk had ``sample_weight``, else float64). A
        stream's compact table (:class:`~metrics.states.binary_stream.CompactBinary`)
        is finalized as held, float32 scores and int32 counts: the finalize's
        metrics widen it a chunk at a time, to the same values.
    weighted : bool
        Whether some chunk had ``sample_weight``.
    n_samples : int
        Samples seen, zero-weight ones included.
    score_min, score_max : float
        The extreme scores seen, zero-weight samples included (NaN before any
        sample): the log loss needs every score in [0, 1].

    Examples
    --------
    >>> from metrics.states import BinaryState
    >>> a = BinaryState.from_chunk([0, 0, 1], [0.1, 0.4, 0.35])
    >>> b = BinaryState.from_chunk([1], [0.8])
    >>> state = a.merge(b)
    >>> state.scores.tolist(), state.positive.tolist(), state.negative.tolist()
    ([0.1, 0.35, 0.4, 0.8], [0, 1, 0, 1], [1, 0, 1, 0])
    >>> state.roc_auc_score(), round(state.average_precision_score(), 4)
    (0.75, 0.8333)
    """

    scores: np.ndarray
    positive: np.ndarray
    negative: np.ndarray
    weighted: bool = False
    n_samples: int = 0
    score_min: float = float("nan")
    score_max: float = float("nan")

    # ------------------------------------------------------------------
    # building and merging
    # ------------------------------------------------------------------
    @classmethod
    def empty(cls) -> BinaryState:
        """The state of no sample (the identity of :meth:`merge`).

        Returns
        -------
        BinaryState

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> BinaryState.empty().n_samples
        0
        """
        z = np.zeros(0, dtype=np.int64)
        return cls(np.zeros(0), z, z.copy())

    @classmethod
    def from_chunk(cls, y_true, y_score, sample_weight=None) -> BinaryState:
        """The state of one chunk of samples.

        Parameters
        ----------
        y_true : array-like of shape (n_samples,)
            0/1 labels (1 the positive class).
        y_score : array-like of shape (n_samples,)
            Finite scores, higher meaning more likely positive (probabilities
            in [0, 1] for the log loss).
        sample_weight : array-like of shape (n_samples,), optional
            Non-negative weights; a chunk may weigh zero in total.

        Returns
        -------
        BinaryState

        Raises
        ------
        MetricInputError
            Labels other than 0/1, NaN or infinite scores, bad weights.

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([1, 0, 1], [0.5, 0.5, 0.9], sample_weight=[2, 1, 1])
        >>> s.scores.tolist(), s.positive.tolist(), s.negative.tolist()
        ([0.5, 0.9], [2.0, 1.0], [1.0, 0.0])
        """
        pos, s, w, narrow = chunk_input(y_true, y_score, sample_weight)
        return cls.of_input(pos, s, w, narrow)

    @classmethod
    def of_input(cls, pos, s, w, narrow) -> BinaryState:
        """The state of a chunk's validated input (:func:`chunk_input`)."""
        n_samples, lo, hi = int(pos.shape[0]), float(s.min()), float(s.max())
        if w is None:
            if narrow is not None:  # a model's float32 probabilities
                table = _key_table(pos, narrow)
            else:
                sp, cp, sn, cn = _class_counts(pos, s)
                zp, zn = np.zeros_like(cp), np.zeros_like(cn)
                table = merge_tables([sp, cp, zp], [sn, zn, cn])
        else:
            keep = w != 0
            if not keep.all():
                pos, s, w = pos[keep], s[keep], w[keep]
            order = np.argsort(s, kind="stable")
            ss = s[order]
            if ss.shape[0]:
                starts = runs(ss).starts
                wo, po = w[order], pos[order]
                p = np.add.reduceat(np.where(po, wo, 0.0), starts)
                n = np.add.reduceat(np.where(po, 0.0, wo), starts)
                table = (ss[starts], p, n)
            else:
                table = (ss, np.zeros(0), np.zeros(0))
        return cls(*table, weighted=w is not None, n_samples=n_samples, score_min=lo, score_max=hi)

    def merge(self, other: BinaryState) -> BinaryState:
        """The state of both chunks' samples together.

        Parameters
        ----------
        other : BinaryState

        Returns
        -------
        BinaryState

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> a = BinaryState.from_chunk([1, 0], [0.9, 0.2])
        >>> a.merge(BinaryState.from_chunk([0], [0.9])).negative.tolist()
        [1, 1]
        """
        if not isinstance(other, BinaryState):
            raise MetricInputError(
                f"a BinaryState merges only with a BinaryState; got {type(other).__name__}."
            )
        weighted = self.weighted or other.weighted
        s, p, n = merge_tables(
            [self.scores, self.positive, self.negative],
            [other.scores, other.positive, other.negative],
        )
        if weighted:  # a weighted state of no sample holds int64 zeros
            p, n = p.astype(np.float64, copy=False), n.astype(np.float64, copy=False)
        return BinaryState(
            s,
            p,
            n,
            weighted=weighted,
            n_samples=self.n_samples + other.n_samples,
            score_min=float(np.fmin(self.score_min, other.score_min)),
            score_max=float(np.fmax(self.score_max, other.score_max)),
        )

    @property
    def table_size(self) -> int:
        """The number of distinct scores (rows of the table): what the state's memory grows with."""
        return int(self.scores.shape[0])

    # ------------------------------------------------------------------
    # totals and the cumulated counts
    # ------------------------------------------------------------------
    @cached_property
    def _sums(self) -> tuple:
        # read by several metrics of one finalize, on both of its threads: a table of 2 x
        # 10^7 distinct scores takes 20 ms a reading (the state's columns never change)
        return self.positive.sum(), self.negative.sum()

    @cached_property
    def _descending_last(self) -> tuple:
        """:func:`~metrics._block_chunks.descending_totals`: the class sums for counts."""
        if self.positive.dtype.kind in "iu" and self.negative.dtype.kind in "iu":
            return self._sums[::-1]
        return descending_totals(self.positive, self.negative)

    def _totals(self) -> tuple:
        w_pos, w_neg = self._sums
        check_total_weight(float(w_pos + w_neg))
        return w_pos, w_neg

    def _refuse_single_class(self, w_pos, w_neg) -> None:
        if w_pos <= 0 or w_neg <= 0:
            only = "the negative class" if w_pos <= 0 else "the positive class"
            raise MetricInputError(
                f"ROC AUC is undefined: y_true holds a single class, only {only} (over every "
                "chunk, counting non-zero weights); it needs a positive and a negative."
            )

    def _blocks(self):
        """(fps, tps, thresholds): weights at or above each distinct score, descending."""
        keep = (self.positive != 0) | (self.negative != 0)
        s, p, n = self.scores, self.positive, self.negative
        if not keep.all():
            s, p, n = s[keep], p[keep], n[keep]
        return np.cumsum(n[::-1]), np.cumsum(p[::-1]), s[::-1]

    def _chunks(self):
        """The blocks of :meth:`_blocks` cumulated a chunk at a time (the same values)."""
        return descending_chunks(self.scores, self.positive, self.negative)

    # ------------------------------------------------------------------
    # metrics
    # ------------------------------------------------------------------
    def roc_auc_score(self) -> float:
        """ROC AUC of every sample seen, as :func:`metrics.roc_auc_score`.

        Without weights: ``2 U = sum_v pos(v) (2 neg(< v) + neg(v))``, exact
        in int64, the integers of the in-memory function. With weights: the
        trapezoid over the cumulated weights (``auc_from_blocks``).

        Returns
        -------
        float

        Raises
        ------
        MetricInputError
            A single class (with non-zero weight) over every chunk.

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> BinaryState.from_chunk([1, 0, 0, 1], [0.8, 0.8, 0.2, 0.6]).roc_auc_score()
        0.625
        """
        w_pos, w_neg = self._totals()
        self._refuse_single_class(w_pos, w_neg)
        if not self.weighted:  # a chunk at a time: the same integers, no full-length arrays
            return _twice_u(self.positive, self.negative) / (2.0 * int(w_pos) * int(w_neg))
        fps, tps, _ = self._blocks()
        return float(auc_from_blocks(fps, tps))

    def average_precision_score(self) -> float:
        """Average precision of every sample seen, as :func:`metrics.average_precision_score`.

        Returns
        -------
        float
            0.0 without a positive.

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> round(s.average_precision_score(), 4)
        0.8333
        """
        w_pos, w_neg = self._totals()
        if not self.weighted:
            if w_pos == 0:
                return 0.0
            reader = _ap_reader(w_pos, int(np.count_nonzero(self.positive)))
            return read_chunks(self._chunks(), reader)[0]
        fps, tps, _ = self._blocks()
        return float(ap_from_blocks(fps, tps))

    def log_loss(self) -> float:
        """Mean log loss of the scores as probabilities, as :func:`metrics.log_loss`.

        ``-log(clip(v))`` for a positive, ``-log(clip(1 - v))`` for a
        negative, clipped at the float64 epsilon, once per distinct score
        and weighted by the table. A single class is scored as with
        ``labels=[0, 1]``.

        Returns
        -------
        float

        Raises
        ------
        MetricInputError
            A score outside [0, 1] in some chunk.

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> round(BinaryState.from_chunk([1, 0, 0, 1], [0.9, 0.1, 0.2, 0.65]).log_loss(), 4)
        0.2162
        """
        w_pos, w_neg = self._totals()
        self._check_probabilities("the log loss")
        total, step = 0.0, _block_chunks.CHUNK
        for lo in range(0, self.scores.shape[0], step):  # no temporaries of the table's length
            v = widened(self.scores[lo : lo + step])
            t_pos = -np.log(np.clip(v, _EPS, 1 - _EPS))
            t_neg = -np.log(np.clip(1 - v, _EPS, 1 - _EPS))
            p, n = self.positive[lo : lo + step], self.negative[lo : lo + step]
            total += float(np.sum(p * t_pos)) + float(np.sum(n * t_neg))  # not BLAS's dot:
            # an int64 dot converts the counts first and its threads cost several times more
        count = self.n_samples if not self.weighted else w_pos + w_neg
        return float(total / count)

    def confusion_matrix(self, threshold: float = 0.5) -> np.ndarray:
        """``[[tn, fp], [fn, tp]]`` predicting positive where ``score >= threshold``.

        Equals ``metrics.confusion_matrix(y_true, y_score >= threshold,
        labels=[0, 1], sample_weight=...)`` on the samples seen.

        Parameters
        ----------
        threshold : float, default 0.5

        Returns
        -------
        ndarray of shape (2, 2)
            int64 counts without weights, float64 weight sums with them.

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> s.confusion_matrix(0.35).tolist()
        [[1, 1], [0, 2]]
        """
        if isinstance(threshold, bool) or not isinstance(threshold, int | float | np.number):
            raise MetricInputError(f"threshold must be a number; got {threshold!r}.")
        t = float(threshold)
        if np.isnan(t):
            raise MetricInputError("threshold must be a number; got NaN.")
        cut = _count_below(self.scores, t)
        p, n = self.positive, self.negative
        fn, tn = p[:cut].sum(), n[:cut].sum()
        tp, fp = p[cut:].sum(), n[cut:].sum()
        return np.array([[tn, fp], [fn, tp]], dtype=np.float64 if self.weighted else np.int64)

    def roc_curve(self, *, drop_intermediate: bool = True):
        """``fpr, tpr, thresholds`` as :func:`metrics.roc_curve` returns them.

        Parameters
        ----------
        drop_intermediate : bool, default True
            Drop the points inside horizontal and vertical runs.

        Returns
        -------
        fpr, tpr, thresholds : ndarray

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([1, 0, 1, 0, 0, 0], [0.9, 0.7, 0.8, 0.6, 0.5, 0.4])
        >>> [a.tolist() for a in s.roc_curve()]
        [[0.0, 0.0, 0.0, 1.0], [0.0, 0.5, 1.0, 1.0], [inf, 0.9, 0.8, 0.4]]
        """
        self._refuse_single_class(*self._totals())
        fps, tps, thresholds = self._blocks()
        keep = intermediate_mask(fps, tps) if drop_intermediate else None
        if keep is not None:
            fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
        return (
            prepend_value(0.0, fps, fps[-1]),
            prepend_value(0.0, tps, tps[-1]),
            prepend_value(np.inf, thresholds),
        )

    def precision_recall_curve(self, *, drop_intermediate: bool = False):
        """``precision, recall, thresholds`` as :func:`metrics.precision_recall_curve`.

        Parameters
        ----------
        drop_intermediate : bool, default False
            Keep only the ends of runs of equal true positive weight.

        Returns
        -------
        precision, recall : ndarray of shape (n_thresholds + 1,)
        thresholds : ndarray of shape (n_thresholds,), increasing

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])
        >>> p, r, t = s.precision_recall_curve()
        >>> p.round(4).tolist(), r.tolist(), t.tolist()
        ([0.5, 0.6667, 0.5, 1.0, 1.0], [1.0, 1.0, 0.5, 0.5, 0.0], [0.1, 0.35, 0.4, 0.8])
        """
        self._totals()
        fps, tps, thresholds = self._blocks()
        if drop_intermediate and fps.shape[0] > 2:
            keep = np.concatenate(
                ([True], (np.diff(tps[:-1]) != 0) | (np.diff(tps[1:]) != 0), [True])
            )
            fps, tps, thresholds = fps[keep], tps[keep], thresholds[keep]
        tps_f = tps.astype(np.float64)
        denom = (tps + fps).astype(np.float64)
        prec = np.divide(tps_f, denom, out=np.zeros_like(tps_f), where=denom != 0)
        rec = np.ones_like(tps_f) if tps[-1] == 0 else tps_f / tps_f[-1]
        precision = np.concatenate((prec[::-1], [1.0]))
        recall = np.concatenate((rec[::-1], [0.0]))
        return precision, recall, np.ascontiguousarray(thresholds[::-1])

    def _rate_blocks(self, what: str):
        """(fps, tps, thresholds), both classes checked (the gain, lift and KS)."""
        w_pos, w_neg = self._totals()
        refuse_one_class(float(w_pos), float(w_neg), what)
        return self._blocks()

    def _rate_chunks(self, what: str):
        """``(chunks, fps[-1], tps[-1])`` of the blocks, both classes checked: the kernels
        of :mod:`metrics._block_chunks` read them a chunk at a time."""
        w_pos, w_neg = self._totals()
        refuse_one_class(float(w_pos), float(w_neg), what)
        return (self._chunks(), *self._descending_last)

    def cumulative_gain_curve(self, *, drop_intermediate: bool = True):
        """``fraction, gain, thresholds`` as :func:`metrics.cumulative_gain_curve`.

        Parameters
        ----------
        drop_intermediate : bool, default True
            Drop the points inside straight runs.

        Returns
        -------
        fraction, gain, thresholds : ndarray

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
        >>> [a.tolist() for a in s.cumulative_gain_curve()][1]
        [0.0, 0.5, 0.5, 1.0, 1.0]
        """
        return gain_curve_from_blocks(*self._rate_blocks("The gain curve"), drop_intermediate)

    def lift_at(self, fraction=0.1):
        """Lift at the top ``fraction``, as :func:`metrics.lift_at`.

        Parameters
        ----------
        fraction : float or array-like, default 0.1

        Returns
        -------
        float or ndarray

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> BinaryState.from_chunk([1, 0, 1, 0], [0.9, 0.8, 0.8, 0.1]).lift_at(0.5)
        1.5
        """
        f = check_fraction(fraction, "fraction")
        return scalar_or_array(lift_from_chunks(*self._rate_chunks("The lift"), f))

    def ks_statistic(self):
        """``(statistic, threshold)`` as :func:`metrics.ks_statistic`.

        Returns
        -------
        tuple of float

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> BinaryState.from_chunk([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]).ks_statistic()
        (0.5, 0.9)
        """
        return ks_from_chunks(*self._rate_chunks("The KS statistic"))

    def accuracy_ratio(self) -> float:
        """The accuracy ratio (CAP), as :func:`metrics.accuracy_ratio`.

        Returns
        -------
        float

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> BinaryState.from_chunk([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1]).accuracy_ratio()
        0.5
        """
        return accuracy_ratio_from_chunks(*self._rate_chunks("The accuracy ratio"))

    def net_benefit(self, threshold_probability):
        """Net benefit of treating where ``score >= threshold_probability``, as
        :func:`metrics.net_benefit`.

        Parameters
        ----------
        threshold_probability : float or array-like
            In [0, 1).

        Returns
        -------
        float or ndarray

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> BinaryState.from_chunk([1, 0, 1, 0], [0.9, 0.6, 0.3, 0.1]).net_benefit(0.2)
        0.4375
        """
        pt = check_fraction(threshold_probability, "threshold_probability", low_open=False)
        chunks = self._rate_chunks("The net benefit")
        return scalar_or_array(net_benefit_from_chunks(*chunks, pt))

    def decision_curve(self, *, thresholds=None):
        """``thresholds, model, treat_all, treat_none`` as :func:`metrics.decision_curve`.

        Parameters
        ----------
        thresholds : array-like, optional
            Threshold probabilities in [0, 1) (default 0, 0.01, ..., 0.99).

        Returns
        -------
        tuple of ndarray

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([1, 0, 1, 0], [0.9, 0.6, 0.3, 0.1])
        >>> s.decision_curve(thresholds=[0.2, 0.5])[1].tolist()
        [0.4375, 0.0]
        """
        pt = threshold_probabilities(thresholds).ravel()
        return decision_from_blocks(*self._rate_blocks("The decision curve"), pt)

    def cost_curve(self):
        """``probability_cost, normalized_cost, thresholds`` as :func:`metrics.cost_curve`.

        Returns
        -------
        tuple of ndarray

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([1, 0, 1, 0], [0.9, 0.8, 0.7, 0.1])
        >>> s.cost_curve()[1].tolist()
        [0.0, 0.0, 0.25, 0.0, 0.0]
        """
        return cost_from_blocks(*self._rate_blocks("The cost curve"))

    def operating_point(
        self,
        objective="recall",
        *,
        constraint=None,
        beta=1.0,
        cost_fp=1.0,
        cost_fn=1.0,
        prevalence=None,
        threshold_probability=0.5,
        n_resamples=1000,
        confidence=0.95,
        random_state=0,
    ):
        """The constrained operating point as :func:`metrics.operating_point`.

        The bootstrap draws the four confusion cells at the chosen threshold
        from their multinomial distribution, which needs counts: a state
        built without ``sample_weight`` (a weighted one is refused).

        Parameters
        ----------
        objective, constraint, beta, cost_fp, cost_fn, prevalence
            As in :func:`metrics.operating_point`.
        threshold_probability, n_resamples, confidence, random_state
            As in :func:`metrics.operating_point`.

        Returns
        -------
        metrics.OperatingPoint

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([0, 1, 0, 1], [0.2, 0.9, 0.4, 0.6])
        >>> s.operating_point("youden", n_resamples=100).threshold
        0.6
        """
        reader, finish = self._operating(
            objective, constraint=constraint, beta=beta, cost_fp=cost_fp, cost_fn=cost_fn,
            prevalence=prevalence, threshold_probability=threshold_probability,
            n_resamples=n_resamples, confidence=confidence, random_state=random_state,
        )  # fmt: skip
        chunks = self._rate_chunks("The operating point")[0]
        return finish(read_chunks(chunks, reader)[0])

    def _operating(self, objective="recall", *, constraint=None, beta=1.0, cost_fp=1.0,
                   cost_fn=1.0, prevalence=None, threshold_probability=0.5, n_resamples=1000,
                   confidence=0.95, random_state=0):  # fmt: skip
        """:meth:`operating_point`'s options checked, then its reader of the blocks
        (:func:`~metrics.operating_point.choice_reader`) and what settles its choice."""
        bound, opts = check_operating_options(
            objective, constraint, n_resamples, confidence, beta=beta, cost_fp=cost_fp,
            cost_fn=cost_fn, prevalence=prevalence, threshold_probability=threshold_probability,
        )  # fmt: skip
        if self.weighted:
            raise MetricInputError(
                "the operating point's bootstrap needs counts; this state was built with "
                "sample_weight (use metrics.operating_point on the rows)."
            )
        reader = choice_reader(*self._descending_last, objective,
                               bound, opts)  # fmt: skip
        return reader, partial(settle, objective=objective, bound=bound, opts=opts,
                               n_resamples=n_resamples, confidence=confidence,
                               random_state=random_state)  # fmt: skip

    def calibration_error(self, *, n_bins=10, strategy="uniform", norm="l1", debiased=False):
        """Calibration error as :func:`metrics.calibration_error`.

        ``strategy="quantile"`` and ``debiased`` need counts: a state
        built without ``sample_weight``.

        Parameters
        ----------
        n_bins, strategy, norm, debiased
            As in :func:`metrics.calibration_error`.

        Returns
        -------
        float

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> s = BinaryState.from_chunk([0, 1, 1, 0, 1], [0.1, 0.8, 0.9, 0.7, 0.6])
        >>> round(s.calibration_error(n_bins=2), 4)
        0.02
        """
        n_bins = check_binning(n_bins, strategy)
        check_norm(norm, debiased, self.weighted)
        if self.weighted and strategy == "quantile":
            raise MetricInputError(
                "strategy='quantile' needs counts; this state was built with sample_weight."
            )
        self._totals()
        self._check_probabilities("the calibration error")
        sums, _ = table_sums(self.scores, self.positive, self.negative, n_bins, strategy)
        return error_from_sums(*sums, norm=norm, debiased=debiased)

    def _check_probabilities(self, what: str) -> None:
        if not (self.score_min >= 0 and self.score_max <= 1):
            bad = self.score_min if not self.score_min >= 0 else self.score_max
            raise MetricInputError(
                f"y_score must hold probabilities in [0, 1] for {what}; a chunk held {bad!r}."
            )

    def finalize(
        self, threshold: float = 0.5, *, fraction=0.1, threshold_probability=0.5, operating=None
    ) -> dict:
        """Every metric the state defines, keyed by the in-memory function's name.

        ``roc_auc_score`` (left out with a single class), ``average_precision_score``,
        ``log_loss`` (left out unless every score is in [0, 1]),
        ``confusion_matrix`` at ``threshold`` (a nested list), then
        ``ks_statistic`` (``[statistic, threshold]``), ``lift_at`` (at
        ``fraction``) and ``accuracy_ratio``, left out with a single class;
        ``calibration_error`` (ECE, 10 equal-width bins) and
        ``max_calibration_error`` (MCE, ``norm="max"``), left out unless
        every score is in [0, 1], ``net_benefit`` at
        ``threshold_probability`` too (and with a single class); last
        ``operating_point`` (the :class:`metrics.OperatingPoint`'s fields as
        a dict) when ``operating`` is given.

        Parameters
        ----------
        threshold : float, default 0.5
            The threshold of the confusion matrix.
        fraction : float, default 0.1
            The top fraction of :func:`metrics.lift_at`.
        threshold_probability : float, default 0.5
            Of :func:`metrics.net_benefit`.
        operating : dict, optional
            Keyword arguments of :meth:`operating_point` (``objective``,
            ``constraint``, ...).

        Returns
        -------
        dict

        Raises
        ------
        MetricInputError
            No weight at all.

        Examples
        --------
        >>> from metrics.states import BinaryState
        >>> out = BinaryState.from_chunk([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]).finalize()
        >>> list(out)[:4]
        ['roc_auc_score', 'average_precision_score', 'log_loss', 'confusion_matrix']
        >>> out["roc_auc_score"], out["ks_statistic"], out["accuracy_ratio"]
        (0.75, [0.5, 0.8], 0.5)
        """
        w_pos, w_neg = self._totals()
        both = w_pos > 0 and w_neg > 0
        probabilities = self.score_min >= 0 and self.score_max <= 1

        def ranking() -> dict:
            out = {"roc_auc_score": self.roc_auc_score()} if both else {}
            if self.weighted or w_pos == 0:  # else read in the thresholds' pass
                out["average_precision_score"] = self.average_precision_score()
            if probabilities:
                out["log_loss"] = self.log_loss()
            out["confusion_matrix"] = self.confusion_matrix(threshold).tolist()
            return out

        def thresholds() -> dict:  # one pass over the blocks for all of them
            readers, settle_choice = self._threshold_readers(
                both, probabilities, fraction, threshold_probability, operating
            )
            if not self.weighted and w_pos > 0:  # AP reads the same cumulated counts
                readers["average_precision_score"] = _ap_reader(
                    w_pos, int(np.count_nonzero(self.positive))
                )
            if not readers:
                return {}
            out = dict(zip(readers, read_chunks(self._chunks(), *readers.values()), strict=True))
            if "ks_statistic" in out:
                out["ks_statistic"] = list(out["ks_statistic"])
                out["lift_at"] = scalar_or_array(out["lift_at"])
            if "net_benefit" in out:
                out["net_benefit"] = scalar_or_array(out["net_benefit"])
            if "operating_point" in out:
                out["operating_point"] = asdict(settle_choice(out["operating_point"]))
            return out

        def calibration() -> dict:
            if not probabilities:  # calibration_error() and its norm="max": one pass
                return {}
            sums, _ = table_sums(self.scores, self.positive, self.negative, 10, "uniform")
            return {
                "calibration_error": error_from_sums(*sums, norm="l1"),
                "max_calibration_error": error_from_sums(*sums, norm="max"),
            }

        parts = (ranking, thresholds, calibration)  # in the order of errors
        if self.scores.shape[0] >= _PARALLEL_ROWS:
            done = map_blocks(lambda part: part(), parts)
        else:
            done = [part() for part in parts]
        out = {key: value for part in done for key, value in part.items()}
        return {key: out[key] for key in _FINALIZED if key in out}

    def _threshold_readers(self, both, probabilities, fraction, threshold_probability, operating):
        """The readers of the blocks (:func:`~metrics._block_chunks.read_chunks`) of the
        finalize's threshold metrics by key, every option checked first (in the keys'
        order), and what settles the operating point's choice (None without one)."""
        readers, settle_choice = {}, None
        fps_last, tps_last = self._descending_last
        if both:
            f = check_fraction(fraction, "fraction")
            readers["ks_statistic"] = ks_reader(fps_last, tps_last)
            readers["lift_at"] = lift_reader(fps_last, tps_last, f)
            readers["accuracy_ratio"] = accuracy_ratio_reader(fps_last, tps_last)
        if probabilities and both:
            pt = check_fraction(threshold_probability, "threshold_probability", low_open=False)
            readers["net_benefit"] = net_benefit_reader(fps_last, tps_last, pt)
        if operating is not None:
            readers["operating_point"], settle_choice = self._operating(**operating)
        return readers, settle_choice
