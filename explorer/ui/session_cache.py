"""The cache of one session's own datasets: kept in that session, dropped with it.

A computation on a dataset that belongs to one session (an upload, an edit, a
``?data=`` link; see :attr:`Dataset.session_owned
<explorer.datasets.Dataset.session_owned>`) is kept in a :class:`SessionCache`
in that session's ``st.session_state``, not in Streamlit's process-wide caches:
no other session can reach it, and when Streamlit drops the session
(``server.disconnectedSessionTTL`` seconds after its tab closed) the entries go
with it. :mod:`explorer.ui.cache` routes each call (see there).

A store is bounded: per function by the entries of :data:`explorer.ui.cache.BOUNDS`
(and their time to live), and in all by what the session's own datasets leave of
the session's budget (:func:`explorer.ui.session.fit_store`, :meth:`SessionCache.resize`;
:data:`MAX_BYTES` until a dataset is kept), as :func:`size_of` counts them; the least
recently used entries go first. A "value" entry is kept
pickled and every hit returns a fresh copy, as ``st.cache_data`` does; a
"shared" entry is kept as the object and returned as is, as
``st.cache_resource`` does.

Giving the memory back: the store is emptied when its session disconnects
(:func:`current`), and :func:`sweep` runs once the disconnected sessions are past
``server.disconnectedSessionTTL``: it reaps and shuts down the sessions Streamlit
keeps after they expired, collects their reference cycles and trims the heap.
pyarrow allocates with the system ``malloc`` (:func:`use_system_arrow_pool`).
bench/results.md ("Load with large uploads") has the measurements.
"""

from __future__ import annotations

import ctypes
import dataclasses
import gc
import logging
import os
import pickle
import sys
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import Callable, Hashable

import numpy as np
import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

LOG = logging.getLogger(__name__)

#: The environment variable by which a host picks pyarrow's memory pool itself.
ARROW_POOL_VARIABLE = "ARROW_DEFAULT_MEMORY_POOL"

#: The ``st.session_state`` key of the session's store.
SESSION_KEY = "session_cache"
#: Most bytes a new store keeps (as :func:`size_of` counts them) until the session keeps
#: a dataset of its own, which resizes it to what the datasets leave of the session's
#: budget (:func:`explorer.ui.session.fit_store`). An entry larger than the store's
#: bound is returned but not kept.
MAX_BYTES = 256_000_000


@dataclasses.dataclass
class _Entry:
    value: object  # the pickled bytes of a copied value, else the object itself
    nbytes: int
    copied: bool
    expires: float
    func: str


