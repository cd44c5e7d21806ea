"""Page timing through Streamlit's AppTest (``--app``).

For every page listed in ``app.py``'s ``PAGES`` (read from the file, so
pages added or moved later are picked up) whose file exists:

first render
    a fresh ``AppTest`` of ``app.py`` on the default sample: the time of
    the run that first shows the page (``at.run()`` for Home, else
    ``at.switch_page(page).run()`` after a first run). Target: <= 2 s.
    The default sample is binary, so a page for another kind may only show
    a notice: the first render on a bundled sample of the page's own kind
    (opened with ``?ds=``) is timed too.
big data
    a fresh ``AppTest`` with a large :class:`explorer.datasets.Dataset`
    injected into ``session_state["session_datasets"]`` and made active
    before the first run; the page's first render on it, then its
    interactions: each control of the page's main area (selectbox, radio,
    select slider, slider, number input, checkbox, toggle; up to
    ``MAX_CONTROLS``), one after the other, is set to another value and
    ``at.run()`` is timed. Target: every one <= 0.5 s.

Pages that are missing, raise, or have no widget are reported as such.
"""

from __future__ import annotations

import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from explorer import registry

ROOT = Path(__file__).resolve().parents[1]
APP = ROOT / "app.py"
#: Which big dataset each page gets (by file stem); others get the multilabel one.
PAGE_KIND = {
    "home": "binary",
    "data": "binary",
    "curves": "binary",
    "label_ranking": "multilabel",
    "dcg": "graded",
    "retrieval": "graded",
    "multilabel": "multilabel",
    "regression": "regression",
}
#: The bundled sample of each kind used for a page's "first render on its kind".
KIND_SAMPLE = {
    "binary": "balanced",
    "multilabel": "digits",
    "graded": "diabetes_ranking",
    "regression": "diabetes",
}
PICKER_KEY = "dataset_picker"
SKIP_KEYS = {PICKER_KEY}
FIRST_RENDER_TARGET = 2.0
INTERACTION_TARGET = 0.5
#: At most this many controls are moved per page.
MAX_CONTROLS = 16


@dataclass
class PageResult:
    """Timings of one page."""

    path: str
    title: str
    exists: bool
    first_render: float | None = None
    first_error: str = ""
    kind_sample: str = ""
    kind_render: float | None = None
    dataset: str = ""
    big_render: float | None = None
    #: (control moved, seconds of the rerun), in the order they were moved
    interactions: list = field(default_factory=list)
    error: str = ""

    @property
    def worst(self) -> tuple[str, float] | None:
        """The slowest interaction (control, seconds), or None."""
        return max(self.interactions, key=lambda x: x[1]) if self.interactions else None


def app_pages() -> list[tuple[str, str]]:
    """The app's pages (script, title), from :data:`explorer.registry.PAGES`."""
    return [(page.script, page.title) for page in registry.PAGES]


def _exception(at) -> str:
    if at.exception:
        e = at.exception[0]
        return f"{getattr(e, 'message', '') or e.value}".strip().splitlines()[0][:200]
    return ""


def _run(at, page: str | None) -> float:
    t0 = time.perf_counter()
    if page is None:
        at.run()
    else:
        at.switch_page(page).run()
    return time.perf_counter() - t0


def _control_id(w) -> tuple:
    return (type(w).__name__, getattr(w, "key", None) or getattr(w, "label", ""))


def _change_one_widget(at, done: set | None = None) -> str:
    """Set one settable control of the main area, not in ``done``, to another value.

    Returns a description ('' when no control is left); the control's id is
    added to ``done``. Selectboxes and radios whose ``format_func`` is not
    the identity cannot be set by AppTest from their displayed options (it
    formats the label again); such a widget is put back and skipped.
    """
    done = set() if done is None else done
    main = at.main

    def usable(w):
        return (
            getattr(w, "key", None) not in SKIP_KEYS
            and not getattr(w, "disabled", False)
            and _control_id(w) not in done
        )

    for w in filter(usable, [*main.selectbox, *main.radio, *main.select_slider]):
        done.add(_control_id(w))
        if len(w.options) < 2:
            continue
        old = w.value
        if type(w).__name__ == "SelectSlider":
            opts = list(w.options)
            cur = opts.index(str(old)) if str(old) in opts else 0
            new = opts[(cur + 1) % len(opts)]
            w.set_value(new)
            return f'select_slider "{w.label}" -> {new}'
        i = ((w.index or 0) + 1) % len(w.options)
        w.set_value(w.options[i])
        try:
            w.index  # noqa: B018 - raises ValueError when AppTest cannot map the label back
        except ValueError:
            w.set_value(old)
            continue
        return f'{type(w).__name__.lower()} "{w.label}" -> {w.options[i]}'
    for w in filter(usable, main.slider):
        done.add(_control_id(w))
        v = w.value
        if isinstance(v, (int, float)):
            step = w.step or 1
            new = v + step if v + step <= w.max else v - step
            w.set_value(type(v)(new))
            return f'slider "{w.label}" {v} -> {new}'
    for w in filter(usable, main.number_input):
        done.add(_control_id(w))
        w.increment()
        return f'number_input "{w.label}" +1 step'
    for w in filter(usable, [*main.checkbox, *main.toggle]):
        done.add(_control_id(w))
        old = bool(w.value)
        w.set_value(not old)
        return f'{type(w).__name__.lower()} "{w.label}" -> {not old}'
    return ""


