"""The Label ranking page's drill-down (AppTest): the sample picker, the tie rule, the
what-if edit and the selected sample's numbers and step tables."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn import metrics as skm
from streamlit.testing.v1 import AppTest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from metrics._ranks import max_rank
from tests import conftest
from tests.conftest import APP, metric, numbered_selectbox
from tests.views.label_ranking.helpers import (
    PAGE,
    SEED_S,
    SEED_Y,
    _case,
    assert_headline,
    assert_sample,
    open_page,
    open_with,
    table,
)


def test_whatif_edit_tie_switch_and_reset():
    at = open_page("seed003_lrap", i="1")
    assert metric(at, "Sample LRAP") == "0.8333"
    # tie the true label "dog" with the false label "cat" at 0.2
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"dog": 0.2}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    s = SEED_S.copy()
    s[1, 2] = 0.2
    assert_headline(at, SEED_Y, s)
    assert_sample(at, SEED_Y[1], s[1])  # max rank: dog at rank 3, |L| = 2 -> 0.8333
    expected = {"max": ("0.8333", "3"), "optimistic": ("1", "2"),
                "pessimistic": ("0.8333", "3")}  # fmt: skip
    for ties, (lrap_txt, cov_txt) in expected.items():
        at.radio(key="lr_tie_mode").set_value(ties).run()
        assert not at.exception
        assert at.query_params["ties"] in (ties, [ties])
        assert (metric(at, "Sample LRAP"), metric(at, "Sample coverage")) == (lrap_txt, cov_txt)
        assert_sample(at, SEED_Y[1], s[1], ties=ties)
        assert_headline(at, SEED_Y, s)  # the headline stays scikit-learn's
    side = table(at, "tie rule")
    assert side["LRAP (this sample)"].round(4).tolist() == [0.8333, 1.0, 0.8333]
    assert side["LRAP (all samples)"].iloc[0] == pytest.approx(
        skm.label_ranking_average_precision_score(SEED_Y, s)
    )
    # the contributions table follows the edit
    contrib = table(at, "LRAP")
    assert contrib.set_index("sample").loc[1, "coverage"] == 3
    at.button(key="lr_whatif_reset").click().run()
    assert not at.exception
    assert metric(at, "LRAP") == "0.7778"
    assert metric(at, "Sample LRAP") == "0.8333"


def test_whatif_lifts_sample0_to_lrap_1():
    at = open_page("seed003_lrap")
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"human": 2.0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    s = SEED_S.copy()
    s[0, 0] = 2.0
    assert metric(at, "Sample LRAP") == "1"
    assert metric(at, "LRAP") == fmt(metrics.label_ranking_average_precision_score(SEED_Y, s))
    assert metric(at, "LRAP") == fmt((1 + 5 / 6 + 1) / 3)


@pytest.mark.parametrize("weighted", [True, False])
def test_whatif_on_weighted_tied_data_equals_the_full_edited_matrix(weighted, deferred_downloads):
    """The one-row update shows the numbers of the whole edited matrix: headline, tie
    rules over all samples, every sample's moves-the-mean effects and the worst-first order."""
    from explorer.datasets import Dataset

    y, s, w = _case(5, n=30)
    w = w if weighted else None
    names = ("a", "b", "c", "d", "e", "f")
    at = open_with(Dataset("tied", "multilabel", y, {"m": s}, sample_weight=w, label_names=names))
    i = int(np.flatnonzero((y.sum(axis=1) > 0) & (y.sum(axis=1) < 6))[1])
    numbered_selectbox(at, "lr_sample").set_value(i).run()
    for new_row in (np.full(6, 0.25), np.array([0.9, 0.1, 0.9, 0.4, 0.0, 0.6])):
        at.session_state["lr_whatif_scores"] = {
            "edited_rows": {0: dict(zip(names, new_row.tolist(), strict=True))},
            "added_rows": [],
            "deleted_rows": [],
        }
        at.run()
        assert not at.exception
        edited = s.copy()
        edited[i] = new_row
        assert_headline(at, y, edited, w)
        assert metric(at, "LRAP") == fmt(
            skm.label_ranking_average_precision_score(y, edited, sample_weight=w)
        )
        assert_sample(at, y[i], edited[i])
        side = table(at, "tie rule")
        rules = metrics.tie_broken_summary(y, edited, sample_weight=w)
        np.testing.assert_allclose(side["LRAP (all samples)"], rules["lrap"], rtol=1e-12)
        np.testing.assert_allclose(side["coverage error (all)"], rules["coverage"], rtol=1e-12)
        full = metrics.sort_worst_first(
            metrics.label_ranking_contributions(y, edited, sample_weight=w), "lrap"
        )
        shown = table(at, "LRAP")
        assert shown["sample"].tolist() == full["sample"].tolist()
        for col, ref in (
            ("coverage moves mean", "coverage_moves_mean"),
            ("LRAP moves mean", "lrap_moves_mean"),
            ("loss moves mean", "ranking_loss_moves_mean"),
            ("LRAP", "lrap"),
            ("ranking loss", "ranking_loss"),
        ):
            np.testing.assert_allclose(shown[col], full[ref], rtol=1e-12, atol=1e-15)
        # the rank table and its download use the what-if row
        ranks = pd.read_csv(io.StringIO(deferred_downloads("ranks_csv")), dtype={"id": str})
        rank_cols = [f"rank_{c}" for c in names]
        np.testing.assert_array_equal(ranks[rank_cols].to_numpy(), max_rank(edited))
        every = pd.read_csv(io.StringIO(deferred_downloads("contrib_csv")), dtype={"id": str})
        assert every["sample"].tolist() == full["sample"].tolist()
        np.testing.assert_allclose(every["lrap_moves_mean"], full["lrap_moves_mean"], rtol=1e-12)


