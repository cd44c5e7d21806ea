"""The package as an engineer installs it: a wheel built from the repository, installed
into a fresh venv, used from outside the source tree.

The venv's numpy, pandas, streamlit... come from the test interpreter's site-packages
through a .pth file (no download in a test); the project itself only from the wheel.
``metrics`` is also checked in a venv that sees numpy and pandas only (and what they
need): a folder of links to those installs. With ``WHEEL_FULL=1`` the done-criterion runs
too: ``pip install`` of the wheel with its dependencies from the package index into fresh
venvs (metrics alone, then ``[app]``), and ``metric-explorer`` from there on trec_eval's
test collection, LightGBM's lambdarank example and a CSV, each page's headline equal to
pytrec_eval, LightGBM and scikit-learn (minutes: downloads).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
import venv
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import metrics
from tests.conftest import ROOT

#: What the wheel is built from (a copy: a build writes build/ and *.egg-info beside it).
SOURCES = ("pyproject.toml", "README.md", "LICENSE", "app.py")
PACKAGES = ("metrics", "explorer", "views", "sample_data")


def _run(*cmd, cwd: Path, **kw) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(c) for c in cmd], cwd=cwd, capture_output=True, text=True, timeout=300, **kw
    )


@pytest.fixture(scope="module")
def wheel(tmp_path_factory) -> Path:
    """The wheel built from a copy of the sources."""
    tmp = tmp_path_factory.mktemp("package")
    src = tmp / "src"
    src.mkdir()
    for name in SOURCES:
        shutil.copy2(ROOT / name, src / name)
    for name in PACKAGES:
        shutil.copytree(ROOT / name, src / name, ignore=shutil.ignore_patterns("__pycache__"))
    import setuptools

    major = int(setuptools.__version__.split(".")[0])
    assert major >= 77, "requirements-dev.txt's setuptools builds the wheel: python3 dev.py test"
    built = _run(sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                 "-q", "-w", tmp / "dist", src, cwd=tmp)  # fmt: skip
    assert built.returncode == 0, built.stderr
    (built_wheel,) = (tmp / "dist").glob("metric_explorer-*.whl")
    return built_wheel


@pytest.fixture(scope="module")
def installed(wheel, tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; returns its bin/ folder."""
    tmp = tmp_path_factory.mktemp("venv")
    env_dir = tmp / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    (site,) = env_dir.glob("lib/python3*/site-packages")
    deps = [p for p in sys.path if p.endswith("site-packages") and Path(p).is_dir()]
    (site / "deps-from-tests.pth").write_text("\n".join(deps) + "\n")
    bin_dir = env_dir / "bin"
    done = _run(bin_dir / "python", "-m", "pip", "install", "--no-deps", "--no-index", "-q",
                wheel, cwd=tmp)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return bin_dir


def test_metrics_imports_from_the_wheel_and_its_cli_runs(installed, tmp_path):
    where = _run(installed / "python", "-c",
                 "import metrics, explorer; print(metrics.__file__, explorer.__file__)",
                 cwd=tmp_path)  # fmt: skip
    assert where.returncode == 0, where.stderr
    site = str(installed.parent / "lib")
    assert all(path.startswith(site) for path in where.stdout.split()), where.stdout
    root = Path(where.stdout.split()[0]).parents[1]  # app.py and the gallery beside them
    assert (root / "app.py").is_file() and (root / "sample_data" / "index.csv").is_file()
    assert (root / "views" / "curves" / "static" / "operating_point.js").is_file()
    assert (root / "views" / "data" / "static" / "table_entry.js").is_file()
    assert (root / "explorer" / "locale" / "zh" / "common.toml").is_file()
    assert (root / "views" / "home" / "text.zh.md").is_file()
    y, p = np.array([0, 1, 1, 0, 1]), np.array([0.1, 0.8, 0.4, 0.35, 0.9])
    pq.write_table(pa.table({"y": y, "p": p}), tmp_path / "d.parquet")
    ev = _run(installed / "python", "-m", "metrics", "evaluate", "d.parquet", "--task",
              "binary", "--y-true", "y", "--score", "p", "--json", "--no-progress",
              cwd=tmp_path)  # fmt: skip
    assert ev.returncode == 0, ev.stderr
    assert json.loads(ev.stdout)["roc_auc_score"] == metrics.roc_auc_score(y, p)


