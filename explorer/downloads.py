"""CSV downloads that a spreadsheet opens as data, never as formulas.

A sample id, a label name or a model name comes from whoever made the file or
the link: ``=HYPERLINK("http://evil", "click")`` is a fine id to the explorer,
and a live formula to Excel or LibreOffice. :func:`csv_text` writes a table
as CSV with every text cell (and column name) that a spreadsheet would read as
a formula prefixed by a single quote, as OWASP recommends against CSV
injection: a cell starting with ``=``, ``+``, ``-``, ``@``, a tab or a
carriage return. Numbers stay numbers, negative ones included, whether the
column holds floats or texts such as ``"-1.5"``.
"""

from __future__ import annotations

import re

import pandas as pd

__all__ = ["FORMULA_START", "csv_text", "neutralised"]

#: The first characters that make a spreadsheet read a cell as a formula (OWASP).
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def neutralised(value):
    """``value`` with a leading single quote when a spreadsheet would run it as a formula.

    Only text is changed, and only text that starts with one of
    :data:`FORMULA_START` and is not a plain number.

    Examples
    --------
    >>> neutralised("=1+1"), neutralised("@SUM(A1)"), neutralised("-2+3")
    ("'=1+1", "'@SUM(A1)", "'-2+3")
    >>> neutralised("-1.5"), neutralised("+3e-2"), neutralised(-1.5), neutralised("q-7")
    ('-1.5', '+3e-2', -1.5, 'q-7')
    """
    if isinstance(value, str) and value.startswith(FORMULA_START) and not _NUMBER.fullmatch(value):
        return "'" + value
    return value


def _column(s: pd.Series) -> pd.Series:
    if pd.api.types.is_numeric_dtype(s.dtype) or pd.api.types.is_bool_dtype(s.dtype):
        return s  # numbers are written as numbers
    text = s.map(lambda v: v if isinstance(v, str) else None)
    risky = text.str.startswith(FORMULA_START, na=False)
    if not risky.any():
        return s
    plain = text.str.fullmatch(_NUMBER.pattern, na=False)
    out = s.astype(object).copy()
    flagged = (risky & ~plain).to_numpy()
    out[flagged] = "'" + text[flagged]
    return out


def csv_text(df: pd.DataFrame) -> str:
    """``df`` as CSV text (no index column) with formula cells neutralised.

    Parameters
    ----------
    df : pandas.DataFrame
        The table to download. Its index is not written; put ids in a column
        (``df.reset_index()``) to keep them.

    Returns
    -------
    str
        What ``df.to_csv(index=False)`` writes, except that each text cell and
        column name starting with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
        return, and not a plain number, starts with a single quote (OWASP's
        advice against CSV injection). Numeric columns are written unchanged.
        Lines end with CRLF (RFC 4180), so a text holding a carriage return is
        quoted too, not read as the end of a row.

    Examples
    --------
    >>> df = pd.DataFrame({"id": ["=HYPERLINK(1)", "-1.5", "@x"], "y_true": [1, 0, 1],
    ...                    "score_m": [-1.5, 0.25, 2.0]})
    >>> for line in csv_text(df).splitlines():
    ...     print(line)
    id,y_true,score_m
    '=HYPERLINK(1),1,-1.5
    -1.5,0,0.25
    '@x,1,2.0
    >>> csv_text(pd.DataFrame({"+cmd": [1], "a": ["\\rb"]}))
    '\\'+cmd,a\\r\\n1,"\\'\\rb"\\r\\n'
    """
    out = pd.DataFrame({j: _column(df.iloc[:, j]) for j in range(df.shape[1])})
    out.columns = [neutralised(c) for c in df.columns]
    return out.to_csv(index=False, lineterminator="\r\n")
