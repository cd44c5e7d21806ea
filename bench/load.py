"""``python -m bench --load``: many visitors at once on one hosted server, in Chromium.

A streamlit server is started on 127.0.0.1 with the hosted settings of
``hosting/config.toml`` (errors shown without details, upload and message
limits, cache bound) and a short ``disconnectedSessionTTL`` so a closed tab's
session is dropped within seconds. Then ``--sessions`` browser contexts of
one headless Chromium (each its own Streamlit session, its own cookies) run
at the same time for ``--seconds``. Each one:

1. uploads its own marked dataset on the Data page: a one-table CSV named
   ``visitorNN.csv`` whose sample ids are ``MARKNNX-<k>``, and waits until the
   page says it is the active dataset (a large file takes seconds to send and
   read: a visitor that left the page before would never have its upload);
2. switches pages in a loop (Home, ROC & PR curves, Data, Label ranking...),
   timing each switch from the click until the script is idle;
3. reads every page's text for another visitor's marker (``visitorMM`` or
   ``MARKMMX`` with MM != NN) and counts error boxes and exceptions.

It reports foreign markers seen (must be 0), error boxes (must be 0),
page-switch p50/p95, and the server's resident memory at start (after a
warm-up visit), at its peak and after every session closed. The figures go
to ``bench/results.md`` under "Load" (``--out`` to write elsewhere).

Nothing here listens beyond 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import tomllib
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results.md"
CHROMIUM = "/usr/bin/chromium"
PAGES = ("Home", "ROC & PR curves", "Data", "Label ranking", "Regression")
MARK = re.compile(r"(?:visitor|MARK)(\d{2})")
ERRORS = '[data-testid="stException"], [data-testid="stAlertContentError"]'
HEADING = "## Load (python -m bench --load)"
LARGE_HEADING = "## Load with large uploads (python -m bench --load --rows N)"
#: How long one step of a visitor may take: 30 sessions on 2 cores are slow.
TIMEOUT_MS = 180_000


#: The server environment the Dockerfile sets besides Streamlit's own settings (glibc's
#: malloc capped at two arenas, the hosted budgets of explorer.budget: docs/hosting.md);
#: tests/test_hosting.py keeps them equal.
HOSTED_ENV = {"MALLOC_ARENA_MAX": "2", "METRIC_EXPLORER_HOSTED": "1"}


def hosted_flags(config: Path = ROOT / "hosting" / "config.toml") -> list[str]:
    """The hosted config as ``streamlit run`` flags (``--server.maxUploadSize 50`` ...).

    Examples
    --------
    >>> flags = hosted_flags()
    >>> flags[flags.index("--client.showErrorDetails") + 1]
    'none'
    >>> json.loads(flags[flags.index("--theme.fontFaces") + 1])[0]["family"]
    'Noto Sans SC'
    """
    out = []
    for section, values in tomllib.loads(config.read_text()).items():
        for key, value in values.items():
            if isinstance(value, bool):
                value = str(value).lower()
            elif isinstance(value, list) and any(isinstance(v, dict) for v in value):
                # a table array (theme.fontFaces): Streamlit reads the flag as JSON; its
                # Python repr made it log a traceback per session and serve no font face
                value = json.dumps(value)
            elif isinstance(value, list):
                value = ",".join(map(str, value))
                if not value:
                    continue
            out += [f"--{section}.{key}", str(value)]
    return out


def rss_bytes(pid: int) -> int:
    """Resident memory of process ``pid`` (Linux ``/proc``), 0 when unreadable."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 0


def percentile(values: list[float], q: float) -> float:
    """The ``q``-th percentile (nearest rank) of ``values``; nan when empty.

    Examples
    --------
    >>> percentile([1.0, 2.0, 3.0, 4.0], 50), percentile([1.0, 2.0, 3.0, 4.0], 95)
    (2.0, 4.0)
    """
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))
    return ordered[int(rank) - 1]


def marked_csv(i: int, n: int = 40) -> str:
    """Visitor ``i``'s own binary dataset: ids ``MARKiiX-k``, scores seeded by ``i``.

    Examples
    --------
    >>> marked_csv(7, n=2).splitlines()
    ['id,y_true,y_score', 'MARK07X-0,0,0.07', 'MARK07X-1,1,0.7']
    """
    rows = ["id,y_true,y_score"]
    for k in range(n):
        y = k % 2
        score = round((i + 50 * y + 13 * k) % 100 / 100, 2)
        rows.append(f"MARK{i:02d}X-{k},{y},{score}")
    return "\n".join(rows)


