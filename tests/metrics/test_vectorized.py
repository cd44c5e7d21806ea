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
FILES = sorted(METRICS.glob("*.py")) + sorted((METRICS / "explain").glob("*.py"))
#: Per-sample teaching tables (explain one sample; allowed in metrics/explain/ only).
TEACHING = ("_steps", "auc_pairs")

# (module below metrics/, function): why the loop there is not over samples.
ALLOWED: dict[tuple[str, str], str] = {
    ("_ranks", "map_blocks"): "over a few dozen cache-sized blocks of rows",
    ("_ranks", "run"): "over the 1 to 3 input arrays of one block",
    ("_validation", "location"): "over the 1 or 2 indices of one element",
    ("_validation", "_first"): "over the 1 or 2 indices of one element",
    ("_validation", "as_array"): "over the allowed dimensions, for a message",
    ("retrieval", "_check_denominator"): "over the 4 denominator names, for a message",
    ("retrieval", "_check_max_grade"): "over the 2 indices of one element",
    ("explain.retrieval", "_check_choice"): "over the allowed names, for a message",
    ("retrieval", "_by_blocks"): "over a few dozen cache-sized blocks of rows",
    ("explain.dcg", "_ranking_block"): "over the 5 order arrays of one block (a dtype cast)",
    ("explain.dcg", "dcg_ranking_table"): "over the 4 output columns",
    ("explain.dcg", "run"): "over the 5 order arrays of one block",
    ("explain.dcg", "dcg_ranking"): "over the 5 order arrays (allocation)",
    ("label_ranking", "_code_counts"): "over the <= 32 distinct scores (one comparison each)",
    ("explain.label_ranking", "_broken_rows"): "over the 1 or 2 tie rules asked for",
    ("explain.classification", "_names"): "over label names",
    ("classification", "_check_integral"): "over blocks of 2**20 labels (bounds a temporary)",
    (
        "explain.classification",
        "multilabel_label_table_from_counts",
    ): "over the two summary averages",
    ("explain.classification", "multilabel_averages"): "over the 4 score names of each average",
    ("explain.classification", "_label_sets"): "over labels (one vectorized pass per label)",
    ("curves", "column_block"): "over the labels of a block of columns (one vectorized pass each)",
    ("curves", "_weighted_column_scores"): "over cache-sized blocks of columns (labels)",
    ("curves", "_unweighted_blocks"): "over blocks of 2**20 thresholds (bounds a temporary)",
    ("curves", "_unweighted_precision_recall"): "over blocks of 2**16 thresholds (temporaries)",
    ("_validation", "format_labels"): "over the distinct labels, for a message",
    ("_validation", "encode_labels"): "over the 1 or 2 label arrays and their distinct labels",
    ("classification", "_label_codes"): "over the entries of labels= (the classes asked for)",
    ("curves", "_pos_code"): "over the 1 or 2 distinct labels, for a message",
    ("curves", "_multilabel_partial_auc"): "over the labels (one vectorized partial ROC each)",
    ("regression", "_check_above_minus_one"): "over the 1 or 2 indices of one element",
    ("curves", "_multiclass_auc"): "over the K(K-1)/2 class pairs of one-vs-one",
    ("regression", "_check_tweedie_domain"): "over the 2 arrays y_true and y_pred",
    ("curves", "_transposed"): "over row tiles of a few hundred rows (a blocked transpose)",
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
