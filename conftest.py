"""Collection rules for the whole repository (doctests of optional modules)."""

import importlib.util
import os

# metrics/distributed.py's examples need the optional Dask extra (requirements-dask.txt);
# without it they are not collected, except in CI (CI=true), where a missing Dask fails.
collect_ignore = []
if importlib.util.find_spec("dask") is None and os.environ.get("CI") != "true":
    collect_ignore.append("metrics/distributed.py")
