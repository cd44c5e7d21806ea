"""Counts held by position where a stream's float32 scores fill their range densely.

A stream of float32 probabilities (10^8 rows, 2 x 10^7 distinct scores) fills
most of the float32 values between, say, 0.25 and 1. Merged as tables of
distinct scores, level by level (:func:`~metrics.states.binary_stream.merge_binary_stream`'s
binary counter), every distinct score is rewritten about log2(batches) times,
and that was most of the command's time. Here a *block* of 2**14 consecutive
float32 values (the top bits of a non-negative float32's bits) in which one
held table has at least a sixteenth of the values can become dense: 2**14 counts,
indexed by the score's low bits, to which every later chunk adds its samples (or a
table its rows) of that block in place, once. The two classes'
counts of a score share one int64 (the positives in its low 32 bits, the
negatives in its high ones: a stream narrows its counts to int32 only while its
samples fit them), so a sample touches memory once: the scatter is bound by memory,
not by arithmetic.

A dense block takes 128 KiB. The blocks made dense are the fullest first, while the
pool stays within 4/3 of what the rows known so far take in the final table (24
bytes each: the rows of the table looked at and the scores the dense blocks hold), so
the blocks take at most 1.33 times the final table. A block
filled to a quarter always pays for itself (4,096 rows, 96 KiB); one filled to a
sixteenth is paid for by fuller ones. Blocks that fill late are the reason for the
lower bar: made dense at a quarter, a block in [0.25, 0.5) of a 10^8-row stream
turned dense only after half of it, its rows merged level by level until then
(measured: 11.5 against 6.9 CPU s of stream at 1/16). The pool grows by
``ndarray.resize`` (``realloc``, which moves a large buffer by remapping its pages,
not by copying them).

Examples
--------
>>> import numpy as np
>>> from metrics.states.dense_blocks import DenseBlocks
>>> bits = np.arange(0x3F000000, 0x3F000000 + 5000, dtype=np.uint32)  # 5,000 scores in [0.5, 0.51)
>>> ones, zeros = np.ones(5000, np.int32), np.zeros(5000, np.int32)
>>> dense = DenseBlocks()
>>> rest = dense.promote([bits, ones, zeros])  # 5,000 of one block's 16,384 values: dense
>>> rest[0].shape[0], dense.blocks.tolist()
(0, [64512])
>>> rest = dense.take([bits[:3], zeros[:3], ones[:3] * 2])  # added in place
>>> table = dense.table()
>>> table[0].shape[0], table[1][:4].tolist(), table[2][:4].tolist()
(5000, [1, 1, 1, 1], [2, 2, 2, 0])
"""

from __future__ import annotations

import sys
import threading
from dataclasses import dataclass

import numpy as np

from metrics._heap import drop_pages
from metrics._ranks import map_blocks
from metrics._runs import run_start_mask, runs
from metrics.states._common import numpy_dtype

__all__ = ["DenseBlocks", "Pool"]

#: Low bits of a score's bits that index inside a block: 2**14 values a block.
BLOCK_BITS = 14
BLOCK = 1 << BLOCK_BITS
#: Rows of one held table in a block from which the block may be made dense (a sixteenth).
DENSE_AT = BLOCK // 16
#: Bytes of the pool that a row of the table pays for: 4/3 of its 24 bytes in the final table.
_POOL_PER_ROW = 32
#: Blocks of non-negative float32 bits (31 bits).
_N_BLOCKS = 1 << (31 - BLOCK_BITS)
#: Places a uint32 tells apart: a pool's int32 view past it is indexed by intp.
_UINT32_PLACES = 1 << 32
#: Rows of a table added to dense blocks at a time by :meth:`DenseBlocks.take`.
_TAKE_ROWS = 1 << 20
#: Samples at one place that a sorted buffer of places may hold for it to be tallied in
#: bytes (:meth:`DenseBlocks.count_positions`): a run of more goes to the int32 counts.
_TALLY_RUN = 15
#: Buffers tallied between folds: each adds at most :data:`_TALLY_RUN` to a byte (255).
_TALLY_BUFFERS = 255 // _TALLY_RUN
#: Blocks turned into a table at a time by :meth:`DenseBlocks.table`.
_TABLE_BLOCKS = 16
#: A block's scores' low bits, in order.
_WITHIN = np.arange(BLOCK, dtype=np.uint32)
#: What one sample adds to its score's count, by its label (0, 1): a negative counts in
#: the high half, a positive in the low one.
_ONE = np.array([1 << 32, 1], dtype=np.int64)
#: Whether an int64's low half comes first in memory (its int32 view: [low, high]).
_LITTLE_ENDIAN = sys.byteorder == "little"
#: Which int32 half of a count's int64 holds the positives (its low 32 bits).
_LOW = 0 if _LITTLE_ENDIAN else 1


