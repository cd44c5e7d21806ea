"""Out of core, the other tasks: ``python -m metrics evaluate`` on regression, ranking and
multilabel Parquet files against pyarrow's read of the same columns.

``python -m bench.streaming_tasks`` writes three files in ``--dir`` (default
``/tmp``): regression (``y``, ``yhat`` float64, ``--regression-rows`` rows,
default 10^8), graded ranking (grades 0-3 as ``--labels`` int8 columns
``y0``.. and float32 scores ``s0``.., ``--ranking-rows`` rows, default
5 x 10^6, ``--k 5``) and multilabel (0/1 labels, about a fifth true, the
same shape, every ranking metric and the multilabel ones at threshold 0.5).
For each it runs two child processes, as :mod:`bench.streaming` does: the
columns read by pyarrow alone (``iter_batches``, each column viewed as numpy as the command
views it, in the command's batches: :func:`metrics.batch_rows`) and the command, and
records wall time, CPU time and peak RSS. ``--check`` compares the
command's values with the in-memory functions on the whole columns (1e-12
relative). The result is written as the section
"Out of core: the other tasks" of ``bench/results.md`` (``--out`` another
file, ``--no-write`` nowhere).

Examples
--------
>>> from bench.streaming_tasks import parse_args
>>> parse_args(["--ranking-rows", "1e5"]).ranking_rows
100000
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

from bench.browser import replace_section
from bench.streaming import RESULTS, _timed, stamped

SECTION = "## Out of core: the other tasks"
#: The read alone, each column viewed as the command views it (bench.streaming.READ_ALONE).
READ = """
import sys, pyarrow.parquet as pq
from metrics.states.batches import as_numpy
pf = pq.ParquetFile(sys.argv[1], pre_buffer=False)  # as the command opens it
n = 0
for b in pf.iter_batches(batch_size=int(sys.argv[3]), columns=sys.argv[2].split(",")):
    for c in b.columns:
        as_numpy(c)
    n += b.num_rows
print(n)
"""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line of ``python -m bench.streaming_tasks``."""
    p = argparse.ArgumentParser(
        prog="python -m bench.streaming_tasks", description=__doc__.split("\n")[0]
    )
    rows = lambda s: int(float(s))  # noqa: E731
    p.add_argument("--regression-rows", type=rows, default=10**8)
    p.add_argument("--ranking-rows", type=rows, default=5 * 10**6)
    p.add_argument("--labels", type=int, default=20)
    p.add_argument("--k", type=int, default=5)
    p.add_argument("--dir", default="/tmp")
    p.add_argument("--check", action="store_true", help="compare with the in-memory functions")
    p.add_argument("--keep", action="store_true", help="keep the files")
    p.add_argument("--out", type=Path, default=RESULTS)
    p.add_argument("--no-write", action="store_true")
    return p.parse_args(argv)


def write_file(path: Path, task: str, n_rows: int, labels: int, seed: int = 0) -> None:
    """The task's Parquet file, written a row group at a time (about 2^20 values a column)."""
    import pyarrow as pa
    import pyarrow.parquet as pq

    rng = np.random.default_rng(seed)
    group = 1 << 20 if task == "regression" else max(1, (1 << 20) // labels)
    writer = None
    for start in range(0, n_rows, group):
        n = min(group, n_rows - start)
        if task == "regression":
            y = rng.normal(size=n)
            table = pa.table({"y": y, "yhat": y + rng.normal(scale=0.5, size=n)})
        else:
            if task == "ranking":
                grades = rng.integers(0, 4, (n, labels), dtype=np.int8)
            else:
                grades = (rng.random((n, labels)) < 0.2).astype(np.int8)
            scores = (grades + rng.normal(size=(n, labels))).astype(np.float32)
            table = pa.table(
                {f"y{j}": grades[:, j] for j in range(labels)}
                | {f"s{j}": scores[:, j] for j in range(labels)}
            )
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table, row_group_size=group)
    writer.close()


def command(task: str, path: Path, labels: int, k: int) -> tuple[list[str], list[str]]:
    """The evaluate command's arguments and the columns it reads."""
    if task == "regression":
        y, s, extra = ["y"], ["yhat"], []
    else:
        y = [f"y{j}" for j in range(labels)]
        s = [f"s{j}" for j in range(labels)]
        extra = ["--k", str(k), "--max-grade", "3"] if task == "ranking" else []
    argv = [sys.executable, "-m", "metrics", "evaluate", str(path), "--task", task]
    return [*argv, "--y-true", *y, "--score", *s, *extra, "--json", "--no-progress"], y + s


