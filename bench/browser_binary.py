"""Which browser the browser tests should drive, and how: ``python -m bench.browser_binary``.

Opens the DCG & NDCG page on seed 001 (``/dcg?ds=seed001_dcg``) a few times in each of
Debian's two Chromium builds, ``chromium --headless`` (the new headless mode: the
whole browser, its own UI included) and ``chromium-headless-shell`` (the old headless
mode, what Playwright runs headless), alternating, against one ``streamlit run``
server, and prints each one's wall time and CPU seconds (browser and server processes
together) per page load. The browser tests (tests/e2e) open some 150 pages: their
cost is mostly this.

``python -m bench.browser_binary --motion`` compares instead the headless shell's page
loads with and without ``prefers-reduced-motion: reduce`` (the browser tests' contexts
ask for it), each load in a fresh context, as a browser test opens its page.

``python -m bench.browser_binary --reuse`` compares a load in a new page of a shared
context with one in a page that showed the last load and went to about:blank (the
browser tests hand a finished test's page to the next, tests/e2e/conftest.py).

``python -m bench.browser_binary --v8`` compares loads in the reused page with V8 as it
comes and with the browser tests' ``--js-flags`` (V8 on the page's own thread, no tier
past Maglev).
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

from tests.e2e.conftest import V8_FLAGS

ROOT = Path(__file__).resolve().parents[1]
BROWSERS = {
    "chromium --headless": "/usr/bin/chromium",
    "chromium-headless-shell": "/usr/lib/chromium/chromium-headless-shell",
}
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run"]
PAGE = "/dcg?ds=seed001_dcg"
SHELL = BROWSERS["chromium-headless-shell"]
#: The browser tests' pages share one renderer process (tests/e2e/conftest.py).
TESTS_ARGS = [*ARGS, "--renderer-process-limit=1"]
#: name -> (browser, its arguments, context options, each load in: "context" a fresh
#: context, "page" a new page of one context, "reused" the page of the last load)
SETUPS = {name: (exe, ARGS, {}, "page") for name, exe in BROWSERS.items()}
MOTION = {
    "motion as it comes": (SHELL, ARGS, {}, "context"),
    "reduced motion": (SHELL, ARGS, {"reduced_motion": "reduce"}, "context"),
}
REUSE = {
    "a new page": (SHELL, TESTS_ARGS, {"reduced_motion": "reduce"}, "page"),
    "the last load's page": (SHELL, TESTS_ARGS, {"reduced_motion": "reduce"}, "reused"),
}
V8 = {
    "V8 as it comes": (SHELL, TESTS_ARGS, {"reduced_motion": "reduce"}, "reused"),
    "V8 one thread, Maglev": (
        SHELL,
        [*TESTS_ARGS, V8_FLAGS],
        {"reduced_motion": "reduce"},
        "reused",
    ),
}


def tree_cpu(root: int) -> float:
    """CPU seconds used so far by the live descendants of process ``root``."""
    children: dict[int, list[tuple[int, int]]] = {}
    for name in filter(str.isdigit, os.listdir("/proc")):
        try:
            fields = Path(f"/proc/{name}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks = sum(int(f) for f in fields[11:15])
        children.setdefault(int(fields[1]), []).append((int(name), ticks))
    total, todo = 0, [root]
    while todo:
        for pid, ticks in children.get(todo.pop(), []):
            total += ticks
            todo.append(pid)
    return total / os.sysconf("SC_CLK_TCK")


def _server() -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    cmd += ["--server.port", str(port), "--server.address", "127.0.0.1"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    while True:
        try:
            urllib.request.urlopen(url + "/_stcore/health", timeout=1)
            return proc, url
        except OSError:
            time.sleep(0.2)


def _load(context, url: str, page=None) -> None:
    """One page load in ``page``, or in a new page of ``context`` closed after it."""
    shown = page or context.new_page()
    shown.goto(url + PAGE)
    shown.wait_for_selector('[data-testid="stApp"][data-test-script-state="notRunning"]')
    shown.wait_for_selector('[data-testid="stMetric"]')
    if page is None:
        shown.close()
    else:
        shown.goto("about:blank")


def _measure(pw, url: str, setup: tuple, loads: int) -> tuple[float, float]:
    """Wall and CPU seconds per load of ``setup`` (browser, arguments, context options,
    where)."""
    exe, args, options, where = setup
    browser = pw.chromium.launch(executable_path=exe, args=args)
    viewport = {"viewport": {"width": 1280, "height": 900}, **options}
    shared = None if where == "context" else browser.new_context(**viewport)
    page = shared.new_page() if where == "reused" else None

    def load() -> None:
        context = shared or browser.new_context(**viewport)
        _load(context, url, page)
        if shared is None:
            context.close()

    load()  # the server's and the browser's first load
    cpu, wall = tree_cpu(os.getpid()), time.perf_counter()
    for _ in range(loads):
        load()
    cpu, wall = tree_cpu(os.getpid()) - cpu, time.perf_counter() - wall
    browser.close()
    return wall / loads, cpu / loads


def main(setups: dict = SETUPS, rounds: int = 2, loads: int = 4) -> None:
    server, url = _server()
    try:
        with sync_playwright() as pw:
            for _ in range(rounds):
                for name, setup in setups.items():
                    wall, cpu = _measure(pw, url, setup, loads)
                    print(f"{name:24s} {wall:5.2f} s wall, {cpu:5.2f} CPU s a load")
    finally:
        server.terminate()
    print(f"(load average {os.getloadavg()[0]:.1f}, {os.cpu_count()} cores)")


if __name__ == "__main__":
    if "--motion" in sys.argv[1:]:
        main(MOTION, rounds=3)
    elif "--reuse" in sys.argv[1:]:
        main(REUSE, rounds=3, loads=6)
    elif "--v8" in sys.argv[1:]:
        main(V8, rounds=3, loads=6)
    else:
        main()
