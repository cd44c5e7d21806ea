"""A seeded random walk over the whole app in AppTest, acting as a browser user would.

The walker knows no widget key: it finds the controls of the page it is on
(sliders, number boxes, select boxes, radios, toggles, check boxes, buttons,
text boxes) and moves one of them to a valid value, switches pages the way a
sidebar click does (the browser drops the query parameters then), picks a
dataset in the sidebar, or uploads a file of some kind on the Data page.
After every step the page must show no exception. ``link_check`` opens the
address (``st.query_params``) in a fresh session on the same page and
compares every ``st.metric`` and the selected sample.

Select boxes and radios are set the way the browser sets them: by sending
the option's label, not the Python value (AppTest would format the value
again with the latest ``format_func``).
"""

from __future__ import annotations

import io
import random
import re
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from streamlit import config
from streamlit.proto.WidgetStates_pb2 import WidgetState
from streamlit.runtime.state.common import user_key_from_element_id
from streamlit.testing.v1 import AppTest
from streamlit.testing.v1.element_tree import Radio, Selectbox

from explorer import registry
from explorer.registry import script
from explorer.ui import navigation, url
from tests.views.browser_model import Browser

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
PAGES = (
    script("home"),
    script("data"),
    script("curves"),
    script("label_ranking"),
    script("dcg"),
    script("retrieval"),
    script("multilabel"),
    script("regression"),
    script("compare"),
    script("multiclass"),
    script("slices"),
    script("leaderboard"),
)
#: Widget labels (prefixes) the link must reproduce beside the metrics.
SELECTION_LABELS = ("sample", "query")


# ---------------------------------------------------------------- browser-like options
def _labelled_state(self) -> WidgetState:
    """Widget state of a select box or radio, sent as a label when the walker chose one."""
    label = getattr(self, "_walk_label", None)
    if label is None:
        return type(self)._plain_widget_state.fget(self)
    ws = WidgetState()
    ws.id = self.id
    ws.string_value = label
    return ws


for _cls in (Selectbox, Radio):
    if not hasattr(_cls, "_plain_widget_state"):
        _cls._plain_widget_state = _cls._widget_state
        _cls._widget_state = property(_labelled_state)


def choose_label(widget, label: str) -> None:
    """Pick ``label`` in a select box or radio as the browser does."""
    widget._assert_can_interact()
    widget._walk_label = label


# ---------------------------------------------------------------- uploads
def _csv(header: list[str], rows) -> bytes:
    lines = [",".join(header)]
    lines += [",".join(repr(v) if isinstance(v, float) else str(v) for v in r) for r in rows]
    return ("\n".join(lines) + "\n").encode()


def _matrix(rng: random.Random, n: int, m: int, values) -> list[list]:
    return [[rng.choice(values) for _ in range(m)] for _ in range(n)]


def binary_upload(rng: random.Random, variant: str) -> list[tuple[str, tuple[str, bytes, str]]]:
    """One binary CSV with two models: probabilities, logits, counts, one class, extreme
    values, weights; one row, or model B a copy of A (Compare has no test to run)."""
    n = 1 if variant == "one_row" else rng.randint(2, 12)
    y = [rng.randint(0, 1) for _ in range(n)]
    if variant not in ("one_class", "one_row"):
        y[0], y[1] = 0, 1
    if variant == "one_class":
        y = [rng.randint(0, 1)] * n
    scores = {
        "probability": lambda: rng.choice([0.1, 0.2, 0.3, 0.1 + 0.2, 0.5, 0.9, 1.0]),
        "logit": lambda: round(rng.uniform(-7.2, 4.1), rng.choice([1, 3, 17])),
        "count": lambda: rng.choice([3.5, 150, 20, 99, 0, 1000]),
        "extreme": lambda: rng.choice([-1e308, 1e308, 0.0, 1e-300, 5e-324]),
        "one_class": lambda: rng.random(),
        "tied": lambda: 0.5,
        "same_models": lambda: rng.choice([0.1, 0.5, 0.9]),
        "one_row": lambda: rng.random(),
    }[variant]
    header = ["id", "y_true", "score_a", "score_b"]
    rows = [[f"s{i}", y[i], scores(), scores()] for i in range(n)]
    if variant == "same_models":
        rows = [[i, t, a, a] for i, t, a, _ in rows]
    if rng.random() < 0.3:
        header.append("sample_weight")
        rows = [[*r, rng.choice([0.5, 1, 2, 3])] for r in rows]
    return [("Data file", (f"binary_{variant}.csv", _csv(header, rows), "text/csv"))]


