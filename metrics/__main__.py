"""``python -m metrics evaluate DATA.parquet ...``: see :mod:`metrics.cli`.

On a CPU where numpy's AVX-512 sort is slow (:mod:`metrics._numpy_sort`) the
package turns that path off before it imports numpy
(:func:`metrics._numpy_sort.prepare_command`). Where numpy came first (a
``sitecustomize`` that imports it, say) the command runs itself again with it
turned off instead: numpy chooses its sort once, at import. Starting again costs
about 0.35 s, so only ``evaluate`` of a local input of at least
:data:`WORTH_BYTES` does it (a 64 MB file of 10^7 rows saves about 0.25 s of
sorting, 10^8 rows about 2 s).
"""

import os
import sys

from metrics._numpy_sort import fast_sort_environment

#: Bytes of local input (files, or a folder's files) from which starting again pays.
WORTH_BYTES = 1 << 27


def _input_bytes(path: str) -> int:
    if os.path.isfile(path):
        return os.path.getsize(path)
    if os.path.isdir(path):
        return sum(e.stat().st_size for e in os.scandir(path) if e.is_file())
    return 0


def sorts_enough(argv: list[str]) -> bool:
    """Whether the command sorts enough for numpy's faster sort to repay a new start:
    ``evaluate`` on the local engine, of files of at least :data:`WORTH_BYTES`."""
    if not argv or argv[0] != "evaluate" or "dask" in argv or "--engine=dask" in argv:
        return False
    try:
        return sum(_input_bytes(a) for a in argv[1:] if not a.startswith("-")) >= WORTH_BYTES
    except OSError:
        return False


if __name__ == "__main__":
    env = fast_sort_environment() if sorts_enough(sys.argv[1:]) else None
    if env is not None:
        sys.stdout.flush()
        os.execve(sys.executable, sys.orig_argv, env)
    from metrics.cli import main

    sys.exit(main())
