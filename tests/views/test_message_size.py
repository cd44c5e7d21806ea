"""What a page sends stays a window of the data, far below ``server.maxMessageSize``.

hosting/config.toml lowers ``maxMessageSize`` to 50 MB; a page that sent a
whole 2,000,000-row table as one element would break on the hosted server.
Each element of a page reaches the browser in its own message, so the
biggest element's protobuf is what must stay small. At 200,000 binary rows a
whole table is about 4 MB, at 20,000 x 50 about 8 MB: a 1 MB bound per
element catches that and passes the windows the pages show.

Measured by hand at 10^6 binary rows and 100,000 x 100 (see docs/hosting.md):
the biggest element is under 0.7 MB.
"""

from __future__ import annotations

import io

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from explorer.pages import compare
from explorer.registry import script
from tests.conftest import APP

LIMIT = 1_000_000


def _elements(node):
    yield node
    children = getattr(node, "children", None)
    if isinstance(children, dict):
        for child in children.values():
            yield from _elements(child)


def biggest(at: AppTest) -> tuple[int, str]:
    """The largest element proto on the page (AppTest's element tree)."""
    sizes = [
        (n.proto.ByteSize(), type(n).__name__)
        for n in _elements(at._tree)
        if hasattr(getattr(n, "proto", None), "ByteSize")
    ]
    return max(sizes)


def _npy(a: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.save(buf, a)
    return buf.getvalue()


@pytest.fixture(scope="module")
def rng():
    return np.random.default_rng(7)


def _data_page() -> AppTest:
    at = AppTest.from_file(APP, default_timeout=120).run()
    return at.switch_page(script("data")).run()


def test_binary_pages_send_windows_at_200k_rows(rng):
    n = 200_000
    frame = pd.DataFrame({"y_true": rng.integers(0, 2, n), "y_score": rng.random(n).round(5)})
    at = _data_page()
    at.file_uploader(key="data_upload_file").upload(
        "big.csv", frame.to_csv(index=False).encode(), "text/csv"
    ).run()
    assert not at.error
    for page in (script("curves"), script("home"), script("data")):
        at.switch_page(page).run()
        assert not at.exception
        size, kind = biggest(at)
        assert size < LIMIT, (page, kind, size)


def test_compare_sends_a_reduced_scatter_at_40k_two_model_rows(rng, monkeypatch):
    """A dot a sample made the scatter 1.8 MB at 40,000 rows (73 MB at 2,000,000); it
    is now at most one dot a grid cell (explorer.pages.compare.points). The bootstraps'
    resamples change no dot: 50 instead of 2,000 keep the test quick."""
    monkeypatch.setattr(compare, "N_RESAMPLES", 50)
    n = 40_000
    y = rng.integers(0, 2, n)
    frame = pd.DataFrame(
        {"y_true": y, "score_a": y + rng.normal(size=n), "score_b": y + rng.normal(size=n)}
    )
    at = _data_page()
    at.file_uploader(key="data_upload_file").upload(
        "pair.csv", frame.to_csv(index=False).encode(), "text/csv"
    ).run()
    assert not at.error
    at.switch_page(script("compare")).run()
    assert not at.exception
    size, kind = biggest(at)
    assert size < LIMIT, (kind, size)
    chart = at.get("plotly_chart")[0].proto
    assert chart.ByteSize() > 100_000  # the scatter is there, 10,000 dots or so


@pytest.mark.parametrize(
    ("grades", "pages"),
    [
        (4, (script("dcg"), script("retrieval"))),
        (2, (script("label_ranking"), script("multilabel"))),
    ],
)
def test_matrix_pages_send_windows_at_20k_by_50(rng, grades, pages):
    shape = (20_000, 50)
    at = _data_page()
    labels = _npy(rng.integers(0, grades, shape).astype(np.int8))
    scores = _npy(rng.random(shape).astype(np.float32))
    at.file_uploader(key="data_upload_labels").upload("g.npy", labels, "application/octet-stream")
    at.run()
    at.file_uploader(key="data_upload_scores").upload("s.npy", scores, "application/octet-stream")
    at.run()
    assert not at.error
    for page in pages:
        at.switch_page(page).run()
        assert not at.exception
        size, kind = biggest(at)
        assert size < LIMIT, (page, kind, size)
