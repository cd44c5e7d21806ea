"""Out of core: ``python -m metrics evaluate`` on a large binary Parquet file against pyarrow alone.

``python -m bench.streaming --rows 100000000`` writes a Parquet file of that
many rows (``y`` int8 0/1 and ``p`` float64, row groups of 2**20 rows) in
``--dir`` (default ``/tmp``), chunk by chunk, then runs two child processes,
alternated ``--pairs`` times (default 3), and records the median wall time, CPU
time and peak resident memory (``ru_maxrss``) of each, and every pair's times:

pyarrow alone
    ``ParquetFile.iter_batches`` over the same two columns, each batch
    converted to numpy (the reading floor of the command);
metrics evaluate
    ``python -m metrics evaluate FILE --task binary --y-true y --score p --json
    --objective recall --constraint precision >= 0.9``: the threshold metrics (KS,
    lift, accuracy ratio, ECE/MCE, net benefit) and the operating point too.

``--scores float32`` (the default) draws float32 probabilities (at most
2**24 distinct values, as numpy draws them: a model's float32 output),
``--scores float64`` distinct float64 scores, where the distinct-score table
grows with the data (24 bytes per row). The values are checked against the
in-memory functions with ``--check`` (which loads both columns whole).
The result is written as the "Out of core" section of ``bench/results.md``
(``--out`` another file, ``--no-write`` nowhere).

Beside the exact values the record gives Spark's binned areas on the same rows
(``BinaryClassificationMetrics(numBins=1000)`` emulated by :mod:`bench.spark_bins` from the
distinct-score table): what a binned evaluator loses.

``--memory 100MB`` runs the command once more with that bound on its tables
(spilled to disk as sorted runs past it) and checks its values equal the
unbounded run's; ``--dask-workers 1,2`` runs it with ``--engine dask`` on a
``dask.distributed`` LocalCluster of that many single-threaded worker
processes (started here, before the timed child; its wall time only), then runs the
same evaluation again from this process on the same cluster, ``--pairs`` times (the
record their medians): no start-up or imports on
the client's side, and the workers have imported what the first run did (at 10^8 rows,
0.5 s less than the child with one worker, 1.0 s with two, 2026-12-03), counting the CPU
seconds the workers and this process spent on it (:func:`cluster_cpu`): on one machine
two workers can go no faster than their CPU seconds spread over its cores, which bounds
their speed-up over one worker (the record's last Dask line). Each
child's line carries the load average (1 min) at its start: the machine is
shared, so the ratios of children run side by side mean more than the
absolute times.

Examples
--------
>>> from bench.streaming import parse_args
>>> parse_args(["--rows", "1e6"]).rows, parse_args([]).pairs
(1000000, 3)
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

RESULTS = Path(__file__).resolve().parent / "results.md"
ROOT = Path(__file__).resolve().parents[1]
SECTION = "## Out of core"
ROW_GROUP = 1 << 20

#: The read alone: the columns viewed as numpy as the command views them
#: (:func:`metrics.states.batches.as_numpy`; pyarrow's ``to_numpy`` imported pandas on its
#: first call, 0.19 s and the memory of pandas, which neither needs).
READ_ALONE = """
import sys, pyarrow.parquet as pq
from metrics.states.batches import as_numpy
pf = pq.ParquetFile(sys.argv[1], pre_buffer=False)  # as the command opens it
n = 0
for b in pf.iter_batches(batch_size=int(sys.argv[2]), columns=["y", "p"]):
    y = as_numpy(b.column("y"))
    p = as_numpy(b.column("p"))
    n += y.shape[0]
