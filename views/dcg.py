"""DCG & NDCG: discounted cumulative gain step by step, and what tied scores do to it."""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from explorer import state, widgets
from explorer.charts import dcg as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from metrics.dcg import (
    dcg_ranking,
    dcg_ranking_table,
    dcg_tie_bounds_per_sample,
    dcg_tie_order_steps,
    exponential_gain,
)

SEED = "seed001_dcg"
GAINS = ("as given (scikit-learn)", "2^rel - 1")
GAIN_PARAM = {GAINS[0]: "linear", GAINS[1]: "exponential"}
BASES = ("2", "e", "10", "other")
BASE_VALUES = {"2": 2.0, "e": float(np.e), "10": 10.0}
BASE_TEX = {"2": r"\log_{2}", "e": r"\ln", "10": r"\log_{10}"}
#: Above this many samples the sample picker is a row-number input.
PICKER_MAX = 1000
#: Rows of the per-sample table shown at a time.
PAGE_ROWS = 200

# Seed 001 (scikit-learn's dcg_score docstring): (row, k, ignore_ties, what the source prints)
SEED_EXAMPLES = (
    ("9.49", 0, None, False),
    ("5.63", 0, 2, False),
    ("7.5", 1, 1, False),
    ("5.0", 1, 1, True),
)


# ------------------------------------------------------------------ URL parsing
def _parse_k(raw: str):
    if raw.strip().lower() in ("", "all", "none"):
        return None
    k = int(raw)
    if k < 1:
        raise ValueError(raw)
    return k


def _check_k(value, n_items: int):
    """None (all items) or a whole k >= 1; a k beyond the items is all of them."""
    if value is None:
        return None
    return min(state.int_in(1, 2**63, clamp=False)(value), n_items)


def _parse_base_choice(raw: str) -> str:
    if raw in BASE_VALUES:
        return raw
    float(raw)  # a free base; a non-number falls back to the default
    return "other"


def _parse_bool(raw: str) -> bool:
    return raw.strip().lower() in ("1", "true", "yes", "on")


def _parse_gain(raw: str) -> str:
    for label, param in GAIN_PARAM.items():
        if raw in (label, param):
            return label
    raise ValueError(raw)


def _open_seed_example(index: int) -> None:
    """Button callback: open seed 001 with the settings of one of its examples."""
    _, row, k, ignore_ties = SEED_EXAMPLES[index]
    state.set_active(SEED)
    ss = st.session_state
    ss["dcg_k"], ss["dcg_ignore_ties"], ss["dcg_sample"] = k, ignore_ties, row
    ss["dcg_log_base"], ss["dcg_gain"] = "2", GAINS[0]
    ss["dcg_model"] = state.get_dataset(SEED).model_names[0]


# ------------------------------------------------------------------ cached computations
# The sort is shared by every k, log base, gain and tie mode. st.cache_resource (not
# cache_by_dataset's st.cache_data) so that the ~60 MB of orders is not unpickled on each hit.
@st.cache_resource(max_entries=4, hash_funcs={Dataset: lambda d: d.fingerprint})
def _ranking(ds, model: str):
    """The one sort of the model's scores (pure, cached per dataset and model)."""
    return dcg_ranking(ds.y_true, ds.score(model))


@widgets.cache_by_dataset
def per_sample_table(ds, model: str, k, log_base: float, ignore_ties: bool, exp_gain: bool):
    """Per-sample DCG, ideal DCG, NDCG and tie bounds of one model (pure, cached)."""
    values = dcg_ranking_table(
        _ranking(ds, model), k=k, log_base=log_base, ignore_ties=ignore_ties, exponential=exp_gain
    )
    table = pd.concat(
        [pd.DataFrame({"row": np.arange(ds.n_samples), "sample": ds.sample_ids}), values], axis=1
    )
    table["no relevant item"] = table["ideal DCG"] == 0
    if ds.sample_weight is not None:
        table["weight"] = ds.sample_weight
    return table


