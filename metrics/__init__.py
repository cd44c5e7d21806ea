"""Fast, exact evaluation metrics: the computation behind Metric Explorer.

Names, signatures and values follow ``sklearn.metrics`` wherever
scikit-learn has the metric (to 1e-9, ties, degenerate rows and
``sample_weight`` included); everything is vectorized numpy. Bad input raises
:class:`MetricInputError` naming the argument and the first bad row/column.

The metric math lives in one module per family (:mod:`metrics.classification`,
:mod:`metrics.curves`, :mod:`metrics.label_ranking`, :mod:`metrics.dcg`,
:mod:`metrics.retrieval`, :mod:`metrics.regression`), the teaching helpers
that lay a computation out for one sample in :mod:`metrics.explain` (one
module per family). Every public name of both is importable from here:
``from metrics import NAME``.

Examples
--------
>>> from metrics import ndcg_score
>>> round(ndcg_score([[10, 0, 0, 1, 5]], [[0.1, 0.2, 0.3, 4, 70]]), 4)
0.6957
"""

from metrics._numpy_sort import prepare_command

prepare_command()  # before numpy is imported below: its fast sort for `python -m metrics`

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
    threshold_predictions,
    top_k_predictions,
)
from metrics.curves import (
    auc,
    auc_histogram,
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
    ndcg_per_sample,
    ndcg_score,
)
from metrics.explain.classification import (
    MultilabelCounts,
    multilabel_averages,
    multilabel_counts,
    multilabel_label_table,
    multilabel_label_table_from_counts,
    multilabel_outcomes,
    multilabel_per_sample,
    multilabel_worst_samples,
)
from metrics.explain.curves import (
    OPTIMIZERS,
    auc_four_ways,
    auc_pairs,
    auc_rank_table,
    calibration_bins,
    counts_at,
    optimal_thresholds,
    optimal_thresholds_from_counts,
    per_sample_outcomes,
    predict_at_threshold,
    rates_at_threshold,
    rates_from_counts,
    reduce_curve,
    threshold_counts,
    threshold_outcomes,
    threshold_table,
    threshold_table_from_counts,
)
from metrics.explain.dcg import (
    DcgRanking,
    dcg_ranking,
    dcg_ranking_table,
    dcg_steps,
    dcg_tie_bounds_per_sample,
    dcg_tie_order_steps,
    exponential_gain,
)
from metrics.explain.label_ranking import (
    TIE_RULES,
    RankTable,
    SampleReplaced,
    TieBroken,
    best_coverage_error,
    coverage_steps,
    coverage_steps_tie_broken,
    label_rank_table,
    label_ranking_contributions,
    lrap_steps,
    lrap_steps_tie_broken,
    ranking_loss_steps,
    replace_sample_scores,
    sort_worst_first,
    tie_broken_per_sample,
    tie_broken_summary,
)
from metrics.explain.regression import (
    ERROR_COLUMNS,
    REGRESSION_STEP_METRICS,
    recency_weights,
    regression_errors,
    regression_steps,
)
from metrics.explain.retrieval import (
    CONVENTION_METRICS,
    EMPTY_QUERY,
    GAINS,
    METRIC_PART,
    PARTS,
    TIE_MODES,
    RankedQueries,
    ap_denominator,
    graded_gain,
    queries_counted,
    rank_queries,
    relevant_at_level,
    retrieval_curve,
    retrieval_means,
    retrieval_per_query,
    retrieval_query_steps,
    retrieval_steps,
    retrieval_summary,
    score_order,
    tie_break_order,
)
from metrics.label_ranking import (
    coverage_error,
    coverage_per_sample,
    label_ranking_average_precision_score,
    label_ranking_loss,
    lrap_per_sample,
    ranking_loss_per_sample,
)
from metrics.regression import (
    MAPE_EPSILON,
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
)

