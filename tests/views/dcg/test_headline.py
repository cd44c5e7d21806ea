"""DCG & NDCG page: the headline means, written out as the means of the rows, and the
opened example's row first."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests import conftest
from tests.conftest import APP, graded_case, metric, read_derivation
from tests.views.dcg.helpers import (
    PAGE,
    all_text,
    open_page,
    steps_table,
)


def test_default_view_matches_metrics_and_seed_numbers_appear():
    at = open_page("seed001_dcg")
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    assert at.title[0].value == "DCG & NDCG"
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s))
    assert metric(at, "NDCG") == fmt(metrics.ndcg_score(y, s))
    text = all_text(at)
    # scikit-learn's four dcg_score examples, as the page formats them
    for value in (
        metrics.dcg_score(y[:1], s[:1]),
        metrics.dcg_score(y[:1], s[:1], k=2),
        metrics.dcg_score(y[1:], s[1:], k=1),
        metrics.dcg_score(y[1:], s[1:], k=1, ignore_ties=True),
    ):
        assert f"**{fmt(value)}**" in text
    for literal in ("9.499", "5.631", "7.500", "9.49..."):
        assert literal in text
    assert "(10 + 5) / 2 = 7.5" in text
    # the step table of sample 0 ends at the sample's DCG
    t = steps_table(at)
    np.testing.assert_allclose(
        t["running sum"], metrics.dcg_steps(y[0], s[0])["running_sum"], rtol=1e-12
    )
    assert metric(at, "DCG of this sample") == fmt(metrics.dcg_per_sample(y, s)[0])


def test_dcg_and_ndcg_are_written_as_means_of_the_rows():
    """The DCG 11.09 of the two rows of scikit-learn's example is (9.499 + 12.67) / 2 on screen."""
    at = open_page("seed001_dcg")
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    for name, per_sample in (("DCG", metrics.dcg_per_sample), ("NDCG", metrics.ndcg_per_sample)):
        d = read_derivation(at, name)
        v = per_sample(y, s)
        assert d["terms"] == [fmt(x) for x in v] and d["denominator"] == "2", name
        assert d["value"] == metric(at, name) == fmt(v.mean()), name
    assert read_derivation(at, "DCG")["value"] == "11.09"


def test_derivation_of_many_weighted_rows_shows_head_tail_and_weights():
    from explorer.datasets import Dataset

    y, s = graded_case(4, n=30)
    w = np.arange(30) % 3 + 1.0
    ds = Dataset("weighted_graded", "graded", y, {"m": s}, sample_weight=w)
    at = AppTest.from_file(str(conftest.ROOT / PAGE), default_timeout=30)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    at.run()
    assert not at.exception
    for name, per_sample in (("DCG", metrics.dcg_per_sample), ("NDCG", metrics.ndcg_per_sample)):
        d = read_derivation(at, name)
        v = per_sample(y, s)
        assert d["omitted"] and d["denominator"] == f"{int(w.sum())}"
        assert d["terms"] == [f"{int(w[i])} × {fmt(v[i])}" for i in (0, 1, 2, 28, 29)]
        assert d["total"] == fmt(np.dot(w, v))
        want = {"DCG": metrics.dcg_score, "NDCG": metrics.ndcg_score}[name](y, s, sample_weight=w)
        assert d["value"] == metric(at, name) == fmt(want)


def test_open_7_5_makes_the_focused_row_the_first_number():
    """After "Open 7.5" the first number on the page is row 1's 7.500; the mean follows."""
    at = open_page("seed001_dcg")
    at.button(key="dcg_seed_example_2").click().run()
    assert not at.exception
    ds = load_sample("seed001_dcg")
    y, s = ds.y_true, ds.score()
    assert at.metric[0].label == "DCG of row 1"
    assert at.metric[0].value == fmt(metrics.dcg_per_sample(y, s, k=1)[1]) == "7.500"
    assert metric(at, "DCG") == fmt(metrics.dcg_score(y, s, k=1)) == "6.250"
    d = read_derivation(at, "DCG")
    assert d["terms"] == ["5", "7.500"] and d["value"] == "6.250"
    # another k ends the focus: the headline is the first number again
    at.number_input(key="dcg_k").set_value(2).run()
    assert not at.exception
    assert at.metric[0].label == "DCG"
    assert not any(m.label == "DCG of row 1" for m in at.metric)


def test_the_focus_travels_in_the_link():
    at = open_page("seed001_dcg")
    at.button(key="dcg_seed_example_2").click().run()
    assert at.query_params["focus"] == "2"
    link = {key: at.query_params[key] for key in at.query_params}
    fresh = AppTest.from_file(APP, default_timeout=30)
    for key, value in link.items():
        fresh.query_params[key] = value
    fresh.run()
    fresh.switch_page(PAGE).run()
    assert not fresh.exception
    assert (fresh.metric[0].label, fresh.metric[0].value) == ("DCG of row 1", "7.500")
    assert [(m.label, m.value) for m in fresh.metric] == [(m.label, m.value) for m in at.metric]
    at.toggle(key="dcg_ignore_ties").set_value(True).run()  # away from the example
    assert "focus" not in at.query_params and at.metric[0].label == "DCG"
