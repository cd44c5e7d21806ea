"""How a cache is declared (:func:`value`, :func:`shared`), keyed and bounded; see the
package's docstring."""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable

import streamlit as st
from streamlit.runtime.caching.cache_type import CacheType
from streamlit.runtime.caching.cache_utils import _make_value_key

from explorer import bigdata as _bigdata
from explorer.datasets import Dataset
from explorer.ui import session_cache as _session_cache
from explorer.ui import work as _work

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


def _metered(func: Callable, metered: bool = True) -> Callable:
    """``func`` run on the session's budget with the session's checkpoint, when it takes
    a ``checkpoint`` (a heavy computation: :mod:`explorer.ui.work`); else ``func``.
    ``metered=False``: heavy work never refused nor charged (what a page shows at once),
    still stopped with its run and giving way to other visitors' pages.

    The wrapper runs only on a miss: a cached value is never refused or metered. When
    the checkpoint stops it, the exception leaves the cache without an entry.
    """
    if "checkpoint" not in inspect.signature(func).parameters:
        return func

    @functools.wraps(func)
    def run(*args, **kwargs):
        return _work.compute(functools.partial(func, *args, **kwargs), on_budget=metered)

    return run


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


def _streamlit_options(entries: int, ttl: float) -> dict:
    """Streamlit's cache options for a bound of BOUNDS.

    No spinner: Streamlit's own ("Running `multiclass(...)`.", after half a second of a
    miss) names our function, in English on every page, Chinese and presentation mode
    included, and costs a timer thread per miss; a page draws its own progress line
    for long work (:mod:`explorer.ui.work`)."""
    return dict(max_entries=entries, ttl=ttl, hash_funcs=HASH_FUNCS, show_spinner=False)


def value(func: Callable | None = None, *, size: str = "value", metered: bool = True) -> Callable:
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
    metered : bool
        For a ``func`` that takes a ``checkpoint``: whether it runs on the session's
        budget (False: never refused, see :func:`_metered`).

    Returns
    -------
    callable
        The cached function (with ``.clear()``).

    Examples
    --------
    >>> import numpy as np
    >>> from explorer.ui import cache
    >>> from explorer.datasets import Dataset
    >>> mean_score = cache.value(lambda ds: float(ds.score().mean()))
    >>> mean_score(Dataset("toy", "binary", np.array([0, 1]), {"m": np.array([0.2, 0.6])}))
    0.4
    """
    if func is None:
        return lambda f: value(f, size=size, metered=metered)
    entries, ttl = BOUNDS[size]
    func = _metered(func, metered)
    cached = st.cache_data(**_streamlit_options(entries, ttl))(func)
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
    >>> from explorer.ui import cache
    >>> from explorer.datasets import Dataset
    >>> order = cache.shared(lambda ds: np.argsort(ds.score()), size="big")
    >>> ds = Dataset("toy", "binary", np.array([0, 1]), {"m": np.array([0.6, 0.2])})
    >>> order(ds).tolist(), order(ds) is order(ds)
    ([1, 0], True)
    """
    if func is None:
        return lambda f: shared(f, size=size)
    entries, ttl = BOUNDS[size]
    func = _metered(func)
    cached = st.cache_resource(**_streamlit_options(entries, ttl))(func)
    return _routed(func, cached, size, copy=False)


def clear_all() -> None:
    """Empty every cache of the app: data and resource caches alike.

    Examples
    --------
    >>> from explorer.ui import cache
    >>> cache.clear_all()
    """
    # Streamlit's clear() empties every function's cache at once: clearing the declared
    # functions one by one made a storage for each one never called (92 of them, about
    # 6 ms a call, and the suite calls this before each of its tests)
    st.cache_data.clear()
    st.cache_resource.clear()
    store = _session_cache.current()
    if store is not None:
        store.clear()
