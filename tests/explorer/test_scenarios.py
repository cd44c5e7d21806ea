"""explorer.scenarios: two or three teaching moments per page, each a valid link."""

from __future__ import annotations

import re

import numpy as np

from explorer import registry, scenarios
from explorer.links import decode_dataset
from explorer.samples import load_sample, sample_names
from explorer.ui import navigation

#: The kinds each page shows (each page's require_kind), by slug.
KINDS = {
    "home": {"binary", "multilabel", "graded", "regression"},
    "curves": {"binary"},
    "label_ranking": {"multilabel"},
    "dcg": {"graded", "multilabel"},
    "retrieval": {"graded", "multilabel"},
    "multilabel": {"multilabel"},
    "regression": {"regression"},
    "multiclass": {"multiclass"},
    "compare": {"binary", "multilabel", "graded", "regression"},
    "leaderboard": {"binary", "multilabel", "graded", "regression", "multiclass"},
}


def dataset(sc):
    params = dict(sc.params)
    return load_sample(params["ds"]) if "ds" in params else decode_dataset(params["data"])


def test_two_or_three_per_page_with_unique_ids():
    ids = [s.id for s in scenarios.all_scenarios()]
    assert len(ids) == len(set(ids))
    for page in KINDS:
        assert 2 <= len(scenarios.for_page(page)) <= 3, page
    assert {s.page for s in scenarios.all_scenarios()} <= {p.slug for p in registry.PAGES}


def test_every_dataset_exists_and_fits_its_page():
    for sc in scenarios.all_scenarios():
        params = dict(sc.params)
        assert ("ds" in params) != ("data" in params), sc.id
        if "ds" in params:
            assert params["ds"] in sample_names(), sc.id
        assert dataset(sc).kind in KINDS[sc.page], sc.id
        assert all(isinstance(v, str) for v in params.values())


def test_the_packed_datasets_are_the_teaching_moments():
    flipped = scenarios.flipped_label()
    base = load_sample("balanced")
    changed = np.flatnonzero(flipped.y_true != base.y_true)
    assert changed.size == 1 and base.y_true[changed[0]] == 1  # a positive became negative
    good = base.score("good")
    assert good[changed[0]] == good[base.y_true == 1].max()  # the most confident one
    assert (scenarios.zero_target().y_true == 0).sum() == 1
    for sc in scenarios.all_scenarios():
        if "data" in dict(sc.params):
            ds = decode_dataset(dict(sc.params)["data"])
            assert ds.name in {flipped.name, "tied scores", "a zero target", "a rare label"}


def test_no_internal_words_and_a_link_marker():
    for sc in scenarios.all_scenarios():
        assert not re.search(r"seed ?0\d", f"{sc.title} {sc.watch}", re.IGNORECASE)
        assert sc.query()["scn"] == sc.id
        assert navigation.SCENARIO_PARAM == "scn"


def test_no_scenario_title_gives_its_answer_away():
    """A title is read while "Predict, then reveal" hides the numbers: it names the
    moment, never a computed number ("7.5 versus 5.0" was one)."""
    titles = [s.title for s in scenarios.all_scenarios()]
    assert not [t for t in titles if re.search(r"\d\.\d", t)]
    assert any(re.search(r"\d", t) for t in titles)  # a setting (k = 2) may stay
