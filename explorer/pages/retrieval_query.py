"""The Top-K retrieval page's model of one query and of the queries in order: one
query's ranking step by step (the drill-down's table, formula terms and sums) and
the per-query table, worst first.

The tables, curves and conventions are in :mod:`explorer.pages.retrieval`; nothing
here touches Streamlit (the cached forms are in :mod:`explorer.ui.cache.retrieval`).
"""

from __future__ import annotations

from dataclasses import asdict

import numpy as np
import pandas as pd

import metrics
from explorer.datasets import Dataset
from explorer.pages.retrieval import Settings
from metrics import retrieval_query_steps

#: The drill-down metrics: the step table's contribution column and the per-query column
#: its sum equals (DCG: over the ideal DCG), which also sorts the per-query table.
DRILL = ("AP@K", "ERR", "DCG", "RR")
CONTRIB = {"AP@K": "ap_term", "ERR": "err_term", "DCG": "dcg_term", "RR": "rr_term"}
DRILL_METRIC = {"AP@K": "AP@K", "ERR": "ERR@K", "DCG": "NDCG@K", "RR": "RR"}
#: The step table's columns of each term of a drill-down metric's formula.
TERM_COLUMNS = {
    "AP@K": ("hits_so_far", "position"),
    "ERR": ("position", "err_stop_prob", "err_still_looking"),
    "DCG": ("gain", "discount"),
    "RR": ("first_prob", "position"),
}
#: The step table's columns that explain each drill-down metric.
STEP_COLUMNS = {
    "AP@K": ["hits_so_far", "precision", "ap_term", "ap_running"],
    "ERR": ["err_stop_prob", "err_still_looking", "err_term", "err_running"],
    "DCG": ["gain", "discount", "dcg_term", "dcg_running"],
    "RR": ["first_prob", "rr_term"],
}


# ------------------------------------------------------------------ one query, step by step
def steps_table(ds: Dataset, model: str, query: int, settings: Settings) -> pd.DataFrame:
    """One query's ranking, position by position, with each metric's contribution.

    The settings carry ``max_grade`` (at least the matrix's largest grade), so the
    query's row alone gives the numbers of the whole matrix's table. The dataset's
    ``retrieved`` mask puts the items the query never retrieved last (no term of
    theirs counts); ``item name`` names each item (:meth:`Dataset.item_names`), so the CSV
    says which document sat at which position.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> s = steps_table(load_sample("seed002_map"), "model", 0, Settings(k=5, max_grade=1.0))
    >>> round(float(s["ap_term"].sum()), 4), s["item name"].tolist()[:2]
    (0.7556, ['doc1', 'doc2'])
    """
    rows = slice(query, query + 1)
    mask = None if ds.retrieved is None else ds.retrieved[rows]
    steps = retrieval_query_steps(
        ds.y_true[rows], ds.score(model)[rows], 0, retrieved=mask, **asdict(settings)
    )
    names = ds.item_names(query)
    steps.insert(2, "item name", [names[i] for i in steps["item"]])
    return steps


#: Positions of one query's chart and step table drawn when it has more (and K is
#: smaller): both are redrawn on every move of K; the step table's CSV has every position.
STEP_ROWS = 30


def shown_positions(steps: pd.DataFrame, k: int) -> int:
    """How many ranked positions of a step table to draw: all of them up to
    :data:`STEP_ROWS`, else :data:`STEP_ROWS` or the top K when K is larger, and at
    least up to the last position that may hold the query's first relevant item.

    Every non-zero term of every drill-down metric is then drawn (past K only RR's
    is not 0), so the running sums drawn end in the query's values.

    Examples
    --------
    >>> steps = pd.DataFrame({"first_prob": [0.0] * 40 + [1.0] + [0.0] * 59})
    >>> shown_positions(steps.head(20), 5), shown_positions(steps, 5)
    (20, 41)
    >>> shown_positions(steps, 60), shown_positions(steps.assign(first_prob=0.0), 5)
    (60, 30)
    """
    n = len(steps)
    if n <= STEP_ROWS:
        return n
    maybe_first = np.flatnonzero(steps["first_prob"].to_numpy() > 0)
    last = int(maybe_first[-1]) + 1 if maybe_first.size else 0
    return min(n, max(STEP_ROWS, k, last))


def formula_terms(steps: pd.DataFrame, drill: str) -> list[tuple]:
    """The numbers of each term of the drill-down metric's sum, position by position.

    ``"AP@K"``: (relevant items so far, position) at each relevant position of the top
    K; ``"ERR"``: (position, stop probability, probability of still looking) where the
    stop probability is not 0; ``"DCG"``: (gain, discount) where the gain is not 0 (both
    in the top K); ``"RR"``: (probability that it is the first relevant item, position).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> s = steps_table(load_sample("seed002_map"), "model", 0, Settings(k=5, max_grade=1.0))
    >>> formula_terms(s, "AP@K")
    [(1.0, 1), (2.0, 3), (3.0, 5)]
    >>> formula_terms(s, "RR")
    [(1.0, 1)]
    """
    top = steps["in_top_k"]
    keep = {
        "AP@K": top & (steps["relevant"] > 0),
        "ERR": top & (steps["err_stop_prob"] > 0),
        "DCG": top & (steps["gain"] > 0),
        "RR": steps["first_prob"] > 0,
    }[drill]
    return list(steps.loc[keep, list(TERM_COLUMNS[drill])].itertuples(index=False, name=None))


