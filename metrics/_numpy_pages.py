"""numpy's transparent huge pages, turned off while the out-of-core command streams.

On Linux numpy asks the kernel for transparent huge pages (``madvise(MADV_HUGEPAGE)``)
for the data of every array of 4 MiB or more. The binary stream makes and frees several
such temporaries a batch (the batch's score bits and labels, the dense blocks' index,
what is left of them), and the kernel zeroes each one's fresh memory 2 MiB
at a time on first touch. On 10^8 rows of float32 scores (a quiet 2-core machine, ten
runs of each, alternated) the command took 1.4-1.9 s of system time with numpy's huge
pages and 0.7-0.9 s without (``clear_page_erms``, the kernel zeroing pages, was a tenth
of the command's CPU in ``perf``), and 7.0-7.7 s of wall against 6.4-7.0, at the same
user time and peak (773-811 MB either way); the dense blocks' scatter is no faster on
huge pages (26.1 ns a sample against 25.3, bench/results.md). The other tasks' batches
are smaller: no difference there (ranking and multilabel, two runs each).

numpy reads ``NUMPY_MADVISE_HUGEPAGE`` once, when it is imported, and keeps the setting
in a flag of its own that :func:`small_pages` turns off for a block of code and back on
after it. A value the user set in the variable, even 1, is left as it is.

Examples
--------
>>> from metrics._numpy_pages import huge_pages, small_pages
>>> before = huge_pages()
>>> with small_pages({}):
...     huge_pages()
False
>>> huge_pages() == before
True
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator, Mapping

import numpy as np

__all__ = ["VARIABLE", "huge_pages", "small_pages"]

#: The variable numpy reads at import (0 turns its huge pages off in every process it
#: starts in: what a Dask worker is given, ``bench/streaming.py``).
VARIABLE = "NUMPY_MADVISE_HUGEPAGE"


def _flag(name: str):
    """numpy's getter or setter of its huge-page flag (None on a numpy without one)."""
    return getattr(getattr(getattr(np, "_core", None), "multiarray", None), name, None)


def huge_pages() -> bool:
    """Whether numpy asks for huge pages for the large arrays it makes now."""
    get = _flag("_get_madvise_hugepage")
    return bool(get()) if get is not None else False


@contextlib.contextmanager
def small_pages(environ: Mapping[str, str] | None = None) -> Iterator[None]:
    """numpy's huge pages off inside the block, as they were after it; left as they are
    when the user set :data:`VARIABLE` (in ``environ``, ``os.environ`` by default)."""
    environ = os.environ if environ is None else environ
    put = _flag("_set_madvise_hugepage")
    if put is None or VARIABLE in environ:
        yield
        return
    before = put(False)
    try:
        yield
    finally:
        put(before)
