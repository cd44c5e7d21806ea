"""Label ranking: coverage error, LRAP and ranking loss, sample by sample (issue 5)."""

from functools import partial

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from explorer import links, state, widgets
from explorer.charts import ranking as charts
from explorer.formatting import fmt
from metrics import label_ranking as lr

PAGE_ROWS = 200
RANK_ROWS = 50  # rows of the colored rank table (every cell is styled: the costly part)
MAX_TERMS = 12  # terms written out in a formula before "..."
TIE_LABELS = {
    "max": "scikit-learn (max rank)",
    "optimistic": "optimistic",
    "pessimistic": "pessimistic",
}
SORT_LABELS = {"lrap": "LRAP", "coverage": "Coverage error", "ranking_loss": "Ranking loss"}

st.title("Label ranking")
ds = state.active()
widgets.require_kind(ds, ("multilabel",), "seed003_lrap")
st.caption(
    "Coverage error, label ranking average precision (LRAP) and ranking loss score how a model "
    "orders the labels of each sample: its true labels should come before its false ones."
)


# --------------------------------------------------------------------- computation (cached)
def _compute(y_true, y_score, sample_weight) -> dict:
    return {
        "coverage": metrics.coverage_error(y_true, y_score, sample_weight=sample_weight),
        "best_coverage": lr.best_coverage_error(y_true, sample_weight=sample_weight),
        "lrap": metrics.label_ranking_average_precision_score(
            y_true, y_score, sample_weight=sample_weight
        ),
        "loss": metrics.label_ranking_loss(y_true, y_score, sample_weight=sample_weight),
        "contrib": lr.label_ranking_contributions(y_true, y_score, sample_weight=sample_weight),
        "ties": lr.tie_broken_summary(y_true, y_score, sample_weight=sample_weight),
    }


@widgets.cache_by_dataset
def _compute_dataset(ds, model: str) -> dict:
    return _compute(ds.y_true, ds.score(model), ds.sample_weight)


@widgets.cache_by_dataset
def _mrr(ds, model: str) -> float:
    return metrics.mean_reciprocal_rank(ds.y_true, ds.score(model))


WHATIF_LINK = "lr_whatif_link"  # the link's what-if edit (?wi=): (dataset, model, sample, cells)


def _reset_whatif() -> None:
    st.session_state.pop("lr_whatif_scores", None)
    st.session_state[WHATIF_LINK] = None
    st.session_state["lr_whatif_version"] = st.session_state.get("lr_whatif_version", 0) + 1


def _whatif_from_link(sample: int, model_name: str, scores: np.ndarray) -> np.ndarray | None:
    """The scores of ``sample`` with the link's what-if edit (``?wi=``), else None.

    Read once per session; a malformed edit is ignored with a notice. Like an
    edit made in the editor, it is gone once another sample or model is opened.
    """
    if WHATIF_LINK not in st.session_state:
        raw, seed = st.query_params.get("wi"), None
        if raw:
            try:
                wanted, cells = links.parse_whatif(raw, n, m)
                if wanted != sample:
                    raise ValueError(f"it edits sample {wanted}, but sample {sample} is open")
            except ValueError as exc:
                state.link_notice(f"The link's what-if edit (wi={raw}) is ignored: {exc}.")
            else:
                seed = (ds.fingerprint, model_name, sample, cells)
        st.session_state[WHATIF_LINK] = seed
    seed = st.session_state[WHATIF_LINK]
    if seed is None:
        return None
    if seed[:3] != (ds.fingerprint, model_name, sample):
        st.session_state[WHATIF_LINK] = None
        return None
    row = np.array(scores, dtype=np.float64)
    for j, value in seed[3].items():
        row[j] = value
    return row


def _open_from_table(samples: list[int]) -> None:
    rows = st.session_state["lr_contrib_table"]["selection"]["rows"]
    if rows:
        st.session_state["lr_sample"] = samples[rows[0]]


# --------------------------------------------------------------------- controls
models = list(ds.model_names)
model = models[0]
n, m = ds.n_samples, ds.n_labels
ids = list(ds.sample_ids)
names = list(ds.label_names)

top = st.container()
picture = st.container()

c_model, c_sort, c_page = st.columns(3)
if len(models) > 1:
    state.bind_param("lr_model", "model", models[0], str, state.member(models))
    model = c_model.selectbox("Model", models, key="lr_model")
    state.write_param("model", model)

