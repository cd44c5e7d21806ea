"""Slice timings: ``metrics.metric_frame`` against a pandas groupby + scikit-learn loop.

``python -m bench.slices`` times, on ``n`` seeded binary rows (default 10^6;
scores ``y + N(0, 1)``) in ``groups`` groups of equal expected size (default
50), a metric frame with ``resamples`` bootstrap resamples per group
(default 1,000) for ROC AUC (bootstrap per group, DeLong test), on the scores
and on them rounded to six decimals (tied in every group, as a file keeps
them), and for the true positive rate and the accuracy at 0.5 (the additive
path: draw counts times per-row statistics):

* ours: ``metrics.metric_frame(metric, y, s, groups, n_resamples=...)``;
* the loop: ``pandas.DataFrame.groupby`` over the groups and, per group,
  ``sklearn.metrics.roc_auc_score`` (``recall_score`` of ``s >= 0.5``) on
  each of ``--loop-resamples`` resamples (``Generator.integers`` indices),
  extrapolated linearly to ``resamples`` (its cost is the same per resample).

Fairlearn's ``MetricFrame`` is timed too where it is installed (values only:
it has no intervals); ``--fairlearn`` times it alone against ours with values
only, from a scratch venv that has it (:func:`fairlearn_lines`). ``--write``
puts the section in ``bench/results.md`` between ``<!-- slices:start -->`` and
``<!-- slices:end -->``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import numpy as np

import metrics as M
import metrics._ranks
from bench.compare import write_section

RESULTS = Path(__file__).resolve().parent / "results.md"
START, END = "<!-- slices:start -->", "<!-- slices:end -->"


def make_data(n: int, groups: int, seed: int = 0):
    """Seeded labels, scores and group codes.

    Examples
    --------
    >>> y, s, g = make_data(100, 5)
    >>> y.shape, s.shape, int(g.max()) < 5
    ((100,), (100,), True)
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    s = y + rng.normal(size=n)
    g = rng.integers(0, groups, n)
    return y, s, g


def _loop(metric, y, s, g, resamples: int) -> float:
    """CPU seconds of the pandas groupby + scikit-learn loop, ``resamples`` resamples a group."""
    import pandas as pd

    frame = pd.DataFrame({"y": y, "s": s, "g": g})
    rng = np.random.default_rng(0)
    t0 = time.process_time()
    for _, part in frame.groupby("g"):
        yy, ss = part["y"].to_numpy(), part["s"].to_numpy()
        metric(yy, ss)
        for _ in range(resamples):
            idx = rng.integers(0, yy.shape[0], yy.shape[0])
            metric(yy[idx], ss[idx])
    return time.process_time() - t0


def _fairlearn(y, s, g) -> str:
    try:
        from fairlearn.metrics import MetricFrame
        from sklearn.metrics import roc_auc_score
    except ImportError:
        return "Fairlearn is not installed here: not timed (see `--fairlearn` below)."
    t0 = time.perf_counter()
    MetricFrame(metrics=roc_auc_score, y_true=y, y_pred=s, sensitive_features=g)
    return f"Fairlearn MetricFrame (values only, no interval): {time.perf_counter() - t0:.2f} s."


def fairlearn_lines(n: int, groups: int) -> list[str]:
    """Fairlearn's ``MetricFrame`` against ``metric_frame`` with values only, CPU and wall.

    Run from a Python that has Fairlearn (a scratch venv: the project's has none), with
    the repository on ``PYTHONPATH``. Ours draws 2 resamples a group (its fewest) and no
    permutation: the values, gaps and Wald test Fairlearn has no counterpart of, nearly free.
    """
    from fairlearn import __version__
    from fairlearn.metrics import MetricFrame
    from sklearn.metrics import recall_score, roc_auc_score

    y, s, g = make_data(n, groups)
    pred = (s >= 0.5).astype(int)
    cases = (
        ("ROC AUC", M.roc_auc_score, roc_auc_score, s),
        ("TPR at 0.5", "tpr", recall_score, pred),
    )
    lines = [
        f"Fairlearn {__version__} `MetricFrame` (values only) on {n:,} rows and {groups} groups:",
        "",
        "| metric | Fairlearn: wall (s) | Fairlearn: CPU (s) | ours, values only: wall (s) "
        "| ours: CPU (s) | largest gap |",
        "|---|---:|---:|---:|---:|---:|",
    ]
    for name, ours, theirs, score in cases:
        t0, c0 = time.perf_counter(), time.process_time()
        mf = MetricFrame(metrics=theirs, y_true=y, y_pred=score, sensitive_features=g)
        fw, fc = time.perf_counter() - t0, time.process_time() - c0
        t0, c0 = time.perf_counter(), time.process_time()
        f = M.metric_frame(ours, y, score, g, n_resamples=2, n_permutations=0, random_state=0)
        ow, oc = time.perf_counter() - t0, time.process_time() - c0
        gap = np.abs(f.value - mf.by_group.to_numpy()).max()
        lines.append(f"| {name} | {fw:.2f} | {fc:.2f} | {ow:.2f} | {oc:.2f} | {gap:.1e} |")
    return lines


