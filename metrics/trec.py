"""trec_eval's measures, per query, vectorized, and averaged as trec_eval averages them.

Rows are queries, columns documents: every document the run retrieved and
every judged document of the query (retrieved or not), in any order.
``y_true`` holds the judged relevance (0 when unjudged), ``y_score`` the
run's scores, ``retrieved`` (see :func:`metrics._relevance.check_retrieved`)
which documents the run retrieved and ``judged`` which are in the qrels.
A document is relevant when its grade is ``> 0`` (trec_eval's relevance
level 1). The ranking is by descending score, ties by lower column first:
put the documents in trec_eval's order (docid descending) to break ties as
it does (:func:`metrics.trec_files.read_trec_files` does).

Measures (trec_eval's names): ``num_ret``, ``num_rel``, ``num_rel_ret``,
``map``, ``gm_map`` (averaged only), ``Rprec``, ``bpref``, ``recip_rank``,
``iprec_at_recall_0.00`` ... ``_1.00``, ``11pt_avg``, ``infAP``,
``P_k``, ``recall_k``, ``map_cut_k``, ``ndcg_cut_k`` (k in
:data:`CUTOFFS`), ``ndcg``, ``ndcg_rel``, ``Rndcg``, ``set_P``,
``set_recall``, ``set_F``, and, from ranx and ir_measures, ``RBP``
(rank-biased precision on binary relevance, persistence ``rbp_p``; ranx's
gains the grade) and ``judged_k`` (the judged documents of the top k divided
by k, as P@k; ir_measures' ``Judged@k`` divides by the documents in the top
k, fewer on a short run). The recall levels of ``iprec_at_recall`` and
``11pt_avg`` become numbers of relevant documents rounded to the nearest, as
trec_eval 10 does (trec_eval 9, inside pytrec_eval, truncated ``level * R +
0.9``, which differs for some R). Every computation is on the whole matrix: one
sort, cumulative sums over positions, no loop over queries.

Examples
--------
>>> per_query = trec_measures([[1, 0, 2, 1]], [[0.9, 0.8, 0.7, 0.0]],
...                           retrieved=[[True, True, True, False]])
>>> [round(float(per_query[m][0]), 4) for m in ("num_ret", "num_rel_ret", "map", "Rprec")]
[3.0, 2.0, 0.5556, 0.6667]
"""

from __future__ import annotations

import numpy as np

from metrics._ranks import keyed_descending_order
from metrics._relevance import check_ranking_inputs, check_retrieved, safe_divide
from metrics._validation import MetricInputError

__all__ = ["CUTOFFS", "RECALL_LEVELS", "TREC_MEASURES", "trec_aggregate", "trec_measures"]

#: trec_eval's default cut-offs of P, recall, map_cut and ndcg_cut.
CUTOFFS = (5, 10, 15, 20, 30, 100, 200, 500, 1000)
#: The recall levels of iprec_at_recall and 11pt_avg.
RECALL_LEVELS = tuple(i / 10 for i in range(11))
#: trec_eval's floor of a query's AP in the geometric mean (MIN_GEO_MEAN).
MIN_GEO_MEAN = 1e-5
INFAP_EPSILON = 1e-5
#: Measures summed, not averaged, over queries.
COUNTS = ("num_ret", "num_rel", "num_rel_ret")

TREC_MEASURES = (
    *COUNTS,
    "map",
    "gm_map",
    "Rprec",
    "bpref",
    "recip_rank",
    *(f"iprec_at_recall_{r:.2f}" for r in RECALL_LEVELS),
    *(f"P_{k}" for k in CUTOFFS),
    *(f"recall_{k}" for k in CUTOFFS),
    "infAP",
    "11pt_avg",
    "ndcg",
    "ndcg_rel",
    "Rndcg",
    *(f"ndcg_cut_{k}" for k in CUTOFFS),
    *(f"map_cut_{k}" for k in CUTOFFS),
    "set_P",
    "set_recall",
    "set_F",
    "RBP",
    *(f"judged_{k}" for k in (5, 10, 20)),
)


