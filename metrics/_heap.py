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

Elsewhere than glibc both do nothing. Thresholds the user set in the environment
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
import os
from collections.abc import Iterator, Mapping

__all__ = ["kept_heap", "trim_heap"]

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
    return libc if hasattr(libc, "malloc_trim") and hasattr(libc, "mallopt") else None


_LIBC = _libc()


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
