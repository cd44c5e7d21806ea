"""Layout helpers of the DCG & NDCG page (views/dcg.py): the k check, the callbacks,
formula text and the page's longer sections. The numbers come from
:mod:`explorer.pages.dcg`, the texts from views/dcg/text.md."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import downloads
from explorer.charts import dcg as charts
from explorer.formatting import fmt
from explorer.pages import dcg as model
from explorer.pages.dcg import num
from explorer.ui import classroom, session, url
from views import prose

BASE_TEX = {"2": r"\log_{2}", "e": r"\ln", "10": r"\log_{10}"}


def check_k(value, n_items: int):
    """None (all items) or a whole k >= 1; a k beyond the items is all of them."""
    if value is None:
        return None
    return min(url.int_in(1, 2**63, clamp=False)(value), n_items)


# ------------------------------------------------------------------ callbacks
def open_seed_example(index: int) -> None:
    """Button callback: open seed 001 with the settings of one of its examples."""
    _, row, k, ignore_ties = model.SEED_EXAMPLES[index]
    session.set_active(model.SEED)
    ss = st.session_state
    ss["dcg_k"], ss["dcg_ignore_ties"], ss["dcg_sample"] = k, ignore_ties, row
    ss["dcg_log_base"], ss["dcg_gain"] = "2", model.GAINS[0]
    ss["dcg_model"] = session.get_dataset(model.SEED).model_names[0]
    ss["dcg_focus"] = index  # views/dcg/headline.py puts this row's DCG first


def on_pick_row() -> None:
    """Row click in the per-sample table: open that sample in "how it is computed"."""
    rows = st.session_state["dcg_per_sample_pick"]["selection"]["rows"]
    shown = st.session_state.get("dcg_shown_rows", [])
    if rows and rows[0] < len(shown):
        st.session_state["dcg_sample"] = shown[rows[0]]


# ------------------------------------------------------------------ formula and text
def term_tex(steps: pd.DataFrame, log_tex: str) -> str:
    """The DCG sum written out: one fraction per position in the top k with a gain."""
    top = steps[steps["in_top_k"] & (steps["mean_gain"] != 0)]
    terms = [
        rf"\frac{{{num(g)}}}{{{log_tex}({p + 1})}}"
        for g, p in zip(top["mean_gain"], top["position"], strict=True)
    ]
    if not terms:
        return "0"
    lines = [" + ".join(terms[i : i + 4]) for i in range(0, len(terms), 4)]
    return r" \\ &+ ".join(lines)


def steps_caption(n_groups: int, settings: model.Settings, n_items: int) -> str:
    """The caption under the selected sample's chart (drawn up to :data:`STEP_ROWS`
    positions, or one past k when k is larger: :func:`explorer.charts.dcg.drawn_positions`).

    Examples
    --------
    >>> steps_caption(0, model.Settings("m", k=3), 100).split(". ")[-1]
    'The first 30 of 100 positions are drawn (all in the CSV).'
    >>> steps_caption(0, model.Settings("m", k=45), 100).split(". ")[-1]
    'The first 46 of 100 positions are drawn (all in the CSV).'
    """
    k = settings.k
    drawn = charts.drawn_positions(n_items, k, STEP_ROWS)
    return (
        "Bars: the gain each position uses and its contribution (gain x discount); black dashes: "
        "the item's own gain; green line: the discount, right axis. "
        + (
            f"Shaded: {n_groups} tie group(s), whose items share the group's mean gain. "
            if n_groups and not settings.ignore_ties
            else (f"Shaded: {n_groups} tie group(s), ranked one by one. " if n_groups else "")
        )
        + ("The dashed red line is the k cut." if k is not None and k < n_items else "")
        + (
            f" The first {drawn} of {n_items} positions are drawn (all in the CSV)."
            if drawn < n_items
            else ""
        )
    )


def _seed_example_why(i: int, ex: model.SeedExample, names) -> str:
    """Why seed 001's example ``i`` gives its value, term by term."""
    top = ex.steps[ex.steps["in_top_k"]]
    terms = zip(top["relevance"], top["position"], strict=True)
    return prose.section("dcg", f"seed-why-{i}").format(
        order=", ".join(names[j] for j in ex.steps["item"]),
        terms=" + ".join(f"{num(g)}/log2({p + 1})" for g, p in terms),
        contributions=" + ".join(num(c) for c in top["contribution"]),
        value=fmt(ex.value),
        value_4f=f"{ex.value:.4f}",
        averaging=model.averaging_text(ex.steps)[0],
        mean_gain=num(top["mean_gain"].iloc[0]),
        first=names[int(ex.steps["item"].iloc[0])],
        gain=num(top["relevance"].iloc[0]),
        optimistic=fmt(ex.optimistic),
        averaged=fmt(ex.averaged),
    )


