"""``python -m bench --visitors``: does one heavy visitor hold the server from the others?

A hosted server (``bench.load.Server``: hosting/config.toml, ``METRIC_EXPLORER_HOSTED=1``,
127.0.0.1 only) and three visitors in headless Chromium, each its own session:

1. **Baseline.** Visitors 2 and 3 switch pages (Home, ROC & PR curves, Data, Label
   ranking, Regression) for ``--seconds`` seconds; each switch is timed from the click
   until the run it started has ended (:func:`click_and_wait`).
2. **Heavy.** Visitor 1 runs the heaviest thing each page offers at the largest upload
   the hosted limits allow, 95% intervals on, while 2 and 3 go on switching: a two-model
   binary upload just under the Compare page's bootstrap budget (:data:`BOOT_ROWS` rows:
   both bootstraps run), then the same at 2,000,000 rows (the row limit: DeLong's test
   and the reduced scatter, no bootstrap), each on Compare and ROC & PR curves; then a
   multilabel ``.npy`` pair of 200,000 x 100 (20,000,000 cells, the cell limit and
   Label ranking's table budget) on Label ranking and Multilabel.
3. **Leave.** With 2 and 3 stopped, visitor 1 uploads a fresh binary dataset, opens
   Compare and closes its tab 2 s into the run: once during the bootstraps (at
   :data:`BOOT_ROWS`), once during DeLong's test at 2,000,000 rows; then the same on
   the Slices page, during its resamples per group (:data:`SLICES_ROWS` rows, 50
   sites). The server's CPU (``/proc``, every thread) is sampled every 0.1 s: how long
   until a whole second uses under 5% of a core, and how many CPU seconds the server
   spent after the close.

The report gives the p50/p95 switch times of visitors 2 and 3 in both phases and the
ratio of the p95s (the target: at most 1.5) with a bootstrap interval of it (single runs
spread widely: :func:`p95_ratio_interval`), then the server's part of their switches
(their runs' wall times in the server's run log, :mod:`explorer.ui.runlog`: on one
machine the rest of a switch is their browsers', which share the cores with the server
and the heavy visitor's browser), each heavy step's wall time, and the idle time after
the leave (target: within 5 s). It goes to ``bench/results.md``
under "Visitors" with the machine's load average (``--out`` to write elsewhere). It
asserts nothing: on a shared machine the numbers are what they are.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import json
import os
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from bench.load import RESULTS, TIMEOUT_MS, Server, _idle, percentile, write_text_section
from explorer import registry
from explorer.budget import HOSTED
from explorer.pages.compare import bootstrap_seconds
from explorer.ui.runlog import RUN_LOG_VARIABLE

SHELL = "/usr/lib/chromium/chromium-headless-shell"
ARGS = ["--no-sandbox", "--disable-gpu"]
PAGES = ("Home", "ROC & PR curves", "Data", "Label ranking", "Regression")
HEADING = "## Visitors (python -m bench --visitors)"
#: The largest two-model binary upload (a round thousand rows) whose Compare bootstraps
#: the hosted budget runs (the estimate grows with the rows).
BOOT_ROWS = 1000 * int(HOSTED.per_run / bootstrap_seconds("binary", 1000))
MAX_ROWS = 2_000_000
ML_SHAPE = (200_000, 100)
#: Rows of the Slices leave case: its ROC AUC frame (1,000 resamples per group) and
#: search within the hosted limit of one computation, a few seconds of work.
SLICES_ROWS = 1_000_000
#: A second of server CPU under this share of a core is idle.
IDLE_SHARE = 0.05


def two_model_csv(n: int, seed: int, sites: int = 0) -> bytes:
    """A binary table ``y_true,score_a,score_b`` of ``n`` rows, scores with 3 decimals;
    with ``sites``, a text attribute ``site`` of that many values (``s00``, ``s01``...).

    Examples
    --------
    >>> two_model_csv(2, 0).decode().splitlines()[0]
    'y_true,score_a,score_b'
    >>> two_model_csv(2, 0, sites=3).decode().splitlines()[:2]
    ['y_true,score_a,score_b,site', '1,0.489,0.213,s01']
    """
    rng = np.random.default_rng(seed)
    y = rng.integers(0, 2, n)
    a = np.clip(0.3 * y + rng.random(n) * 0.7, 0, 1)
    b = np.clip(0.2 * y + rng.random(n) * 0.8, 0, 1)
    buf = io.StringIO()
    if sites:  # text: a number column of 50 values would be cut into quartiles
        site = np.char.add("s", np.char.zfill(rng.integers(0, sites, n).astype(str), 2))
        table = pd.DataFrame({"y_true": y, "score_a": a, "score_b": b, "site": site})
        table.to_csv(buf, index=False, float_format="%.3f")
        return buf.getvalue().encode()
    buf.write("y_true,score_a,score_b\n")
    np.savetxt(buf, np.column_stack([y, a, b]), fmt=["%d", "%.3f", "%.3f"], delimiter=",")
    return buf.getvalue().encode()


def npy_bytes(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


def multilabel_pair(n: int, m: int, seed: int) -> tuple[bytes, bytes]:
    """Labels (bool) and scores (float16, to fit 20,000,000 cells in 40 MB) as ``.npy``."""
    rng = np.random.default_rng(seed)
    y = rng.random((n, m)) < 0.1
    y[:, 0] = True  # every sample has a relevant label
    s = (rng.random((n, m)) + 0.3 * y).astype(np.float16)
    return npy_bytes(y), npy_bytes(s)


class CpuMeter:
    """The CPU seconds of process ``pid`` (all threads), sampled every ``step`` seconds."""

    def __init__(self, pid: int, step: float = 0.1):
        self.pid, self.step = pid, step
        self.samples: list[tuple[float, float]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()

    def cpu(self) -> float:
        try:
            fields = Path(f"/proc/{self.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return float("nan")
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def _run(self) -> None:
        while not self._stop.is_set():
            self.samples.append((time.monotonic(), self.cpu()))
            self._stop.wait(self.step)

    def stop(self) -> None:
        self._stop.set()
        self._thread.join()

    def idle_after(self, t0: float, window: float = 1.0, share: float = IDLE_SHARE):
        """Seconds from ``t0`` to the start of the first ``window`` (after ``t0``) in
        which the process used under ``share`` of a core; None if never seen."""
        return idle_after(self.samples, t0, window, share)


def idle_after(samples, t0: float, window: float = 1.0, share: float = IDLE_SHARE):
    """Seconds from ``t0`` until the first ``window`` of ``samples`` ((time, cpu
    seconds) pairs) that used under ``share`` of a core; None if none did.

    Examples
    --------
    >>> busy = [(t / 10, t / 10) for t in range(30)]  # one core until t = 2.9
    >>> idle = [(3 + t / 10, 2.9) for t in range(20)]  # then nothing
    >>> idle_after(busy + idle, 1.0)
    1.9
    """
    after = [(t, c) for t, c in samples if t >= t0]
    for i, (t, c) in enumerate(after):
        for t2, c2 in after[i + 1 :]:
            if t2 - t >= window:
                if (c2 - c) / (t2 - t) < share:
                    return round(t - t0, 3)
                break
    return None


def cpu_between(samples, t0: float, t1: float) -> float:
    """CPU seconds used between the samples nearest after ``t0`` and before ``t1``."""
    inside = [c for t, c in samples if t0 <= t <= t1]
    return inside[-1] - inside[0] if len(inside) > 1 else 0.0


@dataclass
class Switches:
    """The page switches of the light visitors: (start time, seconds, page)."""

    times: list[tuple[float, float]] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)

    def during(self, t0: float, t1: float) -> list[float]:
        return [s for t, s, _ in self.times if t0 <= t < t1]

    def slowest(self, t0: float, t1: float, n: int = 5) -> list[tuple[float, float, str]]:
        """The ``n`` slowest switches that started in [t0, t1)."""
        return sorted((x for x in self.times if t0 <= x[0] < t1), key=lambda x: -x[1])[:n]


#: Before a click: watch the app's script state; ``window.__ran`` turns true once a run
#: has started (a record's old value "running" means one started and ended between
#: two callbacks).
WATCH = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  window.__ran = false;
  if (window.__watch) window.__watch.disconnect();
  window.__watch = new MutationObserver((records) => {
    for (const r of records)
      if (r.oldValue === 'running' || app.getAttribute(r.attributeName) === 'running')
        window.__ran = true;
  });
  window.__watch.observe(app, {attributes: true, attributeOldValue: true,
                               attributeFilter: ['data-test-script-state']});
}"""
RAN = """() => window.__ran && document.querySelector('[data-testid="stApp"]')
  .getAttribute('data-test-script-state') === 'notRunning'"""
