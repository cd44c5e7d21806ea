"""``python -m bench``: time every metric against scikit-learn (and torchmetrics, ranx).

Usage
-----
``python -m bench``
    the full run: matrices of 1,000 x 20, 10,000 x 50 and 100,000 x 100
    (multilabel and graded, continuous and tied scores), binary and
    regression vectors of 10^4, 10^6 and 10^7, the upload loads and the
    AppTest page timings; writes ``bench/results.md`` (several minutes).
``python -m bench --load [--sessions 30] [--seconds 120]``
    many Chromium visitors at once on one hosted server (see bench/load.py):
    foreign markers, error boxes, page-switch p50/p95, server memory.
``python -m bench --visitors [--seconds 60]``
    one visitor runs the heaviest pages at the upload limits while two others
    switch pages (bench/visitors.py): their p95 against their baseline, and how
    long the server's CPU takes to idle after the heavy visitor closes its tab.
``python -m bench --soak [--visitors 30 --minutes 60]``
    a bounded soak (bench/soak.py): visitors mixing uploads at the limits,
    heavy pages, hostile links and page switches; switch times, errors,
    foreign markers and server memory over time.
``python -m bench --quick``
    reduced sizes, no page timings, under a minute; prints the targets and
    writes a report only with ``--out``.
``python -m bench --browser``
    only the browser's own timings (bench/browser.py: Chromium against
    ``streamlit run``, a threshold step on a sample and at 10^6 rows, the first
    load at 10^6 rows); replaces the report's "Browser" section and keeps the
    rest. A full run keeps the Browser section it finds.

The process exits with status 1 when a comparator's value disagrees with
ours where the conventions agree (or a call fails), 0 otherwise: a missed
speed target is reported, not an error.
"""

from __future__ import annotations

import argparse
import gc
import os
import pickle
import platform
import sys
import time
from datetime import datetime
from pathlib import Path

from bench import data as bd
from bench.cases import LIBS, available
from bench.runner import run_dataset, warm_up
from bench.timing import FULL_BUDGET, QUICK_BUDGET

RESULTS = Path(__file__).resolve().parent / "results.md"


def _sizes(text: str) -> tuple:
    """``"1000x20,5000x50"`` -> ((1000, 20), (5000, 50)); ``"10000,300000"`` -> (10000, 300000)."""
    out = []
    for part in filter(None, text.split(",")):
        if "x" in part:
            n, m = part.lower().split("x")
            out.append((int(n), int(m)))
        else:
            out.append(int(part))
    return tuple(out)


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line of ``python -m bench``."""
    p = argparse.ArgumentParser(prog="python -m bench", description=__doc__.split("\n")[0])
    p.add_argument("--quick", action="store_true", help="reduced sizes, no --app; < 1 minute")
    app = p.add_mutually_exclusive_group()
    app.add_argument("--app", action="store_true", help="time the pages (default: full run only)")
    app.add_argument("--no-app", action="store_true", help="skip the page timings")
    p.add_argument("--no-load", action="store_true", help="skip the upload-load timings")
    p.add_argument("--no-metrics", action="store_true", help="skip the metric timings")
    p.add_argument(
        "--libs",
        default=",".join(LIBS),
        help="comparison libraries to run, comma-separated (those not installed are skipped)",
    )
    p.add_argument(
        "--only",
        metavar="REGEX",
        help="time only the metrics whose name matches this regular expression "
        '(e.g. "ndcg|mean_reciprocal"); targets of skipped metrics are not checked',
    )
    p.add_argument(
        "--pages",
        metavar="REGEX",
        help="with --app, time only the pages whose title or file matches this regular "
        'expression (e.g. "retrieval|Multilabel"); the others get no target rows',
    )
    p.add_argument("--matrix-sizes", type=_sizes, help='e.g. "1000x20,10000x50"')
    p.add_argument("--vector-sizes", type=_sizes, help='e.g. "10000,1000000"')
    p.add_argument(
        "--loop-rows",
        type=int,
        default=None,
        help="time Python-loop comparators on this many rows of the largest continuous "
        "matrices and extrapolate (default: 10000 in the full run; 0 = everything in full)",
    )
    p.add_argument(
        "--compare",
        action="store_true",
        help="also time the bootstrap of ROC AUC against scipy (bench/compare.py; about a "
        "minute) and put its section in the report",
    )
    p.add_argument(
        "--browser",
        action="store_true",
        help="time the ROC & PR curves page in Chromium only (bench/browser.py)",
    )
    p.add_argument(
        "--browser-rows",
        type=int,
        default=1_000_000,
        help="with --browser, the rows of the binary upload (0: the sample only)",
    )
    p.add_argument("--browser-moves", type=int, default=7, help="with --browser, moves per case")
    p.add_argument(
        "--browser-pages",
        action="store_true",
        help="with --browser, also the other pages' main controls at 100,000 x 100 "
        "(bench/browser_pages.py)",
    )
    p.add_argument(
        "--browser-slices",
        action="store_true",
        help="with --browser, also the Slices page's controls on the sample and at "
        "--browser-rows rows with 50 groups (bench/browser_slices.py)",
    )
    p.add_argument("--out", type=Path, help="report path (default: bench/results.md, full run)")
    p.add_argument("--save-raw", type=Path, help="also pickle the raw measurements to this file")
    p.add_argument(
        "--from-raw",
        type=Path,
        help="measure nothing: re-check the targets and re-render a report from a --save-raw file",
    )
    p.add_argument(
        "--streaming",
        metavar="ROWS",
        help="only the out-of-core measurement (bench/streaming.py: python -m metrics "
        "evaluate on a binary Parquet file of ROWS rows against pyarrow alone)",
    )
    return p.parse_args(argv)


def _load() -> tuple[float, float, float]:
    try:
        return os.getloadavg()
    except OSError:
        return (float("nan"),) * 3


def _sections(text: str) -> dict[str, str]:
    """The ``## `` sections of a report, by heading line (the preamble under "")."""
    parts = ("\n" + text).split("\n## ")
    out = {"": parts[0].lstrip("\n")}
    for part in parts[1:]:
        heading = part.split("\n", 1)[0]
        out[heading] = "## " + part.rstrip("\n") + "\n"
    return out


