"""The threshold kernels over the blocks ``(fps, tps, thresholds)`` read in chunks.

The blocks (the weight at or above each distinct score, highest score
first) are as long as the distinct scores; a kernel that builds its rates
over all of them at once holds several arrays of that length beside the
table (the KS statistic's two rates and their gap, the accuracy ratio's
gain curve and its differences: two to three times a
:class:`~metrics.states.BinaryState`'s table at 10^8 rows). These kernels
take the blocks as an iterable of consecutive chunks instead, so a state
can cumulate its table a chunk at a time (:func:`descending_chunks`) and
the in-memory functions pass slices of their whole blocks
(:func:`block_chunks`): every element is the same float computed the same
way, so both give the same numbers (the accuracy ratio's area is a sum of
per-chunk sums of products, chunks counted from the highest score, on both
sides).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import numpy as np

#: Rows of the blocks a kernel holds at a time (each array of a chunk is 512 KiB). At
#: 2**18 the chunks alone took 13-16 MiB and the finalize was the peak of a 3-million-row
#: file's command (RSS 200 MiB against 191 at 2**16; the 10^8-row command no slower,
#: three runs of each alternated).
CHUNK = 1 << 16


def block_chunks(fps, tps, thresholds=None) -> Iterator[tuple]:
    """Consecutive slices ``(fps, tps, thresholds)`` of whole blocks (views, no copy)."""
    chunk = CHUNK
    for lo in range(0, fps.shape[0], chunk):
        hi = lo + chunk
        yield fps[lo:hi], tps[lo:hi], None if thresholds is None else thresholds[lo:hi]


def widened(a: np.ndarray) -> np.ndarray:
    """``a`` as float64 or int64 (a copy only when narrower): a stream's compact table
    (float32 scores, int32 counts) is read a chunk at a time, each chunk widened, so every
    sum and every threshold is the one of the widened table.

    Examples
    --------
    >>> import numpy as np
    >>> widened(np.array([2**31 - 1], dtype=np.int32)).dtype.name
    'int64'
    """
    return a.astype(_wide_dtype(a), copy=False)


def _wide_dtype(a: np.ndarray):
    return np.int64 if a.dtype.kind in "iu" else np.float64


def _carried_cumsum(a: np.ndarray, carry) -> np.ndarray:
    """``np.cumsum`` of ``a`` started from ``carry``: the same sums, in the same order, as
    the cumulated sum of every row before ``a`` and ``a`` (floats too; narrow columns
    widened first)."""
    out = np.array(a, dtype=_wide_dtype(a))
    if carry is not None and out.shape[0]:
        out[0] += carry
    return np.cumsum(out, out=out)


def sum_of_products(a: np.ndarray, b: np.ndarray) -> float:
    """``sum(a * b)``, a chunk of :data:`CHUNK` rows at a time: numpy's pairwise sum within
    a chunk, the chunks' sums added in order.

    Not ``np.dot``: BLAS sums in an order that follows its thread count (a Dask worker's
    average precision was 9e-16 away from the same rows' in one process), and its threads
    spin on after the call (0.14 CPU s of a 10^8-row ``python -m metrics evaluate``, perf).

    Examples
    --------
    >>> import numpy as np
    >>> sum_of_products(np.array([1, 2, 3]), np.array([0.5, 0.25, 1.0]))
    4.0
    """
    total, chunk = 0.0, CHUNK
    for lo in range(0, a.shape[0], chunk):
        total += float(np.sum(a[lo : lo + chunk] * b[lo : lo + chunk]))
    return total


def descending_chunks(scores, positive, negative, chunk: int | None = None) -> Iterator[tuple]:
    """The blocks of an ascending table of distinct scores, ``chunk`` rows at a time.

    Rows with no weight in either class are dropped, as the whole blocks drop
    them. ``fps`` and ``tps`` are cumulated from the highest score down, each
    chunk carrying on from the last, so each value is the one ``np.cumsum``
    of the whole reversed column gives.

    Examples
    --------
    >>> import numpy as np
    >>> from metrics._block_chunks import descending_chunks
    >>> s, p, n = np.array([0.1, 0.5, 0.9]), np.array([0, 1, 1]), np.array([2, 0, 1])
    >>> [f.tolist() for f, t, _ in descending_chunks(s, p, n, chunk=2)]
    [[1, 1], [3]]
    """
    chunk = chunk or CHUNK
    top, carry_f, carry_t = scores.shape[0], None, None
    while top > 0:
        lo = max(0, top - chunk)
        p, n = positive[lo:top][::-1], negative[lo:top][::-1]
        tps, fps = _carried_cumsum(p, carry_t), _carried_cumsum(n, carry_f)
        carry_t, carry_f = tps[-1], fps[-1]
        thr = widened(scores[lo:top][::-1])
        keep = (p != 0) | (n != 0)
        if not keep.all():
            fps, tps, thr = fps[keep], tps[keep], thr[keep]
        top = lo
        if fps.shape[0]:
            yield fps, tps, thr


def descending_totals(positive, negative) -> tuple:
    """``(fps[-1], tps[-1])`` of the blocks: the totals as the cumulated sums end (a sum of
    floats depends on its order; of integers not)."""
    if positive.dtype.kind in "iu" and negative.dtype.kind in "iu":
        return negative.sum(), positive.sum()
    totals, chunk = [], CHUNK
    for column in (negative, positive):
        carry = column.dtype.type(0)
        for hi in range(column.shape[0], 0, -chunk):
            carry = _carried_cumsum(column[max(0, hi - chunk) : hi][::-1], carry)[-1]
        totals.append(carry)
    return tuple(totals)


def gain_chunk(fps, tps, total: float, tps_last) -> tuple[np.ndarray, np.ndarray]:
    """One chunk of the gain curve's points without its leading (0, 0)."""
    x = np.empty(fps.shape[0])
    np.add(fps, tps, out=x)
    x /= total
    y = np.empty_like(x)
    np.divide(tps, tps_last, out=y)
    return x, y


def read_chunks(chunks: Iterable, *readers) -> list:
    """One pass over ``chunks`` feeding every reader; each reader's result, in order.

    A reader is a generator (:func:`ks_reader` and the others here,
    :func:`metrics.operating_point.choice_reader`) that takes each chunk from ``send``
    and returns its result when sent None: several metrics of a state's table then
    share one cumulated pass over it (about 0.2 s a pass at 2 x 10^7 distinct scores),
    each reading every chunk as it would alone (the same floats).

    Examples
    --------
    >>> import numpy as np
    >>> fps, tps = np.array([0, 1, 1, 2]), np.array([1, 1, 2, 2])
    >>> ks, ar = read_chunks(block_chunks(fps, tps, np.array([0.9, 0.8, 0.7, 0.1])),
    ...                      ks_reader(2, 2), accuracy_ratio_reader(2, 2))
    >>> ks, ar
    ((0.5, 0.9), 0.5)
    """
    for reader in readers:
        next(reader)  # up to its first chunk: a reader may refuse its input there
    for chunk in chunks:
        for reader in readers:
            reader.send(chunk)
    return [_result(reader) for reader in readers]


def _result(reader):
    try:
        reader.send(None)
    except StopIteration as done:
        return done.value
    raise RuntimeError("a reader of chunks went on after its last chunk")  # a bug here


def ks_reader(fps_last, tps_last):
    """Reads ``max |TPR - FPR|`` over the thresholds and the highest threshold reaching it
    (:func:`read_chunks`)."""
    best, at = -np.inf, float("nan")
    while (chunk := (yield)) is not None:
        fps, tps, thr = chunk
        d = np.abs(tps / tps_last - fps / fps_last)
        i = int(np.argmax(d))  # thresholds descend: the first maximum is the highest threshold
        if d[i] > best:
            best, at = float(d[i]), float(thr[i])
    return best, at


def ks_from_chunks(chunks: Iterable, fps_last, tps_last) -> tuple[float, float]:
    """``max |TPR - FPR|`` over the thresholds and the highest threshold reaching it."""
    return read_chunks(chunks, ks_reader(fps_last, tps_last))[0]


def lift_reader(fps_last, tps_last, fraction: np.ndarray):
    """Reads the gain at ``fraction`` (straight across a tie block) over ``fraction``.

    ``np.interp`` reads only the last point at or below a fraction and the
    first above it: those two points, kept as the chunks go by, give the
    value ``np.interp`` gives over the whole curve. The curve's x rises, so a
    chunk whose ends both lie on one side of every fraction (all of its
    points below it, or all above one already found) is read at its last
    point alone: only the chunk across a fraction is computed whole.
    """
    f = np.atleast_1d(fraction).ravel()
    total = float(fps_last) + float(tps_last)
    below = np.zeros((2, f.shape[0]))  # the curve starts at (0, 0)
    above = np.full((2, f.shape[0]), np.nan)
    while (chunk := (yield)) is not None:
        ends = gain_chunk(chunk[0][[0, -1]], chunk[1][[0, -1]], total, tps_last)
        past = f >= ends[0][1]  # every point of the chunk at or below these fractions
        if (past | ((f < ends[0][0]) & ~np.isnan(above[0]))).all():
            below[:, past] = np.array([[ends[0][1]], [ends[1][1]]])
            continue
        x, y = gain_chunk(chunk[0], chunk[1], total, tps_last)
        k = np.searchsorted(x, f, side="right")
        has = k > 0
        below[:, has] = x[k[has] - 1], y[k[has] - 1]
        first = (k < x.shape[0]) & np.isnan(above[0])
        above[:, first] = x[k[first]], y[k[first]]
    out = np.empty(f.shape[0])
    for j in range(f.shape[0]):  # a few fractions: two points each
        xp, yp = (below[:, j], above[:, j]) if not np.isnan(above[0, j]) else (below[:, j], None)
        xs = [xp[0]] if yp is None else [xp[0], yp[0]]
        ys = [xp[1]] if yp is None else [xp[1], yp[1]]
        out[j] = np.interp(f[j], xs, ys)
    return (out / f).reshape(np.shape(fraction))


def lift_from_chunks(chunks: Iterable, fps_last, tps_last, fraction: np.ndarray) -> np.ndarray:
    """Gain at ``fraction`` (straight across a tie block) over ``fraction``."""
    return read_chunks(chunks, lift_reader(fps_last, tps_last, fraction))[0]


def accuracy_ratio_reader(fps_last, tps_last):
    """Reads the accuracy ratio: the trapezoids of the whole gain curve, summed a chunk at
    a time."""
    total = float(fps_last) + float(tps_last)
    area, x0, y0 = 0.0, 0.0, 0.0
    while (chunk := (yield)) is not None:
        x, y = gain_chunk(chunk[0], chunk[1], total, tps_last)
        # each trapezoid's width times its two heights, the first from the chunk before,
        # in place; then a pairwise sum: BLAS's dot costs several times more CPU (its
        # threads) and sums in an order that follows its thread count
        terms = np.empty_like(x)
        terms[0] = (x[0] - x0) * (y[0] + y0)
        np.subtract(x[1:], x[:-1], out=terms[1:])
        terms[1:] *= y[1:] + y[:-1]
        area += float(np.sum(terms))
        x0, y0 = x[-1], y[-1]
    prevalence = float(tps_last) / total
    return float((area / 2.0 - 0.5) / (0.5 - prevalence / 2.0))


def accuracy_ratio_from_chunks(chunks: Iterable, fps_last, tps_last) -> float:
    """The accuracy ratio: the trapezoids of the whole gain curve, summed a chunk at a time."""
    return read_chunks(chunks, accuracy_ratio_reader(fps_last, tps_last))[0]


def net_benefit_reader(fps_last, tps_last, pt: np.ndarray):
    """Reads ``TP / n - FP / n * pt / (1 - pt)`` predicting positive where ``score >= pt``."""
    p = np.atleast_1d(pt).ravel()
    tp, fp = np.zeros(p.shape[0]), np.zeros(p.shape[0])
    while (chunk := (yield)) is not None:
        fps, tps, thr = chunk
        # thresholds descend: the rows at or above pt lead the chunk
        k = thr.shape[0] - np.searchsorted(thr[::-1], p, side="left")
        has = k > 0
        tp[has], fp[has] = tps[k[has] - 1], fps[k[has] - 1]
    n = float(tps_last) + float(fps_last)
    return ((tp - fp * (p / (1.0 - p))) / n).reshape(np.shape(pt))


def net_benefit_from_chunks(chunks: Iterable, fps_last, tps_last, pt: np.ndarray) -> np.ndarray:
    """``TP / n - FP / n * pt / (1 - pt)`` predicting positive where ``score >= pt``."""
    return read_chunks(chunks, net_benefit_reader(fps_last, tps_last, pt))[0]
