"""Every cached computation of the app, the one rule that keys them, and their bounds.

The key rule
    A :class:`~explorer.datasets.Dataset` argument is hashed by
    :attr:`Dataset.cache_key <explorer.datasets.Dataset.cache_key>`: its content
    fingerprint *and* everything else a cached value can show (name, sample ids,
    label names, model names, description). Two visitors who upload the same numbers
    under other names or ids therefore never share an entry, and a cached table never
    shows another visitor's ids. Every other argument is hashed by Streamlit as usual,
    except those whose name starts with ``_`` (Streamlit skips them: pass only values
    that are a function of the hashed ones).

The bounds
    Every cache is one of the sizes of :data:`BOUNDS` (entries kept per function and
    how long an unused entry lives). No cache is declared without one.

    - ``"value"``: numbers and small tables, ``st.cache_data`` (a copy on every hit);
    - ``"shared"``: per-dataset arrays, tables and figures, ``st.cache_resource``
      (shared read-only by every session: never mutate what it returns);
    - ``"big"``: the largest per-dataset results (sort orders, full curves).

Whose computations are kept where
    A computation on a bundled sample or the host's big data goes to Streamlit's
    process-wide caches above, shared by every session. A computation with a
    session's own dataset among its arguments (an upload, an edit, a ``?data=`` link:
    :attr:`Dataset.session_owned <explorer.datasets.Dataset.session_owned>`) goes to
    that session's :class:`~explorer.session_cache.SessionCache` instead, under the
    same key and bounds (plus :data:`explorer.session_cache.MAX_BYTES` in all), a copy
    per hit for ``value``: it is dropped with the session, so the server's memory
    comes back when the visitors with large uploads leave. Outside a running session
    (a script, a doctest) such a call is computed without caching.

Where caches are declared
    Page models (:mod:`explorer.pages`) are plain functions; the cached functions the
    views call are declared in this module, one section per page, by wrapping them
    with :func:`value` or :func:`shared`. Views hold no cache decorator.

:func:`clear_all` empties every cache (data and resource, and the running session's
store); the test suite calls it before each test.
"""

from __future__ import annotations

import functools
from collections.abc import Callable

import numpy as np
import streamlit as st
from streamlit.runtime.caching.cache_type import CacheType
from streamlit.runtime.caching.cache_utils import _make_value_key

import metrics
from explorer import bigdata as _bigdata
from explorer import intervals as _intervals
from explorer import session_cache as _session_cache
from explorer.charts import dcg as _dcg_charts
from explorer.charts import multilabel as _multilabel_charts
from explorer.charts import retrieval as _retrieval_charts
from explorer.datasets import Dataset
from explorer.datasets import describe as _describe
from explorer.pages import compare as _compare
from explorer.pages import curves as _curves
from explorer.pages import curves_derivation as _curves_derivation
from explorer.pages import dcg as dcg_model
from explorer.pages import home as home_model
from explorer.pages import label_ranking as lr_model
from explorer.pages import multiclass as _multiclass
from explorer.pages import multiclass_derivation as _multiclass_derivation
from explorer.pages import multilabel as _multilabel
from explorer.pages import regression as _regression
from explorer.pages import regression_derivation as _regression_derivation
from explorer.pages import retrieval as retrieval_model

#: size -> (max_entries per cached function, seconds an entry lives).
BOUNDS: dict[str, tuple[int, int]] = {
    "value": (64, 3600),
    "shared": (8, 3600),
    "big": (4, 3600),
}

#: A Dataset is hashed by the key that covers all a cached value can show.
#: Streamlit looks hash functions up by exact type: the host's sampled big data too
#: (its key also covers the data behind its exact numbers).
HASH_FUNCS = {Dataset: lambda d: d.cache_key, _bigdata.SampledDataset: lambda d: d.cache_key}

_DECLARED: list[Callable] = []


def _session_owned(args: tuple, kwargs: dict) -> bool:
    """Whether a Dataset argument of a call belongs to one session."""
    return any(isinstance(a, Dataset) and a.session_owned for a in (*args, *kwargs.values()))


