"""scikit-learn's own metric tests, run against `metrics` (a differential harness).

scikit-learn 1.9.1 ships its tests inside the wheel
(``sklearn/metrics/tests/test_ranking.py``, ``test_classification.py``,
``test_regression.py``). This module loads each of those files with every
name that `metrics` shares with ``sklearn.metrics`` swapped for ours (the
names are replaced in ``sklearn.metrics`` while the file is imported, so
``from sklearn.metrics import roc_auc_score`` and the functions listed in its
``parametrize`` decorators bind ours; names the file imports from private
modules, such as ``sklearn.metrics._classification.d2_log_loss_score``, are
replaced in the loaded module afterwards; ``UndefinedMetricWarning`` is ours
too), and collects every test that calls one of our functions (directly, in
a parametrize list or through a helper of the file) as a test of this module,
named ``test_<file>__<test>``.

The tests we deliberately do not pass are listed once, in
:data:`DIFFERENCES`, with the reason for each; they run as
``xfail(strict=True)``, so a difference that goes away (or a new failure)
fails the run. The same list, with the counts before and after, is in
docs/metrics-differences.md.

Runtime: the whole set takes about a minute on one core. ``SLOW`` lists the
tests skipped by default (each with its cost); ``SKLEARN_SUITE_FULL=1`` runs
them too.
"""

from __future__ import annotations

import functools
import importlib.util
import os
import types
from pathlib import Path

import pytest
import sklearn
import sklearn.exceptions
import sklearn.metrics

import metrics

SUITE_DIR = Path(sklearn.__file__).parent / "metrics" / "tests"
FILES = ("ranking", "classification", "regression")
FULL = os.environ.get("SKLEARN_SUITE_FULL") == "1"

#: Every public callable that metrics and sklearn.metrics share by name.
OURS = {
    name: getattr(metrics, name)
    for name in metrics.__all__
    if callable(getattr(metrics, name))
    and hasattr(sklearn.metrics, name)
    and name != "UndefinedMetricWarning"
}
OUR_OBJECTS = {id(fn) for fn in OURS.values()}

#: The tests we deliberately do not pass: "<file>::<test>" (every parametrization)
#: or "<file>::<test>[<params>]" (that one), with the reason.
_SINGLE_CLASS = (
    "a single class in y_true for a ROC AUC: scikit-learn warns UndefinedMetricWarning and "
    "returns nan; we refuse it with a MetricInputError naming the column (the contract: never "
    "return NaN silently for input we could refuse; the app shows the message)"
)
_SPARSE = (
    "scipy.sparse input: metrics is pure numpy (numpy and pandas only) and takes dense "
    "arrays; a sparse matrix is refused as non-numeric"
)
DIFFERENCES: dict[str, str] = {
    "ranking::test_roc_curve_one_label": _SINGLE_CLASS,
    "ranking::test_roc_curve_toydata": _SINGLE_CLASS,
    "ranking::test_auc_score_non_binary_class": _SINGLE_CLASS,
    "ranking::test_label_ranking_loss_sparse": _SPARSE,
    "ranking::test_label_ranking_avg_precision_score_should_allow_csr_matrix_for_y_true_input": (
        _SPARSE
    ),
    "classification::test_multilabel_confusion_matrix_multilabel": _SPARSE,
    "classification::test_average_precision_score_non_binary_class": (
        "a label matrix holding 2 (multiclass-multioutput): refused as the contract requires, "
        "but the pos_label check speaks first, so the message differs"
    ),
    "classification::test_multilabel_confusion_matrix_errors": (
        "a label matrix holding 2 (multiclass-multioutput): refused by the 0/1 check, whose "
        "message names the element (y_true[0, 2]) instead of 'multiclass-multioutput is not "
        "supported'"
    ),
    "classification::test_d2_log_loss_score_raises": (
        "D^2 with fewer than two samples: refused with a MetricInputError (as R^2) where "
        "scikit-learn warns and returns nan"
    ),
    "classification::test_d2_brier_score_warning_on_less_than_two_samples": (
        "D^2 with fewer than two samples: refused with a MetricInputError (as R^2) where "
        "scikit-learn warns and returns nan"
    ),
    "classification::test_d2_brier_score_raises[y_true6-y_pred6-None-Multioutput target data "
    "is not supported]": (
        "a label matrix holding 2 (multiclass-multioutput): refused by the 0/1 check, whose "
        "message names the element (y_true[1, 0]) instead of 'Multioutput target data is not "
        "supported'"
    ),
    "regression::test_regression_single_sample[r2_score]": (
        "R^2 with fewer than two samples: refused with a MetricInputError (the contract) where "
        "scikit-learn warns and returns nan"
    ),
    "regression::test_regression_single_sample[d2_tweedie_score]": (
        "D^2 with fewer than two samples: refused with a MetricInputError (as R^2) where "
        "scikit-learn warns and returns nan"
    ),
    "regression::test_regression_single_sample[d2_pinball_score]": (
        "harness artifact: this parametrization calls scikit-learn's d2_pinball_score (not ours), "
        "which warns scikit-learn's UndefinedMetricWarning, while the file's name is bound to ours"
    ),
}

