"""``python -m metrics evaluate DATA.parquet ...``: see :mod:`metrics.cli`.

On a CPU where numpy's AVX-512 sort is slow (:mod:`metrics._numpy_sort`) the
command first runs itself again with that path turned off: numpy chooses its
sort once, at import, and this package has imported it by now.
"""

import os
import sys

from metrics._numpy_sort import fast_sort_environment

if __name__ == "__main__":
    env = fast_sort_environment()
    if env is not None:
        sys.stdout.flush()
        os.execve(sys.executable, sys.orig_argv, env)
    from metrics.cli import main

    sys.exit(main())
