"""ROC & PR curves: one operating point drives the curves, the confusion matrix and
every rate; AUC four ways; the ROC point by point; log loss and calibration.

Layout and prose only: the numbers come from :mod:`explorer.pages.curves` through
its cached declarations in :mod:`explorer.cache`; the long texts are in
``views/text/curves.md``."""

from __future__ import annotations

import math

import streamlit as st

import metrics
from explorer import cache, state, widgets
from explorer.charts import curves as charts
from explorer.formatting import fmt
from explorer.pages import curves as page
from explorer.pages.curves import MAX_ROWS, count_text
from views import prose

T = "curves_threshold"  # the operating point: a non-widget key both threshold widgets follow
INDEX = "curves_threshold_index"  # the fallback control's key (a range no slider spans)
THRESHOLD_HELP = "A sample is predicted positive when its score is >= the threshold."
#: Per-sample tables: log-loss terms span 1e-16 to ~37, so 4 significant digits.
ROW_COLUMNS = {
    "log_loss_term": st.column_config.NumberColumn(
        "log_loss_term", format="%.4g", help="-log of the probability given to the true class"
    )
}

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


def _set_threshold(value) -> None:
    _record("click", value)


def _from_widget(key: str) -> None:
    _record(key, st.session_state[key])


def _from_index(key: str, axis: page.ThresholdAxis) -> None:
    """The fallback control moved: it counts as the slider."""
    _record("curves_threshold_slider", axis.at_index(int(st.session_state[key])))


def _from_chart(key: str) -> None:
    _record("click", charts.threshold_from_selection(st.session_state.get(key)))


def _on_cell_click() -> None:
    cell = charts.cell_from_selection(st.session_state.get("curves_cm_chart"))
    if cell is not None:
        st.session_state["curves_cm_cell"] = cell


def _settle_threshold() -> None:
    pending = st.session_state.pop(PENDING, {})
    for source in PRIORITY:
        if source in pending:
            st.session_state[T] = pending[source]
            return


def _choice(key: str, param: str, options, default):
    """Seed a choice widget from the URL: one of ``options``, else ``default``."""
    return state.bind_param(key, param, default, check=state.member(options))


def _number(key: str, param: str, default, lo, hi):
    """Seed a number widget from the URL, of the type of ``default``, within [lo, hi]."""
    kind = type(default)
    check = (state.int_in if kind is int else state.float_in)(lo, hi, clamp=False)
    return state.bind_param(key, param, default, lambda v: kind(float(v)), check)


def _csv(build, *args, **kwargs):
    """A CSV download's data, built on click: of the table ``build(*args, **kwargs)``,
    or of ``build`` itself when it is a table."""
    return lambda: (
        (build(*args, **kwargs) if callable(build) else build).to_csv(index=False).encode()
    )


def _table(df, key: str, download: tuple[str, object, str, str], **kwargs) -> None:
    """A table, then its CSV download: (label, data, file name, key)."""
    st.dataframe(df, hide_index=True, key=key, **kwargs)
    label, data, file, dl_key = download
    st.download_button(label, data, file, key=dl_key)


# ------------------------------------------------------------------ page
st.title("ROC & PR curves")
ds = state.active()
widgets.require_kind(ds, ("binary",), "balanced")

models = ds.model_names
if len(models) > 1:
    _choice("curves_model", "model", models, models[0])
    model = st.selectbox(
        "Model",
        models,
        key="curves_model",
        help="Every number below is for this model; the curves show all models.",
    )
    state.write_param("model", model)
else:
    model = models[0]
weighted = ds.sample_weight is not None
st.caption(
    f"Dataset **{ds.name}**: {ds.n_samples:,} samples, model **{model}**"
    + (", weighted by `sample_weight`" if weighted else "")
    + (f". {ds.description}" if ds.description else "")
)

try:
    curves = {m: cache.curves_curves(ds, m) for m in models}
except metrics.MetricInputError as exc:
    st.error(str(exc))
    state.stop_page()
cur = curves[model]

# ---- the operating point: one threshold in session state, two widgets in sync
axis = cache.curves_threshold_axis(ds, model)
lo, hi, step, stops = axis.lo, axis.hi, axis.step, axis.stops
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
_number("curves_beta", "beta", 1.0, 0.0, 100.0)

