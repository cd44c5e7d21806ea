"""``python -m metrics evaluate``: exact metrics of a Parquet file larger than memory.

(``python -m metrics trec QRELS RUN [-m MEASURE ...] [-q] [-c] [-M DEPTH]`` prints
trec_eval's report of a TREC run instead: :mod:`metrics.trec_files`.)

The file is streamed by record batches (``pyarrow.parquet.ParquetFile.iter_batches``,
reading only the named columns); each batch becomes a state of
:mod:`metrics.states`, the states are merged in a balanced tree
(:func:`metrics.states.merge_states`), and the metrics of the whole file are
printed, equal to the in-memory functions on the whole columns. A reader
thread reads the next batch while this one becomes a state (pyarrow and
numpy's sorts release the GIL, so the two use two cores). Memory holds two
batches plus the states: for ``--task binary`` the distinct-score table
(24 bytes per distinct score, 12 while streaming float32 probabilities, about
1.4 times that while merging: each merge frees its inputs,
:mod:`metrics.states.binary_stream`; blocks of scores that fill their range densely
are counted in place, :mod:`metrics.states.dense_blocks`), for the other
tasks a few numbers per label. ``--memory 1GB`` bounds the binary tables
held: past it they are spilled to a temporary folder as sorted runs and
merged from disk at the end, with the same values.

Tasks
-----
binary
    ``--y-true COL`` (0/1) and ``--score COL``: ROC AUC, average precision,
    log loss (scores in [0, 1]), the confusion matrix at ``--threshold``, the
    KS statistic and its threshold, the lift at ``--lift-fraction`` (0.1), the
    accuracy ratio, ECE and MCE (10 equal-width bins; scores in [0, 1]), the
    net benefit at ``--threshold-probability`` (0.5), and with ``--objective``
    the operating point (``--constraint RATE OP VALUE``, e.g. ``precision >=
    0.9``; ``--beta``, ``--cost-fp``, ``--cost-fn``, ``--prevalence``,
    ``--n-resamples``; unweighted only): its threshold, rates, bootstrap
    intervals and how often the bound holds.
ranking
    ``--y-true`` and ``--score`` name one list column each, or the same
    number of scalar columns (one per label): the label ranking metrics
    (0/1 ``y_true``), DCG, NDCG, MRR and ERR, and with ``--k`` P@K, R@K,
    hit rate and MAP@K.
multilabel
    As ranking, plus the multilabel classification metrics of the
    predictions ``score >= --threshold``.
regression
    ``--y-true COL`` and ``--score COL`` (or ``--y-pred COL``).

Scores are widened to float64 (a float32 column gives the log loss of
``metrics.log_loss`` on float64 scores, clipped at float64's epsilon, where
the in-memory function clips float32 input at float32's). Larger
``--batch-size`` values mean fewer merges of the binary table (at 10^8 rows,
2^22 rows per batch took about a fifth less CPU than 2^20) for a little more memory.
``--weight COL`` is the ``sample_weight`` of every task. ``--json`` prints one
JSON object keyed by the metric functions' names. ``--by COL`` prints the
metrics of each value of a column instead (one state per group and batch,
merged group by group: :mod:`metrics.states.groups`; with ``--json``
``{"by": COL, "groups": {value: {...}}}``; ERR's top grade stays the file's).
A progress line goes to stderr (``--no-progress`` silences it). pyarrow is imported here only, when
the command runs.

``--engine dask`` computes the same states on a Dask cluster
(:mod:`metrics.distributed`: one state per partition of
``dask.dataframe.read_parquet``, merged in a tree on the workers), with
``--scheduler tcp://HOST:8786`` or, without it, dask's local threads; the
path may then be a folder, a glob or a URL. Dask is an optional extra
(``requirements-dask.txt``), imported only then.

Examples
--------
>>> from metrics.cli import parse_args
>>> args = parse_args(["evaluate", "data.parquet", "--task", "binary", "--y-true", "y",
...                    "--score", "p", "--json"])
>>> args.task, args.y_true, args.score, args.json
('binary', ['y'], ['p'], True)
"""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import time
from collections import deque
from collections.abc import Iterator

