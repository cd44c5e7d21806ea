"""Layout helpers of the Top-K retrieval page (views/retrieval.py): the switchboard's
table, the drill-down's formulas and step table, and every query's AP@K."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import downloads
from explorer.charts.retrieval import grade_color
from explorer.formatting import fmt
from explorer.pages import retrieval as page
from explorer.ui import cache
from views import prose

HIGHLIGHT = "background-color: #ffe08a; font-weight: bold"


def _to_custom() -> None:
    st.session_state["ret_preset"] = "custom"


def conventions(data_max: float, top_grade: int, gains: dict[str, str]) -> tuple:
    """The convention widgets (a change of one sets the preset to "custom"): the AP@K
    denominator, tie rule, relevance level, NDCG gain, ERR maximum grade and the
    empty-query rule, in that order."""
    with st.expander("Conventions: the switches that make tools disagree", expanded=True):
        v1, v2, v3 = st.columns(3)
        denominator = v1.selectbox(
            "AP@K denominator",
            tuple(page.DENOMINATORS),
            format_func=page.DENOMINATORS.get,
            key="ret_ap_denominator",
            on_change=_to_custom,
        )
        tie_mode = v2.selectbox(
            "Tied scores",
            tuple(page.TIES),
            format_func=page.TIES.get,
            key="ret_tie_mode",
            on_change=_to_custom,
            help="trec_eval breaks ties by document id; the metrics package by column order "
            "(lower column first); scikit-learn's NDCG averages over the tie group.",
        )
        rel_level = v3.number_input(
            "Relevant from grade",
            min_value=1,
            max_value=top_grade,
            step=1,
            key="ret_rel_level",
            on_change=_to_custom,
            disabled=top_grade == 1,
            help="P, R, hit rate, AP and RR count an item as relevant when its grade is at least "
            "this (trec_eval -l, ranx rel_lvl). ERR and NDCG use the grades themselves.",
        )
        w1, w2, w3 = st.columns(3)
        gain = w1.radio(
            "NDCG gain",
            tuple(gains),
            format_func=gains.get,
            key="ret_gain",
            horizontal=True,
            on_change=_to_custom,
        )
        if "exponential" not in gains:
            w1.caption(
                f"The exponential gain 2^g - 1 overflows float64 from grade 1024 on; this data's "
                f"grades reach {data_max:g}, so NDCG uses the linear gain only."
            )
        max_grade = w2.number_input(
            "ERR maximum grade",
            min_value=data_max,
            step=1.0,
            key="ret_max_grade",
            on_change=_to_custom,
            help="Chapelle's stop probability R = (2^g - 1) / 2^max_grade; by default the "
            "largest grade in the data.",
        )
        empty = w3.radio(
            "Query with no relevant item",
            tuple(page.EMPTY),
            format_func=page.EMPTY.get,
            key="ret_empty_query",
            horizontal=True,
            on_change=_to_custom,
        )
        return denominator, tie_mode, rel_level, gain, max_grade, empty


def switchboard_table(board: pd.DataFrame) -> None:
    """The switchboard, each cell that differs from the first row highlighted."""
    metric_cols = [label for label, _ in page.HEADLINE]
    base_row = board.loc[0, metric_cols]

    def highlight(row: pd.Series) -> list[str]:
        return [
            HIGHLIGHT if c in metric_cols and abs(row[c] - base_row[c]) > 1e-12 else ""
            for c in row.index
        ]

    styled = board.style.apply(highlight, axis=1).format("{:.4f}", subset=metric_cols)
    st.dataframe(
        styled,
        hide_index=True,
        width="stretch",
        height=36 * (len(board) + 1),
        column_config={
            "switch": st.column_config.TextColumn("switch", width="medium"),
            "convention": st.column_config.TextColumn("convention", width="medium"),
        },
    )
    st.download_button(
        "Switchboard as CSV",
        lambda b=board: downloads.csv_text(b),
        "retrieval_switchboard.csv",
        key="ret_dl_board",
    )


def _wrap(terms: list[str], per_line: int = 5) -> str:
    """Join latex terms with +, breaking the line every ``per_line`` terms."""
    if not terms:
        return "0"
    lines = [" + ".join(terms[i : i + per_line]) for i in range(0, len(terms), per_line)]
    return r" \\ &+ ".join(lines)


def _fractions(steps: pd.DataFrame, exact: bool) -> str:
    """AP@K's terms hits so far / position, as fractions (or decimals when ``exact`` is
    False: tie-averaged hits are expectations)."""
    terms = page.formula_terms(steps, "AP@K")
    return " + ".join(rf"\tfrac{{{h:g}}}{{{p:g}}}" if exact else f"{h / p:.4f}" for h, p in terms)


def drill_formula(drill: str, steps, row: pd.Series, settings: page.Settings, total: float):
    """The drill-down metric's formula with this query's numbers (st.latex)."""
    exact = settings.ties != "tie-averaged"
    terms = page.formula_terms(steps, drill)
    if drill == "AP@K":
        n_rel = int(row["relevant"])
        den = page.ap_denominator(steps, n_rel, settings.denominator, settings.k)
        st.latex(
            r"AP@K = \frac{1}{" + page.DEN_LATEX[settings.denominator] + r"}"
            r"\sum_{r \le K} P(r)\,\mathrm{rel}(r) = \frac{1}{"
            + f"{den:g}"
            + r"}\left("
            + (_fractions(steps, exact) or "0")
            + r"\right) = "
            + fmt(total)
        )
        st.caption(
            f"P(r) = relevant items in the top r / r, at each relevant position r <= "
            f"{settings.k}. M = {n_rel} relevant items (grade >= {int(settings.level)})."
        )
    elif drill == "ERR":
        parts = _wrap([rf"\tfrac{{1}}{{{int(p)}}}\,{r:.3f}\cdot{s:.3f}" for p, r, s in terms], 4)
        st.latex(
            r"ERR@K = \sum_{r \le K} \frac{1}{r}\,R_r \prod_{i<r}(1-R_i),\quad "
            r"R = \frac{2^{g}-1}{2^{" + f"{float(settings.max_grade):g}" + r"}}"
        )
        st.latex(r"\begin{aligned} ERR@K &= " + parts + r" \\ &= " + fmt(total) + r"\end{aligned}")
        st.caption(prose.section("retrieval", "err-terms"))
    elif drill == "DCG":
        parts = _wrap([rf"{gv:g}\cdot{dv:.3f}" for gv, dv in terms])
        st.latex(
            r"\begin{aligned} DCG@K &= \sum_{r \le K} \mathrm{gain}_r \cdot \frac{1}{\log_2(r+1)}"
            r" \\ &= " + parts + r" \\ &= " + fmt(total) + r"\end{aligned}"
        )
        ideal = fmt(float(steps["ideal_dcg"].iloc[0]))
        ndcg = fmt(row["NDCG@K"])
        st.latex(rf"NDCG@K = \frac{{DCG@K}}{{IDCG@K}} = \frac{{{fmt(total)}}}{{{ideal}}} = {ndcg}")
    elif not terms:
        st.latex(r"RR = 0 \quad\text{(no relevant item)}")
    elif exact:
        st.latex(
            r"RR = \frac{1}{\text{position of the first relevant item}} = "
            + rf"\frac{{1}}{{{int(terms[0][1])}}} = {fmt(total)}"
        )
    else:
        fractions = " + ".join(rf"\tfrac{{{fp:.3f}}}{{{int(p)}}}" for fp, p in terms)
        st.latex(
            r"RR = \sum_r \frac{P(\text{first relevant at } r)}{r} = "
            + f"{fractions} = {fmt(total)}"
        )


def count_formulas(row: pd.Series, k: int) -> None:
    """P@K, R@K and the hit rate of the query, with its counts plugged in."""
    hits, n_rel = float(row["P@K"]) * k, int(row["relevant"])
    h = f"{hits:.4g}"
    recall = (
        f"R@K = hits@K / M = {h} / {n_rel} = {fmt(row['R@K'])}"
        if n_rel
        else "R@K = 0 (no relevant item: M = 0)"
    )
    st.markdown(
        f"This query: P@K = hits@K / K = {h} / {k} = {fmt(row['P@K'])} · {recall} · "
        f"hit rate@K = {fmt(row['hit rate@K'])} (1 when hits@K > 0)"
    )


def step_table(show: pd.DataFrame, max_grade: float) -> None:
    """The step table, its grade and item name cells coloured by grade."""
    max_g = max(float(max_grade), 1.0)

    def grade_styles(frame: pd.DataFrame) -> pd.DataFrame:
        css = [
            f"background-color: {grade_color(g, max_g)}; color: "
            + ("white" if g / max_g > 0.5 else "black")
            for g in frame["grade"]
        ]
        styles = pd.DataFrame("", index=frame.index, columns=frame.columns)
        styles["grade"] = css
        styles["item name"] = css
        return styles

    st.dataframe(
        show.style.apply(grade_styles, axis=None).format(precision=4),
        hide_index=True,
        width="stretch",
    )


def every_query_ap(ds, model: str, settings: page.Settings, per_query, empty: str, mean: float):
    """Every query's AP@K with its terms, and MAP@K as their mean (small data only)."""
    st.markdown("**Every query's AP@K, and the mean**")
    exact = settings.ties != "tie-averaged"
    k = settings.k
    lines = []
    for i, qid in enumerate(ds.sample_ids):
        s_i = cache.retrieval.steps(ds, model, i, settings)
        n_rel = int(per_query["relevant"].iloc[i])
        den = page.ap_denominator(s_i, n_rel, settings.denominator, k)
        terms = _fractions(s_i, exact) or "0"
        ap = fmt(per_query["AP@K"].iloc[i])
        lines.append(rf"AP@{k}(\text{{{qid}}}) = \frac{{1}}{{{den:g}}}\left({terms}\right) = {ap}")
    st.latex(r" \\ ".join(lines))
    kept = page.map_terms(per_query, empty)
    st.latex(
        rf"MAP@{k} = \frac{{"
        + " + ".join(fmt(v) for v in kept)
        + rf"}}{{{len(kept)}}} = "
        + fmt(mean)
    )
