"""Predict, then reveal, airtight: with ``?reveal=0`` no number a page's headlines or
derivations give away (:mod:`tests.hidden_values`, computed from the page models) is
anywhere in what the page emits (:mod:`tests.views.reveal_texts`: every text, table
cell, option, chart text and point, component datum and download), on every page and
every scenario, every tab of the page opened; after Reveal they are there, and no
table heads a column with a code-style name (``n_true_at_or_above``, ``y_hat``).
"""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from explorer import registry
from explorer.scenarios import all_scenarios
from tests import hidden_values
from tests.conftest import APP
from tests.views import reveal_texts
from views.curves import tabs as curves_tabs
from views.curves import teach as curves_teach
from views.dcg import panel as dcg_panel
from views.label_ranking import derivation as lr_derivation
from views.multilabel import panel as ml_panel

#: Each page on the sample it teaches with (the scenarios add the others).
SAMPLES = {
    "home": "balanced",
    "curves": "balanced",
    "label_ranking": "seed003_lrap",
    "dcg": "seed001_dcg",
    "retrieval": "seed002_map",
    "multilabel": "digit_properties",
    "multiclass": "iris",
    "regression": "diabetes",
    "compare": "breast_cancer",
    "slices": "breast_cancer",
    "leaderboard": "breast_cancer_five",
}
#: The lazy tabs of a page (only the open one is drawn): (session key, labels).
TABS = {
    "curves": (
        ("curves_t_tab", curves_tabs.THRESHOLD_TABS),
        ("curves_teach_tab", curves_teach.TEACHING_TABS),
    ),
    "label_ranking": (("lr_steps_tab", lr_derivation.STEP_TABS),),
    "dcg": ((dcg_panel.TAB_KEY, dcg_panel.TABS),),
    "multilabel": ((ml_panel.TAB_KEY, ml_panel.TABS),),
}
#: More openings: Home on a worked example's sample (its description, the gallery),
#: Top-K on the preset of a worked example (its caption).
MORE = {
    "home-lrap": ("home", {"ds": "seed003_lrap"}),
    "retrieval-preset": ("retrieval", {"ds": "seed002_map", "preset": "revision sheet AP@K"}),
}
CASES = (
    [(slug, {"ds": sample}) for slug, sample in SAMPLES.items()]
    + list(MORE.values())
    + [(sc.page, sc.query()) for sc in all_scenarios()]
)
IDS = list(SAMPLES) + list(MORE) + [sc.id for sc in all_scenarios()]


def _every_tab(at: AppTest, slug: str, downloads: list[str]) -> reveal_texts.Found:
    """What the page emits with each of its lazy tabs open in turn."""
    found = reveal_texts.texts(at)
    found.texts.extend(f"download: {d}" for d in downloads)
    for key, labels in TABS.get(slug, ()):
        if key not in at.session_state:  # held back, with all its tabs, until Reveal
            continue
        opened = at.session_state[key]
        for label in labels:
            if label == opened:
                continue
            at.session_state[key] = label
            at.run()
            assert not at.exception, (key, label, at.exception)
            more = reveal_texts.texts(at)
            found.texts.extend(more.texts)
            found.numbers.extend(more.numbers)
        at.session_state[key] = opened
        at.run()
    found.texts.extend(f"download: {d}" for d in downloads)  # those of the tabs too
    return found


@pytest.mark.parametrize(("slug", "query"), CASES, ids=IDS)
def test_nothing_hidden_shows_until_reveal(slug, query):
    with reveal_texts.downloads() as downloads:
        at = AppTest.from_file(APP, default_timeout=60)
        at.query_params.update({**query, "reveal": "0"})
        at.switch_page(registry.script(slug)).run()
        assert not at.exception, at.exception
        address = {k: at.query_params[k] for k in at.query_params}
        hidden = hidden_values.hidden_texts(slug, address)
        found = _every_tab(at, slug, downloads)
        leaks = hidden_values.leaks(found.texts, hidden, found.numbers)
        assert not leaks, "\n".join(f"{h!r} in {t!r}" for h, t in dict(leaks).items())

        assert {m.value for m in at.main.metric} >= {"?"}
        at.button(key=f"{registry.page(slug).prefix}reveal").click().run()
        assert "?" not in {m.value for m in at.main.metric}
        shown = reveal_texts.texts(at)
        # every table, now drawn, heads its columns in words, not code (hits_so_far)
        assert reveal_texts.code_names(at, hidden_values.dataset_of(address)) == []
        if hidden.strict | hidden.text:  # a perfect ranker's 1.0 is also a label
            assert hidden_values.leaks(shown.texts, hidden, shown.numbers)  # they are back
