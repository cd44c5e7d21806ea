"""The benchmark's machinery on tiny inputs: values cross-check, reports render.

No timing is asserted here: speed targets are the benchmark's business
(``python -m bench``, results in bench/results.md), not the test suite's.
"""

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from bench.__main__ import main
from bench.cases import CASES, cases_for, compare
from bench.data import make_binary, make_graded, make_multilabel, make_regression
from bench.loading import run_loading
from bench.runner import AGREE, DIFFERS, ERROR, MISMATCH, run_dataset
from bench.targets import MISS, PASS, check_targets
from bench.timing import QUICK_BUDGET, extrapolate, time_call

ROOT = Path(__file__).resolve().parents[2]

TINY = [
    make_binary(600, ties=False),
    make_binary(600, ties=True),
    make_multilabel(80, 7, ties=False),
    make_multilabel(80, 7, ties=True),
    make_graded(80, 7, ties=False),
    make_graded(80, 7, ties=True),
    make_regression(600),
]


def test_quick_mode_runs_end_to_end_and_writes_a_report(tmp_path, capsys):
    out = tmp_path / "results.md"
    raw = tmp_path / "raw.pkl"
    argv = ["--quick", "--no-load", "--libs", "scikit-learn", "--matrix-sizes", "60x6"]
    argv += ["--vector-sizes", "500", "--out", str(out), "--save-raw", str(raw)]
    assert main(argv) == 0  # 0: every value agrees with scikit-learn where conventions agree
    printed = capsys.readouterr().out
    assert "verdict" in printed and "0 value disagreements or errors" in printed
    text = out.read_text()
    assert "## Targets:" in text
    assert "| PASS |" in text or "| **MISS** |" in text
    assert "**torchmetrics not measured**: skipped (--libs)" in text
    for case in CASES:
        assert f"`{case.metric}`" in text
    # the report can be re-rendered from the raw measurements
    again = tmp_path / "again.md"
    assert main(["--from-raw", str(raw), "--out", str(again)]) == 0
    assert again.read_text() == text


@pytest.mark.parametrize("d", TINY, ids=lambda d: d.name)
def test_every_case_agrees_with_scikit_learn_or_names_the_convention(d):
    result = run_dataset(d, ("scikit-learn",), QUICK_BUDGET)
    assert [c.metric for c in result.cases] == [c.metric for c in cases_for(d)]
    for c in result.cases:
        assert not c.error, (c.metric, c.error)
        assert c.timing.seconds > 0 and c.peak_bytes >= 0
        for r in c.refs:
            assert r.check in (AGREE, DIFFERS), (c.metric, r.check, r.note)
            if r.check == DIFFERS:  # only a named convention, and only on tied scores
                assert d.ties and r.note, (c.metric, r.note)


def test_a_wrong_value_is_a_mismatch_not_a_convention():
    from bench import cases as bc

    d = make_multilabel(50, 5, ties=False)
    broken = bc.Case(
        "coverage_error (off by one)",
        lambda d: bc.M.coverage_error(d.y_true, d.y_score) + 1,
        ("multilabel",),
        refs=(
            bc.Ref(
                "scikit-learn",
                "coverage_error",
                lambda d: bc._sk().coverage_error(d.y_true, d.y_score),
            ),
        ),
    )
    saved = bc.CASES[:]
    bc.CASES[:] = [broken]
    try:
        result = run_dataset(d, ("scikit-learn",), QUICK_BUDGET)
    finally:
        bc.CASES[:] = saved
    assert result.cases[0].refs[0].check == MISMATCH


def test_loop_comparators_are_extrapolated_and_labelled():
    d = make_multilabel(120, 6, ties=False)
    d.loop_rows = 40
    result = run_dataset(d, ("scikit-learn",), QUICK_BUDGET)
    lrap = result.case("label_ranking_average_precision_score").ref("scikit-learn")
    assert lrap.check == AGREE and lrap.timing.extrapolated and lrap.timing.rows == 40
    coverage = result.case("coverage_error").ref("scikit-learn")
    assert not coverage.timing.extrapolated  # vectorized in scikit-learn: timed in full
    from bench.report import RunInfo, render

    versions = {"scikit-learn": "1"}
    info = RunInfo("python -m bench", True, "now", 1.0, 2, [("start", (0, 0, 0))], versions, {}, 40)
    text = render(info, [result], check_targets([result], None), None, None)
    assert "(extrapolated from 40 rows)" in text


