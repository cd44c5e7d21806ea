"""Where a page's move spends its time: ``python -m bench.profile_pages "DCG & NDCG"``.

The bench (bench/browser_pages.py) says how long a move takes; this says why. It
uploads the same 100,000 x 100 pair, opens the page, makes one untimed move, then
profiles a few more:

- the browser: Chrome DevTools' sampling CPU profile of the page's main thread,
  summed by script and by function (``(program)`` is native work: style, layout,
  paint; ``(idle)`` is waiting);
- the server: a cProfile of every script run of those moves (a ``sitecustomize``
  hook, written to a temporary folder and put on the server's ``PYTHONPATH``,
  wraps Streamlit's ``ScriptRunner._run_script``), summed and sorted by cumulative
  time.

Page titles: "Label ranking", "Multilabel classification", "DCG & NDCG",
"Top-K retrieval". Session 7 found this way that Streamlit's post-run
``gc.collect(2)`` and plotly's rebuild of every changed figure were most of a move
(bench/results.md). The CPU profile samples wall time: on a busy machine every
entry grows; compare runs made under the same load. The hook takes the place of any
other ``sitecustomize`` of the server's Python for the run.
"""

from __future__ import annotations

import collections
import glob
import io
import os
import pstats
import tempfile
from pathlib import Path

#: The server-side hook: each script run is profiled into ``$PROFILE_OUT``, named by the
#: text of ``$PROFILE_OUT/mark`` (the client writes it before the moves it wants).
HOOK = """
import cProfile, itertools, os
from pathlib import Path
from streamlit.runtime.scriptrunner import script_runner as _sr
_out, _orig, _n = Path(os.environ["PROFILE_OUT"]), _sr.ScriptRunner._run_script, itertools.count()
def _run_script(self, rerun_data):
    mark = (_out / "mark").read_text().strip() if (_out / "mark").exists() else "none"
    profile = cProfile.Profile()
    profile.enable()
    try:
        return _orig(self, rerun_data)
    finally:
        profile.disable()
        profile.dump_stats(str(_out / f"{mark}_{next(_n):04d}.prof"))
_sr.ScriptRunner._run_script = _run_script
"""


def aggregate(profile: dict, top: int = 25) -> tuple[list, list]:
    """Sum a DevTools CPU profile's samples by script and by (function, script), in ms.

    Examples
    --------
    >>> p = {"nodes": [{"id": 1, "callFrame": {"functionName": "", "url": "a/x.js"}},
    ...                {"id": 2, "callFrame": {"functionName": "f", "url": "b/y.js"}}],
    ...      "samples": [1, 2, 2], "timeDeltas": [1000, 2000, 3000]}
    >>> aggregate(p)
    ([('y.js', 5.0), ('x.js', 1.0)], [(('f', 'y.js'), 5.0), (('(anon)', 'x.js'), 1.0)])
    """
    frames = {n["id"]: n["callFrame"] for n in profile["nodes"]}
    by_function: collections.Counter = collections.Counter()
    for node, delta in zip(profile["samples"], profile["timeDeltas"], strict=True):
        frame = frames[node]
        by_function[(frame["functionName"] or "(anon)", frame["url"].rsplit("/", 1)[-1])] += delta
    by_script: collections.Counter = collections.Counter()
    for (_, script), us in by_function.items():
        by_script[script] += us
    return (
        [(s, us / 1000) for s, us in by_script.most_common(top)],
        [(f, us / 1000) for f, us in by_function.most_common(top)],
    )


def server_report(folder: Path, mark: str, top: int = 30) -> str:
    """The summed cProfile of the runs marked ``mark``, by cumulative time."""
    files = sorted(glob.glob(str(folder / f"{mark}_*.prof")))
    if not files:
        return f"no server run was marked {mark!r}"
    out = io.StringIO()
    stats = pstats.Stats(files[0], stream=out)
    for f in files[1:]:
        stats.add(f)
    stats.sort_stats("cumulative").print_stats(top)
    return f"{len(files)} script runs\n" + out.getvalue()


def main(argv: list[str] | None = None) -> int:
    """``python -m bench.profile_pages TITLE [--moves 3] [--top 25]``."""
    import argparse

    from playwright.sync_api import sync_playwright

    from bench import browser_pages as pages
    from bench.browser import _SERVER, ARGS, CHROMIUM, VIEWPORT, _idle, server

    p = argparse.ArgumentParser(prog="python -m bench.profile_pages")
    p.add_argument("title", help='a page title, e.g. "DCG & NDCG"')
    p.add_argument("--moves", type=int, default=3)
    p.add_argument("--top", type=int, default=25)
    args = p.parse_args(argv)
    found = [(kind, c) for kind, cs in pages.CONTROLS.items() for c in cs if c[0] == args.title]
    if not found:
        p.error(f"no page titled {args.title!r}")
    (kind, (title, key, how)) = found[0]
    with tempfile.TemporaryDirectory() as tmp:
        hook, out = Path(tmp, "hook"), Path(tmp, "runs")
        hook.mkdir()
        out.mkdir()
        (hook / "sitecustomize.py").write_text(HOOK)
        os.environ["PROFILE_OUT"] = str(out)
        os.environ["PYTHONPATH"] = os.pathsep.join(
            filter(None, [str(hook), os.environ.get("PYTHONPATH")])
        )
        with server() as (url, pid), sync_playwright() as pw:
            _SERVER[:] = [pid]
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            page = browser.new_page(viewport=VIEWPORT)
            cdp = page.context.new_cdp_session(page)
            cdp.send("Profiler.enable")
            cdp.send("Profiler.setSamplingInterval", {"interval": 200})
            pages.upload_pair(page, url, Path(tmp), kind)
            page.get_by_test_id("stSidebarNavLink").filter(has_text=title).click()
            _idle(page, 300_000)
            pages._run(page, lambda: pages._move(page, key, how))  # untimed: warms caches
            (out / "mark").write_text("moves")
            cdp.send("Profiler.start")
            for _ in range(args.moves):
                cpu: list = []
                seconds = pages._run(page, lambda: pages._move(page, key, how), cpu)
                used = "CPU server {:.2f} / browser {:.2f} s".format(*cpu[0])
                print(f"move {seconds:.3f} s, {used}")
                page.wait_for_timeout(300)
                _idle(page)
            profile = cdp.send("Profiler.stop")["profile"]
            (out / "mark").write_text("none")
            browser.close()
        _SERVER.clear()
        scripts, functions = aggregate(profile, args.top)
        print(f"\nbrowser main thread over {args.moves} moves (ms), by script:")
        print("\n".join(f"  {ms:9.1f}  {s or '(native)'}" for s, ms in scripts))
        print("by function:")
        print("\n".join(f"  {ms:9.1f}  {f} {s}" for (f, s), ms in functions))
        print("\nserver:\n" + server_report(out, "moves", args.top))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
