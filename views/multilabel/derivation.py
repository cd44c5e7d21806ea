"""How the Multilabel classification page's headline is computed (its first tab): every
formula with the live numbers, each ending in a headline number. The lines come from
:mod:`explorer.pages.multilabel_derivation`."""

from __future__ import annotations

import streamlit as st

from explorer.formatting import fmt
from explorer.pages import multilabel, multilabel_derivation
from explorer.ui import classroom
from explorer.ui.derivations import show as show_derivations
from explorer.ui.language import t
from views import prose
from views.multilabel.controls import Settings


def show(ds, settings: Settings, counts, res: dict) -> None:
    """The tab's body: the derivations of ``res`` (the summary of the setting whose
    prediction gave ``counts``); they wait for the Reveal."""
    st.subheader(t("How it is computed"))
    if classroom.derivations_hidden():  # the formulas end in the headline numbers
        return
    per_label = res["labels"].iloc[: res["n_labels"]]
    lines = multilabel_derivation.derivations(counts, per_label, res, settings.zd_key)
    _formulas(ds, res, settings.beta, lines)
    _strictness(ds, lines)


def _show(line) -> None:
    """One derivation (:class:`explorer.derivation.Derivation`): its line and caption
    (drawn after :func:`show` has checked they are not hidden)."""
    show_derivations([line], hidden_note=False)


def _formulas(ds, res: dict, beta: float, lines: dict) -> None:
    """Macro, micro, sample and weighted averages: each formula, then its numbers plugged
    in (``lines``: explorer.pages.multilabel_derivation.derivations), ending in the
    headline's digits; then when they disagree."""
    avg, L = res["averages"], res["n_labels"]
    per_label = res["labels"].iloc[:L]
    st.markdown(t("**Class-averaged (macro):** score each label, then take the plain mean."))
    st.latex(
        r"\text{C-P} = \frac{1}{L}\sum_{j=1}^{L}\frac{TP_j}{TP_j+FP_j},\quad"
        r"\text{C-R} = \frac{1}{L}\sum_{j=1}^{L}\frac{TP_j}{TP_j+FN_j},\quad"
        r"\text{C-F1} = \frac{1}{L}\sum_{j=1}^{L}F1_j"
    )
    for name in ("Macro P", "Macro R", "Macro F1"):
        _show(lines[name])
    st.markdown(t("**Overall (micro):** pool TP, FP, FN over all labels, then score once."))
    for name in ("Micro P", "Micro R", "Micro F1"):
        _show(lines[name])
    st.caption(prose.section("multilabel", "pooled_counts"))
    st.markdown(prose.section("multilabel", "sample_averaged"))
    st.latex(
        r"P_{\text{samples}} = \frac{1}{N}\sum_{i=1}^{N}\frac{|Y_i\cap\hat Y_i|}{|\hat Y_i|},"
        r"\quad R_{\text{samples}} = \frac{1}{N}\sum_{i=1}^{N}\frac{|Y_i\cap\hat Y_i|}{|Y_i|}"
    )
    for name in ("Samples P", "Samples R", "Samples F1"):
        _show(lines[name])
    st.markdown(t("**Weighted:** the class average, each label weighted by its support n_j."))
    st.latex(r"F1_{\text{weighted}} = \frac{\sum_{j} n_j\, F1_j}{\sum_j n_j}")
    _show(lines["Weighted F1"])
    st.latex(
        r"F_\beta = \frac{(1+\beta^2)\,TP}{(1+\beta^2)\,TP + \beta^2 FN + FP}"
        r" = \frac{(1+\beta^2)\,P\,R}{\beta^2 P + R}"
        rf"\qquad (\beta = {beta:g})"
    )
    rare = multilabel.rarest_label(per_label)
    st.markdown(
        prose.fill(
            "multilabel",
            "disagree",
            L=L,
            label=rare["label"],
            support=rare["support"],
            f1=fmt(rare["f1"]),
            macro_f1=fmt(avg["macro"]["f1"]),
            micro_f1=fmt(avg["micro"]["f1"]),
        )
    )


def _strictness(ds, lines: dict) -> None:
    """Hamming loss, subset accuracy and Jaccard with their numbers, from the strictest."""
    L = ds.n_labels
    st.markdown(t("**Hamming loss, subset accuracy, Jaccard**"))
    for name in ("Hamming loss", "Subset accuracy"):
        _show(lines[name])
    st.latex(
        r"\text{Jaccard}_{\text{samples}} = \frac{1}{N}\sum_i"
        r"\frac{|Y_i\cap\hat Y_i|}{|Y_i\cup\hat Y_i|}"
    )
    _show(lines["Jaccard (samples)"])
    weighted_note = (
        t(
            " With sample_weight, N is the total weight, the counts are weighted and each "
            "sample's term is multiplied by its weight."
        )
        if ds.sample_weight is not None
        else ""
    )
    if ds.retrieved is not None:  # ragged rows: each row has its own number of documents
        L = t("its documents")
        cells = t("all the rows' documents (a padding slot is no cell)")
    else:
        cells = t("N x L")
    st.caption(
        prose.fill("multilabel", "strictness", L=L, cells=cells, weighted_note=weighted_note)
    )
