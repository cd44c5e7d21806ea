"""glibc's heap kept between the ranking and multilabel streams' batches, as before after."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import metrics
from metrics import _heap, cli


class FakeLibc:
    """What ``mallopt`` and ``malloc_trim`` were called with, in order."""

    def __init__(self) -> None:
        self.calls = []

    def mallopt(self, param, value):
        self.calls.append(("mallopt", param, value))
        return 1

    def malloc_trim(self, pad):
        self.calls.append(("malloc_trim", pad))
        return 1


@pytest.fixture
def libc(monkeypatch):
    fake = FakeLibc()
    monkeypatch.setattr(_heap, "_LIBC", fake)
    return fake


def test_kept_inside_then_glibc_s_defaults_and_the_memory_handed_back(libc):
    with _heap.kept_heap({}):
        assert libc.calls == [
            ("mallopt", _heap.M_MMAP_THRESHOLD, 32 << 20),
            ("mallopt", _heap.M_TRIM_THRESHOLD, 256 << 20),
        ]
    assert libc.calls[2:] == [
        ("mallopt", _heap.M_TRIM_THRESHOLD, 128 << 10),
        ("mallopt", _heap.M_MMAP_THRESHOLD, 128 << 10),
        ("malloc_trim", 0),
    ]


def test_defaults_back_after_an_error_inside(libc):
    with pytest.raises(RuntimeError), _heap.kept_heap({}):
        raise RuntimeError("a batch refused")
    assert libc.calls[-1] == ("malloc_trim", 0) and len(libc.calls) == 5


@pytest.mark.parametrize("variable", _heap.VARIABLES)
def test_thresholds_the_user_set_are_left_alone(libc, variable):
    with _heap.kept_heap({variable: "65536"}):
        pass
    assert libc.calls == []


def test_without_glibc_nothing_is_called(monkeypatch):
    monkeypatch.setattr(_heap, "_LIBC", None)
    with _heap.kept_heap({}):
        _heap.trim_heap()


def graded_file(path, rows: int = 6000, items: int = 20):
    rng = np.random.default_rng(5)
    columns = {f"y{j}": rng.integers(0, 4, rows).astype(np.int8) for j in range(items)}
    columns |= {f"s{j}": rng.random(rows).astype(np.float32) for j in range(items)}
    pq.write_table(pa.table(columns), path, row_group_size=1000)
    return [f"y{j}" for j in range(items)], [f"s{j}" for j in range(items)]


@pytest.mark.parametrize("task", ["ranking", "multilabel", "binary"])
def test_the_command_keeps_the_heap_for_all_but_the_binary_stream(
    task, libc, tmp_path, monkeypatch, capsys
):
    path = tmp_path / "graded.parquet"
    y, s = graded_file(path)
    if task == "binary":
        pq.write_table(pa.table({"y0": (pq.read_table(path)["y0"].to_numpy() > 1).astype(np.int8),
                                 "s0": pq.read_table(path)["s0"]}), path)  # fmt: skip
        y, s = ["y0"], ["s0"]
    elif task == "multilabel":
        table = pq.read_table(path)
        labels = {n: (table[n].to_numpy() > 1).astype(np.int8) for n in y}
        pq.write_table(pa.table({**labels, **{n: table[n] for n in s}}), path)
    for variable in _heap.VARIABLES:
        monkeypatch.delenv(variable, raising=False)
    kept = []
    real = cli.evaluate

    def evaluate(args):  # what the heap's thresholds are while the command streams
        kept.append(list(libc.calls))
        return real(args)

    monkeypatch.setattr(cli, "evaluate", evaluate)
    argv = ["evaluate", str(path), "--task", task, "--y-true", *y, "--score", *s, "--json"]
    assert cli.main([*argv, "--no-progress"]) == 0
    want = [] if task == "binary" else [("mallopt", p, v) for p, v in _heap.KEPT.items()]
    assert kept == [want]
    got = json.loads(capsys.readouterr().out)
    table = pq.read_table(path)
    yt = np.column_stack([table[n].to_numpy() for n in y]).astype(np.float64)
    ys = np.column_stack([table[n].to_numpy() for n in s]).astype(np.float64)
    if task == "binary":
        assert got["roc_auc_score"] == metrics.roc_auc_score(yt[:, 0], ys[:, 0])
    else:  # the same values as in memory, whatever the heap did
        assert got["ndcg_score"] == pytest.approx(metrics.ndcg_score(yt, ys), rel=1e-12)


FAULTS = """
import resource
import numpy as np
from metrics._heap import kept_heap

def faults():
    start = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
    for _ in range(40):  # a batch's temporary of 8 MB, made, touched and freed
        np.ones(1 << 20).sum()
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt - start

with kept_heap({}):
    kept = faults()
print(kept, faults())  # after: glibc's defaults, every block mapped afresh
"""


@pytest.mark.skipif(_heap._LIBC is None, reason="glibc's mallopt only")
def test_glibc_reuses_the_freed_blocks_while_kept():
    # the parameters reach glibc: 40 blocks of 8 MB fault their pages in once while kept,
    # every time with glibc's defaults (2,048 pages of 4 KiB each)
    env = {**os.environ, "NUMPY_MADVISE_HUGEPAGE": "0"}
    for variable in _heap.VARIABLES:
        env.pop(variable, None)
    out = subprocess.run([sys.executable, "-c", FAULTS], capture_output=True, text=True,
                         env=env, check=True).stdout  # fmt: skip
    kept, defaults = map(int, out.split())
    assert defaults > 40 * 2048 * 0.9
    assert kept < defaults / 10


@pytest.mark.skipif(
    _heap._LIBC is None or not sys.platform.startswith("linux"), reason="glibc on Linux"
)
def test_dropped_pages_read_as_zeros_and_no_byte_outside_them_changes():
    # the whole pages inside the range are handed back (zeros when read again); the bytes
    # of the pages it only partly covers keep their values
    import mmap

    page = mmap.PAGESIZE
    data = np.full(8 * page, 7, dtype=np.uint8)
    address = data.ctypes.data
    start, nbytes = 100, 3 * page
    _heap.drop_pages(address + start, nbytes)
    lo = -(-(address + start) // page) * page - address
    hi = (address + start + nbytes) // page * page - address
    assert hi - lo >= 2 * page  # the range holds two whole pages at least
    assert not data[lo:hi].any()
    assert (data[:lo] == 7).all() and (data[hi:] == 7).all()


def test_pages_are_dropped_nowhere_without_glibc(monkeypatch):
    monkeypatch.setattr(_heap, "_LIBC", None)
    data = np.full(4 * 4096, 7, dtype=np.uint8)
    _heap.drop_pages(data.ctypes.data, data.nbytes)
    assert (data == 7).all()
