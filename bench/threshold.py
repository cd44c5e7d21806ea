"""The threshold workbench's curves timed against ``metrics.roc_curve`` on the same rows.

``python -m bench.threshold [--rows N] [--repeat R]`` times every curve of
:mod:`metrics.threshold` and :mod:`metrics.calibration`, and the operating
point (its bootstrap of 1000 resamples included), on a continuous and a tied
(2 decimals) score distribution, each as the best of ``R`` runs, next to
``roc_curve``'s time on the same rows; it writes the section "Threshold
workbench" of ``bench/results.md``. The target: each within 2x of
``roc_curve``.

Examples
--------
>>> rows = [time_all(2_000, tied=True, repeat=1)]
>>> "roc_curve" in rows[0]["seconds"] and rows[0]["seconds"]["lift_at"] > 0
True
>>> render(rows).splitlines()[0] == HEADING
True
"""

from __future__ import annotations

import argparse
import sys
import time

import numpy as np

import metrics

HEADING = "## Threshold workbench (python -m bench.threshold)"
TARGET = 2.0

CALLS = {
    "roc_curve": lambda y, s: metrics.roc_curve(y, s),
    "cumulative_gain_curve": lambda y, s: metrics.cumulative_gain_curve(y, s),
    "lift_curve": lambda y, s: metrics.lift_curve(y, s),
    "lift_at": lambda y, s: metrics.lift_at(y, s, 0.1),
    "cap_curve": lambda y, s: metrics.cap_curve(y, s),
    "accuracy_ratio": lambda y, s: metrics.accuracy_ratio(y, s),
    "ks_statistic": lambda y, s: metrics.ks_statistic(y, s),
    "decision_curve": lambda y, s: metrics.decision_curve(y, s),
    "cost_curve": lambda y, s: metrics.cost_curve(y, s),
    "calibration_error (uniform)": lambda y, s: metrics.calibration_error(y, s),
    "calibration_error (quantile)": lambda y, s: metrics.calibration_error(
        y, s, strategy="quantile"
    ),
    "reliability_diagram (1000 resamples)": lambda y, s: metrics.reliability_diagram(y, s),
    "operating_point (1000 resamples)": lambda y, s: metrics.operating_point(
        y, s, "recall", constraint=("precision", ">=", 0.6)
    ),
}


def _data(n: int, tied: bool, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int8)
    s = np.clip(0.35 * y + 0.65 * rng.random(n), 0, 1)
    return y, (np.round(s, 2) if tied else s)


def time_all(n: int, tied: bool, repeat: int = 3) -> dict:
    """Best-of-``repeat`` CPU and wall seconds of every call on one distribution of ``n`` rows.

    The ratios use CPU seconds (``time.process_time``): on a shared machine
    the wall time measures the neighbours as much as the call.
    """
    y, s = _data(n, tied)
    seconds, wall = {}, {}
    for name, call in CALLS.items():
        best, best_wall = np.inf, np.inf
        for _ in range(repeat):
            t, c = time.perf_counter(), time.process_time()
            call(y, s)
            best = min(best, time.process_time() - c)
            best_wall = min(best_wall, time.perf_counter() - t)
        seconds[name], wall[name] = best, best_wall
    scores = "tied (2 decimals)" if tied else "continuous"
    return {"n": n, "scores": scores, "seconds": seconds, "wall": wall}


def render(rows: list[dict]) -> str:
    """The results section: seconds and the ratio to ``roc_curve`` per call and distribution."""
    head = " | ".join(f"{r['n']:,} {r['scores']}: CPU s | wall s | x roc_curve" for r in rows)
    lines = [
        HEADING,
        "",
        "Each curve exact from the one sorted order (no bins), best of the runs, beside "
        f"`metrics.roc_curve` on the same rows; target: within {TARGET:g}x of roc_curve "
        "in CPU seconds. "
        "The bootstrap calls include 1000 resamples (multinomial over cells, no per-row work).",
        "",
        f"| call | {head} |",
        "| --- |" + " ---: | ---: | ---: |" * len(rows),
    ]
    for name in CALLS:
        cells = []
        for r in rows:
            sec, ratio = r["seconds"][name], r["seconds"][name] / r["seconds"]["roc_curve"]
            flag = "" if ratio <= TARGET else " MISS"
            cells.append(f"{sec:.3f} | {r['wall'][name]:.3f} | {ratio:.2f}{flag}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.threshold [--rows N] [--repeat R] [--out FILE]``."""
    from bench.load import RESULTS, write_text_section

    p = argparse.ArgumentParser(prog="python -m bench.threshold")
    p.add_argument("--rows", type=lambda x: int(float(x)), default=10_000_000)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--out", default=str(RESULTS))
    args = p.parse_args(argv)
    rows = [time_all(args.rows, tied, args.repeat) for tied in (False, True)]
    text = render(rows)
    print(text)
    write_text_section(text, HEADING, args.out)
    return 0


if __name__ == "__main__":
    sys.exit(main())
