"""``python -m metrics evaluate DATA.parquet ...``: see :mod:`metrics.cli`."""

import sys

from metrics.cli import main, return_freed_memory

if __name__ == "__main__":
    return_freed_memory()  # process-wide allocator settings: the command's own process only
    sys.exit(main())
