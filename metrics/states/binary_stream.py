"""A stream of binary states merged in bounded memory: freed inputs, and runs spilled to disk.

:func:`merge_binary_stream` is what :func:`metrics.states.merge_states` does
for :class:`~metrics.states.BinaryState`: the same balanced tree (a binary
counter), but it holds the tables' columns itself rather than the states, so
each merge frees its inputs as soon as they are consumed (a state the caller
still holds is never changed, only kept alive). A merge then needs about 1.4
times the merged table at its peak, not 4 times. Tables of counts are held
compact (:meth:`_Meta.narrow`): int32 counts while the samples fit, and
non-negative float32 scores as their bits, 12 bytes a row instead of 24,
merged by one sort of 32-bit keys; the state returned is widened back.
Where such scores fill their range densely, a merged table of 2**3 chunks or
more makes their blocks of float32 values dense (:mod:`metrics.states.dense_blocks`):
from then on each chunk adds its rows of those blocks in place, once, instead
of being merged again at every level of the tree. A chunk of such scores may
come as its samples (:class:`BinaryRows`, from :func:`stream_chunk`): those of
dense blocks are counted before any sort (without a bound on memory, their places in the
pool are held over several chunks, :data:`POSITIONS`, and counted sorted), and the others
are gathered over several chunks (:data:`SAMPLES`) and sorted into one table, so a value
that many chunks share is merged once, not once a chunk; a full buffer of them makes
blocks dense as a merged table does (a stream shorter than one buffer is one sort, no
merge), its samples of blocks made dense since it began told apart again first; without
a bound on memory those sorts, counts and merges run on a second thread while the next
chunks are counted (:class:`_Merger`; ``threads=1`` keeps them on the caller's). At
the end the tables are folded, their rows of dense blocks added in place, and the
rows left placed among the dense counts (:meth:`DenseBlocks.table`).

With ``memory`` (bytes) the tables held, dense blocks included, are bounded:
when they pass it they are written to a temporary folder as sorted runs (raw
files) and the stream goes on from nothing; at the end the runs are merged from disk, a
window of every run at a time (an exact k-way merge by value), into one table
read back through a memory map. The values are those of the in-memory merge.

Examples
--------
>>> import numpy as np
>>> from metrics import roc_auc_score
>>> from metrics.states import BinaryState
>>> from metrics.states.binary_stream import merge_binary_stream
>>> rng = np.random.default_rng(0)
>>> y, s = rng.integers(0, 2, 5000), rng.random(5000)
>>> parts = (BinaryState.from_chunk(y[i:i + 500], s[i:i + 500]) for i in range(0, 5000, 500))
>>> state = merge_binary_stream(parts, memory=50_000)  # a few tables: spilled and merged on disk
>>> state.roc_auc_score() == roc_auc_score(y, s)
True
"""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from metrics._binary_input import positive_mask, valid_label_array
from metrics._heap import trim_heap
from metrics._runs import runs
from metrics._validation import MetricInputError
from metrics.states._buffers import Buffers
from metrics.states._common import float32_values
from metrics.states.binary import (
    BinaryState,
    chunk_input,
    float32_bits,
    keys_table,
    merge_tables,
    sample_keys,
    wide_scores,
)
from metrics.states.dense_blocks import DenseBlocks, Pool

__all__ = ["BinaryRows", "CompactBinary", "merge_binary_stream", "stream_chunk"]

#: Bytes of a table's row: the score and the two weights.
ROW_BYTES = 24

#: Samples past which the stream's counts no longer fit int32 (a count is at most that).
_INT32_LIMIT = 2**31 - 1


def _nbytes(table: list) -> int:
    return sum(int(a.nbytes) for a in table)


