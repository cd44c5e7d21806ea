"""The headline of the Multiclass classification page: eight numbers in two rows, and
what the data leave undefined."""

from __future__ import annotations

import math

import streamlit as st

from explorer.formatting import fmt, literal
from explorer.ui import cache, classroom, widgets
from views.multiclass.controls import Settings
from views.multiclass.formats import text


def shown(x) -> str:
    """A headline value, or "n/a" when valid data leave it undefined (0/0)."""
    return "n/a" if x is None or math.isnan(x) else fmt(x)


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
            f"Top-{k} accuracy",
            res["top_k"],
            f"The share of samples whose true class is among their {k} most probable.",
        ),
        ("Macro ROC AUC (OvR)", res["auc"]["macro"], "The mean of the K one-vs-rest ROC AUCs."),
    )


def show(ds, settings: Settings, res: dict) -> None:
    """The eight numbers (with their 95% intervals when on), the reveal button, what
    they are computed on, and a note for each number the data leave undefined."""
    model, k = settings.model, settings.k
    ci = classroom.intervals(cache.multiclass.intervals, ds, model, k)
    rows = numbers(res, k)
    labels = [label for label, _, _ in rows]
    cols = [*widgets.label_columns(labels[:4]), *widgets.label_columns(labels[4:])]
    for col, (label, value, what) in zip(cols, rows, strict=True):
        interval = None if shown(value) == "n/a" else ci.get(label)
        classroom.headline(col, label, shown(value), interval=interval, help=what)
    classroom.reveal_button()
    st.caption(
        f"Model **{literal(model)}**, {ds.n_samples:,} samples, {ds.n_labels} classes; "
        "predicted class = the highest probability"
        + ("; weighted by sample_weight." if ds.sample_weight is not None else ".")
    )
    if res["not_proba"]:
        st.info(text("not_proba", why=res["not_proba"]), icon=":material/info:")
    if math.isnan(res["kappa"]):
        st.info(text("kappa_undefined"), icon=":material/info:")
    if res["auc_missing"]:
        st.info(text("auc_missing", classes=", ".join(res["auc_missing"])), icon=":material/info:")
