"""A session's own datasets are computed in that session only, and leave with it.

AppTest sessions upload datasets and open pages: their computations are kept in
the session's store (explorer.ui.session_cache), not in Streamlit's process-wide
caches, two sessions never share an entry, the store stays within its bound, and
once a session is gone nothing keeps its dataset's arrays alive.
"""

from __future__ import annotations

import gc
import weakref

import numpy as np
from streamlit.runtime import caching
from streamlit.runtime.caching import (
    get_data_cache_stats_provider,
    get_resource_cache_stats_provider,
)
from streamlit.testing.v1 import AppTest

from explorer.registry import script
from explorer.ui import session, session_cache
from tests.conftest import APP
from tests.views.test_no_leak import MINE_IDS, SECRET_IDS, binary_file, shown

PAGES = [script("home"), script("curves"), script("data")]
#: The session id of every AppTest session (streamlit.testing.v1.local_script_runner).
APPTEST_SESSION = "test session id"


def disconnect() -> None:
    """What Streamlit does to a session's caches when its tab disconnects or it ends
    (``AppSession.clear_session_caches``), for the AppTest session."""
    caching.clear_session_data_cache(APPTEST_SESSION)
    caching.clear_session_resource_cache(APPTEST_SESSION)


def global_caches() -> dict[tuple[str, str], int]:
    """What Streamlit's process-wide caches hold: a size per cached function."""
    out = {}
    for provider in (get_data_cache_stats_provider(), get_resource_cache_stats_provider()):
        for family in provider.get_stats().values():
            for stat in family:
                out[(stat.category_name, stat.cache_name)] = stat.byte_length
    return out


def upload_session(name: str, ids: list[str]) -> AppTest:
    """A fresh session that uploads a binary file ``name`` with sample ids ``ids``."""
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(script("data")).run()
    at.file_uploader(key="data_upload_file").upload(name, binary_file("x", ids), "text/csv")
    at.run()
    assert not at.exception and not at.error, [e.value for e in at.error]
    assert at.session_state["active_dataset"] == name
    return at


def visit(at: AppTest, pages: list[str]) -> list[str]:
    seen = []
    for page in pages:
        at.switch_page(page).run()
        assert not at.exception, at.exception
        seen.append(shown(at))
    return seen


def store_of(at: AppTest) -> session_cache.SessionCache:
    return at.session_state[session_cache.SESSION_KEY]


def arrays_kept(store: session_cache.SessionCache):
    """The numpy arrays the store's shared (uncopied) entries hold, at their top level."""
    for entry in list(store._entries.values()):
        if not entry.copied:
            values = entry.value if isinstance(entry.value, tuple) else (entry.value,)
            yield from (v for v in values if isinstance(v, np.ndarray))


def test_an_uploads_computations_stay_in_the_session_and_a_samples_go_global():
    at = upload_session("mine.csv", MINE_IDS)
    before = global_caches()
    visit(at, PAGES)
    assert global_caches() == before  # nothing of the upload entered the global caches
    names = {name.split("#")[0] for name, _ in store_of(at).keys()}
    assert {"explorer.pages.home.headline", "explorer.pages.curves.curves"} <= names
    kept = len(store_of(at))
    at.selectbox(key="dataset_picker").set_value("balanced").run()
    at.switch_page(script("curves")).run()
    assert not at.exception
    after = global_caches()
    grown = {k for k, v in after.items() if before.get(k) != v}
    assert any("curves" in name for _, name in grown), grown  # the sample's went global
    assert len(store_of(at)) == kept  # and not into the session's store


def test_two_sessions_with_the_same_numbers_never_share_an_entry():
    a = upload_session("hospitalX_secret.csv", SECRET_IDS)
    b = upload_session("mine.csv", MINE_IDS)  # the same numbers, other name and ids
    seen_a, seen_b = visit(a, PAGES), visit(b, PAGES)
    assert any("PATIENT-SMITH-0" in text for text in seen_a)
    assert any("q3" in text for text in seen_b)
    for text in seen_b:
        assert "PATIENT-SMITH" not in text and "hospitalX_secret" not in text
    for text in seen_a:
        assert "mine.csv" not in text
    keys_a, keys_b = set(store_of(a).keys()), set(store_of(b).keys())
    assert store_of(a) is not store_of(b) and keys_a and keys_b
    assert {n for n, _ in keys_a} == {n for n, _ in keys_b}  # the same functions ran
    assert not keys_a & keys_b  # under other keys: the names and ids are in the key


def test_the_sessions_store_stays_within_its_bytes(monkeypatch):
    # the budget is all the datasets' (0 left): the store keeps its least, 40,000 bytes
    monkeypatch.setattr(session, "MAX_SESSION_TOTAL", 0)
    monkeypatch.setattr(session, "MIN_STORE_BYTES", 40_000)
    at = upload_session("mine.csv", MINE_IDS)
    seen = visit(at, PAGES + [script("home")])
    store = store_of(at)
    assert store.max_bytes == 40_000 and 0 < store.nbytes <= 40_000
    assert "q3" in seen[-2]  # the pages still show the upload


def test_once_the_session_is_gone_its_datasets_and_computations_are_unreachable():
    at = upload_session("mine.csv", MINE_IDS)
    visit(at, PAGES)
    ds = at.session_state["session_datasets"]["mine.csv"]
    refs = [weakref.ref(ds.y_true), *map(weakref.ref, ds.scores.values())]
    kept = list(arrays_kept(store_of(at)))
    assert kept  # the session keeps shared arrays (sort orders, counts) of its upload
    refs += map(weakref.ref, kept)
    del ds, kept, at  # the session and its state are dropped
    disconnect()
    gc.collect()
    assert [r() is None for r in refs] == [True] * len(refs)


def test_a_disconnect_empties_the_sessions_store_and_a_reconnect_fills_it_again():
    at = upload_session("mine.csv", MINE_IDS)
    visit(at, PAGES)
    store = store_of(at)
    ref = weakref.ref(next(arrays_kept(store)))
    assert len(store) > 0 and ref() is not None
    disconnect()  # the tab closed: the session's state stays for a reconnection
    assert len(store) == 0 and store.nbytes == 0 and ref() is None
    assert "mine.csv" in at.session_state["session_datasets"]
    seen = visit(at, [script("curves"), script("data")])  # the tab reconnected
    assert store_of(at) is store and len(store) > 0 and "q3" in seen[1]
    disconnect()
    assert len(store) == 0  # attached again: the next disconnect empties it too