#: A page switch is over when its run was seen and has ended, or when the address is the
#: page's and the app is idle: a fast run's "running" may never be drawn (its first and
#: last messages reach the page in one batch, and React draws only the last state), and
#: waiting for it stopped at ``start_within``: the 10 s "stalls" of the earlier records.
#: The address changes with the run's first message, so an idle app at the new address
#: has finished that run.
ARRIVED = """(path) => {
  const state = document.querySelector('[data-testid="stApp"]')
    .getAttribute('data-test-script-state');
  return state === 'notRunning' && (window.__ran || new RegExp(path).test(location.pathname));
}"""


async def click_and_wait(
    page, target, start_within: float = 10.0, title: str | None = None
) -> None:
    """Click ``target`` and wait until the run it starts has ended. A loaded server may
    start the run seconds after the click, when ``load._idle``'s fixed 200 ms would see
    the previous run's end; a run not seen starting within ``start_within`` seconds is
    taken as over. ``title``: the click opens that page (see :data:`ARRIVED`)."""
    await page.evaluate(WATCH)
    await target.click()
    try:
        if title is None:
            await page.wait_for_function(RAN, timeout=start_within * 1000, polling=50)
        else:
            await page.wait_for_function(
                ARRIVED, arg=page_path(title), timeout=start_within * 1000, polling=50
            )
    except Exception:  # no run seen: wait for the state alone
        await _idle(page)


