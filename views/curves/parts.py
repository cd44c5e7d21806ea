"""Layout parts of the ROC & PR curves page (views/curves.py): the threshold controls
and their callbacks, the "Optimize for" settings, and the small helpers the page draws
its texts, tables and URL-bound settings with. Layout only: the numbers come from
:mod:`explorer.pages.curves` through :mod:`explorer.ui.cache`. The top panel is
:mod:`views.curves_panel`, the teaching tabs :mod:`views.curves_teach`."""

from __future__ import annotations

import math
import re

import streamlit as st

from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import curves as page
from explorer.ui import cache, url, widgets
from views import prose
from views.curves import operating_point as op

MODEL = "curves_model"  # the model select box (drawn only when there are several)
T = "curves_threshold"  # the operating point: a non-widget key both threshold widgets follow
INDEX = "curves_threshold_index"  # the fallback control's key (a range no slider spans)
THRESHOLD_HELP = "A sample is predicted positive when its score is >= the threshold."
_FIELD = re.compile(r"\$\{(\w+)(?::([^}]*))?\}")
_SPECS = {"fmt": fmt, "count": page.count_text}


# ------------------------------------------------------------------ helpers
def text(name: str, **values) -> str:
    """Section ``name`` of views/curves/text.md with its fields ``${name:spec}`` filled
    from ``values``: ``format(value, spec)``, or :func:`~explorer.formatting.fmt` for
    the spec ``fmt`` and :func:`~explorer.pages.curves.count_text` for ``count``."""

    def fill(field: re.Match) -> str:
        value, spec = values[field[1]], field[2] or ""
        return _SPECS[spec](value) if spec in _SPECS else format(value, spec)

    return _FIELD.sub(fill, prose.section("curves", name))


def csv(build, *args, **kwargs):
    """A CSV download's data, built on click: of the table ``build(*args, **kwargs)``,
    or of ``build`` itself when it is a table."""
    return lambda: (
        (build(*args, **kwargs) if callable(build) else build).to_csv(index=False).encode()
    )


def table(df, key: str, download: tuple[str, object, str, str], missing="no value", **kwargs):
    """A table (an empty cell reads "—", ``missing`` says why), then its CSV download:
    (label, data, file name, key)."""
    widgets.table(df, missing=missing, hide_index=True, key=key, **kwargs)
    label, data, file, dl_key = download
    st.download_button(label, data, file, key=dl_key)


def choice(key: str, param: str, options, default):
    """Seed a choice widget from the URL: one of ``options``, else ``default``."""
    return url.bind_param(key, param, default, check=url.member(options))


def number(key: str, param: str, default, lo, hi):
    """Seed a number widget from the URL, of the type of ``default``, within [lo, hi]."""
    kind = type(default)
    check = (url.int_in if kind is int else url.float_in)(lo, hi, clamp=False)
    return url.bind_param(key, param, default, lambda v: kind(float(v)), check)


# ------------------------------------------------------------------ callbacks
# Callbacks only record what moved the threshold; the script settles it once, by
# priority (a click or button, then the slider, then the number box). When the script
# re-seeds the other widget, a rerun already in flight still carries that widget's old
# value and Streamlit reports it as a change; the priority keeps the fresher source.
PENDING = "curves_pending"
PRIORITY = ("click", "curves_threshold_slider", "curves_threshold_number")


def _record(source: str, value) -> None:
    if value is not None and math.isfinite(value):
        st.session_state.setdefault(PENDING, {})[source] = float(value)


def set_threshold(value) -> None:
    _record("click", value)


def _from_widget(key: str) -> None:
    _record(key, st.session_state[key])


def _from_index(key: str, axis: page.ThresholdAxis) -> None:
    """The fallback control moved: it counts as the slider."""
    _record("curves_threshold_slider", axis.at_index(int(st.session_state[key])))


def from_component() -> None:
    """The operating-point component's slider reported a threshold: it counts as the
    slider."""
    _record("curves_threshold_slider", op.reported())


def from_pick(models: tuple[str, ...]) -> None:
    """A click near a vertex of the component's curves: that threshold, and the model
    whose curve it is."""
    model, threshold = op.picked()
    if threshold is None:
        return
    _record("click", threshold)
    if model in models and model != st.session_state.get(MODEL, model):
        st.session_state[MODEL] = model


