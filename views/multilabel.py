"""Multilabel classification: scores become label sets; class-averaged against overall metrics."""

import numpy as np
import pandas as pd
import streamlit as st

import metrics
from explorer import state, widgets
from explorer.charts import multilabel as charts
from explorer.datasets import Dataset
from explorer.formatting import fmt
from explorer.links import float_text
from metrics.classification import (
    MultilabelCounts,
    multilabel_averages,
    multilabel_counts,
    multilabel_label_table_from_counts,
    multilabel_outcomes,
    multilabel_per_sample,
    multilabel_worst_samples,
    threshold_predictions,
    top_k_predictions,
)

st.title("Multilabel classification")
ds = state.active()
widgets.require_kind(ds, ("multilabel",), "digit_properties")

st.markdown(
    "Each sample may carry any number of labels. A model gives a score per label; a **rule** "
    "turns the scores into a predicted label set, and the metrics compare that set with the "
    "true one, label by label (class-averaged), over all cells at once (overall) or sample by "
    "sample."
)

RULES = {
    "threshold": "one global threshold",
    "per_label": "a threshold per label",
    "top_k": "the top k labels of each sample",
}
ZERO_DIVISION = {
    "warn": '"warn" (gives 0, scikit-learn\'s default)',
    "0": "0",
    "1": "1",
    "nan": "NaN (left out of the averages)",
}
ZD_VALUE = {"warn": "warn", "0": 0, "1": 1, "nan": np.nan}
FB = "F-beta"
SHOWN_ROWS = 200
#: Worst samples kept per setting (the table shows SHOWN_ROWS, the sample picker 500);
#: up to ALL_ROWS samples, all of them are kept and offered.
HEAD_ROWS = 500
ALL_ROWS = 2000


def _float(raw: str) -> float:
    value = float(raw)
    if not np.isfinite(value):
        raise ValueError(raw)
    return value


def _thresholds(raw: str) -> tuple[float, ...]:
    return tuple(_float(x) for x in raw.split(","))


# ---------------------------------------------------------------- controls
models = list(ds.model_names)
state.bind_param("ml_model", "model", models[0], str, state.member(models))
state.bind_param("ml_pred_rule", "rule", "threshold", str, state.member(RULES))

scores_all = ds.score(st.session_state["ml_model"])
lo = min(0.0, float(np.floor(scores_all.min())))
hi = max(1.0, float(np.ceil(scores_all.max())))
state.bind_param("ml_threshold", "t", 0.5, _float, state.float_in(lo, hi))
state.bind_param("ml_top_k", "k", 1, int, state.int_in(1, ds.n_labels))
state.bind_param("ml_beta", "beta", 1.0, _float, state.float_in(0.0, 10.0))
state.bind_param("ml_zero_division", "zd", "warn", str, state.member(ZERO_DIVISION))

c_model, c_rule = st.columns([1, 2])
model = c_model.selectbox(
    "Model", models, key="ml_model", help="The dataset's score matrices, one per model."
)
rule = c_rule.radio(
    "Prediction rule",
    list(RULES),
    format_func=RULES.get,
    key="ml_pred_rule",
    horizontal=True,
    help="How scores become a predicted label set.",
)
scores = ds.score(model)
label_names = list(ds.label_names)

