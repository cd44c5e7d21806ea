"""``python -m bench --soak``: many visitors for a long time; does anything grow or leak?

A hosted server (``bench.load.Server``, 127.0.0.1 only) and ``--visitors`` sessions of
one headless Chromium for ``--minutes`` (bounded: every step has a timeout, the run
ends at the deadline). Each visitor, seeded by its number, repeats a random action:

- **switch** (most often): click another page in the sidebar, timed from the click
  until the script is idle; read the page for another visitor's marker and for error
  boxes and exceptions;
- **upload**: its own marked dataset on the Data page, with the 95% intervals on: a
  small one (ids ``MARKnnX-k``), or for every tenth visitor (:func:`holds_large`: 3 of
  30) ``--rows`` rows (default the hosted limit, 2,000,000; two models, 28 MB, marked by
  its file name ``visitorNN_large.csv`` only, since ids would take it over the 50 MB
  upload limit);
- **heavy**: Compare two models and ROC & PR curves on its dataset, intervals on;
- **hostile**: a link from the injection corpus (the hostile dataset of
  ``tests/e2e/test_injection.py`` in ``?data=``, a payload in ``?ds=``) or a case of the
  link fuzzer (``tests/fuzz.py``); the page is audited as that test does (no request
  off the app's host, no link or image pointing away, no script run). A link opens a
  new session and the old one ends with its datasets, so a visitor of the large file
  uploads it again at once.

The large uploads are held by the same visitors all along, and held again after every
link, so that the memory compared at the end carries as many of them as after the first
5 minutes: drawn at random (a quarter of all uploads, dropped at every link), their
number held at a moment moved the 5-minute medians by 300-500 MB either way from one
window to the next (bench/results.md, "Soak"), more than the 20% the measure allows.

Every ``--bucket`` seconds the report has the switches' p50/p95 and the server's
resident memory; at the end the errors, foreign markers, failed audits, and the
memory's level at the end against its level after the first 5 minutes (the medians of
the 5-minute windows' samples; a quarter of a shorter run each), its least-squares trend,
and the two single samples it compared before. It goes to ``bench/results.md`` under
"Soak".
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from bench.load import (
    MARK,
    RESULTS,
    TIMEOUT_MS,
    Server,
    _idle,
    marked_csv,
    percentile,
    write_text_section,
)
from bench.visitors import SHELL, click_and_wait, two_model_csv

EXCEPTION = '[data-testid="stException"]'
REFUSAL = '[data-testid="stAlertContentError"]'
HEADING = "## Soak (python -m bench --soak)"
PAGES = (
    "Home",
    "ROC & PR curves",
    "Data",
    "Label ranking",
    "Regression",
    "Compare two models",
    "Multilabel classification",
    "DCG & NDCG",
)
#: The actions' weights: mostly page switches.
ACTIONS = (("switch", 12), ("upload", 2), ("heavy", 2), ("hostile", 3))
MB = 1024 * 1024


def hostile_links(seed: int, count: int) -> list[tuple[str, str]]:
    """(what, query string) of hostile links: the injection test's corpus, then fuzz cases."""
    from explorer.links import encode_dataset
    from tests.e2e.test_injection import PAYLOADS, _hostile
    from tests.fuzz import link_case

    out = [("hostile dataset", "?data=" + encode_dataset(_hostile()))]
    out += [("?ds= payload", "?ds=" + urllib.parse.quote(p)) for p in PAYLOADS]
    for k in range(count):
        what, tok = link_case(seed, k)
        out.append((f"fuzz {what}", "?data=" + tok))
    return out


@dataclass
class Tally:
    """What one visitor did and saw."""

    switches: list[tuple[float, float]] = field(default_factory=list)  # (time, seconds)
    actions: dict = field(default_factory=dict)
    foreign: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)  # exception boxes
    refusals: list[str] = field(default_factory=list)  # the app's own st.error notices
    audits: list[str] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


#: Every tenth visitor uploads the large file (and only that one).
LARGE_EVERY = 10


def holds_large(i: int) -> bool:
    """Whether visitor ``i`` uploads the large file, every time it uploads."""
    return i % LARGE_EVERY == 0


