"""The cached computations of the Leaderboard."""

from __future__ import annotations

from explorer.pages import leaderboard
from explorer.ui.cache._core import value

# the resamples are seeded: an entry is the same numbers every time it is computed
board = value(leaderboard.board)
wins = value(leaderboard.wins)
