"""Corrections of p-values for having looked at many hypotheses at once.

Looking at 50 groups (or 500 slices) and reporting the smallest p-value turns
noise into findings: at 5% one group in twenty differs by chance. The
corrections here adjust every p-value for the number of tests, so that the
adjusted value can be read against the nominal level as if only one test had
been made:

* ``"bonferroni"``: ``min(1, m p)`` - controls the chance of any false
  finding (family-wise error rate), under any dependence;
* ``"holm"``: Holm's step-down (1979): the ``j``-th smallest p-value (from 0)
  times ``m - j``, made non-decreasing in that order - the same guarantee,
  never less powerful than Bonferroni;
* ``"bh"``: Benjamini-Hochberg's step-up (1995): the ``j``-th smallest
  (from 1) times ``m / j``, made non-decreasing from the largest down -
  controls the expected share of false findings among those reported (false
  discovery rate) for independent or positively dependent tests.

The values equal ``statsmodels.stats.multitest.multipletests(p, method=...)[1]``
(``"holm"``, ``"fdr_bh"``, ``"bonferroni"``), checked in
``tests/metrics/test_slices.py``.
"""

from __future__ import annotations

import numpy as np

from metrics._validation import MetricInputError, as_array

__all__ = ["CORRECTIONS", "multiple_test_correction"]

#: The corrections :func:`multiple_test_correction` knows.
CORRECTIONS = ("holm", "bh", "bonferroni")


def multiple_test_correction(p_values, method="holm") -> np.ndarray:
    """Adjust p-values for the number of tests (Holm, Benjamini-Hochberg or Bonferroni).

    Parameters
    ----------
    p_values : array-like of shape (m,)
        The raw p-values, each in [0, 1].
    method : {"holm", "bh", "bonferroni"}, default "holm"
        ``"holm"`` and ``"bonferroni"`` bound the chance of any false finding;
        ``"bh"`` bounds the expected share of false findings among the
        reported ones (module docstring).

    Returns
    -------
    ndarray of shape (m,)
        The adjusted p-values, in the input's order, each in [0, 1]; a test
        is a finding at level ``alpha`` when its adjusted value is at most
        ``alpha``.

    Raises
    ------
    MetricInputError
        A p-value outside [0, 1] or NaN (naming its row), input that is not
        1-D, or an unknown method.

    Examples
    --------
    >>> from metrics import multiple_test_correction
    >>> p = [0.01, 0.04, 0.03, 0.20]
    >>> multiple_test_correction(p, "holm").round(4).tolist()
    [0.04, 0.09, 0.09, 0.2]
    >>> multiple_test_correction(p, "bh").round(4).tolist()
    [0.04, 0.0533, 0.0533, 0.2]
    """
    if method not in CORRECTIONS:
        raise MetricInputError(
            f"method must be one of {', '.join(repr(c) for c in CORRECTIONS)}; got {method!r}."
        )
    p = as_array(p_values, "p_values", ndim=(1,)).astype(np.float64)
    bad = ~((p >= 0.0) & (p <= 1.0))
    if bad.any():
        row = int(np.argmax(bad))
        raise MetricInputError(f"p_values must lie in [0, 1]; got {p[row]!r} at row {row}.")
    m = p.shape[0]
    if method == "bonferroni":
        return np.minimum(p * m, 1.0)
    order = np.argsort(p, kind="stable")
    ranked = p[order]
    if method == "holm":
        adjusted = np.maximum.accumulate(ranked * np.arange(m, 0, -1))
    else:
        adjusted = np.minimum.accumulate((ranked * m / np.arange(1, m + 1))[::-1])[::-1]
    out = np.empty(m)
    out[order] = np.minimum(adjusted, 1.0)
    return out
