"""The check the pages' block-of-resamples intervals share: the same intervals as the
one-call-a-resample path they replaced."""

from __future__ import annotations

import numpy as np


def assert_same_intervals(got: dict, want: dict) -> None:
    """``got`` has ``want``'s labels, each interval's text and its estimate, low and high
    (to 1e-12 relative)."""
    assert list(got)[-len(want) :] == list(want)
    for label, interval in want.items():
        assert got[label].text() == interval.text(), label
        np.testing.assert_allclose(got[label][:3], interval[:3], rtol=1e-12, err_msg=label)