def _sample_of(kind: str) -> str:
    """The bundled sample used for ``kind`` ('' if the gallery has none)."""
    from explorer.samples import sample_index

    rows = [r["name"] for r in sample_index() if r["kind"] == kind]
    return KIND_SAMPLE[kind] if KIND_SAMPLE.get(kind) in rows else (rows[0] if rows else "")


def _patch_picker(at, name: str) -> None:
    """Let AppTest re-send the sidebar picker's state when a session dataset is active.

    AppTest formats the picker's value with the app's ``format_func`` outside
    the script run, where ``st.session_state`` is not the app's. If the
    app's label of a session dataset depends on session state, the label
    AppTest computes is not among the options and the next ``run()`` raises
    ``ValueError: '<label>' is not in list`` (a browser is unaffected). When
    that happens, the injected name is mapped to the option the app showed
    for it; when AppTest can format it, nothing is changed.
    """
    from streamlit.testing.v1.element_tree import TESTING_KEY

    try:
        picker = at.sidebar.selectbox(key=PICKER_KEY)
    except KeyError:
        return
    try:
        picker.index  # noqa: B018 - raises ValueError when AppTest cannot format the value
        return
    except ValueError:
        pass
    option = next((o for o in picker.options if name in o), None)
    if option is None:
        return
    funcs = at.session_state[TESTING_KEY]
    original = funcs[picker.id]
    funcs[picker.id] = lambda v: option if v == name else original(v)


def _big_datasets(matrix_shape: tuple[int, int], vector_n: int) -> dict:
    from bench.data import make_binary, make_graded, make_multilabel, make_regression
    from explorer.datasets import Dataset

    n, n_labels = matrix_shape
    made = {
        "binary": make_binary(vector_n, ties=False),
        "multilabel": make_multilabel(n, n_labels, ties=True),
        "graded": make_graded(n, n_labels, ties=True),
        "regression": make_regression(vector_n),
    }
    return {
        kind: Dataset(d.name, kind, d.y_true, scores={"model": d.y_score})
        for kind, d in made.items()
    }


def run_app(
    matrix_shape=(100_000, 100), vector_n=1_000_000, timeout=600, only: str | None = None
) -> list[PageResult]:
    """Time every page's first render and one interaction on big data.

    Parameters
    ----------
    matrix_shape : (int, int)
        Shape of the multilabel and graded datasets injected.
    vector_n : int
        Size of the binary and regression datasets injected.
    timeout : float
        AppTest timeout of one run, in seconds.
    only : str, optional
        A regular expression: time only the pages whose file or title it matches.

    Returns
    -------
    list of PageResult
    """
    from streamlit.testing.v1 import AppTest

    def fresh():
        return AppTest.from_file(str(APP), default_timeout=timeout)

    fresh().run()  # warm-up: imports and the sample gallery's caches
    big = _big_datasets(matrix_shape, vector_n)
    results = []
    for path, title in app_pages():
        if only and not (re.search(only, path) or re.search(only, title)):
            continue
        r = PageResult(path, title, (ROOT / path).exists())
        results.append(r)
        if not r.exists:
            print(f"   page {path}: missing", file=sys.stderr)
            continue
        home = registry.by_script(path).slug == registry.HOME
        try:
            at = fresh()
            if home:
                r.first_render = _run(at, None)
            else:
                at.run()
                r.first_render = _run(at, path)
            r.first_error = _exception(at)
        except Exception as exc:  # a failing page is reported
            r.first_error = f"{type(exc).__name__}: {exc}"[:200]

        kind = PAGE_KIND.get(registry.by_script(path).slug, "multilabel")
        r.kind_sample = _sample_of(kind)
        if r.kind_sample and r.kind_sample != "balanced":
            try:
                at = fresh()
                at.query_params["ds"] = r.kind_sample
                if home:
                    r.kind_render = _run(at, None)
                else:
                    at.run()
                    r.kind_render = _run(at, path)
                if _exception(at):
                    r.first_error = (r.first_error + f" {r.kind_sample}: {_exception(at)}").strip()
            except Exception as exc:
                r.first_error = f"{r.kind_sample}: {type(exc).__name__}: {exc}"[:200]
        elif r.kind_sample:
            r.kind_render = r.first_render

        ds = big[kind]
        r.dataset = ds.name
        try:
            at = fresh()
            at.session_state["session_datasets"] = {ds.name: ds}
            at.session_state["active_dataset"] = ds.name
            if home:
                r.big_render = _run(at, None)
                _patch_picker(at, ds.name)
            else:
                at.run()
                _patch_picker(at, ds.name)
                r.big_render = _run(at, path)
            r.error = _exception(at)
            done: set = set()
            while not r.error and len(r.interactions) < MAX_CONTROLS:
                what = _change_one_widget(at, done)
                if not what:
                    break
                r.interactions.append((what, _run(at, None)))
                r.error = _exception(at) and f"after {what}: {_exception(at)}"
        except Exception as exc:
            r.error = f"{type(exc).__name__}: {exc}"[:200]
        moves = ", ".join(f"{w} {t:.2f} s" for w, t in r.interactions) or "no control"
        print(
            f"   page {path}: first {r.first_render}, big {r.big_render}; {moves} "
            f"{r.first_error or ''} {r.error or ''}",
            file=sys.stderr,
        )
    return results
