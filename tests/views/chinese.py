"""A page opened in Chinese in AppTest (``?lang=zh``), the English left on it, and a
scenario followed in the same session: what each page's ``test_language.py`` shares.

The English left is :func:`tests.views.untranslated.page_english`'s: the whole page,
sidebar included.
"""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from explorer import i18n, registry
from explorer.samples import load_sample
from explorer.scenario_effects import dataset_of
from explorer.scenarios import for_page
from explorer.ui import classroom, url
from tests.conftest import APP
from tests.views import untranslated
from tests.views.test_links_app import open_app


def open_page(slug: str, **query: str) -> AppTest:
    """The app on page ``slug`` in Chinese, at ``query`` (``ds=iris``)."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({**query, "lang": "zh"})
    at.switch_page(registry.script(slug)).run()
    assert not at.exception, at.exception
    return at


def open_sample(slug: str, sample: str) -> tuple[AppTest, dict]:
    """Page ``slug`` in Chinese on the bundled ``sample``, its title translated and no
    English left; with its texts: the headers and the Markdown (the teaching texts)."""
    ds = load_sample(sample)
    at = open_page(slug, ds=sample)
    assert english_left(at, ds) == []
    assert at.title[0].value == zh(registry.page(slug).title)
    shown = {
        "headers": [h.value for h in at.main.subheader],
        "markdown": [m.value for m in at.main.markdown],
        "metrics": {m.label: m.value for m in at.main.metric},
    }
    return at, shown


def opened(slug: str, sample: str, title: str, **query):
    """Page ``slug`` on the bundled ``sample`` in Chinese: no English left, its title the
    catalogue's ``title``. Returns the AppTest and the dataset."""
    ds = load_sample(sample)
    at = open_app(registry.script(slug), sample, lang="zh", **query)
    assert english_left(at, ds) == []
    assert at.title[0].value == zh(title) != title
    return at, ds


def zh(text: str, **fields) -> str:
    """``text`` (a template, filled with ``fields``) as the Chinese page shows it."""
    return i18n.Phrase(text, **fields).translated("zh")


def hide_numbers(at: AppTest, ds) -> AppTest:
    """``at`` with Predict-then-reveal switched on in the sidebar: no English left."""
    at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).set_value(True).run()
    assert not at.exception, at.exception
    assert english_left(at, ds) == []
    return at


def each_scenario(at: AppTest, slug: str) -> None:
    """Follow each scenario of page ``slug`` in ``at``'s session: no English left."""
    for scenario in for_page(slug):
        follow(at, scenario)
        assert english_left(at, dataset_of(scenario)) == [], scenario.id


def follow(at: AppTest, scenario) -> AppTest:
    """``at`` on ``scenario``'s link, followed in the same session (as a click on it in
    the Scenarios expander does: its address is the scenario's and the app's settings)."""
    kept = {p: at.query_params[p] for p in url.APP_PARAMS if p in at.query_params}
    at.query_params.clear()
    at.query_params.update(scenario.query(**kept))
    at.run()
    assert not at.exception, at.exception
    return at


def english_left(at: AppTest, ds) -> list[str]:
    """The English runs on ``at`` (showing ``ds``): what a test of a page in Chinese
    expects to be empty."""
    return untranslated.page_english(at, ds)


def scenario_in_chinese(slug: str, scenario: str):
    """The page ``slug`` opened on its scenario ``scenario`` in Chinese, checked to have
    no English left and its link titled in Chinese; returns the page and the table of
    the scenario's effect (before, after, difference)."""
    sc = next(s for s in for_page(slug) if s.id == scenario)
    at = open_page(slug, **sc.query())
    assert english_left(at, dataset_of(sc)) == []
    assert zh(sc.title) in [link.label for link in at.main.get("page_link")]
    effect = next(d.value for d in at.main.dataframe if zh("difference") in d.value.columns)
    return at, effect
