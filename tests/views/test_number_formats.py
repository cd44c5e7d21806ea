"""How the pages write numbers: whole numbers as integers in tables (1, not 1.0000),
headline numbers that never run past their card (a MAPE of 7.5e14, not fifteen digits
cut). Static and pure checks: no page needs to run."""

from __future__ import annotations

import re

import numpy as np

import metrics
from explorer.formatting import count, fmt
from tests.conftest import ROOT

#: A fixed-decimal printf format: Streamlit's tables write 1.0 as "1.0000" with it.
FIXED = re.compile(r"%\.\d+f")


def test_no_table_column_pads_whole_numbers_with_zeros():
    found = [
        f"{p.relative_to(ROOT)}:{i}: {line.strip()}"
        for folder in ("views", "explorer/ui")
        for p in (ROOT / folder).rglob("*.py")
        for i, line in enumerate(p.read_text(encoding="utf-8").splitlines(), 1)
        # a number box's own format (a widget's step) is no table column
        if FIXED.search(line) and "step=" not in line
    ]
    assert found == []


def test_headline_numbers_stay_short_at_every_magnitude():
    magnitudes = np.logspace(-300, 300, 1201)
    for x in np.concatenate([magnitudes, -magnitudes, np.pi * magnitudes]):
        assert len(fmt(x)) <= 11, (x, fmt(x))  # -1.000e-300
        assert float(fmt(x)) == float(f"{x:.4g}") or abs(float(fmt(x)) / x - 1) < 5e-4
    assert fmt(750599937894321.6) == "7.506e+14"
    assert (fmt(999_999.0), fmt(1_000_000.0)) == ("999999", "1.000e+06")
    # a count keeps its digits (grouped), however large a whole number it is
    assert count(1_234_567.0) == "1,234,567"


def test_whole_numbers_read_as_integers_and_other_values_keep_fixed_decimals():
    # scikit-learn's dcg_score example: 7.5 with ties averaged, 5 when they are ignored
    y, s = np.array([[10, 0, 0, 1, 5]]), np.array([[1, 0, 0, 0, 1]])
    assert fmt(metrics.dcg_score(y, s, k=1)) == "7.500"
    assert fmt(metrics.dcg_score(y, s, k=1, ignore_ties=True)) == "5"
    # the user guide's coverage error sample: 2.5; its first sample alone: 2
    y, s = np.array([[1, 0, 0], [0, 0, 1]]), np.array([[0.75, 0.5, 1], [1, 0.2, 0.1]])
    assert (fmt(metrics.coverage_error(y, s)), fmt(metrics.coverage_error(y[:1], s[:1]))) == (
        "2.500",
        "2",
    )
    # a perfect rate is 1, as 0 is 0; a rate that is not whole keeps four digits
    assert [fmt(v) for v in (1.0, -1.0, 0.0, 0.5, 2 / 3)] == ["1", "-1", "0", "0.5000", "0.6667"]
    assert [fmt(v) for v in (50.0, 999_999.0, 2 + 4e-16)] == ["50", "999999", "2.000"]