@widgets.cache_by_dataset
def worst_first(ds, model: str, k, log_base: float, ignore_ties: bool, exp_gain: bool):
    """The per-sample table sorted worst first (cached: a stable sort of 10^5 rows)."""
    table = per_sample_table(ds, model, k, log_base, ignore_ties, exp_gain)
    return table.sort_values(["no relevant item", "NDCG", "DCG"], kind="stable")


def _on_pick_row() -> None:
    """Row click in the per-sample table: open that sample in "how it is computed"."""
    rows = st.session_state["dcg_per_sample_pick"]["selection"]["rows"]
    shown = st.session_state.get("dcg_shown_rows", [])
    if rows and rows[0] < len(shown):
        st.session_state["dcg_sample"] = shown[rows[0]]


# ------------------------------------------------------------------ small text helpers
def _num(x: float) -> str:
    """A short number for formulas and averaging text (the values come from metrics)."""
    return f"{float(x):.4g}"


def _averaging_text(steps: pd.DataFrame) -> list[str]:
    """'(10 + 5) / 2 = 7.5' for the first row of each tie group of 2 or more, else ''."""
    out = []
    first = ~steps["tie_group"].duplicated()
    groups = steps.groupby("tie_group")["relevance"].apply(list)
    for g, size, mean, is_first in zip(
        steps["tie_group"], steps["tie_size"], steps["mean_gain"], first, strict=True
    ):
        if size > 1 and is_first:
            out.append(f"({' + '.join(_num(v) for v in groups[g])}) / {size} = {_num(mean)}")
        elif size > 1:
            out.append('"')
        else:
            out.append("")
    return out


def _steps_view(steps: pd.DataFrame, names, grades, *, averaged: bool) -> pd.DataFrame:
    view = pd.DataFrame(
        {
            "position": steps["position"],
            "item": [names[i] for i in steps["item"]],
            "score": steps["score"],
            "grade": grades[steps["item"].to_numpy()],
            "gain": steps["relevance"],
            "tie group": steps["tie_group"],
            "tie size": steps["tie_size"],
            "gain used": steps["mean_gain"],
            "averaging": _averaging_text(steps) if averaged else "",
            "discount": steps["discount"],
            "contribution": steps["contribution"],
            "running sum": steps["running_sum"],
            "in top k": np.where(steps["in_top_k"], "yes", "no"),
        }
    )
    if not averaged:
        view = view.drop(columns="averaging")
    return view


TIE_COLORS = ("background-color: #ecdcf0", "background-color: #d5eeec")


def _shade(view: pd.DataFrame, *, ties: bool = True):
    """Shade tie groups (alternating colours) and grey out positions after k."""
    tied_groups = sorted(set(view.loc[view["tie size"] > 1, "tie group"])) if ties else []

    def css(frame: pd.DataFrame) -> pd.DataFrame:
        # one vectorized pass (a row-wise Styler.apply costs ~1 ms per row)
        per_row = np.full(len(frame), "", dtype=object)
        if ties and tied_groups:
            tied = (frame["tie size"] > 1).to_numpy()
            parity = np.searchsorted(tied_groups, frame["tie group"].to_numpy()) % 2
            per_row[tied] = np.asarray(TIE_COLORS, dtype=object)[parity[tied]]
        per_row[(frame["in top k"] != "yes").to_numpy()] = (
            "color: #9a9a9a; background-color: #f2f2f2"
        )
        return pd.DataFrame(
            np.repeat(per_row[:, None], frame.shape[1], axis=1),
            index=frame.index,
            columns=frame.columns,
        )

    formats = {c: "{:.4f}" for c in ("discount", "contribution", "running sum", "gain used")}
    formats |= {"score": "{:.4g}", "grade": "{:g}", "gain": "{:.4g}"}
    return view.style.apply(css, axis=None).format(
        {c: f for c, f in formats.items() if c in view.columns}
    )


