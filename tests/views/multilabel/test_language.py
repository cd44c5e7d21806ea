"""The Multilabel classification page in Chinese (``?lang=zh``): no English sentence
left on any of its tabs, in a scenario or with the numbers hidden until Reveal, the
catalogue's texts on screen, and the same numbers as the metrics give."""

from __future__ import annotations

from explorer import i18n
from explorer.samples import load_sample
from explorer.scenarios import for_page
from tests.views.chinese import english_left, open_page
from tests.views.multilabel.helpers import expected
from views import prose
from views.multilabel.panel import TAB_KEY, TABS


def test_every_tab_in_chinese_has_no_english_left_and_the_same_numbers():
    ds = load_sample("digit_properties")
    at = open_page("multilabel", ds="digit_properties")
    assert at.title[0].value == "多标签分类"
    assert prose._translation("multilabel", "zh")["intro"] in [m.value for m in at.markdown]
    assert at.radio(key="ml_pred_rule").options == [
        "一个全局阈值",
        "每个标签一个阈值",
        "每个样本分数最高的 k 个标签",
    ]
    assert at.radio(key="ml_pred_rule").value == "threshold"  # the value stays English
    pred = (ds.score() >= 0.5).astype(int)
    assert [m.value for m in at.metric] == list(expected(ds, pred).values())
    assert [m.label for m in at.metric][:2] == ["Hamming 损失", "子集准确率"]
    for tab in TABS:
        at.session_state[TAB_KEY] = tab  # a tab named in English opens in Chinese
        at.run()
        assert not at.exception
        assert at.session_state[TAB_KEY] == tab  # the state holds the English name
        assert at.session_state[f"{TAB_KEY}__shown"] == i18n.translate(tab, "zh")
        assert tab.split()[0].lower() in at.query_params["tab"]  # the link keeps its id
        assert english_left(at, ds) == [], tab
    assert at.tabs[-1].label == i18n.translate("Every sample", "zh")


def test_a_scenario_with_the_numbers_hidden_is_in_chinese():
    sc = next(s for s in for_page("multilabel") if s.id == "ml-zero-division")
    ds = load_sample("digit_properties")
    at = open_page("multilabel", **sc.query(), reveal="0")
    assert english_left(at, ds) == []
    assert {m.value for m in at.metric} == {"?"}
    effect = "**场景：改变了什么。** " + i18n.translate(
        "zero_division at t = 0.99: 0, then 1", "zh"
    )
    assert effect + "。" in [m.value for m in at.markdown]