threshold = st.slider(
    "Threshold",
    min_value=lo,
    max_value=hi,
    step=0.01,
    key="ml_threshold",
    help="A label is predicted when its score is >= the threshold. Used by the rule "
    "'one global threshold' and as the starting value of the per-label thresholds.",
    disabled=rule != "threshold",
)
thresholds: tuple[float, ...] = ()
top_k = st.session_state["ml_top_k"]
if rule == "per_label":
    raw = st.query_params.get("lt")
    try:
        base = _thresholds(raw) if raw else ()
    except ValueError:
        base = ()
    if len(base) != ds.n_labels:
        base = (threshold,) * ds.n_labels
    st.caption(
        "Edit the threshold of any label (double-click a cell). Lower a rare label's "
        "threshold to trade precision for recall on it alone."
    )
    edited = st.data_editor(
        pd.DataFrame({"label": label_names, "threshold": list(base)}),
        key="ml_label_thresholds",
        hide_index=True,
        disabled=["label"],
        column_config={
            "threshold": st.column_config.NumberColumn(
                "threshold", min_value=lo, max_value=hi, step=0.01, format="%.2f"
            )
        },
    )
    thresholds = tuple(float(x) for x in edited["threshold"].fillna(np.nan))
    if all(np.isfinite(thresholds)):
        state.write_param("lt", ",".join(float_text(x) for x in thresholds))
elif rule == "top_k":
    top_k = st.number_input(
        "k (labels predicted per sample)",
        min_value=1,
        max_value=ds.n_labels,
        step=1,
        key="ml_top_k",
        help="Every sample gets exactly k predicted labels, the k highest scores "
        "(ties: lower column first).",
    )

c_beta, c_zd = st.columns([1, 2])
beta = c_beta.number_input(
    "beta (F-beta)",
    min_value=0.0,
    max_value=10.0,
    step=0.5,
    key="ml_beta",
    help="beta > 1 favours recall, beta < 1 precision; beta = 1 is F1.",
)
zd_key = c_zd.radio(
    "zero_division: the value of a 0/0",
    list(ZERO_DIVISION),
    format_func=ZERO_DIVISION.get,
    key="ml_zero_division",
    horizontal=True,
    help="Precision of a label that is never predicted is 0/0, recall of a label that never "
    "occurs is 0/0; the same for a sample with no predicted or no true label.",
)
zd = ZD_VALUE[zd_key]
state.write_param("model", model)
state.write_param("rule", rule)
state.write_param("t", float_text(threshold, ".2f"))
state.write_param("k", int(top_k))
state.write_param("beta", float_text(beta))
state.write_param("zd", zd_key)


# ---------------------------------------------------------------- computation
def _predict(ds, model, rule, threshold, thresholds, top_k) -> np.ndarray:
    """The predicted label sets of a setting, as a boolean matrix."""
    s = ds.score(model)
    if rule == "top_k":
        return top_k_predictions(s, k=top_k, dtype=bool)
    if rule == "per_label":
        return threshold_predictions(s, list(thresholds), dtype=bool)
    return threshold_predictions(s, threshold, dtype=bool)


# The one pass over the N x L cells of a setting: the predictions and every count
# (per label and per sample). st.cache_resource, not st.cache_data, so the N x L
# matrix is not copied on every rerun (it is made read-only instead); keyed on the
# dataset's fingerprint. Moving beta or zero_division reuses it whole.
@st.cache_resource(max_entries=6, hash_funcs={Dataset: lambda d: d.fingerprint})
def _prediction(
    ds, model, rule, threshold, thresholds, top_k
) -> tuple[np.ndarray, MultilabelCounts]:
    """The predicted label sets (read-only booleans) and their MultilabelCounts."""
    pred = _predict(ds, model, rule, threshold, thresholds, top_k)
    pred.setflags(write=False)
    return pred, multilabel_counts(ds.y_true, pred, sample_weight=ds.sample_weight)


def _sample_rows(ds, pred, rows, beta, zd_key) -> pd.DataFrame:
    """The per-sample table of the samples ``rows`` (in that order), label names included.

    Every column is row-local, so these rows are the same computed alone: only the
    shown samples are named (naming a million cells is the slow part).
    """
    table = multilabel_per_sample(
        ds.y_true[rows],
        pred[rows],
        beta=beta,
        zero_division=ZD_VALUE[zd_key],
        label_names=ds.label_names,
    )
    table.index = rows
    return table