print(n)
"""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line of ``python -m bench.streaming``."""
    p = argparse.ArgumentParser(
        prog="python -m bench.streaming", description=__doc__.split("\n")[0]
    )
    p.add_argument("--rows", type=lambda s: int(float(s)), default=10**8)
    p.add_argument("--scores", choices=("float32", "float64"), default="float32")
    p.add_argument("--dir", default="/tmp", help="where the Parquet file is written")
    p.add_argument("--batch-size", type=int, default=1 << 20)
    p.add_argument("--keep", action="store_true", help="keep the file (reused when present)")
    p.add_argument("--check", action="store_true", help="compare with the in-memory functions")
    p.add_argument("--memory", help="also run with --memory SIZE (the spilling path)")
    p.add_argument(
        "--pairs",
        type=int,
        default=3,
        help="runs of the read and the command, alternated; the record shows their medians",
    )
    p.add_argument(
        "--dask-workers",
        type=lambda s: [int(k) for k in s.split(",")],
        default=[],
        help="also run with --engine dask on LocalClusters of these sizes (1,2)",
    )
    p.add_argument("--out", type=Path, default=RESULTS)
    p.add_argument("--no-write", action="store_true")
    return p.parse_args(argv)


def write_file(path: Path, n_rows: int, scores: str, seed: int = 0) -> None:
    """``n_rows`` rows of ``y`` (int8) and ``p`` (float64), written one row group at a time."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    schema = pa.schema([("y", pa.int8()), ("p", pa.float64())])
    tmp = path.with_suffix(".partial")
    with pq.ParquetWriter(tmp, schema, compression="snappy") as writer:
        for start in range(0, n_rows, ROW_GROUP):
            n = min(ROW_GROUP, n_rows - start)
            y = (rng.random(n) < 0.3).astype(np.int8)
            if scores == "float32":
                noise = rng.random(n, dtype=np.float32)
                p = ((noise + np.float32(0.6) * y) / np.float32(1.6)).astype(np.float64)
            else:
                p = (rng.random(n) + 0.6 * y) / 1.6
            writer.write_table(pa.table({"y": y, "p": p}, schema=schema))
    tmp.rename(path)


#: Runs its arguments as its only child and prints that child's CPU time (s) and peak
#: RSS (KiB) on stderr.
PEAK = (
    "import resource, subprocess, sys; r = subprocess.run(sys.argv[1:]); "
    "u = resource.getrusage(resource.RUSAGE_CHILDREN); "
    "print(u.ru_utime + u.ru_stime, u.ru_maxrss, file=sys.stderr); "
    "sys.exit(r.returncode)"
)


#: The operating point the command is asked for (recall at precision >= 0.9).
OPERATING = ["--objective", "recall", "--constraint", "precision", ">=", "0.9"]


def _child(cmd: list[str]) -> tuple[float, float, float, str]:
    """Run ``cmd`` (through a fresh wrapper): wall time (s), CPU time (s), peak RSS (MB), stdout."""
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", PEAK, *cmd], cwd=ROOT, capture_output=True, text=True, check=False
    )
    elapsed = time.perf_counter() - t0
    if proc.returncode:
        raise RuntimeError(f"{cmd} failed: {proc.stderr}")
    cpu, peak_kib = proc.stderr.strip().splitlines()[-1].split()
    return elapsed, float(cpu), int(peak_kib) / 1024, proc.stdout


def _timed(cmd: list[str]) -> dict:
    """One child's wall, CPU, peak RSS, stdout and the load average at its start."""
    load = os.getloadavg()[0]
    wall, cpu, mb, out = _child(cmd)
    return {"wall": wall, "cpu": cpu, "mb": mb, "out": out, "load": load}


def _dask_runs(cmd: list[str], sizes: list[int], rounds: int = 1) -> dict:
    """The command with ``--engine dask`` on a LocalCluster of each size: a child's wall time
    and values, then the evaluation from this process on the same cluster ``rounds`` times
    (:func:`_computed`: the medians of its seconds and CPU seconds, and every run's).

    One cluster at a time: with the one-worker cluster up beside the two-worker one, the
    two workers' runs took 4.1-4.5 s and 8.0 CPU s where, alone, they took 3.6-4.3 s and
    6.5-7.6 (2026-12-04). The workers are started as docs/out-of-core.md advises: with the
    sort the command gives itself (:func:`metrics._numpy_sort.fast_sort_environment`: on
    AMD Zen 4, numpy without its slow AVX-512 sort), without ``distributed``'s
    ``MALLOC_TRIM_THRESHOLD_`` (which maps every numpy temporary afresh: one worker took
    30.6 s with it, 16.4 s without, on 10^8 rows) and without numpy's huge pages, as the
    command runs (:mod:`metrics._numpy_pages`).
    """
    import dask
    import dask.distributed  # its defaults loaded before the settings are set

    out = {}
    for k in sizes:
        with dask.config.set(_worker_settings()), _local_cluster(k) as cluster:
            argv = [*cmd, "--engine", "dask", "--scheduler", cluster.scheduler_address]
            r = _timed(argv)
            runs = [_computed(argv[3:], cluster.scheduler_address) for _ in range(rounds)]
        r["values"] = json.loads(r.pop("out"))
        r["computed_runs"] = runs
        r["computed"] = statistics.median(wall for wall, _ in runs)
        r["computed_cpu"] = statistics.median(cpu for _, cpu in runs)
        out[k] = r
    return out


