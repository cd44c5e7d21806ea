"""What reaches a class, in AppTest.

No internal word: the worked examples are named by their sources ("the revision
sheet", "scikit-learn's dcg_score documentation"), never "seed 002", in the sample
titles and descriptions, in every text of ``views/text``, and on every rendered page
(its Markdown, captions, formulas, notices, buttons, options and tables). No table
shows "None": an empty cell reads as a dash. Presentation mode is a URL setting.
"""

from __future__ import annotations

import re

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from explorer import theme
from explorer.registry import script
from explorer.samples import load_sample, sample_index, sample_names
from explorer.ui import sidebar
from tests.conftest import APP, open_page, rendered
from views import prose

SEED_WORD = re.compile(r"seed ?0\d", re.IGNORECASE)
PAGES = [
    script("home"),
    script("data"),
    script("curves"),
    script("label_ranking"),
    script("dcg"),
    script("retrieval"),
    script("multilabel"),
    script("regression"),
    script("multiclass"),
    script("compare"),
    script("leaderboard"),
]
#: The worked examples of the source documents, and one sample of each other kind.
WORKED = [n for n in sample_names() if SEED_WORD.search(n)]
SAMPLES = [*WORKED, "digit_properties", "diabetes", "iris"]


def shown_texts(at: AppTest) -> list[str]:
    """Every text an AppTest page shows: Markdown, captions, formulas, headings,
    notices, metric labels, buttons, expanders, widget labels and options.

    Not the "Copy link" box (``st.code``): a link names a sample by its id
    (``?ds=seed002_roc6``), which stays so that old links keep working."""
    texts = []
    for kind in ("markdown", "caption", "latex", "title", "header", "subheader"):
        texts += [str(e.value) for e in at.get(kind)]
    for kind in ("info", "warning", "error", "success"):
        texts += [str(e.value) for e in at.get(kind)]
    texts += [m.label for m in at.metric]
    texts += [b.label for b in at.button]
    texts += [e.label for e in at.expander]
    for kind in ("selectbox", "radio", "multiselect"):
        for w in at.get(kind):
            texts.append(w.label)
            texts += [str(o) for o in w.options]
    for kind in ("number_input", "slider", "checkbox", "toggle", "text_input"):
        texts += [w.label for w in at.get(kind)]
    return texts


def shown_tables(at: AppTest) -> list[pd.DataFrame]:
    tables = [t.value for t in at.dataframe]
    tables += [t.value for t in at.table]
    return [t for t in tables if isinstance(t, pd.DataFrame)]


def page_run(page: str, sample: str) -> AppTest:
    at = open_page(page, sample)
    assert not at.exception
    return at


def test_sample_titles_and_descriptions_name_sources_not_seeds():
    for row in sample_index():
        assert not SEED_WORD.search(row["title"]), row
        assert not SEED_WORD.search(row["teaches"]), row
    for name in WORKED:
        ds = load_sample(name)
        assert not SEED_WORD.search(ds.shown_name) and not SEED_WORD.search(ds.description)
    # the five worked examples say where they come from
    titles = {row["name"]: row["title"] for row in sample_index()}
    assert titles["seed001_dcg"].startswith("scikit-learn dcg_score documentation")
    assert titles["seed002_roc6"].startswith("Revision sheet")
    assert titles["seed003_lrap"].startswith("LRAP tutorial")


@pytest.mark.parametrize("page", prose.documents())
def test_texts_name_sources_not_seeds(page):
    for name, text in prose.sections(page).items():
        assert not SEED_WORD.search(text), (page, name, SEED_WORD.search(text).group())


@pytest.mark.parametrize("sample", SAMPLES)
def test_rendered_pages_show_no_seed_word_and_no_none(sample):
    """Every page on every worked example (a fitting one shows its page, another the
    notice with its button) and on one sample of each other kind.

    One session per sample: the sample picked in the sidebar, then each page opened by
    a sidebar click (the address's parameters dropped, as the browser does), which is
    how ``open_page`` reaches a page, without opening the app and picking the sample
    again for each of the nine pages."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.selectbox(key="dataset_picker").set_value(sample).run()
    for page in PAGES:
        at.query_params.clear()
        at.switch_page(page).run()
        assert not at.exception, (page, sample)
        for text in shown_texts(at):
            found = SEED_WORD.search(text)
            assert not found, (page, sample, found.group(), text[:200])
        for table in shown_tables(at):
            for column in table.columns:
                cells = table[column]
                assert not cells.isna().any(), (page, sample, column, table.head())
                strings = cells[cells.map(lambda v: isinstance(v, str))]
                assert not strings.isin(["None", "nan", "NaN"]).any(), (page, sample, column)


def test_wrong_kind_button_names_the_sample_by_its_title():
    at = page_run(script("label_ranking"), "balanced")
    button = at.button(key="open_fitting_sample")
    assert button.label == "Open the sample “LRAP tutorial: its worked example (3 samples)”"
    assert "**Classroom: balanced classes, two models**" in rendered(at.info[0].value)
    button.click().run()
    assert at.session_state["active_dataset"] == "seed003_lrap"


# ------------------------------------------------------------------ presentation mode
def _css(at) -> str:
    """The page CSS of explorer.theme (other st.html blocks, such as the link box's
    script, may come first)."""
    return next(h.proto.body for h in at.get("html") if "<style" in h.proto.body)


def test_presentation_mode_is_a_url_setting_kept_across_pages():
    at = AppTest.from_file(APP, default_timeout=30)
    at.query_params["present"] = "1"
    at.run()
    assert at.toggle(key=sidebar.PRESENT_TOGGLE).value is True
    assert at.query_params["present"] == "1"
    css = _css(at)
    assert "font-size: 20px" in css and theme.CAPTION_TEXT in css
    # a sidebar click drops the URL's parameters: the mode stays, and so does the link
    at.query_params.clear()
    at.switch_page(script("dcg")).run()
    assert not at.exception
    assert at.query_params["present"] == "1"
    assert "font-size: 20px" in _css(at)
    # a dataset change keeps it too
    at.selectbox(key="dataset_picker").set_value("seed001_dcg").run()
    assert at.query_params["present"] == "1"
    at.toggle(key=sidebar.PRESENT_TOGGLE).set_value(False).run()
    assert "present" not in at.query_params
    css = _css(at)
    assert "font-size: 20px" not in css and theme.CAPTION_TEXT in css


def test_without_the_parameter_the_url_has_no_present():
    at = AppTest.from_file(APP, default_timeout=30).run()
    assert at.toggle(key=sidebar.PRESENT_TOGGLE).value is False
    assert "present" not in at.query_params
    at.toggle(key=sidebar.PRESENT_TOGGLE).set_value(True).run()
    assert at.query_params["present"] == "1"
