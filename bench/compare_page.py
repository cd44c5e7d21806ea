"""The Compare page at 10^6 rows: its first numbers, then its intervals.

``python -m bench.compare_page`` writes a seeded two-model binary Parquet file of
``n`` rows (default 10^6: ``y`` ~ Bernoulli(0.3), scores the logistic of ``y`` plus
normal noise, model b the better), reads it as the Data page does
(:func:`explorer.io.read_upload`) and times the page model's two steps:

* :func:`explorer.pages.compare.first_numbers` (what the page draws at once: each
  headline metric of A and B, the differences, DeLong's test, the paired t-test,
  the per-sample placements and the scatter's dots);
* :func:`explorer.pages.compare.compare` with the bootstraps (the intervals: the
  average precision's paired bootstrap and the log loss's), under the local limit
  of one computation, with a checkpoint counting the blocks the progress bar moves
  at.

Wall and CPU seconds, with the machine's load average before and after (two cores
shared with other jobs: wall times move with the load, CPU times less).
``--write`` puts the section in ``bench/results.md`` under its heading.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from bench.load import RESULTS, write_text_section

HEADING = "## Compare two models at 10^6 rows (bench/compare_page.py)"

#: The notes under the table: what the page did before, and how it shows the wait.
NOTES = (
    "Before (branch s10), the page drew nothing below the model pickers until the whole "
    "comparison returned; its part without bootstraps took 2.3 CPU s at 10^6 rows (7.9-8.5 s "
    "wall at load 7.7), 1.1 CPU s now (DeLong's placements search sorted queries, "
    "`metrics.compare._placements`). The page now draws these first numbers at once, then "
    "runs the bootstraps in a status box whose progress bar moves at the checkpoints between "
    "blocks of resamples, and redraws the headline with the intervals. The intervals stay "
    "far from 10 s: the paired bootstrap of average precision and the bootstrap of the log "
    "loss's mean draw 2,000 x 10^6 rows each. A hosted server (8 s a computation) refuses "
    "them at this size and says so under the first numbers."
)


def make_parquet(n: int, path: Path, seed: int = 0) -> Path:
    """A seeded two-model binary table ``y_true, score_a, score_b`` as Parquet.

    Examples
    --------
    >>> import tempfile, pandas as pd
    >>> p = make_parquet(100, Path(tempfile.mkdtemp()) / "t.parquet")
    >>> list(pd.read_parquet(p).columns)
    ['y_true', 'score_a', 'score_b']
    """
    import pandas as pd

    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int8)
    a = 1 / (1 + np.exp(-(y + rng.normal(size=n))))
    b = 1 / (1 + np.exp(-(1.2 * y + rng.normal(size=n))))
    pd.DataFrame({"y_true": y, "score_a": a, "score_b": b}).to_parquet(path)
    return path


def _timed(fn):
    t0, c0 = time.perf_counter(), time.process_time()
    out = fn()
    return out, time.perf_counter() - t0, time.process_time() - c0


def run(n: int = 1_000_000) -> str:
    """Measure and return the section (Markdown)."""
    from explorer import io
    from explorer.pages import compare

    with tempfile.TemporaryDirectory() as tmp:
        path = make_parquet(n, Path(tmp) / "two_models.parquet")
        data = path.read_bytes()
    load_before = os.getloadavg()[0]
    ds, read_wall, read_cpu = _timed(lambda: io.read_upload("two_models.parquet", data))
    first, first_wall, first_cpu = _timed(lambda: compare.first_numbers(ds, "a", "b"))
    blocks = [0]

    def checkpoint() -> None:
        blocks[0] += 1

    full, full_wall, full_cpu = _timed(
        lambda: compare.compare(ds, "a", "b", checkpoint=checkpoint, limit=1e9)
    )
    load_after = os.getloadavg()[0]
    rows = [
        ("read the Parquet file (`read_upload`)", read_wall, read_cpu, f"{len(data):,} bytes"),
        ("first numbers (`first_numbers`)", first_wall, first_cpu, _values(first)),
        (
            "with the intervals (`compare`)",
            full_wall,
            full_cpu,
            f"{blocks[0]} checkpoints; estimated {compare.bootstrap_seconds('binary', n):.0f} s; "
            + _intervals(full),
        ),
    ]
    lines = [
        HEADING,
        "",
        f"`python -m bench.compare_page --n {n}`: {n:,} rows, two models, "
        f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, {os.cpu_count()} cores, load "
        f"average {load_before:.1f} before and {load_after:.1f} after.",
        "",
        "| step | wall (s) | CPU (s) | what |",
        "| --- | ---: | ---: | --- |",
        *(f"| {what} | {w:.2f} | {c:.2f} | {note} |" for what, w, c, note in rows),
        "",
        NOTES,
        "",
    ]
    return "\n".join(lines)


def _values(c) -> str:
    return "; ".join(f"{r.label} {r.a:.4f} / {r.b:.4f}" for r in c.rows)


def _intervals(c) -> str:
    return "; ".join(f"{r.label} B - A in [{r.low:.4f}, {r.high:.4f}]" for r in c.rows)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.compare_page``: measure, print the section, optionally write it."""
    p = argparse.ArgumentParser(prog="python -m bench.compare_page")
    p.add_argument("--n", type=int, default=1_000_000, help="rows (default 10^6)")
    p.add_argument("--write", action="store_true", help="update bench/results.md")
    args = p.parse_args(argv)
    section = run(args.n)
    print(section)
    if args.write:
        write_text_section(section, HEADING, RESULTS)
    return 0


if __name__ == "__main__":
    sys.exit(main())
