"""The Label ranking page in Chinese (``?lang=zh``): no English sentence left in its
main area, hidden ("Predict, then reveal") or revealed, in each lazy step tab and in a
scenario; its texts are the catalogue's and its numbers those of the metrics."""

from __future__ import annotations

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests.conftest import metric
from tests.views.chinese import english_left, open_page, scenario_in_chinese, zh
from views import prose
from views.label_ranking.derivation import STEP_TABS


def test_the_page_in_chinese_in_each_step_tab_and_hidden_until_reveal():
    ds = load_sample("seed003_lrap")
    y, s = ds.y_true, ds.score()
    at = open_page("label_ranking", ds=ds.name)
    assert not at.exception and english_left(at, ds) == []
    assert at.title[0].value == zh("Label ranking") == "标签排序"
    assert at.main.header[0].value == zh("How it is computed: one sample")
    # the same numbers as the metrics give, under the catalogue's labels
    assert metric(at, "覆盖误差") == fmt(metrics.coverage_error(y, s)) == "2.333"
    assert metric(at, zh("LRAP")) == fmt(metrics.label_ranking_average_precision_score(y, s))
    assert metric(at, zh("Ranking loss")) == fmt(metrics.label_ranking_loss(y, s))
    markdown = [m.value for m in at.main.markdown]
    assert "覆盖误差 = (2 + 3 + 2) / 3 = 2.333" in markdown
    assert prose._translation("label_ranking", "zh")["lrap-steps"] in markdown
    for label in STEP_TABS[1:]:  # lazy: each tab drawn once it is open
        at.session_state["lr_steps_tab"] = label  # the state holds the English name
        at.run()
        assert not at.exception and english_left(at, ds) == [], label
        assert at.query_params["steps"] == label.split()[0].lower()  # links stay English

    at.sidebar.toggle(key="predict_toggle").set_value(True).run()  # Predict, then reveal
    assert {m.value for m in at.main.metric} == {"?"} and english_left(at, ds) == []
    held = zh(
        "${what}: after Reveal.", what=zh("Each sample's contribution, in a chart and a table")
    )
    assert held in [c.value for c in at.main.caption]
    at.button(key="lr_reveal").click().run()
    assert not at.exception and english_left(at, ds) == []
    assert metric(at, "覆盖误差") == "2.333"


def test_a_scenario_in_chinese_says_what_changes_in_chinese():
    _, effect = scenario_in_chinese("label_ranking", "lr-tutorial")
    assert list(effect.columns[1:3]) == ["之前：仅样本 0", "之后：3 个样本的平均值"]