c_slider, c_number, c_beta = st.columns([5, 2, 1.3])
if step is not None:
    c_slider.slider(
        "Threshold",
        min_value=lo,
        max_value=hi,
        step=step,
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
    c_slider.caption(
        f"The scores span {stops[0]:.4g} to {stops[-1]:.4g}, a range wider than the largest "
        "float, so this slider steps through the distinct scores (position i is the i-th "
        f"lowest score{'; the last, above every score' if axis.top == len(stops) else ''}). "
        "Type any threshold in the box."
    )
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
st.markdown(
    f"**Prediction = positive when score ≥ {t:.4g}.** Move the slider, type a value, "
    "or click any point of either curve (or a candidate marker) to move the operating point."
)

rates = cache.curves_rates(ds, model, t, beta)
ll, ll_sum, ll_error = cache.curves_log_loss(ds, model)

# ---- 1. headline numbers
cols = st.columns(7)
cols[0].metric("ROC AUC", fmt(cur["auc"]))
cols[1].metric("Average precision", fmt(cur["ap"]))
cols[2].metric(
    "Log loss",
    fmt(ll) if ll_error == "" else "n/a",
    help="Needs scores that are probabilities in [0, 1]." if ll_error else None,
)
for col, (label, name) in zip(
    [*cols[3:], *st.columns(4)],
    [
        ("Precision", "precision"),
        ("Recall", "recall"),
        ("F1", "f1"),
        ("Accuracy", "accuracy"),
        ("F-beta", "fbeta"),
        ("Error rate", "error_rate"),
        ("TPR", "tpr"),
        ("FPR", "fpr"),
    ],
    strict=True,
):
    col.metric(label, fmt(rates[name]), help=f"β = {beta:g}" if name == "fbeta" else None)

# ---- "Optimize for": candidate operating points
with st.expander("Optimize for: candidate thresholds", expanded=True):
    _choice("curves_optimize", "opt", page.OPTIMIZERS, "max_fbeta")
    _number("curves_cost_fp", "cfp", 1.0, 0.0, 1e9)
    _number("curves_cost_fn", "cfn", 1.0, 0.0, 1e9)
    _number("curves_min_recall", "minr", 0.9, 0.0, 1.0)
    _number("curves_min_precision", "minp", 0.9, 0.0, 1.0)
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
        "Precision at least", min_value=0.0, max_value=1.0, step=0.05, key="curves_min_precision"
    )
    goals = (cost_fp, cost_fn, min_recall, min_precision)
    for param, value in zip(("opt", "cfp", "cfn", "minr", "minp"), (goal, *goals), strict=True):
        state.write_param(param, value)
    counts = cache.curves_counts(ds, model)
    optima = cache.curves_optima(ds, model, beta, *goals, _counts=counts)
    label, target = page.optimum_move(
        optima.loc[goal, "threshold"], goal, hi, ds.score(model).max()
    )
    if target is None:
        o1.button(label, key="curves_apply_optimum", disabled=True)
    else:
        o1.button(
            label,
            key="curves_apply_optimum",
            on_click=_set_threshold,
            args=(target,),
            type="primary",
        )
    table = page.candidates_table(optima)
    st.dataframe(table, hide_index=True, width="stretch", key="curves_optima_table")
    st.caption(
        "Candidates are +inf (predict nothing positive) and the distinct scores; ties go "
        f"to the highest threshold. Value = F-beta (β = {beta:g}), J = TPR - FPR, "
        f"cost = {cost_fp:g}·FP + {cost_fn:g}·FN, or the precision (recall) reached under "
        "the constraint. Each is a labelled marker on the curves: click it, or press the button."
    )
    st.download_button(
        "Download the candidates (CSV)", _csv(table), "candidates.csv", key="curves_dl_optima"
    )

# ---- 2. the picture: ROC and PR curves
figures = cache.curves_figures(
    ds, model, t, beta, *goals, _curves=curves, _rates=rates, _optima=optima
)
for column, fig, key in zip(
    st.columns(2), figures, ("curves_roc_chart", "curves_pr_chart"), strict=True
):
    with column:
        st.plotly_chart(
            fig,
            key=key,
            on_select=lambda key=key: _from_chart(key),
            selection_mode="points",
            width="stretch",
        )
st.caption(
    " · ".join(
        f"{m}: drew {len(c['fpr']):,} of {c['n_roc']:,} ROC vertices and "
        f"{len(c['recall']):,} of {c['n_pr']:,} PR vertices"
        for m, c in curves.items()
    )
    + ". The curves have one vertex per distinct score; only collinear points are left out"
    f" (and, past {page.MAX_POINTS:,} vertices, those within one pixel column of a kept one). "
    "All numbers are computed on the exact curves. Hover a vertex to read its threshold."
)

