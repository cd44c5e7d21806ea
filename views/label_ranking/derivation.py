"""How the Label ranking page's selected sample is computed: its step tables, one tab
per metric (LRAP, coverage, ranking loss), each with the formula and the sample's
numbers plugged in. Only the open tab is drawn."""

from __future__ import annotations

import pandas as pd
import streamlit as st

from explorer import downloads
from explorer.formatting import fmt, literal
from explorer.pages import label_ranking
from explorer.ui import bound, url, widgets
from explorer.ui.language import t
from views import prose

MAX_TERMS = 12  # terms written out in a formula before "..."
#: The step tables' tabs; a link names the open one by its first word (``?steps=ranking``).
STEP_TABS = ("LRAP", "Coverage", "Ranking loss")


def steps(one: label_ranking.SampleSteps, row, names, ties: str, i: int) -> None:
    """The step tables of sample ``i`` (``row``: its line of the per-sample table)
    under the tie rule ``ties``; lazy: only the open tab is drawn (a step of the sample
    redraws one table, not three)."""
    tabs = bound.tabs(STEP_TABS, key="lr_steps_tab", param="steps")
    rank_word = r"\text{rank}_{ij}" if ties == "max" else r"\text{pos}_{ij}"
    if tabs[0].open:
        with tabs[0]:
            _lrap_tab(one.lrap, rank_word, ties, names, i)
    if tabs[1].open:
        with tabs[1]:
            _coverage_tab(one.coverage, rank_word, row, names, i)
    if tabs[2].open:
        with tabs[2]:
            _loss_tab(one.loss, row, len(names), names, i)


def _terms(values: list[str]) -> str:
    if len(values) > MAX_TERMS:
        return " + ".join(values[:MAX_TERMS]) + r" + \dots"
    return " + ".join(values)


def _steps_table(table: pd.DataFrame, names, key: str, file_name: str) -> None:
    shown = label_ranking.with_label_names(table, names)
    widgets.table(
        shown,
        missing=t("a false label, which has no term"),
        hide_index=True,
        key=key,
    )
    st.download_button(
        t("Download CSV"),
        downloads.csv_text(shown),
        file_name=file_name,
        mime="text/csv",
        key=f"{key}_csv",
        on_click="ignore",
    )


def note_text(note: str) -> str:
    """A step table's note (``"no true label: scikit-learn scores such a sample 1.0"``,
    written by :mod:`metrics.explain.label_ranking` in two parts) in the page's language."""
    why, colon, rest = note.partition(": ")
    return t(why) + (t(colon + rest) if colon else "")


def _formula(steps: pd.DataFrame, formula: str, convention: str, worked: str) -> bool:
    """The formula with the sample's numbers, or scikit-learn's convention and the note."""
    if "note" in steps:
        st.latex(formula + r" \quad\Rightarrow\quad " + convention)
        st.warning(note_text(steps["note"].iloc[0]))
        return False
    st.latex(formula + worked)
    return True


def _lrap_tab(lrap_t: pd.DataFrame, rank_word: str, ties: str, names, i: int) -> None:
    true_rows = lrap_t[lrap_t["is_true"]]
    fracs = [
        rf"\frac{{{a}}}{{{r}}}"
        for a, r in zip(true_rows["n_true_at_or_above"], true_rows["rank"], strict=True)
    ]
    _formula(
        lrap_t,
        r"\text{LRAP}_i = \frac{1}{|Y_i|} \sum_{j \in Y_i} \frac{|L_{ij}|}{" + rank_word + "}",
        r"1 \;\text{(by convention)}",
        rf" = \frac{{1}}{{{len(true_rows)}}}\left({_terms(fracs)}\right) = "
        + fmt(lrap_t["running_value"].iloc[-1]),
    )
    st.markdown(
        prose.section("label_ranking", "lrap-steps")
        + (
            ""
            if ties == "max"
            else " "
            + t(
                "With ${rule} tie-breaking the rank is the position in the broken order.",
                rule=t(ties),
            )
        )
    )
    _steps_table(lrap_t, names, "lr_lrap_steps", f"lrap_steps_sample_{i}.csv")


def _coverage_tab(cov_t: pd.DataFrame, rank_word: str, row, names, i: int) -> None:
    true_rows = cov_t[cov_t["is_true"]]
    ranks = _terms([str(r) for r in true_rows["rank"]]).replace(" + ", ", ")
    if _formula(
        cov_t,
        r"\text{coverage}_i = \max_{j \in Y_i} " + rank_word,
        r"0 \;\text{(no true label)}",
        rf" = \max\left({ranks}\right) = {fmt(cov_t['running_value'].iloc[-1])}",
    ):
        deepest = true_rows.iloc[-1]
        st.markdown(
            t(
                "The deepest true label is **${name}** at rank **${rank}**: the top ${rank} "
                "labels must be predicted to cover every true label (the best possible is "
                "${best}).",
                name=literal(names[int(deepest["label"])]),
                rank=int(deepest["rank"]),
                best=row["n_true"],
            )
        )
    _steps_table(cov_t, names, "lr_coverage_steps", f"coverage_steps_sample_{i}.csv")


def _loss_tab(loss_t: pd.DataFrame, row, m: int, names, i: int) -> None:
    if _formula(
        loss_t,
        r"\text{loss}_i = \frac{|\{(j, k) : j \in Y_i,\ k \notin Y_i,\ s_{ik} \ge s_{ij}\}|}"
        r"{|Y_i| \cdot (m - |Y_i|)}",
        r"0 \;\text{(no pair)}",
        rf" = \frac{{{row['n_misordered']}}}{{{row['n_true']} \cdot {m - row['n_true']}}}"
        + f" = {fmt(loss_t['running_value'].iloc[-1])}",
    ):
        st.markdown(prose.section("label_ranking", "loss-steps"))
    url.bind_param("lr_only_misordered", None, False, check=url.member((False, True)))
    only_bad = st.checkbox(t("Show only the mis-ordered pairs"), key="lr_only_misordered")
    shown_loss = loss_t[loss_t["misordered"]] if only_bad and "note" not in loss_t else loss_t
    _steps_table(shown_loss, names, "lr_loss_steps", f"ranking_loss_pairs_sample_{i}.csv")
