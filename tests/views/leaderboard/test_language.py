"""The Leaderboard in Chinese (``?lang=zh``, AppTest): no English sentence left, with the
numbers shown and hidden, the headline the best model's ROC AUC, the letters in words
from the catalogue; a scenario's title, watch text and effect in Chinese too."""

from __future__ import annotations

import pytest
from sklearn.metrics import roc_auc_score

from explorer.registry import script
from explorer.samples import load_sample
from explorer.scenarios import for_page
from tests.views import untranslated
from tests.views.chinese import opened, zh
from tests.views.test_links_app import open_app


def test_the_leaderboard_in_chinese_leaves_no_english_with_the_numbers_shown_or_hidden():
    at, ds = opened("leaderboard", "breast_cancer_five", "Leaderboard")
    shown = {m.label: m.value for m in at.metric}
    best = max(roc_auc_score(ds.y_true, ds.score(m)) for m in ds.model_names)
    assert float(shown[zh("Best ${metric}", metric="ROC AUC")]) == pytest.approx(best, abs=5e-5)
    table = at.dataframe[0].value
    assert list(table.columns[:2]) == [zh("letter"), zh("model")]
    assert any(m.value.startswith("每个模型有一个字母") for m in at.markdown)
    at.sidebar.toggle(key="predict_toggle").set_value(True).run()
    assert not at.exception and untranslated.page_english(at, ds) == []
    assert zh("Which model comes first? Predict, then reveal") in [h.value for h in at.subheader]


def test_a_leaderboard_scenario_in_chinese_names_its_change_and_its_numbers():
    sc = for_page("leaderboard")[1]
    at = open_app(script("leaderboard"), lang="zh", **sc.query())
    assert untranslated.page_english(at, load_sample("breast_cancer_five")) == []
    titles = [link.label for link in at.get("page_link")]
    assert zh(sc.title) in titles and zh(sc.title) != sc.title
    assert zh("Watch: ${watch}", watch=zh(sc.watch)) in [c.value for c in at.caption]
    effect = next(d.value for d in at.main.dataframe if zh("difference") in d.value.columns)
    assert list(effect.columns[1:]) == [
        zh("before: ${side}", side=zh("Holm")),
        zh("after: ${side}", side=zh("Benjamini-Hochberg")),
        zh("difference"),
    ]
    rows = [zh("pairs that differ at 0.05 (of 10)"), zh("smallest p-value")]
    assert effect.iloc[:, 0].tolist() == rows
