"""The worked examples in AppTest: each Home card opens its page on its sample and
settings, and the document's number stands there, computed independently
(tests/explorer/test_examples.computed); a page's own buttons open its examples."""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

from explorer import examples
from explorer.formatting import fmt
from explorer.registry import script
from explorer.ui import navigation
from tests.conftest import APP
from tests.explorer.test_examples import computed


def texts(at: AppTest) -> str:
    """Every text of the main area a class reads: metrics, Markdown, LaTeX, tables."""
    parts = [f"{m.label} = {m.value}" for m in at.main.metric]
    parts += [el.value for kind in ("markdown", "latex", "caption") for el in at.main.get(kind)]
    parts += [el.value.to_csv() for el in at.main.dataframe]
    return "\n".join(map(str, parts))


def shows(at: AppTest, ex: examples.Example) -> None:
    """The example's numbers on its page, where the card says they stand."""
    got = computed(ex)
    metrics = {m.label: m.value for m in at.main.metric}
    if ex.page in ("label_ranking", "dcg"):
        label = ex.where
        assert metrics[label] in (fmt(got[0]), "0" if got[0] == 0 else None), (ex.id, metrics)
    elif ex.id == "ex-roc6":
        steps = next(d.value for d in at.main.dataframe if "fpr" in d.value.columns)
        points = steps[["fpr", "tpr"]].to_numpy()[1:].ravel().tolist()
        assert points == got
    elif ex.id == "ex-auc8":
        assert metrics["AUC: all pairs"] == fmt(got[0])
    else:
        body = texts(at)
        for value in got:
            assert re.search(rf"= {re.escape(fmt(value))}\b", body), (ex.id, fmt(value))


def test_each_home_card_opens_its_example_with_the_documents_number():
    at = AppTest.from_file(APP, default_timeout=60).run()
    for ex in examples.EXAMPLES:
        at.button(key=f"home_example_{ex.id}").click().run()
        assert not at.exception, (ex.id, at.exception)
        assert at.session_state[navigation.PAGE] == ex.page
        for param, value in ex.params:
            if param != "ds":
                assert at.query_params[param] == value, (ex.id, param)
        shows(at, ex)
        note = " ".join(i.value for i in at.main.info)
        assert "Worked example" in note and ex.where in note, (ex.id, note)
        at.switch_page(script("home")).run()
        assert not at.main.info or "Worked example" not in at.main.info[0].value


def test_a_page_opens_its_own_examples_and_hides_the_printed_number():
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(reveal="0")
    at.switch_page(script("curves")).run()
    roc6, auc8 = examples.for_page("curves")
    at.button(key=f"curves_example_{auc8.id}").click().run()
    assert not at.exception
    assert at.session_state[navigation.PAGE] == "curves"
    assert at.query_params["ds"] == "seed002_auc8" and at.query_params["tab"] == "auc"
    note = at.main.info[0].value
    assert "prints **?**" in note  # "Predict, then reveal": no number before Reveal