def regression_upload(rng: random.Random) -> list[tuple[str, tuple[str, bytes, str]]]:
    n = rng.randint(2, 10)
    scale = rng.choice([1.0, 1e6, 1e-3])
    rows = [[rng.uniform(0, 10) * scale, rng.uniform(0, 10) * scale] for _ in range(n)]
    if rng.random() < 0.3:
        rows[0][0] = 0.0  # MAPE at y = 0
    return [("Data file", ("regression.csv", _csv(["y_true", "y_pred"], rows), "text/csv"))]


def pair_upload(rng: random.Random, variant: str) -> list[tuple[str, tuple[str, bytes, str]]]:
    """A labels/scores pair: multilabel or graded, other label names, one label, huge grades."""
    n = 1 if variant == "one_row" else rng.randint(2, 8)
    m = 1 if variant == "one_label" else rng.randint(2, 6)
    prefix = rng.choice(["L", "cat", "label_", "q"])
    names = [f"{prefix}{j}" for j in range(m)]
    if variant == "graded":
        values = [0, 1, 2, 3]
    elif variant == "huge_grades":
        values = [0, 1, 2**53 + 2, 2**60]
    else:
        values = [0, 1]
    labels = _matrix(rng, n, m, values)
    scores = _matrix(rng, n, m, [0.1, 0.2, 0.5, 0.9, -3.2, 12.5])
    return [
        ("Labels", (f"{variant}.labels.csv", _csv(names, labels), "text/csv")),
        ("Scores", (f"{variant}.scores.csv", _csv(names, scores), "text/csv")),
    ]


def multiclass_upload(rng: random.Random, variant: str) -> list[tuple[str, tuple[str, bytes, str]]]:
    """One multiclass table: y_true class names and a proba_<class> column per class;
    probabilities, scores that are not (logits), ties, a class never true, weights."""
    n, k = rng.randint(2, 12), rng.randint(2, 5)
    classes = rng.choice([[f"c{j}" for j in range(k)], [str(j) for j in range(k)]])
    y = [rng.choice(classes[:-1] if variant == "absent_class" else classes) for _ in range(n)]
    rows = []
    for i in range(n):
        if variant == "logit":
            p = [round(rng.uniform(-5, 5), 3) for _ in range(k)]
        elif variant == "tied":
            p = [1 / k] * k
        else:
            raw = [rng.random() + 0.01 for _ in range(k)]
            p = [v / sum(raw) for v in raw]
        rows.append([f"s{i}", y[i], *p])
    header = ["id", rng.choice(["y_true", "label", "class"]), *[f"proba_{c}" for c in classes]]
    if rng.random() < 0.3:
        header.append("sample_weight")
        rows = [[*r, rng.choice([0.5, 1, 2])] for r in rows]
    return [("Data file", (f"multiclass_{variant}.csv", _csv(header, rows), "text/csv"))]


def long_upload(rng: random.Random) -> list[tuple[str, tuple[str, bytes, str]]]:
    n, m = rng.randint(2, 5), rng.randint(2, 4)
    rows = [
        [f"q{i}", f"d{j}", rng.randint(0, 2), round(rng.random(), 3)]
        for i in range(n)
        for j in range(m)
    ]
    body = _csv(["sample", "label", "y_true", "y_score"], rows)
    return [("Data file", ("long.csv", body, "text/csv"))]


def trec_upload(rng: random.Random) -> list[tuple[str, tuple[str, bytes, str]]]:
    qrels, run = [], []
    for q in range(rng.randint(1, 4)):
        docs = [f"D{q}{j}" for j in range(rng.randint(2, 6))]
        for d in docs:
            if rng.random() < 0.7:
                qrels.append(f"{q} 0 {d} {rng.randint(0, 2)}")
        for rank, d in enumerate(docs[: rng.randint(1, len(docs))]):
            run.append(f"{q} Q0 {d} {rank + 1} {round(10 - rank + rng.random(), 2)} tag")
    return [
        ("Qrels", ("qrels.txt", ("\n".join(qrels) + "\n").encode(), "text/plain")),
        ("Runs", ("run.txt", ("\n".join(run) + "\n").encode(), "text/plain")),
    ]


