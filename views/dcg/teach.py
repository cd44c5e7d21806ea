"""The DCG & NDCG page's teaching: scikit-learn's four dcg_score examples, each with a
button that opens it (:data:`explorer.pages.dcg_examples.SEED`), and what tied scores do to the
selected sample.

Layout only: the numbers come from :mod:`explorer.pages.dcg`, the texts from
views/dcg/text.md."""

from __future__ import annotations

import streamlit as st

from explorer.charts import dcg as charts
from explorer.formatting import fmt, short
from explorer.pages import dcg, dcg_examples
from explorer.ui import classroom, language, session, widgets
from explorer.ui.language import t
from views import prose
from views.dcg.derivation import download
from views.dcg.headline import SCROLL


def open_seed_example(index: int) -> None:
    """Button callback: open the sample of scikit-learn's dcg_score examples with the
    settings of one of them."""
    _, row, k, ignore_ties = dcg_examples.SEED_EXAMPLES[index]
    session.set_active(dcg_examples.SEED)
    ss = st.session_state
    ss["dcg_k"], ss["dcg_ignore_ties"], ss["dcg_sample"] = k, ignore_ties, row
    ss["dcg_log_base"], ss["dcg_gain"] = "2", dcg.GAINS[0]
    ss["dcg_model"] = session.get_dataset(dcg_examples.SEED).model_names[0]
    ss["dcg_focus"] = index  # views/dcg/headline.py puts this row's DCG first
    ss[SCROLL] = True  # ... and scrolls it into view


def _seed_example_why(i: int, ex: dcg_examples.SeedExample, names) -> str:
    """Why scikit-learn's dcg_score example ``i`` gives its value, term by term."""
    top = ex.steps[ex.steps["in_top_k"]]
    terms = zip(top["relevance"], top["position"], strict=True)
    return prose.fill(
        "dcg",
        f"seed-why-{i}",
        order=", ".join(names[j] for j in ex.steps["item"]),
        terms=" + ".join(f"{short(g)}/log2({p + 1})" for g, p in terms),
        contributions=" + ".join(short(c) for c in top["contribution"]),
        value=fmt(ex.value),
        value_4f=f"{ex.value:.4f}",
        averaging=dcg.averaging_text(ex.steps)[0],
        mean_gain=short(top["mean_gain"].iloc[0]),
        first=names[int(ex.steps["item"].iloc[0])],
        gain=short(top["relevance"].iloc[0]),
        optimistic=fmt(ex.optimistic),
        averaged=fmt(ex.averaged),
    )


def seed_examples(ds) -> None:
    """scikit-learn's four dcg_score examples, each with a button that opens it below."""
    with st.container(border=True):
        st.markdown(prose.section("dcg", "seed-examples"))
        shown = classroom.numbers_shown()  # "Predict, then reveal": the buttons name no answer
        for i, ex in enumerate(dcg_examples.seed_examples(ds)):
            ca, cb = st.columns([1, 5])
            ca.button(
                t("Open ${value}", value=ex.printed) if shown else t("Open example ${i}", i=i + 1),
                key=f"dcg_seed_example_{i}",
                on_click=open_seed_example,
                args=(i,),
                width="stretch",
            )
            k = t("all") if ex.k is None else ex.k
            setting = t("row ${row}, k=${k}", row=ex.row, k=k) + (
                ", ignore_ties=True" if ex.ignore_ties else ""
            )
            if not shown:
                cb.markdown(
                    t(
                        "**Example ${i}** (${setting}): its value and why, after Reveal.",
                        i=i + 1,
                        setting=setting,
                    )
                )
                continue
            why = _seed_example_why(i, ex, ds.label_names)
            cb.markdown(
                t(
                    "**${value}** (${setting}): ${why}.",
                    value=fmt(ex.value),
                    setting=setting,
                    why=why,
                )
            )


def tie_section(ds, row: int, ties: dcg.TieComparison) -> None:
    """What tied scores do to the selected sample: four orders, their DCG and tables."""
    if not ties.has_ties:
        st.markdown(prose.fill("dcg", "no-ties", value=fmt(ties.dcg["tie-averaged"])))
        return
    names, grades = ds.item_names(row), ds.y_true[row]
    st.markdown(prose.section("dcg", "ties"))
    for col, (label, value) in zip(st.columns(len(ties.dcg)), ties.dcg.items(), strict=True):
        widgets.metric(col, t("${order} DCG", order=t(label)), fmt(value))
    lang = language.current()
    figure = charts.tie_bounds_figure(dict(ties.dcg), lang=lang)
    widgets.plotly_chart(st, figure, key="dcg_bounds_chart")
    a, b, c = st.columns(3)
    cols = [t(c) for c in ("position", "item", "grade", "gain used", "contribution", "running sum")]
    with a:
        st.markdown(t("**ignore_ties off** (averaged; tied items listed in column order)"))
        v = charts.steps_styler(
            dcg.steps_view(ties.averaged, names, grades, averaged=True), columns=t
        )
        widgets.dataframe(st, v, hide_index=True, column_order=cols, key="dcg_ties_off")
    with b:
        st.markdown(t("**ignore_ties on** (higher column first among tied scores)"))
        v = charts.steps_styler(
            dcg.steps_view(ties.ignored, names, grades, averaged=False), columns=t
        )
        widgets.dataframe(st, v, hide_index=True, column_order=cols, key="dcg_ties_on")
    with c:
        st.markdown(
            t(
                "**input order** (ignore_ties under the LightGBM / XGBoost preset: lower "
                "column first)"
            )
        )
        v = charts.steps_styler(
            dcg.steps_view(ties.input_order, names, grades, averaged=False), columns=t
        )
        widgets.dataframe(st, v, hide_index=True, column_order=cols, key="dcg_ties_input")
    st.markdown(
        t("**Items whose position changes** when ties are ignored: ${n}", n=len(ties.moved))
    )
    widgets.dataframe(
        st,
        ties.moved,
        hide_index=True,
        key="dcg_moved",
        column_config={"score": st.column_config.NumberColumn(t("score"), format="%.4g")},
    )
    st.caption(prose.section("dcg", "tie-positions"))
    label, stem = "Download the four tie orders (CSV)", "dcg_tie_order_steps"
    download(label, ties.orders, stem, ds, row, key="dcg_dl_orders")