class _Ranked:
    """The ranked lists of every query: grades, retrieved and judged, in run order."""

    def __init__(self, y_true, y_score, retrieved, judged, depth) -> None:
        yt, ys = check_ranking_inputs(y_true, y_score)
        r = check_retrieved(retrieved, ys)
        r = np.ones(ys.shape, dtype=bool) if r is None else r
        j = check_retrieved(judged, ys)
        j = np.ones(ys.shape, dtype=bool) if j is None else j
        order = keyed_descending_order(np.where(r, ys, -np.inf))
        n, m = ys.shape
        self.pos = np.arange(1, m + 1, dtype=np.float64)
        self.ret = np.take_along_axis(r, order, axis=1)
        if depth is not None:  # trec_eval -M: only the first ``depth`` retrieved
            self.ret &= self.pos <= depth
        self.grade = np.where(self.ret, np.take_along_axis(yt, order, axis=1), 0.0)
        self.judged = np.take_along_axis(j, order, axis=1) & self.ret
        self.rel = self.grade > 0
        self.hits = np.cumsum(self.rel, axis=1)
        self.num_ret = self.ret.sum(axis=1).astype(np.float64)
        self.num_rel = np.count_nonzero(yt > 0, axis=1).astype(np.float64)
        self.num_rel_ret = self.hits[:, -1].astype(np.float64)
        self.num_nonrel = np.count_nonzero(j & (yt <= 0), axis=1).astype(np.float64)
        self.ideal = -np.sort(-yt, axis=1)  # every judged grade, highest first
        self.discount = 1.0 / np.log2(self.pos + 1.0)
        self.dcg = np.cumsum(self.grade * self.discount, axis=1)
        self.idcg = np.cumsum(self.ideal * self.discount, axis=1)

    def at(self, cum: np.ndarray, k) -> np.ndarray:
        """``cum`` (cumulative along positions) at position ``k`` (1-based; past m: the end)."""
        k = np.minimum(np.asarray(k, dtype=np.intp), cum.shape[1])
        k = np.broadcast_to(k, cum.shape[:1])
        out = np.take_along_axis(cum, np.maximum(k - 1, 0)[:, None], axis=1)[:, 0]
        return np.where(k > 0, out, 0.0)


def _precision_sums(t: _Ranked, k=None) -> np.ndarray:
    """Sum of the precisions at the relevant positions (of the top k)."""
    terms = np.where(t.rel, t.hits / t.pos, 0.0)
    if k is not None:
        terms = terms[:, :k]
    return terms.sum(axis=1)


def _bpref(t: _Ranked) -> np.ndarray:
    """Buckley & Voorhees: 1 - min(nonrel above, R) / min(N, R) at each relevant, over R."""
    nonrel = t.judged & ~t.rel
    above = np.cumsum(nonrel, axis=1) - nonrel
    r = t.num_rel[:, None]
    den = np.minimum(t.num_nonrel[:, None], r)
    terms = np.where(above > 0, 1.0 - safe_divide(np.minimum(above, r), den), 1.0)
    return safe_divide(np.where(t.rel, terms, 0.0).sum(axis=1), t.num_rel)


def _inf_ap(t: _Ranked) -> np.ndarray:
    """Yilmaz & Aslam's inferred AP, as trec_eval computes it (unjudged: not in the pool)."""
    j = t.pos - 1.0  # trec_eval's 0-based index of the document
    rel_above = t.hits - 1.0
    nonrel_above = np.cumsum(t.judged & ~t.rel, axis=1)
    e = INFAP_EPSILON
    with np.errstate(divide="ignore", invalid="ignore"):
        later = 1.0 / (j + 1.0) + (j / (j + 1.0)) * ((rel_above + nonrel_above) / j) * (
            (rel_above + e) / (rel_above + nonrel_above + 2 * e)
        )
    terms = np.where(j == 0, 1.0, later)
    return safe_divide(np.where(t.rel, terms, 0.0).sum(axis=1), t.num_rel)


