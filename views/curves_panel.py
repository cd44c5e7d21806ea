"""The top panel of the ROC & PR curves page (views/curves.py), one st.fragment: the
threshold controls, the headline numbers, both curves with the operating point, the
confusion matrix (counts and rates), one button per "Optimize for" candidate, and the
tabs whose numbers follow the threshold (formulas, a cell's samples, the score strip,
every sample). Moving the threshold reruns this fragment only; its curves are drawn
once per dataset (:func:`explorer.cache.curves_bases`) with the markers as an overlay.

Layout only: the numbers come from :mod:`explorer.pages.curves` through
:mod:`explorer.cache`, the texts from views/text/curves.md."""

from __future__ import annotations

import streamlit as st

from explorer import cache, state
from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import curves as page
from explorer.pages.curves import MAX_ROWS, count_text
from views import curves_parts as parts
from views import prose
from views.curves_parts import csv, table, text

#: Per-sample tables: log-loss terms span 1e-16 to ~37, so 4 significant digits.
ROW_COLUMNS = {
    "log_loss_term": st.column_config.NumberColumn(
        "log_loss_term", format="%.4g", help="-log of the probability given to the true class"
    )
}
#: The confusion matrix's normalizations as the panel's radio names them.
NORM_SHORT = {"true": "by row", "pred": "by column", "all": "by all"}
#: The tabs below the panel whose numbers follow the threshold (key ``curves_t_tab``).
THRESHOLD_TABS = (
    "Formulas at the threshold",
    "Samples of a cell",
    "Along the score axis",
    "Every sample",
)
#: Smaller numbers in the confusion-matrix column, so four fit side by side.
STYLE = """<style>
.st-key-curves_cm_side [data-testid="stMetricValue"] { font-size: 1.15rem; }
.st-key-curves_cm_side [data-testid="stMetric"] { gap: 0; }
</style>"""


@st.fragment
def operating_panel(ds: Dataset, model: str, curves: dict, bases, log_loss: tuple) -> None:
    """The panel and the tabs that follow the threshold (see the module's docstring).

    ``curves``: :func:`~explorer.pages.curves.curves` of every model; ``bases``: the
    cached ROC and PR figures; ``log_loss``: (mean, total, error) of ``model``.
    """
    if st.session_state.get(parts.MODEL, model) != model:
        st.rerun(scope="app")  # a click on another model's curve selected that model
    st.html(STYLE)
    t, beta, axis = parts.threshold_controls(ds, model)
    _, goals = parts.goal_settings()
    rates = cache.curves_rates(ds, model, t, beta, _sorted=cache.curves_sorted_scores(ds, model))
    counts = cache.curves_counts(ds, model)
    optima = cache.curves_optima(ds, model, beta, *goals, _counts=counts)
    cur = curves[model]
    ll, _, ll_error = log_loss

    cols = st.columns(7)
    cols[0].metric("ROC AUC", fmt(cur["auc"]))
    cols[1].metric("Average precision", fmt(cur["ap"]))
    cols[2].metric(
        "Log loss",
        fmt(ll) if ll_error == "" else "n/a",
        help="Needs scores that are probabilities in [0, 1]." if ll_error else None,
    )
    labels = list(page.RATE_LABELS.items())
    for col, (label, name) in zip(cols[3:], labels[:4], strict=True):
        col.metric(label, fmt(rates[name]))

    figures = page.curve_figures(
        ds, model, t, beta, *goals, _bases=bases, _rates=rates, _optima=optima
    )
    c_roc, c_pr, c_side = st.columns([1, 1, 0.85])
    models = tuple(curves)
    for column, fig, key in zip(
        (c_roc, c_pr), figures, ("curves_roc_chart", "curves_pr_chart"), strict=True
    ):
        column.plotly_chart(
            fig,
            key=key,
            on_select=lambda key=key: parts.from_chart(key, models),
            selection_mode="points",
            width="stretch",
        )
    with c_side.container(key="curves_cm_side"):
        confusion_side(rates, labels[4:], beta)
    candidate_buttons(ds, model, optima, axis.hi)
    threshold_tabs(ds, model, t, rates)


def confusion_side(rates: dict, labels: list, beta: float) -> None:
    """The confusion matrix: its four counts, the table of counts and rates, how the
    rates are normalized (URL-bound), and the other rates."""
    for col, name in zip(st.columns(4), page.CELLS, strict=True):
        col.metric(name, count_text(rates[name.lower()]), help=charts.OUTCOME_NAMES[name])
    parts.choice("curves_cm_normalize", "norm", tuple(page.NORMALIZE), "true")
    norm = st.radio(
        "Rates in brackets",
        tuple(page.NORMALIZE),
        format_func=NORM_SHORT.get,
        key="curves_cm_normalize",
        horizontal=True,
        help=" · ".join(f"{NORM_SHORT[k]}: {v}" for k, v in page.NORMALIZE.items()),
    )
    state.write_param("norm", norm)
    _, _, cm_table = page.confusion(rates, norm)
    st.table(cm_table)
    cols = [c for _ in range(2) for c in st.columns(2)]
    for col, (label, name) in zip(cols, labels, strict=True):
        col.metric(label, fmt(rates[name]), help=f"β = {beta:g}" if name == "fbeta" else None)