class Visitor:
    """One soak visitor: its page, its files, its tally."""

    def __init__(self, page, url: str, i: int, folder: Path, rows: int, links: list):
        self.page, self.url, self.i = page, url, i
        self.r = random.Random(f"soak:{i}")
        self.small = folder / f"visitor{i:02d}.csv"
        self.small.write_text(marked_csv(i))
        self.large = folder / f"visitor{i:02d}_large.csv"
        self.rows, self.links = rows, links
        self.tally = Tally()
        self.k = i

    async def check(self, where: str) -> None:
        text = await self.page.locator('[data-testid="stApp"]').inner_text()
        for m in MARK.finditer(text):
            if int(m.group(1)) != self.i:
                self.tally.foreign.append(f"visitor {self.i:02d} saw {m.group(0)} on {where}")
        # an exception box is a failure; an error notice is the app refusing bad input
        # (a damaged link, a metric undefined for the data): counted apart
        for selector, found in ((EXCEPTION, self.tally.errors), (REFUSAL, self.tally.refusals)):
            if await self.page.locator(selector).count():
                first = await self.page.locator(selector).first.inner_text()
                found.append(f"visitor {self.i:02d} on {where}: {first[:200]}")

    async def switch(self, title: str | None = None) -> None:
        title = title or PAGES[self.k % len(PAGES)]
        self.k += 1
        link = self.page.locator('[data-testid="stSidebarNavLink"]').filter(has_text=title)
        t0, w0 = time.perf_counter(), time.monotonic()
        await click_and_wait(self.page, link.first, title=title)
        self.tally.switches.append((w0, time.perf_counter() - t0))
        await self.check(title)

    async def upload(self) -> None:
        large = holds_large(self.i)
        if large and not self.large.exists():
            self.large.write_bytes(two_model_csv(self.rows, self.i))
        path = self.large if large else self.small
        await self.page.goto(self.url + "/data?ci=1")
        await _idle(self.page)
        await self.page.locator('.st-key-data_upload_file input[type="file"]').set_input_files(
            str(path)
        )
        await self.page.get_by_text(f"Active dataset {path.name}").first.wait_for()
        await _idle(self.page)
        await self.check("Data after upload")

    async def heavy(self) -> None:
        for title in ("Compare two models", "ROC & PR curves"):
            await self.switch(title)

    async def hostile(self) -> None:
        what, query = self.r.choice(self.links)
        await self.page.goto(self.url + "/" + query)
        await _idle(self.page)
        found = await self.page.evaluate(AUDIT)
        if found["bad"] or found["pwned"]:
            self.tally.audits.append(f"visitor {self.i:02d} {what}: {found}")
        if await self.page.get_by_test_id("stException").count():
            self.tally.errors.append(f"visitor {self.i:02d} {what}: an exception box")
        await self.hold()

    async def hold(self) -> None:
        """In a new session, upload the large file again if this visitor holds one."""
        if holds_large(self.i):
            await self.upload()