def _iprec(t: _Ranked) -> np.ndarray:
    """Interpolated precision at the recall levels: (n_queries, 11)."""
    precision = np.where(t.ret, t.hits / t.pos, 0.0)
    best_after = np.maximum.accumulate(precision[:, ::-1], axis=1)[:, ::-1]
    levels = np.asarray(RECALL_LEVELS)
    # lround: half away from zero; the cut-offs are in relevant documents
    cut = np.floor(levels[None, :] * t.num_rel[:, None] + 0.5)
    need = np.maximum(cut, 1.0).astype(np.intp)  # level 0 reads the first relevant
    n, m = t.rel.shape
    # where_rel[i, c - 1]: the 0-based position of query i's c-th retrieved relevant
    rows, cols = np.nonzero(t.rel)
    where_rel = np.full((n, m), m - 1, dtype=np.intp)
    starts = np.concatenate(([0], np.cumsum(t.rel.sum(axis=1))[:-1]))
    where_rel[rows, np.arange(rows.shape[0]) - starts[rows]] = cols
    first = np.take_along_axis(where_rel, np.minimum(need, m) - 1, axis=1)
    value = np.take_along_axis(best_after, first, axis=1)
    return np.where(cut <= t.num_rel_ret[:, None], value, 0.0)


def _ndcg_rel(t: _Ranked) -> np.ndarray:
    """NDCG averaged over the relevant documents; an unretrieved one reads the final NDCG."""
    ratio = safe_divide(t.dcg, t.idcg)
    final = safe_divide(t.dcg[:, -1], t.idcg[:, -1])
    total = np.where(t.rel, ratio, 0.0).sum(axis=1) + (t.num_rel - t.num_rel_ret) * final
    return safe_divide(total, t.num_rel)


def _rndcg(t: _Ranked) -> np.ndarray:
    """NDCG averaged at the R levels: where the ideal gain drops, and at the run's end."""
    nxt = np.concatenate([t.ideal[:, 1:], np.zeros((t.ideal.shape[0], 1))], axis=1)
    boundary = (t.ideal > 0) & (t.ideal != nxt)
    ratio = safe_divide(t.dcg, t.idcg)
    # a last point at the run's end, when it goes on past position R + 1 (trec_eval's
    # loop has read position R + 1 when it sees the ideal gain drop to 0)
    extra = t.num_ret > t.num_rel + 1
    total = np.where(boundary, ratio, 0.0).sum(axis=1)
    total += np.where(extra, safe_divide(t.dcg[:, -1], t.idcg[:, -1]), 0.0)
    points = boundary.sum(axis=1) + extra
    return np.where(t.num_rel > 0, safe_divide(total, points), 0.0)