def test_bad_whatif_value_is_refused_without_traceback():
    at = open_page("seed003_lrap")
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"cat": None}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    assert any("not used" in e.value and "NaN at column 1" in e.value for e in at.error)
    assert metric(at, "LRAP") == "0.7778"
    assert table(at, "LRAP")["LRAP"].round(4).tolist() == [0.5, 0.8333, 1.0]


@pytest.mark.parametrize(
    ("sample", "params", "by"),
    [
        ("digit_properties", {}, "lrap"),
        ("seed003_lrap", {"sort": "coverage"}, "coverage"),
        ("seed003_lrap", {"sort": "ranking_loss"}, "ranking_loss"),
    ],
)
def test_drill_down_opens_on_the_worst_sample(sample, params, by):
    ds = load_sample(sample)
    y, s = ds.y_true, ds.score(ds.model_names[0])
    values = {
        "lrap": metrics.lrap_per_sample,
        "coverage": metrics.coverage_per_sample,
        "ranking_loss": metrics.ranking_loss_per_sample,
    }[by](y, s)
    worst = int(np.argmin(values) if by == "lrap" else np.argmax(values))
    at = conftest.open_page(PAGE, sample, **params)
    assert at.session_state["lr_sample"] == worst
    assert metric(at, "Sample LRAP") == fmt(metrics.lrap_per_sample(y, s)[worst])
    assert at.query_params["i"] == str(worst)
    if sample == "digit_properties":
        assert worst != 0  # row 0 was the old default
    top = next(d.value for d in at.dataframe if "LRAP moves mean" in " ".join(d.value.columns))
    assert int(top["sample"].iloc[0]) == worst  # the table's first row is the one opened
    assert next(h for h in at.header if h.proto.anchor == "lr_worst_first")
    assert any("(#lr_worst_first)" in c.value for c in at.caption)


def test_a_link_that_names_a_sample_still_opens_it():
    at = conftest.open_page(PAGE, "seed003_lrap", i="2")
    assert at.session_state["lr_sample"] == 2
    assert metric(at, "Sample LRAP") == fmt(metrics.lrap_per_sample(SEED_Y, SEED_S)[2])


def test_drill_down_steps_show_each_samples_numbers_and_the_url_follows():
    """The drill-down is an st.fragment: each step of the sample (a number box above 1,000
    samples) shows that sample's own numbers, the headline keeps every sample's means, the
    address follows, and a fresh session given that address opens the same sample."""
    from explorer.datasets import Dataset

    y, s, _ = _case(11, n=1500, m=6)
    ds = Dataset("big", "multilabel", y, {"m": s})
    at = open_with(ds)
    lrap, cov, loss = (
        metrics.lrap_per_sample(y, s),
        metrics.coverage_per_sample(y, s),
        metrics.ranking_loss_per_sample(y, s),
    )
    headline = fmt(metrics.label_ranking_average_precision_score(y, s))
    i = at.session_state["lr_sample"]
    for _ in range(4):
        i += 1
        at.number_input(key="lr_sample").increment().run()
        assert not at.exception
        assert at.session_state["lr_sample"] == i
        assert metric(at, "Sample LRAP") == fmt(lrap[i])
        assert metric(at, "Sample coverage") == fmt(cov[i])
        assert metric(at, "Sample ranking loss") == fmt(loss[i])
        assert metric(at, "LRAP") == headline
        assert metric(at, "Coverage error") == fmt(metrics.coverage_error(y, s))
        assert at.query_params["i"] == str(i)
    again = AppTest.from_file(str(Path(APP).parent / PAGE), default_timeout=30)
    again.session_state["session_datasets"] = {ds.name: ds}
    again.session_state["active_dataset"] = ds.name
    again.query_params["i"] = str(i)
    again.run()
    assert again.session_state["lr_sample"] == i
    assert metric(again, "Sample LRAP") == fmt(lrap[i])
