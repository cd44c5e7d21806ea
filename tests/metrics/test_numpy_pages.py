"""numpy's huge pages: off while ``python -m metrics evaluate`` streams, as before after it."""

from __future__ import annotations

import json

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import metrics
from metrics import _numpy_pages, cli

SET = np._core.multiarray._set_madvise_hugepage


@pytest.fixture(params=[True, False], ids=["huge pages on", "huge pages off"])
def numpy_flag(request):
    """numpy's flag set to the parameter for the test, put back after it."""
    before = SET(request.param)
    yield request.param
    SET(before)


def test_small_pages_turns_them_off_inside_and_back_after(numpy_flag):
    assert _numpy_pages.huge_pages() is numpy_flag
    with _numpy_pages.small_pages({}):
        assert _numpy_pages.huge_pages() is False
    assert _numpy_pages.huge_pages() is numpy_flag


def test_back_after_an_error_inside(numpy_flag):
    with pytest.raises(RuntimeError), _numpy_pages.small_pages({}):
        raise RuntimeError("a batch refused")
    assert _numpy_pages.huge_pages() is numpy_flag


@pytest.mark.parametrize("value", ["1", "0", ""])
def test_a_variable_the_user_set_is_left_alone(numpy_flag, value):
    with _numpy_pages.small_pages({_numpy_pages.VARIABLE: value}):
        assert _numpy_pages.huge_pages() is numpy_flag


def test_the_command_streams_on_small_pages_with_the_same_values(
    numpy_flag, tmp_path, monkeypatch, capsys
):
    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 50_000).astype(np.int8)
    p = rng.random(50_000).astype(np.float32).astype(np.float64)
    path = tmp_path / "scores.parquet"
    pq.write_table(pa.table({"y": y, "p": p}), path, row_group_size=10_000)
    seen = []
    chunk = cli.stream_chunk_of_args

    def counted(batch, args):  # each batch as the command reads it, on the reader's side
        seen.append(_numpy_pages.huge_pages())
        return chunk(batch, args)

    monkeypatch.setattr(cli, "stream_chunk_of_args", counted)
    monkeypatch.delenv(_numpy_pages.VARIABLE, raising=False)
    argv = ["evaluate", str(path), "--task", "binary", "--y-true", "y", "--score", "p"]
    assert cli.main([*argv, "--batch-size", "10000", "--json", "--no-progress"]) == 0
    assert seen == [False] * 5
    assert _numpy_pages.huge_pages() is numpy_flag
    got = json.loads(capsys.readouterr().out)
    assert got["roc_auc_score"] == metrics.roc_auc_score(y, p)
    assert got["log_loss"] == pytest.approx(metrics.log_loss(y, p), rel=1e-12)
