"""How the DCG & NDCG page computes the selected sample: its DCG written out term by
term, its three numbers, and its step tables (the model's order, the ideal order and
the NDCG they give).

Layout only: the numbers come from :mod:`explorer.pages.dcg`, the texts from
views/dcg/text.md."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import downloads
from explorer.charts import dcg as charts
from explorer.formatting import fmt, literal, short
from explorer.pages import dcg
from explorer.ui import language, widgets
from explorer.ui.language import t
from views import prose


def how_it_is_computed(ds, row: int, one: dcg.SampleSteps, controls) -> None:
    """The selected sample's DCG written out term by term, its three numbers and its
    step tables; ``controls``: :class:`views.dcg.controls.Controls`."""
    settings = controls.settings
    st.subheader(t("How it is computed"))
    bar_g = r"\bar g_r" if not settings.ignore_ties else "g_r"
    k_sum = r"\min(k, M)" if settings.k is not None else "M"
    log_tex = controls.log_tex
    st.latex(
        rf"\begin{{aligned}}\mathrm{{DCG}} &= \sum_{{r=1}}^{{{k_sum}}} "
        rf"\frac{{{bar_g}}}{{{log_tex}(1 + r)}} \\ &= {term_tex(one.steps, log_tex)} \\ "
        rf"&= {fmt(one.dcg)}\end{{aligned}}"
    )
    st.caption(
        (
            t("g̅_r is the mean gain of the tie group at position r. ")
            if not settings.ignore_ties
            else ""
        )
        + t("M = ${m} items; terms with zero gain are left out.", m=ds.n_labels)
    )
    m1, m2, m3 = st.columns(3)
    widgets.metric(m1, t("DCG of this sample"), fmt(one.dcg))
    widgets.metric(m2, t("Ideal DCG of this sample"), fmt(one.ideal_dcg))
    widgets.metric(m3, t("NDCG of this sample"), fmt(one.ndcg))
    step_tables(ds, row, one, controls)


# ------------------------------------------------------------------ formula and text
def term_tex(steps: pd.DataFrame, log_tex: str) -> str:
    """The DCG sum written out: one fraction per position in the top k with a gain."""
    top = steps[steps["in_top_k"] & (steps["mean_gain"] != 0)]
    terms = [
        rf"\frac{{{short(g)}}}{{{log_tex}({p + 1})}}"
        for g, p in zip(top["mean_gain"], top["position"], strict=True)
    ]
    if not terms:
        return "0"
    lines = [" + ".join(terms[i : i + 4]) for i in range(0, len(terms), 4)]
    return r" \\ &+ ".join(lines)


def download(label: str, frame: pd.DataFrame, stem: str, ds, row: int, *, key: str) -> None:
    """A CSV download of one of the selected sample's tables, built on the click only
    (not on every move of k)."""
    name = f"{stem}_{ds.name}_{ds.sample_ids[row]}.csv"
    st.download_button(
        t(label), lambda: downloads.csv_text(frame), file_name=name, mime="text/csv", key=key
    )


def _tie_group_line(g: dcg.TieGroup) -> str:
    disc = " + ".join(short(d) for d in g.discounts)
    return (
        "- "
        + t(
            "tie group ${group} (positions ${first} to ${last}, items ${items}, score ${score}): "
            "mean gain ${averaging}; discounts ${disc}; the group adds ${gain} x (${disc}) = "
            "${total}",
            group=g.group,
            first=g.first,
            last=g.last,
            items=literal(", ".join(g.items)),
            score=short(g.score),
            averaging=g.averaging,
            disc=disc,
            gain=short(g.mean_gain),
            total=short(g.total),
        )
        + (t(" (${n} of its positions are after k, discount 0)", n=g.after_k) if g.after_k else "")
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


def empty_rule(settings: dcg.Settings) -> dict[str, str]:
    """What a sample with no relevant item scores, and whose rule that is."""
    if settings.empty_scores_one:
        return {"score": "1", "tool": "LightGBM"}
    return {"score": "0", "tool": "scikit-learn"}


def step_tables(ds, row: int, one: dcg.SampleSteps, controls) -> None:
    """The model's order and the ideal order of the selected sample, and its NDCG."""
    rows = _model_order(ds, row, one, controls)
    left, right = st.columns([1.7, 1])
    with left:
        _ideal_order(ds, row, one, controls.settings, rows)
    with right:
        st.markdown(t("**NDCG of this sample**: the ratio of the two last running sums"))
        if one.ideal_dcg == 0:
            rule = empty_rule(controls.settings)
            st.warning(prose.fill("dcg", "sample-no-relevant", **rule))
        else:
            st.latex(
                rf"\begin{{aligned}}\mathrm{{NDCG}} &= "
                rf"\frac{{\mathrm{{DCG}}}}{{\mathrm{{ideal\ DCG}}}} \\ &= "
                rf"\frac{{{fmt(one.dcg)}}}{{{fmt(one.ideal_dcg)}}} = {fmt(one.ndcg)}"
                rf"\end{{aligned}}"
            )
            if not controls.base_2:
                base, ndcg = controls.base_text, fmt(one.ndcg)
                st.caption(prose.fill("dcg", "sample-base-cancels", base=base, ndcg=ndcg))


