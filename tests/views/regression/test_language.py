"""Regression in Chinese (``?lang=zh``): no English sentence left on the page, its
numbers hidden by Predict-then-reveal or on a scenario's link; the catalogue's texts
and views/regression/text.zh.md shown; the same numbers as metrics'."""

from __future__ import annotations

from explorer import i18n
from explorer.links import decode_dataset
from explorer.samples import load_sample
from explorer.scenarios import for_page
from explorer.ui import classroom
from tests.views import chinese
from tests.views.regression.common import LABELS, expected
from views import prose


def zh(text: str) -> str:
    return i18n.translate(text, "zh")


def _dataset(scenario):
    params = dict(scenario.params)
    return load_sample(params["ds"]) if "ds" in params else decode_dataset(params["data"])


def test_the_page_in_chinese_every_state_with_the_same_numbers():
    ds = load_sample("diabetes")
    at = chinese.open_page("regression", ds="diabetes")
    assert chinese.english_left(at, ds) == []
    assert at.title[0].value == zh("Regression") == "回归"
    headers = [h.value for h in at.main.subheader]
    assert zh("Teaching notes") in headers and zh("How it is computed") in headers
    markdown = [m.value for m in at.main.markdown]
    assert prose._translation("regression", "zh")["outlier"] in markdown
    shown = {m.label: m.value for m in at.main.metric}
    # formulas and numbers are the same in every language
    want = expected(ds.y_true, ds.score())
    assert {label: shown[zh(label)] for label in LABELS} == want
    assert zh("Weighted MAE") == "加权 MAE" in shown

    at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).set_value(True).run()
    assert {shown[zh(label)] for label in LABELS} != {classroom.HIDDEN}
    assert {m.value for m in at.main.metric[:8]} == {classroom.HIDDEN}
    assert chinese.english_left(at, ds) == []

    for sc in for_page("regression"):
        chinese.follow(at, sc)
        assert chinese.english_left(at, _dataset(sc)) == [], sc.id
