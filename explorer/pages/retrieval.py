"""The Top-K retrieval page's model: conventions, tables, curves and the switchboard.

Every number comes from :mod:`metrics.retrieval`; this module chooses what to
compute for the page's settings and shapes it into the tables and arrays the view
draws. Nothing here touches Streamlit: the cached forms of these functions are
declared in :mod:`explorer.ui.cache.retrieval`, and one query's step by step and
the queries worst first are in :mod:`explorer.pages.retrieval_query`.

The per-query columns fall into three *families* that depend on different
conventions (:data:`FAMILY_SETTINGS`): P, R, hit rate, AP and RR on the relevance
grade and the AP denominator, ERR on its maximum grade, NDCG on its gain; every
family depends on the model, K and the tie rule. A change of one convention thus
recomputes one family only, and a curve (every K at once) does not depend on K.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace
from typing import NamedTuple

import numpy as np
import pandas as pd

from explorer.datasets import Dataset
from explorer.derivation import MeanDerivation, mean_terms
from metrics import (
    CONVENTION_METRICS,
    METRIC_PART,
    RankedQueries,
    queries_counted,
    rank_queries,
    retrieval_means,
)

# ------------------------------------------------------------------ conventions
#: AP@K's denominators: the select box's labels, a short name and the formula's symbol.
DENOMINATORS = {
    "min_m_k": "min(M, K): the common AP@K (the revision sheet)",
    "relevant": "M, all relevant items (trec_eval, ranx)",
    "k": "K, the list length (the multilabel notes' AveP example)",
    "hits": "hits in the top K (torchmetrics)",
}
DEN_SHORT = {"min_m_k": "min(M, K)", "relevant": "M", "k": "K", "hits": "hits@K"}
DEN_LATEX = {"min_m_k": r"\min(M, K)", "relevant": "M", "k": "K", "hits": r"\text{hits@K}"}
TIES = {
    "column": "column order (trec_eval: by document id)",
    "tie-averaged": "tie-averaged (expected over tie orders)",
    "optimistic": "optimistic (relevant first)",
    "pessimistic": "pessimistic (relevant last)",
}
GAINS = {"linear": "linear: g", "exponential": "exponential: 2^g - 1"}
EMPTY = {"zero": "score 0", "drop": "drop from the mean", "one": "score 1 (LightGBM)"}
#: 2^g - 1 overflows float64 from this grade on: the exponential gain is not offered then.
EXPONENTIAL_LIMIT = 1024

#: Each tool's (or worked example's) conventions, by the page's setting names.
PRESETS = {
    "scikit-learn": {
        "ap_denominator": "relevant",
        "tie_mode": "tie-averaged",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
    },
    "trec_eval": {
        "ap_denominator": "relevant",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
    },
    "ranx": {
        "ap_denominator": "relevant",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
    },
    "torchmetrics": {
        "ap_denominator": "hits",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
    },
    # LightGBM's ndcg and map (and XGBoost's): exponential gain 2^rel - 1, ties in the
    # input order (a stable sort), map@k over min(relevant, k), a query with no
    # relevant document scores 1
    "LightGBM / XGBoost": {
        "ap_denominator": "min_m_k",
        "tie_mode": "column",
        "gain": "exponential",
        "empty_query": "one",
        "rel_level": 1,
    },
    "revision sheet AP@K": {
        "ap_denominator": "min_m_k",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
        "k": 5,
    },
    "multilabel notes AveP": {
        "ap_denominator": "k",
        "tie_mode": "column",
        "gain": "linear",
        "empty_query": "zero",
        "rel_level": 1,
        "k": 10,
    },
}

#: The headline numbers: (st.metric label, per-query column), in the page's order.
HEADLINE = [
    ("P@K", "P@K"),
    ("R@K", "R@K"),
    ("Hit rate@K", "hit rate@K"),
    ("MAP@K", "AP@K"),
    ("MRR", "RR"),
    ("ERR@K", "ERR@K"),
    ("NDCG@K", "NDCG@K"),
]
#: The conventions each family of columns depends on (besides the model, K and ties).
FAMILY_SETTINGS = {"rel": ("level", "denominator"), "err": ("max_grade",), "dcg": ("gain",)}
FAMILY_COLUMNS = {
    fam: tuple(c for c in CONVENTION_METRICS if METRIC_PART[c] == fam) for fam in FAMILY_SETTINGS
}
#: A curve's name of the per-query columns whose mean over K has another name.
CURVE_COLUMNS = {"AP@K": "MAP@K", "RR": "MRR@K"}
#: The switchboard lists every "relevant from grade" level up to this many; beyond (click
#: counts as grades), this many of the levels that change which items are relevant.
MAX_LEVEL_ROWS = 10
#: The K the page opens on (:func:`opening_k`).
OPENING_K = 5
#: trec_eval's default depth: for a run (a dataset with document ids or unretrieved
#: items) K reaches it, past the run's end, where P@K keeps dividing by K.
TREC_DEPTH = 1000
#: Above this many query x item cells the switchboard (one ranking of the
#: whole matrix per row of the board) is computed on demand, not on every rerun.
SWITCHBOARD_CELLS = 1_000_000


@dataclass(frozen=True)
class Settings:
    """The conventions the page computes under (a hashable cache key).

    Examples
    --------
    >>> s = Settings(k=5, level=2)
    >>> s.conventions("rel")
    (('ties', 'column'), ('level', 2), ('denominator', 'min_m_k'))
    >>> s.curve_conventions("err", "drop")
    (('ties', 'column'), ('max_grade', None), ('empty', 'drop'), ('level', 2))
    """

    k: int
    denominator: str = "min_m_k"
    level: int = 1
    gain: str = "linear"
    max_grade: float | None = None
    ties: str = "column"

    def conventions(self, family: str) -> tuple[tuple[str, object], ...]:
        """The conventions the columns of ``family`` depend on, besides K."""
        return (("ties", self.ties), *((n, getattr(self, n)) for n in FAMILY_SETTINGS[family]))

    def curve_conventions(self, family: str, empty: str) -> tuple[tuple[str, object], ...]:
        """Those of the family's curve: also the empty-query rule, and under ``"drop"``
        or ``"one"`` the relevance grade (which says which queries are dropped or score 1)."""
        extra = (("empty", empty),)
        if empty != "zero" and family != "rel":
            extra += (("level", self.level),)
        return self.conventions(family) + extra

    def curve_key(self, empty: str) -> tuple[tuple[str, tuple], ...]:
        """(family, :meth:`curve_conventions`) of every family: all the curves depend on
        (not K), a key of the curve table."""
        return tuple((fam, self.curve_conventions(fam, empty)) for fam in FAMILY_SETTINGS)


# ------------------------------------------------------------------ the dataset's scale
class GradeScale(NamedTuple):
    """The largest grade in the data and the top of the "relevant from grade" range."""

    data_max: float
    top_grade: int


def grade_scale(ds: Dataset) -> GradeScale:
    """The dataset's largest grade and the highest relevance level the page offers.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> grade_scale(load_sample("diabetes_ranking"))
    GradeScale(data_max=3.0, top_grade=3)
    """
    data_max = float(ds.y_true.max())
    return GradeScale(data_max, max(1, math.ceil(data_max)))


def max_k(ds: Dataset) -> int:
    """The largest K the page offers (and its curve's last): every item, or for a run
    (ranking data with document ids or unretrieved items) :data:`TREC_DEPTH` when
    larger, as trec_eval's cut-offs reach 1000 whatever the run's depth.

    Examples
    --------
    >>> import numpy as np
    >>> y = np.array([[1, 0, 2]])
    >>> run = Dataset("r", "graded", y, {"m": y * 1.0}, retrieved=np.array([[1, 1, 0]], bool))
    >>> max_k(Dataset("t", "graded", y, {"m": y * 1.0})), max_k(run)
    (3, 1000)
    """
    if ds.retrieved is None and ds.item_ids is None:
        return ds.n_labels
    return max(ds.n_labels, TREC_DEPTH)


def opening_k(n_items: int) -> int:
    """The K the page opens on: 5, or every item when there are fewer. The cached
    curves are computed at it (:mod:`explorer.ui.cache.retrieval`), so the per-query
    columns at the page's first K come with them.

    Examples
    --------
    >>> opening_k(100), opening_k(3)
    (5, 3)
    """
    return min(OPENING_K, n_items)


def offered_gains(data_max: float) -> dict[str, str]:
    """The NDCG gains the page offers: not the exponential one from grade 1024 on.

    Examples
    --------
    >>> list(offered_gains(3.0)), list(offered_gains(1500.0))
    (['linear', 'exponential'], ['linear'])
    """
    if data_max >= EXPONENTIAL_LIMIT:
        return {"linear": GAINS["linear"]}
    return dict(GAINS)


def preset_values(name: str, n_items: int, top_grade: int) -> dict[str, object]:
    """A preset's settings by the page's setting names, K and the level capped to the data.

    Examples
    --------
    >>> preset_values("multilabel notes AveP", 5, 3)["k"]
    5
    >>> preset_values("custom", 5, 3)
    {}
    """
    values = dict(PRESETS.get(name, {}))
    if "k" in values:
        values["k"] = min(values["k"], n_items)
    if "rel_level" in values:
        values["rel_level"] = min(values["rel_level"], top_grade)
    return values


def preset_settings(
    settings: Settings, name: str, n_items: int, top_grade: int
) -> tuple[Settings, str]:
    """``settings`` under the conventions of preset ``name``, and its empty-query rule.

    Examples
    --------
    >>> s, empty = preset_settings(Settings(k=3), "multilabel notes AveP", 20, 3)
    >>> s.k, s.denominator, empty
    (10, 'k', 'zero')
    """
    p = preset_values(name, n_items, top_grade)
    changed = replace(
        settings,
        denominator=p["ap_denominator"],
        ties=p["tie_mode"],
        # the exponential gain overflows from grade 1024 on (offered_gains): linear then
        gain="linear" if top_grade >= EXPONENTIAL_LIMIT else p["gain"],
        level=p["rel_level"],
        k=p.get("k", settings.k),
    )
    return changed, p["empty_query"]


def _parser(convert, lo: float, hi: float):
    def parse(raw: str):
        v = convert(raw)
        if not (math.isfinite(v) and lo <= v <= hi):
            raise ValueError(raw)
        return v

    return parse


def whole_in(lo: int, hi: int):
    """A URL parser: a whole number in ``[lo, hi]``, else ``ValueError``.

    Examples
    --------
    >>> whole_in(1, 5)("3")
    3
    >>> whole_in(1, 5)("9")
    Traceback (most recent call last):
    ValueError: 9
    """
    return _parser(int, lo, hi)


def grade_from(data_max: float):
    """A URL parser of ERR's maximum grade: a finite number of at least ``data_max``.

    Examples
    --------
    >>> grade_from(3.0)("4.5")
    4.5
    >>> grade_from(3.0)("2")
    Traceback (most recent call last):
    ValueError: 2
    """
    return _parser(float, data_max, math.inf)


def at_least(data_max: float):
    """A check of ERR's maximum grade: finite, raised to ``data_max`` when below it.

    Examples
    --------
    >>> at_least(3.0)(1), at_least(3.0)(5)
    (3.0, 5.0)
    """

    def check(value) -> float:
        v = float(value)
        if not math.isfinite(v):
            raise ValueError(value)
        return max(v, data_max)

    return check


# ------------------------------------------------------------------ tables and curves
def ranking(ds: Dataset, model: str) -> RankedQueries:
    """The model's ranking of every query: the matrices checked and sorted once, reused
    by every K and convention (:func:`metrics.explain.retrieval.rank_queries`).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ranking(load_sample("seed002_map"), "model").order.tolist()
    [[0, 1, 2, 3, 4], [0, 1, 2, 3, 4]]
    """
    return rank_queries(ds.y_true, ds.score(model), retrieved=ds.retrieved)


def _ranked(ds: Dataset, model: str, order) -> RankedQueries:
    """``order`` (a :func:`ranking`, a :func:`metrics.score_order` or None) as a ranking."""
    if isinstance(order, RankedQueries):
        return order
    return rank_queries(ds.y_true, ds.score(model), order=order, retrieved=ds.retrieved)


def _family_kwargs(family: str, conventions: tuple) -> tuple[list[str], dict]:
    names = list(FAMILY_COLUMNS[family])
    return names, {n: v for n, v in conventions if n != "empty"}


def _kept(family: str, table: pd.DataFrame) -> pd.DataFrame:
    """A family's columns of a table (the relevance family keeps ``relevant``)."""
    return table[[*FAMILY_COLUMNS[family], *(["relevant"] if family == "rel" else [])]]


def family_columns(
    ds: Dataset, model: str, family: str, conventions: tuple, k: int, *, order=None
) -> pd.DataFrame:
    """One family's per-query columns at cut-off ``k``.

    Parameters
    ----------
    ds, model
        The dataset and the model whose scores rank the items.
    family : {"rel", "err", "dcg"}
        Which columns (:data:`FAMILY_COLUMNS`).
    conventions : tuple of (name, value)
        :meth:`Settings.conventions` of the family.
    k : int
        The cut-off.
    order : RankedQueries, optional
        :func:`ranking` of the model, which spares checking the matrices, a sort and
        every pass over the matrix that does not depend on ``k``.

    Returns
    -------
    pandas.DataFrame
        One row per query; the relevance family adds ``relevant`` (the number of
        relevant items of each query).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_map")
    >>> t = family_columns(ds, "model", "rel", Settings(k=5).conventions("rel"), 5)
    >>> t["AP@K"].round(4).tolist(), t["relevant"].tolist()
    ([0.7556, 0.5], [3, 2])
    """
    names, kwargs = _family_kwargs(family, conventions)
    table = _ranked(ds, model, order).per_query(k=k, metrics=names, **kwargs)
    return _kept(family, table)


class FamilyCurve(NamedTuple):
    """A family's curve over every K, with its per-query columns at the K it was computed at
    (one pass over the matrix gives both)."""

    curve: pd.DataFrame
    k: int
    columns: pd.DataFrame


def family_curve(
    ds: Dataset, model: str, family: str, conventions: tuple, k: int, *, order=None
) -> FamilyCurve:
    """One family's mean over queries at every K, and its per-query columns at ``k``.

    Parameters
    ----------
    ds, model, family, order
        As :func:`family_columns`.
    conventions : tuple of (name, value)
        :meth:`Settings.curve_conventions` of the family.
    k : int
        The cut-off of the per-query columns computed along (the curve does not
        depend on it).

    Returns
    -------
    FamilyCurve
        ``curve``: one row per K from 1 to the number of items, a column per metric
        (the means of AP@K and RR@K named ``MAP@K`` and ``MRR@K``); ``k`` and
        ``columns`` as :func:`family_columns` at ``k``.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_map")
    >>> c = family_curve(ds, "model", "rel", Settings(k=5).curve_conventions("rel", "zero"), 5)
    >>> c.curve["MAP@K"].round(4).tolist()[-1], c.k, c.columns["AP@K"].round(4).tolist()
    (0.6278, 5, [0.7556, 0.5])
    """
    names, kwargs = _family_kwargs(family, conventions)
    table, curve = _ranked(ds, model, order).summary(
        k=k, k_max=max_k(ds), empty=dict(conventions)["empty"], metrics=names, **kwargs
    )
    return FamilyCurve(curve[[CURVE_COLUMNS.get(n, n) for n in names]], k, _kept(family, table))


def per_query_table(parts: list[pd.DataFrame]) -> pd.DataFrame:
    """The per-query table from its families' columns (:func:`family_columns`, in
    any order): the columns of :data:`CONVENTION_METRICS` and ``relevant``."""
    return pd.concat(parts, axis=1)[[*CONVENTION_METRICS, "relevant"]]


def curve_table(n_items: int, curves: list[pd.DataFrame]) -> pd.DataFrame:
    """Every metric's mean at each K from 1 to ``n_items``, from its families' curves
    (:attr:`FamilyCurve.curve`): a column ``K`` and one per metric."""
    return pd.concat([pd.DataFrame({"K": np.arange(1, n_items + 1)}), *curves], axis=1)


def tables(
    ds: Dataset, model: str, settings: Settings, empty: str = "zero"
) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The per-query table at the settings' K and the curve of every metric over K
    (one ranking of the model; one pass over the matrix per family).

    :mod:`explorer.ui.cache.retrieval` builds the same two tables from families cached
    apart: a curve keyed without K, the columns by K.

    Parameters
    ----------
    ds, model
        The dataset and the model.
    settings : Settings
        The conventions and K.
    empty : {"zero", "drop"}
        What a query with no relevant item does in the curve's means.

    Returns
    -------
    per_query : pandas.DataFrame
        A row per query: the columns of :data:`CONVENTION_METRICS` and ``relevant``.
    curve : pandas.DataFrame
        ``K`` from 1 to the number of items, and each metric's mean at that K.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> per_query, curve = tables(load_sample("seed002_map"), "model", Settings(k=5))
    >>> per_query["AP@K"].round(4).tolist(), curve["K"].tolist()
    ([0.7556, 0.5], [1, 2, 3, 4, 5])
    """
    order = ranking(ds, model)
    got = [
        family_curve(ds, model, fam, conventions, settings.k, order=order)
        for fam, conventions in settings.curve_key(empty)
    ]
    return (
        per_query_table([g.columns for g in got]),
        curve_table(max_k(ds), [g.curve for g in got]),
    )


def headline(per_query: pd.DataFrame, empty: str = "zero") -> dict[str, float]:
    """The headline numbers by their st.metric label: each metric's mean over queries.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> per_query, _ = tables(load_sample("seed002_map"), "model", Settings(k=5))
    >>> round(headline(per_query)["MAP@K"], 4)
    0.6278
    """
    means = retrieval_means(per_query, empty=empty)
    return {label: float(means[name]) for label, name in HEADLINE}


def derivations(
    per_query: pd.DataFrame, means: dict[str, float], empty: str = "zero"
) -> dict[str, MeanDerivation]:
    """Each headline written as the mean of its per-query terms, ending in the headline.

    Under ``empty="drop"`` the terms are those of the queries with a relevant item
    (the queries the means keep).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> per_query, _ = tables(load_sample("seed002_map"), "model", Settings(k=5))
    >>> derivations(per_query, headline(per_query))["MAP@K"].text()
    'MAP@K = (0.7556 + 0.5000) / 2 = 0.6278'
    """
    kept = queries_counted(per_query, empty)
    return {
        label: replace(mean_terms(kept[column], name=label), value=means[label])
        for label, column in HEADLINE
    }


def empty_queries(per_query: pd.DataFrame) -> int:
    """How many queries have no relevant item.

    Examples
    --------
    >>> empty_queries(pd.DataFrame({"relevant": [0.0, 2.0, 0.0]}))
    2
    """
    return int((per_query["relevant"] == 0).sum())


# ------------------------------------------------------------------ the switchboard
def levels(ds: Dataset) -> tuple[int, ...]:
    """The "relevant from grade" levels of the switchboard.

    1 to the top grade when that is at most :data:`MAX_LEVEL_ROWS`, else
    :data:`MAX_LEVEL_ROWS` levels spread over the distinct ones (a level between two
    grades relevates the same items as the next grade up).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> levels(load_sample("diabetes_ranking"))
    (1, 2, 3)
    """
    top_grade = grade_scale(ds).top_grade
    if top_grade <= MAX_LEVEL_ROWS:
        return tuple(range(1, top_grade + 1))
    grades = np.unique(ds.y_true)
    distinct = np.unique(np.maximum(np.ceil(grades[grades > 0]), 1)).astype(np.int64)
    pick = np.unique(np.linspace(0, len(distinct) - 1, MAX_LEVEL_ROWS).round().astype(int))
    return tuple(int(v) for v in distinct[pick])


def variants(
    ds: Dataset, settings: Settings, empty: str, *, levels: tuple[int, ...]
) -> tuple[tuple[str, str, Settings, str], ...]:
    """The switchboard's rows: (switch, convention, settings, empty-query rule).

    The first row is ``settings`` itself; each other changes one switch, or applies
    a preset (with its K, capped to the items).

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_map")
    >>> rows = variants(ds, Settings(k=5, max_grade=1.0), "zero", levels=(1,))
    >>> [(switch, conv) for switch, conv, _, _ in rows[:3]]
    [('your settings', '-'), ('AP denominator', 'min(M, K)'), ('AP denominator', 'M')]
    >>> rows[-1][1], rows[-1][2].k
    ('multilabel notes AveP (K=5)', 5)
    """
    data_max, top_grade = grade_scale(ds)
    out = [("your settings", "-", settings, empty)]
    out += [
        ("AP denominator", DEN_SHORT[d], replace(settings, denominator=d), empty)
        for d in DENOMINATORS
    ]
    out += [("ties", t, replace(settings, ties=t), empty) for t in TIES]
    out += [("NDCG gain", g, replace(settings, gain=g), empty) for g in offered_gains(data_max)]
    out += [("relevant from grade", str(lv), replace(settings, level=lv), empty) for lv in levels]
    out += [("no-relevant query", EMPTY[e], settings, e) for e in EMPTY]
    for mg in sorted({data_max, data_max + 1, float(settings.max_grade)}):
        out.append(("ERR max grade", f"{mg:g}", replace(settings, max_grade=mg), empty))
    for name in PRESETS:
        s, e = preset_settings(settings, name, max_k(ds), top_grade)
        out.append(("preset", f"{name} (K={s.k})", s, e))
    return tuple(out)


def switchboard(
    ds: Dataset, model: str, rows: tuple, *, base: pd.DataFrame | None = None, order=None
) -> pd.DataFrame:
    """Every headline number under each row of :func:`variants`.

    Each row computes only the families of columns its settings change (a family
    met in an earlier row, or in ``base``, is reused).

    Parameters
    ----------
    ds, model
        The dataset and the model.
    rows : tuple
        :func:`variants`.
    base : pandas.DataFrame, optional
        The per-query table of the first row's settings, if known.
    order : RankedQueries, optional
        :func:`ranking` of the model.

    Returns
    -------
    pandas.DataFrame
        Columns ``switch``, ``convention`` and one per headline label.

    Examples
    --------
    >>> from explorer.samples import load_sample
    >>> ds = load_sample("seed002_map")
    >>> board = switchboard(ds, "model", variants(ds, Settings(k=5, max_grade=1.0), "zero",
    ...                                           levels=(1,)))
    >>> board.loc[board["convention"] == "K", "MAP@K"].round(4).tolist()
    [0.3267]
    """
    if order is None:
        order = ranking(ds, model)
    known = {}
    if base is not None:
        first = rows[0][2]
        for fam in FAMILY_SETTINGS:
            known[fam, first.conventions(fam), first.k] = _kept(fam, base)
    out = []
    for switch, convention, settings, empty in rows:
        parts = []
        for fam in FAMILY_SETTINGS:
            key = (fam, settings.conventions(fam), settings.k)
            if key not in known:
                known[key] = family_columns(ds, model, fam, key[1], settings.k, order=order)
            parts.append(known[key])
        numbers = headline(per_query_table(parts), empty)
        out.append({"switch": switch, "convention": convention} | numbers)
    return pd.DataFrame(out)