def page_path(title: str) -> str:
    """The address of the page titled ``title``, as a pattern of ``location.pathname``.

    Examples
    --------
    >>> page_path("Home"), page_path("Label ranking")
    ('^/$', '/label_ranking$')
    """
    slug = registry.by_title(title).slug
    return "^/$" if slug == registry.HOME else f"/{slug}$"


async def _open(page, title: str) -> float:
    """Click ``title`` in the sidebar and wait until the run ends; the seconds it took."""
    t0 = time.perf_counter()
    link = page.locator('[data-testid="stSidebarNavLink"]').filter(has_text=title).first
    await click_and_wait(page, link, title=title)
    return time.perf_counter() - t0


class Steps(list):
    """The heavy visitor's steps: (what, start, end), ``time.monotonic()``."""

    async def timed(self, what: str, work) -> None:
        t0 = time.monotonic()
        await work
        self.append((what, t0, time.monotonic()))


async def light(browser, url: str, i: int, stop: asyncio.Event, out: Switches) -> None:
    """A visitor on the default sample switching pages until ``stop`` is set."""
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = await ctx.new_page()
    try:
        await page.goto(url)
        await _idle(page)
        k = i
        while not stop.is_set():
            t0 = time.monotonic()
            seconds = await _open(page, PAGES[k % len(PAGES)])
            out.times.append((t0, seconds, PAGES[k % len(PAGES)]))
            k += 1
    except Exception as exc:  # reported, not fatal
        out.errors.append(f"visitor {i}: {type(exc).__name__}: {str(exc)[:200]}")
    finally:
        await ctx.close()


async def _intervals_on(page) -> None:
    box = page.locator(".st-key-ci_toggle input")
    if not await box.is_checked():
        await click_and_wait(page, page.locator(".st-key-ci_toggle label").first)


async def _upload_table(page, url: str, path: Path, n: int) -> None:
    await page.goto(url + "/data?ci=1")
    await _idle(page)
    await page.locator('.st-key-data_upload_file input[type="file"]').set_input_files(str(path))
    await page.get_by_text(f"· {n} samples").first.wait_for(timeout=TIMEOUT_MS)
    await _idle(page)


async def _upload_pair(page, url: str, labels: Path, scores: Path, n: int) -> None:
    await page.goto(url + "/data?ci=1")
    await _idle(page)
    await page.locator(".st-key-data_upload_labels input[type=file]").set_input_files(str(labels))
    await _idle(page)
    await page.locator(".st-key-data_upload_scores input[type=file]").set_input_files(str(scores))
    await page.get_by_text(f"multilabel · {n} samples").first.wait_for(timeout=TIMEOUT_MS)
    await _idle(page)


