"""What a visitor reads while a page computes: no spinner of Streamlit's cache (it named
our functions in English, "Running `multiclass(...)`.", on a page in Chinese too), and the
app's own spinners in the visitor's language.

AppTest leaves spinners out of its element tree (they are transient), so the tests watch
Streamlit's ``spinner`` itself: each call, its text and whether the cache made it.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import pytest
import streamlit as st
from streamlit.elements.spinner import SpinnerMixin
from streamlit.testing.v1 import AppTest

from explorer import bigdata, registry
from explorer.formatting import literal
from tests.conftest import APP
from tests.views import untranslated
from tests.views.test_bigdata_app import NAME, big_file  # noqa: F401 - a fixture


class Spun(NamedTuple):
    text: str
    by_cache: bool


@pytest.fixture
def spinners(monkeypatch) -> list[Spun]:
    """Every spinner a page asks Streamlit for, whether or not it lasts long enough to
    be drawn (half a second)."""
    calls: list[Spun] = []
    original = SpinnerMixin.spinner

    def watched(self, text="In progress...", *args, _cache: bool = False, **kwargs):
        calls.append(Spun(str(text), _cache))
        return original(self, text, *args, _cache=_cache, **kwargs)

    monkeypatch.setattr(SpinnerMixin, "spinner", watched)  # the cache's, looked up per call
    # ``st.spinner`` is the main area's method, bound when streamlit was imported
    monkeypatch.setattr(st, "spinner", functools.partial(watched, st._main))
    return calls


def test_no_page_shows_the_caches_spinner(spinners):
    """Every page opened in Chinese on the default sample, intervals on, every cache
    empty (what each page computes on it is a miss): the cache asks for no spinner (20
    before, one a miss) and any other spinner's text is Chinese."""
    at = AppTest.from_file(APP, default_timeout=120)
    at.query_params["lang"] = "zh"
    at.query_params["ci"] = "1"  # the intervals: the longest computations of each page
    at.run()
    for page in registry.PAGES:
        at.switch_page(page.script).run()
        assert not at.exception, (page.slug, at.exception)
    assert [s.text for s in spinners if s.by_cache] == []
    assert untranslated.english_left([f"Spinner: {s.text}" for s in spinners]) == []


def test_the_host_data_is_read_under_a_spinner_in_the_visitors_language(
    big_file,  # noqa: F811 - the fixture imported above
    monkeypatch,
    spinners,
):
    path, *_ = big_file
    monkeypatch.setenv(bigdata.ENV, f"{path},name={NAME},y_true=clicked,score=p,sample=4000")
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({"ds": NAME, "lang": "zh"})
    at.run()
    assert not at.exception
    texts = [s.text for s in spinners]
    assert set(texts) == {f"正在读取 {literal(NAME)}（只读一次）：每一行上的精确数值，以及一个样本"}
    assert untranslated.english_left([f"Spinner: {t}" for t in texts], {NAME}) == []