def trec_measures(
    y_true,
    y_score,
    *,
    retrieved=None,
    judged=None,
    depth=None,
    rbp_p=0.8,
    set_f_beta=1.0,
) -> dict[str, np.ndarray]:
    """Every measure of :data:`TREC_MEASURES` for every query (gm_map: the log of AP).

    Parameters
    ----------
    y_true : array-like of shape (n_queries, n_docs)
        Judged relevance, ``>= 0`` (0 for unjudged documents).
    y_score : array-like of shape (n_queries, n_docs)
        Finite scores; ties are broken by column order, lower column first.
    retrieved : array-like of bool, shape (n_queries, n_docs), optional
        Which documents the run retrieved (default: all). The others count
        among the relevant and never in a ranked list.
    judged : array-like of bool, shape (n_queries, n_docs), optional
        Which documents are in the qrels (default: all); bpref, infAP and
        judged@k read it.
    depth : int, optional
        trec_eval's ``-M``: only the first ``depth`` retrieved documents count.
    rbp_p : float, default 0.8
        RBP's persistence, as ir_measures' default.
    set_f_beta : float, default 1.0
        trec_eval's ``set_F`` parameter: (b + 1) P R / (b P + R).

    Returns
    -------
    dict of str to ndarray of shape (n_queries,)

    Examples
    --------
    >>> out = trec_measures([[1, 0, 0, 1]], [[4, 3, 2, 1]], judged=[[1, 1, 0, 1]])
    >>> [round(float(out[m][0]), 4) for m in ("bpref", "P_5", "set_F", "judged_5")]
    [0.5, 0.4, 0.6667, 0.6]
    """
    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, int) or depth < 1):
        raise MetricInputError(f"depth must be a positive integer or None; got {depth!r}.")
    if not 0.0 < float(rbp_p) < 1.0:
        raise MetricInputError(f"rbp_p must lie strictly between 0 and 1; got {rbp_p!r}.")
    t = _Ranked(y_true, y_score, retrieved, judged, depth)
    out = {"num_ret": t.num_ret, "num_rel": t.num_rel, "num_rel_ret": t.num_rel_ret}
    ap = safe_divide(_precision_sums(t), t.num_rel)
    out["map"] = ap
    out["gm_map"] = np.log(np.maximum(ap, MIN_GEO_MEAN))
    out["Rprec"] = safe_divide(t.at(t.hits, np.minimum(t.num_ret, t.num_rel)), t.num_rel)
    out["bpref"] = _bpref(t)
    first = np.argmax(t.rel, axis=1)
    out["recip_rank"] = np.where(t.num_rel_ret > 0, 1.0 / (first + 1.0), 0.0)
    iprec = _iprec(t)
    for i, level in enumerate(RECALL_LEVELS):
        out[f"iprec_at_recall_{level:.2f}"] = iprec[:, i]
    for k in CUTOFFS:
        out[f"P_{k}"] = t.at(t.hits, k) / k
    for k in CUTOFFS:
        out[f"recall_{k}"] = safe_divide(t.at(t.hits, k), t.num_rel)
    out["infAP"] = _inf_ap(t)
    out["11pt_avg"] = iprec.mean(axis=1)
    out["ndcg"] = safe_divide(t.dcg[:, -1], t.idcg[:, -1])
    out["ndcg_rel"] = _ndcg_rel(t)
    out["Rndcg"] = _rndcg(t)
    for k in CUTOFFS:
        out[f"ndcg_cut_{k}"] = safe_divide(t.at(t.dcg, k), t.at(t.idcg, k))
    for k in CUTOFFS:
        out[f"map_cut_{k}"] = safe_divide(_precision_sums(t, k), t.num_rel)
    set_p = safe_divide(t.num_rel_ret, t.num_ret)
    set_r = safe_divide(t.num_rel_ret, t.num_rel)
    b = float(set_f_beta)
    out["set_P"], out["set_recall"] = set_p, set_r
    out["set_F"] = safe_divide((b + 1.0) * set_p * set_r, b * set_p + set_r)
    p = float(rbp_p)
    out["RBP"] = (1.0 - p) * (t.rel * p ** (t.pos - 1.0)).sum(axis=1)
    for k in (5, 10, 20):
        out[f"judged_{k}"] = t.judged[:, :k].sum(axis=1) / k
    return out


def trec_aggregate(per_query: dict[str, np.ndarray], *, n_missing=0, missing_rel=0) -> dict:
    """The ``all`` line of trec_eval: sums of the counts, means of the rest, gm_map's exp.

    Parameters
    ----------
    per_query : dict of str to ndarray
        :func:`trec_measures`' output (any subset of measures).
    n_missing : int, default 0
        trec_eval's ``-c``: the judged queries the run lacks, each counted as
        0 (gm_map: as AP ``MIN_GEO_MEAN``).
    missing_rel : int, default 0
        The relevant documents of those queries (added to ``num_rel``).

    Returns
    -------
    dict of str to float, with ``num_q``

    Examples
    --------
    >>> agg = trec_aggregate({"map": np.array([0.5, 0.25]), "num_rel": np.array([2.0, 4.0]),
    ...                       "gm_map": np.log([0.5, 0.25])}, n_missing=2, missing_rel=3)
    >>> agg["num_q"], agg["map"], agg["num_rel"], round(agg["gm_map"], 4)
    (4, 0.1875, 9.0, 0.0019)
    """
    n = len(next(iter(per_query.values()))) + int(n_missing)
    out: dict[str, float] = {"num_q": n}
    for name, values in per_query.items():
        if name in COUNTS:
            out[name] = float(values.sum()) + (float(missing_rel) if name == "num_rel" else 0.0)
        elif name == "gm_map":
            out[name] = float(np.exp((values.sum() + n_missing * np.log(MIN_GEO_MEAN)) / n))
        else:
            out[name] = float(values.sum() / n)
    return out
