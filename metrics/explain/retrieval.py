"""Teaching helpers of the retrieval page: Top-K metrics laid out, under every convention.

The step table of one query (:func:`retrieval_steps`, whose last running
values are that query's AP@K, ERR@K and reciprocal rank) and, for the whole
matrix, every Top-K metric under the conventions the literature disagrees
on: the relevance level, the gain, the tie policy (column order,
tie-averaged, optimistic, pessimistic) and what an empty query does
(:func:`retrieval_per_query`, :func:`retrieval_means`,
:func:`retrieval_curve`, :func:`retrieval_summary`, one query's terms
position by position in :func:`retrieval_query_steps`). The ranking can be
computed once (:func:`score_order`) and passed again. The whole-matrix tables
run on the blocks of rows of :mod:`metrics.retrieval`, vectorized; with
``ties="column"`` and the default level they equal its metrics.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from numbers import Real
from typing import TYPE_CHECKING

import numpy as np

from metrics._ranks import (
    keyed_descending_order,
    top_k_order,
)
from metrics._relevance import (
    by_row_blocks,
    check_denominator,
    check_max_grade,
    check_ranking_inputs,
    check_retrieved,
    retrieved_only,
    safe_divide,
    stop_probability,
)
from metrics._runs import run_start_mask, runs_from_mask
from metrics._validation import (
    MetricInputError,
    as_2d,
    as_array,
    check_k,
    check_nonnegative,
    check_same_shape,
)

if TYPE_CHECKING:  # the annotations' DataFrame; pandas itself is imported where used
    import pandas as pd

__all__ = [
    "CONVENTION_METRICS",
    "EMPTY_QUERY",
    "GAINS",
    "METRIC_PART",
    "PARTS",
    "TIE_MODES",
    "ap_denominator",
    "graded_gain",
    "relevant_at_level",
    "retrieval_curve",
    "queries_counted",
    "retrieval_means",
    "retrieval_per_query",
    "retrieval_query_steps",
    "retrieval_steps",
    "retrieval_summary",
    "RankedQueries",
    "rank_queries",
    "score_order",
    "tie_break_order",
]


# ---------------------------------------------------------------------------
# step table for one query
# ---------------------------------------------------------------------------
def _as_row(x, name: str) -> np.ndarray:
    """One query: a 1-D vector, or a matrix holding a single row.

    A vector is checked as a ``(1, n)`` matrix so that messages name the
    column of a bad element (``y_true_row[0, 3] (row 0, column 3)``).
    """
    try:
        raw = np.asarray(x)
    except ValueError:  # ragged: let as_array word the refusal
        raw = x
    if isinstance(raw, np.ndarray):
        if raw.ndim not in (1, 2):
            raise MetricInputError(
                f"{name} must be one query (a 1-D row of item values); got shape {raw.shape}."
            )
        if raw.ndim == 1:
            raw = raw[None, :]
    arr = as_array(raw, name, ndim=(2,))
    if arr.shape[0] != 1:
        raise MetricInputError(
            f"{name} must be one query (a 1-D row of item values); got shape {arr.shape}."
        )
    return arr


def retrieval_steps(
    y_true_row, y_score_row, *, k=None, max_grade=None, denominator="min_m_k"
) -> pd.DataFrame:
    """The ranking of one query, position by position, with every Top-K metric's terms.

    Parameters
    ----------
    y_true_row : array-like of shape (n_items,)
        Graded relevance of the query's items, ``>= 0``.
    y_score_row : array-like of shape (n_items,)
        Finite scores; ties are broken by column order, lower column first.
    k : int or None, default None
        Cut-off, ``>= 1``; None keeps every item in the top k.
    max_grade : float or None, default None
        ERR's grade scale; None takes the largest grade of *this row*. Pass
        the whole matrix's largest grade to match
        :func:`expected_reciprocal_rank` on a multi-query matrix.
    denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        AP's denominator (see :func:`average_precision_at_k`); with
        ``k=None``, ``"k"`` is the number of items.

    Returns
    -------
    pandas.DataFrame
        One row per ranked position with columns ``position`` (1-based),
        ``item`` (column index), ``score``, ``relevance``, ``relevant``,
        ``tie_group`` (0-based id of a run of equal scores), ``in_top_k``,
        ``hits_so_far``, ``precision_at_position``, ``ap_term`` (the
        precision at a relevant position in the top k, else 0),
        ``ap_running`` (running sum of ``ap_term`` over the denominator),
        ``err_stop_prob`` (R_r), ``err_still_looking`` (prod_{i<r}(1 - R_i)),
        ``err_term`` (R_r times that over r, 0 past k), ``err_running`` and
        ``rr_running`` (the reciprocal rank so far). The last row's
        ``ap_running``, ``err_running`` and ``rr_running`` are the query's
        AP@K, ERR@K and reciprocal rank at the same ``k``.

    Examples
    --------
    >>> t = retrieval_steps([1, 0, 1, 0, 1], [5, 4, 3, 2, 1], k=5)
    >>> t["item"].tolist(), t["hits_so_far"].tolist()
    ([0, 1, 2, 3, 4], [1, 1, 2, 2, 3])
    >>> t["ap_term"].round(4).tolist()
    [1.0, 0.0, 0.6667, 0.0, 0.6]
    >>> round(float(t["ap_running"].iloc[-1]), 4)
    0.7556
    """
    import pandas as pd

    yt2 = _as_row(y_true_row, "y_true_row")
    ys2 = _as_row(y_score_row, "y_score_row")
    check_same_shape(yt2[0], ys2[0], "y_true_row", "y_score_row")
    check_nonnegative(yt2, "y_true_row")
    k = check_k(k, allow_none=True)
    denominator = check_denominator(denominator)
    mg = check_max_grade(max_grade, yt2[0], "y_true_row")
    yt, ys = yt2[0], ys2[0]

    n_items = yt.shape[0]
    k_eff = n_items if k is None else k
    order = top_k_order(ys[None, :])[0]
    score = ys[order]
    grade = yt[order]
    relevant = grade > 0
    positions = np.arange(1, n_items + 1)
    in_top_k = positions <= k_eff
    tie_group = np.cumsum(run_start_mask(score)) - 1

    hits_so_far = np.cumsum(relevant)
    precision = hits_so_far / positions
    ap_term = np.where(relevant & in_top_k, precision, 0.0)
    hits_in_top = int(np.count_nonzero(relevant & in_top_k))
    n_rel = int(np.count_nonzero(relevant))
    den = {
        "min_m_k": min(n_rel, k_eff),
        "relevant": n_rel,
        "k": k_eff,
        "hits": hits_in_top,
    }[denominator]
    ap_running = np.cumsum(ap_term) / den if den else np.zeros(n_items)

    if mg == 0.0:
        stop = np.zeros(n_items)
    else:
        stop = stop_probability(grade, mg)
    still = np.concatenate(([1.0], np.cumprod(1.0 - stop[:-1])))
    err_term = np.where(in_top_k, stop * still / positions, 0.0)

    first_hit = relevant & in_top_k
    rr_running = np.zeros(n_items)
    if first_hit.any():
        first = int(np.argmax(first_hit))
        rr_running[first:] = 1.0 / (first + 1)

    return pd.DataFrame(
        {
            "position": positions,
            "item": order.astype(np.int64),
            "score": score,
            "relevance": grade,
            "relevant": relevant,
            "tie_group": tie_group.astype(np.int64),
            "in_top_k": in_top_k,
            "hits_so_far": hits_so_far.astype(np.int64),
            "precision_at_position": precision,
            "ap_term": ap_term,
            "ap_running": ap_running,
            "err_stop_prob": stop,
            "err_still_looking": still,
            "err_term": err_term,
            "err_running": np.cumsum(err_term),
            "rr_running": rr_running,
        }
    )


# ---------------------------------------------------------------------------
# conventions: relevance threshold, gain, tie policy, empty queries
# ---------------------------------------------------------------------------
TIE_MODES = ("column", "tie-averaged", "optimistic", "pessimistic")
GAINS = ("linear", "exponential")
EMPTY_QUERY = ("zero", "drop", "one")
CONVENTION_METRICS = ("P@K", "R@K", "hit rate@K", "AP@K", "RR", "ERR@K", "NDCG@K")


def _check_choice(value, allowed: tuple[str, ...], name: str) -> str:
    if not isinstance(value, str) or value not in allowed:
        raise MetricInputError(
            f"{name} must be one of {', '.join(repr(a) for a in allowed)}; got {value!r}."
        )
    return value


def _check_level(level) -> float:
    bad = f"level must be a number > 0 (the lowest grade that counts as relevant); got {level!r}."
    if isinstance(level, bool) or not isinstance(level, Real):
        raise MetricInputError(bad)
    lv = float(level)
    if not np.isfinite(lv) or lv <= 0:
        raise MetricInputError(bad)
    return lv


def relevant_at_level(y_true, *, level=1) -> np.ndarray:
    """0/1 relevance: 1 where the grade is at least ``level`` (trec_eval ``-l``, ranx ``rel_lvl``).

    With the default ``level=1`` and integer grades this is ``y_true > 0``,
    the contract's "relevant".

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    level : float, default 1
        The lowest grade that counts as relevant, ``> 0``.

    Returns
    -------
    ndarray of float, shape (n_queries, n_items)

    Examples
    --------
    >>> relevant_at_level([[0, 1, 2, 3]], level=2).tolist()
    [[0.0, 0.0, 1.0, 1.0]]
    """
    yt = as_2d(y_true, "y_true")
    check_nonnegative(yt, "y_true")
    return (yt >= _check_level(level)).astype(np.float64)


def graded_gain(y_true, *, gain="linear") -> np.ndarray:
    """The DCG gain of each grade: ``g`` (linear, Jarvelin & Kekalainen, trec_eval,
    scikit-learn) or ``2**g - 1`` (exponential, Burges et al.).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    gain : {"linear", "exponential"}, default "linear"

    Returns
    -------
    ndarray of float, shape (n_queries, n_items)

    Examples
    --------
    >>> graded_gain([[0, 1, 3]], gain="exponential").tolist()
    [[0.0, 1.0, 7.0]]
    """
    yt = as_2d(y_true, "y_true")
    check_nonnegative(yt, "y_true")
    if _check_choice(gain, GAINS, "gain") == "linear":
        return yt.astype(np.float64, copy=True)
    return np.exp2(yt) - 1.0


def tie_break_order(y_true, y_score, *, ties="column") -> np.ndarray:
    """The ranking of every query under a deterministic tie policy.

    ``"column"``: tied items in column order, lower column first (the
    contract's rule; trec_eval breaks ties by document id, so a matrix whose
    columns follow trec_eval's order ranks as trec_eval does).
    ``"optimistic"``: among tied items the highest grade first;
    ``"pessimistic"``: the lowest grade first (column order among equal
    grades in both). The optimistic and pessimistic values bracket every
    other tie policy.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores.
    ties : {"column", "optimistic", "pessimistic"}, default "column"

    Returns
    -------
    ndarray of int, shape (n_queries, n_items)
        Column indices, first ranked first.

    Examples
    --------
    >>> tie_break_order([[0, 1, 2]], [[0.5, 0.5, 0.5]], ties="optimistic").tolist()
    [[2, 1, 0]]
    >>> tie_break_order([[0, 1, 2]], [[0.5, 0.5, 0.5]]).tolist()
    [[0, 1, 2]]
    """
    yt, ys = check_ranking_inputs(y_true, y_score)
    ties = _check_choice(ties, ("column", "optimistic", "pessimistic"), "ties")
    return _tie_order(yt, ys, ties)


def _tie_order(yt: np.ndarray, ys: np.ndarray, ties: str) -> np.ndarray:
    """:func:`tie_break_order` on validated inputs (one block of rows)."""
    if ties == "column":
        return keyed_descending_order(ys)
    # two stable sorts: by grade (best or worst first), then by descending score
    by_grade = keyed_descending_order(yt if ties == "optimistic" else -(yt + 0.0))
    then = keyed_descending_order(np.take_along_axis(ys, by_grade, axis=1))
    return np.take_along_axis(by_grade, then, axis=1)


def _gains(yt: np.ndarray, gain: str) -> np.ndarray:
    """:func:`graded_gain` on validated grades."""
    return yt.astype(np.float64, copy=True) if gain == "linear" else np.exp2(yt) - 1.0


def _discounts(m: int) -> np.ndarray:
    return 1.0 / np.log2(np.arange(2, m + 2, dtype=np.float64))


#: The three families of per-position terms: relevance (P, R, hit rate, AP and
#: RR, which depend on ``level``), ERR's (``max_grade``) and DCG's (``gain``).
PARTS = ("rel", "err", "dcg")
#: The family of each metric of :data:`CONVENTION_METRICS`.
METRIC_PART = {
    "P@K": "rel",
    "R@K": "rel",
    "hit rate@K": "rel",
    "AP@K": "rel",
    "RR": "rel",
    "ERR@K": "err",
    "NDCG@K": "dcg",
}


@dataclass(frozen=True, eq=False)
class _TermInputs:
    """What :func:`_position_terms` computes from (its parameters, ``level`` as float)."""

    yt: np.ndarray
    ys: np.ndarray
    level: float
    gain: str
    mg: float
    ties: str
    top: int | None
    ranked: np.ndarray | None
    parts: tuple
    known: dict
    full: np.ndarray


def _position_terms(
    yt, ys, *, level, gain, mg, ties, top=None, ranked=None, parts=PARTS, known=None, full=None
) -> dict:
    """Per-position terms of every metric, in ranked order (n_queries, top).

    Deterministic tie policies rank once and use 0/1 relevance; under
    ``"tie-averaged"`` every term is its expectation over the orders of each
    tie group (exact for P, R, hit rate, AP's numerator, RR and DCG; ERR uses
    each position's expected stop probability, an approximation inside a
    tie group). Inputs are validated; ``mg`` is the grade scale of the whole
    matrix (:func:`check_max_grade`), so this can run on a block of rows.

    ``top`` (default: every position) keeps only the first ``top``
    positions (the tie-averaged terms need whole tie groups, which are
    summed over every position first); ``"rr"``, the reciprocal rank over
    the whole ranking, is always complete. ``ranked`` (optional) is the
    block's ranking under ``ties`` (:func:`score_order` for the column and
    tie-averaged rules), used instead of sorting the scores again. ``parts``
    names the families of :data:`PARTS` to compute (``"n_rel"``, ``"order"``
    and ``"positions"`` always are).

    ``known`` (optional) holds the block's values that do not depend on K
    (:meth:`RankedQueries.known`): ``"n_rel"`` (relevant items at ``level``),
    ``"sorted"`` (the grades sorted in descending order, at least ``top``
    columns) and, for a deterministic ``ties``, ``"rr"``; with them a
    deterministic rule reads only the first ``top`` columns of ``ranked``,
    which may then hold those only.

    ``full`` (optional) are the grades the denominators read (the relevant items,
    the ideal DCG) when ``yt`` and ``ys`` are a ranking's view of them, with the
    unretrieved items at grade 0 and score -inf
    (:func:`metrics._relevance.retrieved_only`); default ``yt``.
    """
    full = yt if full is None else full
    a = _TermInputs(yt, ys, float(level), gain, mg, ties, top, ranked, parts, known or {}, full)
    if "n_rel" in a.known:
        n_rel = a.known["n_rel"]
    else:
        n_rel = np.count_nonzero(full >= a.level, axis=1).astype(np.float64)
    if ties != "tie-averaged":
        terms = _deterministic_terms(a)
    else:
        terms = _tie_averaged_terms(a)
    return _summed_terms(a, terms, n_rel)


def _deterministic_terms(a: _TermInputs) -> dict:
    """The raw per-position terms under a deterministic tie rule (one ranking, 0/1 relevance).

    Returns the ``order``, ``p`` (positions) and ``m`` (their number) kept,
    ``rr`` when known or computed over the whole ranking (else None), and
    the families of ``a.parts``: ``rel``, ``ap_num``, ``first_prob``;
    ``stop``; ``mean_gain``.
    """
    yt, lv, top, parts = a.yt, a.level, a.top, a.parts
    n, m = yt.shape
    rr = a.known.get("rr")
    order = _tie_order(yt, a.ys, a.ties) if a.ranked is None else a.ranked
    offsets = np.arange(0, yt.size, m)[:, None]  # flat gathers are the faster
    if top is not None and top < m:
        if "rel" in parts and rr is None:
            ranked_rel = np.take((yt >= lv).ravel(), order + offsets)
            first = np.argmax(ranked_rel, axis=1)
            rr = np.where(ranked_rel[np.arange(n), first], 1.0 / (first + 1.0), 0.0)
        order, m = order[:, :top], top
    p = np.arange(1, m + 1, dtype=np.float64)
    grades = np.take(yt.ravel(), order + offsets)
    t = {"order": order, "p": p, "m": m, "rr": rr}
    if "rel" in parts:
        rel = (grades >= lv).astype(np.float64)
        hits = np.cumsum(rel, axis=1)
        first_prob = (rel.astype(bool) & (hits == 1)).astype(np.float64)
        t.update(rel=rel, ap_num=rel * hits / p, first_prob=first_prob)
    if "err" in parts:
        t["stop"] = np.zeros(grades.shape) if a.mg == 0.0 else stop_probability(grades, a.mg)
    if "dcg" in parts:
        t["mean_gain"] = _gains(grades, a.gain)
    return t


@dataclass(frozen=True, eq=False)
class _TieGroups:
    """The tie groups of a block ranked by descending score, one flat list row by row.

    ``starts`` and ``counts`` are each group's first flat position and size
    (a row's first position starts a group), ``gid`` every position's group,
    ``lo_group`` each group's first position within its row; ``w`` is the
    number of positions kept and ``gid_w`` the groups of those.
    """

    order: np.ndarray
    grades: np.ndarray
    starts: np.ndarray
    counts: np.ndarray
    gid: np.ndarray
    lo_group: np.ndarray
    p: np.ndarray
    w: int
    gid_w: np.ndarray

    def entries(self, groups):
        """Flat positions of the items of ``groups``, their slot in the group, sizes."""
        sizes = self.counts[groups]
        slot = np.arange(sizes.sum()) - np.repeat(np.cumsum(sizes) - sizes, sizes)
        return np.repeat(self.starts[groups], sizes) + slot, slot, sizes


def _tie_groups(a: _TermInputs) -> _TieGroups:
    """Rank the block (or take ``a.ranked``) and find its tie groups, with no scan over rows."""
    yt, ys = a.yt, a.ys
    n, m = yt.shape
    if a.ranked is None:
        flat = keyed_descending_order(ys, flat=True)
    else:
        flat = a.ranked + np.arange(0, yt.size, m)[:, None]
    order = flat - np.arange(0, yt.size, m)[:, None]
    is_first = run_start_mask(np.take(ys.ravel(), flat).ravel())
    is_first[::m] = True
    starts, counts = runs_from_mask(is_first)
    gid = np.repeat(np.arange(starts.size), counts).reshape(n, m)
    w = m if a.top is None else min(a.top, m)  # terms are kept for the top w only
    grades = np.take(yt.ravel(), flat)
    p = np.arange(1, m + 1, dtype=np.float64)
    return _TieGroups(order, grades, starts, counts, gid, starts % m, p, w, gid[:, :w])


def _tie_averaged_relevance(a: _TermInputs, g: _TieGroups) -> dict:
    """Expected ``rr``, ``rel``, ``ap_num`` and ``first_prob`` over the orders of each tie group."""
    n, m = a.yt.shape
    starts, counts, gid, p, w, gid_w = g.starts, g.counts, g.gid, g.p, g.w, g.gid_w
    is_rel = (g.grades >= a.level).view(np.int8).ravel()
    r_group = np.add.reduceat(is_rel, starts, dtype=np.int64).astype(np.float64)
    # relevant items in the earlier groups of the same row (whole numbers: exact)
    ahead = np.cumsum(r_group) - r_group
    before_group = ahead - np.take(ahead, gid[:, 0])[starts // m]
    # RR (whole ranking): the first group holding a relevant item; survival S_j
    # of its first j slots. Only that group's positions matter: they are taken
    # out (rows, slot j in the group) and their running sums made on a (n,
    # largest group) grid, which adds the same numbers in the same order as a
    # running sum over the whole row (zeros elsewhere) would.
    first_group = np.flatnonzero((r_group > 0) & (before_group == 0))
    at, jj, sizes = g.entries(first_group)
    rows, cols = np.divmod(at, m)
    ss = np.repeat(counts[first_group].astype(np.float64), sizes)
    rr_ = np.repeat(r_group[first_group], sizes)
    factor = (ss - rr_ - jj) / (ss - jj)
    alive = jj <= ss - rr_
    grid = np.zeros((n, int(jj.max(initial=0)) + 1), dtype=np.float64)
    grid[rows, jj] = np.log(np.where(alive & (factor > 0), factor, 1.0))
    logs = grid[rows, jj]
    surv = np.where(alive, np.exp(np.cumsum(grid, axis=1)[rows, jj] - logs), 0.0)
    in_group = surv * rr_ / (ss - jj)
    grid[:] = 0.0
    grid[rows, jj] = in_group / p[cols]
    first_prob = np.zeros((n, w), dtype=np.float64)
    shown = cols < w
    first_prob[rows[shown], cols[shown]] = in_group[shown]
    j = np.arange(w)[None, :] - np.take(g.lo_group, gid_w)
    rel = np.take(r_group / counts, gid_w)
    pair_group = safe_divide(r_group * (r_group - 1), counts * (counts - 1.0))
    ap_num = (rel * (1.0 + np.take(before_group, gid_w)) + j * np.take(pair_group, gid_w)) / p[:w]
    rr = np.cumsum(grid, axis=1)[:, -1]
    return {"rr": rr, "rel": rel, "ap_num": ap_num, "first_prob": first_prob}


def _tie_averaged_terms(a: _TermInputs) -> dict:
    """The raw per-position terms under ``"tie-averaged"`` (as :func:`_deterministic_terms`)."""
    n, m = a.yt.shape
    g = _tie_groups(a)
    w, grades = g.w, g.grades
    t = {"rr": None}
    if "rel" in a.parts:
        t.update(_tie_averaged_relevance(a, g))
    # ERR and DCG use the mean over each tie group that reaches the top w: those
    # groups' items alone are gathered (all of them when w is every position)
    if w < m:
        head = g.lo_group < w
        at, _, head_sizes = g.entries(np.flatnonzero(head))
        head_grades = np.take(grades.ravel(), at)
        head_of = np.take(np.cumsum(head) - 1, g.gid_w)
    else:
        head_grades, head_sizes, head_of = grades.ravel(), g.counts, g.gid_w
    head_starts = np.cumsum(head_sizes) - head_sizes

    def group_mean(values):
        """Each kept position's mean of ``values`` over its tie group."""
        return np.take(np.add.reduceat(values, head_starts) / head_sizes, head_of)

    if "err" in a.parts:
        if a.mg == 0.0:
            t["stop"] = np.zeros((n, w))
        else:
            t["stop"] = group_mean(stop_probability(head_grades, a.mg))
    if "dcg" in a.parts:
        t["mean_gain"] = group_mean(_gains(head_grades, a.gain))
    t.update(order=g.order[:, :w], p=g.p[:w], m=w)
    return t


def _summed_terms(a: _TermInputs, t: dict, n_rel) -> dict:
    """The output of :func:`_position_terms` from the raw terms: running sums, the ideal DCG."""
    p, m, parts = t["p"], t["m"], a.parts
    out = {"order": t["order"], "n_rel": n_rel, "positions": p}
    if "rel" in parts:
        rr = t["rr"]
        if rr is None:
            rr = np.cumsum(t["first_prob"] / p, axis=1)[:, -1]
        out.update(rr=rr, rel=t["rel"], ap_num=t["ap_num"], first_prob=t["first_prob"])
    if "err" in parts:
        stop = t["stop"]
        still = np.ones_like(stop)
        if m > 1:
            np.cumprod(1.0 - stop[:, :-1], axis=1, out=still[:, 1:])
        out.update(stop=stop, still=still, err=stop * still / p)
    if "dcg" in parts:
        # gains grow with the grade: the ideal ranking sorts the grades
        discounts = _discounts(m)
        if "sorted" in a.known:
            best = a.known["sorted"][:, :m].astype(np.float64)
        else:
            best = np.sort(a.full, axis=1)[:, ::-1][:, :m]
        mean_gain = t["mean_gain"]
        ideal = _gains(best, a.gain) * discounts
        out.update(gain=mean_gain, dcg=mean_gain * discounts, ideal=ideal)
    return out


def _check_conventions(k, denominator, level, gain, ties, max_grade, yt, data_max=None):
    k = check_k(k)
    check_denominator(denominator)
    _check_level(level)
    _check_choice(gain, GAINS, "gain")
    _check_choice(ties, TIE_MODES, "ties")
    return k, check_max_grade(max_grade, yt, data_max=data_max)


def ap_denominator(denominator, n_rel, k, hits_k):
    """What AP@K divides its sum of precisions by, under each convention.

    Parameters
    ----------
    denominator : {"min_m_k", "relevant", "k", "hits"}
        ``min(relevant, K)`` (the common AP@K, as ranx's and torchmetrics'),
        all relevant items (trec_eval's ``map`` and ``map_cut_K``, which
        count the judged relevant documents the run never retrieved too),
        ``K``, or the relevant items found in the top K.
    n_rel : array-like of int
        Relevant items of each query.
    k : int
        The cut-off.
    hits_k : array-like of int
        Relevant items in each query's top K.

    Returns
    -------
    ndarray
        The denominator of each query (0 where AP@K is 0/0).

    Examples
    --------
    >>> import numpy as np
    >>> from metrics import ap_denominator
    >>> [ap_denominator(d, np.array([3]), 2, np.array([1]))[0].item()
    ...  for d in ("min_m_k", "relevant", "k", "hits")]
    [2, 3, 2, 1]
    """
    if denominator == "min_m_k":
        return np.minimum(n_rel, k)
    if denominator == "relevant":
        return n_rel
    if denominator == "k":
        return np.zeros_like(n_rel) + k
    return hits_k


def _at_cutoffs(t: dict, ks: np.ndarray, denominator: str) -> dict:
    """Every metric of the families in ``t`` at each cut-off in ``ks``
    (shape (n_queries, len(ks)))."""
    m = t["positions"].shape[0]
    idx = np.minimum(ks, m) - 1
    top = int(idx.max()) + 1  # positions past the largest cut-off are never summed

    def upto(name):
        return np.cumsum(t[name][:, :top], axis=1)[:, idx]

    out = {}
    if "rel" in t:
        kk = ks.astype(np.float64)[None, :]
        hits = upto("rel")
        n_rel = t["n_rel"][:, None]
        rr_terms = t["first_prob"][:, :top] / t["positions"][:top]
        out.update(
            {
                "P@K": hits / kk,
                "R@K": safe_divide(hits, n_rel),
                "hit rate@K": upto("first_prob"),
                "AP@K": safe_divide(upto("ap_num"), ap_denominator(denominator, n_rel, kk, hits)),
                "RR": np.broadcast_to(t["rr"][:, None], hits.shape),
                "RR@K": np.cumsum(rr_terms, axis=1)[:, idx],
            }
        )
    if "err" in t:
        out["ERR@K"] = upto("err")
    if "dcg" in t:
        out["NDCG@K"] = np.minimum(safe_divide(upto("dcg"), upto("ideal")), 1.0)
    return out


def score_order(y_score, *, retrieved=None) -> np.ndarray:
    """The ranking of every query: column indices, highest score first, tied
    scores in column order (lower column first), as :func:`tie_break_order`
    with ``ties="column"``, in the smallest unsigned integer type that holds
    a column index.

    Computed once and passed as ``order=`` to :func:`retrieval_per_query`,
    :func:`retrieval_curve` or :func:`retrieval_summary`, it spares them the
    sort of the score matrix when only K or the conventions change.

    Parameters
    ----------
    y_score : array-like of shape (n_queries, n_items)
        Finite scores.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        The items each query retrieved (see :func:`retrieval_per_query`): the
        others rank last, in column order. Pass the same mask to the tables.

    Returns
    -------
    ndarray of unsigned int, shape (n_queries, n_items)

    Examples
    --------
    >>> score_order([[0.5, 0.9, 0.5]]).tolist()
    [[1, 0, 2]]
    >>> score_order([[0.5, 0.9, 0.5]], retrieved=[[True, False, True]]).tolist()
    [[0, 2, 1]]
    """
    ys = as_2d(y_score, "y_score")
    mask = check_retrieved(retrieved, ys)
    return _score_order(ys if mask is None else np.where(mask, ys, -np.inf))


def _score_order(ys: np.ndarray) -> np.ndarray:
    """:func:`score_order` of checked scores."""
    dtype = np.min_scalar_type(ys.shape[1] - 1)

    def kernel(ys_b):
        return (keyed_descending_order(ys_b).astype(dtype),)

    return by_row_blocks(kernel, ys)[0]


def _check_order(order, ys: np.ndarray) -> np.ndarray | None:
    """``order`` (None, or an integer matrix shaped as the scores) as :func:`score_order`."""
    if order is None:
        return None
    if not (isinstance(order, np.ndarray) and order.dtype.kind in "iu" and order.shape == ys.shape):
        got = getattr(order, "shape", type(order).__name__)
        raise MetricInputError(
            f"order must be score_order(y_score), an integer array of shape {ys.shape}; got {got}."
        )
    return order


def retrieval_per_query(
    y_true,
    y_score,
    *,
    k,
    denominator="min_m_k",
    level=1,
    gain="linear",
    max_grade=None,
    ties="column",
    order=None,
    metrics=None,
    retrieved=None,
) -> pd.DataFrame:
    """Every Top-K metric of every query under one set of conventions.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores.
    k : int
        Cut-off, ``>= 1``.
    denominator : {"min_m_k", "relevant", "k", "hits"}, default "min_m_k"
        AP@K's denominator (see :func:`average_precision_at_k`). Under
        ``ties="tie-averaged"``, ``"hits"`` divides the expected sum by the
        expected number of hits.
    level : float, default 1
        The lowest grade that counts as relevant for P, R, hit rate, AP and
        RR (:func:`relevant_at_level`); ERR and NDCG use the grades.
    gain : {"linear", "exponential"}, default "linear"
        NDCG's gain (:func:`graded_gain`); ERR always uses Chapelle's
        ``(2^g - 1) / 2^max_grade``.
    max_grade : float or None, default None
        ERR's top grade; None takes the largest grade in ``y_true``.
    ties : {"column", "tie-averaged", "optimistic", "pessimistic"}, default "column"
        ``"column"`` is the contract's rule (lower column first) and gives
        exactly :func:`precision_at_k_per_sample`, ... and NDCG with
        ``ignore_ties``-free strict order; ``"optimistic"``/``"pessimistic"``
        rank tied items best/worst grade first (:func:`tie_break_order`);
        ``"tie-averaged"`` gives each metric's expected value over the orders
        of every tie group (exact for P@K, R@K, hit rate, AP@K with a
        denominator other than ``"hits"``, RR and NDCG, which then equals
        :func:`metrics.dcg.ndcg_score`'s tie averaging; for ERR the cascade
        of each position's expected stop probability, an approximation).
    order : ndarray or None, default None
        :func:`score_order` of ``y_score``, computed once and passed again
        to spare the sort of the scores when only the conventions change
        (used by the column and tie-averaged rules); None sorts them.
    metrics : sequence of str or None, default None
        The columns to compute, among :data:`CONVENTION_METRICS` (None: every
        one); only their families of terms are computed (:data:`METRIC_PART`:
        the relevance family for P, R, hit rate, AP and RR, ERR, NDCG), so a
        page can recompute only the columns a changed convention moves.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        False marks an item the system did not retrieve (a judged document
        missing from a run, a padding slot): it counts among the relevant items
        (R, AP over M, the ideal DCG) but never sits in a top K, for any K, as
        in trec_eval. Default: every item retrieved.

    Returns
    -------
    pandas.DataFrame
        One row per query with the columns ``P@K``, ``R@K``, ``hit rate@K``,
        ``AP@K``, ``RR`` (reciprocal rank over the whole ranking, no cut),
        ``ERR@K``, ``NDCG@K`` (those of ``metrics``) and ``relevant`` (the
        query's number of relevant items at ``level``).

    Examples
    --------
    >>> t = retrieval_per_query([[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]], [[5, 4, 3, 2, 1]] * 2, k=5)
    >>> t["AP@K"].round(4).tolist(), t["RR"].tolist()
    ([0.7556, 0.5], [1.0, 0.5])
    >>> retrieval_per_query([[0, 1]], [[1, 1]], k=1, ties="tie-averaged")["P@K"].tolist()
    [0.5]
    """
    per_query, _ = _checked_tables(
        y_true,
        y_score,
        k=k,
        k_max=None,
        empty="zero",
        order=order,
        metrics=metrics,
        denominator=denominator,
        level=level,
        gain=gain,
        max_grade=max_grade,
        ties=ties,
        retrieved=retrieved,
    )
    return per_query


def retrieval_means(per_query: pd.DataFrame, *, empty="zero") -> pd.Series:
    """The mean of every metric over queries; ``empty`` says what a query
    with no relevant item does.

    Parameters
    ----------
    per_query : pandas.DataFrame
        The output of :func:`retrieval_per_query` (or of a curve's rows).
    empty : {"zero", "drop", "one"}, default "zero"
        ``"zero"``: such a query scores 0 and counts in the mean (the
        contract, trec_eval for a judged query, torchmetrics' default);
        ``"drop"``: it is left out of every mean (as a query without
        judgments is left out by trec_eval and ranx). With every query
        empty, ``"drop"`` gives 0. ``"one"``: it scores 1 in every metric and
        counts in the mean (LightGBM's ``ndcg`` and ``map``, XGBoost's ``ndcg``
        and ``map`` without the ``-`` suffix).

    Returns
    -------
    pandas.Series
        One value per metric column (``relevant`` excluded).

    Examples
    --------
    >>> t = retrieval_per_query([[1, 0], [0, 0]], [[2, 1], [2, 1]], k=1)
    >>> float(retrieval_means(t)["P@K"]), float(retrieval_means(t, empty="drop")["P@K"])
    (0.5, 1.0)
    >>> float(retrieval_means(t, empty="one")["P@K"])
    1.0
    """
    import pandas as pd

    values = queries_counted(per_query, empty).drop(columns=["relevant"])
    if values.empty:
        return pd.Series(0.0, index=values.columns)
    return values.mean()


def queries_counted(per_query: pd.DataFrame, empty="zero") -> pd.DataFrame:
    """The rows of a per-query table that the means average, under ``empty``.

    ``"zero"``: every row as it is; ``"drop"``: the rows with a relevant item;
    ``"one"``: every row, a row without a relevant item scoring 1 in every metric
    (see :func:`retrieval_means`).

    Parameters
    ----------
    per_query : pandas.DataFrame
        The output of :func:`retrieval_per_query` (a ``relevant`` column).
    empty : {"zero", "drop", "one"}, default "zero"

    Returns
    -------
    pandas.DataFrame
        The same columns.

    Examples
    --------
    >>> import pandas as pd
    >>> t = pd.DataFrame({"RR": [0.5, 0.0], "relevant": [1, 0]})
    >>> queries_counted(t, "drop")["RR"].tolist(), queries_counted(t, "one")["RR"].tolist()
    ([0.5], [0.5, 1.0])
    """
    empty = _check_choice(empty, EMPTY_QUERY, "empty")
    kept = per_query["relevant"].to_numpy() > 0
    if empty == "drop":
        return per_query[kept]
    if empty == "one":
        values = per_query.drop(columns=["relevant"])
        full = values.where(np.broadcast_to(kept[:, None], values.shape), 1.0)
        return full.assign(relevant=per_query["relevant"])
    return per_query


def retrieval_curve(
    y_true,
    y_score,
    *,
    k_max,
    denominator="min_m_k",
    level=1,
    gain="linear",
    max_grade=None,
    ties="column",
    empty="zero",
    order=None,
    metrics=None,
    retrieved=None,
) -> pd.DataFrame:
    """Mean P@K, R@K, hit rate@K, MAP@K, MRR@K, ERR@K and NDCG@K for K = 1 .. k_max.

    One ranking of the matrix and cumulative sums over positions (no loop
    over K or over queries).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_queries, n_items)
        Graded relevance (``>= 0``) and finite scores.
    k_max : int
        The largest cut-off, ``>= 1``.
    denominator, level, gain, max_grade, ties, order, metrics, retrieved
        As :func:`retrieval_per_query`.
    empty : {"zero", "drop", "one"}, default "zero"
        What a query with no relevant item does, as :func:`retrieval_means`.

    Returns
    -------
    pandas.DataFrame
        Columns ``K``, ``P@K``, ``R@K``, ``hit rate@K``, ``MAP@K``,
        ``MRR@K`` (the first relevant item counts only inside the top K),
        ``ERR@K`` and ``NDCG@K``; row ``K`` equals the means of
        :func:`retrieval_per_query` at that ``k``.

    Examples
    --------
    >>> c = retrieval_curve([[1, 0, 1, 0, 1]], [[5, 4, 3, 2, 1]], k_max=5)
    >>> c["MAP@K"].round(4).tolist()
    [1.0, 0.5, 0.5556, 0.5556, 0.7556]
    """
    _, curve = _checked_tables(
        y_true,
        y_score,
        k=None,
        k_max=k_max,
        empty=empty,
        order=order,
        metrics=metrics,
        denominator=denominator,
        level=level,
        gain=gain,
        max_grade=max_grade,
        ties=ties,
        retrieved=retrieved,
    )
    return curve


def retrieval_summary(
    y_true,
    y_score,
    *,
    k,
    k_max,
    denominator="min_m_k",
    level=1,
    gain="linear",
    max_grade=None,
    ties="column",
    empty="zero",
    order=None,
    metrics=None,
    retrieved=None,
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """:func:`retrieval_per_query` at ``k`` and :func:`retrieval_curve` up to ``k_max``
    from one ranking of the matrix (one pass over its blocks of rows).

    The same numbers as the two calls, for about the cost of the curve alone.

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_queries, n_items)
        Graded relevance (``>= 0``) and finite scores.
    k : int
        The per-query table's cut-off, ``>= 1``.
    k_max : int
        The curve's largest cut-off, ``>= 1``.
    denominator, level, gain, max_grade, ties, order, metrics, retrieved
        As :func:`retrieval_per_query`.
    empty : {"zero", "drop", "one"}, default "zero"
        The curve's treatment of a query with no relevant item, as
        :func:`retrieval_means`.

    Returns
    -------
    per_query, curve : pandas.DataFrame
        As :func:`retrieval_per_query` and :func:`retrieval_curve`.

    Examples
    --------
    >>> t, c = retrieval_summary([[1, 0, 1, 0, 1]], [[5, 4, 3, 2, 1]], k=5, k_max=5)
    >>> round(float(t["AP@K"][0]), 4), c["MAP@K"].round(4).tolist()
    (0.7556, [1.0, 0.5, 0.5556, 0.5556, 0.7556])
    """
    return _checked_tables(
        y_true,
        y_score,
        k=k,
        k_max=k_max,
        empty=empty,
        order=order,
        metrics=metrics,
        denominator=denominator,
        level=level,
        gain=gain,
        max_grade=max_grade,
        ties=ties,
        retrieved=retrieved,
    )


def _checked_tables(
    y_true, y_score, *, k, k_max, empty, order, metrics, retrieved=None, **conventions
):
    """Validate the inputs and options of the three table functions, then :func:`_tables`.

    ``k`` or ``k_max`` may be None (that table is skipped); the cut-off given
    first is checked with the conventions, as each public function did.
    """
    yt, ys = check_ranking_inputs(y_true, y_score, int_grades=True)
    retrieved = check_retrieved(retrieved, ys)
    k, k_max, mg = _checked_options(yt, k, k_max, empty, conventions)
    order = _check_order(order, ys)
    if conventions["ties"] not in ("column", "tie-averaged"):
        order = None  # score_order is not the ranking of the other rules
    return _tables(
        yt, ys, k=k, k_max=k_max, mg=mg, empty=empty, order=order,
        metrics=_check_metrics(metrics), retrieved=retrieved, **_rule(conventions),
    )  # fmt: skip


def _checked_options(yt, k, k_max, empty, conventions, data_max=None) -> tuple:
    """The cut-offs and ERR's grade scale of the table functions (``data_max``: the
    largest grade of ``yt``, when known), checked in the order the functions did."""
    c = conventions
    cut = k if k is not None else k_max
    cut, mg = _check_conventions(
        cut, c["denominator"], c["level"], c["gain"], c["ties"], c["max_grade"], yt, data_max
    )
    if k is not None:
        k = cut
        k_max = None if k_max is None else check_k(k_max)
    else:
        k_max = cut
    _check_choice(empty, EMPTY_QUERY, "empty")
    return k, k_max, mg


def _rule(conventions: dict) -> dict:
    """The conventions :func:`_tables` takes (``max_grade`` goes as the checked ``mg``)."""
    return {n: conventions[n] for n in ("denominator", "level", "gain", "ties")}


class RankedQueries:
    """A query x item matrix checked and ranked once: what every K and convention shares.

    Made by :func:`rank_queries`. Its :meth:`per_query` and :meth:`summary` give
    the numbers of :func:`retrieval_per_query` and :func:`retrieval_summary`
    without checking the matrices again, and without the work that does not
    depend on K, which it keeps (:meth:`known`, computed for the first table at
    one K): each query's number of relevant items and reciprocal rank, its grades
    in descending order and the rankings of the tie rules. A table at cut-off K
    then reads only the first K ranked positions of each query, so moving K costs
    in proportion to K.

    It keeps the arrays it checked (not copies): they must not change while it
    is used. Shared by threads (a cached ranking serves every session), it may
    compute a kept value twice, never a wrong one.

    Attributes
    ----------
    y_true, y_score : ndarray of shape (n_queries, n_items)
        The checked grades and scores.
    order : ndarray of unsigned int, shape (n_queries, n_items)
        :func:`score_order` of ``y_score`` (and ``retrieved``).
    data_max : float
        The largest grade.
    retrieved : ndarray of bool or None
        The items each query retrieved (None: all); see :func:`retrieval_per_query`.

    Examples
    --------
    >>> ranked = rank_queries([[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]], [[5, 4, 3, 2, 1]] * 2)
    >>> ranked.order.tolist()[0], ranked.data_max
    ([0, 1, 2, 3, 4], 1.0)
    >>> ranked.per_query(k=5)["AP@K"].round(4).tolist()
    [0.7556, 0.5]
    """

    __slots__ = (
        "y_true", "y_score", "order", "data_max", "retrieved", "_given", "_memo", "_lock",
    )  # fmt: skip

    #: Values of :meth:`known` kept at most (the oldest goes first).
    MEMO_ENTRIES = 16

    def __init__(self, y_true, y_score, order, data_max, given=(), retrieved=None):
        self.y_true, self.y_score, self.order = y_true, y_score, order
        self.data_max = float(data_max)
        self.retrieved = retrieved
        self._given = tuple(map(id, given))  # the caller's arrays (not counted as its own)
        self._memo: dict = {}
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"RankedQueries({self.y_true.shape[0]} queries x {self.y_true.shape[1]} items)"

    def __sizeof__(self) -> int:
        """Bytes it holds besides the caller's arrays: the ranking and what it keeps."""
        mine = (self.y_true, self.y_score, self.retrieved)
        own = [a for a in mine if a is not None and id(a) not in self._given]
        with self._lock:
            kept = [v for v in self._memo.values() if isinstance(v, np.ndarray)]
        return object.__sizeof__(self) + sum(a.nbytes for a in (*own, self.order, *kept))

    def _kept(self, key, compute):
        """The value kept under ``key``, computed (outside the lock) if there is none."""
        value = self._memo.get(key)
        if value is None:
            value = compute()
            with self._lock:
                memo = self._memo
                while len(memo) >= self.MEMO_ENTRIES:
                    memo.pop(next(iter(memo)))
                memo[key] = value
        return value

    def ranking(self, ties: str) -> np.ndarray | None:
        """The ranking under a tie rule: :attr:`order` for ``"column"`` and
        ``"tie-averaged"`` (whose terms average over its tie groups), else
        :func:`tie_break_order` in the type of :attr:`order` (kept).

        Examples
        --------
        >>> rank_queries([[0, 1, 2]], [[0.5, 0.5, 0.5]]).ranking("optimistic").tolist()
        [[2, 1, 0]]
        """
        ties = _check_choice(ties, TIE_MODES, "ties")
        if ties in ("column", "tie-averaged"):
            return self.order

        def compute():
            def kernel(yt_b, ys_b, *mask_b):
                seen_b = retrieved_only(yt_b, ys_b, mask_b[0] if mask_b else None)
                return (_tie_order(*seen_b, ties).astype(self.order.dtype),)

            return by_row_blocks(kernel, self.y_true, self.y_score, *self._mask())[0]

        return self._kept(("ranking", ties), compute)

    def known(self, level, ties: str) -> dict:
        """The values of every query that do not depend on K, kept once computed.

        Parameters
        ----------
        level : float
            The lowest relevant grade.
        ties : str
            The tie rule.

        Returns
        -------
        dict
            ``"n_rel"``: each query's relevant items at ``level`` (float);
            ``"sorted"``: its grades in descending order (in the smallest type that
            holds them exactly); under a deterministic rule also ``"rr"``, its
            reciprocal rank over the whole ranking.

        Examples
        --------
        >>> got = rank_queries([[0, 2, 1]], [[0.1, 0.2, 0.9]]).known(2, "column")
        >>> got["n_rel"].tolist(), got["rr"].tolist(), got["sorted"].tolist()
        ([1.0], [0.5], [[2, 1, 0]])
        """
        lv = _check_level(level)
        ties = _check_choice(ties, TIE_MODES, "ties")
        out = {
            "n_rel": self._kept(("n_rel", lv), lambda: self._n_rel(lv)),
            "sorted": self._kept("sorted", self._sorted),
        }
        if ties != "tie-averaged":
            out["rr"] = self._kept(("rr", ties, lv), lambda: self._rr(lv, ties))
        return out

    def _n_rel(self, lv: float) -> np.ndarray:
        def kernel(yt_b):
            return (np.count_nonzero(yt_b >= lv, axis=1).astype(np.float64),)

        return by_row_blocks(kernel, self.y_true)[0]

    def _mask(self) -> tuple:
        """The mask as extra arrays for :func:`by_row_blocks` (none without a mask)."""
        return () if self.retrieved is None else (self.retrieved,)

    def _rr(self, lv: float, ties: str) -> np.ndarray:
        def kernel(yt_b, order_b, *mask_b):
            n, m = yt_b.shape
            flat = order_b.astype(np.int64) + np.arange(0, yt_b.size, m)[:, None]
            hit = yt_b >= lv
            if mask_b:  # an unretrieved item is never the first relevant one
                hit &= mask_b[0]
            ranked_rel = np.take(hit.ravel(), flat)
            first = np.argmax(ranked_rel, axis=1)
            return (np.where(ranked_rel[np.arange(n), first], 1.0 / (first + 1.0), 0.0),)

        return by_row_blocks(kernel, self.y_true, self.ranking(ties), *self._mask())[0]

    def _sorted(self) -> np.ndarray:
        def kernel(yt_b):
            return (np.sort(yt_b, axis=1)[:, ::-1],)

        best = by_row_blocks(kernel, self.y_true)[0]
        if best.dtype.kind == "f" and self.data_max <= np.iinfo(np.uint16).max:
            small = best.astype(np.min_scalar_type(int(self.data_max)))
            if np.array_equal(small, best):
                return small
        return best

    def _tables(self, k, k_max, empty, metrics, conventions):
        """:func:`_checked_tables` without checking the matrices again."""
        k, k_max, mg = _checked_options(
            self.y_true, k, k_max, empty, conventions, data_max=self.data_max
        )
        metrics = _check_metrics(metrics)
        ties = conventions["ties"]
        # a curve reads every position: what :meth:`known` keeps would save it little
        known = self.known(conventions["level"], ties) if k_max is None else None
        return _tables(
            self.y_true, self.y_score, k=k, k_max=k_max, mg=mg, empty=empty,
            order=self.ranking(ties), metrics=metrics, known=known,
            retrieved=self.retrieved, **_rule(conventions),
        )  # fmt: skip

    def per_query(
        self,
        *,
        k,
        denominator="min_m_k",
        level=1,
        gain="linear",
        max_grade=None,
        ties="column",
        metrics=None,
    ) -> pd.DataFrame:
        """:func:`retrieval_per_query` of the matrix (the same parameters, but the matrices
        and ``order``).

        Examples
        --------
        >>> ranked = rank_queries([[0, 1]], [[1, 1]])
        >>> ranked.per_query(k=1, ties="tie-averaged")["P@K"].tolist()
        [0.5]
        """
        conventions = dict(
            denominator=denominator, level=level, gain=gain, max_grade=max_grade, ties=ties
        )
        return self._tables(k, None, "zero", metrics, conventions)[0]

    def summary(
        self,
        *,
        k,
        k_max,
        denominator="min_m_k",
        level=1,
        gain="linear",
        max_grade=None,
        ties="column",
        empty="zero",
        metrics=None,
    ) -> tuple[pd.DataFrame, pd.DataFrame]:
        """:func:`retrieval_summary` of the matrix (the same parameters, but the matrices
        and ``order``).

        Examples
        --------
        >>> t, c = rank_queries([[1, 0, 1, 0, 1]], [[5, 4, 3, 2, 1]]).summary(k=5, k_max=5)
        >>> round(float(t["AP@K"][0]), 4), c["MAP@K"].round(4).tolist()
        (0.7556, [1.0, 0.5, 0.5556, 0.5556, 0.7556])
        """
        conventions = dict(
            denominator=denominator, level=level, gain=gain, max_grade=max_grade, ties=ties
        )
        return self._tables(k, k_max, empty, metrics, conventions)


def rank_queries(y_true, y_score, *, order=None, retrieved=None) -> RankedQueries:
    """Check the matrices and rank every query once, for tables at many K and conventions.

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_items)
        Graded relevance, ``>= 0``.
    y_score : array-like of shape (n_queries, n_items)
        Finite scores.
    order : ndarray or None, default None
        :func:`score_order` of ``y_score`` (and ``retrieved``), if computed already.
    retrieved : array-like of bool, shape (n_queries, n_items), optional
        The items each query retrieved, as :func:`retrieval_per_query` reads it.

    Returns
    -------
    RankedQueries
        Its :meth:`~RankedQueries.per_query` and :meth:`~RankedQueries.summary` equal
        :func:`retrieval_per_query` and :func:`retrieval_summary` of the matrices.

    Examples
    --------
    >>> y, s = [[1, 0, 1, 0, 1], [0, 1, 0, 1, 0]], [[5, 4, 3, 2, 1]] * 2
    >>> ranked = rank_queries(y, s)
    >>> ranked.per_query(k=2).equals(retrieval_per_query(y, s, k=2))
    True
    """
    yt, ys = check_ranking_inputs(y_true, y_score, int_grades=True)
    mask = check_retrieved(retrieved, ys)
    order = _check_order(order, ys)
    if order is None:
        order = _score_order(ys if mask is None else np.where(mask, ys, -np.inf))
    given = (y_true, y_score, retrieved)
    return RankedQueries(yt, ys, order, float(yt.max()), given=given, retrieved=mask)


#: The curve's key in :func:`_at_cutoffs` of each metric of :data:`CONVENTION_METRICS`.
_CURVE_KEY = {
    "P@K": "P@K",
    "R@K": "R@K",
    "hit rate@K": "hit rate@K",
    "AP@K": "AP@K",
    "RR": "RR@K",
    "ERR@K": "ERR@K",
    "NDCG@K": "NDCG@K",
}
#: The curve's columns: the name in :func:`_at_cutoffs` and the curve's name.
_CURVE_NAMES = {
    "P@K": "P@K",
    "R@K": "R@K",
    "hit rate@K": "hit rate@K",
    "AP@K": "MAP@K",
    "RR@K": "MRR@K",
    "ERR@K": "ERR@K",
    "NDCG@K": "NDCG@K",
}


def _curve_sums(t: dict, ks: np.ndarray, denominator: str, empty: str) -> tuple[float, dict]:
    """One block's count of kept queries and their sums of every metric of the
    families in ``t`` at K in ``ks``.

    Sums that are linear in the positions (P, R, hit rate, MRR, ERR and AP
    with a fixed denominator) are column sums of the position terms (one
    matrix-vector product each), cumulated over positions once for the
    whole block; AP over min(M, K) or hits@K and NDCG divide by a per-query
    running value and are cumulated per query.
    """
    top = t["positions"].shape[0]
    idx = np.minimum(ks, top) - 1
    n_rel = t["n_rel"]
    # "one": the queries with relevant items sum their terms, each other one adds 1
    w = (n_rel > 0).astype(np.float64) if empty != "zero" else np.ones(n_rel.shape[0])

    def cum(weights, name):
        return np.cumsum(weights @ t[name])[idx]

    kk = ks.astype(np.float64)
    sums = {}
    if "rel" in t:
        per_rel = safe_divide(w, n_rel)  # 1/M for kept queries with M > 0, else 0
        if denominator in ("min_m_k", "hits"):
            if denominator == "min_m_k":
                den = np.minimum(n_rel[:, None], kk[None, :top])
            else:
                den = np.cumsum(t["rel"], axis=1)
            ap = (w @ safe_divide(np.cumsum(t["ap_num"], axis=1), den))[idx]
        elif denominator == "relevant":
            ap = cum(per_rel, "ap_num")
        else:
            ap = cum(w, "ap_num") / kk
        sums.update(
            {
                "P@K": cum(w, "rel") / kk,
                "R@K": cum(per_rel, "rel"),
                "hit rate@K": cum(w, "first_prob"),
                "AP@K": ap,
                "RR@K": np.cumsum(w @ (t["first_prob"] / t["positions"]))[idx],
            }
        )
    if "err" in t:
        sums["ERR@K"] = cum(w, "err")
    if "dcg" in t:
        ndcg = np.minimum(
            safe_divide(np.cumsum(t["dcg"], axis=1), np.cumsum(t["ideal"], axis=1)), 1.0
        )
        sums["NDCG@K"] = (w @ ndcg)[idx]
    if empty == "one":
        n_empty = float(n_rel.shape[0] - w.sum())
        return float(n_rel.shape[0]), {name: v + n_empty for name, v in sums.items()}
    return float(w.sum()), sums


def _check_metrics(metrics) -> tuple[str, ...]:
    """``metrics`` (None for every one) as a tuple in :data:`CONVENTION_METRICS` order."""
    if metrics is None:
        return CONVENTION_METRICS
    chosen = set(np.atleast_1d(np.asarray(metrics, dtype=object)).tolist())
    if not chosen or not chosen <= set(CONVENTION_METRICS):
        allowed = ", ".join(map(repr, CONVENTION_METRICS))
        raise MetricInputError(
            f"metrics must be a non-empty selection of {allowed}; got {metrics!r}."
        )
    return tuple(filter(chosen.__contains__, CONVENTION_METRICS))


def _tables(
    yt,
    ys,
    *,
    k,
    k_max,
    denominator,
    level,
    gain,
    mg,
    ties,
    empty,
    order=None,
    metrics=None,
    known=None,
    retrieved=None,
):
    """The per-query table at ``k`` and the curve up to ``k_max`` (either None to skip
    it) of ``metrics`` (validated, see :func:`_check_metrics`) from one pass of
    :func:`_position_terms` over blocks of validated rows.

    ``order``: the ranking under ``ties`` (None ranks each block); ``known``: the
    values that do not depend on K (:meth:`RankedQueries.known`), with which a
    deterministic rule reads only the first ``max(k, k_max)`` ranked positions.
    ``retrieved``: the checked mask or None; each block's ranking sees its unretrieved
    items at grade 0 and score -inf, its denominators the grades ``yt``.
    """
    import pandas as pd

    metrics = CONVENTION_METRICS if metrics is None else metrics
    parts = tuple(set(map(METRIC_PART.__getitem__, metrics)))
    curve_keys = tuple(map(_CURVE_KEY.__getitem__, metrics))
    top = max(k or 0, k_max or 0)
    ks = np.arange(1, (k_max or 0) + 1)
    extra = dict(known or {})
    width = None
    if order is not None:
        if "rr" in extra and top < yt.shape[1]:  # the first top positions are all it reads
            order, width = order[:, :top], top
        extra["order"] = order
    if width is not None and "sorted" in extra:
        extra["sorted"] = extra["sorted"][:, :top]
    if retrieved is not None:
        extra["retrieved"] = retrieved
    names = tuple(extra)

    def kernel(yt_b, ys_b, *extra_b):
        got = dict(zip(names, extra_b, strict=True))
        ranked = got.pop("order", None)
        ranked = None if ranked is None else ranked.astype(np.int64)
        full_b = yt_b
        yt_b, ys_b = retrieved_only(yt_b, ys_b, got.pop("retrieved", None))
        t = _position_terms(
            yt_b,
            ys_b,
            full=full_b,
            level=level,
            gain=gain,
            mg=mg,
            ties=ties,
            top=top,
            ranked=ranked,
            parts=parts,
            known=got,
        )
        out = ()
        if k is not None:
            at = _at_cutoffs(t, np.array([k]), denominator)
            out += (np.hstack(list(map(at.__getitem__, metrics))), t["n_rel"])
        if k_max is not None:
            kept, sums = _curve_sums(t, ks, denominator, empty)
            out += (np.array([kept]), np.stack(list(map(sums.__getitem__, curve_keys)))[None])
        return out

    blocks = by_row_blocks(kernel, yt, ys, *extra.values(), width=width)
    per_query = curve = None
    if k is not None:
        values, n_rel = blocks[0], blocks[1]
        per_query = pd.DataFrame(dict(zip(metrics, values.T, strict=True)))
        per_query["relevant"] = n_rel.astype(np.int64)
    if k_max is not None:
        kept, sums = blocks[-2], blocks[-1]
        n_kept = int(round(kept.sum()))
        means = sums.sum(axis=0) / n_kept if n_kept else np.zeros((len(curve_keys), k_max))
        names = map(_CURVE_NAMES.__getitem__, curve_keys)
        curve = pd.DataFrame({"K": ks, **dict(zip(names, means, strict=True))})
    return per_query, curve


def retrieval_query_steps(
    y_true,
    y_score,
    query,
    *,
    k,
    denominator="min_m_k",
    level=1,
    gain="linear",
    max_grade=None,
    ties="column",
    retrieved=None,
) -> pd.DataFrame:
    """One query's ranking, position by position, with each metric's contribution.

    Computed on the whole matrix (so ``max_grade=None`` is the matrix's
    largest grade, as in :func:`retrieval_per_query`), then row ``query``.
    Summing a contribution column gives that query's value in
    :func:`retrieval_per_query`: ``ap_term`` (AP@K), ``rr_term`` (RR),
    ``err_term`` (ERR@K), ``dcg_term`` (DCG@K; over ``ideal_dcg`` it is
    NDCG@K); each is 0 past ``k`` (``rr_term`` is not cut).

    Parameters
    ----------
    y_true, y_score : array-like of shape (n_queries, n_items)
    query : int
        Row index of the query.
    k, denominator, level, gain, max_grade, ties, retrieved
        As :func:`retrieval_per_query`. The unretrieved items come last (their
        positions are no place in the run; every term of theirs is 0).

    Returns
    -------
    pandas.DataFrame
        Columns ``position``, ``item`` (column index), ``retrieved``, ``score``, ``grade``,
        ``relevant`` (1/0, or the probability under ``"tie-averaged"``),
        ``tie_group`` (0-based run of equal scores), ``tie_size``,
        ``in_top_k``, ``hits_so_far``, ``precision`` (hits so far /
        position), ``ap_term``, ``ap_running``, ``first_prob`` (probability
        that this is the first relevant item), ``rr_term``, ``err_stop_prob``,
        ``err_still_looking``, ``err_term``, ``err_running``, ``gain`` (tie
        group mean under ``"tie-averaged"``), ``discount``, ``dcg_term``,
        ``dcg_running`` and ``ideal_dcg`` (the same in every row).

    Examples
    --------
    >>> s = retrieval_query_steps([[1, 0, 1, 0, 1]], [[5, 4, 3, 2, 1]], 0, k=5)
    >>> s["ap_term"].round(4).tolist(), round(float(s["ap_term"].sum()), 4)
    ([0.3333, 0.0, 0.2222, 0.0, 0.2], 0.7556)
    >>> s = retrieval_query_steps([[1, 0, 1]], [[3, 2, 1]], 0, k=3, retrieved=[[1, 0, 1]])
    >>> s["item"].tolist(), s["relevant"].tolist(), round(float(s["ap_term"].sum()), 4)
    ([0, 2, 1], [1.0, 1.0, 0.0], 1.0)
    """
    import pandas as pd

    yt, ys = check_ranking_inputs(y_true, y_score)
    mask = check_retrieved(retrieved, ys)
    k, mg = _check_conventions(k, denominator, level, gain, ties, max_grade, yt)
    if isinstance(query, bool) or not isinstance(query, (int, np.integer)):
        raise MetricInputError(f"query must be a row index; got {query!r}.")
    if not 0 <= query < yt.shape[0]:
        raise MetricInputError(f"query must be in 0 .. {yt.shape[0] - 1}; got {query}.")
    q = int(query)
    row = slice(q, q + 1)
    seen_y, seen_s = retrieved_only(yt[row], ys[row], None if mask is None else mask[row])
    t = _position_terms(seen_y, seen_s, full=yt[row], level=level, gain=gain, mg=mg, ties=ties)
    m = yt.shape[1]
    p = t["positions"]
    in_k = p <= k
    order = t["order"][0]
    score = ys[q, order]
    group = np.cumsum(run_start_mask(seen_s[0, order])) - 1
    hits = np.cumsum(t["rel"][0])
    hits_k = hits[min(k, m) - 1]
    den = float(ap_denominator(denominator, t["n_rel"], k, np.array([hits_k]))[0])
    ap_term = np.where(in_k, t["ap_num"][0], 0.0) / den if den else np.zeros(m)
    err_term = np.where(in_k, t["err"][0], 0.0)
    dcg_term = np.where(in_k, t["dcg"][0], 0.0)
    return pd.DataFrame(
        {
            "position": p.astype(np.int64),
            "item": order.astype(np.int64),
            "retrieved": np.ones(m, bool) if mask is None else mask[q, order],
            "score": score,
            "grade": yt[q, order],
            "relevant": t["rel"][0],
            "tie_group": group.astype(np.int64),
            "tie_size": np.bincount(group)[group].astype(np.int64),
            "in_top_k": in_k,
            "hits_so_far": hits,
            "precision": hits / p,
            "ap_term": ap_term,
            "ap_running": np.cumsum(ap_term),
            "first_prob": t["first_prob"][0],
            "rr_term": t["first_prob"][0] / p,
            "err_stop_prob": t["stop"][0],
            "err_still_looking": t["still"][0],
            "err_term": err_term,
            "err_running": np.cumsum(err_term),
            "gain": t["gain"][0],
            "discount": _discounts(m),
            "dcg_term": dcg_term,
            "dcg_running": np.cumsum(dcg_term),
            "ideal_dcg": np.full(m, float(t["ideal"][0, : min(k, m)].sum())),
        }
    )