def _write(out: Path, text: str) -> None:
    """Write the report, keeping the sections of the one it replaces that this run
    does not write (Browser, Load, Model comparison, Out of core: their own commands).

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "r.md"
    >>> _ = p.write_text("# R\n\n## Metrics\n\nold\n\n## Load (x)\n\nkept\n")
    >>> _write(p, "# R\n\n## Metrics\n\nnew\n")
    >>> print(p.read_text())
    # R
    <BLANKLINE>
    ## Metrics
    <BLANKLINE>
    new
    <BLANKLINE>
    ## Load (x)
    <BLANKLINE>
    kept
    <BLANKLINE>
    """
    if out.exists():
        new = _sections(text)
        heads = {h.split(":")[0].split("(")[0].strip() for h in new}
        for heading, body in _sections(out.read_text(encoding="utf-8")).items():
            if heading and heading.split(":")[0].split("(")[0].strip() not in heads:
                text = text.rstrip("\n") + "\n\n" + body
    out.write_text(text, encoding="utf-8")


def run_browser_mode(args: argparse.Namespace) -> int:
    """``--browser``: time the page in Chromium, write the report's Browser section."""
    from bench.browser import render as render_browser
    from bench.browser import replace_section, run_browser

    start = _load()
    print("== browser (Chromium)", file=sys.stderr)
    timings = run_browser(
        rows=args.browser_rows,
        moves=args.browser_moves,
        pages=args.browser_pages,
        slices=args.browser_slices,
    )
    section = render_browser(timings, (start, _load()))
    out = args.out or RESULTS
    old = out.read_text(encoding="utf-8") if out.exists() else "# Benchmark results\n"
    out.write_text(replace_section(old, section), encoding="utf-8")
    print(section)
    print(f"wrote {out}", file=sys.stderr)
    return 0


def _other_mode(argv: list[str]) -> int | None:
    """Run ``--load``, ``--visitors`` or ``--soak`` when argv starts with one; else None."""
    if argv[:1] == ["--load"]:
        from bench.load import main as load_main

        return load_main(argv[1:])
    if argv[:1] == ["--visitors"]:
        from bench.visitors import main as visitors_main

        return visitors_main(argv[1:])
    if argv[:1] == ["--soak"]:
        from bench.soak import main as soak_main

        return soak_main(argv[1:])
    return None


def _rerender(args: argparse.Namespace) -> int:
    """``--from-raw``: write the report again from a saved run, timing nothing."""
    from bench.report import render
    from bench.targets import check_targets

    with open(args.from_raw, "rb") as fh:
        info, results, load_results, pages = pickle.load(fh)  # our own file
    targets = check_targets(results, pages)
    out = args.out or RESULTS
    _write(out, render(info, results, targets, load_results, pages))
    print(f"wrote {out} from {args.from_raw}", file=sys.stderr)
    return 0


def _versions_and_libs(wanted_text: str) -> tuple[dict, dict, tuple]:
    """The versions to report, why each absent comparator is absent, and those to run."""
    import numpy
    import pandas

    import metrics._ranks

    versions = {
        "python": platform.python_version(),
        "numpy": numpy.__version__,
        "pandas": pandas.__version__,
        "metrics threads": str(metrics._ranks.WORKERS),
    }
    missing = {}
    wanted = [x.strip() for x in wanted_text.split(",") if x.strip()]
    libs = []
    for lib in LIBS:
        version = available(lib)
        if lib not in wanted:
            missing[lib] = "skipped (--libs)"
        elif version is None:
            missing[lib] = "not installed; it is optional: `pip install -r requirements-bench.txt`"
        else:
            versions[lib] = version
            libs.append(lib)
            if lib == "torchmetrics":
                import torch

                versions["torch"] = torch.__version__
                versions["torch threads"] = str(torch.get_num_threads())
    return versions, missing, tuple(libs)


