"""Collection rules and fixtures for the whole repository (doctests included)."""

import importlib.util
import os
import sys

import pytest

# metrics/distributed.py's examples need the optional Dask extra (requirements-dask.txt);
# without it they are not collected, except in CI (CI=true), where a missing Dask fails.
collect_ignore = []
# the scripts that made the peers' fixtures import the peers (ranx, ir_measures), which are
# no test dependency: they ran once in a scratch venv, and their output is what is tested
collect_ignore_glob = ["tests/fixtures/*"]
_NO_DASK = "dask" in sys.modules and sys.modules["dask"] is None  # hidden by a test
if (_NO_DASK or importlib.util.find_spec("dask") is None) and os.environ.get("CI") != "true":
    collect_ignore.append("metrics/distributed.py")


@pytest.fixture(autouse=True)
def _keep_main_module():
    """An AppTest run makes its script ``sys.modules["__main__"]`` and leaves it there; a
    later test that spawns processes (the Dask cluster) would then start each one by
    running that script (an ``AppTest.from_function`` page fails there). Put it back."""
    main = sys.modules.get("__main__")
    yield
    if main is not None and sys.modules.get("__main__") is not main:
        sys.modules["__main__"] = main