def _places(at: int, shift: np.ndarray, rows: np.ndarray):
    """Where a group of dense blocks' rows go in the table: from ``at`` (the dense rows
    below the group), each block's ``rows`` moved up by its ``shift`` (the rest rows
    below it); one slice when no rest row falls between the group's blocks."""
    if shift[0] == shift[-1]:
        return slice(at + int(shift[0]), at + int(shift[0]) + int(rows.sum()))
    return np.arange(at, at + int(rows.sum())) + np.repeat(shift, rows)


def _positions(
    start: np.ndarray, spare_at, bits: np.ndarray, positive: np.ndarray, out=None
) -> tuple:
    """Each sample's place in a little-endian pool's int32 view (its score's positives
    in the low half of the int64, its negatives in the high one; into ``out`` if given),
    and whether it is in no dense block (its block's start ``spare_at``)."""
    index = start.take(bits >> np.uint32(BLOCK_BITS), out=out, mode="clip")  # all in range
    spare = index == spare_at
    index += bits & np.uint32(BLOCK - 1)
    index <<= 1
    index += 1
    index -= positive.view(np.uint8)
    return index, spare


def _held_spare() -> int:
    """The start that held places give the blocks of no dense block: their places then
    lie past every place of a pool of up to this many scores, at ``2 * _held_spare()`` or
    more (uint32), sorted last and dropped when counted."""
    return (_UINT32_PLACES >> 1) - BLOCK


#: Types a pool's counts cross between processes in, the narrowest that holds them all.
_NARROW = (np.uint8, np.uint16)


@dataclass(eq=False)
class Pool:
    """Dense blocks' counts as plain arrays, to cross between processes (no lock, no
    index): the blocks in the pool's order (int32) and their counts (int64, ``BLOCK`` a
    block and one spare row), with the rows they held when they were made dense.

    Pickled (as Dask sends it), the counts cross narrow: each score's positives and
    negatives, ``(scores, 2)``, in the narrowest unsigned type of :data:`_NARROW` that
    holds them all, without the spare row. Two Dask blocks of 10^8 rows count at most 17
    samples of a class at a score: a pool of 268 MB crosses as 67 MB. A pool received
    so stays narrow until it is summed or attached (:meth:`halves`).
    """

    blocks: np.ndarray
    counts: np.ndarray
    rows: int

    def __reduce__(self):
        return (Pool, (self.blocks, _narrow(self.counts, self.blocks.shape[0]), self.rows))

    def halves(self) -> np.ndarray:
        """The blocks' counts, a block a row, as the int32 halves of the int64 counts lie in
        memory (``2 * BLOCK`` a row; the counts of a narrow pool, to be cast)."""
        n = numpy_dtype(self.blocks).shape[0]
        if self.counts.ndim == 1:
            return numpy_dtype(self.counts)[: n * BLOCK].view(np.int32).reshape(n, 2 * BLOCK)
        counts = numpy_dtype(self.counts)
        if not _LITTLE_ENDIAN:  # a score's negatives lie first in its int64
            counts = counts[:, ::-1]
        return counts.reshape(n, 2 * BLOCK)

    def wide(self) -> np.ndarray:
        """The int64 counts with the spare row (in memory of their own when narrow)."""
        if self.counts.ndim == 1:
            return self.counts
        halves = self.halves()
        counts = np.zeros((halves.shape[0] + 1) * BLOCK, dtype=np.int64)
        counts.view(np.int32)[: halves.size].reshape(halves.shape)[:] = halves
        return counts


def _narrow(counts: np.ndarray, blocks: int) -> np.ndarray:
    """``counts`` (int64, or narrow already) as :class:`Pool` pickles them: narrow when
    some type of :data:`_NARROW` holds every count, else as they are."""
    if counts.ndim == 2:
        return counts
    halves = numpy_dtype(counts)[: blocks * BLOCK].view(np.int32).reshape(-1, 2)
    if not _LITTLE_ENDIAN:
        halves = halves[:, ::-1]
    top = int(halves.max(initial=0))
    for kind in _NARROW:
        if top <= np.iinfo(kind).max:
            return halves.astype(kind)
    return counts


