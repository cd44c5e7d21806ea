"""Scenarios, in AppTest: every scenario's link opens its page with
no exception, the page's headline numbers, its dataset and its settings in use (the
widgets hold them and the page writes them back into the address)."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from explorer import scenario_effects
from explorer.links import decode_dataset
from explorer.registry import script
from explorer.scenarios import all_scenarios, for_page
from explorer.ui import effects, session
from tests.conftest import APP, open_page

#: Per page: URL parameter -> the widget key that holds it.
WIDGETS = {
    "label_ranking": {"sort": "lr_sort_by", "ties": "lr_tie_mode"},
    "dcg": {"k": "dcg_k", "ignore_ties": "dcg_ignore_ties"},
    "retrieval": {
        "k": "ret_k",
        "ap_denominator": "ret_ap_denominator",
        "rel_level": "ret_rel_level",
        "empty_query": "ret_empty_query",
    },
    "multilabel": {
        "rule": "ml_pred_rule",
        "t": "ml_threshold",
        "k": "ml_top_k",
        "zd": "ml_zero_division",
    },
    "regression": {
        "shift": "reg_outlier_shift",
        "weights": "reg_weights",
        "explain": "reg_explain",
    },
    "compare": {"a": "cmp_a", "b": "cmp_b"},
    "leaderboard": {"test": "lb_test", "corr": "lb_corr"},
    "multiclass": {"k": "mc_k", "norm": "mc_norm"},
    "curves": {},
    "home": {},
}


def same(value, text: str) -> bool:
    """Whether a widget's value is the URL text ``text``."""
    if isinstance(value, bool):
        return int(value) == int(text)
    if isinstance(value, int | float):
        return float(value) == float(text)
    return str(value) == text


def open_link(params: dict, slug: str) -> AppTest:
    """A fresh session opened on the address ``<slug>?params``."""
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(params)
    at.switch_page(script(slug)).run()
    return at


def dataset_of(sc) -> str:
    params = dict(sc.params)
    return params["ds"] if "ds" in params else decode_dataset(params["data"]).name


def check_scenario(at: AppTest, sc) -> None:
    assert not at.exception, (sc.id, at.exception)
    assert at.session_state[session.ACTIVE] == dataset_of(sc)
    shown = {m.label: m.value for m in at.main.metric}
    assert shown and "?" not in shown.values(), (sc.id, shown)
    for param, value in sc.settings.items():
        assert at.query_params[param] == value, (sc.id, param, at.query_params[param])
        key = WIDGETS[sc.page].get(param)
        if key is not None:
            assert same(at.session_state[key], value), (sc.id, key, at.session_state[key])
    assert "scn" not in at.query_params  # the marker has done its work
    # what changes, before and after side by side with the difference (shown numbers)
    want = effects.table(scenario_effects.effect(sc.id), True)
    drawn = [d.value for d in at.main.dataframe if "difference" in d.value.columns]
    assert len(drawn) == 1 and drawn[0].equals(want), (sc.id, drawn)
    captions = " ".join(c.value for c in at.main.caption)
    assert "opened from a shared link" not in captions, sc.id  # a scenario's data


@pytest.mark.parametrize("sc", all_scenarios(), ids=[s.id for s in all_scenarios()])
def test_every_scenario_link_opens_its_page_with_its_settings(sc):
    check_scenario(open_link(sc.query(), sc.page), sc)


def test_every_page_of_mine_offers_its_scenarios_as_links():
    for page in ("home", "dcg", "regression"):
        at = open_page(script(page), "diabetes" if page == "regression" else "diabetes_ranking")
        links = at.get("page_link")
        wanted = [s.title for s in for_page(page)]
        assert [link.proto.label for link in links] == wanted
        for link, sc in zip(links, for_page(page), strict=True):
            assert f"scn={sc.id}" in link.proto.query_string
        watch = [c.value for c in at.main.caption if c.value.startswith("Watch: ")]
        assert watch == [f"Watch: {s.watch}" for s in for_page(page)]


def test_predict_then_reveal_hides_what_each_scenario_shows():
    """A "Watch:" note names the number the class is asked to predict; a scenario's
    numbers before and after are "?" until Reveal."""
    sc = next(s for s in all_scenarios() if s.id == "curves-flip")
    at = open_link(sc.query(reveal="0"), sc.page)
    drawn = next(d.value for d in at.main.dataframe if "difference" in d.value.columns)
    assert drawn.equals(effects.table(scenario_effects.effect(sc.id), False))
    assert set(drawn.iloc[:, 1:].to_numpy().ravel()) == {"?"}
    at = open_page(script("dcg"), "diabetes_ranking", reveal="0")
    assert [link.proto.label for link in at.get("page_link")] == [s.title for s in for_page("dcg")]
    captions = [c.value for c in at.main.caption]
    assert not [c for c in captions if c.startswith("Watch: ")]
    assert "What to watch in each is not shown while Predict, then reveal is on." in captions


def test_a_scenario_clicked_inside_the_app_wins_over_the_session():
    """A click on a scenario link keeps the session (another dataset, other settings):
    the scenario's dataset and settings are used, as in a fresh session."""
    sc = next(s for s in all_scenarios() if s.id == "dcg-tie-top")
    at = open_page(script("dcg"), "diabetes_ranking", k="3", ignore_ties="1")
    assert at.session_state["dcg_k"] == 3
    at.query_params.clear()
    at.query_params.update(sc.query())
    at.run()
    check_scenario(at, sc)
    fresh = open_link(sc.query(), sc.page)
    assert [(m.label, m.value) for m in at.main.metric] == [
        (m.label, m.value) for m in fresh.main.metric
    ]
    assert any(m.label == "DCG of row 1" and m.value == "7.500" for m in at.main.metric)


def test_scenario_links_keep_the_app_settings_in_use():
    at = open_page(script("regression"), "diabetes", present="1", ci="1")
    link = at.get("page_link")[0].proto.query_string
    assert "present=1" in link and "ci=1" in link
