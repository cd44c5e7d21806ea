"""The headline of the Multiclass classification page: eight numbers in two rows, and
what the data leave undefined."""

from __future__ import annotations

import math

import streamlit as st

from explorer.formatting import headline_value, literal
from explorer.i18n import Phrase
from explorer.ui import cache, classroom, widgets
from explorer.ui.language import t
from views.multiclass.controls import Settings
from views.multiclass.formats import text


def numbers(res: dict, k: int) -> tuple[tuple[str, float, str], ...]:
    """The headline: (label, value, what it is), in two rows of four."""
    return (
        ("Accuracy", res["accuracy"], "The share of samples predicted right."),
        (
            "Balanced accuracy",
            res["balanced"],
            "The mean of the per-class recalls: every class counts the same.",
        ),
        ("Macro F1", res["macro_f1"], "The mean of the per-class F1 scores."),
        ("MCC", res["mcc"], "Matthews correlation: 1 perfect, 0 chance, -1 inverted."),
        ("Cohen's kappa", res["kappa"], "Agreement beyond chance: (p_o - p_e) / (1 - p_e)."),
        ("Log loss", res["log_loss"], "The mean of -log p(true class). Lower is better."),
        (
            Phrase("Top-${k} accuracy", k=k),
            res["top_k"],
            Phrase("The share of samples whose true class is among their ${k} most probable.", k=k),
        ),
        ("Macro ROC AUC (OvR)", res["auc"]["macro"], "The mean of the K one-vs-rest ROC AUCs."),
    )


def show(ds, settings: Settings, res: dict) -> None:
    """The eight numbers (with their 95% intervals when on), the reveal button, what
    they are computed on, and a note for each number the data leave undefined."""
    model, k = settings.model, settings.k
    ci = classroom.intervals(cache.multiclass.intervals, ds, model, k)
    rows = numbers(res, k)
    labels = [t(label) for label, _, _ in rows]
    cols = [*widgets.label_columns(labels[:4]), *widgets.label_columns(labels[4:])]
    for col, shown_label, (label, value, what) in zip(cols, labels, rows, strict=True):
        interval = None if headline_value(value) == "n/a" else ci.get(label)
        classroom.headline(col, shown_label, headline_value(value), interval=interval, help=t(what))
    classroom.reveal_button()
    fields = {"model": literal(model), "n": ds.n_samples, "k": ds.n_labels}
    if ds.sample_weight is not None:
        template = (
            "Model **${model}**, ${n:,} samples, ${k} classes; predicted class = the highest "
            "probability; weighted by sample_weight."
        )
    else:
        template = (
            "Model **${model}**, ${n:,} samples, ${k} classes; predicted class = the highest "
            "probability."
        )
    st.caption(t(template, **fields))
    if res["not_proba"]:
        st.info(text("not_proba", why=t(res["not_proba"])), icon=":material/info:")
    if math.isnan(res["kappa"]):
        st.info(text("kappa_undefined"), icon=":material/info:")
    if res["auc_missing"]:
        st.info(text("auc_missing", classes=", ".join(res["auc_missing"])), icon=":material/info:")
