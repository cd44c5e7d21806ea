"""How numbers are written on the pages, so tests and users read the same text."""

from __future__ import annotations

import math

import pandas as pd

#: What a table shows for a cell with no value (a bin with no samples, a constraint
#: no threshold meets, a false label's rank term); st.dataframe would write "None".
MISSING = "—"


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


def _cell(value) -> str:
    if value is None or (not isinstance(value, str) and pd.isna(value)):
        return MISSING
    if isinstance(value, float):
        return f"{value:+.6g}" if math.isinf(value) else f"{value:.6g}"
    return str(value)


def dash_missing(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` as a page shows it: a missing cell (None, NaN, ``<NA>``) reads "—".

    Only the columns with a missing cell change, to text (floats to 6 significant
    digits); the others keep their type, so they still sort as numbers. A table with
    nothing missing comes back as it is (the same object).

    Examples
    --------
    >>> t = pd.DataFrame({"bin": [1, 2], "mean": [0.25, float("nan")], "n": [3, None]})
    >>> shown = dash_missing(t)
    >>> shown["mean"].tolist(), shown["n"].tolist(), shown["bin"].dtype.kind
    (['0.25', '—'], ['3', '—'], 'i')
    >>> dash_missing(shown) is shown
    True
    >>> dash_missing(pd.DataFrame({"t": [float("inf"), None]}))["t"].tolist()
    ['+inf', '—']
    """
    gaps = [c for c in table.columns if table[c].isna().any()]
    if not gaps:
        return table
    shown = table.copy()
    for column in gaps:
        whole = pd.api.types.is_float_dtype(table[column]) and bool(
            (table[column].dropna() % 1 == 0).all()
        )
        values = table[column].astype("Int64") if whole else table[column]
        shown[column] = [_cell(v) for v in values.astype(object)]
    return shown


def undash(table: pd.DataFrame) -> pd.DataFrame:
    """The numbers back from a :func:`dash_missing` table: its text columns that hold
    only numbers and dashes become numbers again, a dash NaN (what a test reads).

    Examples
    --------
    >>> t = pd.DataFrame({"x": [0.25, float("nan")], "name": ["a", "b"]})
    >>> back = undash(dash_missing(t))
    >>> back["x"].tolist()[0], bool(back["x"].isna().iloc[1]), back["name"].tolist()
    (0.25, True, ['a', 'b'])
    """
    out = table.copy()
    for column in out.columns:
        text = out[column]
        if pd.api.types.is_numeric_dtype(text) or not (text.astype(object) == MISSING).any():
            continue
        text = text.astype(object)
        numbers = pd.to_numeric(text.where(text != MISSING), errors="coerce")
        if numbers.notna().sum() == (text != MISSING).sum():
            out[column] = numbers
    return out