def _worker_settings() -> dict:
    """dask's settings that start the workers as the command runs (see :func:`_dask_runs`)."""
    from metrics import _numpy_pages
    from metrics._numpy_sort import VARIABLE, fast_sort_environment

    environ = {"MALLOC_TRIM_THRESHOLD_": None, _numpy_pages.VARIABLE: "0"}
    fast = fast_sort_environment()
    if fast is not None:
        environ[VARIABLE] = fast[VARIABLE]
    return {f"distributed.nanny.pre-spawn-environ.{k}": v for k, v in environ.items()}


def _local_cluster(n_workers: int):
    """A LocalCluster of single-threaded worker processes on this machine."""
    from dask.distributed import LocalCluster

    return LocalCluster(
        n_workers=n_workers, threads_per_worker=1, processes=True, host="127.0.0.1",
        dashboard_address=None, scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},
    )  # fmt: skip


def _computed(argv: list[str], scheduler: str | None = None) -> tuple[float, float | None]:
    """Seconds of the command's evaluation run here, where Python has started and metrics,
    dask and distributed are imported, on a cluster whose workers ran it once already; and
    the CPU seconds it took, the workers' and this process's (the client's and, on a
    LocalCluster, the scheduler's), given the ``scheduler``'s address."""
    from metrics import cli

    args = cli.parse_args(argv)
    if scheduler is None:
        t0 = time.perf_counter()
        cli.evaluate(args)
        return time.perf_counter() - t0, None
    from dask.distributed import Client

    with Client(scheduler) as client:  # one client: its start-up is not counted
        cpu = cluster_cpu(client)
        t0 = time.perf_counter()
        cli.evaluate(args)
        wall = time.perf_counter() - t0
        return wall, cluster_cpu(client) - cpu


def _process_cpu() -> float:
    times = os.times()
    return times.user + times.system


def cluster_cpu(client) -> float:
    """CPU seconds spent so far by the workers of ``client``'s cluster and by this process:
    on one machine, what an evaluation on it costs the machine's cores."""
    return sum(client.run(_process_cpu).values()) + _process_cpu()


def _alternated(read_cmd: list[str], cmd: list[str], n: int) -> tuple[dict, dict, list]:
    """The read and the command run ``n`` times, alternated: each one's median wall, CPU and
    peak (each the median of its own column; the load at the first run's start), and every
    pair's ``(read wall, read CPU, command wall, command CPU)``. A single run's ratio follows
    the machine's moment as much as the code (reads of 1.8 to 2.5 s within minutes)."""
    if n < 1:
        raise SystemExit(f"--pairs must be at least 1; got {n}.")
    reads, evals = [], []
    for _ in range(n):
        reads.append(_timed(read_cmd))
        evals.append(_timed(cmd))
    outs = {e["out"] for e in evals}
    if len(outs) != 1:
        raise RuntimeError(f"the command printed {len(outs)} different results in {n} runs")
    pairs = [(r["wall"], r["cpu"], e["wall"], e["cpu"]) for r, e in zip(reads, evals, strict=True)]
    return _medians(reads), _medians(evals), pairs


def _medians(runs: list[dict]) -> dict:
    out = {k: statistics.median(r[k] for r in runs) for k in ("wall", "cpu", "mb")}
    return {**out, "load": runs[0]["load"], "out": runs[0]["out"]}


