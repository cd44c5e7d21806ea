"""axe-core in the browser tests: WCAG 2.1 A and AA rules, serious and critical only.

``violations(page)`` injects the pinned axe-core (tests/e2e/axe, installed by
``python3 dev.py test``) into the page already open and returns each serious or critical
violation not in ``ALLOWED``, as ``"rule: target, target"`` lines. docs/accessibility.md
says what is checked and why each allowed one is allowed.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page

AXE_JS = Path(__file__).parent / "axe" / "node_modules" / "axe-core" / "axe.min.js"
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]

#: (rule id, a CSS selector axe reports as a target) inside Streamlit's own frontend,
#: which our code cannot change -> why. A violation matches when its rule is the same
#: and its target contains the selector.
ALLOWED: dict[tuple[str, str], str] = {
    ("scrollable-region-focusable", ".katex-display"): (
        "a formula wider than its column scrolls in its own box (explorer/theme.py), but "
        "the box is KaTeX's element, drawn by Streamlit's Markdown, which takes no "
        "tabindex from us; not yet fixed: a keyboard-focusable wrapper for wide formulas "
        "(the keyboard walk, tests/e2e/keyboard.py, runs at 1440 px, where none scrolls)"
    ),
}

_RUN = """async ([tags, within]) => {
  // only violations: the passes' and the incompletes' node details cost time we skip
  const result = await axe.run(within ? {include: [within]} : document, {
    runOnly: {type: 'tag', values: tags}, resultTypes: ['violations']});
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({id: v.id, targets: v.nodes.map((n) => n.target.join(' '))}));
}"""


def require_axe() -> None:
    """Skip (fail with CI=true) when axe-core is not installed."""
    if AXE_JS.exists():
        return
    if os.environ.get("CI", "").lower() == "true":
        pytest.fail(f"CI=true but no axe-core at {AXE_JS}: run `python3 dev.py test`")
    pytest.skip("no axe-core: run `python3 dev.py test` (needs npm)")


def _allowed(rule: str, target: str) -> bool:
    return any(rule == r and sel in target for r, sel in ALLOWED)


def violations(page: Page, within: str | None = None) -> list[str]:
    """The page's serious or critical WCAG 2.1 AA violations not allowed, one a line;
    ``within`` (a CSS selector) checks only that part of the page."""
    # axe checks each frame (our custom component's) with its own copy, in that frame
    for frame in page.frames:
        if not frame.evaluate("() => typeof axe !== 'undefined'"):
            frame.add_script_tag(path=str(AXE_JS))
    problems = []
    for v in page.evaluate(_RUN, [TAGS, within]):
        targets = [t for t in v["targets"] if not _allowed(v["id"], t)]
        if targets:
            more = f" (+{len(targets) - 3} more)" if len(targets) > 3 else ""
            problems.append(f"axe {v['id']}: {', '.join(targets[:3])}{more}")
    return problems
