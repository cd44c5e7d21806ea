"""Exact metrics of a Parquet dataset on a Dask cluster.

The states of :mod:`metrics.states` computed with Dask: the dataset is read
with ``dask.dataframe.read_parquet`` (only the named columns), each
partition becomes one state on a worker (the same
:func:`metrics.states.batches.state_of_args` as the local streaming engine, so both
refuse the same input with the same message), the states are merged in a
balanced tree of ``dask.delayed`` tasks (about log2(partitions) levels; a
merge runs where its inputs are) and the merged state is finalized on the
cluster, so only the dict of metrics travels back. ``binary`` on a file or
a folder skips pandas and the per-partition tree: its row groups are cut
into one block per worker thread, each block is read with pyarrow on a
worker and merged there as it streams (the local engine's
:func:`metrics.states.binary_stream.merge_binary_stream`), and only the
blocks' compact tables (12 bytes a distinct score) cross between workers. The values equal the
in-memory functions on the whole columns, as :mod:`metrics.states` says
(1e-12 relative; unweighted ROC AUC and average precision bit for bit).

Dask and ``distributed`` are an optional extra (``requirements-dask.txt``),
imported here only when a function runs; neither ``import metrics`` nor the
app needs them. Every worker must be able to import :mod:`metrics` and read
``path`` (a shared filesystem, or a URL such as ``s3://...`` that
``dask.dataframe.read_parquet`` reads).

For ``ranking`` and ``multilabel`` without ``max_grade`` a first pass over
the ``y_true`` columns finds the largest grade (ERR's scale), as the local
engine does when the Parquet statistics are missing.

Examples
--------
>>> import tempfile, numpy as np, pyarrow as pa, pyarrow.parquet as pq
>>> from metrics import roc_auc_score
>>> from metrics.distributed import evaluate_dask
>>> folder = tempfile.mkdtemp()
>>> y, p = np.array([0, 1, 1, 0, 1, 0]), np.array([0.1, 0.8, 0.4, 0.4, 0.9, 0.2])
>>> for i in range(2):
...     pq.write_table(pa.table({"y": y[3 * i:3 * i + 3], "p": p[3 * i:3 * i + 3]}),
...                    f"{folder}/part{i}.parquet")
>>> out = evaluate_dask(folder, "binary", y_true="y", score="p")
>>> out["roc_auc_score"] == roc_auc_score(y, p)
True
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
from collections.abc import Sequence

import numpy as np

from metrics._validation import MetricInputError
from metrics.states.binary_stream import CompactBinary

__all__ = ["evaluate_args", "evaluate_dask", "state_dask", "tree_merge"]

INSTALL_HINT = "pip install -r requirements-dask.txt (dask[dataframe] and distributed)"


def _names(columns: str | Sequence[str]) -> list[str]:
    return [columns] if isinstance(columns, str) else list(columns)


def _spec(
    task: str,
    y_true,
    score,
    weight,
    threshold: float,
    k: int | None,
    max_grade: float | None,
    denominator: str,
    log_base: float,
    ignore_ties: bool,
) -> argparse.Namespace:
    from metrics.states.batches import TASKS

    if task not in TASKS:
        raise MetricInputError(f"task must be one of {list(TASKS)}; got {task!r}.")
    return argparse.Namespace(
        task=task,
        y_true=_names(y_true),
        score=_names(score),
        weight=weight,
        threshold=threshold,
        k=k,
        max_grade=max_grade,
        denominator=denominator,
        log_base=log_base,
        ignore_ties=ignore_ties,
    )


def _columns(spec) -> list[str]:
    return list(dict.fromkeys([*spec.y_true, *spec.score, *([spec.weight] if spec.weight else [])]))


# ---------------------------------------------------------------------------
# the tasks that run on the workers (module-level: pickled by reference)
# ---------------------------------------------------------------------------
def _batch(frame):
    """A pandas partition as a pyarrow record batch (a list column stays a list column)."""
    import pyarrow as pa

    return pa.RecordBatch.from_pandas(frame, preserve_index=False)


def _partition_state(frame, spec, options: dict):
    """The state of one partition, or None for an empty one."""
    from metrics.states.batches import state_of_args

    if len(frame) == 0:
        return None
    return state_of_args(_batch(frame), spec, options)


def _block_state(pieces: list, spec):
    """The compact binary state of a block of row groups, read here with pyarrow, merged as
    it streams (:class:`metrics.states.binary_stream.CompactBinary`).

    ``pieces`` are ``(filesystem, path, row_groups)``: the worker reads them
    batch by batch as the local engine does (no pandas), and the block's
    merges free their inputs (:func:`metrics.states.binary_stream.merge_binary_stream`),
    so only one table per block crosses to another worker.
    """
    import pyarrow.parquet as pq

    from metrics.states.batches import BATCH_ROWS, stream_chunk_of_args
    from metrics.states.binary_stream import merge_binary_stream

    columns = _columns(spec)

    def states():
        for filesystem, path, row_groups in pieces:
            with filesystem.open_input_file(path) as f:
                pf = pq.ParquetFile(f, pre_buffer=False)
                batches = pf.iter_batches(BATCH_ROWS, row_groups=row_groups, columns=columns,
                                          use_threads=False)  # fmt: skip
                for batch in batches:
                    if batch.num_rows:
                        yield stream_chunk_of_args(batch, spec)

    stream = states()
    first = next(stream, None)
    if first is None:
        return None
    # compact: half the bytes to send, and merged with another block's by one 32-bit sort;
    # one thread: the task owns one of its worker's threads (as Dask's workers run numpy's
    # BLAS on one thread), so the blocks of n threads run on n cores, not 2n
    return merge_binary_stream(itertools.chain([first], stream), compact=True, threads=1)


def _partition_max(frame, names: list[str]) -> float:
    """The largest ``y_true`` of one partition (0 for an empty one)."""
    from metrics.states.batches import matrix

    if len(frame) == 0:
        return 0.0
    return float(np.max(matrix(_batch(frame), names)))


def _merge(a, b):
    """Merge two states; None (an empty partition) is the identity."""
    if a is None:
        return b
    if b is None:
        return a
    return a.merge(b)


def _finalize(state, task: str, threshold: float, binary_options: dict | None = None) -> dict:
    if state is None:
        raise MetricInputError("the dataset has no rows.")
    if task == "binary":
        return state.finalize(threshold=threshold, **(binary_options or {}))
    return state.finalize()


# ---------------------------------------------------------------------------
# the client side
# ---------------------------------------------------------------------------
def tree_merge(parts: Sequence):
    """Merge delayed states pairwise, level by level: a balanced tree of tasks.

    Parameters
    ----------
    parts : sequence of dask.delayed.Delayed
        One state (or None) each; at least one.

    Returns
    -------
    dask.delayed.Delayed
        Their merge.

    Examples
    --------
    >>> import dask
    >>> from metrics.states import RegressionState
    >>> parts = [dask.delayed(RegressionState.from_chunk)([float(i)], [0.0]) for i in range(5)]
    >>> tree_merge(parts).compute().finalize()["mean_absolute_error"]
    2.0
    """
    import dask

    merge = dask.delayed(_merge, pure=True)
    level = list(parts)
    if not level:
        raise MetricInputError("tree_merge needs at least one state; got none.")
    while len(level) > 1:
        pairs = range(0, len(level) - 1, 2)
        nxt = [merge(level[i], level[i + 1]) for i in pairs]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def _frame(path: str, columns: list[str], split_row_groups):
    try:
        import dask.dataframe as dd
    except ImportError:
        raise MetricInputError(f"--engine dask needs Dask: {INSTALL_HINT}.") from None
    try:
        ddf = dd.read_parquet(path, split_row_groups=split_row_groups)
    except FileNotFoundError:
        raise MetricInputError(f"cannot read {path!r}: no such file or folder.") from None
    except (OSError, ValueError, KeyError) as exc:
        last = str(exc).strip().splitlines()[-1].removeprefix("Original Message: ")
        raise MetricInputError(f"cannot read {path!r} as Parquet: {last}") from None
    missing = [c for c in columns if c not in ddf.columns]
    if missing:
        raise MetricInputError(
            f"{path!r} has no column {missing[0]!r}; its columns are {list(ddf.columns)}."
        )
    return ddf[columns]


def _pieces(path: str, columns: list[str]):
    """``(filesystem, path, row group)`` of every non-empty row group of a file or folder.

    None when pyarrow's dataset cannot list ``path`` (a glob): dask reads it then.
    """
    import pyarrow.dataset as pads

    if any(c in path for c in "*?["):
        return None
    try:
        ds = pads.dataset(path, format="parquet")
    except FileNotFoundError:
        raise MetricInputError(f"cannot read {path!r}: no such file or folder.") from None
    except (OSError, ValueError) as exc:
        raise MetricInputError(f"cannot read {path!r} as Parquet: {exc}") from None
    from metrics.states.batches import check_columns

    check_columns(path, ds.schema.names, columns)
    out = []
    for frag in ds.get_fragments():
        for rg in range(frag.metadata.num_row_groups):
            if frag.metadata.row_group(rg).num_rows:
                out.append((frag.filesystem, frag.path, rg))
    return out


def _blocks(pieces: list, n: int) -> list:
    """``n`` blocks of consecutive row groups, as even as whole row groups allow."""
    bounds = np.linspace(0, len(pieces), min(n, len(pieces)) + 1).astype(int)
    blocks = []
    for lo, hi in zip(bounds[:-1], bounds[1:], strict=True):
        block = []
        for filesystem, path, rg in pieces[lo:hi]:
            if block and block[-1][1] == path:
                block[-1][2].append(rg)
            else:
                block.append((filesystem, path, [rg]))
        blocks.append(block)
    return blocks


#: Blocks of row groups a worker thread reads, each a state (one: two took a level of
#: merges and transfers more, 16.4 and 15.0 s against 11.6 and 11.0 s for one and two
#: workers on 10^8 rows, measured).
_BLOCKS_PER_THREAD = 1


class _PerSize:
    """A graph to make once the cluster's number of worker threads is known."""

    def __init__(self, build) -> None:
        self.build = build


