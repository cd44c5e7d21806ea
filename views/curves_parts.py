"""Layout parts of the ROC & PR curves page (views/curves.py): the threshold controls
and their callbacks, the "Optimize for" panel, the AUC four ways, and the small helpers
the page draws its texts, tables and URL-bound settings with. Layout only: the numbers
come from :mod:`explorer.pages.curves` through :mod:`explorer.cache`."""

from __future__ import annotations

import math
import re

import streamlit as st

import metrics
from explorer import cache, state, widgets
from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import curves as page
from views import prose

T = "curves_threshold"  # the operating point: a non-widget key both threshold widgets follow
INDEX = "curves_threshold_index"  # the fallback control's key (a range no slider spans)
THRESHOLD_HELP = "A sample is predicted positive when its score is >= the threshold."
_FIELD = re.compile(r"\$\{(\w+)(?::([^}]*))?\}")
_SPECS = {"fmt": fmt, "count": page.count_text}


# ------------------------------------------------------------------ helpers
def text(name: str, **values) -> str:
    """Section ``name`` of views/text/curves.md with its fields ``${name:spec}`` filled
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
    return state.bind_param(key, param, default, check=state.member(options))


def number(key: str, param: str, default, lo, hi):
    """Seed a number widget from the URL, of the type of ``default``, within [lo, hi]."""
    kind = type(default)
    check = (state.int_in if kind is int else state.float_in)(lo, hi, clamp=False)
    return state.bind_param(key, param, default, lambda v: kind(float(v)), check)


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


def from_chart(key: str) -> None:
    _record("click", charts.threshold_from_selection(st.session_state.get(key)))


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
    """The threshold slider (or, on a range no slider spans, the index of the distinct
    scores), the number box and β, all URL-bound; one threshold in session state that
    both threshold widgets follow. Returns the threshold, β and the axis."""
    axis = cache.curves_threshold_axis(ds, model)
    lo, hi, stops = axis.lo, axis.hi, axis.stops
    _settle_threshold()
    t = axis.clamp(state.bind_param(T, "t", axis.default, float))
    st.session_state[T] = t
    # re-seed a widget only when another control moved the threshold: writing an unchanged
    # value would reset a slider the user is still dragging (its next value is in flight)
    for key in ("curves_threshold_slider", "curves_threshold_number"):
        if st.session_state.get(key) != t:
            state.seed_widget(key, t)
    if stops is not None and st.session_state.get(INDEX) != axis.index_of(t):
        state.seed_widget(INDEX, axis.index_of(t))
    number("curves_beta", "beta", 1.0, 0.0, 100.0)

    c_slider, c_number, c_beta = st.columns([5, 2, 1.3])
    if stops is None:
        c_slider.slider(
            "Threshold",
            min_value=lo,
            max_value=hi,
            step=axis.step,
            format=axis.slider_format,
            key="curves_threshold_slider",
            on_change=_from_widget,
            args=("curves_threshold_slider",),
            help=THRESHOLD_HELP,
        )
    else:
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
    state.write_param("t", t)
    state.write_param("beta", beta)
    st.markdown(text("operating_point", t=t))
    return t, beta, axis


def optimize_panel(ds: Dataset, model: str, beta: float, hi: float):
    """The "Optimize for" expander: the goal and its settings (URL-bound), the button
    that moves the threshold to the goal's best one, and the table of candidates.
    Returns the settings (cost_fp, cost_fn, min_recall, min_precision) and the optima."""
    with st.expander("Optimize for: candidate thresholds", expanded=True):
        choice("curves_optimize", "opt", page.OPTIMIZERS, "max_fbeta")
        number("curves_cost_fp", "cfp", 1.0, 0.0, 1e9)
        number("curves_cost_fn", "cfn", 1.0, 0.0, 1e9)
        number("curves_min_recall", "minr", 0.9, 0.0, 1.0)
        number("curves_min_precision", "minp", 0.9, 0.0, 1.0)
        o1, o2, o3, o4, o5 = st.columns([2.2, 1, 1, 1, 1])
        goal = o1.radio(
            "Optimize for", page.OPTIMIZERS, format_func=page.OPT_LABELS.get, key="curves_optimize"
        )
        cost_fp = o2.number_input("Cost of a FP", min_value=0.0, step=1.0, key="curves_cost_fp")
        cost_fn = o3.number_input("Cost of a FN", min_value=0.0, step=1.0, key="curves_cost_fn")
        min_recall = o4.number_input(
            "Recall at least", min_value=0.0, max_value=1.0, step=0.05, key="curves_min_recall"
        )
        min_precision = o5.number_input(
            "Precision at least",
            min_value=0.0,
            max_value=1.0,
            step=0.05,
            key="curves_min_precision",
        )
        goals = (cost_fp, cost_fn, min_recall, min_precision)
        for param, value in zip(("opt", "cfp", "cfn", "minr", "minp"), (goal, *goals), strict=True):
            state.write_param(param, value)
        counts = cache.curves_counts(ds, model)
        optima = cache.curves_optima(ds, model, beta, *goals, _counts=counts)
        label, target = page.optimum_move(
            optima.loc[goal, "threshold"], goal, hi, float(ds.score(model).max())
        )
        if target is None:
            o1.button(label, key="curves_apply_optimum", disabled=True)
        else:
            o1.button(
                label,
                key="curves_apply_optimum",
                on_click=set_threshold,
                args=(target,),
                type="primary",
            )
        candidates = page.candidates_table(optima)
        widgets.table(
            candidates,
            missing="no threshold meets this constraint",
            hide_index=True,
            width="stretch",
            key="curves_optima_table",
        )
        st.caption(text("candidates", beta=beta, cost_fp=cost_fp, cost_fn=cost_fn))
        st.download_button(
            "Download the candidates (CSV)",
            csv(candidates),
            "candidates.csv",
            key="curves_dl_optima",
        )
    return goals, optima


# ------------------------------------------------------------------ AUC four ways
def four_ways(ds: Dataset, model: str, roc_auc: float) -> None:
    """AUC four ways: the four numbers and Gini, then one tab a way (its formula, its
    table or figure); the histogram tab holds the bins (URL-bound)."""
    st.header("AUC four ways")
    number("curves_n_bins", "bins", 100, 1, 100_000)
    try:
        at_100 = cache.curves_four_ways(ds, model, 100)
        n_bins = int(st.session_state["curves_n_bins"])
        four = cache.curves_four_ways(ds, model, n_bins, _at_100=at_100)
    except metrics.MetricInputError as exc:
        st.error(str(exc))
        return
    cols = st.columns(5)
    cols[0].metric("AUC: trapezoids", fmt(four["trapezoid"]))
    cols[1].metric("AUC: all pairs", fmt(four["pairwise"]))
    cols[2].metric("AUC: rank sum", fmt(four["rank"]))
    cols[3].metric(
        "AUC: histogram",
        fmt(four["histogram"]) if not four["histogram_message"] else "n/a",
        delta=None if four["histogram_message"] else f"error {four['histogram_error']:+.2e}",
        delta_color="off",
        delta_arrow="off",
    )
    cols[4].metric("Gini", fmt(four["gini"]), help="Gini = 2 AUC - 1")
    if ds.sample_weight is not None:
        st.info(text("weighted_four_ways", auc=roc_auc, exact=four["exact"]))
    tab_trap, tab_pairs, tab_rank, tab_hist = st.tabs(
        ["Trapezoids", "All pairs", "Rank sum (Mann-Whitney)", "Histogram (O(n))"]
    )
    with tab_trap:
        st.latex(text("formula_trapezoids", **four))
        st.markdown(prose.section("curves", "trapezoids"))
    with tab_pairs:
        pairs = cache.curves_pairs(ds, model)
        if pairs["full"]:
            st.latex(text("formula_pairs", **pairs, **four))
            st.plotly_chart(charts.pairs_grid_figure(pairs["table"]), key="curves_pairs_chart")
            st.caption(text("pairs", **pairs))
        else:
            st.latex(text("formula_pairs_sampled", **four))
            st.caption(text("pairs_sampled", **pairs, n_sample=page.PAIR_SAMPLE))
        table(
            pairs["table"].head(page.MAX_ROWS),
            "curves_pairs_table",
            ("Download the pairs (CSV)", csv(pairs["table"]), "pairs.csv", "curves_dl_pairs"),
        )
    with tab_rank:
        ranks, n_ranks = cache.curves_rank_head(ds, model)
        st.latex(text("formula_rank_sum", **ranks.attrs, n_pos_plus_1=ranks.attrs["n_pos"] + 1))
        st.caption(
            prose.section("curves", "ranks")
            + (
                f" Showing the {page.MAX_ROWS} lowest of {n_ranks:,} rows."
                if n_ranks > page.MAX_ROWS
                else ""
            )
        )
        download = ("Download the ranks (CSV)", csv(page.rank_table, ds, model), "ranks.csv")
        table(ranks, "curves_rank_table", (*download, "curves_dl_ranks"))
    with tab_hist:
        st.number_input(
            "Number of bins", min_value=1, max_value=100_000, step=10, key="curves_n_bins"
        )
        state.write_param("bins", st.session_state["curves_n_bins"])
        if four["histogram_message"]:
            st.warning(four["histogram_message"])
        else:
            st.markdown(text("histogram", n_bins=st.session_state["curves_n_bins"], **four))
            st.plotly_chart(
                cache.curves_histogram_figure(ds, model, int(st.session_state["curves_n_bins"])),
                key="curves_hist_chart",
            )
