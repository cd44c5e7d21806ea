"""The refusals of :mod:`metrics` (its ``MetricInputError`` messages, English: the package
knows no language and imports nothing of the app) as phrases of the interface: the
message read back into one of the templates below, its values kept, so that
``t(phrase(message))`` shows the common refusals in the visitor's language. A message
of another shape stays as it is written.

Examples
--------
>>> why = phrase("ROC AUC is undefined: y_true holds a single class, only the positive "
...              "class; it needs at least one positive and one negative.")
>>> why.template[:52], why.fields["sentence"].fields["only"]
('${sentence}.', 'the positive class')
>>> phrase("something else.") == "something else." and phrase("x").__class__ is str
True
"""

from __future__ import annotations

import re
from functools import cache

from explorer.i18n import Phrase

__all__ = ["phrase"]

#: The shapes of the refusals a page shows (a class missing from the data, a slice, a
#: resample), without their final period; ``${name}`` stands for a value.
TEMPLATES = (
    "ROC AUC is undefined: ${what} holds a single class, only ${only}; it needs at least "
    "one positive and one negative",
    "ROC AUC is undefined: row ${row} of y_true holds a single class, only ${only}; "
    "average='samples' scores every row over its labels, so each row (with non-zero "
    "sample_weight) needs a positive and a negative label",
    "ROC AUC is undefined: y_true holds a single class, only ${only} (over every chunk, "
    "counting non-zero weights); it needs a positive and a negative",
    "y_true holds a single class: placements need both classes",
)
#: Values of those templates that are words, translated too.
WORDS = ("the positive class", "the negative class", "1 (positive)", "0 (negative)")


@cache
def _patterns() -> tuple[tuple[re.Pattern, str], ...]:
    field = re.compile(r"\$\{(\w+)\}")
    out = []
    for template in TEMPLATES:
        parts = field.split(template)  # literal, name, literal, name, ..., literal
        regex = "".join(
            re.escape(part) if i % 2 == 0 else f"(?P<{part}>.+?)" for i, part in enumerate(parts)
        )
        out.append((re.compile(regex + r"\Z", re.DOTALL), template))
    return tuple(out)


def phrase(message: str) -> str:
    """``message`` (a metric's refusal) as a :class:`~explorer.i18n.Phrase` of one of
    :data:`TEMPLATES` (its English unchanged), or ``message`` itself."""
    text = str(message)
    body, period = (text[:-1], True) if text.endswith(".") else (text, False)
    for pattern, template in _patterns():
        found = pattern.match(body)
        if found:
            fields = {k: Phrase(v) if v in WORDS else v for k, v in found.groupdict().items()}
            sentence = Phrase(template, **fields)
            return Phrase("${sentence}.", sentence=sentence) if period else sentence
    return text
