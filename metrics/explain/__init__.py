"""The teaching helpers: the computation of a metric laid out for one sample.

The family modules of :mod:`metrics` compute; these modules explain. One
module per family, each importing its family's kernels and validation:

* :mod:`metrics.explain.classification`: multilabel counts, every average
  from them, the per-label, per-sample and per-cell tables;
* :mod:`metrics.explain.curves`: the AUC pair and rank tables, AUC four
  ways, one operating point, threshold tables and optimal thresholds,
  calibration bins, curve reduction for drawing;
* :mod:`metrics.explain.dcg`: the DCG step table, tie orders and tie
  bounds, the exponential gain, one ranking for every DCG setting;
* :mod:`metrics.explain.label_ranking`: the coverage, LRAP and ranking loss
  step tables, tie rules, per-sample contributions and the what-if
  recomputation of one sample;
* :mod:`metrics.explain.regression`: per-sample errors, recency weights and
  the step table of each metric;
* :mod:`metrics.explain.retrieval`: the step tables of one query and every
  Top-K metric under the conventions (relevance level, gain, tie policy,
  empty queries).

Every public name is re-exported by :mod:`metrics` (``from metrics import
NAME``). The per-sample step tables may loop over one sample's labels; the
whole-matrix tables stay vectorized (tests/metrics/test_vectorized.py).
"""
