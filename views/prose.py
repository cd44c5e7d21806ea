"""The pages' longer texts, kept as Markdown beside each page's code.

``views/<page>/text.md`` holds a page's teaching texts, each section opened by a line
``<!-- section: name -->``; a page with more texts keeps them in more files beside it
(``views/curves/derivation.md``, named ``"curves/derivation"``). A view draws one with
``st.markdown(prose.section("dcg", "ties"))``; the text is exactly what the file holds
between its marker and the next one, stripped of surrounding blank lines.

A text with numbers in it names them as fields, ``${name}`` or ``${name:spec}``, and a
view fills them with :func:`fill` (``prose.fill("curves", "rates", tp=3, t=0.5)``).
The ``$`` keeps the fields apart from the braces of the texts' LaTeX
(``$\frac{TP}{TP + FN}$`` needs no escaping).
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from explorer import i18n
from explorer.formatting import fill_fields
from explorer.ui import language

VIEWS = Path(__file__).resolve().parent
_MARKER = re.compile(r"^<!--\s*section:\s*([\w-]+)\s*-->\s*$", re.MULTILINE)


def path(doc: str) -> Path:
    """The file of ``doc``: ``"dcg"`` is ``views/dcg/text.md``, ``"curves/derivation"``
    is ``views/curves/derivation.md``."""
    return VIEWS / (f"{doc}.md" if "/" in doc else f"{doc}/text.md")


def documents() -> list[str]:
    """The name of every text file of the pages, sorted.

    Examples
    --------
    >>> "dcg" in documents() and "curves/derivation" in documents()
    True
    """
    names = []
    for file in VIEWS.glob("*/*.md"):
        if len(file.suffixes) > 1:  # a translation (text.zh.md) of a document
            continue
        page = file.parent.name
        names.append(page if file.name == "text.md" else f"{page}/{file.stem}")
    return sorted(names)


@cache
def sections(doc: str) -> dict[str, str]:
    """Every section of the text file ``doc`` (see :func:`path`), by name.

    Examples
    --------
    >>> from views import prose
    >>> sorted(prose.sections("home/example"))
    ['first', 'second']
    >>> prose.section("home/example", "second")
    'The second section, with a $\\\\frac{1}{2}$ formula.'
    """
    return _parse(path(doc))


def _parse(file: Path) -> dict[str, str]:
    """The sections of a text file (an English one or its translation), by name."""
    parts = _MARKER.split(file.read_text(encoding="utf-8"))
    names, bodies = parts[1::2], parts[2::2]
    if len(set(names)) != len(names):
        raise ValueError(f"{file.relative_to(VIEWS.parent)} names a section twice")
    return {n: b.strip("\n") for n, b in zip(names, bodies, strict=True)}


def section(doc: str, name: str) -> str:
    """The Markdown of section ``name`` of the text file ``doc`` (see :func:`path`), in
    the visitor's language when its translation (``text.zh.md`` beside ``text.md``)
    holds the section; else as written."""
    lang = language.current()
    if lang != i18n.DEFAULT:
        translated = _translation(doc, lang)
        if name in translated:
            return translated[name]
    return sections(doc)[name]


@cache
def _translation(doc: str, lang: str) -> dict[str, str]:
    """The sections of ``doc``'s translation into ``lang`` (none when it has none)."""
    english = path(doc)
    file = english.with_name(f"{english.stem}.{lang}.md")
    return _parse(file) if file.exists() else {}


def fill(doc: str, name: str, /, **values) -> str:
    """Section ``name`` of the text file ``doc`` with its fields ``${name}`` and
    ``${name:spec}`` filled from ``values`` (the specs:
    :func:`explorer.formatting.fill_fields`): the one way a view puts numbers in a text.
    ``doc`` and ``name`` are positional, so a text may have fields of those names.

    Examples
    --------
    >>> fill("home/example", "second") == section("home/example", "second")
    True
    """
    return fill_fields(section(doc, name), values)
