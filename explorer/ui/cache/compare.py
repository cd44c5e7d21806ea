"""The cached computations of Compare two models."""

from __future__ import annotations

from explorer.pages import compare
from explorer.ui.cache._core import value

# the bootstraps are seeded: an entry is the same numbers every time it is computed
models = value(compare.compare)
# the values, differences, DeLong and the t-tests: shown while the bootstraps run, so
# never refused by the session's budget
first_numbers = value(compare.first_numbers, metered=False)
