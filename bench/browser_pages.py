"""The other pages' main controls in Chromium at 100,000 x 100 (``python -m bench.browser_pages``).

Two ``.npy`` pairs are uploaded through the Data page (0/1 labels, then relevance
grades 0-3, with float32 scores): 10 MB of labels and 40 MB of scores each, under
the 50 MB upload limit. On each page the first load is timed (the sidebar click
until the script is idle), then a few moves of its main control:

- Label ranking: the drill-down sample, one step up (``+``);
- Multilabel classification: the threshold slider, one arrow key;
- DCG & NDCG: k, typed one higher (the box starts empty: all items);
- Top-K retrieval: the K slider, one arrow key.

A move is timed from the action until the page's address holds the new value and
the script that wrote it has run and is idle again (Streamlit's
``data-test-script-state``, polled every animation frame), then two animation
frames, so that what the run drew is painted. A first load is timed until the
script is idle (with a 250 ms settling wait: it is reported without a target). The target of every
move is 0.3 s; a first load is reported without a target.
"""

from __future__ import annotations

import io
import os
import time
from pathlib import Path

import numpy as np
from playwright.sync_api import Error

from bench.browser import _SERVER, BrowserTiming, _idle, _tree_cpu

RUNNING = "() => document.querySelector('[data-testid=\"stApp\"]')?.dataset.testScriptState"
#: page title in the sidebar, its URL part, the control's key, how to move it
CONTROLS = {
    "multilabel": [
        ("Label ranking", "lr_sample", "step"),
        ("Multilabel classification", "ml_threshold", "arrow"),
    ],
    "graded": [
        ("DCG & NDCG", "dcg_k", "type"),
        ("Top-K retrieval", "ret_k", "arrow"),
    ],
}


def npy_pair(folder: Path, kind: str, shape=(100_000, 100), seed: int = 0) -> tuple[Path, Path]:
    """Labels (0/1 or grades 0-3, int8) and float32 scores as ``.npy`` files.

    Examples
    --------
    >>> import tempfile
    >>> lab, sco = npy_pair(Path(tempfile.mkdtemp()), "graded", shape=(4, 3))
    >>> np.load(lab).dtype, np.load(sco).shape
    (dtype('int8'), (4, 3))
    """
    rng = np.random.default_rng(seed)
    if kind == "multilabel":
        y = (rng.random(shape) < 0.1).astype(np.int8)
    else:
        y = rng.integers(0, 4, shape).astype(np.int8)
    s = rng.random(shape).astype(np.float32)
    paths = []
    for name, a in (("labels", y), ("scores", s)):
        buf = io.BytesIO()
        np.save(buf, a)
        path = folder / f"{kind}_{name}.npy"
        path.write_bytes(buf.getvalue())
        paths.append(path)
    return paths[0], paths[1]


#: The page is idle (the script has run, nothing shows it running) and its address is
#: another than ``before``: every move here writes its new value to the URL in its run.
_MOVED = """(before) => {
  const app = document.querySelector('[data-testid="stApp"]');
  return location.search !== before && !!app
    && app.getAttribute('data-test-script-state') === 'notRunning'
    && !document.querySelector('[data-testid="stStatusWidget"], [data-testid="stSkeleton"]');
}"""
#: Resolves after the next two animation frames: what the last run drew is painted.
_PAINTED = "() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))"


def _run(page, act, cpu: list | None = None, timeout: int = 300_000, moved: bool = True) -> float:
    """Seconds from ``act()`` until the run it started is over and painted; the CPU
    seconds of the server and of the browser go to ``cpu`` when given.

    ``moved``: the run writes another address (a control's move), polled every
    animation frame; otherwise (a first load, whose address may not change) the run is
    seen to start, then to end."""
    server, me = (_SERVER[0] if _SERVER else None), os.getpid()
    cpu0 = (_tree_cpu(server), _tree_cpu(me, exclude=server)) if server else None
    before = page.evaluate("() => location.search")
    start = time.perf_counter()
    act()
    if moved:
        page.wait_for_function(_MOVED, arg=before, polling="raf", timeout=timeout)
    else:
        try:  # a run may start and end between two polls: then it is over already
            page.wait_for_function(f"{RUNNING} === 'running'", polling="raf", timeout=5_000)
        except Exception:
            pass
        _idle(page, timeout)
    page.evaluate(_PAINTED)
    seconds = time.perf_counter() - start
    if cpu is not None and cpu0 is not None:
        cpu.append((_tree_cpu(server) - cpu0[0], _tree_cpu(me, exclude=server) - cpu0[1]))
    return seconds


def _move(page, key: str, how: str) -> None:
    if how == "step":
        page.locator(f'.st-key-{key} [data-testid="stNumberInputStepUp"]').click()
    elif how == "type":  # a box that starts empty ("all"): type the next k, then Enter
        box = page.locator(f".st-key-{key} input")
        box.fill(str(int(box.input_value() or 9) + 1))
        box.press("Enter")
    else:
        page.locator(f".st-key-{key}").get_by_role("slider").first.focus()
        page.keyboard.press("ArrowRight")