@dataclass
class Tally:
    """What one visitor saw."""

    switches: list[float] = field(default_factory=list)
    uploaded: bool = False
    own: int = 0
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


class Server:
    """``streamlit run app.py`` on a free loopback port with the hosted flags."""

    def __init__(self, ttl: int, env: dict | None = None):
        import socket

        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            self.port = s.getsockname()[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = tempfile.TemporaryFile()
        flags = hosted_flags() + [
            "--server.address",
            "127.0.0.1",
            "--server.port",
            str(self.port),
            "--server.disconnectedSessionTTL",
            str(ttl),
        ]
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", "app.py", *flags],
            cwd=ROOT,
            env={**os.environ, **HOSTED_ENV, **(env or {})},
            stdout=self.log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(self.url + "/_stcore/health", timeout=1) as r:
                    if r.read() == b"ok":
                        return
            except OSError:
                time.sleep(0.3)
        self.stop()
        self.log.seek(0)
        raise RuntimeError("streamlit did not start:\n" + self.log.read().decode()[-2000:])

    def rss(self) -> int:
        return rss_bytes(self.proc.pid)

    def stop(self) -> None:
        self.proc.terminate()
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


async def _idle(page, timeout: float = TIMEOUT_MS) -> None:
    await page.wait_for_timeout(200)
    await page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout
    )


async def _check(page, i: int, tally: Tally, where: str) -> None:
    text = await page.locator('[data-testid="stApp"]').inner_text()
    for m in MARK.finditer(text):
        tally.own += int(m.group(1)) == i
        if int(m.group(1)) != i:
            tally.foreign.append(f"visitor {i:02d} saw {m.group(0)} on {where}")
    n_err = await page.locator(ERRORS).count()
    if n_err:
        first = await page.locator(ERRORS).first.inner_text()
        tally.errors.append(f"visitor {i:02d} on {where}: {first[:200]}")


async def visitor(browser, url: str, i: int, until: float, folder: Path, rows: int = 40) -> Tally:
    """One visitor's session until ``until`` (a ``time.monotonic()`` deadline)."""
    tally = Tally()
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = await ctx.new_page()
    try:
        path = folder / f"visitor{i:02d}.csv"
        path.write_text(marked_csv(i, rows))
        await page.goto(url + "/data")
        await _idle(page)
        await page.locator('.st-key-data_upload_file input[type="file"]').set_input_files(str(path))
        active = page.get_by_text(f"Active dataset {path.name}")
        await active.first.wait_for(timeout=TIMEOUT_MS)
        await _idle(page)
        tally.uploaded = True
        await _check(page, i, tally, "Data after upload")
        k = i
        while time.monotonic() < until:
            title = PAGES[k % len(PAGES)]
            k += 1
            link = page.locator('[data-testid="stSidebarNavLink"]').filter(has_text=title)
            t0 = time.perf_counter()
            await link.first.click()
            await _idle(page)
            tally.switches.append(time.perf_counter() - t0)
            await _check(page, i, tally, title)
    except Exception as exc:  # a visitor that failed is reported, not fatal
        tally.failures.append(f"visitor {i:02d}: {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        await ctx.close()
    return tally


async def _run(url: str, sessions: int, seconds: float, folder: Path, rows: int) -> list[Tally]:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        until = time.monotonic() + seconds
        tallies = await asyncio.gather(
            *(visitor(browser, url, i, until, folder, rows) for i in range(sessions))
        )
        await browser.close()
    return list(tallies)


@dataclass
class LoadReport:
    """The figures of one load run."""

    sessions: int
    seconds: float
    switches: int
    p50: float
    p95: float
    own: int
    foreign: list[str]
    errors: list[str]
    failures: list[str]
    rss_start: int
    rss_peak: int
    rss_after: int
    ttl: int
    rows: int = 40
    uploaded: int | None = None

    @property
    def heading(self) -> str:
        """The results section: one for small datasets, one for large uploads."""
        return HEADING if self.rows <= 1000 else LARGE_HEADING

    def render(self) -> str:
        mb = 1024 * 1024
        lines = [
            self.heading,
            "",
            f"{self.sessions} Chromium sessions at once for {self.seconds:.0f} s on one server "
            "(hosting/config.toml settings, 127.0.0.1), each uploading its own marked dataset "
            f"of {self.rows:,} rows and switching pages.",
            "",
            "| figure | value |",
            "|---|---|",
            *(
                [f"| sessions whose upload became active | {self.uploaded} of {self.sessions} |"]
                if self.uploaded is not None
                else []
            ),
            f"| page switches | {self.switches} |",
            f"| page switch p50 / p95 | {self.p50:.2f} s / {self.p95:.2f} s |",
            f"| own markers seen (the check can see markers) | {self.own} |",
            f"| foreign markers seen | {len(self.foreign)} |",
            f"| error boxes | {len(self.errors)} |",
            f"| sessions that failed | {len(self.failures)} |",
            f"| server memory at start (warm) | {self.rss_start / mb:.0f} MB |",
            f"| server memory at peak | {self.rss_peak / mb:.0f} MB |",
            f"| server memory after close (+{self.ttl} s TTL and 10 s) | "
            f"{self.rss_after / mb:.0f} MB |",
            "",
        ]
        for title, items in (
            ("Foreign markers", self.foreign),
            ("Errors", self.errors),
            ("Failures", self.failures),
        ):
            if items:
                lines += [f"{title} (first 5):", ""] + [f"- {x}" for x in items[:5]] + [""]
        return "\n".join(lines)


def run_load(sessions: int = 30, seconds: float = 120, ttl: int = 5, rows: int = 40) -> LoadReport:
    """Start a server, run ``sessions`` visitors for ``seconds``, measure, stop."""
    server = Server(ttl)
    peak = [0]
    stop = threading.Event()

    def sample() -> None:
        while not stop.is_set():
            peak[0] = max(peak[0], server.rss())
            stop.wait(0.5)

    try:
        with tempfile.TemporaryDirectory() as tmp:
            folder = Path(tmp)
            asyncio.run(_warm(server.url, folder))
            time.sleep(ttl + 10)
            start = server.rss()
            sampler = threading.Thread(target=sample, daemon=True)
            sampler.start()
            tallies = asyncio.run(_run(server.url, sessions, seconds, folder, rows))
            time.sleep(ttl + 10)
            stop.set()
            sampler.join()
            after = server.rss()
    finally:
        server.stop()
    switches = [s for t in tallies for s in t.switches]
    return LoadReport(
        sessions=sessions,
        seconds=seconds,
        switches=len(switches),
        p50=percentile(switches, 50),
        p95=percentile(switches, 95),
        own=sum(t.own for t in tallies),
        uploaded=sum(t.uploaded for t in tallies),
        foreign=[x for t in tallies for x in t.foreign],
        errors=[x for t in tallies for x in t.errors],
        failures=[x for t in tallies for x in t.failures],
        rss_start=start,
        rss_peak=max(peak[0], after),
        rss_after=after,
        ttl=ttl,
        rows=rows,
    )


async def _warm(url: str, folder: Path) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
        )
        await visitor(browser, url, 98, time.monotonic() + 20, folder)
        await browser.close()