import numpy as np

from metrics._heap import kept_heap, trim_heap
from metrics._numpy_pages import small_pages
from metrics._validation import MetricInputError
from metrics.states import merge_states
from metrics.states.batches import (
    BATCH_ROWS,
    BATCH_VALUES,
    TASKS,
    batch_rows,
    binary_options,
    check_columns,
    group_states_of_args,
    ranking_options,
    state_of_args,
    stream_chunk_of_args,
)
from metrics.states.batches import matrix as _matrix
from metrics.states.binary_stream import merge_binary_stream

__all__ = ["main", "memory_size", "parse_args", "read_ahead"]

DEFAULT_BATCH_ROWS = BATCH_ROWS


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line of ``python -m metrics``.

    Parameters
    ----------
    argv : list of str, optional
        The arguments (default ``sys.argv[1:]``).

    Returns
    -------
    argparse.Namespace

    Examples
    --------
    >>> from metrics.cli import parse_args
    >>> parse_args(["evaluate", "f.parquet", "--task", "ranking", "--y-true", "a", "b",
    ...             "--score", "sa", "sb", "--k", "5"]).k
    5
    """
    p = argparse.ArgumentParser(
        prog="python -m metrics",
        description="Exact metrics of a Parquet file, streamed by record batches.",
    )
    sub = p.add_subparsers(dest="command", required=True)
    ev = sub.add_parser(
        "evaluate",
        help="print the metrics of a Parquet file",
        description=__doc__.split("\n\n")[1],
    )
    ev.add_argument("path", help="the Parquet file")
    ev.add_argument("--task", choices=TASKS, required=True)
    ev.add_argument(
        "--y-true",
        nargs="+",
        required=True,
        metavar="COL",
        help="the label column (ranking/multilabel: one list column or one column per label)",
    )
    ev.add_argument(
        "--score",
        "--y-pred",
        dest="score",
        nargs="+",
        required=True,
        metavar="COL",
        help="the score (regression: prediction) column(s), as --y-true",
    )
    ev.add_argument("--weight", metavar="COL", help="the sample_weight column")
    ev.add_argument(
        "--by",
        metavar="COL",
        help="the metrics of each value of this column (one state per group; --engine local)",
    )
    ev.add_argument(
        "--threshold",
        type=float,
        default=0.5,
        help="binary: the confusion matrix's threshold; multilabel: predict "
        "score >= threshold (default 0.5)",
    )
    _binary_flags(ev)
    _ranking_flags(ev)
    _engine_flags(ev)
    ev.add_argument("--json", action="store_true", help="print one JSON object")
    ev.add_argument("--no-progress", action="store_true", help="no progress line on stderr")
    _trec_parser(sub)
    return p.parse_args(argv)


def _ranking_flags(ev) -> None:
    """The ranking task's cut-off, ERR's top grade, AP@K's denominator and DCG's options."""
    ev.add_argument("--k", type=int, help="ranking cut-off (and the @K metrics)")
    ev.add_argument(
        "--max-grade",
        type=float,
        help="ERR's top grade (default: the largest y_true, from the Parquet "
        "statistics or a first pass over the y_true columns)",
    )
    ev.add_argument(
        "--denominator",
        default="min_m_k",
        choices=("min_m_k", "relevant", "k", "hits"),
        help="AP@K's denominator",
    )
    ev.add_argument("--log-base", type=float, default=2.0, help="DCG's discount base")
    ev.add_argument("--ignore-ties", action="store_true", help="DCG/NDCG: ignore_ties=True")


def _engine_flags(ev) -> None:
    """Where the file is read: streamed here by record batches, or on a dask cluster."""
    ev.add_argument(
        "--batch-size",
        type=int,
        default=None,
        metavar="ROWS",
        help=f"rows per record batch (default: {BATCH_VALUES:,} values over the columns "
        f"read, {DEFAULT_BATCH_ROWS:,} rows for --task binary; --engine local)",
    )
    ev.add_argument(
        "--engine",
        choices=("local", "dask"),
        default="local",
        help="local: stream the file here with pyarrow (default); dask: one state per "
        "partition of dask.dataframe.read_parquet, merged in a tree on the cluster "
        "(PATH may then be a folder or a glob; needs requirements-dask.txt)",
    )
    ev.add_argument(
        "--scheduler",
        metavar="ADDRESS",
        help="--engine dask: the dask.distributed scheduler (tcp://host:8786); "
        "default: dask's local threads",
    )
    ev.add_argument(
        "--memory",
        type=memory_size,
        metavar="SIZE",
        help="--task binary: bytes the score tables may hold (1GB, 500MB, 2e9) before they "
        "are spilled to disk as sorted runs and merged there (the same values)",
    )


def _binary_flags(ev) -> None:
    """The binary task's threshold metrics and operating point (metrics.threshold,
    metrics.operating_point), all from the merged state."""
    from metrics.operating_point import CONSTRAINT_RATES, OBJECTIVES

    ev.add_argument(
        "--lift-fraction",
        type=float,
        default=0.1,
        metavar="F",
        help="binary: lift_at's top fraction, in (0, 1] (default 0.1)",
    )
    ev.add_argument(
        "--threshold-probability",
        type=float,
        default=0.5,
        metavar="PT",
        help="binary: net_benefit's threshold probability, in [0, 1) (default 0.5)",
    )
    ev.add_argument(
        "--objective",
        choices=OBJECTIVES,
        help="binary: print the operating point maximizing this (fpr, fnr, cost: minimizing)",
    )
    ev.add_argument(
        "--constraint",
        nargs=3,
        metavar=("RATE", "OP", "VALUE"),
        help=f"the operating point's bound: RATE in {', '.join(CONSTRAINT_RATES)}, "
        "OP '>=' or '<=', VALUE in [0, 1]",
    )
    ev.add_argument("--beta", type=float, default=1.0, help="--objective fbeta's beta")
    ev.add_argument("--cost-fp", type=float, default=1.0, help="--objective cost: a FP's cost")
    ev.add_argument("--cost-fn", type=float, default=1.0, help="--objective cost: a FN's cost")
    ev.add_argument(
        "--prevalence", type=float, help="--objective cost: the prevalence (default: the file's)"
    )
    ev.add_argument("--n-resamples", type=int, default=1000,
                    help="the operating point's bootstrap resamples (default 1000)")  # fmt: skip


_UNITS = {"": 1, "B": 1, "KB": 10**3, "MB": 10**6, "GB": 10**9, "TB": 10**12,
          "K": 10**3, "M": 10**6, "G": 10**9, "T": 10**12}  # fmt: skip


def memory_size(text: str) -> int:
    """A number of bytes from ``1GB``, ``500MB``, ``1.5G`` or ``2e9`` (decimal units).

    Examples
    --------
    >>> from metrics.cli import memory_size
    >>> memory_size("1GB"), memory_size("1.5 mb"), memory_size("2e9")
    (1000000000, 1500000, 2000000000)
    """
    raw = text.strip().upper()
    unit = raw.lstrip("0123456789.E+ ")
    number = raw[: len(raw) - len(unit)].strip()
    try:
        value = float(number) * _UNITS[unit]
    except (KeyError, ValueError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not a size (a number of bytes, or with KB, MB, GB, TB)"
        ) from None
    if not value >= 1:
        raise argparse.ArgumentTypeError(f"the memory bound must be at least 1 byte; got {text!r}")
    return int(value)


def _trec_parser(sub) -> None:
    """``python -m metrics trec QRELS RUN``: trec_eval's report (:mod:`metrics.trec_files`)."""
    tr = sub.add_parser(
        "trec",
        help="print trec_eval's report of a TREC run",
        description="trec_eval's measures of a TREC run, printed as trec_eval prints them.",
    )
    tr.add_argument("qrels", help="the qrels file (qid iter docid rel)")
    tr.add_argument("run", help="the run file (qid Q0 docid rank score tag)")
    tr.add_argument(
        "-m",
        dest="measures",
        action="append",
        default=[],
        metavar="MEASURE",
        help="a measure or family (P, recall, ndcg_cut...; all_trec: every one); repeatable",
    )
    tr.add_argument("-q", dest="per_query", action="store_true", help="one line per query too")
    tr.add_argument(
        "-c",
        dest="complete",
        action="store_true",
        help="judged queries missing from the run count 0",
    )
    tr.add_argument("-M", dest="depth", type=int, metavar="DEPTH", help="read the top DEPTH only")