# ---- 3. how it is computed: the confusion matrix and the formulas
st.header("At the operating point: the confusion matrix")
norm = _choice("curves_cm_normalize", "norm", tuple(page.NORMALIZE), "true")
norm = st.radio(
    "Normalize the rates",
    tuple(page.NORMALIZE),
    format_func=page.NORMALIZE.get,
    key="curves_cm_normalize",
    horizontal=True,
)
state.write_param("norm", norm)
cm_counts, cm_rates, cm_table = page.confusion(rates, norm)
for col, name in zip(st.columns(4), page.CELLS, strict=True):
    col.metric(name, count_text(rates[name.lower()]), help=charts.OUTCOME_NAMES[name])
c_cm, c_table = st.columns([1, 1])
with c_cm:
    st.plotly_chart(
        charts.confusion_figure(cm_counts, cm_rates, norm),
        key="curves_cm_chart",
        on_select=_on_cell_click,
        selection_mode="points",
    )
    st.caption("Click a cell to list its samples below.")
with c_table:
    st.table(cm_table)
    st.caption(f"Counts, and in brackets the rate normalized {page.NORMALIZE[norm]}.")
c_formulas, c_formulas2 = st.columns(2)
tp, fp, fn, tn = (count_text(rates[k]) for k in ("tp", "fp", "fn", "tn"))
b2, n_total = f"{beta:g}^2", count_text(rates["tp"] + rates["fp"] + rates["fn"] + rates["tn"])
with c_formulas:
    st.latex(
        rf"\text{{Precision}} = \frac{{TP}}{{TP + FP}} = \frac{{{tp}}}{{{tp} + {fp}}}"
        rf" = {fmt(rates['precision'])}"
    )
    st.latex(
        rf"\text{{Recall (TPR)}} = \frac{{TP}}{{TP + FN}} = \frac{{{tp}}}{{{tp} + {fn}}}"
        rf" = {fmt(rates['recall'])}"
    )
    st.latex(
        rf"\begin{{aligned}} F_1 &= \frac{{2\,TP}}{{2\,TP + FP + FN}} \\ &= \frac{{2 \cdot {tp}}}"
        rf"{{2 \cdot {tp} + {fp} + {fn}}} = {fmt(rates['f1'])} \end{{aligned}}"
    )
    st.latex(
        rf"\text{{FPR}} = \frac{{FP}}{{FP + TN}} = \frac{{{fp}}}{{{fp} + {tn}}}"
        rf" = {fmt(rates['fpr'])}"
    )
with c_formulas2:
    st.latex(
        rf"\begin{{aligned}} F_\beta &= \frac{{(1+\beta^2)\,TP}}{{(1+\beta^2)\,TP + \beta^2 FN"
        rf" + FP}} \\ &= \frac{{(1+{b2}) \cdot {tp}}}{{(1+{b2}) \cdot {tp} + {b2} \cdot {fn}"
        rf" + {fp}}} = {fmt(rates['fbeta'])} \end{{aligned}}"
    )
    st.latex(
        rf"\text{{Accuracy}} = \frac{{TP + TN}}{{N}} = \frac{{{tp} + {tn}}}{{{n_total}}}"
        rf" = {fmt(rates['accuracy'])}"
    )
    st.latex(
        rf"\text{{Error rate}} = \frac{{FP + FN}}{{N}} = \frac{{{fp} + {fn}}}{{{n_total}}}"
        rf" = {fmt(rates['error_rate'])}"
    )
    st.caption("N = TP + FP + FN + TN" + (" (total sample_weight)." if weighted else " (samples)."))

samples = cache.curves_samples(ds, model)
state.bind_param("curves_cm_cell", None, "TP", check=state.member(page.CELLS))
cell = st.selectbox(
    "List the samples of one cell",
    page.CELLS,
    format_func=charts.OUTCOME_NAMES.get,
    key="curves_cm_cell",
)
in_cell = page.cell_samples(samples, cell, t)
st.caption(
    f"{len(in_cell):,} samples are {cell} at threshold {t:.4g}"
    + (
        f"; the {MAX_ROWS} highest-scoring are shown, the CSV has all."
        if len(in_cell) > MAX_ROWS
        else "."
    )
)
_table(
    page.sample_rows(ds, samples, in_cell[:MAX_ROWS], t),
    "curves_cell_table",
    (
        f"Download the {cell} samples (CSV)",
        _csv(page.sample_rows, ds, samples, in_cell, t),
        f"{cell}.csv",
        "curves_dl_cell",
    ),
    width="stretch",
    column_config=ROW_COLUMNS,
)

