"""Collection rules for the whole repository (doctests of optional modules)."""

import importlib.util
import os
import sys

# metrics/distributed.py's examples need the optional Dask extra (requirements-dask.txt);
# without it they are not collected, except in CI (CI=true), where a missing Dask fails.
collect_ignore = []
_NO_DASK = "dask" in sys.modules and sys.modules["dask"] is None  # hidden by a test
if (_NO_DASK or importlib.util.find_spec("dask") is None) and os.environ.get("CI") != "true":
    collect_ignore.append("metrics/distributed.py")