@widgets.cache_by_dataset
def _scores(ds, model, rule, threshold, thresholds, top_k, beta, zd_key) -> dict:
    """Every average, the per-label table and the worst samples, from the counts.

    No pass over the N x L matrices here: beta and zero_division only rescore the
    counts. Kept small, as the cache hands a copy to every rerun: of the per-sample
    table only the worst HEAD_ROWS rows (all of them up to ALL_ROWS samples); the
    CSV rebuilds the whole table on click.
    """
    pred, counts = _prediction(ds, model, rule, threshold, thresholds, top_k)
    zd = ZD_VALUE[zd_key]
    averages = multilabel_averages(counts, beta=beta, zero_division=zd)
    order = multilabel_worst_samples(counts, zero_division=zd)
    head = ds.n_samples if ds.n_samples <= ALL_ROWS else HEAD_ROWS
    return {
        "hamming": averages["hamming_loss"],
        "subset": averages["subset_accuracy"],
        "n_exact": averages["exact_matches"],
        "averages": {avg: averages[avg] for avg in ("macro", "micro", "samples", "weighted")},
        "labels": multilabel_label_table_from_counts(
            counts, beta=beta, zero_division=zd, label_names=ds.label_names, summary=True
        ),
        "worst": _sample_rows(ds, pred, order[:head], beta, zd_key),
        "rows_no_pred": int(np.count_nonzero(counts.sample_predicted == 0)),
        "rows_no_true": int(np.count_nonzero(counts.sample_true == 0)),
    }


def _setting(ds, model, rule, threshold, thresholds, top_k) -> tuple:
    """The cache key of a prediction: only the settings its rule uses (going back to a
    rule reuses its cache)."""
    return (
        ds,
        model,
        rule,
        threshold if rule == "threshold" else None,
        thresholds if rule == "per_label" else (),
        top_k if rule == "top_k" else None,
    )


def compute(ds, model, rule, threshold, thresholds, top_k, beta, zd_key) -> dict:
    """Everything the page shows, from `metrics` (cached per dataset and settings)."""
    setting = _setting(ds, model, rule, threshold, thresholds, top_k)
    pred, _ = _prediction(*setting)
    return {"pred": pred, **_scores(*setting, beta, zd_key)}


def _sample_table(ds, worst: pd.DataFrame) -> pd.DataFrame:
    """The per-sample table as shown and downloaded: rows of ``worst``, in its order."""
    out = worst.rename(columns={"fbeta": FB})
    out.insert(0, "sample", [ds.sample_ids[i] for i in worst.index])
    if ds.sample_weight is not None:
        out["sample_weight"] = ds.sample_weight[worst.index]
    front = ["sample", "true_labels", "predicted_labels", "missed", "extra", "wrong"]
    return out[front + [c for c in out.columns if c not in front]]


def _samples_csv(ds, model, rule, threshold, thresholds, top_k, beta, zd_key):
    """The deferred CSV of every sample, worst first (built when the button is clicked)."""

    def build() -> bytes:
        pred, counts = _prediction(*_setting(ds, model, rule, threshold, thresholds, top_k))
        order = multilabel_worst_samples(counts, zero_division=ZD_VALUE[zd_key])
        table = _sample_table(ds, _sample_rows(ds, pred, order, beta, zd_key))
        return table.to_csv(index=False).encode()

    return build


try:
    res = compute(ds, model, rule, threshold, thresholds, int(top_k), float(beta), zd_key)
except metrics.MetricInputError as exc:
    st.error(str(exc))
    state.stop_page()

avg = res["averages"]
table = res["labels"]
per_label = table.iloc[: ds.n_labels]
macro_row, micro_row = table.iloc[ds.n_labels], table.iloc[ds.n_labels + 1]
n, L = ds.n_samples, ds.n_labels
rule_text = {
    "threshold": f"score >= {threshold:.2f}",
    "per_label": "score >= the label's own threshold",
    "top_k": f"the top {int(top_k)} scores of each sample",
}[rule]

