"""Real-browser fixtures: a streamlit server on a free loopback port, Debian's Chromium.

Playwright's own browser download cannot work here, so the tests launch Debian's
chromium-headless-shell (or /usr/bin/chromium). Without either the browser tests skip
locally, but with CI=true a missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

ROOT = Path(__file__).resolve().parents[2]
#: Debian's chromium-headless-shell (the old headless mode: no browser UI of its own;
#: what Playwright runs headless), about a fifth less CPU per page load than
#: ``chromium --headless`` (measured in bench/results.md); the full browser otherwise.
HEADLESS_SHELL = "/usr/lib/chromium/chromium-headless-shell"
CHROMIUM = (
    HEADLESS_SHELL
    if os.path.exists(HEADLESS_SHELL)
    else shutil.which("chromium") or "/usr/bin/chromium"
)
#: V8 on the page's own thread (no concurrent GC or compiler threads) and no tier past
#: Maglev: a page lives a few seconds, too short for TurboFan's compiles to pay off. A
#: load 1.30-1.34 CPU s against 1.48-1.55 (``python -m bench.browser_binary --v8``); the
#: browser tests with 4 workers 529 CPU s against 554 side by side.
V8_FLAGS = "--js-flags=--single-threaded --max-opt=2"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    # the pages of one browser context share one renderer process, and so V8's cache of
    # the scripts it has compiled: a test's new page in the worker's context (``page``)
    # costs about 4 CPU s here, not the 7.5 s of a new process parsing and compiling
    # Streamlit's frontend again (a new context gets a process of its own: one per scale)
    "--renderer-process-limit=1",
    V8_FLAGS,
]


# the server log of each running app_url, for tests that quote a traceback from it
SERVER_LOGS: dict[str, Path] = {}


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def app_url(tmp_path_factory):
    port = _free_port()
    log_path = tmp_path_factory.mktemp("st") / "server.log"
    log = open(log_path, "w+b")
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "streamlit",
            "run",
            "app.py",
            "--server.headless",
            "true",
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(port),
            "--browser.gatherUsageStats",
            "false",
            "--server.fileWatcherType",
            "none",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url, deadline = f"http://127.0.0.1:{port}", time.monotonic() + 300  # a busy machine
    while time.monotonic() < deadline:
        try:
            if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read() == b"ok":
                break
        except OSError:
            time.sleep(0.2)
    else:
        proc.kill()
        log.seek(0)
        pytest.fail("streamlit did not start:\n" + log.read().decode())
    SERVER_LOGS[url] = log_path
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not os.path.exists(CHROMIUM):
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"CI=true but no Chromium at {CHROMIUM}: run `python3 dev.py test`")
        pytest.skip(
            "no Chromium: `apt-get install -y chromium-headless-shell` "
            "(python3 dev.py test does it)"
        )
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}}


#: Run first in each page a test opens in the shared context (a new one or one handed
#: back, :func:`_reuse_pages`): the page starts with the storage of a new context
#: (Streamlit keeps the sidebar's state and width, the theme, in localStorage), kept
#: across the page's own reloads and navigations.
_FRESH_STORAGE = """(() => {
  try {
    if (!sessionStorage.getItem('__e2eOwnStorage')) {
      localStorage.clear();
      sessionStorage.clear();
      sessionStorage.setItem('__e2eOwnStorage', '1');
    }
  } catch (e) {}  // a page with no storage (about:blank, a file:// page)
})();"""


@pytest.fixture(scope="session")
def _worker_contexts(browser: Browser, browser_context_args):
    """The worker's browser contexts, one per device scale, made when first asked for
    (``_worker_contexts(1.5)``): every test page of that scale is a page of it.

    A page in a context already open costs about half the CPU of one in a new context
    (a new context gets a renderer process of its own, which parses and compiles
    Streamlit's frontend again), and a page kept open less again (:func:`_reuse_pages`).
    Each page starts as a visitor's first visit would (:data:`_FRESH_STORAGE`; the
    tests' fixtures hand back its pages and clear cookies after each test); its
    viewport is the page's own (:func:`sized`)."""
    made: dict[float, BrowserContext] = {}
    viewport = browser_context_args["viewport"]

    def of_scale(scale: float = 1) -> BrowserContext:
        if scale not in made:
            made[scale] = browser.new_context(
                **{**browser_context_args, "device_scale_factor": scale}
            )
            made[scale].add_init_script(_FRESH_STORAGE)
            _reuse_pages(made[scale], viewport)
        return made[scale]

    yield of_scale
    for ctx in made.values():
        ctx.close()


@pytest.fixture(scope="session")
def _worker_context(_worker_contexts):
    """One browser context per test worker, for :func:`context` and :func:`page`."""
    return _worker_contexts(1)


#: Idle pages a context keeps for the next tests (most tests open one or two).
IDLE_PAGES = 2
#: The listeners Playwright itself keeps on every page.
_OWN_LISTENERS = {"close", "crash"}
#: Playwright's default wait for an action or a navigation (a test may set its own).
_DEFAULT_TIMEOUT = 30_000


def _reuse_pages(ctx: BrowserContext, viewport: dict) -> None:
    """``ctx.new_page()`` hands out a page a finished test left (:func:`_reset`) before it
    opens a new one. A context whose last page closes loses its renderer process: the
    next test's page started another, which compiled Streamlit's frontend again (a
    load in a new page 3.1-3.2 CPU s, in a page kept open 1.5, ``python -m
    bench.browser_binary --reuse``), and the suite opens about a hundred. The page comes
    as a new one would: on about:blank, with the default viewport and timeouts, no
    listener or route of the test before, its storage emptied (:func:`_fresh`)."""
    idle: list[Page] = []
    open_new = ctx.new_page

    def new_page() -> Page:
        while idle:
            page = idle.pop()
            if not page.is_closed():
                return page
        return open_new()

    def hand_back(page: Page) -> None:
        if page in idle:
            return
        if len(idle) < IDLE_PAGES and _fresh(page, viewport):
            idle.append(page)
        else:
            page.close()

    ctx.new_page = new_page
    ctx.hand_back = hand_back


def _fresh(page: Page, viewport: dict) -> bool:
    """Make ``page`` as a new page of its context would be; False when it cannot be
    (a listener or route the test added; a page on a file or another server, or sent
    to about:blank by the test: the storage emptied here is the app's, from its page)."""
    impl = getattr(page, "_impl_obj", None)  # Playwright's page: its listeners and routes
    events, routes = getattr(impl, "_events", None), getattr(impl, "_routes", None)
    if events is None or routes is None or set(events) - _OWN_LISTENERS or routes:
        return False
    try:
        page.set_default_timeout(_DEFAULT_TIMEOUT)
        page.set_default_navigation_timeout(_DEFAULT_TIMEOUT)
        if "/".join(page.url.split("/")[:3]) in SERVER_LOGS:  # the app's, by its origin
            # without its flag, the next first document empties the rest (_FRESH_STORAGE)
            page.evaluate("() => sessionStorage.clear()")
        elif page.url != "about:blank" or page.evaluate("history.length") > 1:
            return False  # not the app's, or left blank by the test: storage unknown
        page.goto("about:blank")
        page.mouse.move(0, 0)  # no hover left where the next page draws
        page.set_viewport_size(viewport)
    except PlaywrightError:
        return False
    return True


def _reset(ctx: BrowserContext) -> None:
    """A shared context as a new one: its pages handed back (:func:`_reuse_pages`),
    cookies and permissions cleared."""
    for open_page in ctx.pages:
        ctx.hand_back(open_page)
    ctx.clear_cookies()
    ctx.clear_permissions()


@pytest.fixture
def context(_worker_context):
    """The worker's browser context, as a new one: the test's pages are handed back after
    it (:func:`_reuse_pages`), its cookies and permissions cleared, and each page starts
    with empty storage.
    (Replaces pytest-playwright's fixture: a context of its own per test paid for a
    renderer process per test; its video and trace options are not used here.)"""
    yield _worker_context
    _reset(_worker_context)


@pytest.fixture
def page(context) -> Page:
    """A page of the worker's context as a new one (:func:`context`)."""
    return context.new_page()


#: Added to every browser context: each page counts the script runs of its Streamlit
#: app as they start and end, read from the app root's ``data-test-script-state``
#: ("initial" before the first run, then "running" or "rerunRequested", then
#: "notRunning"), and the messages it sends its server. A wait is then for a state (a
#: run ended since the last wait), never for a fixed time, however busy the machine.
RUN_COUNTER = """
(() => {
  window.__stStarted = 0; window.__stEnded = 0; window.__stSent = 0;
  window.__stSeen = [0, 0, 0];
  // every message the page sends its server (a widget's change asks for a rerun at once)
  const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (...args) {
    window.__stSent++;
    return send.apply(this, args);
  };
  const watch = () => new MutationObserver((records) => {
    for (const r of records) {
      if (r.target.getAttribute('data-testid') !== 'stApp') continue;
      const now = r.target.getAttribute('data-test-script-state');
      if (now === r.oldValue) continue;
      if (now === 'notRunning') window.__stEnded++;
      else if (now !== 'initial') window.__stStarted++;
    }
  }).observe(document, {subtree: true, attributes: true, attributeOldValue: true,
                        attributeFilter: ['data-test-script-state']});
  document.documentElement ? watch() : document.addEventListener('DOMContentLoaded', watch);
})();
"""

#: How long an ``expect`` waits for its state (Playwright's default is 5 s): a state a
#: rerun brings, or a timer of the page's own (the link box's 300 ms), can take longer on
#: a busy machine; a test that passes waits no longer for it.
expect.set_options(timeout=30_000)

_new_context = Browser.new_context


def _counting_context(self, *args, **kwargs):
    # A visitor who asked for less motion: Streamlit then skips its animations, about
    # a tenth of Chromium's CPU per page load (bench/results.md); nothing here is
    # asserted of an animation, and the waits are for states.
    kwargs.setdefault("reduced_motion", "reduce")
    context = _new_context(self, *args, **kwargs)
    context.add_init_script(RUN_COUNTER)
    return context


Browser.new_context = _counting_context

#: How long an action may take to start a run before the wait takes it for one that
#: starts none (an expander, a tab, a popover): a run starts within milliseconds on
#: an idle machine, so this is the margin for a busy one.
NO_RUN_GRACE = 3_000

_ENDED = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return window.__stEnded > window.__stSeen[1]
    && app?.getAttribute('data-test-script-state') === 'notRunning'
    && app?.getAttribute('data-test-connection-state') === 'CONNECTED';
}"""


#: Resolves once the page has drawn two frames after the last action, with what it did
#: since the previous wait: whether it sent its server a message, started or ended a run.
_AFTER_TWO_FRAMES = """() => new Promise((done) => requestAnimationFrame(() =>
  requestAnimationFrame(() => done(window.__stSent > window.__stSeen[2]
    || window.__stStarted > window.__stSeen[0] || window.__stEnded > window.__stSeen[1]))))"""


def wait_for_run(
    page: Page, timeout: int = 150_000, no_run_grace: int = NO_RUN_GRACE, immediate: bool = False
) -> None:
    """Wait until the script run started by the last action (or page load) has ended.

    Every page counts its app's runs (:data:`RUN_COUNTER`): the wait is over when a run
    has ended since the previous wait and none is going on. An action that starts no
    run within :data:`NO_RUN_GRACE` ms is one that needs none; ``E2E_NO_RUN_LOG=<file>``
    lists those waits (each costs the grace: a test should not wait after such an action).
    A loop that polls for a page to settle passes a shorter ``no_run_grace``.

    ``immediate=True`` is for an action whose rerun, if it has one, is asked for in its
    own event handler (a click, a choice, Enter in a box; not a slider's key, which
    Streamlit sends after a pause, nor an upload): when the page has drawn two frames
    after it without sending its server anything, it started no run and the wait ends.
    """
    if immediate and not page.evaluate(_AFTER_TWO_FRAMES):
        _settled(page, timeout)
        return
    try:
        page.wait_for_function(_ENDED, timeout=no_run_grace, polling=20)
    except PlaywrightTimeoutError:
        started = page.evaluate("() => window.__stStarted > window.__stSeen[0]")
        if started:  # a long run: wait for its end
            try:
                page.wait_for_function(_ENDED, timeout=timeout, polling=50)
            except PlaywrightTimeoutError:
                pytest.fail(_stuck(page, timeout), pytrace=False)
        elif os.environ.get("E2E_NO_RUN_LOG"):
            with open(os.environ["E2E_NO_RUN_LOG"], "a") as log:
                log.write(f"{os.environ.get('PYTEST_CURRENT_TEST')} {page.url}\n")
    _settled(page, timeout)


_STATE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  return {script: app?.getAttribute('data-test-script-state'),
          connection: app?.getAttribute('data-test-connection-state'),
          started: window.__stStarted, ended: window.__stEnded, sent: window.__stSent,
          seen: window.__stSeen};
}"""


