"""``python -m metrics evaluate``: run as a subprocess on small Parquet files."""

from __future__ import annotations

import contextlib
import functools
import io
import json
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import metrics as M
from metrics import cli

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str, check: bool = True) -> subprocess.CompletedProcess:
    """``python -m metrics evaluate ARGS``, run in this process (``metrics.cli.main``,
    what ``python -m metrics`` calls): its exit status and what it wrote.

    :func:`test_python_dash_m_metrics_is_the_command_line` runs the real command once;
    a subprocess for every case cost 1 to 3 s of start-up each.
    """
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = cli.main(["evaluate", *map(str, args)])
        except SystemExit as exc:  # argparse refusing the command line
            code = exc.code
    proc = subprocess.CompletedProcess(args, code, out.getvalue(), err.getvalue())
    if check:
        assert proc.returncode == 0, proc.stderr
    return proc


def test_python_dash_m_metrics_is_the_command_line(binary_file):
    """The real command, once: ``python -m metrics`` exits with ``main``'s status and
    writes what it writes."""
    path, y, p, _ = binary_file
    argv = [path, "--task", "binary", "--y-true", "y", "--score", "p", "--json"]
    proc = subprocess.run(
        [sys.executable, "-m", "metrics", "evaluate", *map(str, argv)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout)["roc_auc_score"] == M.roc_auc_score(y, p)
    refused = subprocess.run(
        [sys.executable, "-m", "metrics", "evaluate", *map(str, argv[:-1]), "--y-true", "nope"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert refused.returncode == 2 and "no column 'nope'" in refused.stderr


def run_json(*args: str) -> dict:
    return json.loads(run(*args, "--json").stdout)


@pytest.fixture(scope="module")
def binary_file(tmp_path_factory):
    rng = np.random.default_rng(3)
    n = 20_000
    y = rng.integers(0, 2, n).astype(np.int8)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 3)  # ties
    w = rng.random(n) * (rng.random(n) > 0.1)
    path = tmp_path_factory.mktemp("cli") / "binary.parquet"
    pq.write_table(pa.table({"y": y, "p": p, "w": w}), path, row_group_size=3_000)
    return path, y, p, w


def test_binary_json_equals_in_memory(binary_file):
    path, y, p, _ = binary_file
    got = run_json(path, "--task", "binary", "--y-true", "y", "--score", "p", "--batch-size", 1234)
    assert list(got) == ["roc_auc_score", "average_precision_score", "log_loss", "confusion_matrix",
                         "ks_statistic", "lift_at", "accuracy_ratio", "calibration_error",
                         "max_calibration_error", "net_benefit"]  # fmt: skip
    assert got["roc_auc_score"] == M.roc_auc_score(y, p)  # integer counts: bit for bit
    assert got["average_precision_score"] == M.average_precision_score(y, p)
    np.testing.assert_allclose(got["log_loss"], M.log_loss(y, p), rtol=1e-12)
    cm = M.confusion_matrix(y, (p >= 0.5).astype(int), labels=[0, 1])
    assert got["confusion_matrix"] == cm.tolist()
    assert got["ks_statistic"] == list(M.ks_statistic(y, p))
    np.testing.assert_allclose(got["lift_at"], M.lift_at(y, p, 0.1), rtol=1e-12)
    np.testing.assert_allclose(got["calibration_error"], M.calibration_error(y, p), rtol=1e-12)


def test_binary_memory_bound_spills_to_disk_with_the_same_values(binary_file):
    path, y, p, w = binary_file
    args = [path, "--task", "binary", "--y-true", "y", "--score", "p", "--batch-size", 2000]
    assert run_json(*args, "--memory", "20KB") == run_json(*args)  # every table spilled
    got = run_json(*args, "--weight", "w", "--memory", "20KB")
    np.testing.assert_allclose(
        got["roc_auc_score"], M.roc_auc_score(y, p, sample_weight=w), rtol=1e-12
    )
    proc = run(*args, "--memory", "lots", check=False)
    assert proc.returncode == 2 and "'lots' is not a size" in proc.stderr
    proc = run(path, "--task", "regression", "--y-true", "p", "--score", "p", "--memory", "1GB",
               check=False)  # fmt: skip
    assert proc.returncode == 2 and "binary task" in proc.stderr


def test_memory_sizes_and_the_read_ahead_thread():
    assert cli.memory_size("1GB") == 10**9
    assert cli.memory_size("0.5 MB") == 500_000
    assert cli.memory_size("2e9") == 2 * 10**9
    assert cli.memory_size("300") == 300

    def failing():
        yield 1
        raise ValueError("the reader failed")

    got = []
    with pytest.raises(ValueError, match="the reader failed"):
        for item in cli.read_ahead(failing()):
            got.append(item)
    assert got == [1]  # the item before the failure arrived, then the reader's error

    made = []

    def counted():
        for i in range(20):
            made.append(i)
            yield i

    ahead = [len(made) - item for item in cli.read_ahead(counted())]
    assert max(ahead) <= 3  # the caller's item and at most two fetched beyond it


def test_binary_weighted_and_threshold(binary_file):
    path, y, p, w = binary_file
    got = run_json(
        path, "--task", "binary", "--y-true", "y", "--score", "p", "--weight", "w",
        "--threshold", "0.8",
    )  # fmt: skip
    np.testing.assert_allclose(
        got["roc_auc_score"], M.roc_auc_score(y, p, sample_weight=w), rtol=1e-12
    )
    np.testing.assert_allclose(
        got["average_precision_score"],
        M.average_precision_score(y, p, sample_weight=w),
        rtol=1e-12,
    )
    np.testing.assert_allclose(got["log_loss"], M.log_loss(y, p, sample_weight=w), rtol=1e-12)
    cm = M.confusion_matrix(y, (p >= 0.8).astype(int), labels=[0, 1], sample_weight=w)
    np.testing.assert_allclose(got["confusion_matrix"], cm, rtol=1e-12)


def test_binary_threshold_metrics_and_operating_point_equal_in_memory(tmp_path):
    """10^5 rows in batches of 7,777: KS, lift, the accuracy ratio, the net benefit and the
    constrained operating point (its bootstrap too) are the in-memory functions' floats;
    ECE and MCE sum per bin in another order (to rounding)."""
    rng = np.random.default_rng(11)
    n = 100_000
    y = rng.integers(0, 2, n).astype(np.int8)
    p = np.round(np.clip(0.25 * y + 0.75 * rng.random(n), 0, 1), 4)  # ties
    path = tmp_path / "threshold.parquet"
    pq.write_table(pa.table({"y": y, "p": p}), path, row_group_size=20_000)
    got = run_json(
        path, "--task", "binary", "--y-true", "y", "--score", "p", "--batch-size", 7777,
        "--lift-fraction", 0.2, "--threshold-probability", 0.3,
        "--objective", "recall", "--constraint", "precision", ">=", 0.7, "--n-resamples", 200,
    )  # fmt: skip
    assert got["ks_statistic"] == list(M.ks_statistic(y, p))
    assert got["lift_at"] == M.lift_at(y, p, 0.2)
    assert got["accuracy_ratio"] == M.accuracy_ratio(y, p)
    assert got["net_benefit"] == M.net_benefit(y, p, 0.3)
    np.testing.assert_allclose(got["calibration_error"], M.calibration_error(y, p), rtol=1e-12)
    mce = M.calibration_error(y, p, norm="max")
    np.testing.assert_allclose(got["max_calibration_error"], mce, rtol=1e-12)
    want = M.operating_point(y, p, "recall", constraint=("precision", ">=", 0.7), n_resamples=200)
    op = got["operating_point"]
    assert op["threshold"] == want.threshold and op["feasible"]
    assert op["rates"] == want.rates and op["counts"] == want.counts
    assert op["intervals"] == {k: list(v) for k, v in want.intervals.items()}
    assert op["constraint_holds"] == want.constraint_holds and 0 < want.constraint_holds < 1
    text = run(path, "--task", "binary", "--y-true", "y", "--score", "p", "--objective", "youden",
               "--no-progress").stdout  # fmt: skip
    youden = M.operating_point(y, p, "youden", n_resamples=1000)
    line = next(x for x in text.splitlines() if x.startswith("operating_point"))
    assert f"threshold={youden.threshold!r}" in line and "rates=(recall=" in line
    refused = run(path, "--task", "binary", "--y-true", "y", "--score", "p", "--constraint",
                  "precision", ">=", 0.7, check=False)  # fmt: skip
    assert refused.returncode == 2 and "--constraint needs --objective" in refused.stderr


def test_progress_goes_to_stderr_and_text_output_names_the_metrics(binary_file):
    path, y, p, _ = binary_file
    proc = run(path, "--task", "binary", "--y-true", "y", "--score", "p", "--batch-size", 5000)
    assert "100.0% (20,000 / 20,000 rows" in proc.stderr
    assert " 25.0% (5,000 / 20,000 rows" in proc.stderr  # one update per batch (\r lines)
    first = proc.stdout.splitlines()[0].split()
    assert first[0] == "roc_auc_score"
    assert float(first[1]) == M.roc_auc_score(y, p)
    quiet = run(path, "--task", "binary", "--y-true", "y", "--score", "p", "--no-progress")
    assert quiet.stderr == ""


def test_ranking_from_a_list_column_and_from_scalar_columns(tmp_path):
    rng = np.random.default_rng(4)
    n, m = 3000, 4
    yt = rng.integers(0, 3, (n, m))
    ys = rng.integers(0, 20, (n, m)) / 20
    table = pa.table(
        {
            "rel": pa.FixedSizeListArray.from_arrays(pa.array(yt.ravel()), m),
            "score": pa.array(list(ys)),  # a variable-size list column
            **{f"r{j}": yt[:, j] for j in range(m)},
            **{f"s{j}": ys[:, j] for j in range(m)},
        }
    )
    path = tmp_path / "ranking.parquet"
    pq.write_table(table, path, row_group_size=700)
    lists = run_json(path, "--task", "ranking", "--y-true", "rel", "--score", "score",
                     "--k", "2", "--batch-size", "500")  # fmt: skip
    scalars = run_json(
        path, "--task", "ranking", "--y-true", *[f"r{j}" for j in range(m)],
        "--score", *[f"s{j}" for j in range(m)], "--k", "2",
    )  # fmt: skip
    assert lists == pytest.approx(scalars, rel=1e-12)
    want = {
        "dcg_score": M.dcg_score(yt, ys),
        "ndcg_score": M.ndcg_score(yt, ys),
        "precision_at_k": M.precision_at_k(yt, ys, k=2),
        "recall_at_k": M.recall_at_k(yt, ys, k=2),
        "hit_rate_at_k": M.hit_rate_at_k(yt, ys, k=2),
        "mean_average_precision_at_k": M.mean_average_precision_at_k(yt, ys, k=2),
        "mean_reciprocal_rank": M.mean_reciprocal_rank(yt, ys),
        # the top grade of the whole file, found by a first pass
        "expected_reciprocal_rank": M.expected_reciprocal_rank(yt, ys),
    }
    want["dcg_score"] = M.dcg_score(yt, ys, k=2)
    want["ndcg_score"] = M.ndcg_score(yt, ys, k=2)
    want["mean_reciprocal_rank"] = M.mean_reciprocal_rank(yt, ys, k=2)
    want["expected_reciprocal_rank"] = M.expected_reciprocal_rank(yt, ys, k=2)
    assert set(lists) == set(want)  # graded: no label ranking metrics
    for name, value in want.items():
        np.testing.assert_allclose(lists[name], value, rtol=1e-12, err_msg=name)


def test_multilabel_gives_ranking_and_classification_metrics(tmp_path):
    rng = np.random.default_rng(5)
    n, m = 2000, 3
    yt = (rng.random((n, m)) < 0.3).astype(np.int8)
    ys = np.round(rng.random((n, m)), 2)
    path = tmp_path / "multilabel.parquet"
    pq.write_table(pa.table({"y": pa.array(list(yt)), "s": pa.array(list(ys))}), path,
                   row_group_size=600)  # fmt: skip
    got = run_json(path, "--task", "multilabel", "--y-true", "y", "--score", "s",
                   "--threshold", "0.6")  # fmt: skip
    pred = (ys >= 0.6).astype(int)
    np.testing.assert_allclose(
        got["label_ranking_average_precision_score"],
        M.label_ranking_average_precision_score(yt, ys),
        rtol=1e-12,
    )
    np.testing.assert_allclose(got["coverage_error"], M.coverage_error(yt, ys), rtol=1e-12)
    np.testing.assert_allclose(got["label_ranking_loss"], M.label_ranking_loss(yt, ys), rtol=1e-12)
    np.testing.assert_allclose(got["hamming_loss"], M.hamming_loss(yt, pred), rtol=1e-12)
    for average in ("micro", "macro", "weighted", "samples"):
        np.testing.assert_allclose(
            got["f1_score"][average], M.f1_score(yt, pred, average=average), rtol=1e-12
        )


def test_regression(tmp_path):
    rng = np.random.default_rng(6)
    yt = 100 + rng.normal(size=5000)
    yp = yt + rng.normal(size=5000) * 0.3
    w = rng.random(5000)
    path = tmp_path / "regression.parquet"
    pq.write_table(pa.table({"y": yt, "yhat": yp, "w": w}), path, row_group_size=999)
    got = run_json(path, "--task", "regression", "--y-true", "y", "--y-pred", "yhat",
                   "--weight", "w")  # fmt: skip
    for name in (
        "mean_absolute_error",
        "mean_squared_error",
        "root_mean_squared_error",
        "mean_absolute_percentage_error",
        "root_mean_squared_log_error",
        "r2_score",
    ):
        want = getattr(M, name)(yt, yp, sample_weight=w)
        np.testing.assert_allclose(got[name], want, rtol=1e-12, err_msg=name)


def test_refusals_exit_2_with_a_message(tmp_path, binary_file):
    path, *_ = binary_file
    proc = run(path, "--task", "binary", "--y-true", "nope", "--score", "p", check=False)
    assert proc.returncode == 2
    assert "no column 'nope'" in proc.stderr
    bad = tmp_path / "bad.parquet"
    pq.write_table(pa.table({"y": [0, 2, 1], "p": [0.1, 0.2, 0.3]}), bad)
    proc = run(bad, "--task", "binary", "--y-true", "y", "--score", "p", check=False)
    assert proc.returncode == 2
    assert "y_true must hold only 0 and 1" in proc.stderr
    nulls = tmp_path / "nulls.parquet"
    pq.write_table(pa.table({"y": [0, None, 1], "p": [0.1, 0.2, 0.3]}), nulls)
    proc = run(nulls, "--task", "binary", "--y-true", "y", "--score", "p", check=False)
    assert proc.returncode == 2
    assert "null" in proc.stderr
    text = tmp_path / "text.parquet"
    text.write_text("not parquet")
    proc = run(text, "--task", "binary", "--y-true", "y", "--score", "p", check=False)
    assert proc.returncode == 2
    assert "cannot read" in proc.stderr


@pytest.mark.parametrize("statistics", [True, False])
def test_err_takes_the_top_grade_of_the_whole_file(tmp_path, statistics):
    # the top grade 3 sits in the last row group only: per batch, ERR would use 1
    yt = np.zeros((900, 3), dtype=np.int64)
    yt[::2, 0] = 1
    yt[-1, 1] = 3
    ys = np.tile([0.9, 0.5, 0.1], (900, 1))
    path = tmp_path / "graded.parquet"
    pq.write_table(
        pa.table({"y": pa.array(list(yt)), "s": pa.array(list(ys))}),
        path,
        row_group_size=300,
        write_statistics=statistics,  # without: a first pass over y finds the top grade
    )
    got = run_json(path, "--task", "ranking", "--y-true", "y", "--score", "s", "--batch-size", 300)
    want = M.expected_reciprocal_rank(yt, ys)
    np.testing.assert_allclose(got["expected_reciprocal_rank"], want, rtol=1e-12)
    # the first batches alone would scale by their own top grade, 1
    assert M.expected_reciprocal_rank(yt[:300], ys[:300]) != pytest.approx(
        M.expected_reciprocal_rank(yt[:300], ys[:300], max_grade=3)
    )


def test_the_streaming_bench_runs_end_to_end_and_keeps_the_other_sections(tmp_path):
    from bench.streaming import main as streaming

    out = tmp_path / "results.md"
    out.write_text("# Results\n\n## Metrics\n\nkept\n")
    args = ["--rows", "30000", "--dir", str(tmp_path), "--check", "--out", str(out)]
    assert streaming([*args, "--batch-size", "7000", "--memory", "100KB", "--pairs", "2"]) == 0
    text = out.read_text()
    # the read and the command alternated twice: each pair's times, the table's medians
    pairs = re.search(r"alternated 2 times \(wall / CPU s of each.*?\): (.*?)\. The table", text)
    assert pairs and len(pairs.group(1).split("; ")) == 2
    assert text.startswith("# Results\n\n## Metrics\n\nkept\n\n## Out of core\n")
    assert "### 30,000 binary rows, float32 scores" in text
    assert "equal to the in-memory functions" in text
    assert "The --memory 100KB run's values: equal to the unbounded run's." in text
    assert "Rows per second (wall): read " in text and "x the final table" in text
    # Spark's binned areas beside the exact ones: at 30,000 rows of float32 scores the
    # table has more than 1,000 distinct scores, so Spark's runs of them lose something
    spark = re.search(r"areaUnderROC ([0-9.]+) \(([-+][0-9.e+-]+) from the exact ROC AUC\)", text)
    assert spark and float(spark.group(2)) != 0.0
    assert abs(float(spark.group(2))) < 0.01
    # the same size measured again replaces its subsection (write_section is what main
    # writes with; a second run of the bench would only make the same text again)
    from bench.streaming import write_section

    section = text[text.index("### 30,000 binary rows") :]
    write_section(section.replace("equal to the in-memory", "EQUAL to the in-memory"), out)
    again = out.read_text()
    assert again.count("### 30,000 binary rows") == 1 and "EQUAL to the in-memory" in again
    assert again.startswith("# Results\n\n## Metrics\n\nkept\n\n## Out of core\n")
    assert not list(tmp_path.glob("*.parquet"))  # the file is removed without --keep


def test_the_other_tasks_bench_checks_each_task_and_keeps_the_other_sections(tmp_path):
    from bench import streaming_tasks as bench

    out = tmp_path / "results.md"
    out.write_text("# Results\n\n## Metrics\n\nkept\n\n## Browser\n\nalso kept\n")
    args = ["--ranking-rows", "3000", "--regression-rows", "5000", "--labels", "4"]
    args += ["--dir", str(tmp_path), "--check", "--out", str(out)]
    assert bench.main(args) == 0
    text = out.read_text()
    rows = [line for line in text.splitlines() if line.startswith("| ") and "rows" not in line]
    assert [r.split(" | ")[0] for r in rows[1:]] == ["| regression", "| ranking", "| multilabel"]
    assert all(r.endswith("| equal to the in-memory functions |") for r in rows[1:])
    assert "## Metrics\n\nkept" in text and "## Browser\n\nalso kept" in text
    bench.write_section(text[text.index(bench.SECTION) :].replace("equal to", "EQUAL to"), out)
    again = out.read_text()
    assert again.count(bench.SECTION) == 1 and again.count("EQUAL to the in-memory") == 3
    assert "## Browser\n\nalso kept" in again
    assert not list(tmp_path.glob("*.parquet"))  # the files are removed without --keep
    # a value off by more than 1e-12 is named
    values = {"hamming_loss": 0.5, "f1_score": {"micro": 0.25}}
    want = {"hamming_loss": 0.5, "f1_score": {"micro": 0.25 * (1 + 1e-9)}}
    assert bench.different(values, want) == ["f1_score micro"]
    assert bench.different(values, values) == []


def test_by_a_column_gives_each_groups_metrics_equal_to_metric_frame(tmp_path):
    rng = np.random.default_rng(8)
    n, m = 3000, 3
    site = rng.choice(["north", "south", "west"], n)
    y = rng.integers(0, 2, n).astype(np.int8)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 2)  # ties
    w = rng.random(n)
    rel, s = rng.integers(0, 3, (n, m)), np.round(rng.random((n, m)), 2)
    table = {
        "y": y,
        "p": p,
        "w": w,
        "site": site,
        "rel": pa.array(list(rel)),
        "s": pa.array(list(s)),
        "labels": pa.array(list((rel > 0).astype(np.int8))),
    }
    path = tmp_path / "groups.parquet"
    pq.write_table(pa.table(table), path, row_group_size=700)

    def by(task, *args):  # batches of 401 rows: every group in every batch, split
        got = run_json(path, "--task", task, *args, "--by", "site", "--batch-size", 401)
        assert got["by"] == "site" and list(got["groups"]) == ["north", "south", "west"]
        return got["groups"]

    def frame(metric, yt, ys, **kw):
        return M.metric_frame(metric, yt, ys, site, n_resamples=2, **kw).value

    binary = by("binary", "--y-true", "y", "--score", "p", "--weight", "w")
    for name in ("roc_auc_score", "average_precision_score", "log_loss"):
        want = frame(getattr(M, name), y, p, sample_weight=w)
        got = [binary[g][name] for g in ("north", "south", "west")]
        np.testing.assert_allclose(got, want, rtol=1e-12, err_msg=name)
    regression = by("regression", "--y-true", "p", "--y-pred", "w")
    got = [regression[g]["r2_score"] for g in ("north", "south", "west")]
    np.testing.assert_allclose(got, frame(M.r2_score, p, w), rtol=1e-12)
    ranking = by("ranking", "--y-true", "rel", "--score", "s", "--k", "2")
    got = [ranking[g]["ndcg_score"] for g in ("north", "south", "west")]
    np.testing.assert_allclose(got, frame(functools.partial(M.ndcg_score, k=2), rel, s), rtol=1e-12)
    multilabel = by("multilabel", "--y-true", "labels", "--score", "s", "--threshold", "0.5")
    got = [multilabel[g]["hamming_loss"] for g in ("north", "south", "west")]
    np.testing.assert_allclose(got, frame(M.hamming_loss, rel > 0, s >= 0.5), rtol=1e-12)
    text = run(path, "--task", "regression", "--y-true", "p", "--y-pred", "w", "--by", "site")
    lines = text.stdout.splitlines()
    assert lines[0] == "site = north" and lines[1].split()[0] == "mean_absolute_error"
    assert float(lines[1].split()[1]) == regression["north"]["mean_absolute_error"]
    refused = run(path, "--task", "binary", "--y-true", "y", "--score", "p", "--by", "nope",
                  check=False)  # fmt: skip
    assert refused.returncode == 2 and "no column 'nope'" in refused.stderr


def test_the_batches_are_decoded_on_the_reading_thread_alone(binary_file, monkeypatch):
    # pyarrow's own pool of threads would share the two cores with the stream's threads
    import pyarrow.parquet as pq

    path, y, p, _ = binary_file
    reads, real = [], pq.ParquetFile.iter_batches

    def iter_batches(self, *args, **options):
        reads.append(options.get("use_threads", True))
        return real(self, *args, **options)

    monkeypatch.setattr(pq.ParquetFile, "iter_batches", iter_batches)
    args = cli.parse_args(["evaluate", str(path), "--task", "binary", "--y-true", "y",
                           "--score", "p"])  # fmt: skip
    assert cli.evaluate(args)["roc_auc_score"] == M.roc_auc_score(y, p)
    assert reads == [False]
