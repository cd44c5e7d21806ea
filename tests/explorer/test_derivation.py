"""explorer.derivation: the written-out mean ends in the headline's digits."""

import re

import numpy as np
import pytest

from explorer.derivation import mean_terms
from explorer.formatting import fmt


def test_few_terms_are_all_written_and_sum_to_the_value():
    d = mean_terms([0.5, 5 / 6, 1.0], name="LRAP")
    assert d.text() == "LRAP = (0.5000 + 0.8333 + 1) / 3 = 0.7778"
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
    assert d.text() == "AP = (2 × 1 + 1 × 0 + 0.5000 × 0.5000) / 3.500 = 0.6429"
    assert d.value == pytest.approx(2.25 / 3.5)
    assert r"\frac{2 \times 1" in d.latex()


def test_a_mean_of_mostly_zeros_writes_its_largest_terms_not_a_line_of_zeros():
    values = np.zeros(300)
    values[[40, 120, 121, 200, 250, 260]] = [0.5, 1.2, 0.25, 2.0, 0.222, 0.05]
    d = mean_terms(values, name="NDCG")
    # the five largest, in sample order; the sixth (0.05) is left out
    assert d.terms == ("0.5000", "1.200", "0.2500", "2", "0.2220")
    assert d.largest and d.omitted == 295 and d.total == pytest.approx(4.222)
    assert d.text().startswith("NDCG = (0.5000 + 1.200 + 0.2500 + 2 + 0.2220 + …) / 300")
    assert "= 4.222 / 300 = 0.01407" in d.text()
    assert d.note() == "the 5 largest of 300 terms, in sample order"
    # a head and tail that are not all zero stay as they were
    values[0] = 1.0
    assert mean_terms(values).terms == ("1", "0", "0", "0", "0")
    assert mean_terms(values).note() == "the first 3 and last 2 of 300 terms"
