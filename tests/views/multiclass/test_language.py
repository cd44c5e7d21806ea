"""Multiclass classification in Chinese (``?lang=zh``): no English sentence left on the
page, its numbers hidden by Predict-then-reveal or on a scenario's link; the catalogue's
texts and views/multiclass/text.zh.md shown; the same numbers as scikit-learn's."""

from __future__ import annotations

from explorer.samples import load_sample
from explorer.ui import classroom
from tests.views import chinese
from tests.views.chinese import zh
from tests.views.multiclass.common import expected
from views import prose


def test_the_page_in_chinese_every_state_with_the_same_numbers():
    ds = load_sample("iris")
    at, shown = chinese.open_sample("multiclass", "iris")
    assert at.title[0].value == "多类分类"
    assert {zh("Confusion matrix"), zh("How it is computed")} <= set(shown["headers"])
    assert prose._translation("multiclass", "zh")["intro"] in shown["markdown"]
    metrics = [(m.label, m.value) for m in at.main.metric]
    assert [label for label, _ in metrics[:2]] == ["准确率", "平衡准确率"]
    assert metrics[6][0] == "Top-2 准确率"
    # formulas and numbers are the same in every language
    assert [value for _, value in metrics] == list(expected(ds).values())

    chinese.hide_numbers(at, ds)
    assert {m.value for m in at.main.metric} == {classroom.HIDDEN}
    chinese.each_scenario(at, "multiclass")
    captions = [c.value for c in at.main.caption]
    assert zh("What to watch in each is not shown while Predict, then reveal is on.") in captions