def test_targets_pass_and_miss_on_measured_ratios():
    d = make_multilabel(300, 10, ties=True)
    result = run_dataset(d, ("scikit-learn",), QUICK_BUDGET)
    rows = {r.target: r for r in check_targets([result], None)}
    lrap = rows["label_ranking_average_precision_score vs scikit-learn"]
    c = result.case("label_ranking_average_precision_score")
    ratio = c.ref("scikit-learn").speedup(c.timing)
    assert lrap.verdict == (PASS if ratio >= 50 else MISS)
    assert lrap.measured == f"{ratio:.1f}x"


def test_argsort_targets_hold_the_one_thread_time_and_name_both(monkeypatch):
    """The sort floor is a one-thread yardstick: the ratio checked is our time on one
    thread over the argsort; the note gives the two-thread ratio."""
    import metrics._ranks

    monkeypatch.setattr(metrics._ranks, "WORKERS", 2)
    d = make_multilabel(300, 10, ties=True)
    result = run_dataset(d, ("scikit-learn",), QUICK_BUDGET)
    assert metrics._ranks.WORKERS == 2  # put back after the one-thread timing
    rows = {r.target: r for r in check_targets([result], None)}
    row = rows["coverage_error time / one np.argsort(axis=1)"]
    c = result.case("coverage_error")
    assert c.one_thread is not None and c.one_thread.seconds > 0
    assert row.measured == f"{c.one_thread.seconds / result.argsort.seconds:.2f}x"
    shipped = c.timing.seconds / result.argsort.seconds
    assert f"{shipped:.2f}x with metrics' blocks on two threads" in row.note


def test_a_curve_result_is_counted_in_its_peak_and_named_in_the_memory_note():
    import metrics

    d = make_binary(600, ties=False)
    result = run_dataset(d, ("scikit-learn",), QUICK_BUDGET, only="precision_recall_curve")
    (c,) = result.cases
    arrays = metrics.precision_recall_curve(d.y_true, d.y_score)
    assert c.result_bytes == sum(a.nbytes for a in arrays) == (3 * 600 + 2) * 8
    assert c.peak_bytes >= c.result_bytes
    (row,) = [r for r in check_targets([result], None) if r.target.startswith("peak memory")]
    assert row.measured == f"{c.peak_bytes / result.input_bytes:.2f}x"
    assert row.verdict == MISS  # the result alone is 3 x 600 + 2 values: over 3x
    assert "precision_recall_curve" in row.note and "(its result 3.00x)" in row.note


def test_compare_handles_scalars_arrays_and_curves():
    assert compare(1.0, 1.0 + 1e-12, 1e-9)[0]
    assert not compare(1.0, 1.001, 1e-9)[0]
    curve = (np.array([0.0, 0.5, 1.0]), np.array([np.inf, 0.4, 0.1]))
    assert compare(curve, tuple(a.copy() for a in curve), 1e-9)[0]
    assert not compare(curve, (curve[0],), 1e-9)[0]
    assert not compare(np.zeros(3), np.zeros(4), 1e-9)[0]


def test_extrapolation_is_linear_in_rows():
    _, t = time_call(lambda: sum(range(100)))
    big = extrapolate(t, 10, 1000)
    assert big.seconds == pytest.approx(t.seconds * 100) and big.rows == 10


def test_upload_loads_are_timed_against_pandas():
    results = run_loading(2_000, (200, 8), QUICK_BUDGET)
    assert [r.what for r in results] == [
        "binary CSV, 2,000 rows",
        "labels + scores CSV pair, 200 x 8",
    ]
    assert all(r.ratio > 0 and r.size_bytes > 0 for r in results)


@pytest.mark.parametrize("lib", ["torchmetrics", "ranx"])
def test_optional_libraries_agree_or_name_the_convention(lib):
    pytest.importorskip(lib)
    for d in (make_multilabel(60, 6, ties=False), make_graded(60, 6, ties=False)):
        d_tied = make_graded(60, 6, ties=True) if d.kind == "graded" else None
        for data in filter(None, (d, d_tied)):
            result = run_dataset(data, (lib,), QUICK_BUDGET)
            for c in result.cases:
                for r in c.refs:
                    assert r.check != ERROR, (c.metric, r.note)
                    assert r.check != MISMATCH, (data.name, c.metric, r.note)


