"""The ROC & PR curves page in Chinese (``?lang=zh``), in AppTest: no English sentence
left in any of its states (every lazy tab, "Predict, then reveal", presentation mode,
its scenarios), its texts those of the catalogue (explorer/locale/zh/curves.toml,
views/curves/text.zh.md), its numbers those of ``metrics``.

What the page shows of the bundled samples' own texts (their titles in the sidebar's
dataset picker, their "what it teaches" line under the curves) is the sample index's
(sample_data/), translated with the samples, not by this page."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

import metrics
from explorer import i18n, registry, scenario_effects, scenarios
from explorer.formatting import fill_fields, fmt
from explorer.samples import load_sample, sample_index
from explorer.ui import classroom, sidebar
from tests.conftest import APP
from tests.views import reveal_texts, untranslated
from tests.views.test_reveal_airtight import TABS
from views import prose

#: The bundled samples' own texts: data the page shows as it is.
SAMPLE_TEXTS = {row[k] for row in sample_index() for k in ("title", "teaches")}


def _zh(text: str) -> str:
    return i18n.translate(text, "zh")


def _english(at, ds) -> list[str]:
    """The English left on the page, but for the samples' own texts (a title is a
    picker's whole option; a "what it teaches" line is part of the dataset's caption)."""
    found = [t for t in reveal_texts.texts(at).texts if t.partition(": ")[2] not in SAMPLE_TEXTS]
    return untranslated.english_left(found, untranslated.data_names(ds) | SAMPLE_TEXTS)


def _open(params: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update({**params, "lang": "zh"})
    at.switch_page(registry.script("curves")).run()
    assert not at.exception
    return at


def test_every_state_of_the_page_reads_in_chinese_with_the_numbers_of_metrics():
    ds = load_sample("balanced")
    at = _open({"ds": "balanced"})
    assert _english(at, ds) == []
    assert at.title[0].value == _zh("ROC & PR curves") == "ROC 与 PR 曲线"
    # the headline: translated labels, the numbers of metrics at the default threshold 0.5
    y, s = ds.y_true, ds.score("good")
    at_half = metrics.rates_at_threshold(y, s, 0.5)
    expected = {
        "ROC AUC": fmt(metrics.roc_auc_score(y, s)),
        "平均精度": fmt(metrics.average_precision_score(y, s)),
        "对数损失": fmt(metrics.log_loss(y, s)),
        "精确率": fmt(at_half["precision"]),
        "召回率": fmt(at_half["recall"]),
    }
    shown = {m.label: m.value for m in at.main.metric}
    assert {k: shown[k] for k in expected} == expected
    assert at.selectbox(key="curves_model").format_func("weak") == "模型：weak"
    note = fill_fields(prose._translation("curves", "zh")["operating_point"], {"t": 0.5})
    assert note.startswith("**分数 ≥ 0.5 时预测为正类。**")
    assert any(m.value.startswith(note) for m in at.main.markdown)
    # every lazy tab, each opened in turn (its label shown translated)
    for key, labels in TABS["curves"]:
        for label in labels:
            at.session_state[key] = label
            at.run()
            assert not at.exception, (key, label)
            assert _english(at, ds) == [], (key, label)
            assert _zh(label) in [tab.label for tab in at.main.tabs] and _zh(label) != label
    at.session_state["curves_teach_tab"] = "AUC four ways"
    at.run()
    assert "AUC 的四种算法" in [h.value for h in at.main.subheader]
    assert at.query_params["tab"] in ("auc", ["auc"])  # the link names it as in English
    # presentation mode, then "Predict, then reveal" (the numbers and their texts held back)
    at.sidebar.toggle(key=sidebar.PRESENT_TOGGLE).set_value(True).run()
    assert _english(at, ds) == []
    at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).set_value(True).run()
    assert not at.exception and at.query_params["reveal"] in ("0", ["0"])
    assert {m.value for m in at.main.metric} == {"?"}
    assert _english(at, ds) == []
    assert _zh("Formulas, derivations and the samples of a cell") + "：揭晓后显示。" in [
        c.value for c in at.main.caption
    ]


@pytest.mark.parametrize("sc", scenarios.for_page("curves"), ids=lambda sc: sc.id)
def test_a_scenario_of_the_page_reads_in_chinese(sc):
    at = _open(dict(sc.query()))
    assert _english(at, scenario_effects.dataset_of(sc)) == []
    links = [link.proto.label for link in at.main.get("page_link")]
    assert _zh(sc.title) in links and _zh(sc.title) != sc.title
    assert f"观察：{_zh(sc.watch)}" in [c.value for c in at.main.caption]
