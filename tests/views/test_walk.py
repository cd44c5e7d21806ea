"""The random walk over the whole app (tests/views/walker.py): no exception, links reproduce.

The default runs ``WALK_STEPS`` = 300 steps in all, in walks of ``WALK_LEN`` steps
(default 100) seeded ``WALK_SEED``, ``WALK_SEED + 1``, ...; each walk ends by opening
its address in a fresh session. The default walks take every kind of step (sidebar
clicks, dataset picks, uploads, moved controls, edited tables, slice filters set from
the Slices page and cleared in the sidebar, tampered links, link checks), and
``test_tour`` takes each one at least once: every upload kind, and on every page a
click, a moved control, an edited table where there is one, a tampered link and the
link check; then a slice filter set (with the link check) and cleared.

The long mode: ``WALK_STEPS=1000 python3 dev.py test tests/views/test_walk.py`` (ten
walks of 100; the suite's default until the suite had to fit in five minutes). A
failure prints the seed and every step, e.g.
``WALK_SEED=7 WALK_STEPS=100 python3 dev.py test tests/views/test_walk.py`` replays
walk 7 alone.
"""

from __future__ import annotations

import os

import pytest

from tests.views.walker import Walker

STEPS = int(os.environ.get("WALK_STEPS", "300"))
LENGTH = int(os.environ.get("WALK_LEN", "100"))
SEED = int(os.environ.get("WALK_SEED", "0"))
WALKS = [(SEED + i, min(LENGTH, STEPS - i * LENGTH)) for i in range(-(-STEPS // LENGTH))]


@pytest.mark.parametrize(("seed", "steps"), WALKS, ids=[f"seed{s}" for s, _ in WALKS])
def test_random_walk(seed, steps):
    walker = Walker(seed)
    for _ in range(steps):
        walker.step()
    walker.link_check()


def test_tour():
    """Every kind of step at least once (:meth:`Walker.tour`), then the link check."""
    walker = Walker(SEED)
    walker.tour()
    walker.link_check()
