"""What a user waits for, timed in Chromium (``python -m bench --browser``).

AppTest times the script alone (about 0.2 s for a threshold step at 200,000 rows);
in the browser a step also re-sends and redraws what the rerun drew (it was 1.5 s
there). This mode starts ``streamlit run app.py`` on a free loopback port, drives
Debian's Chromium (headless, through playwright, in a 1440 x 900 window) and times
each case from the input (a key press, a click) until the page is idle and drawn:
Streamlit's script state is ``notRunning``, its running indicator
(``stStatusWidget``) and every skeleton are gone, and the text the change brings is
on screen (the ROC chart's legend names the new operating point). Each case is the
median of several moves; the single times are in the report.

Cases (ROC & PR curves):

- a threshold step (the slider's arrow key) on the bundled sample ``balanced``
  (200 rows): target 0.15 s;
- the first load of the page on 10^6 binary rows, uploaded as a CSV through the
  Data page's uploader (cold caches: the curves are computed in it): target 2 s;
- a threshold step at 10^6 rows: target 0.25 s;
- a click on a candidate button and on a ROC vertex at 10^6 rows: target 0.3 s;
- a threshold step at 10^6 rows with the threshold tab "Charts" open (the workbench's
  gain and lift curves redrawn at each step): target 0.25 s.

The machine's load average is noted with the times: on shared cores they move with it.
"""

from __future__ import annotations

import contextlib
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run"]
VIEWPORT = {"width": 1440, "height": 900}
HEADING = "## Browser"

