"""Layout helpers of the Label ranking page (views/label_ranking.py): the what-if link,
the callbacks, the selected sample's section and the teaching notes. The numbers
come from :mod:`explorer.pages.label_ranking`, the texts from views/label_ranking/text.md."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from explorer import downloads, links
from explorer.charts import ranking as charts
from explorer.formatting import fmt
from explorer.pages import label_ranking as model
from explorer.pages.label_ranking import TIE_LABELS
from explorer.ui import sidebar, url, widgets
from views import prose

MAX_TERMS = 12  # terms written out in a formula before "..."
WHATIF_LINK = "lr_whatif_link"  # the link's what-if edit (?wi=): (dataset, model, sample, cells)


# --------------------------------------------------------------------- what if? and callbacks
def _reset_whatif() -> None:
    st.session_state.pop("lr_whatif_scores", None)
    st.session_state[WHATIF_LINK] = None
    st.session_state["lr_whatif_version"] = st.session_state.get("lr_whatif_version", 0) + 1


def _whatif_from_link(ds, sample: int, model_name: str, scores: np.ndarray) -> np.ndarray | None:
    """The scores of ``sample`` with the link's what-if edit (``?wi=``), else None.

    Read once per session; a malformed edit is ignored with a notice. Like an
    edit made in the editor, it is gone once another sample or model is opened.
    """
    if WHATIF_LINK not in st.session_state:
        raw, seed = st.query_params.get("wi"), None
        if raw:
            try:
                wanted, cells = links.parse_whatif(raw, ds.n_samples, ds.n_labels)
                if wanted != sample:
                    raise ValueError(f"it edits sample {wanted}, but sample {sample} is open")
            except ValueError as exc:
                sidebar.link_notice(f"The link's what-if edit (wi={raw}) is ignored: {exc}.")
            else:
                seed = (ds.fingerprint, model_name, sample, cells)
        st.session_state[WHATIF_LINK] = seed
    seed = st.session_state[WHATIF_LINK]
    if seed is None:
        return None
    if seed[:3] != (ds.fingerprint, model_name, sample):
        st.session_state[WHATIF_LINK] = None
        return None
    return model.apply_cells(scores, seed[3])


def whatif_editor(ds, i: int, model_name: str, orig_row: np.ndarray) -> np.ndarray:
    """The what-if editor over the selected sample's scores; returns the row it holds."""
    names = list(ds.label_names)
    linked_row = _whatif_from_link(ds, i, model_name, orig_row)  # a link's edit starts it
    version = st.session_state.get("lr_whatif_version", 0)
    editor_df = pd.DataFrame(
        [orig_row if linked_row is None else linked_row], columns=names, index=[f"sample {i}"]
    )
    editor_df.index.name = "scores of" + " " * (version % 2)  # a reset gives a fresh editor
    true_names = ", ".join(f"`{names[j]}`" for j in np.flatnonzero(ds.y_true[i])) or "none"
    st.markdown(prose.section("label_ranking", "whatif") + f" {true_names}.")
    c_edit, c_reset = st.columns([5, 1])
    edited = c_edit.data_editor(
        editor_df, key="lr_whatif_scores", num_rows="fixed", width="stretch"
    )
    c_reset.button(
        "Reset", key="lr_whatif_reset", on_click=_reset_whatif, help="Back to the model's scores."
    )
    return edited.to_numpy(dtype=np.float64, na_value=np.nan)[0]


def open_from_table(samples: list[int]) -> None:
    rows = st.session_state["lr_contrib_table"]["selection"]["rows"]
    if rows:
        st.session_state["lr_sample"] = samples[rows[0]]


def sample_label(contrib: pd.DataFrame, ids: list[str], i: int) -> str:
    """The sample picker's label: the sample and its three numbers."""
    row = contrib.iloc[i]
    who = f"sample {i}" if ids[i] == str(i) else f"sample {i} (id {ids[i]})"
    return (
        f"{who}: LRAP {fmt(row['lrap'])}, coverage {fmt(row['coverage'])}, "
        f"loss {fmt(row['ranking_loss'])}"
    )


# --------------------------------------------------------------------- the selected sample
def _terms(values: list[str]) -> str:
    if len(values) > MAX_TERMS:
        return " + ".join(values[:MAX_TERMS]) + r" + \dots"
    return " + ".join(values)


