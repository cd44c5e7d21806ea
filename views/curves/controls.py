"""Every control of the ROC & PR curves page, bound to the address: the model, the
operating point (one threshold that the operating-point component's slider, the number
box, the index slider, a click on a curve and the "Optimize for" buttons all move), β,
the "Optimize for" goal and its settings, the confusion matrix's normalization, the
pages of long tables, drop_intermediate and the bins of the histogram and of the
calibration. Layout only: the numbers come from :mod:`explorer.pages.curves` through
:mod:`explorer.ui.cache`."""

from __future__ import annotations

import math
from dataclasses import dataclass

import streamlit as st

from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.pages import curves, curves_threshold
from explorer.pages.curves import MAX_ROWS
from explorer.ui import bound, cache, url
from explorer.ui.language import t as tr
from views.curves import operating_point as op
from views.curves.parts import text

MODEL = "curves_model"  # the model select box (drawn only when there are several)
T = "curves_threshold"  # the operating point: a non-widget key both threshold widgets follow
INDEX = "curves_threshold_index"  # the fallback control's key (a range no slider spans)
THRESHOLD_HELP = "A sample is predicted positive when its score is >= the threshold."
#: The confusion matrix's normalizations as the panel's radio names them.
NORM_SHORT = {"true": "by row", "pred": "by column", "all": "by all"}
#: The "Optimize for" settings: (key, URL parameter, default, highest value).
GOALS = (
    ("curves_cost_fp", "cfp", 1.0, 1e9),
    ("curves_cost_fn", "cfn", 1.0, 1e9),
    ("curves_min_recall", "minr", 0.9, 1.0),
    ("curves_min_precision", "minp", 0.9, 1.0),
)


@dataclass(frozen=True)
class Settings:
    """The operating point: the threshold ``t``, β, the threshold controls' ``axis`` and
    the "Optimize for" settings ``goals`` (cost_fp, cost_fn, min_recall, min_precision)."""

    t: float
    beta: float
    axis: curves_threshold.ThresholdAxis
    goals: tuple[float, float, float, float]


def _float(text: str) -> float:
    return float(float(text))


def _int(text: str) -> int:
    return int(float(text))


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


def _from_index(key: str, axis: curves_threshold.ThresholdAxis) -> None:
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


# ------------------------------------------------------------------ the controls
def model(ds: Dataset, where) -> str:
    """The model every number is for (a select box when there are several)."""
    models = ds.model_names
    if len(models) == 1:
        return models[0]
    return bound.selectbox(
        where,
        tr("Model"),
        models,
        key=MODEL,
        param="model",
        help=tr(
            "Every number is for this model; the curves show all models "
            "(click a point of another model's curve to select it)."
        ),
        # one line beside the title: the label is in the box (select-box options show
        # text as it is, so a model's name needs no escaping here)
        label_visibility="collapsed",
        format_func={m: tr("Model: ${model}", model=m) for m in models}.__getitem__,
    )


def show(ds: Dataset, model: str) -> Settings:
    """The threshold controls (see :func:`threshold`) and the "Optimize for" settings,
    read from the address (their widgets are in the Optimize tab: :func:`goals`)."""
    t, beta, axis = threshold(ds, model)
    return Settings(t, beta, axis, _goal_settings())