def test_every_page_interaction_is_a_target_and_the_slowest_decides():
    from bench.app_timing import PageResult

    fast = PageResult("views/a/page.py", "A", True, first_render=0.1, dataset="big")
    fast.interactions = [('slider "K"', 0.2), ('radio "gain"', 0.4)]
    slow = PageResult("views/b/page.py", "B", True, first_render=0.1, dataset="big")
    slow.interactions = [('slider "K"', 0.2), ('selectbox "log base"', 0.9)]
    none = PageResult("views/c/page.py", "C", True, first_render=0.1, dataset="big")
    rows = [r for r in check_targets([], [fast, slow, none]) if r.key == "app-interaction"]
    assert [r.verdict for r in rows] == [PASS, MISS, "n/a"]
    assert rows[0].measured == "0.40 s" and "2 controls" in rows[0].target
    assert rows[1].measured == "0.90 s" and 'selectbox "log base"' in rows[1].note


def test_browser_mode_writes_its_section_and_a_full_report_keeps_it(tmp_path, monkeypatch):
    """--browser replaces the report's Browser section and nothing else; a later report
    written by the other modes keeps that section. The browser itself is not started:
    run_browser is replaced by fixed timings (bench/browser.py runs Chromium)."""
    from bench import browser

    timings = [
        browser.BrowserTiming(
            "threshold step (arrow key)", "sample balanced", [0.1, 0.3, 0.2], 0.15
        ),
        browser.BrowserTiming(
            "first load of the page (cold caches)",
            "1,000 binary rows",
            [1.5],
            2.0,
            server_cpu=[0.9],
        ),
    ]
    seen = {}

    def fake(rows, moves, pages=False, slices=False):
        seen.update(rows=rows, moves=moves, pages=pages, slices=slices)
        return timings

    monkeypatch.setattr(browser, "run_browser", fake)
    out = tmp_path / "results.md"
    out.write_text(
        "# Benchmark results\n\n## Targets\nkept\n\n## Browser\nstale numbers\n\n"
        "## Pages\nkept too\n"
    )
    assert (
        main(["--browser", "--browser-rows", "1000", "--browser-moves", "3", "--out", str(out)])
        == 0
    )
    assert seen == {"rows": 1000, "moves": 3, "pages": False, "slices": False}
    text = out.read_text()
    assert "stale numbers" not in text and text.count("## Browser") == 1
    assert "## Targets\nkept\n" in text and text.endswith("## Pages\nkept too\n")
    assert "| threshold step (arrow key) | sample balanced |  | 0.200 | 0.15 | MISS |" in text
    assert (
        "| first load of the page (cold caches) | 1,000 binary rows |  | 1.500 | 2 | PASS | 0.900 |"
        in text
    )
    section = browser.browser_section(text)
    # a quick run writing the same report keeps the Browser section
    argv = ["--quick", "--no-load", "--libs", "scikit-learn", "--matrix-sizes", "60x6"]
    assert main([*argv, "--vector-sizes", "500", "--out", str(out), "--only", "coverage"]) == 0
    again = out.read_text()
    assert browser.browser_section(again).strip() == section.strip() and "## Targets:" in again


def test_browser_csv_is_binary_and_small_enough_to_upload(tmp_path):
    from bench.browser import binary_csv

    path = binary_csv(tmp_path / "b.csv", 20_000)
    lines = path.read_text().splitlines()
    assert lines[0] == "y_true,y_score" and len(lines) == 20_001
    y = np.array([int(line.split(",")[0]) for line in lines[1:]])
    s = np.array([float(line.split(",")[1]) for line in lines[1:]])
    assert set(y.tolist()) == {0, 1} and 0.27 < y.mean() < 0.33
    assert s.min() >= 0 and s.max() <= 1
    # 10^6 rows stay under the 50 MB upload limit
    assert path.stat().st_size * 50 < 50_000_000


def test_slices_csv_adds_a_site_of_fifty_values_and_stays_under_the_upload_limit(tmp_path):
    from bench.browser import binary_csv
    from bench.browser_slices import slices_csv

    path = slices_csv(tmp_path / "s.csv", 20_000)
    lines = path.read_text().splitlines()
    assert lines[0] == "y_true,y_score,site,texture" and len(lines) == 20_001
    rows = [line.split(",") for line in lines[1:]]
    assert len({r[2] for r in rows}) == 50 and {r[3] for r in rows} == {"coarse", "smooth"}
    # the labels and scores are binary_csv's, to the digit
    plain = binary_csv(tmp_path / "b.csv", 20_000).read_text().splitlines()[1:]
    assert [",".join(r[:2]) for r in rows] == plain
    assert path.stat().st_size * 50 < 50_000_000