#: What a move is timed against, read from the page: ``point``, the threshold the
#: operating-point component shows (views/curves/operating_point.py, in its shadow root: its
#: marker, counts and rates are drawn in the same animation frame as this text);
#: ``box``, the server's threshold (the "Threshold (exact)" box, written by the rerun);
#: ``idle``: the script has finished and nothing shows it running.
_STATE = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  const host = document.querySelector('.st-key-curves_operating_point');
  const root = host && host.querySelector('[data-testid="stBidiComponentIsolated"]');
  const op = root && root.shadowRoot && root.shadowRoot.querySelector('.op');
  const box = document.querySelector('.st-key-curves_threshold_number input');
  const idle = !!app && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]');
  return {point: (op && op.dataset.threshold) || '', box: box ? box.value : '', idle};
}"""
#: The component shows another threshold than ``before.point``.
_DRAWN = "(before) => { const s = (" + _STATE + ")(); return s.point !== before.point; }"
#: The page is idle and the server's threshold is another than ``before.box``.
_IDLE = "(before) => { const s = (" + _STATE + ")(); return s.idle && s.box !== before.box; }"


def _tree_cpu(root: int, exclude: int | None = None) -> float:
    """CPU seconds (user + system) used so far by ``root`` and its descendants, leaving
    out the subtree of ``exclude``; read from /proc (0.0 where there is none).

    Wall times on shared cores move with the machine's load; the CPU seconds a move
    costs the server and the browser move much less, so the report gives both.

    Examples
    --------
    >>> _tree_cpu(os.getpid()) > 0 or not Path("/proc/self/stat").exists()
    True
    """
    ticks = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
    parent, used = {}, {}
    for entry in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = entry.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        pid = int(entry.parent.name)
        parent[pid] = int(fields[1])
        used[pid] = (int(fields[11]) + int(fields[12])) / ticks
    total = 0.0
    for pid in used:
        p = pid
        while p not in (0, 1, root, exclude) and p in parent:
            p = parent[p]
        if p == root or pid == root:
            total += used[pid]
    return total


@dataclass
class BrowserTiming:
    """One case: its seconds per move, and the target for their median.

    Examples
    --------
    ``seconds``: until the page is idle with the server's new numbers; ``drawn``:
    until the operating-point component shows the new threshold (the marker, counts
    and rates moved in the browser), when the case measures it.

    >>> t = BrowserTiming("threshold step", "sample balanced", [0.2, 0.1, 0.3], 0.15)
    >>> t.median, t.verdict
    (0.2, 'MISS')
    """

    case: str
    where: str
    seconds: list[float] = field(default_factory=list)
    target: float | None = None
    note: str = ""
    server_cpu: list[float] = field(default_factory=list)
    browser_cpu: list[float] = field(default_factory=list)
    drawn: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds) if self.seconds else float("nan")

    @property
    def drawn_median(self) -> float:
        return statistics.median(self.drawn) if self.drawn else float("nan")

    @property
    def verdict(self) -> str:
        """Against the target: the time until the operating point is drawn where the
        case measures it (what the user waits for), else until the page is idle."""
        if self.target is None or not self.seconds:
            return "n/a"
        waited = self.drawn_median if self.drawn else self.median
        return "PASS" if waited <= self.target else "MISS"


def binary_csv(path: Path, n: int, seed: int = 0, attributes: dict | None = None) -> Path:
    """A CSV of ``n`` binary labels and continuous scores, 30%
    positives, scores with 6 decimals (``y_true,y_score``): about 11 bytes a row;
    ``attributes`` (name -> ``n`` texts) as more columns.

    Examples
    --------
    >>> import tempfile
    >>> p = binary_csv(Path(tempfile.mkdtemp()) / "b.csv", 3)
    >>> p.read_text().splitlines()[0]
    'y_true,y_score'
    """
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.3).astype(np.int64)
    y[:2] = (0, 1)
    s = np.clip(rng.normal(0.4 + 0.25 * y, 0.2), 0, 1)
    extra = attributes or {}
    with open(path, "w", encoding="ascii") as fh:
        fh.write(",".join(["y_true", "y_score", *extra]) + "\n")
        if not extra:
            np.savetxt(fh, np.column_stack([y, s]), fmt=["%d", "%.6f"], delimiter=",")
            return path
        table = np.column_stack([y.astype(str), np.char.mod("%.6f", s), *extra.values()])
        np.savetxt(fh, table, fmt="%s", delimiter=",")
    return path


def upload_csv(page, url: str, csv: Path, rows: int, timeout: int = 600_000) -> Path:
    """Upload ``csv`` (``rows`` binary rows) through the Data page; return once it is the
    active dataset and the page is idle."""
    page.goto(f"{url}/data")
    _idle(page)
    page.set_input_files(".st-key-data_upload_file input[type=file]", csv)
    page.get_by_text(f"binary · {rows} samples").wait_for(timeout=timeout)
    _idle(page, timeout)
    return csv


@contextlib.contextmanager
def server() -> Iterator[tuple[str, int]]:
    """``streamlit run app.py`` on a free loopback port; yields its address and pid."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    log = tempfile.TemporaryFile()
    cmd = [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true"]
    cmd += ["--server.address", "127.0.0.1", "--server.port", str(port)]
    cmd += ["--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                if urllib.request.urlopen(url + "/_stcore/health", timeout=1).read() == b"ok":
                    break
            except OSError:
                if time.monotonic() > deadline or proc.poll() is not None:
                    log.seek(0)
                    raise RuntimeError("streamlit did not start:\n" + log.read().decode()) from None
                time.sleep(0.2)
        yield url, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


def _idle(page, timeout: int = 120_000) -> None:
    page.wait_for_timeout(250)
    page.wait_for_selector(
        '[data-testid="stApp"][data-test-script-state="notRunning"]', timeout=timeout
    )
    page.wait_for_selector('[data-testid="stSkeleton"]', state="detached", timeout=timeout)


#: The streamlit server's pid while :func:`run_browser` runs (for the CPU seconds).
_SERVER: list[int] = []
#: The CPU seconds of the last :func:`_timed` move: (server, browser).
LAST_CPU: list[tuple[float, float]] = []
#: The seconds until the operating point was drawn, of each :func:`_timed` move.
LAST_DRAWN: list[float] = []


def _timed(page, act, timeout: int = 120_000) -> float:
    """Seconds from ``act()`` until the page is idle with the server's new threshold;
    the seconds until the component drew the new operating point go to
    :data:`LAST_DRAWN`, the CPU seconds the server and the browser spent in the whole
    move to :data:`LAST_CPU`."""
    before = page.evaluate(_STATE)
    server, me = (_SERVER[0] if _SERVER else None), os.getpid()
    cpu0 = (_tree_cpu(server), _tree_cpu(me, exclude=server)) if server else (0.0, 0.0)
    start = time.perf_counter()
    act()
    page.wait_for_function(_DRAWN, arg=before, polling="raf", timeout=timeout)
    LAST_DRAWN.append(time.perf_counter() - start)
    page.wait_for_function(_IDLE, arg=before, polling="raf", timeout=timeout)
    seconds = time.perf_counter() - start
    if server:
        cpu1 = (_tree_cpu(server), _tree_cpu(me, exclude=server))
        LAST_CPU.append((cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]))
    return seconds


def _steps(page, moves: int) -> list[float]:
    slider = page.get_by_role("slider", name="Threshold", exact=True)
    times = []
    for _ in range(moves):
        slider.focus()
        # always up: each step is a threshold not seen before (no cached result helps)
        times.append(_timed(page, lambda: page.keyboard.press("ArrowRight")))
        page.wait_for_timeout(300)  # let a debounced duplicate rerun pass, untimed
        _idle(page)
    return times


def _buttons(page, moves: int) -> list[float]:
    times = []
    for i in range(moves):
        key = ("youden", "precision_at_least")[i % 2]
        button = page.locator(f".st-key-curves_go_{key} button").first
        times.append(_timed(page, lambda button=button: button.click(timeout=10_000)))
        _idle(page)
    return times


#: Where on the page the vertex at ``arg`` (a fraction of the selected model's ROC
#: curve) is drawn: the component's own vertex coordinates, moved to the page.
_VERTEX = """(at) => {
  const host = document.querySelector('.st-key-curves_operating_point');
  const root = host.querySelector('[data-testid="stBidiComponentIsolated"]').shadowRoot;
  const chart = root.__operatingPoint.roc;
  const line = chart.lines[0];
  const k = Math.floor(line.xs.length * at);
  const r = chart.svg.getBoundingClientRect();
  const scale = r.width / chart.width;
  return {x: r.left + line.xs[k] * scale, y: r.top + line.ys[k] * scale};
}"""


def _clicks(page, moves: int) -> list[float]:
    times = []
    page.locator(".st-key-curves_operating_point").scroll_into_view_if_needed()
    for i in range(moves):
        xy = page.evaluate(_VERTEX, 0.2 + 0.1 * (i % 5))
        times.append(_timed(page, lambda xy=xy: page.mouse.click(xy["x"], xy["y"])))
        _idle(page)
    return times


def _charts_steps(page, moves: int) -> list[float]:
    """Threshold steps with the workbench's Charts tab open (its first chart, gain and
    lift, follows each step)."""
    page.get_by_role("tab", name="Charts").click()
    _idle(page)
    page.locator(".st-key-curves_wb_gain").wait_for(timeout=60_000)
    return _steps(page, moves)


def _case(out: list, case: str, where: str, measure, target: float) -> None:
    """Run ``measure`` (a list of seconds) and keep its timing; a case that fails (a
    page without that control) is kept with its error as the note, and no seconds."""
    from playwright.sync_api import Error

    LAST_CPU.clear()
    LAST_DRAWN.clear()
    try:
        seconds, note = measure(), ""
    except Error as exc:
        seconds, note = [], f"not measured: {str(exc).splitlines()[0]}"
    out.append(
        BrowserTiming(
            case,
            where,
            seconds,
            target,
            note,
            server_cpu=[c[0] for c in LAST_CPU],
            browser_cpu=[c[1] for c in LAST_CPU],
            drawn=list(LAST_DRAWN) if seconds else [],
        )
    )
    t = out[-1]
    drawn = f"drawn {statistics.median(t.drawn):.3f} s, " if t.drawn else ""
    print(f"  {case}, {where}: {drawn}idle {t.median:.3f} s ({t.verdict})", file=sys.stderr)


def run_browser(
    rows: int = 1_000_000,
    moves: int = 7,
    sample: str = "balanced",
    pages: bool = False,
    slices: bool = False,
) -> list[BrowserTiming]:
    """Time the cases of this module's docstring; ``rows`` 0 skips the big upload;
    ``pages``, ``slices``: also :mod:`bench.browser_pages`' and :mod:`bench.browser_slices`'."""
    from playwright.sync_api import sync_playwright

    out: list[BrowserTiming] = []
    with server() as (url, pid), sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        _SERVER[:] = [pid]
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(url)
        _idle(page)
        page.goto(f"{url}/curves?ds={sample}")
        _idle(page)
        page.wait_for_function("() => (" + _STATE + ")().point !== ''")
        step = "threshold step (arrow key)"
        _case(out, step, f"sample {sample}", lambda: _steps(page, moves), 0.15)
        if rows:
            csv = upload_csv(page, url, binary_csv(Path(tmp) / f"binary_{rows}.csv", rows), rows)
            where = f"{rows:,} binary rows (CSV upload, {csv.stat().st_size / 1e6:.0f} MB)"
            link = page.get_by_test_id("stSidebarNavLink").filter(has_text="ROC & PR curves")
            first = "first load of the page (cold caches)"
            _case(out, first, where, lambda: [_timed(page, link.click, timeout=300_000)], 2.0)
            _idle(page)
            _case(out, step, where, lambda: _steps(page, moves), 0.25)
            _case(out, "candidate button click", where, lambda: _buttons(page, moves), 0.3)
            _case(out, "ROC vertex click", where, lambda: _clicks(page, moves), 0.3)
            _case(out, f"{step}, Charts tab open", where, lambda: _charts_steps(page, moves), 0.25)
        if pages:
            from bench.browser_pages import run_pages

            print("== other pages at 100,000 x 100", file=sys.stderr)
            out += run_pages(url, page, Path(tmp), moves=min(moves, 5))
        if slices:
            from bench.browser_slices import run_slices

            print("== the Slices page", file=sys.stderr)
            out += run_slices(url, page, Path(tmp), moves=min(moves, 5), rows=rows)
        browser.close()
    _SERVER.clear()
    return out


def render(timings: list[BrowserTiming], loads: tuple, notes: str = "") -> str:
    """The report's Browser section (heading included).

    Examples
    --------
    >>> text = render([BrowserTiming("step", "sample", [0.1, 0.12], 0.15)], ((1.0,), (2.0,)))
    >>> "| step | sample |  | 0.110 | 0.15 | PASS |  |  | 0.100, 0.120 |" in text
    True
    >>> t = BrowserTiming("step", "s", [0.5, 0.7], 0.15, drawn=[0.02, 0.04])
    >>> "| step | s | 0.030 | 0.600 | 0.15 | PASS |" in render([t], ((1.0,), (2.0,)))
    True
    """
    lines = [
        HEADING,
        "",
        "`python -m bench --browser`: Chromium (headless, 1440 x 900) against `streamlit run`"
        " on this machine, from the input until the page is idle and drawn (see"
        " bench/browser.py); the median of the moves, in seconds. Drawn: until the"
        " operating-point component shows the new threshold (its marker, counts and rates"
        " move in the browser, read from its DOM); idle: until the server's rerun is drawn"
        " too (script finished, the number box shows the new threshold). The verdict is on"
        " drawn where measured. Server CPU and browser CPU: the median CPU seconds (user +"
        " system) a whole move (until idle) cost the streamlit process and the browser's"
        " processes, which the machine's load moves far less than the wall time.",
        f"Load average (1 min) at the start {loads[0][0]:.2f}, at the end {loads[1][0]:.2f},"
        f" on {os.cpu_count()} cores.",
        "",
        "| case | where | drawn s | idle s | target s | verdict | server CPU s |"
        " browser CPU s | every move: (drawn /) idle s |",
        "| --- | --- | ---: | ---: | ---: | --- | ---: | ---: | --- |",
    ]

    def med(values: list[float]) -> str:
        return f"{statistics.median(values):.3f}" if values else ""

    for t in timings:
        target = "" if t.target is None else f"{t.target:g}"
        if t.drawn and len(t.drawn) == len(t.seconds):
            each = ", ".join(f"{d:.3f} / {s:.3f}" for d, s in zip(t.drawn, t.seconds, strict=True))
        else:
            each = ", ".join(f"{s:.3f}" for s in t.seconds)
        lines.append(
            f"| {t.case} | {t.where} | {med(t.drawn)} | {t.median:.3f} | {target} | "
            f"{t.verdict} | {med(t.server_cpu)} | {med(t.browser_cpu)} | {each or t.note} |"
        )
    if notes:
        lines += ["", notes]
    return "\n".join(lines) + "\n"


def replace_section(report: str, section: str, heading: str = HEADING) -> str:
    """``report`` with its section under ``heading`` (the Browser one by default) replaced
    by ``section``, or ``section`` appended.

    Examples
    --------
    >>> replace_section("# R\\n\\n## A\\na\\n## Browser\\nold\\n## B\\nb\\n", "## Browser\\nnew\\n")
    '# R\\n\\n## A\\na\\n## Browser\\nnew\\n## B\\nb\\n'
    >>> replace_section("# R\\n", "## Browser\\nnew\\n")
    '# R\\n\\n## Browser\\nnew\\n'
    """
    lines = report.splitlines(keepends=True)
    try:
        start = next(i for i, line in enumerate(lines) if line.rstrip() == heading)
    except StopIteration:
        return report.rstrip("\n") + "\n\n" + section
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("## ")), len(lines))
    return "".join(lines[:start]) + section + "".join(lines[end:])


def browser_section(report: str) -> str:
    """The Browser section of ``report`` (empty when it has none), to keep it when the
    rest of the report is written again.

    Examples
    --------
    >>> browser_section("# R\\n## Browser\\nx\\n## B\\n")
    '## Browser\\nx\\n'
    """
    lines = report.splitlines(keepends=True)
    starts = [i for i, line in enumerate(lines) if line.rstrip() == HEADING]
    if not starts:
        return ""
    end = next(
        (i for i in range(starts[0] + 1, len(lines)) if lines[i].startswith("## ")), len(lines)
    )
    return "".join(lines[starts[0] : end])