__all__ = [
    "CONVENTION_METRICS",
    "DcgRanking",
    "EMPTY_QUERY",
    "ERROR_COLUMNS",
    "GAINS",
    "MAPE_EPSILON",
    "METRIC_PART",
    "MetricInputError",
    "MultilabelCounts",
    "OPTIMIZERS",
    "PARTS",
    "REGRESSION_STEP_METRICS",
    "RankTable",
    "RankedQueries",
    "SampleReplaced",
    "TIE_MODES",
    "TIE_RULES",
    "TieBroken",
    "accuracy_score",
    "auc",
    "auc_four_ways",
    "auc_histogram",
    "auc_pairs",
    "auc_pairwise",
    "auc_rank",
    "auc_rank_table",
    "average_precision_at_k",
    "average_precision_score",
    "best_coverage_error",
    "calibration_bins",
    "confusion_matrix",
    "coverage_error",
    "coverage_per_sample",
    "coverage_steps",
    "coverage_steps_tie_broken",
    "dcg_per_sample",
    "dcg_ranking",
    "dcg_ranking_table",
    "dcg_score",
    "dcg_steps",
    "dcg_tie_bounds_per_sample",
    "dcg_tie_order_steps",
    "expected_reciprocal_rank",
    "expected_reciprocal_rank_per_sample",
    "exponential_gain",
    "f1_score",
    "fbeta_score",
    "gini",
    "graded_gain",
    "hamming_loss",
    "hit_rate_at_k",
    "hit_rate_at_k_per_sample",
    "jaccard_score",
    "label_rank_table",
    "label_ranking_average_precision_score",
    "label_ranking_contributions",
    "label_ranking_loss",
    "log_loss",
    "log_loss_per_sample",
    "lrap_per_sample",
    "lrap_steps",
    "lrap_steps_tie_broken",
    "mean_absolute_error",
    "mean_absolute_percentage_error",
    "mean_average_precision_at_k",
    "mean_reciprocal_rank",
    "mean_squared_error",
    "multilabel_averages",
    "multilabel_confusion_matrix",
    "multilabel_counts",
    "multilabel_label_table",
    "multilabel_label_table_from_counts",
    "multilabel_outcomes",
    "multilabel_per_sample",
    "multilabel_worst_samples",
    "ndcg_per_sample",
    "ndcg_score",
    "optimal_thresholds",
    "optimal_thresholds_from_counts",
    "per_sample_outcomes",
    "precision_at_k",
    "precision_at_k_per_sample",
    "precision_recall_curve",
    "precision_recall_fscore_support",
    "precision_score",
    "predict_at_threshold",
    "r2_score",
    "ranking_loss_per_sample",
    "ranking_loss_steps",
    "rates_at_threshold",
    "rates_from_counts",
    "counts_at",
    "recall_at_k",
    "recall_at_k_per_sample",
    "rank_queries",
    "recall_score",
    "recency_weights",
    "reciprocal_rank",
    "reduce_curve",
    "regression_errors",
    "regression_steps",
    "relevant_at_level",
    "replace_sample_scores",
    "ap_denominator",
    "retrieval_curve",
    "queries_counted",
    "retrieval_means",
    "retrieval_per_query",
    "retrieval_query_steps",
    "retrieval_steps",
    "retrieval_summary",
    "roc_auc_score",
    "roc_curve",
    "root_mean_squared_error",
    "root_mean_squared_log_error",
    "score_order",
    "sort_worst_first",
    "threshold_counts",
    "threshold_outcomes",
    "threshold_predictions",
    "threshold_table",
    "threshold_table_from_counts",
    "tie_break_order",
    "tie_broken_per_sample",
    "tie_broken_summary",
    "top_k_predictions",
]

# --- model comparison (metrics.compare): DeLong, bootstrap, paired tests, McNemar ---
from metrics.compare import (
    BootstrapResult,
    DelongResult,
    McNemarResult,
    PairedTestResult,
    auc_placements,
    bootstrap_ci,
    bootstrap_distributions,
    delong_test,
    mcnemar_test,
    paired_bootstrap_diff,
    paired_test,
    per_sample_values,
    resample_rows,
)

# --- many models at once (metrics.leaderboard): corrected pairwise comparisons ---
from metrics.leaderboard import (
    ModelComparison,
    beaten,
    bootstrap_p_values,
    compare_models,
    correct_p_values,
    letters,
    model_letter,
    tukey_p_values,
)

# --- mergeable states (metrics.states): exact metrics chunk by chunk, out of core ---
from metrics.states import (
    BinaryState,
    MultilabelState,
    RankingState,
    RegressionState,
    merge_states,
)
from metrics.states.batches import batch_arrays, batch_rows, batch_state
from metrics.states.binary_stream import merge_binary_stream, stream_chunk

