"""Parsers of the pages' URL parameters (pure: no streamlit)."""

from __future__ import annotations

import math


def finite_float(raw: str) -> float:
    """A URL parameter read as a finite float (``ValueError`` for NaN and infinities).

    Parameters
    ----------
    raw : str
        The parameter's text, as the URL carries it.

    Returns
    -------
    float

    Examples
    --------
    >>> from explorer.pages._parse import finite_float
    >>> finite_float("0.25")
    0.25
    >>> finite_float("inf")
    Traceback (most recent call last):
    ...
    ValueError: inf
    """
    value = float(raw)
    if not math.isfinite(value):
        raise ValueError(raw)
    return value