async def heavy(browser, url: str, files: dict, steps: Steps) -> None:
    """Visitor 1's heavy steps, each timed into ``steps``."""
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = await ctx.new_page()
    try:
        for name, n in (("boot", BOOT_ROWS), ("max", MAX_ROWS)):
            what = f"upload {n:,} two-model binary rows"
            await steps.timed(what, _upload_table(page, url, files[name], n))
            await _intervals_on(page)
            for title in ("Compare two models", "ROC & PR curves"):
                await steps.timed(f"{title} at {n:,} rows, intervals on", _open(page, title))
        shape = f"{ML_SHAPE[0]:,} x {ML_SHAPE[1]}"
        pair = _upload_pair(page, url, files["labels"], files["scores"], ML_SHAPE[0])
        await steps.timed(f"upload multilabel {shape} (.npy pair)", pair)
        await _intervals_on(page)
        for title in ("Label ranking", "Multilabel classification"):
            await steps.timed(f"{title} at {shape}, intervals on", _open(page, title))
    except Exception as exc:
        now = time.monotonic()
        steps.append((f"failed: {type(exc).__name__}: {str(exc)[:200]}", now, now))
    finally:
        await ctx.close()


async def leave(
    browser, url: str, path: Path, n: int, busy: float, title: str = "Compare two models"
) -> tuple[float, bool]:
    """Upload ``path``, open the page ``title``, close the tab ``busy`` seconds after its
    run starts; return the ``time.monotonic()`` of the close and whether the run was
    still going."""
    ctx = await browser.new_context(viewport={"width": 1280, "height": 900})
    ctx.set_default_timeout(TIMEOUT_MS)
    page = await ctx.new_page()
    await _upload_table(page, url, path, n)
    link = page.locator('[data-testid="stSidebarNavLink"]').filter(has_text=title)
    await link.first.click()
    await page.wait_for_selector('[data-testid="stApp"][data-test-script-state="running"]')
    await page.wait_for_timeout(busy * 1000)
    state = await page.locator('[data-testid="stApp"]').get_attribute("data-test-script-state")
    closed = time.monotonic()
    await ctx.close()
    return closed, state == "running"