async def run_visitor(browser, url, i, until, folder, rows, links) -> Tally:
    """Visitor ``i``: upload first, then random actions until ``until``."""
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = await ctx.new_page()
    origin = urllib.parse.urlsplit(url).netloc
    v = Visitor(page, url, i, folder, rows, links)
    page.on("request", lambda r: _away(r.url, origin, v.tally, i))
    names, weights = zip(*ACTIONS, strict=True)
    try:
        await v.upload()
        while time.monotonic() < until:
            action = v.r.choices(names, weights)[0]
            v.tally.actions[action] = v.tally.actions.get(action, 0) + 1
            try:
                await getattr(v, action)()
            except Exception as exc:  # one failed step is counted; the visitor goes on
                v.tally.failures.append(f"visitor {i:02d} {action}: {type(exc).__name__}")
                await page.goto(url)
                try:  # a new session: the large file is held again, or the step counted
                    await v.hold()
                except Exception as again:
                    v.tally.failures.append(f"visitor {i:02d} upload: {type(again).__name__}")
    except Exception as exc:
        v.tally.failures.append(f"visitor {i:02d}: {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        await ctx.close()
    return v.tally


def _away(address: str, origin: str, tally: Tally, i: int) -> None:
    host = urllib.parse.urlsplit(address).netloc
    if host not in (origin, "") and not address.startswith(("data:", "blob:")):
        tally.audits.append(f"visitor {i:02d} request to {address[:120]}")


#: The page audit of tests/e2e/test_injection.py.
def _audit_js() -> str:
    from tests.e2e.test_injection import _AUDIT

    return _AUDIT


AUDIT = _audit_js()


@dataclass
class SoakReport:
    """The figures of one soak run."""

    visitors: int
    minutes: float
    rows: int
    tallies: list[Tally]
    rss: list[tuple[float, int]]  # (seconds since start, bytes)
    rss_closed: int
    start: float
    bucket: float
    loads: tuple

    def reference(self) -> tuple[float, int]:
        """The memory after the first 5 minutes (half of a shorter run): one sample."""
        at = min(300.0, self.minutes * 60 / 2)
        after = [x for x in self.rss if x[0] >= at] or self.rss[-1:]
        return after[0]

    def windows(self) -> tuple[tuple[float, float], tuple[float, float]]:
        """The two windows whose memory levels are compared, in seconds: the 5 minutes
        after the first 5 and the last 5 of the load (a quarter of a shorter run each,
        the first starting at its half)."""
        end = self.minutes * 60
        width = min(300.0, end / 4)
        start = min(300.0, end / 2)
        return (start, start + width), (end - width, end + 1)

    def level(self, window: tuple[float, float]) -> float:
        """The median of the memory samples (bytes) in ``window``: the memory's level
        there. Thirty sessions take up and drop uploads of up to 2,000,000 rows, so one
        sample moves by a gigabyte within a minute; the median of 60 does not."""
        inside = [m for t, m in self.rss if window[0] <= t < window[1]]
        return float(np.median(inside)) if inside else float("nan")

    def trend(self) -> float:
        """Bytes per 10 minutes of the least-squares line through the memory samples
        after the first 5 minutes (the first window's start): growth, or its absence."""
        start = self.windows()[0][0]
        pts = np.array([(t, m) for t, m in self.rss if t >= start], dtype=float)
        if len(pts) < 2 or np.ptp(pts[:, 0]) == 0:
            return float("nan")
        return float(np.polyfit(pts[:, 0], pts[:, 1], 1)[0]) * 600

    def rows_over_time(self) -> list[str]:
        switches = [(t - self.start, s) for tl in self.tallies for t, s in tl.switches]
        out = []
        end = self.minutes * 60
        for b0 in np.arange(0, end, self.bucket):
            b1 = b0 + self.bucket
            inside = [s for t, s in switches if b0 <= t < b1]
            mem = [m for t, m in self.rss if b0 <= t < b1]
            out.append(
                f"| {b0 / 60:.0f}-{b1 / 60:.0f} min | {len(inside)} | "
                f"{percentile(inside, 50):.2f} s | {percentile(inside, 95):.2f} s | "
                f"{self.level((b0, b1)) / MB:.0f} MB | {(max(mem) if mem else 0) / MB:.0f} MB |"
            )
        return out

    def memory_rows(self) -> list[str]:
        """The memory's level after the first 5 minutes against its level at the end
        (medians of each window's samples; target within 20%), and its trend."""
        first, last = self.windows()
        a, b = self.level(first), self.level(last)

        def span(w):
            return f"{w[0] / 60:.1f}-{min(w[1], self.minutes * 60) / 60:.1f} min"

        return [
            f"| memory level (median of the samples), {span(first)} / {span(last)} | "
            f"{a / MB:.0f} MB / {b / MB:.0f} MB ({(b - a) / a:+.0%}; target within 20%) |",
            f"| memory trend from {first[0] / 60:.1f} min (least squares) | "
            f"{self.trend() / MB:+.0f} MB per 10 min |",
        ]

    def render(self) -> str:
        def every(name):
            return [x for t in self.tallies for x in getattr(t, name)]

        at, ref = self.reference()
        last = self.rss[-1][1]
        actions: dict = {}
        for t in self.tallies:
            for k, v in t.actions.items():
                actions[k] = actions.get(k, 0) + v
        lines = [
            HEADING,
            "",
            f"Run {time.strftime('%Y-%m-%d %H:%M')}: {self.visitors} visitors for "
            f"{self.minutes:g} minutes (hosted server on 127.0.0.1, headless Chromium shell "
            f"on the same machine; large uploads {self.rows:,} rows, two models, held by "
            f"visitors {', '.join(f'{i:02d}' for i in range(self.visitors) if holds_large(i))}"
            "). Load "
            f"average (1 min) at start {self.loads[0]:.1f}, at end {self.loads[1]:.1f}, on "
            f"{os.cpu_count()} cores shared with other work. Actions: "
            + ", ".join(f"{k} {v}" for k, v in sorted(actions.items()))
            + ".",
            "",
            "| time | switches | p50 | p95 | server memory (median) | (peak) |",
            "|---|---|---|---|---|---|",
            *self.rows_over_time(),
            "",
            "| figure | value |",
            "|---|---|",
            f"| foreign markers | {len(every('foreign'))} |",
            f"| exception boxes | {len(every('errors'))} |",
            f"| error notices (the app refusing a link or data) | {len(every('refusals'))} |",
            f"| failed audits (request off the host, link/image away, script) | "
            f"{len(every('audits'))} |",
            f"| steps that failed (timeouts) | {len(every('failures'))} |",
            *self.memory_rows(),
            f"| memory, one sample after {at / 60:.1f} min / the last sample of the load | "
            f"{ref / MB:.0f} MB / {last / MB:.0f} MB ({(last - ref) / ref:+.0%}) |",
            "| memory after every visitor closed (+TTL and 10 s) | "
            f"{self.rss_closed / MB:.0f} MB |",
            "",
        ]
        for title, items in (
            ("Foreign markers", every("foreign")),
            ("Exceptions", every("errors")),
            ("Error notices", every("refusals")),
            ("Audits", every("audits")),
            ("Failures", every("failures")),
        ):
            if items:
                lines += [f"{title} (first 5):", ""] + [f"- {x}" for x in items[:5]] + [""]
        return "\n".join(lines)


async def _browse(url, visitors, minutes, folder, rows, links) -> list[Tally]:
    from playwright.async_api import async_playwright

    from tests.e2e.conftest import ARGS

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=SHELL, args=ARGS)
        until = time.monotonic() + minutes * 60
        tallies = await asyncio.gather(
            *(run_visitor(browser, url, i, until, folder, rows, links) for i in range(visitors))
        )
        await browser.close()
    return list(tallies)