def _steps_table(table: pd.DataFrame, names, key: str, file_name: str) -> None:
    shown = model.with_label_names(table, names)
    widgets.table(shown, missing="a false label, which has no term", hide_index=True, key=key)
    st.download_button(
        "Download CSV",
        downloads.csv_text(shown),
        file_name=file_name,
        mime="text/csv",
        key=f"{key}_csv",
        on_click="ignore",
    )


def sample_section(
    one: model.SampleSteps, all_ties, row, i: int, names, ties: str, scales=None
) -> None:
    """The selected sample: its numbers, its ranking, the tie rules and the step tables.

    ``scales`` (:func:`explorer.pages.label_ranking.effect_scales`) writes the sample's
    effects in the per-sample table's units.
    """
    scales = scales or {}
    m = len(names)
    lrap, coverage, loss = one.values
    d1, d2, d3 = st.columns(3)
    d1.metric("Sample LRAP", fmt(lrap), help=f"Ties: {TIE_LABELS[ties]}.")
    d2.metric("Sample coverage", fmt(coverage), help=f"Ties: {TIE_LABELS[ties]}.")
    d3.metric(
        "Sample ranking loss",
        fmt(loss),
        help="Ties count as mis-ordered pairs, as in scikit-learn.",
    )
    st.caption(
        f"Sample {i} ({row['n_true']} true of {m} labels) moves the mean LRAP by "
        + ", the coverage error by ".join(
            model.effect_text(row[f"{c}_moves_mean"], scales.get(c, (1.0, "")))
            for c in ("lrap", "coverage")
        )
        + " and the ranking loss by "
        + model.effect_text(row["ranking_loss_moves_mean"], scales.get("ranking_loss", (1.0, "")))
        + "."
    )

    if len(names) > charts.NAMED_ROWS_MAX:  # redrawn on every step: SVG, not plotly
        widgets.svg_chart(charts.sample_ranking_svg(one.ranking, names))
    else:
        st.plotly_chart(charts.sample_ranking_figure(one.ranking, names), key="lr_sample_chart")
    with st.container():
        st.markdown("**The tie rules side by side**")
        side = model.tie_rules_table(one.ties, all_ties)
        st.dataframe(
            side,
            hide_index=True,
            key="lr_tie_table",
            column_config={
                c: st.column_config.NumberColumn(format="%.4f") for c in side.columns[1:]
            },
        )
        st.caption(prose.section("label_ranking", "tie-rules"))

    # lazy: only the open tab is drawn (a step of the sample redraws one table, not three)
    url.bind_param("lr_steps_tab", "steps", STEP_TABS[0], _tab_of, url.member(STEP_TABS))
    tabs = st.tabs(list(STEP_TABS), key="lr_steps_tab", on_change="rerun")
    url.write_param("steps", st.session_state["lr_steps_tab"].split()[0].lower())
    rank_word = r"\text{rank}_{ij}" if ties == "max" else r"\text{pos}_{ij}"
    if tabs[0].open:
        with tabs[0]:
            _lrap_tab(one.lrap, rank_word, ties, names, i)
    if tabs[1].open:
        with tabs[1]:
            _coverage_tab(one.coverage, rank_word, row, names, i)
    if tabs[2].open:
        with tabs[2]:
            _loss_tab(one.loss, row, m, names, i)


#: The step tables' tabs; a link names the open one by its first word (``?steps=ranking``).
STEP_TABS = ("LRAP", "Coverage", "Ranking loss")


def _tab_of(word: str) -> str:
    """The tab ``?steps=`` names (KeyError for none)."""
    return {t.split()[0].lower(): t for t in STEP_TABS}[word]


def _formula(steps: pd.DataFrame, formula: str, convention: str, worked: str) -> bool:
    """The formula with the sample's numbers, or scikit-learn's convention and the note."""
    if "note" in steps:
        st.latex(formula + r" \quad\Rightarrow\quad " + convention)
        st.warning(steps["note"].iloc[0])
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
            else f" With {ties} tie-breaking the rank is the position in the broken order."
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
            f"The deepest true label is **{names[int(deepest['label'])]}** at rank "
            f"**{int(deepest['rank'])}**: the top {int(deepest['rank'])} labels must be "
            f"predicted to cover every true label (the best possible is {row['n_true']})."
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
    only_bad = st.checkbox("Show only the mis-ordered pairs", key="lr_only_misordered")
    shown_loss = loss_t[loss_t["misordered"]] if only_bad and "note" not in loss_t else loss_t
    _steps_table(shown_loss, names, "lr_loss_steps", f"ranking_loss_pairs_sample_{i}.csv")