def _time_metrics(args, libs: tuple, budget, loop_rows, loads: list) -> list:
    """Time every metric on every dataset; appends a load sample after each dataset."""
    quick = args.quick
    matrix_sizes = args.matrix_sizes or (bd.QUICK_MATRIX_SIZES if quick else bd.MATRIX_SIZES)
    vector_sizes = args.vector_sizes or (bd.QUICK_VECTOR_SIZES if quick else bd.VECTOR_SIZES)
    results = []
    warm_up(libs)
    gc.collect()
    gc.freeze()  # the libraries' objects: later collections need not walk them
    for make in bd.dataset_makers(matrix_sizes, vector_sizes, loop_rows=loop_rows):
        d = make()
        results.append(run_dataset(d, libs, budget, only=args.only))
        loads.append(("", _load()))
        del d
        gc.collect()
    return results


def _time_loading(quick: bool, budget):
    """Time reading the uploads (reduced sizes when quick)."""
    from bench.loading import run_loading

    print("== loading uploads", file=sys.stderr)
    if quick:
        return run_loading(100_000, (10_000, 50), budget)
    return run_loading(1_000_000, (100_000, 100), budget)


def _time_pages(args, loads: list):
    """Time the pages under AppTest; appends a load sample."""
    from bench.app_timing import run_app as time_pages

    print("== pages (AppTest)", file=sys.stderr)
    if args.quick:
        pages = time_pages(matrix_shape=(2_000, 50), vector_n=200_000, only=args.pages)
    else:
        pages = time_pages(only=args.pages)
    loads.append(("", _load()))
    return pages


def _print_verdicts(targets: list, results: list, wall_seconds: float) -> int:
    """Print the targets and every disagreement; return 1 when a value disagrees, else 0."""
    from bench.report import mismatches
    from bench.targets import MISS

    print(f"\n{'target':<72} {'where':<34} {'required':>10} {'measured':>10}  verdict")
    for r in targets:
        print(
            f"{r.target[:72]:<72} {r.where[:34]:<34} {r.required:>10} {r.measured:>10}  {r.verdict}"
        )
    bad = mismatches(results)
    bad += [(d.name, c.metric, None) for d in results for c in d.cases if c.error]
    n_miss = sum(r.verdict == MISS for r in targets)
    print(
        f"\n{len(targets) - n_miss} targets met or n/a, {n_miss} missed; "
        f"{len(bad)} value disagreements or errors; {wall_seconds:.1f} s"
    )
    for name, metric, r in bad:
        print(f"  {name} {metric}: " + (f"{r.lib} {r.check} {r.note}" if r else "error"))
    return 1 if bad else 0


def _run(args: argparse.Namespace, argv: list[str]) -> int:
    """The timing run itself: metrics, uploads, pages, then the report and the verdicts."""
    from bench.report import RunInfo, render
    from bench.targets import check_targets

    t_start = time.perf_counter()
    started = datetime.now().astimezone().strftime("%Y-%m-%d %H:%M %Z")
    loads = [("start", _load())]
    quick = args.quick
    loop_rows = args.loop_rows if args.loop_rows is not None else (500 if quick else 10_000)
    loop_rows = loop_rows or None
    budget = QUICK_BUDGET if quick else FULL_BUDGET
    run_app = args.app or not (quick or args.no_app)
    out = args.out or (None if quick else RESULTS)

    versions, missing, libs = _versions_and_libs(args.libs)
    print(f"comparing against: {', '.join(libs) or 'nothing'}", file=sys.stderr)
    results = [] if args.no_metrics else _time_metrics(args, libs, budget, loop_rows, loads)
    load_results = None if args.no_load else _time_loading(quick, budget)
    pages = _time_pages(args, loads) if run_app else None

    targets = check_targets(results, pages)
    loads.append(("end", _load()))
    peak = max(loads, key=lambda x: x[1][0])
    load_samples = [loads[0], ("highest 1-min seen", peak[1]), loads[-1]]
    info = RunInfo(
        command="python -m bench " + " ".join(argv),
        quick=quick,
        started=started,
        wall_seconds=time.perf_counter() - t_start,
        cpu_count=os.cpu_count() or 0,
        load_samples=load_samples,
        versions=versions,
        missing=missing,
        loop_rows=loop_rows if any(d.loop_rows for d in results) else None,
    )
    if args.save_raw:
        with open(args.save_raw, "wb") as fh:
            pickle.dump((info, results, load_results, pages), fh)
    if out is not None:
        _write(out, render(info, results, targets, load_results, pages))
        print(f"wrote {out}", file=sys.stderr)
    if args.compare:
        from bench.compare import run as run_compare
        from bench.compare import write_section

        section = run_compare(100_000 if quick else 1_000_000, 200 if quick else 2000)
        if out is not None:
            write_section(section, out)
    return _print_verdicts(targets, results, info.wall_seconds)


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark; return the exit status."""
    argv = sys.argv[1:] if argv is None else list(argv)
    status = _other_mode(argv)
    if status is not None:
        return status
    args = parse_args(argv)
    if args.streaming:
        from bench.streaming import main as streaming

        return streaming(["--rows", args.streaming])
    if args.browser:
        return run_browser_mode(args)
    if args.from_raw:
        return _rerender(args)
    return _run(args, argv)


if __name__ == "__main__":
    sys.exit(main())
