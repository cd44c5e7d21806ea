"""Scores that look like the other class's probability: the rule the ROC & PR curves
page follows before it offers to flip the positive class (no streamlit)."""

from __future__ import annotations

import math

import numpy as np

__all__ = ["RULE", "auc_upper", "looks_inverted"]

#: The rule, as the page states it.
RULE = (
    "ROC AUC below 0.5 with the upper end of its 95% interval (Hanley & McNeil's "
    "standard error) below 0.5 too"
)


def auc_upper(auc: float, n_pos: int, n_neg: int) -> float:
    """The upper end of ROC AUC's 95% normal interval, with Hanley & McNeil's (1982)
    standard error from the AUC and the two class sizes alone (no resampling: the page
    checks it on every run).

    Examples
    --------
    >>> round(auc_upper(0.3, 50, 50), 4), round(auc_upper(0.3, 4, 4), 4)
    (0.4024, 0.6842)
    """
    q1, q2 = auc / (2 - auc), 2 * auc**2 / (1 + auc)
    var = (auc * (1 - auc) + (n_pos - 1) * (q1 - auc**2) + (n_neg - 1) * (q2 - auc**2)) / (
        n_pos * n_neg
    )
    return auc + 1.96 * math.sqrt(max(var, 0.0))


def looks_inverted(y_true, auc: float) -> bool:
    """Whether ``auc`` is below 0.5 by a clear margin (:data:`RULE`): the scores then
    rank the other class first, as the other class's probability would.

    Examples
    --------
    >>> looks_inverted([0, 0, 1, 1] * 25, 0.3), looks_inverted([0, 0, 1, 1], 0.3)
    (True, False)
    >>> looks_inverted([0, 1] * 50, 0.5), looks_inverted([0, 1] * 50, float("nan"))
    (False, False)
    """
    y = np.asarray(y_true)
    n_pos = int(np.count_nonzero(y == 1))
    n_neg = y.size - n_pos
    if not (auc < 0.5) or n_pos == 0 or n_neg == 0:
        return False
    return auc_upper(auc, n_pos, n_neg) < 0.5
