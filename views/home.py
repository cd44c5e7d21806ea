"""Home: what Metric Explorer is, the active dataset at a glance, the gallery."""

import pandas as pd
import streamlit as st

import metrics
from explorer import state
from explorer.datasets import KIND_LABELS
from explorer.formatting import fmt
from explorer.samples import sample_index

st.title("Metric Explorer")
st.markdown(
    "See how an evaluation metric is computed, step by step, on your own data or on the "
    "worked examples of the textbooks. Every number comes from the `metrics` package, "
    "which matches scikit-learn to 1e-9 (ties and degenerate rows included) and is faster."
)

ds = state.active()
st.subheader(f"Active dataset: {ds.name}")
st.caption(
    f"{KIND_LABELS[ds.kind]} · {ds.n_samples} samples · {ds.n_labels} label(s) · "
    f"model(s): {', '.join(ds.model_names)}" + (f" · {ds.description}" if ds.description else "")
)

y, s, w = ds.y_true, ds.score(), ds.sample_weight
if ds.kind == "binary":
    headline = {
        "ROC AUC": lambda: metrics.roc_auc_score(y, s, sample_weight=w),
        "Average precision": lambda: metrics.average_precision_score(y, s, sample_weight=w),
        "Gini": lambda: metrics.gini(y, s),
    }
elif ds.kind == "multilabel":
    headline = {
        "Coverage error": lambda: metrics.coverage_error(y, s, sample_weight=w),
        "LRAP": lambda: metrics.label_ranking_average_precision_score(y, s, sample_weight=w),
        "Ranking loss": lambda: metrics.label_ranking_loss(y, s, sample_weight=w),
    }
elif ds.kind == "graded":
    headline = {
        "DCG": lambda: metrics.dcg_score(y, s, sample_weight=w),
        "NDCG": lambda: metrics.ndcg_score(y, s, sample_weight=w),
        "MRR": lambda: metrics.mean_reciprocal_rank(y, s),
    }
else:
    headline = {
        "MAE": lambda: metrics.mean_absolute_error(y, s, sample_weight=w),
        "RMSE": lambda: metrics.root_mean_squared_error(y, s, sample_weight=w),
        "R²": lambda: metrics.r2_score(y, s, sample_weight=w),
    }
# valid data some metric is undefined on (one class, one label column): that metric shows
# n/a and a sentence says why; the others show their numbers
undefined = {}
cols = st.columns(len(headline))
for col, (label, compute) in zip(cols, headline.items(), strict=True):
    try:
        value = fmt(compute())
    except metrics.MetricInputError as exc:
        undefined[label] = str(exc)
        value = "n/a"
    col.metric(label, value, help=undefined.get(label))
for label, why in undefined.items():
    st.info(f"**{label}** cannot be computed on this dataset: {why}", icon="ℹ️")
st.caption(f"Computed for the first model, **{ds.model_names[0]}**, on all {ds.n_samples} samples.")

st.subheader("Sample gallery")
st.markdown("Pick any of these in the sidebar. Each one teaches something.")
gallery = pd.DataFrame(sample_index())[["title", "kind", "teaches", "name"]]
st.dataframe(
    gallery,
    hide_index=True,
    width="stretch",
    column_config={
        "title": st.column_config.TextColumn("Sample", width="medium"),
        "kind": st.column_config.TextColumn("Kind", width="small"),
        "teaches": st.column_config.TextColumn("What it teaches", width="large"),
        "name": "Name (for ?ds= links)",
    },
)