class SessionCache:
    """A least-recently-used store of one session's cached computations.

    Parameters
    ----------
    max_bytes : int, optional
        Most bytes kept in all (:data:`MAX_BYTES` by default); the oldest entries go first.
    clock : callable
        Seconds, for the time to live of entries (``time.monotonic``).

    Examples
    --------
    >>> store = SessionCache(max_bytes=10_000)
    >>> calls = []
    >>> def square(x):
    ...     calls.append(x)
    ...     return [x * x]
    >>> args = dict(copy=True, max_entries=2, ttl=60)
    >>> store.get_or_compute("square", "3", lambda: square(3), **args)
    [9]
    >>> store.get_or_compute("square", "3", lambda: square(3), **args), calls
    ([9], [3])
    >>> for x in (4, 5):  # a third entry of "square": the oldest, "3", goes
    ...     _ = store.get_or_compute("square", str(x), lambda: square(x), **args)
    >>> sorted(key for _, key in store.keys())
    ['4', '5']
    """

    def __init__(self, max_bytes: int | None = None, clock: Callable[[], float] = time.monotonic):
        self.max_bytes = MAX_BYTES if max_bytes is None else max_bytes
        self._clock = clock
        self._entries: OrderedDict[tuple[str, Hashable], _Entry] = OrderedDict()
        self._per_func: Counter[str] = Counter()
        self._nbytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._entries)

    @property
    def nbytes(self) -> int:
        """Bytes the store keeps, as :func:`size_of` counted them when they were stored."""
        return self._nbytes

    def keys(self) -> list[tuple[str, Hashable]]:
        """The (function, key) pairs kept, least recently used first."""
        with self._lock:
            return list(self._entries)

    def get_or_compute(
        self,
        func: str,
        key: Hashable,
        compute: Callable[[], object],
        *,
        copy: bool,
        max_entries: int,
        ttl: float,
    ) -> object:
        """The value kept under ``(func, key)``, or ``compute()``'s, kept from now on.

        Parameters
        ----------
        func : str
            The cached function's name: ``max_entries`` counts its entries.
        key : hashable
            The key of the call (its arguments' hash).
        compute : callable
            Computes the value on a miss.
        copy : bool
            Keep the value pickled and return a fresh copy on every hit
            (``st.cache_data``), else keep and return the object (``st.cache_resource``).
        max_entries : int
            Most entries of ``func``; the least recently used goes first.
        ttl : float
            Seconds an entry lives after it was computed.

        Returns
        -------
        object
            The value.

        Examples
        --------
        >>> store = SessionCache()
        >>> a = store.get_or_compute("f", 1, lambda: [1, 2], copy=True, max_entries=4, ttl=60)
        >>> b = store.get_or_compute("f", 1, lambda: [0], copy=True, max_entries=4, ttl=60)
        >>> a == b, a is b
        (True, False)
        """
        full = (func, key)
        now = self._clock()
        with self._lock:
            self._expire(now)
            entry = self._entries.get(full)
            if entry is not None:
                self._entries.move_to_end(full)
        if entry is not None:
            return pickle.loads(entry.value) if entry.copied else entry.value
        value = compute()
        kept = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL) if copy else value
        nbytes = len(kept) if copy else size_of(value)
        if nbytes <= self.max_bytes:
            with self._lock:
                self._drop(full)
                self._entries[full] = _Entry(kept, nbytes, copy, now + ttl, func)
                self._per_func[func] += 1
                self._nbytes += nbytes
                self._evict(func, max_entries)
        return value

    def resize(self, max_bytes: int) -> None:
        """Keep at most ``max_bytes`` from now on: the least recently used entries go.

        Examples
        --------
        >>> store = SessionCache()
        >>> for x in range(3):
        ...     _ = store.get_or_compute("f", x, lambda: np.zeros(1000), copy=False,
        ...                              max_entries=9, ttl=60)
        >>> store.resize(17_000)
        >>> [key for _, key in store.keys()], store.nbytes <= 17_000
        ([1, 2], True)
        """
        with self._lock:
            self.max_bytes = max_bytes
            while self._nbytes > self.max_bytes and self._entries:
                self._drop(next(iter(self._entries)))

    def clear(self, func: str | None = None) -> None:
        """Drop every entry (of ``func`` only, when given).

        Examples
        --------
        >>> store = SessionCache()
        >>> for f in ("f", "g"):
        ...     _ = store.get_or_compute(f, 0, lambda: 0, copy=False, max_entries=1, ttl=9)
        >>> store.clear("f")
        >>> store.keys(), store.nbytes > 0
        ([('g', 0)], True)
        >>> store.clear()
        >>> len(store), store.nbytes
        (0, 0)
        """
        with self._lock:
            for full in [k for k in self._entries if func is None or k[0] == func]:
                self._drop(full)

    def _drop(self, full: tuple[str, Hashable]) -> None:
        entry = self._entries.pop(full, None)
        if entry is not None:
            self._per_func[entry.func] -= 1
            self._nbytes -= entry.nbytes

    def _expire(self, now: float) -> None:
        for full in [k for k, e in self._entries.items() if e.expires < now]:
            self._drop(full)

    def _evict(self, func: str, max_entries: int) -> None:
        while self._per_func[func] > max_entries:
            self._drop(next(k for k in self._entries if k[0] == func))
        while self._nbytes > self.max_bytes:
            self._drop(next(iter(self._entries)))


