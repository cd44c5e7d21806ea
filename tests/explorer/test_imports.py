"""How explorer/io imports itself: DataError without the readers."""

from __future__ import annotations

import subprocess
import sys

import pytest

import explorer.io
from tests.conftest import ROOT


def _modules_after(code: str) -> set[str]:
    """The modules a fresh interpreter holds after running ``code``."""
    out = subprocess.run(
        [sys.executable, "-c", f"{code}\nimport sys\nprint(' '.join(sys.modules))"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    return set(out.split())


@pytest.mark.parametrize(
    "code", ["import explorer.io.errors", "from explorer.io import DataError", "import explorer.io"]
)
def test_data_error_comes_without_the_readers(code):
    loaded = _modules_after(code)
    assert "explorer.io.errors" in loaded or code == "import explorer.io"
    readers = {m for m in loaded if m.startswith("explorer.io.") and m != "explorer.io.errors"}
    assert readers == set()
    assert not {"pandas", "pyarrow", "numpy", "explorer.datasets"} & loaded


def test_datasets_comes_without_the_readers():
    loaded = _modules_after("import explorer.datasets")
    assert not {m for m in loaded if m.startswith("explorer.io")}


def test_every_public_name_is_served_by_the_package():
    for name in explorer.io.__all__:
        value = getattr(explorer.io, name)
        assert value is getattr(sys.modules[f"explorer.io.{explorer.io._HOME[name]}"], name)
    assert set(explorer.io.__all__) <= set(dir(explorer.io))
    with pytest.raises(AttributeError, match="no attribute 'read_excel'"):
        explorer.io.read_excel  # noqa: B018