def candidate_buttons(ds: Dataset, model: str, optima, hi: float) -> None:
    """One button per "Optimize for" goal: a click moves the threshold to the goal's
    best one. Each button shows the shape of the goal's marker on the curves."""
    marks = charts.candidate_marks(page.candidate_points(optima))
    glyph = {m["threshold"]: m["glyph"] for m in marks}
    top = float(ds.score(model).max())
    cols = st.columns([0.75, 1, 1, 1, 1, 1.15], vertical_alignment="center")
    cols[0].markdown("**Optimize for:**")
    for col, goal in zip(cols[1:], page.OPTIMIZERS, strict=True):
        threshold = float(optima.loc[goal, "threshold"])
        label, target = page.optimum_move(threshold, goal, hi, top)
        shown = "none" if target is None else ("+inf" if threshold > hi else f"{threshold:.3g}")
        col.button(
            f"{glyph.get(threshold, '')} {page.SHORT[goal]}: {shown}".strip(),
            key=f"curves_go_{goal}",
            on_click=parts.set_threshold,
            args=(target,),
            disabled=target is None,
            help=label,
            width="stretch",
        )


def threshold_tabs(ds: Dataset, model: str, t: float, rates: dict) -> None:
    """The tabs whose numbers follow the threshold: the formulas, the samples of a
    cell, the samples along the score axis, every sample."""
    weighted = ds.sample_weight is not None
    # lazy: only the open tab is drawn (and redrawn on a threshold step)
    parts.tab_choice("curves_t_tab", "ttab", THRESHOLD_TABS)
    tab_formulas, tab_cell, tab_strip, tab_all = st.tabs(
        list(THRESHOLD_TABS), key="curves_t_tab", on_change="rerun"
    )
    parts.write_tab("curves_t_tab", "ttab")  # a link opens this tab
    if tab_formulas.open:
        with tab_formulas:
            c1, c2 = st.columns(2)
            with c1:
                for name in ("precision", "recall", "f1", "fpr"):
                    st.latex(text(f"formula_{name}", **rates))
            with c2:
                for name in ("fbeta", "accuracy", "error_rate"):
                    st.latex(text(f"formula_{name}", **rates))
                st.caption(
                    "N = TP + FP + FN + TN"
                    + (" (total sample_weight)." if weighted else " (samples).")
                )
    # the per-sample orders (a sort of every sample) only for the tabs that list samples
    samples = cache.curves_samples(ds, model) if not tab_formulas.open else None
    if tab_cell.open:
        with tab_cell:
            cell_list(ds, samples, t, rates)
    if tab_strip.open:
        with tab_strip:
            strip = cache.curves_strip_figure(ds, model, t, _samples=samples)
            st.plotly_chart(strip, key="curves_strip_chart")
            st.caption(
                prose.section("curves", "strip")
                if ds.n_samples <= page.STRIP_MARKERS
                else f"{ds.n_samples:,} samples are too many markers: stacked histograms per "
                "outcome."
            )
    if tab_all.open:
        with tab_all:
            worst = samples["worst"]
            st.caption(
                f"{len(worst):,} samples, worst log-loss term first (click a column header to "
                "sort)."
                + (
                    f" Showing the worst {MAX_ROWS}; the CSV has all."
                    if len(worst) > MAX_ROWS
                    else ""
                )
            )
            download = (
                "Download every sample (CSV)",
                csv(page.sample_rows, ds, samples, worst, t),
            )
            table(
                page.sample_rows(ds, samples, worst[:MAX_ROWS], t),
                "curves_sample_table",
                (*download, f"{ds.name}_{model}_samples.csv", "curves_dl_samples"),
                width="stretch",
                column_config=ROW_COLUMNS,
            )


def cell_list(ds: Dataset, samples: dict, t: float, rates: dict) -> None:
    """The confusion matrix as a clickable heatmap, and the samples of the cell picked."""
    norm = st.session_state.get("curves_cm_normalize", "true")
    cm_counts, cm_rates, _ = page.confusion(rates, norm)
    c_cm, c_list = st.columns([1, 1.6])
    with c_cm:
        st.plotly_chart(
            charts.confusion_figure(cm_counts, cm_rates, norm),
            key="curves_cm_chart",
            on_select=parts.on_cell_click,
            selection_mode="points",
        )
        st.caption("Click a cell to list its samples.")
    with c_list:
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
        download = (
            f"Download the {cell} samples (CSV)",
            csv(page.sample_rows, ds, samples, in_cell, t),
        )
        table(
            page.sample_rows(ds, samples, in_cell[:MAX_ROWS], t),
            "curves_cell_table",
            (*download, f"{cell}.csv", "curves_dl_cell"),
            width="stretch",
            column_config=ROW_COLUMNS,
        )
