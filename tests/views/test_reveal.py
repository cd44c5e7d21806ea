"""Predict, then reveal, in AppTest: with ``reveal=0`` every headline
number of a page shows "?" and its derivation lines wait too, until the page's Reveal
button; the numbers then stay until a control, the dataset or the page changes."""

from __future__ import annotations

import pytest

from explorer import registry
from explorer.registry import script
from explorer.ui import classroom
from tests.conftest import open_page

#: page -> (a sample it shows, its headline labels, the container of its derivations,
#: a control to move: (widget kind, key, value)).
PAGES = {
    script("home"): ("balanced", ("ROC AUC", "Average precision", "Gini"), None, None),
    script("label_ranking"): (
        "digit_properties",
        ("Coverage error", "LRAP", "Ranking loss"),
        "lr_derivation",
        ("selectbox", "lr_sort_by", "coverage"),
    ),
    script("dcg"): (
        "diabetes_ranking",
        ("DCG", "NDCG"),
        "dcg_derivation",
        ("toggle", "dcg_ignore_ties", True),
    ),
    script("retrieval"): (
        "diabetes_ranking",
        ("P@K", "R@K", "MAP@K", "MRR", "ERR@K", "NDCG@K"),
        "ret_derivation",
        ("slider", "ret_k", 3),
    ),
    script("multilabel"): (
        "digit_properties",
        ("Hamming loss", "Subset accuracy", "Micro F1", "Macro F1"),
        None,
        ("slider", "ml_threshold", 0.7),
    ),
    script("compare"): ("balanced", ("ROC AUC of A", "ROC AUC: B - A"), None, None),
    script("multiclass"): (
        "iris",
        ("Accuracy", "MCC", "Log loss"),
        None,
        ("radio", "mc_norm", "true"),
    ),
    script("curves"): (
        "balanced",
        ("ROC AUC", "Average precision", "Log loss", "Precision", "Accuracy"),
        None,
        ("number_input", "curves_threshold_number", 0.7),
    ),
    script("regression"): (
        "diabetes",
        ("MAE", "RMSE", "MAPE", "RMSLE", "R²"),
        None,
        ("number_input", "reg_outlier_shift", 100.0),
    ),
}


def headlines(at, labels) -> dict[str, str]:
    shown = {m.label: m.value for m in at.main.metric}
    return {label: shown[label] for label in labels}


def move(at, control) -> None:
    kind, key, value = control
    getattr(at, kind)(key=key).set_value(value).run()


@pytest.mark.parametrize("page", list(PAGES))
def test_numbers_wait_for_reveal_then_hide_again_on_a_change(page):
    sample, labels, _, control = PAGES[page]
    plain = open_page(page, sample)
    numbers = headlines(plain, labels)
    assert "?" not in numbers.values()
    assert not plain.get("button") or all(not b.key.endswith("reveal") for b in plain.button)

    at = open_page(page, sample, reveal="0")
    assert set(headlines(at, labels).values()) == {"?"}
    assert at.query_params["reveal"] == "0"
    assert at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).value is True
    prefix = registry.by_script(page).prefix
    at.button(key=f"{prefix}reveal").click().run()
    assert not at.exception
    assert headlines(at, labels) == numbers
    at.run()  # a rerun that changes nothing keeps them
    assert headlines(at, labels) == numbers
    if control is not None:
        move(at, control)
        assert not at.exception
        assert set(headlines(at, labels).values()) == {"?"}
        assert at.query_params["reveal"] == "0"


def test_the_derivation_lines_wait_too():
    """Each derivation line ends in its headline number: hidden with the numbers."""
    for page, sample, name in (
        (script("label_ranking"), "digit_properties", "LRAP"),
        (script("dcg"), "diabetes_ranking", "NDCG"),
        (script("retrieval"), "diabetes_ranking", "MAP@K"),
    ):
        plain = open_page(page, sample)
        lines = [m.value for m in plain.main.markdown if m.value.startswith(f"{name} = ")]
        assert lines, page
        at = open_page(page, sample, reveal="0")
        assert not [m.value for m in at.main.markdown if m.value.startswith(f"{name} = ")]
        assert any("appear with them, after Reveal" in c.value for c in at.main.caption)
        at.button(key=f"{registry.by_script(page).prefix}reveal").click().run()
        assert [m.value for m in at.main.markdown if m.value.startswith(f"{name} = ")] == lines
    at = open_page(script("regression"), "diabetes", reveal="0", shift="50")
    derived = "Every headline number, derived from the samples"
    hidden_latex = len(at.main.latex)
    assert not next(e for e in at.main.expander if e.label == derived).latex
    assert not [e for e in at.main.info if "MAE changed by" in e.value]
    at.button(key="reg_reveal").click().run()
    assert next(e for e in at.main.expander if e.label == derived).latex
    assert len(at.main.latex) > hidden_latex + 8  # the derivations and the explained metric
    assert [e for e in at.main.info if "MAE changed by" in e.value]


def test_a_page_change_hides_the_numbers_again():
    at = open_page(script("dcg"), "diabetes_ranking", reveal="0")
    at.button(key="dcg_reveal").click().run()
    assert headlines(at, ["DCG"])["DCG"] != "?"
    at.query_params.clear()  # a sidebar click
    at.switch_page(script("retrieval")).run()
    assert headlines(at, ["P@K"])["P@K"] == "?"
    at.switch_page(script("dcg")).run()
    assert headlines(at, ["DCG"])["DCG"] == "?"
    assert at.query_params["reveal"] == "0"  # an app setting: kept on every page


def test_switching_it_off_shows_the_numbers_and_drops_the_setting():
    at = open_page(script("regression"), "diabetes", reveal="0")
    assert headlines(at, ["MAE"])["MAE"] == "?"
    at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).set_value(False).run()
    assert headlines(at, ["MAE"])["MAE"] != "?"
    assert "reveal" not in at.query_params
    at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).set_value(True).run()
    assert headlines(at, ["MAE"])["MAE"] == "?" and at.query_params["reveal"] == "0"


def test_default_is_off():
    at = open_page(script("home"), "balanced")
    assert at.sidebar.toggle(key=classroom.PREDICT_TOGGLE).value is False
    assert "reveal" not in at.query_params


def test_the_map_written_out_waits_too():
    """Small retrieval data write MAP@K out as the mean of every query's AP@K."""
    at = open_page(script("retrieval"), "seed002_map", reveal="0", k="5")
    assert not [x for x in at.main.latex if "MAP@5 =" in x.value]
    at.button(key="ret_reveal").click().run()
    assert [x for x in at.main.latex if "MAP@5 =" in x.value]