def no_relevant_text(empty: tuple[str, ...], n_samples: int) -> str:
    """The warning about the samples with no relevant item, naming the first 20."""
    text = prose.section("dcg", "no-relevant").format(n_empty=len(empty), n_samples=n_samples)
    return text + " " + ", ".join(empty[:20]) + (" ..." if len(empty) > 20 else "") + "."


# ------------------------------------------------------------------ sections
def seed_examples(ds) -> None:
    """Seed 001's four worked examples, each with a button that opens it below."""
    with st.container(border=True):
        st.markdown(prose.section("dcg", "seed-examples"))
        shown = classroom.numbers_shown()  # "Predict, then reveal": the buttons name no answer
        for i, ex in enumerate(model.seed_examples(ds)):
            ca, cb = st.columns([1, 5])
            ca.button(
                f"Open {ex.printed}" if shown else f"Open example {i + 1}",
                key=f"dcg_seed_example_{i}",
                on_click=open_seed_example,
                args=(i,),
                width="stretch",
            )
            setting = f"row {ex.row}, k={'all' if ex.k is None else ex.k}" + (
                ", ignore_ties=True" if ex.ignore_ties else ""
            )
            if not shown:
                cb.markdown(f"**Example {i + 1}** ({setting}): its value and why, after Reveal.")
                continue
            why = _seed_example_why(i, ex, ds.label_names)
            cb.markdown(f"**{fmt(ex.value)}** ({setting}): {why}.")


def _download(label: str, frame: pd.DataFrame, stem: str, ds, row: int, *, key: str) -> None:
    """A CSV download of one of the selected sample's tables, built on the click only
    (not on every move of k)."""
    name = f"{stem}_{ds.name}_{ds.sample_ids[row]}.csv"
    st.download_button(
        label, lambda: downloads.csv_text(frame), file_name=name, mime="text/csv", key=key
    )


def _tie_group_line(g: model.TieGroup) -> str:
    disc = " + ".join(num(d) for d in g.discounts)
    return (
        f"- tie group {g.group} (positions {g.first} to {g.last}, "
        f"items {', '.join(g.items)}, score {num(g.score)}): mean gain {g.averaging}; "
        f"discounts {disc}; the group adds {num(g.mean_gain)} x "
        f"({disc}) = {num(g.total)}"
        + (f" ({g.after_k} of its positions are after k, discount 0)" if g.after_k else "")
    )


#: Positions of the selected sample's step tables drawn when there are more (and no
#: larger k): the tables are redrawn on every move; their CSVs hold every position.
STEP_ROWS = 30


def shown_positions(n_items: int, k: int | None) -> int:
    """How many positions of a step table to draw: all of them up to :data:`STEP_ROWS`,
    else :data:`STEP_ROWS` or the top k when k is larger (a position after k adds 0, so
    the last running sum drawn is still the sample's DCG).

    Examples
    --------
    >>> shown_positions(10, None), shown_positions(100, None), shown_positions(100, 3)
    (10, 30, 30)
    >>> shown_positions(100, 45), shown_positions(40, 80)
    (45, 40)
    """
    if n_items <= STEP_ROWS:
        return n_items
    return min(n_items, max(STEP_ROWS, k or 0))