def _binary_graph(pieces: list, spec, n_threads: int):
    """A block of row groups per worker thread, each a state, merged in a tree."""
    import dask

    state = dask.delayed(_block_state, pure=True)
    return tree_merge(
        [state(block, spec) for block in _blocks(pieces, _BLOCKS_PER_THREAD * n_threads)]
    )


def _compute(obj, scheduler: str | None):
    """Compute a delayed object on the scheduler at ``scheduler`` (None: dask's default)."""
    import dask

    if scheduler is None:
        if isinstance(obj, _PerSize):
            obj = obj.build(os.cpu_count() or 1)
        return dask.compute(obj)[0]
    try:
        from distributed import Client
    except ImportError:
        raise MetricInputError(f"--scheduler needs dask.distributed: {INSTALL_HINT}.") from None
    try:
        client = Client(scheduler, timeout="10s", set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise MetricInputError(f"cannot reach the Dask scheduler {scheduler!r}: {exc}") from None
    with client:
        if isinstance(obj, _PerSize):  # a graph made for the cluster's size
            obj = obj.build(sum(client.nthreads().values()))
        return client.compute(obj).result()


def _graph(path, spec, *, split_row_groups, scheduler):
    """The delayed merged state of the dataset at ``path`` (or a function of the cluster's size).

    ``binary`` on a file or folder: blocks of row groups read by pyarrow on
    the workers (:func:`_block_state`); otherwise one state per partition
    of ``dask.dataframe.read_parquet``.
    """
    import dask

    if spec.task == "binary":
        pieces = _pieces(path, _columns(spec))
        if pieces is not None:
            if not pieces:
                return dask.delayed(None)
            return _PerSize(functools.partial(_binary_graph, pieces, spec))
    ddf = _frame(path, _columns(spec), split_row_groups)
    options = {}
    if spec.task in ("ranking", "multilabel"):
        from metrics.states.batches import ranking_options

        max_grade = spec.max_grade
        if max_grade is None:
            highs = [
                dask.delayed(_partition_max, pure=True)(part, spec.y_true)
                for part in ddf[spec.y_true].to_delayed()
            ]
            max_grade = _compute(dask.delayed(max, pure=True)([0.0, *highs]), scheduler)
        options = ranking_options(spec, max_grade)
    state = dask.delayed(_partition_state, pure=True)
    return tree_merge([state(part, spec, options) for part in ddf.to_delayed()])


def state_dask(
    path: str,
    task: str,
    *,
    y_true: str | Sequence[str],
    score: str | Sequence[str],
    weight: str | None = None,
    threshold: float = 0.5,
    k: int | None = None,
    max_grade: float | None = None,
    denominator: str = "min_m_k",
    log_base: float = 2.0,
    ignore_ties: bool = False,
    scheduler: str | None = None,
    split_row_groups="infer",
):
    """The merged state of a Parquet dataset, computed with Dask, brought back here.

    Takes the arguments of :func:`evaluate_dask`. Use it for what the dict
    does not hold (a binary state's ROC and PR curves, its confusion matrix
    at another threshold); it brings the whole state (for ``binary`` 24
    bytes per distinct score) back to this process.

    Returns
    -------
    BinaryState, RankingState, RegressionState, or for ``multilabel`` a pair
    whose ``finalize()`` joins a RankingState's and a MultilabelState's.
    """
    spec = _spec(task, y_true, score, weight, threshold, k, max_grade, denominator,
                 log_base, ignore_ties)  # fmt: skip
    graph = _graph(path, spec, split_row_groups=split_row_groups, scheduler=scheduler)
    state = _compute(graph, scheduler)
    if state is None:
        raise MetricInputError(f"{path!r} has no rows.")
    return state.state() if isinstance(state, CompactBinary) else state


def evaluate_dask(
    path: str,
    task: str,
    *,
    y_true: str | Sequence[str],
    score: str | Sequence[str],
    weight: str | None = None,
    threshold: float = 0.5,
    k: int | None = None,
    max_grade: float | None = None,
    denominator: str = "min_m_k",
    log_base: float = 2.0,
    ignore_ties: bool = False,
    scheduler: str | None = None,
    split_row_groups="infer",
    binary_options: dict | None = None,
) -> dict:
    """The metrics of a Parquet dataset, computed with Dask: the CLI's ``--json`` dict.

    Parameters
    ----------
    path : str
        A Parquet file, a folder of them, a glob, or a URL that
        ``dask.dataframe.read_parquet`` reads (workers read it too).
    task : {"binary", "ranking", "multilabel", "regression"}
    y_true, score : str or sequence of str
        The columns, as ``--y-true`` and ``--score`` of ``python -m metrics
        evaluate`` (one list column, or one scalar column per label).
    weight : str, optional
        The ``sample_weight`` column.
    threshold, k, max_grade, denominator, log_base, ignore_ties
        As the command line's options of the same names.
    scheduler : str, optional
        A ``dask.distributed`` scheduler's address (``tcp://host:8786``);
        None computes with dask's default scheduler (local threads).
    split_row_groups : {"infer", True, False, int}
        Passed to ``dask.dataframe.read_parquet``: how row groups make
        partitions (True: one partition per row group).
    binary_options : dict, optional
        ``fraction``, ``threshold_probability`` and ``operating`` of
        :meth:`metrics.states.BinaryState.finalize` (the command line's
        ``--lift-fraction``, ``--threshold-probability``, ``--objective`` ...).

    Returns
    -------
    dict
        Metric function name -> value, the keys and values of
        ``python -m metrics evaluate ... --json`` (the confusion matrix as
        a nested list).

    Raises
    ------
    MetricInputError
        Dask missing, an unreadable dataset, a missing column, an
        unreachable scheduler, or data a metric refuses.

    Examples
    --------
    >>> from metrics.distributed import evaluate_dask
    >>> evaluate_dask("/nonexistent/folder", "binary", y_true="y", score="p")
    Traceback (most recent call last):
    ...
    metrics._validation.MetricInputError: cannot read '/nonexistent/folder': no such file or folder.
    """
    import dask

    spec = _spec(task, y_true, score, weight, threshold, k, max_grade, denominator,
                 log_base, ignore_ties)  # fmt: skip
    graph = _graph(path, spec, split_row_groups=split_row_groups, scheduler=scheduler)
    finalize = dask.delayed(_finalize, pure=True)
    if isinstance(graph, _PerSize):
        made = _PerSize(lambda n: finalize(graph.build(n), task, threshold, binary_options))
    else:
        made = finalize(graph, task, threshold, binary_options)
    result = _compute(made, scheduler)
    if "confusion_matrix" in result:
        result["confusion_matrix"] = np.asarray(result["confusion_matrix"]).tolist()
    return result


def evaluate_args(args) -> dict:
    """:func:`evaluate_dask` for the parsed command line (``--engine dask``)."""
    from metrics.states.batches import binary_options

    return evaluate_dask(
        args.path,
        args.task,
        y_true=args.y_true,
        score=args.score,
        weight=args.weight,
        threshold=args.threshold,
        k=args.k,
        max_grade=args.max_grade,
        denominator=args.denominator,
        log_base=args.log_base,
        ignore_ties=args.ignore_ties,
        scheduler=args.scheduler,
        binary_options=binary_options(args) if args.task == "binary" else None,
    )