def _routed(func: Callable, cached: Callable, size: str, *, copy: bool) -> Callable:
    """``cached`` for shared datasets, the running session's store for its own ones.

    The store's key is the one Streamlit computes for ``cached`` (the same hash
    functions, ``_``-prefixed arguments skipped), under the function's own name.
    """
    entries, ttl = BOUNDS[size]
    name = f"{func.__module__}.{func.__qualname__}#{len(_DECLARED)}"
    kind = CacheType.DATA if copy else CacheType.RESOURCE

    @functools.wraps(func)
    def call(*args, **kwargs):
        if not _session_owned(args, kwargs):
            return cached(*args, **kwargs)
        store = _session_cache.current()
        if store is None:
            return func(*args, **kwargs)
        key = _make_value_key(kind, func, args, kwargs, HASH_FUNCS)
        return store.get_or_compute(
            name,
            key,
            lambda: func(*args, **kwargs),
            copy=copy,
            max_entries=entries,
            ttl=ttl,
        )

    def clear() -> None:
        cached.clear()
        store = _session_cache.current()
        if store is not None:
            store.clear(name)

    call.clear = clear
    call.session_name = name
    _DECLARED.append(call)
    return call


def value(func: Callable | None = None, *, size: str = "value") -> Callable:
    """Cache ``func`` with ``st.cache_data`` under the key rule and a bound of BOUNDS.

    Use for pure functions whose results are small (numbers, short tables): every
    hit returns a fresh copy. A call on a session's own dataset is kept in that
    session's store instead (see the module's docstring), a copy per hit too.

    Parameters
    ----------
    func : callable
        A pure function; Dataset arguments are keyed by ``Dataset.cache_key``.
    size : {"value", "shared", "big"}
        The bound (see :data:`BOUNDS`).

    Returns
    -------
    callable
        The cached function (with ``.clear()``).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer import cache
    >>> from explorer.datasets import Dataset
    >>> mean_score = cache.value(lambda ds: float(ds.score().mean()))
    >>> mean_score(Dataset("toy", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.6])}))
    0.4
    """
    if func is None:
        return lambda f: value(f, size=size)
    entries, ttl = BOUNDS[size]
    cached = st.cache_data(max_entries=entries, ttl=ttl, hash_funcs=HASH_FUNCS)(func)
    return _routed(func, cached, size, copy=True)


def shared(func: Callable | None = None, *, size: str = "shared") -> Callable:
    """Cache ``func`` with ``st.cache_resource`` under the key rule and a bound of BOUNDS.

    Use for large per-dataset results (arrays, tables, figures) that every session
    on the same dataset may share read-only: a hit returns the same object, with
    no copy. Never mutate what it returns. A call on a session's own dataset is kept
    in that session's store instead (see the module's docstring).

    Parameters
    ----------
    func : callable
        A pure function; Dataset arguments are keyed by ``Dataset.cache_key``.
    size : {"value", "shared", "big"}
        The bound (see :data:`BOUNDS`).

    Returns
    -------
    callable
        The cached function (with ``.clear()``).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer import cache
    >>> from explorer.datasets import Dataset
    >>> order = cache.shared(lambda ds: np.argsort(ds.score()), size="big")
    >>> ds = Dataset("toy", "binary", np.array([0, 1]), {"m": np.array([0.6, 0.2])})
    >>> order(ds).tolist(), order(ds) is order(ds)
    ([1, 0], True)
    """
    if func is None:
        return lambda f: shared(f, size=size)
    entries, ttl = BOUNDS[size]
    cached = st.cache_resource(max_entries=entries, ttl=ttl, hash_funcs=HASH_FUNCS)(func)
    return _routed(func, cached, size, copy=False)


def clear_all() -> None:
    """Empty every cache of the app: data and resource caches alike.

    Examples
    --------
    >>> from explorer import cache
    >>> cache.clear_all()
    """
    for cached in _DECLARED:
        cached.clear()
    st.cache_data.clear()
    st.cache_resource.clear()
    store = _session_cache.current()
    if store is not None:
        store.clear()


# ---------------------------------------------------------------------------
# Declared caches, one section per page (each wraps functions of explorer.pages).
# ---------------------------------------------------------------------------

# -- Home ---------------------------------------------------------------------

home_headline = value(home_model.headline)


# -- Big data (the host's METRIC_EXPLORER_BIG_DATA) --------------------------

#: One pass over the host's Parquet data: the exact merged state and the sample, shared
#: by every session; keyed by the entry and the files' sizes and times (a replaced file
#: is read again), at most BOUNDS["big"] entries.
big_dataset = shared(_bigdata.load, size="big")
#: The parsed METRIC_EXPLORER_BIG_DATA (entries, refusals); refusals are logged on a miss.
big_config = value(_bigdata.parse_config)
#: The exact headline numbers of a sampled big dataset (None for any other dataset).
exact_headline = value(_bigdata.exact_headline)
#: Its ROC and PR curves over all rows (binary; None otherwise).
exact_curves = shared(_bigdata.exact_curves, size="big")


