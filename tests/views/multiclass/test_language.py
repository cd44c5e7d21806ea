"""Multiclass classification in Chinese (``?lang=zh``): no English sentence left on the
page, its numbers hidden by Predict-then-reveal or on a scenario's link; the catalogue's
texts and views/multiclass/text.zh.md shown; the same numbers as scikit-learn's."""

from __future__ import annotations

from explorer import i18n
from explorer.samples import load_sample
from explorer.scenarios import for_page
from explorer.ui import classroom
from tests.views import chinese
from tests.views.multiclass.common import expected
from views import prose


def zh(text: str) -> str:
    return i18n.translate(text, "zh")


def test_the_page_in_chinese_every_state_with_the_same_numbers():
    ds = load_sample("iris")
    at = chinese.open_page("multiclass", ds="iris")
    assert chinese.english_left(at, ds) == []
    assert at.title[0].value == zh("Multiclass classification") == "多类分类"
    headers = [h.value for h in at.main.subheader]
    assert zh("Confusion matrix") in headers and zh("How it is computed") in headers
    markdown = [m.value for m in at.main.markdown]
    assert prose._translation("multiclass", "zh")["intro"] in markdown
    metrics = [(m.label, m.value) for m in at.main.metric]
    assert [label for label, _ in metrics[:2]] == ["准确率", "平衡准确率"]
    assert metrics[6][0] == "Top-2 准确率"
    # formulas and numbers are the same in every language
    assert [value for _, value in metrics] == list(expected(ds).values())

    at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).set_value(True).run()
    assert {m.value for m in at.main.metric} == {classroom.HIDDEN}
    assert chinese.english_left(at, ds) == []

    for sc in for_page("multiclass"):
        chinese.follow(at, sc)
        assert chinese.english_left(at, load_sample(dict(sc.params)["ds"])) == [], sc.id
        captions = [c.value for c in at.main.caption]
        assert any(c.startswith("开启“先预测，后揭晓”时") for c in captions)