def test_the_out_of_core_record_times_dask_as_a_child_and_from_a_started_process(
    tmp_path, monkeypatch
):
    # the command's evaluation also runs in the bench's own process (no start-up, no
    # imports); the record prints the ratio of two workers to one both ways, and the
    # CPU those runs took: on two cores, two workers' 7.6 CPU s take at least 3.8 s
    import pyarrow as pa
    import pyarrow.parquet as pq

    from bench import streaming
    from metrics import cli

    rng = np.random.default_rng(3)
    y = rng.integers(0, 2, 2000).astype(np.int8)
    path = tmp_path / "b.parquet"
    pq.write_table(pa.table({"y": y, "p": rng.random(2000).astype(np.float32)}), path)
    argv = ["evaluate", str(path), "--task", "binary", "--y-true", "y", "--score", "p"]
    wall, cpu = streaming._computed(argv)
    assert wall > 0 and cpu is None  # no cluster to ask
    values = cli.evaluate(cli.parse_args(argv))
    runs = {1: [(6.1, 7.3), (6.0, 7.2), (5.9, 7.0)], 2: [(4.2, 7.9), (4.0, 7.6), (3.9, 7.5)]}
    dask = {
        k: {"wall": wall, "load": 0.1, "values": values, "computed": computed,
            "computed_cpu": cpu, "computed_runs": runs[k]}
        for k, wall, computed, cpu in ((1, 8.0, 6.0, 7.2), (2, 6.4, 4.0, 7.6))
    }  # fmt: skip
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    record = {"rows": 2000, "read_s": 1.0, "read_cpu": 1.0, "eval_s": 2.0, "eval_cpu": 2.0,
              "values": values, "dask": dask}  # fmt: skip
    lines = streaming._rates(record)
    assert "Dask: 1 worker(s) 8.0 s, 2 worker(s) 6.4 s (2 workers 1.25x as fast as 1)" in lines[1]
    assert lines[2].endswith(
        "side; the medians of 3 runs on each (1 worker(s) 6.10, "
        "6.00, 5.90; 2 worker(s) 4.20, 4.00, 3.90 s)): 1 worker(s) 6.0 s, 2 worker(s) 4.0 s "
        "(1.50x)."
    )
    assert lines[3] == (
        "Their CPU, the workers' and this process's: 1 worker(s) 7.2 CPU s (1.20 cores "
        "busy), 2 worker(s) 7.6 CPU s (1.90 cores busy). On 2 cores two workers' 7.6 CPU s "
        "take at least 3.8 s: at most 1.58x as fast as one worker."
    )


def test_the_out_of_core_bench_runs_dask_on_a_cluster_of_its_own(tmp_path):
    # a child on each LocalCluster started as the bench starts them, one after the other,
    # then the evaluation from the bench's process on each: the values, the runs and the
    # workers' CPU. In a fresh process, as the bench runs: there dask.distributed is not
    # imported yet (imported inside the first cluster's settings, it lost its defaults
    # when they were unset, and the second cluster could not start)
    if importlib.util.find_spec("distributed") is None:
        pytest.skip("the optional Dask extra is not installed")
    import pyarrow as pa
    import pyarrow.parquet as pq

    from metrics import cli

    rng = np.random.default_rng(4)
    path = tmp_path / "b.parquet"
    y, p = rng.integers(0, 2, 3000).astype(np.int8), rng.random(3000).astype(np.float32)
    pq.write_table(pa.table({"y": y, "p": p}), path)
    argv = ["evaluate", str(path), "--task", "binary", "--y-true", "y", "--score", "p"]
    cmd = [sys.executable, "-m", "metrics", *argv, "--json", "--no-progress"]
    script = (
        "import json, sys\nfrom bench import streaming\n"
        "got = streaming._dask_runs(json.loads(sys.argv[1]), [1, 2], rounds=2)\n"
        "print(json.dumps([{k: r[k] for k in ('values', 'computed_runs')} for r in got.values()]))"
    )
    proc = subprocess.run([sys.executable, "-c", script, json.dumps(cmd)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    want = cli.evaluate(cli.parse_args(argv))["roc_auc_score"]
    got = json.loads(proc.stdout.strip().splitlines()[-1])
    assert [r["values"]["roc_auc_score"] for r in got] == [want, want]
    runs = [run for r in got for run in r["computed_runs"]]
    assert len(runs) == 4 and all(wall > 0 and cpu > 0 for wall, cpu in runs)