# ---- the sample strip
st.header("The samples along the score axis")
st.plotly_chart(cache.curves_strip_figure(ds, model, t, _samples=samples), key="curves_strip_chart")
st.caption(
    prose.section("curves", "strip")
    if ds.n_samples <= page.STRIP_MARKERS
    else f"{ds.n_samples:,} samples are too many markers: stacked histograms per outcome."
)

# ---- AUC four ways
st.header("AUC four ways")
_number("curves_n_bins", "bins", 100, 1, 100_000)
n_bins = int(st.session_state["curves_n_bins"])
try:
    at_100 = cache.curves_four_ways(ds, model, 100)
    four = cache.curves_four_ways(ds, model, n_bins, _at_100=at_100)
except metrics.MetricInputError as exc:
    st.error(str(exc))
    four = None
if four is not None:
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
    if weighted:
        st.info(
            "This dataset has sample_weight. The trapezoids are taken under the weighted ROC "
            f"curve (= ROC AUC {fmt(cur['auc'])}); the pair, rank-sum and histogram ways count "
            f"samples as seed 002 does, so they equal the unweighted AUC {fmt(four['exact'])}."
        )
    tab_trap, tab_pairs, tab_rank, tab_hist = st.tabs(
        ["Trapezoids", "All pairs", "Rank sum (Mann-Whitney)", "Histogram (O(n))"]
    )
    with tab_trap:
        st.latex(
            r"\text{AUC} = \sum_i (\text{FPR}_i - \text{FPR}_{i-1})"
            rf"\,\frac{{\text{{TPR}}_i + \text{{TPR}}_{{i-1}}}}{{2}} = {fmt(four['trapezoid'])}"
        )
        st.markdown(prose.section("curves", "trapezoids"))
    with tab_pairs:
        pairs = cache.curves_pairs(ds, model)
        wins, ties, n_pairs = pairs["wins"], pairs["ties"], pairs["n_pairs"]
        auc_pairs = r"\text{AUC} = \frac{\#\text{wins} + \tfrac12\,\#\text{ties}}{n_+ \cdot n_-}"
        if pairs["full"]:
            st.latex(
                auc_pairs + rf" = \frac{{{wins} + \tfrac12 \cdot {ties}}}{{{n_pairs}}}"
                rf" = {fmt(four['pairwise'])}"
            )
            st.plotly_chart(charts.pairs_grid_figure(pairs["table"]), key="curves_pairs_chart")
            st.caption(f"All {n_pairs:,} positive/negative pairs: win 1, tie 0.5, loss 0.")
        else:
            st.latex(auc_pairs + rf" = {fmt(four['pairwise'])}")
            st.caption(
                f"There are {n_pairs:,} positive/negative pairs: too many to list. The value "
                "above counts every one of them exactly (from the sorted scores). The table "
                f"is a **uniform random sample** of {page.PAIR_SAMPLE:,} pairs (seed 0): "
                f"{wins:,} wins and {ties:,} ties in the sample."
            )
        _table(
            pairs["table"].head(MAX_ROWS),
            "curves_pairs_table",
            ("Download the pairs (CSV)", _csv(pairs["table"]), "pairs.csv", "curves_dl_pairs"),
        )
    with tab_rank:
        ranks, n_ranks = cache.curves_rank_head(ds, model)
        a = ranks.attrs
        st.latex(
            r"\text{AUC} = \frac{\sum_{i \in \text{pos}} \text{rank}_i - \frac{n_+(n_+ + 1)}{2}}"
            rf"{{n_+ \cdot n_-}} = \frac{{{a['rank_sum']:g} - \frac{{{a['n_pos']} \cdot "
            rf"{a['n_pos'] + 1}}}{{2}}}}{{{a['n_pos']} \cdot {a['n_neg']}}} = {fmt(a['auc'])}"
        )
        st.caption(
            prose.section("curves", "ranks")
            + (f" Showing the {MAX_ROWS} lowest of {n_ranks:,} rows." if n_ranks > MAX_ROWS else "")
        )
        _table(
            ranks,
            "curves_rank_table",
            (
                "Download the ranks (CSV)",
                _csv(page.rank_table, ds, model),
                "ranks.csv",
                "curves_dl_ranks",
            ),
        )
    with tab_hist:
        st.number_input(
            "Number of bins", min_value=1, max_value=100_000, step=10, key="curves_n_bins"
        )
        state.write_param("bins", st.session_state["curves_n_bins"])
        if four["histogram_message"]:
            st.warning(four["histogram_message"])
        else:
            st.markdown(
                f"Scores fall in {st.session_state['curves_n_bins']} equal-width bins; a positive "
                "beats every negative of a lower bin and ties (1/2) those of its own bin. "
                f"Histogram AUC {fmt(four['histogram'])} against the exact "
                f"{fmt(four['exact'])}: error {four['histogram_error']:+.3e}. More bins, "
                "smaller error; it is exact once no bin mixes distinct positive and "
                "negative scores."
            )
            st.plotly_chart(
                cache.curves_histogram_figure(ds, model, int(st.session_state["curves_n_bins"])),
                key="curves_hist_chart",
            )