def write_section(report: LoadReport, out: Path = RESULTS) -> None:
    """Put the report under its heading in ``out``, replacing an earlier one."""
    write_text_section(report.render(), report.heading, out)


def write_text_section(section: str, heading: str, out: Path = RESULTS) -> None:
    r"""Put ``section`` (starting with ``heading``) in ``out``, replacing an earlier one.

    Examples
    --------
    >>> import tempfile
    >>> p = Path(tempfile.mkdtemp()) / "r.md"
    >>> _ = p.write_text("# R\n\n## A\n\nold\n\n## B\n\nkept\n")
    >>> write_text_section("## A\n\nnew\n", "## A", p)
    >>> print(p.read_text())
    # R
    <BLANKLINE>
    ## B
    <BLANKLINE>
    kept
    <BLANKLINE>
    ## A
    <BLANKLINE>
    new
    <BLANKLINE>
    """
    out = Path(out)
    text = out.read_text() if out.exists() else "# Benchmark results\n"
    start = text.find(heading)
    if start >= 0:
        end = text.find("\n## ", start + len(heading))
        text = text[:start] + text[end + 1 :] if end >= 0 else text[:start]
    out.write_text(text.rstrip("\n") + "\n\n" + section)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench --load [--sessions N] [--seconds S] [--out FILE]``."""
    p = argparse.ArgumentParser(prog="python -m bench --load", description=__doc__.split("\n")[0])
    p.add_argument("--sessions", type=int, default=30)
    p.add_argument("--seconds", type=float, default=120)
    p.add_argument("--ttl", type=int, default=5, help="server.disconnectedSessionTTL, seconds")
    p.add_argument("--rows", type=int, default=40, help="rows of each visitor's dataset")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    report = run_load(args.sessions, args.seconds, args.ttl, args.rows)
    print(report.render())
    write_section(report, args.out)
    bad = report.foreign or report.errors or report.failures
    return 1 if bad else 0