def _stuck(page: Page, timeout: int) -> str:
    """Why a run did not end: the page's state and counters, and the end of its server's
    log (a run that hangs or a server that died says so there)."""
    origin = "/".join(page.url.split("/")[:3])
    log = SERVER_LOGS.get(origin)
    tail = log.read_text(errors="replace").splitlines()[-30:] if log and log.exists() else []
    return (
        f"a run started on {page.url} and did not end within {timeout / 1000:.0f} s; "
        f"the page: {page.evaluate(_STATE)}\nthe server's log, last lines:\n" + "\n".join(tail)
    )


def wait_until_quiet(page: Page, most: int = 10) -> None:
    """After a :func:`wait_for_run`, wait for any run the drawn page set off in turn (a
    lazy tab or a component that reports its value once drawn), until the page has drawn
    two frames without sending its server anything or starting a run."""
    for _ in range(most):
        if not page.evaluate(_AFTER_TWO_FRAMES):
            return
        wait_for_run(page)


def _settled(page: Page, timeout: int) -> None:
    """Mark what the page did so far as seen; wait until no run goes on or is drawn."""
    page.evaluate(
        "() => { window.__stSeen = [window.__stStarted, window.__stEnded, window.__stSent]; }"
    )
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout
    )
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=timeout)


@pytest.fixture
def sized(_worker_contexts):
    """New pages of a given viewport (and device scale): ``sized(390, 844)``, each a
    fresh visitor's (:func:`_worker_contexts`), handed back after the test."""
    used = []

    def make(width: int, height: int, scale: float = 1) -> Page:
        ctx = _worker_contexts(scale)
        used.append(ctx)
        page = ctx.new_page()
        page.set_viewport_size({"width": width, "height": height})
        return page

    yield make
    for ctx in {id(c): c for c in used}.values():
        _reset(ctx)


