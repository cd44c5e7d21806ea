"""Retake docs/home.png: the Home page on the bundled "balanced" sample at 1440x900.

Starts the app on a free loopback port, opens it in Debian's Chromium (playwright),
waits until the script run has finished and every chart and table is drawn, and saves
the viewport. Run from the repository root::

    .venv/bin/python docs/screenshot.py            # writes docs/home.png
    .venv/bin/python docs/screenshot.py out.png    # somewhere else
"""

from __future__ import annotations

import subprocess
import sys
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.e2e.conftest import ARGS, CHROMIUM, _free_port, wait_for_run  # noqa: E402

#: What the README shows: the page, its sample, the viewport.
ADDRESS = "/?ds=balanced"
VIEWPORT = {"width": 1440, "height": 900}


def _serve(port: int) -> subprocess.Popen:
    command = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    command += ["--server.address", "127.0.0.1", "--server.port", str(port)]
    command += ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            health = f"http://127.0.0.1:{port}/_stcore/health"
            if urllib.request.urlopen(health, timeout=1).read() == b"ok":
                return proc
        except OSError:
            time.sleep(0.2)
    proc.kill()
    raise SystemExit("streamlit did not start")


def main(out: Path) -> None:
    """Save the Home page's screenshot to ``out``."""
    port = _free_port()
    proc = _serve(port)
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport=VIEWPORT)
            page.goto(f"http://127.0.0.1:{port}{ADDRESS}")
            wait_for_run(page, timeout=60_000)
            page.get_by_test_id("stMetric").first.wait_for()
            page.locator("[data-testid=stDataFrame] canvas").first.wait_for()
            page.wait_for_timeout(500)  # the grid's first paint
            page.screenshot(path=str(out))
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=10)
    print(f"wrote {out}")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "home.png")
