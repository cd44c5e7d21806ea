"""explorer.ui.derivations.show: every page's way of drawing its derivations, in one
place, waiting for the Reveal while "Predict, then reveal" is on."""

from __future__ import annotations

from streamlit.testing.v1 import AppTest

from tests.conftest import rendered

HIDDEN_NOTE = "The derivations of the numbers appear with them, after Reveal."


def _page(options: dict | None = None, reveal: bool = False) -> None:
    """The script AppTest runs: three derivations drawn with ``options``."""
    import streamlit as st

    from explorer.derivation import Derivation
    from explorer.ui import classroom, derivations

    classroom.track_view()
    if reveal:
        classroom.reveal_button()
    lines = [
        Derivation("MAE", r"\frac{1}{N}\sum_i |e_i|", r"\frac{1 + 2}{2} = 1.500", value=1.5),
        Derivation(
            "RMSE",
            "",
            r"\sqrt{2.500} = 1.581",
            "the first 3 and last 2 of 9 terms",
            1.581,
            steps=(r"\frac{1 + 4}{2} = 2.500",),
        ),
        Derivation("R²", r"1 - \frac{SS_{res}}{SS_{tot}}", "", "undefined: y is constant"),
    ]
    st.session_state["drawn"] = derivations.show(lines, **(options or {}))


def _run(options: dict | None = None, *, predict: bool = False, reveal: bool = False):
    at = AppTest.from_function(_page, kwargs={"options": options, "reveal": reveal})
    if predict:
        at.session_state["predict_mode"] = True
    at.run()
    assert not at.exception
    return at


def _latex(at) -> list[str]:
    return [x.value.strip("$\n") for x in at.latex]  # AppTest wraps LaTeX in $$


def test_each_line_then_its_caption():
    at = _run()
    assert _latex(at) == [
        r"\frac{1 + 2}{2} = 1.500",
        r"\frac{1 + 4}{2} = 2.500",
        r"\sqrt{2.500} = 1.581",
    ]
    assert [rendered(c.value) for c in at.caption] == [
        "RMSE: the first 3 and last 2 of 9 terms.",
        "R²: undefined: y is constant.",
    ]
    assert not at.warning and at.session_state["drawn"] is True


def test_formulas_come_first_and_an_undefined_number_warns():
    at = _run({"formulas": True, "warn_undefined": True})
    assert _latex(at) == [
        r"\frac{1}{N}\sum_i |e_i|",
        r"\frac{1 + 2}{2} = 1.500",
        r"\frac{1 + 4}{2} = 2.500",
        r"\sqrt{2.500} = 1.581",
        r"1 - \frac{SS_{res}}{SS_{tot}}",
    ]
    assert [rendered(w.value) for w in at.warning] == ["R²: undefined: y is constant"]
    assert [rendered(c.value) for c in at.caption] == ["RMSE: the first 3 and last 2 of 9 terms."]


def test_in_a_container():
    def page() -> None:
        import streamlit as st

        from explorer.derivation import Derivation
        from explorer.ui import derivations

        left, _ = st.columns(2)
        derivations.show([Derivation("F1", "", "F1 = 0.5000", "a note", 0.5)], where=left)

    at = AppTest.from_function(page)
    at.run()
    assert _latex(at) == ["F1 = 0.5000"]
    assert at.columns[0].caption[0].value == "F1: a note."


def test_predict_then_reveal_hides_the_lines_until_the_reveal():
    at = _run(predict=True, reveal=True)
    assert not at.latex and not at.warning
    assert HIDDEN_NOTE in [c.value for c in at.caption]
    assert at.session_state["drawn"] is False
    at.button(key="page_reveal").click().run()
    assert len(_latex(at)) == 3 and HIDDEN_NOTE not in [c.value for c in at.caption]
    assert at.session_state["drawn"] is True


def test_hidden_without_the_note_when_the_page_gave_it():
    at = _run({"hidden_note": False}, predict=True)
    assert not at.latex and not at.caption and at.session_state["drawn"] is False


def test_lines_that_end_in_no_headline_need_no_reveal():
    at = _run({"wait_for_reveal": False}, predict=True)
    assert len(_latex(at)) == 3 and at.session_state["drawn"] is True


def _hostile_page() -> None:
    from explorer.derivation import Derivation
    from explorer.ui import derivations

    # a group label and a refused value a visitor chose, quoted by a derivation's note
    name = "AUC of ![g](http://attacker.example/pixel)"
    derivations.show([Derivation(name, "", "1", "sample **x** <img src=x> refused", 1.0)])


def test_a_visitors_text_in_a_name_or_note_is_shown_as_text():
    at = AppTest.from_function(_hostile_page)
    at.run()
    (caption,) = [c.value for c in at.caption]
    assert rendered(caption) == (
        "AUC of ![g](http://attacker.example/pixel): sample **x** <img src=x> refused."
    )
    # no Markdown image, bold or HTML tag survives for the browser to draw
    assert "![" not in caption and "**" not in caption and "<img" not in caption
