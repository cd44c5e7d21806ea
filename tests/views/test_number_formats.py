"""How the pages write numbers: whole numbers as integers in tables (1, not 1.0000),
headline numbers that never run past their card (a MAPE of 7.5e14, not fifteen digits
cut). Static and pure checks: no page needs to run."""

from __future__ import annotations

import re

import numpy as np

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
