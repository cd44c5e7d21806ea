"""The random walk over the whole app (tests/walker.py): no exception, links reproduce.

CI runs ``WALK_STEPS`` steps in all (default 1,000), in walks of ``WALK_LEN``
steps (default 100) seeded ``WALK_SEED``, ``WALK_SEED + 1``, ...; each walk
ends by opening its address in a fresh session. A failure prints the seed and
every step, e.g. ``WALK_SEED=7 WALK_STEPS=100 python3 dev.py test tests/test_walk.py``
replays walk 7 alone.
"""

from __future__ import annotations

import os

import pytest

from tests.views.walker import Walker

STEPS = int(os.environ.get("WALK_STEPS", "1000"))
LENGTH = int(os.environ.get("WALK_LEN", "100"))
SEED = int(os.environ.get("WALK_SEED", "0"))
WALKS = [(SEED + i, min(LENGTH, STEPS - i * LENGTH)) for i in range(-(-STEPS // LENGTH))]


@pytest.mark.parametrize(("seed", "steps"), WALKS, ids=[f"seed{s}" for s, _ in WALKS])
def test_random_walk(seed, steps):
    walker = Walker(seed)
    for _ in range(steps):
        walker.step()
    walker.link_check()
