"""The pages' longer texts, kept as Markdown beside the page scripts.

``views/text/<page>.md`` holds a page's teaching texts, each section opened by a
line ``<!-- section: name -->``. A view draws one with
``st.markdown(prose.section("dcg", "ties"))``; the text is exactly what the file
holds between its marker and the next one, stripped of surrounding blank lines.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

TEXT_DIR = Path(__file__).resolve().parent / "text"
_MARKER = re.compile(r"^<!--\s*section:\s*([\w-]+)\s*-->\s*$", re.MULTILINE)


@cache
def sections(page: str) -> dict[str, str]:
    """Every section of ``views/text/<page>.md``, by name.

    Examples
    --------
    >>> from views import prose
    >>> sorted(prose.sections("example"))
    ['first', 'second']
    >>> prose.section("example", "second")
    'The second section, with a $\\\\frac{1}{2}$ formula.'
    """
    text = (TEXT_DIR / f"{page}.md").read_text(encoding="utf-8")
    parts = _MARKER.split(text)
    names, bodies = parts[1::2], parts[2::2]
    if len(set(names)) != len(names):
        raise ValueError(f"views/text/{page}.md names a section twice")
    return {n: b.strip("\n") for n, b in zip(names, bodies, strict=True)}


def section(page: str, name: str) -> str:
    """The Markdown of section ``name`` of ``views/text/<page>.md``."""
    return sections(page)[name]