state.bind_param("lr_sort_by", "sort", "lrap", str, state.member(SORT_LABELS))
sort_by = c_sort.selectbox(
    "Sort samples by (worst first)",
    list(SORT_LABELS),
    format_func=SORT_LABELS.get,
    key="lr_sort_by",
    help="Worst = moves that metric's mean the most in the wrong direction.",
)
state.write_param("sort", sort_by)

n_pages = -(-n // PAGE_ROWS)
page_no = 1
if n_pages > 1:
    state.bind_param("lr_rank_page", "page", 1, int, state.int_in(1, n_pages, clamp=False))
    page_no = int(
        c_page.number_input(
            f"Page of {PAGE_ROWS} samples (1 = worst)",
            min_value=1,
            max_value=n_pages,
            step=1,
            key="lr_rank_page",
        )
    )
    state.write_param("page", page_no)

try:
    base = _compute_dataset(ds, model)
except metrics.MetricInputError as exc:
    st.error(f"These labels and scores cannot be scored: {exc}")
    state.stop_page()

# --------------------------------------------------------------------- drill-down controls
st.header("How it is computed: one sample")
state.bind_param("lr_sample", "i", 0, int, state.int_in(0, n - 1, clamp=False))


def _sample_label(i: int) -> str:
    row = base["contrib"].iloc[i]
    who = f"sample {i}" if ids[i] == str(i) else f"sample {i} (id {ids[i]})"
    return (
        f"{who}: LRAP {fmt(row['lrap'])}, coverage {fmt(row['coverage'])}, "
        f"loss {fmt(row['ranking_loss'])}"
    )


c_sample, c_ties = st.columns([3, 2])
if n <= 1000:
    # the labels carry the model's numbers: a fresh widget when they change
    i = widgets.numbered_selectbox(
        c_sample, "Sample", range(n), _sample_label, key="lr_sample", help="URL: ?i="
    )
else:
    i = int(c_sample.number_input("Sample (row number)", 0, n - 1, step=1, key="lr_sample"))
    c_sample.caption(_sample_label(i))
state.write_param("i", i)

state.bind_param("lr_tie_mode", "ties", "max", str, state.member(TIE_LABELS))
ties = c_ties.radio(
    "Ties in this sample's LRAP and coverage",
    list(TIE_LABELS),
    format_func=TIE_LABELS.get,
    key="lr_tie_mode",
    horizontal=True,
    help="scikit-learn gives tied labels the deepest rank of their group. Optimistic puts "
    "the true labels of a tie group first, pessimistic puts them last.",
)
state.write_param("ties", ties)

# what-if editor over the selected sample's scores
orig_scores = ds.score(model)
orig_row = np.asarray(orig_scores[i])
linked_row = _whatif_from_link(i, model, orig_row)  # a shared link's edit starts the editor
version = st.session_state.get("lr_whatif_version", 0)
editor_df = pd.DataFrame(
    [orig_row if linked_row is None else linked_row], columns=names, index=[f"sample {i}"]
)
editor_df.index.name = "scores of" + " " * (version % 2)  # a reset gives a fresh editor
st.markdown(
    "**What if?** Edit this sample's scores: its ranks, step tables, contribution and the "
    "headline numbers update. True labels: "
    + (", ".join(f"`{names[j]}`" for j in np.flatnonzero(ds.y_true[i])) or "none")
    + "."
)
c_edit, c_reset = st.columns([5, 1])
edited = c_edit.data_editor(editor_df, key="lr_whatif_scores", num_rows="fixed", width="stretch")
c_reset.button(
    "Reset", key="lr_whatif_reset", on_click=_reset_whatif, help="Back to the model's scores."
)

y_true = ds.y_true
new_row = edited.to_numpy(dtype=np.float64, na_value=np.nan)[0]
is_edited = not np.array_equal(new_row, orig_row)
res = base
if is_edited:
    try:  # only sample i changes: its row is recomputed, the means and effects updated
        what_if = lr.replace_sample_scores(
            y_true[i],
            new_row,
            contributions=base["contrib"],
            sample=i,
            ties=base["ties"],
            previous_score_row=orig_row,
        )
    except metrics.MetricInputError as exc:
        st.error(f"The edited scores are not used: {exc}")
        is_edited = False
if is_edited:
    res = {
        "coverage": what_if.coverage,
        "best_coverage": base["best_coverage"],  # the labels are not edited
        "lrap": what_if.lrap,
        "loss": what_if.ranking_loss,
        "contrib": what_if.contributions,
        "ties": what_if.ties,
    }
    st.info("Showing the what-if scores: press **Reset** to go back.")
if is_edited:  # the link carries the edit, exactly
    state.write_param("wi", links.whatif_text(i, new_row, orig_row))
else:
    st.query_params.pop("wi", None)
contrib = res["contrib"]
row = contrib.iloc[i]
y_i, s_i = y_true[i], (new_row if is_edited else orig_row)


def _scores_of(rows) -> np.ndarray:
    """The shown scores of these samples (the what-if row in place of sample i's)."""
    out = orig_scores[rows]
    if is_edited:
        out[np.asarray(rows) == i] = new_row
    return out


# --------------------------------------------------------------------- 1 headline
with top:
    cols = st.columns(5)
    cols[0].metric("Coverage error", fmt(res["coverage"]), help="Lower is better.")
    cols[1].metric(
        "Best coverage",
        fmt(res["best_coverage"]),
        help="The mean number of true labels: the coverage error of a perfect ranking.",
    )
    cols[2].metric("LRAP", fmt(res["lrap"]), help="Higher is better; 1 is perfect.")
    cols[3].metric("Ranking loss", fmt(res["loss"]), help="Lower is better; 0 is perfect.")
    one_true = bool((contrib["n_true"] == 1).all())
    if one_true and not is_edited:
        cols[4].metric(
            "MRR",
            fmt(_mrr(ds, model)),
            help="Mean reciprocal rank: equals LRAP when every sample has one true label.",
        )
    caption = f"Model **{model}**, all {n} samples"
    if ds.sample_weight is not None:
        caption += ", weighted by sample_weight"
    if is_edited:
        caption += (
            f". With the what-if scores of sample {i}; before the edit: coverage error "
            f"{fmt(base['coverage'])}, LRAP {fmt(base['lrap'])}, ranking loss {fmt(base['loss'])}"
        )
    st.caption(caption + ".")
    if one_true:
        st.success(
            "Every sample here has exactly one true label, so each sample's LRAP is "
            "1 / (rank of its true label): LRAP equals the mean reciprocal rank (MRR)."
        )

# --------------------------------------------------------------------- the order of rows
order = lr.sort_worst_first(contrib, sort_by)
page_rows = order.iloc[(page_no - 1) * PAGE_ROWS : page_no * PAGE_ROWS]
page_samples = page_rows["sample"].tolist()
page_ids = [ids[s] for s in page_samples]

with picture:
    st.plotly_chart(
        charts.contributions_figure(
            page_rows, sort_by, page_ids, selected=i, metric_name=SORT_LABELS[sort_by]
        ),
        key="lr_contrib_chart",
    )
    shown = f"the worst {len(page_rows)}" if n > PAGE_ROWS else f"all {n}"
    st.caption(
        f"Showing {shown} of {n} samples (page {page_no} of {n_pages}). A bar is the "
        f"{SORT_LABELS[sort_by]} of all samples minus the {SORT_LABELS[sort_by]} without that "
        "sample (the number on a bar is the sample's own value): red bars make the headline "
        "worse, green ones better, the orange one is the sample opened below."
    )

# --------------------------------------------------------------------- 3 drill-down
steps_max = lr.lrap_steps(y_i, s_i)
lrap_t = lr.lrap_steps_tie_broken(y_i, s_i, ties=ties)
cov_t = lr.coverage_steps_tie_broken(y_i, s_i, ties=ties)
loss_t = lr.ranking_loss_steps(y_i, s_i)
tb_sample = lr.tie_broken_summary(y_i[None, :], s_i[None, :])

d1, d2, d3 = st.columns(3)
d1.metric("Sample LRAP", fmt(lrap_t["running_value"].iloc[-1]), help=f"Ties: {TIE_LABELS[ties]}.")
d2.metric(
    "Sample coverage", fmt(cov_t["running_value"].iloc[-1]), help=f"Ties: {TIE_LABELS[ties]}."
)
d3.metric(
    "Sample ranking loss",
    fmt(loss_t["running_value"].iloc[-1]),
    help="Ties count as mis-ordered pairs, as in scikit-learn.",
)
st.caption(
    f"Sample {i} ({row['n_true']} true of {m} labels) moves the mean LRAP by "
    f"{fmt(row['lrap_moves_mean'])}, the coverage error by {fmt(row['coverage_moves_mean'])} "
    f"and the ranking loss by {fmt(row['ranking_loss_moves_mean'])}."
)

st.plotly_chart(charts.sample_ranking_figure(steps_max, names), key="lr_sample_chart")
with st.container():
    st.markdown("**The tie rules side by side**")
    side = pd.DataFrame(
        {
            "tie rule": [TIE_LABELS[t] for t in tb_sample.index],
            "LRAP (this sample)": tb_sample["lrap"].to_numpy(),
            "coverage (this sample)": tb_sample["coverage"].to_numpy(),
            "LRAP (all samples)": res["ties"]["lrap"].to_numpy(),
            "coverage error (all)": res["ties"]["coverage"].to_numpy(),
        }
    )
    st.dataframe(
        side,
        hide_index=True,
        key="lr_tie_table",
        column_config={c: st.column_config.NumberColumn(format="%.4f") for c in side.columns[1:]},
    )
    st.caption(
        "Without ties the three rules agree. scikit-learn's coverage is the pessimistic one. "
        "Its LRAP is never below the pessimistic one, and usually below the optimistic one, "
        "but not always: it counts every tied true label in |L_ij|, which can beat putting "
        "them first one by one."
    )


def _name(j) -> str:
    return names[int(j)]


def _terms(values: list[str]) -> str:
    if len(values) > MAX_TERMS:
        return " + ".join(values[:MAX_TERMS]) + r" + \dots"
    return " + ".join(values)


def _steps_table(table: pd.DataFrame, key: str, file_name: str) -> None:
    shown = table.copy()
    for col in ("label", "true_label", "false_label"):
        if col in shown and shown[col].notna().all():
            shown.insert(shown.columns.get_loc(col) + 1, f"{col}_name", shown[col].map(_name))
    st.dataframe(shown, hide_index=True, key=key)
    st.download_button(
        "Download CSV",
        shown.to_csv(index=False),
        file_name=file_name,
        mime="text/csv",
        key=f"{key}_csv",
        on_click="ignore",
    )


tab_lrap, tab_cov, tab_loss = st.tabs(["LRAP", "Coverage", "Ranking loss"])
rank_word = r"\text{rank}_{ij}" if ties == "max" else r"\text{pos}_{ij}"
with tab_lrap:
    true_rows = lrap_t[lrap_t["is_true"]]
    value = lrap_t["running_value"].iloc[-1]
    formula = r"\text{LRAP}_i = \frac{1}{|Y_i|} \sum_{j \in Y_i} \frac{|L_{ij}|}{" + rank_word + "}"
    if "note" in lrap_t:
        st.latex(formula + r" \quad\Rightarrow\quad 1 \;\text{(by convention)}")
        st.warning(lrap_t["note"].iloc[0])
    else:
        fracs = [
            rf"\frac{{{a}}}{{{r}}}"
            for a, r in zip(true_rows["n_true_at_or_above"], true_rows["rank"], strict=True)
        ]
        st.latex(
            formula
            + rf" = \frac{{1}}{{{len(true_rows)}}}\left({_terms(fracs)}\right) = {fmt(value)}"
        )
    st.markdown(
        r"$|L_{ij}|$ (`n_true_at_or_above`) counts the true labels scoring at least as high as "
        r"true label $j$, and $\text{rank}_{ij}$ (`rank`) all labels scoring at least as high: "
        "the fraction is the precision at that depth. `running_value` is the mean of the "
        "fractions so far; its last line is the sample's LRAP."
        + (
            ""
            if ties == "max"
            else f" With {ties} tie-breaking the rank is the position in the broken order."
        )
    )
    _steps_table(lrap_t, "lr_lrap_steps", f"lrap_steps_sample_{i}.csv")

with tab_cov:
    true_rows = cov_t[cov_t["is_true"]]
    value = cov_t["running_value"].iloc[-1]
    formula = r"\text{coverage}_i = \max_{j \in Y_i} " + rank_word
    if "note" in cov_t:
        st.latex(formula + r" \quad\Rightarrow\quad 0 \;\text{(no true label)}")
        st.warning(cov_t["note"].iloc[0])
    else:
        st.latex(
            formula
            + rf" = \max\left({_terms([str(r) for r in true_rows['rank']]).replace(' + ', ', ')}"
            + rf"\right) = {fmt(value)}"
        )
        deepest = true_rows.iloc[-1]
        st.markdown(
            f"The deepest true label is **{_name(deepest['label'])}** at rank "
            f"**{int(deepest['rank'])}**: the top {int(deepest['rank'])} labels must be "
            f"predicted to cover every true label (the best possible is {row['n_true']})."
        )
    _steps_table(cov_t, "lr_coverage_steps", f"coverage_steps_sample_{i}.csv")

with tab_loss:
    value = loss_t["running_value"].iloc[-1]
    formula = (
        r"\text{loss}_i = \frac{|\{(j, k) : j \in Y_i,\ k \notin Y_i,\ s_{ik} \ge s_{ij}\}|}"
        r"{|Y_i| \cdot (m - |Y_i|)}"
    )
    if "note" in loss_t:
        st.latex(formula + r" \quad\Rightarrow\quad 0 \;\text{(no pair)}")
        st.warning(loss_t["note"].iloc[0])
    else:
        st.latex(
            formula
            + rf" = \frac{{{row['n_misordered']}}}{{{row['n_true']} \cdot {m - row['n_true']}}}"
            + f" = {fmt(value)}"
        )
        st.markdown(
            "Every (true, false) pair of this sample; a pair is mis-ordered when the false label "
            "scores at least as high as the true one (a tie counts as a full error, as in "
            "scikit-learn). `running_value` is the mis-ordered pairs so far over all pairs."
        )
    state.bind_param("lr_only_misordered", None, False, check=state.member((False, True)))
    only_bad = st.checkbox("Show only the mis-ordered pairs", key="lr_only_misordered")
    shown_loss = loss_t[loss_t["misordered"]] if only_bad and "note" not in loss_t else loss_t
    _steps_table(shown_loss, "lr_loss_steps", f"ranking_loss_pairs_sample_{i}.csv")

# --------------------------------------------------------------------- 4 per-sample breakdown
st.header("Every sample's contribution")
table = pd.DataFrame(
    {
        "sample": page_rows["sample"].to_numpy(),
        "id": page_ids,
        "true labels": page_rows["n_true"].to_numpy(),
        "coverage": page_rows["coverage"].to_numpy(),
        "coverage moves mean": page_rows["coverage_moves_mean"].to_numpy(),
        "LRAP": page_rows["lrap"].to_numpy(),
        "LRAP moves mean": page_rows["lrap_moves_mean"].to_numpy(),
        "ranking loss": page_rows["ranking_loss"].to_numpy(),
        "loss moves mean": page_rows["ranking_loss_moves_mean"].to_numpy(),
        "note": page_rows["note"].to_numpy(),
    }
)
num = st.column_config.NumberColumn(format="%.4f")
st.dataframe(
    table,
    hide_index=True,
    key="lr_contrib_table",
    on_select=partial(_open_from_table, page_samples),
    selection_mode="single-row",
    column_config={c: num for c in table.columns if "moves" in c or c in ("LRAP", "ranking loss")},
)
st.caption(
    f"Worst first by {SORT_LABELS[sort_by]}; {len(table)} of {n} samples shown"
    + (f" (page {page_no} of {n_pages})" if n_pages > 1 else "")
    + ". Click a row to open it above. *moves mean* = the mean over all samples minus the mean "
    "without this one."
)
st.download_button(
    "Download all samples (CSV)",
    lambda: contrib.assign(id=ids).loc[order.index].to_csv(index=False),  # built on the click
    file_name=f"label_ranking_contributions_{model}.csv",
    mime="text/csv",
    key="lr_contrib_csv",
    on_click="ignore",
)

# --------------------------------------------------------------------- 2b the rank table
st.header("The rank table")
rank_samples = page_samples[:RANK_ROWS]
ranks = lr.label_rank_table(_scores_of(rank_samples))
st.dataframe(
    charts.rank_table_styler(
        ranks.rank,
        y_true[rank_samples],
        ranks.tie_size,
        [f"{s} ({ids[s]})" if ids[s] != str(s) else str(s) for s in rank_samples],
        names,
    ),
    key="lr_rank_table",
)
st.caption(
    f"Each cell is the label's rank in its sample (1 = highest score; tied labels share the "
    f"deepest rank of their group). {charts.TRUE_MARK} marks a true label, "
    f"{charts.TIE_MARK} a label tied with another of the same sample (same rank = same tie "
    f"group). Rows: {len(rank_samples)} of {n} samples, worst first by {SORT_LABELS[sort_by]}"
    + (
        f" (the first {len(rank_samples)} of the {len(page_samples)} on this page; the "
        "download holds every sample)."
        if len(rank_samples) < len(page_samples)
        else "."
    )
)


def _rank_csv() -> str:
    all_ranks = lr.label_rank_table(_scores_of(np.arange(n)))
    out = pd.DataFrame(all_ranks.rank, columns=[f"rank_{c}" for c in names])
    true_df = pd.DataFrame(y_true.astype(int), columns=[f"true_{c}" for c in names])
    out.insert(0, "id", ids)
    return pd.concat([out, true_df], axis=1).to_csv(index=False)


st.download_button(
    "Download the rank table (CSV)",
    _rank_csv,
    file_name=f"label_ranks_{model}.csv",
    mime="text/csv",
    key="lr_ranks_csv",
    on_click="ignore",
)

# --------------------------------------------------------------------- teaching notes
st.header("Notes for teaching")
with st.expander("Why do tied labels take the maximal rank?", expanded=False):
    st.markdown(
        r"scikit-learn (and its user guide, seed 000) define $\text{rank}_{ij} = "
        r"|\{k : \hat f_{ik} \ge \hat f_{ij}\}|$: every label scoring *at least as high* counts "
        "as ranked above, so a tie group takes the deepest rank it occupies. This makes the "
        "metrics independent of the order of the columns, and it refuses to give credit for an "
        "undecided model: a model that gives every label the same score has coverage "
        r"$m$ and ranking loss 1. Use the tie switch above to see the optimistic and the "
        "pessimistic alternatives on the selected sample."
    )
with st.expander("Why is scikit-learn's coverage 1 more than Tsoumakas'?"):
    st.markdown(
        "Tsoumakas et al. define coverage as how many steps one must go *down* the ranked "
        "list to cover every true label, starting at the top label: the top label costs 0 "
        r"steps, so their coverage is $\max_j \text{rank}_{ij} - 1$. scikit-learn counts "
        "the *labels* one must predict, so the top label alone already counts 1: the same "
        r"ranking scores exactly one more, and the best possible value is $|Y_i|$ (shown above "
        r"as *Best coverage*) instead of $|Y_i| - 1$."
    )
with st.expander("A sample with no true label, or with every label true"):
    degenerate = contrib[contrib["note"] != ""]
    st.markdown(
        "scikit-learn's conventions, which the `metrics` package follows: with **no true "
        "label**, LRAP is 1, coverage is 0 and ranking loss 0 (there is no (true, false) pair); "
        "with **every label true**, LRAP is 1, coverage is the number of labels and ranking "
        "loss 0. Both kinds count fully in the means, so a dataset with many such rows has an "
        "LRAP pulled towards 1."
    )
    if len(degenerate):
        st.dataframe(
            degenerate.assign(id=[ids[s] for s in degenerate["sample"]])[
                ["sample", "id", "n_true", "coverage", "lrap", "ranking_loss", "note"]
            ],
            hide_index=True,
            key="lr_degenerate_table",
        )
    else:
        st.caption("This dataset has no such sample; `digit_properties` has (a 1 has none).")
with st.expander("LRAP equals MRR when each sample has one true label"):
    st.markdown(
        r"With one true label $j$, $|L_{ij}| = 1$ and $\text{LRAP}_i = 1 / \text{rank}_{ij}$: "
        "the reciprocal rank of the true label. The mean over samples is the mean reciprocal "
        "rank (MRR). The `digits` sample (one true digit per image) shows both numbers, equal. "
        "(MRR breaks ties in column order, LRAP takes the deepest rank, so on tied scores "
        "they can differ.)"
    )
    if not one_true:
        st.button(
            "Open the digits sample",
            key="lr_open_digits",
            on_click=state.set_active,
            args=("digits",),
        )
