"""The Leaderboard at scale on IR runs: 10 TREC runs of 1,000 queries x 1,000 documents.

``python -m bench.leaderboard_trec`` writes ``--runs`` (10) seeded runs of ``--queries``
(1,000) queries x ``--docs`` (1,000) documents (every run ranks the same documents, as
the Leaderboard needs: scores ``grade x (0.2 + 0.05 k) + U(0, 1)`` for run k) and a qrels
file (about 10% of the documents judged relevant, grades 1-3), as TREC text in memory,
then times the steps between the files and the Leaderboard's first numbers at page-model
level (no Streamlit):

* reading the qrels and the runs into one dataset of a model per run
  (:func:`explorer.io.trec.read_trec_runs`, what the Data page calls for several runs
  beside one qrels file; the upload size limit is not applied here);
* the page's board on its defaults for a ranking (NDCG, the paired t-test, Holm, alpha
  0.05, 1,000 bootstrap resamples of each run's interval): the table, the matrix;
* the second metric of the table (DCG) and the per-query wins.

``--write`` puts the section in ``bench/results.md`` between its markers. Wall times on a
shared machine depend on its load (printed); CPU time beside them.
"""

from __future__ import annotations

import argparse
import os

import numpy as np
import pandas as pd

from bench.compare import _timed, write_section
from explorer.io.trec import read_trec_runs
from explorer.pages import leaderboard as lb

START, END = "<!-- leaderboard_trec:start -->", "<!-- leaderboard_trec:end -->"


def files(runs: int, queries: int, docs: int, seed: int = 0) -> tuple[bytes, list]:
    """``(qrels, [(file name, run bytes)])``: TREC text of the seeded runs."""
    rng = np.random.default_rng(seed)
    grade = np.where(rng.random((queries, docs)) < 0.1, rng.integers(1, 4, (queries, docs)), 0)
    qid = np.repeat([f"q{q}" for q in range(queries)], docs)
    docid = np.tile([f"d{d}" for d in range(docs)], queries)
    judged = grade.ravel() > 0
    qrels = pd.DataFrame({"q": qid[judged], "i": 0, "d": docid[judged], "r": grade.ravel()[judged]})
    out = []
    for k in range(runs):
        score = (grade * (0.2 + 0.05 * k) + rng.random((queries, docs))).ravel()
        run = pd.DataFrame(
            {"q": qid, "Q0": "Q0", "d": docid, "rank": 0, "s": np.round(score, 6), "tag": f"run{k}"}
        )
        out.append((f"run{k}.txt", run.to_csv(sep=" ", header=False, index=False).encode()))
    return qrels.to_csv(sep=" ", header=False, index=False).encode(), out


def run(runs: int, queries: int, docs: int) -> list[str]:
    load = ", ".join(f"{v:.2f}" for v in os.getloadavg())
    qrels, texts = files(runs, queries, docs)
    size = sum(len(b) for _, b in texts) + len(qrels)
    ds, w_read, c_read = _timed(lambda: read_trec_runs("qrels.txt", qrels, texts))
    settings = lb.Settings("NDCG", "t", "holm", 0.05, more=("DCG",))
    first, second = lb.each_metric(ds, settings)
    board, w_board, c_board = _timed(lambda: lb.board(ds, first, limit=float("inf")))
    _, w_dcg, c_dcg = _timed(lambda: lb.board(ds, second, limit=float("inf")))
    (what, wins), w_wins, c_wins = _timed(lambda: lb.wins(ds))
    best = board.rows[0]
    differ = int((board.result.p_adjusted <= settings.alpha).sum())
    n_pairs = board.result.pairs.shape[0]
    return [
        START,
        "## Leaderboard: many TREC runs of 1,000 x 1,000 (bench/leaderboard_trec.py)",
        "",
        f"`python -m bench.leaderboard_trec --runs {runs} --queries {queries} --docs {docs}`; "
        f"{os.cpu_count()} cores, load average at the start {load} (a shared machine: one run "
        "each, CPU time beside the wall time). Page-model level, no Streamlit.",
        "",
        "| step | wall (s) | CPU (s) | what |",
        "| --- | ---: | ---: | --- |",
        f"| read qrels + {runs} runs (`read_trec_runs`) | {w_read:.2f} | {c_read:.2f} | "
        f"{size:,} bytes of TREC text; {ds.n_samples:,} queries x {ds.y_true.shape[1]:,} slots |",
        f"| first numbers: the board on NDCG (paired t, Holm, {lb.N_RESAMPLES:,} resamples) "
        f"| {w_board:.2f} | {c_board:.2f} | best {best['model']} {best['value']:.4f}; "
        f"{differ} of {n_pairs} pairs differ |",
        f"| the table's second metric (DCG) | {w_dcg:.2f} | {c_dcg:.2f} | |",
        f"| per-query wins (`leaderboard.wins`, by {what}) | {w_wins:.2f} | {c_wins:.2f} | "
        f"{int(wins['alone'].sum()):,} queries with one best run |",
        "",
        f"Load average at the end: {', '.join(f'{v:.2f}' for v in os.getloadavg())}.",
        END,
    ]


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.leaderboard_trec``: measure, print the section, optionally write it."""
    p = argparse.ArgumentParser(prog="python -m bench.leaderboard_trec")
    p.add_argument("--runs", type=int, default=10)
    p.add_argument("--queries", type=int, default=1000)
    p.add_argument("--docs", type=int, default=1000)
    p.add_argument("--write", action="store_true", help="write bench/results.md's section")
    args = p.parse_args(argv)
    lines = run(args.runs, args.queries, args.docs)
    print("\n".join(lines))
    if args.write:
        write_section(lines, start=START, end=END)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