# ---------------------------------------------------------------- 1 headline
c = st.columns(5)
c[0].metric(
    "Hamming loss",
    fmt(res["hamming"]),
    help="The share of the N x L cells (sample, label) that are wrong. Lower is better.",
)
c[1].metric(
    "Subset accuracy",
    fmt(res["subset"]),
    help="The share of samples whose whole predicted label set is exactly right.",
)
c[2].metric(
    "Micro F1",
    fmt(avg["micro"]["f1"]),
    help="O-F1: F1 of the counts pooled over all labels (average='micro').",
)
c[3].metric(
    "Macro F1",
    fmt(avg["macro"]["f1"]),
    help="C-F1: the mean of the per-label F1 scores (average='macro').",
)
c[4].metric(
    "Jaccard (samples)",
    fmt(avg["samples"]["jaccard"]),
    help="|true ∩ predicted| / |true ∪ predicted| per sample, averaged (average='samples').",
)
st.caption(
    f"Model **{model}**, {n} samples x {L} labels, predicted when {rule_text}; "
    f"zero_division = {ZERO_DIVISION[zd_key]}"
    + ("; weighted by sample_weight." if ds.sample_weight is not None else ".")
)

# zero_division: where it applies
no_pred = per_label.loc[per_label["no_prediction"].astype(bool), "label"].tolist()
no_sup = per_label.loc[per_label["no_support"].astype(bool), "label"].tolist()
rows_no_pred, rows_no_true = res["rows_no_pred"], res["rows_no_true"]
zd_shown = {"warn": "0", "0": "0", "1": "1", "nan": "NaN (left out)"}[zd_key]
notes = []
if no_pred:
    notes.append(
        f"label(s) **{', '.join(no_pred)}** are never predicted: their precision is "
        f"0/0 = {zd_shown}"
    )
if no_sup:
    notes.append(f"label(s) **{', '.join(no_sup)}** never occur: their recall is 0/0 = {zd_shown}")
if rows_no_pred:
    notes.append(
        f"{rows_no_pred} sample(s) have an empty predicted set: sample precision 0/0 = {zd_shown}"
    )
if rows_no_true:
    notes.append(f"{rows_no_true} sample(s) have no true label: sample recall 0/0 = {zd_shown}")
if notes:
    st.info(
        "**Where zero_division decides:** "
        + "; ".join(notes)
        + ". Change the zero_division choice above and watch Macro F1 and the sample "
        "averages move, while Micro F1 (pooled counts) rarely does.",
    )
else:
    st.caption(
        "zero_division changes nothing here: every label is predicted and occurs, and every "
        "sample has a true and a predicted label. Lower the threshold a lot (or raise it) to "
        "empty a label."
    )

# ---------------------------------------------------------------- 2 the picture
st.subheader("Per label: precision, recall, F1")
st.plotly_chart(
    charts.label_scores_figure(per_label, macro_f1=avg["macro"]["f1"], micro_f1=avg["micro"]["f1"]),
    key="ml_label_bars",
)
worst = res["worst"]  # the worst samples, per-sample table rows, index = sample index
grid_rows = worst.index[:30].to_numpy()
st.plotly_chart(
    charts.outcome_grid_figure(
        multilabel_outcomes(ds.y_true[grid_rows], res["pred"][grid_rows]),
        [ds.sample_ids[i] for i in grid_rows],
        label_names,
        title="The 30 worst samples: TP, FN (missed), FP (extra), TN",
    ),
    key="ml_outcome_grid",
)