def _term_tex(steps: pd.DataFrame, log_tex: str) -> str:
    top = steps[steps["in_top_k"] & (steps["mean_gain"] != 0)]
    terms = [
        rf"\frac{{{_num(g)}}}{{{log_tex}({p + 1})}}"
        for g, p in zip(top["mean_gain"], top["position"], strict=True)
    ]
    if not terms:
        return "0"
    lines = [" + ".join(terms[i : i + 4]) for i in range(0, len(terms), 4)]
    return r" \\ &+ ".join(lines)


# ================================================================== the page
st.title("DCG & NDCG")
ds = state.active()
widgets.require_kind(ds, ("graded", "multilabel"), SEED)

st.markdown(
    "**DCG** adds up the gain of each item in the predicted order, discounted by its "
    "position r: gain / log_b(1 + r). **NDCG** divides that by the DCG of the ideal order "
    "(items sorted by their own gain), so 1 is a perfect ranking. Tied scores are averaged "
    "(McSherry & Najork) unless you ignore ties."
)
if ds.name != SEED:
    st.button(
        "Seed 001 examples (scikit-learn's worked examples: 9.49, 5.63, 7.5, 5.0)",
        key="dcg_open_seed",
        on_click=_open_seed_example,
        args=(0,),
    )

# ------------------------------------------------------------------ controls
n_items = ds.n_labels
state.bind_param("dcg_k", "k", None, _parse_k, lambda v: _check_k(v, n_items))
state.bind_param("dcg_log_base", "log_base", "2", _parse_base_choice, state.member(BASES))
state.bind_param(
    "dcg_log_base_other", "log_base", 3.0, float, state.float_in(0.01, 1e300, clamp=False)
)
state.bind_param("dcg_ignore_ties", "ignore_ties", False, _parse_bool, state.member((False, True)))
state.bind_param("dcg_gain", "gain", GAINS[0], _parse_gain, state.member(GAINS))
state.bind_param("dcg_model", "model", ds.model_names[0], str, state.member(ds.model_names))
state.bind_param(
    "dcg_sample", "sample", 0, ds.sample_ids.index, state.int_in(0, ds.n_samples - 1, clamp=False)
)

c_k, c_base, c_ties, c_gain, c_model = st.columns([0.9, 1, 1.25, 1.45, 1])
k = c_k.number_input(
    "k (cut-off)",
    min_value=1,
    max_value=n_items,
    step=1,
    key="dcg_k",
    placeholder="all",
    help=f"Only the top k positions count. Leave empty for all {n_items} items.",
)
base_choice = c_base.selectbox(
    "log base",
    BASES,
    key="dcg_log_base",
    help="The discount is 1 / log_b(1 + position). scikit-learn's default is 2.",
)
if base_choice == "other":
    base_other = c_base.number_input(
        "base b", min_value=0.01, step=0.5, key="dcg_log_base_other", format="%.3g"
    )
    log_base, base_param, log_tex = float(base_other), str(base_other), rf"\log_{{{base_other:g}}}"
else:
    log_base, base_param, log_tex = BASE_VALUES[base_choice], base_choice, BASE_TEX[base_choice]
ignore_ties = c_ties.toggle(
    "ignore ties",
    key="dcg_ignore_ties",
    help="Off (scikit-learn's default): tied items share the mean gain of their tie group. "
    "On: tied items are ranked one after the other, higher column first (scikit-learn's order).",
)
gain_choice = c_gain.radio(
    "gain",
    GAINS,
    key="dcg_gain",
    help="scikit-learn's dcg_score and ndcg_score use the relevance as given (linear gain). "
    "Many IR papers use 2^rel - 1, which rewards the top grades more.",
)
model = c_model.selectbox("model", ds.model_names, key="dcg_model")
exp_gain = gain_choice == GAINS[1]

