"""Shared fixtures and input generators for the test suite."""

from __future__ import annotations

import html
import json
import os
import re
from pathlib import Path

import numpy as np
import pytest
from streamlit import config
from streamlit.runtime.scriptrunner.script_cache import ScriptCache

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
#: The least time an AppTest script run may take before AppTest calls it hung: a page
#: that runs in 10 s on a quiet machine may take 50 s on a busy one (5x), so a test's
#: own ``default_timeout=30`` is raised to this; a run that hangs still fails.
APPTEST_MIN_TIMEOUT = 300


def _patch_apptest() -> None:
    """Three changes to AppTest for the whole suite, none touching what a page shows.

    * Each new AppTest scanned the metadata of every installed distribution for
      Streamlit "v2 components" on its first run (``scan_component_manifests``: about
      0.3 CPU s, most of a fresh session's cost; the suite opens thousands). The
      installed packages do not change while the tests run: scan once per process.
    * No script run times out before :data:`APPTEST_MIN_TIMEOUT` seconds.
    * Every AppTest compiles a page script from the one cache (:class:`_SharedScripts`).
    """
    from streamlit.components.v2 import manifest_scanner
    from streamlit.testing.v1 import AppTest

    scan = manifest_scanner.scan_component_manifests
    if not getattr(scan, "scanned_once", False):
        found = {}

        def scan_once(max_workers=None):
            if "manifests" not in found:
                found["manifests"] = scan(max_workers)
            return list(found["manifests"])

        scan_once.scanned_once = True
        manifest_scanner.scan_component_manifests = scan_once

    run = AppTest._run
    if not getattr(run, "min_timeout", False):

        def _run(self, widget_state=None, timeout=None):
            chosen = self.default_timeout if timeout is None else timeout
            return run(self, widget_state, timeout=max(chosen, APPTEST_MIN_TIMEOUT))

        _run.min_timeout = True
        AppTest._run = _run

    from streamlit.testing.v1 import app_test, local_script_runner

    local_script_runner.require_widgets_deltas = _wait_for_script
    if not isinstance(getattr(local_script_runner, "SCRIPTS", None), _SharedScripts):
        shared = _SharedScripts()
        local_script_runner.SCRIPTS = shared
        app_test.ScriptCache = local_script_runner.ScriptCache = lambda: shared


class _SharedScripts(ScriptCache):
    """One compiled copy of each page script for every AppTest of the process (each
    AppTest made a cache of its own and compiled every page it ran again: about 1.4% of
    the page tests' CPU); a script whose file changed is compiled again."""

    def __init__(self) -> None:
        super().__init__()
        self._stamps: dict[str, tuple] = {}

    def get_bytecode(self, script_path: str):
        path = os.path.abspath(script_path)
        stat = os.stat(path)
        stamp = (stat.st_mtime_ns, stat.st_size, config.get_option("runner.magicEnabled"))
        with self._lock:
            if self._stamps.get(path) != stamp:
                self._cache.pop(path, None)
                self._stamps[path] = stamp
        return super().get_bytecode(path)


def _wait_for_script(runner, timeout: float = 3) -> None:
    """AppTest's wait for a script run, without its polling.

    AppTest checked every millisecond whether the run had ended, each time scanning every
    event of the run so far (one per message the page sent), while the script's thread
    needed the interpreter's lock to go on. Its thread sends SHUTDOWN just before it ends
    (and AppTest joins it right after): waiting for the thread itself is the same wait.
    """
    thread = runner._script_thread
    if thread is not None:
        thread.join(timeout)
    if thread is None or thread.is_alive():
        runner.request_stop()
        runner.join()
        raise RuntimeError(f"AppTest script run timed out after {timeout}(s)")


_patch_apptest()

#: Tests that take long (node id prefixes) and about how many seconds each of their tests
#: takes on a quiet core, the longest first; every other test is costed by its folder
#: (:func:`_cost`). Only the order of the run depends on these numbers.
LONG_TESTS = {
    "tests/e2e/test_walk.py": 48,
    "tests/e2e/test_classroom.py::test_every_page_teaches_on_this_screen[laptop": 40,
    "tests/e2e/test_classroom.py": 28,
    "tests/e2e/test_reveal_airtight.py": 27,
    "tests/e2e/test_exports.py": 20,
    "tests/e2e/test_slices.py": 15,
    "tests/e2e/test_state_keys.py": 10,
    "tests/views/test_upload_fuzz_app.py": 8,
    "tests/views/test_walk.py": 8,
    "tests/test_package.py": 8,
    "tests/views/multiclass/test_headline.py::test_intervals_toggle": 6,
    "tests/views/test_link_fuzz_app.py": 5,
    "tests/views/test_hostile_links.py": 5,
    "tests/views/multiclass/test_headline.py::test_weighted_intervals": 5,
    "tests/views/retrieval/test_controls.py::test_cached_columns": 5,
    "tests/views/retrieval/test_controls.py::test_k_model_and_each_convention": 5,
    "tests/explorer/test_upload_fuzz.py": 5,
    "explorer/intervals.py": 4,
    "tests/views/test_presentation.py::test_rendered_pages": 3,
    "tests/views/test_valid_data.py": 3,
}
#: Seconds a test takes by its folder when :data:`LONG_TESTS` does not name it.
FOLDER_COST = {"tests/e2e/": 6.0, "tests/views/": 1.0}


