"""The DCG & NDCG page in Chinese (``?lang=zh``): no English sentence left in its main
area, in each lazy tab, hidden ("Predict, then reveal") or revealed, and in a scenario;
its texts are the catalogue's and its numbers those of the metrics."""

from __future__ import annotations

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.conftest import metric
from tests.views.chinese import english_left, open_page, scenario_in_chinese, zh
from views import prose
from views.dcg.panel import TAB_KEY, TABS


def test_the_page_in_chinese_in_each_tab_and_hidden_until_reveal():
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    at = open_page("dcg", ds=ds.name)
    assert not at.exception and english_left(at, ds) == []
    assert at.title[0].value == zh("DCG & NDCG") == "DCG 与 NDCG"
    assert prose._translation("dcg", "zh")["intro"] in [m.value for m in at.main.markdown]
    # the same numbers as the metrics give: the means over both rows
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s))
    assert metric(at, "该样本的 DCG") == fmt(metrics.dcg_score(y[:1], s[:1]))  # the worst row
    assert at.main.subheader[0].value == zh("The selected sample, position by position")
    for label in TABS[1:]:  # lazy: each tab drawn once it is open
        at.session_state[TAB_KEY] = label  # the state holds the English name
        at.run()
        assert not at.exception and english_left(at, ds) == [], label
        assert at.query_params["tab"] == label.split()[0].lower()  # links stay English
    assert zh("Per sample, worst first") in [h.value for h in at.main.subheader]

    at.sidebar.toggle(key="predict_toggle").set_value(True).run()  # Predict, then reveal
    assert {m.value for m in at.main.metric} == {"?"} and english_left(at, ds) == []
    at.button(key="dcg_reveal").click().run()
    assert not at.exception and english_left(at, ds) == []
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s))


def test_a_scenario_in_chinese_says_what_changes_in_chinese():
    _, effect = scenario_in_chinese("dcg", "dcg-tie-ignored")
    assert list(effect.columns[1:3]) == ["之前：ignore_ties 关闭", "之后：ignore_ties 开启"]
    assert effect.iloc[0, 0] == "第 1 行的 DCG@1"
