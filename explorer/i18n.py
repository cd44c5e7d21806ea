"""The interface's languages: English, the language the app is written in, and
simplified Chinese (简体中文), each from one catalogue.

A text shown to a user is written once, in English, where it is used; its translation
is the entry for that English text in the language's catalogue
(``explorer/locale/<lang>/*.toml``, keyed by the English text: one file for what every
page shares, one per page, read as one catalogue in which a text has one entry). A
page's longer texts are translated file by file: ``views/<page>/text.zh.md`` beside
``text.md``, section by section (:mod:`views.prose`). Formulas and numbers are never
translated. A text with no entry is shown in English, so a missing translation is
visible, never an error.

Nothing here imports streamlit: :mod:`explorer.ui.language` reads the visitor's
language (``?lang=zh``) and draws the switch.

Examples
--------
>>> language("zh-CN"), language("en"), language("klingon")
('zh', 'en', 'en')
>>> translate("Presentation mode", "zh")
'演示模式'
>>> translate("Presentation mode", "en")
'Presentation mode'
"""

from __future__ import annotations

import tomllib
from functools import cache
from pathlib import Path
from types import MappingProxyType

__all__ = ["DEFAULT", "LANGUAGES", "catalogue", "language", "translate"]

#: The interface's languages, by code, each named in itself.
LANGUAGES = {"en": "English", "zh": "简体中文"}
#: The language the app is written in.
DEFAULT = "en"
#: What a link may say for Chinese (``?lang=zh``, or a browser's ``zh-CN``).
_ALIASES = {"zh": "zh", "zh-cn": "zh", "zh_cn": "zh", "zh-hans": "zh", "cn": "zh"}
LOCALE = Path(__file__).resolve().parent / "locale"


def language(raw: str | None) -> str:
    """The language code a link's ``lang`` value names; English for anything else."""
    value = str(raw or "").strip().lower()
    return value if value in LANGUAGES else _ALIASES.get(value, DEFAULT)


@cache
def catalogue(lang: str) -> MappingProxyType:
    """The translations of ``lang``, keyed by the English text (empty for English).

    Examples
    --------
    >>> catalogue("en")
    mappingproxy({})
    >>> all(isinstance(v, str) and v for v in catalogue("zh").values())
    True
    """
    if lang == DEFAULT:
        return MappingProxyType({})
    entries: dict[str, str] = {}
    where: dict[str, str] = {}
    for path in sorted((LOCALE / lang).glob("*.toml")):
        with open(path, "rb") as f:
            part = tomllib.load(f)
        if twice := sorted(part.keys() & entries.keys()):
            raise ValueError(
                f"{twice[0]!r} is translated twice: in {where[twice[0]]} and {path.name}"
            )
        entries.update(part)
        where.update(dict.fromkeys(part, path.name))
    return MappingProxyType(entries)


def translate(text: str, lang: str) -> str:
    """``text`` in ``lang``: its catalogue entry, or the English text when there is none."""
    return catalogue(lang).get(text, text)
