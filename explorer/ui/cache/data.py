"""The cached computations of the Data page."""

from __future__ import annotations

from explorer.datasets import describe as _describe
from explorer.ui.cache._core import value

#: The Data page's validation summary (explorer.datasets.describe), a small table.
summary = value(_describe)