state.write_param("k", "all" if k is None else int(k))
state.write_param("log_base", base_param)
state.write_param("ignore_ties", int(bool(ignore_ties)))
state.write_param("gain", GAIN_PARAM[gain_choice])
state.write_param("model", model)

k = None if k is None else int(k)
y_grades = ds.y_true
s = ds.score(model)
w = ds.sample_weight
try:
    table = per_sample_table(ds, model, k, log_base, bool(ignore_ties), exp_gain)
    # dcg_score / ndcg_score are the (weighted) means of these per-sample values
    dcg_value = float(np.average(table["DCG"], weights=w))
    ndcg_value = float(np.average(table["NDCG"], weights=w))
except metrics.MetricInputError as exc:
    st.error(str(exc))
    state.stop_page()

# ------------------------------------------------------------------ 1. headline
tie_text = "ties ignored (higher column first)" if ignore_ties else "ties averaged"
k_text = f"k = {k}" if k is not None else f"k = all {n_items}"
base_text = base_param if base_choice != "e" else "e"
c1, c2, c3 = st.columns([1, 1, 3])
c1.metric(
    "DCG",
    fmt(dcg_value),
    help="Mean DCG over the samples (weighted when the dataset has sample weights).",
)
c2.metric("NDCG", fmt(ndcg_value), help="Mean NDCG over the samples; it does not depend on b.")
c3.markdown(
    f"Mean over **{ds.n_samples}** samples of model **{model}** · {k_text} · log base "
    f"{base_text} · {tie_text} · gain {gain_choice}"
    + (" · weighted by sample_weight" if w is not None else "")
)
if exp_gain:
    c3.caption(
        "Gain 2^rel - 1: each grade is replaced by 2^grade - 1 before everything else "
        "(grades 0, 1, 2, 3 give 0, 1, 3, 7). scikit-learn uses the relevance as given."
        + (" With 0/1 labels the two gains are the same." if ds.kind == "multilabel" else "")
    )
if base_choice != "2":
    st.info(
        "**NDCG does not depend on the log base.** scikit-learn's `ndcg_score` has no "
        "`log_base` argument (it always uses base 2), and it needs none: at base b every "
        "discount is the base-2 discount times ln b / ln 2, the same factor for the DCG and "
        "for the ideal DCG, so the factor cancels in their ratio. The NDCG shown is "
        "`ndcg_score`; the DCG values on this page use base "
        f"{base_text}, and below the selected sample's NDCG is written as the ratio of its "
        f"base-{base_text} DCG over its base-{base_text} ideal DCG: the same number."
    )