# ---------------------------------------------------------------------------
# reading
# ---------------------------------------------------------------------------
class _Progress:
    """A ``\\r`` percent line on stderr, at most ten updates a second."""

    def __init__(self, total: int, label: str, enabled: bool) -> None:
        self.total, self.label, self.enabled = max(total, 1), label, enabled
        self.done, self.last, self.start = 0, -math.inf, time.perf_counter()

    def add(self, rows: int) -> None:
        self.done += rows
        now = time.perf_counter()
        if self.enabled and (now - self.last >= 0.1 or self.done >= self.total):
            self.last = now
            pct = 100.0 * self.done / self.total
            sys.stderr.write(
                f"\r{self.label}: {pct:5.1f}% ({self.done:,} / {self.total:,} rows, "
                f"{now - self.start:.1f} s)"
            )
            sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")
            sys.stderr.flush()


def _open(path: str, columns: list[str]):
    import pyarrow.parquet as pq

    try:
        # pre_buffer=False: pyarrow's default pre-buffering keeps every column chunk it has
        # read (610 MB of a 637 MB file at 10^8 rows); without it one row group is held
        pf = pq.ParquetFile(path, pre_buffer=False)
    except (OSError, ValueError) as exc:
        raise MetricInputError(f"cannot read {path!r} as Parquet: {exc}") from None
    check_columns(path, pf.schema_arrow.names, columns)
    return pf


