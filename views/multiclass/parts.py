"""Layout helpers of the Multiclass classification page (views/multiclass.py).

Each draws one part of the page from the results of :mod:`explorer.pages.multiclass`
(through :mod:`explorer.ui.cache`); no computation here.
"""

import math

import streamlit as st

from explorer import downloads
from explorer.charts import multiclass as charts
from explorer.formatting import fmt
from explorer.pages import multiclass as mc
from explorer.pages import multiclass_derivation as derivation
from explorer.ui import cache, classroom, url
from views import prose

FOUR = {"format": "%.4f"}


def _text(name: str, **values) -> str:
    text = prose.section("multiclass", name)
    return text.format(**values) if values else text


def _show(line) -> None:
    st.latex(line.latex)
    if line.note:
        st.caption(f"{line.name}: {line.note}.")


def _n(x: float) -> str:
    return f"{x:,.4g}"


def on_cell_click(names) -> None:
    """A click on the confusion matrix picks its cell (the select boxes follow)."""
    cell = charts.cell_from_selection(st.session_state.get("mc_cm_chart"), names)
    if cell is not None:
        st.session_state["mc_cell_true"], st.session_state["mc_cell_pred"] = cell


def cell(ds, model: str, res: dict, a: int, b: int) -> None:
    """The samples of one confusion-matrix cell: true class ``a``, predicted ``b``."""
    names = ds.label_names
    n, rows = mc.cell_samples(ds, model, a, b)
    right = "right" if a == b else "wrong"
    st.markdown(
        f"**True {names[a]}, predicted {names[b]}** ({right}): {_n(res['cm'][a, b])} "
        f"sample(s)" + (f", the first {mc.SHOWN_ROWS} shown." if n > mc.SHOWN_ROWS else ".")
    )
    cfg = {c: st.column_config.NumberColumn(**FOUR) for c in rows.columns if c != "sample"}
    height = "auto" if len(rows) <= 8 else 300
    st.dataframe(rows, hide_index=True, width="stretch", height=height, column_config=cfg)


def curves(ds, model: str, res: dict, chosen: str, average: str) -> None:
    """The one-vs-rest ROC and PR figures and the chosen class's numbers."""
    c = cache.multiclass.curves(ds, model)
    row = res["classes"].set_index("class").loc[chosen]
    roc = {**c["roc"], "macro": c["macro_roc"]}
    left, right = st.columns(2)
    left.plotly_chart(charts.roc_figure(roc, chosen), key="mc_roc_chart")
    right.plotly_chart(charts.pr_figure(c["pr"], chosen), key="mc_pr_chart")
    if math.isnan(row["roc_auc"]):
        st.caption(f"Class **{chosen}** has no sample (or every sample): no curve of its own.")
    else:
        if ds.sample_weight is None:
            j = list(ds.label_names).index(chosen)
            counts = cache.multiclass.pair_counts(ds, model, j)
            _show(derivation.class_auc_line(chosen, counts, row["roc_auc"]))
            st.caption(
                f"P = {counts[0]:,} samples of {chosen}, N = {counts[1]:,} others; W = pairs "
                "(one of each) where the positive scores higher, T = tied pairs."
            )
        st.caption(
            f"Class **{chosen}** vs the rest ({_n(row['support'])} positives): ROC AUC "
            f"{fmt(row['roc_auc'])}, AP {fmt(row['ap'])}. {average.capitalize()} average "
            f"({mc.AVERAGES[average]}): ROC AUC {fmt(res['auc'][average])}, AP "
            f"{fmt(res['ap'][average])}."
        )