# ------------------------------------------------------------------ seed 001's examples
if ds.name == SEED:
    with st.container(border=True):
        st.markdown(
            "**Seed 001: scikit-learn's `dcg_score` worked examples.** Both rows have "
            "relevance a=10, b=0, c=0, d=1, e=5. Row 0 scores them 0.1, 0.2, 0.3, 4, 70 "
            "(no ties); row 1 scores them 1, 0, 0, 0, 1 (a and e tie at the top). The headline "
            "above averages both rows; each example is one row. Click one to open it below."
        )
        names = ds.label_names
        for i, (printed, row, ek, eties) in enumerate(SEED_EXAMPLES):
            yr, sr = ds.y_true[row], ds.score()[row]
            value = metrics.dcg_per_sample(ds.y_true, ds.score(), k=ek, ignore_ties=eties)[row]
            ex_steps = metrics.dcg_steps(yr, sr, k=ek, ignore_ties=eties)
            top = ex_steps[ex_steps["in_top_k"]]
            if i < 2:
                terms = " + ".join(
                    f"{_num(g)}/log2({p + 1})"
                    for g, p in zip(top["relevance"], top["position"], strict=True)
                )
                why = (
                    f"order {', '.join(names[j] for j in ex_steps['item'])}: {terms} = "
                    + " + ".join(_num(c) for c in top["contribution"])
                    + f" = **{fmt(value)}**"
                    + (
                        f" (the source prints 9.49..., the first digits of {value:.4f})"
                        if i == 0
                        else "; a's 10 sits at position 5, outside the top 2"
                    )
                )
            elif i == 2:
                why = (
                    f"a and e tie at score 1, so both get their mean gain "
                    f"{_averaging_text(ex_steps)[0]}; k=1 keeps position 1 only (discount 1): "
                    f"{_num(top['mean_gain'].iloc[0])} x 1 = **{fmt(value)}**"
                )
            else:
                first = names[int(ex_steps["item"].iloc[0])]
                low, high = dcg_tie_bounds_per_sample(ds.y_true, ds.score(), k=ek)
                why = (
                    f"ranked one after the other in scikit-learn's order (higher column first), "
                    f"{first} (gain {_num(top['relevance'].iloc[0])}) comes first: "
                    f"{_num(top['relevance'].iloc[0])} x 1 = **{fmt(value)}**, the pessimistic "
                    f"order. Ignoring ties on tied scores is a coin toss: the other order gives "
                    f"{fmt(high[row])}, and tie averaging sits between, at "
                    f"{fmt(metrics.dcg_per_sample(ds.y_true, ds.score(), k=ek)[row])}"
                )
            ca, cb = st.columns([1, 5])
            ca.button(
                f"Open {printed}",
                key=f"dcg_seed_example_{i}",
                on_click=_open_seed_example,
                args=(i,),
                width="stretch",
            )
            setting = f"row {row}, k={'all' if ek is None else ek}" + (
                ", ignore_ties=True" if eties else ""
            )
            cb.markdown(f"**{fmt(value)}** ({setting}): {why}.")

# ------------------------------------------------------------------ 2. the picture
st.subheader("The selected sample, position by position")
if ds.n_samples <= PICKER_MAX:
    ndcg_of = table["NDCG"].to_numpy()
    # the labels show each sample's NDCG at the current settings: a fresh widget each
    # time they change (widgets.numbered_selectbox), the row kept in "dcg_sample"
    row = widgets.numbered_selectbox(
        st,
        "sample",
        range(ds.n_samples),
        lambda i: f"{ds.sample_ids[i]} (NDCG {fmt(ndcg_of[i])})",
        key="dcg_sample",
        help="Pick a sample, or click a row of the per-sample table at the bottom.",
    )
else:  # a selectbox of 10^5 options would format and send every one of them
    row = int(
        st.number_input(
            f"sample (row 0 to {ds.n_samples - 1})",
            min_value=0,
            max_value=ds.n_samples - 1,
            step=1,
            key="dcg_sample",
            help="Type a row number, or click a row of the per-sample table at the bottom.",
        )
    )
    st.caption(f"Row {row}: sample {ds.sample_ids[row]}, NDCG {fmt(table['NDCG'].iloc[row])}")
state.write_param("sample", ds.sample_ids[row])
names = ds.label_names
# the selected sample's gains (transforming only this row, not the whole matrix)
y_row = y_grades[row : row + 1]
if exp_gain:
    y_row = exponential_gain(y_row)
steps = metrics.dcg_steps(y_row[0], s[row], k=k, log_base=log_base, ignore_ties=ignore_ties)
ideal = metrics.dcg_steps(y_row[0], y_row[0], k=k, log_base=log_base, ignore_ties=True)
gain_name = "2^rel - 1" if exp_gain else "relevance"
st.plotly_chart(
    charts.steps_figure(
        steps,
        k=k,
        item_names=names,
        gain_label=gain_name,
        title=f"Sample {ds.sample_ids[row]}: gain and contribution per position",
    ),
    key="dcg_steps_chart",
)
n_groups = charts.n_tie_groups(steps)
st.caption(
    "Bars: the gain each position uses and its contribution (gain x discount); black dashes: "
    "the item's own gain; green line: the discount, right axis. "
    + (
        f"Shaded: {n_groups} tie group(s), whose items share the group's mean gain. "
        if n_groups and not ignore_ties
        else (f"Shaded: {n_groups} tie group(s), ranked one by one. " if n_groups else "")
    )
    + ("The dashed red line is the k cut." if k is not None and k < n_items else "")
)