# -- Data ---------------------------------------------------------------------

#: The Data page's validation summary (explorer.datasets.describe), a small table.
data_summary = value(_describe)


# -- ROC & PR curves ----------------------------------------------------------

curves_curves = value(_curves.curves)
curves_rates = value(_curves.rates)
curves_optima = value(_curves.optima)
curves_four_ways = value(_curves.four_ways)
curves_pairs = value(_curves.pairs)
curves_rank_head = value(_curves.rank_head)
curves_threshold_head = value(_curves.threshold_head)
curves_log_loss = value(_curves.log_loss_values)
curves_calibration = value(_curves.calibration)
curves_brier = value(_curves.brier)
curves_det = value(_curves.det)
curves_threshold_axis = shared(_curves.threshold_axis, size="shared")
# the one sort, the samples' orders and the figures: shared read-only, never copied
curves_counts = shared(_curves.threshold_counts, size="big")
curves_samples = shared(_curves.samples, size="big")
curves_sorted_scores = shared(_curves.sorted_scores, size="big")
curves_bases = shared(_curves.curve_bases, size="big")
curves_strip_figure = shared(_curves.strip_figure, size="big")
curves_histogram_figure = shared(_curves.histogram_figure, size="big")
curves_calibration_figure = shared(_curves.calibration_figure, size="big")
# the operating-point component's counts at every slider position and reduced curves
curves_operating_data = shared(_curves.operating_data, size="big")


# -- Label ranking ------------------------------------------------------------

#: Headline numbers, per-sample table and tie rules of one model (what-if edits update
#: a copy of it, one row at a time).
lr_summary = value(lr_model.summary)
#: The mean reciprocal rank, shown when every sample has one true label.
lr_mrr = value(lr_model.mrr)


# -- DCG & NDCG ---------------------------------------------------------------

#: The one sort of a model's scores, shared by every k, log base, gain and tie mode;
#: a resource, so that its ~60 MB of orders (10^5 x 100) is not unpickled on each hit.
dcg_ranking = shared(dcg_model.ranking, size="big")


@value
def dcg_per_sample_table(ds: Dataset, settings: dcg_model.Settings):
    """:func:`explorer.pages.dcg.per_sample_table` on the shared sort (sorted on a miss only)."""
    return dcg_model.per_sample_table(ds, settings, dcg_ranking(ds, settings.model))


@value
def dcg_worst_first(ds: Dataset, settings: dcg_model.Settings):
    """:func:`explorer.pages.dcg.worst_first` of the cached table (a stable sort of 10^5 rows)."""
    return dcg_model.worst_first(dcg_per_sample_table(ds, settings))


# -- Top-K retrieval ----------------------------------------------------------

#: One sort of a model's scores, reused by every K and convention (a resource: the
#: orders of 10^5 x 100 items are not unpickled on each hit).
retrieval_ranking = shared(retrieval_model.ranking, size="big")


# The per-query columns and the curves are cached by family (P/R/hit rate/AP/RR, ERR,
# NDCG; see explorer.pages.retrieval): a change of one convention recomputes the family
# it moves only, and a curve is keyed without K, so moving K computes the per-query
# columns at the new K only. A curve is computed in one pass with the columns at the K
# of that run, which ride along in its entry (tagged with their K: `_k` is not part of
# the key) and serve while K stays there. All are sorted on a miss only.
@shared
def retrieval_columns(ds: Dataset, model: str, family: str, conventions: tuple, k: int):
    """:func:`explorer.pages.retrieval.family_columns` on the shared ranking."""
    order = retrieval_ranking(ds, model)
    return retrieval_model.family_columns(ds, model, family, conventions, k, order=order)


@shared
def retrieval_curve(ds: Dataset, model: str, family: str, conventions: tuple, _k: int):
    """:func:`explorer.pages.retrieval.family_curve` on the shared ranking (keyed without K)."""
    order = retrieval_ranking(ds, model)
    return retrieval_model.family_curve(ds, model, family, conventions, _k, order=order)


@shared
def retrieval_tables(ds: Dataset, model: str, settings: retrieval_model.Settings, empty: str):
    """:func:`explorer.pages.retrieval.tables` from the cached families (read-only)."""
    return retrieval_model.tables(
        ds, model, settings, empty, columns=retrieval_columns, curve=retrieval_curve
    )


