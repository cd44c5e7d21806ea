"""The Data page in Chinese (``?lang=zh``, AppTest): no English sentence left, on the
page as it opens and with a new table started, its counts those of the data, the
new table's component worded from the catalogue; a refused upload's reason in Chinese,
then in the readers' English once the visitor switches."""

from __future__ import annotations

from explorer import i18n
from explorer.formatting import literal
from explorer.ui import language
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


#: Uploads the readers refuse: the uploader's key, the files, and the refusal's English
#: as the readers write it (byte for byte: a visitor in English sees it unchanged).
REFUSED = {
    "data_upload_file": (
        [("mes;ures.csv", b"y_true;y_score\n1;0.5\n0;0.2\n")],
        "mes;ures.csv, line 1: the header 'y_true;y_score' reads as one column: the delimiter "
        "looks like ';', but a CSV file is separated by ','. Save it with ',' between "
        "columns, or name it .txt to let the explorer detect the delimiter.",
    ),
    "data_upload_labels": (
        [("truth.csv", b"a,b\n1,0\n")],
        None,  # half of the pair: nothing is read until the scores come
    ),
    "data_upload_scores": (
        [("s.csv", b"a,b,bird\n.9,.2,.1\n")],
        "truth.csv has 2 columns but s.csv has 3 (extra: ['bird']); the headers must match.",
    ),
}


def test_a_refused_upload_says_why_in_chinese_with_the_visitor_names_then_in_english():
    at, ds = opened("data", "balanced", "Data")
    for key, (files, _) in REFUSED.items():
        uploader = at.file_uploader(key=key)
        for name, data in files:
            uploader.upload(name, data, "text/csv")
        at.run()
    assert not at.exception
    delimiter = zh(
        "${at}: the header ${header} reads as one column: the delimiter looks like ${other}, "
        "but a ${what} file is separated by ${sep}. Save it with ${sep} between columns, or "
        "name it .txt to let the explorer detect the delimiter.",
        at=zh("${label}, ${where}", label="mes;ures.csv", where=zh("line ${n}", n=1)),
        header="'y_true;y_score'",
        other="';'",
        what="CSV",
        sep="','",
    )
    headers = zh(
        "${head} (${parts}); the headers must match.",
        head=zh("${a} has ${na} columns but ${b} has ${nb}", a="truth.csv", na=2, b="s.csv", nb=3),
        parts=zh("extra: ${names}", names="['bird']"),
    )
    assert _refusals(at) == [_notice(delimiter, "zh"), _notice(headers, "zh")]
    assert "mes;ures.csv" in delimiter and "'bird'" in headers and "truth.csv" in headers
    assert untranslated.page_english(at, ds) == []  # the refusals' words included
    # the same refusals once the visitor switches to English: the readers' own words
    at.sidebar.selectbox(key=language.PICKER).set_value("en").run()
    english = [message for _, message in REFUSED.values() if message]
    assert _refusals(at) == [_notice(message, "en") for message in english]


def _notice(why: str, lang: str) -> str:
    """The Data page's box around a refusal, in ``lang``."""
    return i18n.Phrase("Not loaded, your data is unchanged: ${why}", why=literal(why)).translated(
        lang
    )


def _refusals(at) -> list[str]:
    return [e.value for e in at.main.error]