def step_tables(
    ds,
    row: int,
    one: model.SampleSteps,
    settings: model.Settings,
    *,
    tie_text: str,
    base_text: str,
    base_2: bool,
) -> None:
    """The model's order and the ideal order of the selected sample, and its NDCG."""
    names, grades = ds.label_names, ds.y_true[row]
    ignore_ties, exp_gain = settings.ignore_ties, settings.exponential
    st.markdown(
        f"**The model's order** ({tie_text}): shaded rows are tie groups, grey rows are after the "
        "k cut (discount 0); the last running sum is the sample's DCG"
    )
    view = model.steps_view(one.steps, names, grades, averaged=not ignore_ties)
    if not exp_gain:
        view = view.drop(columns="gain")
    rows = shown_positions(len(view), settings.k)
    if rows < len(view):
        st.caption(
            f"The first {rows} of {len(view)} positions are shown"
            + (" (every position in the top k)" if settings.k is not None else "")
            + "; the CSV has all of them"
            + ("." if settings.k is not None else ", and the DCG sums them all (above).")
        )
    st.dataframe(
        charts.steps_styler(view.head(rows)),
        hide_index=True,
        key="dcg_steps_table",
        column_order=[c for c in view.columns if c not in ("tie size", "averaging", "in top k")]
        + (["averaging"] if "averaging" in view.columns else []),
    )
    _download("Download this table (CSV)", view, "dcg_steps", ds, row, key="dcg_dl_steps")
    groups = model.tie_groups(one.steps, names)
    if groups and not ignore_ties:
        lines = [_tie_group_line(g) for g in groups]
        st.markdown("**Tie groups, averaged** (shaded in the table):\n" + "\n".join(lines))
    left, right = st.columns([1.7, 1])
    with left:
        st.markdown("**The ideal order** (items sorted by their own gain): the ideal DCG")
        iview = model.steps_view(one.ideal, names, grades, averaged=False)
        iview = iview.drop(columns=["score", "tie group", "tie size", "gain used"])
        if not exp_gain:
            iview = iview.drop(columns="gain")
        st.dataframe(
            charts.steps_styler(iview.head(rows), ties=False),
            hide_index=True,
            key="dcg_ideal",
            column_order=[c for c in iview.columns if c != "in top k"],
        )
        _download("Download the ideal table (CSV)", iview, "dcg_ideal", ds, row, key="dcg_dl_ideal")
    with right:
        st.markdown("**NDCG of this sample**: the ratio of the two last running sums")
        if one.ideal_dcg == 0:
            st.warning(prose.section("dcg", "sample-no-relevant"))
        else:
            st.latex(
                rf"\begin{{aligned}}\mathrm{{NDCG}} &= "
                rf"\frac{{\mathrm{{DCG}}}}{{\mathrm{{ideal\ DCG}}}} \\ &= "
                rf"\frac{{{fmt(one.dcg)}}}{{{fmt(one.ideal_dcg)}}} = {fmt(one.ndcg)}"
                rf"\end{{aligned}}"
            )
            if not base_2:
                text = prose.section("dcg", "sample-base-cancels")
                st.caption(text.format(base=base_text, ndcg=fmt(one.ndcg)))


def tie_section(ds, row: int, ties: model.TieComparison) -> None:
    """What tied scores do to the selected sample: four orders, their DCG and tables."""
    if not ties.has_ties:
        st.markdown(prose.section("dcg", "no-ties").format(value=fmt(ties.dcg["tie-averaged"])))
        return
    names, grades = ds.label_names, ds.y_true[row]
    st.markdown(prose.section("dcg", "ties"))
    for col, (label, value) in zip(st.columns(4), ties.dcg.items(), strict=True):
        col.metric(f"{label} DCG", fmt(value))
    st.plotly_chart(charts.tie_bounds_figure(dict(ties.dcg)), key="dcg_bounds_chart")
    a, b = st.columns(2)
    cols = ["position", "item", "grade", "gain used", "contribution", "running sum"]
    with a:
        st.markdown("**ignore_ties off** (averaged; tied items listed in column order)")
        v = model.steps_view(ties.averaged, names, grades, averaged=True)
        st.dataframe(charts.steps_styler(v), hide_index=True, column_order=cols, key="dcg_ties_off")
    with b:
        st.markdown("**ignore_ties on** (higher column first among tied scores)")
        v = model.steps_view(ties.ignored, names, grades, averaged=False)
        st.dataframe(charts.steps_styler(v), hide_index=True, column_order=cols, key="dcg_ties_on")
    st.markdown(f"**Items whose position changes** when ties are ignored: {len(ties.moved)}")
    st.dataframe(
        ties.moved,
        hide_index=True,
        key="dcg_moved",
        column_config={"score": st.column_config.NumberColumn("score", format="%.4g")},
    )
    st.caption(prose.section("dcg", "tie-positions"))
    label, stem = "Download the four tie orders (CSV)", "dcg_tie_order_steps"
    _download(label, ties.orders, stem, ds, row, key="dcg_dl_orders")