def from_chart(key: str, models: tuple[str, ...]) -> None:
    """A click on a curve: its threshold, and the model whose curve it is (a marker
    keeps the selected model)."""
    model, threshold = charts.pick_from_selection(st.session_state.get(key), models)
    if threshold is None:
        return
    _record("click", threshold)
    if model is not None and model != st.session_state.get(MODEL, model):
        st.session_state[MODEL] = model


def on_cell_click() -> None:
    cell = charts.cell_from_selection(st.session_state.get("curves_cm_chart"))
    if cell is not None:
        st.session_state["curves_cm_cell"] = cell


def _settle_threshold() -> None:
    pending = st.session_state.pop(PENDING, {})
    for source in PRIORITY:
        if source in pending:
            st.session_state[T] = pending[source]
            return


# ------------------------------------------------------------------ the operating point
def threshold_controls(ds: Dataset, model: str) -> tuple[float, float, page.ThresholdAxis]:
    """The number box and β, all URL-bound, and on a range no float slider spans the
    index of the distinct scores; one threshold in session state that every threshold
    control follows. The float slider is the operating-point component's
    (:mod:`views.operating_point`, drawn by the panel). Returns the threshold, β and
    the axis."""
    axis = cache.curves.threshold_axis(ds, model)
    lo, hi, stops = axis.lo, axis.hi, axis.stops
    _settle_threshold()
    t = axis.clamp(url.bind_param(T, "t", axis.default, float))
    st.session_state[T] = t
    # re-seed a widget only when another control moved the threshold: writing an unchanged
    # value would reset a slider the user is still dragging (its next value is in flight)
    if st.session_state.get("curves_threshold_number") != t:
        url.seed_widget("curves_threshold_number", t)
    if stops is not None and st.session_state.get(INDEX) != axis.index_of(t):
        url.seed_widget(INDEX, axis.index_of(t))
    number("curves_beta", "beta", 1.0, 0.0, 100.0)

    if stops is None:  # the slider is the component's, drawn by the panel
        c_number, c_beta, c_note = st.columns([2, 1.3, 5.7], vertical_alignment="bottom")
    else:
        c_slider, c_number, c_beta = st.columns([5, 2, 1.3])
        c_note = st
        c_slider.slider(
            f"Threshold: the i-th of the {len(stops):,} distinct scores, lowest first",
            min_value=0,
            max_value=max(axis.top, 1),
            step=1,
            key=INDEX,
            on_change=_from_index,
            args=(INDEX, axis),
            help=THRESHOLD_HELP,
        )
        last = "; the last, above every score" if axis.top == len(stops) else ""
        c_slider.caption(text("index_slider", low=stops[0], high=stops[-1], last=last))
    c_number.number_input(
        "Threshold (exact)",
        min_value=lo,
        max_value=hi,
        step=axis.box_step,
        format=axis.box_format,
        key="curves_threshold_number",
        on_change=_from_widget,
        args=("curves_threshold_number",),
    )
    beta = c_beta.number_input(
        "β (F-beta)",
        min_value=0.0,
        max_value=100.0,
        step=0.5,
        key="curves_beta",
        help="β > 1 weighs recall more, β < 1 precision more; β = 1 is F1.",
    )
    url.write_param("t", t)
    url.write_param("beta", beta)
    c_note.markdown(text("operating_point", t=t))
    return t, beta, axis


def goal_settings() -> tuple[str, tuple[float, float, float, float]]:
    """The "Optimize for" goal and its settings (cost_fp, cost_fn, min_recall,
    min_precision), seeded from the URL; their widgets are in the Optimize tab."""
    goal = choice("curves_optimize", "opt", page.OPTIMIZERS, "max_fbeta")
    goals = (
        number("curves_cost_fp", "cfp", 1.0, 0.0, 1e9),
        number("curves_cost_fn", "cfn", 1.0, 0.0, 1e9),
        number("curves_min_recall", "minr", 0.9, 0.0, 1.0),
        number("curves_min_precision", "minp", 0.9, 0.0, 1.0),
    )
    return goal, goals
