"""Leaderboard timings: ``metrics.compare_models`` against the pairwise functions, and ranx.

``python -m bench.leaderboard`` times, on ``--models`` (10) models of ``--n`` (10^6)
seeded binary rows (scores ``y (1 + k / 10) + N(0, 1)``, continuous):

* ``compare_models(roc_auc_score | average_precision_score, test="bootstrap")`` with
  ``--resamples`` (1,000) resamples: every model's interval and all 45 pairs, one
  draw of counts shared by the models;
* the same numbers the pairwise way: ``paired_bootstrap_diff`` for each of the 45
  pairs and ``bootstrap_ci`` for each model's interval, timed on ``--sample-pairs``
  (3) pairs and one model, extrapolated linearly (every call costs the same);
* ``compare_models(roc_auc_score, test="delong")`` against 45 ``delong_test`` calls
  (timed on ``--sample-pairs``, extrapolated).

Then, with ranx importable (``--ranx-path`` adds a directory holding it to
``sys.path``), ranx's ``compare`` (its defaults: paired t, no correction) of 10 runs
of 1,000 queries x 100 documents on NDCG@10 against
``compare_models(partial(ndcg_score, k=10), test="t", correction=None)``; the Qrels
and Run dictionaries are built before the clock starts, and one small call first
compiles ranx's numba code.

``--write`` puts the section in ``bench/results.md`` between ``<!-- leaderboard:start
-->`` and ``<!-- leaderboard:end -->``. Wall times on a shared machine depend on its
load (printed); CPU time beside them.
"""

from __future__ import annotations

import argparse
import functools
import os
import sys

import numpy as np

import metrics as M
from bench.compare import _timed, write_section

START, END = "<!-- leaderboard:start -->", "<!-- leaderboard:end -->"


def _binary(n: int, models: int, seed: int = 0):
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    return y, {f"m{k}": y * (1 + k / 10) + rng.normal(size=n) for k in range(models)}


def _row(call, wall, cpu, note=""):
    return f"| {call} | {wall:.2f} s | {cpu:.2f} s | {note} |"


def _bootstrap_rows(y, models, resamples, sample_pairs) -> list[str]:
    s = list(models.values())
    m = len(s)
    n_pairs = m * (m - 1) // 2
    rows = []
    for metric in (M.roc_auc_score, M.average_precision_score):
        name = metric.__name__
        r, wall, cpu = _timed(
            lambda metric=metric: M.compare_models(
                metric, y, models, n_resamples=resamples, random_state=0
            )
        )
        note = (
            f"best {r.names[int(np.argmax(r.estimate))]} {r.estimate.max():.4f}; "
            f"{int((r.p_adjusted < 0.05).sum())} of {n_pairs} pairs significant (Holm)"
        )
        rows.append(
            _row(f"`compare_models({name})`, {m} models, all {n_pairs} pairs", wall, cpu, note)
        )
        pair_wall = pair_cpu = 0.0
        for i, j in [(0, k) for k in range(1, sample_pairs + 1)]:
            _, w, c = _timed(
                lambda metric=metric, i=i, j=j: M.paired_bootstrap_diff(
                    metric, y, s[i], s[j], n_resamples=resamples, random_state=0
                )
            )
            pair_wall, pair_cpu = pair_wall + w, pair_cpu + c
        _, one_wall, one_cpu = _timed(
            lambda metric=metric: M.bootstrap_ci(metric, y, s[0], n_resamples=resamples)
        )
        total_wall = pair_wall / sample_pairs * n_pairs + one_wall * m
        total_cpu = pair_cpu / sample_pairs * n_pairs + one_cpu * m
        rows.append(
            _row(
                f"{n_pairs} x `paired_bootstrap_diff({name})` + {m} x `bootstrap_ci`",
                total_wall,
                total_cpu,
                f"extrapolated from {sample_pairs} pairs and 1 model; ours is "
                f"{total_wall / wall:.1f}x faster in wall time, {total_cpu / cpu:.1f}x in CPU",
            )
        )
    return rows


def _delong_rows(y, models, sample_pairs) -> list[str]:
    s = list(models.values())
    m = len(s)
    n_pairs = m * (m - 1) // 2
    _, wall, cpu = _timed(
        lambda: M.compare_models(M.roc_auc_score, y, models, test="delong", n_resamples=None)
    )
    rows = [_row(f'`compare_models(roc_auc_score, test="delong")`, {n_pairs} pairs', wall, cpu)]
    pw = pc = 0.0
    for k in range(1, sample_pairs + 1):
        _, w, c = _timed(lambda k=k: M.delong_test(y, s[0], s[k]))
        pw, pc = pw + w, pc + c
    tw, tc = pw / sample_pairs * n_pairs, pc / sample_pairs * n_pairs
    note = f"extrapolated from {sample_pairs} pairs; ours {tw / wall:.1f}x (wall), "
    note += f"{tc / cpu:.1f}x (CPU)"
    rows.append(_row(f"{n_pairs} x `delong_test`", tw, tc, note))
    return rows


