"""A record batch's columns as numpy (``metrics.states.batches.as_numpy``): the values of
pyarrow's ``to_numpy``, viewed without a copy and without importing pandas."""

from __future__ import annotations

import subprocess
import sys

import numpy as np
import pyarrow as pa
import pytest

from metrics.states.batches import as_numpy

TYPES = [pa.int8(), pa.int16(), pa.int32(), pa.int64(), pa.uint8(), pa.uint16(),
         pa.uint32(), pa.uint64(), pa.float16(), pa.float32(), pa.float64()]  # fmt: skip


@pytest.mark.parametrize("kind", TYPES, ids=str)
def test_numbers_are_viewed_with_to_numpy_s_values(kind):
    values = np.arange(-3, 17) if pa.types.is_signed_integer(kind) else np.arange(20)
    array = pa.array(values.astype(kind.to_pandas_dtype()), type=kind)
    for part in (array, array.slice(5), array.slice(3, 7), array.slice(20)):
        got, want = as_numpy(part), part.to_numpy(zero_copy_only=False)
        assert got.dtype == want.dtype and got.tolist() == want.tolist()
        assert not got.flags.writeable
        if len(part):  # a view of pyarrow's own buffer, not a copy
            assert np.shares_memory(got, np.frombuffer(array.buffers()[1], dtype=got.dtype))


def test_booleans_chunked_columns_and_the_rest_give_to_numpy_s_values():
    flags = pa.array([True, False, True, True, False, False, True, False, True])
    assert as_numpy(flags.slice(1)).tolist() == flags.slice(1).to_pylist()
    assert as_numpy(flags).dtype == np.bool_
    chunked = pa.chunked_array([[1.5, 2.5], [], [3.5]])
    assert as_numpy(chunked).tolist() == [1.5, 2.5, 3.5]
    assert as_numpy(pa.chunked_array([[4, 5]])).tolist() == [4, 5]
    with_null = pa.array([1.0, None, 3.0])  # not viewed: to_numpy's copy, NaN for the null
    assert np.isnan(as_numpy(with_null)[1]) and as_numpy(with_null)[2] == 3.0
    assert as_numpy(pa.array(["a", "b"])).tolist() == ["a", "b"]


def test_the_command_reads_its_columns_without_pandas(tmp_path):
    import pyarrow.parquet as pq

    rng = np.random.default_rng(0)
    path = tmp_path / "scores.parquet"
    table = pa.table({"y": rng.integers(0, 2, 5000).astype(np.int8), "p": rng.random(5000)})
    pq.write_table(table, path, row_group_size=1000)
    code = (
        "import sys; from metrics import cli; "
        f"code = cli.main(['evaluate', {str(path)!r}, '--task', 'binary', '--y-true', 'y', "
        "'--score', 'p', '--json', '--no-progress']); "
        "print('pandas' in sys.modules); sys.exit(code)"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "False"