def how_it_is_computed(ds, model: str, res: dict, k: int, average: str, j: int) -> None:
    """The per-class table and every headline's derivation with its numbers."""
    st.subheader("How it is computed")
    table = res["classes"]
    cfg = {c: st.column_config.NumberColumn(**FOUR) for c in ("precision", "recall", "f1")}
    cfg |= {c: st.column_config.NumberColumn(**FOUR) for c in ("roc_auc", "ap")}
    st.dataframe(mc.for_screen(table), hide_index=True, width="stretch", column_config=cfg)
    st.download_button(
        "Per-class table as CSV",
        downloads.csv_text(table),
        file_name=f"{ds.name}.multiclass.classes.csv",
        key="mc_download_classes",
    )
    if classroom.derivations_hidden():
        return
    lines = cache.multiclass.derivations(ds, model, k, average)
    _show(lines["Accuracy"])
    st.markdown(_text("balanced"))
    _show(lines["Balanced accuracy"])
    st.markdown(_text("macro_f1"))
    r = table.iloc[j]
    tp, fp, fn = (str(_n(r[c])).replace(",", "{,}") for c in ("tp", "fp", "fn"))
    st.latex(
        rf"F1_{{\text{{{mc.latex_text(r['class'])}}}}} = "
        rf"\frac{{2 \cdot {tp}}}{{2 \cdot {tp} + {fp} + {fn}}} = {fmt(r['f1'])}"
    )
    _show(lines["Macro F1"])
    st.markdown(_text("mcc"))
    _show(lines["MCC"])
    st.markdown(_text("kappa"))
    for name in ("p_o", "p_e", "Cohen's kappa"):
        _show(lines[name])
    st.markdown(_text("log_loss"))
    if "Log loss" in lines:
        _show(lines["Log loss"])
    else:
        st.caption(_text("not_proba", why=res["not_proba"]))
    st.markdown(_text("top_k"))
    _show(lines["Top-k accuracy"])
    st.markdown("**Macro ROC AUC (one-vs-rest)**: the mean of the per-class AUCs above.")
    _show(lines["Macro ROC AUC (OvR)"])
    st.markdown(f"**The {average} average** ({mc.AVERAGES[average]}):")
    if average != "macro":  # the macro ROC AUC is the line above
        _show(lines["ROC AUC (average)"])
    _show(lines["AP (average)"])
    _one_vs_one(ds, res, lines)


def _one_vs_one(ds, res: dict, lines: dict) -> None:
    st.markdown(_text("ovo"))
    pairs = res["ovo"]
    if pairs is None:
        st.caption(_text("ovo_weighted"))
        return
    if pairs.empty:
        st.caption("y_true holds one class only: there is no pair of classes.")
        return
    cfg = {
        c: st.column_config.NumberColumn(**FOUR)
        for c in ("auc_a_vs_b", "auc_b_vs_a", "mean", "prevalence")
    }
    height = "auto" if len(pairs) <= 8 else 320
    st.dataframe(pairs, hide_index=True, width="stretch", height=height, column_config=cfg)
    _show(lines["OvO AUC"])
    w = mc.ovo_averages(pairs)["weighted"]
    st.caption(f"Weighted by each pair's prevalence (scikit-learn's average='weighted'): {fmt(w)}.")


def per_sample(ds, model: str, k: int) -> None:
    """One sample's probabilities in order, then every sample, worst first."""
    st.subheader("Per sample, worst first")
    st.markdown(_text("per_sample"))
    table = cache.multiclass.samples(ds, model)
    ids = table["sample"].tolist()[:500]
    url.bind_param("mc_sample", "sample", ids[0], str, url.member(ids))
    sid = st.selectbox("Inspect a sample", ids, key="mc_sample", help="Default: the worst.")
    url.write_param("sample", sid)
    i = ds.sample_ids.index(sid)
    row = table.loc[i]
    steps = mc.sample_steps(ds, model, i)
    term = row["log_loss"]
    st.markdown(
        f"**Sample {sid}**: true class **{row['true']}**, predicted **{row['predicted']}**; "
        f"the true class ranks {row['rank']} of {ds.n_labels} (top-{k}: "
        f"{'yes' if row['rank'] <= k else 'no'})."
    )
    if not math.isnan(term):
        st.latex(
            rf"-\log p(\text{{{mc.latex_text(row['true'])}}}) = "
            rf"-\log {fmt(row['p_true'])} = {fmt(term)}"
        )
    st.dataframe(
        steps,
        hide_index=True,
        width="stretch",
        column_config={"score": st.column_config.NumberColumn(**FOUR)},
    )
    shown = mc.with_top_k_column(table.head(mc.SHOWN_ROWS), k)
    st.caption(
        f"{ds.n_samples:,} samples"
        + (
            f"; the worst {mc.SHOWN_ROWS} shown, all in the CSV."
            if len(table) > len(shown)
            else "."
        )
    )
    st.dataframe(
        mc.for_screen(shown),
        hide_index=True,
        width="stretch",
        column_config={
            c: st.column_config.NumberColumn(**FOUR) for c in ("p_true", "p_predicted", "log_loss")
        },
    )
    st.download_button(
        "Per-sample table as CSV",
        lambda: mc.samples_csv(ds, model, k),
        file_name=f"{ds.name}.multiclass.samples.csv",
        key="mc_download_samples",
    )
