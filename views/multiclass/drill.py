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
from explorer.ui import cache, widgets
from explorer.ui.derivations import show as show_derivations
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
    st.subheader("Confusion matrix")
    names = list(ds.label_names)
    c_cm, c_cell = st.columns([3, 2])
    with c_cell:
        st.caption(text("confusion"))
        a, b = controls.cell(st, names, multiclass.worst_cell(res["cm"]))
    with c_cm:
        table = multiclass.confusion_table(res["cm"], names, settings.norm)
        widgets.plotly_chart(
            st,
            charts.confusion_figure(table, counts=settings.norm == "none", selected=(a, b)),
            key="mc_cm_chart",
            on_select=lambda: on_cell_click(names),
            keyboard='the "True class" and "Predicted class" boxes',
            selection_mode="points",
        )
    with c_cell:
        cell(ds, settings.model, res, names.index(a), names.index(b))


def cell(ds, model: str, res: dict, a: int, b: int) -> None:
    """The samples of one confusion-matrix cell: true class ``a``, predicted ``b``."""
    names = ds.label_names
    n, rows = multiclass.cell_samples(ds, model, a, b)
    right = "right" if a == b else "wrong"
    shown, cell_count = multiclass.SHOWN_ROWS, short(res["cm"][a, b], grouped=True)
    st.markdown(
        f"**True {literal(names[a])}, predicted {literal(names[b])}** ({right}): {cell_count} "
        f"sample(s)" + (f", the first {shown} shown." if n > shown else ".")
    )
    cfg = four_decimals(c for c in rows.columns if c != "sample")
    height = "auto" if len(rows) <= 8 else 300
    cfg = widgets.worded(rows.columns, cfg, classes=True)
    widgets.dataframe(st, rows, hide_index=True, width="stretch", height=height, column_config=cfg)


def curves(ds, settings: Settings, res: dict) -> tuple[str, str]:
    """The one-vs-rest ROC and PR figures, the class and average pickers and the chosen
    class's numbers; returns the chosen class and average."""
    st.subheader("One-vs-rest ROC and PR curves")
    st.markdown(text("curves"))
    lowest_f1 = res["classes"].sort_values("f1", kind="stable")["class"].tolist()[0]
    chosen, average = controls.curve(list(ds.label_names), lowest_f1)
    c = cache.multiclass.curves(ds, settings.model)
    row = res["classes"].set_index("class").loc[chosen]
    roc = {**c["roc"], "macro": c["macro_roc"]}
    left, right = st.columns(2)
    widgets.plotly_chart(left, charts.roc_figure(roc, chosen), key="mc_roc_chart")
    widgets.plotly_chart(right, charts.pr_figure(c["pr"], chosen), key="mc_pr_chart")
    if math.isnan(row["roc_auc"]):
        st.caption(f"Class **{chosen}** has no sample (or every sample): no curve of its own.")
        return chosen, average
    if ds.sample_weight is None:
        j = list(ds.label_names).index(chosen)
        counts = cache.multiclass.pair_counts(ds, settings.model, j)
        line = multiclass_derivation.class_auc_line(chosen, counts, row["roc_auc"])
        show_derivations([line], wait_for_reveal=False)  # one class's AUC: no headline
        st.caption(
            f"P = {counts[0]:,} samples of {chosen}, N = {counts[1]:,} others; W = pairs "
            "(one of each) where the positive scores higher, T = tied pairs."
        )
    positives = short(row["support"], grouped=True)
    st.caption(
        f"Class **{chosen}** vs the rest ({positives} positives): ROC AUC "
        f"{fmt(row['roc_auc'])}, AP {fmt(row['ap'])}. {average.capitalize()} average "
        f"({multiclass.AVERAGES[average]}): ROC AUC {fmt(res['auc'][average])}, AP "
        f"{fmt(res['ap'][average])}."
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
    st.markdown(
        f"**Sample {literal(sid)}**: true class **{literal(row['true'])}**, "
        f"predicted **{literal(row['predicted'])}**; "
        f"the true class ranks {row['rank']} of {ds.n_labels} (top-{k}: "
        f"{'yes' if row['rank'] <= k else 'no'})."
    )
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
