"""A seeded random walk over the running app in Chromium.

The walker knows no widget key: it finds the controls of the page on screen
by their ``data-testid`` (sliders, select boxes, number inputs, radios,
checkboxes and toggles, segmented controls, buttons, table rows, tabs and
expanders), the pages by the sidebar's navigation links, the uploaders by
their labels, and reads the numbers from the ``st.metric`` elements. After
every action it waits for the script run and looks for a traceback box
(``stException``); at checkpoints it opens the address bar's URL in a fresh
visitor's page (a new tab with empty storage, a session of its own on the server)
and compares what that shows with what the walk shows.

Everything random comes from one ``random.Random(seed)``, so a walk replays
with the same seed and length (the app's timing can still differ slightly).
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import Locator, Page, expect

from tests.e2e.conftest import wait_for_run

MAIN = '[data-testid="stMain"]'
SIDEBAR = '[data-testid="stSidebar"]'
ACTION_TIMEOUT = 20_000  # ms for one click or keypress (was 8 s: a busy machine)
FRESH_SETTLE_S = 40.0  # how long a fresh page may take to show the same numbers
REDACTED = (
    "This app has encountered an error. The original error message is redacted to prevent "
    "data leaks. Full error details have been recorded in the logs (if you're on Streamlit "
    "Cloud, click on 'Manage app' in the lower right of your app)."
)
CHECK = "-- checkpoint"  # log entries that are checkpoints, not actions

# what a control is, by data-testid, and the JS that describes the visible, enabled ones
KINDS = {
    "slider": "stSlider",
    "selectbox": "stSelectbox",
    "number": "stNumberInput",
    "radio": "stRadio",
    "checkbox": "stCheckbox",
    "toggle": "stToggle",
    "segmented": "stButtonGroup",
    "button": "stButton",
    "table": "stDataFrame",
    "tab": "stTab",
    "expander": "stExpander",
    # a custom component (components v2) with a slider in its shadow root: the curves
    # page's operating point (views/curves/operating_point.py)
    "component": "stBidiComponentIsolated",
}

_DISCOVER_JS = """
(kinds) => {
  const main = document.querySelector('[data-testid="stMain"]');
  if (!main) return [];
  const shown = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && el.checkVisibility({visibilityProperty: true});
  };
  const off = (el) => !el || el.disabled || el.getAttribute('aria-disabled') === 'true';
  const text = (el) => (el ? el.innerText : '').trim().split('\\n')[0];
  const label = (el) => text(el.querySelector('[data-testid="stWidgetLabel"]')) || text(el);
  const out = [];
  for (const [kind, testid] of Object.entries(kinds)) {
    main.querySelectorAll(`[data-testid="${testid}"]`).forEach((el, index) => {
      if (!shown(el)) return;
      const c = {kind, index, label: label(el)};
      if (kind === 'slider' || kind === 'component') {
        const scope = kind === 'component' ? el.shadowRoot : el;
        if (!scope) return;
        c.thumbs = [...scope.querySelectorAll('input[type="range"]')].map((i) => ({
          min: +i.min, max: +i.max, value: +i.value, text: i.getAttribute('aria-valuetext'),
        }));
        if (!c.thumbs.length || [...scope.querySelectorAll('input')].some(off)) return;
        if (kind === 'component') c.label = text(scope.querySelector('label'));
      } else if (kind === 'selectbox') {
        const box = el.querySelector('[role="combobox"]');
        if (off(box)) return;
        c.value = box.value;
      } else if (kind === 'number') {
        const f = el.querySelector('input');
        if (off(f)) return;
        Object.assign(c, {value: f.value, min: f.min, max: f.max, step: f.step,
                          placeholder: f.placeholder || ''});
        const up = el.querySelector('[data-testid="stNumberInputStepUp"]');
        const down = el.querySelector('[data-testid="stNumberInputStepDown"]');
        c.up = !!up && shown(up) && !off(up);
        c.down = !!down && shown(down) && !off(down);
      } else if (kind === 'radio') {
        c.options = [...el.querySelectorAll('[data-testid="stRadioOption"]')].map((o) => ({
          text: text(o), selected: o.querySelector('input').checked,
          off: off(o.querySelector('input')),
        }));
        if (c.options.filter((o) => !o.selected && !o.off).length === 0) return;
      } else if (kind === 'checkbox' || kind === 'toggle') {
        const i = el.querySelector('input');
        if (off(i)) return;
        c.checked = i.checked;
      } else if (kind === 'segmented') {
        c.options = [...el.querySelectorAll('button')].map((b) => ({
          text: text(b), off: off(b),
          selected: b.getAttribute('aria-pressed') === 'true'
            || b.getAttribute('aria-checked') === 'true'
            || b.getAttribute('data-selected') === 'true'
            || /Active/.test(b.getAttribute('data-testid') || ''),
        }));
        if (c.options.filter((o) => !o.selected && !o.off).length === 0) return;
      } else if (kind === 'button') {
        const b = el.querySelector('button');
        if (off(b)) return;
        c.label = text(b) || b.getAttribute('aria-label') || '(no text)';
      } else if (kind === 'table') {
        const canvas = el.querySelector('canvas[data-testid="data-grid-canvas"]');
        if (!canvas || !shown(canvas)) return;
        c.rows = Math.floor((canvas.getBoundingClientRect().height - 36) / 35);
        if (c.rows < 1) return;
        c.label = 'table ' + index;
      } else if (kind === 'tab') {
        if (el.getAttribute('aria-selected') === 'true') return;
        c.label = text(el);
      } else if (kind === 'expander') {
        const lines = (el.querySelector('summary')?.innerText || '').split('\\n');
        c.label = lines.map((x) => x.trim())
          .filter((x) => x && !/^keyboard_arrow/.test(x))[0] || '';
      }
      out.push(c);
    });
  }
  return out;
}
"""

_SNAPSHOT_JS = """
() => {
  const main = document.querySelector('[data-testid="stMain"]');
  const txt = (el) => (el ? el.innerText : '').trim();
  const metrics = [];
  if (main) {
    for (const m of main.querySelectorAll('[data-testid="stMetric"]')) {
      const delta = txt(m.querySelector('[data-testid="stMetricDelta"]'));
      metrics.push([txt(m.querySelector('[data-testid="stMetricLabel"]')),
                    txt(m.querySelector('[data-testid="stMetricValue"]'))
                      + (delta ? ` (delta ${delta})` : '')]);
    }
  }
  const picked = [];
  const picker = document.querySelector(
    '[data-testid="stSidebar"] .st-key-dataset_picker [role="combobox"]');
  if (picker) picked.push(['sidebar: ' + txt(picker.closest('[data-testid="stSelectbox"]')
    .querySelector('[data-testid="stWidgetLabel"]')), picker.value]);
  if (main) {
    for (const el of main.querySelectorAll(
        '[data-testid="stSelectbox"], [data-testid="stNumberInput"]')) {
      const lab = txt(el.querySelector('[data-testid="stWidgetLabel"]'));
      if (!/\\b(sample|query)\\b/i.test(lab)) continue;
      const input = el.querySelector('input');
      picked.push([lab, input ? input.value : '']);
    }
  }
  const here = document.querySelector('[data-testid="stSidebarNavLink"][aria-current="page"]');
  return {page: txt(here), metrics, picked};
}
"""


@dataclass
class Snapshot:
    """What a checkpoint compares: the page, every metric and the selected sample(s)."""

    url: str
    page: str
    metrics: dict[str, str]
    picked: dict[str, str]

    @classmethod
    def read(cls, page: Page) -> Snapshot:
        raw = page.evaluate(_SNAPSHOT_JS)
        return cls(page.url, raw["page"], _dedupe(raw["metrics"]), _dedupe(raw["picked"]))

    def differences(self, other: Snapshot) -> list[str]:
        """One line per thing ``other`` (the fresh page) shows differently."""
        out = []
        if self.page != other.page:
            out.append(f"page: walk shows {self.page!r}, fresh link shows {other.page!r}")
        for what, mine, theirs in (
            ("metric", self.metrics, other.metrics),
            ("selection", self.picked, other.picked),
        ):
            for name in [*mine, *(n for n in theirs if n not in mine)]:
                a, b = mine.get(name, "(absent)"), theirs.get(name, "(absent)")
                if a != b:
                    out.append(f"{what} {name!r}: walk shows {a!r}, fresh link shows {b!r}")
        return out


def _dedupe(pairs) -> dict[str, str]:
    """Pairs to a dict, a repeated name getting " [2]", " [3]", ..."""
    out: dict[str, str] = {}
    seen: Counter = Counter()
    for name, value in pairs:
        seen[name] += 1
        out[name if seen[name] == 1 else f"{name} [{seen[name]}]"] = value
    return out


@dataclass
class WalkReport:
    """The outcome of a walk: the action log, a crash if any, checkpoint mismatches."""

    seed: int
    n_actions: int
    log: list[str] = field(default_factory=list)
    crash: str | None = None
    mismatches: list[str] = field(default_factory=list)
    visits: Counter = field(default_factory=Counter)
    kinds: Counter = field(default_factory=Counter)
    skipped: int = 0
    checkpoints: int = 0

    @property
    def n_done(self) -> int:
        """Actions done so far (the log also holds the checkpoints)."""
        return sum(1 for e in self.log if not e.startswith(CHECK))

    @property
    def ok(self) -> bool:
        return self.crash is None and not self.mismatches

    def render(self) -> str:
        lines = [
            f"browser walk, seed {self.seed}: {self.n_done} of {self.n_actions} actions done",
            f"replay with WALK_SEED={self.seed} WALK_ACTIONS={self.n_actions}",
        ]
        if self.crash:
            lines += ["", "CRASH (a traceback box, stException, on the page):", self.crash]
        if self.mismatches:
            lines += ["", "LINK MISMATCHES (the URL opened in a fresh visitor's page):"]
            lines += self.mismatches
        lines += ["", "actions so far:"]
        i = 0
        for entry in self.log:
            if entry.startswith(CHECK):
                lines.append(f"      {entry}")
            else:
                i += 1
                lines.append(f"{i:4d}. {entry}")
        lines += [
            "",
            "pages visited: " + ", ".join(f"{p} x{n}" for p, n in sorted(self.visits.items())),
            "actions by kind: " + ", ".join(f"{k} x{n}" for k, n in sorted(self.kinds.items())),
        ]
        return "\n".join(lines)


# ---------------------------------------------------------------- upload files
LABEL_POOL = ["cat", "dog", "bird", "fish", "human", "tree", "car", "boat", "sun", "rain"]


def _binary_csv(rng: random.Random, kind: str) -> str:
    """Logits or counts of one model; or two models (Compare) that are one model under
    two names, or scored on one row: where Compare has no test to run."""
    n = rng.randint(12, 40)
    if kind == "one_row":
        return (
            f"y_true,score_a,score_b\n{rng.randint(0, 1)},{rng.random():.3f},{rng.random():.3f}\n"
        )
    if kind == "one_class":
        y = [rng.choice([0, 1])] * n
    else:
        y = [rng.randint(0, 1) for _ in range(n)]
        y[0], y[1] = 0, 1  # both classes
    rows = []
    for t in y:
        if kind == "counts":  # raw counts spanning well over 100
            s = str(rng.randint(0, 40) + t * rng.randint(0, 300))
        else:  # logits, -7.2 .. 4.1
            s = f"{rng.uniform(-7.2, 4.1) + 1.5 * t:.3f}"
        rows.append(f"{t},{s},{s}" if kind == "same_models" else f"{t},{s}")
    head = "y_true,score_a,score_b" if kind == "same_models" else "y_true,y_score"
    return head + "\n" + "\n".join(rows) + "\n"


def _regression_csv(rng: random.Random) -> str:
    n = rng.randint(10, 30)
    rows = []
    for _ in range(n):
        y = round(rng.uniform(0, 300), 2)
        rows.append(f"{y},{round(y + rng.gauss(0, 30), 2)}")
    return "y_true,y_pred\n" + "\n".join(rows) + "\n"


def _multiclass_csv(rng: random.Random) -> str:
    """y_true class names and a proba_<class> column per class; sometimes logits."""
    names = rng.sample(LABEL_POOL, rng.randint(3, 5))
    logits = rng.random() < 0.25
    rows = []
    for _ in range(rng.randint(6, 20)):
        raw = [rng.random() + 0.01 for _ in names]
        p = (
            [f"{rng.uniform(-4, 4):.3f}" for _ in names]
            if logits
            else [repr(v / sum(raw)) for v in raw]
        )
        rows.append(",".join([rng.choice(names), *p]))
    head = ",".join(["y_true", *(f"proba_{n}" for n in names)])
    return head + "\n" + "\n".join(rows) + "\n"


def _pair_csv(rng: random.Random, graded: bool, one_label: bool = False) -> tuple[str, str]:
    n_labels = 1 if one_label else rng.randint(3, 5)
    names = rng.sample(LABEL_POOL, n_labels)
    n = rng.randint(4, 12)
    labels, scores = [], []
    for _ in range(n):
        if graded:
            row = [rng.choice([0, 0, 1, 2, 3]) for _ in names]
        else:
            row = [rng.randint(0, 1) for _ in names]
            row[rng.randrange(n_labels)] = 1
        labels.append(",".join(map(str, row)))
        scores.append(",".join(f"{rng.random():.3f}" for _ in names))
    head = ",".join(names)
    return head + "\n" + "\n".join(labels) + "\n", head + "\n" + "\n".join(scores) + "\n"


UPLOAD_KINDS = [
    # (name, weight)
    ("binary logits", 3),
    ("binary counts", 2),
    ("binary one class", 1),
    ("binary same models", 1),
    ("binary one row", 1),
    ("regression", 1),
    ("multiclass", 2),
    ("multilabel pair", 3),
    ("graded pair", 3),
    ("one-label pair", 1),
    ("bad file", 1),
]


# ---------------------------------------------------------------- the walker
class Walker:
    """Walk ``n_actions`` seeded random actions from ``start_url`` on ``page``.

    Parameters
    ----------
    page : Page
        The walk's page.
    fresh_page : callable
        Opens a fresh visitor's page for a checkpoint (closed after it).
    app_url : str
        The server's root URL.
    seed, n_actions : int
        The walk's seed and length.
    files : Path
        A directory for the upload files.
    server_log : Path or None
        The server's log: a crash report quotes the traceback logged there.
    """

    def __init__(
        self,
        page: Page,
        fresh_page: Callable[[], Page],
        app_url: str,
        seed: int,
        n_actions: int,
        files: Path,
        server_log: Path | None = None,
    ) -> None:
        self.page, self.fresh_page = page, fresh_page
        self.app_url = app_url.rstrip("/")
        self.rng = random.Random(seed)
        self.files = files
        self.report = WalkReport(seed, n_actions)
        self.pages: list[str] = []
        self.n_uploads = 0
        self.min_visits = max(1, min(3, n_actions // 30))  # of every page, by the end
        self.server_log = server_log
        self._log_offset = self._log_size()

    # ------------------------------------------------------------ bookkeeping
    def _run_and_check(self, entry: str, immediate: bool = False) -> bool:
        """Wait for the run, log ``entry``, and record a crash. True when the page is whole.

        ``immediate``: the action asks for its rerun, if any, at once (see
        :func:`wait_for_run`), so an action that starts none costs no grace.
        """
        wait_for_run(self.page, immediate=immediate)
        self.report.log.append(entry)
        boxes = self.page.get_by_test_id("stException")
        if boxes.count():
            shown = [
                t.strip().split("\n")[0].replace(REDACTED, "(details redacted on the page)")
                for t in boxes.all_inner_texts()
            ]
            trace = self._server_traceback()
            last = trace.strip().split("\n")[-1] if trace else shown[0]
            self.report.crash = "\n".join(
                [
                    f"at action {self.report.n_done} ({entry}): {last}",
                    f"URL: {self.page.url}",
                    *(f"the page shows: {t}" for t in shown),
                    *(["the server logged:", trace] if trace else []),
                ]
            )
            return False
        self._log_offset = self._log_size()
        return True

    def _log_size(self) -> int:
        return self.server_log.stat().st_size if self.server_log else 0

    def _server_traceback(self) -> str:
        """The last traceback the server logged since the previous action, clipped."""
        if not self.server_log:
            return ""
        time.sleep(0.2)  # the log is written by another process
        with open(self.server_log, "rb") as f:
            f.seek(self._log_offset)
            text = f.read().decode(errors="replace")
        start = text.rfind("Traceback (most recent call last)")
        return _clip(text[start:].strip(), 4000) if start >= 0 else ""

    def _current_page(self) -> str:
        here = self.page.locator('[data-testid="stSidebarNavLink"][aria-current="page"]')
        return here.first.inner_text().strip() if here.count() else "?"

    # ------------------------------------------------------------ actions
    def nav(self, title: str | None = None) -> bool:
        if title is None:  # mostly one of the least visited pages, never the current one
            here = self._current_page()
            others = [p for p in self.pages if p != here]
            fewest = min(self.report.visits[p] for p in others)
            least = [p for p in others if self.report.visits[p] == fewest]
            title = self.rng.choice(least if self.rng.random() < 0.85 else others)
        link = self.page.locator('[data-testid="stSidebarNavLink"]').filter(
            has_text=re.compile(f"^{re.escape(title)}$")
        )
        path = urlparse(link.get_attribute("href") or "/").path
        link.click(timeout=ACTION_TIMEOUT)
        # the address changes when the server starts the new page's run
        self.page.wait_for_url(lambda url: urlparse(url).path == path, timeout=ACTION_TIMEOUT)
        self.report.visits[title] += 1
        self.report.kinds["nav"] += 1
        return self._run_and_check(f"nav -> {title}")

    def pick_dataset(self) -> bool:
        box = self.page.locator(f'{SIDEBAR} [data-testid="stSelectbox"]').first
        before = box.get_by_role("combobox").input_value()
        choice = self._choose_option(box, before)
        self.report.kinds["dataset"] += 1
        if choice is None:
            entry = f"sidebar Dataset: {before!r} has no other option"
            return self._run_and_check(entry, immediate=True)
        return self._run_and_check(f"sidebar Dataset: {before!r} -> {choice!r}", immediate=True)

    def _choose_option(self, box: Locator, current: str) -> str | None:
        """Open select box ``box``, click a random option other than ``current``."""
        combo = box.get_by_role("combobox")
        combo.scroll_into_view_if_needed(timeout=ACTION_TIMEOUT)
        options = self.page.get_by_role("option")
        # a scroll or a redraw can close the list as it opens: try the click, the
        # keyboard, then the click again
        for opener in ("click", "ArrowDown", "click"):
            if opener == "click":
                combo.click(timeout=ACTION_TIMEOUT)
            else:
                combo.press(opener, timeout=ACTION_TIMEOUT)
            try:
                options.first.wait_for(timeout=4_000)  # a closed list is retried below
                break
            except PlaywrightError:
                continue
        else:
            raise PlaywrightError(f"the list of select box {current!r} did not open")
        texts = [t.strip() for t in options.all_inner_texts()]
        others = [i for i, t in enumerate(texts) if t != current]
        if not others:
            self.page.keyboard.press("Escape")
            return None
        i = self.rng.choice(others)
        options.nth(i).click(timeout=ACTION_TIMEOUT)
        return texts[i]

    def move_control(self) -> bool | None:
        """Move one visible control of the page; None when the page has none."""
        found = self.page.evaluate(_DISCOVER_JS, KINDS)
        if not found:
            return None
        weights = {"tab": 0.3, "expander": 0.3, "table": 0.4, "button": 0.7}
        c = self.rng.choices(found, [weights.get(x["kind"], 1.0) for x in found])[0]
        loc = self.page.locator(f'{MAIN} [data-testid="{KINDS[c["kind"]]}"]').nth(c["index"])
        self.report.kinds[c["kind"]] += 1
        entry = getattr(self, "_move_" + c["kind"])(loc, c)
        # a slider (the component's too) sends its value after a pause
        immediate = c["kind"] not in ("slider", "component")
        return self._run_and_check(f"{self._current_page()}: {entry}", immediate)

    def _move_slider(self, loc: Locator, c: dict) -> str:
        j = self.rng.randrange(len(c["thumbs"]))
        t = c["thumbs"][j]
        keys = ["ArrowLeft", "ArrowRight", "ArrowLeft", "ArrowRight", "Home", "End"]
        keys += ["PageUp", "PageDown"]
        if t["value"] <= t["min"]:
            keys = [k for k in keys if k not in ("ArrowLeft", "Home", "PageDown")]
        if t["value"] >= t["max"]:
            keys = [k for k in keys if k not in ("ArrowRight", "End", "PageUp")]
        if not keys:
            return f"slider {c['label']!r} has one value ({t['text']})"
        key = self.rng.choice(keys)
        thumb = loc.locator('input[type="range"]').nth(j)
        thumb.focus(timeout=ACTION_TIMEOUT)
        self.page.keyboard.press(key)
        return f"slider {c['label']!r}: {key} from {t['text']}"

    def _move_component(self, loc: Locator, c: dict) -> str:
        """A component's slider (in its shadow root, which the locator pierces)."""
        return self._move_slider(loc, c)

    def _move_selectbox(self, loc: Locator, c: dict) -> str:
        choice = self._choose_option(loc, c["value"])
        if choice is None:
            return f"select box {c['label']!r}: {c['value']!r} is the only option"
        return f"select box {c['label']!r}: {c['value']!r} -> {choice!r}"

    def _move_number(self, loc: Locator, c: dict) -> str:
        rng = self.rng
        buttons = [b for b in ("up", "down") if c[b]]
        if buttons and rng.random() < 0.4:
            b = rng.choice(buttons)
            name = "stNumberInputStepUp" if b == "up" else "stNumberInputStepDown"
            loc.get_by_test_id(name).click(timeout=ACTION_TIMEOUT)
            return f"number {c['label']!r}: {'+' if b == 'up' else '-'} from {c['value']!r}"
        text = self._number_value(c)
        field_ = loc.locator("input")
        field_.fill(text, timeout=ACTION_TIMEOUT)
        field_.press("Enter", timeout=ACTION_TIMEOUT)
        return f"number {c['label']!r}: {c['value']!r} -> typed {text!r}"

    def _number_value(self, c: dict) -> str:
        """A valid new value for number input ``c`` as typed text ('' clears it)."""
        rng = self.rng
        step = float(c["step"]) if c["step"] not in ("", "any") else 1.0
        integral = step.is_integer() and "." not in c["value"]
        lo = float(c["min"]) if c["min"] != "" else -1e9
        hi = float(c["max"]) if c["max"] != "" else 1e9
        cur = float(c["value"]) if c["value"] != "" else (lo if lo > -1e6 else 0.0)
        wide = hi - lo > 1e6
        options = ["near", "near", "range"]
        if lo > -1e6:
            options.append("min")
        if hi < 1e6:
            options.append("max")
        if wide:
            options.append("large")
        if c["placeholder"] and c["value"] != "":
            options.append("clear")
        for _ in range(10):
            how = rng.choice(options)
            if how == "clear":
                return ""
            if how == "min":
                x = lo
            elif how == "max":
                x = hi
            elif how == "near":
                x = cur + step * rng.choice([-3, -2, -1, 1, 2, 3])
            elif how == "large":
                x = rng.choice([-1, 1]) * rng.uniform(1e3, 1e6)
            else:
                x = rng.uniform(max(lo, cur - 100 * step), min(hi, cur + 100 * step))
                if integral:
                    x = lo + round((x - lo) / step) * step if lo > -1e6 else round(x)
            x = min(max(x, lo), hi)
            text = str(int(round(x))) if integral else _short(x)
            if text != c["value"] and (c["value"] == "" or float(text) != cur):
                return text
        return c["value"]

    def _move_radio(self, loc: Locator, c: dict) -> str:
        choices = [i for i, o in enumerate(c["options"]) if not o["selected"] and not o["off"]]
        i = self.rng.choice(choices)
        was = next((o["text"] for o in c["options"] if o["selected"]), None)
        loc.get_by_test_id("stRadioOption").nth(i).click(timeout=ACTION_TIMEOUT)
        return f"radio {c['label']!r}: {was!r} -> {c['options'][i]['text']!r}"

    def _move_checkbox(self, loc: Locator, c: dict) -> str:
        loc.locator("label").first.click(timeout=ACTION_TIMEOUT)
        return f"{c['kind']} {c['label']!r}: {'on -> off' if c['checked'] else 'off -> on'}"

    _move_toggle = _move_checkbox

    def _move_segmented(self, loc: Locator, c: dict) -> str:
        choices = [i for i, o in enumerate(c["options"]) if not o["selected"] and not o["off"]]
        i = self.rng.choice(choices)
        loc.locator("button").nth(i).click(timeout=ACTION_TIMEOUT)
        return f"segmented {c['label']!r}: -> {c['options'][i]['text']!r}"

    def _move_button(self, loc: Locator, c: dict) -> str:
        loc.locator("button").first.click(timeout=ACTION_TIMEOUT)
        return f"button {c['label']!r}"

    def _move_table(self, loc: Locator, c: dict) -> str:
        canvas = loc.locator('canvas[data-testid="data-grid-canvas"]')
        canvas.scroll_into_view_if_needed(timeout=ACTION_TIMEOUT)
        box = canvas.bounding_box()
        row = self.rng.randrange(min(c["rows"], 8))
        # the leftmost column: the row marker of a selectable table, else a plain cell
        self.page.mouse.click(box["x"] + 12, box["y"] + 36 + 35 * row + 17)
        return f"table {c['index']}: click row {row} (left edge)"

    def _move_tab(self, loc: Locator, c: dict) -> str:
        loc.click(timeout=ACTION_TIMEOUT)
        expect(loc).to_have_attribute("aria-selected", "true", timeout=ACTION_TIMEOUT)
        return f"tab {c['label']!r}"

    def _move_expander(self, loc: Locator, c: dict) -> str:
        was_open = loc.locator("details").first.get_attribute("open") is not None
        loc.locator("summary").first.click(timeout=ACTION_TIMEOUT)
        # wait out the animation, so the next action sees what is really shown
        details = expect(loc.get_by_test_id("stExpanderDetails").first)
        if was_open:
            details.to_be_hidden(timeout=ACTION_TIMEOUT)
        else:
            details.to_be_visible(timeout=ACTION_TIMEOUT)
        return f"expander {c['label']!r}: {'close' if was_open else 'open'}"

    def upload(self) -> bool:
        """Go to the Data page if needed and upload a file (or a pair) of a random kind."""
        if self._current_page() != "Data" and not self.nav("Data"):
            return False
        kinds, weights = zip(*UPLOAD_KINDS, strict=True)
        kind = self.rng.choices(kinds, weights)[0]
        self.n_uploads += 1
        stem = f"walk{self.report.seed}_{self.n_uploads}"
        self.report.kinds["upload"] += 1
        if kind.endswith("pair"):
            labels, scores = _pair_csv(
                self.rng, graded=kind == "graded pair", one_label=kind == "one-label pair"
            )
            names = labels.split("\n", 1)[0]
            lab = self._write(f"{stem}.labels.csv", labels)
            sco = self._write(f"{stem}.scores.csv", scores)
            self._set_file(re.compile(r"^labels", re.I), lab)
            if not self._run_and_check(f"upload {kind}: labels {lab.name} ({names})"):
                return False
            self._set_file(re.compile(r"^scores", re.I), sco)
            return self._run_and_check(f"upload {kind}: scores {sco.name}")
        if kind == "regression":
            text = _regression_csv(self.rng)
        elif kind == "multiclass":
            text = _multiclass_csv(self.rng)
        elif kind == "bad file":
            text = "y_true,y_score\n0,0.1\n1,n/a\n"
        else:
            text = _binary_csv(self.rng, kind.removeprefix("binary ").replace(" ", "_"))
        path = self._write(f"{stem}.csv", text)
        self._set_file(None, path)
        return self._run_and_check(f"upload {kind}: {path.name}")

    def _write(self, name: str, text: str) -> Path:
        path = self.files / name
        path.write_text(text)
        return path

    def _set_file(self, label: re.Pattern | None, path: Path) -> None:
        """Put ``path`` in the uploader labelled ``label`` (None: the one-file uploader)."""
        uploaders = self.page.locator(f'{MAIN} [data-testid="stFileUploader"]')
        labels = [
            t.strip().split("\n")[0]
            for t in uploaders.locator('[data-testid="stWidgetLabel"]').all_inner_texts()
        ]
        if label is None:
            i = next(i for i, t in enumerate(labels) if not re.match(r"labels|scores", t, re.I))
        else:
            i = next(i for i, t in enumerate(labels) if label.match(t))
        target = uploaders.nth(i)
        if not target.is_visible():  # in another tab: open the tab that shows it
            tabs = self.page.locator(f'{MAIN} [data-testid="stTab"]')
            for k in range(tabs.count()):
                tabs.nth(k).click(timeout=ACTION_TIMEOUT)
                if target.is_visible():
                    break
        target.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(path))

    # ------------------------------------------------------------ checkpoints
    def checkpoint(self) -> None:
        """Open the walk's URL in a fresh visitor's page; record every difference it
        shows."""
        self.report.checkpoints += 1
        mine = Snapshot.read(self.page)
        fresh = self.fresh_page()
        try:
            fresh.set_default_timeout(ACTION_TIMEOUT)
            fresh.goto(mine.url)
            wait_for_run(fresh)
            deadline = time.monotonic() + FRESH_SETTLE_S
            theirs = Snapshot.read(fresh)
            while mine.differences(theirs) and time.monotonic() < deadline:
                wait_for_run(fresh, no_run_grace=300)  # a run that ends, or 300 ms
                theirs = Snapshot.read(fresh)
            boxes = fresh.get_by_test_id("stException")
            crash = [
                _clip(t.strip().replace(REDACTED, "(details redacted on the page)"))
                for t in boxes.all_inner_texts()
            ]
        finally:
            fresh.close()
        diffs = mine.differences(theirs)
        entry = (
            f"{CHECK} {self.report.checkpoints} on {mine.page!r}: "
            f"{len(mine.metrics)} metrics, {len(mine.picked)} selections, "
            + ("same in a fresh page" if not diffs and not crash else "DIFFERENT")
        )
        self.report.log.append(entry)
        if crash or diffs:
            head = f"after action {self.report.n_done}, page {mine.page!r}, URL {mine.url}"
            self.report.mismatches.append(head)
            self.report.mismatches += [f"    the fresh page crashed: {t}" for t in crash]
            self.report.mismatches += [f"    {d}" for d in diffs]

    # ------------------------------------------------------------ the walk
    def run(self) -> WalkReport:
        page, n = self.page, self.report.n_actions
        page.set_default_timeout(ACTION_TIMEOUT)
        page.goto(self.app_url + "/")
        wait_for_run(page)
        self.pages = [
            t.strip() for t in page.locator('[data-testid="stSidebarNavLink"]').all_inner_texts()
        ]
        self.report.visits[self._current_page()] += 1
        checks = sorted({n * i // 4 for i in (1, 2, 3)} - {0, n})
        while self.report.n_done < n:
            r = self.rng.random()
            deficit = sum(max(0, self.min_visits - self.report.visits[p]) for p in self.pages)
            if deficit >= n - self.report.n_done - 2:
                r = 0.0  # the pages not yet visited enough need the remaining actions
            try:
                if r < 0.25:
                    ok = self.nav()
                elif r < 0.37:
                    ok = self.pick_dataset()
                elif r < 0.44:
                    ok = self.upload()
                else:
                    ok = self.move_control()
                    if ok is None:
                        ok = self.nav()
            except PlaywrightError as exc:  # a control went away mid-action: note it, go on
                self.report.skipped += 1
                msg = str(exc).strip().split("\n")[0]
                ok = self._run_and_check(f"{self._current_page()}: (action failed: {msg})")
            if not ok:
                return self.report
            if checks and self.report.n_done >= checks[0]:
                checks.pop(0)
                self.checkpoint()
        self.checkpoint()
        return self.report


def _short(x: float) -> str:
    """``x`` with at most 6 decimals, no trailing zeros."""
    text = f"{x:.6f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


def _clip(text: str, most: int = 2500) -> str:
    return text if len(text) <= most else text[: most // 2] + "\n[...]\n" + text[-most // 2 :]
