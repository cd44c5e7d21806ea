"""How the Top-K retrieval page's drill-down is computed: the drill-down metric's
formula with the query's numbers, P@K, R@K and the hit rate with its counts, and on
small data every query's AP@K and their mean MAP@K.

Layout only: the numbers come from :mod:`explorer.pages.retrieval_query`."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer.formatting import fmt, latex_text
from explorer.pages import retrieval, retrieval_query
from explorer.ui import cache
from explorer.ui.language import t
from views import prose


def _wrap(terms: list[str], per_line: int = 5) -> str:
    """Join latex terms with +, breaking the line every ``per_line`` terms."""
    if not terms:
        return "0"
    lines = [" + ".join(terms[i : i + per_line]) for i in range(0, len(terms), per_line)]
    return r" \\ &+ ".join(lines)


def _fractions(steps: pd.DataFrame, exact: bool) -> str:
    """AP@K's terms hits so far / position, as fractions (or decimals when ``exact`` is
    False: tie-averaged hits are expectations)."""
    terms = retrieval_query.formula_terms(steps, "AP@K")
    return " + ".join(rf"\tfrac{{{h:g}}}{{{p:g}}}" if exact else f"{h / p:.4f}" for h, p in terms)


def drill_formula(drill: str, steps, row: pd.Series, settings: retrieval.Settings, total: float):
    """The drill-down metric's formula with this query's numbers (st.latex)."""
    exact = settings.ties != "tie-averaged"
    terms = retrieval_query.formula_terms(steps, drill)
    if drill == "AP@K":
        n_rel = int(row["relevant"])
        den = retrieval_query.ap_denominator(steps, n_rel, settings.denominator, settings.k)
        st.latex(
            r"AP@K = \frac{1}{" + retrieval.DEN_LATEX[settings.denominator] + r"}"
            r"\sum_{r \le K} P(r)\,\mathrm{rel}(r) = \frac{1}{"
            + f"{den:g}"
            + r"}\left("
            + (_fractions(steps, exact) or "0")
            + r"\right) = "
            + fmt(total)
        )
        st.caption(
            t(
                "P(r) = relevant items in the top r / r, at each relevant position r <= ${k}. "
                "M = ${m} relevant items (grade >= ${level}).",
                k=settings.k,
                m=n_rel,
                level=int(settings.level),
            )
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
        else t("R@K = 0 (no relevant item: M = 0)")
    )
    st.markdown(
        t(
            "This query: P@K = hits@K / K = ${h} / ${k} = ${p} · ${recall} · "
            "hit rate@K = ${hit} (1 when hits@K > 0)",
            h=h,
            k=k,
            p=fmt(row["P@K"]),
            recall=recall,
            hit=fmt(row["hit rate@K"]),
        )
    )


def every_query_ap(ds, controls, per_query, mean: float) -> None:
    """Every query's AP@K with its terms, and MAP@K as their mean (small data only);
    ``controls``: :class:`views.retrieval.controls.Controls`."""
    model, settings, empty = controls.model, controls.settings, controls.empty
    st.markdown(t("**Every query's AP@K, and the mean**"))
    exact = settings.ties != "tie-averaged"
    k = settings.k
    lines = []
    for i, qid in enumerate(ds.sample_ids):
        s_i = cache.retrieval.steps(ds, model, i, settings)
        n_rel = int(per_query["relevant"].iloc[i])
        den = retrieval_query.ap_denominator(s_i, n_rel, settings.denominator, k)
        terms = _fractions(s_i, exact) or "0"
        ap = fmt(per_query["AP@K"].iloc[i])
        head = rf"AP@{k}(\text{{{latex_text(qid)}}})"
        lines.append(rf"{head} = \frac{{1}}{{{den:g}}}\left({terms}\right) = {ap}")
    st.latex(r" \\ ".join(lines))
    kept = retrieval_query.map_terms(per_query, empty)
    st.latex(
        rf"MAP@{k} = \frac{{"
        + " + ".join(fmt(v) for v in kept)
        + rf"}}{{{len(kept)}}} = "
        + fmt(mean)
    )
