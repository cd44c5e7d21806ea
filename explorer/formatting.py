"""How numbers are written on the pages, so tests and users read the same text."""

from __future__ import annotations

import math


def fmt(value: float, digits: int = 4) -> str:
    """Format a headline number with ``digits`` significant digits (at least 3).

    Values of magnitude >= 1e-3 print as plain decimals (trailing zeros kept
    to show the precision), smaller ones in scientific notation.

    Examples
    --------
    >>> fmt(0.7777777), fmt(9.49954), fmt(1.0), fmt(0.0), fmt(2.2e-16)
    ('0.7778', '9.500', '1.000', '0', '2.200e-16')
    >>> fmt(1234.5678)
    '1235'
    """
    value = float(value)
    if value == 0:
        return "0"
    if not math.isfinite(value):
        return str(value)
    if abs(value) < 1e-3:
        return f"{value:.{digits - 1}e}"
    magnitude = math.floor(math.log10(abs(value)))
    decimals = max(digits - 1 - magnitude, 0)
    return f"{value:.{decimals}f}"