def run_soak(visitors=30, minutes=60.0, rows=2_000_000, bucket=300.0, ttl=5) -> SoakReport:
    """Start a server, run the visitors, sample the memory, stop."""
    loads = [os.getloadavg()[0]]
    server = Server(ttl)
    rss: list[tuple[float, int]] = []
    stop = threading.Event()
    start = time.monotonic()

    def sample() -> None:
        while not stop.is_set():
            rss.append((time.monotonic() - start, server.rss()))
            stop.wait(5)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        with tempfile.TemporaryDirectory() as tmp:
            links = hostile_links(seed=29, count=200)
            tallies = asyncio.run(_browse(server.url, visitors, minutes, Path(tmp), rows, links))
        stop.set()
        sampler.join()
        time.sleep(ttl + 10)
        closed = server.rss()
    finally:
        stop.set()
        server.stop()
    loads.append(os.getloadavg()[0])
    return SoakReport(visitors, minutes, rows, tallies, rss, closed, start, bucket, tuple(loads))


def main(argv: list[str] | None = None) -> int:
    """``python -m bench --soak [--visitors N] [--minutes M] [--rows R] [--out FILE]``."""
    p = argparse.ArgumentParser(prog="python -m bench --soak", description=__doc__.split("\n")[0])
    p.add_argument("--visitors", type=int, default=30)
    p.add_argument("--minutes", type=float, default=60)
    p.add_argument("--rows", type=int, default=2_000_000, help="rows of a large upload")
    p.add_argument("--bucket", type=float, default=300, help="seconds per report line")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    report = run_soak(args.visitors, args.minutes, args.rows, args.bucket)
    print(report.render())
    write_text_section(report.render(), HEADING, args.out)
    bad = any(t.foreign or t.errors or t.audits for t in report.tallies)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