def _cost(item) -> float:
    nodeid = item.nodeid
    for prefix, seconds in LONG_TESTS.items():
        if nodeid.startswith(prefix):
            return seconds
    return next((c for f, c in FOLDER_COST.items() if nodeid.startswith(f)), 0.05)


def _slices(n: int, workers: int) -> list[int]:
    """How many tests pytest-xdist's worksteal scheduler first gives each worker: the
    collection cut in order into ``workers`` parts of ``remaining // workers_left``."""
    sizes = []
    for i in range(workers):
        sizes.append((n - sum(sizes)) // (workers - i))
    return sizes


def _balanced(items: list, workers: int) -> list:
    """``items`` reordered so that each worker's first part of the collection holds about
    the same seconds of tests, its longest first: the longest test goes to the part with
    the fewest seconds so far that has room (each part's size is fixed by the scheduler).
    A worker that runs out steals the end of another's part: the short tests."""
    parts = [[] for _ in range(workers)]
    loads = [0.0] * workers
    room = _slices(len(items), workers)
    for item in sorted(items, key=_cost, reverse=True):  # stable: equal costs keep order
        i = min((j for j in range(workers) if room[j]), key=loads.__getitem__)
        parts[i].append(item)
        loads[i] += _cost(item)
        room[i] -= 1
    return [item for part in parts for item in part]


def pytest_collection_modifyitems(config, items):
    """Order the run so that every pytest-xdist worker starts on its share of the long
    tests. The worksteal scheduler first cuts the collection in order into one part per
    worker: in collection order the browser tests (tests/e2e) all fell in the first
    worker's part, which ran them one after another while the others stole its short
    tests from the end (both cores busy only about half the run)."""
    workers = int(os.environ.get("PYTEST_XDIST_WORKER_COUNT", "1"))
    items[:] = _balanced(items, max(1, workers))


@pytest.fixture(autouse=True)
def _clear_streamlit_caches():
    """Caches are process-global: empty every one (data and resource) before each test."""
    from explorer.ui import cache

    cache.clear_all()
    yield


def read_derivation(at, name: str) -> dict:
    """The written-out mean of headline ``name`` on an AppTest page (``name = (t1 + t2 +
    …) / n = total / n = value``): its terms, whether some are left out, the
    denominator, the total (when written) and the final number."""
    text = next(m.value for m in at.markdown if m.value.startswith(f"{name} = ("))
    inner, after = text[len(name) + 4 :].split(") / ", 1)
    parts = after.split("  (")[0].split(" = ")
    return {
        "terms": [t for t in inner.split(" + ") if t != "…"],
        "omitted": "…" in inner.split(" + "),
        "denominator": parts[0],
        "total": parts[1].split(" / ")[0] if len(parts) == 3 else None,
        "value": parts[-1],
    }


def rendered(text: str) -> str:
    """What Streamlit's Markdown shows for ``text`` written by
    :func:`explorer.formatting.literal`: its backslash escapes and HTML entities undone.
    Tests read a notice that quotes a visitor's text through it. The word joiners that
    break web addresses (U+2060) show nothing: they are dropped."""
    return html.unescape(re.sub(r"\\(.)", r"\1", text)).replace("\u2060", "")


def svg_charts(at) -> list[str]:
    """The HTML of every SVG chart (explorer.charts.svg) an AppTest page drew, in order."""
    return [m.value for m in at.markdown if m.value.startswith('<div class="me-svg-chart"')]


#: A column name written as code (``hits_so_far``), not as a class reads it.
CODE_NAME = re.compile(r"[a-z0-9]+(?:_[a-z0-9]+)+")


def code_style_headers(at, data_names=()) -> list[str]:
    """The headers an AppTest page's tables show (a column's configured label, else its
    name) that are written as code (:data:`CODE_NAME`); ``data_names`` (the dataset's
    own label names, which a table's columns may be) are not."""
    found = []
    for frame in at.dataframe:
        config = json.loads(frame.proto.columns or "{}")
        for column in map(str, frame.value.columns):
            if column in data_names:
                continue
            label = config.get(column, {}).get("label") if column in config else None
            if CODE_NAME.fullmatch(label or column):
                found.append(label or column)
    return found


def metric(at, label: str) -> str:
    """The value an AppTest page shows in its ``st.metric`` labelled ``label``."""
    return next(m.value for m in at.metric if m.label == label)


def open_page(page: str, sample: str | None = None, **params):
    """Run the app, pick ``sample`` in the sidebar, open ``page`` (``views/<page>.py``).

    ``params`` are URL parameters of a link that names ``sample`` (picking a dataset
    drops page settings, so a link with settings names its dataset).
    """
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=30)
    if params and sample:
        at.query_params["ds"] = sample
    for key, value in params.items():
        at.query_params[key] = value
    at.run()
    if sample:
        at.selectbox(key="dataset_picker").set_value(sample).run()
    at.switch_page(page).run()
    assert not at.exception
    return at


