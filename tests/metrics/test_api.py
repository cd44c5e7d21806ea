"""Every name of the contract (shared/design/metrics-api.md) imports from metrics."""

import ast
import functools
import importlib
import inspect
from pathlib import Path

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
    "log_loss": ["y_true", "y_proba", "normalize", "sample_weight", "labels"],
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


# ---------------------------------------------------------------------------
# every name the app uses is public; moved names keep their old path for now
# ---------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parents[2]
FAMILIES = ("classification", "curves", "dcg", "label_ranking", "regression", "retrieval")


def _is_metrics(module: str | None) -> bool:
    return module is not None and module.split(".")[0] == "metrics"


@functools.cache  # read at collection and by a test: about 1 s of parsing each time
def _app_uses() -> frozenset[tuple[str, str]]:
    """(module, name) of every ``metrics`` name that views/, explorer/ and app.py use.

    Covers ``from metrics import X``, ``from metrics.curves import X``,
    ``import metrics`` then ``metrics.X`` or ``metrics.curves.X``, and
    ``from metrics import curves as mc`` then ``mc.X``.
    """
    files = [ROOT / "app.py", *(ROOT / "views").rglob("*.py"), *(ROOT / "explorer").rglob("*.py")]
    uses = set()
    for path in files:
        if not path.exists():
            continue
        tree = ast.parse(path.read_text())
        aliases = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for a in node.names:
                    if _is_metrics(a.name):
                        aliases[a.asname or a.name] = a.name
            elif (
                isinstance(node, ast.ImportFrom) and (node.module or "").split(".")[0] == "metrics"
            ):
                for a in node.names:
                    if node.module == "metrics" and a.name in FAMILIES:
                        aliases[a.asname or a.name] = f"metrics.{a.name}"
                    else:
                        uses.add((node.module, a.name))
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute):
                inner = node.value
                if isinstance(inner.value, ast.Name) and aliases.get(inner.value.id) == "metrics":
                    if inner.attr in FAMILIES:
                        uses.add((f"metrics.{inner.attr}", node.attr))
            elif isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
                module = aliases.get(node.value.id)
                if module is not None and node.attr not in FAMILIES:
                    uses.add((module, node.attr))
    # the command line's parser, not a metric: the launcher reads its file arguments as
    # ``python -m metrics evaluate`` does (explorer/launch.py)
    uses.discard(("metrics.cli", "parse_args"))
    return frozenset(uses)


def test_the_scan_finds_the_app_names():
    assert len(_app_uses()) > 20  # the pages use dozens: an empty scan would test nothing


@pytest.mark.parametrize("module, name", sorted(_app_uses()), ids="{0[0]}.{0[1]}".format)
def test_every_name_the_app_uses_is_exported_by_metrics(module, name):
    assert module == "metrics", f"the app imports {name} from {module}, not from metrics"
    assert not name.startswith("_")
    assert name in metrics.__all__, f"{module}.{name} is not in metrics.__all__"
    assert getattr(importlib.import_module(module), name) is getattr(metrics, name)


def _public_callables():
    return [
        n
        for n in metrics.__all__
        if inspect.isfunction(getattr(metrics, n)) or inspect.isclass(getattr(metrics, n))
    ]


@pytest.mark.parametrize("name", _public_callables())
def test_every_public_name_has_a_numpy_docstring_with_an_example(name):
    obj = getattr(metrics, name)
    doc = inspect.getdoc(obj) or ""
    sections = ("Examples", ">>>")
    if inspect.isfunction(obj):
        sections = ("Parameters", "Returns", *sections)
    missing = [s for s in sections if s not in doc]
    assert not missing, f"{name}: no {missing} in its docstring"


# --- metrics.compare: the arrays first, every option keyword-only ---
COMPARE = {
    "delong_test": (["y_true", "score_a", "score_b", "sample_weight"], 3),
    "bootstrap_ci": (
        [
            "metric",
            "arrays",
            "n_resamples",
            "confidence",
            "method",
            "paired",
            "random_state",
            "checkpoint",
        ],
        1,
    ),
    "paired_bootstrap_diff": (
        [
            "metric",
            "y_true",
            "score_a",
            "score_b",
            "n_resamples",
            "confidence",
            "method",
            "random_state",
            "checkpoint",
        ],
        4,
    ),
    "paired_test": (["per_sample_a", "per_sample_b", "method", "n_resamples", "random_state"], 2),
    "mcnemar_test": (["y_true", "y_pred_a", "y_pred_b", "exact", "correction"], 3),
}


@pytest.mark.parametrize("name", sorted(COMPARE))
def test_compare_name_imports_with_its_parameters(name):
    fn = getattr(metrics, name)
    assert name in metrics.__all__
    assert fn is getattr(importlib.import_module("metrics.compare"), name)
    params, n_positional = COMPARE[name]
    sig = inspect.signature(fn)
    assert list(sig.parameters) == params
    positional = [p for p in sig.parameters.values() if p.kind is p.POSITIONAL_OR_KEYWORD]
    assert len(positional) == n_positional, "options after the arrays are keyword-only"
