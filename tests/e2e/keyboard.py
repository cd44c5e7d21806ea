"""The keyboard walk of a page: Tab from the top to the end, each control reached and
drawn with a visible focus.

``walk(page)`` presses Tab until the focus comes back round (or runs past every
control), noting each element focused (inside a frame or a shadow root too: the ROC
page's operating-point component) and its look: its outline, shadow, border and
background and those of its three nearest ancestors (Streamlit draws some focus rings on
a wrapper) and of its control. After the
walk the focus is taken away and the look taken again: a focus is visible when the two
differ. Transitions are switched off first, so the look at focus is the final one.
"""

from __future__ import annotations

from playwright.sync_api import Page

from tests.e2e.measure import DRAWN

#: A control as Streamlit draws it: the widget's container (its test id). A group (the
#: tabs, a radio, a segmented control) is reached when any of its members is: its
#: members take the arrow keys, as the ARIA pattern of each has it.
CONTROLS = ", ".join(
    f"[data-testid={t}]"
    for t in (
        "stButton",
        "stDownloadButton",
        "stLinkButton",
        "stPageLink",
        "stSidebarNavLink",
        "stSelectbox",
        "stMultiSelect",
        "stSlider",
        "stNumberInput",
        "stTextInput",
        "stTextArea",
        "stCheckbox",
        "stRadio",
        "stButtonGroup",
        "stTabs",
        "stExpander",
        "stPopover",
        "stDataFrame",
        "stFileUploader",
        "stCustomComponentV1",
        "stBidiComponentIsolated",
    )
)

_PREPARE = """(controls) => {
  const style = document.createElement('style');
  style.textContent =
    '*, *::before, *::after { transition: none !important; animation: none !important; }';
  document.head.appendChild(style);
  for (const f of document.querySelectorAll('iframe')) {
    try { f.contentDocument.head.appendChild(style.cloneNode(true)); } catch (e) {}
  }
  // drawn controls only: not in a closed expander or popover, nor in a tab not shown
  const units = [...document.querySelectorAll(controls)]
    .filter((e) => e.getClientRects().length && e.checkVisibility({visibilityProperty: true}));
  units.forEach((e, i) => e.setAttribute('data-walk', i));
  window.__walk = [];
  if (document.activeElement) document.activeElement.blur();
  window.scrollTo(0, 0);
  const text = (e) => (e.innerText || e.getAttribute('aria-label') || e.title || '').trim();
  return units.map((e) => `${e.dataset.testid}: ${text(e).split('\\n')[0].slice(0, 40)}`);
}"""

# the element focused now (inside a frame or a shadow root), noted with its look
_STEP = """() => {
  let e = document.activeElement;
  let unit = e?.closest('[data-walk]');
  while (e && (e.shadowRoot?.activeElement || e.contentDocument?.activeElement)) {
    const inner = e.shadowRoot?.activeElement || e.contentDocument.activeElement;
    if (inner === e.contentDocument?.body) break;
    e = inner;
  }
  if (!e || e === document.body) return {unit: null, again: false, none: true};
  const look = (el) => {
    const around = [];
    for (let n = el, i = 0; n && i < 4 && n.nodeType === 1; n = n.parentElement, i++)
      around.push(n);
    if (unit) around.push(unit);  // a ring around the whole control (a data grid's)
    return around.map((n) => {
      const cs = n.ownerDocument.defaultView.getComputedStyle(n);
      return [cs.outlineStyle, cs.outlineWidth, cs.outlineColor, cs.boxShadow,
              cs.borderColor, cs.backgroundColor, cs.color].join('|');
    }).join(' / ');
  };
  const again = window.__walk.some((w) => w.el === e);
  const text = (e.getAttribute('aria-label') || e.innerText || '').trim().split('\\n')[0];
  if (!again) window.__walk.push({el: e, focused: look(e), look,
    unit: unit ? Number(unit.dataset.walk) : -1,
    name: `${e.tagName.toLowerCase()} ${text.slice(0, 40)}`});
  const first = again && window.__walk[0].el === e;
  return {unit: unit ? Number(unit.dataset.walk) : null, again, first};
}"""

_FINISH = """async () => {
  const blur = (d) => { d.activeElement?.blur?.(); };
  blur(document);
  for (const f of document.querySelectorAll('iframe')) {
    try { blur(f.contentDocument); } catch (e) {}
  }
  await new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)));
  return window.__walk.map((w) => ({unit: w.unit, name: w.name, visible: w.look(w.el) !== w.focused,
                                    drawn: w.el.getClientRects().length > 0}));
}"""


def walk(page: Page, most: int = 400) -> list[str]:
    """Problems: each control never reached by Tab, and each element Tab focuses with no
    visible change (or not drawn at all)."""
    units = page.evaluate(_PREPARE, CONTROLS)
    reached = set()
    for _ in range(most):
        page.keyboard.press("Tab")
        step = page.evaluate(_STEP)
        if step.get("first"):
            break
        if step["unit"] is not None:
            reached.add(step["unit"])
    problems = [f"not reached by Tab: {name}" for i, name in enumerate(units) if i not in reached]
    for w in page.evaluate(_FINISH):
        where = units[w["unit"]] if w["unit"] >= 0 else "outside the controls"
        if not w["visible"] and not w["drawn"]:
            problems.append(
                f"focus on an element not drawn, its control unmarked: {w['name']} ({where})"
            )
        elif not w["visible"]:
            problems.append(f"focus not visible: {w['name']} ({where})")
    return problems


def assert_walks(page: Page) -> None:
    """Once the page's charts and grids are drawn, the walk finds nothing (for a page
    test_classroom.py does not open: Data, Slices, the Leaderboard, on a load their own
    tests make anyway)."""
    page.wait_for_function(DRAWN, timeout=60_000)
    problems = walk(page)
    assert not problems, "\n".join(problems)
