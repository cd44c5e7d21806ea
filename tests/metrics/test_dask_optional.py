"""Dask is optional: without it test_dask.py skips, except in CI (CI=true), where it fails."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# run pytest on test_dask.py as if dask were not installed (None in sys.modules makes
# every import of it fail), with or without CI=true
HIDE_DASK = (
    "import os, sys, pytest\n"
    "for m in ('dask', 'dask.distributed', 'distributed'): sys.modules[m] = None\n"
    "os.environ.pop('CI', None)\n"
    "if sys.argv[1] == 'ci': os.environ['CI'] = 'true'\n"
    "sys.exit(pytest.main(['-q', '-p', 'no:cacheprovider', '-n', '0', '-rs',\n"
    "    'tests/metrics/test_dask.py', 'metrics', '-k', 'dask or distributed']))\n"
)


@pytest.mark.parametrize("ci", [False, True])
def test_without_dask_the_cluster_tests_skip_locally_and_fail_in_ci(ci):
    proc = subprocess.run(
        [sys.executable, "-c", HIDE_DASK, "ci" if ci else "local"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    if ci:
        assert proc.returncode != 0, proc.stdout
        assert "ModuleNotFoundError" in proc.stdout or "ImportError" in proc.stdout
    else:
        # 5: nothing ran (the module skipped, metrics/distributed.py's examples not collected)
        assert proc.returncode in (0, 5), proc.stdout + proc.stderr
        assert "the optional Dask extra is not installed" in proc.stdout
        assert "failed" not in proc.stdout and "error" not in proc.stdout