def run(args: argparse.Namespace) -> dict:
    """Write (or reuse) the file, time both children, return the measurements."""
    path = Path(args.dir) / f"metrics_stream_{args.rows}_{args.scores}.parquet"
    free = shutil.disk_usage(args.dir).free
    if not path.exists():
        need = args.rows * 10
        if need > free // 2:
            raise SystemExit(
                f"{args.dir} has {free / 1e9:.1f} GB free; the file needs ~{need / 1e9:.1f}"
            )
        t0 = time.perf_counter()
        write_file(path, args.rows, args.scores)
        print(f"wrote {path} in {time.perf_counter() - t0:.1f} s", file=sys.stderr)
    size = path.stat().st_size
    py = sys.executable
    cmd = [
        py,
        "-m",
        "metrics",
        "evaluate",
        str(path),
        "--task",
        "binary",
        "--y-true",
        "y",
        "--score",
        "p",
        "--json",
        "--no-progress",
        *OPERATING,
        "--batch-size",  # last: the Dask runs drop it
        str(args.batch_size),
    ]
    read, ev, pairs = _alternated([py, "-c", READ_ALONE, str(path), str(args.batch_size)],
                                  cmd, args.pairs)  # fmt: skip
    read_s, read_cpu, read_mb = read["wall"], read["cpu"], read["mb"]
    eval_s, eval_cpu, eval_mb = ev["wall"], ev["cpu"], ev["mb"]
    values = json.loads(ev["out"])
    extra = {"loads": (read["load"], ev["load"]), "pairs": pairs}
    if args.memory:
        spill = _timed([*cmd, "--memory", args.memory])
        spill["same"] = json.loads(spill.pop("out")) == values
        spill["bound"] = args.memory
        extra["spill"] = spill
    if args.dask_workers:
        extra["dask"] = _dask_runs(cmd[:-2], args.dask_workers, args.pairs)  # no --batch-size
    result = {
        "rows": args.rows,
        "scores": args.scores,
        "file_mb": size / 1e6,
        "batch_size": args.batch_size,
        "read_s": read_s,
        "read_cpu": read_cpu,
        "read_mb": read_mb,
        "eval_s": eval_s,
        "eval_cpu": eval_cpu,
        "eval_mb": eval_mb,
        "values": values,
        **extra,
    }
    result.update(_table_facts(path))  # after the timed runs, in this process
    if args.check:
        result["check"] = _check(path, values)
    if not args.keep:
        path.unlink()
    return result


def _table_facts(path: Path) -> dict:
    """The length of the binary state's table (distinct values of ``p``), and Spark's
    binned areas (``BinaryClassificationMetrics(numBins=1000)``, bench/spark_bins.py) from
    that table: what a binned evaluator gives on the same rows."""
    import pyarrow.parquet as pq

    from bench.spark_bins import spark_areas_of_counts
    from metrics.states import BinaryState

    t = pq.read_table(path, columns=["y", "p"])
    state = BinaryState.from_chunk(t.column("y").to_numpy(), t.column("p").to_numpy())
    del t
    roc, pr = spark_areas_of_counts(state.positive[::-1], state.negative[::-1])
    return {"distinct": state.table_size, "spark_roc": roc, "spark_pr": pr}


def _check(path: Path, values: dict) -> str:
    import pyarrow.parquet as pq

    import metrics as M

    t = pq.read_table(path)
    y, p = t.column("y").to_numpy(), t.column("p").to_numpy()
    del t
    op = M.operating_point(y, p, "recall", constraint=("precision", ">=", 0.9))
    got = values["operating_point"]
    exact = {
        "roc_auc_score": M.roc_auc_score(y, p),
        "average_precision_score": M.average_precision_score(y, p),
        "ks_statistic": list(M.ks_statistic(y, p)),
        "lift_at": M.lift_at(y, p, 0.1),
        "accuracy_ratio": M.accuracy_ratio(y, p),
        "net_benefit": M.net_benefit(y, p, 0.5),
    }
    close = {  # sums per bin or per distinct score, in another order
        "log_loss": M.log_loss(y, p),
        "calibration_error": M.calibration_error(y, p),
        "max_calibration_error": M.calibration_error(y, p, norm="max"),
    }
    same = (
        all(values[k] == v for k, v in exact.items())
        and all(abs(values[k] - v) <= 1e-12 * abs(v) for k, v in close.items())
        and (got["threshold"], got["rates"], got["constraint_holds"])
        == (op.threshold, op.rates, op.constraint_holds)
    )
    return "equal to the in-memory functions" if same else "DIFFERENT from the in-memory functions"


