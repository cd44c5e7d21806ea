"""Compare two models in Chinese (``?lang=zh``): no English sentence left on the page,
its numbers hidden by Predict-then-reveal or on a scenario's link; the verdicts and
texts in Chinese; the same numbers as metrics'."""

from __future__ import annotations

import metrics
from explorer import i18n
from explorer.formatting import fmt
from explorer.samples import load_sample
from explorer.scenarios import for_page
from explorer.ui import classroom
from tests.views import chinese


def zh(text: str, **fields) -> str:
    return i18n.Phrase(text, **fields).translated("zh")


def test_the_page_in_chinese_every_state_with_the_same_numbers():
    ds = load_sample("breast_cancer")
    at = chinese.open_page("compare", ds="breast_cancer")
    assert chinese.english_left(at, ds) == []
    assert at.title[0].value == zh("Compare two models") == "比较两个模型"
    assert at.main.subheader[0].value == zh("Is ${b} better than ${a}?", a="logreg", b="tree")
    y, a, b = ds.y_true, ds.score("logreg"), ds.score("tree")
    auc_a, auc_b = metrics.roc_auc_score(y, a), metrics.roc_auc_score(y, b)
    shown = {m.label: m.value for m in at.main.metric}
    # formulas and numbers are the same in every language
    assert shown["A 的ROC AUC"] == fmt(auc_a) and shown["B 的ROC AUC"] == fmt(auc_b)
    assert shown["ROC AUC：B - A"] == fmt(auc_b - auc_a)
    words = " ".join(m.value for m in at.main.markdown)
    p = metrics.delong_test(y, a, b).p_value
    assert f"（DeLong 检验，p = {p:.2g}）" in words and "logreg 更好：tree 的ROC AUC低了" in words

    at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).set_value(True).run()
    assert {m.value for m in at.main.metric} == {classroom.HIDDEN}
    assert chinese.english_left(at, ds) == []

    for sc in for_page("compare"):
        chinese.follow(at, sc)
        assert chinese.english_left(at, load_sample(dict(sc.params)["ds"])) == [], sc.id