def broken_upload(rng: random.Random) -> list[tuple[str, tuple[str, bytes, str]]]:
    body = rng.choice([b"a,b\n1,2\n", b"y_true,y_score\n1,n/a\n0,0.3\n", b"", b"\x00\xff\xfe"])
    return [("Data file", ("broken.csv", body, "text/csv"))]


def crafted_npy_upload(rng: random.Random) -> list[tuple[str, tuple[str, bytes, str]]]:
    """A .npy pair whose header lies (a huge shape) or is damaged: a notice, no traceback."""
    buf = io.BytesIO()
    np.save(buf, np.eye(2))
    good = buf.getvalue()
    bad = rng.choice(
        [good.replace(b"(2, 2)", b"(1000000, 1000000)"), good[:20] + b"(" + good[21:], good[:-8]]
    )
    return [
        ("Labels", ("crafted.labels.npy", bad, "application/octet-stream")),
        ("Scores", ("crafted.scores.npy", good, "application/octet-stream")),
    ]


#: Uploads the tour also opens on Compare: two models where no test can be had.
ON_COMPARE = ("binary same models", "binary one row")

UPLOADS = {
    "binary probability": lambda r: binary_upload(r, "probability"),
    "binary logit": lambda r: binary_upload(r, "logit"),
    "binary count": lambda r: binary_upload(r, "count"),
    "binary extreme": lambda r: binary_upload(r, "extreme"),
    "binary one class": lambda r: binary_upload(r, "one_class"),
    "binary tied": lambda r: binary_upload(r, "tied"),
    "binary same models": lambda r: binary_upload(r, "same_models"),
    "binary one row": lambda r: binary_upload(r, "one_row"),
    "regression": regression_upload,
    "multilabel pair": lambda r: pair_upload(r, "multilabel"),
    "graded pair": lambda r: pair_upload(r, "graded"),
    "one-label pair": lambda r: pair_upload(r, "one_label"),
    "one-row pair": lambda r: pair_upload(r, "one_row"),
    "huge grades pair": lambda r: pair_upload(r, "huge_grades"),
    "long table": long_upload,
    "multiclass probabilities": lambda r: multiclass_upload(r, "probability"),
    "multiclass logits": lambda r: multiclass_upload(r, "logit"),
    "multiclass tied": lambda r: multiclass_upload(r, "tied"),
    "multiclass absent class": lambda r: multiclass_upload(r, "absent_class"),
    "TREC": trec_upload,
    "broken file": broken_upload,
    "crafted .npy pair": crafted_npy_upload,
}


#: Values a hand-edited or hostile link may carry in any parameter.
HOSTILE_VALUES = (
    "inf",
    "-inf",
    "nan",
    "1e400",
    "-1",
    "0",
    "99999999999999999999999",
    "",
    "all",
    "none",
    "x",
    "[[[[",
    "0.30000000000000004",
    "%00",
    "balanced",
    "seed001_dcg",
    "nonexistent",
)


# ---------------------------------------------------------------- reading the screen
def metrics_shown(at: AppTest) -> list[tuple[str, str]]:
    """Every st.metric of the page, as (label, value) in page order."""
    return [(m.label, m.value) for m in at.main.metric]


def selection_shown(at: AppTest) -> list[tuple[str, str]]:
    """The selected sample or query: select boxes and number boxes labelled so."""
    out = []
    for w in [*at.main.selectbox, *at.main.number_input]:
        if w.label.lower().startswith(SELECTION_LABELS):
            value = w.options[w.index] if isinstance(w, Selectbox) else w.value
            out.append((w.label, str(value)))
    return out


def exceptions(at: AppTest) -> list[str]:
    """The exception boxes of the page, with their tracebacks."""
    return [e.message + "\n" + "\n".join(e.stack_trace) for e in at.exception]


