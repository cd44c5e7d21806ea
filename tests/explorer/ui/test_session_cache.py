"""The per-session store of explorer.ui.session_cache, and how explorer.ui.cache routes to it.

A call with a session's own dataset (upload, edit, link) is kept in the running
session's store, never in Streamlit's process-wide caches; a bundled sample's
call is kept in the process-wide ones. Here a store stands in for the running
session (``session_cache.current`` patched); tests/explorer/test_session_cache_app.py
runs the same in AppTest sessions.
"""

from __future__ import annotations

import dataclasses

import numpy as np
import pandas as pd
import pytest

from explorer.datasets import Dataset
from explorer.ui import cache, session_cache
from explorer.ui.session_cache import SessionCache, size_of


def dataset(source: str, name: str = "mine.csv", n: int = 50) -> Dataset:
    rng = np.random.default_rng(3)
    y = (np.arange(n) % 2).astype(float)
    return Dataset(name, "binary", y, {"m": rng.random(n)}, source=source)


def counting():
    """A pure function of (ds, k, _hint), and the list of its calls."""
    calls = []

    def sorted_scores(ds: Dataset, k: int = 1, _hint: object = None) -> np.ndarray:
        calls.append(k)
        return np.sort(ds.score())[::k].copy()

    return sorted_scores, calls


@pytest.fixture
def store(monkeypatch) -> SessionCache:
    """A store standing in for the running session's."""
    s = SessionCache()
    monkeypatch.setattr(session_cache, "current", lambda: s)
    return s


@pytest.mark.parametrize("declare", [cache.value, cache.shared], ids=["value", "shared"])
def test_a_session_owned_call_goes_to_the_session_store_not_the_global_cache(store, declare):
    func, calls = counting()
    cached = declare(func)
    own = dataset("upload")
    first = cached(own)
    again = cached(own)
    np.testing.assert_array_equal(first, np.sort(own.score()))
    np.testing.assert_array_equal(again, first)
    assert len(calls) == 1  # the second call was a hit
    assert [name for name, _ in store.keys()] == [cached.session_name]
    # A bundled sample with the same name and numbers has the same cache_key: had the
    # upload's call entered the global cache, this would be a hit there.
    twin = dataclasses.replace(own, source="sample")
    assert twin.cache_key == own.cache_key and not twin.session_owned
    np.testing.assert_array_equal(cached(twin), first)
    assert len(calls) == 2
    cached(twin)
    assert len(calls) == 2  # the sample's call is kept, in the global cache
    assert len(store) == 1  # and not in the session's store


def test_value_entries_are_copies_and_shared_entries_are_the_same_object(store):
    own = dataset("edit")
    copied, shared = cache.value(counting()[0]), cache.shared(counting()[0])
    a = copied(own)
    a[:] = -1.0  # a caller that mutates its copy changes nothing kept
    b = copied(own)
    assert (b >= 0).all() and b is not copied(own)
    assert shared(own) is shared(own)


def test_the_session_key_skips_underscore_arguments_and_covers_the_others(store):
    func, calls = counting()
    cached = cache.value(func)
    own = dataset("link")
    cached(own, 1, _hint="a")
    cached(own, 1, _hint="b")  # `_hint` is not part of the key, as in st.cache_data
    assert len(calls) == 1
    cached(own, 2)
    cached(own, k=2)  # keyed by the argument's name, given by position or by keyword
    assert calls == [1, 2]
    renamed = dataclasses.replace(own, name="other.csv")  # same numbers, other name
    cached(renamed, 1)
    assert calls == [1, 2, 1] and len(store) == 3


def test_without_a_running_session_a_session_owned_call_is_not_kept(monkeypatch):
    monkeypatch.setattr(session_cache, "current", lambda: None)
    func, calls = counting()
    cached = cache.shared(func)
    own = dataset("upload")
    cached(own)
    cached(own)
    assert len(calls) == 2  # nowhere to keep it: computed each time
    cached(dataclasses.replace(own, source="sample"))
    assert len(calls) == 3  # and the global cache did not get it either


def test_clear_and_clear_all_empty_the_running_sessions_store(store):
    a, b = cache.value(counting()[0]), cache.shared(counting()[0])
    own = dataset("upload")
    a(own)
    b(own)
    assert len(store) == 2
    a.clear()
    assert [name for name, _ in store.keys()] == [b.session_name]
    cache.clear_all()
    assert len(store) == 0 and store.nbytes == 0


def test_clear_all_empties_the_caches_every_session_shares():
    (f, f_calls), (g, g_calls) = counting(), counting()
    a, b = cache.value(f), cache.shared(g)
    shared_sample = dataset("sample")
    for _ in range(2):
        a(shared_sample)
        b(shared_sample)
    assert (len(f_calls), len(g_calls)) == (1, 1)  # kept: the second calls were hits
    cache.clear_all()
    a(shared_sample)
    b(shared_sample)
    assert (len(f_calls), len(g_calls)) == (2, 2)  # emptied: computed again


# ------------------------------------------------------------------ the bounds
def test_each_function_keeps_at_most_its_entries_oldest_out_recently_used_kept():
    s = SessionCache()
    args = dict(copy=False, max_entries=3, ttl=60)
    for k in range(3):
        s.get_or_compute("f", k, lambda k=k: k, **args)
    s.get_or_compute("f", 0, lambda: pytest.fail("0 is kept"), **args)  # 0 is now the newest
    s.get_or_compute("g", 0, lambda: "g", **args)  # another function's entries do not count
    s.get_or_compute("f", 3, lambda: 3, **args)
    assert s.keys() == [("f", 2), ("f", 0), ("g", 0), ("f", 3)]  # 1, the oldest, went