def _left(spare: np.ndarray, bits: np.ndarray, positive: np.ndarray) -> tuple:
    """The samples of no dense block: few, so taken by their index rather than by a mask
    (``np.compress`` makes an index of them from the mask anyway). A batch of 2**20 of
    a 10^8-row stream, 3.5% left: 2.1 ns a sample against 3.7."""
    left = np.flatnonzero(spare)
    return bits.take(left), positive.take(left)


class DenseBlocks:
    """Both classes' counts (int32 halves of one int64) of the dense blocks of a stream
    of float32 bit tables.

    A table is a list ``[bits, positive, negative]``: ascending distinct
    non-negative float32 scores as their bits (uint32) and int32 counts, the
    compact form :mod:`metrics.states.binary_stream` holds.
    """

    def __init__(self) -> None:
        self.slot = np.full(_N_BLOCKS, -1, dtype=np.int32)  # block -> its row of the pool
        self.blocks = np.zeros(0, dtype=np.int32)  # the pool's rows' blocks, in their order
        # positives | negatives << 32, a score each; past the blocks' rows, one row more
        # where :meth:`take_rows` counts the samples of other blocks, read never
        self.counts = np.zeros(0, dtype=np.int64)
        self.start = np.zeros(0, dtype=np.intp)  # block -> its first score's count
        self.where = (self.start, 0, self.start)  # ``start``, the pool's scores, set together
        self.rows = 0  # the dense blocks' rows when they were made dense
        # samples of held places not yet in ``counts``, a byte a place of its int32 view
        # (:meth:`count_positions`), and the buffers tallied there since the last fold
        self.tally, self.tallied = np.zeros(0, dtype=np.uint8), 0
        # held while the counts are added to or the pool grows: a stream's samples are
        # counted on one thread while its tables are merged (and promoted) on another
        self.lock = threading.Lock()

    @property
    def nbytes(self) -> int:
        return int(self.counts.nbytes + self.tally.nbytes)

    def take(self, table: list) -> list:
        """Add the rows of ``table`` in dense blocks to their counts; the rows left, a table
        of the same form. A slice of :data:`_TAKE_ROWS` rows at a time: a merged table's
        temporaries (its index, its packed counts) would take twice the table."""
        if table[0].dtype != np.uint32 or table[0].shape[0] == 0 or self.blocks.shape[0] == 0:
            return table
        keep = np.empty(table[0].shape[0], dtype=bool)
        for lo in range(0, keep.shape[0], _TAKE_ROWS):
            part = [column[lo : lo + _TAKE_ROWS] for column in table]
            keep[lo : lo + _TAKE_ROWS] = self._add_rows(part)
        if keep.all():
            return table
        return [np.compress(keep, column) for column in table]

    def _add_rows(self, table: list) -> np.ndarray:
        """Add the rows of ``table`` in dense blocks to their counts; whether each row is
        left (in no dense block)."""
        slot = self.slot[table[0] >> np.uint32(BLOCK_BITS)]  # blocks are made dense on this
        dense = slot >= 0  # thread only: the slots stay as read
        index = np.compress(dense, slot).astype(np.intp)
        index <<= BLOCK_BITS
        index |= np.compress(dense, table[0]) & np.uint32(BLOCK - 1)
        both = np.compress(dense, table[2]).astype(np.int64)
        both <<= 32
        both |= np.compress(dense, table[1])
        # ufunc.at with an intp index and the pool's own dtype: numpy's fast path, half
        # the time of ``counts[index] += both`` (a gather, then a scatter; measured)
        with self.lock:
            np.add.at(self.counts, index, both)
        return ~dense

    def take_rows(self, bits: np.ndarray, positive: np.ndarray, into=None) -> tuple:
        """Count the samples of dense blocks in place, one sample at a time, before any
        sort; the samples left, ``(bits, positive)``. With ``into``
        (:class:`~metrics.states._buffers.Buffers`), their places in the pool are held
        there instead, to be counted later, sorted (:meth:`count_positions`).

        A chunk's samples of a dense block are never sorted nor made a table: each adds
        1 to its score's positives or negatives (``np.add.at`` on an intp index: numpy's
        fast path, bound by memory), the count's own int32 half of the pool's int64 where
        the machine is little-endian (one index a sample and no increments to gather:
        26.6-27.1 ns a sample against 29.4-29.7 adding ``1 << 32`` or 1 to the int64, on a
        batch of a 10^8-row stream). Every sample is scattered, those of other blocks into
        the spare row (small, so cached): cheaper than picking out the dense ones' indices
        and weights first (measured: 51 ns a sample that way). Held, the places are uint32
        while the pool's int32 view has fewer than 2**32 (the starts kept narrow too): a
        batch's places and what is left, 7.8 ns a sample against 10.5 with intp places
        and ``np.compress`` (2**20 samples of a 10^8-row stream). Every sample's place is
        held, written where the buffer holds it: those of no dense block lie past every
        place of the pool (:func:`_held_spare`) and are dropped once sorted, where a copy
        of the others made by their mask took a temporary and a pass of its own (10^8
        rows: 0.61-0.64 CPU s here against 0.82-0.85, the sorted count 0.76-0.79 against
        0.69-0.71 for the 3.5% more places). A pool of every block (2**32 places and the
        spare row past them, where the starts are intp) counts each chunk's samples at
        once, so only uint32 places are ever held.
        """
        _, size, start = self.where  # one snapshot: blocks made dense meanwhile keep theirs
        if into is not None and _LITTLE_ENDIAN and start.dtype == np.uint32:
            if size == 0 or bits.shape[0] == 0:
                return bits, positive
            slot = into.slot(bits.shape[0])  # every sample's place, those of no block too
            _, spare = _positions(start, np.uint32(_held_spare()), bits, positive, out=slot)
            return _left(spare, bits, positive)
        with self.lock:
            if self.blocks.shape[0] == 0 or bits.shape[0] == 0:
                return bits, positive
            if _LITTLE_ENDIAN:  # a score's positives in the low int32 half, its negatives next
                index, spare = _positions(*self.where[:2], bits, positive)
                np.add.at(self.counts.view(np.int32), index, np.int32(1))
            else:
                index = self.start.take(bits >> np.uint32(BLOCK_BITS))
                spare = index == self.blocks.shape[0] * BLOCK
                index += bits & np.uint32(BLOCK - 1)
                np.add.at(self.counts, index, _ONE.take(positive.view(np.uint8)))
        return _left(spare, bits, positive)

    def count_positions(self, positions: np.ndarray) -> None:
        """Count samples held by :meth:`take_rows` as their places in the pool's int32
        view (uint32, sorted here in place).

        Sorted, the samples of a buffer of several batches reach the pool in its order,
        a stretch of it at a time. Where no place holds more than :data:`_TALLY_RUN` of
        them, they are counted in a byte a place (:attr:`tally`, a quarter of the pool's
        bytes to sweep), folded into the int32 counts every :data:`_TALLY_BUFFERS`
        buffers and before the counts are read: 2**23 samples of a 10^8-row stream
        counted in 2.3 ns a sample against 5.2-6.5 into the int32 counts (sorted 3.8)."""
        positions.sort()
        self._count_places(positions[: np.searchsorted(positions, np.uint32(2 * _held_spare()))])

    def _count_places(self, positions: np.ndarray, tally: bool = True) -> None:
        """Count samples at their places in the pool's int32 view (equal places side by
        side): in the tally, or (without ``tally``) into the counts."""
        run = _TALLY_RUN
        if not tally or (positions.shape[0] > run and (positions[run:] == positions[:-run]).any()):
            with self.lock:  # a place with more than a byte's share: counted as int32
                counts = self.counts.view(np.int32)
                for lo in range(0, positions.shape[0], _TAKE_ROWS):
                    part = positions[lo : lo + _TAKE_ROWS].astype(np.intp)
                    np.add.at(counts, part, np.int32(1))
            return
        with self.lock:  # two threads may count buffers at once (:class:`_Stream`'s)
            places = 2 * self.blocks.shape[0] * BLOCK  # held places are never the spare row
            if self.tally.shape[0] < places:
                self.tally.resize(places, refcheck=False)  # zeros past the end
            np.add.at(self.tally, positions, np.uint8(1))
            self.tallied += 1
            full = self.tallied == _TALLY_BUFFERS
        if full:
            self.fold()

    def fold(self, release: bool = False) -> None:
        """Add the tallied samples to the counts and zero the tally (let go with
        ``release``: the counts are read for good)."""
        with self.lock:
            if self.tallied:
                n = self.tally.shape[0]
                counts = self.counts.view(np.int32)[:n]
                for lo in range(0, n, _TAKE_ROWS):  # a slice at a time: no int32 copy of all
                    counts[lo : lo + _TAKE_ROWS] += self.tally[lo : lo + _TAKE_ROWS]
                self.tallied = 0
                if not release:
                    self.tally.fill(0)  # its pages kept: mapped afresh, each would fault again
            if release:
                self.tally = np.zeros(0, dtype=np.uint8)

    def promote(self, table: list) -> list:
        """Make dense the blocks that ``table`` fills to a sixteenth, the fullest first
        while the pool stays within its budget, and, if it made any, take its rows of
        dense blocks (:meth:`take`); else the table as it was.

        A table's rows of a block made dense after it was taken stay in it: the final
        merge adds them to the block's (each table is merged, not replaced).
        """
        if table[0].dtype != np.uint32 or table[0].shape[0] == 0:
            return table
        return self.take(table) if self._admit(table[0] >> np.uint32(BLOCK_BITS)) else table

    def promote_keys(self, keys: np.ndarray, tally: bool = True) -> np.ndarray:
        """:meth:`promote` of the table of samples' keys
        (:func:`~metrics.states.binary.sample_keys`), without making that table: the keys
        are sorted here in place, the blocks they fill made dense as :meth:`promote` makes
        them, and the samples of dense blocks counted at their places (in the
        :attr:`tally` with ``tally``, as :meth:`count_positions` counts held places; else
        into the counts); the keys left, sorted: those of no dense block, for the caller's
        table.

        The rows :meth:`take` would add are these samples counted one by one: on the first
        12 million samples of a 10^8-row stream, sorted into tables until the pool covers
        their blocks, the table's runs and the take cost 0.2 CPU s more than the places.
        """
        keys.sort()
        if keys.shape[0] == 0:
            return keys
        bits = keys >> np.uint32(1)
        self._admit(np.compress(run_start_mask(bits), bits) >> np.uint32(BLOCK_BITS))
        del bits
        if self.blocks.shape[0] == 0:
            return keys
        start = self.where[2]  # this thread's own: blocks are made dense here only
        if not (_LITTLE_ENDIAN and start.dtype == np.uint32):  # a pool of every block
            return self._add_keys(keys)
        index = start.take(keys >> np.uint32(BLOCK_BITS + 1), mode="clip")
        spare = index == np.uint32(_held_spare())
        index <<= np.uint32(1)  # 2 (start + low) + 1 - label, as :func:`_positions` places
        index += (keys & np.uint32(2 * BLOCK - 1)) ^ np.uint32(1)
        places = np.compress(~spare, index)  # a sample's place: its key's, side by side
        del index
        self._count_places(places, tally)
        return np.compress(spare, keys)

    def _add_keys(self, keys: np.ndarray) -> np.ndarray:
        """Add the samples of dense blocks among ``keys`` to the int64 counts (the pool's
        index by score, not its int32 view's); the keys left."""
        with self.lock:
            index = self.start.take(keys >> np.uint32(BLOCK_BITS + 1))
            dense = index != self.blocks.shape[0] * BLOCK
            index += (keys >> np.uint32(1)) & np.uint32(BLOCK - 1)
            both = _ONE.take((keys & np.uint32(1)).astype(np.intp))
            np.add.at(self.counts, np.compress(dense, index), np.compress(dense, both))
        return np.compress(~dense, keys)

    def _admit(self, block: np.ndarray) -> bool:
        """Make dense the blocks that a table fills to a sixteenth (``block``: each of its
        rows' block, ascending), the fullest first while the pool stays within its budget;
        whether it made any."""
        r = runs(block)
        blocks = block[r.starts]
        fresh = self.slot[blocks] < 0
        full = fresh & (r.lengths >= DENSE_AT)
        new, rows = blocks[full], r.lengths[full]
        if new.shape[0] == 0:
            return False
        # rows of the final table, at least: the dense blocks' and the table's elsewhere
        elsewhere = int(r.lengths[fresh].sum())
        room = self._room(self.rows + elsewhere)
        if room < new.shape[0]:  # the scores the dense blocks hold now (more than when
            self.fold()
            seen = int(np.count_nonzero(self.counts[: self.blocks.shape[0] * BLOCK]))
            room = self._room(max(self.rows, seen) + elsewhere)  # made dense): read if needed
        if room < new.shape[0]:
            fullest = np.argsort(rows, kind="stable")[::-1][: max(room, 0)]
            new, rows = new[fullest], rows[fullest]
        if new.shape[0] == 0:
            return False
        self.rows += int(rows.sum())
        with self.lock:
            self._grow(new)
        return True

    def _room(self, known: int) -> int:
        """Blocks more that the pool's budget allows with ``known`` rows of the final table."""
        return _POOL_PER_ROW * known // (BLOCK * 8) - self.blocks.shape[0]

    def _grow(self, new: np.ndarray, counted: bool = False) -> None:
        """Give the blocks ``new`` their rows of the pool, zeroed (``counted``: the counts
        hold their rows already, as :meth:`attach` gets them)."""
        used = self.blocks.shape[0]
        self.slot[new] = np.arange(used, used + new.shape[0], dtype=np.int32)
        self.blocks = np.concatenate((self.blocks, new.astype(np.int32)))
        size = self.blocks.shape[0] * BLOCK
        if not counted:
            self.counts.resize(size + BLOCK, refcheck=False)  # zeros past the end
            self.counts[used * BLOCK : (used + 1) * BLOCK] = 0  # the spare row before
        start = self.slot.astype(np.intp) << BLOCK_BITS
        start[self.slot < 0] = size  # the spare row
        self.start = start
        # one attribute: read without the lock, never half-made; with the starts as uint32
        # while every place in the pool's int32 view fits one (half the bytes to move), those
        # of blocks of no dense block past all of them (:meth:`take_rows` holds every place)
        narrow = start
        if size <= _held_spare():
            narrow = np.where(self.slot < 0, _held_spare(), start).astype(np.uint32)
        self.where = (start, size, narrow)

    def detach(self) -> Pool | None:
        """The pool as plain arrays (None when no block is dense), this one emptied."""
        if self.blocks.shape[0] == 0:
            return None
        self.fold(release=True)
        pool = Pool(self.blocks, self.counts, self.rows)
        self.__init__()
        return pool

    @classmethod
    def attach(cls, pool: Pool, copy: bool = False) -> DenseBlocks:
        """Dense blocks that count on ``pool``'s arrays (on copies of them with ``copy``)."""
        dense = cls()
        counts = pool.counts  # resized in place as blocks are added: its own memory, or a copy
        if counts.ndim == 2:  # crossed narrow: widened into memory of its own
            counts = pool.wide()
        elif copy or not counts.flags.owndata or counts.dtype is not np.dtype(np.int64):
            counts = np.array(numpy_dtype(counts))
        dense.counts = counts
        dense.rows = pool.rows
        dense._grow(numpy_dtype(pool.blocks), counted=True)
        return dense

    @classmethod
    def summed(cls, first: Pool, second: Pool | None = None) -> DenseBlocks:
        """Dense blocks that count the sum of two pools (a copy of ``first`` alone) in memory
        of their own, the pools left as they were: ``first``'s blocks in its order, then
        ``second``'s others. The two streams' samples together must fit int32 (the
        caller's to check): a count's halves are int32.

        Each row of the sum is written once, a group of blocks at a time from both pools'
        rows (a block dense in one only copied), the groups shared between
        :func:`~metrics._ranks.map_blocks`'s threads: two Dask blocks' pools of 10^8 rows,
        268 MB each, summed in 0.09-0.10 s, where a copy of ``first`` that ``second`` was
        then added to took 0.25 s.
        """
        if second is None:
            return cls.attach(first, copy=True)
        ours, theirs = numpy_dtype(first.blocks), numpy_dtype(second.blocks)
        a, b = first.halves(), second.halves()  # int32 halves, or narrow counts to cast
        row = np.full(_N_BLOCKS, -1, dtype=np.intp)
        row[theirs] = np.arange(theirs.shape[0])
        partner = row[ours]  # each of our blocks' row in theirs, -1 where not dense there
        row[ours] = -1
        only = np.flatnonzero(row[theirs] >= 0)  # their blocks dense in theirs only
        blocks = np.concatenate((ours, theirs[only]))
        counts = np.empty((blocks.shape[0] + 1) * BLOCK, dtype=np.int64)
        rows = counts[: blocks.shape[0] * BLOCK].view(np.int32).reshape(-1, 2 * BLOCK)

        def fill(lo: int) -> None:  # a group of blocks: no copy of all
            hi = min(lo + _TABLE_BLOCKS, ours.shape[0])
            both = partner[lo:hi]
            if (both >= 0).all():  # each half summed as int32 (narrow counts cast first)
                np.add(a[lo:hi], b[both], out=rows[lo:hi], dtype=np.int32)
            else:
                rows[lo:hi] = a[lo:hi]
                rows[lo:hi][both >= 0] += b[both[both >= 0]]

        map_blocks(fill, range(0, ours.shape[0], _TABLE_BLOCKS))
        rows[ours.shape[0] :] = b[only]
        counts[blocks.shape[0] * BLOCK :] = 0  # the spare row
        dense = cls()
        dense.counts, dense.rows = counts, first.rows + second.rows
        dense._grow(blocks, counted=True)
        return dense

    def table(self, rest: list | None = None, drop: bool = False) -> list:
        """The dense counts as one table (ascending bits, zero rows left out), the pool
        emptied; with ``rest`` (a table of the same form, none of its rows in a dense
        block), its rows put in their places among them. With ``drop`` the pool is the
        caller's to consume, no other's (its memory not shared with a :class:`Pool` still
        read): each block's pages are handed back as its rows are copied out
        (:func:`~metrics._heap.drop_pages`), so the peak is not the pool and the table
        both whole.

        The table is allocated once, at its size, and filled a group of blocks at a time,
        the groups shared among :func:`~metrics._ranks.map_blocks`'s threads (each writes
        its own rows, known from every block's count of scores, counted on the threads
        too; each count's halves copied from its int32 view, no temporaries: a merged
        10^8-row pool made a table in 0.19-0.20 s against 0.23-0.24): the pool and the
        table are the peak. The rows of ``rest`` are placed by position (those of other tables'
        blocks below theirs), not merged: the rows of the two are disjoint, and a merge
        of 10^8 rows' 1.7M rest rows with 18M dense ones sorted all of them again (0.42 s)."""
        if rest is not None and self.blocks.shape[0] == 0:
            return rest
        rest = rest or [np.zeros(0, np.uint32), np.zeros(0, np.int32), np.zeros(0, np.int32)]
        self.fold(release=True)  # before the table is made: not both at the peak
        order = np.argsort(self.blocks)  # the pool's rows by block: ascending bits
        blocks = self.blocks[order]
        pool = self.counts[: blocks.shape[0] * BLOCK].reshape(-1, BLOCK)
        filled = np.zeros(blocks.shape[0] + 1, dtype=np.intp)  # dense rows below, a block each
        groups = range(0, order.shape[0], _TABLE_BLOCKS)  # counted and filled on threads
        counted = map_blocks(
            lambda lo: np.count_nonzero(pool[lo : lo + _TABLE_BLOCKS], axis=1), groups
        )
        filled[1:] = np.concatenate([np.zeros(0, np.intp), *counted])[order]
        below = np.cumsum(filled)
        out = [
            np.empty(int(below[-1]) + rest[0].shape[0], t) for t in (np.uint32, np.int32, np.int32)
        ]
        rest_blocks = (rest[0] >> np.uint32(BLOCK_BITS)).astype(np.int32)
        shift = np.searchsorted(rest_blocks, blocks)  # rest rows below each dense block

        def fill(lo: int) -> None:
            rows = slice(lo, lo + _TABLE_BLOCKS)
            part = pool[order[rows]]
            if drop:  # copied out: read no more
                for row in order[rows]:
                    drop_pages(pool[row].ctypes.data, BLOCK * 8)
            seen = (part != 0).ravel()
            first = blocks[rows].astype(np.uint32) << np.uint32(BLOCK_BITS)
            both = np.compress(seen, part.ravel())
            where = _places(int(below[lo]), shift[rows], filled[lo + 1 : lo + 1 + part.shape[0]])
            out[0][where] = np.compress(seen, (first[:, None] | _WITHIN).ravel())
            halves = both.view(np.int32).reshape(-1, 2)  # each count's int32 halves, no copy
            out[1][where] = halves[:, _LOW]
            out[2][where] = halves[:, 1 - _LOW]

        map_blocks(fill, groups)
        # each rest row: after the dense rows of the blocks below its own
        where = np.arange(rest[0].shape[0]) + below[np.searchsorted(blocks, rest_blocks)]
        for column, values in zip(out, rest, strict=True):
            column[where] = values
        self.__init__()
        return out
