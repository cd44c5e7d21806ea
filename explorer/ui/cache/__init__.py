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
    that session's :class:`~explorer.ui.session_cache.SessionCache` instead, under the
    same key and bounds (plus, in all, what the session's datasets leave of its budget:
    :func:`explorer.ui.session.fit_store`), a copy per hit for ``value``: it is dropped
    with the session, so the server's memory comes back when the visitors with large
    uploads leave. Outside a running session
    (a script, a doctest) such a call is computed without caching.

Where caches are declared
    Page models (:mod:`explorer.pages`) are plain functions; the cached functions the
    views call are declared in this package, one module per page named by its slug
    (``cache.curves.rates``), by wrapping them with :func:`value` or :func:`shared`.
    Views hold no cache decorator.

:func:`clear_all` empties every cache (data and resource, and the running session's
store); the test suite calls it before each test.
"""

from explorer.ui.cache import (
    big,
    compare,
    curves,
    data,
    dcg,
    home,
    label_ranking,
    leaderboard,
    multiclass,
    multilabel,
    opened,
    regression,
    retrieval,
    slices,
)
from explorer.ui.cache._core import BOUNDS, HASH_FUNCS, clear_all, shared, value

__all__ = [
    "BOUNDS",
    "HASH_FUNCS",
    "clear_all",
    "shared",
    "value",
    "big",
    "compare",
    "curves",
    "data",
    "dcg",
    "home",
    "label_ranking",
    "leaderboard",
    "multiclass",
    "multilabel",
    "opened",
    "regression",
    "retrieval",
    "slices",
]