@value
def retrieval_switchboard(ds: Dataset, model: str, rows: tuple, _base):
    """:func:`explorer.pages.retrieval.switchboard`; ``_base`` is the per-query table of
    the first row's settings (a function of the key), sorted on a miss only."""
    order = retrieval_ranking(ds, model)
    return retrieval_model.switchboard(ds, model, rows, base=_base, order=order)


retrieval_levels = value(retrieval_model.levels)
retrieval_steps = value(retrieval_model.steps_table)
retrieval_id_rank = shared(retrieval_model.id_rank, size="big")
retrieval_query_rows = shared(retrieval_model.query_rows, size="big")


@shared
def retrieval_worst_first(
    ds: Dataset, model: str, settings, sort: str, _per_query, empty: str = "zero"
):
    """:func:`explorer.pages.retrieval.worst_first`; ``_per_query`` is the per-query
    table of ``settings`` (a function of the key)."""
    return retrieval_model.worst_first(_per_query, sort, retrieval_id_rank(ds), empty)


# -- Multilabel classification ------------------------------------------------

#: The one pass over the N x L cells of a setting: the read-only predictions and every
#: count. Shared, so the N x L matrix is not copied on every rerun; call it with
#: ``multilabel.setting(...)`` (a rule's unused settings blanked, so going back to a
#: rule reuses its entry). Moving beta or zero_division reuses it whole.
multilabel_prediction = shared(_multilabel.prediction)


def _multilabel_summary(ds, model, rule, threshold, thresholds, top_k, beta, zd_key) -> dict:
    """:func:`explorer.pages.multilabel.summary` of the cached prediction of a setting."""
    pred, counts = multilabel_prediction(ds, model, rule, threshold, thresholds, top_k)
    return _multilabel.summary(ds, pred, counts, beta, zd_key)


#: Every average, the per-label table and the worst samples (beta and zero_division
#: only rescore the counts of :data:`multilabel_prediction`).
multilabel_summary = value(_multilabel_summary)


# -- Regression ---------------------------------------------------------------

#: The eight headline values of a model, a weight choice and a moved prediction.
regression_headline = value(_regression.headline)

#: Every headline derived with its terms (a few LaTeX lines), same key as the headline.
regression_derivations = value(_regression_derivation.derivations)

#: The unmoved prediction's worst rows, residuals and flags; regression.moved_errors
#: patches the moved row in.
regression_base_errors = value(_regression.base_errors)


# -- Compare two models -------------------------------------------------------
# the bootstraps are seeded: an entry is the same numbers every time it is computed
compare_models = value(_compare.compare)

# -- ROC & PR curves: derivations (views/curves_derivation.py) ----------------

#: ROC AUC, average precision and log loss written with their terms (a few strings).
curves_derivation_curves = value(_curves_derivation.curve_lines)
#: Every rate at a threshold with its counts plugged in.
curves_derivation_rates = value(_curves_derivation.rates)


# -- Intervals (the "95% intervals" switch, explorer.intervals) ----------------
# seeded bootstraps: an entry is the same numbers every time it is computed


@value
def home_intervals(ds: Dataset) -> dict:
    """:func:`explorer.intervals.home`."""
    return _intervals.home(ds)


@value
def lr_intervals(ds: Dataset, model: str, i: int, new_row: tuple | None, mrr: bool) -> dict:
    """:func:`explorer.intervals.label_ranking` of ``model``, with sample ``i``'s what-if
    scores ``new_row`` (None: unedited); ``mrr``: with the MRR's interval."""
    res = lr_summary(ds, model)
    if new_row is not None:
        new = np.asarray(new_row, dtype=np.float64)
        res = lr_model.what_if(ds, model, res, i, new) or res
    rr = metrics.reciprocal_rank(ds.y_true, ds.score(model)) if mrr else None
    return _intervals.label_ranking(res.contrib, ds.sample_weight, rr)


@value
def dcg_intervals(ds: Dataset, settings: dcg_model.Settings) -> dict:
    """:func:`explorer.intervals.dcg` of the cached per-sample table."""
    return _intervals.dcg(dcg_per_sample_table(ds, settings), ds.sample_weight)


@value
def retrieval_intervals(
    ds: Dataset, model: str, settings: retrieval_model.Settings, empty: str
) -> dict:
    """:func:`explorer.intervals.retrieval` of the cached per-query table."""
    per_query, _ = retrieval_tables(ds, model, settings, empty)
    return _intervals.retrieval(per_query, empty)


