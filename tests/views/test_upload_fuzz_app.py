"""Upload fuzz through the Data page in AppTest: hostile files never show a traceback.

The cases are those of tests/fuzz.py (the reader-level fuzz runs 1,000 and more
in tests/explorer/test_upload_fuzz.py); here each goes through the page's own
uploaders in one session. A refused file leaves a notice quoting the reader's
refusal and the previous dataset active; an accepted one becomes the active
dataset and the page renders it.

By default 252 cases: the first 84 take each of the 21 mutations of tests/fuzz.py
four times (``upload_case`` cycles through them), the rest are drawn at random, so
every kind of hostile file reaches the page (every case also goes through the reader
in the test, and the reader-level fuzz runs 1,000). The long mode is
``FUZZ_CASES=40000 python3 dev.py test tests/views/test_upload_fuzz_app.py``: 2,000
cases here, in parts of about 125 that pytest-xdist spreads over the cores.
"""

from __future__ import annotations

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from explorer.formatting import literal
from explorer.io import DataError
from explorer.registry import script
from explorer.samples import load_sample, sample_names
from explorer.ui import session
from tests.conftest import APP
from tests.explorer.test_upload_fuzz import read_case
from tests.fuzz import Case, app_cases, upload_case

SEED = 1919
CASES = app_cases(252, "FUZZ_UPLOADS")  # FUZZ_CASES=40000: 2,000; FUZZ_UPLOADS=10000: all
#: The cases run as this many tests, so that pytest-xdist spreads them over the cores
#: (an odd count of mutations, 21, so each part still meets every mutation).
PARTS = max(2, CASES // 125)
#: The extensions each uploader's ``type=`` lets the browser pick (any for TREC).
PICKABLE = {
    "one": (".csv", ".tsv", ".txt", ".parquet"),
    "pair": (".csv", ".tsv", ".txt", ".parquet", ".npy"),
}
KEYS = {
    "one": ["data_upload_file"],
    "pair": ["data_upload_labels", "data_upload_scores"],
    "trec": ["data_upload_qrels", "data_upload_run"],
}


def as_picked(case: Case) -> Case:
    """The case as a browser sends it: a file the uploader's type list does not allow
    cannot be picked, so it goes under a name with an allowed extension."""
    allowed = PICKABLE.get(case.entry)
    if allowed:
        case.files = [(n if n.lower().endswith(allowed) else f"{n}.csv", d) for n, d in case.files]
    return case


@pytest.mark.parametrize("part", range(PARTS))
def test_data_page_upload_fuzz_notices_and_keeps_the_previous_dataset(part):
    config.set_option("client.showErrorDetails", "full")  # a failure shows the traceback
    at = AppTest.from_file(APP, default_timeout=60).run()
    at.switch_page(script("data")).run()
    good = b"y_true,y_score\n0,0.1\n1,0.8\n"
    at.file_uploader(key="data_upload_file").upload("good.csv", good, "text/csv").run()
    assert at.session_state[session.ACTIVE] == "good.csv"
    counts = {"dataset": 0, "refused": 0}
    mine = range(part, CASES, PARTS)
    for i in mine:
        case = as_picked(upload_case(SEED, i))
        before = at.session_state[session.ACTIVE]
        try:
            expected = read_case(case)
        except DataError as exc:
            expected = exc
        for key, (name, data) in zip(KEYS[case.entry], case.files, strict=True):
            at.file_uploader(key=key).upload(name, data, "application/octet-stream")
        at.run()
        where = f"upload_case({SEED}, {i}) [{case.what}]"
        assert not at.exception, f"{where}: {at.exception[0].value} {at.exception[0].stack_trace}"
        if isinstance(expected, DataError):
            counts["refused"] += 1
            notices = [e.value for e in at.error]
            shown = literal(expected)  # the refusal quotes the file: it is shown escaped
            assert f"Not loaded, your data is unchanged: {shown}" in notices, where
            assert at.session_state[session.ACTIVE] == before, where
        else:
            counts["dataset"] += 1
            name = expected.name
            if name in sample_names():
                name = f"{name} (upload)"
            assert at.session_state[session.ACTIVE] == name, where
            assert at.session_state[session.SESSION][name].n_samples == expected.n_samples
            assert len(at.session_state[session.SESSION]) <= session.MAX_SESSION_DATASETS
        active = at.session_state[session.ACTIVE]
        ds = at.session_state[session.SESSION].get(active) or load_sample(active)
        assert next(m.value for m in at.metric if m.label == "Samples") == str(ds.n_samples)
    # the mix holds both (at 1,000 cases in 4 parts: at least 5 datasets and 100 refusals)
    assert counts["dataset"] >= 5 and counts["refused"] >= 2 * len(mine) // 5, counts
