"""The top panel of the ROC & PR curves page, one st.fragment: the headline numbers,
then the lesson on one screen, then the number box, β, one button per "Optimize for"
candidate and the matrix's normalization, and the tabs whose numbers follow the
threshold (:mod:`views.curves.tabs`).

The slider, the score distribution by class, both curves and the confusion matrix
with its rates are one component (:mod:`views.curves.operating_point`) that moves the
operating point in the browser; on release the threshold reaches the server and this
fragment reruns alone. It is the page's only confusion matrix (the server's copies,
counts as headlines and a table of counts and rates, showed the same four numbers
twice more). On a range no float slider spans, the panel steps through the distinct
scores with a Streamlit slider and draws plotly curves (cached per dataset,
:func:`explorer.ui.cache.curves.bases`, with the markers as an overlay) and the
server's matrix.

Layout only: the numbers come from :mod:`explorer.pages.curves` through
:mod:`explorer.ui.cache`, the texts from views/curves/text.md."""

from __future__ import annotations

import streamlit as st

from explorer.charts import operating_point as op_charts
from explorer.datasets import Dataset
from explorer.pages import curves
from explorer.ui import cache, classroom, report, sidebar, widgets
from explorer.ui.language import t as tr
from views.curves import controls, headline, tabs, workbench
from views.curves import operating_point as op


@st.fragment
def operating_panel(ds: Dataset, model: str, by_model: dict, log_loss: tuple) -> None:
    """The panel and the tabs that follow the threshold (see the module's docstring).

    ``by_model``: :func:`~explorer.pages.curves.curves` of every model;
    ``log_loss``: (mean, total, error) of ``model``.
    """
    if st.session_state.get(controls.MODEL, model) != model:
        st.rerun(scope="app")  # a click on another model's curve selected that model
    st.html(headline.STYLE)
    shown = classroom.numbers_shown()
    classroom.track_view()  # a threshold moved here hides revealed numbers again
    if shown and not classroom.numbers_shown():
        st.rerun(scope="app")  # the Reveal button beside the title, outside this panel
    # the lesson on one screen: the headline, then the component; the number box, β
    # and the buttons below it (on a range no float slider spans, the index slider
    # and the number box stay above the plotly curves)
    top, main, below = st.container(), st.container(), st.container()
    in_browser = cache.curves.threshold_axis(ds, model).stops is None
    with below if in_browser else main:
        settings = controls.show(ds, model)
    t, beta = settings.t, settings.beta
    rates = cache.curves.rates(ds, model, t, beta)
    optima = cache.curves.optima(ds, model, beta, *settings.goals)
    ci = classroom.intervals(cache.curves.intervals, ds, model, t, beta)
    with top:
        headline.show(by_model[model], log_loss, rates, ci)

    models = tuple(by_model)
    if in_browser:
        data = cache.curves.operating_data(ds, model)
        if not classroom.numbers_shown():  # each curve's AUC and AP stay out of the page
            data = {**data, "lines": [{**ln, "auc": "?", "ap": "?"} for ln in data["lines"]]}
        per_run = curves.operating_settings(t, beta, rates, optima, controls.seeded_norm())
        marks = [{**m, "label": tr(m["label"])} for m in per_run["candidates"]]
        data = {
            **data,
            **per_run,
            "candidates": marks,
            "candidates_id": repr([(m["label"], m["t"]) for m in marks]),
            "norm_text": tr(per_run["norm_text"]),
            "hidden": not classroom.numbers_shown(),
            "predict": classroom.predict_mode(),
            "present": sidebar.presentation_mode(),
        }
        with main:
            op.operating_point(data, controls.from_component, lambda: controls.from_pick(models))
        if classroom.numbers_shown():  # the component's curves, for "Download this view"
            bases = cache.curves.bases(ds)
            for i, title in enumerate(("ROC curve", "Precision-recall curve")):

                def figure(i=i):  # made only when the view is downloaded
                    return curves.curve_figures(bases, t, rates, optima)[i]

                report.plotly(figure, f"curves_component_{i}", tr(title))
        with below:
            # the component's matrix is the page's one: the radio sets its brackets
            controls.candidate_buttons(ds, model, optima, settings.axis.hi)
            workbench.solver(ds, model)
            controls.norm(st)
    else:
        with main:
            c_roc, c_pr, c_side = st.columns([1, 1, 0.85])
            figures = curves.curve_figures(cache.curves.bases(ds), t, rates, optima)
            plotly_curves(figures, (c_roc, c_pr), models)
            with c_side.container(key="curves_cm_side"):
                headline.confusion_side(rates, beta, ci)
            controls.candidate_buttons(ds, model, optima, settings.axis.hi)
            workbench.solver(ds, model)
    if not classroom.held_back("Formulas, derivations and the samples of a cell"):
        tabs.threshold_tabs(ds, model, t, beta, rates)


def drawn_vertices(ds: Dataset, model: str, by_model: dict) -> tuple[dict, int]:
    """The vertices drawn of each model's ROC and PR curve, by model, and the most drawn
    per curve: the component's (:mod:`explorer.charts.operating_point`) on a range a
    float slider spans, else the plotly figures' (those of ``by_model``)."""
    if cache.curves.threshold_axis(ds, model).stops is None:
        lines = cache.curves.operating_data(ds, model)["lines"]
        shown = {
            m: (len(li["roc"]["x"]), len(li["pr"]["x"]))
            for m, li in zip(by_model, lines, strict=True)
        }
        return shown, op_charts.MAX_DRAWN
    shown = {m: (len(c["fpr"]), len(c["recall"])) for m, c in by_model.items()}
    return shown, curves.MAX_POINTS


def plotly_curves(figures: tuple, where: tuple, models: tuple[str, ...]) -> None:
    """The ROC and PR plotly figures with the operating point (the index slider's
    path) in the two columns ``where``; a click on a model's curve selects it."""
    for column, fig, key in zip(
        where, figures, ("curves_roc_chart", "curves_pr_chart"), strict=True
    ):
        widgets.plotly_chart(
            column,
            fig,
            key=key,
            on_select=lambda key=key: controls.from_chart(key, models),
            keyboard='the "Model" box and the "Threshold (exact)" box',
            selection_mode="points",
            width="stretch",
        )
