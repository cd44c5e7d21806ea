"""The Slices page's main controls in Chromium (``python -m bench.browser_slices``).

First the reference move (:data:`REFERENCE`, the curves page's threshold box), then on
the bundled sample ``breast_cancer`` (228 rows; attributes radius, binned by quartile,
and texture) and, unless ``--rows 0``, on ``rows`` binary rows (default 10^6) uploaded as
a CSV through the Data page with two attributes: ``site`` (50 values) and ``texture``
(2). On each the first load is timed (to the script idle), then a few moves of each
main control:

- the threshold, one step up (``+``: the rates per group at the threshold);
- "Group by": the next attribute (the frame, its intervals and the chart again);
- "Metric": the next metric and back (the frame and the worst slices again).

A move is timed as in :mod:`bench.browser_pages`: from the input until the page's address
holds the new value, the script that wrote it is idle, and two animation frames later. A
select's input is the click on the option: its list opens before the timer starts (it
opens in the browser alone, without a run). "Group by" and "Metric" are also timed until
the groups' chart shows the new groups' values (the "drawn" column, two frames later):
while a frame's intervals are resampled the page shows each group's value first.
The target of a move is 0.3 s; a first load is reported without a target.
"""

from __future__ import annotations

import time
from pathlib import Path

import numpy as np
from playwright.sync_api import Error

from bench.browser import BrowserTiming, _idle, binary_csv, upload_csv
from bench.browser_pages import _PAINTED, _cols, _run, own_section

#: control's key, how it moves
CONTROLS = (("sl_t", "step"), ("sl_by", "select"), ("sl_metric", "select"))
SAMPLE = "breast_cancer"


def slices_csv(path: Path, n: int, groups: int = 50, seed: int = 0) -> Path:
    """:func:`bench.browser.binary_csv` with two attributes: ``site`` (``groups`` values)
    and ``texture`` (2), drawn apart from the labels and scores.

    Examples
    --------
    >>> import tempfile
    >>> p = slices_csv(Path(tempfile.mkdtemp()) / "s.csv", 3)
    >>> p.read_text().splitlines()[0]
    'y_true,y_score,site,texture'
    """
    rng = np.random.default_rng(seed + 1)
    site = np.char.add("s", np.char.zfill(rng.integers(0, groups, n).astype(str), 2))
    texture = np.array(["coarse", "smooth"])[rng.integers(0, 2, n)]
    return binary_csv(path, n, seed, {"site": site, "texture": texture})


def _move(page, key: str, how: str):
    """Ready the move of ``key``; returns the input to time. A select's list is opened
    here, untimed: its input is the click on the next option, as a visitor's choice is
    (the list opens in the browser alone, without a run)."""
    box = page.locator(f".st-key-{key}")
    if how == "step":
        return box.locator('[data-testid="stNumberInputStepUp"]').click
    combo = box.get_by_role("combobox")  # a React Aria combo box: its input holds the value
    current = combo.input_value()
    combo.click()
    options = page.get_by_role("option")
    options.first.wait_for()
    names = [o.strip() for o in options.all_inner_texts()]
    pick = names[(names.index(current) + 1) % len(names)] if current in names else names[-1]
    return options.filter(has_text=pick).first.click


#: The groups' chart as drawn (null when the page shows none).
_CHART_HTML = "document.querySelector('.me-svg-chart')?.outerHTML ?? null"
_CHART = f"() => {_CHART_HTML}"
#: The chart differs from ``before``: redrawn, or gone once the run is over (a refusal).
#: While a run replaces the section, the chart is gone for a moment before the new one.
_CHANGED = f"""(before) => {{
  const now = {_CHART_HTML};
  const idle = document.querySelector('[data-testid="stApp"]')
    ?.getAttribute('data-test-script-state') === 'notRunning';
  return now !== before && (now !== null || idle);
}}"""


def _seen(page, act, drawn: list):
    """``act``, then wait until the groups' chart differs from before (new values, or
    gone when the run is over), painted; its seconds from the input go to ``drawn``."""
    before = page.evaluate(_CHART)

    def act_and_wait():
        start = time.perf_counter()
        act()
        page.wait_for_function(_CHANGED, arg=before, polling="raf", timeout=600_000)
        page.evaluate(_PAINTED)
        drawn.append(time.perf_counter() - start)

    return act_and_wait


