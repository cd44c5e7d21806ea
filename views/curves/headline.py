"""The headline numbers of the ROC & PR curves page: ROC AUC, average precision, log
loss and the rates at the threshold, then the confusion matrix's counts, its table of
counts and rates, and the other rates (each with its interval when intervals are on).
Layout only: the numbers come from :mod:`explorer.pages.curves` through
:mod:`explorer.ui.cache`."""

from __future__ import annotations

import streamlit as st

from explorer.charts import curves as charts
from explorer.datasets import Dataset
from explorer.formatting import count, fmt, literal
from explorer.pages import curves, curves_inverted
from explorer.ui import classroom, sidebar
from explorer.ui.language import t
from views.curves import controls
from views.curves.parts import text

#: The page's room on one screen (1280 x 720 at 150%: 853 x 480 CSS px): less space
#: above the title, a smaller title, the headline numbers closer together; smaller
#: numbers in the server's confusion-matrix column (a range no float slider spans).
STYLE = """<style>
.stMain .block-container { padding-top: 3.6rem; }
.stMain h1 { font-size: 2rem; padding: 0 0 0.25rem; }
.st-key-curves_headline [data-testid="stMetricValue"],
.st-key-curves_headline [data-testid="stMetricValue"] [data-testid="stMarkdownContainer"] p {
  font-size: clamp(1.4rem, 2.4vw, 2.25rem) !important; line-height: 1.15; }
.st-key-curves_headline [data-testid="stMetricLabel"] p { line-height: 1.2 !important; }
.st-key-curves_cm_side [data-testid="stMetricValue"] { font-size: 1.15rem; }
.st-key-curves_cm_side [data-testid="stMetric"] { gap: 0; }
</style>"""
#: The rates of the headline row, then those beside the confusion matrix: (label, name).
LABELS = list(curves.RATE_LABELS.items())


def show(cur: dict, log_loss: tuple, rates: dict, ci: dict) -> None:
    """The headline row: ROC AUC and average precision of ``cur`` (the model's
    :func:`~explorer.pages.curves.curves`), the log loss (mean, total, error), and the
    first four rates at the threshold; ``ci``: the intervals by label."""
    ll, _, ll_error = log_loss
    # "Average precision" on one line at 853 px: its column wider, the gaps narrow
    widths = [1, 1.5, 1, 1, 1, 1, 1]
    cols = st.container(key="curves_headline").columns(widths, gap="xsmall")
    classroom.headline(cols[0], "ROC AUC", fmt(cur["auc"]), interval=ci.get("ROC AUC"))
    classroom.headline(
        cols[1], t("Average precision"), fmt(cur["ap"]), interval=ci.get("Average precision")
    )
    classroom.headline(
        cols[2],
        t("Log loss"),
        fmt(ll) if ll_error == "" else "n/a",
        interval=None if ll_error else ci.get("Log loss"),
        help=t("Needs scores that are probabilities in [0, 1].") if ll_error else None,
    )
    for col, (label, name) in zip(cols[3:], LABELS[:4], strict=True):
        classroom.headline(col, t(label), fmt(rates[name]), interval=ci.get(label))


def confusion_side(rates: dict, beta: float, ci: dict) -> None:
    """The server's confusion matrix, on a range no float slider spans (the component's
    is the page's only one elsewhere): its four counts, the table of counts and rates,
    how the rates are normalized (URL-bound), and the other rates, one below the other."""
    c_counts, c_table, c_rates = st, st, st
    for col, name in zip(c_counts.columns(4, gap="xsmall"), curves.CELLS, strict=True):
        classroom.headline(
            col,
            name,
            count(rates[name.lower()], grouped=False),
            help=t(charts.OUTCOME_NAMES[name]),
        )
    norm = controls.norm(c_table)
    _, _, cm_table = curves.confusion(rates, norm)
    if not classroom.held_back("The counts and rates of each cell", c_table):
        c_table.table(cm_table.rename(index=t, columns=t))  # "actual 1", "predicted 0"
    cols = c_rates.columns(4, gap="xsmall")
    for col, (label, name) in zip(cols, LABELS[4:], strict=True):
        classroom.headline(
            col,
            t(label),
            fmt(rates[name]),
            interval=ci.get(label),
            help=f"β = {beta:g}" if name == "fbeta" else None,
        )


def inverted_notice(ds: Dataset, auc: float) -> None:
    """One line under the title when the scores rank the other text class first
    (:func:`explorer.pages.curves_inverted.looks_inverted`): what it looks like, the
    rule, and the flip in one click (the sidebar's "Positive class" box follows).
    Held back while "Predict, then reveal" hides the numbers: it tells AUC < 0.5."""
    if len(ds.label_names) != 2 or not classroom.numbers_shown():
        return
    if not curves_inverted.looks_inverted(ds.y_true, auc):
        return
    other, positive = (literal(n) for n in ds.label_names)
    c_text, c_button = st.columns([5, 2], vertical_alignment="center")
    c_text.warning(
        text("inverted", positive=positive, other=other),
        icon=":material/swap_vert:",
    )
    c_button.button(
        t("Make ${other} the positive class", other=other),
        key="curves_flip_positive",
        on_click=sidebar.flip_positive_class,
        width="stretch",
        help=t(
            "Offered on ${rule}. The scores stay; they are read as the probability of ${other}.",
            rule=t(curves_inverted.RULE),
            other=other,
        ),
    )
