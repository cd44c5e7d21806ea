"""Graded relevance of ranked lists: validation, the AP@K conventions, and the shared kernels.

Shared by the retrieval metrics (:mod:`metrics.retrieval`), their
explanations (:mod:`metrics.explain.retrieval`) and the ranking state
(:mod:`metrics.states.ranking`), so all refuse the same input with the same
message and compute on the same blocks of rows.
"""

from __future__ import annotations

import operator
from numbers import Real

import numpy as np

from metrics._ranks import (
    ROW_CHUNK_ELEMENTS,
    map_blocks,
    row_chunks,
)
from metrics._validation import (
    MetricInputError,
    as_2d,
    check_nonnegative,
    check_same_shape,
    location,
)

DENOMINATORS = ("min_m_k", "relevant", "k", "hits")


def check_ranking_inputs(y_true, y_score, *, int_grades=False) -> tuple[np.ndarray, np.ndarray]:
    """Two finite 2-D float matrices of the same shape, ``y_true >= 0``.

    With ``int_grades=True`` an integer or boolean ``y_true`` matrix is kept
    as it is (it cannot hold NaN or infinity, and its grades compare and
    convert exactly), which spares a float copy of the matrix; for metrics
    that only compare grades or gather them.
    """
    if (
        int_grades
        and isinstance(y_true, np.ndarray)
        and y_true.dtype.kind in "iub"
        and y_true.ndim == 2
        and y_true.size
    ):
        yt = y_true
    else:
        yt = as_2d(y_true, "y_true")
    ys = as_2d(y_score, "y_score")
    check_same_shape(yt, ys, "y_true", "y_score")
    check_nonnegative(yt, "y_true")
    return yt, ys


def check_denominator(denominator) -> str:
    if not isinstance(denominator, str) or denominator not in DENOMINATORS:
        allowed = ", ".join(repr(d) for d in DENOMINATORS)
        raise MetricInputError(f"denominator must be one of {allowed}; got {denominator!r}.")
    return denominator


def check_max_grade(
    max_grade, y_true: np.ndarray, name: str = "y_true", data_max: float | None = None
) -> float:
    """The top of the grade scale: given, or the largest grade in ``y_true``.

    ``data_max``: that largest grade when known, which spares the pass over
    ``y_true`` (made only to word the refusal of a ``max_grade`` below it).
    """
    if max_grade is None:
        return float(y_true.max()) if data_max is None else float(data_max)
    bad = f"max_grade must be a non-negative number or None; got {max_grade!r}."
    if isinstance(max_grade, bool) or not isinstance(max_grade, Real):
        raise MetricInputError(bad)
    mg = float(max_grade)
    if not np.isfinite(mg) or mg < 0:
        raise MetricInputError(bad)
    if data_max is not None and mg >= data_max:
        return mg
    above = y_true > mg
    if above.any():
        where = tuple(int(i) for i in np.unravel_index(int(np.argmax(above)), y_true.shape))
        grade = float(y_true[where])
        if y_true.ndim == 1:
            at = f"{name}[{where[0]}] (column {where[0]})"
        else:
            at = location(name, where)
        raise MetricInputError(
            f"max_grade ({mg:g}) is smaller than the grade {grade:g} at {at}; "
            "max_grade must be at least the largest grade."
        )
    return mg


#: Entries per block of rows of the chunked kernels below (tests shrink it to
#: cross block boundaries). Blocks of about 2**17 entries keep every temporary
#: of a kernel in cache and bound the peak memory to a few blocks.
BLOCK_ELEMENTS = ROW_CHUNK_ELEMENTS


def by_row_blocks(kernel, *arrays: np.ndarray, width: int | None = None) -> tuple[np.ndarray, ...]:
    """``kernel`` run on cache-sized blocks of rows, its outputs concatenated.

    ``kernel(*blocks)`` returns a tuple of arrays whose first axis runs over
    the rows of its block (or over one row of block totals); the blocks
    (a few dozen, never one per query, each vectorized) are shared among
    threads by :func:`metrics._ranks.map_blocks` and their outputs
    concatenated in row order, so the result does not depend on the number
    of threads. ``width``: the entries per row the kernel works on (default:
    the first array's columns), which sizes the blocks; a kernel that reads
    the first K ranked positions only takes blocks of more rows.
    """
    n, m = arrays[0].shape
    blocks = row_chunks(n, m if width is None else width, max_elements=BLOCK_ELEMENTS)

    def run(rows):
        return kernel(*map(operator.itemgetter(rows), arrays))

    parts = map_blocks(run, blocks)
    return tuple(np.concatenate(p) for p in zip(*parts, strict=True))


def safe_divide(num: np.ndarray, den: np.ndarray) -> np.ndarray:
    """``num / den`` with 0 where ``den`` is 0."""
    den = np.asarray(den, dtype=np.float64)
    out = np.zeros(np.broadcast(num, den).shape, dtype=np.float64)
    np.divide(num, den, out=out, where=den != 0)
    return out


def stop_probability(grades: np.ndarray, max_grade: float) -> np.ndarray:
    """Chapelle's R = (2^g - 1) / 2^max_grade, written so that it cannot overflow."""
    return np.exp2(grades - max_grade) - np.exp2(-max_grade)


def check_retrieved(retrieved, y_score: np.ndarray) -> np.ndarray | None:
    """The ``retrieved`` mask: None (every item retrieved) or a bool matrix shaped like y_score.

    A ``False`` entry is an item the system never retrieved, such as a judged
    relevant document missing from a TREC run or a padding slot of a short
    query: it counts among the query's relevant items (recall, AP over M,
    the ideal DCG) but never sits in a top K, whatever K. Booleans or 0/1
    numbers are accepted; anything else is refused naming the first bad entry.

    Examples
    --------
    >>> import numpy as np
    >>> check_retrieved([[1, 0]], np.zeros((1, 2))).tolist()
    [[True, False]]
    >>> check_retrieved(None, np.zeros((1, 2))) is None
    True
    """
    if retrieved is None:
        return None
    mask = np.asarray(retrieved)
    if mask.shape != y_score.shape:
        raise MetricInputError(
            f"retrieved must have the shape of y_score {y_score.shape}; got {mask.shape}."
        )
    if mask.dtype == bool:
        return mask
    if mask.dtype.kind not in "iuf":
        raise MetricInputError(f"retrieved must hold booleans (or 0/1); got dtype {mask.dtype}.")
    bad = (mask != 0) & (mask != 1)
    if bad.any():
        where = np.unravel_index(int(np.argmax(bad)), mask.shape)
        raise MetricInputError(
            f"retrieved must hold booleans (or 0/1); got {mask[where].item()!r} at "
            f"{location('retrieved', where)}."
        )
    return mask != 0


def retrieved_only(
    y_true: np.ndarray, y_score: np.ndarray, retrieved: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray]:
    """The grades and scores a ranking sees: unretrieved items last and never relevant.

    An unretrieved item gets grade 0 (it is no hit and adds no gain) and
    score ``-inf`` (it ranks after every retrieved item, so it takes no
    place in a top K). The denominators (relevant items, the ideal DCG)
    still read the original ``y_true``. Without a mask both arrays come
    back as they are.

    Examples
    --------
    >>> import numpy as np
    >>> g, s = retrieved_only(np.array([[1, 2]]), np.array([[0.5, 0.9]]),
    ...                       np.array([[True, False]]))
    >>> g.tolist(), s.tolist()
    ([[1, 0]], [[0.5, -inf]])
    """
    if retrieved is None:
        return y_true, y_score
    return np.where(retrieved, y_true, 0), np.where(retrieved, y_score, -np.inf)