# ------------------------------------------------------------------ 3. how it is computed
st.subheader("How it is computed")
row_dcg = table["DCG"].iloc[row]
row_ideal = table["ideal DCG"].iloc[row]
row_ndcg = table["NDCG"].iloc[row]
bar_g = r"\bar g_r" if not ignore_ties else "g_r"
k_sum = r"\min(k, M)" if k is not None else "M"
st.latex(
    rf"\begin{{aligned}}\mathrm{{DCG}} &= \sum_{{r=1}}^{{{k_sum}}} "
    rf"\frac{{{bar_g}}}{{{log_tex}(1 + r)}} \\ &= {_term_tex(steps, log_tex)} \\ "
    rf"&= {fmt(row_dcg)}\end{{aligned}}"
)
st.caption(
    ("g̅_r is the mean gain of the tie group at position r. " if not ignore_ties else "")
    + f"M = {n_items} items; terms with zero gain are left out."
)
m1, m2, m3 = st.columns(3)
m1.metric("DCG of this sample", fmt(row_dcg))
m2.metric("Ideal DCG of this sample", fmt(row_ideal))
m3.metric("NDCG of this sample", fmt(row_ndcg))

grades = ds.y_true[row]
st.markdown(
    f"**The model's order** ({tie_text}): shaded rows are tie groups, grey rows are after the "
    "k cut (discount 0); the last running sum is the sample's DCG"
)
view = _steps_view(steps, names, grades, averaged=not ignore_ties)
if not exp_gain:
    view = view.drop(columns="gain")
st.dataframe(
    _shade(view),
    hide_index=True,
    key="dcg_steps_table",
    column_order=[c for c in view.columns if c not in ("tie size", "averaging", "in top k")]
    + (["averaging"] if "averaging" in view.columns else []),
)
st.download_button(
    "Download this table (CSV)",
    view.to_csv(index=False),
    file_name=f"dcg_steps_{ds.name}_{ds.sample_ids[row]}.csv",
    mime="text/csv",
    key="dcg_dl_steps",
)

tied = steps[steps["tie_size"] > 1]
if len(tied) and not ignore_ties:
    lines = []
    for g, grp in tied.groupby("tie_group"):
        inside = grp[grp["in_top_k"]]
        avg = _averaging_text(grp.reset_index(drop=True))[0]
        items = ", ".join(names[i] for i in grp["item"])
        disc = " + ".join(_num(d) for d in grp["discount"])
        lines.append(
            f"- tie group {g} (positions {grp['position'].min()} to {grp['position'].max()}, "
            f"items {items}, score {_num(grp['score'].iloc[0])}): mean gain {avg}; "
            f"discounts {disc}; the group adds {_num(grp['mean_gain'].iloc[0])} x "
            f"({disc}) = {_num(grp['contribution'].sum())}"
            + (
                f" ({len(grp) - len(inside)} of its positions are after k, discount 0)"
                if len(inside) < len(grp)
                else ""
            )
        )
    st.markdown("**Tie groups, averaged** (shaded in the table):\n" + "\n".join(lines))
left, right = st.columns([1.7, 1])
with left:
    st.markdown("**The ideal order** (items sorted by their own gain): the ideal DCG")
    iview = _steps_view(ideal, names, grades, averaged=False)
    iview = iview.drop(columns=["score", "tie group", "tie size", "gain used"])
    if not exp_gain:
        iview = iview.drop(columns="gain")
    st.dataframe(
        _shade(iview, ties=False),
        hide_index=True,
        key="dcg_ideal",
        column_order=[c for c in iview.columns if c != "in top k"],
    )
    st.download_button(
        "Download the ideal table (CSV)",
        iview.to_csv(index=False),
        file_name=f"dcg_ideal_{ds.name}_{ds.sample_ids[row]}.csv",
        mime="text/csv",
        key="dcg_dl_ideal",
    )
