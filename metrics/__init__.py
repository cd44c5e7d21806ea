"""Fast, exact evaluation metrics: the computation behind Metric Explorer.

Names, signatures and values follow ``sklearn.metrics`` wherever
scikit-learn has the metric (to 1e-9, ties, degenerate rows and
``sample_weight`` included); everything is vectorized numpy. Bad input raises
:class:`MetricInputError` naming the argument and the first bad row/column.

Examples
--------
>>> from metrics import ndcg_score
>>> round(ndcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 4)
0.6957
"""

from metrics._validation import MetricInputError
from metrics.classification import (
    accuracy_score,
    confusion_matrix,
    f1_score,
    fbeta_score,
    hamming_loss,
    jaccard_score,
    log_loss,
    log_loss_per_sample,
    multilabel_confusion_matrix,
    precision_recall_fscore_support,
    precision_score,
    recall_score,
)
from metrics.curves import (
    auc,
    auc_histogram,
    auc_pairs,
    auc_pairwise,
    auc_rank,
    average_precision_score,
    gini,
    precision_recall_curve,
    roc_auc_score,
    roc_curve,
)
from metrics.dcg import (
    dcg_per_sample,
    dcg_score,
    dcg_steps,
    ndcg_per_sample,
    ndcg_score,
)
from metrics.label_ranking import (
    coverage_error,
    coverage_per_sample,
    coverage_steps,
    label_ranking_average_precision_score,
    label_ranking_loss,
    lrap_per_sample,
    lrap_steps,
    ranking_loss_per_sample,
    ranking_loss_steps,
)
from metrics.regression import (
    mean_absolute_error,
    mean_absolute_percentage_error,
    mean_squared_error,
    r2_score,
    root_mean_squared_error,
    root_mean_squared_log_error,
)
from metrics.retrieval import (
    average_precision_at_k,
    expected_reciprocal_rank,
    expected_reciprocal_rank_per_sample,
    hit_rate_at_k,
    hit_rate_at_k_per_sample,
    mean_average_precision_at_k,
    mean_reciprocal_rank,
    precision_at_k,
    precision_at_k_per_sample,
    recall_at_k,
    recall_at_k_per_sample,
    reciprocal_rank,
    retrieval_steps,
)

__all__ = [
    "MetricInputError",
    "accuracy_score",
    "auc",
    "auc_histogram",
    "auc_pairs",
    "auc_pairwise",
    "auc_rank",
    "average_precision_at_k",
    "average_precision_score",
    "confusion_matrix",
    "coverage_error",
    "coverage_per_sample",
    "coverage_steps",
    "dcg_per_sample",
    "dcg_score",
    "dcg_steps",
    "expected_reciprocal_rank",
    "expected_reciprocal_rank_per_sample",
    "f1_score",
    "fbeta_score",
    "gini",
    "hamming_loss",
    "hit_rate_at_k",
    "hit_rate_at_k_per_sample",
    "jaccard_score",
    "label_ranking_average_precision_score",
    "label_ranking_loss",
    "log_loss",
    "log_loss_per_sample",
    "lrap_per_sample",
    "lrap_steps",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_average_precision_at_k",
    "mean_reciprocal_rank",
    "mean_squared_error",
    "multilabel_confusion_matrix",
    "ndcg_per_sample",
    "ndcg_score",
    "precision_at_k",
    "precision_at_k_per_sample",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "r2_score",
    "ranking_loss_per_sample",
    "ranking_loss_steps",
    "recall_at_k",
    "recall_at_k_per_sample",
    "recall_score",
    "reciprocal_rank",
    "retrieval_steps",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
]