def _top_grade_from_statistics(pf, columns: list[str]) -> float | None:
    """The largest y_true from the row groups' statistics, or None when some are missing.

    A list column's values are its leaf column (``name.list.element``).
    """
    md = pf.metadata
    top = 0.0
    for i in range(md.num_row_groups):
        rg = md.row_group(i)
        leaves = {rg.column(j).path_in_schema: rg.column(j) for j in range(rg.num_columns)}
        for name in columns:
            chunks = [
                c for path, c in leaves.items() if path == name or path.startswith(name + ".")
            ]
            if len(chunks) != 1:
                return None
            stats = chunks[0].statistics
            if stats is None or not stats.has_min_max or not isinstance(stats.max, int | float):
                return None
            if rg.num_rows and not math.isfinite(float(stats.max)):
                return None
            top = max(top, float(stats.max))
    return top


def _top_grade(pf, columns: list[str], batch_size: int) -> float:
    """The largest y_true over the file (ERR's scale): Parquet statistics, else a first pass."""
    top = _top_grade_from_statistics(pf, columns)
    if top is not None:
        return top
    top = 0.0
    for batch in pf.iter_batches(batch_size=batch_size, columns=columns):
        if batch.num_rows:
            top = max(top, float(np.max(_matrix(batch, columns))))
    return top


# ---------------------------------------------------------------------------
# evaluate
# ---------------------------------------------------------------------------
def _columns(args) -> list[str]:
    """The columns read: labels, scores, then the weight and the grouping column if named."""
    extra = [c for c in (args.weight, getattr(args, "by", None)) if c]
    return list(dict.fromkeys([*args.y_true, *args.score, *extra]))


