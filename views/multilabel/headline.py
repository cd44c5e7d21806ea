"""The Multilabel classification page's headline: the five numbers, what they were
computed from, and where zero_division decides."""

from __future__ import annotations

import streamlit as st

from explorer.formatting import fmt, literal
from explorer.pages import multilabel
from explorer.ui import cache, classroom, widgets
from explorer.ui.language import t
from views import prose
from views.multilabel.controls import ZERO_DIVISION, Settings

HELP = {
    "Hamming loss": "The share of the N x L cells (sample, label) that are wrong. Lower is better.",
    "Subset accuracy": "The share of samples whose whole predicted label set is exactly right.",
    "Micro F1": "O-F1: F1 of the counts pooled over all labels (average='micro').",
    "Macro F1": "C-F1: the mean of the per-label F1 scores (average='macro').",
    "Jaccard (samples)": "|true ∩ predicted| / |true ∪ predicted| per sample, averaged "
    "(average='samples').",
}
#: What a 0/0 becomes under each zero_division choice, as the notes say it.
ZD_SHOWN = {"warn": "0", "0": "0", "1": "1", "nan": "NaN (left out)"}


def show(ds, settings: Settings, res: dict) -> None:
    """The five headline numbers (with their intervals when asked), the Reveal button,
    the caption and the zero_division notes."""
    avg = res["averages"]
    numbers = {
        "Hamming loss": res["hamming"],
        "Subset accuracy": res["subset"],
        "Micro F1": avg["micro"]["f1"],
        "Macro F1": avg["macro"]["f1"],
        "Jaccard (samples)": avg["samples"]["jaccard"],
    }
    ci = classroom.intervals(cache.multilabel.intervals, ds, *settings.setting, settings.zd_key)
    # two rows, each column as wide as its label: five equal columns broke "Subset
    # accuracy" over two lines at 853 px (1280x720 at 150%)
    labels = [t(label) for label in numbers]
    cols = [*widgets.label_columns(labels[:2]), *widgets.label_columns(labels[2:])]
    for col, (label, value) in zip(cols, numbers.items(), strict=True):
        classroom.headline(col, t(label), fmt(value), interval=ci.get(label), help=t(HELP[label]))
    classroom.reveal_button()
    st.caption(
        t(
            "Model **${model}**, ${n} samples x ${labels} labels, predicted when ${rule}; "
            "zero_division = ${zd}",
            model=literal(settings.model),
            n=ds.n_samples,
            labels=res["n_labels"],
            rule=settings.rule_text,
            zd=t(ZERO_DIVISION[settings.zd_key]),
        )
        + (t("; weighted by sample_weight.") if ds.sample_weight is not None else t("."))
    )
    zero_division_notes(res["labels"].iloc[: res["n_labels"]], res, settings.zd_key)


def zero_division_notes(per_label, res: dict, zd_key: str) -> None:
    """Where zero_division applies: the empty labels and samples, or that it changes nothing."""
    no_pred, no_sup = multilabel.empty_labels(per_label)
    rows_no_pred, rows_no_true = res["rows_no_pred"], res["rows_no_true"]
    zd_shown = t(ZD_SHOWN[zd_key])
    notes = []
    if no_pred:
        notes.append(
            t(
                "label(s) **${labels}** are never predicted: their precision is 0/0 = ${zd}",
                labels=literal(", ".join(no_pred)),
                zd=zd_shown,
            )
        )
    if no_sup:
        notes.append(
            t(
                "label(s) **${labels}** never occur: their recall is 0/0 = ${zd}",
                labels=literal(", ".join(no_sup)),
                zd=zd_shown,
            )
        )
    if rows_no_pred:
        notes.append(
            t(
                "${n} sample(s) have an empty predicted set: sample precision 0/0 = ${zd}",
                n=rows_no_pred,
                zd=zd_shown,
            )
        )
    if rows_no_true:
        notes.append(
            t(
                "${n} sample(s) have no true label: sample recall 0/0 = ${zd}",
                n=rows_no_true,
                zd=zd_shown,
            )
        )
    if notes:
        notes_text = t("; ").join(notes)
        st.info(prose.fill("multilabel", "zero_division_decides", notes=notes_text))
    else:
        st.caption(prose.section("multilabel", "zero_division_idle"))