def size_of(obj: object, _seen: set[int] | None = None, _depth: int = 0) -> int:
    """About how many bytes ``obj`` holds: arrays, tables, figures, containers of them.

    numpy arrays count their buffers, pandas objects their deep memory usage, plotly
    figures their traces and layout; containers, dataclasses and plain objects the
    sum of what they hold (each object once). An estimate, for :data:`MAX_BYTES`.

    Examples
    --------
    >>> a = np.zeros(1000)
    >>> size_of(a), size_of((a, a)) - size_of(a) < 100, size_of({"a": a, "b": np.ones(10)}) > 8080
    (8000, True, True)
    """
    seen = set() if _seen is None else _seen
    if id(obj) in seen or _depth > 20:
        return 0
    seen.add(id(obj))
    if isinstance(obj, np.ndarray):
        return int(obj.nbytes)
    if isinstance(obj, (str, bytes, bytearray, int, float, complex, bool)) or obj is None:
        return sys.getsizeof(obj)
    pandas = sys.modules.get("pandas")
    if pandas is not None and isinstance(obj, (pandas.DataFrame, pandas.Series)):
        return int(np.sum(obj.memory_usage(index=True, deep=True)))
    if pandas is not None and isinstance(obj, pandas.Index):
        return int(obj.memory_usage(deep=True))
    if hasattr(obj, "to_plotly_json") and hasattr(obj, "_data"):  # a plotly figure
        parts = [obj._data, getattr(obj, "_layout", None)]
    elif isinstance(obj, dict):
        parts = [*obj.keys(), *obj.values()]
    elif isinstance(obj, (list, tuple, set, frozenset)):
        parts = list(obj)
    elif dataclasses.is_dataclass(obj):
        parts = [getattr(obj, f.name, None) for f in dataclasses.fields(obj)]
    elif hasattr(obj, "__dict__"):
        parts = list(vars(obj).values())
    else:
        return sys.getsizeof(obj)
    return sys.getsizeof(obj) + sum(size_of(p, seen, _depth + 1) for p in parts)


def _release(store: SessionCache) -> None:
    """Empty ``store`` when Streamlit ends its session's session-scoped caches, and
    sweep once the session's reconnection time is over (:func:`sweep_later`)."""
    store.clear()
    sweep_later()


#: Seconds after a session's disconnect at which :func:`sweep` runs, beyond
#: ``server.disconnectedSessionTTL``.
SWEEP_DELAY = 2.0
_sweep_lock = threading.Lock()
_sweep_due: list[float] = []  # the latest time a sweep is wanted, while one is pending


def sweep_later() -> None:
    """Run :func:`sweep` once every session that disconnected until now is past its
    reconnection time; one timer at a time, run again while later ones are due."""
    from streamlit import config

    due = time.monotonic() + float(config.get_option("server.disconnectedSessionTTL"))
    with _sweep_lock:
        pending = bool(_sweep_due)
        _sweep_due[:] = [max([due, *_sweep_due])]
    if not pending:
        _start_sweep(due)


def _start_sweep(due: float) -> None:
    timer = threading.Timer(max(0.0, due - time.monotonic()) + SWEEP_DELAY, _sweep_when_due)
    timer.daemon = True
    timer.start()


def _sweep_when_due() -> None:
    started = time.monotonic()
    sweep()
    with _sweep_lock:
        later = _sweep_due[0] if _sweep_due and _sweep_due[0] > started else None
        if later is None:
            _sweep_due.clear()
    if later is not None:
        _start_sweep(later)