class _Meta:
    """What a merged state carries beside its table: a sum, a flag and two extremes."""

    def __init__(self) -> None:
        self.weighted, self.n_samples, self.count = False, 0, 0
        self.lo, self.hi = float("nan"), float("nan")

    def add(self, state: BinaryState) -> None:
        self.weighted = self.weighted or state.weighted
        self.n_samples += state.n_samples
        self.count += 1
        self.lo = float(np.fmin(self.lo, state.score_min))
        self.hi = float(np.fmax(self.hi, state.score_max))

    def state(self, table: list) -> BinaryState:
        """The state of ``table``, widened: a table of counts only is int64, a weighted
        stream's float64 (one column at a time, the narrow one freed before the next)."""
        kind = np.float64 if self.weighted else np.int64
        s = wide_scores(table.pop(0))
        p = table.pop(0).astype(kind, copy=False)
        n = table.pop(0).astype(kind, copy=False)
        return self._state(s, p, n)

    def held_state(self, table: list) -> BinaryState:
        """The state of ``table`` as held, for its finalize alone: float32 scores (the bits
        viewed as values) and int32 counts, which the finalize widens a chunk at a time."""
        s, p, n = table
        return self._state(s.view(np.float32) if s.dtype == np.uint32 else s, p, n)

    def _state(self, s, p, n) -> BinaryState:
        return BinaryState(s, p, n, weighted=self.weighted, n_samples=self.n_samples,
                           score_min=self.lo, score_max=self.hi)  # fmt: skip

    def absorb(self, other: _Meta) -> None:
        """Add what ``other`` counted (another stream's)."""
        self.weighted = self.weighted or other.weighted
        self.n_samples += other.n_samples
        self.count += other.count
        self.lo, self.hi = float(np.fmin(self.lo, other.lo)), float(np.fmax(self.hi, other.hi))

    def narrow(self, table: list, stack: list, dense: DenseBlocks) -> list:
        """A table of counts held compact: int32 counts while the samples seen fit, and
        non-negative float32 scores as their bits (uint32): 12 bytes a row, not 24, and
        merged by one sort of 32-bit keys (:func:`merge_tables`). Past 2**31 - 1
        samples every table held goes back to int64 counts and float64 scores, the dense
        blocks' counts too (one table more on the stack)."""
        if table[1].dtype != np.int64 or table[2].dtype != np.int64:
            return table
        if self.n_samples >= _INT32_LIMIT:
            if dense.blocks.shape[0]:
                stack.insert(0, (-1, dense.table()))  # below every level: merged last
            for _, held in stack:
                held[:] = [wide_scores(held[0]), *(c.astype(np.int64) for c in held[1:])]
            return table
        s = table[0]
        narrow = float32_values(s) if s.shape[0] and s[0] >= 0 else None
        if narrow is not None:
            s = (narrow + np.float32(0)).view(np.uint32)  # + 0: -0.0 is 0.0
        return [s, table[1].astype(np.int32), table[2].astype(np.int32)]


@dataclass(frozen=True, eq=False)
class BinaryRows:
    """A chunk of unweighted samples with non-negative float32 scores, as a stream takes
    it before any sort: the scores' bits and the labels.

    :func:`merge_binary_stream` counts the samples of its dense blocks in place, one
    by one, and sorts only the rest into a table (:func:`stream_chunk` makes these).

    Examples
    --------
    >>> rows = stream_chunk([1, 0, 1], [0.5, 0.25, 0.5])
    >>> type(rows).__name__, rows.state().positive.tolist()
    ('BinaryRows', [0, 2])
    """

    bits: np.ndarray
    positive: np.ndarray
    score_min: float
    score_max: float
    weighted = False

    @property
    def n_samples(self) -> int:
        return int(self.bits.shape[0])

    def state(self) -> BinaryState:
        """The :class:`~metrics.states.BinaryState` of these samples."""
        meta = _Meta()
        meta.add(self)
        return meta.state(keys_table(sample_keys(self.bits, self.positive)))


def stream_chunk(y_true, y_score, sample_weight=None) -> BinaryRows | BinaryState:
    """A chunk of a binary stream, validated as :meth:`BinaryState.from_chunk`: its
    :class:`BinaryRows` where the scores allow (unweighted, non-negative float32 values),
    else its state.

    :func:`merge_binary_stream` counts the samples of a :class:`BinaryRows` that fall in
    its dense blocks before any sort; the state it returns is the same either way.

    Parameters
    ----------
    y_true : array-like of shape (n_samples,)
        0/1 labels (1 the positive class).
    y_score : array-like of shape (n_samples,)
        Finite scores, higher meaning more likely positive.
    sample_weight : array-like of shape (n_samples,), optional
        Non-negative weights (a weighted chunk is always a state).

    Returns
    -------
    BinaryRows or BinaryState

    Raises
    ------
    MetricInputError
        As :meth:`BinaryState.from_chunk`.

    Examples
    --------
    >>> type(stream_chunk([1, 0], [0.1, 0.7])).__name__  # 0.1 is no float32 value
    'BinaryState'
    """
    rows = _float32_rows(y_true, y_score) if sample_weight is None else None
    if rows is not None:
        return rows
    pos, s, w, narrow = chunk_input(y_true, y_score, sample_weight)
    if narrow is None:
        return BinaryState.of_input(pos, s, w, narrow)
    return BinaryRows(float32_bits(narrow), pos, float(s.min()), float(s.max()))


