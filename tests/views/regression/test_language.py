"""Regression in Chinese (``?lang=zh``): no English sentence left on the page, its
numbers hidden by Predict-then-reveal or on a scenario's link; the catalogue's texts
and views/regression/text.zh.md shown; the same numbers as metrics'."""

from __future__ import annotations

from explorer.samples import load_sample
from explorer.ui import classroom
from tests.views import chinese
from tests.views.chinese import zh
from tests.views.regression.common import LABELS, expected
from views import prose


def test_the_page_in_chinese_every_state_with_the_same_numbers():
    ds = load_sample("diabetes")
    at, shown = chinese.open_sample("regression", "diabetes")
    assert at.title[0].value == "回归"
    assert prose._translation("regression", "zh")["outlier"] in shown["markdown"]
    assert zh("Teaching notes") in shown["headers"]
    # formulas and numbers are the same in every language
    metrics = shown["metrics"]
    assert {label: metrics[zh(label)] for label in LABELS} == expected(ds.y_true, ds.score())
    assert zh("Weighted MAE") == "加权 MAE" in metrics

    chinese.hide_numbers(at, ds)
    assert {m.value for m in at.main.metric[:8]} == {classroom.HIDDEN}
    chinese.each_scenario(at, "regression")