def upload_pair(page, url: str, folder: Path, kind: str, shape=(100_000, 100)) -> None:
    """Upload a :func:`npy_pair` of ``kind`` through the Data page; return once it is the
    active dataset."""
    labels, scores = npy_pair(folder, kind, shape)
    page.goto(f"{url}/data")
    _idle(page)
    page.set_input_files(".st-key-data_upload_labels input[type=file]", labels)
    _idle(page, 300_000)
    page.set_input_files(".st-key-data_upload_scores input[type=file]", scores)
    page.get_by_text(f"{kind} · {shape[0]} samples").first.wait_for(timeout=300_000)
    _idle(page, 300_000)


def run_pages(
    url: str, page, folder: Path, moves: int = 5, shape=(100_000, 100), only: str = ""
) -> list:
    """Upload each pair, then time every page's first load and its control's moves;
    ``only``: the pages whose title contains it (all when empty)."""
    out = []
    where = f"{shape[0]:,} x {shape[1]} (.npy pair upload)"
    for kind, every in CONTROLS.items():
        controls = [c for c in every if only.lower() in c[0].lower()]
        if not controls:
            continue
        upload_pair(page, url, folder, kind, shape)
        for title, key, how in controls:
            link = page.get_by_test_id("stSidebarNavLink").filter(has_text=title)
            cpu: list = []
            first = _run(page, link.click, cpu, moved=False)
            out.append(BrowserTiming(f"{title}: first load", where, [first], None, "", *_cols(cpu)))
            seconds, cpu, note = [], [], ""
            try:
                for _ in range(moves):
                    seconds.append(_run(page, lambda key=key, how=how: _move(page, key, how), cpu))
                    page.wait_for_timeout(300)
                    _idle(page)
            except Error as exc:  # reported as not measured, with what the page showed
                shot = folder / f"{key}.png"
                page.screenshot(path=str(shot))
                note = f"not measured: {str(exc).splitlines()[0]}"
            out.append(
                BrowserTiming(f"{title}: {key} one step", where, seconds, 0.3, note, *_cols(cpu))
            )
    return out


def _cols(cpu: list) -> tuple[list, list]:
    return [c[0] for c in cpu], [c[1] for c in cpu]


HEADING = "## Browser: the other pages at 100,000 x 100"
#: What the section's table measures (in place of the curves section's description).
DESCRIPTION = (
    "`python -m bench.browser_pages` (`python -m bench --browser --browser-pages` puts the "
    "same rows in the Browser section): Chromium "
    "(headless, 1440 x 900) against `streamlit run` on this machine, after uploading a "
    "100,000 x 100 .npy pair through the Data page. A move is timed from the input until "
    "the address holds the new value and the script that wrote it is idle, polled every "
    "animation frame, then two frames (painted); a first load until the script is idle "
    "(after a 250 ms settling wait). Every move is a server round trip: there is no "
    '"drawn" column. The median of the moves, in seconds; server and browser CPU: the '
    "median CPU seconds a move cost the streamlit process and the browser's processes."
)


def own_section(run, heading: str, description: str, out: str) -> None:
    """Start the server and Chromium, ``timings = run(url, page, folder)``, then print the
    results section (``heading``, ``description``) and put it in ``out``."""
    import tempfile

    from playwright.sync_api import sync_playwright

    from bench.browser import ARGS, CHROMIUM, VIEWPORT, render, server
    from bench.load import write_text_section

    start = os.getloadavg()
    with server() as (url, pid), sync_playwright() as pw, tempfile.TemporaryDirectory() as tmp:
        _SERVER[:] = [pid]
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        page = browser.new_page(viewport=VIEWPORT)
        page.goto(url)
        _idle(page)
        timings = run(url, page, Path(tmp))
        browser.close()
    _SERVER.clear()
    lines = render(timings, (start, os.getloadavg())).split("\n")
    lines[0] = heading
    lines[2] = description  # the heading, a blank line, the description
    section = "\n".join(lines)
    print(section)
    write_text_section(section, heading, out)


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.browser_pages [--moves 5] [--out FILE] [--only TITLE]``: its own
    results section."""
    import argparse

    from bench.load import RESULTS

    p = argparse.ArgumentParser(prog="python -m bench.browser_pages")
    p.add_argument("--moves", type=int, default=5)
    p.add_argument("--out", default=str(RESULTS))
    p.add_argument("--only", default="", help="the pages whose title contains this text")
    args = p.parse_args(argv)

    def run(url, page, folder):
        return run_pages(url, page, folder, moves=args.moves, only=args.only)

    own_section(run, HEADING, DESCRIPTION, args.out)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