with right:
    st.markdown("**NDCG of this sample**: the ratio of the two last running sums")
    if row_ideal == 0:
        st.warning(
            "This sample has no relevant item (every gain is 0): its ideal DCG is 0, and "
            "NDCG = 0 / 0 is set to **0**, as scikit-learn does."
        )
    else:
        st.latex(
            rf"\begin{{aligned}}\mathrm{{NDCG}} &= "
            rf"\frac{{\mathrm{{DCG}}}}{{\mathrm{{ideal\ DCG}}}} \\ &= "
            rf"\frac{{{fmt(row_dcg)}}}{{{fmt(row_ideal)}}} = {fmt(row_ndcg)}"
            rf"\end{{aligned}}"
        )
        if base_choice != "2":
            st.caption(
                f"Both sums use log base {base_text}. ndcg_score, which always uses base 2, "
                f"gives the same {fmt(row_ndcg)}: the base cancels in the ratio."
            )

# ------------------------------------------------------------------ ties: averaged vs ignored
st.subheader("What tied scores do")
orders = dcg_tie_order_steps(y_row[0], s[row], k=k, log_base=log_base)
tie_dcg = {
    "pessimistic": table["pessimistic DCG"].iloc[row],
    "tie-averaged": metrics.dcg_per_sample(y_row, s[row : row + 1], k=k, log_base=log_base)[0],
    "ignore_ties": metrics.dcg_per_sample(
        y_row, s[row : row + 1], k=k, log_base=log_base, ignore_ties=True
    )[0],
    "optimistic": table["optimistic DCG"].iloc[row],
}
if not (orders["tie_size"] > 1).any():
    st.markdown(
        "This sample has **no tied scores**: averaging, ignoring ties and the best and worst "
        f"orders of ties all give the same DCG, {fmt(tie_dcg['tie-averaged'])}. "
        "Pick a sample with ties (seed 001's row 1, or the diabetes 'tree' model) to see "
        "the difference."
    )
else:
    st.markdown(
        "Tied items have no order of their own. **Tie-averaged** DCG (scikit-learn's default, "
        "McSherry & Najork 2008) is the mean DCG over every order of the tied items, so it "
        "lies between the **pessimistic** order (worst gain first inside each tie group) and "
        "the **optimistic** one (best gain first). **ignore_ties** picks one arbitrary order "
        "(higher column first, as scikit-learn), which can land anywhere in that range."
    )
    t1, t2, t3, t4 = st.columns(4)
    for col, (label, value) in zip((t1, t2, t3, t4), tie_dcg.items(), strict=True):
        col.metric(f"{label} DCG", fmt(value))
    st.plotly_chart(
        charts.tie_bounds_figure(
            {
                "pessimistic": tie_dcg["pessimistic"],
                "tie-averaged": tie_dcg["tie-averaged"],
                "ignore_ties": tie_dcg["ignore_ties"],
                "optimistic": tie_dcg["optimistic"],
            }
        ),
        key="dcg_bounds_chart",
    )
    a, b = st.columns(2)
    cols = ["position", "item", "grade", "gain used", "contribution", "running sum"]
    averaged_steps = metrics.dcg_steps(y_row[0], s[row], k=k, log_base=log_base)
    ignored_steps = metrics.dcg_steps(y_row[0], s[row], k=k, log_base=log_base, ignore_ties=True)
    with a:
        st.markdown("**ignore_ties off** (averaged; tied items listed in column order)")
        v = _steps_view(averaged_steps, names, grades, averaged=True)
        st.dataframe(_shade(v), hide_index=True, column_order=cols, key="dcg_ties_off")
    with b:
        st.markdown("**ignore_ties on** (higher column first among tied scores)")
        v = _steps_view(ignored_steps, names, grades, averaged=False)
        st.dataframe(_shade(v), hide_index=True, column_order=cols, key="dcg_ties_on")
    moved = orders[orders["moved"]]
    mv = pd.DataFrame(
        {
            "item": [names[i] for i in moved["item"]],
            "score": moved["score"],
            "gain": moved["relevance"],
            "position (averaged table)": moved["position_averaged"],
            "position (ignore_ties)": moved["position_ignore_ties"],
            "position pessimistic": moved["position_pessimistic"],
            "position optimistic": moved["position_optimistic"],
        }
    )
    st.markdown(f"**Items whose position changes** when ties are ignored: {len(mv)}")
    st.dataframe(
        mv,
        hide_index=True,
        key="dcg_moved",
        column_config={"score": st.column_config.NumberColumn("score", format="%.4g")},
    )
    st.caption(
        "Inside a tie group the averaged table lists items in column order, but their order "
        "does not matter there: every item gets the group's mean gain. The CSV below adds "
        "each item's contribution under all four orders."
    )
    st.download_button(
        "Download the four tie orders (CSV)",
        orders.assign(item=[names[i] for i in orders["item"]]).to_csv(index=False),
        file_name=f"dcg_tie_order_steps_{ds.name}_{ds.sample_ids[row]}.csv",
        mime="text/csv",
        key="dcg_dl_orders",
    )