def open_upload(page: str, ds, **state):
    """A new session whose own dataset ``ds`` (as an upload leaves it) is active, with
    ``state`` in its session state, opening ``page``; run once."""
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(APP, default_timeout=60)
    at.session_state["session_datasets"] = {ds.name: ds}
    at.session_state["active_dataset"] = ds.name
    for key, value in state.items():
        at.session_state[key] = value
    return at.switch_page(page).run()


def tied_scores(rng: np.random.Generator, shape, n_values: int = 4) -> np.ndarray:
    """Scores drawn from a handful of values, so ties are everywhere."""
    return rng.integers(0, n_values, size=shape) / n_values


def multilabel_case(seed: int, n: int = 40, m: int = 6, *, ties: bool = True):
    """A 0/1 label matrix with degenerate rows and a score matrix.

    Row 0 has no true label, row 1 every label true, row 2 all scores tied;
    the rest are random with about a third of the labels true.
    """
    rng = np.random.default_rng(seed)
    y = (rng.random((n, m)) < 0.35).astype(int)
    y[0] = 0
    y[1] = 1
    s = tied_scores(rng, (n, m)) if ties else rng.random((n, m))
    s[2] = 0.5
    return y, s


def graded_case(seed: int, n: int = 40, m: int = 6, *, ties: bool = True, max_grade: int = 3):
    """Graded relevance (0..max_grade) with a row of no relevance."""
    rng = np.random.default_rng(seed)
    y = rng.integers(0, max_grade + 1, size=(n, m))
    y[0] = 0
    s = tied_scores(rng, (n, m)) if ties else rng.random((n, m))
    return y, s


def binary_case(seed: int, n: int = 60, *, ties: bool = True):
    """Binary labels with both classes and (optionally heavily tied) scores."""
    rng = np.random.default_rng(seed)
    y = (rng.random(n) < 0.4).astype(int)
    y[:2] = [0, 1]
    s = tied_scores(rng, n, 5) if ties else rng.random(n)
    return y, s


def weights(seed: int, n: int) -> np.ndarray:
    """Positive sample weights with some exact zeros."""
    rng = np.random.default_rng(seed + 1000)
    w = rng.random(n) * 3
    w[rng.random(n) < 0.1] = 0.0
    w[0] = 1.0
    return w


@pytest.fixture
def deferred_downloads(monkeypatch):
    """The data callables of lazy ``st.download_button``s, by element id.

    Pages build large CSVs only on the click: AppTest never clicks, so the
    fixture records each callable as Streamlit registers it. Call
    ``deferred_downloads(key_suffix)`` to build that download's bytes.
    """
    from streamlit.runtime.media_file_manager import MediaFileManager

    captured = {}
    original = MediaFileManager.add_deferred

    def spy(self, data_callable, *args, **kwargs):
        captured[kwargs.get("element_id", "")] = data_callable
        return original(self, data_callable, *args, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", spy)

    def build(key: str):
        make = next(f for element, f in captured.items() if key in element)
        return make()

    return build


@pytest.fixture
def view_download(monkeypatch):
    """The HTML the "Download this view" button of the last run would download (AppTest
    never clicks: the button's data callable, kept as Streamlit registers it)."""
    from streamlit.runtime.media_file_manager import MediaFileManager

    latest = {}
    original = MediaFileManager.add_deferred

    def spy(self, data_callable, *args, **kwargs):
        if "download_view" in kwargs.get("element_id", ""):
            latest["make"] = data_callable
        return original(self, data_callable, *args, **kwargs)

    monkeypatch.setattr(MediaFileManager, "add_deferred", spy)
    return lambda: latest["make"]()


def numbered_selectbox(at, key: str):
    """The select box that ``explorer.ui.widgets.numbered_selectbox`` drew for ``key``.

    Its widget key is ``key`` plus a digest of its labels (a fresh widget when the
    numbers in the labels change), so AppTest finds it by that prefix.
    """
    return next(s for s in at.selectbox if s.key is not None and s.key.startswith(f"{key}__"))
