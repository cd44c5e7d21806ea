"""A seeded random walk over every page in Chromium, on the real server.

Each action is one thing a user does: a sidebar page link, the sidebar
"Dataset" picker, a control of the page moved to another valid value (found
on screen, not by widget key), or an upload of another kind of file. After
every action the page must show no traceback box; at three checkpoints and at
the end, the address bar's URL opened in a fresh visitor's page must show
the same page, every metric and the same selected sample.

``WALK_SEED`` (default 0) and ``WALK_ACTIONS`` (default 100) pick the walk; a
failure prints them with the action log, so it replays.
"""

from __future__ import annotations

import os
import time

import pytest
from playwright.sync_api import Page

from tests.e2e.conftest import SERVER_LOGS
from tests.e2e.walker import Walker

SEED = int(os.environ.get("WALK_SEED", "0"))
ACTIONS = int(os.environ.get("WALK_ACTIONS", "100"))


def test_random_walk(page: Page, sized, app_url, tmp_path):
    started = time.monotonic()
    walker = Walker(
        page,
        lambda: sized(page.viewport_size["width"], page.viewport_size["height"]),
        app_url,
        seed=SEED,
        n_actions=ACTIONS,
        files=tmp_path,
        server_log=SERVER_LOGS.get(app_url),
    )
    report = walker.run()
    took = f"walk took {time.monotonic() - started:.1f} s"
    if not report.ok:
        pytest.fail(f"{report.render()}\n{took}", pytrace=False)
    # the walk went everywhere and did things (a walk that did nothing would pass)
    fewest = min(report.visits[p] for p in walker.pages)
    assert fewest >= walker.min_visits, f"a page was visited {fewest} times\n{report.render()}"
    assert report.skipped <= ACTIONS // 5, f"too many failed actions\n{report.render()}"
    print(f"{report.render()}\n{took}")  # shown with pytest -s or -rP
