"""The top panel of the ROC & PR curves page (views/curves.py), one st.fragment: the
threshold controls, the headline numbers, both curves with the operating point, the
confusion matrix (counts and rates), one button per "Optimize for" candidate, and the
tabs whose numbers follow the threshold (:mod:`views.curves_tabs`).

The slider, both curves and the confusion matrix are one component
(:mod:`views.operating_point`) that moves the operating point in the browser; on
release the threshold reaches the server and this fragment reruns alone. On a range
no float slider spans, the panel steps through the distinct scores with a Streamlit
slider and draws plotly curves (cached per dataset,
:func:`explorer.ui.cache.curves.bases`, with the markers as an overlay).

Layout only: the numbers come from :mod:`explorer.pages.curves` through
:mod:`explorer.ui.cache`, the texts from views/curves/text.md."""

from __future__ import annotations

import streamlit as st

from explorer.charts import curves as charts
from explorer.charts import operating_point as op_charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.pages import curves as page
from explorer.pages.curves import count_text
from explorer.ui import cache, classroom, sidebar, url
from views.curves import operating_point as op
from views.curves import parts, tabs

#: The confusion matrix's normalizations as the panel's radio names them.
NORM_SHORT = {"true": "by row", "pred": "by column", "all": "by all"}
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
    classroom.track_view()  # a threshold moved here hides revealed numbers again
    t, beta, axis = parts.threshold_controls(ds, model)
    _, goals = parts.goal_settings()
    rates = cache.curves.rates(ds, model, t, beta, _sorted=cache.curves.sorted_scores(ds, model))
    counts = cache.curves.counts(ds, model)
    optima = cache.curves.optima(ds, model, beta, *goals, _counts=counts)
    cur = curves[model]
    ll, _, ll_error = log_loss

    ci = cache.curves.intervals(ds, model, t, beta) if classroom.intervals_on() else {}
    cols = st.columns(7)
    classroom.headline(cols[0], "ROC AUC", fmt(cur["auc"]), interval=ci.get("ROC AUC"))
    classroom.headline(
        cols[1], "Average precision", fmt(cur["ap"]), interval=ci.get("Average precision")
    )
    classroom.headline(
        cols[2],
        "Log loss",
        fmt(ll) if ll_error == "" else "n/a",
        interval=None if ll_error else ci.get("Log loss"),
        help="Needs scores that are probabilities in [0, 1]." if ll_error else None,
    )
    labels = list(page.RATE_LABELS.items())
    for col, (label, name) in zip(cols[3:], labels[:4], strict=True):
        classroom.headline(col, label, fmt(rates[name]), interval=ci.get(label))
    classroom.reveal_button()

    models = tuple(curves)
    if axis.stops is None:
        norm = parts.choice("curves_cm_normalize", "norm", tuple(page.NORMALIZE), "true")
        data = {
            **cache.curves.operating_data(ds, model, _curves=curves, _counts=counts, _axis=axis),
            **page.operating_settings(t, beta, rates, optima, norm),
            "hidden": not classroom.numbers_shown(),
            "predict": classroom.predict_mode(),
            "present": sidebar.presentation_mode(),
        }
        op.operating_point(data, parts.from_component, lambda: parts.from_pick(models))
        candidate_buttons(ds, model, optima, axis.hi)
        with st.container(key="curves_cm_side"):
            c_counts, c_rates, c_table = st.columns([1, 1, 0.85])
            confusion_side(rates, labels[4:], beta, ci, (c_counts, c_table, c_rates))
    else:
        c_roc, c_pr, c_side = st.columns([1, 1, 0.85])
        plotly_curves(ds, model, t, beta, goals, (bases, rates, optima), (c_roc, c_pr, models))
        with c_side.container(key="curves_cm_side"):
            confusion_side(rates, labels[4:], beta, ci)
        candidate_buttons(ds, model, optima, axis.hi)
    tabs.threshold_tabs(ds, model, t, beta, rates)


def drawn_vertices(ds: Dataset, model: str, curves: dict) -> tuple[dict, int]:
    """The vertices drawn of each model's ROC and PR curve, by model, and the most drawn
    per curve: the component's (:mod:`explorer.charts.operating_point`) on a range a
    float slider spans, else the plotly figures' (those of ``curves``)."""
    if cache.curves.threshold_axis(ds, model).stops is None:
        lines = cache.curves.operating_data(ds, model, _curves=curves)["lines"]
        shown = {
            m: (len(li["roc"]["x"]), len(li["pr"]["x"]))
            for m, li in zip(curves, lines, strict=True)
        }
        return shown, op_charts.MAX_DRAWN
    return {m: (len(c["fpr"]), len(c["recall"])) for m, c in curves.items()}, page.MAX_POINTS


def plotly_curves(ds: Dataset, model: str, t, beta, goals, held: tuple, where: tuple) -> None:
    """The ROC and PR plotly figures with the operating point (the index slider's
    path); ``held``: the bases, rates and optima already at hand; ``where``: the two
    columns, and the models (a click on a model's curve selects it)."""
    bases, rates, optima = held
    c_roc, c_pr, models = where
    figures = page.curve_figures(
        ds, model, t, beta, *goals, _bases=bases, _rates=rates, _optima=optima
    )
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


def confusion_side(rates: dict, labels: list, beta: float, ci: dict, where=None) -> None:
    """The confusion matrix: its four counts, the table of counts and rates, how the
    rates are normalized (URL-bound), and the other rates; ``where``: the containers
    of the counts, the table and the rates (by default, one below the other)."""
    c_counts, c_table, c_rates = where or (st, st, st)
    for col, name in zip(c_counts.columns(4, gap="xsmall"), page.CELLS, strict=True):
        classroom.headline(
            col, name, count_text(rates[name.lower()]), help=charts.OUTCOME_NAMES[name]
        )
    parts.choice("curves_cm_normalize", "norm", tuple(page.NORMALIZE), "true")
    norm = c_table.radio(
        "Rates in brackets",
        tuple(page.NORMALIZE),
        format_func=NORM_SHORT.get,
        key="curves_cm_normalize",
        horizontal=True,
        help=" · ".join(f"{NORM_SHORT[k]}: {v}" for k, v in page.NORMALIZE.items()),
    )
    url.write_param("norm", norm)
    _, _, cm_table = page.confusion(rates, norm)
    c_table.table(cm_table)
    cols = c_rates.columns(4, gap="xsmall")
    for col, (label, name) in zip(cols, labels, strict=True):
        classroom.headline(
            col,
            label,
            fmt(rates[name]),
            interval=ci.get(label),
            help=f"β = {beta:g}" if name == "fbeta" else None,
        )


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