# ------------------------------------------------------------------ 4. per sample
st.subheader("Per sample, worst first")
st.plotly_chart(
    charts.distribution_figure(table, title=f"Model {model}: {k_text}, {tie_text}"),
    key="dcg_distribution",
)
empty = table[table["no relevant item"]]
if len(empty):
    st.warning(
        f"{len(empty)} of {ds.n_samples} samples have **no relevant item** (every gain 0): "
        "their DCG and ideal DCG are 0 and NDCG counts them as **0**, as scikit-learn does, "
        "which pulls the mean NDCG down. They are flagged, and listed last, in the table: "
        + ", ".join(empty["sample"].head(20))
        + (" ..." if len(empty) > 20 else "")
        + "."
    )
worst = worst_first(ds, model, k, log_base, bool(ignore_ties), exp_gain)
start = 0
if len(worst) > PAGE_ROWS:
    state.bind_param("dcg_per_sample_start", None, 0, check=state.int_in(0, len(worst) - 1))
    start = int(
        st.number_input(
            f"show rows from (worst first; {len(worst)} samples)",
            min_value=0,
            max_value=len(worst) - 1,
            step=PAGE_ROWS,
            key="dcg_per_sample_start",
        )
    )
shown = worst.iloc[start : start + PAGE_ROWS]
st.session_state["dcg_shown_rows"] = shown["row"].tolist()
st.caption(
    f"{len(table)} samples, sorted by NDCG then DCG, lowest first"
    + (
        " (samples with no relevant item last: their 0 is not the model's fault)"
        if len(empty)
        else ""
    )
    + (
        f"; rows {start} to {start + len(shown) - 1} are shown, the CSV has all {len(table)}"
        if len(table) > PAGE_ROWS
        else ""
    )
    + ". Click a row to open that sample above."
)
st.dataframe(
    shown.drop(columns="row"),
    hide_index=True,
    key="dcg_per_sample_pick",
    on_select=_on_pick_row,
    selection_mode="single-row",
    column_config={
        c: st.column_config.NumberColumn(c, format="%.4f")
        for c in ("DCG", "ideal DCG", "NDCG", "pessimistic DCG", "optimistic DCG")
    },
)
st.download_button(
    "Download per-sample DCG and NDCG (CSV)",
    lambda: worst.drop(columns="row").to_csv(index=False),  # built on click only
    file_name=f"dcg_per_sample_{ds.name}_{model}.csv",
    mime="text/csv",
    key="dcg_dl_per_sample",
)
