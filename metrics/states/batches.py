"""Record batches to states: the one chunk -> state step of every engine.

``python -m metrics evaluate`` streams a Parquet file by pyarrow record
batches (:mod:`metrics.cli`), :mod:`metrics.distributed` turns each Dask
partition into one, and the app's big data (``explorer.bigdata``) reads them
too; each batch becomes a state here, so every engine refuses the same input
with the same message and builds the same states. pyarrow is imported only
when a list column is met.

Examples
--------
>>> import argparse, pyarrow as pa
>>> from metrics.states.batches import batch_state
>>> args = argparse.Namespace(task="binary", y_true=["y"], score=["p"], weight=None)
>>> batch = pa.record_batch({"y": [0, 1, 1], "p": [0.2, 0.7, 0.4]})
>>> batch_state(batch, args, {}).roc_auc_score()
1.0
"""

from __future__ import annotations

import numpy as np

from metrics._validation import MetricInputError
from metrics.states.binary import BinaryState
from metrics.states.multilabel import MultilabelState
from metrics.states.ranking import RankingState
from metrics.states.regression import RegressionState

__all__ = ["TASKS", "Pair", "batch_state", "column", "matrix", "ranking_options", "vector"]

#: The tasks of ``python -m metrics evaluate``.
TASKS = ("binary", "ranking", "multilabel", "regression")


def column(batch, name: str) -> np.ndarray:
    """One column of a record batch as numpy: 1-D for scalars, 2-D for a list column."""
    import pyarrow as pa

    col = batch.column(name)
    if col.null_count:
        row = int(np.argmax(np.asarray(col.is_null())))
        raise MetricInputError(f"column {name!r} holds a null (missing value) in a row near {row}.")
    if (
        pa.types.is_fixed_size_list(col.type)
        or pa.types.is_list(col.type)
        or pa.types.is_large_list(col.type)
    ):
        lengths = np.asarray(col.value_lengths())
        n = len(col)
        width = int(lengths[0]) if n else 0
        if n and not (lengths == width).all():
            raise MetricInputError(
                f"column {name!r} holds lists of different lengths ({width} and "
                f"{int(lengths[np.argmax(lengths != width)])}); every row needs one value "
                "per label."
            )
        values = col.flatten()
        if values.null_count:
            raise MetricInputError(f"column {name!r} holds a null inside a list.")
        return values.to_numpy(zero_copy_only=False).reshape(n, width)
    return col.to_numpy(zero_copy_only=False)


def matrix(batch, names: list[str]) -> np.ndarray:
    """Several scalar columns side by side, or the one list column, as a 2-D array."""
    if len(names) == 1:
        out = column(batch, names[0])
        return out if out.ndim == 2 else out[:, None]
    return np.column_stack([column(batch, n) for n in names])


def vector(batch, names: list[str], what: str) -> np.ndarray:
    if len(names) != 1:
        raise MetricInputError(f"{what} takes one column for this task; got {len(names)}.")
    out = column(batch, names[0])
    if out.ndim != 1:
        raise MetricInputError(f"{what} column {names[0]!r} holds lists; this task takes scalars.")
    return out


def ranking_options(args, max_grade: float) -> dict:
    """The keyword arguments of :meth:`RankingState.from_chunk` named by ``args``."""
    return {
        "k": args.k,
        "log_base": args.log_base,
        "ignore_ties": args.ignore_ties,
        "denominator": args.denominator,
        "max_grade": max_grade,
    }


def batch_state(batch, args, options: dict):
    """The state of one record batch (one or several rows) for ``args.task``.

    Shared by the streaming reader here and by :mod:`metrics.distributed`,
    whose partitions become record batches, so both engines refuse the same
    input with the same message and build the same states.
    """
    w = vector(batch, [args.weight], "--weight") if args.weight else None
    if args.task == "binary":
        yt = vector(batch, args.y_true, "--y-true")
        return BinaryState.from_chunk(yt, vector(batch, args.score, "--score"), w)
    if args.task == "regression":
        yt = vector(batch, args.y_true, "--y-true")
        return RegressionState.from_chunk(yt, vector(batch, args.score, "--score"), w)
    yt, ys = matrix(batch, args.y_true), matrix(batch, args.score)
    state = RankingState.from_chunk(yt, ys, sample_weight=w, **options)
    if args.task == "multilabel":
        state = Pair(state, MultilabelState.from_chunk(yt, ys >= args.threshold, w))
    return state


class Pair:
    """Two states merged side by side (ranking and multilabel of the same batches)."""

    def __init__(self, a, b) -> None:
        self.a, self.b = a, b

    def merge(self, other: Pair) -> Pair:
        return Pair(self.a.merge(other.a), self.b.merge(other.b))

    def finalize(self) -> dict:
        return {**self.a.finalize(), **self.b.finalize()}