# ---------------------------------------------------------------- 3 how it is computed
st.subheader("How it is computed")
st.markdown(
    "**The per-label table.** For every label j count over the samples: TP_j (true and "
    "predicted), FP_j (predicted, not true), FN_j (true, missed) and the support n_j = "
    "TP_j + FN_j. The last two lines average it two ways: the **macro** line is the mean of "
    "the column above it (class-averaged, C-P / C-R / C-F1), the **micro** line pools the "
    "counts first and scores them once (overall, O-P / O-R / O-F1); its F1 is the headline "
    "Micro F1."
)
shown_labels = table.rename(columns={"fbeta": FB, "f1": "F1"})
# display only: the macro line has no counts (blank rather than "None"); tn and the number
# predicted are in the CSV
on_screen = shown_labels.drop(columns=["no_prediction", "no_support", "tn", "predicted"])
counts = ["tp", "fp", "fn", "support"]
on_screen[counts] = on_screen[counts].map(lambda x: "" if pd.isna(x) else f"{x:g}")
st.caption(f"F-beta with beta = {beta:g}. Counts are weighted when the data has sample_weight.")
st.dataframe(
    on_screen,
    hide_index=True,
    width="stretch",
    column_config={
        c: st.column_config.NumberColumn(format="%.4f")
        for c in ("precision", "recall", "F1", FB, "jaccard")
    },
)
st.download_button(
    "Per-label table as CSV",
    shown_labels.to_csv(index=False),
    file_name=f"{ds.name}.multilabel.labels.csv",
    key="ml_download_labels",
)

st.markdown("**The averages side by side** (precision, recall, F1, F-beta, Jaccard).")
NAMES = [
    ("macro", "C-P, C-R, C-F1 (class-averaged)", 'average="macro"'),
    ("micro", "O-P, O-R, O-F1 (pooled counts)", 'average="micro"'),
    ("samples", "sample-averaged", 'average="samples"'),
    ("weighted", "support-weighted", 'average="weighted"'),
]
avg_table = pd.DataFrame(
    [
        {
            "literature": lit,
            "scikit-learn": sk,
            "precision": avg[key]["precision"],
            "recall": avg[key]["recall"],
            "F1": avg[key]["f1"],
            FB: avg[key]["fbeta"],
            "jaccard": avg[key]["jaccard"],
        }
        for key, lit, sk in NAMES
    ]
)
st.dataframe(
    avg_table,
    hide_index=True,
    width="stretch",
    column_config={
        c: st.column_config.NumberColumn(format="%.4f")
        for c in ("precision", "recall", "F1", FB, "jaccard")
    },
)
st.download_button(
    "Averages as CSV",
    avg_table.to_csv(index=False),
    file_name=f"{ds.name}.multilabel.averages.csv",
    key="ml_download_averages",
)

f_tp, f_fp, f_fn = (micro_row[c] for c in ("tp", "fp", "fn"))


def _terms(values) -> str:
    """The per-label values written as a sum (elided in the middle for many labels)."""
    parts = [f"{x:.3f}" for x in values]
    if len(parts) > 6:
        parts = [*parts[:3], r"\cdots", *parts[-2:]]
    return " + ".join(parts)


