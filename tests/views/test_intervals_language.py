"""A page in Chinese with its headlines' 95% intervals on (``?ci=1&lang=zh``, AppTest):
the intervals' lines are the catalogue's, and no English is left."""

from __future__ import annotations

from explorer import intervals
from tests.views.chinese import opened, zh


def test_the_intervals_lines_read_in_chinese():
    at, _ = opened("regression", "diabetes", "Regression", ci="1")  # no English left
    lines = [c.value for c in at.main.caption if c.value.startswith("95% ")]
    assert len(lines) >= 4  # MAE, RMSE... (the page's other headlines have none)
    line = intervals.Interval(0.5, 0.25, 0.75).text()
    assert zh(line.template, **line.fields) == "95% 置信区间 0.2500 – 0.7500"
    prefix = zh(line.template, **{**line.fields, "low": "", "high": ""}).split(" ")[:2]
    assert all(text.split(" ")[:2] == prefix for text in lines)
