"""The states on a Dask cluster (``metrics.distributed``, ``--engine dask``).

A ``dask.distributed`` LocalCluster of two worker processes on 127.0.0.1
(TCP; every state crosses a process boundary pickled), a
Parquet folder of three files of several row groups each, and every task's
metrics equal to the in-memory functions on the whole columns (1e-12;
unweighted ROC AUC and AP bit for bit) and to the local streaming engine
on the same rows. Without Dask the module skips; with ``CI=true`` a
missing Dask fails.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import metrics as M
from metrics.cli import evaluate, parse_args

if os.environ.get("CI") == "true":
    import dask.distributed  # noqa: F401  (in CI the optional extra is required)
else:
    pytest.importorskip("dask.distributed", reason="the optional Dask extra is not installed")

from metrics.distributed import evaluate_dask, state_dask

ROOT = Path(__file__).resolve().parents[2]
N, M_LABELS, FILES = 6000, 4, 3


@pytest.fixture(scope="module")
def cluster():
    from dask.distributed import LocalCluster

    with LocalCluster(
        n_workers=2,
        threads_per_worker=1,
        processes=True,  # worker processes: states cross process boundaries pickled
        host="127.0.0.1",
        dashboard_address=None,
        # the scheduler's HTTP server (health routes) binds 8787 even without a dashboard:
        # any free port, so parallel test workers' clusters do not clash
        scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    ) as c:
        yield c.scheduler_address


@pytest.fixture(scope="module")
def data(tmp_path_factory):
    """The columns, a folder of 3 files (row groups of 700) and the same rows in one file."""
    rng = np.random.default_rng(22)
    y = rng.integers(0, 2, N).astype(np.int8)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(N), 0, 1), 3)  # ties
    w = rng.random(N) * (rng.random(N) > 0.1)
    rel = rng.integers(0, 4, (N, M_LABELS))
    yl = (rng.random((N, M_LABELS)) < 0.3).astype(np.int8)
    s = np.round(rng.random((N, M_LABELS)), 2)
    yr = rng.random(N) * 10 + 1
    yhat = np.abs(yr + rng.normal(0, 1, N))  # >= 0: RMSLE is defined
    cols = {"y": y, "p": p, "w": w, "rel": rel, "yl": yl, "s": s, "yr": yr, "yhat": yhat}

    def table(lo, hi):
        out = {}
        for name, v in cols.items():
            if v.ndim == 2:
                out[name] = pa.FixedSizeListArray.from_arrays(pa.array(v[lo:hi].ravel()), M_LABELS)
            else:
                out[name] = v[lo:hi]
        return pa.table(out)

    root = tmp_path_factory.mktemp("dask")
    folder = root / "folder"
    folder.mkdir()
    bounds = np.linspace(0, N, FILES + 1).astype(int)
    for i in range(FILES):
        pq.write_table(table(bounds[i], bounds[i + 1]), folder / f"part{i}.parquet",
                       row_group_size=700)  # fmt: skip
    single = root / "all.parquet"
    pq.write_table(table(0, N), single, row_group_size=700)
    return cols, folder, single


def local(single: Path, *argv: str) -> dict:
    """The local streaming engine on the same rows in one file."""
    return evaluate(parse_args(["evaluate", str(single), *argv, "--no-progress"]))


def assert_close(got: dict, want: dict) -> None:
    assert list(got) == list(want)
    for name, value in want.items():
        if isinstance(value, dict):
            assert_close(got[name], value)
        else:
            np.testing.assert_allclose(got[name], value, rtol=1e-12, atol=0, err_msg=name)


def test_binary_on_the_cluster_equals_in_memory(cluster, data):
    cols, folder, single = data
    y, p = cols["y"], cols["p"]
    got = evaluate_dask(str(folder), "binary", y_true="y", score="p", scheduler=cluster,
                        split_row_groups=True)  # fmt: skip
    assert list(got)[:4] == ["roc_auc_score", "average_precision_score", "log_loss",
                             "confusion_matrix"]  # fmt: skip
    assert got["ks_statistic"] == list(M.ks_statistic(y, p))
    assert got["roc_auc_score"] == M.roc_auc_score(y, p)  # integer counts: bit for bit
    # AP's products summed in chunks, never by BLAS (whose order follows its thread count,
    # one in a worker process): bit for bit too
    assert got["average_precision_score"] == M.average_precision_score(y, p)
    np.testing.assert_allclose(got["log_loss"], M.log_loss(y, p), rtol=1e-12)
    cm = M.confusion_matrix(y, (p >= 0.5).astype(int), labels=[0, 1])
    assert got["confusion_matrix"] == cm.tolist()
    assert_close(got, local(single, "--task", "binary", "--y-true", "y", "--score", "p"))


def test_binary_weighted_and_threshold(cluster, data):
    cols, folder, _ = data
    y, p, w = cols["y"], cols["p"], cols["w"]
    got = evaluate_dask(str(folder), "binary", y_true="y", score="p", weight="w",
                        threshold=0.8, scheduler=cluster)  # fmt: skip
    assert_close(
        got,
        {
            "roc_auc_score": M.roc_auc_score(y, p, sample_weight=w),
            "average_precision_score": M.average_precision_score(y, p, sample_weight=w),
            "log_loss": M.log_loss(y, p, sample_weight=w),
            "confusion_matrix": M.confusion_matrix(
                y, (p >= 0.8).astype(int), labels=[0, 1], sample_weight=w
            ),
            "ks_statistic": list(M.ks_statistic(y, p, sample_weight=w)),
            "lift_at": M.lift_at(y, p, 0.1, sample_weight=w),
            "accuracy_ratio": M.accuracy_ratio(y, p, sample_weight=w),
            "calibration_error": M.calibration_error(y, p, sample_weight=w),
            "max_calibration_error": M.calibration_error(y, p, sample_weight=w, norm="max"),
            "net_benefit": M.net_benefit(y, p, 0.5, sample_weight=w),
        },
    )


def test_binary_state_brought_back_gives_the_curves(cluster, data):
    cols, folder, _ = data
    state = state_dask(str(folder), "binary", y_true="y", score="p", scheduler=cluster,
                       split_row_groups=True)  # fmt: skip
    for got, want in zip(state.roc_curve(), M.roc_curve(cols["y"], cols["p"]), strict=True):
        np.testing.assert_array_equal(got, want)
    assert state.table_size == len(np.unique(cols["p"]))


def test_ranking_graded_lists_with_k(cluster, data):
    cols, folder, single = data
    yt, ys = cols["rel"], cols["s"]
    got = evaluate_dask(str(folder), "ranking", y_true="rel", score="s", k=3, scheduler=cluster,
                        split_row_groups=True)  # fmt: skip
    want = {
        "dcg_score": M.dcg_score(yt, ys, k=3),
        "ndcg_score": M.ndcg_score(yt, ys, k=3),
        "precision_at_k": M.precision_at_k(yt, ys, k=3),
        "recall_at_k": M.recall_at_k(yt, ys, k=3),
        "hit_rate_at_k": M.hit_rate_at_k(yt, ys, k=3),
        "mean_average_precision_at_k": M.mean_average_precision_at_k(yt, ys, k=3),
        "mean_reciprocal_rank": M.mean_reciprocal_rank(yt, ys, k=3),
        # the top grade of the whole dataset, found by a first pass on the cluster
        "expected_reciprocal_rank": M.expected_reciprocal_rank(yt, ys, k=3),
    }
    assert set(got) == set(want)
    for name, value in want.items():
        np.testing.assert_allclose(got[name], value, rtol=1e-12, err_msg=name)
    assert_close(got, local(single, "--task", "ranking", "--y-true", "rel", "--score", "s",
                            "--k", "3"))  # fmt: skip


def test_multilabel_weighted_equals_in_memory_and_local(cluster, data):
    cols, folder, single = data
    yt, ys, w = cols["yl"], cols["s"], cols["w"]
    got = evaluate_dask(str(folder), "multilabel", y_true="yl", score="s", weight="w",
                        threshold=0.6, scheduler=cluster)  # fmt: skip
    pred = (ys >= 0.6).astype(int)
    np.testing.assert_allclose(
        got["label_ranking_average_precision_score"],
        M.label_ranking_average_precision_score(yt, ys, sample_weight=w),
        rtol=1e-12,
    )
    np.testing.assert_allclose(got["coverage_error"], M.coverage_error(yt, ys, sample_weight=w),
                               rtol=1e-12)  # fmt: skip
    np.testing.assert_allclose(got["hamming_loss"], M.hamming_loss(yt, pred, sample_weight=w),
                               rtol=1e-12)  # fmt: skip
    for average in ("micro", "macro", "samples"):
        np.testing.assert_allclose(
            got["f1_score"][average],
            M.f1_score(yt, pred, average=average, sample_weight=w, zero_division=0),
            rtol=1e-12,
            err_msg=average,
        )
    assert_close(got, local(single, "--task", "multilabel", "--y-true", "yl", "--score", "s",
                            "--weight", "w", "--threshold", "0.6"))  # fmt: skip


def test_regression_weighted(cluster, data):
    cols, folder, _ = data
    yr, yhat, w = cols["yr"], cols["yhat"], cols["w"]
    got = evaluate_dask(str(folder), "regression", y_true="yr", score="yhat", weight="w",
                        scheduler=cluster)  # fmt: skip
    want = {
        name: getattr(M, name)(yr, yhat, sample_weight=w)
        for name in (
            "mean_absolute_error", "mean_squared_error", "root_mean_squared_error",
            "mean_absolute_percentage_error", "root_mean_squared_log_error", "r2_score",
        )
    }  # fmt: skip
    assert_close(got, want)


def test_without_a_scheduler_dask_threads_give_the_same(data):
    cols, folder, _ = data
    got = evaluate_dask(str(folder / "*.parquet"), "binary", y_true="y", score="p")
    assert got["roc_auc_score"] == M.roc_auc_score(cols["y"], cols["p"])


def test_a_block_streams_on_its_task_s_thread_alone(data, monkeypatch):
    # a Dask task owns one of its worker's threads: its block's stream starts no other
    from metrics.states import binary_stream

    cols, folder, _ = data
    calls, real = [], binary_stream.merge_binary_stream

    def merge(states, **options):
        calls.append(options.get("threads", 2))
        return real(states, **options)

    monkeypatch.setattr(binary_stream, "merge_binary_stream", merge)
    got = evaluate_dask(str(folder), "binary", y_true="y", score="p")  # a folder: blocks
    assert calls and set(calls) == {1}
    assert got["roc_auc_score"] == M.roc_auc_score(cols["y"], cols["p"])


def test_cli_engine_dask_with_a_scheduler(cluster, data):
    cols, folder, single = data
    argv = ["--task", "binary", "--y-true", "y", "--score", "p", "--weight", "w",
            "--lift-fraction", "0.3", "--threshold-probability", "0.2", "--json"]  # fmt: skip
    proc = subprocess.run(
        [sys.executable, "-m", "metrics", "evaluate", str(folder), *argv,
         "--engine", "dask", "--scheduler", cluster],
        cwd=ROOT, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    got = json.loads(proc.stdout)
    assert_close(got, local(single, *argv[:-1]))
    y, p, w = cols["y"], cols["p"], cols["w"]
    np.testing.assert_allclose(got["lift_at"], M.lift_at(y, p, 0.3, sample_weight=w), rtol=1e-12)
    np.testing.assert_allclose(got["net_benefit"], M.net_benefit(y, p, 0.2, sample_weight=w))
    np.testing.assert_allclose(
        got["roc_auc_score"], M.roc_auc_score(cols["y"], cols["p"], sample_weight=cols["w"]),
        rtol=1e-12,
    )  # fmt: skip


def test_refusals_are_messages(cluster, data, capsys):
    _, folder, _ = data
    from metrics.cli import main

    assert main(["evaluate", str(folder), "--task", "binary", "--y-true", "nope", "--score",
                 "p", "--engine", "dask", "--scheduler", cluster]) == 2  # fmt: skip
    assert "has no column 'nope'" in capsys.readouterr().err
    assert main(["evaluate", str(folder), "--task", "binary", "--y-true", "y", "--score", "p",
                 "--scheduler", cluster]) == 2  # fmt: skip
    assert "--scheduler needs --engine dask" in capsys.readouterr().err
    # a refusal raised on a worker comes back as the same message
    assert main(["evaluate", str(folder), "--task", "binary", "--y-true", "rel", "--score",
                 "p", "--engine", "dask", "--scheduler", cluster]) == 2  # fmt: skip
    assert "holds lists; this task takes scalars" in capsys.readouterr().err


def _spend_cpu(seconds: float) -> float:
    """Work on this process's CPU until it has spent ``seconds`` more (a state, not a
    time: however busy the machine)."""
    import time

    end = time.process_time() + seconds
    while time.process_time() < end:
        np.sort(np.random.default_rng(0).random(10_000))
    return time.process_time()


def test_the_bench_counts_the_cpu_of_every_worker(cluster):
    # bench/streaming.py's bound on two workers' speed-up divides their CPU by the cores:
    # each worker's CPU must be in it
    from dask.distributed import Client

    from bench.streaming import cluster_cpu

    with Client(cluster) as client:
        before = cluster_cpu(client)
        workers = list(client.scheduler_info()["workers"])
        for worker in workers:  # 0.5 CPU s on each, one after the other
            client.submit(_spend_cpu, 0.5, workers=[worker], pure=False).result()
        assert len(workers) == 2 and cluster_cpu(client) - before >= 1.0
