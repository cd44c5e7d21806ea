"""Real-browser fixtures: a streamlit server on a free loopback port, Debian's Chromium.

Playwright's own browser download cannot work here, so the tests launch
/usr/bin/chromium. Without it the browser tests skip locally, but with
CI=true a missing browser is a failure.
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
from playwright.sync_api import Page, expect

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
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
        pytest.skip("no Chromium: `apt-get install -y chromium` (python3 dev.py test does it)")
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": ARGS}


@pytest.fixture(scope="session")
def browser_context_args(browser_context_args):
    return {**browser_context_args, "viewport": {"width": 1280, "height": 900}}


def wait_for_run(page: Page, timeout: int = 150_000) -> None:
    """Wait until the script run triggered by the last action has finished."""
    page.wait_for_timeout(250)
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-connection-state="CONNECTED"]', timeout=timeout
    )
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout
    )
    expect(page.get_by_test_id("stSkeleton")).to_have_count(0, timeout=timeout)


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