def measure(task: str, rows: int, args: argparse.Namespace) -> dict:
    """Write the file if needed, time the read and the command, check if asked."""
    import pyarrow.parquet as pq

    from metrics import batch_rows

    path = Path(args.dir) / f"metrics_{task}_{rows}_{args.labels}.parquet"
    if not path.exists():
        write_file(path, task, rows, args.labels)
    cmd, columns = command(task, path, args.labels, args.k)
    batch = batch_rows(pq.ParquetFile(path).metadata, columns, task)  # the command's batches
    read = _timed([sys.executable, "-c", READ, str(path), ",".join(columns), str(batch)])
    ev = _timed(cmd)
    values = json.loads(ev.pop("out"))
    read.pop("out")
    r = {"task": task, "rows": rows, "file_mb": path.stat().st_size / 1e6, "read": read}
    r["batch"] = batch
    r |= {"eval": ev, "values": values}
    if args.check:
        r["check"] = check(path, task, columns, values, args.k)
    if not args.keep:
        path.unlink()
    return r


def check(path: Path, task: str, columns: list[str], values: dict, k: int) -> str:
    """The command's values against the in-memory functions on the whole columns."""
    import pyarrow.parquet as pq

    import metrics as M

    t = pq.read_table(path, columns=columns)
    if task == "regression":
        y, s = (t.column(c).to_numpy() for c in columns)
        want = {name: getattr(M, name)(y, s) for name in values}
    else:
        half = len(columns) // 2
        y = np.column_stack([t.column(c).to_numpy() for c in columns[:half]])
        s = np.column_stack([t.column(c).to_numpy() for c in columns[half:]]).astype(float)
        want = _ranking_values(M, y, s, task, k, values)
    bad = different(values, want)
    return "equal to the in-memory functions" if not bad else f"DIFFERENT: {bad}"


def different(got: dict, want: dict) -> list[str]:
    """The values of ``got`` more than 1e-12 (relative) from ``want``'s, by name."""
    got, want = _flat(got), _flat(want)
    return [n for n, v in want.items() if not np.allclose(got[n], v, rtol=1e-12, atol=0)]


def _ranking_values(M, y, s, task: str, k: int, values: dict) -> dict:
    """Each name of ``values`` computed in memory (the averaged ones for each average)."""
    topk = {"k": k} if task == "ranking" else {}
    predicted = (s >= 0.5).astype(int)
    out = {}
    for name, value in values.items():  # a dozen metric names, each on the whole matrices
        fn = getattr(M, name)
        if isinstance(value, dict):  # precision, recall, F1, Jaccard: one value per average
            out[name] = {a: fn(y, predicted, average=a, zero_division=0) for a in value}
        elif name in ("hamming_loss", "accuracy_score"):
            out[name] = fn(y, predicted)
        else:
            out[name] = fn(y, s, **topk)
    return out


def _flat(values: dict) -> dict:
    """``{"f1_score": {"micro": x}}`` as ``{"f1_score micro": x}``; numbers as they are."""
    out = {}
    for name, v in values.items():
        inner = v if isinstance(v, dict) else {"": v}
        out |= {f"{name} {a}".strip(): x for a, x in inner.items()}
    return out


def report(results: list[dict]) -> str:
    """The markdown table of the three measurements."""
    lines = [
        SECTION,
        "",
        "`python -m bench.streaming_tasks` (see its docstring): each task's command against "
        "pyarrow's read of the same columns, child processes, CPU = user + system, peak RSS "
        "the child's.",
        "",
        "| task | rows | file MB | batch rows | read wall / CPU s | evaluate wall / CPU s | "
        "CPU ratio | wall ratio | read / evaluate peak MB | values |",
        "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ]
    for r in results:
        rd, ev = r["read"], r["eval"]
        lines.append(
            f"| {r['task']} | {r['rows']:,} | {r['file_mb']:,.0f} | {r['batch']:,} | "
            f"{rd['wall']:.1f} / {rd['cpu']:.1f} | {ev['wall']:.1f} / {ev['cpu']:.1f} | "
            f"{ev['cpu'] / rd['cpu']:.1f}x | {ev['wall'] / rd['wall']:.1f}x | "
            f"{rd['mb']:,.0f} / {ev['mb']:,.0f} | {r.get('check', 'not checked')} |"
        )
    return "\n".join(lines) + "\n"


def write_section(text: str, out: Path) -> None:
    """Replace this section of ``out`` (or add it at the end), keeping the rest."""
    old = out.read_text() if out.exists() else ""
    out.write_text(replace_section(old, text.strip("\n") + "\n\n", heading=SECTION))


def main(argv: list[str] | None = None) -> int:
    """Measure the three tasks; print the table and write it to ``--out``."""
    args = parse_args(argv)
    sizes = {"regression": args.regression_rows, "ranking": args.ranking_rows}
    sizes["multilabel"] = args.ranking_rows
    results = [measure(task, rows, args) for task, rows in sizes.items()]
    text = stamped(report(results))
    print(text)
    if not args.no_write:
        write_section(text, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