def _shown(view: pd.DataFrame) -> pd.DataFrame:
    """A step table's yes/no cells (an item retrieved or not) in the page's language; the
    column "in top k" stays English (:func:`explorer.charts.dcg.steps_styler` reads it)."""
    if "retrieved" not in view or language.current() == "en":
        return view
    return view.assign(retrieved=view["retrieved"].map(t))


def _model_order(ds, row: int, one: dcg.SampleSteps, controls) -> int:
    """The model's order of the selected sample, its tie groups written out; returns
    how many positions the step tables draw."""
    settings = controls.settings
    names, grades = ds.item_names(row), ds.y_true[row]
    st.markdown(
        t(
            "**The model's order** (${ties}): shaded rows are tie groups, grey rows are after "
            "the k cut (discount 0); the last running sum is the sample's DCG",
            ties=controls.tie_text,
        )
    )
    view = dcg.steps_view(one.steps, names, grades, averaged=not settings.ignore_ties)
    if not settings.exponential:
        view = view.drop(columns="gain")
    rows = shown_positions(len(view), settings.k)
    if rows < len(view):
        st.caption(
            t("The first ${rows} of ${n} positions are shown", rows=rows, n=len(view))
            + (t(" (every position in the top k)") if settings.k is not None else "")
            + t("; the CSV has all of them")
            + (t(".") if settings.k is not None else t(", and the DCG sums them all (above)."))
        )
    widgets.dataframe(
        st,
        charts.steps_styler(_shown(view.head(rows)), columns=t),
        hide_index=True,
        key="dcg_steps_table",
        column_order=[t(c) for c in view.columns if c not in ("tie size", "averaging", "in top k")]
        + ([t("averaging")] if "averaging" in view.columns else []),
    )
    download("Download this table (CSV)", view, "dcg_steps", ds, row, key="dcg_dl_steps")
    groups = dcg.tie_groups(one.steps, names)
    if groups and not settings.ignore_ties:
        lines = [_tie_group_line(g) for g in groups]
        st.markdown(t("**Tie groups, averaged** (shaded in the table):") + "\n" + "\n".join(lines))
    return rows


def _ideal_order(ds, row: int, one: dcg.SampleSteps, settings: dcg.Settings, rows: int) -> None:
    """The ideal order of the selected sample (its first ``rows`` positions): the ideal DCG."""
    st.markdown(t("**The ideal order** (items sorted by their own gain): the ideal DCG"))
    iview = dcg.steps_view(one.ideal, ds.item_names(row), ds.y_true[row], averaged=False)
    iview = iview.drop(columns=["score", "tie group", "tie size", "gain used"])
    if not settings.exponential:
        iview = iview.drop(columns="gain")
    widgets.dataframe(
        st,
        charts.steps_styler(_shown(iview.head(rows)), ties=False, columns=t),
        hide_index=True,
        key="dcg_ideal",
        column_order=[t(c) for c in iview.columns if c != "in top k"],
    )
    download("Download the ideal table (CSV)", iview, "dcg_ideal", ds, row, key="dcg_dl_ideal")
