"""Home: what Metric Explorer is, the active dataset at a glance, the gallery."""

import pandas as pd
import streamlit as st

import metrics
from explorer import state
from explorer.datasets import KIND_LABELS, sample_index
from explorer.formatting import fmt

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
        "ROC AUC": metrics.roc_auc_score(y, s, sample_weight=w),
        "Average precision": metrics.average_precision_score(y, s, sample_weight=w),
        "Gini": metrics.gini(y, s),
    }
elif ds.kind == "multilabel":
    headline = {
        "Coverage error": metrics.coverage_error(y, s, sample_weight=w),
        "LRAP": metrics.label_ranking_average_precision_score(y, s, sample_weight=w),
        "Ranking loss": metrics.label_ranking_loss(y, s, sample_weight=w),
    }
elif ds.kind == "graded":
    headline = {
        "DCG": metrics.dcg_score(y, s, sample_weight=w),
        "NDCG": metrics.ndcg_score(y, s, sample_weight=w),
        "MRR": metrics.mean_reciprocal_rank(y, s),
    }
else:
    headline = {
        "MAE": metrics.mean_absolute_error(y, s, sample_weight=w),
        "RMSE": metrics.root_mean_squared_error(y, s, sample_weight=w),
        "R²": metrics.r2_score(y, s, sample_weight=w),
    }
cols = st.columns(len(headline))
for col, (label, value) in zip(cols, headline.items(), strict=True):
    col.metric(label, fmt(value))
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
