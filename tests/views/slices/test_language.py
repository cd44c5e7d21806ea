"""The Slices page in Chinese (``?lang=zh``, AppTest): no English sentence left, with the
numbers shown and hidden ("Predict, then reveal"), the headline the metric on all rows,
the tables' heads and the texts the catalogue's."""

from __future__ import annotations

import pytest
from sklearn.metrics import roc_auc_score

from tests.views import untranslated
from tests.views.chinese import opened, zh
from views import prose


def test_slices_in_chinese_leaves_no_english_with_the_numbers_shown_or_hidden():
    at, ds = opened("slices", "breast_cancer", "Slices")
    assert prose._translation("slices", "zh")["intro"] in [m.value for m in at.markdown]
    shown = {m.label: m.value for m in at.metric}
    overall = shown[zh("${metric}, all rows", metric="ROC AUC")]
    assert float(overall) == pytest.approx(roc_auc_score(ds.y_true, ds.score("logreg")), abs=5e-5)
    groups = at.dataframe[0].value
    assert list(groups.columns[:2]) == [zh("group"), zh("rows")]
    assert groups[zh("rows")].sum() == ds.n_samples
    captions = [c.value for c in at.caption]
    assert zh("p: ${test}.", test=zh("the pooled Wald test (a normal approximation)")) in captions
    # "Predict, then reveal": the numbers hide, what says so is Chinese too
    at.sidebar.toggle(key="predict_toggle").set_value(True).run()
    assert not at.exception and untranslated.page_english(at, ds) == []
    assert {m.value for m in at.metric if m.label != zh("Groups")} == {"?"}