def _version() -> str:
    from importlib.metadata import version

    try:
        return version("ranx")
    except Exception:  # a copy outside any installed distribution
        return "(version unknown)"


def _ranx_rows(n_queries: int, n_docs: int, models: int) -> list[str]:
    try:
        import ranx
    except ImportError:
        return ["", "ranx is not importable here: its comparison was skipped."]
    rng = np.random.default_rng(1)
    y = (rng.random((n_queries, n_docs)) < 0.1).astype(int)
    y[np.arange(n_queries), rng.integers(0, n_docs, n_queries)] = 1
    runs = {f"run{k}": y * (0.05 * k) + rng.random((n_queries, n_docs)) for k in range(models)}
    qrels = ranx.Qrels(
        {f"q{i}": {f"d{j}": 1 for j in np.flatnonzero(y[i])} for i in range(n_queries)}
    )
    ranx_runs = [
        ranx.Run(
            {f"q{i}": {f"d{j}": float(v) for j, v in enumerate(s[i])} for i in range(n_queries)},
            name=name,
        )
        for name, s in runs.items()
    ]
    ranx.compare(qrels, ranx_runs[:2], ["ndcg@10"])  # numba compiles here, off the clock
    rep, wall, cpu = _timed(lambda: ranx.compare(qrels, ranx_runs, ["ndcg@10"], max_p=0.05))
    metric = functools.partial(M.ndcg_score, k=10)
    r, w2, c2 = _timed(
        lambda: M.compare_models(metric, y, runs, test="t", correction=None, n_resamples=None)
    )
    theirs = [rep.results[name]["ndcg@10"] for name in runs]
    gap = float(np.max(np.abs(np.array(theirs) - r.estimate)))
    return [
        _row(f"ranx {_version()} `compare` (paired t), {models} runs", wall, cpu),
        _row(
            '`compare_models(partial(ndcg_score, k=10), test="t", correction=None)`',
            w2,
            c2,
            f"{wall / w2:.1f}x ranx's wall time; largest NDCG@10 gap {gap:.1e}",
        ),
    ]


def run(n, models, resamples, sample_pairs, ranx_path=None) -> list[str]:
    if ranx_path:
        sys.path.append(ranx_path)
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    y, scores = _binary(n, models)
    lines = [
        START,
        "## Leaderboard: many models at once (bench/leaderboard.py)",
        "",
        f"Generated by `python -m bench.leaderboard --n {n} --models {models} --resamples "
        f"{resamples}`; {os.cpu_count()} cores, load average at the start {load} (a shared "
        "machine: wall times are one run each, CPU time beside them).",
        "",
        f"{n:,} binary rows, {models} models, {resamples:,} resamples:",
        "",
        "| call | wall | CPU | note |",
        "|---|---|---|---|",
    ]
    lines += _bootstrap_rows(y, scores, resamples, sample_pairs)
    lines += _delong_rows(y, scores, sample_pairs)
    ranx_lines = _ranx_rows(1000, 100, models)
    if ranx_lines and ranx_lines[0]:
        lines += ["", "An IR run set, 1,000 queries x 100 documents:", ""]
        lines += ["| call | wall | CPU | note |", "|---|---|---|---|"]
    lines += ranx_lines
    lines += [
        "",
        f"Load average at the end: {', '.join(f'{v:.2f}' for v in os.getloadavg())}.",
        END,
    ]
    return lines


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.leaderboard``: measure, print the section, optionally write it."""
    p = argparse.ArgumentParser(
        prog="python -m bench.leaderboard", description=__doc__.split("\n")[0]
    )
    p.add_argument("--n", type=int, default=1_000_000, help="binary rows (default 10^6)")
    p.add_argument("--models", type=int, default=10)
    p.add_argument("--resamples", type=int, default=1000)
    p.add_argument(
        "--sample-pairs", type=int, default=3, help="pairwise calls timed, then extrapolated"
    )
    p.add_argument("--ranx-path", default=None, help="a directory holding ranx, added to sys.path")
    p.add_argument("--write", action="store_true", help="update the section of bench/results.md")
    args = p.parse_args(argv)
    lines = run(args.n, args.models, args.resamples, args.sample_pairs, args.ranx_path)
    print("\n".join(lines))
    if args.write:
        write_section(lines, start=START, end=END)
    return 0


if __name__ == "__main__":
    sys.exit(main())
