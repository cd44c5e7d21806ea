"""The fast paths of the binary state (narrow sorts, merges) against a slow reference table."""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pytest

import metrics as M
from metrics import MetricInputError
from metrics.states import BinaryState, merge_states
from metrics.states._common import numpy_dtype
from metrics.states.binary_stream import merge_binary_stream, stream_chunk


@pytest.fixture(autouse=True)
def samples_of_eight_chunks(monkeypatch):
    """Gathered samples sorted by eight of :func:`dense_stream`'s chunks (2**22 in a real
    stream: four batches of 2**20 rows), so that a full buffer makes blocks dense."""
    from metrics.states import binary_stream

    monkeypatch.setattr(binary_stream, "SAMPLES", 8 * 2500)


def in_turn(monkeypatch):
    """Each job of the merger's thread ended before the stream goes on (still on that
    thread): which chunks find which blocks dense no longer depends on the machine."""
    from metrics.states import binary_stream

    real = binary_stream._Merger.submit

    def submit(self, job, *args):
        real(self, job, *args)
        self.wait()

    monkeypatch.setattr(binary_stream._Merger, "submit", submit)


def reference_table(y, s):
    """Distinct scores and per-class counts, one score at a time (the slow, obvious way)."""
    scores = sorted(set(float(v) for v in s))
    pos = {v: 0 for v in scores}
    neg = {v: 0 for v in scores}
    for label, v in zip(y, s, strict=True):
        (pos if label == 1 else neg)[float(v)] += 1
    return scores, [pos[v] for v in scores], [neg[v] for v in scores]


def chunked_state(y, s, size):
    parts = (
        BinaryState.from_chunk(y[i : i + size], s[i : i + size]) for i in range(0, len(y), size)
    )
    return merge_states(parts)


@pytest.mark.parametrize("narrow", [True, False])
def test_float32_valued_and_float64_scores_give_the_reference_table(narrow):
    rng = np.random.default_rng(7)
    n = 3000
    y = (rng.random(n) < 0.4).astype(np.int8)
    if narrow:  # float32 model output widened to float64, ties included
        s = (rng.integers(0, 500, n).astype(np.float32) / np.float32(499)).astype(np.float64)
    else:  # a quarter of the chunks hold a value float32 cannot hold exactly
        s = rng.integers(0, 500, n) / 499
    state = chunked_state(y, s, 256)
    scores, pos, neg = reference_table(y, s)
    assert state.scores.dtype == np.float64
    assert state.scores.tolist() == scores
    assert state.positive.tolist() == pos
    assert state.negative.tolist() == neg
    assert state.roc_auc_score() == M.roc_auc_score(y, s)
    assert state.average_precision_score() == M.average_precision_score(y, s)
    assert state.log_loss() == pytest.approx(M.log_loss(y, s), rel=1e-12)


def test_a_chunk_mixing_float32_values_and_wider_ones_keeps_every_bit():
    # 0.1 is not a float32 value; 0.1 rounded to float32 is: they must stay two scores
    near = float(np.float32(0.1))
    y = np.array([1, 0, 1, 0])
    s = np.array([0.1, near, near, 0.5])
    state = BinaryState.from_chunk(y, s)
    assert state.scores.tolist() == sorted([0.1, near, 0.5])
    assert state.roc_auc_score() == M.roc_auc_score(y, s)


@pytest.mark.parametrize("weighted", [False, True])
def test_spilled_runs_merged_on_disk_equal_the_in_memory_functions(weighted):
    rng = np.random.default_rng(3)
    n = 4000
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = rng.integers(0, 900, n) / 899  # ties within and across chunks
    w = rng.integers(0, 3, n).astype(float) if weighted else None
    chunks = [
        BinaryState.from_chunk(
            y[i : i + 300], s[i : i + 300], None if w is None else w[i : i + 300]
        )
        for i in range(0, n, 300)
    ]
    in_memory = merge_binary_stream(chunks)
    spilled = merge_binary_stream(iter(chunks), memory=3000)  # a run every table or two
    assert spilled.scores.tolist() == in_memory.scores.tolist()
    assert spilled.positive.tolist() == in_memory.positive.tolist()
    assert spilled.negative.tolist() == in_memory.negative.tolist()
    assert spilled.positive.dtype == (np.float64 if weighted else np.int64)
    assert spilled.n_samples == n and spilled.weighted == weighted
    got = spilled.finalize()
    if weighted:
        assert got["roc_auc_score"] == pytest.approx(
            M.roc_auc_score(y, s, sample_weight=w), rel=1e-12
        )
    else:
        scores, pos, neg = reference_table(y, s)
        assert spilled.scores.tolist() == scores and spilled.positive.tolist() == pos
        assert got["roc_auc_score"] == M.roc_auc_score(y, s)
        assert got["average_precision_score"] == M.average_precision_score(y, s)
    assert got["log_loss"] == pytest.approx(M.log_loss(y, s, sample_weight=w), rel=1e-12)
    # the caller's states are left as they were
    again = BinaryState.from_chunk(y[:300], s[:300], None if w is None else w[:300])
    assert chunks[0].scores.tolist() == again.scores.tolist()
    assert chunks[0].positive.tolist() == again.positive.tolist()


def _stream_inputs():
    rng = np.random.default_rng(11)
    n = 300
    y = (rng.random(n) < 0.4).astype(np.int8)
    s32 = rng.integers(0, 50, n).astype(np.float32) / np.float32(49)
    s32[:3] = [-0.0, 0.0, 1.0]  # -0.0 and 0.0 are one score
    late = s32.astype(np.float64)
    late[200] = 0.1  # no float32 value, past the first 64
    negative, nan, inf, huge = (s32.astype(np.float64) for _ in range(4))
    negative[150], nan[150], inf[150], huge[150] = -0.5, np.nan, np.inf, 1e300
    return {
        "float32": (y, s32, "rows"),
        "float32 widened": (y, s32.astype(np.float64), "rows"),
        "bool labels": (y.astype(bool), s32, "rows"),
        "float labels": (y.astype(np.float64), s32, "rows"),
        "a float64 value at row 200": (y, late, "state"),
        "float64 from the first row": (y, rng.random(n), "state"),
        "a negative score": (y, negative, "state"),
        "a score past float32's range": (y, huge, "state"),  # inf as float32: unequal
        "a column of labels": (y[:, None], s32, "rows"),
        "lists": (y.tolist(), s32.tolist(), "rows"),
        "a NaN": (y, nan, "error"),
        "an infinity": (y, inf, "error"),
        "a label 2": (np.where(np.arange(n) == 7, 2, y), s32, "error"),
        "scores one short": (y, s32[:-1], "error"),
    }


@pytest.mark.parametrize("case", list(_stream_inputs()))
def test_stream_chunks_count_as_states_and_refuse_what_states_refuse(case):
    from metrics.states.binary_stream import BinaryRows

    y, s, kind = _stream_inputs()[case]
    if kind == "error":
        with pytest.raises(MetricInputError) as state_error:
            BinaryState.from_chunk(y, s)
        with pytest.raises(MetricInputError) as chunk_error:
            stream_chunk(y, s)
        assert str(chunk_error.value) == str(state_error.value)
        return
    chunk = stream_chunk(y, s)
    assert isinstance(chunk, BinaryRows) == (kind == "rows")
    if kind == "rows":  # -0.0 is 0.0: no sign bit, which would index past every block
        assert int(chunk.bits.max()) < 2**31
    got = chunk.state() if kind == "rows" else chunk
    want = BinaryState.from_chunk(y, s)
    for key, value in asdict(want).items():
        np.testing.assert_array_equal(asdict(got)[key], value, err_msg=key)
    assert (chunk.score_min, chunk.score_max) == (want.score_min, want.score_max)