def _get(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=30) as r:
            return r.status
    except (urllib.error.URLError, OSError):
        return 0


def test_metric_explorer_opens_a_csv_and_trec_files(installed, tmp_path):
    (tmp_path / "bad.csv").write_text("y_true,y_score\n0,0.1\n1,n/a\n")
    refused = _run(installed / "metric-explorer", "bad.csv", cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr.startswith("metric-explorer: bad.csv, line 3")
    (tmp_path / "s.csv").write_text("y_true,y_score\n0,0.1\n1,0.8\n1,0.4\n0,0.35\n")
    (tmp_path / "qrels").write_text("q1 0 d1 1\nq1 0 d2 0\n")
    (tmp_path / "run").write_text("q1 Q0 d1 1 3.5 bm25\nq1 Q0 d2 2 2.0 bm25\n")
    cmd = [installed / "metric-explorer", "s.csv", "--qrels", "qrels", "--run", "run",
           "--no-browser"]  # fmt: skip
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    proc = subprocess.Popen(cmd, cwd=tmp_path, stdout=subprocess.PIPE, text=True, env=env)
    try:
        first, also = proc.stdout.readline(), proc.stdout.readline()
        assert first.startswith("Metric Explorer: http://127.0.0.1:"), first
        url = first.split(": ", 1)[1].strip()
        base = url.split("/curves?")[0]
        assert url == f"{base}/curves?ds=s.csv"
        assert also.strip() == f"also: {base}/retrieval?ds=run"  # TREC: Top-K retrieval
        assert _get(url) == 200 and _get(f"{base}/_stcore/health") == 200
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    assert _get(f"{base}/_stcore/health") == 0  # the command took its server with it


# ------------------------------------------------------------------ metrics alone
TREC = ROOT / "tests" / "data" / "trec_eval"
LIGHTGBM = ROOT / "tests" / "data" / "lightgbm"


def _needed(names: list[str]) -> set[str]:
    """These distributions and every one they need at run time (markers read, no extras)."""
    from importlib import metadata

    from packaging.requirements import Requirement

    seen: set[str] = set()
    todo = list(names)
    while todo:
        name = todo.pop().lower().replace("_", "-")
        if name in seen:
            continue
        seen.add(name)
        for text in metadata.requires(name) or ():
            req = Requirement(text)
            if req.marker is None or req.marker.evaluate({"extra": ""}):
                todo.append(req.name)
    return seen


def _links_to(names: list[str], folder: Path) -> Path:
    """A folder holding links to the test interpreter's installs of ``names`` (and what
    they need): a venv given only this folder sees those packages and nothing else."""
    from importlib import metadata

    folder.mkdir()
    for name in _needed(names):
        dist = metadata.distribution(name)
        for top in {Path(str(f)).parts[0] for f in dist.files or ()}:
            source = Path(str(dist.locate_file(top)))
            if source.exists() and not (folder / top).exists() and top != "..":
                (folder / top).symlink_to(source)
    return folder


def test_metrics_alone_needs_numpy_and_pandas_only(wheel, tmp_path):
    """The wheel in a venv that sees numpy and pandas only: metrics imports, streamlit and
    pyarrow are out of reach, and ``python -m metrics trec`` prints trec_eval's own
    report of its test collection, byte for byte."""
    env_dir = tmp_path / "venv"
    venv.EnvBuilder(with_pip=False).create(env_dir)
    (site,) = env_dir.glob("lib/python3*/site-packages")
    only = _links_to(["numpy", "pandas"], tmp_path / "numpy-and-pandas")
    (site / "numpy-and-pandas.pth").write_text(f"{only}\n")
    python = env_dir / "bin" / "python"
    # the tests' pip into the venv's site-packages (the venv has no pip of its own)
    done = _run(sys.executable, "-m", "pip", "--disable-pip-version-check", "install",
                "--no-deps", "--no-index", "-q", "--target", site, wheel, cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    probe = (
        "import importlib.util as u, metrics; "
        "print(metrics.__file__, [m for m in ('streamlit', 'pyarrow', 'sklearn', 'plotly') "
        "if u.find_spec(m)])"
    )
    where = _run(python, "-c", probe, cwd=tmp_path)
    assert where.returncode == 0, where.stderr
    assert where.stdout.startswith(str(site)) and where.stdout.rstrip().endswith("[]")
    report = _run(python, "-m", "metrics", "trec", TREC / "qrels.test", TREC / "results.test",
                  cwd=tmp_path)  # fmt: skip
    assert report.returncode == 0, report.stderr
    assert report.stdout == (TREC / "out.test").read_text()


# ------------------------------------------ WHEEL_FULL=1: the done-criterion
FULL = pytest.mark.skipif(
    os.environ.get("WHEEL_FULL") != "1",
    reason="WHEEL_FULL=1: pip install from the package index into fresh venvs (minutes)",
)

#: Run in the installed app's venv: plan the command line as metric-explorer does, open
#: its page on the same manifest with AppTest (Streamlit draws in the browser: the headline
#: is read as tests/views/test_launch_app.py reads it) and print the page's metrics.
HEADLINE = """
import json, os, sys, tempfile
from pathlib import Path
from streamlit.testing.v1 import AppTest
import explorer
from explorer import launch, opened, registry
argv, extra = sys.argv[1:-1], json.loads(sys.argv[-1])
chosen = launch.plan(launch.parse_args(argv))
manifest = Path(tempfile.mkdtemp()) / "open.json"
for entry in chosen.entries:
    opened.add_entry(manifest, entry)
os.environ[opened.ENV] = str(manifest)
at = AppTest.from_file(str(Path(explorer.__file__).parents[1] / "app.py"), default_timeout=120)
at.query_params.update({"ds": chosen.first, **chosen.params, **extra})
at.run()
at.switch_page(registry.script(chosen.page)).run()
assert not at.exception, at.exception
print(json.dumps({m.label: m.value for m in at.metric}))
"""


def _pip_install(env_dir: Path, spec: str, cwd: Path) -> Path:
    venv.EnvBuilder(with_pip=True).create(env_dir)
    python = env_dir / "bin" / "python"
    done = subprocess.run([str(python), "-m", "pip", "install", "-q", spec], cwd=cwd,
                          capture_output=True, text=True, timeout=1800)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return env_dir / "bin"


@pytest.fixture(scope="module")
def from_index(wheel, tmp_path_factory) -> dict[str, Path]:
    """Fresh venvs with the wheel and its dependencies from the package index: ``metrics``
    (numpy and pandas, by the pinned ranges) and ``app`` (the extra [app])."""
    tmp = tmp_path_factory.mktemp("index")
    return {
        "metrics": _pip_install(tmp / "metrics", str(wheel), tmp),
        "app": _pip_install(tmp / "app", f"{wheel}[app]", tmp),
    }


@FULL
def test_full_metrics_from_the_index_import_with_numpy_and_pandas(from_index, tmp_path):
    python = from_index["metrics"] / "python"
    listed = _run(python, "-m", "pip", "list", "--format=json", cwd=tmp_path)
    names = {p["name"].lower() for p in json.loads(listed.stdout)}
    assert {"numpy", "pandas", "metric-explorer"} <= names
    assert not names & {"streamlit", "plotly", "pyarrow", "scikit-learn"}
    report = _run(python, "-m", "metrics", "trec", TREC / "qrels.test", TREC / "results.test",
                  cwd=tmp_path)  # fmt: skip
    assert report.returncode == 0 and report.stdout == (TREC / "out.test").read_text()


def _served(bin_dir: Path, argv: list, cwd: Path) -> str:
    """The address ``metric-explorer argv`` prints, after checking its server answers it."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    cmd = [str(bin_dir / "metric-explorer"), *map(str, argv), "--no-browser"]
    proc = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE, text=True, env=env)
    try:
        first = proc.stdout.readline()
        assert first.startswith("Metric Explorer: http://127.0.0.1:"), first
        url = first.split(": ", 1)[1].strip()
        assert _get(url) == 200
        return url
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def _headline(bin_dir: Path, argv: list, cwd: Path, **extra) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([str(bin_dir / "python"), "-c", HEADLINE, *map(str, argv),
                           json.dumps(extra)], cwd=cwd, capture_output=True, text=True,
                          timeout=600, env=env)  # fmt: skip
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@FULL
def test_full_metric_explorer_opens_trec_lightgbm_and_a_csv_with_their_tools_numbers(
    from_index, tmp_path
):
    import pytrec_eval
    from sklearn import metrics as skm

    from explorer.formatting import fmt

    app = from_index["app"]
    # trec_eval's test collection on Top-K retrieval: pytrec_eval's P_10, map_cut_10, ndcg_cut_10
    trec = ["--qrels", TREC / "qrels.test", "--run", TREC / "results.test"]
    assert _served(app, trec, tmp_path).split("/", 3)[3] == "retrieval?ds=results.test"
    qrels = pytrec_eval.parse_qrel((TREC / "qrels.test").open())
    run = pytrec_eval.parse_run((TREC / "results.test").open())
    wanted = {"P_10": "P@K", "map_cut_10": "MAP@K", "ndcg_cut_10": "NDCG@K"}
    per_query = pytrec_eval.RelevanceEvaluator(qrels, set(wanted)).evaluate(run)
    # trec_eval's preset alone in the link sets its conventions
    shown = _headline(app, trec, tmp_path, k="10", preset="trec_eval")
    for measure, label in wanted.items():
        mean = float(np.mean([q[measure] for q in per_query.values()]))
        assert shown[label] == fmt(mean), (label, shown[label], mean)
    # LightGBM's lambdarank example on DCG & NDCG, its conventions: LightGBM's ndcg@1,3,5
    ltr = ["--ltr", *(LIGHTGBM / n for n in ("rank.test", "rank.test.pred", "rank.test.query"))]
    url = _served(app, ltr, tmp_path)
    assert url.split("/", 3)[3].startswith("dcg?ds=rank.test&preset=lightgbm&gain=exponential")
    evals = json.loads((LIGHTGBM / "eval.json").read_text())["ndcg"]["test"]
    for k in (1, 3, 5):
        assert _headline(app, ltr, tmp_path, k=str(k))["NDCG"] == fmt(evals[f"ndcg@{k}"])
    # a CSV on ROC & PR: scikit-learn's ROC AUC and average precision
    rng = np.random.default_rng(5)
    y = rng.integers(0, 2, 300)
    p = np.round(np.clip(0.35 * y + 0.65 * rng.random(300), 0, 1), 3)
    (tmp_path / "model.csv").write_text(
        "y_true,y_score\n" + "".join(f"{a},{b}\n" for a, b in zip(y, p, strict=True))
    )
    assert _served(app, ["model.csv"], tmp_path).split("/", 3)[3] == "curves?ds=model.csv"
    shown = _headline(app, [tmp_path / "model.csv"], tmp_path)
    assert shown["ROC AUC"] == fmt(skm.roc_auc_score(y, p))
    assert shown["Average precision"] == fmt(skm.average_precision_score(y, p))