def ap_denominator(steps: pd.DataFrame, n_relevant: int, denominator: str, k: int) -> float:
    """The number AP@K divides by for this query, as :mod:`metrics.retrieval` computes it.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> s = steps_table(load_sample("seed002_map"), "model", 0, Settings(k=2, max_grade=1.0))
    >>> [ap_denominator(s, 3, d, 2) for d in ("min_m_k", "relevant", "k", "hits")]
    [2.0, 3.0, 2.0, 1.0]
    """
    hits = float(steps.loc[steps["in_top_k"], "relevant"].sum())
    return float(metrics.ap_denominator(denominator, n_relevant, k, hits))


def drill_total(steps: pd.DataFrame, drill: str) -> tuple[float, float]:
    """The sum of the drill-down metric's contribution column, and the query's value
    it gives (the DCG over the ideal DCG for NDCG).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> s = steps_table(load_sample("seed001_dcg"), "model", 0, Settings(k=5, max_grade=10.0))
    >>> [round(v, 4) for v in drill_total(s, "DCG")]
    [9.4995, 0.6957]
    """
    total = float(steps[CONTRIB[drill]].sum())
    if drill != "DCG":
        return total, total
    return total, total / float(steps["ideal_dcg"].iloc[0] or 1)


def step_display(steps: pd.DataFrame, drill: str) -> pd.DataFrame:
    """The step table as the page shows it: the ranking, the item names, whether each
    was retrieved (when one was not) and the drill-down metric's columns.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_map")
    >>> s = steps_table(ds, "model", 0, Settings(k=5, max_grade=1.0))
    >>> show = step_display(s, "RR")
    >>> list(show.columns)[:3], show["item name"].tolist()[:2]
    (['position', 'item name', 'score'], ['doc1', 'doc2'])
    """
    columns = ["position", "item name", "score", "grade", "relevant", "tie_group", "in_top_k"]
    if not steps["retrieved"].all():
        columns.insert(2, "retrieved")
    show = steps[columns].copy()
    for c in STEP_COLUMNS[drill]:
        show[c] = steps[c]
    return show


def map_terms(per_query: pd.DataFrame, empty: str = "zero") -> pd.Series:
    """The AP@K values MAP@K averages: every query's, under ``"drop"`` those of the
    queries with a relevant item, under ``"one"`` every query's with 1 for a query
    without one.

    Examples
    --------
    >>> t = pd.DataFrame({"AP@K": [0.5, 0.0, 1.0], "relevant": [1, 0, 2]})
    >>> map_terms(t, "drop").tolist()
    [0.5, 1.0]
    """
    kept = metrics.queries_counted(per_query, empty)
    return kept["AP@K"]


# ------------------------------------------------------------------ per query, worst first
def id_rank(ds: Dataset) -> np.ndarray:
    """Each query id's place in sorted order (ties of the worst-first sort).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("diabetes_ranking")
    >>> ds.sample_ids[:3], id_rank(ds)[:3].tolist()
    (('0', '1', '2'), [0, 1, 12])
    """
    ids = np.asarray(ds.sample_ids, dtype=object)
    rank = np.empty(len(ids), dtype=np.int64)
    rank[np.argsort(ids, kind="stable")] = np.arange(len(ids))
    return rank


def query_rows(ds: Dataset) -> dict[str, int]:
    """Each query id's row (the first, should an id repeat): a query found in O(1).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> query_rows(load_sample("seed002_map")) == {"0": 0, "1": 1}
    True
    """
    ids = ds.sample_ids
    return dict(zip(reversed(ids), range(len(ids) - 1, -1, -1), strict=True))  # first row wins


def known_query(rows: dict[str, int]):
    """A check of :func:`explorer.ui.url.bind_param`: a query id of ``rows``
    (:func:`query_rows`), as ``url.member(ds.sample_ids)`` checks it (ids are
    text), without a table of every id built on each run.

    Examples
    --------
    >>> check = known_query({"q1": 0})
    >>> check("q1")
    'q1'
    >>> check("q2")
    Traceback (most recent call last):
    ValueError: q2
    """

    def check(value):
        if type(value) is not str or value not in rows:
            raise ValueError(value)
        return value

    return check


def worst_first(
    per_query: pd.DataFrame, sort: str, ranks: np.ndarray, empty: str = "zero"
) -> np.ndarray:
    """The rows of the per-query table, worst ``sort`` first (ties by query id: ``ranks``
    is :func:`id_rank`).

    Under ``empty="drop"`` the queries with no relevant item, which no mean counts,
    come last: the worst query is one that pulls the means down.

    Examples
    --------
    >>> t = pd.DataFrame({"RR": [1.0, 0.5, 0.5, 0.0], "relevant": [1, 2, 1, 0]})
    >>> worst_first(t, "RR", np.array([0, 2, 1, 3])).tolist()
    [3, 2, 1, 0]
    >>> worst_first(t, "RR", np.array([0, 2, 1, 3]), "drop").tolist()
    [2, 1, 0, 3]
    """
    keys = [ranks, per_query[sort].to_numpy()]
    if empty == "drop":
        keys.append(per_query["relevant"].to_numpy() == 0)
    return np.lexsort(keys)


def worst_first_rows(ds: Dataset, per_query: pd.DataFrame, order: np.ndarray) -> pd.DataFrame:
    """The rows ``order`` of the per-query table, with their query ids first.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_map")
    >>> from explorer.pages.retrieval import tables
    >>> per_query, _ = tables(ds, "model", Settings(k=5))
    >>> worst_first_rows(ds, per_query, np.array([1]))[["query", "AP@K"]].values.tolist()
    [['1', 0.5]]
    """
    table = per_query.take(order).reset_index(drop=True)
    table.insert(0, "query", [ds.sample_ids[i] for i in order])
    return table
