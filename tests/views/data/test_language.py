"""The Data page in Chinese (``?lang=zh``, AppTest): no English sentence left, on the
page as it opens and with a new table started, its counts those of the data, the
new table's component worded from the catalogue."""

from __future__ import annotations

from tests.views import reveal_texts, untranslated
from tests.views.chinese import opened, zh
from views.data import new_table


def test_the_data_page_in_chinese_leaves_no_english_and_counts_the_data():
    at, ds = opened("data", "balanced", "Data")
    counts = {m.label: m.value for m in at.metric}
    assert counts == {
        zh("Samples"): str(ds.n_samples),
        zh("Labels"): str(ds.n_labels),
        zh("Models"): str(len(ds.model_names)),
    }
    assert zh("Validation summary") in [h.value for h in at.subheader]
    summary = at.table[0].value
    assert list(summary.columns) == [zh("what"), zh("value")]
    positives = dict(zip(summary.iloc[:, 0], summary.iloc[:, 1], strict=True))[zh("positives")]
    assert positives == f"{ds.n_samples} 个中的 {int(ds.y_true.sum())} 个"
    at.button(key="data_new_start").click().run()
    # the grid's draft id is random hex, no text: its letters between digits look like words
    draft = at.session_state[new_table.STARTED][3]
    left = [run for run in untranslated.page_english(at, ds) if f"{draft}'" not in run]
    assert not at.exception and left == []
    # the component's words come from Python, in the visitor's language
    assert zh("Add row") in _component_texts(at) and zh("Apply") in _component_texts(at)


def _component_texts(at) -> list[str]:
    return [t.partition(": ")[2] for t in reveal_texts.texts(at).texts if t.startswith("Unknown")]