def p95_ratio_interval(
    baseline: list[float], loaded: list[float], resamples: int = 2000, seed: int = 0
) -> tuple[float, float]:
    """A 95% bootstrap interval of the ratio of the two phases' p95 switch times, each
    phase's switches resampled apart: how far one run's ratio can be from the next one's.
    Consecutive switches of one visitor are not quite independent, so it is a guide to a
    run's noise, not an exact interval.

    Examples
    --------
    >>> same = [0.2, 0.3, 0.4, 0.5] * 50
    >>> lo, hi = p95_ratio_interval(same, same)
    >>> lo <= 1.0 <= hi
    True
    >>> lo, hi = p95_ratio_interval(same, [2 * x for x in same])
    >>> (lo, hi) == (2.0, 2.0)
    True
    """
    rng = np.random.default_rng(seed)

    def p95s(values: list[float]) -> np.ndarray:
        x = np.asarray(values, dtype=float)
        rank = max(1, -(-len(x) * 95 // 100))  # nearest rank, as bench.load.percentile
        drawn = np.sort(x[rng.integers(0, len(x), (resamples, len(x)))], axis=1)
        return drawn[:, rank - 1]

    lo, hi = np.percentile(p95s(loaded) / p95s(baseline), [2.5, 97.5])
    return float(lo), float(hi)


def server_part(lines: list[dict], phases: tuple[float, float, float]) -> tuple[list, list]:
    """The wall seconds, in the server, of the light visitors' runs: alone, then beside
    the heavy visitor. ``lines`` are the server's run log (:mod:`explorer.ui.runlog`),
    ``phases`` the Unix times the baseline began, the heavy visitor began and ended; the
    light visitors' sessions are those that ran in the baseline (the heavy one has not
    opened its page yet).

    Examples
    --------
    >>> log = [dict(end=1.1, wall=0.1, session="l"), dict(end=2.5, wall=0.3, session="l"),
    ...        dict(end=2.6, wall=4.0, session="h")]
    >>> server_part(log, (1.0, 2.0, 3.0))
    ([0.1], [0.3])
    """
    t0, t1, t2 = phases
    light = {x["session"] for x in lines if t0 <= x["end"] - x["wall"] and x["end"] < t1}
    alone = [x["wall"] for x in lines if x["session"] in light and t0 <= x["end"] < t1]
    beside = [x["wall"] for x in lines if x["session"] in light and t1 <= x["end"] < t2]
    return alone, beside


@dataclass
class StepRow:
    """One heavy step: its wall seconds, the server's CPU seconds meanwhile (every
    visitor's), and the light visitors' switches that started meanwhile."""

    what: str
    wall: float
    cpu: float
    switches: list[float]

    def render(self) -> str:
        p95 = f"{percentile(self.switches, 95):.2f} s" if self.switches else "-"
        return f"| {self.what} | {self.wall:.1f} | {self.cpu:.1f} | {len(self.switches)} | {p95} |"


#: The leave cases: what runs when the tab closes, the upload, its rows, the page opened.
LEAVES = (
    (f"Compare's bootstraps at {BOOT_ROWS:,} rows", "leave", BOOT_ROWS, "Compare two models"),
    (
        "Compare at 2,000,000 rows (DeLong's test, no bootstrap)",
        "leave_max",
        MAX_ROWS,
        "Compare two models",
    ),
    (
        f"Slices at {SLICES_ROWS:,} rows, 50 sites (ROC AUC's resamples per group)",
        "leave_slices",
        SLICES_ROWS,
        "Slices",
    ),
)


@dataclass
class Leave:
    """One leave: the tab closed ``busy`` seconds into a run, then the server watched."""

    what: str
    running: bool  # the run was still going at the close
    idle: float | None  # seconds from the close until a second under IDLE_SHARE
    cpu: float  # server CPU seconds from the close until idle

    def render(self) -> str:
        idle = "not within 20 s" if self.idle is None else f"{self.idle:.1f} s"
        running = "yes" if self.running else "no (!)"
        return f"| {self.what} | {running} | {idle} | {self.cpu:.1f} |"


@dataclass
class VisitorsReport:
    """The figures of one ``--visitors`` run."""

    baseline: list[float]
    loaded: list[float]
    steps: list[StepRow]
    leaves: list[Leave]
    slowest: list[str]
    errors: list[str]
    loads: tuple
    seconds: float
    server: tuple[list, list] = ([], [])  # the light visitors' runs in the server

    def _server_rows(self) -> list[str]:
        alone, beside = self.server
        if not alone or not beside:
            return []
        a50, a95 = percentile(alone, 50), percentile(alone, 95)
        b50, b95 = percentile(beside, 50), percentile(beside, 95)
        return [
            f"| the server's part: their runs (run log) | {len(alone)} | {len(beside)} |",
            f"| run p50 / p95 in the server | {a50:.3f} / {a95:.3f} s | "
            f"{b50:.3f} / {b95:.3f} s ({b95 / a95:.2f}x) |",
        ]

    def render(self) -> str:
        b95, l95 = percentile(self.baseline, 95), percentile(self.loaded, 95)
        lines = [
            HEADING,
            "",
            f"Run {time.strftime('%Y-%m-%d %H:%M')}, 2 visitors switching pages for "
            f"{self.seconds:.0f} s alone, then while a third runs the heaviest steps "
            "(hosted server on 127.0.0.1, headless Chromium shell on the same machine). "
            f"Load average (1 min) at start {self.loads[0]:.1f}, at end {self.loads[1]:.1f}, "
            f"on {os.cpu_count()} cores shared with other work.",
            "",
            "| figure | alone | with the heavy visitor |",
            "|---|---|---|",
            f"| page switches | {len(self.baseline)} | {len(self.loaded)} |",
            f"| switch p50 | {percentile(self.baseline, 50):.2f} s | "
            f"{percentile(self.loaded, 50):.2f} s |",
            f"| switch p95 | {b95:.2f} s | {l95:.2f} s ({l95 / b95:.2f}x; target <= 1.5x) |",
            "| the ratio's 95% interval (the switches resampled) | | {:.2f}x to {:.2f}x |".format(
                *p95_ratio_interval(self.baseline, self.loaded)
            ),
            *self._server_rows(),
            "",
            "| heavy visitor's step | wall s | server CPU s | light switches | their p95 |",
            "|---|---|---|---|---|",
            *(row.render() for row in self.steps),
            "",
            "The light visitors' slowest switches with the heavy visitor: "
            + "; ".join(self.slowest)
            + ".",
            "",
            "Then, the light visitors gone, the heavy visitor closed its tab 2 s into a "
            f"run; the server is idle when a whole second uses under {IDLE_SHARE:.0%} of "
            "a core (target: within 5 s of the close):",
            "",
            "| running at the close | still running | idle after | server CPU s till idle |",
            "|---|---|---|---|",
            *(leave.render() for leave in self.leaves),
            "",
        ]
        if self.errors:
            lines += ["Errors (first 5):", ""] + [f"- {e}" for e in self.errors[:5]] + [""]
        return "\n".join(lines)


async def _phases(url: str, files: dict, seconds: float):
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=SHELL, args=ARGS)
        out, stop = Switches(), asyncio.Event()
        lights = [asyncio.create_task(light(browser, url, i, stop, out)) for i in (2, 3)]
        t0 = time.monotonic()
        await asyncio.sleep(seconds)
        t1 = time.monotonic()
        steps = Steps()
        await heavy(browser, url, files, steps)
        t2 = time.monotonic()
        stop.set()
        await asyncio.gather(*lights)
        await asyncio.sleep(3)
        closes = []
        for what, name, rows, title in LEAVES:
            closed = await leave(browser, url, files[name], rows, busy=2.0, title=title)
            closes.append((what, *closed))
            await asyncio.sleep(20)
        await browser.close()
    return out, (t0, t1, t2), steps, closes


def run_visitors(seconds: float = 60, ttl: int = 5) -> VisitorsReport:
    """Start a server, run the three phases, measure, stop."""
    loads = [os.getloadavg()[0]]
    with tempfile.TemporaryDirectory() as tmp:
        run_log = Path(tmp) / "runs.jsonl"
        server = Server(ttl, env={RUN_LOG_VARIABLE: str(run_log)})
        meter = CpuMeter(server.proc.pid)
        try:
            files = _write_files(Path(tmp))
            out, (t0, t1, t2), steps, closes = asyncio.run(_phases(server.url, files, seconds))
        finally:
            meter.stop()
            server.stop()
        lines = (
            [json.loads(x) for x in run_log.read_text().splitlines()] if run_log.exists() else []
        )
    loads.append(os.getloadavg()[0])
    unix = time.time() - time.monotonic()  # the phases' monotonic times as Unix times
    rows = [
        StepRow(what, b - a, cpu_between(meter.samples, a, b), out.during(a, b))
        for what, a, b in steps
    ]
    return VisitorsReport(
        baseline=out.during(t0, t1),
        loaded=out.during(t1, t2),
        slowest=[_slow(x, steps) for x in out.slowest(t1, t2)],
        steps=rows,
        leaves=[_left(meter.samples, *close) for close in closes],
        errors=out.errors,
        loads=tuple(loads),
        seconds=seconds,
        server=server_part(lines, (t0 + unix, t1 + unix, t2 + unix)),
    )


def _slow(switch: tuple[float, float, str], steps) -> str:
    """A slow switch, with the heavy step it started in."""
    t, seconds, title = switch
    during = next((what for what, a, b in steps if a <= t < b), "between steps")
    return f"{seconds:.1f} s to {title} (during: {during})"


def _left(samples, what: str, closed: float, running: bool) -> Leave:
    idle = idle_after(samples, closed)
    cpu = cpu_between(samples, closed, closed + (20 if idle is None else idle))
    return Leave(what, running, idle, cpu)


def _write_files(folder: Path) -> dict:
    assert bootstrap_seconds("binary", BOOT_ROWS) <= 8.0  # both bootstraps run
    files = {
        "boot": (folder / "boot.csv", two_model_csv(BOOT_ROWS, 1)),
        "max": (folder / "max.csv", two_model_csv(MAX_ROWS, 2)),
        "leave": (folder / "leave.csv", two_model_csv(BOOT_ROWS, 3)),
        "leave_max": (folder / "leave_max.csv", two_model_csv(MAX_ROWS, 5)),
        "leave_slices": (folder / "leave_slices.csv", two_model_csv(SLICES_ROWS, 6, sites=50)),
    }
    labels, scores = multilabel_pair(*ML_SHAPE, seed=4)
    files["labels"] = (folder / "labels.npy", labels)
    files["scores"] = (folder / "scores.npy", scores)
    for path, data in files.values():
        path.write_bytes(data)
    return {name: path for name, (path, _) in files.items()}


def main(argv: list[str] | None = None) -> int:
    """``python -m bench --visitors [--seconds S] [--out FILE]``."""
    p = argparse.ArgumentParser(
        prog="python -m bench --visitors", description=__doc__.split("\n")[0]
    )
    p.add_argument("--seconds", type=float, default=60, help="the baseline phase, seconds")
    p.add_argument("--out", type=Path, default=RESULTS)
    args = p.parse_args(argv)
    report = run_visitors(args.seconds)
    print(report.render())
    write_text_section(report.render(), HEADING, args.out)
    return 1 if report.errors else 0


if __name__ == "__main__":
    raise SystemExit(main())