def run(n: int, groups: int, resamples: int, loop_resamples: int) -> list[str]:
    """Measure and return the report's section as lines."""
    from sklearn.metrics import accuracy_score, recall_score, roc_auc_score

    y, s, g = make_data(n, groups)
    tied = np.round(s, 6)  # scores as a file of six decimals keeps them: tied in every group
    cases = (
        ("ROC AUC", M.roc_auc_score, roc_auc_score, s),
        ("ROC AUC, scores of 6 decimals", M.roc_auc_score, roc_auc_score, tied),
        ("TPR at 0.5", "tpr", lambda yy, ss: recall_score(yy, ss >= 0.5), s),
        ("accuracy at 0.5", "accuracy", lambda yy, ss: accuracy_score(yy, ss >= 0.5), s),
    )
    lines = [
        START,
        "## Slices: a metric frame with bootstrap intervals",
        "",
        f"{n:,} rows, {groups} groups, {resamples:,} resamples per group "
        "(`python -m bench.slices`).",
        "",
        "| metric | ours: wall (s) | ours: CPU (s) | groupby + scikit-learn loop: CPU (s) "
        "| CPU ratio |",
        "|---|---:|---:|---:|---:|",
    ]
    load = [os.getloadavg()[0]]
    for name, ours_metric, sk_metric, score in cases:
        t0, c0 = time.perf_counter(), time.process_time()
        frame = M.metric_frame(ours_metric, y, score, g, n_resamples=resamples, random_state=0)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
        loop = _loop(sk_metric, y, score, g, loop_resamples) * resamples / loop_resamples
        load.append(os.getloadavg()[0])
        lines.append(f"| {name} | {wall:.2f} | {cpu:.2f} | {loop:.1f} | {loop / cpu:.0f}x |")
        assert np.isfinite(frame.low).all()
    lines += [
        "",
        f"The loop ran {loop_resamples} resamples per group (one thread) and was scaled to "
        f"{resamples:,}; ours uses {metrics._ranks.WORKERS} threads. Load average during the run: "
        f"{min(load):.1f} to {max(load):.1f} on {os.cpu_count()} cores "
        f"({datetime.now(UTC):%Y-%m-%d %H:%M} UTC).",
        _fairlearn(y, s, g),
        END,
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.slices``: measure, print the section, optionally write it."""
    p = argparse.ArgumentParser(prog="python -m bench.slices", description=__doc__.split("\n")[0])
    p.add_argument("--n", type=int, default=1_000_000, help="rows (default 10^6)")
    p.add_argument("--groups", type=int, default=50, help="groups (default 50)")
    p.add_argument("--resamples", type=int, default=1000, help="resamples per group")
    p.add_argument("--loop-resamples", type=int, default=10, help="the loop's, then extrapolated")
    p.add_argument("--write", action="store_true", help="update the section of bench/results.md")
    p.add_argument("--fairlearn", action="store_true", help="only Fairlearn against ours, values")
    args = p.parse_args(argv)
    if args.fairlearn:
        print("\n".join(fairlearn_lines(args.n, args.groups)))
        return 0
    lines = run(args.n, args.groups, args.resamples, args.loop_resamples)
    print("\n".join(lines))
    if args.write:
        write_section(lines, RESULTS, START, END)
        print(f"wrote the section to {RESULTS}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
