"""How the Multiclass classification page's numbers are computed: the per-class table,
then every headline number's derivation with its numbers, and the one-vs-one pairs.

Layout only: the lines come from :mod:`explorer.pages.multiclass_derivation` through
:mod:`explorer.ui.cache`.
"""

from __future__ import annotations

import streamlit as st

from explorer import downloads
from explorer.formatting import fmt, in_latex, latex_text, short
from explorer.pages import multiclass
from explorer.ui import cache, classroom, widgets
from explorer.ui.derivations import show as show_derivations
from explorer.ui.language import t
from views.multiclass.controls import Settings
from views.multiclass.formats import four_decimals, text


def show(ds, settings: Settings, res: dict, average: str, j: int) -> None:
    """The per-class table and every headline's derivation (class ``j``'s F1 written
    out), unless the derivations are hidden until Reveal."""
    st.subheader(t("How it is computed"))
    table = res["classes"]
    cfg = four_decimals(("precision", "recall", "f1", "roc_auc", "ap"))
    on_screen = multiclass.for_screen(table)
    cfg = widgets.worded(on_screen.columns, cfg, classes=True)
    widgets.dataframe(st, on_screen, hide_index=True, width="stretch", column_config=cfg)
    st.download_button(
        t("Per-class table as CSV"),
        downloads.csv_text(table),
        file_name=f"{ds.name}.multiclass.classes.csv",
        key="mc_download_classes",
    )
    if classroom.derivations_hidden():
        return
    lines = cache.multiclass.derivations(ds, settings.model, settings.k, average)
    _classification(lines, table.iloc[j])
    st.markdown(text("log_loss"))
    if "Log loss" in lines:
        _draw(lines, "Log loss")
    else:
        st.caption(text("not_proba", why=t(res["not_proba"])))
    st.markdown(text("top_k"))
    _draw(lines, "Top-k accuracy")
    st.markdown(t("**Macro ROC AUC (one-vs-rest)**: the mean of the per-class AUCs above."))
    _draw(lines, "Macro ROC AUC (OvR)")
    st.markdown(
        t(
            "**The ${average} average** (${what}):",
            average=average,
            what=t(multiclass.AVERAGES[average]),
        )
    )
    if average != "macro":  # the macro ROC AUC is the line above
        _draw(lines, "ROC AUC (average)")
    _draw(lines, "AP (average)")
    _one_vs_one(res, lines)


def _classification(lines: dict, row) -> None:
    """Accuracy, balanced accuracy, macro F1 (with ``row``'s class F1), MCC and kappa."""
    _draw(lines, "Accuracy")
    st.markdown(text("balanced"))
    _draw(lines, "Balanced accuracy")
    st.markdown(text("macro_f1"))
    tp, fp, fn = (in_latex(short(row[c], grouped=True)) for c in ("tp", "fp", "fn"))
    st.latex(
        rf"F1_{{\text{{{latex_text(row['class'])}}}}} = "
        rf"\frac{{2 \cdot {tp}}}{{2 \cdot {tp} + {fp} + {fn}}} = {fmt(row['f1'])}"
    )
    _draw(lines, "Macro F1")
    st.markdown(text("mcc"))
    _draw(lines, "MCC")
    st.markdown(text("kappa"))
    _draw(lines, "p_o", "p_e", "Cohen's kappa")


def _one_vs_one(res: dict, lines: dict) -> None:
    st.markdown(text("ovo"))
    pairs = res["ovo"]
    if pairs is None:
        st.caption(text("ovo_weighted"))
        return
    if pairs.empty:
        st.caption(t("y_true holds one class only: there is no pair of classes."))
        return
    cfg = four_decimals(("auc_a_vs_b", "auc_b_vs_a", "mean", "prevalence"))
    height = "auto" if len(pairs) <= 8 else 320
    cfg = widgets.worded(pairs.columns, cfg, classes=True)
    widgets.dataframe(st, pairs, hide_index=True, width="stretch", height=height, column_config=cfg)
    _draw(lines, "OvO AUC")
    w = multiclass.ovo_averages(pairs)["weighted"]
    st.caption(
        t(
            "Weighted by each pair's prevalence (scikit-learn's average='weighted'): ${w}.",
            w=fmt(w),
        )
    )


def _draw(lines: dict, *names: str) -> None:
    """The derivations ``names`` of ``lines``, each its line and caption (drawn after
    :func:`show` has checked they are not hidden)."""
    show_derivations([lines[name] for name in names], hidden_note=False)
