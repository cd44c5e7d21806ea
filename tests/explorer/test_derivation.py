"""explorer.derivation: the written-out mean ends in the headline's digits."""

import re

import numpy as np
import pytest

from explorer.derivation import mean_terms
from explorer.formatting import fmt


def test_few_terms_are_all_written_and_sum_to_the_value():
    d = mean_terms([0.5, 5 / 6, 1.0], name="LRAP")
    assert d.text() == "LRAP = (0.5000 + 0.8333 + 1.000) / 3 = 0.7778"
    shown = [float(t) for t in re.search(r"\((.*)\)", d.text()).group(1).split(" + ")]
    assert sum(shown) / 3 == pytest.approx(0.7778, abs=5e-5)


@pytest.mark.parametrize("n", [6, 5000])
def test_many_terms_show_head_tail_count_and_total(n):
    v = np.random.default_rng(n).random(n)
    d = mean_terms(v, name="NDCG", head=3, tail=2)
    text = d.text()
    assert text.endswith(f"= {fmt(v.mean())}  (first 3 and last 2 of {n:,} terms)")
    assert d.terms == tuple(fmt(x) for x in (*v[:3], *v[-2:]))
    assert d.omitted == n - 5
    assert f"= {fmt(v.sum())} / {n:,} =" in text


def test_weighted_terms_and_denominator():
    d = mean_terms([1.0, 0.0, 0.5], [2, 1, 0.5], name="AP")
    assert d.text() == "AP = (2 × 1.000 + 1 × 0 + 0.5000 × 0.5000) / 3.500 = 0.6429"
    assert d.value == pytest.approx(2.25 / 3.5)
    assert r"\frac{2 \times 1.000" in d.latex()