__all__ += [
    "BootstrapResult",
    "DelongResult",
    "McNemarResult",
    "PairedTestResult",
    "auc_placements",
    "bootstrap_ci",
    "delong_test",
    "mcnemar_test",
    "paired_bootstrap_diff",
    "paired_test",
    "bootstrap_distributions",
    "per_sample_values",
    "resample_rows",
]

__all__ += [
    "ModelComparison",
    "beaten",
    "bootstrap_p_values",
    "compare_models",
    "correct_p_values",
    "letters",
    "model_letter",
    "tukey_p_values",
]

__all__ += [
    "BinaryState",
    "MultilabelState",
    "RankingState",
    "RegressionState",
    "batch_arrays",
    "batch_rows",
    "batch_state",
    "merge_binary_stream",
    "merge_states",
    "stream_chunk",
]

# Labels of every kind (wt-labels): the warning of 0/0 scores.
from metrics._validation import UndefinedMetricWarning

__all__ += ["UndefinedMetricWarning"]

# More classification metrics (wt-labels).
from metrics.classification import (
    balanced_accuracy_score,
    brier_score_loss,
    cohen_kappa_score,
    matthews_corrcoef,
    top_k_accuracy_score,
)
from metrics.curves import det_curve

__all__ += [
    "balanced_accuracy_score",
    "brier_score_loss",
    "cohen_kappa_score",
    "det_curve",
    "matthews_corrcoef",
    "top_k_accuracy_score",
]

# D^2 of probabilistic classification (wt-labels).
from metrics.classification import d2_brier_score, d2_log_loss_score

__all__ += ["d2_brier_score", "d2_log_loss_score"]

# Labels scikit-learn refuses by type (bytes): a MetricInputError and a TypeError.
from metrics._validation import MetricLabelTypeError

__all__ += ["MetricLabelTypeError"]

# Tweedie deviances and their D^2 (wt-labels).
from metrics.regression import (
    d2_tweedie_score,
    mean_gamma_deviance,
    mean_poisson_deviance,
    mean_tweedie_deviance,
)

__all__ += [
    "d2_tweedie_score",
    "mean_gamma_deviance",
    "mean_poisson_deviance",
    "mean_tweedie_deviance",
]

# --- trec_eval's measure set (metrics.trec) and its files and report (metrics.trec_files) ---
from metrics.trec import trec_aggregate, trec_measures
from metrics.trec_files import TrecMatrices, read_trec_files, trec_report

__all__ += [
    "TrecMatrices",
    "read_trec_files",
    "trec_aggregate",
    "trec_measures",
    "trec_report",
]

# --- the threshold workbench: gain, lift, KS, CAP, decision and cost curves (metrics.threshold),
# calibration error (metrics.calibration), the constrained operating point (metrics.operating_point)
from metrics.calibration import (
    ReliabilityDiagram,
    calibration_error,
    reliability_diagram,
)
from metrics.operating_point import OperatingPoint, operating_point
from metrics.threshold import (
    accuracy_ratio,
    cap_curve,
    cost_curve,
    cumulative_gain_curve,
    decision_curve,
    ks_statistic,
    lift_at,
    lift_curve,
    net_benefit,
)

__all__ += [
    "OperatingPoint",
    "ReliabilityDiagram",
    "accuracy_ratio",
    "calibration_error",
    "cap_curve",
    "cost_curve",
    "cumulative_gain_curve",
    "decision_curve",
    "ks_statistic",
    "lift_at",
    "lift_curve",
    "net_benefit",
    "operating_point",
    "reliability_diagram",
]

# --- slices (metrics.slices): one metric per group, intervals, corrected tests, worst slices ---
from metrics.multitest import CORRECTIONS, multiple_test_correction
from metrics.slices import (
    PERMUTATION_CELLS,
    SliceFrame,
    WorstSlices,
    metric_frame,
    worst_slices,
)
from metrics.states.groups import group_states, merge_group_states

__all__ += [
    "CORRECTIONS",
    "PERMUTATION_CELLS",
    "SliceFrame",
    "WorstSlices",
    "group_states",
    "merge_group_states",
    "metric_frame",
    "multiple_test_correction",
    "worst_slices",
]

# --- the CPU of the worker threads (a server that meters a visitor's CPU adds it) ---
from metrics._ranks import worker_seconds

__all__ += ["worker_seconds"]
