"""Every name of the contract (shared/design/metrics-api.md) imports from metrics."""

import inspect

import pytest

import metrics

CONTRACT = {
    "confusion_matrix": ["y_true", "y_pred", "labels", "sample_weight", "normalize"],
    "accuracy_score": ["y_true", "y_pred", "normalize", "sample_weight"],
    "precision_score": [
        "y_true",
        "y_pred",
        "average",
        "pos_label",
        "sample_weight",
        "zero_division",
    ],
    "recall_score": ["y_true", "y_pred", "average", "pos_label", "sample_weight", "zero_division"],
    "f1_score": ["y_true", "y_pred", "average", "pos_label", "sample_weight", "zero_division"],
    "fbeta_score": [
        "y_true",
        "y_pred",
        "beta",
        "average",
        "pos_label",
        "sample_weight",
        "zero_division",
    ],
    "hamming_loss": ["y_true", "y_pred", "sample_weight"],
    "jaccard_score": ["y_true", "y_pred", "average", "pos_label", "sample_weight", "zero_division"],
    "roc_curve": ["y_true", "y_score", "pos_label", "sample_weight", "drop_intermediate"],
    "roc_auc_score": ["y_true", "y_score", "average", "sample_weight"],
    "auc": ["x", "y"],
    "precision_recall_curve": [
        "y_true",
        "y_score",
        "pos_label",
        "sample_weight",
        "drop_intermediate",
    ],
    "average_precision_score": ["y_true", "y_score", "average", "pos_label", "sample_weight"],
    "log_loss": ["y_true", "y_pred", "normalize", "sample_weight", "labels"],
    "auc_pairwise": ["y_true", "y_score"],
    "auc_rank": ["y_true", "y_score"],
    "auc_histogram": ["y_true", "y_score", "n_bins"],
    "gini": ["y_true", "y_score"],
    "coverage_error": ["y_true", "y_score", "sample_weight"],
    "label_ranking_average_precision_score": ["y_true", "y_score", "sample_weight"],
    "label_ranking_loss": ["y_true", "y_score", "sample_weight"],
    "dcg_score": ["y_true", "y_score", "k", "log_base", "sample_weight", "ignore_ties"],
    "ndcg_score": ["y_true", "y_score", "k", "sample_weight", "ignore_ties"],
    "coverage_per_sample": ["y_true", "y_score"],
    "lrap_per_sample": ["y_true", "y_score"],
    "ranking_loss_per_sample": ["y_true", "y_score"],
    "dcg_per_sample": ["y_true", "y_score", "k", "log_base", "ignore_ties"],
    "ndcg_per_sample": ["y_true", "y_score", "k", "ignore_ties"],
    "precision_at_k": ["y_true", "y_score", "k"],
    "recall_at_k": ["y_true", "y_score", "k"],
    "hit_rate_at_k": ["y_true", "y_score", "k"],
    "expected_reciprocal_rank": ["y_true", "y_score", "k", "max_grade"],
    "average_precision_at_k": ["y_true", "y_score", "k", "denominator"],
    "mean_average_precision_at_k": ["y_true", "y_score", "k", "denominator"],
    "reciprocal_rank": ["y_true", "y_score", "k"],
    "mean_reciprocal_rank": ["y_true", "y_score", "k"],
    "precision_at_k_per_sample": ["y_true", "y_score", "k"],
    "recall_at_k_per_sample": ["y_true", "y_score", "k"],
    "hit_rate_at_k_per_sample": ["y_true", "y_score", "k"],
    "expected_reciprocal_rank_per_sample": ["y_true", "y_score", "k", "max_grade"],
    "mean_absolute_error": ["y_true", "y_pred", "sample_weight"],
    "mean_squared_error": ["y_true", "y_pred", "sample_weight"],
    "root_mean_squared_error": ["y_true", "y_pred", "sample_weight"],
    "mean_absolute_percentage_error": ["y_true", "y_pred", "sample_weight"],
    "root_mean_squared_log_error": ["y_true", "y_pred", "sample_weight"],
    "r2_score": ["y_true", "y_pred", "sample_weight"],
    "dcg_steps": ["y_true_row", "y_score_row", "k", "log_base", "ignore_ties"],
    "lrap_steps": ["y_true_row", "y_score_row"],
    "coverage_steps": ["y_true_row", "y_score_row"],
    "ranking_loss_steps": ["y_true_row", "y_score_row"],
    "auc_pairs": ["y_true", "y_score"],
}


@pytest.mark.parametrize("name", sorted(CONTRACT))
def test_contract_name_imports_with_its_parameters(name):
    fn = getattr(metrics, name)
    assert name in metrics.__all__
    params = list(inspect.signature(fn).parameters)
    assert params[: len(CONTRACT[name])] == CONTRACT[name]
    sig = inspect.signature(fn)
    positional = [p for p in sig.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert len(positional) <= 2, "options after the arrays are keyword-only"


def test_metric_input_error_is_a_value_error():
    assert issubclass(metrics.MetricInputError, ValueError)


def test_metrics_imports_no_app_libraries():
    import subprocess
    import sys

    code = (
        "import sys, metrics; bad = [m for m in ('streamlit', 'plotly', 'sklearn') "
        "if m in sys.modules]; print(bad); sys.exit(1 if bad else 0)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
