"""DCG & NDCG page: the buttons of scikit-learn's dcg_score examples open their sample,
row, k and tie mode."""

from __future__ import annotations

import pytest

from explorer.formatting import fmt
from tests.conftest import metric, numbered_selectbox
from tests.views.dcg.helpers import open_page, steps_table


def test_seed_example_buttons_set_sample_k_and_tie_mode():
    at = open_page("seed001_dcg")
    cases = [(9.499458, 0, None, False), (5.630930, 0, 2, False), (7.5, 1, 1, False)]
    cases.append((5.0, 1, 1, True))
    for example in (3, 1, 2, 0):
        expected, row, k, ties = cases[example]
        at.button(key=f"dcg_seed_example_{example}").click().run()
        assert not at.exception
        assert metric(at, "DCG of this sample") == fmt(expected)
        assert at.number_input(key="dcg_k").value == k
        assert at.toggle(key="dcg_ignore_ties").value is ties
        assert numbered_selectbox(at, "dcg_sample").value == row
        t = steps_table(at)
        assert t["running sum"].iloc[-1] == pytest.approx(expected, abs=1e-6)


def test_open_seed_button_from_another_dataset():
    at = open_page("diabetes_ranking")
    at.button(key="dcg_open_seed").click().run()
    assert not at.exception
    assert at.session_state["active_dataset"] == "seed001_dcg"
    assert metric(at, "DCG of this sample") == fmt(9.499458)