st.subheader("Average precision versus the area under the PR curve")
cols = st.columns(3)
cols[0].metric("AP (step sum)", fmt(cur["ap"]))
cols[1].metric("PR area (trapezoids)", fmt(cur["pr_trapezoid"]))
st.markdown(prose.section("curves", "ap_vs_pr_area"))

# ---- the ROC curve point by point (seed 002)
st.header("The ROC curve point by point")
state.bind_param("curves_drop_intermediate", "drop", False, lambda v: v.lower() == "true")
drop = st.toggle(
    "drop_intermediate (drop the collinear points of straight runs)", key="curves_drop_intermediate"
)
state.write_param("drop", drop)
steps, n_steps = cache.curves_threshold_head(ds, model, drop, _counts=counts)
st.markdown(
    prose.section("curves", "steps")
    + (" " + prose.section("curves", "steps_seed002") if ds.name == "seed002_roc6" else "")
)
st.caption(
    f"{n_steps:,} thresholds (the first, +inf, predicts nothing positive)."
    + (f" Showing the first {MAX_ROWS}; the CSV has all." if n_steps > MAX_ROWS else "")
)
_table(
    steps,
    "curves_steps_table",
    (
        "Download the threshold table (CSV)",
        _csv(page.threshold_table, ds, model, drop, _counts=counts),
        "roc_points.csv",
        "curves_dl_steps",
    ),
    width="stretch",
)

# ---- log loss and calibration
st.header("Log loss and calibration")
if ll_error:
    st.warning(f"Log loss and calibration need probabilities: {ll_error}")
else:
    st.latex(
        r"\text{Log loss} = -\frac{1}{N}\sum_i \big[y_i \log p_i + (1 - y_i)\log(1 - p_i)\big]"
        rf" = \frac{{{ll_sum:.4f}}}{{{n_total}}} = {fmt(ll)}"
    )
    st.caption(
        prose.section("curves", "log_loss")
        + (" " + prose.section("curves", "log_loss_weighted") if weighted else "")
    )
    _number("curves_calib_bins", "cbins", 10, 2, 50)
    c_cal, c_tab = st.columns([1.1, 1])
    with c_tab:
        st.slider("Calibration bins", min_value=2, max_value=50, key="curves_calib_bins")
        state.write_param("cbins", st.session_state["curves_calib_bins"])
        cal_bins = int(st.session_state["curves_calib_bins"])
        cal = cache.curves_calibration(ds, model, cal_bins)
        _table(
            cal,
            "curves_calib_table",
            ("Download the bins (CSV)", _csv(cal), "calibration.csv", "curves_dl_cal"),
        )
    with c_cal:
        st.plotly_chart(
            cache.curves_calibration_figure(ds, model, cal_bins, _bins=cal),
            key="curves_calib_chart",
        )
        st.caption(prose.section("curves", "calibration"))

# ---- 4. per-sample breakdown
st.header("Every sample")
worst = samples["worst"]
st.caption(
    f"{len(worst):,} samples, worst log-loss term first (click a column header to sort)."
    + (f" Showing the worst {MAX_ROWS}; the CSV has all." if len(worst) > MAX_ROWS else "")
)
_table(
    page.sample_rows(ds, samples, worst[:MAX_ROWS], t),
    "curves_sample_table",
    (
        "Download every sample (CSV)",
        _csv(page.sample_rows, ds, samples, worst, t),
        f"{ds.name}_{model}_samples.csv",
        "curves_dl_samples",
    ),
    width="stretch",
    column_config=ROW_COLUMNS,
)