def test_the_store_keeps_at_most_max_bytes_oldest_out():
    s = SessionCache(max_bytes=25_000)
    args = dict(copy=False, max_entries=64, ttl=60)
    for k in range(3):  # 8,000 bytes each: three fit
        s.get_or_compute("f", k, lambda: np.zeros(1000), **args)
    assert len(s) == 3 and s.nbytes == 24_000
    s.get_or_compute("g", 0, lambda: np.zeros(1000), **args)
    assert [k for _, k in s.keys()] == [1, 2, 0] and s.nbytes == 24_000
    big = s.get_or_compute("h", 0, lambda: np.zeros(4000), **args)
    assert big.shape == (4000,) and ("h", 0) not in s.keys()  # returned, not kept
    assert s.nbytes == 24_000


def test_a_copied_entry_counts_its_pickled_bytes():
    s = SessionCache(max_bytes=10**6)
    s.get_or_compute("f", 0, lambda: np.zeros(10_000), copy=True, max_entries=4, ttl=60)
    assert 80_000 < s.nbytes < 81_000


def test_an_entry_lives_its_ttl():
    now = [0.0]
    s = SessionCache(clock=lambda: now[0])
    calls = []
    args = dict(copy=True, max_entries=4, ttl=10)

    def compute():
        calls.append(now[0])
        return len(calls)

    assert s.get_or_compute("f", 0, compute, **args) == 1
    now[0] = 10.0
    assert s.get_or_compute("f", 0, compute, **args) == 1
    now[0] = 10.5
    assert s.get_or_compute("f", 0, compute, **args) == 2 and calls == [0.0, 10.5]


def test_size_of_counts_arrays_tables_figures_and_containers_once():
    a = np.zeros(10_000)
    assert size_of(a) == 80_000
    assert 80_000 < size_of((a, a, [a])) < 80_300  # the same array once
    frame = pd.DataFrame({"x": np.zeros(1000), "id": [f"id{i}" for i in range(1000)]})
    assert size_of(frame) == int(frame.memory_usage(index=True, deep=True).sum()) > 11_000

    @dataclasses.dataclass
    class Pair:
        left: np.ndarray
        right: pd.DataFrame

    assert size_of(Pair(a, frame)) > size_of(a) + size_of(frame)
    import plotly.graph_objects as go

    fig = go.Figure(go.Scatter(x=np.arange(5000.0), y=np.arange(5000.0)))
    assert size_of(fig) > 80_000


# ------------------------------------------------------------------ pyarrow's pool
@pytest.mark.parametrize(("variable", "backend"), [(None, "system"), ("jemalloc", "jemalloc")])
def test_the_app_allocates_arrow_memory_with_malloc_unless_the_host_chose(variable, backend):
    """Importing the app's caches switches pyarrow to the system pool (mimalloc kept the
    memory of closed sessions); a host's ARROW_DEFAULT_MEMORY_POOL wins."""
    import os
    import subprocess
    import sys

    env = {k: v for k, v in os.environ.items() if k != session_cache.ARROW_POOL_VARIABLE}
    if variable:
        env[session_cache.ARROW_POOL_VARIABLE] = variable
    code = "import explorer.ui.cache, pyarrow as pa; print(pa.default_memory_pool().backend_name)"
    run = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split()[-1] == backend


# ------------------------------------------------------------------ the sweep
def test_sweep_reaps_and_shuts_down_the_expired_sessions_only():
    """Streamlit's session storage (a TTL cache) drops expired sessions only on its
    next write, without shutting them down; the sweep reaps them and shuts them down."""
    import threading
    import weakref
    from types import SimpleNamespace

    from streamlit.runtime.memory_session_storage import MemorySessionStorage

    now = [0.0]
    storage = MemorySessionStorage(ttl_seconds=120)
    storage._cache._timer = lambda: now[0]  # the storage's clock, moved by hand

    class Session:
        def __init__(self, sid):
            self.id, self.closed, self.data = sid, False, np.zeros(1000)

        def shutdown(self):
            self.closed = True

    sessions = {sid: Session(sid) for sid in ("gone", "back")}
    storage.save(SimpleNamespace(session=sessions["gone"]))
    now[0] = 100.0
    storage.save(SimpleNamespace(session=sessions["back"]))
    manager = SimpleNamespace(_session_storage=storage, _storage_lock=threading.Lock())
    data = weakref.ref(sessions["gone"].data)
    now[0] = 150.0  # "gone" disconnected 150 s ago, "back" 50 s ago (TTL 120 s)
    gone = sessions.pop("gone")
    done = session_cache.sweep(manager)
    assert done["reaped"] == 1 and gone.closed and not sessions["back"].closed
    assert storage.get("back") is not None and storage.get("gone") is None
    del gone
    assert data() is None  # nothing else holds the reaped session
    assert session_cache.sweep(manager)["reaped"] == 0


def test_sweep_without_a_runtime_collects_and_leaves_streamlit_alone():
    done = session_cache.sweep()
    assert done["reaped"] == 0 and done["collected"] >= 0
