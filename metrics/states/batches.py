"""Record batches to states: the one chunk -> state step of every engine.

``python -m metrics evaluate`` streams a Parquet file by pyarrow record
batches (:mod:`metrics.cli`), :mod:`metrics.distributed` turns each Dask
partition into one, and any other reader of record batches can do the same;
each batch becomes a state here, so every engine refuses the same input
with the same message and builds the same states. pyarrow is imported only
when a list column is met.

Examples
--------
>>> import argparse, pyarrow as pa
>>> from metrics.states.batches import state_of_args
>>> args = argparse.Namespace(task="binary", y_true=["y"], score=["p"], weight=None,
...                           threshold=0.5)
>>> batch = pa.record_batch({"y": [0, 1, 1], "p": [0.2, 0.7, 0.4]})
>>> state_of_args(batch, args, {}).roc_auc_score()
1.0
"""

from __future__ import annotations

import numpy as np

from metrics._validation import MetricInputError, encode_groups
from metrics.states.binary import BinaryState
from metrics.states.binary_stream import stream_chunk
from metrics.states.groups import GroupStates
from metrics.states.multilabel import MultilabelState
from metrics.states.ranking import RankingState
from metrics.states.regression import RegressionState

__all__ = [
    "BATCH_ROWS", "BATCH_VALUES", "TASKS", "Pair", "batch_arrays", "batch_rows", "batch_state",
    "binary_options", "check_columns",
    "column", "group_states_of_args", "matrix", "ranking_options", "state_of_args",
    "stream_chunk_of_args", "vector",
]  # fmt: skip

#: The tasks of ``python -m metrics evaluate``.
TASKS = ("binary", "ranking", "multilabel", "regression")
#: Rows of a record batch when an engine reads a Parquet file itself (pyarrow's own
#: default, 65,536, made a 10^8-row binary file cost twice the CPU: 16 times the batches
#: and the merges of their tables).
BATCH_ROWS = 1 << 20
#: Values a record batch holds over the columns read, for every task but binary: a
#: regression file's two columns make batches of 2^20 rows; a ranking file of 20 label and
#: 20 score columns, 52,428 rows. (Batches of 2^20 rows there took 1.3 GB, the batch's
#: float64 matrices and the next batch, against 0.25 GB, for no gain in speed.)
BATCH_VALUES = 2 * BATCH_ROWS