# ---------------------------------------------------------------- the walker
@dataclass
class Walker:
    """A seeded walk; ``log`` holds one line per step, so a failure replays."""

    seed: int
    at: AppTest = field(init=False)
    page: str = field(init=False, default=script("home"))
    log: list[str] = field(init=False, default_factory=list)

    def __post_init__(self) -> None:
        # the app redacts tracebacks for visitors; the walk wants them in its report
        config.set_option("client.showErrorDetails", "full")
        self.rng = random.Random(self.seed)
        self.browser = Browser()
        self.at = AppTest.from_file(APP, default_timeout=60)
        self.run()
        self.log.append("open the app (Home)")
        self.check()

    # ------------------------------------------------------------ steps
    def step(self) -> None:
        roll = self.rng.random()
        if roll < 0.03:
            self.log.append("open the address in a fresh session (link check)")
            self.link_check()
            return
        if roll < 0.05:
            self.tamper_link()
            return
        if roll < 0.14:
            self.switch_page(self.rng.choice([p for p in PAGES if p != self.page]))
        elif roll < 0.22:
            self.pick_dataset()
        elif roll < 0.25:
            self.slice_filter()
        elif roll < 0.30:
            self.upload(self.rng.choice(sorted(UPLOADS)))
        else:
            self.move_control()
        self.check()

    def run(self) -> None:
        """Rerun the script, then check that every widget shows the value in use."""
        self.at.run()
        if self.at.exception:
            return  # check() reports it
        landed = (
            self.at.session_state[navigation.PAGE]
            if navigation.PAGE in self.at.session_state
            else None
        )
        if landed is not None and script(landed) != self.page:  # a button that opens a page
            self.log.append(f"  (landed on {script(landed)})")
            self.page = script(landed)
            self.at.switch_page(self.page)  # AppTest's next run would rerun the old page
            self.browser = Browser()  # the browser draws the new page's widgets afresh
        self.browser.after_run(self.at)
        wrong = self.browser.differences(self.at)
        if wrong:
            what = f"on {self.page} a widget shows another value than the page uses: {wrong}"
            raise AssertionError(self.report(what))

    def check(self) -> None:
        errors = exceptions(self.at)
        if errors:
            raise AssertionError(self.report(f"exception on {self.page}:\n" + errors[0]))
        written = (
            set(self.at.session_state[url.WRITTEN])
            if url.WRITTEN in self.at.session_state
            else set()
        )
        undeclared = written - set(registry.by_script(self.page).params)
        if undeclared:  # the registry lists every URL parameter a page writes
            what = f"on {self.page} URL parameters missing from explorer/registry.py: {undeclared}"
            raise AssertionError(self.report(what))

    def report(self, what: str) -> str:
        steps = "\n".join(f"  {i:4d}. {line}" for i, line in enumerate(self.log))
        replay = f"replay: WALK_SEED={self.seed} (walk steps below; tests/views/walker.py)"
        return f"{what}\n{replay}\n{steps}"

    def switch_page(self, page: str) -> None:
        """A sidebar click: the browser drops the query parameters, the session stays."""
        self.log.append(f"sidebar click: {page}")
        self.page = page
        self.at.query_params.clear()
        self.browser = Browser()  # the browser draws the new page's widgets afresh
        self.at.switch_page(page)
        self.run()

    def pick_dataset(self) -> None:
        picker = self.at.sidebar.selectbox(key="dataset_picker")
        label = self.rng.choice(picker.options)
        self.log.append(f"sidebar dataset: {label!r}")
        choose_label(picker, label)
        self.run()

    def slice_filter(self) -> None:
        """Clear the slice filter with the sidebar's button when one is set; else set one
        as a user does: on the Slices page (on the breast cancer sample when the dataset
        has no attributes), a group's button, which opens a model page on that slice."""
        clear = [b for b in self.at.sidebar.button if b.key == "slice_clear"]
        if clear:
            self.log.append("sidebar: Clear the slice")
            clear[0].click()
            self.run()
            assert "slice" not in self.at.query_params, self.report("the cleared slice stays")
            return
        if self.page != script("slices"):
            self.switch_page(script("slices"))
        sample = [b for b in self.at.main.button if b.key == "sl_open_sample"]
        if sample:  # the data has no attributes: the page offers a sample that has
            self.log.append("Slices: open the breast cancer sample")
            sample[0].click()
            self.run()
            self.check()
        groups = [b for b in self.at.main.button if (b.key or "").startswith("sl_open_")]
        if not groups:  # held back for Predict, then reveal, or refused as too long
            self.log.append("Slices: no group to open")
            return
        b = self.rng.choice(groups)
        self.log.append(f"Slices: open {b.label!r} (key {b.key})")
        b.click()
        self.run()
        notes = [i.value for i in self.at.main.info if i.value.startswith("On ")]
        assert "slice" in self.at.query_params and notes, self.report(
            f"a group's button left no slice filter on {self.page}"
        )

    def upload(self, kind: str) -> None:
        if self.page != script("data"):
            self.switch_page(script("data"))
        files = UPLOADS[kind](self.rng)
        self.log.append(f"upload {kind}: " + ", ".join(f[1][0] for f in files))
        for label, file in files:
            # the label before its note: "Labels (.csv, ...)", "Scores, one file a model, ..."
            uploader = next(
                u for u in self.at.file_uploader if re.split(r" \(|;|,", u.label)[0] == label
            )
            uploader.set_value(file)
            self.run()
            self.check()

    def controls(self) -> list:
        main = self.at.main
        found = [
            *main.slider,
            *main.number_input,
            *main.selectbox,
            *main.radio,
            *main.toggle,
            *main.checkbox,
            *main.button,
            *main.text_input,
        ]
        return [w for w in found if not getattr(w.proto, "disabled", False)]

    def move_control(self) -> None:
        found = self.controls()
        if not found:
            self.switch_page(self.rng.choice([p for p in PAGES if p != self.page]))
            return
        editors = list(self.at.main.data_editor)
        if editors and self.rng.random() < len(editors) / (len(editors) + len(found)):
            self.edit_table(self.rng.choice(editors))
            return
        w = self.rng.choice(found)
        what = self._move(w)
        self.log.append(f"{w.type} {w.label!r} (key {w.key}): {what}")
        self._user_shows(w)
        self.run()

    def _user_shows(self, w) -> None:
        """The browser shows what the user just put in ``w``."""
        if w.type not in Browser.KINDS:
            return
        if isinstance(w, Selectbox | Radio):
            self.browser.shown[w.id] = getattr(w, "_walk_label", None)
        else:
            self.browser.shown[w.id] = Browser.used(w)

    def edit_table(self, editor) -> None:
        """Edit a data editor as the grid does: a cell, an added row or a deleted row."""
        rng = self.rng
        key = user_key_from_element_id(editor.proto.id)
        table = editor.value
        edits = {"edited_rows": {}, "added_rows": [], "deleted_rows": []}
        numeric = [c for c in table.columns if table[c].dtype.kind in "fiu"]
        values = [0, 1, 0.5, 0.1 + 0.2, -3.25, 2, 150, 1e308, None]
        mode = editor.editing_mode
        roll = rng.random() if mode in ("dynamic",) else 0.0
        if roll < 0.7 and len(table) and numeric:
            row, col = rng.randrange(len(table)), rng.choice(numeric)
            edits["edited_rows"] = {row: {col: rng.choice(values)}}
        elif roll < 0.85 and numeric:
            edits["added_rows"] = [{c: rng.choice(values) for c in numeric}]
        elif len(table):
            edits["deleted_rows"] = [rng.randrange(len(table))]
        self.log.append(f"edit table {key}: {edits}")
        self.at.session_state[key] = edits
        self.run()

    def _move(self, w) -> str:
        rng = self.rng
        if isinstance(w, Selectbox | Radio):
            if not w.options:
                return "no option"
            label = rng.choice(w.options)
            choose_label(w, label)
            return f"choose {label!r}"
        if w.type == "slider":
            lo, hi, step = w.min, w.max, w.step
            n = max(int(round((hi - lo) / step)), 0) if step else 0
            grid = [lo, hi, lo + rng.randint(0, n) * step]
            value = rng.choice(grid)
            value = min(max(value, lo), hi)
            if isinstance(w.value, list | tuple):
                other = min(max(rng.choice(grid), lo), hi)
                value = [min(value, other), max(value, other)]
            w.set_value(value)
            return f"set {value!r}"
        if w.type == "number_input":
            return self._number(w)
        if w.type in ("toggle", "checkbox"):
            value = not w.value
            w.set_value(value)
            return f"set {value}"
        if w.type == "button":
            w.click()
            return "click"
        if w.type == "text_input":
            m = rng.randint(1, 6)
            text = rng.choice(
                [
                    ", ".join(f"n{j}" for j in range(m)),
                    "a, a, b",
                    "",
                    " x ,y,  z ",
                ]
            )
            w.set_value(text)
            return f"type {text!r}"
        return "nothing"

    def _number(self, w) -> str:
        rng = self.rng
        step = w.step or 1
        integer = w.proto.data_type == w.proto.DataType.INT
        lo = w.min if w.min is not None else None
        hi = w.max if w.max is not None else None
        current = w.value if w.value is not None else (lo if lo is not None else 0)
        candidates = [current + step, current - step, current + rng.randint(-20, 20) * step]
        if lo is not None:
            candidates.append(lo)
        if hi is not None:
            candidates.append(hi)
        if lo is not None and hi is not None and hi > lo:
            candidates.append(lo + rng.random() * (hi - lo))
        if lo is None or hi is None:
            candidates += [0, 1, 123456.789012345, -5.5, 1e6]
        value = rng.choice(candidates)
        if lo is not None:
            value = max(value, lo)
        if hi is not None:
            value = min(value, hi)
        if integer:
            value = int(round(value))
            if lo is not None and value < lo:
                value = int(lo)
            if hi is not None and value > hi:
                value = int(hi)
        if not w.proto.HasField("default") and rng.random() < 0.15:
            value = None  # a box that may be empty ("all")
        w.set_value(value)
        return f"set {value!r}"

    def tour(self) -> None:
        """Take every kind of step at least once, in a fixed order with seeded values:
        each upload of :data:`UPLOADS` on the Data page (those of :data:`ON_COMPARE` on
        Compare too), a dataset pick, then on every
        page a sidebar click, a moved control (or an edited table), a tampered link
        and the link check; then a slice filter set (with the link check) and cleared.
        The random walks take the same steps in random order."""
        for kind in sorted(UPLOADS):
            self.upload(kind)
            self.check()
            if kind in ON_COMPARE:
                self.switch_page(script("compare"))
                self.check()
        self.pick_dataset()
        self.check()
        for page in PAGES:
            if page != self.page:
                self.switch_page(page)
                self.check()
            self.move_control()
            self.check()
            editors = list(self.at.main.data_editor)
            if editors:
                self.edit_table(editors[0])
                self.check()
            self.tamper_link()
            self.log.append("open the address in a fresh session (link check)")
            self.link_check()
        self.slice_filter()  # set one: a model page on a group
        self.check()
        self.link_check()
        self.slice_filter()  # and clear it
        self.check()

    # ------------------------------------------------------------ the link
    def tamper_link(self) -> None:
        """Open the address with one parameter changed by hand (a hostile or mistyped link).

        The fresh session must show no exception; the walk goes on in the old one.
        """
        params = dict(self.at.query_params)
        names = sorted(params) or ["ds"]
        name = self.rng.choice([*names, "k", "t", "bins", "sample", "model"])
        value = self.rng.choice(HOSTILE_VALUES)
        params[name] = value
        self.log.append(f"open the address with {name}={value!r} in a fresh session")
        fresh = AppTest.from_file(APP, default_timeout=60)
        fresh.query_params.update(params)
        fresh.switch_page(self.page).run()
        errors = exceptions(fresh)
        if errors:
            raise AssertionError(
                self.report(f"a tampered link {params} on {self.page} shows:\n" + errors[0])
            )

    def link_check(self) -> None:
        """Open the address in a fresh session on this page: the same numbers."""
        params = dict(self.at.query_params)
        seen_metrics = metrics_shown(self.at)
        seen_selection = selection_shown(self.at)
        if not {"ds", "data"} & params.keys():
            # a dataset too big for a link: the page must say so, and a fresh session
            # cannot show its numbers
            notes = [w.value for w in self.at.warning]
            assert any("does not hold the dataset" in n for n in notes), self.report(
                f"the address of {self.page} holds no dataset and the page does not say so"
                f" ({params})"
            )
            return
        fresh = AppTest.from_file(APP, default_timeout=60)
        fresh.query_params.update(params)
        fresh.switch_page(self.page).run()
        where = f"link check on {self.page} with {params}"
        if fresh.exception:
            raise AssertionError(self.report(where + ":\n" + exceptions(fresh)[0]))
        got_metrics = metrics_shown(fresh)
        assert got_metrics == seen_metrics, self.report(
            f"{where}: metrics differ\n  walk:  {seen_metrics}\n  fresh: {got_metrics}"
        )
        got_selection = selection_shown(fresh)
        assert got_selection == seen_selection, self.report(
            f"{where}: selection differs\n  walk:  {seen_selection}\n  fresh: {got_selection}"
        )