def _timed(page, key: str, how: str, moves: int, folder: Path) -> tuple[list, list, list, str]:
    """``moves`` moves of the control ``key``: their seconds, their CPU, the seconds until
    the chart showed the new groups (a select's move), and a note when a move failed
    (reported as not measured, with a screenshot of what the page showed)."""
    seconds, cpu, drawn, note = [], [], [], ""
    try:
        for _ in range(moves):
            act = _move(page, key, how)
            act = act if how == "step" else _seen(page, act, drawn)
            seconds.append(_run(page, act, cpu, 600_000))
            page.wait_for_timeout(300)
            _idle(page, 600_000)
    except Error as exc:
        page.screenshot(path=str(folder / f"{key}.png"))
        note = f"not measured: {str(exc).splitlines()[0]}"
    return seconds, cpu, drawn, note


def _controls(page, where: str, moves: int, folder: Path, only: str = "") -> list[BrowserTiming]:
    out = []
    for key, how in (c for c in CONTROLS if only in c[0]):
        seconds, cpu, drawn, note = _timed(page, key, how, moves, folder)
        name = f"Slices: {key} {'one step' if how == 'step' else 'next option'}"
        timing = BrowserTiming(name, where, seconds, 0.3, note, *_cols(cpu))
        timing.drawn = drawn if len(drawn) == len(seconds) else []
        out.append(timing)
    return out


#: The move every page is held to: the ROC & PR curves page's threshold box, one step,
#: on its sample (0.2 s on the machine where the targets were set). Timed in the same
#: run, so that a Slices move reads as a ratio to it on whatever machine runs the bench.
REFERENCE = ("curves?ds=balanced", "curves_threshold_number")


def reference(url: str, page, moves: int, folder: Path) -> BrowserTiming:
    """:data:`REFERENCE`'s step, timed as the Slices moves are."""
    path, key = REFERENCE
    _run(page, lambda: page.goto(f"{url}/{path}"), moved=False)
    seconds, cpu, _, note = _timed(page, key, "step", moves, folder)
    name = "Reference: ROC & PR curves, threshold box one step"
    return BrowserTiming(name, "sample balanced", seconds, 0.3, note, *_cols(cpu))


def run_slices(
    url: str, page, folder: Path, moves: int = 5, rows: int = 1_000_000, only: str = ""
) -> list:
    """Time :func:`reference`, then the first load and the controls' moves on the sample,
    then on ``rows`` rows; ``only``: the controls whose key contains it (all when empty)."""
    out = [reference(url, page, moves, folder)]
    cpu: list = []
    first = _run(page, lambda: page.goto(f"{url}/slices?ds={SAMPLE}"), cpu, moved=False)
    where = f"sample {SAMPLE}"
    out.append(BrowserTiming("Slices: first load", where, [first], None, "", *_cols(cpu)))
    out += _controls(page, where, moves, folder, only)
    if rows:
        csv = upload_csv(page, url, slices_csv(folder / f"slices_{rows}.csv", rows), rows)
        where = f"{rows:,} binary rows, 50 sites (CSV upload, {csv.stat().st_size / 1e6:.0f} MB)"
        link = page.get_by_test_id("stSidebarNavLink").filter(has_text="Slices")
        cpu = []
        first = _run(page, link.click, cpu, timeout=900_000, moved=False)
        out.append(BrowserTiming("Slices: first load", where, [first], None, "", *_cols(cpu)))
        out += _controls(page, where, moves, folder, only)
    return out


HEADING = "## Browser: the Slices page"
DESCRIPTION = (
    "`python -m bench.browser_slices` (`python -m bench --browser --browser-slices` puts the "
    "same rows in the Browser section): Chromium (headless, 1440 x 900) against `streamlit "
    "run` on this machine, on the bundled sample breast_cancer, then on a CSV of binary rows "
    "with a 50-value attribute uploaded through the Data page. A move is timed as on the "
    "other pages (bench/browser_pages.py): until the address holds the new value and the "
    "script is idle, then two frames. The median of the moves, in seconds; server and "
    "browser CPU: the median CPU seconds a move cost the streamlit process and the browser; "
    'drawn ("Group by" and "Metric"): until the groups\' chart shows the new groups, whose '
    "values come before their intervals while a frame is resampled. "
    "The first row, the ROC & PR curves page's threshold box one step on its sample, is the "
    "move the other pages are held to, timed in the same run: a Slices move reads as a ratio "
    "to it on whatever machine runs the bench."
)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.browser_slices [--moves 3] [--rows N] [--out FILE]``: its own
    results section."""
    import argparse

    from bench.load import RESULTS

    p = argparse.ArgumentParser(prog="python -m bench.browser_slices")
    p.add_argument("--moves", type=int, default=3)
    p.add_argument("--rows", type=int, default=1_000_000, help="0: the sample only")
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument("--only", default="", help="the controls whose key contains this text")
    args = p.parse_args(argv)

    def run(url, page, folder):
        return run_slices(url, page, folder, args.moves, args.rows, args.only)

    own_section(run, HEADING, DESCRIPTION, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
