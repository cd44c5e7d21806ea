"""glibc's heap: handed back to the system at a stream's large merges, or kept between the
batches of the ranking, multilabel and regression streams.

A ranking or multilabel batch (about 2^21 values) is widened to float64 matrices of about
8 MB, made and freed again every batch (a regression batch's columns, 2^20 rows, are as
large). glibc maps a block that large on its own and
unmaps it when it is freed (and trims the top of its heap past 128 KiB), so every batch's
arrays are mapped afresh and the kernel zeroes their pages on first touch. On 5 x 10^6
rows of 20 items (a quiet 2-core machine, 2026-12-03) the ranking command took about
500,000 page faults and 1.5-2.2 s of system time of its 6.4-7.1 CPU s.
:func:`kept_heap` raises glibc's thresholds (``mallopt``) while such a command streams,
so the freed blocks are reused: 0.4 s of system time, the peak within a few MB (bench
numbers in docs/out-of-core.md). The binary stream keeps the defaults: its tables are
large and it hands their memory back itself (:func:`trim_heap`); kept, its peak rose by
60 MB for no gain (measured).

:func:`drop_pages` hands back the pages of an array's rows read for the last time (a
dense pool's blocks as its table is written).

Elsewhere than glibc they do nothing. Thresholds the user set in the environment
(``MALLOC_TRIM_THRESHOLD_``, ``MALLOC_MMAP_THRESHOLD_``, ``MALLOC_TOP_PAD_``) are left as
they are.

Examples
--------
>>> from metrics._heap import kept_heap, trim_heap
>>> with kept_heap():
...     pass
>>> trim_heap()
"""

from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import mmap
import os
import sys
from collections.abc import Iterator, Mapping

__all__ = ["drop_pages", "kept_heap", "trim_heap"]

#: ``madvise``'s advice that hands pages back at once (Linux): read again, they are zeros.
MADV_DONTNEED = 4

#: ``mallopt`` parameters (glibc's malloc.h).
M_TRIM_THRESHOLD, M_MMAP_THRESHOLD = -1, -3
#: While kept: blocks below 32 MiB come from the heap, and up to 256 MiB free at its top stay.
KEPT = {M_MMAP_THRESHOLD: 32 << 20, M_TRIM_THRESHOLD: 256 << 20}
#: glibc's starting values, set again after (its sliding mmap threshold stays off: setting
#: a threshold turns it off, and nothing turns it back on).
DEFAULTS = {M_TRIM_THRESHOLD: 128 << 10, M_MMAP_THRESHOLD: 128 << 10}
#: The variables through which a user sets glibc's thresholds themselves.
VARIABLES = ("MALLOC_TRIM_THRESHOLD_", "MALLOC_MMAP_THRESHOLD_", "MALLOC_TOP_PAD_")


def _libc():
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:  # no C library to load: nothing to tune
        return None
    glibc = hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt")
    return libc if glibc and hasattr(libc, "madvise") else None


_LIBC = _libc()


def drop_pages(address: int, nbytes: int) -> None:
    """Hand back to the system the whole pages within ``nbytes`` bytes from ``address``
    (``madvise``, glibc on Linux; elsewhere nothing): memory read for the last time, whose
    values there turn to zeros. A dense pool drops each block's pages as its table rows
    are written, so the pool and the table are not both whole at the peak."""
    if _LIBC is None or not sys.platform.startswith("linux"):
        return
    lo = -(-address // mmap.PAGESIZE) * mmap.PAGESIZE
    hi = (address + nbytes) // mmap.PAGESIZE * mmap.PAGESIZE
    if hi > lo:
        _LIBC.madvise(ctypes.c_void_p(lo), ctypes.c_size_t(hi - lo), MADV_DONTNEED)


def trim_heap() -> None:
    """glibc's ``malloc_trim``: the C heap's free memory handed back to the system (a
    no-op elsewhere)."""
    if _LIBC is not None:
        _LIBC.malloc_trim(0)


@contextlib.contextmanager
def kept_heap(environ: Mapping[str, str] | None = None) -> Iterator[None]:
    """glibc's heap kept between batches inside the block (:data:`KEPT`); its defaults
    and the memory handed back after it. Nothing when the user set one of
    :data:`VARIABLES` (in ``environ``, ``os.environ`` by default)."""
    environ = os.environ if environ is None else environ
    if _LIBC is None or any(v in environ for v in VARIABLES):
        yield
        return
    for param, value in KEPT.items():
        _LIBC.mallopt(param, value)
    try:
        yield
    finally:
        for param, value in DEFAULTS.items():
            _LIBC.mallopt(param, value)
        trim_heap()
