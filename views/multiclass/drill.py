"""The selected parts of the Multiclass classification page: the confusion matrix and
its chosen cell's samples, the chosen class against the rest, and one sample.

Layout only: the numbers come from :mod:`explorer.pages.multiclass` through
:mod:`explorer.ui.cache`.
"""

from __future__ import annotations

import math

import streamlit as st

from explorer.charts import multiclass as charts
from explorer.formatting import fmt, latex_text, literal, short
from explorer.pages import multiclass, multiclass_derivation
from explorer.ui import cache, language, widgets
from explorer.ui.derivations import show as show_derivations
from explorer.ui.language import t
from views.multiclass import controls
from views.multiclass.controls import Settings
from views.multiclass.formats import FOUR, four_decimals, text


def on_cell_click(names) -> None:
    """A click on the confusion matrix picks its cell (the select boxes follow)."""
    cell = charts.cell_from_selection(st.session_state.get("mc_cm_chart"), names)
    if cell is not None:
        st.session_state["mc_cell_true"], st.session_state["mc_cell_pred"] = cell


def confusion(ds, settings: Settings, res: dict) -> None:
    """The confusion matrix, its cell picker and the samples of the picked cell."""
    st.subheader(t("Confusion matrix"))
    names = list(ds.label_names)
    c_cm, c_cell = st.columns([3, 2])
    with c_cell:
        st.caption(text("confusion"))
        a, b = controls.cell(st, names, multiclass.worst_cell(res["cm"]))
    with c_cm:
        table = multiclass.confusion_table(res["cm"], names, settings.norm)
        widgets.plotly_chart(
            st,
            charts.confusion_figure(
                table, counts=settings.norm == "none", selected=(a, b), lang=language.current()
            ),
            key="mc_cm_chart",
            on_select=lambda: on_cell_click(names),
            keyboard=t('the "True class" and "Predicted class" boxes'),
            selection_mode="points",
        )
    with c_cell:
        cell(ds, settings.model, res, names.index(a), names.index(b))


def cell(ds, model: str, res: dict, a: int, b: int) -> None:
    """The samples of one confusion-matrix cell: true class ``a``, predicted ``b``."""
    names = ds.label_names
    n, rows = multiclass.cell_samples(ds, model, a, b)
    shown, cell_count = multiclass.SHOWN_ROWS, short(res["cm"][a, b], grouped=True)
    fields = {
        "a": literal(names[a]),
        "b": literal(names[b]),
        "n": cell_count,
        "shown": shown,
        "verdict": t("right") if a == b else t("wrong"),
    }
    if n > shown:
        line = t(
            "**True ${a}, predicted ${b}** (${verdict}): ${n} sample(s), the first ${shown} shown.",
            **fields,
        )
    else:
        line = t("**True ${a}, predicted ${b}** (${verdict}): ${n} sample(s).", **fields)
    st.markdown(line)
    cfg = four_decimals(c for c in rows.columns if c != "sample")
    height = "auto" if len(rows) <= 8 else 300
    cfg = widgets.worded(rows.columns, cfg, classes=True)
    widgets.dataframe(st, rows, hide_index=True, width="stretch", height=height, column_config=cfg)


def curves(ds, settings: Settings, res: dict) -> tuple[str, str]:
    """The one-vs-rest ROC and PR figures, the class and average pickers and the chosen
    class's numbers; returns the chosen class and average."""
    st.subheader(t("One-vs-rest ROC and PR curves"))
    st.markdown(text("curves"))
    lowest_f1 = res["classes"].sort_values("f1", kind="stable")["class"].tolist()[0]
    chosen, average = controls.curve(list(ds.label_names), lowest_f1)
    c = cache.multiclass.curves(ds, settings.model)
    row = res["classes"].set_index("class").loc[chosen]
    roc = {**c["roc"], "macro": c["macro_roc"]}
    left, right = st.columns(2)
    lang = language.current()
    widgets.plotly_chart(left, charts.roc_figure(roc, chosen, lang=lang), key="mc_roc_chart")
    widgets.plotly_chart(right, charts.pr_figure(c["pr"], chosen, lang=lang), key="mc_pr_chart")
    if math.isnan(row["roc_auc"]):
        st.caption(
            t(
                "Class **${name}** has no sample (or every sample): no curve of its own.",
                name=chosen,
            )
        )
        return chosen, average
    if ds.sample_weight is None:
        j = list(ds.label_names).index(chosen)
        counts = cache.multiclass.pair_counts(ds, settings.model, j)
        line = multiclass_derivation.class_auc_line(chosen, counts, row["roc_auc"])
        show_derivations([line], wait_for_reveal=False)  # one class's AUC: no headline
        st.caption(
            t(
                "P = ${p:,} samples of ${name}, N = ${n:,} others; W = pairs (one of each) "
                "where the positive scores higher, T = tied pairs.",
                p=counts[0],
                n=counts[1],
                name=chosen,
            )
        )
    positives = short(row["support"], grouped=True)
    st.caption(
        t(
            "Class **${name}** vs the rest (${positives} positives): ROC AUC ${auc}, AP ${ap}. "
            "${average} average (${what}): ROC AUC ${avg_auc}, AP ${avg_ap}.",
            name=chosen,
            positives=positives,
            auc=fmt(row["roc_auc"]),
            ap=fmt(row["ap"]),
            average=average.capitalize(),
            what=t(multiclass.AVERAGES[average]),
            avg_auc=fmt(res["auc"][average]),
            avg_ap=fmt(res["ap"][average]),
        )
    )
    return chosen, average


def sample(ds, settings: Settings, table) -> None:
    """The picked sample (the worst by default): its classes, its log-loss term and its
    probabilities in order."""
    k = settings.k
    sid = controls.sample(table["sample"].tolist()[:500])
    i = ds.sample_ids.index(sid)
    row = table.loc[i]
    steps = multiclass.sample_steps(ds, settings.model, i)
    term = row["log_loss"]
    fields = {
        "sample": literal(sid),
        "true": literal(row["true"]),
        "predicted": literal(row["predicted"]),
        "rank": row["rank"],
        "k_all": ds.n_labels,
        "k": k,
    }
    if row["rank"] <= k:
        template = (
            "**Sample ${sample}**: true class **${true}**, predicted **${predicted}**; "
            "the true class ranks ${rank} of ${k_all} (top-${k}: yes)."
        )
    else:
        template = (
            "**Sample ${sample}**: true class **${true}**, predicted **${predicted}**; "
            "the true class ranks ${rank} of ${k_all} (top-${k}: no)."
        )
    st.markdown(t(template, **fields))
    if not math.isnan(term):
        st.latex(
            rf"-\log p(\text{{{latex_text(row['true'])}}}) = "
            rf"-\log {fmt(row['p_true'])} = {fmt(term)}"
        )
    widgets.dataframe(
        st,
        steps,
        hide_index=True,
        width="stretch",
        column_config=widgets.worded(
            steps.columns, {"score": st.column_config.NumberColumn(**FOUR)}, classes=True
        ),
    )
