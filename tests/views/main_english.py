"""The English left in the main area of an AppTest page opened in another language
(:func:`tests.views.untranslated.english_left`), for a page's own language test: the
sidebar is left out (its texts are the sidebar's test's), and so are what is no text
of the page's: a styled table's CSS (``#T_... { color: black }``) and a download's
random id. A data name of one letter (the items a to e of scikit-learn's dcg_score
examples) stays in the text: no English word has one letter, and taking it out would
split the words around it (``contribution`` read as ``contri ution``)."""

from __future__ import annotations

import re
from types import SimpleNamespace

from streamlit.testing.v1 import AppTest

from explorer import registry, scenario_effects
from explorer.i18n import translate
from explorer.scenarios import for_page
from tests.conftest import APP
from tests.views import reveal_texts, untranslated

#: What a text of the page is not: a styled table's CSS, a download's id.
_NOT_TEXT = re.compile(r"#T_|[0-9a-f]{32}$")


def main_english(at, ds) -> list[str]:
    """The English runs of the main area of ``at`` showing the dataset ``ds``."""
    texts = reveal_texts.texts(SimpleNamespace(_tree=at.main)).texts
    texts = [x for x in texts if not _NOT_TEXT.match(x.partition(": ")[2])]
    keep = {name for name in untranslated.data_names(ds) if len(name) > 1}
    return untranslated.english_left(texts, keep)


def open_in_chinese(slug: str, query: dict) -> AppTest:
    """The page ``slug`` opened by a link with ``query`` and ``lang=zh``."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({**query, "lang": "zh"})
    return at.switch_page(registry.script(slug)).run()


def zh(text: str) -> str:
    """``text`` in Chinese, as the catalogue has it."""
    return translate(text, "zh")


def scenario_in_chinese(slug: str, scenario: str):
    """The page ``slug`` opened on its scenario ``scenario`` in Chinese, checked to have
    no English left and its link titled in Chinese; returns the page and the table of
    the scenario's effect (before, after, difference)."""
    sc = next(s for s in for_page(slug) if s.id == scenario)
    at = open_in_chinese(slug, sc.query())
    assert not at.exception and main_english(at, scenario_effects.dataset_of(sc)) == []
    assert zh(sc.title) in [link.label for link in at.main.get("page_link")]
    effect = next(d.value for d in at.main.dataframe if zh("difference") in d.value.columns)
    return at, effect