def _float32_rows(y_true, y_score) -> BinaryRows | None:
    """The :class:`BinaryRows` of a column of 0/1 labels and one of float scores that are
    all non-negative float32 values (a model's probabilities, float32 or widened to
    float64), checked with one minimum, one maximum and one comparison; None for any other
    input, which :func:`~metrics.states.binary.chunk_input` checks and names. A batch of
    2**20 rows: 3.1 ms, where ``chunk_input`` widened, reduced and compared it twice (8 ms)."""
    y = valid_label_array(y_true)
    if (
        y is None
        or y.ndim != 1
        or not isinstance(y_score, np.ndarray)
        or y_score.dtype not in (np.float32, np.float64)
        or y_score.shape != y.shape
    ):
        return None
    wide = y_score.dtype == np.float64
    # float64 scores of another kind are mostly told by their first
    if wide and float32_values(y_score[:64]) is None:
        return None
    # a copy even of float32: its -0.0 made 0.0 below
    narrow = float32_values(y_score) if wide else y_score.astype(np.float32)
    if narrow is None:
        return None
    # the extremes of the float32 values: those of the scores, read from half the bytes
    lo, hi = narrow.min(), narrow.max()  # both NaN with a NaN: every test below False
    if not (lo >= 0 and hi < np.inf):
        return None
    narrow += np.float32(0)  # -0.0 is 0.0: one score, one key
    return BinaryRows(narrow.view(np.uint32), positive_mask(y), float(lo), float(hi))


class CompactBinary:
    """A merged stream's state kept compact to cross between processes: the table as the
    stream holds it (float32 scores as their bits and int32 counts while they fit: 12
    bytes a distinct score, not 24) and what :class:`_Meta` counted beside it.

    Where the stream made blocks of scores dense, their counts stay a
    :class:`~metrics.states.dense_blocks.Pool` (8 bytes a float32 value of a block,
    filled or not) beside the table of the other rows (``rest``), until :attr:`table`
    is first read. Two such merge by adding their pools into a pool of their own (a
    block dense in both is summed, one dense in one is taken over) and merging the rows left:
    the merge of two halves of 10^8 rows is an addition of their pools, not a merge of
    two 18-million-row tables. Two tables merge by one sort of 32-bit keys
    (:func:`merge_tables`); :meth:`state` widens to the
    :class:`~metrics.states.BinaryState` that ``merge_binary_stream`` returns otherwise.
    The Dask block path sends these between workers.

    Examples
    --------
    >>> from metrics.states import BinaryState
    >>> a = merge_binary_stream([BinaryState.from_chunk([0, 1], [0.25, 0.5])], compact=True)
    >>> b = merge_binary_stream([BinaryState.from_chunk([1], [0.25])], compact=True)
    >>> a.table[0].dtype.name, a.merge(b).state().positive.tolist()
    ('uint32', [1, 1])
    """

    def __init__(self, meta: _Meta, table: list, pool: Pool | None = None) -> None:
        self.meta, self.rest, self.pool = meta, table, pool

    @property
    def table(self) -> list:
        """The whole table: the pool's counts made rows and the rest placed among them."""
        if self.pool is not None:
            dense, self.pool = DenseBlocks.attach(self.pool), None  # freed with its table made
            self.rest = _placed(self.rest, dense)
        return self.rest

    def merge(self, other: CompactBinary) -> CompactBinary:
        if not isinstance(other, CompactBinary):
            raise MetricInputError(
                f"a CompactBinary merges only with a CompactBinary; got {type(other).__name__}."
            )
        meta = _Meta()
        meta.absorb(self.meta)
        meta.absorb(other.meta)
        pools = [c.pool for c in (self, other) if c.pool is not None]
        if pools and meta.n_samples < _INT32_LIMIT:  # every count still fits an int32 half
            dense = DenseBlocks.summed(*pools)  # the inputs stay as they were
            rest = dense.take(_merge(list(self.rest), list(other.rest)))
            return CompactBinary(meta, rest, dense.detach())
        a, b = list(self.table), list(other.table)  # merge_tables empties the lists it gets
        if meta.n_samples >= _INT32_LIMIT:  # a sum of counts could pass int32: widen them
            a[1:], b[1:] = [[c.astype(np.int64) for c in t[1:]] for t in (a, b)]
        return CompactBinary(meta, _merge(a, b))

    def state(self) -> BinaryState:
        """The state this table counts, widened (float64 scores, int64 counts)."""
        return self.meta.state(list(self.table))

    def finalize(self, **options) -> dict:
        """:meth:`metrics.states.BinaryState.finalize` of :meth:`state`, read from the
        compact table itself (its float32 scores and int32 counts widened a chunk at a
        time, as every metric of the finalize reads them): the same values, without the
        widened table's 24 bytes a distinct score."""
        return self.meta.held_state(self.table).finalize(**options)


