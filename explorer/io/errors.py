"""The refusal every reader raises: :class:`DataError`.

This module imports nothing, so code that only catches refusals (the link
decoder, the data editor, the session state) does not load the readers.
"""

from __future__ import annotations

__all__ = ["DataError"]


class DataError(ValueError):
    """Input the explorer refuses, with a message a student can act on.

    Examples
    --------
    >>> from explorer.io import read_table
    >>> try:
    ...     read_table(b"y_true,y_score\\n1,high\\n", name="s.csv")
    ... except DataError as exc:
    ...     print(exc)
    s.csv, line 2, column "y_score": 'high' is not a number.
    """

    # Its public home, as tracebacks and doctests name it: explorer.io.DataError.
    __module__ = "explorer.io"


# doctest skips a class whose __module__ is another module's: list it here.
__test__ = {"DataError": DataError}