st.markdown("**Class-averaged (macro):** score each label, then take the plain mean.")
st.latex(
    r"\text{C-P} = \frac{1}{L}\sum_{j=1}^{L}\frac{TP_j}{TP_j+FP_j}"
    rf" = \tfrac{{1}}{{{L}}}({_terms(per_label['precision'])}) = {fmt(avg['macro']['precision'])}"
)
st.latex(
    r"\text{C-R} = \frac{1}{L}\sum_{j=1}^{L}\frac{TP_j}{TP_j+FN_j}"
    rf" = \tfrac{{1}}{{{L}}}({_terms(per_label['recall'])}) = {fmt(avg['macro']['recall'])}"
)
st.latex(
    r"\text{C-F1} = \frac{1}{L}\sum_{j=1}^{L}F1_j"
    rf" = \tfrac{{1}}{{{L}}}({_terms(per_label['f1'])}) = {fmt(avg['macro']['f1'])}"
)
st.markdown("**Overall (micro):** pool TP, FP, FN over all labels, then score once.")
st.latex(
    r"\text{O-P} = \frac{\sum_j TP_j}{\sum_j (TP_j+FP_j)}"
    rf" = \frac{{{f_tp:g}}}{{{f_tp:g} + {f_fp:g}}} = {fmt(avg['micro']['precision'])}"
)
st.latex(
    r"\text{O-R} = \frac{\sum_j TP_j}{\sum_j (TP_j+FN_j)}"
    rf" = \frac{{{f_tp:g}}}{{{f_tp:g} + {f_fn:g}}} = {fmt(avg['micro']['recall'])}"
)
st.latex(
    r"\text{O-F1} = \frac{2\sum_j TP_j}{2\sum_j TP_j + \sum_j FP_j + \sum_j FN_j}"
    rf" = \frac{{2\cdot{f_tp:g}}}{{2\cdot{f_tp:g} + {f_fp:g} + {f_fn:g}}}"
    rf" = {fmt(avg['micro']['f1'])}"
)
st.markdown(
    "**Sample-averaged:** score each sample's label set (true Y_i, predicted Y&#770;_i), "
    "then average over the N samples."
)
st.latex(
    r"P_{\text{samples}} = \frac{1}{N}\sum_{i=1}^{N}\frac{|Y_i\cap\hat Y_i|}{|\hat Y_i|}"
    rf" = {fmt(avg['samples']['precision'])}"
)
st.latex(
    r"R_{\text{samples}} = \frac{1}{N}\sum_{i=1}^{N}\frac{|Y_i\cap\hat Y_i|}{|Y_i|}"
    rf" = {fmt(avg['samples']['recall'])}"
)
st.markdown("**Weighted:** the class average, each label weighted by its support n_j.")
st.latex(
    r"F1_{\text{weighted}} = \sum_{j=1}^{L} \frac{n_j}{\sum_k n_k}\, F1_j"
    rf" = {fmt(avg['weighted']['f1'])}"
)
st.latex(
    r"F_\beta = \frac{(1+\beta^2)\,TP}{(1+\beta^2)\,TP + \beta^2 FN + FP}"
    r" = \frac{(1+\beta^2)\,P\,R}{\beta^2 P + R}"
    rf"\qquad (\beta = {beta:g})"
)

rare = per_label.sort_values("support", kind="stable").iloc[0]
st.markdown(
    "**When they disagree.** Macro gives every label the same vote, micro gives every "
    "(sample, label) cell the same vote. A **rare label** that the model handles badly pulls "
    f"Macro F1 down by a full 1/{L} share but barely moves Micro F1: here the rarest label, "
    f"**{rare['label']}**, has support {rare['support']:g} and F1 {fmt(rare['f1'])}; "
    f"Macro F1 is {fmt(avg['macro']['f1'])}, Micro F1 {fmt(avg['micro']['f1'])}. "
    "An **empty prediction** (a label never predicted, or a sample with no predicted label) "
    "makes a precision 0/0: zero_division fixes its value, which moves the macro and sample "
    "averages; the pooled micro counts meet a 0/0 only when nothing at all is predicted. Some "
    "papers define C-F1 as the harmonic mean of C-P and C-R instead of the mean of the "
    "per-label F1; scikit-learn (and this page) takes the mean of the F1s."
)