def _fold(stack: list) -> list:
    """Merge every table of the counter into one, smallest first (each input freed)."""
    out = stack.pop()[1]
    while stack:
        out = _merge(stack.pop()[1], out)
    return out


#: Samples of blocks not dense gathered before they are sorted into one table (16 MiB of
#: keys): samples whose float32 values lie on a coarse lattice (a model's output divided
#: down to small values) repeat their values without ever filling a block, and a table
#: of many batches' samples holds each such value once, where one a batch merged level
#: by level rewrote it at every level (measured).
SAMPLES = 1 << 22


#: Places of samples of dense blocks held before they are counted, sorted (16 MiB): a
#: sorted buffer of several batches reaches a 10^8-row stream's pool a stretch at a time
#: (:meth:`~metrics.states.dense_blocks.DenseBlocks.count_positions`). At 2**23 the two
#: buffers were the 10^8-row stream's peak with the tally (823-833 MB against 793-798, the
#: same CPU within its runs' spread, three runs of each).
POSITIONS = 1 << 22


class _Samples(Buffers):
    """Keys of samples (:func:`~metrics.states.binary.sample_keys`) gathered from several
    chunks in one buffer, sorted when it is full (:meth:`_Stream._keys_table`).

    Two buffers: the keys of a full one may be sorted on another thread while the other
    fills (:meth:`take`)."""

    def __init__(self, memory: int | None) -> None:
        # at most a quarter of a bound on the stream's memory (4 bytes a key)
        super().__init__(SAMPLES if memory is None else max(1, min(SAMPLES, memory // 16)))

    def put(self, bits: np.ndarray, positive: np.ndarray) -> None:
        """Hold these samples (:meth:`fits` them first, or empty the buffer)."""
        sample_keys(bits, positive, out=self.slot(bits.shape[0]))


class _Merger:
    """One thread that sorts gathered samples into tables and merges them, one job at a
    time, while the stream's thread counts the next chunks' samples of dense blocks
    (numpy lets go of the GIL in both: two cores)."""

    def __init__(self) -> None:
        self.pool, self.pending = None, None

    def submit(self, job, *args) -> None:
        """Run ``job(*args)`` on the thread, once the job before it has ended."""
        self.wait()
        if self.pool is None:
            self.pool = ThreadPoolExecutor(1, thread_name_prefix="metrics-merge")
        self.pending = self.pool.submit(job, *args)

    def busy(self) -> bool:
        """Whether a job is still running."""
        return self.pending is not None and not self.pending.done()

    def wait(self) -> None:
        """Wait for the job running to end (its error raised here)."""
        pending, self.pending = self.pending, None
        if pending is not None:
            pending.result()

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=True, cancel_futures=True)


class _Stream:
    """What :func:`merge_binary_stream` holds: the binary counter of tables (``stack``:
    (level, table) pairs), the dense blocks, the samples gathered and the runs spilled.

    Without a bound on memory, the samples that dense blocks leave are sorted and merged
    on a thread of its own (:class:`_Merger`); the counter and the pool are then the
    merger's until :meth:`settle`. A bound keeps every step on the stream's thread (its
    spills read what the merges hold), as does ``threads=1``."""

    def __init__(self, memory: int | None, threads: int = 2) -> None:
        self.memory, self.meta, self.stack = memory, _Meta(), []
        self.dense, self.samples, self.spill = DenseBlocks(), _Samples(memory), None
        self.merger = _Merger() if memory is None and threads > 1 else None
        # the places of samples of dense blocks, counted sorted (on the merger's thread)
        self.positions = Buffers(POSITIONS) if memory is None else None
        self.gathered_with = 0  # blocks dense when the samples held began to be gathered

    def add(self, chunk) -> list | None:
        """Take one chunk: count its samples of dense blocks in place and gather the
        others; the table to :meth:`count` when it makes one (a state's, rows past int32's
        counts, or the rows of a short stream), once the caller has let the chunk go, so
        the merges run without it."""
        if not isinstance(chunk, (BinaryState, BinaryRows)):
            raise MetricInputError(
                f"a BinaryState merges only with a BinaryState; got {type(chunk).__name__}."
            )
        self.meta.add(chunk)
        if isinstance(chunk, BinaryRows) and self.meta.n_samples < _INT32_LIMIT:
            dense_at = self.dense.blocks.shape[0]  # as the samples are told apart
            bits, positive = self.dense.take_rows(
                chunk.bits, chunk.positive, self._room(chunk.n_samples)
            )
            self._gather(bits, positive, dense_at)  # the samples dense blocks leave
            return None
        self.gathered()  # held compact, before any table is widened
        if isinstance(chunk, BinaryRows):
            chunk = chunk.state()
        table = self.meta.narrow(
            [chunk.scores, chunk.positive, chunk.negative], self.stack, self.dense
        )
        return self.dense.take(table)

    def _room(self, n: int) -> Buffers | None:
        """The buffer of places, with room for ``n`` samples: a full one is counted,
        on the merger's thread if there is one (None with a bound on memory: each chunk's
        counted in place at once)."""
        held = self.positions
        if held is None or held.fits(n) or held.count == 0:  # nothing to count yet
            return held
        if self.merger is not None and self.merger.busy():
            self.dense.count_positions(held.drain())  # counted here, not waited for
            return held
        self.settle()  # the merger's job counts the other buffer, filled from now on
        if self.merger is not None:
            self.merger.submit(self.dense.count_positions, held.take())
        else:
            self.dense.count_positions(held.take())
        return held

    def _gather(self, bits: np.ndarray, positive: np.ndarray, dense_at: int) -> None:
        """Hold samples that ``dense_at`` dense blocks left; a full buffer's are sorted and
        counted, on the merger's thread if there is one."""
        if self.merger is None:  # sorted here, in its one buffer
            keys = None if self.samples.fits(bits.shape[0]) else self.samples.drain()
            if keys is not None:
                self._sort_and_count(keys)
        elif not self.samples.fits(bits.shape[0]):
            self.merger.wait()  # its job sorts the other buffer, filled from now on
            keys = self._undense(self.samples.take())
            if keys is not None:
                self.merger.submit(self._sort_and_count, keys)
        if self.samples.count == 0:
            self.gathered_with = dense_at
        self.samples.put(bits, positive)

    def _undense(self, keys: np.ndarray | None) -> np.ndarray | None:
        """Gathered samples' keys less those of blocks made dense since the buffer began
        (their places held instead): the merger sorts only what no block holds. The first
        buffers were gathered before any block was dense; sorted whole, a second buffer of
        10^8 rows was one more sort of 4 x 10^6 samples, and the stream waited for it."""
        if keys is None or self.dense.blocks.shape[0] == self.gathered_with:
            return keys
        bits, positive = keys >> np.uint32(1), (keys & np.uint32(1)).view(np.int32) != 0
        bits, positive = self.dense.take_rows(bits, positive, self._room(keys.shape[0]))
        return sample_keys(bits, positive) if bits.shape[0] else None

    def _sort_and_count(self, keys: np.ndarray) -> None:
        table = self._keys_table(keys)
        if table is not None:
            self._count(table)

    def _keys_table(self, keys: np.ndarray) -> list | None:
        """Sort gathered samples' keys: those of the blocks they fill (made dense) and of
        dense blocks counted in place, the table of the others (None without any)."""
        keys = self.dense.promote_keys(keys, tally=self.positions is not None)
        return keys_table(keys, presorted=True) if keys.shape[0] else None

    def settle(self) -> None:
        """Wait for the merger's job: the counter and the pool are this thread's again."""
        if self.merger is not None:
            self.merger.wait()

    def count(self, table: list | None) -> None:
        """Count a table :meth:`add` made into the counter, then keep within the bound."""
        if table is not None:
            self.settle()
            self._count(table)
        self._bound()

    def gathered(self, last: bool = False) -> None:
        """Sort the samples gathered into the counter, and count the places held (their
        buffers let go). A buffer not full makes blocks dense only where others are: a
        stream of fewer samples than one buffer is one sorted table, merged with nothing.

        ``last`` (the stream has ended): the places held are counted and the tally folded
        on the merger's thread, if there is one, while this one sorts the last samples and
        merges the counter's tables; :meth:`settle` before the pool is read (10^8 rows, six
        pairs alternated: a median of 3.43 s of wall against 3.62, 5.56 CPU s against
        5.73, the same JSON)."""
        self.settle()
        aside = last and self.merger is not None
        held = self.positions.take() if self.positions is not None else None
        if aside and held is not None:  # counted beside the samples' sort
            self.merger.submit(self.dense.count_positions, held)
            held = None
        keys = self._undense(self.samples.take())  # places into the other buffer
        table = None
        if keys is not None:  # blocks made dense only where others are (a short stream: none)
            table = self._keys_table(keys) if self.dense.blocks.shape[0] else keys_table(keys)
        self.samples = _Samples(self.memory)  # its buffers let go before the merges
        if self.positions is not None:
            places = (held, self.positions.take())
            self.positions = Buffers(POSITIONS)
            if aside:
                self.merger.submit(self._count_last, *places)
            else:
                self._count_last(*places)
        if table is not None:
            self._count(table)

    def _count_last(self, held: np.ndarray | None, last: np.ndarray | None) -> None:
        """Count the two buffers of places held last and fold the tally for good (let go
        before the table is made: not both at its peak)."""
        if held is not None:
            self.dense.count_positions(held)
        if last is not None:
            self.dense.count_positions(last)
        self.dense.fold(release=True)

    def _count(self, table: list) -> None:
        level, stack = 0, self.stack
        while stack and stack[-1][0] == level:
            table = _merge(stack.pop()[1], table)
            level += 1
            if level >= _DENSE_LEVEL:
                table = self.dense.promote(table)
        stack.append((level, table))

    def _bound(self) -> None:
        if self.memory is None:  # the merger's thread may be changing the counter
            return
        held = self.dense.nbytes + self.samples.nbytes + sum(_nbytes(t) for _, t in self.stack)
        if held <= self.memory:
            return
        self.gathered()
        self.spill = self.spill or _Runs()
        self.spill.write([*self.stack, (0, self.dense.table())])
        self.stack = []
        self.samples = _Samples(self.memory)  # its buffer let go too

    def table(self) -> list:
        """The merged table (memory-mapped when runs were spilled)."""
        self.gathered(last=True)
        if self.spill is None:
            rest = self._rest()
            self.settle()
            return _placed(rest, self.dense)
        self.settle()
        self.stack.append((0, self.dense.table()))
        self.spill.write(self.stack)
        return self.spill.merge(self.memory)

    def parts(self) -> tuple[list, Pool | None]:
        """The merged rows that no dense block holds, and the dense blocks' pool (unspilled)."""
        self.gathered(last=True)
        rest = self._rest()
        self.settle()
        return rest, self.dense.detach()

    def _rest(self) -> list:
        """The counter's tables, their rows of blocks made dense after them added in place
        (under the pool's lock, beside the merger's last job), merged into one."""
        self.stack[:] = [(level, self.dense.take(table)) for level, table in self.stack]
        return _fold(self.stack)

    def close(self) -> None:
        """Let the merger's thread and the spilled runs go."""
        if self.merger is not None:
            self.merger.close()
        if self.spill is not None:
            self.spill.close()


def _placed(rest: list, dense: DenseBlocks) -> list:
    """The dense counts made one table, with the rows of ``rest`` (those that
    :meth:`DenseBlocks.take` left) placed among them, or merged with it when they are not
    held compact; the pool consumed, its pages handed back as the table is written."""
    if rest[0].dtype == np.uint32 and rest[1].dtype == np.int32:  # held as dense blocks are
        return dense.table(rest, drop=True)  # placed among the dense counts: none is dense
    return _merge(rest, dense.table(drop=True))


#: The merge level (2**level chunks) from which a merged table makes blocks dense
#: (:class:`~metrics.states.dense_blocks.DenseBlocks`): a stream of fewer chunks is merged
#: as tables only (as fast for 10 to 30 chunks of 2**20 rows; at 95, level 3 took 8.1-8.3 s
#: of CPU, level 4 8.9-9.6 and level 2 8.3-8.6: measured).
_DENSE_LEVEL = 3

#: Rows of two tables past which a merge first hands freed memory back to the system.
_TRIM_ROWS = 1 << 23


def _merge(a: list, b: list) -> list:
    """:func:`merge_tables`, after glibc's ``malloc_trim`` when the tables are large.

    The batches' and the small tables' arrays are freed into the C heap, which keeps
    them; a large merge's arrays are mapped afresh beside them. Trimming first lowered
    the peak of a 10^8-row stream from 960 to 831-839 MB (18.0 and 17.9 s of CPU against
    17.5 s without, one run each: within the runs' spread)."""
    if a[0].shape[0] + b[0].shape[0] >= _TRIM_ROWS:
        trim_heap()
    return merge_tables(a, b)


def merge_binary_stream(
    states: Iterable[BinaryState],
    *,
    memory: int | None = None,
    compact: bool = False,
    threads: int = 2,
) -> BinaryState | CompactBinary:
    """Merge a stream of binary states in a balanced tree, freeing each merge's inputs.

    Parameters
    ----------
    states : iterable of BinaryState
        At least one.
    memory : int, optional
        Bytes the held tables may take; past it they are spilled to disk as
        sorted runs and merged externally at the end (the values unchanged).
    compact : bool
        Return the merged table as the stream holds it (:class:`CompactBinary`,
        half the bytes to send to another process) instead of widened.
    threads : int, default 2
        1 keeps every step on the caller's thread (a Dask task, which owns one of its
        worker's threads); 2 sorts and merges on a second thread while the stream
        counts (without ``memory`` only).

    Returns
    -------
    BinaryState or CompactBinary
        Equal to ``merge_states(states)`` (with ``compact``, its :meth:`~CompactBinary.state`).

    Raises
    ------
    MetricInputError
        No state, a state of another family, or a bound below 1 byte.

    Examples
    --------
    >>> from metrics.states import BinaryState
    >>> from metrics.states.binary_stream import merge_binary_stream
    >>> parts = [BinaryState.from_chunk([0, 1], [0.2, 0.7]), BinaryState.from_chunk([1], [0.2])]
    >>> merge_binary_stream(parts).positive.tolist()
    [1, 1]
    """
    if memory is not None and memory < 1:
        raise MetricInputError(f"memory must be at least 1 byte; got {memory}.")
    stream = _Stream(memory, threads)
    try:
        for chunk in states:
            table = stream.add(chunk)
            del chunk  # the counter's merges free its columns (a state still held is kept)
            stream.count(table)
            del table
        if stream.meta.count == 0:
            raise MetricInputError("merge_states needs at least one state; got none.")
        if compact and stream.spill is None:  # the dense counts kept as they are
            return CompactBinary(stream.meta, *stream.parts())
        table = stream.table()
        if compact:  # sent elsewhere after the runs are gone
            return CompactBinary(stream.meta, [np.array(c) for c in table])
        return stream.meta.state(table)
    finally:
        stream.close()


class _Runs:
    """Sorted distinct-score tables on disk: three raw files (scores, positive, negative) a run.

    Runs are read back by windows with ``numpy.fromfile`` rather than
    memory-mapped: pages of a map stay in the process's resident set once
    touched (every run's, at the end), a read's buffer is freed.
    """

    def __init__(self) -> None:
        self.root = Path(tempfile.mkdtemp(prefix="metrics-binary-runs-"))
        self.runs: list[tuple[Path, int, np.dtype]] = []

    def write(self, stack: list) -> None:
        """Write each table of the counter as one run (emptying their lists)."""
        for _, table in stack:
            if table[0].shape[0] == 0:
                continue
            base = self.root / f"run{len(self.runs)}"
            wide = np.float64 if table[1].dtype.kind == "f" else np.int64  # int32 counts widened
            self.runs.append((base, int(table[0].shape[0]), np.dtype(wide)))
            wide_scores(table.pop(0)).tofile(f"{base}.s")
            for name in "pn":
                table.pop(0).astype(wide, copy=False).tofile(f"{base}.{name}")
        stack.clear()

    def merge(self, memory: int) -> list:
        """The k-way merge of every run, a window at a time, into one table (memory-mapped)."""
        if not self.runs:
            return [np.zeros(0), np.zeros(0, np.int64), np.zeros(0, np.int64)]
        dtype = np.result_type(*(d for _, _, d in self.runs))
        # each window holds about 4 copies of its rows while merged (columns, order, output)
        window = max(1, memory // (4 * ROW_BYTES * len(self.runs)))
        out = [open(self.root / f"out.{c}", "wb") for c in "spn"]
        try:
            _merge_windows(self.runs, window, dtype, out)
        finally:
            for f in out:
                f.close()
        types = (np.float64, dtype, dtype)
        return [_mapped(self.root / f"out.{c}", t) for c, t in zip("spn", types, strict=True)]

    def close(self) -> None:
        # a memory-mapped result stays readable once its file is unlinked (POSIX)
        shutil.rmtree(self.root, ignore_errors=True)


def _mapped(path: Path, dtype) -> np.ndarray:
    if path.stat().st_size == 0:
        return np.zeros(0, dtype=dtype)
    return np.asarray(np.memmap(path, dtype=dtype, mode="r"))


def _read(base: Path, column: str, dtype, lo: int, hi: int) -> np.ndarray:
    """Rows ``lo:hi`` of one column of a run."""
    dtype = np.dtype(np.float64 if column == "s" else dtype)
    return np.fromfile(f"{base}.{column}", dtype=dtype, count=hi - lo, offset=lo * dtype.itemsize)


def _merge_windows(runs: list, window: int, dtype, out: list) -> None:
    """Merge sorted distinct runs by windows of scores, appending each merged window to ``out``.

    Each step reads from every run at most ``window`` scores and keeps those
    up to the smallest of the windows' last scores, so every score of a step
    is below every score left, and no score is split between two steps.
    """
    pos = [0] * len(runs)
    while True:
        live = [i for i, (_, length, _) in enumerate(runs) if pos[i] < length]
        if not live:
            return
        heads = {}
        for i in live:
            base, length, kind = runs[i]
            heads[i] = _read(base, "s", kind, pos[i], min(pos[i] + window, length))
        cut = min(h[-1] for h in heads.values())
        pieces = []
        for i in live:
            base, _, kind = runs[i]
            end = pos[i] + int(np.searchsorted(heads[i], cut, side="right"))
            s = heads.pop(i)[: end - pos[i]]
            pieces.append([s, *(_read(base, c, kind, pos[i], end) for c in "pn")])
            pos[i] = end
        s, p, n = _merge_pieces(pieces, dtype)
        for f, a in zip(out, (s, p, n), strict=True):
            a.tofile(f)


def _merge_pieces(pieces: list, dtype):
    """One table of several sorted distinct tables (a score in several is summed)."""
    s = np.concatenate([q[0] for q in pieces])
    order = np.argsort(s, kind="stable")  # timsort merges the sorted pieces
    s = s[order]
    starts = runs(s).starts
    weights = [np.concatenate([q[k] for q in pieces]).astype(dtype, copy=False) for k in (1, 2)]
    return (s[starts], *(np.add.reduceat(w[order], starts) for w in weights))
