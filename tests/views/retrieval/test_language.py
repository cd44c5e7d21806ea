"""The Top-K retrieval page in Chinese (``?lang=zh``): no English sentence left in any
state (the worked example, a tool's preset, a scenario with its effect, the numbers
hidden until Reveal), the catalogue's texts on screen, and the same numbers as the
metrics give."""

from __future__ import annotations

from explorer import i18n
from explorer.samples import load_sample
from explorer.scenarios import for_page
from tests.views.chinese import english_left, open_page
from tests.views.retrieval.helpers import expected
from views import prose


def test_the_page_in_chinese_has_no_english_left_and_the_same_numbers():
    ds = load_sample("seed002_map")
    at = open_page("retrieval", ds="seed002_map")
    assert english_left(at, ds) == []
    assert at.title[0].value == "Top-K 检索"
    assert prose._translation("retrieval", "zh")["intro"] in [m.value for m in at.markdown]
    assert at.slider(key="ret_k").label == i18n.translate("K (cut-off)", "zh") == "K（截断）"
    assert at.selectbox(key="ret_tie_mode").value == "column"  # the value stays English
    assert at.selectbox(key="ret_tie_mode").options[0] == "列顺序（trec_eval：按文档 id）"
    assert [m.label for m in at.metric][2] == "命中率@K"
    assert [m.value for m in at.metric] == list(expected(ds, k=5).values())
    assert any(h.value == "为什么我的数字不一样？约定开关表" for h in at.subheader)

    at.selectbox(key="ret_preset").set_value("multilabel notes AveP").run()
    assert english_left(at, ds) == []
    assert at.slider(key="ret_k").value == 5  # 10 capped to the sample's 5 items
    assert [m.value for m in at.metric] == list(expected(ds, k=5, denominator="k").values())


def test_a_scenario_with_the_numbers_hidden_is_in_chinese():
    sc = next(s for s in for_page("retrieval") if s.id == "ret-drop-empty")
    ds = load_sample("diabetes_ranking")
    at = open_page("retrieval", **sc.query(), reveal="0")
    assert english_left(at, ds) == []
    assert {m.value for m in at.metric} == {"?"}
    watch_hidden = "What to watch in each is not shown while Predict, then reveal is on."
    hidden = i18n.translate(watch_hidden, "zh")
    assert hidden.startswith("“先预测，后揭晓”开启时")
    assert hidden in [c.value for c in at.caption]
    assert "**场景：改变了什么。** 等级 3 下没有任何相关条目的查询：先记为 0，再剔除。" in [
        m.value for m in at.markdown
    ]
