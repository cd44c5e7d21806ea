"""The package as an engineer installs it: a wheel built from the repository, installed
into a fresh venv, used from outside the source tree.

The venv's numpy, pandas, streamlit... come from the test interpreter's site-packages
through a .pth file (no download in a test); the project itself only from the wheel.
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
def installed(tmp_path_factory) -> Path:
    """A fresh venv with the wheel installed; returns its bin/ folder."""
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
    (wheel,) = (tmp / "dist").glob("metric_explorer-*.whl")
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
