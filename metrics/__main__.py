"""``python -m metrics evaluate DATA.parquet ...``: see :mod:`metrics.cli`."""

import sys

from metrics.cli import main

if __name__ == "__main__":
    sys.exit(main())