def report(r: dict) -> str:
    """The markdown rows of one measurement."""
    v = r["values"]
    op = v["operating_point"]
    ratio = r["eval_s"] / r["read_s"]
    loads = r.get("loads", (float("nan"), float("nan")))
    distinct = ""
    if r.get("distinct") is not None:
        table_mb = 24 * r["distinct"] / 1e6
        distinct = f", {r['distinct']:,} distinct scores (a {table_mb:,.0f} MB table)"
    lines = [
        f"### {r['rows']:,} binary rows, {r['scores']} scores{distinct}",
        "",
        f"File {r['file_mb']:,.0f} MB (y int8, p float64, snappy, row groups of {ROW_GROUP:,}); "
        f"batches of {r['batch_size']:,} rows.",
        "",
        "| run | wall (s) | CPU (s) | peak RSS (MB) | load at start |",
        "| --- | ---: | ---: | ---: | ---: |",
        "| pyarrow alone (iter_batches, the columns viewed as numpy, pre_buffer=False) "
        f"| {r['read_s']:.1f} | {r['read_cpu']:.1f} | {r['read_mb']:,.0f} | {loads[0]:.1f} |",
        f"| python -m metrics evaluate --task binary {' '.join(OPERATING)} "
        f"| {r['eval_s']:.1f} | {r['eval_cpu']:.1f} | {r['eval_mb']:,.0f} | {loads[1]:.1f} |",
        *_extra_rows(r),
        "",
        *_pairs(r),
        *_rates(r),
        *_spark(r),
        f"evaluate / read = {ratio:.2f}x wall, {r['eval_cpu'] / r['read_cpu']:.2f}x CPU. "
        f"roc_auc_score {v['roc_auc_score']!r}, "
        f"average_precision_score {v['average_precision_score']!r}, log_loss {v['log_loss']!r}, "
        f"ks_statistic {v['ks_statistic']!r}, lift_at(0.1) {v['lift_at']!r}, "
        f"accuracy_ratio {v['accuracy_ratio']!r}, ECE {v['calibration_error']!r}, "
        f"MCE {v['max_calibration_error']!r}, net_benefit(0.5) {v['net_benefit']!r}; "
        f"recall at precision >= 0.9: threshold {op['threshold']!r}, recall "
        f"{op['rates']['recall']!r}, precision {op['rates']['precision']!r}, holds in "
        f"{op['constraint_holds']:.0%} of {op['n_resamples']:,} resamples"
        + (f"; {r['check']}." if "check" in r else "."),
        "",
    ]
    return "\n".join(lines)


def _pairs(r: dict) -> list[str]:
    """Each alternated pair's read and command, when there were several."""
    pairs = r.get("pairs", [])
    if len(pairs) < 2:
        return []
    each = "; ".join(
        f"{rw:.2f} / {rc:.2f} and {ew:.2f} / {ec:.2f} ({ew / rw:.2f}x, {ec / rc:.2f}x)"
        for rw, rc, ew, ec in pairs
    )
    return [
        f"The read and the command alternated {len(pairs)} times (wall / CPU s of each, the "
        f"command's over the read's): {each}. The table shows each column's median.",
        "",
    ]


def _spark(r: dict) -> list[str]:
    """Spark's binned areas beside the exact values of the command."""
    if "spark_roc" not in r:
        return []
    v = r["values"]
    auc, ap = v["roc_auc_score"], v["average_precision_score"]
    return [
        "Spark's binned curves on these rows (numBins=1000, bench/spark_bins.py): areaUnderROC "
        f"{r['spark_roc']!r} ({r['spark_roc'] - auc:+.2e} from the exact ROC AUC), areaUnderPR "
        f"{r['spark_pr']!r} ({r['spark_pr'] - ap:+.2e} from the exact average precision).",
        "",
    ]


