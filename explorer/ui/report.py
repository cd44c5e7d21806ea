"""What this run drew, for "Download this view" (:mod:`explorer.report` writes it out).

The shared widgets record what they draw: :func:`explorer.ui.classroom.headline` its
number, :func:`explorer.ui.derivations.show` its lines, :func:`explorer.ui.widgets.table`
/ ``dataframe`` / ``plotly_chart`` / ``svg_chart`` their table or chart; so no page has
code of its own for the report. ``app.py`` starts a fresh :class:`Collected` at the top
of each run. A panel that reruns alone (an ``st.fragment``) records again into the same
one: parts are keyed (a widget's key, a headline's label), so a rerun replaces them.
The sidebar's download button holds the :class:`Collected` itself, not the session
state: Streamlit builds its data on the click, on another thread, without a session.
"""

from __future__ import annotations

import re
import threading

import pandas as pd
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from explorer import i18n, report
from explorer.datasets import KIND_LABELS, Dataset
from explorer.ui import language, url

KEY = "report_parts"


class Collected:
    """The parts of one run's view, in the order drawn, keyed for replacement."""

    def __init__(self, title: str = "") -> None:
        self.title = title  # the page's title in English (the file's name says it)
        self.lang = language.current()
        self.dataset: dict = {}
        self.params: dict = {}
        self.link = ""
        self.hidden = False
        self._run = None
        # the click builds the HTML on another thread while a panel may be recording
        self._lock = threading.Lock()
        self._counts: dict = {}
        self.parts: dict[str, dict] = {
            "headlines": {},
            "derivations": {},
            "tables": {},
            "charts": {},
        }

    def put(self, section: str, key: str | None, part) -> None:
        """Record ``part`` under ``key`` (None: the n-th unkeyed part of its section)."""
        ctx = get_script_run_ctx()
        frag = getattr(ctx, "current_fragment_id", None) or ""
        with self._lock:
            self._new_run(ctx)
            if key is None:
                n = self._counts[(section, frag)] = self._counts.get((section, frag), 0) + 1
                key = f"#{n}"
            self.parts[section][(frag, key)] = part
        # the settings as they stand when the part was drawn (a fragment writes its own)
        self.params = st.query_params.to_dict()
        self.link = url.current_link()

    def _new_run(self, ctx) -> None:
        # Streamlit gives each run a fresh ``cursors`` dict: a new one is a new run. A
        # panel that reruns alone (an st.fragment) draws its parts again: drop its old
        # ones first, so a chart it no longer draws leaves the report too
        run = getattr(ctx, "cursors", None)
        if run is self._run:
            return
        self._run, self._counts = run, {}
        again = set(getattr(ctx, "fragment_ids_this_run", None) or ())
        for parts in self.parts.values():
            for key in [k for k in parts if k[0] in again]:
                del parts[key]

    def report(self) -> report.Report:
        """The :class:`explorer.report.Report` of what was drawn."""
        notes = []
        if self.hidden:
            hid = '"Predict, then reveal" hid the numbers of this view: they are not in it.'
            notes.append(i18n.translate(hid, self.lang))
        with self._lock:
            parts = {section: list(kept.values()) for section, kept in self.parts.items()}
        return report.Report(
            title=f"{i18n.translate('Metric Explorer', self.lang)}: "
            f"{i18n.translate(self.title, self.lang)}",
            dataset=self.dataset,
            settings=self.params,
            link=self.link,
            headlines=parts["headlines"],
            derivations=parts["derivations"],
            tables=parts["tables"],
            charts=parts["charts"],
            versions=report.versions(),
            notes=notes,
            lang=self.lang,
        )

    def html(self) -> str:
        return report.to_html(self.report())


def start(title: str) -> Collected:
    """A fresh record for this run of the page titled ``title`` (``app.py``, first)."""
    st.session_state[KEY] = Collected(title)
    return st.session_state[KEY]


def current() -> Collected | None:
    """This run's record (None outside the app: a page script run alone in a test)."""
    return st.session_state.get(KEY)


def dataset(ds: Dataset) -> None:
    """The dataset summary: name, kind, sizes, models."""
    c = current()
    if c is None:
        return
    t = language.t
    c.dataset = {
        t("Name"): ds.shown_name,
        t("Kind"): t(KIND_LABELS.get(ds.kind, ds.kind)),
        t("Samples"): f"{ds.n_samples:,}",
        t("Labels"): f"{ds.n_labels:,}",
        t("Models"): ", ".join(ds.model_names),
    }


def headline(label: str, value: str, note: str = "", *, shown: bool = True) -> None:
    c = current()
    if c is not None:
        c.put("headlines", label, report.Headline(label, value, note))
        c.hidden = c.hidden or not shown


def derivation(d, formulas: bool) -> None:
    """One :class:`explorer.derivation.Derivation` as drawn (its formula if shown)."""
    c = current()
    if c is not None:
        formula = d.formula if formulas else ""
        name, note = language.t(d.name), language.t(d.note) if d.note else ""
        c.put("derivations", d.name, report.Derived(name, tuple(d.lines), formula, note))


def _title(key, frame: pd.DataFrame) -> str:
    return str(key) if key else ", ".join(map(str, frame.columns))[:80]


def table(frame, key=None) -> None:
    """A table as drawn (a DataFrame, or a pandas Styler: its data)."""
    c = current()
    frame = getattr(frame, "data", frame)  # a Styler's frame
    if c is not None and isinstance(frame, pd.DataFrame):
        c.put("tables", key, report.Table(_title(key, frame), frame))


def plotly(fig, key=None, title: str | None = None) -> None:
    """A plotly figure as drawn, or a function of no argument making it (a chart the page
    draws otherwise: made only if the report is downloaded)."""
    c = current()
    if c is not None:
        title = title or (None if callable(fig) else fig.layout.title.text) or key
        title = " ".join(re.sub(r"<[^>]*>", " ", title).split())  # plotly's <br>, <b>
        c.put("charts", key, report.Chart(title or "Chart", "plotly", fig))


def svg(html: str, key=None) -> None:
    c = current()
    if c is not None:
        c.put("charts", key, report.Chart(key or "Chart", "svg", html))


def file_name(title: str) -> str:
    """The download's file name: ``metric-explorer-roc-pr.html``.

    >>> file_name("ROC & PR curves")
    'metric-explorer-roc-pr-curves.html'
    """
    words = "".join(ch if ch.isalnum() else " " for ch in title.lower()).split()
    return "metric-explorer-" + "-".join(words) + ".html"


def download_button(container) -> None:
    """ "Download this view" in ``container``: the HTML is built on the click, from what
    this run (and any panel rerun after it) drew."""
    c = current()
    if c is None:
        return
    container.download_button(
        language.t("Download this view"),
        data=c.html,
        file_name=file_name(c.title),
        mime="text/html",
        icon=":material/download:",
        on_click="ignore",
        key="download_view",
        help=language.t(
            "One HTML file: this page's numbers, derivations, tables and charts, its settings "
            "and the link to it. It opens without a server or network; print it for a PDF."
        ),
    )