with st.expander("Seed 004's naming, read two ways", expanded=True):
    st.markdown(
        "Seed 004 (notes on multilabel evaluation) names its formulas loosely. Under the "
        "heading **C-P, C-R** its second formula is written `OP`, but it divides by "
        "N_i^g (the true count of class i): it is the **class-averaged recall C-R**. Under "
        "**O-P, O-R** both formulas average over samples s: that is scikit-learn's "
        '`average="samples"`, not the overall O-P / O-R of the multilabel literature, which '
        'pool the counts over all classes (`average="micro"`). Both readings, computed live:'
    )
    seed = pd.DataFrame(
        [
            {
                "seed 004 writes": "C-P section: CP = (1/C) Σ_i N_i^c / N_i^p",
                "what it computes": "class-averaged precision C-P",
                "scikit-learn": 'precision_score(average="macro")',
                "value": avg["macro"]["precision"],
            },
            {
                "seed 004 writes": "C-R section: OP = (1/C) Σ_i N_i^c / N_i^g",
                "what it computes": "class-averaged recall C-R (not an 'O'-metric)",
                "scikit-learn": 'recall_score(average="macro")',
                "value": avg["macro"]["recall"],
            },
            {
                "seed 004 writes": "O-P section: CP = (1/N) Σ_s N_s^c / N_s^p",
                "what it computes": "sample-averaged precision",
                "scikit-learn": 'precision_score(average="samples")',
                "value": avg["samples"]["precision"],
            },
            {
                "seed 004 writes": "O-R section: OP = (1/N) Σ_s N_s^c / N_s^g",
                "what it computes": "sample-averaged recall",
                "scikit-learn": 'recall_score(average="samples")',
                "value": avg["samples"]["recall"],
            },
            {
                "seed 004 writes": "(literature) O-P = Σ_i N_i^c / Σ_i N_i^p",
                "what it computes": "overall precision, counts pooled",
                "scikit-learn": 'precision_score(average="micro")',
                "value": avg["micro"]["precision"],
            },
            {
                "seed 004 writes": "(literature) O-R = Σ_i N_i^c / Σ_i N_i^g",
                "what it computes": "overall recall, counts pooled",
                "scikit-learn": 'recall_score(average="micro")',
                "value": avg["micro"]["recall"],
            },
        ]
    )
    seed = seed[["seed 004 writes", "value", "what it computes", "scikit-learn"]]
    st.dataframe(
        seed,
        hide_index=True,
        width="stretch",
        column_config={"value": st.column_config.NumberColumn(format="%.4f")},
    )
    st.caption(
        "Seed 004 also writes F-beta with beta^2 (P + R) in the denominator; the right one is "
        "beta^2 P + R (above). The two agree only at beta = 1."
    )

st.markdown("**Hamming loss, subset accuracy, Jaccard**")
weighted_note = (
    " (unweighted counts shown; the headline weights each sample by sample_weight)"
    if ds.sample_weight is not None
    else ""
)
st.latex(
    r"\text{Hamming loss} = \frac{\#\text{wrong cells}}{N\cdot L} = \frac{FP + FN}{N\cdot L}"
    rf" = \frac{{{f_fp:g} + {f_fn:g}}}{{{n}\cdot {L}}} = {fmt(res['hamming'])}"
)
st.latex(
    r"\text{Subset accuracy} = \frac{\#\{i : \hat Y_i = Y_i\}}{N}"
    rf" = \frac{{{res['n_exact']:g}}}{{{n}}} = {fmt(res['subset'])}"
)
st.latex(
    r"\text{Jaccard}_{\text{samples}} = \frac{1}{N}\sum_i"
    r"\frac{|Y_i\cap\hat Y_i|}{|Y_i\cup\hat Y_i|}"
    rf" = {fmt(avg['samples']['jaccard'])}"
)
st.caption(
    f"Subset accuracy is the strictest: one wrong label of {L} makes the whole sample "
    "wrong. Hamming loss is the most lenient: it counts that as 1 wrong cell of N x L. "
    "Jaccard sits between. Jaccard's zero_division cannot be NaN (scikit-learn refuses "
    "it): with NaN chosen it uses 0." + weighted_note
)