def step_slider(page: Page, name: str, key: str, arrow: str, target: str, most: int = 60) -> None:
    """Press ``arrow`` on the slider ``name`` (keyed ``key``) until its thumb reads ``target``.

    One key at a time, each followed by the rerun it starts: a burst of keys
    pressed while a rerun redraws the slider can lose some of them (the thumb
    stopped at 0.48 of 0.45 now and then), and a lost key is pressed again.
    """
    thumb = page.locator(f".st-key-{key} [data-testid='stSliderThumbValue']")
    for _ in range(most):
        if thumb.inner_text().strip() == target:
            return
        page.get_by_role("slider", name=name).focus()
        page.keyboard.press(arrow)
        wait_for_run(page)
    expect(thumb).to_have_text(target)


def metric_value(page: Page, label: str):
    """The value element of the st.metric whose label is exactly ``label``."""
    label_el = page.get_by_test_id("stMetricLabel").get_by_text(label, exact=True)
    return page.get_by_test_id("stMetric").filter(has=label_el).get_by_test_id("stMetricValue")


def network_refused(page: Page) -> list[str]:
    """Refuse every request of ``page`` but for a file (``file://``); returns the list
    of every address it asks for, filled as it asks."""
    fetched: list[str] = []

    def only_files(route):
        fetched.append(route.request.url)
        if route.request.url.startswith("file:"):
            route.continue_()
        else:
            route.abort()

    page.route("**/*", only_files)
    return fetched