def _states(args, pf) -> Iterator:
    """One state (or a pair of states, multilabel) per record batch; with ``--by``, one
    :class:`~metrics.states.groups.GroupStates` of them per batch; binary, the batch's
    samples where the scores allow (:func:`~metrics.states.batches.stream_chunk_of_args`)."""
    columns = _columns(args)
    to_state = state_of_args
    if getattr(args, "by", None):
        to_state = group_states_of_args
    elif args.task == "binary":  # merge_binary_stream's chunks: samples, not tables

        def to_state(batch, args, _options):
            return stream_chunk_of_args(batch, args)

    progress = _Progress(pf.metadata.num_rows, f"evaluate {args.path}", not args.no_progress)
    options = {}
    if args.task in ("ranking", "multilabel"):
        max_grade = args.max_grade
        if max_grade is None:
            max_grade = _top_grade(pf, args.y_true, args.batch_size)
        options = ranking_options(args, max_grade)
    # decoded on the reading thread alone: pyarrow's own pool of threads beside it and the
    # stream's oversubscribed two cores (10^8 binary rows, five pairs: 4.28-4.49 s against
    # 4.37-4.68 and a peak 15-40 MB lower; 10^8 regression rows 1.00-1.06 s against
    # 1.08-1.52 and 171 MB against 220; 5 x 10^6 multilabel rows 5.23-5.25 s against 5.33-5.52)
    batches = pf.iter_batches(batch_size=args.batch_size, columns=columns, use_threads=False)
    try:
        for batch in read_ahead(batches):
            if batch.num_rows == 0:
                continue
            state = to_state(batch, args, options)
            progress.add(batch.num_rows)
            del batch  # two batches at a time: this one's state and the one being read
            yield state
        release_read_memory()  # before the last merges and the finalize
    finally:
        progress.close()


def read_ahead(iterator: Iterator) -> Iterator:
    """The items of ``iterator``, the next two fetched on a thread while the caller works.

    pyarrow releases the GIL while it reads and decodes, numpy while it
    sorts, so reading batches k + 1 and k + 2 overlaps the state of batch k: two cores.
    At most three items are alive, the caller's and the two fetched: with one, the
    reader and the stream waited for each other whenever either was slow for a batch
    (10^8 binary rows, six pairs: 4.71-4.93 s of wall against 4.99-5.15; 5 x 10^6 graded
    rows: a peak 3-8 MB higher, the same time).

    Examples
    --------
    >>> from metrics.cli import read_ahead
    >>> list(read_ahead(iter([1, 2, 3])))
    [1, 2, 3]
    """
    from concurrent.futures import ThreadPoolExecutor

    end = object()
    with ThreadPoolExecutor(1, thread_name_prefix="metrics-read") as pool:
        pending = deque(pool.submit(next, iterator, end) for _ in range(2))
        while True:
            item = pending.popleft().result()
            if item is end:
                return
            pending.append(pool.submit(next, iterator, end))
            yield item
            del item