@value
def multilabel_intervals(ds: Dataset, model, rule, threshold, thresholds, top_k, zd_key) -> dict:
    """:func:`explorer.intervals.multilabel` of the cached prediction of a setting."""
    pred, _ = multilabel_prediction(ds, model, rule, threshold, thresholds, top_k)
    return _intervals.multilabel(ds, pred, zd_key)


#: :func:`explorer.intervals.regression`: the same key as :data:`regression_headline`.
regression_intervals = value(_intervals.regression)

#: :func:`explorer.intervals.curves_headlines`, for the curves page:
#: ``curves_intervals(ds, model, t, beta)[label]``.
curves_intervals = value(_intervals.curves_headlines)

#: :func:`explorer.intervals.multiclass`, the Multiclass page's headline:
#: ``multiclass_intervals(ds, model, k)[label]``.
multiclass_intervals = value(_intervals.multiclass)


# -- Multiclass classification ------------------------------------------------

#: Every headline number but top-k accuracy, the class table, the confusion matrix and
#: the one-vs-one pairs of a model (small: K rows, K x K cells); k does not key it.
multiclass_base = value(_multiclass.base_summary)
#: The rank of each sample's true class (N integers), shared read-only.
multiclass_ranks = shared(_multiclass.ranks, size="big")
#: The per-sample table without its top-k column (N rows): shared read-only, never copied.
multiclass_samples = shared(_multiclass.sample_base, size="big")


@value
def multiclass_summary(ds: Dataset, model: str, k: int) -> dict:
    """:func:`explorer.pages.multiclass.summary` from the cached base and ranks: moving k
    only takes a mean of N hits."""
    base = multiclass_base(ds, model)
    return _multiclass.with_top_k(base, multiclass_ranks(ds, model), ds.sample_weight, k)


#: Every one-vs-rest ROC and PR curve of a model (the curves do not depend on k).
multiclass_curves = shared(_multiclass.ovr_curves, size="big")
#: One class's one-vs-rest pairs: positives, negatives, wins and ties (four numbers).
multiclass_pair_counts = value(_multiclass.pair_counts)


@value
def multiclass_derivations(ds: Dataset, model: str, k: int, average: str) -> dict:
    """:func:`explorer.pages.multiclass_derivation.derivations` of the cached summary."""
    res = multiclass_summary(ds, model, k)
    terms = multiclass_samples(ds, model).sort_index()
    return _multiclass_derivation.derivations(res, terms, ds.sample_weight, average)


# -- Figures of Label ranking, Multilabel, DCG and Top-K retrieval (issue 17) --
# Built once per dataset and setting, shared read-only: a rerun that draws the same
# setting again (a move back, a click elsewhere on the page) skips plotly's validation.


@shared
def dcg_distribution_figure(ds: Dataset, settings: dcg_model.Settings, title: str):
    """:func:`explorer.charts.dcg.distribution_figure` of the cached per-sample table."""
    return _dcg_charts.distribution_figure(dcg_per_sample_table(ds, settings), title=title)


@shared
def retrieval_curve_base(ds: Dataset, model: str, settings, empty: str, _curve):
    """:func:`explorer.charts.retrieval.metrics_vs_k_base` of the curve of ``settings``
    (pass ``settings`` with its K set to 1: the curve does not depend on K, and moving K
    adds only the marker, :func:`~explorer.charts.retrieval.with_k_line`); ``_curve`` is
    that curve (a function of the key)."""
    return _retrieval_charts.metrics_vs_k_base(_curve)


@shared
def multilabel_bars(ds: Dataset, setting: tuple, beta: float, zd_key: str):
    """The per-label bars of one setting (``multilabel.setting(...)``, as
    :data:`multilabel_prediction` takes it), from the cached summary: a rerun of the
    panel on the same setting (another label or sample inspected) does not build it
    again."""
    res = multilabel_summary(ds, *setting, beta, zd_key)
    avg = res["averages"]
    return _multilabel_charts.label_scores_chart(
        res["labels"].iloc[: ds.n_labels], macro_f1=avg["macro"]["f1"], micro_f1=avg["micro"]["f1"]
    )


@shared
def multilabel_grid(ds: Dataset, setting: tuple, beta: float, zd_key: str, grid_title: str):
    """The grid of the worst samples of one setting (drawn in its tab only), from the
    cached prediction and summary."""
    pred, _ = multilabel_prediction(ds, *setting)
    res = multilabel_summary(ds, *setting, beta, zd_key)
    grid, grid_ids = _multilabel.outcome_grid(ds, pred, res["worst"])
    labels = list(ds.label_names)
    return _multilabel_charts.outcome_grid_figure(grid, grid_ids, labels, title=grid_title)