def threshold(ds: Dataset, model: str) -> tuple[float, float, curves_threshold.ThresholdAxis]:
    """The number box and β, URL-bound, and on a range no float slider spans the index
    of the distinct scores; one threshold in session state that every threshold control
    follows. The float slider is the operating-point component's
    (:mod:`views.curves.operating_point`, drawn by the panel)."""
    axis = cache.curves.threshold_axis(ds, model)
    _settle_threshold()
    t = axis.clamp(url.bind_param(T, "t", axis.default, float))
    st.session_state[T] = t
    # re-seed a widget only when another control moved the threshold: writing an unchanged
    # value would reset a slider the user is still dragging (its next value is in flight)
    if st.session_state.get("curves_threshold_number") != t:
        url.seed_widget("curves_threshold_number", t)
    if axis.stops is not None and st.session_state.get(INDEX) != axis.index_of(t):
        url.seed_widget(INDEX, axis.index_of(t))
    if axis.stops is None:  # the slider is the component's, drawn by the panel
        c_number, c_beta, c_note = st.columns([2, 1.3, 5.7], vertical_alignment="center")
    else:
        c_slider, c_number, c_beta = st.columns([5, 2, 1.3])
        c_note = st
        _index_slider(c_slider, axis)
    bound.number(
        c_number,
        tr("Threshold (exact)"),
        key="curves_threshold_number",
        param="t",
        default=t,
        check=axis.clamp,
        min_value=axis.lo,
        max_value=axis.hi,
        step=axis.box_step,
        format=axis.box_format,
        on_change=_from_widget,
        args=("curves_threshold_number",),
    )
    beta = setting_box(
        c_beta,
        tr("β (F-beta)"),
        key="curves_beta",
        param="beta",
        default=1.0,
        hi=100.0,
        max_value=100.0,
        step=0.5,
        help=tr("β > 1 weighs recall more, β < 1 precision more; β = 1 is F1."),
    )
    note = text("operating_point" if axis.stops is None else "operating_point_index", t=t)
    c_note.markdown(note + (" " + text("logit_opening") if axis.logit else ""))
    return t, beta, axis


def _index_slider(where, axis: curves_threshold.ThresholdAxis) -> None:
    """The threshold as the i-th distinct score (a range no float slider spans)."""
    stops = axis.stops
    where.slider(
        tr("Threshold: the i-th of the ${n:,} distinct scores, lowest first", n=len(stops)),
        min_value=0,
        max_value=max(axis.top, 1),
        step=1,
        key=INDEX,
        on_change=_from_index,
        args=(INDEX, axis),
        help=tr(THRESHOLD_HELP),
    )
    last = tr("; the last, above every score") if axis.top == len(stops) else ""
    where.caption(text("index_slider", low=stops[0], high=stops[-1], last=last))


def setting_box(where, label: str, *, key: str, param: str, default: float, hi: float, **kw):
    """A number box for a setting in [0, hi] (β, a cost, a bound on a rate), bound to
    ``?param=``; ``kw`` goes to ``st.number_input`` (its step, maximum, help)."""
    check = url.float_in(0.0, hi, clamp=False)
    return bound.number(
        where, label, key=key, param=param, default=default, check=check, parse=_float,
        min_value=0.0, **kw,
    )  # fmt: skip


def _goal_settings() -> tuple[float, float, float, float]:
    """The "Optimize for" goal and its settings, seeded from the URL; their widgets are
    in the Optimize tab (:func:`goals`)."""
    url.bind_param("curves_optimize", "opt", "max_fbeta", check=url.member(curves.OPTIMIZERS))
    return tuple(
        url.bind_param(key, param, default, _float, url.float_in(0.0, hi, clamp=False))
        for key, param, default, hi in GOALS
    )


def goals(where: tuple) -> tuple[str, tuple[float, float, float, float]]:
    """The "Optimize for" goal and its four settings, drawn in the five columns
    ``where``."""
    goal = bound.radio(
        where[0],
        tr("Optimize for"),
        curves.OPTIMIZERS,
        key="curves_optimize",
        param="opt",
        default="max_fbeta",
        format_func={k: tr(v) for k, v in curves.OPT_LABELS.items()}.__getitem__,
    )
    labels = ("Cost of a FP", "Cost of a FN", "Recall at least", "Precision at least")
    values = []
    for col, label, (key, param, default, hi) in zip(where[1:], labels, GOALS, strict=True):
        limits = {"step": 1.0} if hi > 1 else {"max_value": 1.0, "step": 0.05}
        box = setting_box(col, tr(label), key=key, param=param, default=default, hi=hi, **limits)
        values.append(box)
    return goal, tuple(values)