def _extra_rows(r: dict) -> list[str]:
    """The table's rows of the bounded run and of the Dask runs, when measured."""
    rows = []
    if "spill" in r:
        s = r["spill"]
        rows.append(
            f"| ... --memory {s['bound']} (tables spilled to disk past it) | {s['wall']:.1f} "
            f"| {s['cpu']:.1f} | {s['mb']:,.0f} | {s['load']:.1f} |"
        )
    for k, d in r.get("dask", {}).items():
        rows.append(
            f"| ... --engine dask, LocalCluster of {k} worker{'s' if k > 1 else ''} "
            f"| {d['wall']:.1f} | workers' | workers' | {d['load']:.1f} |"
        )
    return rows


def _cpu_bound(dask: dict) -> list[str]:
    """The CPU the evaluations from this process took, and what it allows two workers on
    this machine's cores: no faster than their CPU seconds spread over every core."""
    cpu = {k: d["computed_cpu"] for k, d in dask.items() if d.get("computed_cpu") is not None}
    if not cpu:
        return []
    cores = os.cpu_count() or 1
    text = ", ".join(
        f"{k} worker(s) {c:.1f} CPU s ({c / dask[k]['computed']:.2f} cores busy)"
        for k, c in cpu.items()
    )
    line = f"Their CPU, the workers' and this process's: {text}."
    if 1 in cpu and 2 in cpu:
        floor = cpu[2] / cores
        line += (
            f" On {cores} cores two workers' {cpu[2]:.1f} CPU s take at least {floor:.1f} s: "
            f"at most {dask[1]['computed'] / floor:.2f}x as fast as one worker."
        )
    return [line]


def _rates(r: dict) -> list[str]:
    """Rows per second against the read, the peak against the table, the other runs' checks."""
    n = r["rows"]
    lines = [
        f"Rows per second (wall): read {n / r['read_s']:,.0f}, evaluate {n / r['eval_s']:,.0f}; "
        f"per CPU second: read {n / r['read_cpu']:,.0f}, evaluate {n / r['eval_cpu']:,.0f}."
    ]
    if r.get("distinct") is not None:
        table = 24 * r["distinct"] / 2**20
        over = r["eval_mb"] - r["read_mb"]
        lines.append(
            f"Peak over the read's: {over:,.0f} MB, {over / table:.2f}x the final table "
            f"({table:,.0f} MiB)."
        )
    if "spill" in r:
        same = "equal" if r["spill"]["same"] else "NOT EQUAL"
        lines.append(
            f"The --memory {r['spill']['bound']} run's values: {same} to the unbounded run's."
        )
    if r.get("dask"):
        lines.extend(_dask_lines(r["dask"], r["values"]))
    return [*lines, ""]


def _dask_lines(dask: dict, values: dict) -> list[str]:
    """The Dask runs: the children's times and values, the runs from this process (their
    medians, and each run's when several), and the CPU bound."""
    walls = {k: d["wall"] for k, d in dask.items()}
    same = all(_close(d["values"], values) for d in dask.values())
    text = ", ".join(f"{k} worker(s) {w:.1f} s" for k, w in walls.items())
    if 1 in walls and 2 in walls:
        text += f" (2 workers {walls[1] / walls[2]:.2f}x as fast as 1)"
    lines = [f"Dask: {text}; values {'equal' if same else 'NOT EQUAL'} (1e-12)."]
    computed = {k: d["computed"] for k, d in dask.items() if "computed" in d}
    if not computed:
        return lines
    text = ", ".join(f"{k} worker(s) {w:.1f} s" for k, w in computed.items())
    if 1 in computed and 2 in computed:
        text += f" ({computed[1] / computed[2]:.2f}x)"
    runs = {k: d.get("computed_runs", []) for k, d in dask.items()}
    several = ""
    if min(len(each) for each in runs.values()) > 1:
        each = "; ".join(
            f"{k} worker(s) " + ", ".join(f"{wall:.2f}" for wall, _ in done)
            for k, done in runs.items()
        )
        n = len(next(iter(runs.values())))
        several = f"; the medians of {n} runs on each ({each} s)"
    lines.append(
        "The same evaluations again from this process, on the same clusters (no "
        f"start-up or imports on either side{several}): {text}."
    )
    return [*lines, *_cpu_bound(dask)]


