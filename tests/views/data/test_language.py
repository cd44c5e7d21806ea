"""The Data page in Chinese (``?lang=zh``, AppTest): no English sentence left, on the
page as it opens and with a new table started, its counts those of the data, the
new table's component worded from the catalogue."""

from __future__ import annotations

from explorer import i18n
from explorer.registry import script
from explorer.samples import load_sample
from tests.views import untranslated
from tests.views.test_links_app import open_app


def _zh(text: str) -> str:
    return i18n.translate(text, "zh")


def test_the_data_page_in_chinese_leaves_no_english_and_counts_the_data():
    ds = load_sample("balanced")
    at = open_app(script("data"), "balanced", lang="zh")
    assert untranslated.page_english(at, ds) == []
    assert at.title[0].value == _zh("Data") == "数据"
    counts = {m.label: m.value for m in at.metric}
    assert counts == {
        _zh("Samples"): str(ds.n_samples),
        _zh("Labels"): str(ds.n_labels),
        _zh("Models"): str(len(ds.model_names)),
    }
    assert _zh("Validation summary") in [h.value for h in at.subheader]
    summary = at.table[0].value
    assert list(summary.columns) == [_zh("what"), _zh("value")]
    positives = dict(zip(summary.iloc[:, 0], summary.iloc[:, 1], strict=True))[_zh("positives")]
    assert positives == f"{ds.n_samples} 个中的 {int(ds.y_true.sum())} 个"
    at.button(key="data_new_start").click().run()
    assert not at.exception and untranslated.page_english(at, ds) == []
    # the component's words come from Python, in the visitor's language
    assert _zh("Add row") in _component_texts(at) and _zh("Apply") in _component_texts(at)


def _component_texts(at) -> list[str]:
    from tests.views import reveal_texts

    return [t.partition(": ")[2] for t in reveal_texts.texts(at).texts if t.startswith("Unknown")]