def batch_rows(metadata, columns: list[str], task: str) -> int:
    """Rows of a record batch holding about :data:`BATCH_VALUES` values of ``columns``.

    Parameters
    ----------
    metadata : pyarrow.parquet.FileMetaData
        The Parquet file's (its first row group gives the values per row; a list
        column counts its values).
    columns : list of str
        The columns read.
    task : {"binary", "ranking", "multilabel", "regression"}
        ``binary`` keeps :data:`BATCH_ROWS` rows, whatever its columns (its stream was
        tuned to that size).

    Returns
    -------
    int

    Examples
    --------
    >>> import pyarrow as pa, pyarrow.parquet as pq, tempfile, os
    >>> path = os.path.join(tempfile.mkdtemp(), "f.parquet")
    >>> pq.write_table(pa.table({"y": [[1, 0]] * 4, "s": [[0.5, 0.2]] * 4}), path)
    >>> batch_rows(pq.ParquetFile(path).metadata, ["y", "s"], "ranking") == BATCH_VALUES // 4
    True
    """
    if task == "binary" or metadata.num_row_groups == 0:
        return BATCH_ROWS
    group = metadata.row_group(0)
    names = set(columns)
    values = sum(
        group.column(j).num_values
        for j in range(group.num_columns)
        if group.column(j).path_in_schema.split(".")[0] in names
    )
    per_row = max(values / max(group.num_rows, 1), 1.0)
    return max(int(BATCH_VALUES // per_row), 1)


def check_columns(path: str, names: list[str], wanted: list[str]) -> None:
    """Refuse a dataset at ``path`` whose columns ``names`` lack one of ``wanted``.

    Examples
    --------
    >>> from metrics.states.batches import check_columns
    >>> check_columns("f.parquet", ["y", "p"], ["y", "p"]) is None
    True
    """
    missing = [c for c in wanted if c not in names]
    if missing:
        raise MetricInputError(f"{path!r} has no column {missing[0]!r}; its columns are {names}.")


def as_numpy(array) -> np.ndarray:
    """A pyarrow array as numpy: a read-only view of its data where it holds numbers and no
    null (a 0/1 boolean column's values as bool, one byte each), else ``to_numpy``'s copy.

    pyarrow's ``to_numpy`` (and ``np.asarray`` of an array) imports pandas on its first
    call, to convert types numpy has no match for: 0.19 s and the memory of pandas, which
    the command's columns of numbers never need.

    Examples
    --------
    >>> import pyarrow as pa
    >>> as_numpy(pa.array([1.5, 2.5, 3.5]).slice(1)).tolist()
    [2.5, 3.5]
    >>> as_numpy(pa.array([True, False, True])).tolist()
    [True, False, True]
    >>> as_numpy(pa.chunked_array([[1, 2], [3]])).tolist(), as_numpy(pa.array([], pa.int8()))
    ([1, 2, 3], array([], dtype=int8))
    """
    import pyarrow as pa

    if isinstance(array, pa.ChunkedArray):  # a table's column: its chunks end to end
        return as_numpy(array.chunk(0) if array.num_chunks == 1 else array.combine_chunks())
    t = array.type
    if array.null_count == 0 and pa.types.is_boolean(t):  # bits: one byte each first
        import pyarrow.compute as pc

        return as_numpy(pc.cast(array, pa.uint8())).view(np.bool_)
    if array.null_count or not (pa.types.is_integer(t) or pa.types.is_floating(t)):
        return array.to_numpy(zero_copy_only=False)
    kind = "f" if pa.types.is_floating(t) else "i" if pa.types.is_signed_integer(t) else "u"
    dtype = np.dtype(f"{kind}{t.bit_width // 8}")
    if len(array) == 0:  # no data buffer to view
        out = np.empty(0, dtype=dtype)
    else:
        out = np.frombuffer(array.buffers()[1], dtype=dtype, count=len(array),
                            offset=array.offset * dtype.itemsize)  # fmt: skip
    out.flags.writeable = False  # pyarrow's data: as to_numpy's view of it
    return out


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
        lengths = as_numpy(col.value_lengths())
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
        return as_numpy(values).reshape(n, width)
    return as_numpy(col)


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


def binary_options(args) -> dict:
    """The keyword arguments of :meth:`BinaryState.finalize` named by ``args``: the lift's
    fraction, the net benefit's threshold probability and, with ``--objective``, the
    operating point's options (``--constraint RATE OP VALUE`` its bound).

    Examples
    --------
    >>> from metrics.cli import parse_args
    >>> args = parse_args(["evaluate", "f.parquet", "--task", "binary", "--y-true", "y",
    ...     "--score", "p", "--objective", "recall", "--constraint", "precision", ">=", "0.9"])
    >>> binary_options(args)["operating"]["constraint"]
    ('precision', '>=', 0.9)
    """
    options = {"fraction": args.lift_fraction, "threshold_probability": args.threshold_probability}
    if args.objective is None:
        if args.constraint is not None:
            raise MetricInputError("--constraint needs --objective (the rate to optimize).")
        return options
    constraint = None
    if args.constraint is not None:
        rate, op, value = args.constraint
        try:
            constraint = (rate, op, float(value))
        except ValueError:
            raise MetricInputError(
                f"--constraint's value must be a number in [0, 1]; got {value!r}."
            ) from None
    options["operating"] = {
        "objective": args.objective,
        "constraint": constraint,
        "beta": args.beta,
        "cost_fp": args.cost_fp,
        "cost_fn": args.cost_fn,
        "prevalence": args.prevalence,
        "threshold_probability": args.threshold_probability,
        "n_resamples": args.n_resamples,
    }
    return options


def batch_arrays(batch, task: str, *, y_true, score, weight=None):
    """The numpy arrays of one pyarrow record batch, shaped for ``task``.

    Parameters
    ----------
    batch : pyarrow.RecordBatch
    task : {"binary", "ranking", "multilabel", "regression"}
    y_true, score : list of str
        The columns: one scalar column each for ``binary`` and ``regression``;
        for ``ranking`` and ``multilabel`` one list column (one value per
        label) or several scalar columns, one per label.
    weight : str, optional
        The ``sample_weight`` column.

    Returns
    -------
    y_true, score : ndarray
        Shape ``(n,)``, or ``(n, n_labels)`` for ``ranking`` and ``multilabel``.
    sample_weight : ndarray or None

    Raises
    ------
    MetricInputError
        A null, a list column where a scalar is needed, lists of unequal lengths.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from metrics.states.batches import batch_arrays
    >>> batch = pa.record_batch({"rel": [[1, 0], [0, 2]], "s": [[0.5, 0.1], [0.2, 0.3]]})
    >>> batch_arrays(batch, "ranking", y_true=["rel"], score=["s"])[0].tolist()
    [[1, 0], [0, 2]]
    """
    w = vector(batch, [weight], "--weight") if weight else None
    if task in ("binary", "regression"):
        return vector(batch, y_true, "--y-true"), vector(batch, score, "--score"), w
    return matrix(batch, y_true), matrix(batch, score), w


def batch_state(batch, task: str, *, y_true, score, weight=None, threshold=0.5, **ranking):
    """The mergeable state of one pyarrow record batch for ``task``.

    Every engine builds its states here (``python -m metrics evaluate``,
    :mod:`metrics.distributed`, other batch readers), so all refuse the same
    input with the same message and build the same states.

    Parameters
    ----------
    batch : pyarrow.RecordBatch
    task : {"binary", "ranking", "multilabel", "regression"}
    y_true, score, weight
        As :func:`batch_arrays`.
    threshold : float, default 0.5
        ``multilabel``: the predictions are ``score >= threshold``.
    **ranking
        ``ranking`` and ``multilabel``: the keyword arguments of
        :meth:`RankingState.from_chunk` (``k``, ``log_base``, ``ignore_ties``,
        ``denominator``, ``max_grade``).

    Returns
    -------
    BinaryState, RankingState, RegressionState, or for ``multilabel`` a
    :class:`Pair` of a RankingState and a MultilabelState.

    Examples
    --------
    >>> import pyarrow as pa
    >>> from metrics.states.batches import batch_state
    >>> batch = pa.record_batch({"y": [1.0, 2.0, 4.0], "yhat": [1.5, 2.0, 3.0]})
    >>> state = batch_state(batch, "regression", y_true=["y"], score=["yhat"])
    >>> state.finalize()["mean_absolute_error"]
    0.5
    """
    yt, ys, w = batch_arrays(batch, task, y_true=y_true, score=score, weight=weight)
    if task == "binary":
        return BinaryState.from_chunk(yt, ys, w)
    if task == "regression":
        return RegressionState.from_chunk(yt, ys, w)
    state = RankingState.from_chunk(yt, ys, sample_weight=w, **ranking)
    if task == "multilabel":
        state = Pair(state, MultilabelState.from_chunk(yt, ys >= threshold, w))
    return state


def state_of_args(batch, args, options: dict):
    """:func:`batch_state` for parsed command-line arguments and ranking ``options``."""
    return batch_state(batch, args.task, y_true=args.y_true, score=args.score,
                       weight=args.weight, threshold=args.threshold, **options)  # fmt: skip


def stream_chunk_of_args(batch, args):
    """A binary batch as a stream merges it (:func:`~metrics.states.binary_stream.stream_chunk`):
    its samples' score bits and labels where the scores allow, so that the stream counts
    those of dense blocks before any sort; else its state.

    Examples
    --------
    >>> import argparse, pyarrow as pa
    >>> args = argparse.Namespace(y_true=["y"], score=["p"], weight=None)
    >>> batch = pa.record_batch({"y": [0, 1], "p": [0.25, 0.5]})
    >>> stream_chunk_of_args(batch, args).state().roc_auc_score()
    1.0
    """
    yt, ys, w = batch_arrays(batch, "binary", y_true=args.y_true, score=args.score,
                             weight=args.weight)  # fmt: skip
    return stream_chunk(yt, ys, w)


def group_states_of_args(batch, args, options: dict) -> GroupStates:
    """:func:`state_of_args` of each group's rows, the groups the values of column ``args.by``.

    Examples
    --------
    >>> import argparse, pyarrow as pa
    >>> args = argparse.Namespace(task="regression", y_true=["y"], score=["p"], weight=None,
    ...                           threshold=0.5, by="site")
    >>> batch = pa.record_batch({"y": [1.0, 2.0, 3.0], "p": [1.0, 2.5, 5.0],
    ...                          "site": ["a", "b", "a"]})
    >>> {g: s.finalize()["mean_absolute_error"] for g, s in
    ...  group_states_of_args(batch, args, {}).items()}
    {'a': 1.0, 'b': 0.5}
    """
    import pyarrow as pa

    groups = vector(batch, [args.by], "--by")
    labels, codes = encode_groups(groups, f"--by column {args.by!r}", batch.num_rows)
    order = np.argsort(codes, kind="stable")
    bounds = np.concatenate(([0], np.cumsum(np.bincount(codes, minlength=labels.shape[0]))))
    parts = (batch.take(pa.array(order[bounds[g] : bounds[g + 1]])) for g in range(len(labels)))
    return GroupStates(
        (label, state_of_args(part, args, options))
        for label, part in zip(labels.tolist(), parts, strict=True)
    )


class Pair:
    """Two states merged side by side (ranking and multilabel of the same batches)."""

    def __init__(self, a, b) -> None:
        self.a, self.b = a, b

    def merge(self, other: Pair) -> Pair:
        return Pair(self.a.merge(other.a), self.b.merge(other.b))

    def finalize(self) -> dict:
        return {**self.a.finalize(), **self.b.finalize()}
