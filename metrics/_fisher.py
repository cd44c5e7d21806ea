"""Fisher's exact test of a group's share of successes against the rest's, per group.

Under the null hypothesis (the group's rows are like the rest) and given the
margins, the group's number of successes ``a`` out of its ``n`` counted rows is
hypergeometric: ``n`` draws without replacement from ``N`` rows holding ``K``
successes. The two-sided p-value, as :func:`scipy.stats.fisher_exact` computes
it, is the probability of every count no more likely than ``a``. The normal
approximation's tail is too light when few failures (or successes) are expected
in a group, as for an accurate model on small slices; this test has no
approximation to break.
"""

from __future__ import annotations

import numpy as np

__all__ = ["fisher_exact_p"]

#: A count whose probability is within this relative distance of the observed one's is as
#: extreme as it (R's ``fisher.test``; scipy takes 1e-14, below this module's rounding for
#: counts of a million rows, which could otherwise drop the mirror count of a symmetric law).
TIE = 1e-7


def _log_pmf(n: int, big_k: int, big_n: int) -> tuple[int, np.ndarray]:
    """``(lo, log pmf(x) - log pmf(mode))`` of the hypergeometric over ``x = lo .. hi``.

    From the ratios ``pmf(x + 1) / pmf(x)``, summed outwards from the mode so the
    rounding is smallest where the probability is: no log-gamma of large numbers,
    whose digits would cancel.
    """
    lo, hi = max(0, n + big_k - big_n), min(n, big_k)
    x = np.arange(lo, hi, dtype=np.float64)
    step = np.log((big_k - x) * (n - x)) - np.log((x + 1.0) * (big_n - big_k - n + x + 1.0))
    mode = min(max((n + 1) * (big_k + 1) // (big_n + 2), lo), hi) - lo
    up = np.cumsum(step[mode:])
    down = -np.cumsum(step[:mode][::-1])[::-1]
    return lo, np.concatenate((down, [0.0], up))


def fisher_exact_p(successes, counted, total_successes: int, total_counted: int) -> np.ndarray:
    """Two-sided p-value of Fisher's exact test of each group against the rest.

    Parameters
    ----------
    successes, counted : array-like of int, shape (n_groups,)
        Each group's successes and counted rows.
    total_successes, total_counted : int
        The same over all rows (the group and its rest).

    Returns
    -------
    ndarray of float64, shape (n_groups,)
        The p-value of the 2x2 table ``[[a, n - a], [K - a, N - n - K + a]]``
        per group (1 where a margin is empty: nothing to test). One pass over
        each group's possible counts (at most its rows + 1): a loop over
        groups, none over rows.

    Examples
    --------
    >>> fisher_exact_p([1, 8], [10, 10], 9, 20).round(6).tolist()
    [0.005477, 0.005477]
    """
    a = np.asarray(successes, dtype=np.int64)
    n = np.asarray(counted, dtype=np.int64)
    big_k, big_n = int(total_successes), int(total_counted)
    out = np.ones(a.shape[0])
    for g in range(a.shape[0]):
        lo, log_pmf = _log_pmf(int(n[g]), big_k, big_n)
        if log_pmf.shape[0] < 2:
            continue
        pmf = np.exp(log_pmf)
        extreme = log_pmf <= log_pmf[int(a[g]) - lo] + np.log1p(TIE)
        out[g] = min(1.0, float(pmf[extreme].sum() / pmf.sum()))
    return out
