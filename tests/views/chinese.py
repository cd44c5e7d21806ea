"""Opening a page in Chinese for the language tests (``tests/views/*/test_language.py``):
a text as the catalogue words it, and a page opened with ``?lang=zh`` that has no English
sentence left."""

from __future__ import annotations

from explorer import i18n
from explorer.registry import script
from explorer.samples import load_sample
from tests.views import untranslated
from tests.views.test_links_app import open_app


def zh(text: str, **fields) -> str:
    """``text`` (a template, its fields filled) as the Chinese catalogue words it."""
    return i18n.Phrase(text, **fields).translated("zh")


def opened(slug: str, sample: str, title: str, **query):
    """Page ``slug`` on the bundled ``sample`` in Chinese: no English left, its title the
    catalogue's ``title``. Returns the AppTest and the dataset."""
    ds = load_sample(sample)
    at = open_app(script(slug), sample, lang="zh", **query)
    assert untranslated.page_english(at, ds) == []
    assert at.title[0].value == zh(title) != title
    return at, ds