def sweep(manager=None) -> dict:
    """Give the memory of closed sessions back: reap, collect, trim.

    1. Streamlit keeps a disconnected session for ``server.disconnectedSessionTTL``
       seconds in a TTL cache that drops expired sessions only on its next write,
       and without shutting them down: when the last visitors leave, their sessions
       (datasets included) stay until someone else disconnects, and the uploaded
       files of a dropped session stay in Streamlit's file manager. Expired
       sessions are reaped here and shut down as ``close_session`` does (which
       removes their uploaded files).
    2. A dropped session's objects form reference cycles: a full garbage collection
       frees them now rather than whenever the collector next runs.
    3. glibc's ``malloc_trim(0)`` hands the freed heap pages back to the system.

    Measured with four sessions of 200,000-row uploads: 284 MB after their TTL,
    249 MB reaped and collected, 233 MB trimmed (180 MB warm). Steps 1 and 3 use
    Streamlit's session manager internals (1.67) and glibc; each is skipped when
    absent, and nothing that is not expired is touched.

    Parameters
    ----------
    manager : optional
        The session manager (the running Streamlit runtime's by default).

    Returns
    -------
    dict
        What was done: ``reaped`` sessions, ``collected`` objects, ``trimmed``.

    Examples
    --------
    >>> sorted(sweep())  # no Streamlit runtime here: collect and trim only
    ['collected', 'reaped', 'trimmed']
    """
    done = {"reaped": 0, "collected": 0, "trimmed": False}
    try:
        if manager is None:
            from streamlit import runtime

            manager = runtime.get_instance()._session_mgr if runtime.exists() else None
        storage = getattr(getattr(manager, "_session_storage", None), "_cache", None)
        lock = getattr(manager, "_storage_lock", None)
        if storage is not None and callable(getattr(storage, "expire", None)) and lock:
            with lock:
                expired = storage.expire() or []
            for _, info in expired:  # what close_session does to a stored session
                info.session.shutdown()
            done["reaped"] = len(expired)
            del expired
    except Exception:  # internals of another Streamlit version: leave them alone
        LOG.warning("expired sessions not reaped", exc_info=True)
    done["collected"] = gc.collect()
    try:
        done["trimmed"] = bool(ctypes.CDLL("libc.so.6").malloc_trim(0))
    except (OSError, AttributeError):  # not glibc
        pass
    return done


@st.cache_resource(scope="session", on_release=_release, show_spinner=False)
def _held_until_disconnect(_store: SessionCache) -> SessionCache:
    """``_store``, as a session-scoped resource: Streamlit calls :func:`_release` on it
    when the session disconnects or shuts down, even while the session's state waits
    for its reconnection (``server.disconnectedSessionTTL``) or for the garbage
    collector (a closed session's objects form reference cycles)."""
    return _store


def current() -> SessionCache | None:
    """The running session's store (made on first use), or None outside a session.

    The store lives in ``st.session_state`` and is emptied when the session
    disconnects (see :func:`_held_until_disconnect`); a session that reconnects
    fills it again. Outside a script run (a plain script, a doctest) there is no
    session to keep anything in: the caller computes without caching.

    Examples
    --------
    >>> current() is None  # no script is running here
    True
    """
    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    store = st.session_state.get(SESSION_KEY)
    if not isinstance(store, SessionCache):
        store = SessionCache()
        st.session_state[SESSION_KEY] = store
    if not len(store):  # new, or emptied by a disconnect: (re)attach it to the session
        _held_until_disconnect(store)
    return store


def use_system_arrow_pool() -> str:
    """Make pyarrow allocate with the C library's ``malloc``, unless the host chose a pool.

    pyarrow's default pool (mimalloc) keeps the memory that the script threads of
    closed sessions allocated (the Arrow tables Streamlit sends, pandas' Arrow
    strings): measured with four sessions of 200,000-row uploads, the server stayed
    at 263 MB after they closed (183 MB before); with the system pool it came back
    to 196 MB. A host that sets ``ARROW_DEFAULT_MEMORY_POOL`` keeps its choice.

    Returns
    -------
    str
        The backend of pyarrow's default pool from now on.

    Examples
    --------
    >>> import pyarrow as pa
    >>> use_system_arrow_pool() == pa.default_memory_pool().backend_name
    True
    """
    import pyarrow as pa

    if not os.environ.get(ARROW_POOL_VARIABLE):
        pa.set_memory_pool(pa.system_memory_pool())
    return pa.default_memory_pool().backend_name


use_system_arrow_pool()  # before any session allocates: the app's first import
