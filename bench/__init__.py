"""Benchmark of the ``metrics`` package: ``python -m bench`` (see ``bench/__main__.py``).

Modules
-------
data
    seeded inputs: binary, multilabel, graded, regression; continuous and tied.
cases
    every metric of the contract and the equivalent scikit-learn, torchmetrics
    and ranx calls, with the conventions that make values differ.
timing
    best-of-repeats wall time and tracemalloc peak memory of one call.
runner
    runs the cases on one dataset and cross-checks the values.
targets
    the speed targets as PASS/MISS rows, with why a target is missed.
loading
    upload reads through ``explorer.io`` against ``pandas.read_csv``.
app_timing
    AppTest timings of every page (``--app``).
report
    the markdown written to ``bench/results.md``.
compare
    ``python -m bench.compare``: the bootstrap of ROC AUC at 10^6 rows against
    ``scipy.stats.bootstrap``, paired differences and DeLong (its own section).

torchmetrics and ranx are optional (``requirements-bench.txt``); the
benchmark says so in its report when they are missing.
"""