#: Tests skipped unless SKLEARN_SUITE_FULL=1, with the reason.
SLOW: dict[str, str] = {}


def _installed() -> bool:
    return all((SUITE_DIR / f"test_{stem}.py").exists() for stem in FILES)


def _load(stem: str) -> types.ModuleType:
    """Import sklearn's test file with our functions in sklearn.metrics' namespace."""
    saved = {name: getattr(sklearn.metrics, name) for name in OURS}
    saved_warning = sklearn.exceptions.UndefinedMetricWarning
    try:
        for name, fn in OURS.items():
            setattr(sklearn.metrics, name, fn)
        sklearn.exceptions.UndefinedMetricWarning = getattr(
            metrics, "UndefinedMetricWarning", saved_warning
        )
        path = SUITE_DIR / f"test_{stem}.py"
        spec = importlib.util.spec_from_file_location(f"_sklearn_suite_{stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        # names imported from private modules (sklearn.metrics._classification ...)
        for name, fn in OURS.items():
            if callable(module.__dict__.get(name)):
                setattr(module, name, fn)
    finally:
        for name, fn in saved.items():
            setattr(sklearn.metrics, name, fn)
        sklearn.exceptions.UndefinedMetricWarning = saved_warning
    return module


def _code_names(code: types.CodeType) -> set[str]:
    names = set(code.co_names)
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            names |= _code_names(const)
    return names


def _holds_ours(value) -> bool:
    """Whether a parametrize value is (or wraps, or holds) one of our functions."""
    if id(value) in OUR_OBJECTS:
        return True
    if isinstance(value, functools.partial):
        return _holds_ours(value.func)
    if isinstance(value, (list, tuple, set)):
        return any(_holds_ours(v) for v in value)
    if isinstance(value, dict):
        return any(_holds_ours(v) for v in value.values())
    values = getattr(value, "values", None)  # pytest.param(...)
    if isinstance(values, tuple):
        return any(_holds_ours(v) for v in values)
    return False


def _touches_ours(fn, module, seen: set[str]) -> bool:
    """Whether ``fn`` calls one of our functions, itself or through the file's helpers."""
    for mark in getattr(fn, "pytestmark", []):
        if mark.name == "parametrize" and len(mark.args) > 1 and _holds_ours(mark.args[1]):
            return True
    for name in _code_names(fn.__code__):
        obj = module.__dict__.get(name)
        if id(obj) in OUR_OBJECTS:
            return True
        if (
            isinstance(obj, types.FunctionType)
            and obj.__module__ == module.__name__
            and name not in seen
        ):
            seen.add(name)
            if _touches_ours(obj, module, seen):
                return True
    return False


def _collect() -> dict[str, object]:
    tests = {}
    if not _installed():
        return tests
    for stem in FILES:
        module = _load(stem)
        for name, fn in list(module.__dict__.items()):
            if not (name.startswith("test_") and isinstance(fn, types.FunctionType)):
                continue
            if _touches_ours(fn, module, {name}):
                tests[f"test_{stem}__{name[len('test_') :]}"] = fn
    return tests


COLLECTED = _collect()
globals().update(COLLECTED)


def _key(node_name: str) -> tuple[str, str]:
    """('ranking::test_roc_curve', 'ranking::test_roc_curve[params]') of a node name."""
    base, _, params = node_name.partition("[")
    stem, _, test = base[len("test_") :].partition("__")
    function = f"{stem}::test_{test}"
    return function, f"{function}[{params}" if params else function


@pytest.fixture
def global_random_seed():
    """scikit-learn's conftest fixture, at its default seed."""
    return 42


@pytest.fixture(autouse=True)
def _deliberate_differences(request):
    """xfail(strict=True) the listed differences; skip the slow ones unless FULL."""
    if not request.node.name.startswith(tuple(f"test_{stem}__" for stem in FILES)):
        yield
        return
    function, exact = _key(request.node.name)
    slow = SLOW.get(exact) or SLOW.get(function)
    if slow and not FULL:
        pytest.skip(f"slow: {slow} (SKLEARN_SUITE_FULL=1 runs it)")
    reason = DIFFERENCES.get(exact) or DIFFERENCES.get(function)
    if reason:
        request.node.add_marker(pytest.mark.xfail(strict=True, reason=reason))
    yield


def test_the_suite_is_installed_and_found():
    """sklearn's test files ship in the wheel; without them this harness tests nothing."""
    if not _installed():
        pytest.skip(f"scikit-learn's test files are not installed under {SUITE_DIR}")
    assert len(COLLECTED) > 100


def test_every_listed_difference_names_a_collected_test():
    names = {_key(n)[0] for n in COLLECTED}
    stale = sorted(k for k in {**DIFFERENCES, **SLOW} if k.partition("[")[0] not in names)
    assert not stale, f"DIFFERENCES/SLOW name tests that are not collected: {stale}"
