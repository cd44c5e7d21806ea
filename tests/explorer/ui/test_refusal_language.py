"""A refusal of ``metrics`` in the visitor's language (explorer.ui.language.refusal): a
common shape translated, any other quoted in a Chinese sentence, English unchanged."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from explorer import i18n

SINGLE = (
    "ROC AUC is undefined: y_true holds a single class, only the positive class; it needs "
    "at least one positive and one negative."
)
OTHER = "y_score: row 3 holds an odd value."


def _page():
    import streamlit as st

    from explorer.ui import language

    for message in (
        "ROC AUC is undefined: y_true holds a single class, only the positive class; it "
        "needs at least one positive and one negative.",
        "y_score: row 3 holds an odd value.",
    ):
        st.text(language.refusal(ValueError(message)))


def _shown(lang: str | None) -> list[str]:
    at = AppTest.from_function(_page)
    if lang:
        at.query_params["lang"] = lang
    at.run()
    assert not at.exception
    return [t.value for t in at.text]


def test_a_refusal_is_translated_or_quoted_in_a_chinese_sentence_and_english_is_unchanged():
    assert _shown(None) == [SINGLE, OTHER]
    common, other = _shown("zh")
    assert common.startswith("ROC AUC 无定义") and common != SINGLE
    frame = i18n.translate("The metric refuses these numbers, in its own words: ${reason}", "zh")
    assert other == frame.replace("${reason}", OTHER) and other.startswith("指标拒绝")
