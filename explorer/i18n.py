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

A page model (no streamlit, no language of its own) writes a sentence as a
:class:`Phrase`: the English text, which is what every caller and test sees, carrying
the template and the values it was filled from, so that the interface can fill the
template's translation instead.

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

from explorer.formatting import fill_fields

__all__ = ["DEFAULT", "LANGUAGES", "Phrase", "catalogue", "language", "translate"]

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
    """``text`` in ``lang``: its catalogue entry, or the English text when there is none;
    a :class:`Phrase` is translated from its template."""
    if isinstance(text, Phrase):
        return text.translated(lang)
    return catalogue(lang).get(text, text)


class Phrase(str):
    """A sentence of the interface that a page model fills with numbers or names: it is
    the English text (a ``str``, compared and shown as one), and it keeps its
    ``template`` (the catalogue's key) and ``fields`` so that :meth:`translated` fills
    the template's translation with the same values.

    Examples
    --------
    >>> note = Phrase("the first ${head} and last ${tail} of ${n:,} terms", head=3, tail=2, n=1000)
    >>> note
    'the first 3 and last 2 of 1,000 terms'
    >>> note.template, note.fields["n"]
    ('the first ${head} and last ${tail} of ${n:,} terms', 1000)
    >>> note.translated("en") == note
    True
    >>> Phrase("no number here").translated("zh")  # a text with no entry stays English
    'no number here'
    >>> Phrase("${a}; ${b}", a=note, b="x").translated("zh")
    '写出前 3 项和后 2 项(共 1,000 项)；x'
    """

    template: str
    fields: dict

    def __new__(cls, template: str, **fields) -> Phrase:
        phrase = super().__new__(cls, fill_fields(template, fields))
        phrase.template, phrase.fields = template, fields
        return phrase

    def __reduce__(self):  # a cached page model's result is pickled with its phrases
        return _phrase, (self.template, self.fields)

    def translated(self, lang: str) -> str:
        """The template's translation in ``lang`` (English without one), filled; a field
        that is a phrase itself is translated too (``Phrase("${a}; ${b}", a=.., b=..)``
        joins two notes, each translated)."""
        fields = {
            name: value.translated(lang) if isinstance(value, Phrase) else value
            for name, value in self.fields.items()
        }
        return fill_fields(translate(self.template, lang), fields)


def _phrase(template: str, fields: dict) -> Phrase:
    return Phrase(template, **fields)