def test_merge_binary_stream_refusals():
    with pytest.raises(MetricInputError, match="at least one state"):
        merge_binary_stream([])
    with pytest.raises(MetricInputError, match="at least 1 byte"):
        merge_binary_stream([BinaryState.empty()], memory=0)
    with pytest.raises(MetricInputError, match="merges only"):
        merge_binary_stream([BinaryState.empty(), object()])


@pytest.mark.parametrize("limit", [None, 1500])
@pytest.mark.parametrize("memory", [None, 2000])
def test_compact_tables_mixed_with_wide_ones_give_the_reference_table(monkeypatch, limit, memory):
    # float32 probabilities (held as bits and int32 counts), -0.0 and 0.0 as one score,
    # then chunks of negative scores and of scores float32 cannot hold (float64 tables);
    # past `limit` samples every held table goes back to int64 counts and float64 scores
    if limit is not None:
        monkeypatch.setattr("metrics.states.binary_stream._INT32_LIMIT", limit)
    monkeypatch.setattr("metrics.states.binary_stream._TRIM_ROWS", 1)  # malloc_trim each merge
    rng = np.random.default_rng(11)
    y = (rng.random(3200) < 0.35).astype(np.int8)
    s = (rng.integers(0, 300, 3200).astype(np.float32) / np.float32(299)).astype(np.float64)
    s[:40:2], s[1:40:2] = 0.0, -0.0
    s[2000:2400] -= 0.5  # negative scores: the float64 path
    s[2800:3000] = rng.integers(0, 300, 200) / 299.0  # not float32 values
    parts = [BinaryState.from_chunk(y[i : i + 200], s[i : i + 200]) for i in range(0, 3200, 200)]
    state = merge_binary_stream(iter(parts), memory=memory)
    scores, pos, neg = reference_table(y, s)
    assert state.scores.dtype == np.float64 and state.positive.dtype == np.int64
    assert state.scores.tolist() == scores
    assert state.positive.tolist() == pos
    assert state.negative.tolist() == neg
    assert not (np.signbit(state.scores) & (state.scores == 0)).any()  # no -0.0
    assert state.roc_auc_score() == M.roc_auc_score(y, s)


@pytest.mark.parametrize("limit", [None, 2500])
@pytest.mark.parametrize("memory", [None, 3000])
def test_compact_streams_merged_as_the_dask_blocks_are_give_the_reference_table(
    monkeypatch, limit, memory
):
    # two blocks' streams kept compact (what crosses between Dask workers), then merged;
    # past `limit` samples together the int32 counts are widened before they are summed
    if limit is not None:
        monkeypatch.setattr("metrics.states.binary_stream._INT32_LIMIT", limit)
    rng = np.random.default_rng(12)
    y = (rng.random(4000) < 0.3).astype(np.int8)
    s = (rng.integers(0, 400, 4000).astype(np.float32) / np.float32(399)).astype(np.float64)
    s[3500:3600] = rng.random(100)  # not float32 values: a float64 table in the second block
    blocks = [
        merge_binary_stream(
            (BinaryState.from_chunk(y[i : i + 250], s[i : i + 250]) for i in range(lo, hi, 250)),
            memory=memory,
            compact=True,
        )
        for lo, hi in ((0, 2000), (2000, 4000))
    ]
    first = blocks[0].table
    if memory is None:  # runs spilled to disk come back with float64 scores
        assert first[0].dtype == np.uint32 and first[1].dtype == np.int32  # 12 bytes a score
    merged = blocks[0].merge(blocks[1])
    assert blocks[0].table[0] is first[0]  # a merge leaves its inputs as they were
    state = merged.state()
    scores, pos, neg = reference_table(y, s)
    assert state.scores.tolist() == scores
    assert state.positive.tolist() == pos and state.negative.tolist() == neg
    assert state.n_samples == 4000 and state.positive.dtype == np.int64
    assert merged.finalize()["roc_auc_score"] == M.roc_auc_score(y, s)
    with pytest.raises(MetricInputError, match="merges only with a CompactBinary"):
        merged.merge(state)


