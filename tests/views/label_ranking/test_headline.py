"""The Label ranking page's headline (AppTest): the numbers of the bundled samples,
LRAP equal to MRR, and every headline derived on screen from its per-sample terms."""

from __future__ import annotations

import numpy as np
import pytest

import metrics
from explorer.formatting import fmt
from explorer.samples import load_sample
from tests import conftest
from tests.conftest import metric, numbered_selectbox, read_derivation
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


def test_seed003_shows_05_0833_1_and_overall_07778():
    at = open_page("seed003_lrap")
    assert metric(at, "LRAP") == "0.7778"
    assert_headline(at, SEED_Y, SEED_S)
    contrib = table(at, "LRAP")
    assert sorted(contrib["LRAP"].round(4)) == [0.5, 0.8333, 1.0]
    shown = []
    for i in range(3):
        numbered_selectbox(at, "lr_sample").set_value(i).run()
        assert not at.exception
        assert_sample(at, SEED_Y[i], SEED_S[i])
        shown.append(metric(at, "Sample LRAP"))
        assert at.query_params["i"] in (str(i), [str(i)])
    assert shown == ["0.5000", "0.8333", "1"]
    # sample 1's walk-through: human 1/1, dog 2/3 (the seed003_lrap sample)
    numbered_selectbox(at, "lr_sample").set_value(1).run()
    lrap_t = table(at, "n_true_at_or_above")
    true_rows = lrap_t[lrap_t["is_true"]]
    assert true_rows[["label_name", "n_true_at_or_above", "rank"]].values.tolist() == [
        ["human", 1, 1],
        ["dog", 2, 3],
    ]
    assert any(r"\frac{1}{1} + \frac{2}{3}" in x.value and "0.8333" in x.value for x in at.latex)


def test_digits_lrap_equals_mrr():
    ds = load_sample("digits")
    at = open_page("digits")
    assert_headline(at, ds.y_true, ds.score())
    assert metric(at, "MRR") == fmt(metrics.mean_reciprocal_rank(ds.y_true, ds.score()))
    assert metric(at, "MRR") == metric(at, "LRAP")
    assert any("LRAP equals the mean reciprocal rank" in s.value for s in at.success)


def test_wrong_kind_offers_seed003():
    at = open_page("balanced")
    assert "multilabel" in at.info[0].value
    at.button(key="open_fitting_sample").click().run()
    assert not at.exception
    assert metric(at, "LRAP") == "0.7778"


PER_SAMPLE = {
    "LRAP": metrics.lrap_per_sample,
    "Coverage error": metrics.coverage_per_sample,
    "Ranking loss": metrics.ranking_loss_per_sample,
}


def test_every_headline_is_derived_on_screen_from_its_terms():
    """LRAP 0.7778 is written (0.5000 + 0.8333 + 1) / 3, and so are the other two."""
    at = conftest.open_page(PAGE, "seed003_lrap")
    lrap = read_derivation(at, "LRAP")
    assert lrap["terms"] == ["0.5000", "0.8333", "1"] and lrap["denominator"] == "3"
    assert lrap["value"] == metric(at, "LRAP") == "0.7778"
    for name, per_sample in PER_SAMPLE.items():
        d = read_derivation(at, name)
        values = per_sample(SEED_Y, SEED_S)
        assert d["terms"] == [fmt(v) for v in values], name
        assert d["value"] == metric(at, name) == fmt(sum(values) / 3), name


@pytest.mark.parametrize("weighted", [False, True])
def test_derivation_of_many_samples_shows_head_tail_count_and_weights(weighted):
    from explorer.datasets import Dataset

    y, s, w = _case(11, n=40)
    w = np.round(w * 4) if weighted else None  # integer weights read as "3 × 0.5000"
    at = open_with(Dataset("many", "multilabel", y, {"m": s}, sample_weight=w))
    for name, per_sample in PER_SAMPLE.items():
        d = read_derivation(at, name)
        v = per_sample(y, s)
        shown = [*range(3), 38, 39]
        if weighted:
            want = [f"{int(w[i])} × {fmt(v[i])}" for i in shown]
            assert d["denominator"] == f"{int(w.sum())}"
            assert d["total"] == fmt(np.dot(w, v))
            assert d["value"] == metric(at, name) == fmt(np.dot(w, v) / w.sum())
        else:
            want = [fmt(v[i]) for i in shown]
            assert d["denominator"] == "40" and d["total"] == fmt(v.sum())
            assert d["value"] == metric(at, name) == fmt(v.mean())
        assert d["omitted"] and d["terms"] == want, name


def test_derivation_follows_a_whatif_edit():
    at = conftest.open_page(PAGE, "seed003_lrap")
    at.session_state["lr_whatif_scores"] = {
        "edited_rows": {0: {"human": 2.0}},
        "added_rows": [],
        "deleted_rows": [],
    }
    at.run()
    assert not at.exception
    edited = SEED_S.astype(float).copy()
    edited[0, 0] = 2.0
    d = read_derivation(at, "LRAP")
    assert d["terms"] == [fmt(v) for v in metrics.lrap_per_sample(SEED_Y, edited)]
    assert d["terms"] == ["1", "0.8333", "1"]
    assert d["value"] == metric(at, "LRAP") == fmt(metrics.lrap_per_sample(SEED_Y, edited).mean())


def test_best_coverage_and_mrr_are_derived_too():
    ds = load_sample("digits")  # one true label per sample: MRR is shown
    y, s = ds.y_true, ds.score()
    at = conftest.open_page(PAGE, "digits")
    rr = metrics.reciprocal_rank(y, s)
    d = read_derivation(at, "MRR")
    assert d["terms"] == [fmt(v) for v in (*rr[:3], *rr[-2:])] and d["total"] == fmt(rr.sum())
    assert d["denominator"] == f"{len(rr):,}"
    assert d["value"] == metric(at, "MRR") == fmt(metrics.mean_reciprocal_rank(y, s))
    best = read_derivation(at, "Best coverage")
    assert best["terms"] == ["1"] * 5 and best["value"] == metric(at, "Best coverage")
