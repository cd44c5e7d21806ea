"""A session keeps a bounded number of datasets: the oldest go first, with a notice."""

from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from explorer.io import read_upload
from explorer.registry import script
from explorer.samples import load_sample
from explorer.ui import session, session_cache, sidebar
from tests.conftest import APP, rendered


def table(k: int, n: int = 3) -> bytes:
    rows = "".join(f"{i % 2},0.{k}{i}\n" for i in range(n))
    return f"y_true,y_score\n{rows}".encode()


def upload(at: AppTest, name: str, body: bytes) -> AppTest:
    at.file_uploader(key="data_upload_file").upload(name, body, "text/csv").run()
    assert not at.exception
    return at


@pytest.fixture
def at() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=30).run()
    return at.switch_page(script("data")).run()


def kept(at: AppTest) -> list[str]:
    return list(at.session_state[session.SESSION])


def test_the_sixth_upload_drops_the_oldest_with_a_notice(at):
    for k in range(5):
        upload(at, f"f{k}.csv", table(k))
    assert kept(at) == [f"f{k}.csv" for k in range(5)]
    assert not at.info
    upload(at, "f5.csv", table(5))
    assert kept(at) == [f"f{k}.csv" for k in range(1, 6)]
    assert at.session_state[session.ACTIVE] == "f5.csv"
    notice = rendered(at.info[0].value)
    assert "'f0.csv'" in notice and "at most 5" in notice and len(notice) < 300
    assert "f0.csv" not in at.selectbox(key=sidebar.PICKER).options
    at.run()  # the notice is shown once
    assert not at.info


def test_the_active_dataset_is_never_dropped(at):
    for k in range(5):
        upload(at, f"f{k}.csv", table(k))
    at.selectbox(key=sidebar.PICKER).set_value("f0.csv").run()  # the oldest, made active
    upload(at, "f5.csv", table(5))
    assert kept(at) == ["f0.csv", "f2.csv", "f3.csv", "f4.csv", "f5.csv"]
    assert "'f1.csv'" in rendered(at.info[0].value)


def test_the_byte_cap_drops_the_oldest_but_keeps_a_big_new_one(at, monkeypatch):
    one = session.dataset_bytes(read_upload("f0.csv", table(0, 40)))
    monkeypatch.setattr(session, "MAX_SESSION_BYTES", 2 * one + one // 2)
    for k in range(3):
        upload(at, f"f{k}.csv", table(k, 40))
    assert kept(at) == ["f1.csv", "f2.csv"]
    assert "'f0.csv'" in rendered(at.info[0].value)
    # bigger than the cap by itself: kept, and so is f2.csv, the active one when it came
    upload(at, "big.csv", table(9, 400))
    assert kept(at) == ["f2.csv", "big.csv"]
    assert at.session_state[session.ACTIVE] == "big.csv"
    assert "'f1.csv'" in rendered(at.info[0].value) and "Upload it again" in rendered(
        at.info[0].value
    )
    upload(at, "small.csv", table(8, 2))
    assert kept(at) == ["big.csv", "small.csv"]  # over the cap, but both are spared


def test_uploading_the_same_name_again_replaces_it_and_makes_it_the_newest(at):
    for k in range(3):
        upload(at, f"f{k}.csv", table(k))
    upload(at, "f0.csv", table(7, 5))
    assert kept(at) == ["f1.csv", "f2.csv", "f0.csv"]
    assert at.session_state[session.SESSION]["f0.csv"].n_samples == 5


def test_an_upload_named_like_a_sample_does_not_hide_the_sample(at):
    qrels = b"1 0 d1 1\n1 0 d2 0\n"
    run = b"1 Q0 d1 1 2.0 tag\n1 Q0 d2 2 1.0 tag\n"
    at.file_uploader(key="data_upload_qrels").upload("q.txt", qrels, "text/plain")
    at.file_uploader(key="data_upload_run").upload("balanced", run, "text/plain")
    at.run()
    assert not at.exception
    assert kept(at) == ["balanced (upload)"]
    assert at.session_state[session.ACTIVE] == "balanced (upload)"
    at.selectbox(key=sidebar.PICKER).set_value("balanced").run()
    samples = next(m.value for m in at.metric if m.label == "Samples")
    assert samples == str(load_sample("balanced").n_samples) != "1"


def _own_bytes(at: AppTest) -> tuple[int, int]:
    """(bytes of the session's datasets, bytes of its store of computations)."""
    datasets = sum(map(session.dataset_bytes, at.session_state[session.SESSION].values()))
    return datasets, at.session_state[session_cache.SESSION_KEY].nbytes


def test_the_budget_counts_the_computations_on_the_session_datasets_too(at, monkeypatch):
    upload(at, "a.csv", table(1, 3000))
    at.switch_page(script("curves")).run()  # sort orders, curves, tables: in the store
    assert not at.exception
    datasets, derived = _own_bytes(at)
    assert derived > 100_000
    # a budget that holds two datasets and half of what one's pages computed
    budget = 2 * datasets + derived // 2
    monkeypatch.setattr(session, "MAX_SESSION_TOTAL", budget)
    monkeypatch.setattr(session, "MIN_STORE_BYTES", 0)
    at.switch_page(script("data")).run()
    upload(at, "b.csv", table(2, 3000))  # keeping b shrinks the store to what is left
    datasets, derived = _own_bytes(at)
    assert kept(at) == ["a.csv", "b.csv"] and datasets + derived <= budget
    at.switch_page(script("curves")).run()  # b's computations push out the oldest
    assert not at.exception
    datasets, derived = _own_bytes(at)
    assert 0 < derived and datasets + derived <= budget
