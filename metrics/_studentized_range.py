"""The studentized range distribution (Tukey's HSD) by numerical integration, no scipy.

The range ``Q`` of ``k`` standard normals divided by an independent
``s = sqrt(chi2_df / df)`` has

    P(Q <= q) = int_0^inf g(s) k int phi(z) (Phi(z) - Phi(z - q s))^(k-1) dz ds,

``g`` the density of ``s``. Both integrals are Simpson sums on fixed grids: ``z``
over [-9, 9] (the normal tails beyond weigh under 1e-18), ``s`` uniformly over the
image of the chi-square's bulk (its mean +- 14 standard deviations, clipped at 0,
plus 40 for the small degrees of freedom), so huge degrees of freedom (a million
queries) need no special case. ``Phi`` comes from a table of ``math.erfc`` at steps of 1e-3,
linearly interpolated (error under 4e-8). Agrees with
``scipy.stats.studentized_range.sf`` to about 1e-6 (tests/metrics/test_leaderboard.py).
"""

from __future__ import annotations

import functools
import math

import numpy as np

_Z = np.linspace(-9.0, 9.0, 601)
_S_POINTS = 401
_TABLE_STEP = 1e-3
_TABLE_HALF = 40.0


def _simpson_weights(points: int, width: float) -> np.ndarray:
    w = np.ones(points)
    w[1:-1:2], w[2:-1:2] = 4.0, 2.0
    return w * width / (3.0 * (points - 1))


@functools.lru_cache(maxsize=1)
def _phi_table() -> np.ndarray:
    x = np.arange(-_TABLE_HALF, _TABLE_HALF + _TABLE_STEP / 2, _TABLE_STEP)
    return np.array([0.5 * math.erfc(-v / math.sqrt(2.0)) for v in x])


def _norm_cdf(x: np.ndarray) -> np.ndarray:
    table = _phi_table()
    return np.interp(x, np.linspace(-_TABLE_HALF, _TABLE_HALF, table.shape[0]), table)


def _s_grid(df: float) -> tuple[np.ndarray, np.ndarray]:
    """Points ``s`` and Simpson weights times the density of ``s = sqrt(chi2_df / df)``.

    The grid is uniform in ``s`` (not in ``x = df s^2``, whose square root is not
    smooth at 0) over the chi-square's bulk mapped to ``s``.
    """
    spread = 14.0 * math.sqrt(2.0 * df)
    lo, hi = math.sqrt(max(0.0, df - spread) / df), math.sqrt((df + spread + 40.0) / df)
    s = np.linspace(lo, hi, _S_POINTS)
    half = df / 2.0
    # g(s) = 2 df s f_chi2(df s^2)
    with np.errstate(divide="ignore", invalid="ignore"):
        x = df * s * s
        log_pdf = (half - 1.0) * np.log(x) - x / 2.0 - half * math.log(2.0) - math.lgamma(half)
        pdf = np.where(s > 0, 2.0 * df * s * np.exp(log_pdf), 0.0)
    return s, pdf * _simpson_weights(_S_POINTS, hi - lo)


def studentized_range_sf(q, k: int, df: float) -> np.ndarray:
    """``P(Q > q)`` for the studentized range of ``k`` groups and ``df`` degrees of freedom.

    Parameters
    ----------
    q : array-like
        Non-negative statistics.
    k : int
        Number of groups (at least 2).
    df : float
        Degrees of freedom of the variance estimate (at least 2).

    Returns
    -------
    ndarray shaped like ``q``

    Examples
    --------
    >>> round(float(studentized_range_sf(3.0, 3, 10)), 4)
    0.135
    """
    q = np.asarray(q, dtype=np.float64)
    s, ws = _s_grid(float(df))
    wz = (
        _simpson_weights(_Z.shape[0], _Z[-1] - _Z[0])
        * np.exp(-(_Z**2) / 2.0)
        / math.sqrt(2 * math.pi)
    )
    phi_z = _norm_cdf(_Z)
    w = q.reshape(-1, 1, 1) * s.reshape(1, -1, 1)  # (q, s, 1)
    inner = np.clip(phi_z - _norm_cdf(_Z - w), 0.0, 1.0) ** (k - 1)
    h = k * (inner @ wz)  # (q, s): P(range <= q s) of k standard normals
    cdf = h @ ws
    return np.clip(1.0 - cdf, 0.0, 1.0).reshape(q.shape)
