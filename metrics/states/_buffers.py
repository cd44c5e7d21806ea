"""Two buffers of uint32 values gathered over several chunks: one fills while the other,
full, is worked on by another thread (or, drained, the one full is worked on at once).

Examples
--------
>>> import numpy as np
>>> from metrics.states._buffers import Buffers
>>> held = Buffers(4)
>>> held.slot(3)[:] = [5, 6, 7]
>>> held.fits(1), held.fits(2)
(True, False)
>>> held.take().tolist(), held.count
([5, 6, 7], 0)
>>> held.slot(2)[:] = [8, 9]
>>> held.drain().tolist(), held.count, held.fits(4)
([8, 9], 0, True)
"""

from __future__ import annotations

import numpy as np

__all__ = ["Buffers"]


class Buffers:
    """uint32 values of several chunks in one buffer of ``cap`` values, taken whole
    (:meth:`take`) while the other buffer fills."""

    def __init__(self, cap: int) -> None:
        self.cap, self.count = cap, 0
        self.held = np.empty(0, dtype=np.uint32)  # allocated at the first value
        self.other = np.empty(0, dtype=np.uint32)  # the buffer taken last

    @property
    def nbytes(self) -> int:
        return int(self.held.nbytes + self.other.nbytes)

    def fits(self, n: int) -> bool:
        return self.count + n <= self.held.shape[0]

    def slot(self, n: int) -> np.ndarray:
        """Where the next ``n`` values go (:meth:`fits` them first, or empty the buffer):
        an empty buffer too small for them is made larger."""
        if not self.fits(n):
            assert self.count == 0, "a full buffer is emptied before more values are put"
            self.held = np.empty(max(n, self.cap), dtype=np.uint32)
        self.count += n
        return self.held[self.count - n : self.count]

    def drain(self) -> np.ndarray | None:
        """The values held (a view of their buffer, to be used before the next value is
        put), this buffer filled again from now on; None without any."""
        if self.count == 0:
            return None
        held, self.count = self.held[: self.count], 0
        return held

    def take(self) -> np.ndarray | None:
        """The values held (a view of their buffer, theirs until the next take), the other
        buffer filled from now on; None without any."""
        if self.count == 0:
            return None
        held = self.held[: self.count]
        self.held, self.other, self.count = self.other, self.held, 0
        return held
