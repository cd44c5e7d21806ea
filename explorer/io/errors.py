"""The refusal every reader raises: :class:`DataError`, and :func:`quote` for its messages.

This module imports nothing, so code that only catches refusals (the link
decoder, the data editor, the session state) does not load the readers.

A reader writes its message as an :class:`explorer.i18n.Phrase` (a template and its
values; English as a ``str``): the page shows ``t(exc.args[0])``, in the visitor's
language.

A refusal is shown on the page on every rerun: its message stays short
(:data:`MAX_MESSAGE_CHARS`) however large the input. A bad cell is quoted by
its first few dozen characters (:func:`quote`); a message that would still be
longer is cut in the middle, keeping where the problem is and what was expected.
"""

from __future__ import annotations

__all__ = ["MAX_MESSAGE_CHARS", "QUOTE_CHARS", "DataError", "quote"]

#: The longest refusal message, in characters (a longer one is cut in the middle).
MAX_MESSAGE_CHARS = 300
#: How many characters of a value a message quotes.
QUOTE_CHARS = 40
_CUT = " […] "


def quote(value, limit: int = QUOTE_CHARS) -> str:
    """``repr`` of ``value`` as a message quotes it: at most ``limit`` characters of it.

    A longer value is quoted by its first characters, then how long it is.

    Parameters
    ----------
    value : object
        The value (usually the text of a cell); ``str(value)`` is quoted.
    limit : int
        How many of its characters to show.

    Examples
    --------
    >>> quote("n/a")
    "'n/a'"
    >>> quote("=HYPERLINK(" + "x" * 10_000 + ")", limit=12)
    "'=HYPERLINK(x'... (10,012 characters)"
    """
    text = value if isinstance(value, str) else str(value)
    if len(text) <= limit:
        return repr(text)
    return f"{text[:limit]!r}... ({len(text):,} characters)"


def _clip(message: str) -> str:
    """``message`` cut in the middle to at most :data:`MAX_MESSAGE_CHARS` characters."""
    if len(message) <= MAX_MESSAGE_CHARS:
        return message
    tail = 80
    head = MAX_MESSAGE_CHARS - tail - len(_CUT)
    return message[:head] + _CUT + message[-tail:]


class DataError(ValueError):
    """Input the explorer refuses, with a message a student can act on.

    The message is at most :data:`MAX_MESSAGE_CHARS` characters: a longer one
    is cut in the middle (readers quote values with :func:`quote`, so this is
    only a backstop).

    Examples
    --------
    >>> from explorer.io import read_table
    >>> try:
    ...     read_table(b"y_true,y_score\\n1,high\\n", name="s.csv")
    ... except DataError as exc:
    ...     print(exc)
    s.csv, line 2, column "y_score": 'high' is not a number.
    >>> len(str(DataError("x" * 10**6)))
    300

    A message written as a template (an :class:`explorer.i18n.Phrase`) is kept as
    ``exc.args[0]``, so that the interface shows it in the visitor's language.
    """

    # Its public home, as tracebacks and doctests name it: explorer.io.DataError.
    __module__ = "explorer.io"

    def __init__(self, message: str = "") -> None:
        # a message short enough stays itself: a reader's Phrase (explorer.i18n) keeps its
        # template in ``args[0]``, which the interface translates; ``str(exc)`` is English
        clipped = _clip(str(message))
        super().__init__(message if clipped == message else clipped)


# doctest skips a class whose __module__ is another module's: list it here.
__test__ = {"DataError": DataError}
