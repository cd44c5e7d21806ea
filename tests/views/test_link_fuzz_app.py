"""Link fuzz in AppTest: the app opened with hostile ``?data=`` links never shows a traceback.

The tokens are those of tests/fuzz.py (tests/explorer/test_link_fuzz.py runs
1,000 and more through the decoder). Each opens a fresh session on a page that
fits the dataset's kind (or the Data page), with one to three page settings set
to absurd values (``inf``, a 400-digit number...). A token that decodes becomes
the active dataset (a bundled sample's name gets `` (link)``); one that does
not leaves a notice and opens the default sample.

By default 120 links: the first 80 take each of the 20 kinds of tests/fuzz.py's
``link_case`` four times (it cycles through them), the rest are drawn at random. The
long mode is ``FUZZ_CASES=40000 python3 dev.py test tests/views/test_link_fuzz_app.py``
(2,000 links, in parts of about 60 that pytest-xdist spreads over the cores).
"""

from __future__ import annotations

import random

import pytest
from streamlit import config
from streamlit.testing.v1 import AppTest

from explorer.formatting import literal
from explorer.io import DataError
from explorer.links import decode_dataset
from explorer.registry import script
from explorer.samples import sample_names
from explorer.ui import session
from tests.conftest import APP
from tests.fuzz import app_cases, link_case

SEED = 1919
# 120 app opens by default (about 0.1 CPU s each; 0.4 s before tests/conftest.py scanned
# the installed packages once), every kind of token four times or more; every one of the
# 1,000+ tokens still goes through the decoder in tests/explorer/test_link_fuzz.py;
# FUZZ_CASES=40000 runs 2,000 here
CASES = app_cases(120, "FUZZ_LINKS")
#: The cases run as this many tests, so that pytest-xdist spreads them over the cores.
PARTS = max(2, CASES // 60)
PAGES_OF = {
    "binary": (script("curves"), script("home"), script("data")),
    "regression": (script("regression"), script("data"), script("compare")),
    "multilabel": (script("multilabel"), script("label_ranking"), script("data")),
    "graded": (script("dcg"), script("retrieval"), script("label_ranking"), script("data")),
}
PARAMS = ("t", "k", "i", "bins", "cbins", "beta", "log_base", "page", "sample", "query",
          "label", "max_grade", "rel_level", "model", "wi", "ds", "a", "b")  # fmt: skip
ABSURD = ("inf", "-inf", "nan", "1e400", "9" * 400, "-" + "9" * 400, "-0", "1e-400", "0x10",
          "", "=1+1", "balanced", "1:0=inf")  # fmt: skip


def open_link(page: str, params: dict[str, str]) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=60)
    at.query_params.update(params)
    return at.switch_page(page).run()


@pytest.mark.parametrize("part", range(PARTS))
def test_app_opened_with_hostile_links_shows_no_traceback(part):
    config.set_option("client.showErrorDetails", "full")  # a failure shows the traceback
    failures = []
    for i in range(part, CASES, PARTS):
        what, token = link_case(SEED, i)
        r = random.Random(f"app:{SEED}:{i}")
        try:
            ds = decode_dataset(token)
        except DataError as exc:
            ds, refusal = None, str(exc)
        page = r.choice(PAGES_OF[ds.kind]) if ds else script("home")
        params = {"data": token}
        params.update({r.choice(PARAMS): r.choice(ABSURD) for _ in range(r.randint(0, 3))})
        at = open_link(page, params)
        where = f"link_case({SEED}, {i}) [{what}] on {page} with {sorted(params)}"
        if at.exception:
            e = at.exception[0]
            failures.append(f"{where}: {e.value[:200]} at {e.stack_trace[-1:]}")
            continue
        active = at.session_state[session.ACTIVE]
        if ds is None:
            if token:  # an empty ?data= is no link at all
                assert literal(refusal) in [e.value for e in at.error], where
            assert active == session.DEFAULT_SAMPLE, where
            continue
        name = f"{ds.name} (link)" if ds.name in sample_names() else ds.name
        assert active == name, where
        assert at.session_state[session.SESSION][name].n_samples == ds.n_samples, where
        if name != ds.name:  # the bundled sample of that name is still the sample
            assert ds.name not in at.session_state[session.SESSION], where
    assert not failures, "\n".join(failures)