def _close(a: dict, b: dict) -> bool:
    keys = ("roc_auc_score", "average_precision_score", "log_loss")
    return all(abs(a[k] - b[k]) <= 1e-12 * abs(b[k]) for k in keys)


INTRO = (
    "`python -m bench.streaming --rows N --scores float32|float64 [--memory SIZE] "
    "[--dask-workers 1,2] [--pairs 3]`: `python -m metrics evaluate` on a binary Parquet file "
    "against reading the same columns with pyarrow alone, viewed as numpy as the command views "
    "them (no pandas: pyarrow's `to_numpy` imports it; child processes, the read and the command "
    "alternated `--pairs` times, the table their medians; CPU is user + system time, peak RSS "
    "the child's `ru_maxrss`; the machine is shared, so each child's line has the load average "
    "at its start, and ratios of children run side by side mean more than absolute times). The "
    "binary state holds 24 bytes per distinct score; while streaming, non-negative float32 "
    "scores are held as their bits with int32 counts (12 bytes). A reader thread reads two "
    "batches ahead. A block of 2^14 float32 values that the samples gathered over several "
    "batches fill to a sixteenth is counted by position from then on (dense blocks, both "
    "classes' counts in one int64 a value; each batch's places in them held over about four "
    "batches and counted sorted, a byte a place, on a second thread or, while it is busy, the "
    "stream's own); the samples of other blocks are gathered, "
    "sorted as 32-bit keys (score bits and label) on that thread and merged in a binary "
    "counter whose merges free their inputs. On AMD Zen 4 the command runs numpy "
    "without its AVX-512 sort (several times slower there than its AVX2 one). Memory: the read's "
    "(interpreter, numpy, pyarrow, a row group of 2^20 rows) plus about 1.0-1.4x the "
    "final table; the metrics are computed from the compact table a chunk of 2^16 scores at a "
    "time (no full-length cumulated counts), the threshold metrics, AUC and AP from one pass. "
    "Spark's "
    "binned areas (numBins=1000, `bench/spark_bins.py` on the same rows' table) stand beside "
    "the exact values. `--memory` bounds the tables held: past it they are spilled as "
    "sorted runs and merged from disk by windows. The file is opened with `pre_buffer=False`: "
    "pyarrow's default pre-buffering keeps every column chunk read (about 610 MB more at 10^8 "
    "rows)."
)


def _key(block: str) -> str:
    """A measurement's identity: its heading up to the kind of scores."""
    head = block.splitlines()[0]
    return head.split(" scores")[0]


def write_section(text: str, out: Path) -> None:
    """Put one measurement in the "Out of core" section of ``out``.

    The section keeps one subsection per (rows, scores): a new measurement
    replaces the one of the same size and kind and keeps the others; the
    rest of the file is kept as it is.
    """
    old = out.read_text() if out.exists() else ""
    head, _, rest = old.partition(SECTION)
    tail = ""
    if rest:
        nxt = rest.find("\n## ")
        tail, rest = (rest[nxt + 1 :], rest[:nxt]) if nxt >= 0 else ("", rest)
    blocks = ["### " + b.strip("\n") for b in rest.split("\n### ")[1:]]
    new_block = text.strip("\n")
    blocks = [b for b in blocks if _key(b) != _key(new_block)] + [new_block]
    body = f"{SECTION}\n\n{INTRO}\n\n" + "\n\n".join(blocks) + "\n"
    new = head.rstrip("\n") + "\n\n" + body + (("\n" + tail) if tail else "")
    out.write_text(new.lstrip("\n"))


def stamped(text: str) -> str:
    """``text`` and the line that closes a record: the time, the machine, its load."""
    cpu = f"{platform.processor() or platform.machine()}, {os.cpu_count()} cores"
    stamp = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return text + f"\n({stamp}, {cpu}, load average {os.getloadavg()[0]:.1f})\n"


def main(argv: list[str] | None = None) -> int:
    """Run the out-of-core measurement; print it and write it to ``--out``."""
    args = parse_args(argv)
    r = run(args)
    text = stamped(report(r))
    print(text)
    if not args.no_write:
        write_section(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
