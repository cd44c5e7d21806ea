"""House rule: no Python loop over samples in metrics/ outside the *_steps tables.

A static check: every ``for``/``while`` statement and comprehension in
metrics/ (the family modules and metrics/explain/) must sit inside a
teaching table of metrics/explain/ that explains one sample (a function
whose name ends in ``_steps``, or ``auc_pairs``) or be listed below with
the reason it does not iterate over samples. Every listed exception must
still hold a loop, so the list cannot outlive its code.
"""

import ast
from pathlib import Path

import pytest

METRICS = Path(__file__).resolve().parents[2] / "metrics"
FILES = (
    sorted(METRICS.glob("*.py"))
    + sorted((METRICS / "explain").glob("*.py"))
    + sorted((METRICS / "states").glob("*.py"))
)
#: Per-sample teaching tables (explain one sample; allowed in metrics/explain/ only).
TEACHING = ("_steps", "auc_pairs")

# (module below metrics/, function): why the loop there is not over samples.
ALLOWED: dict[tuple[str, str], str] = {
    # the binary state's metrics a chunk of 2^16 table rows at a time (bounded memory at
    # 10^8 rows), and the stream's merges a slice of the merged order at a time
    ("_block_chunks", "block_chunks"): "over chunks of 2^16 rows, each vectorized",
    ("_block_chunks", "read_chunks"): "over chunks of 2^16 rows and the few metrics reading them",
    ("_block_chunks", "descending_chunks"): "over chunks of 2^16 rows, each vectorized",
    ("_block_chunks", "sum_of_products"): "over chunks of 2^16 rows, each vectorized",
    ("_block_chunks", "descending_totals"): "over the 2 classes and chunks of 2^16 rows",
    ("_block_chunks", "ks_reader"): "over chunks of 2^16 rows, each vectorized",
    ("_block_chunks", "lift_reader"): "over chunks, and the few fractions asked for",
    ("_block_chunks", "accuracy_ratio_reader"): "over chunks of 2^16 rows",
    ("_block_chunks", "net_benefit_reader"): "over chunks of 2^16 rows",
    ("calibration", "_binned_table"): "over chunks of 2^16 rows",
    ("operating_point", "choice_reader"): "over chunks of 2^16 rows, each vectorized",
    ("states.binary", "_scatter"): "over slices of the merged order, each vectorized",
    ("states.binary", "_count_below"): "over chunks of 2^16 table rows",
    ("states.binary", "_twice_u"): "a sum over chunks of 2^16 table rows",
    ("states.binary", "_ap_reader"): "over chunks of 2^16 table rows",
    ("states.binary", "log_loss"): "over chunks of 2^16 table rows",
    ("states.binary_stream", "narrow"): "over the held tables (one per merge level)",
    ("_permutation", "subsample_rows"): "a bisection over the share kept (about 20 steps)",
    # metrics.leaderboard: many models at once; its loops run over models (at most 20),
    # their pairs, blocks of resamples or permutations, never over samples
    ("compare", "bootstrap_distributions"): "over the models, and over blocks of resamples",
    ("_studentized_range", "_phi_table"): "over a fixed grid of points, once (cached)",
    ("leaderboard", "_choice"): "over the allowed names, for a message",
    ("leaderboard", "_models"): "over the models",
    ("leaderboard", "compare_models"): "over the models and their pairs",
    ("leaderboard", "_check_options"): "over the options, for a message",
    ("leaderboard", "_p_values"): "over the models and their pairs",
    ("leaderboard", "bootstrap_p_values"): "over the pairs' z values",
    ("leaderboard", "_delong"): "over the models and the pairs' z values",
    ("leaderboard", "_randomization_p"): "over blocks of permutations, each vectorized",
    ("leaderboard", "tukey_p_values"): "over the pairs of models",
    ("leaderboard", "beaten"): "over the models and their pairs",
    ("leaderboard", "letters"): "over the models",
    ("trec", "<module>"): "over the 9 cut-offs and 11 recall levels, naming the measures",
    ("trec", "trec_measures"): "over the 9 cut-offs, 11 recall levels and 3 judged depths",
    ("trec", "trec_aggregate"): "over the measures asked for",
    ("trec_files", "<module>"): "over the 11 recall levels and 9 cut-offs, naming the measures",
    ("trec_files", "_chosen"): "over the measures asked for and the measure names",
    ("trec_files", "trec_report"): "one printed line per query and measure (the output)",
    ("_ranks", "map_blocks"): "over a few dozen cache-sized blocks of rows",
    ("_ranks", "_pool"): "over the pools (one per nice value of their callers) to replace",
    ("_ranks", "run"): "over the 1 to 3 input arrays of one block",
    ("_validation", "location"): "over the 1 or 2 indices of one element",
    ("_validation", "_first"): "over the 1 or 2 indices of one element",
    ("_validation", "as_array"): "over the allowed dimensions, for a message",
    ("_relevance", "check_denominator"): "over the 4 denominator names, for a message",
    ("_relevance", "check_max_grade"): "over the 2 indices of one element",
    ("explain.retrieval", "_check_choice"): "over the allowed names, for a message",
    ("explain.retrieval", "_rule"): "over the 4 convention names",
    ("explain.retrieval", "_curve_sums"): "over the <= 7 metric names, adding the empty queries",
    ("explain.retrieval", "__sizeof__"): "over the <= 3 arrays and <= 16 kept values it holds",
    ("explain.retrieval", "_kept"): "evicts the oldest of <= 16 kept values",
    ("_relevance", "by_row_blocks"): "over a few dozen cache-sized blocks of rows",
    ("explain.dcg", "_ranking_block"): "over the 5 order arrays of one block (a dtype cast)",
    ("explain.dcg", "dcg_ranking_table"): "over the 4 output columns",
    ("explain.dcg", "run"): "over the 5 order arrays of one block",
    ("explain.dcg", "dcg_ranking"): "over the 5 order arrays (allocation)",
    (
        "_label_ranking_kernel",
        "code_counts",
    ): "over the <= 32 distinct scores (one comparison each)",
    ("explain.label_ranking", "_broken_rows"): "over the 1 or 2 tie rules asked for",
    ("explain.label_ranking", "_by_row_groups"): "over groups of 2**21 cells (a checkpoint each)",
    ("explain.classification", "_names"): "over label names",
    ("_class_counts", "check_integral"): "over blocks of 2**20 labels (bounds a temporary)",
    (
        "explain.classification",
        "multilabel_label_table_from_counts",
    ): "over the two summary averages",
    ("explain.classification", "multilabel_averages"): "over the 4 score names of each average",
    ("explain.classification", "_label_sets"): "over labels (one vectorized pass per label)",
    ("curves", "column_block"): "over the labels of a block of columns (one vectorized pass each)",
    ("curves", "_weighted_column_scores"): "over cache-sized blocks of columns (labels)",
    ("_thresholds", "unweighted_blocks"): "over blocks of 2**20 thresholds (bounds a temporary)",
    ("curves", "_unweighted_precision_recall"): "over blocks of 2**16 thresholds (temporaries)",
    ("_validation", "format_labels"): "over the distinct labels, for a message",
    ("_validation", "encode_labels"): "over the 1 or 2 label arrays and their distinct labels",
    ("classification", "_label_codes"): "over the entries of labels= (the classes asked for)",
    ("_binary_input", "pos_code"): "over the 1 or 2 distinct labels, for a message",
    ("curves", "_multilabel_partial_auc"): "over the labels (one vectorized partial ROC each)",
    ("regression", "_check_above_minus_one"): "over the 1 or 2 indices of one element",
    ("curves", "_multiclass_auc"): "over the K(K-1)/2 class pairs of one-vs-one",
    ("regression", "_check_tweedie_domain"): "over the 2 arrays y_true and y_pred",
    ("curves", "_transposed"): "over row tiles of a few hundred rows (a blocked transpose)",
    # metrics.compare: statistics of two models
    ("compare", "_betacf"): "Lentz's continued fraction of the t distribution (iterations)",
    ("compare", "_binom_cdf_half"): "over k+1 binomial terms of an exact McNemar (< 25 pairs)",
    ("compare", "_check_choice"): "over the allowed names, for a message",
    ("compare", "_signed_rank_null"): "over the n <= 50 ranks of an exact Wilcoxon null",
    ("compare", "paired_test"): "over blocks of resamples (a randomization test)",
    ("compare", "_mean_metrics"): "over 4 per-sample kinds (a table of functions)",
    ("compare", "_index_blocks"): "over blocks of resamples (bounds the index matrix)",
    ("compare", "_auc_layout"): "over the 1 or 2 models' score arrays",
    ("compare", "_auc_block"): "over the models of one block; redraws the rare one-class rows",
    ("compare", "_auc_bootstrap"): "over the 1 or 2 models and blocks of resamples",
    ("compare", "block"): "over the 1 or 2 models of one block",
    ("compare", "_acceleration"): "over the 1 to 3 arrays of the jackknife",
    ("compare", "_loop_jackknife"): "BCa of a metric with no per-sample form: one call per "
    "left-out row (the fallback; metrics with a per-sample form use the closed form)",
    ("compare", "_check_arrays"): "over the 1 to 3 input arrays",
    ("compare", "bootstrap_ci"): "over blocks of resamples",
    ("compare", "_generic_bootstrap"): "over resamples of a metric with no per-sample form "
    "(the documented fallback) and over its 1 to 3 arrays",
    ("compare", "paired_bootstrap_diff"): "over blocks of resamples",
    # metrics.states: partial states merged chunk by chunk
    ("states._common", "merge_states"): "over the states of chunks (a pairwise tree)",
    ("states.binary", "merge_tables"): "over the 2 weight columns of a distinct-score table",
    ("states.binary", "_class_counts"): "over the 2 classes",
    ("states.binary_stream", "_nbytes"): "over the 3 columns of a table",
    ("states.dense_blocks", "take"): "over the 3 columns of a table",
    ("__main__", "_input_bytes"): "over a folder's files, for their sizes",
    ("__main__", "sorts_enough"): "over the command's arguments",
    ("states.dense_blocks", "table"): "over the 3 columns of the table",
    ("states.dense_blocks", "fill"): "over the 16 pool rows of a group: a madvise each",
    ("states.dense_blocks", "_count_places"): "over slices of 2**20 places in the pool",
    ("states.dense_blocks", "fold"): "over slices of 2**20 places of the tally",
    ("states.dense_blocks", "_narrow"): "over the 2 narrow types a pool may cross in",
    ("states.binary_stream", "_fold"): "over the tables of the merge counter (log2 of chunks)",
    ("states.binary_stream", "_rest"): "over the tables of the merge counter (log2 of chunks)",
    ("states.binary_stream", "merge_binary_stream"): "over the states of chunks (a tree)",
    ("states.binary", "finalize"): "over its 3 groups of metrics and their keys",
    ("states.binary_stream", "_count"): "over the merge counter's levels (log2 of chunks)",
    ("states.binary_stream", "_bound"): "over the tables of the merge counter (log2 of chunks)",
    ("states.binary_stream", "write"): "over the tables spilled and their 3 columns",
    ("states.binary_stream", "merge"): "over the runs on disk and their 3 columns",
    ("states.binary_stream", "_merge_windows"): "over windows of the runs, and the runs",
    ("states.ranking", "from_chunk"): "over the metric names (at most 11)",
    ("states._ranking_rows", "per_row_values"): "over the 6 Top-K means' names",
    ("states.batches", "batch_rows"): "over the file's columns (the row group's metadata)",
    ("states.binary_stream", "_merge_pieces"): "over the runs' pieces of one window",
    ("cli", "read_ahead"): "over the batches of a file (out of core)",
    ("states.multilabel", "from_chunk"): "over the 3 count arrays and the averages' names",
    ("states.multilabel", "merge"): "over the averages' names",
    ("states.multilabel", "finalize"): "over the 3 count arrays and the averages' names",
    ("states.ranking", "merge"): "over the metrics' names",
    ("states.ranking", "finalize"): "over the metrics' names",
    ("states.regression", "_error_sums"): "over cache-sized blocks of 2**15 rows",
    ("_heap", "kept_heap"): "over glibc's two thresholds and the user's three variables",
    ("states.regression", "_deviation_sum"): "over cache-sized blocks of 2**15 rows",
    # python -m metrics evaluate: the command line streams a file
    ("states.batches", "matrix"): "over the label columns of one batch",
    ("states.batches", "group_states_of_args"): "over the groups of one batch (one state each)",
    ("distributed", "tree_merge"): "over the levels and pairs of a tree of delayed merges",
    ("distributed", "_frame"): "over the columns asked for, for a message",
    ("distributed", "_graph"): "over the partitions of a dataset (one task each)",
    ("distributed", "states"): "over the row groups and batches of a block (out of core)",
    ("distributed", "_pieces"): "over a dataset's files and row groups (metadata)",
    ("distributed", "_blocks"): "over the blocks of row groups and their row groups",
    ("distributed", "_binary_graph"): "over the blocks of a dataset (one task each)",
    ("states.batches", "check_columns"): "over the columns asked for, for a message",
    ("cli", "_top_grade_from_statistics"): "over row groups and their column statistics",
    ("cli", "_top_grade"): "over the batches of a file (out of core)",
    ("cli", "_states"): "over the batches of a file (out of core)",
    ("cli", "_text"): "over the names of one result, for printing",
    ("cli", "main"): "over the groups of one result, for printing",
    ("cli", "_write"): "over the names of one result, for printing",
    ("cli", "_columns"): "over the weight and grouping columns, if named",
    ("cli", "evaluate"): "over the groups of --by (one state each)",
    ("_cell_bootstrap", "resampled_cell_weights"): "over blocks of resamples, each vectorized",
    ("operating_point", "rates"): "over the 4 counts and the 9 rate names",
    ("operating_point", "_check_options"): "over the 3 numeric options, for a message",
    ("operating_point", "summarize"): "over the rate names and the 4 count names",
    ("threshold", "roc_hull"): "pruning passes, each vectorized over the points left",
    # metrics.slices: one metric per group of rows
    ("slices", "_resample_sums"): "over blocks of resamples (bounds the float64 counts)",
    ("slices", "_row_keys"): "over the metric's few sums (columns), one 1-D unique each",
    ("slices", "_chunks"): "over the chunks of one large group's resamples (a few)",
    ("slices", "_auc"): "over the groups (DeLong's pass and a bootstrap per group)",
    ("slices", "_in_steps"): "over steps of 8 groups, a checkpoint between them",
    ("slices", "_generic"): "over the groups and their 2 parts (a metric with no fast form)",
    ("slices", "table"): "over the 9 column names",
    ("slices", "metric_frame"): "over the notes of groups without a value",
    ("slices", "_partitions"): "over the attributes and pairs of attributes",
    ("slices", "worst_slices"): "over the attributes and pairs of attributes, and their slices",
    ("slices", "_ranked"): "over the slices found (one tuple each)",
    ("_auc_runs", "_tables"): "over the 8 Poisson rates (one table each)",
    ("_auc_runs", "_poisson"): "over the <= 8 rates of the few counts at a step of a CDF",
    ("_auc_runs", "auc_run_bootstrap"): "over blocks of resamples, and redraws of one class",
    ("_fisher", "fisher_exact_p"): "over the groups (one pass over a group's possible counts)",
    ("_permutation", "permutation_p"): "over blocks of shuffles (bounds the index copies)",
    ("_permutation", "_shuffles"): "over blocks of shuffles (bounds the index copies)",
    ("_permutation", "_group_sums"): "over the statistic's <= 5 columns (one bincount each)",
    ("_slice_forms", "_means"): "over the 3 kinds of 1-D terms (a table of functions)",
    ("multitest", "multiple_test_correction"): "over the 3 method names, for a message",
    ("states.groups", "group_states"): "over the groups of one chunk (one state each)",
    ("states.groups", "merge_group_states"): "over the groups of a chunk's states",
}


