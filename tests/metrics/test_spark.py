"""The Spark recipe of docs/out-of-core.md, run as written on a local Spark session.

Spark is not a dependency of the project, not even for tests: this module
runs when ``pyspark`` is importable and a Java runtime is on the PATH, and
skips otherwise (in CI too). The recipe's Python block is taken from the
document and run with the path of a small Parquet folder in place of
``s3://bucket/scores/``, so what the document shows is what is tested.
"""

from __future__ import annotations

import os
import re
import shutil
import sys
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq
import pytest

import metrics as M

ROOT = Path(__file__).resolve().parents[2]

pytest.importorskip("pyspark", reason="pyspark is not installed (it is optional)")
if shutil.which("java") is None:
    pytest.skip("no Java runtime for Spark", allow_module_level=True)


def recipe() -> str:
    """The Python block of section 4 of docs/out-of-core.md."""
    text = (ROOT / "docs" / "out-of-core.md").read_text(encoding="utf-8")
    section = text.split("## 4.", 1)[1].split("\n## ", 1)[0]
    return re.search(r"```python\n(.*?)```", section, re.S).group(1)


def test_the_documented_spark_recipe_gives_the_in_memory_values(tmp_path, monkeypatch):
    rng = np.random.default_rng(45)
    n = 5000
    y = rng.integers(0, 2, n).astype(np.int8)
    p = np.round(np.clip(0.3 * y + 0.7 * rng.random(n), 0, 1), 3)
    w = rng.random(n)
    folder = tmp_path / "scores"
    folder.mkdir()
    for i, part in enumerate(np.array_split(np.arange(n), 3)):
        table = pa.table({"y": y[part], "p": p[part], "w": w[part]})
        pq.write_table(table, folder / f"part{i}.parquet", row_group_size=600)
    # the executors' Python: this interpreter, seeing this repository's metrics
    monkeypatch.setenv("PYSPARK_PYTHON", sys.executable)
    monkeypatch.setenv("PYSPARK_DRIVER_PYTHON", sys.executable)
    path = os.pathsep.join([str(ROOT), *os.environ.get("PYTHONPATH", "").split(os.pathsep)])
    monkeypatch.setenv("PYTHONPATH", path)
    code = recipe().replace("s3://bucket/scores/", str(folder))
    code = code.replace(
        "SparkSession.builder.getOrCreate()",
        'SparkSession.builder.master("local[2]").config("spark.ui.enabled", "false")'
        '.config("spark.sql.shuffle.partitions", "2").getOrCreate()',
    )
    scope: dict = {}
    try:
        exec(compile(code, "docs/out-of-core.md", "exec"), scope)
        state, rows = scope["state"], scope["rows"]
        assert len(rows) >= 2  # one state per partition, merged on the driver
        got = state.finalize()
    finally:
        if "spark" in scope:
            scope["spark"].stop()
    np.testing.assert_allclose(got["roc_auc_score"], M.roc_auc_score(y, p, sample_weight=w),
                               rtol=1e-12)  # fmt: skip
    np.testing.assert_allclose(
        got["average_precision_score"], M.average_precision_score(y, p, sample_weight=w),
        rtol=1e-12,
    )  # fmt: skip
    np.testing.assert_allclose(got["log_loss"], M.log_loss(y, p, sample_weight=w), rtol=1e-12)
    cm = M.confusion_matrix(y, (p >= 0.5).astype(int), labels=[0, 1], sample_weight=w)
    np.testing.assert_allclose(got["confusion_matrix"], cm, rtol=1e-12)