def evaluate(args) -> dict:
    """The metrics of the file named by parsed arguments (see :func:`parse_args`).

    Parameters
    ----------
    args : argparse.Namespace

    Returns
    -------
    dict
        Metric function name -> value; with ``args.by``, ``{"by": column, "groups":
        {group value: {metric function name: value}}}``, the groups sorted.

    Raises
    ------
    MetricInputError
        An unreadable file, a missing column, or data a metric refuses.
    """
    if args.batch_size is not None and args.batch_size < 1:
        raise MetricInputError(f"--batch-size must be at least 1; got {args.batch_size}.")
    by = getattr(args, "by", None)
    if getattr(args, "engine", "local") == "dask":
        if by:
            raise MetricInputError("--by needs --engine local.")
        from metrics.distributed import evaluate_args

        if getattr(args, "memory", None) is not None:
            raise MetricInputError("--memory bounds the local engine; dask's workers hold parts.")

        return evaluate_args(args)
    if getattr(args, "scheduler", None):
        raise MetricInputError("--scheduler needs --engine dask.")
    memory = getattr(args, "memory", None)
    if memory is not None and (args.task != "binary" or by):
        raise MetricInputError(
            "--memory bounds the binary task's one table, not the other tasks' or --by's."
        )
    pf = _open(args.path, _columns(args))
    if pf.metadata.num_rows == 0:
        raise MetricInputError(f"{args.path!r} has no rows.")
    if args.batch_size is None:
        args.batch_size = batch_rows(pf.metadata, _columns(args), args.task)
    options = binary_options(args) if args.task == "binary" else None  # refused before reading
    if by:
        state = merge_states(_states(args, pf))
        groups = {g: _finalize(state[g], args, options) for g in sorted(state)}
        return {"by": by, "groups": groups}
    if args.task == "binary":  # finalized compact: 12 bytes a distinct score, not 24
        state = merge_binary_stream(_states(args, pf), memory=memory, compact=True)
    else:
        state = merge_states(_states(args, pf))
    return _finalize(state, args, options)


def release_read_memory() -> None:
    """Hand back what the read and the stream freed, once the last batch is read:
    pyarrow's pool keeps the batches' buffers (about 35 MB at batches of 2**20 rows) and
    glibc the stream's temporaries."""
    import pyarrow as pa

    pa.default_memory_pool().release_unused()
    trim_heap()


def _finalize(state, args, options) -> dict:
    if args.task == "binary":
        return state.finalize(threshold=args.threshold, **options)
    return state.finalize()


def _text(value, nested: bool = False) -> str:
    if isinstance(value, dict):  # the operating point's counts, rates and intervals nest
        inner = (" " if nested else "  ").join(f"{k}={_text(v, True)}" for k, v in value.items())
        return f"({inner})" if nested else inner
    if isinstance(value, float):
        return repr(value) if math.isfinite(value) else str(value)
    return str(value)


def main(argv: list[str] | None = None) -> int:
    """Run the command line; return the exit status (0, or 2 on refused input).

    Parameters
    ----------
    argv : list of str, optional

    Returns
    -------
    int

    Examples
    --------
    >>> from metrics.cli import main
    >>> main(["evaluate", "/nonexistent.parquet", "--task", "binary", "--y-true", "y",
    ...       "--score", "p"])
    2
    """
    args = parse_args(argv)
    if args.command == "trec":
        return _trec(args)
    # each batch's large temporaries: no 2 MiB pages to zero, nor (but the binary stream's,
    # which hands its tables' memory back itself) pages mapped afresh every batch
    heap = contextlib.nullcontext() if args.task == "binary" else kept_heap()
    try:
        with small_pages(), heap:
            result = evaluate(args)
    except MetricInputError as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    if args.json:
        sys.stdout.write(json.dumps(result) + "\n")
    elif "groups" in result:
        for group, values in result["groups"].items():
            sys.stdout.write(f"{result['by']} = {group}\n")
            _write(values, "  ")
    else:
        _write(result, "")
    return 0


def _write(result: dict, indent: str) -> None:
    width = max(len(k) for k in result)
    for name, value in result.items():
        sys.stdout.write(f"{indent}{name:<{width}}  {_text(value)}\n")


def _trec(args) -> int:
    from metrics.trec_files import read_trec_files, trec_report

    try:
        m = read_trec_files(args.qrels, args.run)
        lines = trec_report(
            m,
            measures=args.measures,
            per_query=args.per_query,
            complete=args.complete,
            depth=args.depth,
        )
    except (MetricInputError, OSError) as exc:
        sys.stderr.write(f"error: {exc}\n")
        return 2
    sys.stdout.write("\n".join(lines) + "\n")
    return 0