def dense_stream(n_chunks: int, size: int = 2500, seed: int = 5):
    """Chunks of float32 scores packed into a few blocks of 2**14 float32 values (so the
    merged tables fill them past a quarter and they turn dense), with a float64 chunk and a
    sparse tail of small scores among them."""
    rng = np.random.default_rng(seed)
    base = np.float32(0.5).view(np.uint32)  # 0.5 starts a block: 2**14 values a block
    values = (base + np.arange(3 * 2**14 // 2, dtype=np.uint32)).view(np.float32)
    ys, ss = [], []
    for k in range(n_chunks):
        y = (rng.random(size) < 0.4).astype(np.int8)
        s = rng.choice(values, size).astype(np.float64)
        s[:50] = rng.random(50).astype(np.float32) * np.float32(1e-3)  # a sparse tail
        if k == 13:
            s[:100] = rng.random(100)  # not float32 values: this chunk's table is float64
        ys.append(y)
        ss.append(s)
    return ys, ss


def dense_halves(seed: int = 7):
    """Two streams' chunks as two Dask blocks read them: both fill the blocks from 0.5 (dense
    in both), the second's last eight chunks halved into the blocks from 0.25 (dense in
    the second only)."""
    ys, ss = dense_stream(16, seed=seed)
    ys2, ss2 = dense_stream(16, seed=seed + 1)
    ss2 = [s * 0.5 if k >= 8 else s for k, s in enumerate(ss2)]  # float32 values still
    return (ys, ss), (ys2, ss2)


def compact_stream(ys, ss):
    from metrics.states.binary_stream import stream_chunk

    chunks = (stream_chunk(y, s) for y, s in zip(ys, ss, strict=True))
    return merge_binary_stream(chunks, compact=True)


def crossed(state, how: str):
    """``state`` as another process receives it: through pickle, or through distributed's
    own serialization (its arrays' buffers sent as frames)."""
    import pickle

    if how == "pickle":
        return pickle.loads(pickle.dumps(state, protocol=5))
    from distributed.protocol import deserialize, serialize

    header, frames = serialize(state)
    return deserialize(header, [bytes(f) for f in frames])


@pytest.mark.parametrize("sent", [None, "pickle", "dask"])
def test_compact_streams_with_dense_blocks_merge_by_adding_their_pools(monkeypatch, sent):
    # what two Dask blocks send: each stream's dense blocks as a pool beside the rows left;
    # their merge adds the pools (a block dense in both summed in place, a block dense in
    # one taken over) and merges only the rows left as tables
    from metrics.states import binary_stream

    (ys, ss), (ys2, ss2) = dense_halves()
    a, b = compact_stream(ys, ss), compact_stream(ys2, ss2)
    assert a.pool is not None and b.pool is not None
    mine, theirs = set(a.pool.blocks.tolist()), set(b.pool.blocks.tolist())
    assert mine & theirs and theirs - mine  # blocks dense in both, and in the second only
    before = [np.array(c) for c in (a.pool.counts, *a.rest)]
    if sent:  # crossed processes: unpickled dtypes, arrays that are not their own memory
        b = crossed(b, sent)
    merged_rows, real_merge = [], binary_stream._merge

    def merge(x, y):
        merged_rows.append(x[0].shape[0] + y[0].shape[0])
        return real_merge(x, y)

    monkeypatch.setattr(binary_stream, "_merge", merge)
    merged = a.merge(b)
    assert merged.pool is not None  # still a pool, for the next merge up the tree
    assert set(merged.pool.blocks.tolist()) == mine | theirs
    assert merged_rows == [a.rest[0].shape[0] + b.rest[0].shape[0]]  # the rest rows alone
    assert all(np.array_equal(x, y) for x, y in zip(before, (a.pool.counts, *a.rest), strict=True))
    y, s = np.concatenate([*ys, *ys2]), np.concatenate([*ss, *ss2])
    scores, pos, neg = reference_table(y, s)
    state = merged.state()
    assert state.scores.tolist() == scores
    assert state.positive.tolist() == pos and state.negative.tolist() == neg
    assert state.n_samples == y.shape[0] and merged.pool is None  # the table made once
    want = merge_states(BinaryState.from_chunk(y, s) for y, s in ((y, s),)).finalize()
    assert merged.finalize() == want


def test_a_pool_merges_with_a_stream_that_made_no_block_dense():
    # a short block (three chunks: no block dense) merged with a dense one, either way round:
    # its rows of the other's dense blocks are added to them
    (ys, ss), (ys2, ss2) = dense_halves(seed=9)
    dense, short = compact_stream(ys, ss), compact_stream(ys2[:3], ss2[:3])
    assert dense.pool is not None and short.pool is None
    y, s = np.concatenate([*ys, *ys2[:3]]), np.concatenate([*ss, *ss2[:3]])
    scores, pos, neg = reference_table(y, s)
    received = crossed(dense, "dask")  # as another worker holds it
    for merged in (dense.merge(short), short.merge(dense), short.merge(received)):
        assert merged.pool is not None
        state = merged.state()
        assert state.scores.tolist() == scores
        assert state.positive.tolist() == pos and state.negative.tolist() == neg
    own = [c.tolist() for c in dense.table]  # made a table where it was received, too
    assert [c.tolist() for c in received.table] == own


def test_pools_whose_samples_together_pass_int32_merge_as_wide_tables(monkeypatch):
    # a count's halves are int32: two streams whose samples together could pass them are made
    # tables and merged with int64 counts
    (ys, ss), (ys2, ss2) = dense_halves()
    a, b = compact_stream(ys, ss), compact_stream(ys2, ss2)
    monkeypatch.setattr("metrics.states.binary_stream._INT32_LIMIT", 50_000)  # 40,000 each
    merged = a.merge(b)
    assert merged.pool is None and merged.table[1].dtype == np.int64
    y, s = np.concatenate([*ys, *ys2]), np.concatenate([*ss, *ss2])
    scores, pos, neg = reference_table(y, s)
    state = merged.state()
    assert state.scores.tolist() == scores
    assert state.positive.tolist() == pos and state.negative.tolist() == neg


@pytest.mark.parametrize("limit", [None, 2500 * 11])
@pytest.mark.parametrize("memory", [None, 430_000])
@pytest.mark.parametrize("chunk", ["state", "rows", "rows, sorted 120 at a time"])
def test_dense_blocks_give_the_reference_table(monkeypatch, limit, memory, chunk):
    # 16 chunks: from the eighth merge (or the first 8 chunks' samples sorted together) on,
    # blocks are dense and later chunks are added to them in place (a state's table rows,
    # or a chunk's samples before any sort); a limit
    # at 11 chunks turns the dense counts back into a wide table, a memory bound (the
    # blocks and their spare row counted) spills them to disk with the tables, mid-stream
    # and at the end
    from metrics.states import binary_stream, dense_blocks
    from metrics.states.binary_stream import BinaryRows, stream_chunk

    if limit is not None:
        monkeypatch.setattr(binary_stream, "_INT32_LIMIT", limit)
    # the samples that dense blocks leave, gathered before they are sorted: 2**22 in a
    # real stream; here all of them at the end, or 120 at a time (mid-stream tables)
    monkeypatch.setattr(binary_stream, "SAMPLES", 120 if "120" in chunk else 8 * 2500)
    monkeypatch.setattr(dense_blocks, "_TAKE_ROWS", 1000)  # tables taken in slices
    in_turn(monkeypatch)
    # the sizes of the tables sorted from gathered samples (on either thread)
    gathered, real_keys_table = [], binary_stream.keys_table

    def keys_table(keys, **options):
        gathered.append(keys.shape[0])
        return real_keys_table(keys, **options)

    monkeypatch.setattr(binary_stream, "keys_table", keys_table)
    taken, spills = [], []
    real_take, real_rows = dense_blocks.DenseBlocks.take, dense_blocks.DenseBlocks.take_rows
    real_keys, real_write = dense_blocks.DenseBlocks.promote_keys, binary_stream._Runs.write

    def take(self, table):
        rest = real_take(self, table)
        taken.append(table[0].shape[0] - rest[0].shape[0])
        return rest

    def take_rows(self, bits, positive, into=None):
        rest = real_rows(self, bits, positive, into)
        taken.append(bits.shape[0] - rest[0].shape[0])
        return rest

    def promote_keys(self, keys, tally=True):
        n = keys.shape[0]
        rest = real_keys(self, keys, tally)
        taken.append(n - rest.shape[0])
        return rest

    def write(self, stack):
        spills.append(len(stack))
        return real_write(self, stack)

    monkeypatch.setattr(dense_blocks.DenseBlocks, "promote_keys", promote_keys)
    monkeypatch.setattr(dense_blocks.DenseBlocks, "take", take)
    monkeypatch.setattr(dense_blocks.DenseBlocks, "take_rows", take_rows)
    monkeypatch.setattr(binary_stream._Runs, "write", write)
    ys, ss = dense_stream(16)
    make = BinaryState.from_chunk if chunk == "state" else stream_chunk
    parts = [make(y, s) for y, s in zip(ys, ss, strict=True)]
    if chunk != "state":  # every chunk but the one with float64 scores
        assert sum(isinstance(part, BinaryRows) for part in parts) == 15
    state = merge_binary_stream(iter(parts), memory=memory)
    y, s = np.concatenate(ys), np.concatenate(ss)
    scores, pos, neg = reference_table(y, s)
    # a third of the 40,000 samples (or their rows) were added to dense blocks, not merged
    assert sum(taken) > 12_000
    # what dense blocks left (50 a chunk) sorted with other chunks' leftovers (a spill
    # empties the dense blocks; past the int32 limit at chunk 10, a buffer of 120 has
    # held one chunk's at most)
    if chunk != "state" and memory is None and (limit is None or "120" not in chunk):
        assert any(100 <= n < 2500 for n in gathered), str(gathered)
    assert len(spills) == 0 if memory is None else len(spills) >= 2  # mid-stream, the end
    assert state.scores.tolist() == scores
    assert state.positive.tolist() == pos
    assert state.negative.tolist() == neg
    assert state.positive.dtype == np.int64 and state.n_samples == y.shape[0]
    assert state.roc_auc_score() == M.roc_auc_score(y, s)
    assert state.average_precision_score() == M.average_precision_score(y, s)


def test_gathered_samples_are_sorted_and_merged_on_the_merger_thread(monkeypatch):
    # without a bound, each full buffer of the samples dense blocks leave is sorted and
    # merged on a thread of its own while the stream counts the next chunks in place
    import threading

    from metrics.states import binary, binary_stream

    monkeypatch.setattr(binary_stream, "SAMPLES", 120)
    in_turn(monkeypatch)
    threads, real_keys_table = [], binary.keys_table

    def keys_table(key, **options):
        threads.append(threading.current_thread().name)
        return real_keys_table(key, **options)

    monkeypatch.setattr(binary_stream, "keys_table", keys_table)
    ys, ss = dense_stream(16)
    parts = [stream_chunk(y, s) for y, s in zip(ys, ss, strict=True)]
    state = merge_binary_stream(iter(parts))
    y, s = np.concatenate(ys), np.concatenate(ss)
    scores, pos, neg = reference_table(y, s)
    assert state.scores.tolist() == scores
    assert state.positive.tolist() == pos and state.negative.tolist() == neg
    # until blocks are dense each chunk alone fills a buffer (made as large as the chunk):
    # the first nine sorted on the merger's thread, each when the next arrives; then the
    # 50 samples a chunk leaves fit that buffer, sorted here before the float64 chunk and
    # at the end
    assert [name.startswith("metrics-merge") for name in threads] == [True] * 9 + [False] * 2
    assert not any(t.name.startswith("metrics-merge") for t in threading.enumerate())


def counted_dense_stream(monkeypatch, threads: int) -> list:
    """A 16-chunk dense stream merged with buffers of 5,000 places, checked against the
    reference table; each buffer counted: (its thread's name, its places)."""
    import threading

    from metrics.states import binary_stream, dense_blocks

    monkeypatch.setattr(binary_stream, "POSITIONS", 5000)
    counted, real = [], dense_blocks.DenseBlocks.count_positions

    def count_positions(self, positions):
        counted.append((threading.current_thread().name, positions.shape[0]))
        return real(self, positions)

    monkeypatch.setattr(dense_blocks.DenseBlocks, "count_positions", count_positions)
    ys, ss = dense_stream(16)
    chunks = (stream_chunk(y, s) for y, s in zip(ys, ss, strict=True))
    state = merge_binary_stream(chunks, threads=threads)
    scores, pos, neg = reference_table(np.concatenate(ys), np.concatenate(ss))
    assert state.scores.tolist() == scores
    assert state.positive.tolist() == pos and state.negative.tolist() == neg
    return counted


@pytest.mark.parametrize("threads", [2, 1])
def test_samples_of_dense_blocks_are_counted_sorted_on_the_merger_thread(monkeypatch, threads):
    # without a bound, the places of the samples of dense blocks are held in a buffer and
    # counted, sorted, on the merger's thread when it is full (on the stream's own with
    # one thread, as a Dask task runs it); the last ones at the end
    from metrics.states import dense_blocks

    in_turn(monkeypatch)
    monkeypatch.setattr(dense_blocks, "_TAKE_ROWS", 1000)  # counted in slices
    counted = counted_dense_stream(monkeypatch, threads)
    # the first 8 chunks' samples sorted together make blocks dense; chunk 8 was told
    # apart before, and its samples are held until the float64 chunk 13 (a state) has
    # what is held counted: then they are told apart again, like those of chunks 9-12 and
    # 14-15. Every sample's place is held (2,450 of chunk 8's 2,700 in dense blocks, the
    # others past every place, dropped when counted). A buffer of two chunks full twice
    # (the first on the merger's thread, the second, at the float64 chunk, here with
    # chunk 8's, told apart again), the last two at the end (on the merger's thread while
    # the stream merges its tables)
    assert [n for _, n in counted] == [5000, 5000, 2700, 5000]
    on_merger = [name.startswith("metrics-merge") for name, _ in counted]
    assert on_merger == ([True, False, False, True] if threads == 2 else [False] * 4)


def test_a_full_buffer_of_places_is_counted_here_while_the_merger_is_busy(monkeypatch):
    # the stream does not wait for a busy merger's thread: it counts its own full buffer
    # of places (under the pool's lock, while the merger may sort samples) and fills it
    # again; the same table
    from metrics.states import binary_stream

    monkeypatch.setattr(binary_stream._Merger, "busy", lambda self: True)
    in_turn(monkeypatch)  # the blocks dense before the next chunk, as the merger is quick
    counted = counted_dense_stream(monkeypatch, 2)
    # two chunks of places a buffer (5,000), chunk 8's alone, counted here; the last two
    # at the end, on the merger's thread beside the end's merges
    assert [n for _, n in counted] == [5000, 5000, 2700, 5000]
    assert [name for name, _ in counted[:-1]] == ["MainThread"] * 3
    assert counted[-1][0].startswith("metrics-merge")


@pytest.mark.parametrize(
    ("n_chunks", "samples", "slow_end"),
    [(16, 120, False), (16, 8 * 2500, False), (9, 8 * 2500, True)],
)
def test_a_stream_whose_threads_run_freely_gives_the_reference_table(
    monkeypatch, n_chunks, samples, slow_end
):
    # no job waited for: the merger sorts, promotes and counts while the stream counts
    # places, and at the end counts the last places and folds the tally while the stream
    # merges its tables; whatever the order, the same table (20 runs). Nine chunks end
    # with chunk 8's samples held since before the first sort made blocks dense: told
    # apart at the end, their places are the last job's, and with a slow merger the
    # stream's merges are over long before it: the pool is read after it
    import threading
    import time

    from metrics.states import binary_stream, dense_blocks

    monkeypatch.setattr(binary_stream, "SAMPLES", samples)
    monkeypatch.setattr(binary_stream, "POSITIONS", 3000)
    if slow_end:
        real = dense_blocks.DenseBlocks.count_positions

        def count_positions(self, positions):
            if threading.current_thread().name.startswith("metrics-merge"):
                time.sleep(0.02)  # a job that outlasts the stream's merges (not a wait)
            real(self, positions)

        monkeypatch.setattr(dense_blocks.DenseBlocks, "count_positions", count_positions)
    ys, ss = dense_stream(n_chunks)
    scores, pos, neg = reference_table(np.concatenate(ys), np.concatenate(ss))
    for _ in range(5 if slow_end else 20):
        chunks = (stream_chunk(y, s) for y, s in zip(ys, ss, strict=True))
        compact = merge_binary_stream(chunks, compact=True)
        state = merge_binary_stream(stream_chunk(y, s) for y, s in zip(ys, ss, strict=True))
        for got in (compact.state(), state):
            assert got.scores.tolist() == scores
            assert got.positive.tolist() == pos and got.negative.tolist() == neg


def test_an_error_on_the_merger_thread_reaches_the_caller(monkeypatch):
    import threading

    from metrics.states import binary_stream

    monkeypatch.setattr(binary_stream, "SAMPLES", 120)
    real_keys_table = binary_stream.keys_table

    def broken(key, **options):
        if threading.current_thread().name.startswith("metrics-merge"):
            raise MemoryError("no room for the merged table")
        return real_keys_table(key, **options)

    monkeypatch.setattr(binary_stream, "keys_table", broken)
    ys, ss = dense_stream(16)
    with pytest.raises(MemoryError, match="no room"):
        merge_binary_stream(stream_chunk(y, s) for y, s in zip(ys, ss, strict=True))
    assert not any(t.name.startswith("metrics-merge") for t in threading.enumerate())


def test_a_dense_block_keeps_both_classes_counts_apart():
    # int32's largest counts in both halves of the packed int64: no carry, no sign
    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    dense = DenseBlocks()
    bits = np.float32(0.25).view(np.uint32) + np.arange(BLOCK // 2, dtype=np.uint32)
    top = np.full(bits.shape[0], 2**31 - 1, dtype=np.int32)
    rest = dense.promote([bits, top, top - 1])
    assert rest[0].shape[0] == 0 and dense.nbytes == 2 * BLOCK * 8  # the block, the spare row
    half = bits.shape[0] // 2
    rest = dense.take([bits[::2], np.zeros(half, np.int32), np.ones(half, np.int32)])
    assert rest[0].shape[0] == 0
    table = dense.table()
    assert table[0].tolist() == bits.tolist()
    assert table[1].tolist() == top.tolist()
    assert table[2].tolist() == [2**31 - 1, 2**31 - 2] * half
    assert dense.nbytes == 0  # the pool is emptied


@pytest.mark.parametrize("path", ["tally", "counts", "a run past a byte", "big-endian"])
def test_gathered_keys_count_as_the_table_of_their_samples(monkeypatch, path):
    # promote_keys makes dense the blocks that the samples' table would make dense and
    # counts their samples at their places (in the tally, into the int32 counts, or, where
    # places are not an int32 view's, into the int64 counts): the same pool and rows left
    # as promote of that table, which it never makes
    from metrics.states import dense_blocks
    from metrics.states.binary import keys_table, sample_keys
    from metrics.states.dense_blocks import BLOCK, DENSE_AT, DenseBlocks

    if path == "big-endian":
        monkeypatch.setattr(dense_blocks, "_LITTLE_ENDIAN", False)
    rng = np.random.default_rng(3)
    first = np.float32(0.25).view(np.uint32)
    # block 0 filled past its bar, block 1 below it, block 3 already dense; 0.0 too
    low = first + rng.integers(0, BLOCK, 3 * DENSE_AT).astype(np.uint32)
    sparse = first + np.uint32(BLOCK) + rng.integers(0, BLOCK, DENSE_AT // 2).astype(np.uint32)
    held = first + np.uint32(3 * BLOCK) + rng.integers(0, BLOCK, 500).astype(np.uint32)
    bits = np.concatenate([low, sparse, held, np.zeros(7, np.uint32)])
    if path == "a run past a byte":  # 40 samples of one score: past the tally's 15
        bits[:40] = bits[0]
    positive = rng.random(bits.shape[0]) < 0.3
    dense_held = np.arange(3 * BLOCK, 4 * BLOCK, dtype=np.uint32) + first

    def pool() -> DenseBlocks:
        dense = DenseBlocks()
        dense.promote([dense_held, *np.ones((2, BLOCK), np.int32)])  # block 3 dense
        return dense

    by_table, by_keys = pool(), pool()
    table = keys_table(sample_keys(bits, positive))
    rest = by_table.take(by_table.promote([c.copy() for c in table]))
    left = by_keys.promote_keys(sample_keys(bits, positive), tally=path != "counts")
    assert by_keys.blocks.tolist() == by_table.blocks.tolist()  # blocks 3 and 0
    assert by_keys.tallied == (1 if path == "tally" else 0)
    assert [c.tolist() for c in keys_table(left, presorted=True)] == [c.tolist() for c in rest]
    assert np.array_equal(left, np.sort(left))
    want, got = by_table.table(), by_keys.table()
    assert all(np.array_equal(a, b) for a, b in zip(want, got, strict=True))
    assert int(got[1].sum() + got[2].sum()) == 3 * DENSE_AT + 500 + 2 * BLOCK


@pytest.mark.parametrize("rest", [False, True])
def test_a_pool_consumed_by_its_table_hands_back_its_pages(rest):
    # table(drop=True) makes the same table as table() and hands back each block's pages
    # once its rows are copied out: the pool's memory, read after, is zeros there (on
    # glibc; elsewhere it keeps its counts)
    import sys

    from metrics import _heap
    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    pool = weighted_pool(0, 2, 1, 5, positives=3)
    rows = [np.array([0x3E800000 + 3 * BLOCK + 7], np.uint32), *np.ones((2, 1), np.int32)]
    kept = DenseBlocks.attach(pool, copy=True).table([c.copy() for c in rows] if rest else None)
    counts = pool.counts  # the pool's own memory, which the dropping table consumes
    dropped = DenseBlocks.attach(pool).table(rows if rest else None, drop=True)
    assert all(np.array_equal(a, b) for a, b in zip(kept, dropped, strict=True))
    assert dropped[0].shape[0] == 4 * BLOCK // 2 + rest
    blocks = counts[: 4 * BLOCK].reshape(4, BLOCK)
    if _heap._LIBC is not None and sys.platform.startswith("linux"):
        assert not blocks[:, 1024:-1024].any()  # the whole pages inside each block
    else:
        assert blocks.any()


def test_dense_blocks_detached_attached_and_summed_count_as_one_pool():
    # a pool crosses processes as plain arrays; attached again it counts on, and the sum of
    # two streams' pools sums the blocks both hold and takes over the others, in memory of
    # its own
    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    first = np.float32(0.25).view(np.uint32)
    ones = np.ones(BLOCK // 2, dtype=np.int32)

    def pool_of(*blocks, weight):
        dense = DenseBlocks()
        for block in blocks:
            bits = first + np.uint32(block * BLOCK) + np.arange(0, BLOCK, 2, dtype=np.uint32)
            dense.promote([bits, ones * weight, ones])
        return dense.detach()

    mine, theirs = pool_of(0, 1, weight=2), pool_of(1, 2, weight=3)
    assert DenseBlocks.attach(mine).counts is mine.counts  # its own memory: counted on in place
    held = [np.array(a) for pool in (mine, theirs) for a in (pool.blocks, pool.counts)]
    dense = DenseBlocks.summed(mine, theirs)
    after = [a for pool in (mine, theirs) for a in (pool.blocks, pool.counts)]
    assert all(np.array_equal(x, y) for x, y in zip(held, after, strict=True))
    assert dense.blocks.tolist() == [*mine.blocks.tolist(), theirs.blocks[1]]
    assert dense.rows == mine.rows + theirs.rows and not dense.counts[-BLOCK:].any()
    table = dense.table()
    step = np.arange(0, BLOCK, 2, dtype=np.uint32)
    assert (
        table[0].tolist() == np.concatenate([first + b * BLOCK + step for b in (0, 1, 2)]).tolist()
    )
    assert table[1].tolist() == [2] * (BLOCK // 2) + [5] * (BLOCK // 2) + [3] * (BLOCK // 2)
    assert table[2].tolist() == [1] * (BLOCK // 2) + [2] * (BLOCK // 2) + [1] * (BLOCK // 2)
    assert DenseBlocks().detach() is None
    copied = DenseBlocks.attach(theirs, copy=True)
    assert copied.counts is not theirs.counts and copied.table()[1].tolist() == [3] * BLOCK


def weighted_pool(*blocks, positives: int, negatives: int = 1):
    """A pool of ``blocks`` (of 2**14 values from 0.25 up), every other value of each
    counted ``positives`` and ``negatives`` times."""
    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    first = np.float32(0.25).view(np.uint32)
    ones = np.ones(BLOCK // 2, dtype=np.int32)
    dense = DenseBlocks()
    for block in blocks:
        bits = first + np.uint32(block * BLOCK) + np.arange(0, BLOCK, 2, dtype=np.uint32)
        dense.promote([bits, ones * positives, ones * negatives])
    return dense.detach()


@pytest.mark.parametrize(
    ("positives", "kind"), [(17, np.uint8), (255, np.uint8), (256, np.uint16), (70_000, np.int64)]
)
def test_a_pool_crosses_processes_in_the_narrowest_type_of_its_counts(positives, kind):
    # what a Dask block sends: each score's two counts, narrow while every count fits
    # (a 268 MB pool of 10^8 rows' half crosses as 67 MB), summed or attached as they came
    import pickle

    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    mine, theirs = weighted_pool(0, 1, positives=positives), weighted_pool(1, 2, positives=2)
    sent = pickle.loads(pickle.dumps(mine))
    assert sent.counts.dtype == kind and sent.rows == mine.rows
    if kind is not np.int64:  # (positives, negatives) a score, without the spare row
        assert sent.counts.shape == (2 * BLOCK, 2)
        assert sent.counts[:, 0].tolist() == [positives, 0] * BLOCK
        assert sent.counts[:, 1].tolist() == [1, 0] * BLOCK
        assert len(pickle.dumps(mine)) < mine.counts.nbytes * np.dtype(kind).itemsize / 4
    want = DenseBlocks.attach(mine, copy=True).table()
    got = DenseBlocks.attach(sent).table()
    assert all(np.array_equal(x, y) for x, y in zip(got, want, strict=True))
    summed = DenseBlocks.summed(mine, theirs).table()
    for a, b in ((sent, theirs), (mine, pickle.loads(pickle.dumps(theirs))), (sent, sent)):
        got = DenseBlocks.summed(a, b).table()
        if b is sent:
            assert got[1].tolist() == (want[1] * 2).tolist()
        else:
            assert all(np.array_equal(x, y) for x, y in zip(got, summed, strict=True))


def test_a_narrow_pool_lays_its_counts_by_class_on_either_byte_order(monkeypatch):
    # the narrow counts are (positives, negatives) whatever the machine: a big-endian one
    # holds a score's negatives first in its int64, and reads them back there
    import pickle

    from metrics.states import dense_blocks

    pool = weighted_pool(3, positives=5, negatives=2)
    memory = pool.counts[: -dense_blocks.BLOCK].view(np.int32)  # the spare row left out
    monkeypatch.setattr(dense_blocks, "_LITTLE_ENDIAN", False)  # as if this one were
    sent = pickle.loads(pickle.dumps(pool))
    assert sent.counts[:2].tolist() == [[2, 5], [0, 0]]  # this int64 read as big-endian
    assert np.array_equal(sent.halves().ravel(), memory)  # back where they lay
    assert np.array_equal(sent.wide(), pool.counts)


def test_samples_count_into_the_int32_halves_as_into_the_int64(monkeypatch):
    # little-endian machines add 1 to a count's own int32 half; the int64 path (a
    # big-endian machine's) adds 1 << 32 or 1: the same counts, read back by class
    from metrics.states import dense_blocks
    from metrics.states._buffers import Buffers
    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    rng = np.random.default_rng(5)
    low = np.float32(0.25).view(np.uint32)
    table = [low + np.arange(BLOCK, dtype=np.uint32), *np.ones((2, BLOCK), np.int32)]
    bits = low + rng.integers(0, 2 * BLOCK, 50_000).astype(np.uint32)  # half in no block
    positive = rng.random(50_000) < 0.3
    tables = []
    monkeypatch.setattr(dense_blocks, "_TAKE_ROWS", 7000)  # held places counted in slices
    ways = [(True, None, 2**32), (False, None, 2**32), (True, Buffers(60_000), 2**32)]
    # the bound forced down: a pool of one block right below the places of no dense block
    # (held, those past it dropped when counted); a pool as large as every block (intp
    # starts) holds nothing
    bounds = [(True, Buffers(60_000), 4 * BLOCK), (True, Buffers(60_000), 2 * BLOCK)]
    for little, held, places in [*ways, *bounds]:
        monkeypatch.setattr(dense_blocks, "_LITTLE_ENDIAN", little)
        monkeypatch.setattr(dense_blocks, "_UINT32_PLACES", places)
        dense = DenseBlocks()
        dense.promote([column.copy() for column in table])
        before = dense.counts.copy()
        rest_bits, rest_positive = dense.take_rows(bits, positive, held)
        assert rest_bits.tolist() == bits[bits >= low + BLOCK].tolist()
        assert rest_positive.tolist() == positive[bits >= low + BLOCK].tolist()
        if held is not None and places > 2 * BLOCK:  # held, not counted yet: counted sorted
            assert held.count == 50_000  # those of no block too, past every place
            assert np.array_equal(dense.counts, before)
            dense.count_positions(held.take())
        elif held is not None:  # counted at once, none held
            assert held.count == 0 and not np.array_equal(dense.counts, before)
        tables.append(dense.table())
    inside = bits < low + BLOCK
    want_p = np.bincount(bits[inside & positive] - low, minlength=BLOCK) + 1
    want_n = np.bincount(bits[inside & ~positive] - low, minlength=BLOCK) + 1
    for got in tables:
        assert got[1].tolist() == want_p.tolist() and got[2].tolist() == want_n.tolist()


@pytest.mark.parametrize("run", [15, 16])
def test_held_places_are_tallied_in_bytes_and_folded_before_a_byte_overflows(run):
    # sorted buffers of places whose runs are at most 15 are counted a byte a place and
    # folded into the int32 counts every 17 buffers (17 x 15 = 255); a buffer with a run
    # of 16 is counted into the int32 counts at once. 40 buffers with the same run at one
    # place: 600 or 640 samples there, past a byte either way
    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    low = np.float32(0.25).view(np.uint32)
    dense = DenseBlocks()
    dense.promote([low + np.arange(BLOCK, dtype=np.uint32), *np.ones((2, BLOCK), np.int32)])
    rng = np.random.default_rng(9)
    want = np.zeros(2 * BLOCK, dtype=np.int64)
    for _ in range(40):
        spread = rng.integers(0, 2 * BLOCK, 3000).astype(np.uint32)
        spread = spread[spread != 7]  # place 7's run: exactly ``run``
        places = np.concatenate((np.full(run, 7, np.uint32), spread))
        np.add.at(want, places.astype(np.intp), 1)
        tallied = dense.tallied
        dense.count_positions(rng.permutation(places))
        assert dense.tallied == (0 if run == 16 else (tallied + 1) % 17)
    got = dense.table()
    # a place's int32 counts: even places the positives (low half), odd the negatives
    assert got[1].tolist() == (want[0::2] + 1).tolist()
    assert got[2].tolist() == (want[1::2] + 1).tolist()
    assert want[7] >= 40 * run > 255 and got[2][3] == want[7] + 1
    assert dense.tally.shape[0] == 0  # let go with the table


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("group", [1, 2, 64])
def test_rows_of_no_dense_block_are_placed_among_the_dense_counts(monkeypatch, group, workers):
    # the final table is the dense counts with the rest rows put in place by position:
    # rest rows below every dense block, between two blocks of one group, and above all
    from metrics.states import dense_blocks
    from metrics.states.dense_blocks import BLOCK, BLOCK_BITS, DenseBlocks

    monkeypatch.setattr(dense_blocks, "_TABLE_BLOCKS", group)
    monkeypatch.setattr("metrics._ranks.WORKERS", workers)  # groups filled on two threads
    rng = np.random.default_rng(3)
    base = int(np.float32(0.25).view(np.uint32)) >> BLOCK_BITS
    dense_ids, rest_ids = [base + i for i in (1, 2, 4, 5, 6)], [base, base + 3, base + 9]
    dense = DenseBlocks()
    rows = []
    for block in dense_ids[::-1]:  # made dense in another order than their bits'
        bits = np.sort(rng.choice(BLOCK, BLOCK // 2, replace=False)).astype(np.uint32)
        bits |= np.uint32(block << BLOCK_BITS)
        pos, neg = rng.integers(0, 3, (2, bits.shape[0])).astype(np.int32)
        pos[neg == 0] += 1  # no row of zero counts
        assert dense.promote([bits, pos, neg])[0].shape[0] == 0
        rows.append((bits, pos, neg))
    rest_bits = np.concatenate(
        [
            np.uint32(b << BLOCK_BITS)
            + np.sort(rng.choice(BLOCK, 7, replace=False)).astype(np.uint32)
            for b in rest_ids
        ]
    )
    rest = [rest_bits, np.arange(21, dtype=np.int32), np.arange(21, 42, dtype=np.int32)]
    rows.append(tuple(rest))
    expect = [np.concatenate(c) for c in zip(*rows, strict=True)]
    order = np.argsort(expect[0])
    table = dense.table(rest)
    assert table[0].tolist() == expect[0][order].tolist()
    assert table[1].tolist() == expect[1][order].tolist()
    assert table[2].tolist() == expect[2][order].tolist()
    assert dense.nbytes == 0


def test_samples_of_other_blocks_never_reach_a_block_made_dense_later():
    # take_rows scatters the samples of blocks not dense into a spare row past the pool;
    # the next block made dense takes that row's place and must start from zero
    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    dense = DenseBlocks()
    first = np.float32(0.25).view(np.uint32) + np.arange(BLOCK // 2, dtype=np.uint32)
    second = np.float32(0.5).view(np.uint32) + np.arange(BLOCK // 2, dtype=np.uint32)
    ones = np.ones(first.shape[0], np.int32)
    dense.promote([first, ones, ones])
    label = np.arange(second.shape[0]) % 3 == 0
    bits, positive = dense.take_rows(np.concatenate((first, second)), np.tile(label, 2))
    assert bits.tolist() == second.tolist() and positive.tolist() == label.tolist()
    dense.promote([second, ones * 5, ones * 7])  # the second block takes the spare row
    table = dense.table()
    half = first.shape[0]
    assert table[0].tolist() == first.tolist() + second.tolist()
    assert table[1].tolist() == (1 + label).tolist() + [5] * half  # positives
    assert table[2].tolist() == (1 + ~label).tolist() + [7] * half  # negatives


def test_blocks_filled_to_a_sixteenth_are_made_dense_fullest_first_within_the_pool_budget():
    # a block may turn dense from a sixteenth of its values on, while the pool takes at
    # most 32 bytes (4/3 of a final row's 24) for each row known: the fullest blocks first
    from metrics.states.dense_blocks import BLOCK, DENSE_AT, DenseBlocks

    assert DENSE_AT == BLOCK // 16
    first = np.float32(0.5).view(np.uint32)
    sizes = [1023] + [1024 + 100 * k for k in range(40)]  # the first just short of 1/16
    bits = np.concatenate(
        [first + np.uint32(b * BLOCK) + np.arange(n, dtype=np.uint32) for b, n in enumerate(sizes)]
    )
    ones = np.ones(bits.shape[0], np.int32)
    dense = DenseBlocks()
    rest = dense.promote([bits, ones, ones])
    room = 32 * bits.shape[0] // (BLOCK * 8)  # 29 blocks
    assert dense.blocks.shape[0] == room == 29
    made = sorted(int(b) - (first >> 14) for b in dense.blocks)
    assert made == list(range(len(sizes) - room, len(sizes)))  # the 29 fullest
    assert rest[0].shape[0] == sum(sizes[: len(sizes) - room])  # the others stay a table
    assert dense.nbytes == (room + 1) * BLOCK * 8  # the blocks and their spare row
    assert dense.nbytes <= 32 * bits.shape[0] + BLOCK * 8
    table = dense.table()
    assert table[0].tolist() == bits[bits.shape[0] - table[0].shape[0] :].tolist()


def test_the_pool_budget_counts_the_scores_dense_blocks_hold_now():
    # rows of the final table known at a promotion: the scores the dense blocks have been
    # given since they were made dense count too, so blocks that fill late still turn dense
    from metrics.states.dense_blocks import BLOCK, DenseBlocks

    first = np.float32(0.5).view(np.uint32)
    dense = DenseBlocks()

    def table(block: int, n: int) -> list:
        bits = first + np.uint32(block * BLOCK) + np.arange(n, dtype=np.uint32)
        return [bits, *np.ones((2, n), np.int32)]

    # 13,000 rows in block 0 pay for 3 blocks: block 0 dense, the spare room unused
    assert dense.promote(table(0, 13_000))[0].shape[0] == 0 and dense.rows == 13_000
    dense.take(table(0, BLOCK))  # block 0 now holds all its 16,384 scores
    # 1,100 rows in each of blocks 1-4: 16,384 + 4,400 rows known pay for 5 blocks, where
    # the rows at promotion (13,000 + 4,400) would pay for 4 (32 bytes a row)
    later = [np.concatenate(c) for c in zip(*(table(b, 1100) for b in range(1, 5)), strict=True)]
    assert dense.promote(later)[0].shape[0] == 0
    assert sorted(dense.blocks.tolist()) == [(first >> 14) + b for b in range(5)]


@pytest.mark.parametrize("weighted", [False, True])
def test_finalize_on_threads_gives_the_serial_values_in_the_same_order(monkeypatch, weighted):
    # a large table's three groups of metrics run on metrics' threads: the same values,
    # keys and errors as one after the other
    from metrics import _ranks
    from metrics.states import binary

    rng = np.random.default_rng(3)
    y = (rng.random(4000) < 0.35).astype(np.int8)
    s = ((rng.random(4000) + 0.6 * y) / 1.6).astype(np.float32).astype(np.float64)
    w = rng.random(4000) if weighted else None
    state = BinaryState.from_chunk(y, s, w)
    # the operating point's bootstrap needs counts: unweighted only
    operating = (
        None if weighted else {"objective": "recall", "constraint": ("precision", ">=", 0.8)}
    )
    serial = state.finalize(0.4, operating=operating)
    used = []
    real = binary.map_blocks
    monkeypatch.setattr(
        binary, "map_blocks", lambda f, parts: used.append(len(parts)) or real(f, parts)
    )
    monkeypatch.setattr(binary, "_PARALLEL_ROWS", 1)
    monkeypatch.setattr(_ranks, "WORKERS", 2)
    threaded = state.finalize(0.4, operating=operating)
    assert used == [3]
    keys = ["roc_auc_score", "average_precision_score", "log_loss", "confusion_matrix",
            "ks_statistic", "lift_at", "accuracy_ratio", "calibration_error",
            "max_calibration_error", "net_benefit", "operating_point"]  # fmt: skip
    assert list(threaded) == list(serial) == keys[: 10 if weighted else 11]  # as documented
    assert threaded == serial
    assert threaded["roc_auc_score"] == pytest.approx(
        M.roc_auc_score(y, s, sample_weight=w), rel=1e-12
    )
    if not weighted:
        assert threaded["operating_point"]["feasible"]
        bad = {"objective": "recall", "constraint": ("precision", ">=", 2.0)}
        with pytest.raises(MetricInputError) as threaded_error:
            state.finalize(operating=bad)
        monkeypatch.setattr(binary, "_PARALLEL_ROWS", 1 << 30)
        with pytest.raises(MetricInputError) as serial_error:
            state.finalize(operating=bad)
        assert str(threaded_error.value) == str(serial_error.value)


def test_tables_that_crossed_processes_merge_with_numpy_s_own_dtypes(monkeypatch):
    """An unpickled table (Dask sends them between workers) holds dtype instances equal to
    numpy's but not them, which sends np.add.at to its slow path; merge_tables views them
    with numpy's own before scattering, byte order kept."""
    import pickle

    from metrics.states import binary as binary_module

    rng = np.random.default_rng(3)
    a = merge_binary_stream(
        [stream_chunk(rng.integers(0, 2, 500), rng.random(500).astype(np.float32))], compact=True
    )
    b = merge_binary_stream(
        [stream_chunk(rng.integers(0, 2, 500), rng.random(500).astype(np.float32))], compact=True
    )
    a2, b2 = pickle.loads(pickle.dumps((a, b)))
    assert a2.table[1].dtype is not np.dtype(np.int32)  # what unpickling gives
    seen = []
    scatter = binary_module._scatter

    def watch(out, keep, from_b, a_w, b_w, **kw):
        seen.append((a_w.dtype, b_w.dtype))
        return scatter(out, keep, from_b, a_w, b_w, **kw)

    monkeypatch.setattr(binary_module, "_scatter", watch)
    merged = a2.merge(b2).state()
    assert seen and all(x is np.dtype(np.int32) and y is np.dtype(np.int32) for x, y in seen)
    want = a.merge(b).state()
    assert np.array_equal(merged.positive, want.positive)
    assert np.array_equal(merged.negative, want.negative)
    assert merged.roc_auc_score() == want.roc_auc_score()
    big_endian = np.arange(3, dtype=">i4")
    assert numpy_dtype(big_endian).tolist() == [0, 1, 2]
    assert numpy_dtype(big_endian).dtype.str == ">i4"


def test_a_compact_table_finalizes_as_held_to_the_widened_values(monkeypatch):
    # the finalize reads float32 scores and int32 counts a chunk at a time: the sums of
    # products of counts pass int32 (a score held by 60,000 of each class: 3.6e9 in AUC's
    # sum) and a threshold between two float32 values must not round to either
    from metrics import _block_chunks

    monkeypatch.setattr(_block_chunks, "CHUNK", 64)  # many chunks, carried sums across them
    rng = np.random.default_rng(21)
    y = (rng.random(3000) < 0.4).astype(np.int8)
    s = (rng.integers(0, 900, 3000).astype(np.float32) / np.float32(899)).astype(np.float64)
    tie = np.float32(0.1)  # not 0.1: the float32 value nearest it
    y = np.concatenate([y, np.repeat(np.array([1, 0], dtype=np.int8), 60_000)])
    s = np.concatenate([s, np.full(120_000, float(tie))])
    parts = (stream_chunk(y[i : i + 20_000], s[i : i + 20_000]) for i in range(0, len(y), 20_000))
    compact = merge_binary_stream(parts, compact=True)
    assert compact.table[0].dtype == np.uint32 and compact.table[1].dtype == np.int32
    between = np.nextafter(float(tie), 1.0)  # above the float32 0.1, below the next one
    options = {
        "threshold": between,
        "operating": {"objective": "recall", "constraint": ("precision", ">=", 0.5)},
    }
    got = compact.finalize(**options)
    assert got == compact.state().finalize(**options)  # the widened table's, every value
    assert compact.table[0].dtype == np.uint32  # the finalize left the table as it was
    assert got["roc_auc_score"] == M.roc_auc_score(y, s)
    assert got["average_precision_score"] == M.average_precision_score(y, s)
    assert got["confusion_matrix"] == M.confusion_matrix(y, s >= between, labels=[0, 1]).tolist()
    assert got["ks_statistic"][1] in set(s.tolist())  # a score, widened exactly


def test_the_confusion_matrix_of_a_compact_table_holds_no_float64_copy_of_its_scores(
    monkeypatch,
):
    # np.searchsorted of a float64 threshold in float32 scores compares them as float64:
    # it copies the whole column first (160 MB at 2 x 10^7 distinct scores)
    import tracemalloc

    from metrics import _block_chunks

    monkeypatch.setattr(_block_chunks, "CHUNK", 1024)
    rng = np.random.default_rng(4)
    s = np.unique(rng.random(1 << 16).astype(np.float32)).astype(np.float64)
    y = (rng.random(s.shape[0]) < 0.5).astype(np.int8)
    state = merge_binary_stream([stream_chunk(y, s)], compact=True)
    held = state.meta.held_state(state.table)
    assert held.scores.dtype == np.float32
    tracemalloc.start()
    try:
        got = held.confusion_matrix(0.5)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert got.tolist() == M.confusion_matrix(y, s >= 0.5, labels=[0, 1]).tolist()
    assert peak < held.scores.nbytes, peak  # a chunk at a time, not 8 bytes a score


def test_the_finalize_reads_the_table_once_for_auc_ap_and_the_thresholds(
    monkeypatch,
):
    # AUC, AP, KS, lift, the accuracy ratio, net benefit and the operating point share one
    # cumulated pass over the table (each pass about 0.2 s at 2 x 10^7 distinct scores), and
    # each reads the values it reads alone
    rng = np.random.default_rng(9)
    y = (rng.random(5000) < 0.3).astype(np.int8)
    s = ((rng.random(5000) + 0.5 * y) / 1.5).astype(np.float32).astype(np.float64)
    state = BinaryState.from_chunk(y, s)
    operating = {"objective": "youden", "n_resamples": 50}
    alone = {
        "ks_statistic": list(state.ks_statistic()),
        "lift_at": state.lift_at(0.2),
        "accuracy_ratio": state.accuracy_ratio(),
        "net_benefit": state.net_benefit(0.3),
        "operating_point": asdict(state.operating_point(**operating)),
        "roc_auc_score": state.roc_auc_score(),
        "average_precision_score": state.average_precision_score(),
    }
    passes = []
    real = BinaryState._chunks
    monkeypatch.setattr(BinaryState, "_chunks", lambda self: passes.append(1) or real(self))
    got = state.finalize(fraction=0.2, threshold_probability=0.3, operating=operating)
    assert passes == [1]
    np.testing.assert_equal({key: got[key] for key in alone}, alone)  # NaN where NaN
    assert got["lift_at"] == M.lift_at(y, s, 0.2) and got["ks_statistic"] == list(
        M.ks_statistic(y, s)
    )
    assert got["roc_auc_score"] == M.roc_auc_score(y, s)
    assert got["average_precision_score"] == M.average_precision_score(y, s)