def norm(where) -> str:
    """How the confusion matrix's rates are normalized (a radio)."""
    return bound.radio(
        where,
        tr("Rates in brackets"),
        tuple(curves.NORMALIZE),
        key="curves_cm_normalize",
        param="norm",
        default="true",
        format_func={k: tr(v) for k, v in NORM_SHORT.items()}.__getitem__,
        horizontal=True,
        help=" · ".join(f"{tr(NORM_SHORT[k])}: {tr(v)}" for k, v in curves.NORMALIZE.items()),
    )


def seeded_norm() -> str:
    """The normalization before its radio is drawn (the component needs it first)."""
    options = tuple(curves.NORMALIZE)
    return url.bind_param("curves_cm_normalize", "norm", "true", check=url.member(options))


def candidate_buttons(ds: Dataset, model: str, optima, hi: float) -> None:
    """One button per "Optimize for" goal: a click moves the threshold to the goal's
    best one. Each button shows the shape of the goal's marker on the curves."""
    marks = charts.candidate_marks(curves.candidate_points(optima))
    glyph = {m["threshold"]: m["glyph"] for m in marks}
    top = float(ds.score(model).max())
    cols = st.columns([0.75, 1, 1, 1, 1, 1.15], vertical_alignment="center")
    cols[0].markdown(tr("**Optimize for:**"))
    for col, goal in zip(cols[1:], curves.OPTIMIZERS, strict=True):
        threshold = float(optima.loc[goal, "threshold"])
        label, target = curves.optimum_move(threshold, goal, hi, top)
        shown = tr("none") if target is None else ("+inf" if threshold > hi else f"{threshold:.3g}")
        col.button(
            f"{glyph.get(threshold, '')} {tr(curves.SHORT[goal])}: {shown}".strip(),
            key=f"curves_go_{goal}",
            on_click=set_threshold,
            args=(target,),
            disabled=target is None,
            help=tr(label),
            width="stretch",
        )


def pager(key: str, param: str, n: int) -> slice:
    """A box picking a page of :data:`~explorer.pages.curves.MAX_ROWS` rows of ``n``
    (URL-bound; drawn only when there is more than one page); the rows' slice."""
    pages = max(1, -(-n // MAX_ROWS))
    if pages == 1:
        return slice(0, MAX_ROWS)
    number = bound.number(
        st,
        tr("Page of ${rows} rows (1 to ${pages:,})", rows=MAX_ROWS, pages=pages),
        key=key,
        param=param,
        default=1,
        check=url.int_in(1, pages, clamp=False),
        parse=_int,
        min_value=1,
        max_value=pages,
        step=1,
    )
    return slice((number - 1) * MAX_ROWS, number * MAX_ROWS)


def drop() -> bool:
    """drop_intermediate (a toggle), bound to ``?drop=True`` / ``False`` (the links' format)."""
    return bound.toggle(
        st,
        tr("drop_intermediate (drop the collinear points of straight runs)"),
        key="curves_drop_intermediate",
        param="drop",
        to_url=str,
    )


def seeded_bins() -> int:
    """The histogram's number of bins, from the address before its box is drawn."""
    check = url.int_in(1, 100_000, clamp=False)
    return int(url.bind_param("curves_n_bins", "bins", 100, _int, check))


def bins() -> int:
    """The histogram's number of bins (a number box)."""
    return bound.number(
        st,
        tr("Number of bins"),
        key="curves_n_bins",
        param="bins",
        default=100,
        check=url.int_in(1, 100_000, clamp=False),
        parse=_int,
        min_value=1,
        max_value=100_000,
        step=10,
    )


def calibration_bins(where) -> int:
    """The reliability diagram's number of bins (a slider)."""
    return int(
        bound.slider(
            where,
            tr("Calibration bins"),
            key="curves_calib_bins",
            param="cbins",
            default=10,
            check=url.int_in(2, 50, clamp=False),
            parse=_int,
            min_value=2,
            max_value=50,
        )
    )