def _loops(tree: ast.AST):
    """Yield (enclosing function name, loop node) for every loop in ``tree``."""

    def visit(node, func):
        for child in ast.iter_child_nodes(node):
            name = func
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = child.name
            if isinstance(
                child,
                (ast.For, ast.While, ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp),
            ):
                yield name, child
            yield from visit(child, name)

    yield from visit(tree, "<module>")


def _module(path: Path) -> str:
    """``explain.curves`` for metrics/explain/curves.py, ``curves`` for metrics/curves.py."""
    return ".".join(path.relative_to(METRICS).with_suffix("").parts)


def _exempt(module: str, func: str) -> bool:
    teaching = module.startswith("explain.") and func.endswith(TEACHING)
    return teaching or (module, func) in ALLOWED


@pytest.mark.parametrize("path", FILES, ids=_module)
def test_no_python_loop_outside_step_tables(path):
    tree = ast.parse(path.read_text())
    module = _module(path)
    offenders = [
        f"{module}:{node.lineno} in {func}"
        for func, node in _loops(tree)
        if not _exempt(module, func)
    ]
    assert not offenders, "loops in metrics/ (vectorize, or justify in ALLOWED): " + ", ".join(
        offenders
    )


def test_every_allowed_loop_still_exists():
    found = {
        (_module(path), func) for path in FILES for func, _ in _loops(ast.parse(path.read_text()))
    }
    stale = sorted(set(ALLOWED) - found)
    assert not stale, f"ALLOWED lists loops that are gone (remove them): {stale}"
