"""The Leaderboard in Chinese (``?lang=zh``, AppTest): no English sentence left, with the
numbers shown and hidden, the headline the best model's ROC AUC, the letters in words
from the catalogue; a scenario's title, watch text and effect in Chinese too."""

from __future__ import annotations

import pytest
from sklearn.metrics import roc_auc_score

from explorer import i18n
from explorer.registry import script
from explorer.samples import load_sample
from explorer.scenarios import for_page
from tests.views import untranslated
from tests.views.test_links_app import open_app


def _zh(text: str, **fields) -> str:
    return i18n.Phrase(text, **fields).translated("zh")


def test_the_leaderboard_in_chinese_leaves_no_english_with_the_numbers_shown_or_hidden():
    ds = load_sample("breast_cancer_five")
    at = open_app(script("leaderboard"), "breast_cancer_five", lang="zh")
    assert untranslated.page_english(at, ds) == []
    assert at.title[0].value == _zh("Leaderboard") == "排行榜"
    shown = {m.label: m.value for m in at.metric}
    best = max(roc_auc_score(ds.y_true, ds.score(m)) for m in ds.model_names)
    assert float(shown[_zh("Best ${metric}", metric="ROC AUC")]) == pytest.approx(best, abs=5e-5)
    table = at.dataframe[0].value
    assert list(table.columns[:2]) == [_zh("letter"), _zh("model")]
    assert any(m.value.startswith("每个模型有一个字母") for m in at.markdown)
    at.sidebar.toggle(key="predict_toggle").set_value(True).run()
    assert not at.exception and untranslated.page_english(at, ds) == []
    assert _zh("Which model comes first? Predict, then reveal") in [h.value for h in at.subheader]


def test_a_leaderboard_scenario_in_chinese_names_its_change_and_its_numbers():
    sc = for_page("leaderboard")[1]
    at = open_app(script("leaderboard"), lang="zh", **sc.query())
    assert untranslated.page_english(at, load_sample("breast_cancer_five")) == []
    titles = [link.label for link in at.get("page_link")]
    assert _zh(sc.title) in titles and _zh(sc.title) != sc.title
    assert _zh("Watch: ${watch}", watch=_zh(sc.watch)) in [c.value for c in at.caption]
    effect = next(d.value for d in at.main.dataframe if _zh("difference") in d.value.columns)
    assert list(effect.columns[1:]) == [
        _zh("before: ${side}", side=_zh("Holm")),
        _zh("after: ${side}", side=_zh("Benjamini-Hochberg")),
        _zh("difference"),
    ]
    rows = [_zh("pairs that differ at 0.05 (of 10)"), _zh("smallest p-value")]
    assert effect.iloc[:, 0].tolist() == rows