# ---------------------------------------------------------------- inspect
st.subheader("What did it get wrong?")
state.bind_param("ml_inspect_label", "label", label_names[0], str, state.member(label_names))
lab = st.selectbox("Inspect a label", label_names, key="ml_inspect_label")
state.write_param("label", lab)
j = label_names.index(lab)
row = per_label.iloc[j]
col_out = multilabel_outcomes(ds.y_true[:, j], res["pred"][:, j])  # one label's column
wrong_idx = np.flatnonzero((col_out == "FN") | (col_out == "FP"))
shown = wrong_idx[:SHOWN_ROWS]
wrong_rows = pd.DataFrame(
    {
        "sample": [ds.sample_ids[i] for i in shown],
        "score": scores[shown, j],
        "what": [
            {"FN": "missed (true, not predicted)", "FP": "extra (predicted, not true)"}[o]
            for o in col_out[shown]
        ],
    },
    index=shown,
)
st.markdown(
    f"**{lab}**: TP {row['tp']:g}, FP {row['fp']:g}, FN {row['fn']:g}, support "
    f"{row['support']:g}; precision {fmt(row['precision'])}, recall "
    f"{fmt(row['recall'])}, F1 {fmt(row['f1'])}. {len(wrong_idx)} wrong sample(s)"
    + (f", the first {SHOWN_ROWS} shown." if len(wrong_idx) > SHOWN_ROWS else ":")
)
st.dataframe(
    wrong_rows,
    hide_index=True,
    width="stretch",
    height=300,
)

ids = ds.sample_ids
worst_ids = [ids[i] for i in worst.index]
choices = list(ids) if n <= ALL_ROWS else worst_ids[:HEAD_ROWS]
state.bind_param("ml_inspect_sample", "sample", worst_ids[0], str, state.member(choices))
wrong_count = dict(zip(worst_ids, worst["wrong"], strict=True))
# the labels carry counts that follow the rule and the thresholds: a fresh widget when
# they change (a stale label would come back from the browser as the option)
sid = widgets.numbered_selectbox(
    st,
    "Inspect a sample",
    choices,
    lambda s: f"{s} ({wrong_count[s]} wrong)",
    key="ml_inspect_sample",
    default=worst_ids[0],
    help="Default: the worst sample. The per-sample table below lists them worst first.",
)
state.write_param("sample", sid)
i = int(worst.index[worst_ids.index(sid)])
srow = worst.loc[i]
if rule == "per_label":
    cut = list(thresholds)
elif rule == "threshold":
    cut = [threshold] * L
else:
    cut = [None] * L
steps = pd.DataFrame(
    {
        "label": label_names,
        "true": ds.y_true[i].astype(int),
        "score": scores[i],
        "threshold": cut,
        "predicted": res["pred"][i].astype(np.int64),
        "outcome": multilabel_outcomes(ds.y_true[[i]], res["pred"][[i]])[0],
    }
)
if rule == "top_k":
    steps = steps.drop(columns="threshold")
st.markdown(
    f"**Sample {sid}**: missed {srow['missed'] or 'nothing'}; extra "
    f"{srow['extra'] or 'nothing'}. TP {srow['tp']}, FP {srow['fp']}, FN {srow['fn']}: "
    f"precision {fmt(srow['precision'])}, recall {fmt(srow['recall'])}, "
    f"Jaccard {fmt(srow['jaccard'])}, {srow['wrong']} of {L} cells wrong."
    + (
        " It has no predicted label: its precision is 0/0, set by zero_division."
        if srow["n_predicted"] == 0
        else ""
    )
    + (
        " It has no true label: its recall is 0/0, set by zero_division."
        if srow["n_true"] == 0
        else ""
    )
)
st.dataframe(steps, hide_index=True, width="stretch")

# ---------------------------------------------------------------- 4 per sample
st.subheader("Per sample, worst first")
out = _sample_table(ds, worst.head(SHOWN_ROWS))
st.caption(
    f"{n} samples, sorted by the number of wrong cells, then by Jaccard"
    + (f"; the worst {SHOWN_ROWS} shown, all in the CSV." if n > SHOWN_ROWS else ".")
)
st.dataframe(
    out,
    hide_index=True,
    width="stretch",
    column_config={
        c: st.column_config.NumberColumn(format="%.3f")
        for c in ("hamming", "precision", "recall", FB, "jaccard")
    },
)
st.download_button(
    "Per-sample table as CSV",
    _samples_csv(ds, model, rule, threshold, thresholds, int(top_k), float(beta), zd_key),
    file_name=f"{ds.name}.multilabel.samples.csv",
    key="ml_download_samples",
)
