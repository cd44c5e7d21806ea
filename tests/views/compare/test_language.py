"""Compare two models in Chinese (``?lang=zh``): no English sentence left on the page,
its numbers hidden by Predict-then-reveal or on a scenario's link; the verdicts and
texts in Chinese; the same numbers as metrics'."""

from __future__ import annotations

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from explorer.ui import classroom
from tests.views import chinese
from tests.views.chinese import zh


def test_the_page_in_chinese_every_state_with_the_same_numbers():
    ds = load_sample("breast_cancer")
    at, shown = chinese.open_sample("compare", "breast_cancer")
    assert at.title[0].value == "比较两个模型"
    assert shown["headers"][0] == zh("Is ${b} better than ${a}?", a="logreg", b="tree")
    y, a, b = ds.y_true, ds.score("logreg"), ds.score("tree")
    auc_a, auc_b = metrics.roc_auc_score(y, a), metrics.roc_auc_score(y, b)
    # formulas and numbers are the same in every language
    values = shown["metrics"]
    assert values["A 的ROC AUC"] == fmt(auc_a) and values["B 的ROC AUC"] == fmt(auc_b)
    assert values["ROC AUC：B - A"] == fmt(auc_b - auc_a)
    words = " ".join(shown["markdown"])
    p = metrics.delong_test(y, a, b).p_value
    assert f"（DeLong 检验，p = {p:.2g}）" in words and "logreg 更好：tree 的ROC AUC低了" in words

    chinese.hide_numbers(at, ds)
    assert {m.value for m in at.main.metric} == {classroom.HIDDEN}
    chinese.each_scenario(at, "compare")
